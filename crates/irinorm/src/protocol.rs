//! Rung 3 — `protocol` (RFC 3986 §6.2.4, RFC 3987 §5.3.4): rung 2, then
//! the equivalences that recorded evidence about dereferencing supports.
//!
//! RFC 3986 §6.2.4 allows protocol-based normalization "only when
//! equivalence is clearly indicated by both the result of accessing the
//! resources and the common conventions of their scheme's dereference
//! algorithm". `LADDER.md` ("Rung 3") turns that into:
//!
//! - an **edge** joins the rung-2 keys of a redirect's source and target
//!   when the redirect is permanent (301, 308; RFC 9110 §15.4.2, §15.4.9)
//!   and [conventional](classify) (a trailing slash, `http` -> `https`,
//!   `www.`, the case of the path, a directory index, query parameters
//!   dropped); [`RedirectPolicy`] widens this;
//! - the normal form follows edges to the end of the chain (at most
//!   [`MAX_HOPS`]; a cycle ends at its smallest key);
//! - host-level conventions seen on at least N distinct URLs of an origin,
//!   never contradicted there, apply to that origin's unseen URLs, marked
//!   inferred ([`HostTally`]).
//!
//! This module does no I/O: evidence comes through the [`Evidence`] trait
//! (the `irinorm-evidence` crate implements it on an SQLite store;
//! [`MemoryEvidence`] holds observations in memory).
//!
//! Rung 3 is a function of the rung-2 key, so it is monotone over rung 2
//! (equal rung-2 keys give equal rung-3 keys), and it is idempotent: the
//! end of a chain has no outgoing edge (or is the smallest key of its
//! cycle, whose chain ends at itself), and a chain longer than
//! [`MAX_HOPS`] decides nothing (the key stays where rung 2 left it) so
//! that no key is ever stopped half way.
//!
//! ```
//! use irinorm::protocol::{MemoryEvidence, Protocol, ProtocolOptions, RawObservation};
//! let mut ev = MemoryEvidence::default();
//! ev.add(RawObservation::redirect("http://example.com/data", 301, "/data/"));
//! let p = Protocol::new(Default::default(), ev.build(), ProtocolOptions::default());
//! assert_eq!(p.normalize("HTTP://Example.com:80/data").unwrap(), "http://example.com/data/");
//! ```

use std::borrow::Cow;
use std::collections::HashMap;

use crate::error::ParseError;
use crate::ladder::{
    CharNorm, CompareError, Form, Normalizer, Options, Rung, Side, DEFAULT_MAX_LEN,
};
use crate::parse::{split_trusted, Meta};

/// Longest chain followed (`LADDER.md`: "at most 20 hops"; also the
/// redirect limit that RFC 9110 §15.4's "a client SHOULD detect and
/// intervene in cyclical redirections" leads browsers to).
pub const MAX_HOPS: usize = 20;

/// Default minimum number of distinct URLs of an origin that must show a
/// convention before it applies to the origin's unseen URLs.
pub const DEFAULT_MIN_HOST_SUPPORT: u32 = 3;

/// Which redirects are edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RedirectPolicy {
    /// Permanent (301, 308) and [conventional](classify): the default.
    #[default]
    Conventional,
    /// Every permanent redirect (301, 308), moves included.
    Permanent,
    /// Every redirect with a target: 301, 302, 303, 307, 308.
    All,
}

impl RedirectPolicy {
    /// The policies, narrowest first.
    pub const ALL: [RedirectPolicy; 3] = [
        RedirectPolicy::Conventional,
        RedirectPolicy::Permanent,
        RedirectPolicy::All,
    ];

    /// `conventional`, `permanent`, `all`.
    pub const fn name(self) -> &'static str {
        match self {
            RedirectPolicy::Conventional => "conventional",
            RedirectPolicy::Permanent => "permanent",
            RedirectPolicy::All => "all",
        }
    }

    /// Whether a redirect from `from` to `to` (rung-2 keys) with `status`
    /// is an edge under this policy.
    pub fn is_edge(self, status: u16, from: &str, to: &str) -> bool {
        self.is_edge_classified(status, classify(from, to))
    }

    /// [`RedirectPolicy::is_edge`] given `classify(from, to)`.
    pub fn is_edge_classified(self, status: u16, conventions: Option<Conventions>) -> bool {
        let permanent = matches!(status, 301 | 308);
        match self {
            RedirectPolicy::Conventional => permanent && conventions.is_some(),
            RedirectPolicy::Permanent => permanent,
            RedirectPolicy::All => matches!(status, 301 | 302 | 303 | 307 | 308),
        }
    }
}

impl core::str::FromStr for RedirectPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RedirectPolicy::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown redirect policy {s:?} (conventional, permanent or all)")
            })
    }
}

/// A set of conventional differences between a redirect's source and
/// target (a bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conventions(pub u8);

impl Conventions {
    /// `http` -> `https`, same host and path.
    pub const HTTPS_UPGRADE: Conventions = Conventions(1);
    /// `www.` prepended to the host.
    pub const WWW_ADDED: Conventions = Conventions(2);
    /// Leading `www.` removed from the host.
    pub const WWW_REMOVED: Conventions = Conventions(4);
    /// `/data` -> `/data/`.
    pub const SLASH_ADDED: Conventions = Conventions(8);
    /// `/data/` -> `/data`.
    pub const SLASH_REMOVED: Conventions = Conventions(16);
    /// The path differs only in ASCII case.
    pub const PATH_CASE: Conventions = Conventions(32);
    /// `/a/index.html` <-> `/a/`.
    pub const DIRECTORY_INDEX: Conventions = Conventions(64);
    /// Query parameters dropped, the rest kept in order.
    pub const QUERY_DROPPED: Conventions = Conventions(128);

    /// The conventions that can hold for a whole origin (`LADDER.md`:
    /// "http -> https, `www.` added or removed, trailing slash added").
    pub const HOST_LEVEL: [Conventions; 4] = [
        Conventions::HTTPS_UPGRADE,
        Conventions::WWW_ADDED,
        Conventions::WWW_REMOVED,
        Conventions::SLASH_ADDED,
    ];

    const NAMES: [(Conventions, &'static str); 8] = [
        (Conventions::HTTPS_UPGRADE, "https-upgrade"),
        (Conventions::WWW_ADDED, "www-added"),
        (Conventions::WWW_REMOVED, "www-removed"),
        (Conventions::SLASH_ADDED, "slash-added"),
        (Conventions::SLASH_REMOVED, "slash-removed"),
        (Conventions::PATH_CASE, "path-case"),
        (Conventions::DIRECTORY_INDEX, "directory-index"),
        (Conventions::QUERY_DROPPED, "query-dropped"),
    ];

    /// Whether every convention of `other` is in `self`.
    pub const fn contains(self, other: Conventions) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names of the conventions in the set, in a fixed order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::NAMES
            .into_iter()
            .filter(move |(c, _)| self.contains(*c))
            .map(|(_, n)| n)
    }
}

impl core::ops::BitOr for Conventions {
    type Output = Conventions;
    fn bitor(self, o: Conventions) -> Conventions {
        Conventions(self.0 | o.0)
    }
}

impl core::ops::BitOrAssign for Conventions {
    fn bitor_assign(&mut self, o: Conventions) {
        self.0 |= o.0;
    }
}

impl core::fmt::Display for Conventions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut first = true;
        for n in self.names() {
            if !first {
                f.write_str("+")?;
            }
            first = false;
            f.write_str(n)?;
        }
        if first {
            f.write_str("none")?;
        }
        Ok(())
    }
}

/// File names that servers conventionally serve for a directory (Apache
/// `DirectoryIndex`, nginx `index`, IIS default documents).
pub const DIRECTORY_INDEX_NAMES: [&str; 12] = [
    "index.html",
    "index.htm",
    "index.php",
    "index.shtml",
    "index.asp",
    "index.aspx",
    "index.jsp",
    "index.cgi",
    "default.htm",
    "default.html",
    "default.asp",
    "default.aspx",
];

/// The components of a rung-2 key that conventions look at.
struct Parts<'a> {
    scheme: &'a str,
    userinfo: Option<&'a str>,
    host: &'a str,
    port: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn parts(key: &str) -> Option<Parts<'_>> {
    let key = strip_fragment(key);
    let m: Meta = split_trusted(key);
    Some(Parts {
        scheme: m.scheme(key)?,
        userinfo: m.userinfo(key),
        host: m.host(key)?,
        port: m.port(key).filter(|p| !p.is_empty()),
        path: m.path(key),
        query: m.query(key),
    })
}

fn strip_fragment(key: &str) -> &str {
    &key[..fragment_start(key)]
}

/// The origin of a rung-2 key (`scheme://authority`): what host-level
/// conventions are kept by.
///
/// A scan rather than a parse (it runs for every URL of a bulk rung-3 run):
/// the scheme is what precedes the first `:` (RFC 3986 §3.1: ALPHA *(
/// ALPHA / DIGIT / "+" / "-" / "." )), an authority follows when `//` comes
/// next, and it ends at the first `/`, `?` or `#` (§3.2: none of them can
/// occur in it). For every URI this is what [`split_trusted`] finds (a
/// property test compares both on rung-2 keys).
pub fn origin(key: &str) -> Option<&str> {
    let b = key.as_bytes();
    let colon = b.iter().position(|&c| c == b':')?;
    let scheme_ok = b.first().is_some_and(u8::is_ascii_alphabetic)
        && b[1..colon]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !scheme_ok || !b[colon + 1..].starts_with(b"//") {
        return None;
    }
    let start = colon + 3;
    let end = b[start..]
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .map_or(b.len(), |i| start + i);
    key.get(..end)
}

/// The byte index of the first `#` (the fragment), or the length.
fn fragment_start(s: &str) -> usize {
    s.bytes().position(|c| c == b'#').unwrap_or(s.len())
}

/// How `to` differs from `from` in the path, or `None` when the paths are
/// not conventional aliases. Compares exactly, then ASCII
/// case-insensitively (adding [`Conventions::PATH_CASE`]).
fn path_diff(from: &str, to: &str) -> Option<Conventions> {
    fn exact(f: &str, t: &str) -> Option<Conventions> {
        if f == t {
            return Some(Conventions::default());
        }
        if t.len() == f.len() + 1 && t.starts_with(f) && t.ends_with('/') && !f.is_empty() {
            return Some(Conventions::SLASH_ADDED);
        }
        if f.len() == t.len() + 1 && f.starts_with(t) && f.ends_with('/') && !t.is_empty() {
            return Some(Conventions::SLASH_REMOVED);
        }
        let (dir, file) = if t.len() < f.len() { (t, f) } else { (f, t) };
        if dir.ends_with('/') && file.starts_with(dir) {
            let name = &file[dir.len()..];
            if DIRECTORY_INDEX_NAMES.contains(&name) {
                return Some(Conventions::DIRECTORY_INDEX);
            }
        }
        None
    }
    if let Some(c) = exact(from, to) {
        return Some(c);
    }
    let (lf, lt) = (from.to_ascii_lowercase(), to.to_ascii_lowercase());
    exact(&lf, &lt).map(|c| c | Conventions::PATH_CASE)
}

/// Whether the parameters of `to` are those of `from` with some left out
/// (all of them, possibly: `?sid=1` -> no query), the rest in the same
/// order. A permanent redirect that drops the whole query is how servers
/// strip session and tracking parameters; the simulated crawl's ground
/// truth (docs/frontier.md, `dropped-query`) counts it as conventional.
fn query_dropped(from: Option<&str>, to: Option<&str>) -> Option<bool> {
    if from == to {
        return Some(false);
    }
    fn params(q: Option<&str>) -> Vec<&str> {
        q.map(|q| q.split('&').filter(|p| !p.is_empty()).collect())
            .unwrap_or_default()
    }
    let (f, t) = (params(from), params(to));
    if t.len() > f.len() {
        return None;
    }
    let mut it = f.iter();
    for p in &t {
        it.find(|x| *x == p)?;
    }
    Some(true)
}

/// The conventional differences between the rung-2 keys `from` and `to`
/// of a redirect, or `None` when the redirect is not conventional (a move,
/// or no difference at all). Fragments are ignored (RFC 9110 §10.2.2: a
/// redirect keeps the request's fragment).
///
/// Conventional: the scheme equal or `http` -> `https`; userinfo and port
/// equal; the host equal or differing by one leading `www.`; the path
/// equal or differing by a trailing slash, ASCII case or a
/// [directory index](DIRECTORY_INDEX_NAMES); the query equal or with some
/// (or all) of its `&`-separated parameters dropped, the rest in order. Several
/// may hold at once (`http://example.com/a` -> `https://www.example.com/a/`
/// is the common case).
pub fn classify(from: &str, to: &str) -> Option<Conventions> {
    let (f, t) = (parts(from)?, parts(to)?);
    let mut c = Conventions::default();
    if f.scheme != t.scheme {
        if f.scheme == "http" && t.scheme == "https" {
            c |= Conventions::HTTPS_UPGRADE;
        } else {
            return None;
        }
    }
    if f.userinfo != t.userinfo || f.port != t.port {
        return None;
    }
    if f.host != t.host {
        if t.host.strip_prefix("www.") == Some(f.host) && !f.host.is_empty() {
            c |= Conventions::WWW_ADDED;
        } else if f.host.strip_prefix("www.") == Some(t.host) && !t.host.is_empty() {
            c |= Conventions::WWW_REMOVED;
        } else {
            return None;
        }
    }
    c |= path_diff(f.path, t.path)?;
    if query_dropped(f.query, t.query)? {
        c |= Conventions::QUERY_DROPPED;
    }
    (!c.is_empty()).then_some(c)
}

/// Whether a host-level convention `c` could apply to `key` at all.
fn applicable(c: Conventions, p: &Parts<'_>) -> bool {
    match c {
        Conventions::HTTPS_UPGRADE => p.scheme == "http",
        Conventions::WWW_ADDED => !p.host.starts_with("www.") && !p.host.starts_with('['),
        Conventions::WWW_REMOVED => p.host.starts_with("www.") && p.host.len() > 4,
        Conventions::SLASH_ADDED => !p.path.is_empty() && !p.path.ends_with('/'),
        _ => false,
    }
}

/// `key` with the host-level convention `c` applied (`None` when it does
/// not apply).
pub fn apply_convention(key: &str, c: Conventions) -> Option<String> {
    let p = parts(key)?;
    if !applicable(c, &p) {
        return None;
    }
    let key = strip_fragment(key);
    let m = split_trusted(key);
    let mut out = String::with_capacity(key.len() + 5);
    let auth = m.authority(key)?;
    let auth_start = p.scheme.len() + 3;
    let after_auth = &key[auth_start + auth.len()..];
    let path_end = auth_start + auth.len() + p.path.len();
    match c {
        Conventions::HTTPS_UPGRADE => {
            out.push_str("https");
            out.push_str(&key[p.scheme.len()..]);
        }
        Conventions::WWW_ADDED | Conventions::WWW_REMOVED => {
            out.push_str(&key[..auth_start]);
            if let Some(u) = p.userinfo {
                out.push_str(u);
                out.push('@');
            }
            if c == Conventions::WWW_ADDED {
                out.push_str("www.");
                out.push_str(p.host);
            } else {
                out.push_str(&p.host[4..]);
            }
            if let Some(port) = p.port {
                out.push(':');
                out.push_str(port);
            }
            out.push_str(after_auth);
        }
        _ => {
            out.push_str(&key[..path_end]);
            out.push('/');
            out.push_str(&key[path_end..]);
        }
    }
    Some(out)
}

/// Whether the redirect `from` -> `to` shows the host-level convention `c`
/// (possibly among others).
fn shows(c: Conventions, f: &Parts<'_>, t: &Parts<'_>) -> bool {
    match c {
        Conventions::HTTPS_UPGRADE => f.scheme == "http" && t.scheme == "https",
        Conventions::WWW_ADDED => t.host.strip_prefix("www.") == Some(f.host),
        Conventions::WWW_REMOVED => f.host.strip_prefix("www.") == Some(t.host),
        Conventions::SLASH_ADDED => {
            t.path.len() == f.path.len() + 1 && t.path.starts_with(f.path) && t.path.ends_with('/')
        }
        _ => false,
    }
}

/// A host-level convention of one origin and the evidence for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HostConvention {
    /// One of [`Conventions::HOST_LEVEL`].
    pub convention: Conventions,
    /// Distinct URLs of the origin whose latest observation is a permanent
    /// conventional redirect showing it.
    pub support: u32,
    /// Distinct URLs of the origin where it could apply and whose latest
    /// observation does not show it (served, an error, a redirect
    /// elsewhere). One is enough to keep the convention from applying.
    pub contradictions: u32,
}

/// Counts, per origin, the support and the contradictions of each
/// host-level convention from the latest observation of each distinct
/// URL. Feed it each source key once.
#[derive(Clone, Debug, Default)]
pub struct HostTally {
    map: HashMap<String, [(u32, u32); 4]>,
}

impl HostTally {
    /// Counts the latest observation of `source` (a rung-2 key): its
    /// `status` and, for a redirect, its `target` (a rung-2 key). A
    /// redirect with an unknown target decides nothing and is not counted.
    pub fn add(&mut self, source: &str, status: u16, target: Option<&str>) {
        let is_redirect = (300..400).contains(&status);
        if is_redirect && target.is_none() {
            return;
        }
        let (Some(f), Some(o)) = (parts(source), origin(source)) else {
            return;
        };
        let t = target.and_then(parts);
        let conventional =
            matches!(status, 301 | 308) && target.is_some_and(|t| classify(source, t).is_some());
        let mut row = None;
        for (i, c) in Conventions::HOST_LEVEL.into_iter().enumerate() {
            if !applicable(c, &f) {
                continue;
            }
            let shown = t.as_ref().is_some_and(|t| shows(c, &f, t));
            let r = row.get_or_insert_with(|| {
                if !self.map.contains_key(o) {
                    self.map.insert(o.to_owned(), [(0, 0); 4]);
                }
                o
            });
            let e = &mut self.map.get_mut(*r).expect("inserted above")[i];
            if shown && conventional {
                e.0 += 1;
            } else if !shown && (!is_redirect || matches!(status, 301 | 308)) {
                // A temporary redirect is no statement about the URL; a
                // permanent one, a final answer or an error that does not
                // show the convention contradicts it.
                e.1 += 1;
            }
        }
    }

    /// The conventions recorded for `origin` (support or contradictions
    /// non-zero).
    pub fn conventions(&self, origin: &str) -> Vec<HostConvention> {
        self.map.get(origin).map(row).unwrap_or_default()
    }

    /// Every origin and its conventions.
    pub fn into_map(self) -> HashMap<String, Vec<HostConvention>> {
        self.map.into_iter().map(|(k, r)| (k, row(&r))).collect()
    }
}

fn row(r: &[(u32, u32); 4]) -> Vec<HostConvention> {
    Conventions::HOST_LEVEL
        .into_iter()
        .zip(r)
        .filter(|(_, (s, c))| *s > 0 || *c > 0)
        .map(|(convention, &(support, contradictions))| HostConvention {
            convention,
            support,
            contradictions,
        })
        .collect()
}

/// The observation about a URL that decides its rung-3 edge: the latest
/// one with a status (and, for a redirect, a known target).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// HTTP status.
    pub status: u16,
    /// Redirect target (a rung-2 key, or any reference the normalizer
    /// accepts; it is normalized again).
    pub target: Option<String>,
    /// 14-digit UTC timestamp, as recorded.
    pub time: Option<String>,
    /// The file (or other source) it was read from.
    pub source: String,
    /// Byte offset of the record in that source.
    pub offset: u64,
    /// Other observations of the same URL that say something else (another
    /// status or target), in a line each: the latest wins, this reports
    /// the disagreement.
    pub disagreements: Vec<String>,
}

/// Where rung 3 gets its evidence. Keys are rung-2 `uri` forms without
/// fragment ([`evidence_key`]).
pub trait Evidence {
    /// The latest deciding observation of `key`, if any.
    fn latest(&self, key: &str) -> Option<Observed>;
    /// The host-level conventions recorded for an [`origin`].
    fn host_conventions(&self, origin: &str) -> Vec<HostConvention>;
    /// A prefilter: `false` only when neither `key` nor its [`origin`] has
    /// any evidence (no observation, no host convention), so that rung 3
    /// costs a bulk run of unseen URLs one cheap test each. `true` means
    /// "look". The default always looks.
    ///
    /// `origin` is [`origin`]`(key)`, computed once by the caller (often
    /// without a scan: the parser found it).
    fn may_have(&self, key: &str, origin: Option<&str>) -> bool {
        let _ = (key, origin);
        true
    }
    /// Whether every [`Observed::target`] is already an [`evidence_key`]
    /// (stores keep the key of the resolved target), so that rung 3 need
    /// not normalize it again. The default (`false`) normalizes it.
    fn targets_are_keys(&self) -> bool {
        false
    }
    /// The status and target of `key`'s [`latest`](Evidence::latest)
    /// observation without the rest of the record: what following a chain
    /// needs, lent where the evidence can lend it (no allocation per hop).
    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        self.latest(key).map(|o| Decision {
            status: o.status,
            target: o.target.map(Cow::Owned),
            classified: None,
        })
    }
}

/// What following a chain needs of a key's latest observation
/// ([`Evidence::decision`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<'a> {
    /// HTTP status.
    pub status: u16,
    /// Redirect target, as [`Observed::target`].
    pub target: Option<Cow<'a, str>>,
    /// `Some(classify(key, target))` when the evidence computed it when it
    /// was built (used only when [`Evidence::targets_are_keys`]); `None`:
    /// not known.
    pub classified: Option<Option<Conventions>>,
}

impl<T: Evidence + ?Sized> Evidence for &T {
    fn latest(&self, key: &str) -> Option<Observed> {
        (**self).latest(key)
    }
    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        (**self).host_conventions(origin)
    }
    fn may_have(&self, key: &str, origin: Option<&str>) -> bool {
        (**self).may_have(key, origin)
    }
    fn targets_are_keys(&self) -> bool {
        (**self).targets_are_keys()
    }
    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        (**self).decision(key)
    }
}

impl<T: Evidence + ?Sized> Evidence for std::sync::Arc<T> {
    fn may_have(&self, key: &str, origin: Option<&str>) -> bool {
        (**self).may_have(key, origin)
    }
    fn targets_are_keys(&self) -> bool {
        (**self).targets_are_keys()
    }
    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        (**self).decision(key)
    }
    fn latest(&self, key: &str) -> Option<Observed> {
        (**self).latest(key)
    }
    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        (**self).host_conventions(origin)
    }
}

/// No evidence: rung 3 is rung 2.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvidence;

impl Evidence for NoEvidence {
    fn latest(&self, _: &str) -> Option<Observed> {
        None
    }
    fn host_conventions(&self, _: &str) -> Vec<HostConvention> {
        Vec::new()
    }
}

/// The evidence key of a URL: its rung-2 comparison key without the
/// fragment (what the store is keyed by): the `uri` normal form, except
/// that a URN's r- and q-components are left out, as rung 2 compares URNs
/// without them (RFC 8141 §3.1; LADDER.md rung 2, "urn"). Keyed by the
/// normal form instead, evidence about `urn:example:a` did not reach
/// `urn:example:a?=q`, equal to it at rung 2, and rung 3 was not monotone
/// (invariant 3; round 18).
pub fn evidence_key(url: &str) -> Result<String, ParseError> {
    thread_local! {
        static N2: Normalizer = Normalizer::new(Options {
            ignore_fragment: true,
            ..Options::new(Rung::Scheme, Form::Uri)
        });
    }
    N2.with(|n| n.key(url))
}

/// Whether `query` (a key's, without `?`) may begin a URN's r- or
/// q-component (RFC 8141 §2: `?+` or `?=`): the only keys whose evidence
/// key is not their text ([`Protocol::lookup_key`]).
fn may_be_rq(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.starts_with(['+', '=']))
}

/// The query of `k`, a key without fragment: what follows its first `?`
/// (RFC 3986 §3.4).
fn query_of(k: &str) -> Option<&str> {
    k.find('?').map(|i| &k[i + 1..])
}

/// One observation before it is reduced to the latest of its URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawObservation {
    /// The URL as recorded.
    pub url: String,
    /// HTTP status.
    pub status: u16,
    /// Redirect target (resolved).
    pub target: Option<String>,
    /// 14-digit timestamp.
    pub time: Option<String>,
    /// Source name.
    pub source: String,
    /// Offset in the source.
    pub offset: u64,
}

impl RawObservation {
    /// A redirect; `target` is resolved against `url` (RFC 3986 §5.2).
    pub fn redirect(url: &str, status: u16, target: &str) -> Self {
        let resolved = crate::resolve::resolve(url, target).ok();
        RawObservation {
            url: url.to_owned(),
            status,
            target: resolved,
            ..Default::default()
        }
    }

    /// A final answer (no redirect).
    pub fn status(url: &str, status: u16) -> Self {
        RawObservation {
            url: url.to_owned(),
            status,
            ..Default::default()
        }
    }

    /// With a time.
    pub fn at(mut self, time: &str) -> Self {
        self.time = Some(time.to_owned());
        self
    }
}

/// Evidence held in memory: add observations, then [`build`](Self::build).
#[derive(Clone, Debug, Default)]
pub struct MemoryEvidence {
    raw: Vec<RawObservation>,
}

/// [`MemoryEvidence`] reduced to the latest observation of each key.
#[derive(Clone, Debug, Default)]
pub struct BuiltEvidence {
    latest: HashMap<String, Observed>,
    hosts: HashMap<String, Vec<HostConvention>>,
}

impl MemoryEvidence {
    /// Adds one observation.
    pub fn add(&mut self, o: RawObservation) {
        self.raw.push(o);
    }

    /// The latest deciding observation of each key and the host tally.
    /// Observations whose URL does not parse, and redirects without a
    /// target, decide nothing and are left out.
    pub fn build(&self) -> BuiltEvidence {
        let mut by_key: HashMap<String, Vec<&RawObservation>> = HashMap::new();
        for o in &self.raw {
            if (300..400).contains(&o.status) && o.target.is_none() {
                continue;
            }
            if let Ok(k) = evidence_key(&o.url) {
                by_key.entry(k).or_default().push(o);
            }
        }
        let mut latest = HashMap::new();
        let mut tally = HostTally::default();
        for (k, obs) in by_key {
            // The latest: by time (none first), then source and offset, so
            // that the same observations give the same answer in any order.
            let best = obs
                .iter()
                .copied()
                .max_by(|a, b| (&a.time, &a.source, a.offset).cmp(&(&b.time, &b.source, b.offset)))
                .expect("non-empty");
            let target = best.target.as_deref().and_then(|t| evidence_key(t).ok());
            let disagreements = obs
                .iter()
                .filter(|o| {
                    o.status != best.status
                        || o.target.as_deref().and_then(|t| evidence_key(t).ok()) != target
                })
                .map(|o| {
                    describe(
                        o.status,
                        o.target.as_deref(),
                        o.time.as_deref(),
                        &o.source,
                        o.offset,
                    )
                })
                .collect();
            tally.add(&k, best.status, target.as_deref());
            latest.insert(
                k,
                Observed {
                    status: best.status,
                    target,
                    time: best.time.clone(),
                    source: best.source.clone(),
                    offset: best.offset,
                    disagreements,
                },
            );
        }
        BuiltEvidence {
            latest,
            hosts: tally.into_map(),
        }
    }
}

/// One observation in one line: `301 -> TARGET at TIME (SOURCE@OFFSET)`.
pub fn describe(
    status: u16,
    target: Option<&str>,
    time: Option<&str>,
    source: &str,
    offset: u64,
) -> String {
    let mut s = status.to_string();
    if let Some(t) = target {
        s.push_str(" -> ");
        s.push_str(t);
    }
    s.push_str(" at ");
    s.push_str(time.unwrap_or("unknown time"));
    s.push_str(&format!(" ({source}@{offset})"));
    s
}

impl Evidence for BuiltEvidence {
    fn latest(&self, key: &str) -> Option<Observed> {
        self.latest.get(key).cloned()
    }
    fn targets_are_keys(&self) -> bool {
        // `build` stores `evidence_key` of each target.
        true
    }
    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        self.hosts.get(origin).cloned().unwrap_or_default()
    }
}

/// How rung 3 follows evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProtocolOptions {
    /// Which redirects are edges (default `conventional`).
    pub redirects: RedirectPolicy,
    /// Minimum support of a host-level convention (default 3; 0 turns
    /// host-level conventions off).
    pub min_host_support: u32,
}

impl Default for ProtocolOptions {
    fn default() -> Self {
        ProtocolOptions {
            redirects: RedirectPolicy::Conventional,
            min_host_support: DEFAULT_MIN_HOST_SUPPORT,
        }
    }
}

/// Why a hop was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HopKind {
    /// A recorded redirect.
    Recorded(Observed),
    /// Host-level conventions of the origin, with their support.
    Inferred(Vec<HostConvention>),
}

/// One edge of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    /// Rung-2 key.
    pub from: String,
    /// Rung-2 key.
    pub to: String,
    /// The conventions the hop shows (`None`: not conventional, an edge
    /// only under a wider policy).
    pub conventions: Option<Conventions>,
    /// The record or the inference behind it.
    pub kind: HopKind,
}

/// How a chain ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// At a key with no edge.
    End,
    /// On a cycle: the end is its smallest key.
    Cycle,
    /// After [`MAX_HOPS`] with more to go: decides nothing, the end is the
    /// start.
    TooLong,
}

/// The chain of a key: every hop, where it ends, and the observation that
/// stopped it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// Rung-2 key the chain starts at.
    pub start: String,
    /// The hops followed.
    pub hops: Vec<Hop>,
    /// The rung-3 key.
    pub end: String,
    /// How it ended.
    pub stop: Stop,
    /// The observation of the end (or of a key where a non-edge stopped
    /// the chain), when there is one: why the chain stops there.
    pub last: Option<Observed>,
}

impl Chain {
    /// Whether any evidence changed the key.
    pub fn changed(&self) -> bool {
        self.end != self.start
    }
}

/// The verdict of a rung-3 comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Equivalent at this rung of the ladder already (no evidence needed).
    Ladder(Rung),
    /// Equivalent at rung 3 only: both chains end at the same key.
    Protocol(Box<(Chain, Chain)>),
    /// Different.
    Different(Box<(Chain, Chain)>),
}

/// Rung 3: a rung-2 [`Normalizer`] plus [`Evidence`].
#[derive(Clone, Debug)]
pub struct Protocol<E> {
    /// The user's options at rung 2 in `uri` form.
    uri: Normalizer,
    /// The same in `iri` form, for `iri` output.
    iri: Option<Normalizer>,
    evidence: E,
    opts: ProtocolOptions,
    /// Whether the user's rung-2 keys may differ from [`evidence_key`]s
    /// (`nfc`/`nfkc`, a caller's scheme registry or IDNA profile, another
    /// length limit): then every target is normalized again with the
    /// user's options ([`Protocol::target_key`]).
    rekey: bool,
}

impl<E: Evidence> Protocol<E> {
    /// Rung 3 with these ladder options (the rung is raised to `scheme`;
    /// the form is the output form) over `evidence`.
    pub fn new(opts: Options, evidence: E, popts: ProtocolOptions) -> Self {
        let o = Options {
            rung: Rung::Scheme,
            ..opts
        };
        let iri = (o.form == Form::Iri).then(|| Normalizer::new(o.clone()));
        let rekey = o.char_norm != CharNorm::None
            || !o.schemes.is_builtin()
            || o.idna != crate::idn::IdnaProfile::default()
            || o.max_len != DEFAULT_MAX_LEN;
        Protocol {
            uri: Normalizer::new(Options {
                form: Form::Uri,
                ..o
            }),
            iri,
            evidence,
            opts: popts,
            rekey,
        }
    }

    /// The key a chain goes on from when evidence leads to `target` (a
    /// recorded target or a key with a host convention applied).
    ///
    /// Rung 3 is a function of the user's rung-2 key (LADDER.md "Rung 3":
    /// "follow edges from the rung-2 key"), so every key of a chain must
    /// be one: with the default options that is the [`evidence_key`]; with
    /// others (`nfc`, a caller's default port, ...) the target's evidence
    /// key is not a normal form of the user's rung 2, and ending a chain
    /// there broke idempotence (invariant 1: with `nfc`, `http://h/x` 301
    /// -> `http://h/e%CC%81` gave `http://h/e%CC%81`, whose own normal
    /// form is `http://h/%C3%A9`) and the forms' agreement (invariant 5).
    /// `None`: not a reference the user's options accept (too long): no
    /// edge.
    fn target_key(&self, target: &str) -> Option<String> {
        if !self.rekey {
            return evidence_key(target).ok();
        }
        let n = self.uri.normalize(target).ok()?;
        Some(self.lookup_key(strip_fragment(&n)).into_owned())
    }

    /// The evidence key of `k`, the user's rung-2 `uri` text without its
    /// fragment: `k`, except for a URN with r- or q-components, which
    /// rung 2 compares without them (RFC 8141 §3.1): its comparison key.
    /// Chains start there, so that inputs equal at rung 2 have one chain
    /// (invariant 3, monotone; round 18: evidence about `urn:example:a`
    /// left `urn:example:a?=q` at rung 2, and `compare` called the two
    /// equivalent while their rung-3 keys differed).
    fn lookup_key<'k>(&self, k: &'k str) -> Cow<'k, str> {
        if !may_be_rq(query_of(k)) {
            return Cow::Borrowed(k);
        }
        let mut s = k.to_owned();
        crate::ladder::key::project(&mut s, 0, self.uri.options());
        Cow::Owned(s)
    }

    /// Whether the evidence's targets are keys of the user's rung 2
    /// (stored [`evidence_key`]s, and the user's options are the
    /// default ones), so that they need no second pass.
    fn targets_are_user_keys(&self) -> bool {
        !self.rekey && self.evidence.targets_are_keys()
    }

    /// Resolves every relative reference against `base` first (as
    /// [`Normalizer::with_base`]).
    pub fn with_base(mut self, base: &str) -> Result<Self, ParseError> {
        self.uri = self.uri.with_base(base)?;
        if let Some(i) = self.iri.take() {
            self.iri = Some(i.with_base(base)?);
        }
        Ok(self)
    }

    /// The evidence.
    pub fn evidence(&self) -> &E {
        &self.evidence
    }

    /// The options.
    pub fn options(&self) -> ProtocolOptions {
        self.opts
    }

    /// The next key from `key`: a recorded edge, or an inferred one when
    /// nothing about `key` is recorded. The second value is the
    /// observation that decided there is no edge.
    fn next(&self, key: &str) -> (Option<Hop>, Option<Observed>) {
        self.next_in(key, origin(key))
    }

    /// [`Protocol::next`] given `origin(key)`.
    fn next_in(&self, key: &str, origin: Option<&str>) -> (Option<Hop>, Option<Observed>) {
        if !self.evidence.may_have(key, origin) {
            return (None, None);
        }
        if let Some(o) = self.evidence.latest(key) {
            let target = match o.target.as_deref() {
                // Already a key: rung 2 is idempotent, no second pass.
                Some(t) if self.targets_are_user_keys() => Some(t.to_owned()),
                t => t.and_then(|t| self.target_key(t)),
            };
            let Some(t) = target.filter(|t| t != key) else {
                return (None, Some(o));
            };
            // Classified once, for the policy and for the hop.
            let conventions = classify(key, &t);
            return if self
                .opts
                .redirects
                .is_edge_classified(o.status, conventions)
            {
                (
                    Some(Hop {
                        from: key.to_owned(),
                        conventions,
                        to: t,
                        kind: HopKind::Recorded(o),
                    }),
                    None,
                )
            } else {
                (None, Some(o))
            };
        }
        (self.inferred(key, origin), None)
    }

    /// The inferred hop from `key`, which has no record: the host-level
    /// conventions of its origin.
    fn inferred(&self, key: &str, origin: Option<&str>) -> Option<Hop> {
        if self.opts.min_host_support == 0 {
            return None;
        }
        let origin = origin?;
        let conv = self.evidence.host_conventions(origin);
        if conv.is_empty() {
            return None;
        }
        let mut cur = key.to_owned();
        let mut used = Vec::new();
        // Fixed order (Conventions::HOST_LEVEL) so the result does not
        // depend on the store's order.
        for c in Conventions::HOST_LEVEL {
            let Some(h) = conv.iter().find(|h| {
                h.convention == c
                    && h.contradictions == 0
                    && h.support >= self.opts.min_host_support
            }) else {
                continue;
            };
            if let Some(next) = apply_convention(&cur, c) {
                cur = next;
                used.push(*h);
            }
        }
        if used.is_empty() {
            return None;
        }
        match self.target_key(&cur) {
            Some(to) if to != key => Some(Hop {
                from: key.to_owned(),
                conventions: classify(key, &to),
                to,
                kind: HopKind::Inferred(used),
            }),
            _ => None,
        }
    }

    /// The key [`Protocol::next`] leads to, without building the hop:
    /// the same decision (a recorded edge; else, with no record, the host
    /// conventions), for normal forms and keys.
    fn next_key(&self, key: &str, origin: Option<&str>) -> Option<String> {
        if !self.evidence.may_have(key, origin) {
            return None;
        }
        match self.evidence.decision(key) {
            Some(d) => {
                let keys = self.targets_are_user_keys();
                let t = match d.target? {
                    Cow::Borrowed(t) if keys => t.to_owned(),
                    Cow::Owned(t) if keys => t,
                    t => self.target_key(&t)?,
                };
                let c = match d.classified {
                    Some(c) if keys => c,
                    _ => classify(key, &t),
                };
                (t != key && self.opts.redirects.is_edge_classified(d.status, c)).then_some(t)
            }
            // No record: host conventions.
            None => self.inferred(key, origin).map(|h| h.to),
        }
    }

    /// The end of the chain from `start` whose first hop leads to `first`:
    /// [`Protocol::chain_after`]'s end, keeping only the keys.
    fn end_after(&self, start: &str, first: String) -> String {
        let mut path: Vec<String> = Vec::new();
        let mut to = first;
        loop {
            let seen = || std::iter::once(start).chain(path.iter().map(String::as_str));
            if let Some(pos) = seen().position(|k| k == to) {
                return seen().skip(pos).min().unwrap_or(start).to_owned();
            }
            if path.len() == MAX_HOPS {
                return start.to_owned();
            }
            let next = self.next_key(&to, origin(&to));
            match next {
                Some(n) => {
                    path.push(to);
                    to = n;
                }
                None => return to,
            }
        }
    }

    /// Follows the chain from a rung-2 key.
    pub fn chain_of_key(&self, start: &str) -> Chain {
        match self.next(start) {
            (Some(first), _) => self.chain_after(start, first),
            (None, last) => Chain {
                start: start.to_owned(),
                end: start.to_owned(),
                hops: Vec::new(),
                stop: Stop::End,
                last,
            },
        }
    }

    /// The chain from `start` whose first hop is `first` (computed once by
    /// the callers that test for an edge first).
    fn chain_after(&self, start: &str, first: Hop) -> Chain {
        let mut hops: Vec<Hop> = Vec::new();
        let mut hop = first;
        loop {
            if let Some(pos) = std::iter::once(start)
                .chain(hops.iter().map(|h| h.to.as_str()))
                .position(|k| k == hop.to)
            {
                // The cycle is the keys from `pos` on: it ends at the
                // smallest, the same key from wherever the cycle is entered.
                let end = std::iter::once(start)
                    .chain(hops.iter().map(|h| h.to.as_str()))
                    .skip(pos)
                    .min()
                    .unwrap_or(start)
                    .to_owned();
                hops.push(hop);
                return Chain {
                    start: start.to_owned(),
                    end,
                    hops,
                    stop: Stop::Cycle,
                    last: None,
                };
            }
            if hops.len() == MAX_HOPS {
                return Chain {
                    start: start.to_owned(),
                    end: start.to_owned(),
                    hops,
                    stop: Stop::TooLong,
                    last: None,
                };
            }
            let cur = hop.to.clone();
            hops.push(hop);
            match self.next(&cur) {
                (Some(h), _) => hop = h,
                (None, last) => {
                    return Chain {
                        start: start.to_owned(),
                        end: cur,
                        hops,
                        stop: Stop::End,
                        last,
                    }
                }
            }
        }
    }

    /// The `uri`-form rung-2 normal form of `input` split into the
    /// evidence key and the fragment (with its `#`).
    fn split(&self, input: &str) -> Result<(String, String), ParseError> {
        let n = self.uri.normalize(input)?;
        Ok(match n.find('#') {
            Some(i) => (n[..i].to_owned(), n[i..].to_owned()),
            None => (n.into_owned(), String::new()),
        })
    }

    /// The fragment (`frag`, with its `#`) of the rung-2 text whose
    /// evidence key is `start` that the end of a chain from `start` to
    /// `end` inherits: all of it (RFC 9110 §10.2.2: a redirect without a
    /// fragment inherits the request's), except a URN's f-component when
    /// the end is not a URN. Rung 2 compares a URN without it (RFC 8141
    /// §3.1), so `urn:example:b#f` and `urn:example:b` are one name; an
    /// end whose key holds its fragment (`http://a.example/#f`) would make
    /// them differ at rung 3 (invariant 3, monotone; round 18). A URN end
    /// keeps it: its key leaves it out, and a URN that ends a cycle gives
    /// it back on the next pass (invariant 1). Called only when an edge
    /// leaves `start`.
    fn inherited<'f>(&self, start: &str, end: &str, frag: &'f str) -> &'f str {
        if !frag.is_empty() && self.is_urn(start) && !self.is_urn(end) {
            ""
        } else {
            frag
        }
    }

    /// Whether the key `k` (lower-case scheme) is of a scheme the user's
    /// registry normalizes as a URN (RFC 8141).
    fn is_urn(&self, k: &str) -> bool {
        crate::ladder::key::is_urn(k, self.uri.options())
    }

    /// The chain of `input`, from its evidence key (a URN's r- and
    /// q-components left out, as rung 2 compares it: RFC 8141 §3.1).
    pub fn chain(&self, input: &str) -> Result<Chain, ParseError> {
        let (k, _) = self.split(input)?;
        Ok(self.chain_of_key(&self.lookup_key(&k)))
    }

    /// The rung-3 normal form in the normalizer's form. The fragment of
    /// the input is kept (RFC 9110 §10.2.2: a redirect without a fragment
    /// inherits the request's). A URN's r- and q-components are kept when
    /// no edge leaves its key (rung 2's text), and go with its name when
    /// one does, as its f-component does to an end that is not a URN:
    /// rung 2 compares the name without them (RFC 8141 §3.1).
    pub fn normalize(&self, input: &str) -> Result<String, ParseError> {
        let mut out = String::new();
        self.normalize_into(input, &mut out)?;
        Ok(out)
    }

    /// [`Protocol::normalize`], appended to `out`.
    pub fn normalize_into(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        if self.iri.is_none() {
            // `uri` form: rung 2 is written straight into `out` and, when
            // no edge leaves it (most URLs), stays as the answer.
            let start = out.len();
            let (_, meta) = self.uri.normalize_into_split(input, out)?;
            let n = &out[start..];
            // The parser's components when the input was already normal
            // (most bulk input): the fragment and the origin without a scan.
            let (k, frag, first) = match meta {
                Some(m) => {
                    let end = m.fragment(n).map_or(n.len(), |f| n.len() - f.len() - 1);
                    let k = &n[..end];
                    if may_be_rq(m.query(n)) {
                        // A URN's components, maybe (rare: out of line).
                        return self.write_from_rung2(start, out);
                    }
                    let o = m
                        .authority(n)
                        .and(m.scheme(n))
                        .map(|_| &n[..m.path_start as usize]);
                    (k, &n[end..], self.next_key(k, o))
                }
                None => {
                    let (k, frag) = n.split_at(fragment_start(n));
                    if may_be_rq(query_of(k)) {
                        return self.write_from_rung2(start, out);
                    }
                    (k, frag, self.next_key(k, origin(k)))
                }
            };
            let Some(first) = first else {
                return Ok(());
            };
            let mut s = self.end_after(k, first);
            let frag = self.inherited(k, &s, frag);
            s.push_str(frag);
            out.truncate(start);
            out.push_str(&s);
            return Ok(());
        }
        let n = self.uri.normalize(input)?;
        self.write_rung3(&n, out)
    }

    /// `out[start..]`, rung 2's `uri` text, replaced by its rung-3 normal
    /// form (the general path of [`Protocol::normalize_into`]).
    #[cold]
    fn write_from_rung2(&self, start: usize, out: &mut String) -> Result<(), ParseError> {
        let n = out.split_off(start);
        self.write_rung3(&n, out)
    }

    /// The rung-3 normal form of `n`, a rung-2 `uri` text, appended to
    /// `out` in the normalizer's form.
    fn write_rung3(&self, n: &str, out: &mut String) -> Result<(), ParseError> {
        let (k, frag) = n.split_at(fragment_start(n));
        let k = self.lookup_key(k);
        // Fast path: no edge from the rung-2 key: rung 2's answer, without
        // building a chain.
        let Some(first) = self.next_key(&k, origin(&k)) else {
            match &self.iri {
                None => out.push_str(n),
                Some(iri) => out.push_str(&iri.normalize(n)?),
            }
            return Ok(());
        };
        let mut s = self.end_after(&k, first);
        let frag = self.inherited(&k, &s, frag);
        s.push_str(frag);
        match &self.iri {
            None => out.push_str(&s),
            Some(iri) => out.push_str(&iri.normalize(&s)?),
        }
        Ok(())
    }

    /// The rung-3 comparison key: the rung-2 key of the end of the chain.
    pub fn key_into(&self, input: &str, out: &mut String) -> Result<(), ParseError> {
        let n = self.uri.normalize(input)?;
        let (k, frag) = n.split_at(fragment_start(&n));
        let k = self.lookup_key(k);
        let Some(first) = self.next_key(&k, origin(&k)) else {
            return self.uri.key_into(&n, out);
        };
        let mut s = self.end_after(&k, first);
        let frag = self.inherited(&k, &s, frag);
        s.push_str(frag);
        self.uri.key_into(&s, out)
    }

    /// [`Protocol::key_into`] in a new string.
    pub fn key(&self, input: &str) -> Result<String, ParseError> {
        let mut s = String::new();
        self.key_into(input, &mut s)?;
        Ok(s)
    }

    /// Compares `a` and `b`: the lowest ladder rung at which they are
    /// equal, else rung 3 with both chains, else different.
    pub fn compare(&self, a: &str, b: &str) -> Result<Verdict, CompareError> {
        if let Some(r) = self.uri.compare(a, b)? {
            return Ok(Verdict::Ladder(r));
        }
        let ca = self.chain(a).map_err(|error| CompareError {
            side: Side::A,
            error,
        })?;
        let cb = self.chain(b).map_err(|error| CompareError {
            side: Side::B,
            error,
        })?;
        let (ka, kb) = (
            self.key(a).map_err(|error| CompareError {
                side: Side::A,
                error,
            })?,
            self.key(b).map_err(|error| CompareError {
                side: Side::B,
                error,
            })?,
        );
        Ok(if ka == kb {
            Verdict::Protocol(Box::new((ca, cb)))
        } else {
            Verdict::Different(Box::new((ca, cb)))
        })
    }
}

#[cfg(test)]
mod tests;
