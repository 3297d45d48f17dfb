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
//! a barrier: the text between barriers (a "piece") is normalized on its
//! own. A piece whose normal form would hold an ASCII character other than
//! an unreserved one (a delimiter, `%`, a space...), or would be a dot
//! segment (`.`, `..`: `%EF%BC%8E%EF%BC%8E` is `．．`, NFKC `..`), is kept
//! as written and reported ([`Kept`]): normalization never produces a
//! delimiter or a dot segment that was not there (issue 16: with NFKC,
//! `http://a/secret/%EF%BC%8E%EF%BC%8E/public` became `http://a/public`).
//! Percent-encoding such a character instead (as irinorm once did) would
//! still add a `%` that was not there.

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::table::{is, UNRESERVED};

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

/// A piece of text that normalization would have turned into structure
/// (a delimiter or a dot segment), kept as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Byte offset of the piece in the text given to [`apply_reporting`].
    pub offset: usize,
    /// The piece, as written (and kept).
    pub text: String,
    /// What normalization would have made of it.
    pub would_be: String,
}

/// Normalizes `s` (an IRI-reference, or text about to be parsed as one)
/// without changing its structure; see the module documentation.
pub fn apply(s: &str, form: CharNorm) -> Cow<'_, str> {
    apply_reporting(s, form, &mut Vec::new())
}

/// [`apply`], and every piece kept as written because its normal form
/// would have changed the structure.
pub fn apply_reporting<'a>(s: &'a str, form: CharNorm, kept: &mut Vec<Kept>) -> Cow<'a, str> {
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
            piece(s, piece_start, i, form, &mut out, kept);
            out.push(c);
            piece_start = i + 1;
        }
    }
    piece(s, piece_start, s.len(), form, &mut out, kept);
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

/// Appends the normal form of `s[start..end]` (a text between barriers),
/// keeping as written the parts whose normal form would add structure.
///
/// The part kept is as small as normalization allows, so that what is kept
/// does not depend on where the barriers happen to be: a never-decoded
/// triplet planted nearby (its `%` is a barrier) must not change whether a
/// character further on is normalized (LADDER.md invariant 6; found by the
/// `normalize_scheme_uri` fuzz target: `%C2%B8` (¸, NFKC ` ̧`) kept a whole
/// piece as written, and with it a `%C2%BA` (º, NFKC `o`) that a planted
/// `%EF%BF%BE` would have cut off). The piece is cut before every ASCII
/// character: no ASCII character composes with what precedes it and each
/// is a starter, so the normal form of the piece is the normal forms of
/// the parts end to end (UAX #15 §9, normalization boundaries), and
/// cutting there changes nothing but which part is kept.
fn piece(
    s: &str,
    start: usize,
    end: usize,
    form: CharNorm,
    out: &mut String,
    kept: &mut Vec<Kept>,
) {
    let p = &s[start..end];
    if p.is_ascii() {
        out.push_str(p);
        return;
    }
    let at = out.len();
    normal_form(p, form, out);
    let new = &out[at..];
    // A segment that is only dots (RFC 3986 §3.3 dot segments, removed by
    // rung 1): structure that was not there, made by the piece as a whole.
    if matches!(new, "." | "..") {
        kept.push(Kept {
            offset: start,
            text: p.to_owned(),
            would_be: new.to_owned(),
        });
        out.truncate(at);
        out.push_str(p);
        return;
    }
    if !adds_delimiter(new) {
        return;
    }
    // Some part makes a delimiter: judge each part on its own (the common
    // case above normalizes the piece in one call).
    out.truncate(at);
    let bytes = p.as_bytes();
    let mut from = 0;
    while from < p.len() {
        let to = (from + 1..p.len())
            .find(|&i| bytes[i].is_ascii())
            .unwrap_or(p.len());
        let part = &p[from..to];
        let at = out.len();
        normal_form(part, form, out);
        if adds_delimiter(&out[at..]) {
            kept.push(Kept {
                offset: start + from,
                text: part.to_owned(),
                would_be: out[at..].to_owned(),
            });
            out.truncate(at);
            out.push_str(part);
        }
        from = to;
    }
}

/// Appends the normal form of `p` to `out`.
fn normal_form(p: &str, form: CharNorm, out: &mut String) {
    match form {
        CharNorm::Nfc => out.extend(p.nfc()),
        CharNorm::Nfkc => out.extend(p.nfkc()),
        CharNorm::None => out.push_str(p),
    }
}

/// A delimiter (gen-delims, sub-delims, `%`) or any other ASCII that is not
/// unreserved (a space...): structure that was not there.
fn adds_delimiter(new: &str) -> bool {
    new.bytes().any(|b| b.is_ascii() && !is(b, UNRESERVED))
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
        // U+037E GREEK QUESTION MARK is canonically ';': kept as written.
        assert_eq!(apply("x\u{37E}y", CharNorm::Nfc), "x\u{37E}y");
        // NFKC: FULLWIDTH SOLIDUS and NO-BREAK SPACE: those pieces are
        // kept, the others normalized.
        assert_eq!(
            apply("a\u{FF0F}b/\u{FB01}/\u{A0}c", CharNorm::Nfkc),
            "a\u{FF0F}b/fi/\u{A0}c"
        );
        // Triplets are untouched.
        assert_eq!(apply("%C3%A9e\u{301}", CharNorm::Nfc), "%C3%A9é");
    }

    /// What is kept does not depend on where the barriers are (LADDER.md
    /// invariant 6, found by fuzzing): U+00B8 CEDILLA is NFKC `space +
    /// U+0327`, so it is kept; U+00BA MASCULINE ORDINAL INDICATOR is NFKC
    /// `o` (UnicodeData.txt `<super> 006F`), with or without a `%` between
    /// them. Before, the cedilla kept the whole piece, the `º` with it.
    #[test]
    fn only_the_part_that_adds_structure_is_kept() {
        let nfkc = |s| apply(s, CharNorm::Nfkc).into_owned();
        assert_eq!(nfkc("a\u{B8}b\u{BA}"), "a\u{B8}bo");
        assert_eq!(nfkc("a\u{B8}b%41b\u{BA}"), "a\u{B8}b%41bo");
        assert_eq!(
            nfkc("e\u{E000}\u{B8}x%EF%BF%BEx\u{BA}"),
            nfkc("e\u{E000}\u{B8}xzqjzx\u{BA}").replace("zqjz", "%EF%BF%BE")
        );
        // The part kept is the cedilla with the characters after it up to
        // the next ASCII one, reported at its own offset.
        let mut kept = Vec::new();
        let out = apply_reporting("ab\u{B8}\u{E9}c\u{FB01}", CharNorm::Nfkc, &mut kept);
        assert_eq!(out, "ab\u{B8}\u{E9}cfi");
        assert_eq!(kept.len(), 1);
        assert_eq!(
            (kept[0].offset, kept[0].text.as_str()),
            (1, "b\u{B8}\u{E9}")
        );
        assert_eq!(kept[0].would_be, "b \u{327}\u{E9}");
        // Still idempotent.
        assert_eq!(nfkc(&nfkc("a\u{B8}b\u{BA}")), nfkc("a\u{B8}b\u{BA}"));
    }

    /// Issue 16: FULLWIDTH FULL STOP (U+FF0E) is `.` under NFKC; two of
    /// them made a `..` segment that rung 1 then removed.
    #[test]
    fn never_makes_a_dot_segment() {
        let mut kept = Vec::new();
        let s = "http://a/secret/\u{FF0E}\u{FF0E}/public";
        assert_eq!(apply_reporting(s, CharNorm::Nfkc, &mut kept), s);
        assert_eq!(
            kept,
            [Kept {
                offset: 16,
                text: "\u{FF0E}\u{FF0E}".into(),
                would_be: "..".into()
            }]
        );
        assert_eq!(apply("/\u{FF0E}/", CharNorm::Nfkc), "/\u{FF0E}/");
        // Dots inside a longer piece are no segment: normalized.
        assert_eq!(apply("/a\u{FF0E}\u{FF0E}/", CharNorm::Nfkc), "/a../");
    }

    #[test]
    fn never_makes_a_delimiter_or_percent() {
        // FULLWIDTH PERCENT SIGN, NUMBER SIGN, COMMERCIAL AT, QUESTION MARK.
        for c in ['\u{FF05}', '\u{FF03}', '\u{FF20}', '\u{FF1F}', '\u{FE56}'] {
            let s = format!("x{c}y");
            let mut kept = Vec::new();
            assert_eq!(apply_reporting(&s, CharNorm::Nfkc, &mut kept), s);
            assert_eq!(kept.len(), 1, "{s}");
        }
    }
}
