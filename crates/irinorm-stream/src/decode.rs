//! Input bytes to text: UTF-8, or, for lines that are not valid UTF-8 and
//! only when the caller named an encoding, transcoding then NFC (RFC 3987
//! §3.1, variant B: "convert the IRI to a sequence of characters from the
//! UCS normalized according to NFC").
//!
//! [`decode_input`] is the one place that decodes: it calls the core's
//! `irinorm::ladder::decode_input`.

use encoding_rs::Encoding;

use crate::failure::{kind, Failure};

/// A non-Unicode input encoding, by its WHATWG label (`windows-1252`,
/// `latin1`, `shift_jis`, `koi8-r`...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputEncoding(&'static Encoding);

impl InputEncoding {
    /// Looks an encoding up by WHATWG label. UTF-8 (the default: naming it
    /// changes nothing), UTF-16 (not line-oriented in bytes) and
    /// `replacement` are refused.
    pub fn for_label(label: &str) -> Result<Self, String> {
        let enc = irinorm::ladder::encoding_for_label(label)
            .ok_or_else(|| format!("unknown encoding label {label:?} (WHATWG labels, e.g. windows-1252, iso-8859-2, shift_jis, koi8-r)"))?;
        if enc == encoding_rs::UTF_8 {
            return Err(format!(
                "--input-encoding {label}: UTF-8 is the default; the option names the encoding of lines that are not UTF-8"
            ));
        }
        if enc == encoding_rs::UTF_16LE
            || enc == encoding_rs::UTF_16BE
            || enc == encoding_rs::REPLACEMENT
        {
            return Err(format!(
                "--input-encoding {label}: {} cannot be split into lines byte-wise; convert the input first",
                enc.name()
            ));
        }
        Ok(InputEncoding(enc))
    }

    /// The canonical name of the encoding.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }
}

/// Decodes bytes that are not UTF-8 from `encoding`, then applies NFC,
/// appending the text to `out`: `irinorm::ladder::decode_input`. Malformed
/// input in a multi-byte encoding is a failure (`invalid-encoding`, at the
/// first malformed byte): nothing is guessed or replaced.
pub fn decode_input(
    bytes: &[u8],
    encoding: InputEncoding,
    out: &mut String,
) -> Result<(), Failure> {
    out.push_str(&irinorm::ladder::decode_input(bytes, encoding.0)?);
    Ok(())
}

/// The text of one input: the bytes themselves when they are UTF-8,
/// otherwise decoded into `buf` with `encoding`, or a failure
/// ([`kind::INVALID_UTF8`], at the first invalid byte) without one.
pub fn to_text<'a>(
    bytes: &'a [u8],
    encoding: Option<InputEncoding>,
    buf: &'a mut String,
) -> Result<&'a str, Failure> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => match encoding {
            None => Err(Failure::new(
                kind::INVALID_UTF8,
                e.valid_up_to(),
                "not valid UTF-8 (--input-encoding names the encoding to decode it from)",
            )),
            Some(enc) => {
                buf.clear();
                decode_input(bytes, enc, buf)?;
                Ok(buf.as_str())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_borrowed_and_not_normalized() {
        let mut buf = String::new();
        // "e" + combining acute: valid UTF-8 stays as it is (no NFC).
        let s = "caf\u{65}\u{301}";
        assert_eq!(to_text(s.as_bytes(), None, &mut buf).unwrap(), s);
    }

    #[test]
    fn invalid_utf8_offset() {
        let mut buf = String::new();
        let e = to_text(b"http://a/\xe9t\xe9", None, &mut buf).unwrap_err();
        assert_eq!(e.kind, kind::INVALID_UTF8);
        assert_eq!(e.offset, 9);
    }

    #[test]
    fn windows_1252_then_nfc() {
        let enc = InputEncoding::for_label("windows-1252").unwrap();
        let mut buf = String::new();
        assert_eq!(
            to_text(b"http://a/caf\xe9", Some(enc), &mut buf).unwrap(),
            "http://a/caf\u{e9}"
        );
        // windows-1258 spells U+1EC7 as e-circumflex + combining dot below:
        // NFC composes it.
        let enc = InputEncoding::for_label("windows-1258").unwrap();
        assert_eq!(
            to_text(b"Vi\xea\xf2t", Some(enc), &mut buf).unwrap(),
            "Vi\u{1EC7}t"
        );
    }

    #[test]
    fn malformed_multibyte_is_refused() {
        let enc = InputEncoding::for_label("shift_jis").unwrap();
        let mut buf = String::new();
        let e = to_text(b"http://a/\x82", Some(enc), &mut buf).unwrap_err();
        assert_eq!(e.kind, "invalid-encoding");
    }

    #[test]
    fn labels() {
        assert!(InputEncoding::for_label("utf-8").is_err());
        assert!(InputEncoding::for_label("utf-16le").is_err());
        assert!(InputEncoding::for_label("nonsense").is_err());
        assert_eq!(
            InputEncoding::for_label("latin1").unwrap().name(),
            "windows-1252"
        );
    }
}
