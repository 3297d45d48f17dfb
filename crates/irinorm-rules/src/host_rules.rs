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

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::glob;

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
    exact: HashMap<String, Vec<u32>>,
    suffix: HashMap<String, Vec<u32>>,
}

impl HostIndex {
    pub(crate) fn new(rules: &[HostRule]) -> Self {
        let mut order: Vec<u32> = (0..rules.len() as u32).collect();
        // Stable: rules of one kind keep the file's order.
        order.sort_by_key(|&i| rules[i as usize].kind.rank());
        let mut ix = HostIndex {
            rules: rules.to_vec(),
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

/// The parts of a URL the host rules look at and change.
#[derive(Debug)]
pub(crate) struct Parts<'u> {
    pub(crate) scheme: &'u mut String,
    pub(crate) host: &'u mut String,
    pub(crate) port: &'u mut Option<String>,
    pub(crate) path: &'u mut String,
    pub(crate) query: &'u mut Option<String>,
}

/// A host rule that fired: its description, whether it was learned, and
/// the URL before and after (for `explain`).
pub(crate) type Note = (String, bool, String, String);

fn recompose(p: &Parts<'_>) -> String {
    let mut s = format!("{}://{}", p.scheme, p.host);
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

impl HostIndex {
    /// Applies the rules of the host of `p` until nothing changes (each
    /// rule shortens or reorders, so this ends; bounded anyway). Returns
    /// whether anything changed; with `notes`, what fired.
    pub(crate) fn apply(&self, p: &mut Parts<'_>, mut notes: Option<&mut Vec<Note>>) -> bool {
        let mut changed = false;
        for _ in 0..16 {
            let mut round = false;
            let ids = self.for_host(p.host);
            if ids.is_empty() {
                break;
            }
            for r in ids.iter().map(|&i| &self.rules[i as usize]) {
                if !p.path.starts_with(&r.path) {
                    continue;
                }
                let before = notes.as_ref().map(|_| recompose(p));
                if !apply_one(r, p) {
                    continue;
                }
                round = true;
                if let (Some(n), Some(b)) = (notes.as_deref_mut(), before) {
                    let mut what = r.kind.describe();
                    if r.host != *p.host || r.path != "/" {
                        what = format!("{what} (host {}, path {})", r.host, r.path);
                    }
                    n.push((what, r.learned, b, recompose(p)));
                }
                if matches!(r.kind, HostRuleKind::AliasHost { .. }) {
                    // The canonical host has rules of its own.
                    break;
                }
            }
            changed |= round;
            if !round {
                break;
            }
        }
        changed
    }
}

fn param_name(p: &str) -> &str {
    p.split('=').next().unwrap_or("")
}

fn filter_query(q: &mut Option<String>, keep: impl Fn(&str) -> bool) -> bool {
    let Some(s) = q.as_deref() else { return false };
    if s.is_empty() || s.split('&').all(&keep) {
        return false;
    }
    let kept: Vec<&str> = s.split('&').filter(|p| keep(p)).collect();
    *q = if kept.is_empty() {
        None
    } else {
        Some(kept.join("&"))
    };
    true
}

fn has_dot_segment(path: &str) -> bool {
    path.split('/').any(|s| s == "." || s == "..")
}

fn apply_one(r: &HostRule, p: &mut Parts<'_>) -> bool {
    match &r.kind {
        HostRuleKind::AliasScheme { to } => {
            if p.scheme == to {
                return false;
            }
            // A port that is the default of either scheme is no port.
            if matches!(p.port.as_deref(), Some("80" | "443")) {
                *p.port = None;
            }
            *p.scheme = to.clone();
            true
        }
        HostRuleKind::AliasHost { to } => {
            if p.host == to {
                return false;
            }
            *p.host = to.clone();
            true
        }
        HostRuleKind::LowercasePath => {
            let lower = irinorm::pct::lowercase_outside_triplets(p.path);
            if lower == *p.path {
                return false;
            }
            *p.path = lower;
            true
        }
        HostRuleKind::Substitute { from, to } => {
            // Most URLs do not contain `from`: find out without building
            // `path?query` (only a `from` with a `?` can span both).
            if !from.contains('?')
                && !p.path.contains(from.as_str())
                && !p
                    .query
                    .as_deref()
                    .is_some_and(|q| q.contains(from.as_str()))
            {
                return false;
            }
            let mut whole = p.path.clone();
            if let Some(q) = p.query.as_deref() {
                whole.push('?');
                whole.push_str(q);
            }
            if !whole.contains(from.as_str()) {
                return false;
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
            *p.path = path;
            *p.query = query;
            true
        }
        HostRuleKind::DirectoryIndex { name } => {
            let slash = p.path.rfind('/').unwrap_or(0);
            if !p.path[slash + 1..].eq_ignore_ascii_case(name) {
                return false;
            }
            p.path.truncate(slash + 1);
            true
        }
        HostRuleKind::RemoveTrailingSlash => {
            if p.path.len() <= 1 || !p.path.ends_with('/') {
                return false;
            }
            let t = p.path.trim_end_matches('/');
            let t = if t.is_empty() { "/" } else { t };
            *p.path = t.to_owned();
            true
        }
        HostRuleKind::AddTrailingSlash => {
            if p.path.ends_with('/') {
                return false;
            }
            p.path.push('/');
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
            let mut params: Vec<&str> = q.split('&').collect();
            if params
                .windows(2)
                .all(|w| param_name(w[0]) <= param_name(w[1]))
            {
                return false;
            }
            params.sort_by(|a, b| param_name(a).as_bytes().cmp(param_name(b).as_bytes()));
            *p.query = Some(params.join("&"));
            true
        }
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
        let m = irinorm::split_trusted(url);
        let host = m.host(url)?;
        if !self.0.has_host(host) || !m.path(url).starts_with('/') {
            return None;
        }
        let mut scheme = m.scheme(url)?.to_owned();
        let mut host = host.to_owned();
        let mut port = m.port(url).map(str::to_owned);
        let mut path = m.path(url).to_owned();
        let mut query = m.query(url).map(str::to_owned);
        let mut parts = Parts {
            scheme: &mut scheme,
            host: &mut host,
            port: &mut port,
            path: &mut path,
            query: &mut query,
        };
        if !self.0.apply(&mut parts, None) {
            return None;
        }
        let mut out = recompose(&parts);
        if let Some(u) = m.userinfo(url) {
            out.insert_str(scheme.len() + 3, &format!("{u}@"));
        }
        if let Some(f) = m.fragment(url) {
            out.push('#');
            out.push_str(f);
        }
        Some(out)
    }
}

/// Whether `host` matches the entry of a rule (exact or `*.suffix`).
pub fn rule_matches_host(rule: &HostRule, host: &str) -> bool {
    glob::host_matches(&rule.host, host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(host: &str, kind: HostRuleKind) -> HostRule {
        HostRule {
            host: host.into(),
            path: "/".into(),
            kind,
            learned: true,
            support_pairs: None,
            support_paths: None,
            confidence: None,
            examples: vec![],
            evidence: None,
        }
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
