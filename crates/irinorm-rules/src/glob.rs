//! Name matching for parameter lists: exact names or globs where `*`
//! matches any run of bytes; ASCII case-insensitive. Linear in the name
//! for the patterns used here (one or two `*`), and never worse than
//! O(pattern × name) for any pattern.

/// Whether `name` matches `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
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

/// Whether `name` matches any pattern.
pub(crate) fn any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| matches(p, name))
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
}
