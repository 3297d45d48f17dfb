//! `file` (RFC 8089 §2): "localhost" as the authority means the local
//! machine, the same as an empty authority: `file://localhost/p` is
//! `file:///p`. Nothing else is touched (drive-letter case and the
//! `file:/p` form are platform questions; see docs/decisions.md).

use crate::parse::split_trusted;

/// Rung 2 for a normalized `file` reference; `None` when nothing changes.
pub(crate) fn normalize(s: &str) -> Option<String> {
    let m = split_trusted(s);
    if m.authority(s) != Some("localhost") {
        return None;
    }
    let a = m
        .authority(s)
        .map(|a| a.as_ptr() as usize - s.as_ptr() as usize)?;
    Some(format!("{}{}", &s[..a], &s[a + "localhost".len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localhost() {
        assert_eq!(
            normalize("file://localhost/etc/hosts").as_deref(),
            Some("file:///etc/hosts")
        );
        assert_eq!(normalize("file:///etc/hosts"), None);
        assert_eq!(normalize("file://host/p"), None);
        assert_eq!(normalize("file://user@localhost/p"), None);
    }
}
