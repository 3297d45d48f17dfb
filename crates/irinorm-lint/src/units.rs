//! Checks on "components" in the sense of RFC 3987 §4.2: the rules of
//! that section, the script rules of RFC 3987 §7.5 (UTS #39), and
//! character normalization (RFC 3987 §5.3.2.2, §7.5).
//!
//! RFC 3987 §4.2 lists iuserinfo, ireg-name, isegment, iquery and ifragment
//! as components and lets them be divided further: the labels of a host
//! name (as RFC 3490 does), each name and each value of a query, the
//! extensions of a resource name. Without that division the section's own
//! legal examples would break its rules (Example 4's `KL.html` mixes
//! directions unless `.html` is a component of its own), so this crate
//! divides:
//!
//! - userinfo at `:` (user, password);
//! - a reg-name at label separators (`.` and the three UTS #46 maps to it);
//! - a path at `/`, then each segment at `.`, `;`, `=` and `,`;
//! - a query at `&`, `;`, `=` and `+`;
//! - the fragment not at all.
//!
//! The bidi rules and NFC/NFKC look at units. The script rules look at a
//! host label whole, and at the *words* of userinfo and path units (runs of
//! letters, marks, numbers and format characters), where words of two
//! languages legitimately sit side by side; query values and fragments are
//! arbitrary text and get no script rules.

use icu_properties::props::{BidiClass, GeneralCategory, GeneralCategoryGroup};
use icu_properties::CodePointMapData;
use irinorm::ucs::is_bidi_format;
use unicode_normalization::{is_nfc, is_nfkc, UnicodeNormalization};
use unicode_script::{Script, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;

use crate::codes::Code;
use crate::report::{truncate, Part, Sink};
use crate::split::{is_label_sep, split_span, Parts, Span};
use crate::text::{display, read_seq, Seq};

/// Which checks apply to a unit.
#[derive(Clone, Copy)]
pub(crate) struct UnitChecks {
    /// RFC 3987 §4.2 rules 1 and 2.
    pub(crate) bidi: bool,
    /// Where mixed-script and confusable look.
    pub(crate) scripts: Scripts,
    /// not-nfc and not-nfkc.
    pub(crate) normalization: bool,
}

/// The scope of the script checks (RFC 3987 §7.5, UTS #39).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scripts {
    /// None (query values and fragments are arbitrary text).
    Off,
    /// The unit as a whole, mixed-script only: a host label (the host
    /// reports confusables itself, with the skeleton of the whole host).
    Label,
    /// Each word of the unit (a run of letters, marks, numbers and format
    /// characters): path segments and userinfo, where words of different
    /// languages legitimately sit side by side (`Tunnel_of_Love_(альбом)`)
    /// but one word mixing scripts (`pаypal`) is a spoof.
    Words,
}

const ALL_UNIT_CHECKS: UnitChecks = UnitChecks {
    bidi: true,
    scripts: Scripts::Words,
    normalization: true,
};

/// Every unit of every component except the host (whose labels the host
/// checks handle, because they need UTS #46 for `xn--` labels).
pub(crate) fn check_components(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    if !sink.wants_any(&[
        Code::BidiMixedDirection,
        Code::BidiRtlBoundary,
        Code::MixedScript,
        Code::Confusable,
        Code::NotNfc,
        Code::NotNfkc,
    ]) {
        return;
    }
    if let Some(u) = parts.userinfo {
        split_span(
            s,
            u,
            |c| c == ':',
            |sp| check_unit(s, sp, Part::Userinfo, None, ALL_UNIT_CHECKS, sink),
        );
    }
    split_span(
        s,
        parts.path,
        |c| c == '/',
        |seg| {
            split_span(
                s,
                seg,
                |c| matches!(c, '.' | ';' | '=' | ','),
                |sp| check_unit(s, sp, Part::Path, None, ALL_UNIT_CHECKS, sink),
            )
        },
    );
    // Query values and fragments are arbitrary text (RFC 3987 §4.2 says
    // the rules "may be very difficult to enforce" there; §7.5 allows a
    // ligature in a query): no script checks.
    let text_checks = UnitChecks {
        bidi: true,
        scripts: Scripts::Off,
        normalization: true,
    };
    if let Some(q) = parts.query {
        split_span(
            s,
            q,
            |c| matches!(c, '&' | ';' | '=' | '+'),
            |sp| check_unit(s, sp, Part::Query, None, text_checks, sink),
        );
    }
    if let Some(f) = parts.fragment {
        check_unit(s, f, Part::Fragment, None, text_checks, sink);
    }
}

/// The units of a reg-name, for the host checks.
pub(crate) fn host_labels(s: &str, host: Span) -> Vec<Span> {
    let mut v = Vec::new();
    split_span(s, host, is_label_sep, |sp| v.push(sp));
    v
}

/// Runs the unit checks on `span` of `s`. `shown` is the text a person
/// reads when it is not simply the percent-decoded span (a U-label for an
/// `xn--` label).
pub(crate) fn check_unit(
    s: &str,
    span: Span,
    part: Part,
    shown: Option<&str>,
    checks: UnitChecks,
    sink: &mut Sink<'_>,
) {
    if span.is_empty() {
        return;
    }
    let raw = span.text(s);
    if raw.is_ascii() && !raw.contains('%') && shown.is_none() {
        // ASCII: NFC and NFKC, one script (Latin plus Common), no
        // right-to-left character, nothing to confuse with ASCII.
        return;
    }
    if checks.bidi && !raw.is_ascii() {
        bidi_rules(raw, span, part, sink);
    }
    let decoded;
    let text = match shown {
        Some(t) => t,
        None => {
            decoded = display(raw);
            &decoded
        }
    };
    if text.is_ascii() {
        return;
    }
    if checks.normalization {
        normalization(text, span, part, sink);
    }
    match checks.scripts {
        Scripts::Off => {}
        Scripts::Label => mixed_script(text, span, part, sink),
        Scripts::Words => words(raw, span, part, sink),
    }
}

/// The characters of `raw` with their byte ranges, every triplet decoded:
/// well-formed UTF-8 sequences to their character, ASCII octets to
/// theirs, other octets to U+FFFD.
fn decoded_chars(raw: &str, mut f: impl FnMut(usize, usize, char)) {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if let Some(v) = irinorm::pct::triplet(b, i) {
                if v < 0x80 {
                    f(i, i + 3, char::from(v));
                    i += 3;
                } else if let Seq::Valid(c, n) = read_seq(b, i) {
                    f(i, i + 3 * n, c);
                    i += 3 * n;
                } else {
                    f(i, i + 3, '\u{FFFD}');
                    i += 3;
                }
                continue;
            }
        }
        let c = raw[i..].chars().next().unwrap_or('\u{FFFD}');
        f(i, i + c.len_utf8(), c);
        i += c.len_utf8();
    }
}

/// Letters, marks, numbers and format characters (ZWJ, soft hyphen...)
/// make words; punctuation, symbols, separators, controls and the bidi
/// formatting characters (reported on their own) end them.
fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    if is_bidi_format(c as u32) {
        return false;
    }
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    GeneralCategoryGroup::Letter.contains(gc)
        || GeneralCategoryGroup::Mark.contains(gc)
        || GeneralCategoryGroup::Number.contains(gc)
        || gc == GeneralCategory::Format
}

/// mixed-script and confusable on each non-ASCII word of a unit.
fn words(raw: &str, span: Span, part: Part, sink: &mut Sink<'_>) {
    let mut word = String::new();
    let mut start = 0;
    let mut end = 0;
    let flush = |word: &mut String, start: usize, end: usize, sink: &mut Sink<'_>| {
        if !word.is_ascii() {
            let sp = Span::new(span.start + start, span.start + end);
            mixed_script(word, sp, part, sink);
            confusable(word, sp, part, sink);
        }
        word.clear();
    };
    decoded_chars(raw, |a, b, c| {
        if is_word_char(c) {
            if word.is_empty() {
                start = a;
            }
            word.push(c);
            end = b;
        } else if !word.is_empty() {
            flush(&mut word, start, end, sink);
        }
    });
    if !word.is_empty() {
        flush(&mut word, start, end, sink);
    }
}

/// Whether `word` reads as ordinary text of one writing system: a single
/// UTS #39 script set (any script, Latin included), in NFKC, with no
/// invisible character. Such a word in a path is language even when its
/// skeleton is ASCII (Turkish `Politikası`, Greek `για`, Cyrillic `бога`);
/// a word that mixes scripts (`pаypal`), uses compatibility forms
/// (`ｆｉｌｅ`) or hides an invisible character (`ad\u{200B}min`) is not.
fn plain_word(word: &str) -> bool {
    let mut set = AugmentedScriptSet::default();
    for c in word.chars() {
        if is_invisible(c) {
            return false;
        }
        if c.script() != Script::Unknown {
            set.intersect_with(AugmentedScriptSet::for_char(c));
        }
    }
    !set.is_empty() && is_nfkc(word)
}

/// Format characters (ZWSP, ZWJ, soft hyphen...) and the other
/// default-ignorable characters a word can hide: variation selectors, the
/// combining grapheme joiner, Hangul fillers, Mongolian selectors.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180B}'..='\u{180F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    ) || (!c.is_ascii()
        && CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::Format)
}

fn confusable(word: &str, span: Span, part: Part, sink: &mut Sink<'_>) {
    if !sink.wants(Code::Confusable) || plain_word(word) {
        return;
    }
    if let Some(sk) = ascii_skeleton(word) {
        let looks = looks_like(word);
        let message = if looks.is_empty() {
            format!("{part} text of invisible characters only")
        } else {
            format!(
                "{part} text {:?} looks like ASCII {looks:?}",
                truncate(word, 64)
            )
        };
        sink.push(
            Code::Confusable,
            part,
            span.start,
            span.len(),
            message,
            Some(format!("skeleton: {sk}; looks like: {looks}")),
        );
    }
}

fn is_rtl(c: BidiClass) -> bool {
    c == BidiClass::RightToLeft || c == BidiClass::ArabicLetter
}

/// RFC 3987 §4.2: "1. A component SHOULD NOT use both right-to-left and
/// left-to-right characters. 2. A component using right-to-left
/// characters SHOULD start and end with right-to-left characters."
/// Right-to-left characters are those of Bidi_Class R or AL, left-to-right
/// ones those of Bidi_Class L (digits and punctuation are neither: RFC
/// 3987 Example 7 allows digits inside an rtl component). The text is
/// taken as written: a percent-encoded digit is three characters of its
/// own (Example 9).
pub(crate) fn bidi_rules(raw: &str, span: Span, part: Part, sink: &mut Sink<'_>) {
    let map = CodePointMapData::<BidiClass>::new();
    let mut rtl = false;
    let mut ltr = false;
    let mut first = None;
    let mut last = BidiClass::OtherNeutral;
    for c in raw.chars() {
        let class = map.get(c);
        rtl |= is_rtl(class);
        ltr |= class == BidiClass::LeftToRight;
        first.get_or_insert(class);
        last = class;
    }
    if !rtl {
        return;
    }
    if ltr {
        sink.push(
            Code::BidiMixedDirection,
            part,
            span.start,
            span.len(),
            format!("{part} component mixes right-to-left and left-to-right characters"),
            None,
        );
    }
    let starts = first.is_some_and(is_rtl);
    let ends = is_rtl(last);
    if !(starts && ends) {
        let which = match (starts, ends) {
            (false, false) => "neither starts nor ends",
            (false, true) => "does not start",
            _ => "does not end",
        };
        sink.push(
            Code::BidiRtlBoundary,
            part,
            span.start,
            span.len(),
            format!("{part} component with right-to-left characters {which} with one"),
            Some(which.to_owned()),
        );
    }
}

fn normalization(text: &str, span: Span, part: Part, sink: &mut Sink<'_>) {
    if !is_nfc(text) {
        if sink.wants(Code::NotNfc) {
            let nfc: String = text.nfc().collect();
            sink.push(
                Code::NotNfc,
                part,
                span.start,
                span.len(),
                format!("{part} text is not in NFC"),
                Some(format!("NFC: {nfc}")),
            );
        }
    } else if sink.wants(Code::NotNfkc) && !is_nfkc(text) {
        let nfkc: String = text.nfkc().collect();
        sink.push(
            Code::NotNfkc,
            part,
            span.start,
            span.len(),
            format!("{part} text has compatibility characters (not in NFKC)"),
            Some(format!("NFKC: {nfkc}")),
        );
    }
}

/// UTS #39 §5.2 restriction levels, computed on the letters of a unit
/// (URI punctuation is not an identifier character, so the crate's
/// `detect_restriction_level` would call every URL "unrestricted").
/// `None` when the text is single-script or highly restrictive (Latin with
/// Han and Japanese kana, Han with Bopomofo, Han with Hangul), which are
/// fine; else the level's name.
pub(crate) fn restriction_level(text: &str) -> Option<&'static str> {
    let mut set = AugmentedScriptSet::default();
    let mut without_latin = AugmentedScriptSet::default();
    for c in text.chars() {
        // Unassigned code points have no script (and are UTS #46's or the
        // grammar's business), ASCII punctuation is Common.
        if (c.is_ascii() && !c.is_ascii_alphabetic()) || c.script() == Script::Unknown {
            continue;
        }
        let cs = AugmentedScriptSet::for_char(c);
        set.intersect_with(cs);
        if !cs.base.contains_script(Script::Latin) {
            without_latin.intersect_with(cs);
        }
    }
    if !set.is_empty() {
        return None;
    }
    if without_latin.kore || without_latin.hanb || without_latin.jpan {
        return None;
    }
    if without_latin.base.len() == 1 {
        if let Some(sc) = without_latin.base.iter().next() {
            if sc.is_recommended() && sc != Script::Cyrillic && sc != Script::Greek {
                return Some("moderately restrictive");
            }
        }
    }
    Some("minimally restrictive")
}

fn mixed_script(text: &str, span: Span, part: Part, sink: &mut Sink<'_>) {
    if !sink.wants(Code::MixedScript) {
        return;
    }
    if let Some(level) = restriction_level(text) {
        let scripts = scripts_of(text);
        sink.push(
            Code::MixedScript,
            part,
            span.start,
            span.len(),
            format!("{part} component mixes scripts: {scripts}"),
            Some(format!("scripts: {scripts}; UTS #39 level: {level}")),
        );
    }
}

/// The distinct scripts of `text` (not Common, Inherited or Unknown), in
/// order of appearance, at most 8.
pub(crate) fn scripts_of(text: &str) -> String {
    let mut seen: Vec<Script> = Vec::new();
    for c in text.chars() {
        let sc = c.script();
        if matches!(sc, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        if !seen.contains(&sc) {
            seen.push(sc);
            if seen.len() == 8 {
                break;
            }
        }
    }
    seen.iter()
        .map(|s| s.full_name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The UTS #39 skeleton of non-ASCII `text` when that skeleton is all
/// ASCII: the text is then confusable with an ASCII string (`pаypal` with
/// a Cyrillic `а` has the skeleton `paypal`).
pub(crate) fn ascii_skeleton(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for c in unicode_security::skeleton(text) {
        if !c.is_ascii() {
            return None;
        }
        out.push(c);
    }
    Some(out)
}

/// What `text` reads as: each non-ASCII character replaced by its UTS #39
/// prototype, ASCII kept (the skeleton itself also maps ASCII, `m` to
/// `rn`, which is right for comparing and odd to read).
pub(crate) fn looks_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.extend(unicode_security::skeleton(c.encode_utf8(&mut buf)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(restriction_level("paypal"), None);
        assert_eq!(restriction_level("pаypal"), Some("minimally restrictive"));
        assert_eq!(restriction_level("日本語abc"), None);
        assert_eq!(restriction_level("한국어abc"), None);
        assert_eq!(
            restriction_level("كتابbook"),
            Some("moderately restrictive")
        );
        assert_eq!(restriction_level("файл-1"), None);
        assert_eq!(restriction_level("a\u{378}"), None);
    }

    #[test]
    fn skeletons() {
        assert_eq!(ascii_skeleton("pаypal").as_deref(), Some("paypal"));
        assert_eq!(ascii_skeleton("аррӏе").as_deref(), Some("apple"));
        assert_eq!(ascii_skeleton("résumé"), None);
        assert_eq!(ascii_skeleton("paypal"), None);
        assert_eq!(ascii_skeleton("пример"), None);
        assert_eq!(looks_like("pаypal.com"), "paypal.com");
    }
}
