//! The first implementation of the host rules: owned copies of the
//! components, each rule rebuilding what it changes. Slower (issue 11
//! measured 4.9x the `crawler` preset), kept only as the oracle of the
//! differential tests of the fast one in the parent module, which must
//! give the same bytes for every reference.

use super::{HostIndex, HostRule, HostRuleKind};

/// [`super::HostRuleSet::apply`], the first way.
pub(super) fn apply(ix: &HostIndex, url: &str) -> Option<String> {
    let m = irinorm::split_trusted(url);
    let host = m.host(url)?;
    // Round 17: only URLs whose scheme writes hosts as the rules' hosts
    // are written (LADDER.md invariant 5; `super::HostSchemes`).
    if !ix.has_host(host)
        || !m.path(url).starts_with('/')
        || !ix.schemes.in_scope(m.scheme(url)?.as_bytes())
    {
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
    if !apply_parts(ix, &mut parts) {
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

/// The parts of a URL the host rules look at and change.
#[derive(Debug)]
struct Parts<'u> {
    scheme: &'u mut String,
    host: &'u mut String,
    port: &'u mut Option<String>,
    path: &'u mut String,
    query: &'u mut Option<String>,
}

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

/// Applies the rules of the host of `p` until nothing changes.
fn apply_parts(ix: &HostIndex, p: &mut Parts<'_>) -> bool {
    {
        let mut changed = false;
        for _ in 0..16 {
            let mut round = false;
            let ids = ix.for_host(p.host);
            if ids.is_empty() {
                break;
            }
            for r in ids.iter().map(|&i| &ix.rules[i as usize]) {
                if !p.path.starts_with(&r.path) {
                    continue;
                }
                if !apply_one(ix, r, p) {
                    continue;
                }
                round = true;
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

fn apply_one(ix: &HostIndex, r: &HostRule, p: &mut Parts<'_>) -> bool {
    match &r.kind {
        HostRuleKind::AliasScheme { to } => {
            // The target in the pipeline's registry, looked up each time.
            let Some(target) = ix.schemes.target(to).filter(|_| p.scheme != to) else {
                return false;
            };
            // A port that is the default of either scheme is no port.
            if p.port
                .as_deref()
                .is_some_and(|port| target.drops_port(p.scheme, port))
            {
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
            // By the names' `uri`-form bytes (name_order.rs).
            let cmp = |a: &str, b: &str| {
                crate::name_order::cmp_names(param_name(a).as_bytes(), param_name(b).as_bytes())
            };
            if params.windows(2).all(|w| cmp(w[0], w[1]).is_le()) {
                return false;
            }
            params.sort_by(|a, b| cmp(a, b));
            *p.query = Some(params.join("&"));
            true
        }
    }
}
