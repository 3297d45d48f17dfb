//! Building aliases and confusers from an original.
//!
//! Every transformation works on the components of a URL that is already
//! normal under the `rfc` preset (rung `scheme`, `uri` form), and is built
//! so that RFC 3986/3987 (and, for the rule kinds, the definition of the
//! named rule) decide the level at which the result equals the original:
//! nothing here asks irinorm whether two URLs are equivalent.

use crate::kind::{EqualAt, Kind};
use crate::rng::Rng;

/// The components of an absolute URL with an authority, split by RFC 3986
/// Appendix B (the URL is known to be valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The scheme, without `:`.
    pub scheme: String,
    /// The userinfo, without `@`.
    pub userinfo: Option<String>,
    /// The host (reg-name, possibly non-ASCII after a transformation).
    pub host: String,
    /// The port digits, without `:` (possibly empty).
    pub port: Option<String>,
    /// The path.
    pub path: String,
    /// The query, without `?`.
    pub query: Option<String>,
    /// The fragment, without `#`.
    pub fragment: Option<String>,
}

impl Parts {
    /// Splits `scheme://authority path ?query #fragment`. `None` without an
    /// authority or with an IP-literal host.
    pub fn split(s: &str) -> Option<Parts> {
        let colon = s.find(':')?;
        let scheme = &s[..colon];
        let rest = s[colon + 1..].strip_prefix("//")?;
        let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (auth, after) = rest.split_at(auth_end);
        let (userinfo, hostport) = match auth.rfind('@') {
            Some(i) => (Some(&auth[..i]), &auth[i + 1..]),
            None => (None, auth),
        };
        if hostport.starts_with('[') {
            return None;
        }
        let (host, port) = match hostport.rfind(':') {
            Some(i) => (&hostport[..i], Some(&hostport[i + 1..])),
            None => (hostport, None),
        };
        let path_end = after.find(['?', '#']).unwrap_or(after.len());
        let (path, after) = after.split_at(path_end);
        let (query, fragment) = match after.strip_prefix('?') {
            Some(q) => match q.split_once('#') {
                Some((q, f)) => (Some(q), Some(f)),
                None => (Some(q), None),
            },
            None => (None, after.strip_prefix('#')),
        };
        Some(Parts {
            scheme: scheme.to_owned(),
            userinfo: userinfo.map(str::to_owned),
            host: host.to_owned(),
            port: port.map(str::to_owned),
            path: path.to_owned(),
            query: query.map(str::to_owned),
            fragment: fragment.map(str::to_owned),
        })
    }

    /// Writes the URL.
    pub fn write(&self, out: &mut String) {
        out.push_str(&self.scheme);
        out.push_str("://");
        if let Some(u) = &self.userinfo {
            out.push_str(u);
            out.push('@');
        }
        out.push_str(&self.host);
        if let Some(p) = &self.port {
            out.push(':');
            out.push_str(p);
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
    }

    /// The URL as a new string.
    pub fn to_url(&self) -> String {
        let mut s = String::with_capacity(64);
        self.write(&mut s);
        s
    }

    fn default_port(&self) -> Option<&'static str> {
        if self.scheme.eq_ignore_ascii_case("http") {
            Some("80")
        } else if self.scheme.eq_ignore_ascii_case("https") {
            Some("443")
        } else {
            None
        }
    }
}

/// The result of planting one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planted {
    /// The URL.
    pub url: String,
    /// The level that makes it equal to its original.
    pub equal_at: EqualAt,
}

/// Builds a line of `kind` from the original `p` (normal under the `rfc`
/// preset), or `None` when the kind does not apply to it. `kind` must be an
/// alias or a confuser kind.
pub fn plant(kind: Kind, p: &Parts, rng: &mut Rng) -> Option<Planted> {
    let mut q = p.clone();
    let equal_at = match kind {
        Kind::Original => return None,
        Kind::Exact => EqualAt::String,
        Kind::Combo => combo(&mut q, rng)?,
        k => {
            if !transform(k, &mut q, rng) {
                return None;
            }
            k.equal_at()?
        }
    };
    let url = q.to_url();
    // By construction every alias but `exact` and every confuser differs
    // from its original as a string.
    debug_assert!(
        kind == Kind::Combo || (kind == Kind::Exact) == (q == *p),
        "{kind}: {url} vs {}",
        p.to_url()
    );
    if kind != Kind::Exact && q == *p {
        return None;
    }
    Some(Planted { url, equal_at })
}

/// Applies one transformation; false when it does not apply.
fn transform(kind: Kind, p: &mut Parts, rng: &mut Rng) -> bool {
    use Kind as K;
    match kind {
        K::SchemeCase => scheme_case(p, rng),
        K::HostCase => host_case(p, rng),
        K::PctLowercase => pct_lowercase(p, rng),
        K::PctUnreserved => pct_unreserved(p, rng),
        K::DotSegments => dot_segments(p, rng),
        K::IriChars => iri_chars(p, rng),
        K::EmptyPort => empty_port(p),
        K::DefaultPort => default_port(p, rng),
        K::EmptyPath => empty_path(p),
        K::IdnUnicode => idn(p, false),
        K::IdnPct => idn(p, true),
        K::TrailingHostDot => trailing_host_dot(p),
        K::TrackingParam => tracking_param(p, rng),
        K::ParamOrder => param_order(p, rng),
        K::AddWww => add_www(p),
        K::RemoveWww => remove_www(p),
        K::Fragment => fragment(p, rng),
        K::DuplicateSlashes => duplicate_slashes(p, rng),
        K::ConfuserPct2f => confuser_pct2f(p, rng),
        K::ConfuserQuery => confuser_query(p),
        K::ConfuserFragment => confuser_fragment(p),
        K::ConfuserPort => confuser_port(p, rng),
        K::ConfuserPathCase => confuser_path_case(p, rng),
        K::ConfuserWww1 => confuser_www1(p),
        K::Original | K::Exact | K::Combo => false,
    }
}

/// The transformations a combo draws from, in the order they are applied
/// (the alphabet of the host first, then case, then encodings, then
/// structure), with pairs that touch the same thing kept apart.
const COMBO_ORDER: &[Kind] = &[
    Kind::IdnUnicode,
    Kind::IdnPct,
    Kind::IriChars,
    Kind::SchemeCase,
    Kind::HostCase,
    Kind::PctUnreserved,
    Kind::PctLowercase,
    Kind::DotSegments,
    Kind::EmptyPort,
    Kind::DefaultPort,
    Kind::EmptyPath,
];

fn combo_conflict(a: Kind, b: Kind) -> bool {
    let pair = |x, y| (a == x && b == y) || (a == y && b == x);
    pair(Kind::IdnUnicode, Kind::IdnPct)
        || pair(Kind::EmptyPort, Kind::DefaultPort)
        || pair(Kind::DotSegments, Kind::EmptyPath)
}

/// Two to four transformations of the string/syntax/scheme levels at once;
/// the level is the highest of those applied.
fn combo(p: &mut Parts, rng: &mut Rng) -> Option<EqualAt> {
    let want = 2 + rng.below(3);
    let mut chosen: Vec<Kind> = Vec::with_capacity(want);
    let mut order = COMBO_ORDER.to_vec();
    rng.shuffle(&mut order);
    for k in order {
        if chosen.len() == want {
            break;
        }
        if chosen.iter().all(|c| !combo_conflict(*c, k)) {
            chosen.push(k);
        }
    }
    chosen.sort_by_key(|k| COMBO_ORDER.iter().position(|c| c == k));
    let mut level = None;
    let mut applied = 0;
    for k in chosen {
        let mut trial = p.clone();
        if transform(k, &mut trial, rng) {
            *p = trial;
            applied += 1;
            level = level.max(k.equal_at());
        }
    }
    (applied >= 2).then_some(level).flatten()
}

// ---- helpers --------------------------------------------------------------

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn hex_val(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Positions of the `%` of every triplet in `s`.
fn triplets(s: &str) -> Vec<usize> {
    let b = s.as_bytes();
    (0..b.len())
        .filter(|&i| {
            b[i] == b'%'
                && i + 2 < b.len()
                && hex_val(b[i + 1]).is_some()
                && hex_val(b[i + 2]).is_some()
        })
        .collect()
}

/// Whether byte `i` of `s` is inside a triplet (`%` or one of its digits).
fn in_triplet(s: &str, i: usize) -> bool {
    let b = s.as_bytes();
    (0..3).any(|back| {
        i >= back && b[i - back] == b'%' && {
            let j = i - back;
            j + 2 < b.len() && hex_val(b[j + 1]).is_some() && hex_val(b[j + 2]).is_some()
        }
    })
}

fn push_pct(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(HEX[usize::from(b >> 4)] as char);
    out.push(HEX[usize::from(b & 15)] as char);
}

/// Upper-cases a random non-empty subset of the ASCII lower-case letters.
fn upper_some(s: &mut String, rng: &mut Rng, skip_triplets: bool) -> bool {
    let letters: Vec<usize> = s
        .bytes()
        .enumerate()
        .filter(|&(i, b)| b.is_ascii_lowercase() && !(skip_triplets && in_triplet(s, i)))
        .map(|(i, _)| i)
        .collect();
    if letters.is_empty() {
        return false;
    }
    let mut bytes = std::mem::take(s).into_bytes();
    let all = rng.chance(1, 3);
    let forced = *rng.pick(&letters);
    for &i in &letters {
        if all || i == forced || rng.chance(1, 2) {
            bytes[i] = bytes[i].to_ascii_uppercase();
        }
    }
    *s = String::from_utf8(bytes).unwrap_or_default();
    true
}

/// The byte offsets in `s` where a `/` is.
fn slashes(s: &str) -> Vec<usize> {
    s.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'/')
        .map(|(i, _)| i)
        .collect()
}

fn random_token(rng: &mut Rng, min: usize, max: usize) -> String {
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let n = min + rng.below(max - min + 1);
    (0..n).map(|_| *rng.pick(ALNUM) as char).collect()
}

fn is_reg_name_ascii(h: &str) -> bool {
    !h.is_empty() && h.is_ascii() && !h.contains('%')
}

// ---- syntax (rung 1) -----------------------------------------------------

fn scheme_case(p: &mut Parts, rng: &mut Rng) -> bool {
    upper_some(&mut p.scheme, rng, false)
}

fn host_case(p: &mut Parts, rng: &mut Rng) -> bool {
    upper_some(&mut p.host, rng, true)
}

/// Lower-cases the hex letters of one triplet that has some.
fn pct_lowercase(p: &mut Parts, rng: &mut Rng) -> bool {
    let mut cands: Vec<(u8, usize)> = Vec::new();
    let comps: [Option<&String>; 3] = [Some(&p.path), p.query.as_ref(), p.fragment.as_ref()];
    for (c, s) in comps.iter().enumerate() {
        if let Some(s) = s {
            for i in triplets(s) {
                let b = s.as_bytes();
                if b[i + 1].is_ascii_uppercase() || b[i + 2].is_ascii_uppercase() {
                    cands.push((c as u8, i));
                }
            }
        }
    }
    if cands.is_empty() {
        return false;
    }
    let (c, i) = *rng.pick(&cands);
    let s = match c {
        0 => &mut p.path,
        1 => p.query.as_mut().expect("candidate"),
        _ => p.fragment.as_mut().expect("candidate"),
    };
    let lower = s[i..i + 3].to_ascii_lowercase();
    s.replace_range(i..i + 3, &lower);
    true
}

/// Percent-encodes one unreserved character of the host, path or query.
fn pct_unreserved(p: &mut Parts, rng: &mut Rng) -> bool {
    let mut cands: Vec<(u8, usize)> = Vec::new();
    let host_ok = is_reg_name_ascii(&p.host);
    let comps: [Option<&String>; 3] = [host_ok.then_some(&p.host), Some(&p.path), p.query.as_ref()];
    for (c, s) in comps.iter().enumerate() {
        if let Some(s) = s {
            for (i, b) in s.bytes().enumerate() {
                if is_unreserved(b) && !in_triplet(s, i) {
                    cands.push((c as u8, i));
                }
            }
        }
    }
    if cands.is_empty() {
        return false;
    }
    let (c, i) = *rng.pick(&cands);
    let s = match c {
        0 => &mut p.host,
        1 => &mut p.path,
        _ => p.query.as_mut().expect("candidate"),
    };
    let b = s.as_bytes()[i];
    let mut enc = String::new();
    push_pct(&mut enc, b);
    s.replace_range(i..i + 1, &enc);
    true
}

/// Inserts a dot segment after a `/` of the path: `./`, `x/../`, or `../`
/// right after the root (RFC 3986 §5.2.4 removes all three).
fn dot_segments(p: &mut Parts, rng: &mut Rng) -> bool {
    let s = slashes(&p.path);
    if s.is_empty() || !p.path.starts_with('/') {
        return false;
    }
    let at = *rng.pick(&s) + 1;
    let ins = match rng.below(if at == 1 { 3 } else { 2 }) {
        0 => "./".to_owned(),
        1 => format!("{}/../", random_token(rng, 1, 6)),
        _ => "../".to_owned(),
    };
    p.path.insert_str(at, &ins);
    true
}

/// Whether RFC 3987 allows `c` unencoded in a path, query or fragment
/// (ucschar; iprivate is left out even in the query), leaving out the bidi
/// formatting characters (RFC 3987 §4.1).
pub fn iri_allowed(c: char) -> bool {
    let c = c as u32;
    let ucschar = matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x10000..=0xEFFFD).contains(&c)
            && (c & 0xFFFF) <= 0xFFFD
            && !(0xE0000..0xE1000).contains(&c);
    let bidi = matches!(c, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069);
    ucschar && !bidi
}

/// Decodes the percent-encoded UTF-8 of `s` where the character is allowed
/// in an IRI; returns whether anything was decoded.
fn decode_iri(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut changed = false;
    let byte_at = |j: usize| -> Option<u8> {
        (j + 2 < b.len() && b[j] == b'%')
            .then(|| Some(hex_val(b[j + 1])? * 16 + hex_val(b[j + 2])?))
            .flatten()
    };
    while i < b.len() {
        if let Some(lead) = byte_at(i).filter(|&x| x >= 0x80) {
            let len = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 1,
            };
            let mut bytes = vec![lead];
            for k in 1..len {
                match byte_at(i + 3 * k) {
                    Some(x) => bytes.push(x),
                    None => break,
                }
            }
            if let Some(c) = core::str::from_utf8(&bytes)
                .ok()
                .and_then(|t| t.chars().next())
                .filter(|&c| bytes.len() == len && len > 1 && iri_allowed(c))
            {
                out.push(c);
                changed = true;
                i += 3 * len;
            } else {
                out.push_str(&s[i..i + 3]);
                i += 3;
            }
        } else {
            let ch = s[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    changed.then_some(out)
}

/// Writes the percent-encoded UTF-8 of the path, query and fragment as the
/// characters (at least one component).
fn iri_chars(p: &mut Parts, rng: &mut Rng) -> bool {
    let all = rng.chance(1, 2);
    let mut any = false;
    for s in [Some(&mut p.path), p.query.as_mut(), p.fragment.as_mut()]
        .into_iter()
        .flatten()
    {
        if any && !all {
            break;
        }
        if let Some(d) = decode_iri(s) {
            *s = d;
            any = true;
        }
    }
    any
}

// ---- scheme (rung 2) -----------------------------------------------------

fn empty_port(p: &mut Parts) -> bool {
    if p.port.is_some() {
        return false;
    }
    p.port = Some(String::new());
    true
}

fn default_port(p: &mut Parts, rng: &mut Rng) -> bool {
    let Some(d) = p.default_port() else {
        return false;
    };
    if p.port.is_some() {
        return false;
    }
    let zeros = if rng.chance(1, 4) {
        "0".repeat(1 + rng.below(2))
    } else {
        String::new()
    };
    p.port = Some(format!("{zeros}{d}"));
    true
}

fn empty_path(p: &mut Parts) -> bool {
    if p.path != "/" || p.default_port().is_none() {
        return false;
    }
    p.path.clear();
    true
}

/// The Unicode form of a host with A-labels, when UTS #46 maps it back to
/// exactly that host (checked with the `idna` crate, not with irinorm).
pub fn unicode_host(host: &str) -> Option<String> {
    if !host.split('.').any(|l| l.starts_with("xn--")) || !host.is_ascii() {
        return None;
    }
    let (u, res) = idna::domain_to_unicode(host);
    res.ok()?;
    if u == host || u.is_ascii() {
        return None;
    }
    (idna::domain_to_ascii(&u).ok()? == host).then_some(u)
}

fn idn(p: &mut Parts, pct: bool) -> bool {
    let Some(u) = unicode_host(&p.host) else {
        return false;
    };
    p.host = if pct {
        let mut s = String::with_capacity(u.len() * 3);
        for c in u.chars() {
            if c.is_ascii() {
                s.push(c);
            } else {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    push_pct(&mut s, b);
                }
            }
        }
        s
    } else {
        u
    };
    true
}

// ---- named rules ---------------------------------------------------------

fn trailing_host_dot(p: &mut Parts) -> bool {
    if p.host.ends_with('.') || p.host.is_empty() {
        return false;
    }
    p.host.push('.');
    true
}

/// Tracking parameters of irinorm-rules' default list.
const TRACKING: &[&str] = &[
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "gclid",
    "fbclid",
    "msclkid",
    "mc_cid",
    "_hsenc",
];

fn tracking_param(p: &mut Parts, rng: &mut Rng) -> bool {
    let param = format!("{}={}", rng.pick(TRACKING), random_token(rng, 3, 12));
    match &mut p.query {
        None => p.query = Some(param),
        // `?` alone: a query made only of removed parameters loses its `?`,
        // so the alias would become the URL without `?`, a different one.
        Some(q) if q.is_empty() => return false,
        Some(q) => {
            let mut params: Vec<&str> = q.split('&').collect();
            let at = rng.below(params.len() + 1);
            params.insert(at, &param);
            *q = params.join("&");
        }
    }
    true
}

fn param_name(p: &str) -> &str {
    p.split('=').next().unwrap_or("")
}

/// Whether a preset rule may remove the parameter (tracking parameters in
/// `crawler`, session ids in `aggressive`): such parameters never move, so
/// that removing them does not undo the reordering below `sort-query`.
fn removable_param(p: &str) -> bool {
    use irinorm_rules::config::{DEFAULT_SESSION_IDS, DEFAULT_TRACKING_PARAMS};
    let name = param_name(p);
    DEFAULT_TRACKING_PARAMS
        .iter()
        .chain(DEFAULT_SESSION_IDS)
        .any(|g| irinorm_rules::glob_matches(g, name))
}

/// Reorders the parameters so that a stable sort by name gives the same
/// result: the names of the parameters no rule removes are put in a new
/// order (parameters of one name keep theirs), in the places those
/// parameters had; the others stay where they are.
fn param_order(p: &mut Parts, rng: &mut Rng) -> bool {
    let Some(q) = &p.query else { return false };
    let params: Vec<&str> = q.split('&').collect();
    let slots: Vec<usize> = (0..params.len())
        .filter(|&i| !removable_param(params[i]))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for &i in &slots {
        if !names.contains(&param_name(params[i])) {
            names.push(param_name(params[i]));
        }
    }
    if names.len() < 2 {
        return false;
    }
    let arrange = |order: &[&str]| -> String {
        let mut moved: Vec<&str> = slots.iter().map(|&i| params[i]).collect();
        moved.sort_by_key(|x| order.iter().position(|n| *n == param_name(x)));
        let mut v = params.clone();
        for (slot, x) in slots.iter().zip(moved) {
            v[*slot] = x;
        }
        v.join("&")
    };
    let mut order = names.clone();
    rng.shuffle(&mut order);
    let mut out = arrange(&order);
    if out == *q {
        // The first movable parameter now has another name.
        names.reverse();
        out = arrange(&names);
    }
    debug_assert_ne!(out, *q);
    p.query = Some(out);
    true
}

/// The registrable domain of a host (Public Suffix List), as the
/// remove-www/add-www rules read it.
fn registrable(h: &str) -> Option<&str> {
    if h.is_empty() || h.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return None;
    }
    psl::domain_str(h)
}

fn add_www(p: &mut Parts) -> bool {
    let h = &p.host;
    if !is_reg_name_ascii(h) || h.ends_with('.') || registrable(h) != Some(h.as_str()) {
        return false;
    }
    p.host = format!("www.{h}");
    true
}

fn remove_www(p: &mut Parts) -> bool {
    let h = &p.host;
    if !is_reg_name_ascii(h) || h.ends_with('.') {
        return false;
    }
    let Some(rest) = h.strip_prefix("www.") else {
        return false;
    };
    if registrable(rest).is_none() {
        return false;
    }
    p.host = rest.to_owned();
    true
}

const FRAGMENTS: &[&str] = &["top", "main", "content", "section-2", "comments", "x"];

fn fragment(p: &mut Parts, rng: &mut Rng) -> bool {
    if p.fragment.is_some() {
        return false;
    }
    p.fragment = Some(if rng.chance(1, 2) {
        (*rng.pick(FRAGMENTS)).to_owned()
    } else {
        random_token(rng, 1, 10)
    });
    true
}

fn duplicate_slashes(p: &mut Parts, rng: &mut Rng) -> bool {
    let s = slashes(&p.path);
    if s.is_empty() {
        return false;
    }
    let at = *rng.pick(&s);
    p.path.insert(at, '/');
    true
}

// ---- confusers -------------------------------------------------------------

/// A `/` between two non-empty segments written `%2F`.
fn confuser_pct2f(p: &mut Parts, rng: &mut Rng) -> bool {
    let b = p.path.as_bytes();
    let cands: Vec<usize> = slashes(&p.path)
        .into_iter()
        .filter(|&i| i > 0 && b[i - 1] != b'/' && i + 1 < b.len() && b[i + 1] != b'/')
        .collect();
    if cands.is_empty() {
        return false;
    }
    let at = *rng.pick(&cands);
    p.path.replace_range(at..at + 1, "%2F");
    true
}

fn confuser_query(p: &mut Parts) -> bool {
    if p.query.is_some() {
        return false;
    }
    p.query = Some(String::new());
    true
}

fn confuser_fragment(p: &mut Parts) -> bool {
    if p.fragment.is_some() {
        return false;
    }
    p.fragment = Some(String::new());
    true
}

/// Ports a confuser uses: never 80 or 443 (force-https/force-http would
/// make them a default port).
const PORTS: &[&str] = &["8080", "8000", "8443", "81", "8888", "3000"];

fn confuser_port(p: &mut Parts, rng: &mut Rng) -> bool {
    if p.default_port().is_none() {
        return false;
    }
    let cands: Vec<&str> = PORTS
        .iter()
        .copied()
        .filter(|x| p.port.as_deref() != Some(*x))
        .collect();
    p.port = Some((*rng.pick(&cands)).to_owned());
    true
}

/// Directory-index names are matched without regard to case by
/// remove-directory-index: a case change there is not a different resource
/// for aggressive, by design, so confusers leave those segments alone.
fn case_neutral_segment(seg: &str) -> bool {
    irinorm_rules::config::DEFAULT_DIRECTORY_INDEX
        .iter()
        .any(|n| n.eq_ignore_ascii_case(seg))
        || seg.contains(';')
        || seg.starts_with('(')
}

fn confuser_path_case(p: &mut Parts, rng: &mut Rng) -> bool {
    let path = &p.path;
    let mut cands = Vec::new();
    let mut seg_start = 0;
    for (i, b) in path.bytes().enumerate() {
        if b == b'/' {
            seg_start = i + 1;
            continue;
        }
        if b.is_ascii_alphabetic() && !in_triplet(path, i) {
            let seg_end = path[i..].find('/').map_or(path.len(), |e| i + e);
            if !case_neutral_segment(&path[seg_start..seg_end]) {
                cands.push(i);
            }
        }
    }
    if cands.is_empty() {
        return false;
    }
    let at = *rng.pick(&cands);
    let mut bytes = std::mem::take(&mut p.path).into_bytes();
    bytes[at] ^= 0x20;
    p.path = String::from_utf8(bytes).unwrap_or_default();
    true
}

fn confuser_www1(p: &mut Parts) -> bool {
    let Some(rest) = p.host.strip_prefix("www.") else {
        return false;
    };
    p.host = format!("www1.{rest}");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> Parts {
        let p = Parts::split(s).unwrap();
        assert_eq!(p.to_url(), s);
        p
    }

    #[test]
    fn split_and_write() {
        let p = parts("https://u:p@www.example.com:8080/a/b?x=1&y#f?g");
        assert_eq!(p.userinfo.as_deref(), Some("u:p"));
        assert_eq!(p.host, "www.example.com");
        assert_eq!(p.port.as_deref(), Some("8080"));
        assert_eq!(p.path, "/a/b");
        assert_eq!(p.query.as_deref(), Some("x=1&y"));
        assert_eq!(p.fragment.as_deref(), Some("f?g"));
        parts("http://a");
        parts("http://a#x");
        parts("http://a:/?");
        assert!(Parts::split("http://[::1]/").is_none());
        assert!(Parts::split("mailto:x@y").is_none());
    }

    #[test]
    fn iri_decoding() {
        assert_eq!(decode_iri("/%C3%A9t%C3%A9").as_deref(), Some("/été"));
        // Invalid UTF-8, bidi controls, overlong forms and ASCII stay.
        assert_eq!(decode_iri("/%C3%28"), None);
        assert_eq!(decode_iri("/%E2%80%8E"), None);
        assert_eq!(decode_iri("/%C0%AF%2F"), None);
        assert_eq!(
            decode_iri("/%F0%9F%98%80%EF%BF%BF").as_deref(),
            Some("/😀%EF%BF%BF")
        );
        assert!(!iri_allowed('\u{E000}'));
        assert!(iri_allowed('\u{10000}'));
        assert!(!iri_allowed('\u{1FFFE}'));
        assert!(!iri_allowed('\u{E0001}'));
    }

    #[test]
    fn idn_forms() {
        assert_eq!(
            unicode_host("xn--bcher-kva.example").as_deref(),
            Some("bücher.example")
        );
        assert_eq!(unicode_host("example.com"), None);
        let mut p = parts("http://xn--bcher-kva.example/");
        assert!(idn(&mut p, true));
        assert_eq!(p.host, "b%C3%BCcher.example");
    }

    #[test]
    fn param_order_keeps_same_name_order() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let mut p = parts("http://a/?b=1&a=2&b=3&c");
            assert!(param_order(&mut p, &mut rng));
            let q = p.query.unwrap();
            let bs: Vec<_> = q.split('&').filter(|x| x.starts_with("b=")).collect();
            assert_eq!(bs, ["b=1", "b=3"]);
            assert_ne!(q, "b=1&a=2&b=3&c");
        }
        assert!(!param_order(&mut parts("http://a/?a=1&a=2"), &mut rng));
        // Tracking parameters and session ids stay in place.
        for _ in 0..20 {
            let mut p = parts("http://a/?x=1&utm_medium=m&y=2&SID=3");
            assert!(param_order(&mut p, &mut rng));
            assert_eq!(p.query.as_deref(), Some("y=2&utm_medium=m&x=1&SID=3"));
        }
        assert!(!param_order(&mut parts("http://a/?x=1&gclid=2"), &mut rng));
    }

    #[test]
    fn applicability() {
        let mut rng = Rng::new(1);
        let p = parts("https://www.example.com/");
        assert!(plant(Kind::EmptyPath, &p, &mut rng).is_some());
        assert!(plant(Kind::ConfuserPct2f, &p, &mut rng).is_none());
        assert!(plant(Kind::AddWww, &p, &mut rng).is_none());
        assert_eq!(
            plant(Kind::RemoveWww, &p, &mut rng).unwrap().url,
            "https://example.com/"
        );
        assert_eq!(
            plant(Kind::ConfuserWww1, &p, &mut rng).unwrap().url,
            "https://www1.example.com/"
        );
        let p = parts("https://example.co.uk/a/index.html?q");
        assert_eq!(
            plant(Kind::AddWww, &p, &mut rng).unwrap().url,
            "https://www.example.co.uk/a/index.html?q"
        );
        assert!(plant(Kind::TrackingParam, &parts("http://a/?"), &mut rng).is_none());
        assert!(plant(Kind::RemoveWww, &parts("http://www.co.uk/"), &mut rng).is_none());
        for _ in 0..20 {
            // Only the `a` of `/a/` may change case: index.html is left alone.
            let c = plant(Kind::ConfuserPathCase, &p, &mut rng).unwrap().url;
            assert_eq!(c, "https://example.co.uk/A/index.html?q");
            let c = plant(Kind::ConfuserPct2f, &p, &mut rng).unwrap().url;
            assert_eq!(c, "https://example.co.uk/a%2Findex.html?q");
        }
    }
}
