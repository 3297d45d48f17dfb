//! Rung 1 on the text of one component: case of the host (RFC 3986
//! §6.2.2.1), percent-encoding normalization (§6.2.2.1 upper-case hex,
//! §6.2.2.2 decode unreserved), and the alphabet of the form: `uri` maps
//! non-ASCII to UTF-8 triplets (RFC 3987 §3.1 step 2), `iri` decodes
//! triplets of allowed characters (RFC 3987 §3.2, §5.3.2.3).
//!
//! Copies runs of bytes that need nothing in one `push_str`, found by the
//! kernels of `irinorm-simd` (16 or 32 bytes per step, [`crate::bytefind`]);
//! only a triplet that changes, non-ASCII (in `uri` form, or a possible
//! bidi control) and upper-case letters (in the host) end a run. In `uri`
//! form the kernels step over the triplets that stay as they are
//! (upper-case hex, not unreserved), so a query full of `%XX` is copied
//! in a few calls (issue 14, round 4).

use super::Form;
use crate::bytefind::{ascii_except, find_component};
use crate::error::Component;
use crate::mapping::{char_allowed, utf8_from_triplets};
use crate::norm::trace::{note, Rule, Trace};
use crate::pct::{self, push_pct};
use crate::table::{is, UNRESERVED};
use crate::ucs;
use irinorm_simd::Run;

/// `iri` form, and the host in both forms: every ASCII byte but `%` is
/// plain, so every `%` ends the run and [`triplet_is_normal`] decides (in
/// `iri` form a triplet >= 0x80 may be decoded, RFC 3987 §3.2, which the
/// kernels' triplets cannot tell; a host's hex digits are upper case while
/// its letters are lower-cased). In `uri` form outside the host the run is
/// the scanner's `QUERY_RUN` (`crate::scan`): a component of a parsed
/// reference holds only `query` characters, `%` and non-ASCII, and it steps
/// over the triplets [`percent`] would keep (upper-case hex, RFC 3986
/// §6.2.2.1, not unreserved, §6.2.2.2).
///
/// The mark (0x7f, which no parsed component holds) only selects a kernel
/// instance the scanner does not use: a kernel instance called with one
/// constant run has its tables folded in; sharing the scanner's instance
/// cost its already-normal path 9 instructions per call (callgrind).
const PLAIN_RUN: Run = Run::new(ascii_except(b"%"), None, None).mark(0x7f);

/// What a component allows and needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub(crate) component: Component,
    /// Lower-case ASCII letters (the host).
    pub(crate) lower: bool,
    /// `iprivate` allowed unencoded (the query, RFC 3987 §2.2).
    pub(crate) private_ok: bool,
    /// The input may contain literal bidi formatting characters.
    pub(crate) bidi: bool,
}

impl Ctx {
    pub(crate) const fn of(component: Component, bidi: bool) -> Ctx {
        Ctx {
            component,
            lower: matches!(component, Component::Host),
            private_ok: matches!(component, Component::Query),
            bidi,
        }
    }
}

/// Appends `text` (a component, or a path segment, of a valid
/// IRI-reference, found at byte `offset` of the input) normalized.
#[inline]
pub(crate) fn write_component<T: Trace>(
    out: &mut String,
    text: &str,
    offset: usize,
    ctx: Ctx,
    form: Form,
    t: &mut T,
) {
    let b = text.as_bytes();
    let iri = form == Form::Iri;
    let high = !iri || ctx.bidi;
    let lower = ctx.lower;
    // Which run, decided once; each `find` below names its run as a
    // constant, so the kernel's class tables fold into the call: a run
    // picked at run time made every call build them (callgrind: 200 more
    // instructions per component on the frontier's rewritten references).
    let plain_run = iri || lower;
    let mut lowered = false;
    let mut i = 0;
    let mut run = 0;
    loop {
        // The next byte that may need a change: a `%` or non-ASCII (in
        // `iri` form without bidi controls, non-ASCII is kept and does not
        // end the run). Every other byte of a parsed component is kept
        // (the parser let no other byte in): the usual component, ASCII
        // without `%`, is one run, found by a few words of eight bytes
        // (`bytefind::find_component`); a long one goes on in the SIMD
        // kernels (issue 14: the byte-by-byte test was most of the slow
        // path on long queries).
        i = if plain_run {
            find_component(b, i, &PLAIN_RUN, !high)
        } else {
            find_component(b, i, &crate::scan::QUERY_RUN, !high)
        };
        let Some(&c) = b.get(i) else {
            break;
        };
        if c == b'%' && triplet_is_normal(b, i, iri) {
            // A triplet already in normal form stays in the run: flushing
            // the run at every `%` cost a copy call per triplet. Except in
            // the host, whose runs are lower-cased as a whole.
            if lower {
                lowered |= flush(out, text, run, i, true);
                out.push_str(&text[i..i + 3]);
                run = i + 3;
            }
            i += 3;
            continue;
        }
        lowered |= flush(out, text, run, i, lower);
        if c == b'%' {
            i += percent(out, text, i, offset, ctx, form, t);
        } else if c >= 0x80 {
            i += non_ascii(out, text, i, offset, ctx, iri, t);
        } else {
            // Not in a parsed component (the runs stop at `%` and
            // non-ASCII, or at a byte outside `query`): kept.
            out.push(c as char);
            i += 1;
        }
        run = i;
    }
    lowered |= flush(out, text, run, b.len(), lower);
    if T::ON && lowered {
        note(
            t,
            Rule::LowercaseHost,
            Some(ctx.component),
            Some(offset),
            text,
            &text.to_ascii_lowercase(),
        );
    }
}

/// Appends `text[from..to]`, lower-cased when `lower` (the host, RFC 3986
/// §6.2.2.1: a whole run at once rather than a stop per upper-case
/// letter); whether that changed a byte.
#[inline(always)]
fn flush(out: &mut String, text: &str, from: usize, to: usize, lower: bool) -> bool {
    let at = out.len();
    out.push_str(&text[from..to]);
    if !lower {
        return false;
    }
    // Most hosts the rewrite path writes have no upper case (a reference
    // rewritten for its scheme, port or path): tested a word at a time,
    // lower-cased byte by byte only when needed.
    let appended = &mut out[at..];
    let changed = irinorm_simd::words::any_ascii_upper(appended.as_bytes());
    if changed {
        appended.make_ascii_lowercase();
    }
    changed
}

/// Appends the non-ASCII character at `text[i..]` and returns its length:
/// encoded in URI form (RFC 3987 §3.1 step 2: UTF-8, then %HH with
/// upper-case hex), and in IRI form kept, unless it is a bidi formatting
/// character (RFC 3987 §4.1: IRIs MUST NOT contain them; the readable form
/// keeps them encoded).
#[inline]
fn non_ascii<T: Trace>(
    out: &mut String,
    text: &str,
    i: usize,
    offset: usize,
    ctx: Ctx,
    iri: bool,
    t: &mut T,
) -> usize {
    let ch = text[i..].chars().next().unwrap_or('\u{FFFD}');
    let n = ch.len_utf8();
    let rule = if !iri {
        Rule::EncodeNonAscii
    } else if ucs::is_bidi_format(ch as u32) {
        Rule::EncodeBidi
    } else {
        out.push_str(&text[i..i + n]);
        return n;
    };
    let at = out.len();
    pct::push_char_encoded(out, ch);
    note(
        t,
        rule,
        Some(ctx.component),
        Some(offset + i),
        &text[i..i + n],
        &out[at..],
    );
    n
}

/// Whether the triplet at `b[i..]` is what [`percent`] would write for it
/// (so it can be copied with the bytes around it): upper-case hex (RFC
/// 3986 §6.2.2.1), not an unreserved character (§6.2.2.2), and in `iri`
/// form not a byte of UTF-8 that [`percent`] might decode (RFC 3987 §3.2).
#[inline(always)]
fn triplet_is_normal(b: &[u8], i: usize, iri: bool) -> bool {
    #[inline(always)]
    fn upper_hex(x: u8) -> Option<u8> {
        match x {
            b'0'..=b'9' => Some(x - b'0'),
            b'A'..=b'F' => Some(x - b'A' + 10),
            _ => None,
        }
    }
    let (Some(&h), Some(&l)) = (b.get(i + 1), b.get(i + 2)) else {
        return false;
    };
    match (upper_hex(h), upper_hex(l)) {
        (Some(h), Some(l)) => {
            let v = (h << 4) | l;
            if v < 0x80 {
                !is(v, UNRESERVED)
            } else {
                !iri
            }
        }
        _ => false,
    }
}

/// One triplet (or, in `iri` form, one UTF-8 sequence of triplets) at
/// `text[i..]`. Returns the number of input bytes consumed.
#[inline]
fn percent<T: Trace>(
    out: &mut String,
    text: &str,
    i: usize,
    offset: usize,
    ctx: Ctx,
    form: Form,
    t: &mut T,
) -> usize {
    let b = text.as_bytes();
    let Some(v) = pct::triplet(b, i) else {
        // Unreachable for parsed input; keep the byte.
        out.push('%');
        return 1;
    };
    if v < 0x80 {
        if is(v, UNRESERVED) {
            // RFC 3986 §6.2.2.2: "should be decoded to their corresponding
            // unreserved characters".
            let ch = if ctx.lower { v.to_ascii_lowercase() } else { v };
            out.push(ch as char);
            if T::ON {
                let after = (ch as char).to_string();
                note(
                    t,
                    Rule::DecodeUnreserved,
                    Some(ctx.component),
                    Some(offset + i),
                    &text[i..i + 3],
                    &after,
                );
            }
        } else {
            push_upper(out, text, i, offset, ctx, t);
        }
        return 3;
    }
    if form == Form::Iri {
        let (n, ch) = utf8_from_triplets(b, i);
        if let Some(ch) = ch.filter(|c| char_allowed(*c as u32, ctx.private_ok)) {
            out.push(ch);
            note(
                t,
                Rule::DecodeUtf8,
                Some(ctx.component),
                Some(offset + i),
                &text[i..i + 3 * n],
                ch.encode_utf8(&mut [0; 4]),
            );
        } else {
            for k in 0..n {
                push_upper(out, text, i + 3 * k, offset, ctx, t);
            }
        }
        return 3 * n;
    }
    push_upper(out, text, i, offset, ctx, t);
    3
}

/// Writes the triplet at `text[i..i + 3]` with upper-case hex (§6.2.2.1).
#[inline]
fn push_upper<T: Trace>(
    out: &mut String,
    text: &str,
    i: usize,
    offset: usize,
    ctx: Ctx,
    t: &mut T,
) {
    let trip = &text[i..i + 3];
    if trip.as_bytes()[1..].iter().any(u8::is_ascii_lowercase) {
        let v = pct::triplet(trip.as_bytes(), 0).unwrap_or(0);
        let at = out.len();
        push_pct(out, v);
        note(
            t,
            Rule::UppercasePercent,
            Some(ctx.component),
            Some(offset + i),
            trip,
            &out[at..],
        );
    } else {
        out.push_str(trip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::trace::NoTrace;

    fn w(text: &str, comp: Component, form: Form) -> String {
        let mut out = String::new();
        write_component(&mut out, text, 0, Ctx::of(comp, true), form, &mut NoTrace);
        out
    }

    #[test]
    fn uri_form() {
        assert_eq!(w("a%7eb%2fc%41", Component::Path, Form::Uri), "a~b%2FcA");
        assert_eq!(w("ExAmp%4Ce", Component::Host, Form::Uri), "example");
        assert_eq!(w("Ex", Component::Path, Form::Uri), "Ex");
        assert_eq!(w("rosé", Component::Path, Form::Uri), "ros%C3%A9");
        assert_eq!(w("%c3%a9", Component::Path, Form::Uri), "%C3%A9");
    }

    #[test]
    fn iri_form() {
        assert_eq!(w("ros%c3%a9", Component::Path, Form::Iri), "rosé");
        assert_eq!(w("%E2%80%AE", Component::Path, Form::Iri), "%E2%80%AE");
        assert_eq!(w("\u{202E}x", Component::Path, Form::Iri), "%E2%80%AEx");
        assert_eq!(w("%EE%80%80", Component::Path, Form::Iri), "%EE%80%80");
        assert_eq!(w("%EE%80%80", Component::Query, Form::Iri), "\u{E000}");
        assert_eq!(w("%C0%af", Component::Path, Form::Iri), "%C0%AF");
        assert_eq!(w("%25%2f", Component::Path, Form::Iri), "%25%2F");
    }

    #[test]
    fn traced() {
        let mut t: Vec<crate::norm::trace::Change> = Vec::new();
        let mut out = String::new();
        write_component(
            &mut out,
            "A%7e%c3%a9",
            10,
            Ctx::of(Component::Host, false),
            Form::Uri,
            &mut t,
        );
        assert_eq!(out, "a~%C3%A9");
        let rules: Vec<_> = t.iter().map(|c| (c.rule, c.offset)).collect();
        assert_eq!(
            rules,
            vec![
                (Rule::DecodeUnreserved, Some(11)),
                (Rule::UppercasePercent, Some(14)),
                (Rule::UppercasePercent, Some(17)),
                (Rule::LowercaseHost, Some(10)),
            ]
        );
    }

    /// The implementation before issue 14, a byte at a time: the oracle
    /// of the differential test below.
    fn write_component_bytewise<T: Trace>(
        out: &mut String,
        text: &str,
        offset: usize,
        ctx: Ctx,
        form: Form,
        t: &mut T,
    ) {
        let b = text.as_bytes();
        let iri = form == Form::Iri;
        let mut lowered = false;
        let mut i = 0;
        let mut run = 0;
        while i < b.len() {
            let c = b[i];
            let special = c == b'%'
                || (c >= 0x80 && (!iri || ctx.bidi))
                || (ctx.lower && c.is_ascii_uppercase());
            if !special {
                i += 1;
                continue;
            }
            out.push_str(&text[run..i]);
            if c == b'%' {
                i += percent(out, text, i, offset, ctx, form, t);
            } else if c >= 0x80 {
                i += non_ascii(out, text, i, offset, ctx, iri, t);
            } else {
                out.push(c.to_ascii_lowercase() as char);
                lowered = true;
                i += 1;
            }
            run = i;
        }
        out.push_str(&text[run..]);
        if T::ON && lowered {
            note(
                t,
                Rule::LowercaseHost,
                Some(ctx.component),
                Some(offset),
                text,
                &text.to_ascii_lowercase(),
            );
        }
    }

    /// Components of many triplets (both cases of hex, unreserved and
    /// reserved values, UTF-8 bytes, broken ones), upper-case letters,
    /// non-ASCII and bidi characters, at every length around the word size.
    fn component() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => "[a-zA-Z0-9._~!$&'()*+,;=:@/?-]{0,12}",
            4 => "%[0-9a-fA-F]{2}",
            1 => "%(2[eEdD]|5[fF]|7[eE]|4[1-9a-fA-F]|6[1-9a-fA-F]|3[0-9])",
            1 => "%[cCeE][0-9a-fA-F]%[89aAbB][0-9a-fA-F](%[89aAbB][0-9a-fA-F])?",
            1 => "%[0-9a-fA-F]?",
            1 => "[é\u{202E}\u{E000}日]",
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048.max(proptest::prelude::ProptestConfig::default().cases)))]
        /// Same bytes and the same trace as the byte-by-byte loop, in
        /// every component, form and bidi setting (issue 14).
        #[test]
        fn runs_found_by_words_equal_the_byte_loop(
            text in component(),
            comp in 0..4usize,
            iri: bool,
            bidi: bool,
            prefix in "[a-z]{0,9}",
        ) {
            let component = [Component::Host, Component::Path, Component::Query, Component::Fragment][comp];
            let form = if iri { Form::Iri } else { Form::Uri };
            let ctx = Ctx::of(component, bidi);
            let (mut a, mut b) = (prefix.clone(), prefix);
            let (mut ta, mut tb): (Vec<crate::norm::trace::Change>, Vec<_>) = (Vec::new(), Vec::new());
            write_component(&mut a, &text, 7, ctx, form, &mut ta);
            write_component_bytewise(&mut b, &text, 7, ctx, form, &mut tb);
            proptest::prop_assert_eq!(&a, &b);
            proptest::prop_assert_eq!(ta, tb);
            let mut c = String::new();
            write_component(&mut c, &text, 7, ctx, form, &mut NoTrace);
            proptest::prop_assert_eq!(&a[a.len() - c.len()..], c.as_str());
        }
    }
}
