//! What a URL list alone supports (DustBuster's setting without fetching):
//! pairs of listed URLs that differ by one edit a site commonly makes
//! without changing content, taken as "likely the same page". The
//! learner then validates rules on these pairs as on content evidence,
//! but a list cannot tell a `www.` host that is another site, or a
//! case-sensitive server, from an alias: docs/learning.md says what this
//! mode can and cannot learn.

use std::collections::HashMap;

use crate::url::Parts;

/// A value that looks like a session or click token: long, with digits,
/// and letters or a great length (`0a9f33c1d2e4b5f6`, `A1B2C3D4E5`).
fn token_like(v: &str) -> bool {
    v.len() >= 8
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && v.bytes().any(|b| b.is_ascii_digit())
        && (v.bytes().any(|b| b.is_ascii_alphabetic()) || v.len() >= 12)
}

/// A last path segment that names a directory index.
fn index_like(seg: &str) -> bool {
    let l = seg.to_ascii_lowercase();
    ["index.", "default.", "home.", "main.", "start."]
        .iter()
        .any(|p| l.starts_with(p) && !l[p.len()..].contains('.') && l.len() > p.len())
}

fn rebuild(p: &Parts<'_>, scheme: &str, host: &str, path: &str, query: Option<&str>) -> String {
    let mut s = format!("{scheme}://{host}");
    if let Some(port) = p.port {
        s.push(':');
        s.push_str(port);
    }
    s.push_str(path);
    if let Some(q) = query {
        s.push('?');
        s.push_str(q);
    }
    s
}

/// Pairs of URL ids (into `urls`, normal forms) that likely name one page.
pub(crate) fn likely_pairs(urls: &[String]) -> Vec<(u32, u32)> {
    let ids: HashMap<&str, u32> = urls
        .iter()
        .enumerate()
        .map(|(i, u)| (u.as_str(), i as u32))
        .collect();
    // Per host and parameter name: how many values, how many token-like,
    // how many distinct.
    let mut stats: HashMap<(&str, &str), (u32, u32, std::collections::HashSet<&str>)> =
        HashMap::new();
    for u in urls {
        let Some(p) = Parts::of(u) else { continue };
        for kv in p.query.unwrap_or("").split('&').filter(|x| !x.is_empty()) {
            let (n, v) = kv.split_once('=').unwrap_or((kv, ""));
            let e = stats.entry((p.host, n)).or_default();
            e.0 += 1;
            e.1 += u32::from(token_like(v));
            e.2.insert(v);
        }
    }
    let noisy = |host: &str, name: &str| {
        stats.get(&(host, name)).is_some_and(|(n, t, d)| {
            *n >= 2 && f64::from(*t) >= 0.9 * f64::from(*n) && d.len() as f64 >= 0.9 * f64::from(*n)
        })
    };
    let mut pairs = Vec::new();
    let mut without: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, u) in urls.iter().enumerate() {
        let i = i as u32;
        let Some(p) = Parts::of(u) else { continue };
        let mut try_pair = |other: String| {
            if let Some(&j) = ids.get(other.as_str()) {
                if j != i {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        };
        if p.path.len() > 1 {
            let toggled = match p.path.strip_suffix('/') {
                Some(t) => t.to_owned(),
                None => format!("{}/", p.path),
            };
            try_pair(rebuild(&p, p.scheme, p.host, &toggled, p.query));
        }
        let lower = p.path.to_ascii_lowercase();
        if lower != p.path {
            try_pair(rebuild(&p, p.scheme, p.host, &lower, p.query));
        }
        let alt_host = match p.host.strip_prefix("www.") {
            Some(h) => h.to_owned(),
            None => format!("www.{}", p.host),
        };
        try_pair(rebuild(&p, p.scheme, &alt_host, p.path, p.query));
        let alt_scheme = match p.scheme {
            "http" => Some("https"),
            "https" => Some("http"),
            _ => None,
        };
        if let Some(s) = alt_scheme {
            try_pair(rebuild(&p, s, p.host, p.path, p.query));
        }
        let slash = p.path.rfind('/').unwrap_or(0);
        if index_like(&p.path[slash + 1..]) {
            try_pair(rebuild(&p, p.scheme, p.host, &p.path[..=slash], p.query));
        }
        // Token-valued parameters: the URLs equal without them.
        if let Some(q) = p.query {
            let params: Vec<&str> = q.split('&').collect();
            for (k, kv) in params.iter().enumerate() {
                let n = kv.split('=').next().unwrap_or("");
                if !noisy(p.host, n) {
                    continue;
                }
                let rest: Vec<&str> = params
                    .iter()
                    .enumerate()
                    .filter(|&(x, _)| x != k)
                    .map(|(_, s)| *s)
                    .collect();
                let q2 = rest.join("&");
                let q2 = (!q2.is_empty()).then_some(q2.as_str());
                let base = rebuild(&p, p.scheme, p.host, p.path, q2);
                try_pair(base.clone());
                without.entry(base).or_default().push(i);
            }
        }
    }
    for v in without.values() {
        for w in v.windows(2) {
            pairs.push((w[0].min(w[1]), w[0].max(w[1])));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_a_list() {
        let urls: Vec<String> = [
            "http://a.example/x/",
            "http://a.example/x",
            "http://www.a.example/x",
            "https://a.example/y",
            "http://a.example/y",
            "http://a.example/d/",
            "http://a.example/d/home.php",
            "http://a.example/p?s=0a9f33c1d2e4b5f6",
            "http://a.example/p?s=99ab33c1d2e4b5f6",
            "http://a.example/p?page=2",
            "http://a.example/p?page=3",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let pairs = likely_pairs(&urls);
        assert!(pairs.contains(&(0, 1)));
        assert!(pairs.contains(&(1, 2)));
        assert!(pairs.contains(&(3, 4)));
        assert!(pairs.contains(&(5, 6)));
        assert!(pairs.contains(&(7, 8)));
        // Pagination values are not tokens.
        assert!(!pairs.contains(&(9, 10)));
    }
}
