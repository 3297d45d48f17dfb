//! `urn` (RFC 8141 §3.1): the NID is case-insensitive; the NSS is
//! case-sensitive unless the namespace says otherwise, as `uuid` does
//! (RFC 9562 §4: hex digits are case-insensitive, output lower case);
//! r-, q- and f-components are not part of URN equivalence (used by
//! `comparison_form`, never by normalization, which keeps them).

use super::{lower_outside_triplets, rule_path};
use crate::parse::split_trusted;

/// `NID = (alphanum) 0*30(ldh) (alphanum)` (RFC 8141 §2).
fn valid_nid(nid: &str) -> bool {
    let b = nid.as_bytes();
    (2..=32).contains(&b.len())
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
}

/// Rung 2 for a normalized `urn`; `None` when nothing changes (or when it
/// is not a URN: nothing is guessed).
pub(crate) fn normalize(s: &str) -> Option<String> {
    // See `dot_segments`: `urn:uuid:/../;Ext=1` resolves to `urn:/;Ext=1`
    // (no NID), while the uuid rule lower-cased the whole NSS.
    let (_, path) = rule_path(s)?;
    let colon = path.find(':')?;
    let (nid, nss) = (&path[..colon], &path[colon..]);
    if !valid_nid(nid) {
        return None;
    }
    let nid_l = nid.to_ascii_lowercase();
    let nss_n = if nid_l == "uuid" {
        lower_outside_triplets(nss)
    } else {
        nss.to_owned()
    };
    if nid_l == nid && nss_n == nss {
        return None;
    }
    let p = path.as_ptr() as usize - s.as_ptr() as usize;
    Some(format!(
        "{}{}{}{}",
        &s[..p],
        nid_l,
        nss_n,
        &s[p + path.len()..]
    ))
}

/// The text URN equivalence compares: without the r-component (`?+`),
/// q-component (`?=`) and f-component (`#`) (RFC 8141 §3.1). `None` when
/// there is nothing to leave out.
pub(crate) fn comparison_form(s: &str) -> Option<String> {
    let m = split_trusted(s);
    let q = m
        .query(s)
        .filter(|q| q.starts_with('+') || q.starts_with('='));
    if q.is_none() && m.fragment(s).is_none() {
        return None;
    }
    let end = if q.is_some() {
        m.path_end as usize
    } else {
        m.query_end as usize
    };
    Some(s[..end].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nid_and_uuid() {
        assert_eq!(
            normalize("urn:ISBN:0451450523").as_deref(),
            Some("urn:isbn:0451450523")
        );
        assert_eq!(normalize("urn:isbn:0451450523"), None);
        assert_eq!(normalize("urn:example:A%2FB").as_deref(), None);
        assert_eq!(
            normalize("urn:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").as_deref(),
            Some("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
        );
        assert_eq!(normalize("urn:-bad:x"), None);
        assert_eq!(normalize("urn:x:y"), None); // one-letter NID is not a NID
    }

    /// Round 8 (prop_ladder's `resolution_commutes`, 40,000 cases): B =
    /// `mailto:/`, R = `urn:uuid:/../;Ext=1` resolves to `urn:/;Ext=1`
    /// (RFC 3986 §5.2.2 removes R's dot segments with its NID), while the
    /// rule lower-cased R's NSS, which survives the removal.
    #[test]
    fn paths_with_dot_segments_are_left_alone() {
        assert_eq!(normalize("urn:uuid:/../;Ext=1"), None);
        assert_eq!(normalize("urn:UUID:A/../B"), None);
        assert_eq!(normalize("urn:ISBN:a/./b"), None);
        assert_eq!(
            normalize("urn:ISBN:a/.b/..c").as_deref(),
            Some("urn:isbn:a/.b/..c")
        );
    }
}
