//! The order `sort-query` puts parameters in: by name, as the bytes of
//! the name in the `uri` form (LADDER.md "Beyond the ladder": sort-query
//! is "a stable sort of `&`-separated parameters by name"; invariant 5,
//! forms agree: `to_uri(N_iri(x)) == N_uri(x)`).
//!
//! In the `iri` form a name may hold raw UTF-8 where the `uri` form has
//! its triplets (RFC 3987 §3.1: each byte of a non-ASCII character is
//! written `%XX`, upper case). Sorting the raw bytes put `z` before `é`
//! (0x7A < 0xC3) in the `iri` form and `%C3%A9` before `z` (0x25 < 0x7A)
//! in the `uri` form: the two forms disagreed (round 11,
//! `http://a.example/?z=1&é=1` under `aggressive`). Names are compared as
//! if each byte >= 0x80 were written `%XX`; on ASCII names (every name in
//! the `uri` form) this is the byte order.

use core::cmp::Ordering;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `b` as the `uri` form writes it: ASCII as itself, other bytes `%XX`.
fn uri_bytes(b: &[u8]) -> impl Iterator<Item = u8> + '_ {
    b.iter().flat_map(|&c| {
        let (v, n) = if c < 0x80 {
            ([c, 0, 0], 1)
        } else {
            (
                [b'%', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]],
                3,
            )
        };
        v.into_iter().take(n)
    })
}

/// The order of two parameter names: that of their `uri`-form bytes.
/// Not inlined: it runs only when a query is sorted (or, in the one-pass
/// section, for names whose first eight bytes are equal), and inlined into
/// the rules' engine it changed how the compiler built the query filter
/// beside it (`crawler`, which sorts nothing, 1% more instructions).
#[inline(never)]
pub(crate) fn cmp_names(a: &[u8], b: &[u8]) -> Ordering {
    let o = a.cmp(b);
    if o == Ordering::Equal {
        return o;
    }
    // Up to the first difference both are written alike; from there the
    // byte order holds when both bytes are ASCII (or one name has ended).
    let n = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    match (a.get(n), b.get(n)) {
        (Some(&x), Some(&y)) if (x | y) >= 0x80 => uri_bytes(&a[n..]).cmp(uri_bytes(&b[n..])),
        _ => o,
    }
}

/// `q`'s `&`-separated parameters sorted stably by name in the order of
/// [`cmp_names`], or `None` when they are in that order already.
pub(crate) fn sorted_query(q: &str) -> Option<String> {
    fn name(p: &str) -> &[u8] {
        let b = p.as_bytes();
        &b[..b.iter().position(|&c| c == b'=').unwrap_or(b.len())]
    }
    let mut ps: Vec<&str> = q.split('&').collect();
    if ps
        .windows(2)
        .all(|w| cmp_names(name(w[0]), name(w[1])).is_le())
    {
        return None;
    }
    ps.sort_by(|a, b| cmp_names(name(a), name(b)));
    Some(ps.join("&"))
}

/// The first eight bytes of the `uri`-form name, as a big-endian word,
/// zeros past its end: a key in the order of [`cmp_names`] (names hold no
/// NUL), for names that hold a byte >= 0x80 among their first eight
/// (raw UTF-8: the `iri` form only).
#[cold]
#[inline(never)]
pub(crate) fn uri_name_key(name: &[u8]) -> u64 {
    uri_bytes(name)
        .take(8)
        .enumerate()
        .fold(0, |w, (k, c)| w | u64::from(c) << (56 - 8 * k))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round 11: the order of the `uri` form, raw UTF-8 or not.
    #[test]
    fn names_sort_as_their_uri_form() {
        assert_eq!(cmp_names("é".as_bytes(), b"z"), Ordering::Less);
        assert_eq!(cmp_names(b"%C3%A9", b"z"), Ordering::Less);
        // One name in the `uri` form: equal (a stable sort keeps them).
        assert_eq!(cmp_names("é".as_bytes(), b"%C3%A9"), Ordering::Equal);
        // `%` then digits: `%C3%A9` against `%41`, `%C3`, `%D0`.
        assert_eq!(cmp_names("é".as_bytes(), b"%41"), Ordering::Greater);
        assert_eq!(cmp_names("é".as_bytes(), b"%D0"), Ordering::Less);
        assert_eq!(cmp_names(b"a", "aé".as_bytes()), Ordering::Less);
        assert_eq!(cmp_names(b"ab", b"a"), Ordering::Greater);
        assert_eq!(cmp_names(b"a", b"a"), Ordering::Equal);
    }

    #[test]
    fn keys_follow_the_order() {
        let names: [&[u8]; 8] = [
            "é".as_bytes(),
            b"%C3%A9",
            b"z",
            b"%41",
            "aé".as_bytes(),
            b"a",
            "ß".as_bytes(),
            b"%C3%9F",
        ];
        for a in names {
            for b in names {
                if uri_name_key(a) < uri_name_key(b) {
                    assert_eq!(cmp_names(a, b), Ordering::Less, "{a:?} {b:?}");
                }
            }
        }
    }

    /// Round 11: every path that sorts (the rule one by one, the one-pass
    /// query section of `aggressive`, a host's `sort-query` by the
    /// compiled plan and by the general path) puts `é` before `z` in the
    /// `iri` form, as the `uri` form puts `%C3%A9` before `z`.
    #[test]
    fn every_sorting_path_uses_the_uri_order() {
        use crate::{load_toml, Config, Pipeline, Preset, RuleName, RuleSet};
        use irinorm::ladder::{Form, Normalizer, Options, Rung};
        let x = "http://a.example/p?z=1&é=1&utm_source=2";
        let pipe = |form, rules: RuleSet, c: Config| {
            Pipeline::new(Normalizer::new(Options::new(Rung::Scheme, form)), rules, c)
        };
        let mut host = Config::default();
        let mut schemes = irinorm::scheme::SchemeRegistry::builtin();
        load_toml(
            "[[host-rule]]\nhost = \"a.example\"\nrule = \"sort-query\"\n",
            &mut host,
            &mut schemes,
        )
        .unwrap();
        let sets = [
            (
                RuleSet::of(&[RuleName::SortQuery]).unwrap(),
                Config::default(),
            ),
            (Preset::Aggressive.rule_set(), Config::default()),
            (RuleSet::EMPTY, host),
        ];
        for (rules, c) in sets {
            let u = pipe(Form::Uri, rules, c.clone());
            let i = pipe(Form::Iri, rules, c);
            let nu = u.normalize(x).unwrap().text.into_owned();
            let ni = i.normalize(x).unwrap().text.into_owned();
            assert!(nu.contains("?%C3%A9=1&"), "{nu}");
            assert!(ni.contains("?é=1&"), "{ni}");
            let mut fused = String::new();
            i.normalize_text_into(x, &mut fused, &mut Vec::new())
                .unwrap();
            assert_eq!(fused, ni);
        }
    }

    proptest::proptest! {
        /// The order is that of the names mapped to the `uri` form.
        #[test]
        fn order_is_that_of_the_mapped_names(a in "[a-z%é-ü]{0,6}", b in "[a-z%é-ü]{0,6}") {
            let (ua, ub): (Vec<u8>, Vec<u8>) =
                (uri_bytes(a.as_bytes()).collect(), uri_bytes(b.as_bytes()).collect());
            proptest::prop_assert_eq!(cmp_names(a.as_bytes(), b.as_bytes()), ua.cmp(&ub));
        }
    }
}
