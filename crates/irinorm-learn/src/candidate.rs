//! Candidate rules from one pair of URLs with the same content: what
//! single host rule would make them equal. DustBuster (Bar-Yossef et al.
//! 2007, §4) finds `alpha -> beta` substitutions from the envelopes of URL
//! pairs; the parameter, case, slash and alias forms are the special cases
//! a crawler meets most and a person reads best, tried first.

use irinorm_rules::HostRuleKind;

use crate::url::Parts;

/// A candidate: the host it is scoped to and what it does.
pub(crate) type Candidate = (String, HostRuleKind);

/// Which of two hosts with the same content is canonical: the one
/// without `www.`, else the shorter, else the smaller.
pub(crate) fn canonical_host<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.strip_prefix("www.") == Some(b) {
        return b;
    }
    if b.strip_prefix("www.") == Some(a) {
        return a;
    }
    if (a.len(), a) <= (b.len(), b) {
        a
    } else {
        b
    }
}

fn params(q: Option<&str>) -> Vec<(&str, &str)> {
    match q {
        None | Some("") => Vec::new(),
        Some(q) => q
            .split('&')
            .map(|p| p.split_once('=').unwrap_or((p, "")))
            .collect(),
    }
}

/// The candidates that would make `a` and `b` (normal, distinct, same
/// content) equal.
pub(crate) fn of_pair(a: &str, b: &str) -> Vec<Candidate> {
    let (Some(pa), Some(pb)) = (Parts::of(a), Parts::of(b)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if pa.port != pb.port {
        return out;
    }
    let same_rest = pa.path == pb.path && pa.query == pb.query;
    if pa.host != pb.host {
        if same_rest && pa.scheme == pb.scheme {
            let canon = canonical_host(pa.host, pb.host);
            let other = if canon == pa.host { pb.host } else { pa.host };
            out.push((
                other.to_owned(),
                HostRuleKind::AliasHost {
                    to: canon.to_owned(),
                },
            ));
        }
        return out;
    }
    let host = pa.host.to_owned();
    if pa.scheme != pb.scheme {
        if same_rest {
            // The secure scheme is canonical when both serve the same.
            let to = if pa.scheme == "https" || pb.scheme == "https" {
                "https"
            } else {
                pa.scheme.min(pb.scheme)
            };
            out.push((host, HostRuleKind::AliasScheme { to: to.to_owned() }));
        }
        return out;
    }
    if pa.path == pb.path {
        query_candidates(&host, pa.query, pb.query, &mut out);
        return out;
    }
    if pa.query == pb.query {
        let (x, y) = (pa.path, pb.path);
        if x.eq_ignore_ascii_case(y) {
            out.push((host, HostRuleKind::LowercasePath));
            return out;
        }
        let (long, short) = if x.len() > y.len() { (x, y) } else { (y, x) };
        if long.len() == short.len() + 1 && long.ends_with('/') && long.starts_with(short) {
            out.push((host.clone(), HostRuleKind::RemoveTrailingSlash));
            return out;
        }
        if short.ends_with('/') {
            if let Some(name) = long.strip_prefix(short) {
                if !name.contains('/') && !name.is_empty() {
                    out.push((
                        host.clone(),
                        HostRuleKind::DirectoryIndex {
                            name: name.to_owned(),
                        },
                    ));
                    return out;
                }
            }
        }
    }
    substitutions(&host, &pa.tail(), &pb.tail(), &mut out);
    out
}

fn query_candidates(host: &str, qa: Option<&str>, qb: Option<&str>, out: &mut Vec<Candidate>) {
    let (pa, pb) = (params(qa), params(qb));
    let mut sa = pa.clone();
    let mut sb = pb.clone();
    sa.sort();
    sb.sort();
    if sa == sb {
        out.push((host.to_owned(), HostRuleKind::SortQuery));
        return;
    }
    // Names whose values differ (or that one side lacks).
    let mut names: Vec<&str> = pa.iter().chain(&pb).map(|p| p.0).collect();
    names.sort_unstable();
    names.dedup();
    let vals = |ps: &[(&str, &str)], n: &str| -> Vec<String> {
        let mut v: Vec<String> = ps
            .iter()
            .filter(|p| p.0 == n)
            .map(|p| p.1.to_owned())
            .collect();
        v.sort();
        v
    };
    let differing: Vec<&str> = names
        .into_iter()
        .filter(|n| vals(&pa, n) != vals(&pb, n))
        .collect();
    if differing.len() > 3 {
        return;
    }
    for n in differing {
        let (va, vb) = (vals(&pa, n), vals(&pb, n));
        out.push((
            host.to_owned(),
            HostRuleKind::IgnoreParam { name: n.to_owned() },
        ));
        let single = match (va.as_slice(), vb.as_slice()) {
            ([v], []) | ([], [v]) => Some(v.clone()),
            _ => None,
        };
        if let Some(v) = single {
            out.push((
                host.to_owned(),
                HostRuleKind::DefaultParam {
                    name: n.to_owned(),
                    value: v,
                },
            ));
        }
    }
}

/// The envelope of two strings: common prefix and suffix, and the two
/// middles (DustBuster's `alpha`, `beta`), oriented so that the rule
/// shortens; two candidates: the bare middles, and the middles with their
/// left context back to the start of the path segment (narrower, e.g.
/// `/story?id=` -> `/story/` rather than `?id=` -> `/`).
fn substitutions(host: &str, a: &str, b: &str, out: &mut Vec<Candidate>) {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let mut p = x.iter().zip(y).take_while(|(c, d)| c == d).count();
    let max_s = x.len().min(y.len()) - p;
    let s = x
        .iter()
        .rev()
        .zip(y.iter().rev())
        .take(max_s)
        .take_while(|(c, d)| c == d)
        .count();
    // Keep the boundaries on character boundaries (the uri form is ASCII,
    // the iri form may not be) and outside `%XX` triplets (RFC 3986 §2.1):
    // `/%2F` and `/%3F` share `/%`, and a rule `/%3` -> `/%2` would hold a
    // lone `%`, text no normal form holds, that the settings loader refuses
    // (irinorm-rules `config/normal.rs`).
    let in_triplet =
        |t: &[u8], i: usize| (i >= 1 && t[i - 1] == b'%') || (i >= 2 && t[i - 2] == b'%');
    while p > 0 && !(a.is_char_boundary(p) && b.is_char_boundary(p) && !in_triplet(x, p)) {
        p -= 1;
    }
    let mut s = s;
    while s > 0 && (in_triplet(x, x.len() - s) || in_triplet(y, y.len() - s)) {
        s -= 1;
    }
    let (ea, eb) = (a.len() - s, b.len() - s);
    if !(a.is_char_boundary(ea) && b.is_char_boundary(eb)) {
        return;
    }
    let (ma, mb) = (&a[p..ea], &b[p..eb]);
    let ctx_start = a[..p].rfind('/').unwrap_or(0);
    let with_ctx = (
        format!("{}{ma}", &a[ctx_start..p]),
        format!("{}{mb}", &a[ctx_start..p]),
    );
    for (m1, m2) in [(ma.to_owned(), mb.to_owned()), with_ctx] {
        let (from, to) = if (m1.len(), &m1) > (m2.len(), &m2) {
            (m1, m2)
        } else {
            (m2, m1)
        };
        if from.is_empty() || from == to {
            continue;
        }
        out.push((host.to_owned(), HostRuleKind::Substitute { from, to }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(a: &str, b: &str) -> Vec<String> {
        of_pair(a, b)
            .into_iter()
            .map(|(h, k)| format!("{h} {}", k.describe()))
            .collect()
    }

    #[test]
    fn pairs() {
        assert_eq!(
            kinds("http://www.a.example/x", "http://a.example/x"),
            ["www.a.example alias-host -> a.example"]
        );
        assert_eq!(
            kinds("http://a/x", "https://a/x"),
            ["a alias-scheme -> https"]
        );
        assert_eq!(
            kinds("http://a/x?b=1&a=2", "http://a/x?a=2&b=1"),
            ["a sort-query"]
        );
        assert_eq!(
            kinds("http://a/x?id=1&s=9", "http://a/x?id=1&s=7"),
            ["a ignore-param s"]
        );
        assert_eq!(
            kinds("http://a/x?id=1&lang=en", "http://a/x?id=1"),
            ["a ignore-param lang", "a default-param lang=en"]
        );
        assert_eq!(kinds("http://a/X/Y", "http://a/x/y"), ["a lowercase-path"]);
        assert_eq!(
            kinds("http://a/x/", "http://a/x"),
            ["a remove-trailing-slash"]
        );
        assert_eq!(
            kinds("http://a/x/home.php", "http://a/x/"),
            ["a directory-index home.php"]
        );
        // Boundaries outside triplets: not `/%3` -> `/%2`.
        assert_eq!(
            kinds("http://a/n/x%3Fy", "http://a/n/x%2Fy"),
            [
                "a substitute \"%3F\" -> \"%2F\"",
                "a substitute \"/x%3F\" -> \"/x%2F\""
            ]
        );
        // DustBuster's example kind: /story?id=5 and /story/5.
        assert_eq!(
            kinds("http://a/n/story.php?id=5", "http://a/n/story/5"),
            [
                "a substitute \".php?id=\" -> \"/\"",
                "a substitute \"/story.php?id=\" -> \"/story/\""
            ]
        );
    }
}
