//! Character normalization (NFC / NFKC), applied only on request or after
//! transcoding from a legacy encoding (RFC 3987 §5.3.2.2: "IRIs already in
//! Unicode MUST NOT be character-normalized"; §3.1 step 1b).
//!
//! Normalization must never change the structure of a reference, and two
//! Unicode facts make a naive `text.nfc()` dangerous:
//! - composition can swallow a delimiter: `=` followed by U+0338 COMBINING
//!   LONG SOLIDUS OVERLAY composes to `≠`, so `a=\u{338}b` would lose its
//!   `=` (and a query parameter);
//! - decomposition can produce ASCII delimiters: U+037E GREEK QUESTION MARK
//!   is canonically `;`, U+1FEF is `` ` ``, and under NFKC U+FF0F is `/`,
//!   U+00A0 is a space.
//!
//! So every ASCII character that is not unreserved (delimiters and `%`) is
//! a barrier: the text between barriers is normalized on its own, and any
//! ASCII character that normalization produces, other than an unreserved
//! one, is percent-encoded: it was data, not a delimiter.

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::table::{is, push_pct, UNRESERVED};

/// A Unicode normalization form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CharNorm {
    /// No character normalization (the default, RFC 3987 §5.3.2.2).
    #[default]
    None,
    /// Normalization Form C.
    Nfc,
    /// Normalization Form KC (compatibility; changes more characters).
    Nfkc,
}

impl CharNorm {
    /// `none`, `nfc`, `nfkc`.
    pub const fn name(self) -> &'static str {
        match self {
            CharNorm::None => "none",
            CharNorm::Nfc => "nfc",
            CharNorm::Nfkc => "nfkc",
        }
    }
}

/// Normalizes `s` (an IRI-reference, or text about to be parsed as one)
/// without changing its structure; see the module documentation.
pub fn apply(s: &str, form: CharNorm) -> Cow<'_, str> {
    if form == CharNorm::None || s.is_ascii() {
        return Cow::Borrowed(s);
    }
    let quick = match form {
        CharNorm::Nfc => is_nfc_quick(s.chars()),
        CharNorm::Nfkc => is_nfkc_quick(s.chars()),
        CharNorm::None => IsNormalized::Yes,
    };
    if quick == IsNormalized::Yes {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut piece_start = 0;
    for (i, c) in s.char_indices() {
        if c.is_ascii() && !is(c as u8, UNRESERVED) {
            piece(&s[piece_start..i], form, &mut out);
            out.push(c);
            piece_start = i + 1;
        }
    }
    piece(&s[piece_start..], form, &mut out);
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

fn piece(p: &str, form: CharNorm, out: &mut String) {
    if p.is_ascii() {
        out.push_str(p);
        return;
    }
    let mut emit = |c: char| {
        if c.is_ascii() && !is(c as u8, UNRESERVED) {
            push_pct(out, c as u8);
        } else {
            out.push(c);
        }
    };
    match form {
        CharNorm::Nfc => p.nfc().for_each(&mut emit),
        CharNorm::Nfkc => p.nfkc().for_each(&mut emit),
        CharNorm::None => p.chars().for_each(&mut emit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composes_and_decomposes() {
        assert_eq!(apply("re\u{301}sume\u{301}", CharNorm::Nfc), "résumé");
        assert_eq!(apply("résumé", CharNorm::Nfc), "résumé");
        assert!(matches!(apply("résumé", CharNorm::Nfc), Cow::Borrowed(_)));
        assert_eq!(apply("ﬁ", CharNorm::Nfkc), "fi");
        assert_eq!(apply("ﬁ", CharNorm::Nfc), "ﬁ");
    }

    #[test]
    fn structure_is_kept() {
        // '=' + U+0338 must not compose into '≠'.
        assert_eq!(apply("a=\u{338}b", CharNorm::Nfc), "a=\u{338}b");
        // U+037E GREEK QUESTION MARK is canonically ';': data, so encoded.
        assert_eq!(apply("x\u{37E}y", CharNorm::Nfc), "x%3By");
        // NFKC: FULLWIDTH SOLIDUS and NO-BREAK SPACE.
        assert_eq!(apply("a\u{FF0F}b\u{A0}c", CharNorm::Nfkc), "a%2Fb%20c");
        // Triplets are untouched.
        assert_eq!(apply("%C3%A9e\u{301}", CharNorm::Nfc), "%C3%A9é");
    }
}
