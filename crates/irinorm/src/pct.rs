//! Percent-encoding (RFC 3986 §2.1, §2.4): reading triplets, decoding runs
//! of them, and writing them with upper-case hex digits.

use std::borrow::Cow;

use crate::table::{hex_val, is, HEXDIG};

pub(crate) use crate::table::push_pct;

/// The byte encoded by the triplet at `b[i..i + 3]`, if it is one.
#[inline]
pub fn triplet(b: &[u8], i: usize) -> Option<u8> {
    if i + 2 < b.len() && b[i] == b'%' && is(b[i + 1], HEXDIG) && is(b[i + 2], HEXDIG) {
        Some((hex_val(b[i + 1]) << 4) | hex_val(b[i + 2]))
    } else {
        None
    }
}

/// Decodes every valid triplet of `s` into bytes; anything else is copied.
/// Borrows when there is no `%`.
pub fn decode(s: &str) -> Cow<'_, [u8]> {
    let b = s.as_bytes();
    if !b.contains(&b'%') {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if let Some(v) = triplet(b, i) {
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// Appends every UTF-8 byte of `c` as `%HH` (RFC 3987 §3.1 step 2).
#[inline]
pub fn push_char_encoded(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for &byte in c.encode_utf8(&mut buf).as_bytes() {
        push_pct(out, byte);
    }
}

/// Appends `s` with each non-ASCII character percent-encoded as UTF-8.
pub fn push_non_ascii_encoded(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(p) = rest.bytes().position(|c| c >= 0x80) {
        out.push_str(&rest[..p]);
        let c = rest[p..].chars().next().unwrap_or('\u{FFFD}');
        push_char_encoded(out, c);
        rest = &rest[p + c.len_utf8()..];
    }
    out.push_str(rest);
}

/// Lower-cases the ASCII letters of `s` except the hex digits of its
/// triplets, which stay as they are (upper case after rung 1, RFC 3986
/// §6.2.2.1): for the parts of a reference that compare case-insensitively
/// (mailto domains, tel and data parameters, lowercase-path).
pub fn lowercase_outside_triplets(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p].to_ascii_lowercase());
        let end = (p + 3).min(rest.len());
        out.push_str(&rest[p..end]);
        rest = &rest[end..];
    }
    out.push_str(&rest.to_ascii_lowercase());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplets() {
        assert_eq!(triplet(b"%41", 0), Some(0x41));
        assert_eq!(triplet(b"%e9", 0), Some(0xe9));
        assert_eq!(triplet(b"%4", 0), None);
        assert_eq!(triplet(b"%zz", 0), None);
        assert_eq!(&*decode("a%2Fb%c3%A9%"), b"a/b\xc3\xa9%");
        let mut s = String::new();
        push_non_ascii_encoded(&mut s, "ré𐌀/");
        assert_eq!(s, "r%C3%A9%F0%90%8C%80/");
        assert_eq!(
            lowercase_outside_triplets("AbC%2Fé%C3%A9Z"),
            "abc%2Fé%C3%A9z"
        );
    }
}
