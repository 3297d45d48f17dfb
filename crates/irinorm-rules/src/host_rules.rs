//! Host-scoped rules: the `[[host-rule]]` sections of the settings file,
//! written by hand or by `irinorm learn` (issue 11, DUST rules). Each rule
//! holds for one host (or `*.suffix`) and a path prefix, and carries the
//! evidence it was learned from (support, confidence, example pairs) as
//! fields a person can review, and delete with the section.
//!
//! They run as the named rule `host-rules`, after the query rules and
//! before `remove-fragment`, in one fixed order of their own (the order of
//! [`HostRuleKind::ORDER`]): scheme alias, host alias, then, for the
//! canonical host, ignored parameters, default parameters, parameter
//! order (the query first, so that a substitution learned on `?id=5`
//! still matches `?id=5&sid=x`), lower-case path, substitutions, directory
//! index, trailing slash. A URL whose host has no rule pays one hash
//! lookup per label.

use std::borrow::Cow;

use memchr::memmem;
use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use crate::glob;
use crate::name_order::cmp_names;

mod plan;
mod reference;

pub(crate) use plan::{At, Plans};

/// What a host rule does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HostRuleKind {
    /// `alias-scheme`: this scheme is another spelling of `to` on the host
    /// (`https` serves what `http` serves).
    AliasScheme {
        /// The scheme to use instead.
        to: String,
    },
    /// `alias-host`: the host serves what `to` serves (`www.` or a mirror).
    AliasHost {
        /// The canonical host.
        to: String,
    },
    /// `lowercase-path`: the server's paths are case-insensitive.
    LowercasePath,
    /// `substitute`: DustBuster's `alpha -> beta` (Bar-Yossef et al., WWW
    /// 2007, §3): every occurrence of `from` in `path?query` becomes `to`.
    /// `to` must be shorter than `from`, or as long and byte-wise smaller,
    /// so that repeating the rule terminates.
    Substitute {
        /// The substring replaced.
        from: String,
        /// Its replacement.
        to: String,
    },
    /// `directory-index`: `/dir/NAME` is `/dir/`.
    DirectoryIndex {
        /// The file name.
        name: String,
    },
    /// `remove-trailing-slash`: `/a/` is `/a`.
    RemoveTrailingSlash,
    /// `add-trailing-slash`: `/a` is `/a/`.
    AddTrailingSlash,
    /// `ignore-param`: the parameter never changes the content (session,
    /// tracking, under a site-specific name).
    IgnoreParam {
        /// The parameter name (exact bytes).
        name: String,
    },
    /// `default-param`: `name=value` is what the page shows without it
    /// (`lang=en`, not `lang=fr`).
    DefaultParam {
        /// The parameter name (exact bytes).
        name: String,
        /// The default value (exact bytes).
        value: String,
    },
    /// `sort-query`: the order of parameters does not matter.
    SortQuery,
}

impl HostRuleKind {
    /// The rule names, in their order of application.
    pub const ORDER: [&'static str; 10] = [
        "alias-scheme",
        "alias-host",
        "ignore-param",
        "default-param",
        "sort-query",
        "lowercase-path",
        "substitute",
        "directory-index",
        "remove-trailing-slash",
        "add-trailing-slash",
    ];

    /// The `rule = "..."` name.
    pub fn name(&self) -> &'static str {
        Self::ORDER[self.rank()]
    }

    /// The position in [`HostRuleKind::ORDER`].
    pub fn rank(&self) -> usize {
        match self {
            HostRuleKind::AliasScheme { .. } => 0,
            HostRuleKind::AliasHost { .. } => 1,
            HostRuleKind::IgnoreParam { .. } => 2,
            HostRuleKind::DefaultParam { .. } => 3,
            HostRuleKind::SortQuery => 4,
            HostRuleKind::LowercasePath => 5,
            HostRuleKind::Substitute { .. } => 6,
            HostRuleKind::DirectoryIndex { .. } => 7,
            HostRuleKind::RemoveTrailingSlash => 8,
            HostRuleKind::AddTrailingSlash => 9,
        }
    }

    /// A one-line description (`substitute "/story?id=" -> "/story/"`).
    pub fn describe(&self) -> String {
        match self {
            HostRuleKind::AliasScheme { to } | HostRuleKind::AliasHost { to } => {
                format!("{} -> {to}", self.name())
            }
            HostRuleKind::Substitute { from, to } => format!("substitute {from:?} -> {to:?}"),
            HostRuleKind::DirectoryIndex { name } | HostRuleKind::IgnoreParam { name } => {
                format!("{} {name}", self.name())
            }
            HostRuleKind::DefaultParam { name, value } => format!("default-param {name}={value}"),
            _ => self.name().to_owned(),
        }
    }
}

/// One `[[host-rule]]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct HostRule {
    /// Host (exact, ASCII case-insensitive) or `*.suffix`.
    pub host: String,
    /// Path prefix (`/` for every path).
    pub path: String,
    /// What it does.
    pub kind: HostRuleKind,
    /// Written by `irinorm learn` (shown as `learned` by `explain`).
    pub learned: bool,
    /// Evidence: distinct URL pairs it merges that the evidence confirms.
    pub support_pairs: Option<u64>,
    /// Evidence: distinct paths among them.
    pub support_paths: Option<u64>,
    /// Evidence: of the evidence pairs it merges, the share confirmed by
    /// equal digests or a redirect.
    pub confidence: Option<f64>,
    /// Up to 3 example pairs it merges.
    pub examples: Vec<[String; 2]>,
    /// What the evidence was: `content` (equal digests, redirects),
    /// `size` (a size column) or `structure` (a URL list alone).
    pub evidence: Option<String>,
}

impl HostRule {
    /// A learned rule on `host` and `path` without its review fields
    /// (support, confidence, examples, evidence): what the learner fills
    /// in, and what tests build.
    pub fn learned(host: impl Into<String>, path: impl Into<String>, kind: HostRuleKind) -> Self {
        HostRule {
            host: host.into(),
            path: path.into(),
            kind,
            learned: true,
            support_pairs: None,
            support_paths: None,
            confidence: None,
            examples: Vec::new(),
            evidence: None,
        }
    }
}

/// The TOML form of a [`HostRule`] (docs/rules.md, "Host rules").
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct HostRuleFile {
    /// Host or `*.suffix`.
    pub host: String,
    /// Path prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// One of [`HostRuleKind::ORDER`].
    pub rule: String,
    /// Parameter or file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Substituted text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Replacement, canonical host or scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Written by a learner.
    #[serde(default)]
    pub learned: bool,
    /// Distinct confirmed URL pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub support_pairs: Option<u64>,
    /// Distinct paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub support_paths: Option<u64>,
    /// Share of merged evidence pairs confirmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// What the evidence was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Example pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<[String; 2]>,
}

impl HostRuleFile {
    /// Checks and converts.
    pub fn into_rule(self) -> Result<HostRule, String> {
        let want = |v: Option<String>, field: &str| {
            v.filter(|s| !s.is_empty()).ok_or_else(|| {
                format!(
                    "[[host-rule]] {} for {}: `{field}` is required",
                    self.rule, self.host
                )
            })
        };
        let kind = match self.rule.as_str() {
            "alias-scheme" => HostRuleKind::AliasScheme {
                to: want(self.to.clone(), "to")?.to_ascii_lowercase(),
            },
            "alias-host" => HostRuleKind::AliasHost {
                to: want(self.to.clone(), "to")?.to_ascii_lowercase(),
            },
            "lowercase-path" => HostRuleKind::LowercasePath,
            "substitute" => {
                let from = want(self.from.clone(), "from")?;
                let to = self.to.clone().unwrap_or_default();
                // Termination: each application makes `path?query`
                // shorter, or as long and smaller.
                if !(to.len() < from.len() || (to.len() == from.len() && to < from)) {
                    return Err(format!(
                        "[[host-rule]] substitute {from:?} -> {to:?} for {}: `to` must be shorter than `from` (or as long and smaller), so that the rule terminates",
                        self.host
                    ));
                }
                HostRuleKind::Substitute { from, to }
            }
            "directory-index" => HostRuleKind::DirectoryIndex {
                name: want(self.name.clone(), "name")?,
            },
            "remove-trailing-slash" => HostRuleKind::RemoveTrailingSlash,
            "add-trailing-slash" => HostRuleKind::AddTrailingSlash,
            "ignore-param" => HostRuleKind::IgnoreParam {
                name: want(self.name.clone(), "name")?,
            },
            "default-param" => HostRuleKind::DefaultParam {
                name: want(self.name.clone(), "name")?,
                value: self.value.clone().unwrap_or_default(),
            },
            "sort-query" => HostRuleKind::SortQuery,
            other => {
                return Err(format!(
                    "[[host-rule]] for {}: unknown rule {other:?}; known: {}",
                    self.host,
                    HostRuleKind::ORDER.join(", ")
                ))
            }
        };
        let path = self.path.unwrap_or_else(|| "/".to_owned());
        if !path.starts_with('/') {
            return Err(format!(
                "[[host-rule]] for {}: path {path:?} must start with /",
                self.host
            ));
        }
        if self.host.is_empty() {
            return Err("[[host-rule]]: `host` is required".to_owned());
        }
        Ok(HostRule {
            host: self.host.to_ascii_lowercase(),
            path,
            kind,
            learned: self.learned,
            support_pairs: self.support_pairs,
            support_paths: self.support_paths,
            confidence: self.confidence,
            examples: self.examples,
            evidence: self.evidence,
        })
    }
}

impl From<&HostRule> for HostRuleFile {
    fn from(r: &HostRule) -> Self {
        let mut f = HostRuleFile {
            host: r.host.clone(),
            path: (r.path != "/").then(|| r.path.clone()),
            rule: r.kind.name().to_owned(),
            learned: r.learned,
            support_pairs: r.support_pairs,
            support_paths: r.support_paths,
            confidence: r.confidence,
            examples: r.examples.clone(),
            evidence: r.evidence.clone(),
            ..HostRuleFile::default()
        };
        match &r.kind {
            HostRuleKind::AliasScheme { to } | HostRuleKind::AliasHost { to } => {
                f.to = Some(to.clone())
            }
            HostRuleKind::Substitute { from, to } => {
                f.from = Some(from.clone());
                f.to = Some(to.clone());
            }
            HostRuleKind::DirectoryIndex { name } | HostRuleKind::IgnoreParam { name } => {
                f.name = Some(name.clone())
            }
            HostRuleKind::DefaultParam { name, value } => {
                f.name = Some(name.clone());
                f.value = Some(value.clone());
            }
            _ => {}
        }
        f
    }
}

/// Writes rules as `[[host-rule]]` sections (what `irinorm learn` writes).
pub fn to_toml(rules: &[HostRule]) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "kebab-case")]
    struct Out {
        host_rule: Vec<HostRuleFile>,
    }
    let out = Out {
        host_rule: rules.iter().map(HostRuleFile::from).collect(),
    };
    toml::to_string(&out).unwrap_or_default()
}

/// The rules of a settings file indexed by host: exact hosts and `*.suffix`
/// patterns in two hash maps, each host's rules in the fixed order.
#[derive(Clone, Debug, Default)]
pub(crate) struct HostIndex {
    rules: Vec<HostRule>,
    // FxHash: one multiply per 8 bytes of host, where SipHash cost a
    // tenth of the whole rewrite; the keys come from the settings file, and
    // input hosts are only looked up, so no input can grow a bucket.
    exact: FxHashMap<String, Vec<u32>>,
    suffix: FxHashMap<String, Vec<u32>>,
    /// For each substitution, its `from` compiled once (memchr's memmem).
    finders: Vec<Option<memmem::Finder<'static>>>,
    /// For each rule, whether it has a path prefix (other than `/`, which
    /// every path of a URL with a host has).
    prefixed: Vec<bool>,
    /// The rules compiled into one plan per host (`plan.rs`), when no
    /// rule has a `*.suffix` host.
    pub(crate) plans: Option<Plans>,
    /// What the rules need of the pipeline's scheme registry (round 17).
    pub(crate) schemes: HostSchemes,
    /// For each rule, its `alias-scheme` target resolved in `schemes`.
    targets: Vec<Option<SchemeTarget>>,
}

impl HostIndex {
    /// The rules with the built-in scheme registry.
    pub(crate) fn new(rules: &[HostRule]) -> Self {
        HostIndex::with_schemes(rules, &irinorm::scheme::SchemeRegistry::builtin())
    }

    /// The rules for a pipeline whose scheme registry is `registry`: an
    /// `alias-scheme` it refuses is left out ([`HostSchemes`]).
    pub(crate) fn with_schemes(
        rules: &[HostRule],
        registry: &irinorm::scheme::SchemeRegistry,
    ) -> Self {
        let schemes = HostSchemes::of(registry);
        let target = |r: &HostRule| match &r.kind {
            HostRuleKind::AliasScheme { to } => schemes.target(to),
            _ => None,
        };
        let kept: Vec<HostRule> = rules
            .iter()
            .filter(|r| !matches!(r.kind, HostRuleKind::AliasScheme { .. }) || target(r).is_some())
            .cloned()
            .collect();
        let rules = &kept[..];
        let mut order: Vec<u32> = (0..rules.len() as u32).collect();
        // Stable: rules of one kind keep the file's order.
        order.sort_by_key(|&i| rules[i as usize].kind.rank());
        let mut ix = HostIndex {
            rules: rules.to_vec(),
            finders: rules
                .iter()
                .map(|r| match &r.kind {
                    HostRuleKind::Substitute { from, .. } => {
                        Some(memmem::Finder::new(from.as_bytes()).into_owned())
                    }
                    _ => None,
                })
                .collect(),
            prefixed: rules.iter().map(|r| r.path != "/").collect(),
            plans: Plans::new(rules, &schemes),
            targets: rules.iter().map(target).collect(),
            schemes,
            ..HostIndex::default()
        };
        for i in order {
            let h = &rules[i as usize].host;
            match h.strip_prefix("*.") {
                Some(s) => ix.suffix.entry(s.to_owned()).or_default().push(i),
                None => ix.exact.entry(h.clone()).or_default().push(i),
            }
        }
        ix
    }

    /// Whether some rule may hold for `host` (the screen).
    pub(crate) fn has_host(&self, host: &str) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        if self.exact.contains_key(host) {
            return true;
        }
        !self.suffix.is_empty() && suffixes(host).any(|s| self.suffix.contains_key(s))
    }

    /// The rules for `host`, in the fixed order: borrowed from the index
    /// when no `*.suffix` pattern adds to them (the common case).
    fn for_host(&self, host: &str) -> std::borrow::Cow<'_, [u32]> {
        let exact: &[u32] = self.exact.get(host).map_or(&[], Vec::as_slice);
        if self.suffix.is_empty() {
            return std::borrow::Cow::Borrowed(exact);
        }
        let mut ids = exact.to_vec();
        for s in suffixes(host) {
            if let Some(v) = self.suffix.get(s) {
                ids.extend(v);
            }
        }
        ids.sort_by_key(|&i| self.rules[i as usize].kind.rank());
        std::borrow::Cow::Owned(ids)
    }
}

/// `a.b.c`, `b.c`, `c`.
fn suffixes(host: &str) -> impl Iterator<Item = &str> {
    std::iter::once(host).chain(
        host.char_indices()
            .filter(|&(_, c)| c == '.')
            .map(move |(i, _)| &host[i + 1..]),
    )
}

/// The components of a URL the host rules look at and change: borrowed
/// from the reference being normalized until a rule changes one, then
/// owned, and changed in place where the rule allows (a truncated path, a
/// pushed slash). Most checks only read: a rule that does not fire costs
/// no allocation (issue 11: applying a learned file within 1.5x of the
/// `crawler` preset).
#[derive(Debug)]
pub(crate) struct Comps<'u, 'a> {
    pub(crate) scheme: &'u mut Cow<'a, str>,
    pub(crate) host: &'u mut Cow<'a, str>,
    pub(crate) port: &'u mut Option<Cow<'a, str>>,
    pub(crate) path: &'u mut Cow<'a, str>,
    pub(crate) query: &'u mut Option<Cow<'a, str>>,
}

/// A host rule that fired: its description, whether it was learned, and
/// the URL before and after (for `explain`).
pub(crate) type Note = (String, bool, String, String);

fn recompose(p: &Comps<'_, '_>) -> String {
    let mut s = String::with_capacity(
        p.scheme.len() + p.host.len() + p.path.len() + p.query.as_ref().map_or(0, |q| q.len()) + 8,
    );
    s.push_str(p.scheme);
    s.push_str("://");
    s.push_str(p.host);
    if let Some(port) = p.port.as_deref() {
        s.push(':');
        s.push_str(port);
    }
    s.push_str(p.path);
    if let Some(q) = p.query.as_deref() {
        s.push('?');
        s.push_str(q);
    }
    s
}

/// What [`HostIndex::apply`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Changed {
    /// Some rule fired.
    pub(crate) any: bool,
    /// The host changed (an alias).
    pub(crate) host: bool,
}

impl HostIndex {
    /// Applies the rules of the host of `p`, in the fixed order, round
    /// after round until a round changes nothing (each rule shortens or
    /// reorders, so this ends; bounded anyway). The host's rules are looked
    /// up once, and again only after a host alias. With `notes`, what
    /// fired, with the URL before and after.
    pub(crate) fn apply<'x>(
        &'x self,
        p: &mut Comps<'_, 'x>,
        mut notes: Option<&mut Vec<Note>>,
    ) -> Changed {
        let mut changed = Changed::default();
        let mut ids = self.for_host(p.host);
        // Only URLs whose scheme writes hosts as the rules' hosts are
        // written (LADDER.md invariant 5; [`HostSchemes`]): looked at for
        // a host with rules only.
        if !ids.is_empty() && !self.schemes.in_scope(p.scheme.as_bytes()) {
            return changed;
        }
        // Which rules a later round must look at again: a rule is a
        // function of the components it reads, so when none of them
        // changed since it last looked (it said no, or fired and is
        // idempotent), it would say no again. `last[c]` is the clock of
        // component `c`'s last change, `seen[k]` the clock when rule `k`
        // last looked; a host with more rules than `seen` holds looks at
        // every rule every round, as the first implementation did.
        let mut clock = 1u32;
        let mut last = [1u32; 4];
        let mut seen = [0u32; 64];
        for _ in 0..16 {
            if ids.is_empty() {
                break;
            }
            let skip = ids.len() <= seen.len();
            let mut round = false;
            let mut aliased = false;
            let mut k = 0;
            while k < ids.len() {
                let at = k;
                let r = &self.rules[ids[k] as usize];
                k += 1;
                // The ignored and default parameters of the host (one run
                // of the fixed order) are looked at together.
                let batch = notes.is_none() && is_param_rule(&r.kind);
                while batch && k < ids.len() && is_param_rule(&self.rules[ids[k] as usize].kind) {
                    k += 1;
                }
                let group = &ids[at..k];
                let prefixed = group.iter().any(|&i| self.prefixed[i as usize]);
                if skip
                    && reads(&r.kind, prefixed)
                        .iter()
                        .all(|&c| last[c] <= seen[at])
                {
                    continue;
                }
                let fired = if batch {
                    // One pass over the query: each parameter goes when
                    // some rule of the run whose path prefix holds takes
                    // it, as if they ran in turn.
                    let run = group;
                    let path: &str = p.path;
                    filter_query(p.query, |x| {
                        let (n, v) = x.split_once('=').unwrap_or((x, ""));
                        !run.iter().any(|&i| {
                            let r = &self.rules[i as usize];
                            (!self.prefixed[i as usize] || path.starts_with(r.path.as_str()))
                                && match &r.kind {
                                    HostRuleKind::IgnoreParam { name } => n == name,
                                    HostRuleKind::DefaultParam { name, value } => {
                                        n == name && v == value
                                    }
                                    _ => false,
                                }
                        })
                    })
                } else if self.prefixed[ids[at] as usize] && !p.path.starts_with(r.path.as_str()) {
                    false
                } else {
                    let before = notes.as_ref().map(|_| recompose(p));
                    let i = ids[at] as usize;
                    let fired = apply_one(r, self.finders[i].as_ref(), self.targets[i].as_ref(), p);
                    if let (true, Some(n), Some(b)) = (fired, notes.as_deref_mut(), before) {
                        let mut what = r.kind.describe();
                        if r.host != **p.host || r.path != "/" {
                            what = format!("{what} (host {}, path {})", r.host, r.path);
                        }
                        n.push((what, r.learned, b, recompose(p)));
                    }
                    fired
                };
                if fired {
                    clock += 1;
                    for c in writes(&r.kind) {
                        last[*c] = clock;
                    }
                }
                // A substitution may find new occurrences in its own
                // output; the other rules are idempotent.
                let own = fired && matches!(r.kind, HostRuleKind::Substitute { .. });
                seen[at.min(seen.len() - 1)] = if own { clock - 1 } else { clock };
                if !fired {
                    continue;
                }
                round = true;
                if matches!(r.kind, HostRuleKind::AliasHost { .. }) {
                    // The canonical host has rules of its own: the next
                    // round runs them, every one.
                    aliased = true;
                    changed.host = true;
                    break;
                }
            }
            changed.any |= round;
            if !round {
                break;
            }
            if aliased {
                ids = self.for_host(p.host);
                seen = [0u32; 64];
                clock += 1;
                last = [clock; 4];
            }
        }
        changed
    }
}

/// Components, for [`reads`] and [`writes`].
const SCHEME: usize = 0;
const HOST: usize = 1;
const PATH: usize = 2;
const QUERY: usize = 3;

/// What a rule looks at: its components, and the path when it has a path
/// prefix.
fn reads(k: &HostRuleKind, prefix: bool) -> &'static [usize] {
    match (k, prefix) {
        (HostRuleKind::AliasScheme { .. }, false) => &[SCHEME],
        (HostRuleKind::AliasScheme { .. }, true) => &[SCHEME, PATH],
        (HostRuleKind::AliasHost { .. }, false) => &[HOST],
        (HostRuleKind::AliasHost { .. }, true) => &[HOST, PATH],
        (
            HostRuleKind::IgnoreParam { .. }
            | HostRuleKind::DefaultParam { .. }
            | HostRuleKind::SortQuery,
            false,
        ) => &[QUERY],
        (HostRuleKind::Substitute { .. }, _)
        | (
            HostRuleKind::IgnoreParam { .. }
            | HostRuleKind::DefaultParam { .. }
            | HostRuleKind::SortQuery,
            true,
        ) => &[PATH, QUERY],
        (
            HostRuleKind::LowercasePath
            | HostRuleKind::DirectoryIndex { .. }
            | HostRuleKind::RemoveTrailingSlash
            | HostRuleKind::AddTrailingSlash,
            _,
        ) => &[PATH],
    }
}

/// What a rule changes when it fires (the port goes with the scheme).
fn writes(k: &HostRuleKind) -> &'static [usize] {
    match k {
        HostRuleKind::AliasScheme { .. } => &[SCHEME],
        HostRuleKind::AliasHost { .. } => &[HOST],
        HostRuleKind::IgnoreParam { .. }
        | HostRuleKind::DefaultParam { .. }
        | HostRuleKind::SortQuery => &[QUERY],
        HostRuleKind::Substitute { .. } => &[PATH, QUERY],
        HostRuleKind::LowercasePath
        | HostRuleKind::DirectoryIndex { .. }
        | HostRuleKind::RemoveTrailingSlash
        | HostRuleKind::AddTrailingSlash => &[PATH],
    }
}

fn is_param_rule(k: &HostRuleKind) -> bool {
    matches!(
        k,
        HostRuleKind::IgnoreParam { .. } | HostRuleKind::DefaultParam { .. }
    )
}

/// The `&`-separated parameters of a query and their names (the bytes
/// before the first `=`).
fn param_name(p: &str) -> &str {
    p.split('=').next().unwrap_or("")
}

/// Keeps the parameters of `q` that `keep` accepts: nothing is built when
/// all are kept (the common case) or when the kept ones are one run of the
/// query (a session or tracking parameter at the end: the query is cut);
/// no query at all when none is.
fn filter_query(q: &mut Option<Cow<'_, str>>, keep: impl Fn(&str) -> bool) -> bool {
    let Some(s) = q.as_deref() else { return false };
    if s.is_empty() || s.split('&').all(&keep) {
        return false;
    }
    // The byte range of each kept parameter; one run when they follow
    // each other.
    let mut run: Option<(usize, usize)> = None;
    let mut contiguous = true;
    let mut at = 0;
    for x in s.split('&') {
        let end = at + x.len();
        if keep(x) {
            run = match run {
                None => Some((at, end)),
                Some((a, b)) => {
                    contiguous &= b + 1 == at;
                    Some((a, end))
                }
            };
        } else if run.is_some() {
            // A removed parameter after a kept one: a later kept one is
            // not contiguous with the run.
            contiguous &= true;
        }
        at = end + 1;
    }
    let Some((a, b)) = run else {
        *q = None;
        return true;
    };
    if contiguous {
        let q = q.as_mut().expect("a query");
        match q {
            Cow::Borrowed(t) => *t = &t[a..b],
            Cow::Owned(t) => {
                t.truncate(b);
                t.drain(..a);
            }
        }
        return true;
    }
    let mut kept = String::with_capacity(s.len());
    for (n, x) in s.split('&').filter(|x| keep(x)).enumerate() {
        if n > 0 {
            kept.push('&');
        }
        kept.push_str(x);
    }
    *q = Some(Cow::Owned(kept));
    true
}

/// A `.` or `..` segment (`/./`, `/../`, or at either end).
fn has_dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    memchr::memchr_iter(b'.', b).any(|i| {
        let start = i == 0 || b[i - 1] == b'/';
        let end = |j: usize| j == b.len() || b[j] == b'/';
        start && (end(i + 1) || (b.get(i + 1) == Some(&b'.') && end(i + 2)))
    })
}

/// `s` with every occurrence of `from` (found by `f`, left to right, not
/// overlapping) replaced by `to`: [`str::replace`] without building a
/// searcher each time.
fn replace_all(s: &str, f: Option<&memmem::Finder<'_>>, from: &str, to: &str) -> String {
    let Some(f) = f else {
        return s.replace(from, to);
    };
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for i in f.find_iter(s.as_bytes()) {
        out.push_str(&s[last..i]);
        out.push_str(to);
        last = i + from.len();
    }
    out.push_str(&s[last..]);
    out
}

/// Whether [`irinorm::pct::lowercase_outside_triplets`] would change `s`:
/// an ASCII capital outside the two characters after each `%`.
fn has_upper_outside_triplets(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => i += 3,
            c if c.is_ascii_uppercase() => return true,
            _ => i += 1,
        }
    }
    false
}

/// Whether `path?query` contains `from` (only a `from` with a `?` can
/// span both, and only there): nothing is built.
fn contains_whole(
    path: &str,
    query: Option<&str>,
    from: &str,
    finder: Option<&memmem::Finder<'_>>,
) -> bool {
    let found = |h: &str| match finder {
        Some(f) => f.find(h.as_bytes()).is_some(),
        None => h.contains(from),
    };
    if found(path) || query.is_some_and(found) {
        return true;
    }
    let Some(q) = query.filter(|_| from.contains('?')) else {
        return false;
    };
    // Across the `?`: `from` = `h?t` with `h` a suffix of the path (maybe
    // empty) and `t` a prefix of the query; compared as bytes.
    let (f, pb) = (from.as_bytes(), path.as_bytes());
    (0..=f.len().min(pb.len())).any(|n| {
        f.len() > n
            && f[n] == b'?'
            && pb.ends_with(&f[..n])
            && q.as_bytes().starts_with(&f[n + 1..])
    })
}

/// What the host rules need of the pipeline's scheme registry (the
/// caller's `--schemes`, docs/schemes.md), resolved once when the rules
/// are built ([`HostIndex::with_schemes`]), not per URL. Round 17
/// (docs/testing.md) closed two limitations of round 16:
///
/// - Which URLs the rules look at. A rule's host is written as `http`
///   writes a host (`config/normal.rs`: `http://HOST/` normalized), so it
///   is the host of a URL in both forms only when the URL's scheme writes
///   its host as `http` does: rung 2 applies UTS #46 to a DNS host and
///   percent-encodes any other (RFC 3986 §3.2.2, RFC 3987 §3.1). A rule on
///   `bücher.example` matched `foo://bücher.example/` in the `iri` form and
///   not `foo://b%C3%BCcher.example/` in the `uri` form (LADDER.md
///   invariant 5). The rules now hold only for URLs whose scheme has the
///   registry's `dns-host` of `http` ([`HostSchemes::in_scope`]).
/// - What `alias-scheme` writes. The target's rung 2 rules are the
///   registry's (RFC 3986 §6.2.3): the port goes when it is the default of
///   either scheme there ([`SchemeTarget::drops_port`]); with 8080 as
///   `http`'s default, `to = "http"` made `https://h.example:8080/`
///   `http://h.example:8080/`, whose N is `http://h.example/` (invariant
///   1). A target that does not write hosts as `http` does, or that has a
///   scheme-specific normalizer (`file`, `mailto`, ...: rung 2 would
///   rewrite more than the port), is refused: the rule is left out of the
///   pipeline, and the settings loader reports it ([`check_scheme_aliases`]).
#[derive(Clone, Debug)]
pub(crate) struct HostSchemes {
    registry: irinorm::scheme::SchemeRegistry,
    /// `http`'s `dns-host` (false when the registry forgets `http`).
    dns: bool,
    /// Whether `http` and `https` URLs are in scope: the common schemes
    /// compared inline.
    http: bool,
    https: bool,
}

impl Default for HostSchemes {
    fn default() -> Self {
        HostSchemes::of(&irinorm::scheme::SchemeRegistry::builtin())
    }
}

impl HostSchemes {
    pub(crate) fn of(registry: &irinorm::scheme::SchemeRegistry) -> Self {
        let dns = |s: &str| registry.get(s).is_some_and(|i| i.dns_host);
        let http = dns("http");
        HostSchemes {
            registry: registry.clone(),
            dns: http,
            http: true,
            https: dns("https") == http,
        }
    }

    /// Whether the rules' hosts are compared with the host of a URL of
    /// `scheme` (see the type's doc): its scheme writes hosts as `http`.
    #[inline(always)]
    pub(crate) fn in_scope(&self, scheme: &[u8]) -> bool {
        // `http` and `https` by one 4-byte compare and the length (a
        // `match` on the two literals was ~40 instructions a URL with
        // rules on the learned crawl, by callgrind).
        if scheme.first_chunk::<4>() == Some(b"http") {
            match scheme.len() {
                4 => return self.http,
                5 if scheme[4] == b's' => return self.https,
                _ => {}
            }
        }
        self.other_in_scope(scheme)
    }

    #[inline(never)]
    fn other_in_scope(&self, scheme: &[u8]) -> bool {
        let info = match std::str::from_utf8(scheme) {
            Ok(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => self.registry.get(s),
            // Upper case below rung 1 (RFC 3986 §6.2.2.1 is rung 1's).
            _ => self
                .registry
                .get(&String::from_utf8_lossy(scheme).to_ascii_lowercase()),
        };
        info.is_some_and(|i| i.dns_host) == self.dns
    }

    /// `alias-scheme to = "{to}"` for this registry, or `None` when it is
    /// refused (see the type's doc).
    pub(crate) fn target(&self, to: &str) -> Option<SchemeTarget> {
        let info = self.registry.get(to);
        let special = info.is_some_and(|i| i.special != irinorm::scheme::Special::None);
        (info.is_some_and(|i| i.dns_host) == self.dns && !special).then(|| SchemeTarget {
            to: to.into(),
            port: info.and_then(|i| i.default_port),
            registry: self.registry.clone(),
        })
    }
}

/// An `alias-scheme` target with its default port in the pipeline's
/// registry ([`HostSchemes::target`]); derefs to the scheme's name.
#[derive(Clone, Debug)]
pub(crate) struct SchemeTarget {
    to: Box<str>,
    port: Option<u16>,
    /// For the source scheme's default port (looked up only when the URL
    /// has a port and the alias fires).
    registry: irinorm::scheme::SchemeRegistry,
}

impl std::ops::Deref for SchemeTarget {
    type Target = str;
    fn deref(&self) -> &str {
        &self.to
    }
}

impl SchemeTarget {
    /// Whether `alias-scheme` from `from` drops the URL's `port`: when it
    /// is the default port of either scheme in the pipeline's registry
    /// (RFC 3986 §6.2.3). The source's, because the alias says the two
    /// schemes' default locations serve the same (`http://h:80/` is
    /// `http://h/`, so `https://h/`); the target's, because rung 2 would
    /// drop it from the output (LADDER.md invariant 1). Round 16
    /// (docs/testing.md): the rule dropped `80` and `443` whatever the
    /// schemes, so that `to = "ftp"` made `http://h:21/x` `ftp://h:21/x`
    /// (whose N is `ftp://h/x`) and `http://h:443/x` `ftp://h/x` (another
    /// port); round 17: the registry is the caller's, not the built-in one.
    pub(crate) fn drops_port(&self, from: &str, port: &str) -> bool {
        match port.parse::<u16>() {
            Ok(n) => {
                self.port == Some(n)
                    || self.registry.get(from).and_then(|i| i.default_port) == Some(n)
            }
            Err(_) => false,
        }
    }
}

/// Refuses `alias-scheme` rules whose target `schemes` does not allow
/// (`HostSchemes`: a target that writes hosts otherwise than `http`, or
/// with a scheme-specific normalizer), which a pipeline with that registry
/// leaves out. What the settings loader calls once the registry is known.
pub fn check_scheme_aliases(
    rules: &[HostRule],
    schemes: &irinorm::scheme::SchemeRegistry,
) -> Result<(), String> {
    let s = HostSchemes::of(schemes);
    for r in rules {
        if let HostRuleKind::AliasScheme { to } = &r.kind {
            if s.target(to).is_none() {
                return Err(format!(
                    "[[host-rule]] alias-scheme for {}: `to = {to:?}` does not write hosts as http does in the scheme registry (dns-host), or has a scheme-specific normalizer: rung 2 would write the URL otherwise in the two forms (the rule would not be idempotent)",
                    r.host
                ));
            }
        }
    }
    Ok(())
}

fn apply_one<'x>(
    r: &'x HostRule,
    finder: Option<&memmem::Finder<'_>>,
    target: Option<&SchemeTarget>,
    p: &mut Comps<'_, 'x>,
) -> bool {
    match &r.kind {
        HostRuleKind::AliasScheme { to } => {
            let Some(target) = target.filter(|_| **p.scheme != **to) else {
                return false;
            };
            // A port that is the default of either scheme is no port.
            if p.port
                .as_deref()
                .is_some_and(|port| target.drops_port(p.scheme, port))
            {
                *p.port = None;
            }
            *p.scheme = Cow::Borrowed(to);
            true
        }
        HostRuleKind::AliasHost { to } => {
            if **p.host == **to {
                return false;
            }
            *p.host = Cow::Borrowed(to);
            true
        }
        HostRuleKind::LowercasePath => {
            if !has_upper_outside_triplets(p.path) {
                return false;
            }
            *p.path = Cow::Owned(irinorm::pct::lowercase_outside_triplets(p.path));
            true
        }
        HostRuleKind::Substitute { from, to } => {
            // Most URLs do not contain `from`: find out without building
            // `path?query`.
            if !contains_whole(p.path, p.query.as_deref(), from, finder) {
                return false;
            }
            if !from.contains('?') && !to.contains('?') {
                // No occurrence spans the `?` and none makes one: each
                // component on its own (as replacing in `path?query`).
                let in_path = match finder {
                    Some(f) => f.find(p.path.as_bytes()).is_some(),
                    None => p.path.contains(from.as_str()),
                };
                let path = if in_path {
                    replace_all(p.path, finder, from, to)
                } else {
                    String::new()
                };
                let new_path: &str = if in_path { &path } else { p.path };
                if !new_path.starts_with('/') || has_dot_segment(new_path) {
                    return false;
                }
                if let Some(q) = p.query.as_mut() {
                    let in_query = match finder {
                        Some(f) => f.find(q.as_bytes()).is_some(),
                        None => q.contains(from.as_str()),
                    };
                    if in_query {
                        *q = Cow::Owned(replace_all(q, finder, from, to));
                    }
                }
                if in_path {
                    *p.path = Cow::Owned(path);
                }
                return true;
            }
            let mut whole =
                String::with_capacity(p.path.len() + p.query.as_ref().map_or(0, |q| q.len() + 1));
            whole.push_str(p.path);
            if let Some(q) = p.query.as_deref() {
                whole.push('?');
                whole.push_str(q);
            }
            let new = whole.replace(from.as_str(), to);
            let (path, query) = match new.split_once('?') {
                Some((a, b)) => (a.to_owned(), Some(b.to_owned())),
                None => (new, None),
            };
            // Never change the structure: the path stays absolute, and no
            // dot segment appears (the ladder would remove it, RFC 3986
            // §5.2.4, and the result would not be idempotent).
            if !path.starts_with('/') || has_dot_segment(&path) {
                return false;
            }
            *p.path = Cow::Owned(path);
            *p.query = query.map(Cow::Owned);
            true
        }
        HostRuleKind::DirectoryIndex { name } => {
            let slash = p.path.rfind('/').unwrap_or(0);
            if !p.path[slash + 1..].eq_ignore_ascii_case(name) {
                return false;
            }
            truncate(p.path, slash + 1);
            true
        }
        HostRuleKind::RemoveTrailingSlash => {
            if p.path.len() <= 1 || !p.path.ends_with('/') {
                return false;
            }
            // `/a//` is `/a`; a path of slashes only is `/`.
            let t = p.path.trim_end_matches('/').len().max(1);
            truncate(p.path, t);
            true
        }
        HostRuleKind::AddTrailingSlash => {
            if p.path.ends_with('/') {
                return false;
            }
            p.path.to_mut().push('/');
            true
        }
        HostRuleKind::IgnoreParam { name } => filter_query(p.query, |x| param_name(x) != name),
        HostRuleKind::DefaultParam { name, value } => filter_query(p.query, |x| {
            let (n, v) = x.split_once('=').unwrap_or((x, ""));
            !(n == name && v == value)
        }),
        HostRuleKind::SortQuery => {
            let Some(q) = p.query.as_deref() else {
                return false;
            };
            // Sorted already (the common case, and every second round):
            // compared pairwise, nothing collected.
            // By the names' `uri`-form bytes (name_order.rs: forms agree).
            let cmp = |a: &str, b: &str| cmp_names(a.as_bytes(), b.as_bytes());
            let mut names = q.split('&').map(param_name);
            let mut prev = names.next().unwrap_or("");
            if names.all(|n| {
                let ok = cmp(prev, n).is_le();
                prev = n;
                ok
            }) {
                return false;
            }
            let mut params: Vec<&str> = q.split('&').collect();
            params.sort_by(|a, b| cmp(param_name(a), param_name(b)));
            *p.query = Some(Cow::Owned(params.join("&")));
            true
        }
    }
}

/// Shortens a component: a borrowed one stays borrowed (a shorter slice).
fn truncate(c: &mut Cow<'_, str>, len: usize) {
    match c {
        Cow::Borrowed(s) => *s = &s[..len],
        Cow::Owned(s) => s.truncate(len),
    }
}

/// The named rules, then the host rules, on the normal reference in
/// `out[start..]` (components `m`), in place: the path of a learned rules
/// file on top of `crawler` (issue 11). `rules` is the whole set;
/// `others`, what [`crate::apply::query_in_place`] leaves to its screen
/// of the set without `host-rules` (`None` when that is empty).
///
/// [`Fused::Done`]: `out[start..]` and `applied` are what
/// [`crate::apply::apply_split`] with the whole set gives (debug builds
/// check every call; with `LISTED` false, `applied` is not complete and
/// only the text is). [`Fused::General`]: this case is for the general
/// path, and `out` and `applied` are as they were (the text is put back
/// when the host rules' output meets a named rule: a host alias or a
/// substitution that spells a tracking parameter, where the sections run
/// again). [`Fused::Redo`], only when `LISTED` is false: as `General`, but
/// the ladder's text is not kept (no copy of it per URL: issue 11, round
/// 8), so the caller writes it again from the input and takes the general
/// path; `applied` is then scratch.
///
/// `LISTED`: the caller wants `applied` complete. The copy of the
/// ladder's text serves two things: putting the text back for the general
/// path (rare: the named rules' screen after the plan) and telling whether
/// rules that fired undid each other, which only decides whether
/// `host-rules` is listed. Without a list, neither needs the copy.
///
/// The work: the named rules' query filter in place, the host's plan in
/// place, and the named rules' screen on the result, which says for
/// nearly every reference that another round would change nothing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fused<const LISTED: bool>(
    out: &mut String,
    start: usize,
    m: &irinorm::Meta,
    rules: crate::RuleSet,
    others: Option<crate::RuleSet>,
    config: &crate::Config,
    names: &crate::apply::Names,
    rung: irinorm::ladder::Rung,
    applied: &mut Vec<crate::RuleName>,
) -> Fused {
    let listed = LISTED;
    use crate::apply::{is_broad, query_in_place};
    use crate::RuleName as R;
    use irinorm::host::HostKind;
    let Some(plans) = &names.host_rules.plans else {
        return Fused::General;
    };
    let named = rules.without(R::HostRules);
    // The text as the ladder left it, on the stack (no allocation): to
    // tell whether rules that fired undid each other (an added and a
    // removed slash, aliases in a cycle: then nothing changed, as the
    // general path says), and to put it back for the general path. A
    // longer reference takes the general path. Written only for a host
    // with a plan, and zeroed only then (a host without rules pays
    // nothing for it; issue 11).
    const KEEP: usize = 160;
    let text_len = out.len() - start;
    // The plan wants the URL at the end of the buffer: its fragment gone.
    // (From the offsets: `Meta::fragment` would slice the `str`, whose
    // boundary checks cost a host without rules about 20 instructions.)
    let fragment = m.query_fragment_offsets().1;
    if is_broad(named) || (fragment.is_some() && !named.contains(R::RemoveFragment)) {
        return Fused::General;
    }
    // The host's plan, looked up on the ladder's text (the host's offsets
    // alone: all of them, `Meta::offsets`, were a call of ~46
    // instructions for every host without rules; round 9).
    let plan = match (m.host_kind(), m.host_offsets()) {
        (HostKind::RegName | HostKind::Ipv4, Some((a, b))) => {
            plans.lookup(&out.as_bytes()[start + a..start + b])
        }
        _ => None,
    };
    if plan.is_some() && listed && text_len > KEEP {
        return Fused::General;
    }
    let applied_len = applied.len();
    #[cfg(debug_assertions)]
    let expected = {
        let mut fired = applied.clone();
        let text = &out[start..];
        let new = crate::apply::apply_split(text, m, rules, config, names, rung, &mut fired, None);
        (new.unwrap_or_else(|| text.to_owned()), fired)
    };
    #[cfg(not(debug_assertions))]
    let _ = rung;
    // The ladder's text, kept only when the rules that fired are listed
    // and the host has a plan (see above; round 8: the copy, its compare
    // and the list's upkeep were about 96 instructions per URL of the
    // learned crawl).
    let mut was = [0u8; KEEP];
    if listed && plan.is_some() {
        was[..text_len].copy_from_slice(&out.as_bytes()[start..]);
    }
    // The named rules' query filter, in place, written once for hosts
    // with and without a plan (inlined twice, it was two copies of the
    // filter in this function). A host with a plan is the table's key:
    // whether it is plain ([`plan::plain_host`]) was decided when the file
    // was loaded, and the filter's screen of the host is skipped then
    // (issue 11, round 20).
    let plain = plan.is_some_and(|p| plans.plain_host(p));
    let filtered = match others {
        Some(others) => query_in_place(out, start, m, named, others, config, names, applied, plain),
        None => named.is_empty(),
    };
    if !filtered {
        return Fused::General;
    }
    let Some(p) = plan else {
        // No rules for the host (the common case of most files): the
        // named rules' result is the result.
        #[cfg(debug_assertions)]
        assert_eq!(
            (&out[start..], &applied[..]),
            (expected.0.as_str(), &expected.1[..]),
            "the fused host rules differ from apply_split"
        );
        return Fused::Done;
    };
    let done = |out: &String, applied: &[crate::RuleName]| {
        #[cfg(debug_assertions)]
        {
            assert_eq!(
                &out[start..],
                expected.0.as_str(),
                "the fused host rules differ from apply_split"
            );
            if listed {
                assert_eq!(applied, &expected.1[..], "the fused host rules' list");
            }
        }
        let _ = (out, applied);
        Fused::Done
    };
    // The query filter only cuts: it fired when the length changed. The
    // components' offsets, once (the filter only cut the query and the
    // fragment: the rest stays where it is).
    // The filter removes a fragment whenever one is there at this point
    // (see the screen above): a query, if one is left, starts at the
    // path's end and runs to the end of the text.
    let named_fired = out.len() - start != text_len;
    let Some(mut at) = At::of_meta(out, start, m) else {
        return done(out, applied);
    };
    // Only URLs whose scheme writes hosts as the rules' hosts are written
    // (LADDER.md invariant 5; [`HostSchemes`]): a test of the scheme's
    // bytes, for a host with rules only.
    if !names
        .host_rules
        .schemes
        .in_scope(&out.as_bytes()[at.start..at.scheme_end])
    {
        return done(out, applied);
    }
    let ran = plans.run(p, out, &mut at);
    if !ran.any() {
        return done(out, applied);
    }
    // The general path counts `host-rules` as applied when it fired and
    // something changed, or when the named rules changed something too.
    if !named_fired && listed && out.as_bytes()[start..] == was[..text_len] {
        return done(out, applied);
    }
    // In the order of application: before remove-fragment. One walk of
    // the list (usually empty or one name long), and a push when nothing
    // comes after (issue 11: `contains`, `position` and `Vec::insert`'s
    // call were 1.6 M instructions on the learned crawl).
    let mut at_fragment = None;
    let mut there = !listed;
    for (i, &r) in applied.iter().enumerate().filter(|_| listed) {
        there |= r == R::HostRules;
        if r == R::RemoveFragment && at_fragment.is_none() {
            at_fragment = Some(i);
        }
    }
    if !there {
        match at_fragment {
            None => applied.push(R::HostRules),
            Some(i) => applied.insert(i, R::HostRules),
        }
    }
    // Another round of the sections only when a named rule may change
    // the rules' output (the general path's screen, on the components as
    // they lie). The query filter left the named rules at their fixpoint,
    // and `crawler`'s rules are functions of what the screen looks at: the
    // query (a tracking name: only a substitution makes new text there;
    // removed and sorted parameters keep their names), the host (a
    // trailing dot, a leading digit) and, for a numeric host, the scheme.
    let crawler_like = named
        .without(R::RemoveQueryParams)
        .without(R::RemoveFragment)
        .without(R::RemoveTrailingHostDot)
        .without(R::DecodeIpv4Forms)
        .is_empty();
    let host = &out.as_bytes()[at.host.0..at.host.1];
    let odd_host = host.last() == Some(&b'.') || host.first().is_some_and(u8::is_ascii_digit);
    let screen = !crawler_like
        || ran.spelled()
        || (ran.wrote() & (plan::WROTE_HOST | plan::WROTE_SCHEME) != 0 && odd_host);
    if !named.is_empty() && screen {
        let kind = if !ran.host() {
            m.host_kind()
        } else if irinorm::host::parse_ipv4(&out.as_bytes()[at.host.0..at.host.1]).is_some() {
            HostKind::Ipv4
        } else {
            HostKind::RegName
        };
        let view = InBuffer { out, at: &at, kind };
        if crate::apply::may_apply_to(&view, named, config, names) {
            // Put back for the general path, or, with no copy kept, left to
            // the caller to write again.
            out.truncate(start);
            applied.truncate(applied_len);
            if !listed {
                return Fused::Redo;
            }
            out.push_str(std::str::from_utf8(&was[..text_len]).expect("copied from a str"));
            return Fused::General;
        }
    }
    done(out, applied)
}

/// What [`fused`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fused {
    /// The rules are applied.
    Done,
    /// `out` is as it was: the general path's case.
    General,
    /// `out` ends at the URL's start: the ladder's text must be written
    /// again, then the general path taken (only without a list).
    Redo,
}

/// The components of the URL at `at` in `out`, for the named rules'
/// screen ([`crate::apply::may_apply_to`]).
struct InBuffer<'a> {
    out: &'a str,
    at: &'a At,
    kind: irinorm::host::HostKind,
}

impl crate::apply::View for InBuffer<'_> {
    fn scheme(&self) -> Option<&str> {
        Some(&self.out[self.at.start..self.at.scheme_end])
    }
    fn userinfo(&self) -> Option<&str> {
        // `scheme://userinfo@host`.
        let a = self.at.scheme_end + 3;
        (self.at.host.0 > a).then(|| &self.out[a..self.at.host.0 - 1])
    }
    fn host(&self) -> Option<&str> {
        Some(&self.out[self.at.host.0..self.at.host.1])
    }
    fn host_kind(&self) -> irinorm::host::HostKind {
        self.kind
    }
    fn path(&self) -> &str {
        &self.out[self.at.path..self.at.query.unwrap_or(self.out.len())]
    }
    fn query(&self) -> Option<&str> {
        self.at.query.map(|q| &self.out[q + 1..])
    }
    fn fragment(&self) -> Option<&str> {
        None
    }
}

/// Host rules indexed for applying to references that are already normal
/// (what `irinorm learn` validates candidate rules with): only the host
/// rules, without the ladder or the named rules.
#[derive(Clone, Debug, Default)]
pub struct HostRuleSet(HostIndex);

impl HostRuleSet {
    /// Indexes `rules`.
    pub fn new(rules: &[HostRule]) -> Self {
        HostRuleSet(HostIndex::new(rules))
    }

    /// Whether some rule may hold for `host`.
    pub fn has_host(&self, host: &str) -> bool {
        self.0.has_host(host)
    }

    /// The rules applied to `url` (a normal reference with an authority
    /// and an absolute path), or `None` when none changed it.
    pub fn apply(&self, url: &str) -> Option<String> {
        self.apply_plans(url, true)
    }

    /// [`HostRuleSet::apply`] with every plan's first round by the step
    /// loop, not by its compiled pass: the oracle of the differential
    /// tests of the compiled rounds (issue 11, round 7).
    #[doc(hidden)]
    pub fn apply_stepwise(&self, url: &str) -> Option<String> {
        self.apply_plans(url, false)
    }

    fn apply_plans(&self, url: &str, compiled: bool) -> Option<String> {
        let Some(plans) = &self.0.plans else {
            return self.apply_general(url);
        };
        let m = irinorm::split_trusted(url);
        let p = plans.lookup(m.host(url)?.as_bytes())?;
        // The plan runs on a copy without the fragment (no rule reads it).
        let body = url.len() - m.fragment(url).map_or(0, |f| f.len() + 1);
        let mut out = String::with_capacity(url.len() + 8);
        out.push_str(&url[..body]);
        let mut at = At::of(&out, 0, &irinorm::split_trusted(&out).offsets())?;
        if !self.0.schemes.in_scope(&out.as_bytes()[..at.scheme_end]) {
            return None;
        }
        let ran = if compiled {
            plans.run(p, &mut out, &mut at)
        } else {
            plans.run_stepwise(p, &mut out, &mut at)
        };
        if !ran.any() {
            return None;
        }
        out.push_str(&url[body..]);
        Some(out)
    }

    /// [`HostRuleSet::apply`] by the general path (the index, components
    /// borrowed, what `explain` and files with `*.suffix` hosts use): for
    /// the differential tests.
    #[doc(hidden)]
    pub fn apply_general(&self, url: &str) -> Option<String> {
        let m = irinorm::split_trusted(url);
        let host = m.host(url)?;
        if !m.path(url).starts_with('/') {
            return None;
        }
        let mut scheme = Cow::Borrowed(m.scheme(url)?);
        let mut host = Cow::Borrowed(host);
        let mut port = m.port(url).map(Cow::Borrowed);
        let mut path = Cow::Borrowed(m.path(url));
        let mut query = m.query(url).map(Cow::Borrowed);
        let mut parts = Comps {
            scheme: &mut scheme,
            host: &mut host,
            port: &mut port,
            path: &mut path,
            query: &mut query,
        };
        if !self.0.apply(&mut parts, None).any {
            return None;
        }
        let mut out = String::with_capacity(url.len());
        out.push_str(&scheme);
        out.push_str("://");
        if let Some(u) = m.userinfo(url) {
            out.push_str(u);
            out.push('@');
        }
        out.push_str(&host);
        if let Some(p) = port.as_deref() {
            out.push(':');
            out.push_str(p);
        }
        out.push_str(&path);
        if let Some(q) = query.as_deref() {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = m.fragment(url) {
            out.push('#');
            out.push_str(f);
        }
        Some(out)
    }

    /// [`HostRuleSet::apply`] by the first implementation (owned copies of
    /// the components, every rule rebuilt its component): kept as the
    /// oracle of the differential tests (the fast one must give the same
    /// bytes), not for use.
    #[doc(hidden)]
    pub fn apply_reference(&self, url: &str) -> Option<String> {
        reference::apply(&self.0, url)
    }
}

/// The longest chain of host aliases a settings file may hold (a learned
/// file has none: the learner never aims an alias at an aliased host).
/// Well inside the 16 rounds a reference gets, so every alias on the way
/// runs in one pass.
pub const MAX_ALIAS_CHAIN: usize = 8;

/// Refuses host aliases that a single pass could not finish, which would
/// make normalization not idempotent (LADDER.md invariants): a cycle
/// (`a -> b`, `b -> a`: every pass moves the host on) or a chain longer
/// than [`MAX_ALIAS_CHAIN`]. Conservative: path prefixes are ignored, so
/// aliases under disjoint prefixes that only look like a cycle are refused
/// too. The error names the hosts on the way.
pub fn check_alias_chains(rules: &[HostRule]) -> Result<(), String> {
    let aliases: Vec<(&str, &str)> = rules
        .iter()
        .filter_map(|r| match &r.kind {
            // An alias to itself changes nothing: not a cycle.
            HostRuleKind::AliasHost { to } if *to != r.host => Some((r.host.as_str(), to.as_str())),
            _ => None,
        })
        .collect();
    // Exact entries by host; `*.suffix` entries are few and tried in turn.
    let mut exact: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    let mut patterns = Vec::new();
    for (i, (host, _)) in aliases.iter().enumerate() {
        if host.starts_with("*.") {
            patterns.push(i);
        } else {
            exact.entry(host).or_default().push(i);
        }
    }
    let next = |i: usize| -> Vec<usize> {
        let to = aliases[i].1;
        let mut v = exact.get(to).cloned().unwrap_or_default();
        v.extend(
            patterns
                .iter()
                .copied()
                .filter(|&j| glob::host_matches(aliases[j].0, to)),
        );
        v
    };
    // Depth-first, iteratively: 0 unseen, 1 on the stack, 2 done (with the
    // longest chain from it in `len`).
    let mut state = vec![0u8; aliases.len()];
    let mut len = vec![0usize; aliases.len()];
    for start in 0..aliases.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, next(start))];
        state[start] = 1;
        while let Some((i, succ)) = stack.last_mut() {
            let i = *i;
            if let Some(j) = succ.pop() {
                match state[j] {
                    0 => {
                        state[j] = 1;
                        let n = next(j);
                        stack.push((j, n));
                    }
                    1 => {
                        let from = stack.iter().position(|(k, _)| *k == j).unwrap_or(0);
                        let mut hosts: Vec<&str> =
                            stack[from..].iter().map(|(k, _)| aliases[*k].0).collect();
                        hosts.push(aliases[j].0);
                        return Err(format!(
                            "[[host-rule]] alias-host: the aliases form a cycle ({}): no host would be canonical, and each pass would move the host on",
                            hosts.join(" -> ")
                        ));
                    }
                    _ => len[i] = len[i].max(len[j]),
                }
            } else {
                len[i] += 1;
                state[i] = 2;
                if len[i] > MAX_ALIAS_CHAIN {
                    return Err(format!(
                        "[[host-rule]] alias-host {} -> {}: a chain of {} aliases (at most {MAX_ALIAS_CHAIN}): aim each alias at the last host",
                        aliases[i].0, aliases[i].1, len[i]
                    ));
                }
                stack.pop();
                if let Some((k, _)) = stack.last() {
                    len[*k] = len[*k].max(len[i]);
                }
            }
        }
    }
    Ok(())
}

/// Whether `host` matches the entry of a rule (exact or `*.suffix`).
pub fn rule_matches_host(rule: &HostRule, host: &str) -> bool {
    glob::host_matches(&rule.host, host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(host: &str, kind: HostRuleKind) -> HostRule {
        HostRule::learned(host, "/", kind)
    }

    #[test]
    fn alias_cycles_and_long_chains_are_refused() {
        let alias = |h: &str, t: &str| rule(h, HostRuleKind::AliasHost { to: t.into() });
        let e = check_alias_chains(&[
            alias("a.test", "c.test"),
            alias("c.test", "b.test"),
            alias("b.test", "a.test"),
        ])
        .unwrap_err();
        assert!(
            e.contains("cycle") && e.contains("a.test -> c.test -> b.test -> a.test"),
            "{e}"
        );
        // Through a `*.suffix` entry.
        let e = check_alias_chains(&[alias("a.test", "x.b.test"), alias("*.b.test", "a.test")]);
        assert!(e.unwrap_err().contains("cycle"));
        // An alias to itself, and aliases that meet without a cycle.
        check_alias_chains(&[alias("a.test", "a.test")]).unwrap();
        check_alias_chains(&[alias("a.test", "c.test"), alias("b.test", "c.test")]).unwrap();
        // The longest chain allowed, and one more.
        let chain = |n: usize| -> Vec<HostRule> {
            (0..n)
                .map(|i| alias(&format!("h{i}.test"), &format!("h{}.test", i + 1)))
                .collect()
        };
        check_alias_chains(&chain(MAX_ALIAS_CHAIN)).unwrap();
        let e = check_alias_chains(&chain(MAX_ALIAS_CHAIN + 1)).unwrap_err();
        assert!(e.contains("chain of 9"), "{e}");
        // Other rules do not count.
        check_alias_chains(&[rule("a.test", HostRuleKind::LowercasePath)]).unwrap();
    }

    #[test]
    fn toml_round_trip() {
        let rules = vec![
            rule(
                "a.example",
                HostRuleKind::Substitute {
                    from: "/story?id=".into(),
                    to: "/s/".into(),
                },
            ),
            HostRule {
                path: "/list".into(),
                confidence: Some(0.97),
                support_pairs: Some(12),
                support_paths: Some(5),
                examples: vec![["http://a/x?lang=en".into(), "http://a/x".into()]],
                ..rule(
                    "*.b.example",
                    HostRuleKind::DefaultParam {
                        name: "lang".into(),
                        value: "en".into(),
                    },
                )
            },
        ];
        let text = to_toml(&rules);
        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case")]
        struct F {
            host_rule: Vec<HostRuleFile>,
        }
        let back: F = toml::from_str(&text).unwrap();
        let back: Vec<HostRule> = back
            .host_rule
            .into_iter()
            .map(|f| f.into_rule().unwrap())
            .collect();
        assert_eq!(back, rules);
    }

    #[test]
    fn dot_segments() {
        for (p, dot) in [
            ("/a/./b", true),
            ("/a/../b", true),
            ("/a/.", true),
            ("/a/..", true),
            ("/.", true),
            ("/a.b/c.", false),
            ("/.a/..b/...", false),
            ("/a/b", false),
        ] {
            assert_eq!(has_dot_segment(p), dot, "{p}");
            assert_eq!(
                has_dot_segment(p),
                p.split('/').any(|s| s == "." || s == "..")
            );
        }
        let f = memmem::Finder::new("bb");
        assert_eq!(
            replace_all("abbbbbc", Some(&f), "bb", "b"),
            "abbbbbc".replace("bb", "b")
        );
    }

    #[test]
    fn substitutions_must_terminate() {
        let f = HostRuleFile {
            host: "a".into(),
            rule: "substitute".into(),
            from: Some("a".into()),
            to: Some("ab".into()),
            ..HostRuleFile::default()
        };
        assert!(f.into_rule().is_err());
    }

    #[test]
    fn screen_by_host() {
        let ix = HostIndex::new(&[
            rule("a.example", HostRuleKind::SortQuery),
            rule("*.b.example", HostRuleKind::SortQuery),
        ]);
        assert!(ix.has_host("a.example"));
        assert!(!ix.has_host("x.a.example"));
        assert!(ix.has_host("b.example"));
        assert!(ix.has_host("x.y.b.example"));
        assert!(!ix.has_host("bb.example"));
        assert!(!ix.has_host("example"));
    }
}
