//! The host: rare IP address forms (RFC 3986 §7.4), DNS length limits
//! (RFC 1034 §3.1) checked before any UTS #46 work, UTS #46 itself
//! through `irinorm::idn`, and the per-label unit checks (scripts,
//! confusables, normalization, bidi).

use std::borrow::Cow;

use irinorm::idn::{self, IdnaErrorKind, MAX_IDN_HOST_BYTES};
use irinorm::pct;

use crate::codes::Code;
use crate::report::{truncate, Part, Sink, MAX_DETAIL};
use crate::split::{HostClass, Parts, Span};
use crate::units::{ascii_skeleton, check_unit, host_labels, looks_like, Scripts, UnitChecks};
use crate::LintOptions;

/// Longest DNS label, in octets (RFC 1034 §3.1, RFC 1035 §2.3.4).
pub const MAX_DNS_LABEL: usize = 63;
/// Longest DNS name in text form without the root dot: 255 octets on
/// the wire are 253 characters of text (RFC 1034 §3.1).
pub const MAX_DNS_NAME: usize = 253;

/// Reads a host as `inet_aton` does (RFC 3986 §7.4); the core's reading.
pub(crate) use irinorm::host::parse_ipv4_forms as numeric_ipv4;

fn dotted(v: u32) -> String {
    let [a, b, c, d] = v.to_be_bytes();
    format!("{a}.{b}.{c}.{d}")
}

/// What makes a numeric host rare: the first thing that differs from
/// `IPv4address`.
fn numeric_form(raw: &str, decoded: &[u8]) -> &'static str {
    let body = decoded.strip_suffix(b".").unwrap_or(decoded);
    let parts: Vec<&[u8]> = body.split(|&c| c == b'.').collect();
    if parts
        .iter()
        .any(|p| p.len() >= 2 && p[0] == b'0' && (p[1] | 0x20) == b'x')
    {
        "hexadecimal"
    } else if parts.iter().any(|p| p.len() >= 2 && p[0] == b'0') {
        "octal (leading zero)"
    } else if parts.len() == 1 {
        "a single integer"
    } else if parts.len() < 4 {
        "fewer than four parts"
    } else if body.len() != decoded.len() {
        "dotted-decimal with a trailing dot"
    } else if raw.contains('%') {
        "percent-encoded dotted-decimal"
    } else {
        "dotted-decimal out of the IPv4address syntax"
    }
}

/// All host checks.
pub(crate) fn check_host(s: &str, parts: &Parts, opts: &LintOptions, sink: &mut Sink<'_>) {
    let Some(h) = parts.host else {
        return;
    };
    match parts.host_class {
        HostClass::Ipv4 | HostClass::BadLiteral => {}
        HostClass::IpvFuture => sink.push(
            Code::RareIpForm,
            Part::Host,
            h.start,
            h.len(),
            "IPvFuture literal: no version is defined, so no resolver reads it the same way"
                .to_owned(),
            Some("IPvFuture".to_owned()),
        ),
        HostClass::Ipv6 => ipv6(s, h, sink),
        HostClass::RegName => reg_name(s, h, opts, sink),
    }
}

/// IPv6 literals that carry an IPv4 address: a filter written for IPv4
/// addresses does not see them (RFC 3986 §7.4, RFC 4291 §2.5.5).
fn ipv6(s: &str, h: Span, sink: &mut Sink<'_>) {
    let text = h.text(s);
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    let addr = inner.split('%').next().unwrap_or(inner);
    let Ok(g) = irinorm::host::parse_ipv6(addr.as_bytes()) else {
        return;
    };
    let v4 = (u32::from(g[6]) << 16) | u32::from(g[7]);
    let form = if g[..5] == [0; 5] && g[5] == 0xffff {
        Some("IPv4-mapped (RFC 4291 §2.5.5.2)")
    } else if g[..6] == [0; 6] && v4 > 1 {
        Some("IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)")
    } else if g[..4] == [0; 4] && g[4] == 0xffff && g[5] == 0 {
        Some("IPv4-translated (RFC 2765 §2.1)")
    } else if g[0] == 0x64 && g[1] == 0xff9b && g[2..6] == [0; 4] {
        Some("IPv4-embedded, NAT64 well-known prefix (RFC 6052 §2.1)")
    } else {
        None
    };
    if let Some(form) = form {
        let a = dotted(v4);
        sink.push(
            Code::RareIpForm,
            Part::Host,
            h.start,
            h.len(),
            format!("IPv6 literal {form} that denotes the IPv4 address {a}"),
            Some(a),
        );
    }
}

/// A registered name.
fn reg_name(s: &str, h: Span, opts: &LintOptions, sink: &mut Sink<'_>) {
    let raw = h.text(s);
    if raw.is_empty() {
        return;
    }
    encoded_delimiters(s, h, sink);
    let decoded = pct::decode(raw);
    if let Some(v) = numeric_ipv4(&decoded) {
        let a = dotted(v);
        sink.push(
            Code::RareIpForm,
            Part::Host,
            h.start,
            h.len(),
            format!(
                "host is {}, a form of the IPv4 address {a} that resolvers accept but IPv4address does not",
                numeric_form(raw, &decoded)
            ),
            Some(a),
        );
        return;
    }
    let labels = host_labels(s, h);
    let text = match core::str::from_utf8(&decoded) {
        Ok(t) => t,
        Err(_) => {
            let at = labels
                .iter()
                .copied()
                .find(|l| core::str::from_utf8(&pct::decode(l.text(s))).is_err())
                .unwrap_or(h);
            sink.push(
                Code::IdnaNotUtf8,
                Part::Host,
                at.start,
                at.len(),
                "percent-encoded host label does not decode to UTF-8".to_owned(),
                None,
            );
            return;
        }
    };
    lengths_and_idna(s, h, text, &labels, opts, sink);
    label_units(s, &labels, text.len() <= MAX_IDN_HOST_BYTES, opts, sink);
}

/// `host-encoded-delimiter`: `%5C`, `%2F`, `%20`, `%3F`, `%23`, `%40`,
/// `%3A`... in a reg-name. RFC 3986 §3.2.2 allows any pct-encoded octet
/// there, but the WHATWG URL host parser decodes the host and refuses these
/// (forbidden host code points, C0 controls, `%`, DEL), and a parser that
/// decodes before splitting reads another host (`example.com%5Cpath` is
/// what `to-uri` makes of `http://example.com\path`). One finding per
/// triplet.
fn encoded_delimiters(s: &str, h: Span, sink: &mut Sink<'_>) {
    if !sink.wants(Code::HostEncodedDelimiter) {
        return;
    }
    let b = s.as_bytes();
    for i in h.start..h.end.min(b.len()) {
        let Some(v) = pct::triplet(b, i).filter(|_| i + 3 <= h.end) else {
            continue;
        };
        let forbidden = v < 0x21
            || v == 0x7f
            || matches!(
                v,
                b'/' | b'\\'
                    | b'?'
                    | b'#'
                    | b'@'
                    | b':'
                    | b'['
                    | b']'
                    | b'<'
                    | b'>'
                    | b'^'
                    | b'|'
                    | b'%'
            );
        if forbidden {
            sink.push(
                Code::HostEncodedDelimiter,
                Part::Host,
                i,
                3,
                format!(
                    "host holds {} ({}): RFC 3986 allows it in a reg-name, browsers refuse the host, and a parser that decodes first reads a different host",
                    &s[i..i + 3],
                    if v.is_ascii_graphic() { format!("'{}'", v as char) } else { format!("byte 0x{v:02X}") }
                ),
                Some((v as char).to_string()),
            );
        }
    }
}

/// The decoded text of a raw label.
fn decoded_label<'a>(s: &'a str, l: Span) -> Cow<'a, str> {
    match pct::decode(l.text(s)) {
        Cow::Borrowed(b) => Cow::Borrowed(core::str::from_utf8(b).unwrap_or_default()),
        Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
    }
}

/// Whether `raw` holds a triplet of an ASCII character that is not
/// unreserved (those a syntax normalization decodes anyway).
fn has_reserved_triplet(raw: &str) -> bool {
    let b = raw.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'%'
            && pct::triplet(b, i).is_some_and(|v| {
                v < 0x80 && !(v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~'))
            })
    })
}

fn is_ace(label: &str) -> bool {
    label.len() >= 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--")
}

/// DNS lengths in A-label form and UTS #46 validity.
///
/// Order, so that the cost stays linear whatever the input: an ASCII host
/// without `xn--` labels is its own A-label form, so its lengths are exact
/// without UTS #46; a host that needs UTS #46 and is longer than
/// [`MAX_IDN_HOST_BYTES`] is reported and never mapped; only a host within
/// that bound goes through `to_ascii`, once.
fn lengths_and_idna(
    s: &str,
    h: Span,
    text: &str,
    labels: &[Span],
    opts: &LintOptions,
    sink: &mut Sink<'_>,
) {
    let wants_len = sink.wants_any(&[
        Code::DnsLabelTooLong,
        Code::DnsNameTooLong,
        Code::DnsEmptyLabel,
    ]);
    // Under a profile that checks ASCII (STD3 rules, hyphens, DNS
    // lengths), ASCII hosts go through UTS #46 too.
    if !idn::needs_uts46_with(text, &opts.idna_profile) {
        if wants_len {
            let lens: Vec<Vec<usize>> = labels
                .iter()
                .map(|&l| decoded_label(s, l).split('.').map(str::len).collect())
                .collect();
            check_lengths(h, labels, &lens, text.len(), text.ends_with('.'), sink);
        }
        return;
    }
    if text.len() > MAX_IDN_HOST_BYTES {
        sink.push(
            Code::IdnaTooLong,
            Part::Host,
            h.start,
            h.len(),
            format!(
                "internationalized host of {} bytes: over the {MAX_IDN_HOST_BYTES}-byte bound, so it is not mapped (and cannot be a {MAX_DNS_NAME}-octet DNS name unless UTS #46 deletes most of it)",
                text.len()
            ),
            Some(text.len().to_string()),
        );
        if wants_len {
            plain_ascii_labels(s, labels, sink);
        }
        return;
    }
    // A reserved ASCII character percent-encoded in an IDN (`é%2C.com`):
    // UTS #46 would have to decode it, which no normalization may do
    // (RFC 3986 §2.2, §6.2.2.2), so irinorm keeps such a host unmapped.
    if let Some(&l) = labels.iter().find(|l| has_reserved_triplet(l.text(s))) {
        sink.push(
            Code::IdnaEncodedAscii,
            Part::Host,
            l.start,
            l.len(),
            "internationalized host label with a percent-encoded reserved ASCII character; it is not mapped by UTS #46".to_owned(),
            Some(idn::IdnaErrorKind::EncodedAscii.code().to_owned()),
        );
        if wants_len {
            plain_ascii_labels(s, labels, sink);
        }
        return;
    }
    if !wants_len && !sink.wants_any(&[Code::IdnaInvalid, Code::IdnaBadPunycode, Code::IdnaEmpty]) {
        return;
    }
    match idn::to_ascii(text, &opts.idna_profile) {
        Ok(ascii) if ascii.is_empty() => sink.push(
            Code::IdnaEmpty,
            Part::Host,
            h.start,
            h.len(),
            "every character of the host is ignored by UTS #46: it maps to the empty name"
                .to_owned(),
            Some(idn::IdnaErrorKind::Empty.code().to_owned()),
        ),
        Ok(ascii) => {
            if !wants_len {
                return;
            }
            let pieces: Vec<usize> = ascii.split('.').map(str::len).collect();
            let mut lens: Vec<Vec<usize>> = labels
                .iter()
                .map(|&l| vec![0; decoded_label(s, l).split('.').count()])
                .collect();
            let total: usize = lens.iter().map(Vec::len).sum();
            if total == pieces.len() {
                let mut it = pieces.iter();
                for v in &mut lens {
                    for x in v.iter_mut() {
                        *x = it.next().copied().unwrap_or(0);
                    }
                }
                check_lengths(h, labels, &lens, ascii.len(), ascii.ends_with('.'), sink);
            } else {
                // UTS #46 mapped a character to or from a dot: the labels
                // no longer line up with the text, so point at the host.
                let one = vec![pieces];
                check_lengths(h, &[h], &one, ascii.len(), ascii.ends_with('.'), sink);
            }
        }
        Err(e) => {
            let code = match e.kind {
                IdnaErrorKind::BadPunycode => Code::IdnaBadPunycode,
                IdnaErrorKind::NotUtf8 => Code::IdnaNotUtf8,
                IdnaErrorKind::EncodedAscii => Code::IdnaEncodedAscii,
                IdnaErrorKind::Empty => Code::IdnaEmpty,
                IdnaErrorKind::TooLong => Code::IdnaTooLong,
                IdnaErrorKind::Invalid => Code::IdnaInvalid,
            };
            let at = labels
                .iter()
                .copied()
                .find(|&l| !e.label.is_empty() && decoded_label(s, l).starts_with(&*e.label))
                .unwrap_or(h);
            sink.push(
                code,
                Part::Host,
                at.start,
                at.len(),
                format!(
                    "host fails UTS #46 ToASCII at label {:?}",
                    truncate(&e.label, 64)
                ),
                Some(e.kind.code().to_owned()),
            );
            if wants_len {
                plain_ascii_labels(s, labels, sink);
            }
        }
    }
}

/// Label lengths of the ASCII labels without `xn--`, which are exact
/// without UTS #46 (used when the host as a whole was not mapped).
fn plain_ascii_labels(s: &str, labels: &[Span], sink: &mut Sink<'_>) {
    for &l in labels {
        let d = decoded_label(s, l);
        if d.is_ascii() && !is_ace(&d) {
            for piece in d.split('.') {
                if piece.len() > MAX_DNS_LABEL {
                    push_label_too_long(l, piece.len(), sink);
                }
            }
        }
    }
}

fn push_label_too_long(l: Span, n: usize, sink: &mut Sink<'_>) {
    sink.push(
        Code::DnsLabelTooLong,
        Part::Host,
        l.start,
        l.len(),
        format!("host label of {n} octets in A-label form; DNS allows {MAX_DNS_LABEL}"),
        Some(n.to_string()),
    );
}

/// `lens[k]` are the A-label lengths of the DNS labels in raw label `k`
/// (more than one only when a `%2E` hides a dot).
fn check_lengths(
    h: Span,
    labels: &[Span],
    lens: &[Vec<usize>],
    name_len: usize,
    root_dot: bool,
    sink: &mut Sink<'_>,
) {
    let count: usize = lens.iter().map(Vec::len).sum();
    let mut seen = 0;
    for (l, v) in labels.iter().zip(lens) {
        for &n in v {
            seen += 1;
            if n > MAX_DNS_LABEL {
                push_label_too_long(*l, n, sink);
            } else if n == 0 && !(root_dot && seen == count) && count > 0 {
                sink.push(
                    Code::DnsEmptyLabel,
                    Part::Host,
                    l.start,
                    l.len(),
                    "empty label in the host name".to_owned(),
                    None,
                );
            }
        }
    }
    let name = name_len - usize::from(root_dot);
    if name > MAX_DNS_NAME {
        sink.push(
            Code::DnsNameTooLong,
            Part::Host,
            h.start,
            h.len(),
            format!("host name of {name} octets in A-label form; DNS allows {MAX_DNS_NAME}"),
            Some(name.to_string()),
        );
    }
}

/// Unit checks on each label, with the U-label of an `xn--` label as the
/// text a person reads (only for hosts within [`MAX_IDN_HOST_BYTES`]), and
/// `confusable` with the skeleton of the whole host in the detail.
fn label_units(s: &str, labels: &[Span], map_ace: bool, opts: &LintOptions, sink: &mut Sink<'_>) {
    let checks = UnitChecks {
        bidi: true,
        scripts: Scripts::Label,
        normalization: true,
    };
    let mut shown: Vec<Option<String>> = Vec::with_capacity(labels.len());
    for &l in labels {
        let raw = l.text(s);
        let u = if map_ace && is_ace(raw) && raw.len() <= MAX_DNS_LABEL {
            idn::to_unicode(raw, &opts.idna_profile)
                .ok()
                .filter(|u| !u.is_ascii())
                .map(Cow::into_owned)
        } else {
            None
        };
        check_unit(s, l, Part::Host, u.as_deref(), checks, sink);
        shown.push(u);
    }
    if !sink.wants(Code::Confusable) {
        return;
    }
    let texts: Vec<Cow<'_, str>> = labels
        .iter()
        .zip(&shown)
        .map(|(&l, u)| match u {
            Some(u) => Cow::Borrowed(u.as_str()),
            None => crate::text::display(l.text(s)),
        })
        .collect();
    let hits: Vec<(usize, String)> = texts
        .iter()
        .enumerate()
        .filter_map(|(k, t)| ascii_skeleton(t).map(|sk| (k, sk)))
        .collect();
    if hits.is_empty() {
        return;
    }
    // One detail for every hit, cut once: formatting the whole host per
    // hit would make a host of k confusable labels cost k times its length.
    let host_skeleton: Vec<String> = texts
        .iter()
        .map(|t| unicode_security::skeleton(t).collect())
        .collect();
    let host_looks: Vec<String> = texts.iter().map(|t| looks_like(t)).collect();
    let detail = format!(
        "skeleton: {}; looks like: {}",
        truncate(&host_skeleton.join("."), MAX_DETAIL / 2),
        truncate(&host_looks.join("."), MAX_DETAIL / 2)
    );
    for (k, _) in hits {
        let l = labels[k];
        sink.push(
            Code::Confusable,
            Part::Host,
            l.start,
            l.len(),
            format!(
                "host label {:?} looks like ASCII {:?}",
                truncate(&texts[k], 64),
                truncate(&looks_like(&texts[k]), 64)
            ),
            Some(detail.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inet_aton_forms() {
        let v = |s: &str| numeric_ipv4(s.as_bytes()).map(dotted);
        assert_eq!(v("127.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("0177.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("0x7f.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("127.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("127.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("2130706433").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("0x7F000001").as_deref(), Some("127.0.0.1"));
        assert_eq!(v("1.2.3.4.").as_deref(), Some("1.2.3.4"));
        assert_eq!(v("0x").as_deref(), Some("0.0.0.0"));
        assert_eq!(v("256.1.1.1"), None);
        assert_eq!(v("1.2.3.4.5"), None);
        assert_eq!(v("08.1.1.1"), None);
        assert_eq!(v("1..2"), None);
        assert_eq!(v("4294967296"), None);
        assert_eq!(v("example.com"), None);
        assert_eq!(v(""), None);
        assert_eq!(v(&"9".repeat(10_000)), None);
    }
}
