//! The linter (docs/lint.md) and SURT keys (`irinorm::surt`) from Python.

use irinorm::Grammar;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::calls::json_to_py;
use crate::errors::usage;
use crate::text::{out, text};

/// Lints `url` (docs/lint.md): a dict with `valid`, `findings` (each with
/// `code`, `severity`, `component`, `offset`, `len`, `message`, `detail`)
/// and `error` (`None`, or `kind`, `offset`, `message` when `url` does not
/// parse), the fields of `irinorm check --lint --format jsonl`; also
/// `input_len`, `grammar` and `parse_error` (the error with its
/// `component`, kept for callers of earlier versions).
///
/// A parse failure is the `error`, not a finding: `check --lint` rejects
/// the line with its kind and offset and lists the other findings, and so
/// does this (round 22, docs/python.md; before, the failure was also a
/// `parse-error` finding here and not in the CLI).
///
/// >>> r = lint("http://www.example.com@evil.example/")
/// >>> [f["code"] for f in r["findings"]]
/// ['userinfo-present', 'userinfo-looks-like-host']
/// >>> r = lint("http://a b/")
/// >>> (r["valid"], r["error"]["kind"], r["error"]["offset"], r["findings"])
/// (False, 'invalid-char', 8, [])
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
    let mut v = serde_json::to_value(&r).map_err(|e| usage(e.to_string()))?;
    if let Some(o) = v.as_object_mut() {
        // As `check --lint` (irinorm-cli `cmd/check.rs`): the failure is
        // the record's `error` (the CLI's `{kind, offset, message}`), the
        // findings are the others.
        if let Some(serde_json::Value::Array(f)) = o.get_mut("findings") {
            f.retain(|f| f["code"] != "parse-error");
        }
        let error = match &r.error {
            Some(e) => serde_json::json!({
                "kind": e.kind().code(),
                "offset": e.offset(),
                "message": cli_reason(e),
            }),
            None => serde_json::Value::Null,
        };
        o.insert("error".to_owned(), error);
    }
    json_to_py(py, &v)
}

/// The CLI's reject reason (irinorm-stream `failure.rs`): the core's
/// message without its trailing " at byte N", the offset being a field.
fn cli_reason(e: &irinorm::ParseError) -> String {
    let m = e.to_string();
    let suffix = format!(" at byte {}", e.offset());
    m.strip_suffix(&suffix)
        .map_or_else(|| m.clone(), str::to_owned)
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
