//! The learner: content classes from digests and redirects, candidate
//! rules from pairs of URLs in one class, and validation of each candidate
//! against every URL of its host before it is kept (issue 11).

use std::collections::{BTreeMap, HashMap, HashSet};

use irinorm_rules::{HostRule, HostRuleKind, HostRuleSet, Pipeline, Preset};

use crate::candidate::{self, Candidate};
use crate::rows::Row;
use crate::url::Parts;

/// Learning parameters (defaults in docs/learning.md).
#[derive(Clone, Debug)]
pub struct Options {
    /// The normalization the rules are learned on top of (and must be
    /// applied after): the `crawler` preset by default.
    pub base: Pipeline,
    /// Minimum number of distinct paths among the confirmed merges.
    pub min_paths: usize,
    /// Minimum confidence: confirmed / merged evidence pairs.
    pub min_confidence: f64,
    /// A digest (or redirect target) shared by more distinct paths of one
    /// host than this is boilerplate (soft-404, error or login page) and
    /// not evidence.
    pub boilerplate_paths: usize,
    /// At most this many distinct URLs of one content class are paired
    /// when generating candidates (validation always sees every URL).
    pub max_class: usize,
    /// Rounds of candidate generation on the URLs rewritten by the rules
    /// kept so far (pairs that differ in two ways need two rounds).
    pub rounds: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            base: Pipeline::preset(Preset::Crawler),
            min_paths: 3,
            min_confidence: 0.95,
            boilerplate_paths: 8,
            max_class: 32,
            rounds: 3,
        }
    }
}

/// What [`learn`] found.
#[derive(Clone, Debug, Default)]
pub struct Learned {
    /// The rules kept, sorted by host, then order of application.
    pub rules: Vec<HostRule>,
    /// Rows read.
    pub rows: u64,
    /// Rows whose URL is not an IRI-reference the base preset
    /// normalizes (the first 1000 in [`Learned::rejects`]).
    pub rejected: u64,
    /// The first rejected rows: their index among the rows given to
    /// [`learn`] (0-based) and the kind of the parse error, so that a
    /// caller that knows where each row came from reports its file, line
    /// and offset (docs/learning.md, "Input": every bad line or record is
    /// reported with file, line, byte offset and kind, and counted).
    pub rejects: Vec<(u64, &'static str)>,
    /// Rows whose URL parses but has no host, a relative path, userinfo
    /// or a fragment after the base normalization (`dns:` and `mailto:`
    /// records of a crawl): host rules never apply to them, and they are
    /// not bad input.
    pub not_learnable: u64,
    /// Distinct URLs (after the base normalization).
    pub urls: usize,
    /// URLs with content evidence.
    pub with_evidence: usize,
    /// Digests and redirect targets set aside as boilerplate.
    pub boilerplate: usize,
    /// Candidates validated.
    pub candidates: usize,
    /// Candidates dropped for confidence below the threshold.
    pub low_confidence: usize,
    /// Candidates dropped for too little support.
    pub low_support: usize,
    /// Rules kept under a path prefix after failing for the whole host.
    pub narrowed: usize,
    /// What the evidence was: `content` (digests, redirects), `size` (a
    /// size column) or `structure` (a URL list alone).
    pub basis: &'static str,
}

#[derive(Default)]
struct UnionFind(Vec<u32>);

impl UnionFind {
    fn find(&mut self, x: u32) -> u32 {
        let mut r = x;
        while self.0[r as usize] != r {
            r = self.0[r as usize];
        }
        let mut y = x;
        while self.0[y as usize] != r {
            let n = self.0[y as usize];
            self.0[y as usize] = r;
            y = n;
        }
        r
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

fn host_of(url: &str) -> &str {
    Parts::of(url).map_or("", |p| p.host)
}

/// A path with case and a trailing slash folded: paths that differ only
/// so are one page for the boilerplate count.
fn loose_path(url: &str) -> String {
    Parts::of(url).map_or_else(String::new, |p| {
        p.path.trim_end_matches('/').to_ascii_lowercase()
    })
}

struct Corpus {
    /// Normal forms (the base pipeline's), interned.
    urls: Vec<String>,
    /// Their ids.
    ids: HashMap<String, u32>,
    /// Content class (union of equal digests and redirects), or none.
    class: Vec<Option<u32>>,
    /// `content`, `size` or `structure`.
    basis: &'static str,
}

fn ingest(rows: impl IntoIterator<Item = Row>, opts: &Options, out: &mut Learned) -> Corpus {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut urls: Vec<String> = Vec::new();
    let mut digest: Vec<Option<(Option<String>, String)>> = Vec::new();
    let mut redirects: Vec<(u32, u32)> = Vec::new();
    let intern = |ids: &mut HashMap<String, u32>,
                  s: String,
                  urls: &mut Vec<String>,
                  digest: &mut Vec<_>|
     -> u32 {
        if let Some(&i) = ids.get(&s) {
            return i;
        }
        let i = urls.len() as u32;
        ids.insert(s.clone(), i);
        urls.push(s);
        digest.push(None);
        i
    };
    let norm = |u: &str| -> Option<String> {
        let n = opts.base.normalize(u).ok()?.text.into_owned();
        Parts::of(&n)?;
        Some(n)
    };
    for row in rows {
        out.rows += 1;
        let n = match opts.base.normalize(&row.url) {
            Ok(n) => n.text.into_owned(),
            Err(e) => {
                out.rejected += 1;
                if out.rejects.len() < 1000 {
                    out.rejects.push((out.rows - 1, e.kind().code()));
                }
                continue;
            }
        };
        if Parts::of(&n).is_none() {
            out.not_learnable += 1;
            continue;
        }
        let id = intern(&mut ids, n, &mut urls, &mut digest);
        if row.is_redirect() {
            if let Some(t) = row.location.as_deref().and_then(norm) {
                let tid = intern(&mut ids, t, &mut urls, &mut digest);
                if tid != id {
                    redirects.push((id, tid));
                }
            }
            continue;
        }
        // Only a success's payload is the page's content: a 404 or 500
        // body is the server's error page, shared by unrelated URLs.
        let success = row.status.is_none_or(|s| (200..300).contains(&s));
        if let Some(d) = row.digest.filter(|_| success) {
            // The latest observation wins (pages change).
            let slot = &mut digest[id as usize];
            if slot.as_ref().is_none_or(|(t, _)| row.time >= *t) {
                *slot = Some((row.time, d));
            }
        }
    }
    // Boilerplate: a digest, or a redirect target, shared by many distinct
    // paths of one host.
    let mut paths: HashMap<(&str, &str), HashSet<String>> = HashMap::new();
    for (i, d) in digest.iter().enumerate() {
        if let Some((_, d)) = d {
            let u = &urls[i];
            paths
                .entry((host_of(u), d.as_str()))
                .or_default()
                .insert(loose_path(u));
        }
    }
    let boiler: HashSet<(String, String)> = paths
        .into_iter()
        .filter(|(_, p)| p.len() > opts.boilerplate_paths)
        .map(|((h, d), _)| (h.to_owned(), d.to_owned()))
        .collect();
    let mut targets: HashMap<u32, HashSet<String>> = HashMap::new();
    for &(s, t) in &redirects {
        targets
            .entry(t)
            .or_default()
            .insert(loose_path(&urls[s as usize]));
    }
    let boiler_targets: HashSet<u32> = targets
        .into_iter()
        .filter(|(_, p)| p.len() > opts.boilerplate_paths)
        .map(|(t, _)| t)
        .collect();
    out.boilerplate = boiler.len() + boiler_targets.len();
    let mut uf = UnionFind((0..urls.len() as u32).collect());
    let mut has = vec![false; urls.len()];
    let any_digest = digest.iter().any(Option::is_some);
    let sizes_only =
        digest.iter().flatten().all(|(_, d)| d.starts_with("size:")) && redirects.is_empty();
    let basis = if !any_digest && redirects.is_empty() {
        // A URL list alone: likely pairs by structure.
        for (a, b) in crate::structure::likely_pairs(&urls, false) {
            has[a as usize] = true;
            has[b as usize] = true;
            uf.union(a, b);
        }
        "structure"
    } else if sizes_only {
        // DustBuster's size check: the likely pairs of a list, and those a
        // list alone cannot tell (another path case, the other `www.`)
        // when both sizes are known and equal. Equal sizes alone are no
        // pair (unrelated pages of a site often have one size), and a
        // size is not checked where the list is sure enough (a redirect's
        // source has the size of the redirect page, not its target's).
        let size = |i: u32| digest[i as usize].as_ref().map(|(_, d)| d.as_str());
        let plain: HashSet<(u32, u32)> = crate::structure::likely_pairs(&urls, false)
            .into_iter()
            .collect();
        for (a, b) in crate::structure::likely_pairs(&urls, true) {
            if plain.contains(&(a, b)) || (size(a).is_some() && size(a) == size(b)) {
                has[a as usize] = true;
                has[b as usize] = true;
                uf.union(a, b);
            }
        }
        "size"
    } else {
        "content"
    };
    let mut by_digest: HashMap<&str, u32> = HashMap::new();
    for (i, d) in digest.iter().enumerate().filter(|_| !sizes_only) {
        let Some((_, d)) = d else { continue };
        if boiler.contains(&(host_of(&urls[i]).to_owned(), d.clone())) {
            continue;
        }
        has[i] = true;
        let first = *by_digest.entry(d.as_str()).or_insert(i as u32);
        uf.union(first, i as u32);
    }
    for &(s, t) in &redirects {
        if !boiler_targets.contains(&t) {
            has[s as usize] = true;
            has[t as usize] = true;
            uf.union(s, t);
        }
    }
    let class = (0..urls.len() as u32)
        .map(|i| has[i as usize].then(|| uf.find(i)))
        .collect::<Vec<_>>();
    out.urls = urls.len();
    out.with_evidence = has.iter().filter(|&&h| h).count();
    Corpus {
        urls,
        ids,
        class,
        basis,
    }
}

/// The URL of each row with its content class (`c<N>`: equal digests and
/// redirects, boilerplate set aside; `None` without evidence): the truth
/// `irinorm learn --evaluate` measures held-out rows against.
pub fn evidence_truth(rows: &[Row], opts: &Options) -> Vec<(String, Option<String>)> {
    let mut scratch = Learned::default();
    let corpus = ingest(rows.iter().cloned(), opts, &mut scratch);
    rows.iter()
        .map(|r| {
            let class = opts
                .base
                .normalize(&r.url)
                .ok()
                .and_then(|n| corpus.ids.get(n.text.as_ref()).copied())
                .and_then(|i| corpus.class[i as usize])
                .map(|c| format!("c{c}"));
            (r.url.clone(), class)
        })
        .collect()
}

/// What validating one rule found.
#[derive(Debug, Default)]
struct Check {
    confirmed: u64,
    merged: u64,
    paths: usize,
    examples: Vec<[String; 2]>,
}

/// Applies `rule` to the current forms of `ids` and counts the evidence
/// pairs it merges.
fn check(rule: &HostRule, ids: &[u32], cur: &[String], class: &[Option<u32>]) -> Check {
    let set = HostRuleSet::new(std::slice::from_ref(rule));
    // key -> distinct current forms -> class
    let mut groups: BTreeMap<String, BTreeMap<&str, Option<u32>>> = BTreeMap::new();
    for &i in ids {
        let c = &cur[i as usize];
        let k = set.apply(c).unwrap_or_else(|| c.clone());
        let slot = groups
            .entry(k)
            .or_default()
            .entry(c.as_str())
            .or_insert(None);
        if slot.is_none() {
            *slot = class[i as usize];
        }
    }
    let mut ch = Check::default();
    let mut paths = HashSet::new();
    for (k, members) in &groups {
        if members.len() < 2 {
            continue;
        }
        let mut counts: HashMap<u32, u64> = HashMap::new();
        for c in members.values().flatten() {
            *counts.entry(*c).or_default() += 1;
        }
        let n: u64 = counts.values().sum();
        let confirmed: u64 = counts.values().map(|c| c * (c - 1) / 2).sum();
        ch.merged += n * n.saturating_sub(1) / 2;
        ch.confirmed += confirmed;
        if confirmed > 0 {
            if let Some(p) = Parts::of(k) {
                paths.insert(p.path.to_owned());
            }
            if ch.examples.len() < 3 {
                // A pair of one class, the changed form first.
                let mut by_class: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
                for (u, c) in members {
                    if let Some(c) = c {
                        by_class.entry(*c).or_default().push(u);
                    }
                }
                if let Some(v) = by_class.values().find(|v| v.len() >= 2) {
                    let (a, b) = if v[0] == k {
                        (v[1], v[0])
                    } else {
                        (v[0], v[1])
                    };
                    ch.examples.push([a.to_owned(), b.to_owned()]);
                }
            }
        }
    }
    ch.paths = paths.len();
    ch
}

fn confident(ch: &Check, opts: &Options) -> bool {
    ch.confirmed as f64 / ch.merged as f64 >= opts.min_confidence
}

fn with_evidence(mut rule: HostRule, ch: Check) -> HostRule {
    let confidence = ch.confirmed as f64 / ch.merged as f64;
    rule.support_pairs = Some(ch.confirmed);
    rule.support_paths = Some(ch.paths as u64);
    rule.confidence = Some((confidence * 10_000.0).round() / 10_000.0);
    rule.examples = ch.examples;
    rule
}

/// Rules that can hold under one path prefix and not another (aliases of
/// hosts and schemes are about the whole host).
fn narrowable(k: &HostRuleKind) -> bool {
    !matches!(
        k,
        HostRuleKind::AliasHost { .. } | HostRuleKind::AliasScheme { .. }
    )
}

/// The URLs of `scope` grouped by the first segment of their current path
/// (`/news/`), sorted; paths of one segment are left out.
fn by_first_segment(scope: &[u32], cur: &[String]) -> BTreeMap<String, Vec<u32>> {
    let mut m: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for &i in scope {
        let Some(p) = Parts::of(&cur[i as usize]) else {
            continue;
        };
        if let Some(end) = p.path[1..].find('/') {
            m.entry(p.path[..end + 2].to_owned()).or_default().push(i);
        }
    }
    m
}

/// Learns host rules from rows of evidence.
pub fn learn(rows: impl IntoIterator<Item = Row>, opts: &Options) -> Learned {
    let mut out = Learned::default();
    let corpus = ingest(rows, opts, &mut out);
    let class = &corpus.class;
    out.basis = corpus.basis;
    let mut cur = corpus.urls.clone();
    let mut by_host: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, u) in cur.iter().enumerate() {
        by_host
            .entry(host_of(u).to_owned())
            .or_default()
            .push(i as u32);
    }
    let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (i, c) in class.iter().enumerate() {
        if let Some(c) = c {
            members.entry(*c).or_default().push(i as u32);
        }
    }
    let mut tried: HashSet<Candidate> = HashSet::new();
    let mut kept: Vec<HostRule> = Vec::new();
    for _ in 0..opts.rounds {
        // Candidates from pairs of distinct current forms in one class.
        // Each candidate with the number of pairs proposing it and the
        // distinct (loose) paths of those pairs, up to --min-paths.
        let mut found: HashMap<Candidate, (u64, Vec<u64>)> = HashMap::new();
        for ids in members.values() {
            let mut forms: Vec<&str> = ids.iter().map(|&i| cur[i as usize].as_str()).collect();
            forms.sort_unstable();
            forms.dedup();
            forms.truncate(opts.max_class);
            for (x, a) in forms.iter().enumerate() {
                let path = {
                    use std::hash::{Hash, Hasher};
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    loose_path(a).hash(&mut h);
                    h.finish()
                };
                for b in &forms[x + 1..] {
                    for c in candidate::of_pair(a, b) {
                        let e = found.entry(c).or_default();
                        e.0 += 1;
                        if e.1.len() < opts.min_paths && !e.1.contains(&path) {
                            e.1.push(path);
                        }
                    }
                }
            }
        }
        // A candidate proposed by pairs on fewer distinct paths than a
        // kept rule needs is not validated (each validation is a pass over
        // every URL of the host): the confirmed merges of a rule are pairs
        // of one class that propose it, unless a class is cut at
        // --max-class or a pair differs in two ways.
        let mut order: Vec<(Candidate, u64)> = found
            .into_iter()
            .filter(|(c, (n, paths))| {
                *n >= 2 && paths.len() >= opts.min_paths && !tried.contains(c)
            })
            .map(|(c, (n, _))| (c, n))
            .collect();
        // Host and scheme aliases first (the other rules are learned on the
        // canonical host), then the most frequent; among as frequent, a
        // default value before the whole parameter (`lang=en`, not every
        // `lang`: once it is kept the broader rule has nothing left to
        // merge); ties broken by the rule.
        order.sort_by(|(ca, na), (cb, nb)| {
            let alias = |c: &Candidate| c.1.rank() > 1;
            let broad = |c: &Candidate| !matches!(c.1, HostRuleKind::DefaultParam { .. });
            (alias(ca), std::cmp::Reverse(na), broad(ca), &ca.0, &ca.1).cmp(&(
                alias(cb),
                std::cmp::Reverse(nb),
                broad(cb),
                &cb.0,
                &cb.1,
            ))
        });
        let mut accepted_any = false;
        for (cand, _) in order {
            tried.insert(cand.clone());
            out.candidates += 1;
            let (host, kind) = cand;
            let mut scope: Vec<u32> = by_host.get(&host).cloned().unwrap_or_default();
            if let HostRuleKind::AliasHost { to } = &kind {
                scope.extend(by_host.get(to).cloned().unwrap_or_default());
                // Never a cycle: the target must not be aliased itself.
                if kept
                    .iter()
                    .any(|r| r.host == *to && matches!(r.kind, HostRuleKind::AliasHost { .. }))
                {
                    continue;
                }
            }
            let rule = HostRule {
                evidence: Some(corpus.basis.to_owned()),
                ..HostRule::learned(host.clone(), "/", kind)
            };
            let ch = check(&rule, &scope, &cur, class);
            if ch.merged == 0 || ch.paths < opts.min_paths {
                out.low_support += 1;
                continue;
            }
            let mut accepted = Vec::new();
            if confident(&ch, opts) {
                accepted.push(with_evidence(rule, ch));
            } else {
                out.low_confidence += 1;
                // Narrowed: the same rule under each first path segment
                // where it holds on its own (a parameter that is noise
                // under /news/ and meaningful under /shop/).
                if narrowable(&rule.kind) {
                    for (prefix, ids) in by_first_segment(&scope, &cur) {
                        let narrow = HostRule {
                            path: prefix,
                            ..rule.clone()
                        };
                        let ch = check(&narrow, &ids, &cur, class);
                        if ch.merged > 0 && ch.paths >= opts.min_paths && confident(&ch, opts) {
                            out.narrowed += 1;
                            accepted.push(with_evidence(narrow, ch));
                        }
                    }
                }
            }
            for rule in accepted {
                // Rewrite the current forms of the scope.
                let set = HostRuleSet::new(std::slice::from_ref(&rule));
                for &i in &scope {
                    if let Some(n) = set.apply(&cur[i as usize]) {
                        cur[i as usize] = n;
                    }
                }
                if let HostRuleKind::AliasHost { to } = &rule.kind {
                    let moved = by_host.remove(&host).unwrap_or_default();
                    by_host.entry(to.clone()).or_default().extend(moved);
                }
                kept.push(rule);
                accepted_any = true;
            }
        }
        if !accepted_any {
            break;
        }
    }
    // Redundant: the rules of an aliased host that come after its alias
    // never run (the canonical host's rules apply instead).
    let aliased: HashSet<String> = kept
        .iter()
        .filter(|r| matches!(r.kind, HostRuleKind::AliasHost { .. }))
        .map(|r| r.host.clone())
        .collect();
    kept.retain(|r| !aliased.contains(&r.host) || r.kind.rank() <= 1);
    kept.sort_by(|a, b| (&a.host, a.kind.rank(), &a.kind).cmp(&(&b.host, b.kind.rank(), &b.kind)));
    out.rules = kept;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(url: String, digest: &str) -> Row {
        Row {
            url,
            digest: Some(digest.to_owned()),
            ..Row::default()
        }
    }

    /// Round 20: a row whose URL does not parse is a reject with its index
    /// and the parse error's kind (the CLI reports its file, line and
    /// offset from the index); a `dns:` or `mailto:` row parses and is
    /// only not learnable. Before, both were one count and neither was
    /// reported.
    #[test]
    fn rejected_rows_are_listed_with_their_kind() {
        let rows = [
            "http://a.example/ok",
            "http://a.example/%zz",
            "dns:a.example",
            "http://a.example/\0",
            "mailto:a@b.example",
            "http://a.example:b/",
        ]
        .map(|u| row(u.to_owned(), "sha1:A"));
        let l = learn(rows, &Options::default());
        assert_eq!(l.rows, 6);
        assert_eq!(l.rejected, 3);
        assert_eq!(
            l.rejects,
            [
                (1, "bad-percent-encoding"),
                (3, "invalid-char"),
                (5, "bad-port")
            ]
        );
        assert_eq!(l.not_learnable, 2);
        assert_eq!(l.urls, 1);
    }

    #[test]
    fn a_rule_that_fails_for_the_host_is_narrowed_to_where_it_holds() {
        let mut rows = Vec::new();
        for i in 0..6 {
            // Under /news/ `v` is noise; under /shop/ it picks the product.
            rows.push(row(
                format!("http://a.example/news/p{i}?v=x"),
                &format!("n{i}"),
            ));
            rows.push(row(format!("http://a.example/news/p{i}"), &format!("n{i}")));
            rows.push(row(
                format!("http://a.example/news/p{i}?v=y"),
                &format!("n{i}"),
            ));
            rows.push(row(
                format!("http://a.example/shop/p{i}?v=1"),
                &format!("s{i}a"),
            ));
            rows.push(row(
                format!("http://a.example/shop/p{i}?v=2"),
                &format!("s{i}b"),
            ));
            rows.push(row(
                format!("http://a.example/shop/p{i}"),
                &format!("s{i}a"),
            ));
        }
        let l = learn(rows, &Options::default());
        let v: Vec<_> = l
            .rules
            .iter()
            .filter(|r| matches!(&r.kind, HostRuleKind::IgnoreParam { name } if name == "v"))
            .collect();
        assert_eq!(v.len(), 1, "{:?}", l.rules);
        assert_eq!(v[0].path, "/news/");
        assert_eq!(v[0].confidence, Some(1.0));
        assert!(l.narrowed >= 1);
        // `v=1` is the default under /shop/ (the page without `v` is the
        // first product): that rule holds there, and only there.
        for r in &l.rules {
            assert!(
                r.path != "/" || !matches!(r.kind, HostRuleKind::IgnoreParam { .. }),
                "{r:?}"
            );
        }
    }
}
