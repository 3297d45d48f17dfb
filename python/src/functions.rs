//! The module functions that normalize and compare (`normalize`, `key`,
//! `compare`, `equivalent`, `explain`): their options parsed once
//! (`options.rs`), the pipeline they give taken from a cache when it
//! depends only on names (`settings::cached`), then the call itself
//! (`calls.rs`), as `Normalizer`'s methods run it.
//!
//! The signatures are the Python ones given in `text_signature` (and in
//! `irinorm/_native.pyi`): the inputs, then the options of `options.rs`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::calls::{do_compare, do_equivalent, do_explain, do_key, do_normalize};
use crate::options::{Options, COMPARING, WITH_FORM};

/// The normal form of `url` at `rung` (default: the preset's, else
/// `scheme`) in `form` (`uri` or `iri`), with the named rules of `preset`
/// and `rules`; `base` resolves a reference first. The result has the
/// input's type; an already-normal input comes back as the same object.
/// Raises `ParseError`.
///
/// >>> normalize("HTTP://Example.COM:80/a/./b/../%7euser")
/// 'http://example.com/a/~user'
/// >>> normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", rung="syntax")
/// 'example://a/b/c/%7Bfoo%7D'
/// >>> normalize("http://www.example.com./a?utm_source=x#top", preset="crawler")
/// 'http://www.example.com/a'
/// >>> normalize(b"HTTP://A/")
/// b'http://a/'
/// >>> normalize("../g", base="http://a/b/c/d;p?q")
/// 'http://a/b/g'
#[pyfunction]
#[pyo3(signature = (url, *args, **kwargs), text_signature = "(url, rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
pub(crate) fn normalize<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = Options::parse("normalize", WITH_FORM, args, kwargs)?.engine(py)?;
    do_normalize(py, &p, url)
}

/// The 16-byte comparison key of `url`: equal keys, equivalent URLs (at
/// `rung` with the rules). Comparison is always in `uri` form.
///
/// >>> key("http://example.com/") == key("HTTP://EXAMPLE.COM:80")
/// True
/// >>> len(key("http://example.com/"))
/// 16
#[pyfunction]
#[pyo3(signature = (url, *args, **kwargs), text_signature = "(url, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
pub(crate) fn key<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let p = Options::parse("key", COMPARING, args, kwargs)?.engine(py)?;
    do_key(py, &p, url)
}

/// The lowest rung at which `a` and `b` are equivalent (`"string"`,
/// `"syntax"`, `"scheme"`), or `None`; when only the named rules make them
/// equal, the rung the rules ran on (as `irinorm compare`). A `ParseError`
/// says which `side`.
///
/// >>> compare("http://example.com", "HTTP://EXAMPLE.com:80/")
/// 'scheme'
/// >>> compare("http://a/%7e", "http://a/~")
/// 'syntax'
/// >>> compare("http://a/", "http://b/") is None
/// True
#[pyfunction]
#[pyo3(signature = (a, b, *args, **kwargs), text_signature = "(a, b, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
pub(crate) fn compare<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<&'static str>> {
    let p = Options::parse("compare", COMPARING, args, kwargs)?.engine(py)?;
    do_compare(py, &p, a, b)
}

/// Whether `a` and `b` are equivalent at `rung` with the rules.
///
/// >>> equivalent("http://a/?utm_source=x", "http://a/", preset="crawler")
/// True
/// >>> equivalent("http://a/?utm_source=x", "http://a/")
/// False
#[pyfunction]
#[pyo3(signature = (a, b, *args, **kwargs), text_signature = "(a, b, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
pub(crate) fn equivalent<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<bool> {
    let p = Options::parse("equivalent", COMPARING, args, kwargs)?.engine(py)?;
    do_equivalent(py, &p, a, b)
}

/// Every rung in both forms, every change with its rule and RFC section,
/// and the named rules that fired: a dict (`input`, `steps`, `rules`,
/// `output`).
///
/// >>> e = explain("HTTP://Example.COM:80/")
/// >>> e["output"]
/// 'http://example.com/'
/// >>> [c["rule"] for c in e["steps"][-1]["changes"]]
/// ['lowercase-scheme', 'lowercase-host', 'remove-default-port']
#[pyfunction]
#[pyo3(signature = (url, *args, **kwargs), text_signature = "(url, rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=False, nfc=False, nfkc=False, max_len=None, repair=False, evidence=None, redirects=None, min_host_support=None)")]
pub(crate) fn explain<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = Options::parse("explain", WITH_FORM, args, kwargs)?.engine(py)?;
    do_explain(py, &p, url)
}

/// The preset names and the rules each one applies, in order.
///
/// >>> dict(presets())["fetch"]
/// ['remove-fragment']
#[pyfunction]
pub(crate) fn presets() -> Vec<(&'static str, Vec<&'static str>)> {
    irinorm_rules::Preset::ALL
        .iter()
        .map(|p| (p.name(), p.rule_set().iter().map(|r| r.name()).collect()))
        .collect()
}
