//! Independent, deliberately naive models of RFC 3986 / RFC 3987 used as
//! oracles by the property tests (`tests/prop_foundation.rs`) and the fuzz
//! targets (`fuzz/fuzz_targets/*.rs`, which include this file by path).
//!
//! Nothing here calls into `irinorm`: components come from the regular
//! expression of RFC 3986 Appendix B (written out by hand), resolution
//! follows the pseudo-code of §5.2.2 line by line, and the URI-to-IRI model
//! follows the five steps of RFC 3987 §3.2. Speed is not a goal; being
//! obviously right is.

/// The five components of RFC 3986 §5.2.1 / Appendix B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    pub scheme: Option<String>,
    pub authority: Option<String>,
    pub path: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

/// RFC 3986 Appendix B:
///
/// ```text
/// ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
///  12            3  4          5       6  7        8 9
/// ```
///
/// The regex is greedy and the groups are tried left to right, so this is a
/// direct transcription. It splits any string; for a valid URI-reference the
/// split is the one of the grammar (Appendix B: "...for breaking-down a
/// well-formed URI reference into its components").
pub fn split(s: &str) -> Parts {
    let mut rest = s;
    // (([^:/?#]+):)?
    let mut scheme = None;
    if let Some(p) = rest.find([':', '/', '?', '#']) {
        if p > 0 && rest.as_bytes()[p] == b':' {
            scheme = Some(rest[..p].to_owned());
            rest = &rest[p + 1..];
        }
    }
    // (//([^/?#]*))?
    let mut authority = None;
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        authority = Some(after[..end].to_owned());
        rest = &after[end..];
    }
    // ([^?#]*)
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    let path = rest[..end].to_owned();
    rest = &rest[end..];
    // (\?([^#]*))?
    let mut query = None;
    if let Some(after) = rest.strip_prefix('?') {
        let end = after.find('#').unwrap_or(after.len());
        query = Some(after[..end].to_owned());
        rest = &after[end..];
    }
    // (#(.*))?
    let fragment = rest.strip_prefix('#').map(str::to_owned);
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// `authority = [ userinfo "@" ] host [ ":" port ]` for a *valid* authority:
/// `@` appears only as the userinfo delimiter; the host is an IP-literal
/// (up to its `]`) or has no `:`; the port is what follows the `:`.
/// Returns (userinfo, host, port).
pub fn split_authority(a: &str) -> (Option<&str>, &str, Option<&str>) {
    let (userinfo, hostport) = match a.rfind('@') {
        Some(p) => (Some(&a[..p]), &a[p + 1..]),
        None => (None, a),
    };
    let host_end = if hostport.starts_with('[') {
        hostport.find(']').map_or(hostport.len(), |p| p + 1)
    } else {
        hostport.find(':').unwrap_or(hostport.len())
    };
    let host = &hostport[..host_end];
    let port = hostport[host_end..].strip_prefix(':');
    (userinfo, host, port)
}

/// RFC 3986 §5.3, plus the repair of `vectors/README.md`: "when the target
/// has no authority and its path would start with `//`, the path is written
/// with a `/.` prefix".
pub fn recompose(t: &Parts) -> String {
    let mut result = String::new();
    if let Some(s) = &t.scheme {
        result.push_str(s);
        result.push(':');
    }
    if let Some(a) = &t.authority {
        result.push_str("//");
        result.push_str(a);
    } else if t.path.starts_with("//") {
        result.push_str("/.");
    }
    result.push_str(&t.path);
    if let Some(q) = &t.query {
        result.push('?');
        result.push_str(q);
    }
    if let Some(f) = &t.fragment {
        result.push('#');
        result.push_str(f);
    }
    result
}

/// RFC 3986 §5.2.4, with the two buffers of the RFC, step by step.
pub fn remove_dot_segments(path: &str) -> String {
    // 1. The input buffer is initialized with the now-appended path
    //    components and the output buffer is initialized to the empty string.
    let mut input = path.to_owned();
    let mut output = String::new();
    // 2. While the input buffer is not empty, loop as follows:
    while !input.is_empty() {
        // A. If the input buffer begins with a prefix of "../" or "./",
        //    then remove that prefix from the input buffer; otherwise,
        if input.starts_with("../") {
            input = input["../".len()..].to_owned();
        } else if input.starts_with("./") {
            input = input["./".len()..].to_owned();
        }
        // B. if the input buffer begins with a prefix of "/./" or "/.",
        //    where "." is a complete path segment, then replace that prefix
        //    with "/" in the input buffer; otherwise,
        else if input.starts_with("/./") {
            input = format!("/{}", &input["/./".len()..]);
        } else if input == "/." {
            input = "/".to_owned();
        }
        // C. if the input buffer begins with a prefix of "/../" or "/..",
        //    where ".." is a complete path segment, then replace that prefix
        //    with "/" in the input buffer and remove the last segment and
        //    its preceding "/" (if any) from the output buffer; otherwise,
        else if input.starts_with("/../") || input == "/.." {
            let rest = if input == "/.." {
                ""
            } else {
                &input["/../".len()..]
            };
            input = format!("/{rest}");
            match output.rfind('/') {
                Some(p) => output.truncate(p),
                None => output.clear(),
            }
        }
        // D. if the input buffer consists only of "." or "..", then remove
        //    that from the input buffer; otherwise,
        else if input == "." || input == ".." {
            input.clear();
        }
        // E. move the first path segment in the input buffer to the end of
        //    the output buffer, including the initial "/" character (if any)
        //    and any subsequent characters up to, but not including, the
        //    next "/" character or the end of the input buffer.
        else {
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |p| from + p);
            output.push_str(&input[..end]);
            input = input[end..].to_owned();
        }
    }
    // 3. Finally, the output buffer is returned.
    output
}

/// RFC 3986 §5.2.3.
pub fn merge(base_authority: Option<&str>, base_path: &str, r_path: &str) -> String {
    // If the base URI has a defined authority component and an empty path,
    // then return a string consisting of "/" concatenated with the
    // reference's path; otherwise,
    if base_authority.is_some() && base_path.is_empty() {
        return format!("/{r_path}");
    }
    // return a string consisting of the reference's path component appended
    // to all but the last segment of the base URI's path (i.e., excluding
    // any characters after the right-most "/" in the base URI path, or
    // excluding the entire base URI path if it does not contain any "/"
    // characters).
    match base_path.rfind('/') {
        Some(p) => format!("{}{r_path}", &base_path[..=p]),
        None => r_path.to_owned(),
    }
}

/// RFC 3986 §5.2.2 (strict), then §5.3 with the `/.` repair.
pub fn resolve(base: &str, reference: &str) -> String {
    let b = split(base);
    let r = split(reference);
    let mut t = Parts {
        scheme: None,
        authority: None,
        path: String::new(),
        query: None,
        fragment: None,
    };
    if r.scheme.is_some() {
        t.scheme = r.scheme.clone();
        t.authority = r.authority.clone();
        t.path = remove_dot_segments(&r.path);
        t.query = r.query.clone();
    } else {
        if r.authority.is_some() {
            t.authority = r.authority.clone();
            t.path = remove_dot_segments(&r.path);
            t.query = r.query.clone();
        } else {
            if r.path.is_empty() {
                t.path = b.path.clone();
                if r.query.is_some() {
                    t.query = r.query.clone();
                } else {
                    t.query = b.query.clone();
                }
            } else {
                if r.path.starts_with('/') {
                    t.path = remove_dot_segments(&r.path);
                } else {
                    t.path = merge(b.authority.as_deref(), &b.path, &r.path);
                    t.path = remove_dot_segments(&t.path);
                }
                t.query = r.query.clone();
            }
            t.authority = b.authority.clone();
        }
        t.scheme = b.scheme.clone();
    }
    t.fragment = r.fragment.clone();
    recompose(&t)
}

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
pub fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn hex_digit(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The byte of the triplet at `s[i..i+3]`, if it is one.
pub fn triplet_at(s: &[u8], i: usize) -> Option<u8> {
    if s.get(i) != Some(&b'%') {
        return None;
    }
    let h = hex_digit(*s.get(i + 1)?)?;
    let l = hex_digit(*s.get(i + 2)?)?;
    Some(h * 16 + l)
}

/// The equivalence of RFC 3987 §3.2 first paragraph: a round trip may
/// change "case differences in percent-encoding" and "percent-encoded
/// unreserved characters". Canonical form: every triplet upper-case, and
/// triplets of unreserved characters decoded (RFC 3986 §6.2.2.1-2).
pub fn canon_pct(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(v) = triplet_at(b, i) {
            if is_unreserved(v) {
                out.push(v as char);
            } else {
                out.push_str(&format!("%{v:02X}"));
            }
            i += 3;
        } else {
            let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push(c);
            i += c.len_utf8().max(1);
        }
    }
    out
}

/// RFC 3987 §3.1 step 2: every non-ASCII character becomes `%HH` of its
/// UTF-8 octets.
pub fn encode_non_ascii(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

/// `ucschar` (RFC 3987 §2.2), transcribed range by range.
pub fn is_ucschar(c: u32) -> bool {
    [
        (0xA0, 0xD7FF),
        (0xF900, 0xFDCF),
        (0xFDF0, 0xFFEF),
        (0x10000, 0x1FFFD),
        (0x20000, 0x2FFFD),
        (0x30000, 0x3FFFD),
        (0x40000, 0x4FFFD),
        (0x50000, 0x5FFFD),
        (0x60000, 0x6FFFD),
        (0x70000, 0x7FFFD),
        (0x80000, 0x8FFFD),
        (0x90000, 0x9FFFD),
        (0xA0000, 0xAFFFD),
        (0xB0000, 0xBFFFD),
        (0xC0000, 0xCFFFD),
        (0xD0000, 0xDFFFD),
        (0xE1000, 0xEFFFD),
    ]
    .iter()
    .any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// `iprivate` (RFC 3987 §2.2).
pub fn is_iprivate(c: u32) -> bool {
    [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Bidi formatting characters (RFC 3987 §4.1: "IRIs MUST NOT contain
/// bidirectional formatting characters (LRM, RLM, LRE, RLE, LRO, RLO, and
/// PDF)"), plus the isolates LRI, RLI, FSI, PDI that LADDER.md lists, plus
/// ALM (U+061C), the project's recorded decision (see `irinorm::ucs`).
pub fn is_bidi_format(c: u32) -> bool {
    matches!(
        c,
        0x200E | 0x200F // LRM RLM
        | 0x202A | 0x202B | 0x202C | 0x202D | 0x202E // LRE RLE PDF LRO RLO
        | 0x2066 | 0x2067 | 0x2068 | 0x2069 // LRI RLI FSI PDI
        | 0x061C // ALM
    )
}

/// RFC 3987 §3.2 on one component (`in_query`: iprivate is allowed). The
/// output is compared with irinorm's modulo [`canon_pct`], so the hex case
/// of re-encoded octets does not matter here.
pub fn uri_to_iri_component(c: &str, in_query: bool) -> String {
    // Step 2: "Convert all percent-encodings ... to the corresponding
    // octets, except those corresponding to "%", characters in "reserved",
    // and characters in US-ASCII not allowed in URIs." Each octet remembers
    // whether it came from a triplet (and the triplet's text).
    let b = c.as_bytes();
    let mut octets: Vec<(u8, Option<&str>)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match triplet_at(b, i) {
            Some(v) if v >= 0x80 || is_unreserved(v) => {
                octets.push((v, Some(&c[i..i + 3])));
                i += 3;
            }
            _ => {
                octets.push((b[i], None));
                i += 1;
            }
        }
    }
    // Steps 3-5: octets that are part of a strictly legal UTF-8 sequence
    // become characters if "appropriate" (RFC 3987 §2.2: ucschar, iprivate
    // only in the query; §4.1: no bidi formatting characters); everything
    // else is (re-)percent-encoded.
    let raw: Vec<u8> = octets.iter().map(|o| o.0).collect();
    let mut out = String::new();
    let mut at = 0;
    for chunk in raw.utf8_chunks() {
        for ch in chunk.valid().chars() {
            let n = ch.len_utf8();
            let cp = ch as u32;
            let ok = cp < 0x80
                || ((is_ucschar(cp) || (in_query && is_iprivate(cp))) && !is_bidi_format(cp));
            if ok {
                out.push(ch);
            } else {
                for o in &octets[at..at + n] {
                    out.push_str(&format!("%{:02X}", o.0));
                }
            }
            at += n;
        }
        for o in &octets[at..at + chunk.invalid().len()] {
            out.push_str(&format!("%{:02X}", o.0));
        }
        at += chunk.invalid().len();
    }
    out
}

/// RFC 3987 §3.2 on a whole URI-reference, component by component (the
/// delimiters are reserved characters and never change). The scheme and
/// port have no `%`; an IP-literal is left alone (its only triplets are
/// the RFC 6874 `%25` and ZoneID triplets; any difference there is an
/// unreserved triplet, which [`canon_pct`] equates).
pub fn uri_to_iri(s: &str) -> String {
    let p = split(s);
    let mut out = String::new();
    if let Some(sc) = &p.scheme {
        out.push_str(sc);
        out.push(':');
    }
    if let Some(a) = &p.authority {
        out.push_str("//");
        let (ui, host, port) = split_authority(a);
        if let Some(ui) = ui {
            out.push_str(&uri_to_iri_component(ui, false));
            out.push('@');
        }
        if host.starts_with('[') {
            out.push_str(host);
        } else {
            out.push_str(&uri_to_iri_component(host, false));
        }
        if let Some(port) = port {
            out.push(':');
            out.push_str(port);
        }
    }
    out.push_str(&uri_to_iri_component(&p.path, false));
    if let Some(q) = &p.query {
        out.push('?');
        out.push_str(&uri_to_iri_component(q, true));
    }
    if let Some(f) = &p.fragment {
        out.push('#');
        out.push_str(&uri_to_iri_component(f, false));
    }
    out
}

/// `dec-octet` / `IPv4address` (RFC 3986 §3.2.2), by counting.
pub fn is_ipv4address(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// LADDER.md rung 1 (`uri` form) on the rootless path of an absolute URI,
/// which is opaque: no dot segment is removed; each segment is mapped to
/// a URI (RFC 3987 §3.1 step 2) and its triplets canonicalized (RFC 3986
/// §6.2.2.1-2), except a segment that would become `.` or `..` only by
/// decoding, which keeps its triplets (upper-cased): no rung writes a dot
/// segment that was not there (resolution would remove it).
pub fn opaque_path_rung1(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            let canon = canon_pct(&encode_non_ascii(seg));
            if (canon == "." || canon == "..") && canon != seg {
                seg.to_ascii_uppercase()
            } else {
                canon
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}
