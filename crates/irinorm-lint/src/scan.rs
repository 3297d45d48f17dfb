//! Checks on the raw text, one pass each, valid input or not: literal
//! characters (bidi formatting, private use) and percent-encoded octets
//! (UTF-8 well-formedness, overlong forms, NUL, encoded bidi formatting,
//! encoded dot segments).

use irinorm::pct::triplet;
use irinorm::ucs::{is_bidi_format, is_iprivate};

use crate::codes::Code;
use crate::report::{Part, Sink};
use crate::split::{split_span, Parts, Span};
use crate::text::{describe_cp, read_seq, Seq};

/// A run of adjacent offending characters, reported once.
struct Run {
    code: Code,
    start: usize,
    end: usize,
    count: usize,
}

fn flush(run: &mut Option<Run>, s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    let Some(r) = run.take() else {
        return;
    };
    let part = parts.part_at(r.start);
    let text = &s[r.start..r.end];
    let cps: Vec<String> = text
        .chars()
        .take(8)
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    let what = match r.code {
        Code::BidiFormatChar => "bidirectional formatting character",
        _ => "private-use character",
    };
    let message = if r.count == 1 {
        format!("{what} {} in the {part}", cps[0])
    } else {
        format!("{} {what}s in the {part}", r.count)
    };
    sink.push(
        r.code,
        part,
        r.start,
        r.end - r.start,
        message,
        Some(cps.join(" ")),
    );
}

/// `bidi-format-char` (RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional
/// formatting characters") and `iprivate-outside-query` (RFC 3987 §2.2:
/// `iprivate` is part of `iquery` only). The bidi set is
/// [`irinorm::ucs::is_bidi_format`]: the seven of RFC 3987 plus the
/// Unicode 6.3 isolates and ALM.
pub(crate) fn literal_chars(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    if s.is_ascii() || !sink.wants_any(&[Code::BidiFormatChar, Code::IprivateOutsideQuery]) {
        return;
    }
    let mut run: Option<Run> = None;
    for (i, c) in s.char_indices() {
        let cp = c as u32;
        let code = if is_bidi_format(cp) {
            Some(Code::BidiFormatChar)
        } else if is_iprivate(cp) && parts.part_at(i) != Part::Query {
            Some(Code::IprivateOutsideQuery)
        } else {
            None
        };
        match (code, run.as_mut()) {
            (Some(code), Some(r)) if r.code == code && r.end == i => {
                r.end = i + c.len_utf8();
                r.count += 1;
            }
            (Some(code), _) => {
                flush(&mut run, s, parts, sink);
                run = Some(Run {
                    code,
                    start: i,
                    end: i + c.len_utf8(),
                    count: 1,
                });
            }
            (None, _) => flush(&mut run, s, parts, sink),
        }
    }
    flush(&mut run, s, parts, sink);
}

/// Every triplet of the input, left to right: `pct-invalid-utf8` (runs of
/// ill-formed octets), `pct-overlong-utf8` (each overlong sequence),
/// `pct-nul` and `pct-bidi-format-char`.
pub(crate) fn triplets(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    let b = s.as_bytes();
    if !b.contains(&b'%')
        || !sink.wants_any(&[
            Code::PctInvalidUtf8,
            Code::PctOverlongUtf8,
            Code::PctNul,
            Code::PctBidiFormatChar,
        ])
    {
        return;
    }
    // A run of ill-formed triplets: (start, end, octets).
    let mut bad: Option<(usize, usize, usize)> = None;
    let flush_bad = |bad: &mut Option<(usize, usize, usize)>, sink: &mut Sink<'_>| {
        if let Some((start, end, n)) = bad.take() {
            let part = parts.part_at(start);
            sink.push(
                Code::PctInvalidUtf8,
                part,
                start,
                end - start,
                format!("{n} percent-encoded octet(s) in the {part} are not well-formed UTF-8"),
                Some(s[start..end].to_owned()),
            );
        }
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        let Some(v) = triplet(b, i) else {
            i += 1;
            continue;
        };
        if v < 0x80 {
            flush_bad(&mut bad, sink);
            if v == 0 {
                let part = parts.part_at(i);
                sink.push(
                    Code::PctNul,
                    part,
                    i,
                    3,
                    format!("percent-encoded NUL in the {part}"),
                    None,
                );
            }
            i += 3;
            continue;
        }
        match read_seq(b, i) {
            Seq::Valid(c, n) => {
                flush_bad(&mut bad, sink);
                if is_bidi_format(c as u32) {
                    let part = parts.part_at(i);
                    sink.push(
                        Code::PctBidiFormatChar,
                        part,
                        i,
                        3 * n,
                        format!(
                            "percent-encoded bidirectional formatting character U+{:04X} in the {part}",
                            c as u32
                        ),
                        Some(format!("U+{:04X}", c as u32)),
                    );
                }
                i += 3 * n;
            }
            Seq::Overlong(v, n) => {
                flush_bad(&mut bad, sink);
                let part = parts.part_at(i);
                let what = describe_cp(v);
                sink.push(
                    Code::PctOverlongUtf8,
                    part,
                    i,
                    3 * n,
                    format!(
                        "overlong UTF-8 in the {part}: {} octets that a lax decoder reads as {what}",
                        n
                    ),
                    Some(what),
                );
                i += 3 * n;
            }
            Seq::Invalid => {
                match bad.as_mut() {
                    Some(r) if r.1 == i => {
                        r.1 = i + 3;
                        r.2 += 1;
                    }
                    _ => {
                        flush_bad(&mut bad, sink);
                        bad = Some((i, i + 3, 1));
                    }
                }
                i += 3;
            }
        }
    }
    flush_bad(&mut bad, sink);
}

/// `pct-dot-segment`: a path segment that is not `.` or `..` as written
/// but becomes one when its percent-encoded unreserved characters are
/// decoded (RFC 3986 §6.2.2.2 allows that decoding; §5.2.4 then removes
/// the segment). A server that checks `..` before decoding can be
/// walked out of its root (RFC 3986 §7.3).
pub(crate) fn dot_segments(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    if !sink.wants(Code::PctDotSegment) || !parts.path.text(s).contains('%') {
        return;
    }
    split_span(
        s,
        parts.path,
        |c| c == '/',
        |seg: Span| {
            let t = seg.text(s);
            if !t.contains('%') || t.len() > 9 {
                return;
            }
            let b = t.as_bytes();
            let mut dots = 0;
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'.' {
                    i += 1;
                } else if triplet(b, i) == Some(b'.') {
                    i += 3;
                } else {
                    return;
                }
                dots += 1;
            }
            if dots == 1 || dots == 2 {
                let name = if dots == 1 { "." } else { ".." };
                sink.push(
                    Code::PctDotSegment,
                    Part::Path,
                    seg.start,
                    seg.len(),
                    format!("path segment {t:?} is the dot segment {name:?} once decoded"),
                    Some(name.to_owned()),
                );
            }
        },
    );
}

/// `backslash`: every literal `\\` (one finding per run). RFC 3986 has no
/// `\\` in any component (§2), so the input is refused; the WHATWG URL
/// Standard reads it as `/` before the query of http(s), ws(s), ftp and file
/// URLs: `http://a.example\\@b.example/` is host `a.example` for a browser.
/// A parser differential in front of any security decision.
pub(crate) fn backslashes(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    if !sink.wants(Code::Backslash) || !s.contains('\\') {
        return;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i] == b'\\' {
            i += 1;
        }
        sink.push(
            Code::Backslash,
            parts.part_at(start),
            start,
            i - start,
            "backslash: RFC 3986 does not allow it; browsers read it as '/' in http(s), ws(s), ftp and file URLs, so they and RFC parsers see different components".to_owned(),
            None,
        );
    }
}
