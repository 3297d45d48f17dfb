//! Input in a legacy (non-Unicode) encoding: decoded with `encoding_rs`
//! and NFC-normalized (RFC 3987 §3.1 step 1, variant b: "convert the IRI to
//! a sequence of characters from the UCS normalized according to NFC").

use encoding_rs::Encoding;

use super::charnorm::{self, CharNorm};
use crate::error::{ErrorKind, ParseError};

/// Looks an encoding up by its WHATWG label (`windows-1252`, `latin1`,
/// `shift_jis`, `gb18030`...).
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
}

/// Decodes `bytes` from `encoding` and applies NFC (structure-preserving,
/// see [`charnorm`]). Bytes that are malformed in that encoding are an
/// error at their offset ([`ErrorKind::InvalidEncoding`]), never replaced.
pub fn decode_input(bytes: &[u8], encoding: &'static Encoding) -> Result<String, ParseError> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let cap = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len() * 4);
    let mut s = String::with_capacity(cap);
    let (res, read) = decoder.decode_to_string_without_replacement(bytes, &mut s, true);
    match res {
        encoding_rs::DecoderResult::InputEmpty => {}
        encoding_rs::DecoderResult::Malformed(len, extra) => {
            let offset = read.saturating_sub(len as usize + extra as usize);
            return Err(ParseError::whole(ErrorKind::InvalidEncoding, offset));
        }
        encoding_rs::DecoderResult::OutputFull => {
            return Err(ParseError::whole(ErrorKind::InvalidEncoding, read));
        }
    }
    Ok(match charnorm::apply(&s, CharNorm::Nfc) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_and_vietnamese() {
        let e = encoding_for_label("windows-1252").unwrap();
        assert_eq!(
            decode_input(b"http://a/r\xe9sum\xe9", e).unwrap(),
            "http://a/résumé"
        );
        // RFC 3987 §3.1 note: windows-1258 gives "e-circumflex + combining
        // dot below"; NFC makes it U+1EC7.
        let e = encoding_for_label("windows-1258").unwrap();
        assert_eq!(decode_input(b"Vi\xea\xf2t", e).unwrap(), "Vi\u{1EC7}t");
    }

    #[test]
    fn malformed_is_an_error_with_offset() {
        let e = encoding_for_label("shift_jis").unwrap();
        let err = decode_input(b"http://a/\x82", e).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidEncoding);
        assert_eq!(err.offset(), 9);
    }
}
