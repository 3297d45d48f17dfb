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
        return match s.to_cow() {
            Ok(s) => Ok(Text { s, bytes: false }),
            // A `str` with a lone surrogate has no UTF-8 form: the input
            // is rejected as its bytes would be, see `str_bytes`.
            Err(_) => Err(not_utf8(obj, &str_bytes(s)?, side)),
        };
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        let raw = b.as_bytes();
        return match std::str::from_utf8(raw) {
            Ok(s) => Ok(Text {
                s: Cow::Borrowed(s),
                bytes: true,
            }),
            Err(_) => Err(not_utf8(obj, raw, side)),
        };
    }
    Err(PyTypeError::new_err(format!(
        "expected str or bytes, not {}",
        obj.get_type().name()?
    )))
}

/// The `ParseError` of input bytes that are not UTF-8: parse_bytes reports
/// the kind (`invalid-utf8`) and the offset of the first bad byte (it fails
/// wherever from_utf8 fails).
fn not_utf8(obj: &Bound<'_, PyAny>, raw: &[u8], side: Option<&str>) -> PyErr {
    match parse_bytes(raw, Grammar::IriReference) {
        Err(e) => parse_error(obj.py(), &e, &String::from_utf8_lossy(raw), side),
        Ok(_) => PyValueError::new_err("input is not UTF-8"),
    }
}

/// The bytes of a `str`: its UTF-8, or for a `str` with lone surrogates
/// (Python allows them: `surrogateescape` decoding, `\ud800` literals;
/// they are not Unicode scalar values, so no UTF-8 has them) the
/// `surrogatepass` encoding, which writes each surrogate as the three
/// bytes it would have in UTF-8 were it allowed. Those are never valid
/// UTF-8 (RFC 3629 §3 excludes U+D800..U+DFFF), so the input is rejected
/// with kind `invalid-utf8` at the byte offset where the surrogate stands:
/// what the CLI reports for a line written with `surrogatepass` or
/// `surrogateescape`, and a `ParseError` like any invalid input (before,
/// Python's `UnicodeEncodeError` escaped, and a batch with one such entry
/// failed as a whole).
pub(crate) fn str_bytes(s: &Bound<'_, PyString>) -> PyResult<Vec<u8>> {
    if let Ok(t) = s.to_cow() {
        return Ok(t.into_owned().into_bytes());
    }
    let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    Ok(b.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// A result of the input's type.
pub(crate) fn out<'py>(py: Python<'py>, s: &str, bytes: bool) -> Bound<'py, PyAny> {
    if bytes {
        PyBytes::new(py, s.as_bytes()).into_any()
    } else {
        PyString::new(py, s).into_any()
    }
}
