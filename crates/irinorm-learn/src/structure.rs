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

/// What the list says about one parameter of one host.
#[derive(Default)]
struct ParamStats<'u> {
    /// Occurrences.
    n: u32,
    /// Of which token-like values.
    tokens: u32,
    /// Of which all-digit values (ids, pages: usually meaningful).
    numeric: u32,
    /// Occurrences per value.
    values: HashMap<&'u str, u32>,
}

impl ParamStats<'_> {
    /// Session-like: (nearly) every value a distinct token.
    fn tokens(&self) -> bool {
        self.n >= 2
            && f64::from(self.tokens) >= 0.9 * f64::from(self.n)
            && self.values.len() as f64 >= 0.9 * f64::from(self.n)
    }

    /// Noise by value cardinality (DustBuster's "the parameter does not
    /// change the page" guessed from the list): at least 3 values, none
    /// dominant (no default), not numeric (ids and page numbers pick the
    /// page): a tracking source (`src=mail|feed|home`) or a short session
    /// value. A parameter whose value picks the page (`lang=fr`, `ref=a`)
    /// usually has few values or one dominant one; a search term on one
    /// path is stopped by validation (support from 3 distinct paths).
    fn varied(&self) -> bool {
        let max = self.values.values().copied().max().unwrap_or(0);
        self.n >= 3
            && self.values.len() >= 3
            && 2 * max <= self.n
            && 2 * self.numeric < self.n
            && self.values.keys().all(|v| !v.is_empty())
    }

    fn noisy(&self) -> bool {
        self.tokens() || self.varied()
    }

    /// The default value: one value seen at least 3 times and at least
    /// twice as often as any other (`lang=en` beside `lang=fr`).
    fn default_value(&self) -> Option<&str> {
        let mut by: Vec<(u32, &str)> = self.values.iter().map(|(v, n)| (*n, *v)).collect();
        by.sort_unstable_by(|a, b| b.cmp(a));
        let (top, v) = *by.first()?;
        let second = by.get(1).map_or(0, |x| x.0);
        (top >= 3 && top >= 2 * second && second > 0).then_some(v)
    }
}

/// The maximal runs of ASCII digits of `s` outside `%XX` triplets, with
/// whether each is a parameter value (right after `=`).
fn digit_runs(s: &str) -> Vec<(&str, bool)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            i += 3;
            continue;
        }
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push((&s[start..i], start > 0 && b[start - 1] == b'='));
            continue;
        }
        i += 1;
    }
    out
}

/// Scheme, host, port and the numbers of `path?query`.
type NumbersKey<'u> = (&'u str, &'u str, Option<&'u str>, String);

/// Pairs of URL ids (into `urls`, normal forms) that likely name one page;
/// with `aliases`, also the other case of a path and the other `www.`
/// spelling (for a size column to check).
pub(crate) fn likely_pairs(urls: &[String], aliases: bool) -> Vec<(u32, u32)> {
    let ids: HashMap<&str, u32> = urls
        .iter()
        .enumerate()
        .map(|(i, u)| (u.as_str(), i as u32))
        .collect();
    // Per host and parameter name: its values.
    let mut stats: HashMap<(&str, &str), ParamStats<'_>> = HashMap::new();
    for u in urls {
        let Some(p) = Parts::of(u) else { continue };
        for kv in p.query.unwrap_or("").split('&').filter(|x| !x.is_empty()) {
            let (n, v) = kv.split_once('=').unwrap_or((kv, ""));
            let e = stats.entry((p.host, n)).or_default();
            e.n += 1;
            e.tokens += u32::from(token_like(v));
            e.numeric += u32::from(!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
            *e.values.entry(v).or_default() += 1;
        }
    }
    let mut pairs = Vec::new();
    let mut without: HashMap<String, Vec<u32>> = HashMap::new();
    // DustBuster's `story?id=N` / `story_N.html`: URLs of one host with the
    // same numbers, the last one a parameter value in one and in the path
    // in the other.
    let mut by_numbers: HashMap<NumbersKey<'_>, Vec<(u32, bool)>> = HashMap::new();
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
        // Another case of a path, and the other `www.` spelling, only when
        // sizes will check the pair: a list alone cannot tell a
        // case-insensitive server from a case-sensitive one, nor a `www.`
        // alias from a `www.` host that is another site, and these are the
        // merges the `aggressive` preset gets wrong.
        if aliases {
            let lower = p.path.to_ascii_lowercase();
            if lower != p.path {
                try_pair(rebuild(&p, p.scheme, p.host, &lower, p.query));
            }
            let alt_host = match p.host.strip_prefix("www.") {
                Some(h) => h.to_owned(),
                None => format!("www.{}", p.host),
            };
            try_pair(rebuild(&p, p.scheme, &alt_host, p.path, p.query));
        }
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
        // Noise parameters: the URLs equal without them; default values:
        // the URL without the parameter.
        if let Some(q) = p.query {
            let params: Vec<&str> = q.split('&').collect();
            for (k, kv) in params.iter().enumerate() {
                let (n, v) = kv.split_once('=').unwrap_or((kv, ""));
                let Some(st) = stats.get(&(p.host, n)) else {
                    continue;
                };
                let noisy = st.noisy();
                if !noisy && st.default_value() != Some(v) {
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
                if noisy {
                    without.entry(base).or_default().push(i);
                }
            }
        }
        let tail = p.tail();
        let runs = digit_runs(&tail);
        if let Some(&(_, last_is_value)) = runs.last() {
            if runs.len() <= 3 {
                let key: Vec<&str> = runs.iter().map(|r| r.0).collect();
                by_numbers
                    .entry((p.scheme, p.host, p.port, key.join(",")))
                    .or_default()
                    .push((i, last_is_value));
            }
        }
    }
    for v in without.values() {
        for w in v.windows(2) {
            pairs.push((w[0].min(w[1]), w[0].max(w[1])));
        }
    }
    for v in by_numbers.values() {
        // Many URLs with one number are unrelated pages (`/a-5`, `/b-5`).
        if v.len() > 4 {
            continue;
        }
        for (x, &(a, av)) in v.iter().enumerate() {
            for &(b, bv) in &v[x + 1..] {
                if av != bv {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
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
        let pairs = likely_pairs(&urls, true);
        assert!(pairs.contains(&(0, 1)));
        assert!(pairs.contains(&(1, 2)));
        assert!(pairs.contains(&(3, 4)));
        assert!(pairs.contains(&(5, 6)));
        assert!(pairs.contains(&(7, 8)));
        // Pagination values are not tokens.
        assert!(!pairs.contains(&(9, 10)));
        // Without a size column to check them, no case or `www.` pairs.
        assert!(!likely_pairs(&urls, false).contains(&(1, 2)));
    }

    #[test]
    fn varied_values_defaults_and_numbers() {
        let urls: Vec<String> = [
            "http://a.example/p",
            "http://a.example/p?src=mail",
            "http://a.example/q",
            "http://a.example/q?src=feed",
            "http://a.example/r?src=home",
            "http://a.example/r",
            "http://a.example/s?lang=en",
            "http://a.example/s",
            "http://a.example/t?lang=en",
            "http://a.example/t",
            "http://a.example/u?lang=en",
            "http://a.example/u?lang=fr",
            "http://a.example/u",
            "http://a.example/story?id=17",
            "http://a.example/story/17",
            "http://a.example/list?page=2",
            "http://a.example/list?page=3",
            "http://a.example/list?page=4",
            "http://a.example/list",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let pairs = likely_pairs(&urls, false);
        // A parameter with varied values and no default is noise.
        assert!(pairs.contains(&(0, 1)) && pairs.contains(&(2, 3)));
        // `lang=en` is the default; `lang=fr` is not paired.
        assert!(pairs.contains(&(6, 7)) && pairs.contains(&(10, 12)));
        assert!(!pairs.contains(&(11, 12)));
        // The same number as a parameter value and in the path.
        assert!(pairs.contains(&(13, 14)));
        // Page numbers are numeric: never noise.
        assert!(!pairs.iter().any(|&(a, b)| a >= 15 && b >= 15));
    }
}
