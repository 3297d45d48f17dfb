//! What one call does with a pipeline, shared by the module functions
//! and `Normalizer`: read the input (`str` or `bytes`), prepare it
//! (`repair`), run it, and hand back a result of the input's type or a
//! `ParseError`.

use irinorm::ladder::Side;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{json, Value};

use crate::engine::Engine;
use crate::errors::parse_error;
use crate::text::{out, text};

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "a",
        Side::B => "b",
    }
}

/// The core of every normalizing call, shared by the module functions and
/// `Normalizer`.
pub(crate) fn do_normalize<'py>(
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

pub(crate) fn do_key<'py>(
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

pub(crate) fn do_key_text<'py>(
    py: Python<'py>,
    p: &Engine,
    url: &Bound<'py, PyAny>,
) -> PyResult<String> {
    let t = text(url, None)?;
    let s = p.prep(&t.s);
    p.key_text(&s).map_err(|e| parse_error(py, &e, &s, None))
}

pub(crate) fn do_compare(
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

pub(crate) fn do_equivalent(
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

pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

pub(crate) fn do_explain<'py>(
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
