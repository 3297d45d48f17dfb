//! Applying a rule set to a normalized reference, in the fixed order of
//! [`RuleName::ORDER`]: scheme, userinfo, host, path, query, fragment.
//!
//! Every rule works on the components of the reference as bytes: nothing
//! is decoded or re-encoded (a parameter named `a%3Db` stays so; `%2F` is
//! never a slash). Host and path rules need an authority (`//host`), so a
//! rule never changes the structure of a reference. Within the host, path
//! and query sections the rules are repeated until nothing changes, which
//! makes every combination idempotent (removing `www.` twice from
//! `www.www.example.com`, a trailing slash exposing `index.html`...);
//! a section is only repeated when it changed something, so the common
//! case costs one pass.

use std::borrow::Cow;

use irinorm::host::{parse_ipv4, parse_ipv4_forms, HostKind};
use irinorm::ladder::Rung;
use irinorm::{split_trusted, Meta};

use crate::config::Config;
use crate::glob::{self, NameIndex, ParamPrefixes};
use crate::host_rules::{Comps, HostIndex, Note};
use crate::name_order::cmp_names;
use crate::query_filter::{self, QueryFilter};
use crate::query_section;
use crate::rule::{RuleName, RuleSet};

/// A rule that fired, with the component it changed (for `explain`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fired {
    /// The rule.
    pub rule: RuleName,
    /// The component's text before.
    pub before: String,
    /// The component's text after.
    pub after: String,
    /// For `host-rules`: which host rule (`substitute "a" -> "b"`).
    pub note: Option<String>,
    /// For `host-rules`: the rule was written by `irinorm learn`.
    pub learned: bool,
}

/// The components of a reference being rewritten.
#[derive(Clone, Debug)]
struct Url<'a> {
    scheme: Option<Cow<'a, str>>,
    userinfo: Option<Cow<'a, str>>,
    host: Option<Cow<'a, str>>,
    host_kind: HostKind,
    port: Option<Cow<'a, str>>,
    path: Cow<'a, str>,
    query: Option<Cow<'a, str>>,
    fragment: Option<Cow<'a, str>>,
}

impl<'a> Url<'a> {
    /// The components of `s`, found by `m` (from the parser, or from
    /// [`split_trusted`]).
    fn of(s: &'a str, m: &Meta) -> Self {
        Url {
            scheme: m.scheme(s).map(Cow::Borrowed),
            userinfo: m.userinfo(s).map(Cow::Borrowed),
            host: m.host(s).map(Cow::Borrowed),
            host_kind: m.host_kind(),
            port: m.port(s).map(Cow::Borrowed),
            path: Cow::Borrowed(m.path(s)),
            query: m.query(s).map(Cow::Borrowed),
            fragment: m.fragment(s).map(Cow::Borrowed),
        }
    }

    fn recompose(&self, out: &mut String) {
        if let Some(s) = &self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(h) = &self.host {
            out.push_str("//");
            if let Some(u) = &self.userinfo {
                out.push_str(u);
                out.push('@');
            }
            out.push_str(h);
            if let Some(p) = &self.port {
                out.push(':');
                out.push_str(p);
            }
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

    fn scheme_is(&self, names: &[&str]) -> bool {
        self.scheme
            .as_deref()
            .is_some_and(|s| names.iter().any(|n| s.eq_ignore_ascii_case(n)))
    }

    /// A name host (not an IP literal), where host rules apply.
    fn name_host(&self) -> Option<&str> {
        match self.host_kind {
            HostKind::RegName | HostKind::Ipv4 => self.host.as_deref(),
            _ => None,
        }
    }

    /// A hierarchical path after an authority, where path rules apply.
    fn web_path(&self) -> bool {
        self.host.is_some() && self.path.starts_with('/')
    }
}

/// What the rule functions need besides the URL.
struct Env<'c> {
    config: &'c Config,
    names: &'c Names,
    rung: Rung,
    /// What `host-rules` fired, when tracing.
    notes: Option<core::cell::RefCell<Vec<Note>>>,
}

/// The parameter-name lists of a [`Config`], indexed by first byte (what a
/// [`crate::Pipeline`] builds once).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub(crate) query_params: NameIndex,
    /// `query_params` as prefixes, when its patterns allow it.
    pub(crate) query_prefixes: Option<ParamPrefixes>,
    /// `query_params` compiled for [`query_filter::filter`], when its
    /// patterns allow it (the default list does): the in-place path's
    /// filter after the screen's first removed parameter (issue 14,
    /// round 6).
    pub(crate) query_filter: Option<QueryFilter>,
    pub(crate) session_ids: NameIndex,
    /// `session_ids` as prefixes, when its patterns allow it (the default
    /// list does), with the query tables: the one-pass query section's
    /// judge ([`query_section::run`]; a set with remove-query-params and
    /// another query rule: `aggressive`).
    pub(crate) session_prefixes: Option<ParamPrefixes>,
    pub(crate) host_rules: HostIndex,
    /// What `force-http` and `force-https` need of the normalizer's scheme
    /// registry ([`SchemeSwitch`]): the built-in one unless a
    /// [`crate::Pipeline`] says otherwise.
    pub(crate) switch: SchemeSwitch,
}

/// Rung 2's rules for the scheme `force-http` / `force-https` switch to
/// (`http`, `https`), from the normalizer's scheme registry, which a
/// caller may change (`--schemes`, docs/schemes.md): its default port
/// (RFC 3986 §6.2.3, as text) and whether an empty path after an
/// authority is `/` (`empty_path_is_root`, RFC 3986 §6.2.3). Round 16
/// (docs/testing.md): the switch removed `80` / `443` whatever the
/// registry said, so that with `http`'s default port 8080 `https://a:8080/`
/// became `http://a:8080/`, which rung 2 makes `http://a/` (invariant 1),
/// and `https://a:80/` became `http://a/` (another port); and with `http`
/// forgotten, `http://a` became `https://a`, which rung 2 makes
/// `https://a/`. A switch between two schemes whose hosts rung 2 treats
/// differently (one unknown to the registry, or only one with a DNS host
/// under UTS #46) is refused (`same_hosts`): the rules know no UTS #46,
/// so `https://xn--bcher-kva.example/a` with `http` forgotten would have
/// become `http://bücher.example/a` in the `iri` form and
/// `http://b%C3%BCcher.example/a` in the `uri` form (invariants 1 and 5).
#[derive(Clone, Debug)]
pub(crate) struct SchemeSwitch {
    /// `http`, then `https`: (default port, empty path is root).
    to: [(Option<Box<str>>, bool); 2],
    /// Both schemes are in the registry, with the same host treatment.
    same_hosts: bool,
}

impl Default for SchemeSwitch {
    fn default() -> Self {
        SchemeSwitch::of(&irinorm::scheme::SchemeRegistry::builtin())
    }
}

impl SchemeSwitch {
    pub(crate) fn of(schemes: &irinorm::scheme::SchemeRegistry) -> Self {
        let (http, https) = (schemes.get("http"), schemes.get("https"));
        let rules = |info: Option<&irinorm::scheme::SchemeInfo>| {
            info.map_or((None, false), |i| {
                (
                    i.default_port.map(|p| p.to_string().into_boxed_str()),
                    i.empty_path_is_root,
                )
            })
        };
        SchemeSwitch {
            to: [rules(http), rules(https)],
            same_hosts: matches!((http, https), (Some(a), Some(b)) if a.dns_host == b.dns_host),
        }
    }
}

impl Names {
    /// The names of `config`; the in-place path's two query tables
    /// (`query_prefixes`, `query_filter`) only with `query_tables`: they
    /// are read by `remove-query-params` alone ([`query_in_place_set`]),
    /// and the query filter's table costs about 26,000 instructions to
    /// build by callgrind (round 6's 11,800 and issue 14 round 7's 14,300
    /// more), which a pipeline without the rule (`rfc`, `fetch`) need not
    /// pay, nor [`apply`], which builds its names per call and goes
    /// through [`apply_split`].
    pub(crate) fn new(config: &Config, query_tables: bool) -> Self {
        Names::with_schemes(
            config,
            query_tables,
            &irinorm::scheme::SchemeRegistry::builtin(),
        )
    }

    /// [`Names::new`] for a pipeline whose scheme registry is `schemes`:
    /// `force-http(s)` ([`SchemeSwitch`]) and the host rules
    /// ([`crate::host_rules::HostSchemes`]) resolve what they need of it
    /// once, here (round 17: the host rules saw the built-in registry).
    pub(crate) fn with_schemes(
        config: &Config,
        query_tables: bool,
        schemes: &irinorm::scheme::SchemeRegistry,
    ) -> Self {
        Names {
            query_params: NameIndex::new(&config.query_params),
            query_prefixes: query_tables
                .then(|| ParamPrefixes::new(&config.query_params))
                .flatten(),
            query_filter: query_tables
                .then(|| QueryFilter::new(&config.query_params))
                .flatten(),
            session_ids: NameIndex::new(&config.session_ids),
            session_prefixes: query_tables
                .then(|| ParamPrefixes::new(&config.session_ids))
                .flatten(),
            host_rules: HostIndex::with_schemes(&config.host_rules, schemes),
            switch: SchemeSwitch::of(schemes),
        }
    }

    /// Whether the in-place path's query tables were built.
    #[cfg(test)]
    pub(crate) fn has_query_tables(&self) -> bool {
        self.query_prefixes.is_some() || self.query_filter.is_some()
    }
}

/// Applies `rules` to `s` (a reference normalized at `rung`). Returns the
/// new text, or `None` when no rule changed anything. Names of the rules
/// that fired go to `applied`; with `trace`, their before/after too.
pub fn apply(
    s: &str,
    rules: RuleSet,
    config: &Config,
    rung: Rung,
    applied: &mut Vec<RuleName>,
    trace: Option<&mut Vec<Fired>>,
) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    let names = Names::new(config, false);
    apply_split(
        s,
        &split_trusted(s),
        rules,
        config,
        &names,
        rung,
        applied,
        trace,
    )
}

/// [`apply`] with the components of `s` already known (`m` describes `s`:
/// from the parser, or from [`split_trusted`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_split(
    s: &str,
    m: &Meta,
    rules: RuleSet,
    config: &Config,
    names: &Names,
    rung: Rung,
    applied: &mut Vec<RuleName>,
    trace: Option<&mut Vec<Fired>>,
) -> Option<String> {
    use RuleName as R;
    if rules.is_empty() {
        return None;
    }
    // Rules that hold for most references (any name host, any path not
    // ending in `/`) make the screen a waste: it would pass anyway.
    if rules.contains(R::HostRules) && trace.is_none() {
        // The host rules' own screen is their lookup; when a named rule
        // may fire, the screen of the whole set would pass too.
        if let Some(done) = host_rules_only(s, m, rules, config, names, rung) {
            if done.is_some() {
                applied.push(R::HostRules);
            }
            debug_assert_eq!(
                done,
                apply_all(s, m, rules, config, names, rung, &mut Vec::new(), None),
                "host_rules_only differs for {s:?} with {rules:?}"
            );
            return done;
        }
        return apply_all(s, m, rules, config, names, rung, applied, trace);
    }
    let broad = is_broad(rules);
    if !broad && !may_apply(s, m, rules, config, names) {
        debug_assert!(
            apply_all(s, m, rules, config, names, rung, &mut Vec::new(), None).is_none(),
            "may_apply is wrong for {s:?} with {rules:?}"
        );
        return None;
    }
    apply_all(s, m, rules, config, names, rung, applied, trace)
}

/// Rules that hold for most references (any name host, any path not
/// ending in `/`): the screen would pass anyway.
pub(crate) fn is_broad(rules: RuleSet) -> bool {
    use RuleName as R;
    rules.contains(R::AddWww)
        || rules.contains(R::AddTrailingSlash)
        || rules.contains(R::RemoveDirectoryIndex)
}

/// The common case of a learned rules file (issue 11): the host has
/// rules, and no named rule of the set can fire, before the host rules
/// (the screen, on the text as it is) nor after them (the screen again, on
/// the rewritten components). Then [`apply_all`] would run every section
/// for nothing but the host rules and return their result: this returns
/// it without the sections, the text built again and split again.
/// `Some(None)`: nothing changed; `None`: a named rule may fire, so the
/// caller runs [`apply_all`].
fn host_rules_only(
    s: &str,
    m: &Meta,
    rules: RuleSet,
    config: &Config,
    names: &Names,
    rung: Rung,
) -> Option<Option<String>> {
    let named = rules.without(RuleName::HostRules);
    if is_broad(named) || may_apply(s, m, named, config, names) {
        return None;
    }
    let mut u = Url::of(s, m);
    let env = Env {
        config,
        names,
        rung,
        notes: None,
    };
    if !host_rules(&mut u, &env) {
        return Some(None);
    }
    if may_apply_to(&u, named, config, names) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    u.recompose(&mut out);
    Some((out != s).then_some(out))
}

/// Whether some rule of `rules` may change `s` (components `m`): for each
/// rule a necessary condition for it to fire, on the text as it is, cheap
/// and without taking the reference apart. When none holds, no rule fires
/// in the first pass of any section, so nothing changes at all: `false`
/// proves that [`apply_split`] returns `None` (debug builds check it).
/// Most references meet no rule of a preset (`crawler`: no fragment, no
/// trailing host dot, no numeric host, no tracking parameter).
pub(crate) fn may_apply(s: &str, m: &Meta, rules: RuleSet, config: &Config, names: &Names) -> bool {
    may_apply_to(&Split(s, m), rules, config, names)
}

/// The components [`may_apply_to`] looks at: of a text and its [`Meta`],
/// or of a [`Url`] being rewritten (no text to build and split again).
pub(crate) trait View {
    fn scheme(&self) -> Option<&str>;
    fn userinfo(&self) -> Option<&str>;
    fn host(&self) -> Option<&str>;
    fn host_kind(&self) -> HostKind;
    fn path(&self) -> &str;
    fn query(&self) -> Option<&str>;
    fn fragment(&self) -> Option<&str>;
}

/// A text with its components.
struct Split<'s>(&'s str, &'s Meta);

impl View for Split<'_> {
    fn scheme(&self) -> Option<&str> {
        self.1.scheme(self.0)
    }
    fn userinfo(&self) -> Option<&str> {
        self.1.userinfo(self.0)
    }
    fn host(&self) -> Option<&str> {
        self.1.host(self.0)
    }
    fn host_kind(&self) -> HostKind {
        self.1.host_kind()
    }
    fn path(&self) -> &str {
        self.1.path(self.0)
    }
    fn query(&self) -> Option<&str> {
        self.1.query(self.0)
    }
    fn fragment(&self) -> Option<&str> {
        self.1.fragment(self.0)
    }
}

impl View for Url<'_> {
    fn scheme(&self) -> Option<&str> {
        self.scheme.as_deref()
    }
    fn userinfo(&self) -> Option<&str> {
        self.userinfo.as_deref()
    }
    fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }
    fn host_kind(&self) -> HostKind {
        self.host_kind
    }
    fn path(&self) -> &str {
        &self.path
    }
    fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }
    fn fragment(&self) -> Option<&str> {
        self.fragment.as_deref()
    }
}

/// [`may_apply`] on any [`View`].
pub(crate) fn may_apply_to(m: &impl View, rules: RuleSet, config: &Config, names: &Names) -> bool {
    use RuleName as R;
    // One test per rule of the set, straight-line, each component sliced
    // only when a rule of the set looks at it.
    let has = |r: RuleName| rules.contains(r);
    if has(R::RemoveFragment) && m.fragment().is_some() {
        return true;
    }
    let scheme_is = |n: &str| m.scheme().is_some_and(|x| x.eq_ignore_ascii_case(n));
    if (has(R::ForceHttp) && scheme_is("https")) || (has(R::ForceHttps) && scheme_is("http")) {
        return true;
    }
    if let Some(h) = m.host() {
        let kind = m.host_kind();
        let reg_name = kind == HostKind::RegName;
        let first_digit = h.as_bytes().first().is_some_and(u8::is_ascii_digit);
        if (has(R::RemoveUserinfo) && m.userinfo().is_some())
            || (has(R::RemoveTrailingHostDot)
                && matches!(kind, HostKind::RegName | HostKind::Ipv4)
                && h.ends_with('.'))
            || (has(R::DecodeIpv4Forms)
                && reg_name
                && first_digit
                && (scheme_is("http") || scheme_is("https")))
            || (has(R::IpToHost)
                && matches!(kind, HostKind::Ipv4 | HostKind::Ipv6)
                && !config.ip_to_host.is_empty())
            || (has(R::RemoveWww)
                && reg_name
                && h.len() > 4
                && h.as_bytes()[..4].eq_ignore_ascii_case(b"www."))
            || (has(R::AddWww) && reg_name)
            || (has(R::LowercasePath) && !config.case_insensitive_hosts.is_empty())
            || (has(R::HostRules)
                && matches!(kind, HostKind::RegName | HostKind::Ipv4)
                && names.host_rules.has_host(h))
        {
            return true;
        }
        const PATH_RULES: [RuleName; 5] = [
            R::RemoveDuplicateSlashes,
            R::RemoveSessionIds,
            R::RemoveDirectoryIndex,
            R::AddTrailingSlash,
            R::RemoveTrailingSlash,
        ];
        if PATH_RULES.iter().any(|&r| has(r)) {
            let path = m.path();
            if path.starts_with('/')
                && ((has(R::RemoveDuplicateSlashes) && path.contains("//"))
                    || (has(R::RemoveSessionIds) && (path.contains(';') || path.contains("/(")))
                    || ((has(R::RemoveDirectoryIndex) || has(R::AddTrailingSlash))
                        && !path.ends_with('/'))
                    || (has(R::RemoveTrailingSlash) && path.len() > 1 && path.ends_with('/')))
            {
                return true;
            }
        }
        if has(R::RemoveDefaultQueryParams)
            && !config.default_params.is_empty()
            && m.query().is_some_and(|q| !q.is_empty())
        {
            return true;
        }
    }
    const QUERY_RULES: [RuleName; 4] = [
        R::RemoveSessionIds,
        R::RemoveQueryParams,
        R::SortQuery,
        R::RemoveEmptyQuery,
    ];
    if !QUERY_RULES.iter().any(|&r| has(r)) {
        return false;
    }
    let Some(q) = m.query() else {
        return false;
    };
    (has(R::RemoveEmptyQuery) && q.is_empty())
        || (!q.is_empty()
            && (has(R::RemoveSessionIds)
                || (has(R::SortQuery) && q.contains('&'))
                || (has(R::RemoveQueryParams) && any_param_name(q, &names.query_params))))
}

/// Whether the name of some `&`-separated parameter of `q` (the bytes
/// before its first `=`) is in `names`: [`param_name`] on each part of
/// `q.split('&')`, on bytes.
fn any_param_name(q: &str, names: &NameIndex) -> bool {
    let mut rest = q.as_bytes();
    loop {
        let end = memchr::memchr(b'&', rest).unwrap_or(rest.len());
        let param = &rest[..end];
        let name = param
            .iter()
            .position(|&c| c == b'=')
            .map_or(param, |e| &param[..e]);
        if names.matches_bytes(name) {
            return true;
        }
        if end == rest.len() {
            return false;
        }
        rest = &rest[end + 1..];
    }
}

/// The rules of a set that [`query_in_place`] can apply on its own:
/// `remove-query-params` and `remove-fragment`. When the set holds
/// `remove-query-params`, no other rule of the query section and no host
/// rules, and [`may_apply`] proves that the set's other rules do not fire,
/// the only changes are the filtered query and the dropped fragment: the
/// sections before the query look at scheme, userinfo, host and path, which
/// the query rules do not change, and their first pass changes nothing.
pub(crate) fn query_in_place_set(rules: RuleSet) -> Option<RuleSet> {
    use RuleName as R;
    let fast = rules.contains(R::RemoveQueryParams)
        && ![
            R::RemoveSessionIds,
            R::RemoveDefaultQueryParams,
            R::SortQuery,
            R::RemoveEmptyQuery,
            R::HostRules,
            R::AddWww,
            R::AddTrailingSlash,
            R::RemoveDirectoryIndex,
        ]
        .iter()
        .any(|&r| rules.contains(r));
    fast.then(|| {
        rules
            .without(R::RemoveQueryParams)
            .without(R::RemoveFragment)
    })
}

/// [`may_apply`] for the rules of `crawler` besides the query and fragment
/// (remove-trailing-host-dot, decode-ipv4-forms), inline: the same two
/// tests on the host, without the call and the walk over the other
/// rules, which cost a few percent of `crawler` on short URLs (issue 14).
/// Other sets go to [`may_apply`]. The reference is `out[start..]`: the
/// host is read as bytes at the ladder's offsets ([`Meta::host_offsets`]), a
/// test of its last and first byte, not sliced as a `str` (issue 14 round 9: the
/// `str` slices' char-boundary checks were a fifth of this glue on `len
/// 161+`).
#[inline(always)]
fn others_may_apply(
    out: &str,
    start: usize,
    m: &Meta,
    others: RuleSet,
    config: &Config,
    names: &Names,
    host_plain: bool,
) -> bool {
    use RuleName as R;
    let host_only = others
        .without(R::RemoveTrailingHostDot)
        .without(R::DecodeIpv4Forms)
        .is_empty();
    if !host_only {
        return may_apply(&out[start..], m, others, config, names);
    }
    // A host known plain (the caller's: the learned rules' table keys it
    // by these bytes) has neither a final `.` nor a leading digit: both
    // tests below fail on it (issue 11, round 20).
    if host_plain {
        return false;
    }
    // The host's offsets alone: `Meta::offsets` is not inlined into the
    // learned rules' fused path (a call of ~46 instructions per URL there).
    let Some((hs, he)) = m.host_offsets() else {
        return false;
    };
    let kind = m.host_kind();
    if !matches!(kind, HostKind::RegName | HostKind::Ipv4) || hs >= he {
        return false;
    }
    // The host's first and last byte, read where they are in `out`.
    let b = out.as_bytes();
    let (Some(&first), Some(&last)) = (b.get(start + hs), b.get(start + he - 1)) else {
        return false;
    };
    (others.contains(R::RemoveTrailingHostDot) && last == b'.')
        || (others.contains(R::DecodeIpv4Forms)
            && kind == HostKind::RegName
            && first.is_ascii_digit()
            // The last part of such a form is a number (`0x` hexadecimal,
            // possibly with no digits, or digits), after one trailing `.`
            // at most: its last byte a hex digit or `x`. Tested on the
            // byte already read, before the parse (issue 14 round 16: the
            // 9 digit-led hosts of `len 161+`, `4able.com.br` and
            // `153284594738391.statictab.com`, cost ~240 instructions each
            // in `parse_ipv4_forms` and `is_http_or_https`).
            && (last == b'.' || last.is_ascii_hexdigit() || last | 0x20 == b'x')
            && is_http_or_https(&b[start..], m)
            // The rule fires only on a host that reads as an IPv4 address
            // in some form: names that merely start with a digit
            // (`1drv.ms`, long phishing hosts) stay on the in-place path
            // instead of the general one (issue 14, round 2: `len 161+`).
            && parse_ipv4_forms(&b[start + hs..start + he]).is_some())
}

/// Whether the scheme of the reference `b` (components `m`) is `http` or
/// `https`, in any case (as `decode-ipv4-forms` asks).
fn is_http_or_https(b: &[u8], m: &Meta) -> bool {
    m.offsets()
        .scheme_end
        .and_then(|e| b.get(..e))
        .is_some_and(|x| x.eq_ignore_ascii_case(b"http") || x.eq_ignore_ascii_case(b"https"))
}

/// [`apply_split`] on `out[start..]` for a set accepted by
/// [`query_in_place_set`] (`others`: the set without the two rules it
/// applies), editing `out` in place: screening the query and removing its
/// tracking parameters is one pass, removed parameters are cut out of
/// `out` (no new string, no copy of the whole reference, no second parse).
/// Returns `false`, with `out` untouched, when another rule of the set may
/// fire: the caller then takes the general path. Same bytes and the same
/// `applied` as [`apply_split`] (a property test compares them; issue 14).
/// `host_plain`: the caller knows the host of `out[start..]` is plain
/// ([`crate::host_rules::plan::plain_host`]), so the screen of the host
/// for `remove-trailing-host-dot` and `decode-ipv4-forms` is skipped.
#[allow(clippy::too_many_arguments)]
#[inline(always)] // Two callers (the host rules' fused path): still inlined.
pub(crate) fn query_in_place(
    out: &mut String,
    start: usize,
    m: &Meta,
    rules: RuleSet,
    others: RuleSet,
    config: &Config,
    names: &Names,
    applied: &mut Vec<RuleName>,
    host_plain: bool,
) -> bool {
    if !others.is_empty() && others_may_apply(out, start, m, others, config, names, host_plain) {
        return false;
    }
    // Debug builds check every call against the general path. The rung
    // only matters to force-http(s), which the screen above excluded.
    #[cfg(debug_assertions)]
    let expected = expected_by_general_path(&out[start..], m, rules, config, names, applied);
    // Offsets in `out` (the ladder's, shifted by `start`; no slicing of
    // `text` again): `frag` is the fragment's `#`.
    let (query, frag) = m.query_fragment_offsets();
    if matches!(query, Some((1, _))) {
        // A query-only reference: the general path leaves its query alone
        // ([`query_only`]).
        return false;
    }
    let frag = frag.map(|f| start + f - 1);
    let query = query.map(|(a, b)| (start + a, start + b));
    let drop_fragment = frag.filter(|_| rules.contains(RuleName::RemoveFragment));
    if let Some(at) = drop_fragment {
        out.truncate(at);
    }
    if let Some((qs, qe)) = query {
        let filtered = match &names.query_prefixes {
            Some(pre) => filter_query_by_prefixes(
                out,
                qs,
                qe,
                pre,
                &names.query_params,
                names.query_filter.as_ref(),
            ),
            None => filter_query_in_place(out, qs, qe, &names.query_params),
        };
        if filtered && !applied.contains(&RuleName::RemoveQueryParams) {
            applied.push(RuleName::RemoveQueryParams);
        }
    }
    if drop_fragment.is_some() && !applied.contains(&RuleName::RemoveFragment) {
        applied.push(RuleName::RemoveFragment);
    }
    #[cfg(debug_assertions)]
    assert_eq!(
        (&out[start..], &applied[..]),
        (expected.0.as_str(), &expected.1[..]),
        "query_in_place differs from apply_split"
    );
    true
}

/// The tests of [`query_in_place`] on the rule set and the names that
/// every URL paid (whether the set has rules, a fused path, the in-place
/// set, which host rules, the query tables: ~25 instructions a URL on
/// `len 161+`), folded once when the pipeline is built (issue 14 round
/// 17): `Some` when [`quick_in_place`] can take `crawler`'s common case,
/// with the two host rules it must screen for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Quick {
    /// `remove-trailing-host-dot` is in the set.
    dot: bool,
    /// `decode-ipv4-forms` is in the set.
    ipv4: bool,
}

impl Quick {
    /// The quick path for `rules` (with `fused`, the host rules' fused
    /// path, there is none): the in-place set ([`query_in_place_set`])
    /// whose other rules are at most the two host rules
    /// [`others_may_apply`] tests on the host's bytes, with both query
    /// tables built (the default list).
    pub(crate) fn of(rules: RuleSet, fused: bool, names: &Names) -> Option<Quick> {
        use RuleName as R;
        let others = query_in_place_set(rules)?;
        let host_only = others
            .without(R::RemoveTrailingHostDot)
            .without(R::DecodeIpv4Forms)
            .is_empty();
        (!fused && host_only && names.query_prefixes.is_some() && names.query_filter.is_some())
            .then_some(Quick {
                dot: others.contains(R::RemoveTrailingHostDot),
                ipv4: others.contains(R::DecodeIpv4Forms),
            })
    }
}

/// [`query_in_place`] for a set with a [`Quick`] path, on the common case
/// (a `Meta`, an authority whose host is a name or an IPv4 address, no
/// fragment): the host screened on its first and last byte as
/// [`others_may_apply`] does, then the query screened by
/// [`query_filter::screen`], read-only; only a query with a parameter
/// that goes calls [`quick_cut`], out of line. Returns `false`, with
/// `out` untouched, for the rest (the caller's general path, which tests
/// again from the start: a host that may change, a fragment, no
/// authority). Issue 14 round 17: the URLs that leave early (no query,
/// no candidate: 347 of `len 161+`'s 353) paid the frame of the whole
/// rules stage (six saved registers) and its tests on the rule set; now
/// they pay this screen's.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn quick_in_place(
    out: &mut String,
    start: usize,
    m: &Meta,
    quick: Quick,
    f: &QueryFilter,
    rules: RuleSet,
    config: &Config,
    names: &Names,
    applied: &mut Vec<RuleName>,
) -> bool {
    let (query, None) = m.query_fragment_offsets() else {
        return false;
    };
    let b = out.as_bytes();
    let kind = m.host_kind();
    // `others_may_apply`'s tests before its slow ones, in its order (no
    // authority, another kind of host, an empty host: no host rule
    // applies): a host that passes them goes to the general path, which
    // tests it again in full.
    if let Some((hs, he)) = m.host_offsets() {
        if matches!(kind, HostKind::RegName | HostKind::Ipv4) && hs < he {
            let Some(host) = b.get(start + hs..start + he) else {
                return false;
            };
            let (Some(&first), Some(&last)) = (host.first(), host.last()) else {
                return false;
            };
            if (quick.dot && last == b'.')
                || (quick.ipv4
                    && kind == HostKind::RegName
                    && first.is_ascii_digit()
                    && (last == b'.' || last.is_ascii_hexdigit() || last | 0x20 == b'x'))
            {
                return false;
            }
        }
    }
    if matches!(query, Some((1, _))) {
        // A query-only reference: the general path leaves its query alone
        // ([`query_only`]).
        return false;
    }
    #[cfg(debug_assertions)]
    let expected = expected_by_general_path(&out[start..], m, rules, config, names, applied);
    #[cfg(not(debug_assertions))]
    let _ = (rules, config);
    if let Some((qs, qe)) = query {
        let (qs, qe) = (start + qs, start + qe);
        if let Some(at) = query_filter::screen(b, qs, qe, f) {
            quick_cut(out, qs, qe, f, names, at, applied);
        }
    }
    #[cfg(debug_assertions)]
    assert_eq!(
        (&out[start..], &applied[..]),
        (expected.0.as_str(), &expected.1[..]),
        "quick_in_place differs from apply_split"
    );
    true
}

/// What the general path ([`apply_split`]) makes of `text`, and the rules
/// it fires: the debug builds' check of the in-place paths. The rung only
/// matters to force-http(s), which both in-place paths exclude.
#[cfg(debug_assertions)]
fn expected_by_general_path(
    text: &str,
    m: &Meta,
    rules: RuleSet,
    config: &Config,
    names: &Names,
    applied: &[RuleName],
) -> (String, Vec<RuleName>) {
    let mut fired = applied.to_vec();
    let new = apply_split(
        text,
        m,
        rules,
        config,
        names,
        Rung::Scheme,
        &mut fired,
        None,
    );
    (new.unwrap_or_else(|| text.to_owned()), fired)
}

/// [`quick_in_place`]'s cuts from `at`, the start of the first parameter
/// that goes: [`query_filter::filter`], or past its limits round 5's
/// screen and filter, as [`filter_query_by_prefixes`] does. Out of line:
/// its frame is paid by the queries that lose a parameter only.
#[inline(never)]
fn quick_cut(
    out: &mut String,
    qs: usize,
    qe: usize,
    f: &QueryFilter,
    names: &Names,
    at: usize,
    applied: &mut Vec<RuleName>,
) {
    let filtered = match query_filter::filter(out, qs, qe, f, at) {
        Some(filtered) => filtered,
        None => match &names.query_prefixes {
            Some(pre) => screen_by_prefixes(out, qs, qe, pre, &names.query_params, Some(f)),
            None => filter_query_in_place(out, qs, qe, &names.query_params),
        },
    };
    if filtered && !applied.contains(&RuleName::RemoveQueryParams) {
        applied.push(RuleName::RemoveQueryParams);
    }
}

/// [`filter_query_in_place`] for a list of plain names and `n*` (the
/// default list). When the list compiles to round 6's judge (`fast`), the
/// one-pass filter [`query_filter::filter_query`] does it all (issue 14,
/// round 8: its own screen mode, no second reading); what follows is the
/// fallback for other lists and for queries past its limits, in two
/// parts. Here, inline: the screen, read-only, until
/// the first parameter that goes; most queries have none, and then this is
/// all (no frame for the cuts, no bookkeeping per parameter: the fixed
/// cost per URL of `crawler` on short URLs and the cost per parameter on
/// long ones; issue 14, round 4). The query is read 64 bytes at a time,
/// the `&` of each block visited through its bit mask (an SSE2 compare per
/// 16 bytes, `irinorm_simd::eq_mask64`: no search per parameter), and each
/// parameter judged at its start by [`ParamPrefixes::matches_at`], which
/// needs no end. At the first parameter that goes, [`filter_query_blocks`]
/// takes over from it.
#[inline(always)]
fn filter_query_by_prefixes(
    out: &mut String,
    qs: usize,
    qe: usize,
    pre: &ParamPrefixes,
    names: &NameIndex,
    fast: Option<&QueryFilter>,
) -> bool {
    if qs == qe {
        return false;
    }
    // The one-pass filter from the query's start (round 8), no screen;
    // past its limits, the screen and round 5's filter.
    // No closure (`fast.and_then(..)`): with `filter_query` split into
    // `query_filter::screen` and `filter` (issue 14 round 17) the closure
    // stayed a call of its own on the learned rules' fused path (+1.4%
    // instructions there, callgrind).
    if let Some(f) = fast {
        if let Some(filtered) = query_filter::filter_query(out, qs, qe, f) {
            return filtered;
        }
    }
    screen_by_prefixes(out, qs, qe, pre, names, fast)
}

/// [`filter_query_by_prefixes`] past the one-pass filter's limits (other
/// lists, more than [`query_filter::MAX_PARAMS`] parameters): round 5's
/// screen. Apart (issue 14 round 9): inlined, its state took registers from the
/// one-pass filter's loop, which then spilled the judge's hash constants.
#[inline(never)]
fn screen_by_prefixes(
    out: &mut String,
    qs: usize,
    qe: usize,
    pre: &ParamPrefixes,
    names: &NameIndex,
    fast: Option<&QueryFilter>,
) -> bool {
    let q = &out.as_bytes()[qs..qe];
    if pre.matches_at(q, 0) {
        return filter_query_from(out, qs, qe, pre, names, fast, 0);
    }
    let mut base = 0;
    let mut amps = irinorm_simd::eq_mask64(q, 0, b'&');
    loop {
        while amps != 0 {
            let at = base + amps.trailing_zeros() as usize + 1;
            if pre.matches_at(q, at) {
                return filter_query_from(out, qs, qe, pre, names, fast, at);
            }
            amps &= amps - 1;
        }
        base += 64;
        if base >= q.len() {
            return false;
        }
        amps = irinorm_simd::eq_mask64(q, base, b'&');
    }
}

/// The filter from `from`, the first parameter that goes: the judge of
/// every parameter ([`query_filter::filter`], round 6) when the list
/// compiles to it, else (or past its limits) [`filter_query_blocks`].
#[inline(always)]
fn filter_query_from(
    out: &mut String,
    qs: usize,
    qe: usize,
    pre: &ParamPrefixes,
    names: &NameIndex,
    fast: Option<&QueryFilter>,
    from: usize,
) -> bool {
    match fast.and_then(|f| query_filter::filter(out, qs, qe, f, from)) {
        Some(filtered) => filtered,
        None => filter_query_blocks(out, qs, qe, pre, names, from),
    }
}

/// The most `&` [`filter_query_blocks`] notes after the first parameter
/// that goes (with that parameter, one bit each of a `u64`), so that the
/// parameters' starts and the end fit an array of 64 `u16`: 128 bytes,
/// cleared inline (a longer one was a call of `memset`).
const MAX_AMPS: usize = 62;

/// [`filter_query_by_prefixes`] from `from`, the start of the first
/// parameter that goes (every one before it stays), in three steps without
/// a branch per parameter or per block but the loops' own (issue 14,
/// round 5: on `query-heavy` the exit of the loop over each block's `&`
/// was the filter's most mispredicted branch, and `replace_range` per cut
/// its most expensive call):
/// 1. where each parameter after `from` starts (after each `&`), in order,
///    into `starts`: each block of 64 bytes gives its mask, whose first four
///    positions are written without a branch (a fifth is rare: a loop);
/// 2. each later parameter judged at its start, the verdicts gathered in
///    one bit mask (`gone`, bit `i` for the parameter `i`, the one at
///    `from` being 0);
/// 3. each run of removed parameters cut as one range, from the end
///    backwards (the offsets noted stay right): with the `&` before it when
///    a kept parameter precedes it, else with the `&` after it; when
///    nothing is kept, the `?` goes too. The result is the kept parameters
///    joined by `&`, as [`filter_query_in_place`] gives (the unit test
///    `prefix_filter_equals_the_simple_one` compares them).
///
/// Past [`MAX_AMPS`] `&`, [`filter_query_in_place`] does it.
#[inline(never)]
fn filter_query_blocks(
    out: &mut String,
    qs: usize,
    qe: usize,
    pre: &ParamPrefixes,
    names: &NameIndex,
    from: usize,
) -> bool {
    let q = &out.as_bytes()[qs..qe];
    if q.len() >= usize::from(u16::MAX) {
        return filter_query_in_place(out, qs, qe, names);
    }
    // 1. Where each parameter starts (`starts[i]`, parameter 0 at `from`),
    // from the `&` of the block of `from` on, those before `from` left
    // out; `starts[n + 1]` is one past the end, as if an `&` followed.
    let mut starts = [0u16; 64];
    starts[0] = from as u16;
    let mut n = 0usize;
    let mut base = from - from % 64;
    let mut m = irinorm_simd::eq_mask64(q, base, b'&') & (u64::MAX << (from % 64));
    loop {
        // Four positions written whatever the mask holds, the count
        // advanced only past real ones (a write past them is overwritten
        // or never read; no population count, which baseline x86-64 does
        // in 17 instructions); a fifth `&` in 64 bytes takes the loop.
        // The index is taken modulo the array: no bounds check, and a
        // count past `MAX_AMPS` is refused below.
        for _ in 0..4 {
            let at = (base as u16).wrapping_add(m.trailing_zeros() as u16 + 1);
            starts[(n + 1) & 63] = at;
            n += usize::from(m != 0);
            m &= m.wrapping_sub(1);
        }
        while m != 0 {
            starts[(n + 1) & 63] = base as u16 + m.trailing_zeros() as u16 + 1;
            n += 1;
            m &= m - 1;
        }
        if n > MAX_AMPS {
            return filter_query_in_place(out, qs, qe, names);
        }
        base += 64;
        if base >= q.len() {
            break;
        }
        m = irinorm_simd::eq_mask64(q, base, b'&');
    }
    let len = q.len();
    starts[(n + 1) & 63] = len as u16 + 1;
    // 2. The verdicts: parameter 0 (at `from`) goes. A name of this query
    // has gone, so the next are judged without the empty-bucket exit: such
    // queries hold more (`query-heavy`: one name in three), and there the
    // predictor loses that branch.
    let mut gone = 1u64;
    for (i, &at) in starts[1..=n].iter().enumerate() {
        gone |= u64::from(pre.matches_at_unbranched(q, usize::from(at))) << (i + 1);
    }
    let keep = !gone & (u64::MAX >> (63 - n));
    if keep == 0 && from == 0 {
        out.replace_range(qs - 1..qe, "");
        return true;
    }
    // 3. The cuts, one per run of removed parameters, the last run first.
    // The run `lo..=hi` spans `starts[lo]..starts[hi + 1] - 1`; it goes
    // with the `&` before it when it has one (a kept parameter precedes
    // it, `starts[lo] > 0`), else with the `&` after it (the front run: a
    // kept parameter follows). Chosen without a branch.
    query_filter::cut_runs(out, qs, &starts, keep, gone);
    true
}

/// `remove-query-params` on the query `out[qs..qe]` (after its `?`), in
/// place: the same bytes as [`filter_query`] with the same names. A removed
/// parameter goes with the `&` after it, or, when it is the last one, with
/// the `&` before it (what precedes it then is kept parameters, each with
/// its `&`); the last parameter removed with nothing kept before it takes
/// the `?` along (the query was made only of what the rule removes). Kept
/// parameters keep the `&` between them, so the result is the kept ones
/// joined by `&`, empty ones included. Returns whether anything went.
pub(crate) fn filter_query_in_place(
    out: &mut String,
    qs: usize,
    mut qe: usize,
    names: &NameIndex,
) -> bool {
    if qs == qe {
        return false;
    }
    let mut changed = false;
    let mut at = qs;
    loop {
        let rest = &out.as_bytes()[at..qe];
        let end = memchr::memchr(b'&', rest).map_or(qe, |e| at + e);
        let param = &out.as_bytes()[at..end];
        let name = memchr::memchr(b'=', param).map_or(param, |e| &param[..e]);
        let last = end == qe;
        if names.matches_bytes(name) {
            changed = true;
            let cut = if !last {
                at..end + 1
            } else if at > qs {
                at - 1..end
            } else {
                qs - 1..end
            };
            qe -= cut.len();
            out.replace_range(cut, "");
            if last {
                return true;
            }
            // The next parameter now starts at `at`.
        } else {
            if last {
                return changed;
            }
            at = end + 1;
        }
    }
}

/// A rule's implementation.
/// One lifetime for both: a host rule's output may borrow from the rules
/// file (an alias's canonical host) as well as from the input.
type RuleFn = for<'x> fn(&mut Url<'x>, &Env<'x>) -> bool;

/// The rules in their fixed order of application, by section: scheme and
/// userinfo (one pass is a fixpoint), host, path and query (repeated until
/// nothing changes), fragment. The order is [`RuleName::ORDER`] (a test
/// checks it). `remove-session-ids` works in two sections: path
/// parameters with the path, query parameters with the query.
const SECTIONS: &[&[(RuleName, RuleFn)]] = {
    use RuleName as R;
    &[
        &[(R::ForceHttp, force_http)],
        &[(R::ForceHttps, force_https)],
        &[(R::RemoveUserinfo, remove_userinfo)],
        &[
            (R::RemoveTrailingHostDot, remove_trailing_host_dot),
            (R::DecodeIpv4Forms, decode_ipv4_forms),
            (R::IpToHost, ip_to_host),
            (R::RemoveWww, remove_www),
            (R::AddWww, add_www),
        ],
        &[
            (R::LowercasePath, lowercase_path),
            (R::RemoveDuplicateSlashes, remove_duplicate_slashes),
            (R::RemoveSessionIds, remove_session_path_params),
            (R::RemoveDirectoryIndex, remove_directory_index),
            (R::AddTrailingSlash, add_trailing_slash),
            (R::RemoveTrailingSlash, remove_trailing_slash),
        ],
        &[
            (R::RemoveSessionIds, remove_session_query_params),
            (R::RemoveQueryParams, remove_query_params),
            (R::RemoveDefaultQueryParams, remove_default_query_params),
            (R::SortQuery, sort_query),
            (R::RemoveEmptyQuery, remove_empty_query),
        ],
        &[(R::HostRules, host_rules)],
        &[(R::RemoveFragment, remove_fragment)],
    ]
};

/// Rules whose second application to their own output changes nothing
/// (each removes every parameter it matches, or sorts stably, in one
/// pass; what they look at outside the query does not change in their
/// section): a section with only one of them in the set needs one pass.
const IDEMPOTENT_ALONE: [RuleName; 4] = [
    RuleName::RemoveQueryParams,
    RuleName::RemoveDefaultQueryParams,
    RuleName::SortQuery,
    RuleName::RemoveEmptyQuery,
];

/// [`apply_split`] without the screen.
#[allow(clippy::too_many_arguments)]
fn apply_all<'x>(
    s: &'x str,
    m: &Meta,
    rules: RuleSet,
    config: &'x Config,
    names: &'x Names,
    rung: Rung,
    applied: &mut Vec<RuleName>,
    mut trace: Option<&mut Vec<Fired>>,
) -> Option<String> {
    let rules = if query_only(m) {
        QUERY_RULES.iter().fold(rules, |set, &r| set.without(r))
    } else {
        rules
    };
    let mut u = Url::of(s, m);
    let env = Env {
        config,
        names,
        rung,
        notes: trace.as_ref().map(|_| Default::default()),
    };
    // Several query rules, no host rules and no trace: the sections before
    // the query here, then the query section in one pass
    // (query_section.rs) and the fragment's, with the same text and the
    // same rules fired, in order, as the rules one by one. The trace's
    // before/after of each rule, and the rounds that host rules may start,
    // are the generic engine's.
    let one_pass =
        trace.is_none() && !rules.contains(RuleName::HostRules) && query_section::applies(rules);
    let sections = if one_pass {
        &SECTIONS[..QUERY_SECTION]
    } else {
        SECTIONS
    };
    let mut changed = false;
    let mut fire = |u: &mut Url<'x>, r: RuleName, f: RuleFn| -> bool {
        let before = trace.as_ref().map(|_| whole(u));
        if !f(u, &env) {
            return false;
        }
        if !applied.contains(&r) {
            applied.push(r);
        }
        if let (Some(t), Some(before)) = (trace.as_deref_mut(), before) {
            let notes: Vec<Note> = env
                .notes
                .as_ref()
                .map(|n| n.borrow_mut().drain(..).collect())
                .unwrap_or_default();
            if notes.is_empty() {
                t.push(Fired {
                    rule: r,
                    before,
                    after: whole(u),
                    note: None,
                    learned: false,
                });
            }
            for (note, learned, before, after) in notes {
                t.push(Fired {
                    rule: r,
                    before: with_whole_parts(u, before),
                    after: with_whole_parts(u, after),
                    note: Some(note),
                    learned,
                });
            }
        }
        true
    };
    // Each section runs its rules in order; a section of more than one
    // rule repeats while something changes (each rule only shortens its
    // component or is idempotent, so this stops quickly). Only the rules of
    // the set are called. When the host rules changed something (a host
    // alias, a substitution), the sections run again on their output, so
    // that the whole stays idempotent (issue 11).
    for _ in 0..4 {
        let mut host_rules_fired = false;
        for section in sections {
            // One pass is the fixpoint when the set has a single rule of
            // the section and that rule is idempotent on its own (the
            // crawler preset's query section: a second pass over a long
            // query found nothing, at the cost of the first; issue 14).
            let mut of_set = section.iter().filter(|(r, _)| rules.contains(*r));
            let single = match (of_set.next(), of_set.next()) {
                (Some((r, _)), None) => IDEMPOTENT_ALONE.contains(r),
                _ => false,
            };
            for _ in 0..if section.len() > 1 && !single { 8 } else { 1 } {
                let mut c = false;
                for &(r, f) in *section {
                    let fired = rules.contains(r) && fire(&mut u, r, f);
                    host_rules_fired |= fired && r == RuleName::HostRules;
                    c |= fired;
                }
                changed |= c;
                if !c {
                    break;
                }
            }
            #[cfg(debug_assertions)]
            if single {
                // The claim, checked: a second pass changes nothing.
                for &(r, f) in *section {
                    if rules.contains(r) {
                        let env = Env {
                            config,
                            names,
                            rung,
                            notes: None,
                        };
                        assert!(!f(&mut u.clone(), &env), "{r:?} is not idempotent");
                    }
                }
            }
        }
        if !host_rules_fired {
            break;
        }
        // The host rules are at their fixpoint and only remove-fragment runs
        // after them: another round is needed only when a named rule may
        // change their output (the screen says no for most URLs).
        let named = rules.without(RuleName::HostRules);
        if !is_broad(named) && !may_apply_to(&u, named, config, names) {
            break;
        }
    }
    if one_pass {
        changed |= query_section_in_one_pass(&mut u, rules, &env, applied);
        // The sections after the query: host-rules, not in the set, and
        // remove-fragment (a section of one rule: one pass).
        for &(r, f) in SECTIONS[QUERY_SECTION + 1..].iter().copied().flatten() {
            if rules.contains(r) && f(&mut u, &env) {
                if !applied.contains(&r) {
                    applied.push(r);
                }
                changed = true;
            }
        }
    }
    if !changed {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    u.recompose(&mut out);
    (out != s).then_some(out)
}

/// The index of the query section in [`SECTIONS`].
const QUERY_SECTION: usize = 5;

/// The query section of `rules` on `u` by [`query_section::run`], or past
/// its bound by the section's rules one by one ([`query_section_rules`]):
/// `u.query` rewritten, the rules that fired added to `applied`; whether
/// any fired. Debug builds check the one pass against the rules.
fn query_section_in_one_pass<'x>(
    u: &mut Url<'x>,
    rules: RuleSet,
    env: &Env<'x>,
    applied: &mut Vec<RuleName>,
) -> bool {
    let parts = query_section::Parts {
        host: u.host.as_deref(),
        path: &u.path,
        query: u.query.as_deref(),
    };
    let Some(done) = query_section::run(&parts, rules, env.config, env.names) else {
        let fired = query_section_rules(u, rules, env);
        add_fired(applied, fired);
        return !fired.is_empty();
    };
    #[cfg(debug_assertions)]
    let expected = {
        let mut v = u.clone();
        let fired = query_section_rules(&mut v, rules, env);
        (v.query.map(Cow::into_owned), fired)
    };
    match done.query {
        query_section::Query::Same => {}
        query_section::Query::Gone => u.query = None,
        query_section::Query::New(q) => u.query = Some(Cow::Owned(q)),
    }
    #[cfg(debug_assertions)]
    assert_eq!(
        (u.query.as_deref(), done.fired),
        (expected.0.as_deref(), expected.1),
        "the one-pass query section differs from the rules one by one"
    );
    add_fired(applied, done.fired);
    !done.fired.is_empty()
}

/// The query section's rules of `rules` on `u`, one by one until nothing
/// changes (as [`apply_all`] runs a section, without a trace): the rules
/// that fired.
fn query_section_rules<'x>(u: &mut Url<'x>, rules: RuleSet, env: &Env<'x>) -> RuleSet {
    let mut fired = RuleSet::EMPTY;
    for _ in 0..8 {
        let mut c = false;
        for &(r, f) in SECTIONS[QUERY_SECTION] {
            if rules.contains(r) && f(u, env) {
                // No query rule conflicts with another: this cannot fail.
                let _ = fired.insert(r);
                c = true;
            }
        }
        if !c {
            break;
        }
    }
    fired
}

/// Adds the rules of `fired` to `applied` in their order of application,
/// each once (as [`apply_all`] lists them).
fn add_fired(applied: &mut Vec<RuleName>, fired: RuleSet) {
    for r in fired.iter() {
        if !applied.contains(&r) {
            applied.push(r);
        }
    }
}

/// The rules that edit or remove the query, in their order of application
/// (also the one-pass section's, `query_section.rs`).
pub(crate) const QUERY_RULES: [RuleName; 5] = [
    RuleName::RemoveSessionIds,
    RuleName::RemoveQueryParams,
    RuleName::RemoveDefaultQueryParams,
    RuleName::SortQuery,
    RuleName::RemoveEmptyQuery,
];

/// Whether `m` is a query-only reference (`?q`, `?q#f`: no scheme,
/// authority or path), whose query the rules leave as the ladder wrote
/// it. Resolution takes such a reference's query in place of the base's,
/// while an empty reference (or a fragment alone) keeps the base's
/// (RFC 3986 §5.2.2). So had `crawler` made `?utm_source=x` the empty
/// reference, that resolved against `http://h/p?` would be `http://h/p?`,
/// where `?utm_source=x` resolved against the same base is
/// `http://h/p?utm_source=x`, whose normal form is `http://h/p`
/// (invariant 4, LADDER.md; found by `prop_presets`'
/// `resolution_commutes_for_rfc_fetch_crawler`). Keeping only part of the
/// query (`?sid=2` of `?sid=2&utm_source=1`) would commute, but then no
/// choice of what an emptied query keeps makes `crawler`'s equal forms
/// equal under `aggressive` (invariant 3 across the nested presets): the
/// query rules act on the query once the reference is resolved
/// (docs/rules.md).
#[inline]
pub(crate) fn query_only(m: &Meta) -> bool {
    matches!(m.query_fragment_offsets().0, Some((1, _)))
}

/// A host rule's note (`host_rules::recompose`: scheme, host, port, path
/// and query, the components host rules read and write) made the whole
/// URL, with the userinfo and the fragment that host rules never touch:
/// `explain` shows each change on the URL (round 11: `http://u@c.test/`
/// was listed as `http://c.test/ -> https://c.test/`, a URL that was never
/// there).
fn with_whole_parts(u: &Url<'_>, mut note: String) -> String {
    if let (Some(ui), Some(at)) = (&u.userinfo, note.find("://")) {
        note.insert_str(at + 3, &format!("{ui}@"));
    }
    if let Some(f) = &u.fragment {
        note.push('#');
        note.push_str(f);
    }
    note
}

fn whole(u: &Url<'_>) -> String {
    let mut s = String::with_capacity(
        u.scheme.as_ref().map_or(0, |x| x.len() + 3)
            + u.host.as_ref().map_or(0, |x| x.len())
            + u.path.len()
            + u.query.as_ref().map_or(0, |x| x.len() + 1)
            + 16,
    );
    u.recompose(&mut s);
    s
}

// ---- scheme -------------------------------------------------------------

fn switch_scheme(u: &mut Url<'_>, env: &Env<'_>, from: &str, to: &'static str) -> bool {
    // Refused between schemes whose hosts rung 2 writes differently
    // ([`SchemeSwitch`]: LADDER.md invariants 1 and 5).
    if !u.scheme_is(&[from]) || !env.names.switch.same_hosts {
        return false;
    }
    u.scheme = Some(Cow::Borrowed(to));
    // At rung scheme the new scheme's rung 2 rules of the registry apply,
    // as they would have if the reference had been written that way
    // (RFC 3986 §6.2.3): its default port goes, and an empty path after
    // an authority is `/` where the scheme says so ([`SchemeSwitch`]).
    if env.rung == Rung::Scheme {
        let (port, root) = &env.names.switch.to[usize::from(to == "https")];
        if u.port.is_some() && u.port.as_deref() == port.as_deref() {
            u.port = None;
        }
        if *root && u.host.is_some() && u.path.is_empty() {
            u.path = Cow::Borrowed("/");
        }
    }
    true
}

fn force_http(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    switch_scheme(u, env, "https", "http")
}

fn force_https(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    switch_scheme(u, env, "http", "https")
}

fn remove_userinfo(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    u.host.is_some() && u.userinfo.take().is_some()
}

// ---- host ---------------------------------------------------------------

fn remove_trailing_host_dot(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    let Some(h) = u.name_host() else { return false };
    let t = h.trim_end_matches('.');
    if t.len() == h.len() || t.is_empty() {
        return false;
    }
    let t = t.to_owned();
    u.host_kind = if parse_ipv4(t.as_bytes()).is_some() {
        HostKind::Ipv4
    } else {
        HostKind::RegName
    };
    u.host = Some(Cow::Owned(t));
    true
}

fn decode_ipv4_forms(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if !u.scheme_is(&["http", "https"]) || u.host_kind != HostKind::RegName {
        return false;
    }
    let Some(h) = u.host.as_deref() else {
        return false;
    };
    if !h.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let Some(b) = parse_ipv4_forms(h.as_bytes()).map(u32::to_be_bytes) else {
        return false;
    };
    let dotted = format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
    if dotted == h {
        return false;
    }
    u.host = Some(Cow::Owned(dotted));
    u.host_kind = HostKind::Ipv4;
    true
}

fn ip_to_host(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    if !matches!(u.host_kind, HostKind::Ipv4 | HostKind::Ipv6) {
        return false;
    }
    let Some(name) = u.host.as_deref().and_then(|h| env.config.ip_to_host.get(h)) else {
        return false;
    };
    u.host = Some(Cow::Owned(name.clone()));
    u.host_kind = HostKind::RegName;
    true
}

/// Whether `host` (without a trailing dot) has a registrable domain
/// according to the Public Suffix List.
fn registrable(host: &str) -> Option<&str> {
    let h = host.strip_suffix('.').unwrap_or(host);
    if h.is_empty() || h.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return None;
    }
    psl::domain_str(h)
}

fn remove_www(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if u.host_kind != HostKind::RegName {
        return false;
    }
    let Some(h) = u.host.as_deref() else {
        return false;
    };
    // Only an exact leading "www." label, and only while something
    // registrable remains: `www.com` and `www.co.uk` stay, `www1.x.com` is
    // not `www.` at all.
    let mut rest = h;
    while rest.len() > 4
        && rest.as_bytes()[..4].eq_ignore_ascii_case(b"www.")
        && registrable(&rest[4..]).is_some()
    {
        rest = &rest[4..];
    }
    if rest.len() == h.len() {
        return false;
    }
    u.host = Some(Cow::Owned(rest.to_owned()));
    true
}

fn add_www(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if u.host_kind != HostKind::RegName {
        return false;
    }
    let Some(h) = u.host.as_deref() else {
        return false;
    };
    let bare = h.strip_suffix('.').unwrap_or(h);
    if registrable(h) != Some(bare) {
        return false;
    }
    u.host = Some(Cow::Owned(format!("www.{h}")));
    true
}

// ---- path ---------------------------------------------------------------

fn lowercase_path(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    let Some(h) = u.host.as_deref() else {
        return false;
    };
    if !u.web_path()
        || !env
            .config
            .case_insensitive_hosts
            .iter()
            .any(|e| glob::host_matches(e, h))
    {
        return false;
    }
    let lower = irinorm::pct::lowercase_outside_triplets(&u.path);
    if lower == *u.path {
        return false;
    }
    u.path = Cow::Owned(lower);
    true
}

fn remove_duplicate_slashes(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if !u.web_path() || !u.path.contains("//") {
        return false;
    }
    let mut out = String::with_capacity(u.path.len());
    let mut prev_slash = false;
    for c in u.path.chars() {
        if c == '/' && prev_slash {
            continue;
        }
        prev_slash = c == '/';
        out.push(c);
    }
    u.path = Cow::Owned(out);
    true
}

/// An ASP.NET cookieless-session segment: `(S(abc))`, `(A(x)S(y))`.
fn is_aspnet_session_segment(seg: &str) -> bool {
    let Some(inner) = seg.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
        return false;
    };
    let mut rest = inner;
    let mut saw = false;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        if b.len() < 4 || !b[0].is_ascii_uppercase() || b[1] != b'(' {
            return false;
        }
        let Some(close) = rest.find(')') else {
            return false;
        };
        if close <= 2 || !rest[2..close].bytes().all(|c| c.is_ascii_alphanumeric()) {
            return false;
        }
        rest = &rest[close + 1..];
        saw = true;
    }
    saw
}

fn remove_session_path_params(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    if !u.web_path() || !(u.path.contains(';') || u.path.contains("/(")) {
        return false;
    }
    let ids = &env.names.session_ids;
    let mut out = String::with_capacity(u.path.len());
    let mut changed = false;
    for seg in u.path[1..].split('/') {
        if is_aspnet_session_segment(seg) {
            changed = true;
            continue;
        }
        out.push('/');
        let mut parts = seg.split(';');
        let head = parts.next().unwrap_or("");
        let mut kept = String::from(head);
        for p in parts {
            let name = p.split('=').next().unwrap_or("");
            if ids.matches(name) {
                changed = true;
            } else {
                kept.push(';');
                kept.push_str(p);
            }
        }
        // Never turn a segment into a dot segment.
        if kept == "." || kept == ".." {
            out.push_str(seg);
        } else {
            out.push_str(&kept);
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    if !changed || out == *u.path {
        return false;
    }
    u.path = Cow::Owned(out);
    true
}

fn remove_directory_index(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    if !u.web_path() {
        return false;
    }
    let slash = u.path.rfind('/').unwrap_or(0);
    let last = &u.path[slash + 1..];
    if last.is_empty()
        || !env
            .config
            .directory_index
            .iter()
            .any(|n| n.eq_ignore_ascii_case(last))
    {
        return false;
    }
    let keep = u.path[..=slash].to_owned();
    u.path = Cow::Owned(keep);
    true
}

fn add_trailing_slash(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if !u.web_path() || u.path.ends_with('/') {
        return false;
    }
    u.path.to_mut().push('/');
    true
}

fn remove_trailing_slash(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if !u.web_path() || u.path.len() <= 1 || !u.path.ends_with('/') {
        return false;
    }
    let t = u.path.trim_end_matches('/');
    let t = if t.is_empty() { "/" } else { t };
    if t.len() == u.path.len() {
        return false;
    }
    u.path = Cow::Owned(t.to_owned());
    true
}

// ---- query --------------------------------------------------------------

/// The name of a `name=value` parameter: the bytes before the first `=`.
fn param_name(p: &str) -> &str {
    // On bytes: `str::split` with a `char` pattern costs a searcher per
    // call, and this runs for every parameter of every query (issue 14).
    match p.as_bytes().iter().position(|&c| c == b'=') {
        Some(e) => &p[..e],
        None => p,
    }
}

/// The `&`-separated parameters of a query, as `q.split('&')` gives them
/// (empty ones included), found on bytes.
fn params(q: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(q);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memchr(b'&', r.as_bytes()) {
            Some(e) => {
                rest = Some(&r[e + 1..]);
                Some(&r[..e])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Keeps the parameters `keep` accepts; when every parameter goes, the
/// `?` goes too (the query was made only of what the rule removes).
/// One pass up to the first parameter that goes (most queries: none), then
/// the kept ones are written once, without intermediate lists.
fn filter_query(u: &mut Url<'_>, keep: impl Fn(&str) -> bool) -> bool {
    let Some(q) = u.query.as_deref() else {
        return false;
    };
    if q.is_empty() {
        return false;
    }
    let mut cut = None;
    let mut at = 0;
    for p in params(q) {
        if !keep(p) {
            cut = Some(at);
            break;
        }
        at += p.len() + 1;
    }
    let Some(cut) = cut else {
        // Nothing goes (the common case): no allocation.
        return false;
    };
    // Empty parameters are bytes like any others: `?&b=1&utm_x=1` keeps
    // its leading `&`. `kept`: whether any parameter is kept (`out` may be
    // empty with one kept: the empty parameter).
    let mut out = String::with_capacity(q.len());
    let mut kept = cut > 0;
    if kept {
        out.push_str(&q[..cut - 1]);
    }
    for p in params(&q[cut..]).filter(|p| keep(p)) {
        if kept {
            out.push('&');
        }
        out.push_str(p);
        kept = true;
    }
    u.query = kept.then_some(Cow::Owned(out));
    true
}

fn remove_session_query_params(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    let ids = &env.names.session_ids;
    filter_query(u, |p| !ids.matches(param_name(p)))
}

fn remove_query_params(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    let names = &env.names.query_params;
    filter_query(u, |p| !names.matches(param_name(p)))
}

fn remove_default_query_params(u: &mut Url<'_>, env: &Env<'_>) -> bool {
    let (Some(h), Some(_)) = (u.host.as_deref(), u.query.as_deref()) else {
        return false;
    };
    let h = h.to_owned();
    let path = u.path.to_string();
    let defaults: Vec<_> = env
        .config
        .default_params
        .iter()
        .filter(|d| glob::host_matches(&d.host, &h) && path.starts_with(&d.path))
        .collect();
    if defaults.is_empty() {
        return false;
    }
    filter_query(u, |p| {
        let (name, value) = p.split_once('=').unwrap_or((p, ""));
        !defaults.iter().any(|d| d.name == name && d.value == value)
    })
}

fn sort_query(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    let Some(q) = u.query.as_deref() else {
        return false;
    };
    if !q.contains('&') {
        return false;
    }
    let mut params: Vec<&str> = self::params(q).collect();
    // By the names' `uri`-form bytes (name_order.rs: forms agree).
    let cmp = |a: &str, b: &str| cmp_names(param_name(a).as_bytes(), param_name(b).as_bytes());
    if params.windows(2).all(|w| cmp(w[0], w[1]).is_le()) {
        return false;
    }
    // Stable: parameters with the same name keep their order.
    params.sort_by(|a, b| cmp(a, b));
    u.query = Some(Cow::Owned(params.join("&")));
    true
}

fn remove_empty_query(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    if u.query.as_deref() == Some("") {
        u.query = None;
        return true;
    }
    false
}

// ---- host rules ---------------------------------------------------------

fn host_rules<'x>(u: &mut Url<'x>, env: &Env<'x>) -> bool {
    let ix = &env.names.host_rules;
    if u.name_host().is_none() || !u.web_path() {
        return false;
    }
    // The components are rewritten in place (borrowed until a rule changes
    // one); the host's rules are found by the lookup in `apply`.
    let (Some(scheme), Some(host)) = (u.scheme.as_mut(), u.host.as_mut()) else {
        return false;
    };
    let mut parts = Comps {
        scheme,
        host,
        port: &mut u.port,
        path: &mut u.path,
        query: &mut u.query,
    };
    let mut notes = env.notes.as_ref().map(|n| n.borrow_mut());
    let changed = ix.apply(&mut parts, notes.as_deref_mut());
    if changed.host {
        u.host_kind = match u.host.as_deref() {
            Some(h) if parse_ipv4(h.as_bytes()).is_some() => HostKind::Ipv4,
            _ => HostKind::RegName,
        };
    }
    changed.any
}

// ---- fragment -----------------------------------------------------------

fn remove_fragment(u: &mut Url<'_>, _: &Env<'_>) -> bool {
    u.fragment.take().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &str, rules: &str) -> String {
        run_with(s, rules, &Config::default())
    }
    fn run_with(s: &str, rules: &str, c: &Config) -> String {
        let set = RuleSet::parse_list(rules).unwrap();
        apply(s, set, c, Rung::Scheme, &mut Vec::new(), None).unwrap_or_else(|| s.to_owned())
    }

    /// `filter_query` and `params` against the lists they replaced
    /// (`split('&')`, `filter`, `join("&")`), on every query of a few
    /// bytes from an alphabet of separators and names.
    #[test]
    fn filter_query_equals_split_and_join() {
        let alphabet = ["", "&", "x", "x=1", "u", "u=2", "=", "u&", "&&"];
        let keep = |p: &str| param_name(p) != "u";
        let mut qs = vec![String::new()];
        for _ in 0..4 {
            qs = qs
                .iter()
                .flat_map(|q| alphabet.iter().map(move |a| format!("{q}{a}")))
                .collect();
        }
        for q in qs {
            assert_eq!(
                params(&q).collect::<Vec<_>>(),
                q.split('&').collect::<Vec<_>>()
            );
            let list: Vec<&str> = q.split('&').collect();
            let kept: Vec<&str> = list.iter().copied().filter(|p| keep(p)).collect();
            let want = if q.is_empty() || kept.len() == list.len() {
                (false, Some(q.clone()))
            } else {
                (true, (!kept.is_empty()).then(|| kept.join("&")))
            };
            let s = format!("http://a/?{q}");
            let m = irinorm::parse(&s, irinorm::Grammar::IriReference).unwrap();
            let mut u = Url::of(&s, &m);
            let fired = filter_query(&mut u, keep);
            assert_eq!(
                (fired, u.query.as_deref().map(str::to_owned)),
                want,
                "{q:?}"
            );
        }
    }

    /// The quick path (issue 14 round 17) is `crawler`'s alone, and it
    /// hands to the general path exactly what [`query_in_place`]'s host
    /// screen and fragment rule need: a trailing host dot, a digit-led
    /// host that may end an IPv4 form, a fragment. The rest it does in
    /// place (no authority, an empty host, an IPv6 host included), with
    /// the general path's bytes (the debug build checks each call).
    #[test]
    fn the_quick_path_takes_crawlers_common_case() {
        use crate::Preset;
        let names = |rules: RuleSet| {
            Names::new(
                &Config::default(),
                rules.contains(RuleName::RemoveQueryParams),
            )
        };
        let crawler = Preset::Crawler.rule_set();
        assert_eq!(
            Quick::of(crawler, false, &names(crawler)),
            Some(Quick {
                dot: true,
                ipv4: true
            })
        );
        assert_eq!(Quick::of(crawler, true, &names(crawler)), None);
        for p in [Preset::Rfc, Preset::Fetch, Preset::Aggressive] {
            assert_eq!(
                Quick::of(p.rule_set(), false, &names(p.rule_set())),
                None,
                "{p}"
            );
        }
        // A list that does not compile to the query filter: no quick path.
        let c = Config {
            query_params: vec!["a_name_of_twenty_bytes".into()],
            ..Config::default()
        };
        assert_eq!(Quick::of(crawler, false, &Names::new(&c, true)), None);
        let only_query = RuleSet::of(&[RuleName::RemoveQueryParams]).unwrap();
        assert_eq!(
            Quick::of(only_query, false, &names(only_query)),
            Some(Quick::default())
        );

        let n = names(crawler);
        let c = Config::default();
        let f = n.query_filter.as_ref().expect("the default list compiles");
        for (x, quick) in [
            ("http://a.example/p?utm_source=x&b=1", true),
            ("http://a.example/p?b=1&utm_source=x", true),
            ("http://a.example/p", true),
            ("file:///p?utm_source=x", true),
            ("urn:x?utm_source=x&a", true),
            ("http://[::1]/p?utm_source=x", true),
            ("http://4able.com.br/?utm_source=x", true),
            ("http://a.example./p?utm_source=x", false),
            ("http://1.0x/p?a", false),
            ("http://127.1./p", false),
            ("http://2130706433/p", false),
            ("http://a.example/p?a#f", false),
            ("?utm_source=x", false),
        ] {
            let m = split_trusted(x);
            let mut out = String::from("\n");
            out.push_str(x);
            let mut applied = Vec::new();
            let q = Quick::of(crawler, false, &n).unwrap();
            let done = quick_in_place(&mut out, 1, &m, q, f, crawler, &c, &n, &mut applied);
            assert_eq!(done, quick, "{x}");
            if !done {
                assert_eq!(&out[1..], x, "untouched: {x}");
            }
        }
    }

    /// The prefix filter (the inline screen, then the block filter from
    /// the first parameter that goes) against the simple filter
    /// (`filter_query_in_place`: a
    /// `memchr` loop and `NameIndex`) on the default list, on queries
    /// drawn from tracked names, near misses, empty parameters and long
    /// values: one parameter of every length up to past 64 bytes, and
    /// `&` at every place of the 64-byte blocks. Same bytes, same answer.
    #[test]
    fn prefix_filter_equals_the_simple_one() {
        let names = Names::new(&Config::default(), true);
        let pre = names.query_prefixes.as_ref().expect("the default list");
        let parts = [
            "utm_source=x",
            "UTM_Medium",
            "utm_",
            "utm",
            "gclid=1",
            "gclid2=1",
            "fbclid",
            "q=1",
            "page=2",
            "",
            "=",
            "a",
            "li_fat_id=3",
            "_ga=1",
            "ref",
            "x=https%3A%2F%2Fa.b%2F%3Fq",
            "v=0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
        ];
        let mut next = crate::query_filter::below(0x1234_5678);
        let mut queries: Vec<String> = Vec::new();
        // One parameter, tracked or not, every length to 70 bytes and
        // some past 128 (blocks of 64).
        for name in ["utm_x", "gclid", "tapmock", "q", ""] {
            for len in (0..70).chain(126..200) {
                let mut q = name.to_owned();
                while q.len() < len {
                    q.push(if q.len() == name.len() { '=' } else { 'v' });
                }
                queries.push(q);
            }
        }
        for round in 0..3000 {
            // Past 16 cuts, past 8 `&` in a block and past the 63 `&`
            // that the block filter notes (then the simple filter).
            let count = next(match round % 50 {
                0 => 90,
                r if r % 10 == 0 => 40,
                _ => 6,
            });
            let q: Vec<&str> = (0..count).map(|_| parts[next(parts.len())]).collect();
            queries.push(q.join("&"));
        }
        // A short path and a long one (the query's last block read from
        // the 64 bytes that end it).
        let long = format!("http://a/{}?", "p".repeat(61));
        for (q, head) in queries
            .iter()
            .flat_map(|q| [(q, "http://a/p?"), (q, long.as_str())])
        {
            for frag in ["", "#f&utm_x"] {
                let url = format!("{head}{q}{frag}");
                let (qs, qe) = (head.len(), head.len() + q.len());
                let mut want = url.clone();
                let w = filter_query_in_place(&mut want, qs, qe, &names.query_params);
                // Round 5's screen and block filter (`None`), and the
                // one-pass filter with round 6's judge (the one in use).
                for fast in [None, names.query_filter.as_ref()] {
                    let mut got = url.clone();
                    let g =
                        filter_query_by_prefixes(&mut got, qs, qe, pre, &names.query_params, fast);
                    assert_eq!((g, &got), (w, &want), "{url:?}");
                }
            }
        }
    }

    #[test]
    fn wikipedia_examples() {
        // The examples of the URI normalization article (shared/spec/004_...).
        assert_eq!(
            run("http://example.com/bar.html#section1", "remove-fragment"),
            "http://example.com/bar.html"
        );
        assert_eq!(
            run("http://example.com/a/index.html", "remove-directory-index"),
            "http://example.com/a/"
        );
        assert_eq!(
            run("http://example.com/foo", "add-trailing-slash"),
            "http://example.com/foo/"
        );
        assert_eq!(
            run(
                "http://example.com/foo//bar.html",
                "remove-duplicate-slashes"
            ),
            "http://example.com/foo/bar.html"
        );
        assert_eq!(
            run("http://www.example.com/", "remove-www"),
            "http://example.com/"
        );
        assert_eq!(
            run(
                "http://example.com/display?lang=en&article=fred",
                "sort-query"
            ),
            "http://example.com/display?article=fred&lang=en"
        );
        assert_eq!(
            run("http://example.com/display?", "remove-empty-query"),
            "http://example.com/display"
        );
        assert_eq!(
            run("https://example.com/", "force-http"),
            "http://example.com/"
        );
        assert_eq!(
            run("http://208.77.188.166/", "ip-to-host"),
            "http://208.77.188.166/"
        );
        assert_eq!(
            run("http://example.com/default.asp", "remove-directory-index"),
            "http://example.com/"
        );
        assert_eq!(
            run("http://user:pass@example.com/", "remove-userinfo"),
            "http://example.com/"
        );
        // With the article's mapping (no DNS lookups: a caller-given table).
        let mut c = Config::default();
        c.ip_to_host
            .insert("208.77.188.166".into(), "example.com".into());
        assert_eq!(
            run_with("http://208.77.188.166/", "ip-to-host", &c),
            "http://example.com/"
        );
        // "Removing unused query variables": the caller names them.
        let c = Config {
            query_params: vec!["fakefoo".into()],
            ..Config::default()
        };
        assert_eq!(
            run_with(
                "http://example.com/display?id=123&fakefoo=fakebar",
                "remove-query-params",
                &c
            ),
            "http://example.com/display?id=123"
        );
        // "Removing default query parameters": the caller gives the defaults.
        let mut c = Config::default();
        for (name, value) in [("id", ""), ("sort", "ascending")] {
            c.default_params.push(crate::DefaultParam {
                host: "example.com".into(),
                path: "/display".into(),
                name: name.into(),
                value: value.into(),
            });
        }
        let rule = "remove-default-query-params";
        assert_eq!(
            run_with("http://example.com/display?id=&sort=ascending", rule, &c),
            "http://example.com/display"
        );
        assert_eq!(
            run_with("http://example.com/display?id=7&sort=ascending", rule, &c),
            "http://example.com/display?id=7"
        );
        assert_eq!(
            run_with("http://example.com/other?sort=ascending", rule, &c),
            "http://example.com/other?sort=ascending"
        );
    }

    #[test]
    fn peers_failure_cases() {
        // surt strips "www1355544." — only an exact "www." label goes.
        assert_eq!(
            run("http://www1355544.com/", "remove-www"),
            "http://www1355544.com/"
        );
        // Nothing registrable would remain.
        assert_eq!(run("http://www.com/", "remove-www"), "http://www.com/");
        assert_eq!(run("http://www.co.uk/", "remove-www"), "http://www.co.uk/");
        assert_eq!(
            run("http://www.www.example.com/", "remove-www"),
            "http://example.com/"
        );
        // normalize-url/addressable decode %2F and %2C; the rules never decode.
        assert_eq!(
            run("http://a/?b=%2F&a=%2C", "sort-query"),
            "http://a/?a=%2C&b=%2F"
        );
        // Sorting is stable and re-encodes nothing.
        assert_eq!(
            run("http://a/?b=2&a=1&b=1&a=%20", "sort-query"),
            "http://a/?a=1&a=%20&b=2&b=1"
        );
    }

    #[test]
    fn tracking_and_sessions() {
        assert_eq!(
            run(
                "http://a/p?utm_source=x&id=1&UTM_Medium=y&fbclid=z",
                "remove-query-params"
            ),
            "http://a/p?id=1"
        );
        assert_eq!(
            run("http://a/p?utm_source=x", "remove-query-params"),
            "http://a/p"
        );
        assert_eq!(run("http://a/p?", "remove-query-params"), "http://a/p?");
        assert_eq!(
            run(
                "http://a/x;jsessionid=ABC/y.jsp?PHPSESSID=1&q=2",
                "remove-session-ids"
            ),
            "http://a/x/y.jsp?q=2"
        );
        assert_eq!(
            run(
                "http://a/(S(lit3py55t21z5v55vlm25s55))/order.aspx",
                "remove-session-ids"
            ),
            "http://a/order.aspx"
        );
        assert_eq!(
            run("http://a/x?ASPSESSIONIDQQGGGNCU=abc", "remove-session-ids"),
            "http://a/x"
        );
        assert_eq!(
            run("http://a/.;jsessionid=1/x", "remove-session-ids"),
            "http://a/.;jsessionid=1/x"
        );
    }

    #[test]
    fn the_query_section_is_where_the_one_pass_path_expects_it() {
        let rules: Vec<RuleName> = SECTIONS[QUERY_SECTION].iter().map(|(r, _)| *r).collect();
        assert_eq!(rules, QUERY_RULES);
        // After it: host-rules (never with the one pass) and sections of
        // one rule.
        assert_eq!(SECTIONS[QUERY_SECTION + 1][0].0, RuleName::HostRules);
        assert!(SECTIONS[QUERY_SECTION + 1..].iter().all(|s| s.len() == 1));
    }

    #[test]
    fn sections_follow_the_documented_order() {
        let mut seen: Vec<RuleName> = Vec::new();
        for (r, _) in SECTIONS.iter().flat_map(|s| s.iter()) {
            if seen.last() != Some(r) && !seen.contains(r) {
                seen.push(*r);
            }
        }
        assert_eq!(seen, RuleName::ORDER);
    }

    #[test]
    fn empty_parameters_are_kept() {
        // Found by the frontier quality report (docs/frontier.md).
        assert_eq!(
            run("http://a/?&b=1&utm_source=x", "remove-query-params"),
            "http://a/?&b=1"
        );
        assert_eq!(
            run("http://a/?utm_source=x&&b=1", "remove-query-params"),
            "http://a/?&b=1"
        );
        assert_eq!(
            run("http://a/?&utm_source=x", "remove-query-params"),
            "http://a/?"
        );
        assert_eq!(
            run("http://a/?&b=1", "remove-query-params"),
            "http://a/?&b=1"
        );
    }

    #[test]
    fn host_rules() {
        assert_eq!(
            run("http://example.com./", "remove-trailing-host-dot"),
            "http://example.com/"
        );
        assert_eq!(
            run("http://0x7f.1/", "decode-ipv4-forms"),
            "http://127.0.0.1/"
        );
        assert_eq!(
            run("http://2130706433/", "decode-ipv4-forms"),
            "http://127.0.0.1/"
        );
        assert_eq!(
            run("http://0177.0.0.1/", "decode-ipv4-forms"),
            "http://127.0.0.1/"
        );
        assert_eq!(run("ftp://0x7f.1/", "decode-ipv4-forms"), "ftp://0x7f.1/");
        // `crawler`'s in-place path hands a digit-led host to the general
        // path when its last byte may end an IPv4 form (a hex digit, `x`,
        // a trailing `.`): these are decoded, the names kept.
        let crawler = crate::Pipeline::preset(crate::Preset::Crawler);
        for (host, want) in [
            ("1.0x", "1.0.0.0"),
            ("0X7F.0XFF", "127.0.0.255"),
            ("127.1.", "127.0.0.1"),
            ("2130706433", "127.0.0.1"),
            ("1und1.de", "1und1.de"),
            ("4able.com.br", "4able.com.br"),
        ] {
            let mut out = String::new();
            crawler
                .normalize_into(&format!("http://{host}/p?a=1"), &mut out, &mut Vec::new())
                .unwrap();
            assert_eq!(out, format!("http://{want}/p?a=1"), "{host}");
        }
        assert_eq!(
            run("http://example.com/", "add-www"),
            "http://www.example.com/"
        );
        assert_eq!(
            run("http://a.example.com/", "add-www"),
            "http://a.example.com/"
        );
        let mut c = Config::default();
        c.ip_to_host.insert("127.0.0.1".into(), "localhost".into());
        assert_eq!(
            run_with(
                "http://0x7f.1./",
                "remove-trailing-host-dot,decode-ipv4-forms,ip-to-host",
                &c
            ),
            "http://localhost/"
        );
        c.case_insensitive_hosts.push("*.example.org".into());
        assert_eq!(
            run_with("http://w.example.org/A/%C3%A9B", "lowercase-path", &c),
            "http://w.example.org/a/%C3%A9b"
        );
        assert_eq!(
            run_with("http://other.org/A", "lowercase-path", &c),
            "http://other.org/A"
        );
    }

    #[test]
    fn scheme_and_port() {
        assert_eq!(run("http://a:443/", "force-https"), "https://a/");
        assert_eq!(run("http://a:8080/", "force-https"), "https://a:8080/");
        assert_eq!(run("ftp://a/", "force-https"), "ftp://a/");
        assert_eq!(run("http://u:p@a/", "remove-userinfo"), "http://a/");
    }

    #[test]
    fn combinations_are_idempotent() {
        let all = "remove-trailing-slash,remove-directory-index,remove-duplicate-slashes,remove-www,sort-query,remove-empty-query,remove-query-params,remove-session-ids,remove-fragment";
        for s in [
            "http://www.www.example.com./a//index.html/?b=1&utm_x=2&a=&#f",
            "http://a/index.html/",
            "http://a/x/index.html;jsessionid=1",
        ] {
            let once = run(s, all);
            assert_eq!(run(&once, all), once, "{s}");
        }
        assert_eq!(
            run(
                "http://a/index.html/",
                "remove-trailing-slash,remove-directory-index"
            ),
            "http://a/"
        );
        assert_eq!(
            run(
                "http://a/x/index.html",
                "add-trailing-slash,remove-directory-index"
            ),
            "http://a/x/"
        );
    }

    #[test]
    fn structure_is_never_changed() {
        // No authority: host and path rules do not apply.
        assert_eq!(run("a:/.//b", "remove-duplicate-slashes"), "a:/.//b");
        assert_eq!(
            run("mailto:x@www.example.com", "remove-www"),
            "mailto:x@www.example.com"
        );
    }

    /// Round 16 (docs/testing.md): `alias-scheme` drops a port that is the
    /// default of the source or the target scheme (RFC 3986 §6.2.3), not
    /// `80`/`443` whatever the schemes: the output is its own normal form
    /// (LADDER.md invariant 1) and no other port is dropped. Checked on
    /// the general path (`apply`) and the pipeline's plans.
    #[test]
    fn alias_scheme_drops_the_schemes_default_ports_only() {
        let toml = "[[host-rule]]\nhost = \"f.test\"\nrule = \"alias-scheme\"\nto = \"ftp\"\n\n\
                    [[host-rule]]\nhost = \"s.test\"\nrule = \"alias-scheme\"\nto = \"https\"\n";
        let mut c = Config::default();
        let mut schemes = irinorm::scheme::SchemeRegistry::builtin();
        crate::load_toml(toml, &mut c, &mut schemes).unwrap();
        let set = RuleSet::parse_list("host-rules").unwrap();
        let pipeline = crate::Pipeline::new(
            irinorm::ladder::Normalizer::new(irinorm::ladder::Options::default()),
            set,
            c.clone(),
        );
        for (input, want) in [
            // 21 is ftp's default port: the target's.
            ("http://f.test:21/x", "ftp://f.test/x"),
            // 443 is neither http's nor ftp's: another port, kept.
            ("http://f.test:443/x", "ftp://f.test:443/x"),
            ("http://f.test:8080/x", "ftp://f.test:8080/x"),
            // 443 is https's default; 80 http's (rung 2 dropped it first).
            ("http://s.test:443/x", "https://s.test/x"),
            ("http://s.test:80/x", "https://s.test/x"),
            ("ftp://s.test:21/x", "https://s.test/x"),
            ("ftp://s.test:80/x", "https://s.test:80/x"),
        ] {
            let planned = pipeline.normalize(input).unwrap().text.into_owned();
            // Rung 2 first: `apply` takes rung 2's output.
            let n = irinorm::ladder::Normalizer::new(irinorm::ladder::Options::default());
            let rung2 = n.normalize(input).unwrap().into_owned();
            let general = apply(&rung2, set, &c, Rung::Scheme, &mut Vec::new(), None);
            assert_eq!(general.unwrap_or(rung2), want, "general {input}");
            assert_eq!(planned, want, "plans {input}");
            assert_eq!(
                pipeline.normalize(&planned).unwrap().text,
                planned,
                "{input}"
            );
        }
    }

    /// Round 11: `explain` lists a host rule's change on the whole URL,
    /// userinfo and fragment included (host rules never change them), so
    /// that each listed `before` is the URL as it was.
    #[test]
    fn host_rule_changes_are_listed_on_the_whole_url() {
        let mut c = Config::default();
        let mut schemes = irinorm::scheme::SchemeRegistry::builtin();
        crate::load_toml(
            "[[host-rule]]\nhost = \"c.test\"\nrule = \"alias-scheme\"\nto = \"https\"\n",
            &mut c,
            &mut schemes,
        )
        .unwrap();
        let set = RuleSet::parse_list("host-rules").unwrap();
        let mut fired = Vec::new();
        let out = apply(
            "http://u@c.test/p#f",
            set,
            &c,
            Rung::Scheme,
            &mut Vec::new(),
            Some(&mut fired),
        );
        assert_eq!(out.as_deref(), Some("https://u@c.test/p#f"));
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].before, "http://u@c.test/p#f");
        assert_eq!(fired[0].after, "https://u@c.test/p#f");
    }
}
