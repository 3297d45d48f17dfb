//! Name matching for parameter lists: exact names or globs where `*`
//! matches any run of bytes; ASCII case-insensitive. Linear in the name
//! for the patterns used here (one or two `*`), and never worse than
//! O(pattern × name) for any pattern.

/// Whether `name` matches `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    matches_bytes(pattern.as_bytes(), name.as_bytes())
}

/// [`matches`] on bytes (the match is bytewise, ASCII case-insensitive).
fn matches_bytes(p: &[u8], n: &[u8]) -> bool {
    // Most patterns of a list fail on the first byte: a pattern that does
    // not start with `*` must start with the name's first byte.
    if let (Some(&p0), Some(&n0)) = (p.first(), n.first()) {
        if p0 != b'*' && !p0.eq_ignore_ascii_case(&n0) {
            return false;
        }
    }
    if !p.contains(&b'*') {
        return p.eq_ignore_ascii_case(n);
    }
    // Classic two-pointer wildcard match with backtracking to the last '*'.
    let (mut pi, mut ni) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] != b'*' && p[pi].eq_ignore_ascii_case(&n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Whether `name` matches any pattern (what [`NameIndex`] answers faster).
#[cfg(test)]
pub(crate) fn any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| matches(p, name))
}

/// A list of patterns indexed by their first byte (ASCII lower case), so
/// that a name is tried only against the patterns that can match it: those
/// starting with its first byte, and those starting with `*`. Same answers
/// as [`any`] on the list.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex {
    patterns: Vec<String>,
    /// Whether each pattern has a `*` (the others compare as plain names).
    star: Vec<bool>,
    /// Indices into `patterns`, grouped by first byte (CSR: the group of
    /// byte `b` is `order[starts[b]..starts[b + 1]]`).
    order: Vec<u32>,
    starts: Vec<u32>,
    /// Patterns starting with `*`, and the empty pattern.
    wild: Vec<u32>,
}

impl NameIndex {
    pub(crate) fn new(patterns: &[String]) -> Self {
        let first = |p: &String| p.as_bytes().first().map(u8::to_ascii_lowercase);
        let mut wild = Vec::new();
        let mut keyed: Vec<(u8, u32)> = Vec::new();
        for (k, p) in patterns.iter().enumerate() {
            match first(p) {
                Some(b) if b != b'*' => keyed.push((b, k as u32)),
                _ => wild.push(k as u32),
            }
        }
        keyed.sort_unstable();
        let mut starts = vec![0u32; 257];
        for &(b, _) in &keyed {
            starts[b as usize + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        NameIndex {
            patterns: patterns.to_vec(),
            star: patterns.iter().map(|p| p.contains('*')).collect(),
            order: keyed.into_iter().map(|(_, k)| k).collect(),
            starts,
            wild,
        }
    }

    /// Whether `name` matches a pattern of the list.
    #[inline]
    pub(crate) fn matches(&self, name: &str) -> bool {
        self.matches_bytes(name.as_bytes())
    }

    /// [`NameIndex::matches`] on bytes.
    pub(crate) fn matches_bytes(&self, name: &[u8]) -> bool {
        let group = match name.first() {
            Some(&b) => {
                let b = b.to_ascii_lowercase() as usize;
                &self.order[self.starts[b] as usize..self.starts[b + 1] as usize]
            }
            // Only a pattern of `*`s (or the empty one) matches "".
            None => &[][..],
        };
        group.iter().chain(&self.wild).any(|&k| {
            let p = self.patterns[k as usize].as_bytes();
            if self.star[k as usize] {
                matches_bytes(p, name)
            } else {
                p.eq_ignore_ascii_case(name)
            }
        })
    }
}

/// A parameter-name list whose patterns are all plain names or names ending
/// in one `*` (the default tracking list), matched against a whole
/// `name=value` parameter without finding its `=` first: a plain name `n`
/// matches when the parameter starts with `n` followed by `=` or its end;
/// `n*` when it starts with `n` (`n` has no `=`, so it lies in the name).
/// Indexed by first byte (ASCII lower case), patterns stored lower-cased:
/// one table lookup and, for most parameters, no comparison at all. Same
/// answers as [`NameIndex::matches`] on the parameter's name (a property
/// test checks it; issue 14).
#[derive(Clone, Debug, Default)]
pub(crate) struct ParamPrefixes {
    /// (lower-cased bytes without the `*`, whether it ended in `*`),
    /// grouped by first byte: the group of `b` is `pats[starts[b]..starts[b + 1]]`.
    pats: Vec<(Vec<u8>, bool)>,
    /// For each pattern, its first (up to) eight bytes with bit 5 set, and
    /// the mask of those bytes: a parameter whose first eight bytes, with
    /// bit 5 set, differ under the mask cannot match (ASCII case folding
    /// only flips bit 5), so most candidates are refused by one compare.
    quick: Vec<(u64, u64)>,
    starts: Vec<u16>,
}

/// The first eight bytes of `p` (zeros after its end), bit 5 set in each.
#[inline(always)]
fn folded8(p: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let k = p.len().min(8);
    b[..k].copy_from_slice(&p[..k]);
    u64::from_le_bytes(b) | 0x2020_2020_2020_2020
}

impl ParamPrefixes {
    /// `None` when some pattern is not of that shape (the caller uses
    /// [`NameIndex`]), or the list is too long for the index.
    pub(crate) fn new(patterns: &[String]) -> Option<Self> {
        let mut pats = Vec::with_capacity(patterns.len());
        for p in patterns {
            let b = p.as_bytes();
            let (body, prefix) = match b.split_last() {
                Some((b'*', body)) => (body, true),
                _ => (b, false),
            };
            if body.is_empty() || body.iter().any(|c| matches!(c, b'*' | b'=' | b'&')) {
                return None;
            }
            pats.push((body.to_ascii_lowercase(), prefix));
        }
        if pats.len() >= u16::MAX as usize {
            return None;
        }
        pats.sort_unstable_by_key(|(b, _)| b[0]);
        let mut starts = vec![0u16; 257];
        for (b, _) in &pats {
            starts[b[0] as usize + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        let quick = pats
            .iter()
            .map(|(p, _)| {
                let k = p.len().min(8);
                let mask = if k == 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * k)) - 1
                };
                (folded8(p) & mask, mask)
            })
            .collect();
        Some(ParamPrefixes {
            pats,
            quick,
            starts,
        })
    }

    /// Whether the name of the parameter `p` (`name` or `name=value`)
    /// matches a pattern.
    #[inline]
    pub(crate) fn matches_param(&self, p: &[u8]) -> bool {
        let Some(&b) = p.first() else {
            return false;
        };
        let b = b.to_ascii_lowercase() as usize;
        let (lo, hi) = (self.starts[b] as usize, self.starts[b + 1] as usize);
        if lo == hi {
            return false;
        }
        let x = folded8(p);
        (lo..hi).any(|k| {
            let (key, mask) = self.quick[k];
            let (pat, prefix) = &self.pats[k];
            x & mask == key
                && p.len() >= pat.len()
                && p[..pat.len()].eq_ignore_ascii_case(pat)
                && (*prefix || p.len() == pat.len() || p[pat.len()] == b'=')
        })
    }
}

/// Whether a host matches an entry: exact (ASCII case-insensitive), or
/// `*.suffix` for the suffix itself and any subdomain of it.
pub fn host_matches(entry: &str, host: &str) -> bool {
    match entry.strip_prefix("*.") {
        Some(suffix) => {
            host.eq_ignore_ascii_case(suffix)
                || (host.len() > suffix.len()
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
                    && host[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix))
        }
        None => entry.eq_ignore_ascii_case(host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(matches("utm_*", "utm_source"));
        assert!(matches("utm_*", "UTM_Medium"));
        assert!(matches("utm_*", "utm_"));
        assert!(!matches("utm_*", "xutm_source"));
        assert!(matches("*id", "fbclid"));
        assert!(matches("a*b*c", "aXXbYYc"));
        assert!(!matches("a*b*c", "aXXbYY"));
        assert!(matches("gclid", "GCLID"));
        assert!(!matches("gclid", "gclid2"));
        assert!(host_matches("*.example.org", "a.b.example.org"));
        assert!(host_matches("*.example.org", "example.org"));
        assert!(!host_matches("*.example.org", "badexample.org"));
        assert!(host_matches("Example.org", "example.ORG"));
    }

    #[test]
    fn prefixes_agree_with_the_index() {
        let list: Vec<String> = crate::config::DEFAULT_TRACKING_PARAMS
            .iter()
            .map(|s| s.to_string())
            .chain(["Ab".into(), "ab_*".into(), "x".into()])
            .collect();
        let pre = ParamPrefixes::new(&list).expect("the default list is plain names and n*");
        let idx = NameIndex::new(&list);
        let names = [
            "", "=", "utm", "utm_", "UTM_x", "utm_=", "gclid", "GClid", "gclid2", "gcli", "_ga",
            "_g", "ab", "AB", "ab_", "abc", "x", "xx", "hsa_", "hsa", "s_cid", "a%3Db",
        ];
        for n in names {
            for v in ["", "=", "=1", "=a=b", "=utm_"] {
                let p = format!("{n}{v}");
                let name = p.split('=').next().unwrap();
                assert_eq!(pre.matches_param(p.as_bytes()), idx.matches(name), "{p:?}");
            }
        }
        for bad in ["*x", "a*b", "*", "", "a=b", "a&b", "a**"] {
            assert!(ParamPrefixes::new(&[bad.to_string()]).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn index_agrees_with_the_list() {
        let lists: Vec<Vec<String>> = vec![
            crate::config::DEFAULT_TRACKING_PARAMS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            ["*id", "", "A*", "a", "Ab", "\u{e9}x", "**", "x*y"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            Vec::new(),
        ];
        let names = [
            "",
            "a",
            "A",
            "ab",
            "AB",
            "abc",
            "utm_source",
            "UTM_x",
            "utm",
            "gclid",
            "GCLID",
            "fbclid",
            "sid",
            "id",
            "xy",
            "x_y",
            "\u{e9}x",
            "\u{c9}x",
            "*",
            "tapmock",
            "hsa_x",
        ];
        for l in &lists {
            let ix = NameIndex::new(l);
            for n in names {
                assert_eq!(ix.matches(n), any(l, n), "{l:?} {n:?}");
            }
        }
    }
}
