//! `str` and `bytes` inputs. A `bytes` input must be UTF-8 (RFC 3987 §3.1
//! maps IRIs from UTF-8); otherwise it is rejected with kind
//! `invalid-utf8` at the offset of the first bad byte, as the CLI rejects a
//! line. Results have the type of the input.

use std::borrow::Cow;

use irinorm::{parse_bytes, Grammar};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::parse_error;

/// An input as text, and whether it came as `bytes`.
pub(crate) struct Text<'a> {
    pub(crate) s: Cow<'a, str>,
    pub(crate) bytes: bool,
}

/// Reads `obj` (`str`, `bytes`, `bytearray` is refused).
pub(crate) fn text<'a>(obj: &'a Bound<'_, PyAny>, side: Option<&str>) -> PyResult<Text<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Text {
            s: s.to_cow()?,
            bytes: false,
        });
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        let raw = b.as_bytes();
        return match std::str::from_utf8(raw) {
            Ok(s) => Ok(Text {
                s: Cow::Borrowed(s),
                bytes: true,
            }),
            // parse_bytes reports the kind and offset of the first bad
            // byte (it fails wherever from_utf8 fails).
            Err(_) => Err(match parse_bytes(raw, Grammar::IriReference) {
                Err(e) => parse_error(obj.py(), &e, &String::from_utf8_lossy(raw), side),
                Ok(_) => PyValueError::new_err("bytes input is not UTF-8"),
            }),
        };
    }
    Err(PyTypeError::new_err(format!(
        "expected str or bytes, not {}",
        obj.get_type().name()?
    )))
}

/// A result of the input's type.
pub(crate) fn out<'py>(py: Python<'py>, s: &str, bytes: bool) -> Bound<'py, PyAny> {
    if bytes {
        PyBytes::new(py, s.as_bytes()).into_any()
    } else {
        PyString::new(py, s).into_any()
    }
}
