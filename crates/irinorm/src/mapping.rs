//! Mapping between IRIs and URIs: RFC 3987 §3.1 (IRI to URI, optionally
//! with UTS #46 ToASCII for the host) and §3.2 (URI to IRI).

use std::borrow::Cow;

use crate::error::{Component, ErrorKind, ParseError};
use crate::host::HostKind;
use crate::idn::{self, IdnaError, IdnaProfile};
use crate::parse::{self, Grammar, Meta};
use crate::pct::{self, push_pct};
use crate::table::{is, UNRESERVED, UNWISE};
use crate::ucs;

/// Options of [`iri_to_uri_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToUriOptions {
    /// Convert a host that contains non-ASCII characters with UTS #46
    /// ToASCII instead of percent-encoding it (RFC 3987 §3.1, "Systems
    /// accepting IRIs MAY convert the ireg-name component").
    pub idna: bool,
    /// UTS #46 flags for `idna`.
    pub idna_profile: IdnaProfile,
}

/// An IRI that could not be mapped: the parse error (offsets are into the
/// input), and for a host refused by UTS #46, which label and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// Kind, offset and component.
    pub error: ParseError,
    /// Details when `error.kind()` is [`ErrorKind::Idna`].
    pub idna: Option<IdnaError>,
}

impl From<ParseError> for MapError {
    fn from(error: ParseError) -> Self {
        MapError { error, idna: None }
    }
}

impl core::fmt::Display for MapError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.idna {
            Some(i) => write!(f, "{}: {}", self.error, i),
            None => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for MapError {}

/// RFC 3987 §3.1 step 2 without ToASCII: every non-ASCII character becomes
/// `%HH` triplets of its UTF-8 bytes (upper-case hex); existing triplets
/// and everything else are untouched. Borrows when the input is already a
/// URI (the mapping is the identity on URIs).
pub fn iri_to_uri(s: &str) -> Result<Cow<'_, str>, MapError> {
    iri_to_uri_with(s, &ToUriOptions::default())
}

/// [`iri_to_uri`] with options.
///
/// The input must be an IRI-reference, except that the printable ASCII
/// characters RFC 3987 §3.1 lists as convertible (`<`, `>`, `"`, space,
/// `{`, `}`, `|`, `\`, `^`, `` ` ``) are percent-encoded too ("Systems
/// accepting IRIs MAY also deal with the printable characters in US-ASCII
/// that are not allowed in URIs"). `#`, `%`, `[` and `]` are never
/// converted: where the grammar does not allow them, the conversion fails.
pub fn iri_to_uri_with<'a>(s: &'a str, opts: &ToUriOptions) -> Result<Cow<'a, str>, MapError> {
    let b = s.as_bytes();
    if b.is_ascii() && !b.iter().any(|&c| is(c, UNWISE)) {
        parse::parse(s, Grammar::UriReference)?;
        return Ok(Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(s.len() + s.len() / 2);
    iri_to_uri_into(s, opts, &mut out)?;
    Ok(Cow::Owned(out))
}

/// [`iri_to_uri_with`], appending to a caller's buffer.
pub fn iri_to_uri_into(s: &str, opts: &ToUriOptions, out: &mut String) -> Result<(), MapError> {
    // Step 0: the RFC's optional printable-ASCII conversion, done first so
    // that the strict IRI parser validates everything else.
    let pre: Cow<'_, str> = if s.bytes().any(|c| is(c, UNWISE)) {
        let mut t = String::with_capacity(s.len() + 8);
        for c in s.chars() {
            if c.is_ascii() && is(c as u8, UNWISE) {
                push_pct(&mut t, c as u8);
            } else {
                t.push(c);
            }
        }
        Cow::Owned(t)
    } else {
        Cow::Borrowed(s)
    };
    let m = parse::parse(&pre, Grammar::IriReference).map_err(|e| {
        let offset = map_back(s, e.offset());
        ParseError { offset, ..e }
    })?;
    write_uri(&pre, &m, opts, out).map_err(|mut e| {
        e.error.offset = map_back(s, e.error.offset);
        e
    })
}

/// Maps an offset in the string with UNWISE characters expanded back to
/// the original input.
fn map_back(input: &str, offset: usize) -> usize {
    let mut t = 0;
    for (i, c) in input.bytes().enumerate() {
        t += if is(c, UNWISE) { 3 } else { 1 };
        if t > offset {
            return i;
        }
    }
    input.len()
}

/// Writes the URI of a parsed IRI: everything is copied except non-ASCII,
/// which is percent-encoded, and (with `idna`) a non-ASCII reg-name.
fn write_uri(s: &str, m: &Meta, opts: &ToUriOptions, out: &mut String) -> Result<(), MapError> {
    if opts.idna && m.host_kind() == HostKind::RegName {
        if let Some(host) = m.host(s) {
            if !host.is_ascii() {
                let hs = m.host_start as usize;
                pct::push_non_ascii_encoded(out, &s[..hs]);
                let decoded = pct::decode(host);
                let text = core::str::from_utf8(&decoded).map_err(|_| MapError {
                    error: ParseError::new(ErrorKind::Idna, hs, Component::Host),
                    idna: Some(IdnaError {
                        kind: idn::IdnaErrorKind::NotUtf8,
                        label: host.to_owned(),
                    }),
                })?;
                let ascii = idn::to_ascii(text, &opts.idna_profile).map_err(|e| MapError {
                    error: ParseError::new(ErrorKind::Idna, hs, Component::Host),
                    idna: Some(e),
                })?;
                out.push_str(&ascii);
                pct::push_non_ascii_encoded(out, &s[m.host_end as usize..]);
                return Ok(());
            }
        }
    }
    pct::push_non_ascii_encoded(out, s);
    Ok(())
}

/// RFC 3987 §3.2: converts a URI-reference to an IRI-reference. Triplets
/// that form strictly legal UTF-8 for a character allowed unencoded in that
/// component (`ucschar`; `iprivate` only in the query) are decoded, as are
/// triplets of unreserved ASCII characters (step 2). `%25`, reserved
/// characters, ASCII not allowed in URIs, invalid or overlong UTF-8 and
/// bidi formatting characters stay encoded; octets re-encoded by steps 3-4
/// are written with upper-case hex. The scheme, the port and IP literals
/// are never touched; `xn--` labels are not converted (ToUnicode is
/// optional in §3.2 and belongs to the scheme rung).
pub fn uri_to_iri(s: &str) -> Result<Cow<'_, str>, ParseError> {
    let m = parse::parse(s, Grammar::UriReference)?;
    if !m.has(parse::PCT_ANY) {
        return Ok(Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(s.len());
    uri_to_iri_into(s, &m, &mut out);
    if out == s {
        return Ok(Cow::Borrowed(s));
    }
    Ok(Cow::Owned(out))
}

/// [`uri_to_iri`] for an already parsed URI-reference, appending to `out`.
pub fn uri_to_iri_into(s: &str, m: &Meta, out: &mut String) {
    let mut at = 0usize;
    let mut conv = |out: &mut String, start: usize, end: usize, private_ok: bool| {
        out.push_str(&s[at..start]);
        decode_component(&s[start..end], private_ok, out);
        at = end;
    };
    if m.has(parse::HAS_AUTH) {
        if m.has(parse::HAS_USERINFO) {
            conv(out, m.auth_start as usize, m.host_start as usize - 1, false);
        }
        if m.host_kind() == HostKind::RegName {
            conv(out, m.host_start as usize, m.host_end as usize, false);
        }
    }
    conv(out, m.path_start as usize, m.path_end as usize, false);
    if m.has(parse::HAS_QUERY) {
        conv(out, m.path_end as usize + 1, m.query_end as usize, true);
    }
    if m.has(parse::HAS_FRAGMENT) {
        conv(out, m.query_end as usize + 1, s.len(), false);
    }
    out.push_str(&s[at..]);
}

/// Decodes the triplets of one component as §3.2 steps 2-5 describe.
pub(crate) fn decode_component(c: &str, private_ok: bool, out: &mut String) {
    let b = c.as_bytes();
    let mut i = 0;
    let mut plain = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        out.push_str(&c[plain..i]);
        let Some(v) = pct::triplet(b, i) else {
            // Not reachable for parsed input; copy the '%' as it is.
            plain = i;
            i += 1;
            continue;
        };
        if v < 0x80 {
            if is(v, UNRESERVED) {
                out.push(v as char);
            } else {
                out.push_str(&c[i..i + 3]);
            }
            i += 3;
        } else {
            let (n, ch) = utf8_from_triplets(b, i);
            match ch {
                Some(ch) if char_allowed(ch as u32, private_ok) => out.push(ch),
                _ => {
                    for k in 0..n {
                        push_pct(out, pct::triplet(b, i + 3 * k).unwrap_or(0));
                    }
                }
            }
            i += 3 * n;
        }
        plain = i;
    }
    out.push_str(&c[plain..]);
}

/// Whether a decoded character may appear unencoded in an IRI component:
/// `ucschar` (and `iprivate` in the query), never a bidi formatting
/// character (RFC 3987 §2.2, §4.1).
#[inline]
pub(crate) fn char_allowed(c: u32, private_ok: bool) -> bool {
    (ucs::is_ucschar(c) || (private_ok && ucs::is_iprivate(c))) && !ucs::is_bidi_format(c)
}

/// Reads the UTF-8 sequence whose lead byte is the triplet at `i`. Returns
/// how many triplets it spans (1 for an invalid lead or a broken sequence,
/// so that step 3 re-encodes octet by octet) and the character if the
/// sequence is strictly legal (RFC 3629: no overlongs, no surrogates).
pub(crate) fn utf8_from_triplets(b: &[u8], i: usize) -> (usize, Option<char>) {
    let mut buf = [0u8; 4];
    let Some(lead) = pct::triplet(b, i) else {
        return (1, None);
    };
    let need = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (1, None),
    };
    buf[0] = lead;
    for (k, slot) in buf.iter_mut().enumerate().take(need).skip(1) {
        match pct::triplet(b, i + 3 * k) {
            Some(v) => *slot = v,
            None => return (1, None),
        }
    }
    match ucs::decode_utf8_strict(&buf[..need]) {
        Some((ch, n)) if n == need => (need, Some(ch)),
        _ => (1, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_uri(s: &str) -> String {
        iri_to_uri(s).unwrap().into_owned()
    }
    fn to_uri_idna(s: &str) -> Result<String, MapError> {
        iri_to_uri_with(
            s,
            &ToUriOptions {
                idna: true,
                ..Default::default()
            },
        )
        .map(Cow::into_owned)
    }
    fn to_iri(s: &str) -> String {
        uri_to_iri(s).unwrap().into_owned()
    }

    #[test]
    fn rfc3987_3_1_examples() {
        assert_eq!(
            to_uri("http://résumé.example.org"),
            "http://r%C3%A9sum%C3%A9.example.org"
        );
        assert_eq!(
            to_uri_idna("http://résumé.example.org").unwrap(),
            "http://xn--rsum-bpad.example.org"
        );
        assert_eq!(
            to_uri("http://www.example.org/red%09rosé#red"),
            "http://www.example.org/red%09ros%C3%A9#red"
        );
        assert_eq!(
            to_uri("http://example.com/𐌀𐌁𐌂"),
            "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
        );
        assert!(matches!(iri_to_uri("http://a/b"), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn printable_ascii_may_be_converted_but_not_hash_or_brackets() {
        assert_eq!(
            to_uri("http://a/red rosé#<red>"),
            "http://a/red%20ros%C3%A9#%3Cred%3E"
        );
        let e = iri_to_uri("http://a/b[c]").unwrap_err();
        assert_eq!(
            (e.error.kind(), e.error.offset()),
            (ErrorKind::InvalidChar, 10)
        );
        let e = iri_to_uri("http://a/b#c#d").unwrap_err();
        assert_eq!(e.error.offset(), 12);
        let e = iri_to_uri("http://a/<%zz").unwrap_err();
        assert_eq!(
            (e.error.kind(), e.error.offset()),
            (ErrorKind::BadPercentEncoding, 10)
        );
    }

    #[test]
    fn idna_failures_are_reported() {
        let e = to_uri_idna("http://\u{0378}.net").unwrap_err();
        assert_eq!(e.error.kind(), ErrorKind::Idna);
        assert_eq!(e.error.offset(), 7);
        assert_eq!(e.idna.unwrap().label, "\u{0378}");
        // ASCII hosts are left alone even with --idna.
        assert_eq!(
            to_uri_idna("http://Bü:ẞ@gOoGle.com").unwrap(),
            "http://B%C3%BC:%E1%BA%9E@gOoGle.com"
        );
    }

    #[test]
    fn rfc3987_3_2_1_examples() {
        assert_eq!(
            to_iri("http://www.example.org/D%C3%BCrst"),
            "http://www.example.org/Dürst"
        );
        assert_eq!(
            to_iri("http://www.example.org/D%FCrst"),
            "http://www.example.org/D%FCrst"
        );
        assert_eq!(
            to_iri("http://xn--99zt52a.example.org/%e2%80%ae"),
            "http://xn--99zt52a.example.org/%E2%80%AE"
        );
        assert_eq!(
            to_iri("http://www.example.org/r%E9sum%E9.html"),
            "http://www.example.org/r%E9sum%E9.html"
        );
    }

    #[test]
    fn uri_to_iri_never_decodes_reserved_or_overlong() {
        assert_eq!(to_iri("http://a/%2F%3f%25%7E"), "http://a/%2F%3f%25~");
        assert_eq!(to_iri("http://a/%C0%AF"), "http://a/%C0%AF");
        assert_eq!(to_iri("http://a/%c3"), "http://a/%C3");
        assert_eq!(to_iri("http://a/%ef%bf%be"), "http://a/%EF%BF%BE"); // U+FFFE noncharacter
        assert_eq!(
            to_iri("http://a/%EE%80%80?%EE%80%80"),
            "http://a/%EE%80%80?\u{E000}"
        );
        assert_eq!(
            to_iri("http://r%C3%A9sum%C3%A9.example/"),
            "http://résumé.example/"
        );
        assert_eq!(
            to_iri("http://[fe80::1%25eth0]/"),
            "http://[fe80::1%25eth0]/"
        );
    }

    #[test]
    fn round_trip() {
        for s in [
            "http://www.example.org/D%C3%BCrst",
            "http://a/%E2%80%AE?%EE%80%80#%C3%A9",
            "x/%C3%A9%2F",
        ] {
            let iri = to_iri(s);
            assert_eq!(to_uri(&iri), s.replace("%c3", "%C3"), "{s}");
        }
    }
}
