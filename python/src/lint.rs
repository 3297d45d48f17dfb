//! The linter (docs/lint.md) and SURT keys (`irinorm::surt`) from Python.

use irinorm::Grammar;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::calls::json_to_py;
use crate::errors::usage;
use crate::text::{out, text};

/// Lints `url` (docs/lint.md): a dict with `valid`, `parse_error` and
/// `findings` (each with `code`, `severity`, `component`, `offset`, `len`,
/// `message`, `detail`), as `irinorm check --lint --format jsonl`.
///
/// >>> r = lint("http://www.example.com@evil.example/")
/// >>> [f["code"] for f in r["findings"]]
/// ['userinfo-present', 'userinfo-looks-like-host']
#[pyfunction]
#[pyo3(signature = (url, grammar="IRI-reference"))]
pub(crate) fn lint<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    grammar: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let g = grammar.parse::<Grammar>().map_err(usage)?;
    let t = text(url, None)?;
    let opts = irinorm_lint::LintOptions {
        grammar: g,
        ..Default::default()
    };
    let r = irinorm_lint::lint(&t.s, &opts);
    let v = serde_json::to_value(&r).map_err(|e| usage(e.to_string()))?;
    json_to_py(py, &v)
}

/// `surt.surt(url, **options)` of the `surt` package (0.3.1), byte for
/// byte (`irinorm::surt`): the key of CDX indexes. `str` in, `str` out;
/// `bytes` in (any bytes), `bytes` out. Raises `ValueError` where the
/// package raises (a blank URL, a port that is not a number).
///
/// >>> _surt("http://www.archive.org/")
/// 'org,archive)/'
/// >>> _surt("http://archive.org/goo/?b&a", with_scheme=True, trailing_comma=True)
/// 'http://(org,archive,)/goo?a&b'
#[pyfunction]
#[pyo3(signature = (url, with_scheme=false, trailing_comma=false, reverse_ipaddr=true, host_massage=true))]
pub(crate) fn _surt<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    with_scheme: bool,
    trailing_comma: bool,
    reverse_ipaddr: bool,
    host_massage: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use irinorm::surt::{surt_bytes, surt_with, SurtOptions};
    let o = SurtOptions {
        with_scheme,
        trailing_comma,
        reverse_ipaddr,
        host_massage,
    };
    let err = |e: irinorm::surt::SurtError| pyo3::exceptions::PyValueError::new_err(e.to_string());
    if let Ok(b) = url.cast::<PyBytes>() {
        let k = surt_bytes(b.as_bytes(), o).map_err(err)?;
        return Ok(PyBytes::new(py, &k).into_any());
    }
    let t = text(url, None)?;
    let k = surt_with(&t.s, o).map_err(err)?;
    Ok(out(py, &k, false))
}
