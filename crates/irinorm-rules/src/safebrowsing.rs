//! Google Safe Browsing URL canonicalization (Safe Browsing API v4, "URLs
//! and Hashing", section "Canonicalization"; the same text in the Web Risk
//! documentation): the lookup key of the `safebrowsing` preset.
//!
//! This is a **lookup key, not an RFC normal form**: it unescapes the whole
//! URL repeatedly (so `%2F` becomes a path separator and `%3F` a query
//! delimiter, which RFC 3986 §2.2 forbids), drops the port, userinfo and
//! fragment, collapses slashes, and escapes only bytes <= 0x20, >= 0x7F,
//! `#` and `%`. Two URLs with the same key are the same *for a Safe
//! Browsing list lookup*; they need not identify the same resource.

use std::fmt;

/// Why an input has no Safe Browsing key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SafeBrowsingError {
    /// Nothing but white space.
    Empty,
    /// A scheme other than http or https (the lists hold web URLs).
    Scheme(String),
    /// No host.
    NoHost,
}

impl fmt::Display for SafeBrowsingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SafeBrowsingError::Empty => f.write_str("empty URL"),
            SafeBrowsingError::Scheme(s) => {
                write!(
                    f,
                    "scheme {s:?}: Safe Browsing keys are for http and https URLs"
                )
            }
            SafeBrowsingError::NoHost => f.write_str("no host"),
        }
    }
}

impl std::error::Error for SafeBrowsingError {}

impl From<SafeBrowsingError> for irinorm::ParseError {
    /// In the parser's terms, for the pipeline: `missing-scheme` (empty),
    /// `unexpected-scheme` (not http or https), `invalid-char` in the host
    /// (no host).
    fn from(e: SafeBrowsingError) -> Self {
        use irinorm::{Component, ErrorKind, ParseError};
        match e {
            SafeBrowsingError::Empty => ParseError::at(ErrorKind::MissingScheme, 0, None),
            SafeBrowsingError::Scheme(_) => {
                ParseError::at(ErrorKind::UnexpectedScheme, 0, Some(Component::Scheme))
            }
            SafeBrowsingError::NoHost => {
                ParseError::at(ErrorKind::InvalidChar, 0, Some(Component::Host))
            }
        }
    }
}

/// The canonical Safe Browsing form of `url` (see the module docs).
///
/// ```
/// use irinorm_rules::safebrowsing::canonicalize;
/// assert_eq!(canonicalize("http://host/%25%32%35").unwrap(), "http://host/%25");
/// assert_eq!(canonicalize("www.GOOgle.com").unwrap(), "http://www.google.com/");
/// ```
pub fn canonicalize(url: &str) -> Result<String, SafeBrowsingError> {
    let b = canonicalize_bytes(url.as_bytes())?;
    // Every byte outside 0x21..=0x7E is escaped: the key is ASCII.
    Ok(String::from_utf8(b).unwrap_or_default())
}

/// [`canonicalize`] of raw bytes (URLs from the wire need not be UTF-8:
/// `http://\x01\x80.com/` -> `http://%01%80.com/`).
pub fn canonicalize_bytes(url: &[u8]) -> Result<Vec<u8>, SafeBrowsingError> {
    // "remove tab (0x09), CR (0x0d), and LF (0x0a) characters"; leading and
    // trailing spaces go too (the documented `"  http://www.google.com/  "`).
    let mut u: Vec<u8> = url
        .iter()
        .copied()
        .filter(|c| !matches!(c, b'\t' | b'\r' | b'\n'))
        .collect();
    let s = u.iter().position(|&c| c != b' ').unwrap_or(u.len());
    let e = u.iter().rposition(|&c| c != b' ').map_or(s, |e| e + 1);
    u = u[s..e].to_vec();
    if u.is_empty() {
        return Err(SafeBrowsingError::Empty);
    }
    // "if the URL ends in a fragment, remove the fragment" (before the
    // unescaping: a `%23` is data, never a fragment).
    if let Some(h) = u.iter().position(|&c| c == b'#') {
        u.truncate(h);
    }
    // "repeatedly percent-unescape the URL until it has no more
    // percent-escapes"
    let u = unescape_repeatedly(u);

    // A URL without a scheme (`www.google.com`) is an http URL.
    let (scheme, rest) = match find_scheme(&u) {
        Some(n) => (u[..n].to_ascii_lowercase(), &u[n + 3..]),
        None => (b"http".to_vec(), &u[..]),
    };
    if scheme != b"http" && scheme != b"https" {
        return Err(SafeBrowsingError::Scheme(
            String::from_utf8_lossy(&scheme).into_owned(),
        ));
    }
    let auth_end = rest
        .iter()
        .position(|&c| c == b'/' || c == b'?')
        .unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(auth_end);
    let (path, query) = match tail.iter().position(|&c| c == b'?') {
        Some(q) => (&tail[..q], Some(&tail[q + 1..])),
        None => (tail, None),
    };

    let host = canonical_host(authority)?;
    let mut out = scheme;
    out.extend_from_slice(b"://");
    escape_into(&host, &mut out);
    escape_into(&canonical_path(path), &mut out);
    if let Some(q) = query {
        // The query is kept as it is (only escaped).
        out.push(b'?');
        escape_into(q, &mut out);
    }
    Ok(out)
}

/// `scheme://` at the start: the length of the scheme.
fn find_scheme(u: &[u8]) -> Option<usize> {
    if !u.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = u
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .count();
    u[n..].starts_with(b"://").then_some(n)
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn unescape_repeatedly(mut s: Vec<u8>) -> Vec<u8> {
    loop {
        let mut out = Vec::with_capacity(s.len());
        let mut i = 0;
        while i < s.len() {
            if s[i] == b'%' && i + 2 < s.len() {
                if let (Some(h), Some(l)) = (hex(s[i + 1]), hex(s[i + 2])) {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
            }
            out.push(s[i]);
            i += 1;
        }
        if out == s {
            return s;
        }
        s = out;
    }
}

/// "percent-escape all characters in the URL which are <= ASCII 32, >= 127,
/// "#", or "%". The escapes should use uppercase hex characters."
fn escape_into(s: &[u8], out: &mut Vec<u8>) {
    for &c in s {
        if c <= 0x20 || c >= 0x7f || c == b'#' || c == b'%' {
            out.extend_from_slice(format!("%{c:02X}").as_bytes());
        } else {
            out.push(c);
        }
    }
}

/// The hostname rules: userinfo and port dropped, leading and trailing dots
/// removed, consecutive dots made one, IPv4 in any legal encoding as four
/// decimals, lower case; an IDN as Punycode.
fn canonical_host(authority: &[u8]) -> Result<Vec<u8>, SafeBrowsingError> {
    let hostport = match authority.iter().rposition(|&c| c == b'@') {
        Some(a) => &authority[a + 1..],
        None => authority,
    };
    // Leading dots go first, so that what they hid (`.[a]`) is read the
    // same way when the key is read again (found by the fuzz target).
    let hostport = &hostport[hostport.iter().take_while(|&&c| c == b'.').count()..];
    let host = if hostport.first() == Some(&b'[') {
        // A bracketed IPv6 address is kept with its brackets.
        let e = hostport
            .iter()
            .position(|&c| c == b']')
            .map_or(hostport.len(), |e| e + 1);
        &hostport[..e]
    } else {
        // A host name has no `:`: what follows the first one is the port.
        match hostport.iter().position(|&c| c == b':') {
            Some(c) => &hostport[..c],
            None => hostport,
        }
    };
    // An IDN, as Punycode first (the documentation assumes it done before
    // canonicalization); a host with ASCII other than letters, digits, `-`,
    // `.`, `_` is no domain name and stays as it is (escaped), so that the
    // key's host never holds a delimiter (found by the fuzz target).
    let ldh = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_');
    let name_like = host.iter().all(|&c| !c.is_ascii() || ldh(c));
    let mapped;
    let host = match std::str::from_utf8(host) {
        Ok(text) if !host.is_ascii() && name_like => match idna::domain_to_ascii(text) {
            // UTS #46 maps some characters to ASCII delimiters (U+FF20 to
            // `@`): such a result is no domain name either.
            Ok(a) if a.bytes().all(ldh) => {
                mapped = a.into_bytes();
                &mapped[..]
            }
            _ => host,
        },
        _ => host,
    };
    let mut h: Vec<u8> = Vec::with_capacity(host.len());
    for &c in host {
        if c == b'.' && (h.is_empty() || h.last() == Some(&b'.')) {
            continue;
        }
        h.push(c);
    }
    while h.last() == Some(&b'.') {
        h.pop();
    }
    if h.is_empty() {
        return Err(SafeBrowsingError::NoHost);
    }
    if let Some(ip) = irinorm::host::parse_ipv4_forms(&h) {
        return Ok(std::net::Ipv4Addr::from(ip).to_string().into_bytes());
    }
    h.make_ascii_lowercase();
    Ok(h)
}

/// The path rules: `/./` -> `/`, `/../` removes the segment before, runs of
/// slashes made one; the empty path is `/`. A path that ends with `/`, `/.`
/// or `/..` names a directory and keeps its trailing slash.
fn canonical_path(path: &[u8]) -> Vec<u8> {
    let mut segs: Vec<&[u8]> = Vec::new();
    let mut dir = path.is_empty();
    for seg in path.split(|&c| c == b'/') {
        dir = false;
        match seg {
            b"" => dir = true,
            b"." => dir = true,
            b".." => {
                segs.pop();
                dir = true;
            }
            s => segs.push(s),
        }
    }
    let mut out = vec![b'/'];
    for (i, s) in segs.iter().enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(s);
    }
    if dir && !segs.is_empty() {
        out.push(b'/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every canonicalization example of Google's documentation (Safe
    /// Browsing v4 "URLs and Hashing", Canonicalization), in its order.
    #[test]
    fn every_documented_example() {
        let cases = [
            ("http://host/%25%32%35", "http://host/%25"),
            ("http://host/%25%32%35%25%32%35", "http://host/%25%25"),
            ("http://host/%2525252525252525", "http://host/%25"),
            ("http://host/asdf%25%32%35asd", "http://host/asdf%25asd"),
            ("http://host/%%%25%32%35asd%%", "http://host/%25%25%25asd%25%25"),
            ("http://www.google.com/", "http://www.google.com/"),
            (
                "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/",
                "http://168.188.99.26/.secure/www.ebay.com/",
            ),
            (
                "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
                "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
            ),
            (
                "http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B",
                "http://host%23.com/~a!b@c%23d$e%25f^00&11*22(33)44_55+",
            ),
            ("http://3279880203/blah", "http://195.127.0.11/blah"),
            ("http://www.google.com/blah/..", "http://www.google.com/"),
            ("www.google.com/", "http://www.google.com/"),
            ("www.google.com", "http://www.google.com/"),
            ("http://www.evil.com/blah#frag", "http://www.evil.com/blah"),
            ("http://www.GOOgle.com/", "http://www.google.com/"),
            ("http://www.google.com.../", "http://www.google.com/"),
            ("http://www.google.com/foo\tbar\rbaz\n2", "http://www.google.com/foobarbaz2"),
            ("http://www.google.com/q?", "http://www.google.com/q?"),
            ("http://www.google.com/q?r?", "http://www.google.com/q?r?"),
            ("http://www.google.com/q?r?s", "http://www.google.com/q?r?s"),
            ("http://evil.com/foo#bar#baz", "http://evil.com/foo"),
            ("http://evil.com/foo;", "http://evil.com/foo;"),
            ("http://evil.com/foo?bar;", "http://evil.com/foo?bar;"),
            ("http://notrailingslash.com", "http://notrailingslash.com/"),
            ("http://www.gotaport.com:1234/", "http://www.gotaport.com/"),
            ("  http://www.google.com/  ", "http://www.google.com/"),
            ("http:// leadingspace.com/", "http://%20leadingspace.com/"),
            ("http://%20leadingspace.com/", "http://%20leadingspace.com/"),
            ("%20leadingspace.com/", "http://%20leadingspace.com/"),
            ("https://www.securesite.com/", "https://www.securesite.com/"),
            ("http://host.com/ab%23cd", "http://host.com/ab%23cd"),
            ("http://host.com//twoslashes?more//slashes", "http://host.com/twoslashes?more//slashes"),
        ];
        for (input, want) in cases {
            assert_eq!(canonicalize(input).as_deref(), Ok(want), "{input:?}");
        }
        // The one example that is not UTF-8.
        assert_eq!(
            canonicalize_bytes(b"http://\x01\x80.com/").unwrap(),
            b"http://%01%80.com/"
        );
    }

    #[test]
    fn ipv4_forms_and_refusals() {
        // "any legal IP-address encoding, including octal, hex, and fewer
        // than four components"
        assert_eq!(canonicalize("http://0x7f.1/").unwrap(), "http://127.0.0.1/");
        assert_eq!(
            canonicalize("http://0177.0.0.1/").unwrap(),
            "http://127.0.0.1/"
        );
        assert_eq!(
            canonicalize("http://u:p@A.b:80/x/./y/../z").unwrap(),
            "http://a.b/x/z"
        );
        assert_eq!(canonicalize("http://a/b/c/..").unwrap(), "http://a/b/");
        assert_eq!(
            canonicalize("http://bücher.example/").unwrap(),
            "http://xn--bcher-kva.example/"
        );
        assert!(matches!(
            canonicalize("ftp://a/"),
            Err(SafeBrowsingError::Scheme(_))
        ));
        assert_eq!(canonicalize(" \t"), Err(SafeBrowsingError::Empty));
        assert_eq!(canonicalize("http:///x"), Err(SafeBrowsingError::NoHost));
        // Found by the fuzz target: a key must be its own key.
        assert_eq!(canonicalize("@::"), Err(SafeBrowsingError::NoHost));
        let fullwidth_at = "http://a\u{FF20}b.example/";
        let dot_bracket: &[u8] = &[
            46, 91, 51, 50, 46, 81, 210, 160, 81, 112, 91, 233, 93, 134, 47,
        ];
        for d in [
            dot_bracket,
            &[91, 203, 177, 37, 58, 91, 58, 37, 58][..],
            b"\r\r57U..\xe2\x81\xae",
            fullwidth_at.as_bytes(),
        ] {
            let k = canonicalize_bytes(d).unwrap();
            assert_eq!(canonicalize_bytes(&k).unwrap(), k, "{d:?}");
        }
    }
}
