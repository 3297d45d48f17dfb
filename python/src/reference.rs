//! References: `parse` into components (RFC 3986 §3, RFC 3987 §2.2),
//! `resolve` (RFC 3986 §5.2), and the mappings `to_uri`/`to_iri` (RFC 3987
//! §3.1, §3.2).

use irinorm::{Components, Grammar, ToUriOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{parse_error, usage};
use crate::text::{out, text};

/// The components of a parsed reference (RFC 3986 §3, RFC 3987 §2.2).
/// Absent components are `None` (an empty query `?` is `""`).
#[pyclass(frozen, module = "irinorm", name = "Reference", get_all)]
pub(crate) struct Reference {
    /// The input.
    text: String,
    /// The grammar it was parsed with.
    grammar: &'static str,
    scheme: Option<String>,
    authority: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    /// `ipv4`, `ipv6`, `ipvfuture` or `reg-name` (see the CLI's `parse`).
    host_kind: Option<&'static str>,
    port: Option<String>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

#[pymethods]
impl Reference {
    /// The components as a dict (the keys of `irinorm parse --format jsonl`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("scheme", &self.scheme)?;
        d.set_item("authority", &self.authority)?;
        d.set_item("userinfo", &self.userinfo)?;
        d.set_item("host", &self.host)?;
        d.set_item("host_kind", self.host_kind)?;
        d.set_item("port", &self.port)?;
        d.set_item("path", &self.path)?;
        d.set_item("query", &self.query)?;
        d.set_item("fragment", &self.fragment)?;
        Ok(d)
    }

    /// Whether this is an absolute reference (it has a scheme).
    #[getter]
    fn is_absolute(&self) -> bool {
        self.scheme.is_some()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Reference({:?}", self.text);
        let fields = [
            ("scheme", &self.scheme),
            ("userinfo", &self.userinfo),
            ("host", &self.host),
            ("port", &self.port),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                s.push_str(&format!(", {k}={v:?}"));
            }
        }
        s.push_str(&format!(", path={:?}", self.path));
        for (k, v) in [("query", &self.query), ("fragment", &self.fragment)] {
            if let Some(v) = v {
                s.push_str(&format!(", {k}={v:?}"));
            }
        }
        s.push(')');
        s
    }
}

/// Parses `url` with `grammar` (default `IRI-reference`; also `URI`,
/// `URI-reference`, `absolute-URI`, `relative-ref`, `IRI`,
/// `absolute-IRI`, `irelative-ref`). Raises `ParseError`.
///
/// >>> r = parse("http://user@example.com:8080/a/b?q=1#top")
/// >>> r.host, r.host_kind, r.port, r.path, r.query, r.fragment
/// ('example.com', 'reg-name', '8080', '/a/b', 'q=1', 'top')
/// >>> parse("//[::1]/x").host_kind
/// 'ipv6'
#[pyfunction]
#[pyo3(signature = (url, grammar="IRI-reference"))]
pub(crate) fn parse(py: Python<'_>, url: &Bound<'_, PyAny>, grammar: &str) -> PyResult<Reference> {
    let g = grammar.parse::<Grammar>().map_err(usage)?;
    let t = text(url, None)?;
    let m = irinorm::parse(&t.s, g).map_err(|e| parse_error(py, &e, &t.s, None))?;
    let c = Components::of(&t.s, &m);
    let own = |x: Option<&str>| x.map(str::to_owned);
    Ok(Reference {
        text: t.s.to_string(),
        grammar: g.name(),
        scheme: own(c.scheme),
        authority: own(c.authority),
        userinfo: own(c.userinfo),
        host: own(c.host),
        host_kind: c.host_kind.map(|k| k.name()),
        port: own(c.port),
        path: c.path.to_owned(),
        query: own(c.query),
        fragment: own(c.fragment),
    })
}

/// Resolves `reference` against `base` (RFC 3986 §5.2; no normalization
/// beyond `remove_dot_segments`).
///
/// >>> resolve("../g", "http://a/b/c/d;p?q")
/// 'http://a/b/g'
/// >>> resolve("?y", "http://a/b/c/d;p?q")
/// 'http://a/b/c/d;p?y'
#[pyfunction]
pub(crate) fn resolve<'py>(
    py: Python<'py>,
    reference: &Bound<'py, PyAny>,
    base: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = text(reference, None)?;
    let b = text(base, Some("base"))?;
    match irinorm::resolve(&b.s, &r.s) {
        Ok(s) => Ok(out(py, &s, r.bytes)),
        Err(irinorm::ResolveError::Base(e)) => Err(parse_error(py, &e, &b.s, Some("base"))),
        Err(irinorm::ResolveError::Reference(e)) => Err(parse_error(py, &e, &r.s, None)),
    }
}

/// IRI to URI (RFC 3987 §3.1): non-ASCII percent-encoded as UTF-8; with
/// `idna=True` non-ASCII hosts become A-labels (UTS #46) instead.
///
/// >>> to_uri("http://résumé.example.org/ü")
/// 'http://r%C3%A9sum%C3%A9.example.org/%C3%BC'
/// >>> to_uri("http://bücher.example/", idna=True)
/// 'http://xn--bcher-kva.example/'
#[pyfunction]
#[pyo3(signature = (iri, idna=false))]
pub(crate) fn to_uri<'py>(
    py: Python<'py>,
    iri: &Bound<'py, PyAny>,
    idna: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let t = text(iri, None)?;
    let opts = ToUriOptions {
        idna,
        ..ToUriOptions::default()
    };
    match irinorm::iri_to_uri_with(&t.s, &opts) {
        Ok(s) => Ok(out(py, &s, t.bytes)),
        Err(e) => Err(parse_error(py, &e.error, &t.s, None)),
    }
}

/// URI to IRI (RFC 3987 §3.2): percent-encoded UTF-8 of allowed characters
/// decoded; everything else kept.
///
/// >>> to_iri("http://www.example.org/D%C3%BCrst")
/// 'http://www.example.org/Dürst'
/// >>> to_iri("http://www.example.org/D%FCrst")
/// 'http://www.example.org/D%FCrst'
#[pyfunction]
pub(crate) fn to_iri<'py>(py: Python<'py>, uri: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let t = text(uri, None)?;
    match irinorm::uri_to_iri(&t.s) {
        Ok(s) => Ok(out(py, &s, t.bytes)),
        Err(e) => Err(parse_error(py, &e, &t.s, None)),
    }
}
