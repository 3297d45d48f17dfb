//! Classes of non-ASCII code points used by the IRI grammar and the IRI
//! security rules (RFC 3987 §2.2, §4.1).

/// `ucschar` (RFC 3987 §2.2): the non-ASCII characters allowed anywhere an
/// `iunreserved` is allowed.
#[inline]
pub const fn is_ucschar(c: u32) -> bool {
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0xE1000..=0xEFFFD => true,
        0x10000..=0xDFFFD => (c & 0xFFFF) <= 0xFFFD,
        _ => false,
    }
}

/// `iprivate` (RFC 3987 §2.2): private-use characters, allowed only in the query.
#[inline]
pub const fn is_iprivate(c: u32) -> bool {
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Bidirectional formatting characters, which RFC 3987 §4.1 forbids in IRIs
/// ("IRIs MUST NOT contain bidirectional formatting characters") and which a
/// URI-to-IRI conversion must leave percent-encoded (§3.2 step 4).
///
/// LRM, RLM, LRE, RLE, PDF, LRO, RLO (the list of RFC 3987), the isolates
/// LRI, RLI, FSI, PDI added by Unicode 6.3, and ALM (U+061C, also Unicode 6.3),
/// which has the same effect as RLM. Including ALM is a decision recorded in
/// `docs/decisions.md`: it only ever keeps more characters encoded.
#[inline]
pub const fn is_bidi_format(c: u32) -> bool {
    matches!(c, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Decodes the code point starting at byte `i` of a valid UTF-8 string.
/// Returns the code point and its length in bytes.
#[inline]
pub(crate) fn decode_at(b: &[u8], i: usize) -> (u32, usize) {
    let b0 = b[i] as u32;
    if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | (b[i + 1] as u32 & 0x3F), 2)
    } else if b0 < 0xF0 {
        (
            ((b0 & 0x0F) << 12) | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F),
            3,
        )
    } else {
        (
            ((b0 & 0x07) << 18)
                | ((b[i + 1] as u32 & 0x3F) << 12)
                | ((b[i + 2] as u32 & 0x3F) << 6)
                | (b[i + 3] as u32 & 0x3F),
            4,
        )
    }
}

/// Decodes one strictly legal UTF-8 sequence (RFC 3629) at the start of
/// `bytes`: no overlong forms (`C0 AF`), no surrogates, nothing above
/// U+10FFFF. Returns the character and its length, or `None`.
#[inline]
pub fn decode_utf8_strict(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match bytes.first()? {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let seq = bytes.get(..len)?;
    // `from_utf8` implements exactly the well-formedness table of
    // RFC 3629 §4 (it rejects overlongs and surrogates).
    let s = core::str::from_utf8(seq).ok()?;
    s.chars().next().map(|c| (c, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucschar_edges() {
        assert!(!is_ucschar(0x9F));
        assert!(is_ucschar(0xA0));
        assert!(is_ucschar(0xD7FF));
        assert!(!is_ucschar(0xD800));
        assert!(!is_ucschar(0xE000)); // private use
        assert!(!is_ucschar(0xFDD0)); // noncharacter
        assert!(is_ucschar(0xFDF0));
        assert!(!is_ucschar(0xFFFE));
        assert!(is_ucschar(0x10000));
        assert!(!is_ucschar(0x1FFFE));
        assert!(is_ucschar(0x1FFFD));
        assert!(!is_ucschar(0xE0FFF));
        assert!(is_ucschar(0xE1000));
        assert!(!is_ucschar(0xEFFFE));
        assert!(!is_ucschar(0xF0000));
    }

    #[test]
    fn iprivate_edges() {
        assert!(is_iprivate(0xE000) && is_iprivate(0xF8FF));
        assert!(!is_iprivate(0xF900));
        assert!(is_iprivate(0x10FFFD) && !is_iprivate(0x10FFFE));
    }

    #[test]
    fn strict_utf8() {
        assert_eq!(decode_utf8_strict(&[0xC3, 0xA9]), Some(('é', 2)));
        assert_eq!(decode_utf8_strict(&[0xC0, 0xAF]), None); // overlong '/'
        assert_eq!(decode_utf8_strict(&[0xE0, 0x80, 0xAF]), None); // overlong
        assert_eq!(decode_utf8_strict(&[0xED, 0xA0, 0x80]), None); // surrogate
        assert_eq!(decode_utf8_strict(&[0xF4, 0x90, 0x80, 0x80]), None); // > U+10FFFF
        assert_eq!(decode_utf8_strict(&[0xE2, 0x80]), None); // truncated
        assert_eq!(decode_utf8_strict(&[0xFC]), None);
    }

    #[test]
    fn decode_at_matches_std() {
        let s = "aé€𐌀";
        let b = s.as_bytes();
        let mut i = 0;
        for c in s.chars() {
            let (cp, n) = decode_at(b, i);
            assert_eq!(cp, c as u32);
            assert_eq!(n, c.len_utf8());
            i += n;
        }
    }
}
