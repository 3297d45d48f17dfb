//! SURT: the Sort-friendly URI Reordering Transform used as the key of
//! every CDX index (pywb, OpenWayback, Common Crawl's `url_surtkey`).
//!
//! This is a byte-for-byte port of the `surt` Python package (version
//! 0.3.1, `surt.surt()`), itself a port of the Java `WaybackURLKeyMaker`:
//! the Google-style canonicalization (repeated unescaping, host dots, IPv4
//! forms, path dots, escaping of bytes outside 0x21..0x7E and of `#`, `%`),
//! then the Internet Archive canonicalization (lower-cased path and query,
//! `www\d*.` removed, session ids removed, query parameters sorted,
//! fragment and userinfo dropped), then the host reversed into
//! `com,example)/path`.
//!
//! A SURT is an archive lookup key, **not** an RFC 3986 normal form: it
//! lower-cases paths and queries, which RFC 3986 §6.2.2.1 says are
//! case-sensitive. It is computed from the raw input (as the Python
//! package does), never from irinorm's parse, so that keys match the
//! indexes that already exist. Where the port can not be byte-identical
//! (IDNA 2003 `nameprep`, DNS lookups of host names that merely look
//! numeric), docs/known-differences.md says so.

use std::fmt;

/// The options of `surt.surt()` (keyword arguments of the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurtOptions {
    /// `with_scheme`: prefix `scheme://(`. Default `false`.
    pub with_scheme: bool,
    /// `trailing_comma`: a `,` after the reversed host. Default `false`.
    pub trailing_comma: bool,
    /// `reverse_ipaddr`: reverse dotted-quad hosts too. Default `true`.
    pub reverse_ipaddr: bool,
    /// `host_massage`: remove a leading `www.` / `www2.` ... Default `true`.
    pub host_massage: bool,
}

impl Default for SurtOptions {
    fn default() -> Self {
        Self {
            with_scheme: false,
            trailing_comma: false,
            reverse_ipaddr: true,
            host_massage: true,
        }
    }
}

impl SurtOptions {
    /// The Heritrix form, `http://(org,archive,)/`: `with_scheme` and
    /// `trailing_comma` on.
    pub fn heritrix() -> Self {
        Self {
            with_scheme: true,
            trailing_comma: true,
            ..Self::default()
        }
    }
}

/// Why `surt()` has no key for an input: the inputs on which the Python
/// package raises an exception.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurtError {
    /// Only spaces or controls: the package finds no scheme (`AttributeError`).
    Blank,
    /// The port is not a decimal number in 0..=65535 (`ValueError` of
    /// Python's `urlsplit().port`).
    Port(String),
}

impl fmt::Display for SurtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SurtError::Blank => f.write_str("no URL: only white space"),
            SurtError::Port(p) => write!(f, "port {p:?} is not a number in 0..=65535"),
        }
    }
}

impl std::error::Error for SurtError {}

/// `surt.surt(url)` with the default options.
///
/// ```
/// use irinorm::surt::{surt, surt_with, SurtOptions};
/// assert_eq!(surt("http://www.archive.org/").unwrap(), "org,archive)/");
/// assert_eq!(
///     surt_with("http://archive.org/goo/?b&a", SurtOptions::heritrix()).unwrap(),
///     "http://(org,archive,)/goo?a&b"
/// );
/// ```
pub fn surt(url: &str) -> Result<String, SurtError> {
    surt_with(url, SurtOptions::default())
}

/// `surt.surt(url, **options)`.
pub fn surt_with(url: &str, o: SurtOptions) -> Result<String, SurtError> {
    let b = surt_bytes(url.as_bytes(), o)?;
    // Every byte outside printable ASCII is escaped on the way, except in
    // the `filedesc` pass-through, which returns the (valid UTF-8) input.
    Ok(String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// `surt._surt_bytes`: the key of a byte string.
pub fn surt_bytes(url: &[u8], o: SurtOptions) -> Result<Vec<u8>, SurtError> {
    if url.is_empty() {
        return Ok(b"-".to_vec());
    }
    if url.starts_with(b"filedesc") {
        return Ok(url.to_vec());
    }
    let mut h = HandyUrl::parse(url)?;
    google_canonicalize(&mut h);
    ia_canonicalize(&mut h, o);
    Ok(h.to_bytes(o))
}

type Bytes = Vec<u8>;

/// `handyurl`: the pieces the package keeps. `None` and empty are kept
/// apart exactly as Python's `None` and `b''` are.
#[derive(Debug, Default)]
struct HandyUrl {
    scheme: Bytes,
    host: Option<Bytes>,
    port: Option<u32>,
    path: Option<Bytes>,
    query: Option<Bytes>,
    last_delimiter: bool,
}

fn non_empty(b: &[u8]) -> Option<Bytes> {
    (!b.is_empty()).then(|| b.to_vec())
}

fn is_scheme_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
}

/// Length of a leading `scheme:` (`^[a-zA-Z][a-zA-Z0-9+.-]*:`), without the colon.
fn scheme_len(u: &[u8]) -> Option<usize> {
    if !u.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = u.iter().take_while(|&&c| is_scheme_char(c)).count();
    (u.get(n) == Some(&b':')).then_some(n)
}

impl HandyUrl {
    fn parse(url: &[u8]) -> Result<Self, SurtError> {
        // bytes.strip(): ASCII white space at both ends; then every TAB,
        // CR and LF inside (but not spaces) is removed.
        let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
        let start = url.iter().position(|c| !ws(c)).unwrap_or(url.len());
        let end = url.iter().rposition(|c| !ws(c)).map_or(start, |e| e + 1);
        let mut u: Bytes = url[start..end]
            .iter()
            .copied()
            .filter(|c| !matches!(c, b'\t' | b'\n' | b'\r'))
            .collect();
        if u.is_empty() {
            return Err(SurtError::Blank);
        }
        if scheme_len(&u).is_none() {
            u.splice(0..0, b"http://".iter().copied());
        }
        // `^(https?://)+` -> the last repetition ("http://https://a" -> "https://a").
        let mut last = None;
        let mut i = 0;
        loop {
            let rest = &u[i..];
            let n = if rest.starts_with(b"https://") {
                8
            } else if rest.starts_with(b"http://") {
                7
            } else {
                break;
            };
            last = Some(i);
            i += n;
        }
        if let Some(l) = last {
            u.drain(..l);
        }

        // The package's RFC 2396 Appendix B regular expression.
        let sl = scheme_len(&u).expect("a scheme was added above");
        let scheme = u[..sl].to_vec();
        let rest = &u[sl + 1..];
        let (before_frag, _fragment) = match rest.iter().position(|&c| c == b'#') {
            Some(p) => (&rest[..p], Some(&rest[p + 1..])),
            None => (rest, None),
        };
        let (netloc, after_auth) = if let Some(a) = before_frag.strip_prefix(b"//") {
            let e = a
                .iter()
                .position(|&c| c == b'/' || c == b'?')
                .unwrap_or(a.len());
            (&a[..e], &a[e..])
        } else {
            (&b""[..], before_frag)
        };
        let (path, query) = match after_auth.iter().position(|&c| c == b'?') {
            Some(p) => (&after_auth[..p], &after_auth[p + 1..]),
            None => (after_auth, &b""[..]),
        };
        // "hostnames that end with ':' without being followed by a port number"
        let mut nl = netloc;
        while let Some(s) = nl.strip_suffix(b":") {
            nl = s;
        }
        let (hostname, port) = host_info(nl);
        let port = match port {
            None => None,
            Some(p) => {
                if p.is_empty() || !p.iter().all(u8::is_ascii_digit) {
                    return Err(SurtError::Port(String::from_utf8_lossy(p).into_owned()));
                }
                let digits = p.iter().skip_while(|&&c| c == b'0').count();
                let v: u64 = if digits > 6 {
                    u64::MAX
                } else {
                    p.iter().fold(0, |v, &c| v * 10 + u64::from(c - b'0'))
                };
                if v > 65535 {
                    return Err(SurtError::Port(String::from_utf8_lossy(p).into_owned()));
                }
                // `o.port or None`: port 0 is no port.
                (v != 0).then_some(v as u32)
            }
        };
        // urlsplit().hostname: lower-cased before a `%` (a zone), None if empty.
        let mut host = hostname.filter(|h| !h.is_empty()).map(|h| {
            let z = h.iter().position(|&c| c == b'%').unwrap_or(h.len());
            let mut v = h[..z].to_ascii_lowercase();
            v.extend_from_slice(&h[z..]);
            v
        });
        let mut path = non_empty(path);
        if scheme.starts_with(b"http") && host.is_none() {
            // "http:////////////////www.vikings.com"
            if let Some(p) = path.take() {
                let t = &p[p.iter().position(|&c| c != b'/').unwrap_or(p.len())..];
                let (h, r) = match t.iter().position(|&c| c == b'/') {
                    Some(s) => (&t[..s], &t[s + 1..]),
                    None => (t, &b""[..]),
                };
                host = Some(h.to_vec());
                let mut np = b"/".to_vec();
                np.extend_from_slice(r);
                path = Some(np);
            }
        }
        let query = non_empty(query);
        let last_delimiter = u.ends_with(b"?") && query.is_none();
        Ok(HandyUrl {
            scheme,
            host,
            port,
            path,
            query,
            last_delimiter,
        })
    }

    fn to_bytes(&self, o: SurtOptions) -> Bytes {
        let host = self
            .host
            .as_deref()
            .filter(|h| !h.is_empty())
            .map(|h| host_to_surt(h, o.reverse_ipaddr));
        let mut s = Vec::new();
        if o.with_scheme {
            s.extend_from_slice(&self.scheme);
            s.push(b':');
            if host.is_some() {
                if self.scheme != b"dns" {
                    s.extend_from_slice(b"//");
                }
                s.push(b'(');
            }
        } else if host.is_none() {
            s.extend_from_slice(&self.scheme);
            s.push(b':');
        }
        if let Some(h) = &host {
            s.extend_from_slice(h);
            if let Some(p) = self.port {
                s.extend_from_slice(format!(":{p}").as_bytes());
            }
            if o.trailing_comma {
                s.push(b',');
            }
            s.push(b')');
        }
        match &self.path {
            Some(p) if !p.is_empty() => s.extend_from_slice(p),
            _ if self.query.is_some() => s.push(b'/'),
            _ => {}
        }
        if let Some(q) = &self.query {
            s.push(b'?');
            s.extend_from_slice(q);
        }
        if self.last_delimiter {
            s.push(b'?');
        }
        s
    }
}

/// Python's `SplitResult._hostinfo`: (hostname, port) of a netloc.
fn host_info(netloc: &[u8]) -> (Option<&[u8]>, Option<&[u8]>) {
    let hostinfo = match netloc.iter().rposition(|&c| c == b'@') {
        Some(a) => &netloc[a + 1..],
        None => netloc,
    };
    let (hostname, port) = if let Some(b) = hostinfo.iter().position(|&c| c == b'[') {
        let br = &hostinfo[b + 1..];
        match br.iter().position(|&c| c == b']') {
            Some(e) => {
                let after = &br[e + 1..];
                let port = after
                    .iter()
                    .position(|&c| c == b':')
                    .map_or(&b""[..], |c| &after[c + 1..]);
                (&br[..e], port)
            }
            None => (br, &b""[..]),
        }
    } else {
        match hostinfo.iter().position(|&c| c == b':') {
            Some(c) => (&hostinfo[..c], &hostinfo[c + 1..]),
            None => (hostinfo, &b""[..]),
        }
    };
    (Some(hostname), (!port.is_empty()).then_some(port))
}

fn hex_val(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// `urllib.parse.unquote_to_bytes`: one pass of `%XX` decoding.
fn unquote(s: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() {
            if let (Some(h), Some(l)) = (hex_val(s[i + 1]), hex_val(s[i + 2])) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// `unescapeRepeatedly`: decode until nothing changes.
fn unescape_repeatedly(s: &[u8]) -> Bytes {
    let mut cur = s.to_vec();
    loop {
        let un = unquote(&cur);
        if un == cur {
            return cur;
        }
        cur = un;
    }
}

/// `escapeOnce`: `quote_from_bytes` with the package's safe set: every
/// byte outside 0x21..=0x7E, and `#` and `%`, as upper-case `%XX`.
fn escape_once(s: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if (0x21..=0x7e).contains(&c) && c != b'#' && c != b'%' {
            out.push(c);
        } else {
            out.extend_from_slice(format!("%{c:02X}").as_bytes());
        }
    }
    out
}

fn minimal_escape(s: &[u8]) -> Bytes {
    escape_once(&unescape_repeatedly(s))
}

/// `GoogleURLCanonicalizer.canonicalize`.
fn google_canonicalize(h: &mut HandyUrl) {
    if let Some(q) = h.query.as_mut().filter(|q| !q.is_empty()) {
        *q = minimal_escape(q);
    }
    if let Some(host) = h.host.as_mut().filter(|x| !x.is_empty()) {
        let mut x = unescape_repeatedly(host);
        if !x.is_ascii() {
            if let Some(a) = python_idna(&x) {
                x = a;
            }
        }
        // bytes.replace(b'..', b'.'): one left-to-right pass.
        let mut y = Vec::with_capacity(x.len());
        let mut i = 0;
        while i < x.len() {
            if x[i..].starts_with(b"..") {
                y.push(b'.');
                i += 2;
            } else {
                y.push(x[i]);
                i += 1;
            }
        }
        let s = y.iter().position(|&c| c != b'.').unwrap_or(y.len());
        let e = y.iter().rposition(|&c| c != b'.').map_or(s, |e| e + 1);
        let y = &y[s..e];
        *host = match attempt_ip_formats(y) {
            Some(ip) => ip.into_bytes(),
            None => escape_once(&y.to_ascii_lowercase()),
        };
    }
    let has_host = h.host.as_ref().is_some_and(|x| !x.is_empty());
    let path = h.path.as_deref().map(unescape_repeatedly);
    let path = if has_host {
        Some(normalize_path(path.as_deref()))
    } else {
        path
    };
    h.path = path.map(|p| escape_once(&p));
}

/// `normalizePath`: dot segments and empty segments (except a trailing
/// one); a `..` above the root is kept.
fn normalize_path(path: Option<&[u8]>) -> Bytes {
    let path = match path {
        Some(p) if !p.is_empty() => p,
        _ => return b"/".to_vec(),
    };
    let mut kept: Vec<&[u8]> = Vec::new();
    for p in path.split(|&c| c == b'/').skip(1) {
        match p {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(p);
                }
            }
            _ => kept.push(p),
        }
    }
    let mut out = b"/".to_vec();
    if let Some((last, init)) = kept.split_last() {
        for p in init {
            if !p.is_empty() {
                out.extend_from_slice(p);
                out.push(b'/');
            }
        }
        out.extend_from_slice(last);
    }
    out
}

/// glibc `inet_aton`: 1 to 4 parts, each decimal, `0` octal or `0x` hex;
/// the last part fills the remaining bytes.
fn inet_aton(s: &[u8]) -> Option<u32> {
    let parts: Vec<&[u8]> = s.split(|&c| c == b'.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut vals = Vec::with_capacity(4);
    for p in &parts {
        let (digits, radix) = if p.len() > 1 && p[0] == b'0' && (p[1] | 0x20) == b'x' {
            (&p[2..], 16)
        } else if p.len() > 1 && p[0] == b'0' {
            (&p[1..], 8)
        } else {
            (&p[..], 10)
        };
        if p.is_empty() || (digits.is_empty() && radix != 16) {
            return None;
        }
        let mut v: u64 = 0;
        for &c in digits {
            let d = (c as char).to_digit(radix)?;
            v = v * u64::from(radix) + u64::from(d);
            if v > u64::from(u32::MAX) {
                return None;
            }
        }
        vals.push(v);
    }
    let (last, init) = vals.split_last()?;
    let mut addr: u64 = 0;
    for (i, v) in init.iter().enumerate() {
        if *v > 255 {
            return None;
        }
        addr |= v << (24 - 8 * i);
    }
    let room = 32 - 8 * init.len() as u32;
    if room < 32 && *last >> room != 0 {
        return None;
    }
    Some((addr | last) as u32)
}

fn dotted(a: u32) -> String {
    let b = a.to_be_bytes();
    format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])
}

/// `attemptIPFormats`: all digits -> the low 32 bits as a dotted quad;
/// `DECIMAL_IP` or `OCTAL_IP` shapes -> what `gethostbyname_ex` answers,
/// which for a string of digits and dots is glibc's `inet_aton` (and no
/// DNS query).
fn attempt_ip_formats(host: &[u8]) -> Option<String> {
    if !host.is_empty() && host.iter().all(u8::is_ascii_digit) {
        // int(host) & 0xffffffff: only the low 32 bits matter, so the
        // value is accumulated modulo 2^32.
        let v = host.iter().fold(0u32, |v, &c| {
            v.wrapping_mul(10).wrapping_add(u32::from(c - b'0'))
        });
        return Some(dotted(v));
    }
    let parts: Vec<&[u8]> = host.split(|&c| c == b'.').collect();
    if parts.len() > 4 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let first = parts[0];
    let decimal = first[0] != b'0' && parts.iter().all(|p| p.iter().all(u8::is_ascii_digit));
    let octal = first[0] == b'0'
        && parts
            .iter()
            .all(|p| p.iter().all(|c| (b'0'..=b'7').contains(c)));
    if decimal || octal {
        inet_aton(host).map(dotted)
    } else {
        None
    }
}

/// Python's `host.decode('utf-8', 'ignore').encode('idna')` (IDNA 2003,
/// RFC 3490 ToASCII). `nameprep` (RFC 3491) is approximated by lower
/// case and NFKC; `None` where Python raises `UnicodeError`.
fn python_idna(host: &[u8]) -> Option<Bytes> {
    use unicode_normalization::UnicodeNormalization;
    let text: String = String::from_utf8_lossy(host).replace('\u{fffd}', "");
    let mut labels: Vec<&str> = text
        .split(['.', '\u{3002}', '\u{ff0e}', '\u{ff61}'])
        .collect();
    let trailing = labels.len() > 1 && labels.last().is_some_and(|l| l.is_empty());
    if trailing {
        labels.pop();
    }
    let mut out = Vec::new();
    for (i, l) in labels.iter().enumerate() {
        if i > 0 {
            out.push(b'.');
        }
        let a = if l.is_ascii() {
            l.to_string()
        } else {
            let n: String = l.to_lowercase().nfkc().collect();
            if n.is_ascii() {
                n
            } else {
                format!("xn--{}", idna::punycode::encode_str(&n)?)
            }
        };
        if a.is_empty() || a.len() > 63 {
            return None;
        }
        out.extend_from_slice(a.as_bytes());
    }
    if trailing {
        out.push(b'.');
    }
    Some(out)
}

/// `IAURLCanonicalizer.canonicalize` with the package's defaults.
fn ia_canonicalize(h: &mut HandyUrl, o: SurtOptions) {
    if let Some(host) = h.host.as_mut().filter(|x| !x.is_empty()) {
        host.make_ascii_lowercase();
        if o.host_massage && h.scheme != b"dns" {
            // `www\d*\.` at the start
            let d = host[3.min(host.len())..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if host.starts_with(b"www") && host.get(3 + d) == Some(&b'.') {
                host.drain(..4 + d);
            }
        }
    }
    let default_port = match h.scheme.to_ascii_lowercase().as_slice() {
        b"http" => 80,
        b"https" => 443,
        _ => 0,
    };
    if h.port == Some(default_port) {
        h.port = None;
    }
    if let Some(p) = h.path.as_mut().filter(|p| !p.is_empty()) {
        p.make_ascii_lowercase();
        *p = strip_path_session_id(p);
        if p.len() > 1 && p.ends_with(b"/") {
            p.pop();
        }
    }
    match h.query.take().filter(|q| !q.is_empty()) {
        Some(q) => {
            let q = alpha_reorder_query(&strip_query_session_id(&q).to_ascii_lowercase());
            h.query = non_empty(&q);
        }
        None => h.last_delimiter = false,
    }
}

/// `alphaReorderQuery`: `&`-separated pairs sorted as Python sorts the
/// tuples `(name,)` / `(name, value)` split at the first `=`.
fn alpha_reorder_query(q: &[u8]) -> Bytes {
    if q.len() <= 1 {
        return q.to_vec();
    }
    let mut args: Vec<(&[u8], Option<&[u8]>)> = q
        .split(|&c| c == b'&')
        .map(|a| match a.iter().position(|&c| c == b'=') {
            Some(e) => (&a[..e], Some(&a[e + 1..])),
            None => (a, None),
        })
        .collect();
    // A 1-tuple sorts before a 2-tuple with the same first element: None < Some.
    args.sort();
    let mut out = Vec::with_capacity(q.len());
    for (i, (k, v)) in args.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(k);
        if let Some(v) = v {
            out.push(b'=');
            out.extend_from_slice(v);
        }
    }
    out
}

/// `^(.*)<pattern>(?:&(.*))?$` with a greedy `(.*)`: the last match of
/// the pattern whose end is the end of the query or followed by `&`.
fn strip_query_session_id(q: &[u8]) -> Bytes {
    let mut q = q.to_vec();
    for pat in QUERY_SESSION {
        // The greedy `.*` backtracks from the right: the first start found
        // from the end that matches wins.
        for start in (0..=q.len()).rev() {
            if let Some(end) = pat(&q[start..]) {
                let end = start + end;
                let tail = if end == q.len() {
                    Some(&b""[..])
                } else if q[end] == b'&' {
                    Some(&q[end + 1..])
                } else {
                    None
                };
                if let Some(t) = tail {
                    let mut n = q[..start].to_vec();
                    n.extend_from_slice(t);
                    q = n;
                    break;
                }
            }
        }
    }
    q
}

/// A session-id matcher: the length of the match at the start of `s`.
type Matcher = fn(&[u8]) -> Option<usize>;

const QUERY_SESSION: [Matcher; 5] = [
    |s| prefixed_alnum(s, b"jsessionid=", 32),
    |s| prefixed_alnum(s, b"phpsessid=", 32),
    |s| prefixed_alnum(s, b"sid=", 32),
    aspsessionid,
    cfid,
];

fn starts_ci(s: &[u8], p: &[u8]) -> bool {
    s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p)
}

fn prefixed_alnum(s: &[u8], p: &[u8], n: usize) -> Option<usize> {
    let r = s.get(p.len()..p.len() + n)?;
    (starts_ci(s, p) && r.iter().all(u8::is_ascii_alphanumeric)).then_some(p.len() + n)
}

/// `ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24}`
fn aspsessionid(s: &[u8]) -> Option<usize> {
    let p = b"aspsessionid";
    let a = s.get(12..20)?;
    let b = s.get(21..45)?;
    (starts_ci(s, p)
        && a.iter().all(u8::is_ascii_alphabetic)
        && s[20] == b'='
        && b.iter().all(u8::is_ascii_alphabetic))
    .then_some(45)
}

/// `cfid=[^&]+&cftoken=[^&]+` (both greedy, so each runs to the next `&`).
fn cfid(s: &[u8]) -> Option<usize> {
    if !starts_ci(s, b"cfid=") {
        return None;
    }
    let v = s[5..].iter().take_while(|&&c| c != b'&').count();
    if v == 0 {
        return None;
    }
    let t = 5 + v + 1;
    if !starts_ci(s.get(t - 1..)?, b"&cftoken=") {
        return None;
    }
    let w = s[t + 8..].iter().take_while(|&&c| c != b'&').count();
    (w > 0).then_some(t + 8 + w)
}

/// `stripPathSessionID`: `/(a(24 alnum))/...aspx` and `/(24 alnum)/...aspx`
/// segments of ASP.NET cookieless sessions.
fn strip_path_session_id(path: &[u8]) -> Bytes {
    let mut p = path.to_vec();
    for pat in [path_session_a as Matcher, path_session_b] {
        // ^(.*/)(<id>/)([^?]+\.aspx.*)$ with a greedy first group.
        let mut found = None;
        for start in (1..=p.len()).rev() {
            if p[start - 1] != b'/' {
                continue;
            }
            if let Some(n) = pat(&p[start..]) {
                let rest = &p[start + n..];
                if aspx_rest(rest) {
                    found = Some((start, n));
                    break;
                }
            }
        }
        if let Some((s, n)) = found {
            p.drain(s..s + n);
        }
    }
    p
}

/// `[^?]+\.aspx.*` (case-insensitive): a non-empty run without `?` ending
/// in `.aspx`, then anything (no newlines here: they were removed).
fn aspx_rest(r: &[u8]) -> bool {
    let lim = r.iter().position(|&c| c == b'?').unwrap_or(r.len());
    (1..=lim).any(|e| e >= 6 && r[..e][e - 5..].eq_ignore_ascii_case(b".aspx"))
}

fn alnum24(s: &[u8]) -> bool {
    s.len() == 24 && s.iter().all(u8::is_ascii_alphanumeric)
}

/// `\((?:[a-z]\([0-9a-z]{24}\))+\)/`
fn path_session_a(s: &[u8]) -> Option<usize> {
    if s.first() != Some(&b'(') {
        return None;
    }
    let mut i = 1;
    let mut n = 0;
    while s.len() >= i + 28
        && s[i].is_ascii_alphabetic()
        && s[i + 1] == b'('
        && alnum24(&s[i + 2..i + 26])
        && s[i + 26] == b')'
    {
        i += 27;
        n += 1;
    }
    (n > 0 && s.get(i) == Some(&b')') && s.get(i + 1) == Some(&b'/')).then_some(i + 2)
}

/// `\([0-9a-z]{24}\)/`
fn path_session_b(s: &[u8]) -> Option<usize> {
    (s.len() >= 27 && s[0] == b'(' && alnum24(&s[1..25]) && s[25] == b')' && s[26] == b'/')
        .then_some(27)
}

/// `hostToSURT`: labels reversed and joined by `,`; a dotted quad is kept
/// as it is when `reverse_ipaddr` is off.
fn host_to_surt(host: &[u8], reverse_ipaddr: bool) -> Bytes {
    if !reverse_ipaddr && is_dotted_quad_prefix(host) {
        return host.to_vec();
    }
    let mut parts: Vec<&[u8]> = host.split(|&c| c == b'.').collect();
    parts.reverse();
    parts.join(&b","[..])
}

/// `(?:(?:\d{1,3}\.){3}\d{1,3})$` with `re.match`: the whole host.
fn is_dotted_quad_prefix(h: &[u8]) -> bool {
    let parts: Vec<&[u8]> = h.split(|&c| c == b'.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| (1..=3).contains(&p.len()) && p.iter().all(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of the `surt` package's README and tests/test_surt.py
    /// (internetarchive/surt), each checked against surt 0.3.1 itself.
    #[test]
    fn package_examples() {
        let cases = [
            ("http://archive.org/goo/", "org,archive)/goo"),
            ("http://archive.org/goo/?", "org,archive)/goo"),
            ("http://archive.org/goo/?b&a", "org,archive)/goo?a&b"),
            (
                "http://archive.org/goo/?a=2&b&a=1",
                "org,archive)/goo?a=1&a=2&b",
            ),
            ("http://www.archive.org/", "org,archive)/"),
            ("http://www.archive.org", "org,archive)/"),
            ("http://archive.org/", "org,archive)/"),
            ("https://www.archive.org/", "org,archive)/"),
            ("http://192.168.1.254/info/", "254,1,168,192)/info"),
            ("filedesc:foo.arc.gz", "filedesc:foo.arc.gz"),
            ("filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz"),
            ("filedesc://foo.arc.gz", "filedesc://foo.arc.gz"),
            ("warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz"),
            ("dns:alexa.com", "dns:alexa.com"),
            ("dns:archive.org", "dns:archive.org"),
            (
                "whois://whois.isoc.org.il/shaveh.co.il",
                "il,org,isoc,whois)/shaveh.co.il",
            ),
            (
                "http://www.archive.org/index.html#tag",
                "org,archive)/index.html",
            ),
            ("http://www.archive.org:80/", "org,archive)/"),
            ("https://www.archive.org:443/", "org,archive)/"),
            ("http://www.archive.org:8080/", "org,archive:8080)/"),
            ("http://[::1]/", "::1)/"),
            ("", "-"),
        ];
        for (i, o) in cases {
            assert_eq!(surt(i).unwrap(), o, "{i}");
        }
    }

    #[test]
    fn options() {
        let u = "http://www.archive.org/";
        let o = SurtOptions::default();
        assert_eq!(
            surt_with(
                u,
                SurtOptions {
                    with_scheme: true,
                    ..o
                }
            )
            .unwrap(),
            "http://(org,archive)/"
        );
        assert_eq!(
            surt_with(u, SurtOptions::heritrix()).unwrap(),
            "http://(org,archive,)/"
        );
        assert_eq!(
            surt_with(
                u,
                SurtOptions {
                    host_massage: false,
                    ..o
                }
            )
            .unwrap(),
            "org,archive,www)/"
        );
        let ip = "http://192.168.1.254/info/";
        assert_eq!(
            surt_with(
                ip,
                SurtOptions {
                    reverse_ipaddr: false,
                    ..o
                }
            )
            .unwrap(),
            "192.168.1.254)/info"
        );
        assert_eq!(
            surt_with(
                "dns:archive.org",
                SurtOptions {
                    with_scheme: true,
                    ..o
                }
            )
            .unwrap(),
            "dns:archive.org"
        );
    }

    #[test]
    fn google_canonicalization() {
        // Repeated unescaping, re-escaping outside 0x21..0x7E, dots in host
        // and path, IPv4 forms (the GoogleURLCanonicalizer tests).
        assert_eq!(surt("http://host/%25%32%35").unwrap(), "host)/%25");
        assert_eq!(
            surt("http://www.google.com/blah/..").unwrap(),
            "com,google)/"
        );
        assert_eq!(
            surt("http://3279880203/blah").unwrap(),
            "11,0,127,195)/blah"
        );
        assert_eq!(surt("http://0x12.1/").unwrap(), "1,0x12)/");
        assert_eq!(surt("http://012.1/").unwrap(), "1,0,0,10)/");
        assert_eq!(surt("http://1.010/").unwrap(), "8,0,0,1)/");
        assert_eq!(
            surt("http://bücher.example/Ü").unwrap(),
            "example,xn--bcher-kva)/%c3%9c"
        );
        assert_eq!(surt("http://www.GOOgle.com.../").unwrap(), "com,google)/");
        assert_eq!(surt("http://a/ b?c d#e").unwrap(), "a)/%20b?c%20d");
        assert_eq!(
            surt("http://a/?sid=0123456789abcdef0123456789abcdef&x=1").unwrap(),
            "a)/?x=1"
        );
        assert_eq!(surt("http:////www.vikings.com").unwrap(), "com,vikings)/");
        assert_eq!(surt("http://https://a.com/x").unwrap(), "com,a)/x");
        assert_eq!(
            surt("http://a:99999/"),
            Err(SurtError::Port("99999".into()))
        );
        assert_eq!(surt(" \t"), Err(SurtError::Blank));
    }
}
