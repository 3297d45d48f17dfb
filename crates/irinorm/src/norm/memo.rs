//! A memo of UTS #46 results per thread ([`super::domain::idn_convert`]).
//!
//! UTS #46 on a host (percent-decoding, mapping, NFC, punycode both ways,
//! the validity checks of §4.1) costs 1,500-8,000 instructions; the rest
//! of a reference's normalization costs 300-3,000. A crawl frontier, an
//! archive's index or a link graph holds many URLs per host, grouped or
//! not, so the same `xn--` or Unicode host is converted again and again:
//! on the frontier generator's 300,000 lines, 9,507 lines with such hosts
//! hold 3,346 distinct ones. The result depends only on the host text, the
//! form and the profile, so it is kept and looked up by them: a direct-mapped
//! table of [`SLOTS`] entries per thread, indexed by a hash of the text
//! (xxh3), each entry holding its full key (a hit is an exact match, never
//! a hash match alone). A miss computes as before and takes the slot.
//!
//! Bounded: at most [`SLOTS`] entries of hosts of at most [`MAX_HOST`]
//! bytes (longer hosts are not kept), with their results, per thread that
//! normalizes. No state is visible: the function is pure, and the memo only
//! saves recomputing it (the unit tests compare every answer with and
//! without it).

use super::Form;
use crate::idn::{IdnaError, IdnaProfile};
use std::cell::RefCell;

/// Entries per thread (a power of two).
pub(crate) const SLOTS: usize = 512;

/// Hosts longer than this are computed, not kept (a DNS name is at most
/// 253 bytes; a percent-encoded one three times that).
pub(crate) const MAX_HOST: usize = 768;

/// The result [`super::domain::idn_convert`] returns.
pub(crate) type Converted = Result<Option<String>, IdnaError>;

struct Entry {
    hash: u64,
    host: Box<str>,
    form: Form,
    profile: IdnaProfile,
    result: Converted,
}

thread_local! {
    static MEMO: RefCell<Vec<Option<Entry>>> = const { RefCell::new(Vec::new()) };
}

/// `compute(host)`'s result for `(host, form, profile)`, from the memo when
/// it holds it.
pub(crate) fn memoized(
    host: &str,
    form: Form,
    profile: &IdnaProfile,
    compute: impl FnOnce() -> Converted,
) -> Converted {
    if host.len() > MAX_HOST {
        return compute();
    }
    let hash = xxhash_rust::xxh3::xxh3_64(host.as_bytes());
    let slot = (hash as usize) & (SLOTS - 1);
    let hit = MEMO.with(|m| {
        let m = m.borrow();
        match m.get(slot) {
            Some(Some(e))
                if e.hash == hash
                    && e.form == form
                    && e.profile == *profile
                    && *e.host == *host =>
            {
                Some(e.result.clone())
            }
            _ => None,
        }
    });
    if let Some(r) = hit {
        return r;
    }
    let result = compute();
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_empty() {
            m.resize_with(SLOTS, || None);
        }
        m[slot] = Some(Entry {
            hash,
            host: host.into(),
            form,
            profile: *profile,
            result: result.clone(),
        });
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idn::AsciiDeny;

    #[test]
    fn a_hit_is_the_computed_answer_for_the_same_key_only() {
        let p = IdnaProfile::default();
        let strict = IdnaProfile {
            deny: AsciiDeny::Std3,
            ..p
        };
        // First call computes and keeps; the second must not compute.
        let a = memoized("memo-test.example", Form::Uri, &p, || Ok(Some("A".into())));
        assert_eq!(a, Ok(Some("A".into())));
        let b = memoized("memo-test.example", Form::Uri, &p, || {
            panic!("computed again")
        });
        assert_eq!(b, a);
        // Another form, profile or text is another key.
        let c = memoized("memo-test.example", Form::Iri, &p, || Ok(None));
        assert_eq!(c, Ok(None));
        let d = memoized("memo-test.example", Form::Uri, &strict, || Ok(None));
        assert_eq!(d, Ok(None));
        let e = memoized("memo-test.example.", Form::Uri, &p, || Ok(None));
        assert_eq!(e, Ok(None));
        // A host too long to keep is computed every time.
        let long = "a".repeat(MAX_HOST + 1);
        let mut n = 0;
        for _ in 0..2 {
            let _ = memoized(&long, Form::Uri, &p, || {
                n += 1;
                Ok(None)
            });
        }
        assert_eq!(n, 2);
    }

    #[test]
    fn slots_are_shared_by_hash_and_an_evicted_key_is_computed_again() {
        let p = IdnaProfile::default();
        // More distinct hosts than slots: every one is answered with its
        // own result (a collision evicts, never answers for another key).
        for round in 0..2 {
            for i in 0..SLOTS * 2 {
                let h = format!("h{i}.memo.example");
                let want = format!("r{i}");
                let got = memoized(&h, Form::Uri, &p, || Ok(Some(want.clone())));
                assert_eq!(got, Ok(Some(want)), "round {round}, {h}");
            }
        }
    }
}
