//! Errors as Python exceptions. `irinorm.ParseError` is defined in Python
//! (`irinorm/_errors.py`, a `ValueError` with `kind`, `offset`,
//! `component`, `input`) so that it pickles and subclasses like any Python
//! exception; this module raises it.

use irinorm::ParseError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static PARSE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The message the CLI writes for a reject: `kind: description in component
/// at byte N` (docs/cli.md, "Rejects").
pub(crate) fn message(e: &ParseError) -> String {
    format!("{}: {e}", e.kind().code())
}

/// `irinorm.ParseError(message, kind, offset, component, input[, side])`.
pub(crate) fn parse_error(
    py: Python<'_>,
    e: &ParseError,
    input: &str,
    side: Option<&str>,
) -> PyErr {
    let cls = match PARSE_ERROR.import(py, "irinorm._errors", "ParseError") {
        Ok(c) => c,
        Err(err) => return err,
    };
    let component = e.component().map(|c| c.name());
    match cls.call1((
        message(e),
        e.kind().code(),
        e.offset(),
        component,
        input,
        side,
    )) {
        Ok(obj) => PyErr::from_value(obj),
        Err(err) => err,
    }
}

/// A bad option value (unknown rung, preset, rule...).
pub(crate) fn usage(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}
