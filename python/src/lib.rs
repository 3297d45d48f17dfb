//! `irinorm._native`: the Python bindings of irinorm (docs/python.md). The
//! public, typed API is the `irinorm` package (`python/irinorm`), which
//! re-exports these functions and classes.
//!
//! Vocabulary and defaults are the CLI's (docs/cli.md): `rung`, `form`,
//! `preset`, `rules` (the CLI's `--apply`), `config` (`--config`, or its
//! parameters as a mapping), `base`, `ignore_fragment`, `nfc`, `nfkc`,
//! `max_len`.

#![forbid(unsafe_code)]

mod batch;
mod engine;
mod errors;
mod settings;
mod text;

use crate::engine::Engine;
use irinorm::ladder::Side;
use irinorm::{Components, Grammar, ToUriOptions};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde_json::{json, Value};

use crate::batch::{ArrowArgs, ArrowOut, Job};
use crate::errors::{parse_error, usage};
use crate::settings::{cached, rules_text, Settings};
use crate::text::{out, text};

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "a",
        Side::B => "b",
    }
}

/// The core of every normalizing call, shared by the module functions and
/// `Normalizer`.
fn do_normalize<'py>(
    py: Python<'py>,
    p: &Engine,
    url: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = text(url, None)?;
    let s = p.prep(&t.s);
    let r = match &p.proto {
        None => p.normalize(&s).map(|o| o.text),
        Some(_) => p.normal(&s).map(std::borrow::Cow::Owned),
    };
    match r {
        // Most inputs are already normal: hand back the same object
        // (str and bytes are immutable) instead of a copy.
        Ok(o) if o == t.s => Ok(url.clone()),
        Ok(o) => Ok(out(py, &o, t.bytes)),
        Err(e) => Err(parse_error(py, &e, &s, None)),
    }
}

fn do_key<'py>(
    py: Python<'py>,
    p: &Engine,
    url: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let t = text(url, None)?;
    let s = p.prep(&t.s);
    match p.digest(&s) {
        Ok(k) => Ok(PyBytes::new(py, &k.0.to_be_bytes())),
        Err(e) => Err(parse_error(py, &e, &s, None)),
    }
}

fn do_key_text<'py>(py: Python<'py>, p: &Engine, url: &Bound<'py, PyAny>) -> PyResult<String> {
    let t = text(url, None)?;
    let s = p.prep(&t.s);
    p.key_text(&s).map_err(|e| parse_error(py, &e, &s, None))
}

fn do_compare(
    py: Python<'_>,
    p: &Engine,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<Option<&'static str>> {
    let ta = text(a, Some("a"))?;
    let tb = text(b, Some("b"))?;
    let (sa, sb) = (p.prep(&ta.s), p.prep(&tb.s));
    match p.compare(&sa, &sb) {
        Ok(r) => Ok(r),
        Err(e) => {
            let input = if e.side == Side::A { &sa } else { &sb };
            Err(parse_error(py, &e.error, input, Some(side_name(e.side))))
        }
    }
}

fn do_equivalent(
    py: Python<'_>,
    p: &Engine,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let ta = text(a, Some("a"))?;
    let tb = text(b, Some("b"))?;
    let (sa, sb) = (p.prep(&ta.s), p.prep(&tb.s));
    match p.equivalent(&sa, &sb) {
        Ok(r) => Ok(r),
        Err(e) => {
            let input = if e.side == Side::A { &sa } else { &sb };
            Err(parse_error(py, &e.error, input, Some(side_name(e.side))))
        }
    }
}

fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

fn do_explain<'py>(
    py: Python<'py>,
    p: &Engine,
    url: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = text(url, None)?;
    let s = p.prep(&t.s);
    let (e, fired) = p.explain(&s).map_err(|e| parse_error(py, &e, &s, None))?;
    let output = p.normal(&s).map_err(|e| parse_error(py, &e, &s, None))?;
    // Rung 3: the chain behind the output, as `irinorm explain --rung
    // protocol --format jsonl` writes it.
    let protocol = match &p.proto {
        None => Value::Null,
        Some(r) => p
            .protocol_json(r, &s)
            .map_err(|e| parse_error(py, &e, &s, None))?,
    };
    let steps: Vec<Value> = e
        .steps
        .iter()
        .map(|s| {
            json!({
                "rung": s.rung.name(),
                "form": s.form.name(),
                "output": s.output,
                "changes": s.changes.iter().map(|c| json!({
                    "rule": c.rule.name(),
                    "source": c.rule.source(),
                    "component": c.component.map(|c| c.name()),
                    "offset": c.offset,
                    "before": c.before,
                    "after": c.after,
                })).collect::<Vec<_>>(),
                "warnings": s.warnings.iter().map(|w| w.code()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let rules: Vec<Value> = fired
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule.name(),
                "class": f.rule.class().name(),
                "before": f.before,
                "after": f.after,
            })
        })
        .collect();
    json_to_py(
        py,
        &json!({
            "input": t.s,
            // What --repair did (docs/repair.md), when it is on.
            "repaired": p.repair.as_ref().map(|bs| {
                let r = irinorm::repair::repair(&t.s, bs.as_deref());
                json!({"text": s, "steps": r.steps.iter().map(|x| x.name()).collect::<Vec<_>>()})
            }),
            "steps": steps,
            "rules": rules,
            "protocol": protocol,
            "output": output,
        }),
    )
}

/// Options held for repeated use: built once (rules, settings file, base
/// parsed once), then `normalize`, `key`, `compare`... on many inputs.
/// Thread-safe; the batch methods release the GIL.
///
/// `rung="protocol"` with `evidence=` (a store of `irinorm evidence
/// ingest`), `redirects=` and `min_host_support=` is rung 3, as the CLI's
/// `--rung protocol --evidence`: the store's lookups are loaded once, here.
/// A settings file (`config=`) may hold learned `[[host-rule]]` sections.
///
/// >>> n = Normalizer(preset="crawler")
/// >>> n.normalize("HTTP://Example.COM.:80/a/./b?utm_source=x&id=7#top")
/// 'http://example.com/a/b?id=7'
#[pyclass(frozen, module = "irinorm", name = "Normalizer")]
struct PyNormalizer {
    p: Engine,
    settings: Settings,
    base: Option<String>,
}

#[pymethods]
impl PyNormalizer {
    #[new]
    #[pyo3(signature = (rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rung: Option<String>,
        form: Option<String>,
        preset: Option<String>,
        rules: Option<&Bound<'_, PyAny>>,
        config: Option<&Bound<'_, PyAny>>,
        base: Option<String>,
        ignore_fragment: bool,
        nfc: bool,
        nfkc: bool,
        max_len: Option<usize>,
        repair: bool,
        evidence: Option<&Bound<'_, PyAny>>,
        redirects: Option<String>,
        min_host_support: Option<u32>,
    ) -> PyResult<Self> {
        let settings = Settings {
            rung,
            form,
            preset,
            rules: rules_text(rules)?,
            ignore_fragment,
            nfc,
            nfkc,
            max_len,
            repair,
            redirects,
            min_host_support,
        };
        let p = settings.pipeline(py, config, base.as_deref(), evidence)?;
        Ok(PyNormalizer { p, settings, base })
    }

    /// The normal form of `url` (`str` or UTF-8 `bytes`; the result has
    /// the input's type). Raises `ParseError`.
    fn normalize<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        do_normalize(py, &self.p, url)
    }

    /// The 16-byte comparison key: xxh3-128 of `key_text(url)`, big-endian
    /// (the digest `irinorm dedupe --hash-keys` compares).
    fn key<'py>(&self, py: Python<'py>, url: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        do_key(py, &self.p, url)
    }

    /// The comparison key as text: what `irinorm dedupe` prints as `key`
    /// (always `uri` form; what comparison ignores is left out).
    fn key_text(&self, py: Python<'_>, url: &Bound<'_, PyAny>) -> PyResult<String> {
        do_key_text(py, &self.p, url)
    }

    /// The lowest rung at which `a` and `b` are equivalent (`"string"`,
    /// `"syntax"`, `"scheme"`), or `None`.
    fn compare(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<Option<&'static str>> {
        do_compare(py, &self.p, a, b)
    }

    /// Whether `a` and `b` have the same key.
    fn equivalent(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        do_equivalent(py, &self.p, a, b)
    }

    /// Every rung in both forms, each change with its rule and RFC section,
    /// and the named rules that fired: a dict.
    fn explain<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        do_explain(py, &self.p, url)
    }

    /// Batch over a sequence: `(results, errors)` lists.
    fn _normalize_list<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyList>,
        Bound<'py, pyo3::types::PyList>,
    )> {
        batch::list(py, &self.p, Job::Normalize, items)
    }

    fn _key_list<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyList>,
        Bound<'py, pyo3::types::PyList>,
    )> {
        batch::list(py, &self.p, Job::Key, items)
    }

    /// Batch over Arrow buffers (see `irinorm._batch`): `offsets`, `data`
    /// and `validity` are `bytes` or pyarrow `Buffer`s.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (n, offset, offsets, large, data, validity, key))]
    fn _arrow<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        offset: usize,
        offsets: Bound<'py, PyAny>,
        large: bool,
        data: Bound<'py, PyAny>,
        validity: Option<Bound<'py, PyAny>>,
        key: bool,
    ) -> PyResult<ArrowOut<'py>> {
        let job = if key { Job::Key } else { Job::Normalize };
        let args = ArrowArgs {
            n,
            offset,
            offsets,
            large,
            data,
            validity,
        };
        batch::arrow(py, &self.p, job, &args)
    }

    /// The rung in effect.
    #[getter]
    fn rung(&self) -> &'static str {
        if self.p.proto.is_some() {
            return "protocol";
        }
        self.p.normalizer().options().rung.name()
    }

    /// The output form.
    #[getter]
    fn form(&self) -> &'static str {
        self.p.normalizer().options().form.name()
    }

    /// The preset given, if any.
    #[getter]
    fn preset(&self) -> Option<String> {
        self.settings.preset.clone()
    }

    /// The named rules in effect (the preset's and `rules`), in the order
    /// they run.
    #[getter]
    fn rules(&self) -> Vec<&'static str> {
        self.p.rules().iter().map(|r| r.name()).collect()
    }

    /// The base references are resolved against, if any.
    #[getter]
    fn base(&self) -> Option<String> {
        self.base.clone()
    }

    fn __repr__(&self) -> String {
        let mut items: Vec<String> = settings::repr_items(&self.settings)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if let Some(b) = &self.base {
            items.push(format!("base={b:?}"));
        }
        format!("Normalizer({})", items.join(", "))
    }
}

macro_rules! module_fn_settings {
    ($rung:expr, $form:expr, $preset:expr, $rules:expr, $if:expr, $nfc:expr, $nfkc:expr, $max:expr, $repair:expr, $redirects:expr, $mhs:expr) => {
        Settings {
            rung: $rung,
            form: $form,
            preset: $preset,
            rules: rules_text($rules)?,
            ignore_fragment: $if,
            nfc: $nfc,
            nfkc: $nfkc,
            max_len: $max,
            repair: $repair,
            redirects: $redirects,
            min_host_support: $mhs,
        }
    };
}

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
#[pyo3(signature = (url, rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
#[allow(clippy::too_many_arguments)]
fn normalize<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    rung: Option<String>,
    form: Option<String>,
    preset: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    base: Option<&str>,
    ignore_fragment: bool,
    nfc: bool,
    nfkc: bool,
    max_len: Option<usize>,
    repair: bool,
    evidence: Option<&Bound<'py, PyAny>>,
    redirects: Option<String>,
    min_host_support: Option<u32>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = module_fn_settings!(
        rung,
        form,
        preset,
        rules,
        ignore_fragment,
        nfc,
        nfkc,
        max_len,
        repair,
        redirects,
        min_host_support
    );
    let p = cached(py, s, config, base, evidence)?;
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
#[pyo3(signature = (url, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
#[allow(clippy::too_many_arguments)]
fn key<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    rung: Option<String>,
    preset: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    base: Option<&str>,
    ignore_fragment: bool,
    nfc: bool,
    nfkc: bool,
    max_len: Option<usize>,
    repair: bool,
    evidence: Option<&Bound<'py, PyAny>>,
    redirects: Option<String>,
    min_host_support: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    let s = module_fn_settings!(
        rung,
        None,
        preset,
        rules,
        ignore_fragment,
        nfc,
        nfkc,
        max_len,
        repair,
        redirects,
        min_host_support
    );
    let p = cached(py, s, config, base, evidence)?;
    do_key(py, &p, url)
}

/// The lowest rung at which `a` and `b` are equivalent (`"string"`,
/// `"syntax"`, `"scheme"`), or `None`. A `ParseError` says which `side`.
///
/// >>> compare("http://example.com", "HTTP://EXAMPLE.com:80/")
/// 'scheme'
/// >>> compare("http://a/%7e", "http://a/~")
/// 'syntax'
/// >>> compare("http://a/", "http://b/") is None
/// True
#[pyfunction]
#[pyo3(signature = (a, b, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    rung: Option<String>,
    preset: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    base: Option<&str>,
    ignore_fragment: bool,
    nfc: bool,
    nfkc: bool,
    max_len: Option<usize>,
    repair: bool,
    evidence: Option<&Bound<'py, PyAny>>,
    redirects: Option<String>,
    min_host_support: Option<u32>,
) -> PyResult<Option<&'static str>> {
    let s = module_fn_settings!(
        rung,
        None,
        preset,
        rules,
        ignore_fragment,
        nfc,
        nfkc,
        max_len,
        repair,
        redirects,
        min_host_support
    );
    let p = cached(py, s, config, base, evidence)?;
    do_compare(py, &p, a, b)
}

/// Whether `a` and `b` are equivalent at `rung` with the rules.
///
/// >>> equivalent("http://a/?utm_source=x", "http://a/", preset="crawler")
/// True
/// >>> equivalent("http://a/?utm_source=x", "http://a/")
/// False
#[pyfunction]
#[pyo3(signature = (a, b, rung=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
#[allow(clippy::too_many_arguments)]
fn equivalent<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    rung: Option<String>,
    preset: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    base: Option<&str>,
    ignore_fragment: bool,
    nfc: bool,
    nfkc: bool,
    max_len: Option<usize>,
    repair: bool,
    evidence: Option<&Bound<'py, PyAny>>,
    redirects: Option<String>,
    min_host_support: Option<u32>,
) -> PyResult<bool> {
    let s = module_fn_settings!(
        rung,
        None,
        preset,
        rules,
        ignore_fragment,
        nfc,
        nfkc,
        max_len,
        repair,
        redirects,
        min_host_support
    );
    let p = cached(py, s, config, base, evidence)?;
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
#[pyo3(signature = (url, rung=None, form=None, preset=None, rules=None, config=None, base=None, *, ignore_fragment=false, nfc=false, nfkc=false, max_len=None, repair=false, evidence=None, redirects=None, min_host_support=None))]
#[allow(clippy::too_many_arguments)]
fn explain<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    rung: Option<String>,
    form: Option<String>,
    preset: Option<String>,
    rules: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    base: Option<&str>,
    ignore_fragment: bool,
    nfc: bool,
    nfkc: bool,
    max_len: Option<usize>,
    repair: bool,
    evidence: Option<&Bound<'py, PyAny>>,
    redirects: Option<String>,
    min_host_support: Option<u32>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = module_fn_settings!(
        rung,
        form,
        preset,
        rules,
        ignore_fragment,
        nfc,
        nfkc,
        max_len,
        repair,
        redirects,
        min_host_support
    );
    let p = cached(py, s, config, base, evidence)?;
    do_explain(py, &p, url)
}

/// The components of a parsed reference (RFC 3986 §3, RFC 3987 §2.2).
/// Absent components are `None` (an empty query `?` is `""`).
#[pyclass(frozen, module = "irinorm", name = "Reference", get_all)]
struct Reference {
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
fn parse(py: Python<'_>, url: &Bound<'_, PyAny>, grammar: &str) -> PyResult<Reference> {
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
fn resolve<'py>(
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
fn to_uri<'py>(
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
fn to_iri<'py>(py: Python<'py>, uri: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let t = text(uri, None)?;
    match irinorm::uri_to_iri(&t.s) {
        Ok(s) => Ok(out(py, &s, t.bytes)),
        Err(e) => Err(parse_error(py, &e, &t.s, None)),
    }
}

/// Lints `url` (docs/lint.md): a dict with `valid`, `parse_error` and
/// `findings` (each with `code`, `severity`, `component`, `offset`, `len`,
/// `message`, `detail`), as `irinorm check --lint --format jsonl`.
///
/// >>> r = lint("http://www.example.com@evil.example/")
/// >>> [f["code"] for f in r["findings"]]
/// ['userinfo-present', 'userinfo-looks-like-host']
#[pyfunction]
#[pyo3(signature = (url, grammar="IRI-reference"))]
fn lint<'py>(
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

/// The preset names and the rules each one applies, in order.
///
/// >>> dict(presets())["fetch"]
/// ['remove-fragment']
#[pyfunction]
fn presets() -> Vec<(&'static str, Vec<&'static str>)> {
    irinorm_rules::Preset::ALL
        .iter()
        .map(|p| (p.name(), p.rule_set().iter().map(|r| r.name()).collect()))
        .collect()
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
fn _surt<'py>(
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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNormalizer>()?;
    m.add_class::<Reference>()?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(key, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(lint, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(_surt, m)?)?;
    Ok(())
}
