//! The query section of a rule set with several query rules in one pass
//! (`aggressive`: remove-session-ids, remove-query-params, sort-query,
//! remove-empty-query; settings files add remove-default-query-params).
//!
//! The generic engine ([`crate::apply`]) runs each query rule on its own,
//! each splitting the query (RFC 3986 §3.4; parameters are the
//! `&`-separated parts, LADDER.md "Beyond the ladder"), allocating its own
//! string, and repeats the section until nothing changes: at least two
//! passes. Here the query is split once into parameter spans (an array on
//! the stack: at most [`MAX_PARAMS`] parameters, else the caller falls
//! back to the generic engine), each parameter is judged once by every
//! filtering rule of the set, the kept ones are sorted by name when
//! `sort-query` is in the set, and the query is written once.
//!
//! Decision: the result is exactly the generic engine's fixpoint, the same
//! text and the same rules fired in the same order, for every rule set
//! and settings file; a property test compares them
//! (`tests/prop_query_section.rs`). It follows from the rules' shape:
//! - the three filters (session ids, the parameter list, the defaults)
//!   judge each parameter by its own bytes alone, so running them in turn
//!   keeps the parameters that every one keeps, and a rule fires when it
//!   refuses a parameter the rules before it kept;
//! - a filter leaves an empty query alone (`?`, and `?&sid=1` once
//!   `sid=1` went: one empty parameter left), and when it refuses every
//!   parameter the `?` goes with them; then the later filters do nothing;
//! - sort-query fires when the kept parameters are not in order by name
//!   (as bytes; stable); remove-empty-query when one empty parameter is
//!   left (the query is `?`);
//! - after that first pass no rule fires again: every parameter left is
//!   kept by every filter and they are in order, so the generic engine's
//!   second pass is the fixpoint check that this skips.
//!
//! The `explain` trace (before and after each rule) is the generic
//! engine's: the caller takes this path only when no trace is asked.

use crate::apply::{Names, QUERY_RULES};
use crate::config::{Config, DefaultParam};
use crate::glob;
use crate::name_order::{cmp_names, uri_name_key};
use crate::rule::{RuleName, RuleSet};

/// The most parameters split on the stack; a longer query goes through
/// the generic engine (one bit of a `u64` per parameter).
pub(crate) const MAX_PARAMS: usize = 64;

/// Whether [`run`] serves `rules`: several query rules (a single one is
/// one pass in the generic engine already, and `crawler`'s has its own
/// path in place). Asked for every reference: five tests and a sum.
#[inline]
pub(crate) fn applies(rules: RuleSet) -> bool {
    let [a, b, c, d, e] = QUERY_RULES.map(|r| u8::from(rules.contains(r)));
    a + b + c + d + e >= 2
}

/// What the query becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    /// Unchanged.
    Same,
    /// The `?` goes with it.
    Gone,
    /// This text (after the `?`).
    New(String),
}

/// The section's result: the rules that fired (in the order of
/// [`RuleSet::iter`], the section's order) and the new query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Done {
    pub(crate) fired: RuleSet,
    pub(crate) query: Query,
}

/// The parts of the reference the query rules read.
pub(crate) struct Parts<'a> {
    pub(crate) host: Option<&'a str>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
}

/// The query section of `rules` on `parts`, in one pass; `None` past
/// [`MAX_PARAMS`] parameters (the caller runs the generic engine). The
/// query is the one the ladder wrote (a normal form: the caller does not
/// take this path with host rules, which may rewrite it), where the
/// parameter list may be judged by its prefix table
/// ([`glob::ParamPrefixes`], exact on a normal form) when the pipeline
/// built one, else by its [`glob::NameIndex`].
pub(crate) fn run(
    parts: &Parts<'_>,
    rules: RuleSet,
    config: &Config,
    names: &Names,
) -> Option<Done> {
    use RuleName as R;
    let none = Done {
        fired: RuleSet::EMPTY,
        query: Query::Same,
    };
    let Some(q) = parts.query else {
        return Some(none);
    };
    let b = q.as_bytes();
    if b.len() >= usize::from(u16::MAX) {
        return None;
    }
    // 1. The spans: parameter `i` is `b[starts[i]..ends[i]]`, its name
    // `b[starts[i]..name_ends[i]]` (before its first `=`). The `&` and `=`
    // of each 64-byte block as bit masks, visited in order (no search per
    // parameter: a `memchr` call per `&` and per `=` was a third of this
    // section's cost).
    let mut starts = [0u16; MAX_PARAMS];
    let mut ends = [0u16; MAX_PARAMS];
    let mut name_ends = [0u16; MAX_PARAMS];
    let mut n = 0usize;
    let mut at = 0u16;
    let mut named = false;
    // A query shorter than a block is read from a zero-padded copy (the
    // zeros are neither `&` nor `=`): one copy, then two masks without end
    // tests.
    let mut pad = [0u8; 64];
    let blocks = match b.len() {
        0..64 => {
            pad[..b.len()].copy_from_slice(b);
            &pad[..]
        }
        _ => b,
    };
    let mut base = 0usize;
    loop {
        let amps = block_mask(blocks, base, b'&');
        let mut m = amps | block_mask(blocks, base, b'=');
        while m != 0 {
            let bit = m & m.wrapping_neg();
            let pos = (base + bit.trailing_zeros() as usize) as u16;
            if amps & bit != 0 {
                if n + 1 >= MAX_PARAMS {
                    return None;
                }
                starts[n] = at;
                ends[n] = pos;
                if !named {
                    name_ends[n] = pos;
                }
                n += 1;
                at = pos + 1;
                named = false;
            } else if !named {
                name_ends[n] = pos;
                named = true;
            }
            m ^= bit;
        }
        base += 64;
        if base >= b.len() {
            break;
        }
    }
    let len = b.len() as u16;
    starts[n] = at;
    ends[n] = len;
    if !named {
        name_ends[n] = len;
    }
    n += 1;
    let span = |i: usize| &b[usize::from(starts[i])..usize::from(ends[i])];

    // 2. The verdicts, one bit per parameter and rule.
    let has = |r: RuleName| rules.contains(r);
    let all = u64::MAX >> (64 - n);
    let mut session = 0u64;
    let mut listed = 0u64;
    let mut default = 0u64;
    let defaults: Vec<&DefaultParam> = match parts.host {
        Some(h) if has(R::RemoveDefaultQueryParams) && !config.default_params.is_empty() => config
            .default_params
            .iter()
            .filter(|d| glob::host_matches(&d.host, h) && parts.path.starts_with(&d.path))
            .collect(),
        _ => Vec::new(),
    };
    let prefixes = names.query_prefixes.as_ref();
    let sessions = names.session_prefixes.as_ref();
    for (i, (&start, &name_end)) in starts[..n].iter().zip(&name_ends[..n]).enumerate() {
        let p = span(i);
        let name = &b[usize::from(start)..usize::from(name_end)];
        let bit = 1u64 << i;
        if has(R::RemoveSessionIds) {
            let hit = match sessions {
                Some(pre) => pre.matches_at(b, usize::from(start)),
                None => names.session_ids.matches_bytes(name),
            };
            if hit {
                session |= bit;
            }
        }
        if has(R::RemoveQueryParams) {
            let hit = match prefixes {
                Some(pre) => pre.matches_at(b, usize::from(start)),
                None => names.query_params.matches_bytes(name),
            };
            if hit {
                listed |= bit;
            }
        }
        if !defaults.is_empty() {
            // As remove-default-query-params splits: the name before the
            // first `=`, the value after it (none: empty); exact bytes.
            let value = p.get(name.len() + 1..).unwrap_or(&[]);
            if defaults
                .iter()
                .any(|d| d.name.as_bytes() == name && d.value.as_bytes() == value)
            {
                default |= bit;
            }
        }
    }

    // 3. The filters in turn, on the set of kept parameters (`None`: the
    // `?` went). A filter leaves the empty query (one empty parameter)
    // alone.
    let empty = |m: u64| {
        m.count_ones() == 1
            && starts[m.trailing_zeros() as usize] == ends[m.trailing_zeros() as usize]
    };
    let mut fired = RuleSet::EMPTY;
    let mut live = Some(all);
    let filters = [
        (R::RemoveSessionIds, session),
        (R::RemoveQueryParams, listed),
        (R::RemoveDefaultQueryParams, default),
    ];
    for (r, goes) in filters {
        let Some(m) = live else { break };
        if goes & m == 0 || empty(m) {
            continue;
        }
        // No query rule conflicts with another: the insert cannot fail.
        let _ = fired.insert(r);
        live = Some(m & !goes).filter(|&k| k != 0);
    }

    // 4. The order: the kept parameters' indices, sorted by name when
    // sort-query is in the set and they are out of order.
    let mut order = [0u8; MAX_PARAMS];
    let mut k = 0usize;
    if let Some(mut m) = live {
        while m != 0 {
            order[k] = m.trailing_zeros() as u8;
            k += 1;
            m &= m - 1;
        }
    }
    if has(R::SortQuery) && k >= 2 && sort_by_name(&mut order[..k], b, &starts, &name_ends) {
        let _ = fired.insert(R::SortQuery);
    }
    if has(R::RemoveEmptyQuery) && live.is_some_and(empty) {
        let _ = fired.insert(R::RemoveEmptyQuery);
        live = None;
    }

    // 5. The text, written once.
    if fired.is_empty() {
        return Some(none);
    }
    let query = match live {
        None => Query::Gone,
        Some(_) => {
            let mut out = String::with_capacity(q.len());
            for (j, &i) in order[..k].iter().enumerate() {
                if j > 0 {
                    out.push('&');
                }
                let i = usize::from(i);
                out.push_str(&q[usize::from(starts[i])..usize::from(ends[i])]);
            }
            Query::New(out)
        }
    };
    Some(Done { fired, query })
}

/// Bit `k` set when `b[base + k] == c` (`b` holds at least 64 bytes,
/// `base < b.len()`): a block of 64 bytes inside `b` by
/// [`irinorm_simd::eq_mask64_padded`], without the end tests of
/// [`irinorm_simd::eq_mask64`] (which cost about 75 instructions a block
/// here); the last one as the 64 bytes that end `b`, shifted down to
/// `base`.
#[inline(always)]
fn block_mask(b: &[u8], base: usize, c: u8) -> u64 {
    if base + 64 <= b.len() {
        irinorm_simd::eq_mask64_padded(b, base, c)
    } else {
        // `b.len() - 64 < base`: the bytes before `base` shifted out.
        let w = b.len().saturating_sub(64);
        irinorm_simd::eq_mask64_padded(b, w, c) >> (base - w)
    }
}

/// The first eight bytes of the name `b[s..e]` as a big-endian word,
/// zeros past its end: words in a strict order are names in that order
/// (a shorter name's zeros sort first, as its end does); equal words need
/// the whole names.
#[inline(always)]
fn name_key(b: &[u8], s: usize, e: usize) -> u64 {
    let w = match b.get(s..s + 8) {
        Some(w) => u64::from_be_bytes(w.try_into().expect("8 bytes")),
        None => b[s..]
            .iter()
            .enumerate()
            .fold(0, |w, (k, &c)| w | u64::from(c) << (56 - 8 * k)),
    };
    match e - s {
        len @ 0..8 => w & !(u64::MAX >> (8 * len)),
        _ => w,
    }
}

/// Sorts the parameters `order` (indices of spans of `b`) by name, as
/// bytes, stably (an insertion sort: equal names keep their order);
/// `name_ends`: where each name ends (its first `=`, or the parameter's
/// end). Whether any moved: sort-query fires when some pair of neighbours
/// is out of order, which is when the sort moves one. Names are compared
/// by [`name_key`] (of the `uri`-form name when raw UTF-8 is among its
/// first eight bytes), then, when those are equal, by [`cmp_names`]:
/// the order of the names' `uri`-form bytes (name_order.rs).
fn sort_by_name(order: &mut [u8], b: &[u8], starts: &[u16], name_ends: &[u16]) -> bool {
    let name =
        |i: u8| &b[usize::from(starts[usize::from(i)])..usize::from(name_ends[usize::from(i)])];
    let mut keys = [0u64; MAX_PARAMS];
    for (key, &i) in keys.iter_mut().zip(order.iter()) {
        let i = usize::from(i);
        let (s, e) = (usize::from(starts[i]), usize::from(name_ends[i]));
        *key = name_key(b, s, e);
        // A byte >= 0x80 among the first eight (raw UTF-8: the `iri`
        // form only): the key of the `uri`-form name (name_order.rs).
        if *key & 0x8080_8080_8080_8080 != 0 {
            *key = uri_name_key(&b[s..e]);
        }
    }
    let mut moved = false;
    for j in 1..order.len() {
        let (x, kx) = (order[j], keys[j]);
        let mut at = j;
        while at > 0
            && (keys[at - 1] > kx
                || (keys[at - 1] == kx && cmp_names(name(order[at - 1]), name(x)).is_gt()))
        {
            order[at] = order[at - 1];
            keys[at] = keys[at - 1];
            at -= 1;
        }
        if at != j {
            order[at] = x;
            keys[at] = kx;
            moved = true;
        }
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The section's result on `q` (host `h`, path `/p`) for the rules
    /// `list`, with the default names.
    fn one(q: Option<&str>, list: &str, config: &Config) -> Done {
        let rules = RuleSet::parse_list(list).unwrap();
        let names = Names::new(config, true);
        let parts = Parts {
            host: Some("h"),
            path: "/p",
            query: q,
        };
        let done = run(&parts, rules, config, &names).expect("within the bound");
        // The prefix table and the name index agree on a normal form.
        let index = Names::new(config, false);
        assert_eq!(run(&parts, rules, config, &index), Some(done.clone()));
        done
    }

    fn fired(list: &str) -> RuleSet {
        RuleSet::parse_list(list).unwrap()
    }

    const ALL: &str = "remove-session-ids,remove-query-params,remove-default-query-params,sort-query,remove-empty-query";

    #[test]
    fn nothing_to_do() {
        let c = Config::default();
        for q in [None, Some("a=1&b=2"), Some("a"), Some("a=1")] {
            assert_eq!(one(q, ALL, &c).query, Query::Same, "{q:?}");
            assert!(one(q, ALL, &c).fired.is_empty());
        }
    }

    #[test]
    fn filters_sort_and_empty() {
        let c = Config::default();
        let d = one(Some("b=2&utm_source=x&sid=1&a=1"), ALL, &c);
        assert_eq!(d.query, Query::New("a=1&b=2".into()));
        assert_eq!(
            d.fired,
            fired("remove-session-ids,remove-query-params,sort-query")
        );
        // Every parameter goes: the `?` too, no remove-empty-query.
        let d = one(Some("sid=1&utm_source=x"), ALL, &c);
        assert_eq!(d.query, Query::Gone);
        assert_eq!(d.fired, fired("remove-session-ids,remove-query-params"));
        // The session ids took them all: the tracking list has nothing.
        let d = one(Some("sid=1&PHPSESSID=2"), ALL, &c);
        assert_eq!(
            (d.query, d.fired),
            (Query::Gone, fired("remove-session-ids"))
        );
    }

    #[test]
    fn empty_parameters() {
        let c = Config::default();
        // `?&b=1`: the empty parameter sorts first and stays.
        let d = one(Some("b=1&&utm_x=1"), ALL, &c);
        assert_eq!(d.query, Query::New("&b=1".into()));
        assert_eq!(d.fired, fired("remove-query-params,sort-query"));
        // One empty parameter left: the query is `?`, which
        // remove-empty-query drops (and only it).
        let d = one(Some("&sid=1"), ALL, &c);
        assert_eq!(d.query, Query::Gone);
        assert_eq!(d.fired, fired("remove-session-ids,remove-empty-query"));
        let d = one(Some("&sid=1"), "remove-session-ids,remove-query-params", &c);
        assert_eq!(d.query, Query::New(String::new()));
        assert_eq!(d.fired, fired("remove-session-ids"));
        let d = one(Some(""), ALL, &c);
        assert_eq!(
            (d.query, d.fired),
            (Query::Gone, fired("remove-empty-query"))
        );
        let d = one(Some(""), "remove-session-ids,sort-query", &c);
        assert_eq!((d.query, d.fired), (Query::Same, RuleSet::EMPTY));
        // `&&`: two empty parameters, in order; nothing fires.
        assert_eq!(one(Some("&&"), ALL, &c).query, Query::Same);
    }

    #[test]
    fn an_empty_query_is_left_to_remove_empty_query() {
        // A list that matches the empty name (`*`) still leaves `?` alone,
        // as the generic filter does (it skips an empty query), and once
        // the session ids left `?`, the list does not take it.
        let c = Config {
            query_params: vec!["*".into()],
            ..Config::default()
        };
        let d = one(Some("&sid=1"), "remove-session-ids,remove-query-params", &c);
        assert_eq!(
            (d.query, d.fired),
            (Query::New(String::new()), fired("remove-session-ids"))
        );
        let d = one(Some("&&"), "remove-session-ids,remove-query-params", &c);
        assert_eq!(
            (d.query, d.fired),
            (Query::Gone, fired("remove-query-params"))
        );
    }

    #[test]
    fn parameters_without_equals_and_repeated_names() {
        let c = Config::default();
        let d = one(Some("b&a=2&a&b=1&sid"), ALL, &c);
        assert_eq!(d.query, Query::New("a=2&a&b&b=1".into()));
        assert_eq!(d.fired, fired("remove-session-ids,sort-query"));
        // Names compared as bytes, not as `name=value`: `a` before `a-b`
        // though `a=` sorts after `a-`; `B` before `a`.
        let d = one(Some("a-b=1&a=1&B=1"), "sort-query,remove-empty-query", &c);
        assert_eq!(d.query, Query::New("B=1&a=1&a-b=1".into()));
        // Names sharing their first eight bytes.
        let d = one(Some("abcdefghj=1&abcdefghi=2&abcdefgh=3"), ALL, &c);
        assert_eq!(
            d.query,
            Query::New("abcdefgh=3&abcdefghi=2&abcdefghj=1".into())
        );
    }

    #[test]
    fn default_parameters() {
        let mut c = Config::default();
        for (host, path, name, value) in [
            ("h", "/p", "sort", "asc"),
            ("h", "/p", "id", ""),
            ("other", "/", "page", "1"),
            ("h", "/q", "page", "1"),
        ] {
            c.default_params.push(DefaultParam {
                host: host.into(),
                path: path.into(),
                name: name.into(),
                value: value.into(),
            });
        }
        let d = one(Some("sort=asc&page=1&id&x=1&id="), ALL, &c);
        assert_eq!(d.query, Query::New("page=1&x=1".into()));
        assert_eq!(d.fired, fired("remove-default-query-params"));
        // Exact bytes: `SORT=asc` and `sort=ASC` stay.
        let d = one(Some("SORT=asc&sort=ASC"), ALL, &c);
        assert_eq!((d.query, d.fired), (Query::Same, RuleSet::EMPTY));
    }

    #[test]
    fn past_the_bound_the_generic_engine() {
        let c = Config::default();
        let names = Names::new(&c, true);
        let rules = fired(ALL);
        let q = vec!["a=1"; MAX_PARAMS + 1].join("&");
        let parts = Parts {
            host: Some("h"),
            path: "/",
            query: Some(&q),
        };
        assert_eq!(run(&parts, rules, &c, &names), None);
        let q = vec!["b=1&a=1"; MAX_PARAMS / 2].join("&");
        let parts = Parts {
            query: Some(&q),
            ..parts
        };
        let done = run(&parts, rules, &c, &names).expect("64 parameters");
        let sorted = [vec!["a=1"; MAX_PARAMS / 2], vec!["b=1"; MAX_PARAMS / 2]].concat();
        assert_eq!(done.query, Query::New(sorted.join("&")));
    }

    /// The whole section against the rules one by one (the generic
    /// engine, asked for a trace), through the `aggressive` pipeline (the
    /// prefix tables) and without it (the name indexes): queries of every
    /// length to past two blocks of 64 bytes, with `&` and `=` at every
    /// place of a block, the padded copy of a short query and the shifted
    /// last block included.
    #[test]
    fn every_length_and_place_equals_the_rules_one_by_one() {
        let set = crate::Preset::Aggressive.rule_set();
        let c = Config::default();
        let pipe = crate::Pipeline::preset(crate::Preset::Aggressive);
        let parts = [
            "b=2", "a", "sid=1", "utm_x=1", "", "a=1=2", "Sid", "ab", "=", "x==",
        ];
        let mut next = crate::query_filter::below(0x5eed);
        let mut queries = Vec::new();
        for len in 0..200 {
            for _ in 0..6 {
                let mut q = String::new();
                while q.len() < len {
                    if !q.is_empty() {
                        q.push('&');
                    }
                    q.push_str(parts[next(parts.len())]);
                    // A value of random length moves the next `&`.
                    if next(3) == 0 {
                        q.push_str(&"v".repeat(next(40)));
                    }
                }
                queries.push(q);
            }
        }
        for q in queries {
            let url = format!("https://h/p?{q}");
            let mut want_applied = Vec::new();
            let mut trace = Vec::new();
            let want = crate::apply(
                &url,
                set,
                &c,
                irinorm::ladder::Rung::Scheme,
                &mut want_applied,
                Some(&mut trace),
            )
            .unwrap_or_else(|| url.clone());
            let mut applied = Vec::new();
            let got = crate::apply(
                &url,
                set,
                &c,
                irinorm::ladder::Rung::Scheme,
                &mut applied,
                None,
            )
            .unwrap_or_else(|| url.clone());
            assert_eq!((&got, &applied), (&want, &want_applied), "{url}");
            let mut out = String::new();
            let mut applied = Vec::new();
            pipe.normalize_into(&url, &mut out, &mut applied).unwrap();
            assert_eq!((&out, &applied), (&want, &want_applied), "{url}");
        }
    }

    #[test]
    fn name_keys_order_as_the_names() {
        let names: [&[u8]; 9] = [
            b"",
            b"a",
            b"ab",
            b"abcdefgh",
            b"abcdefghi",
            b"b",
            b"B",
            b"a-",
            b"~",
        ];
        // Each name at the start of a buffer and at its end (the short
        // read near the end).
        for x in names {
            for y in names {
                let kx = name_key(x, 0, x.len());
                let ky = name_key(y, 0, y.len());
                if kx != ky {
                    assert_eq!(kx < ky, x < y, "{x:?} {y:?}");
                }
                let padded = [x, b"=1&more"].concat();
                assert_eq!(name_key(&padded, 0, x.len()), kx);
            }
        }
    }

    #[test]
    fn applies_to_several_query_rules() {
        assert!(applies(crate::Preset::Aggressive.rule_set()));
        assert!(!applies(crate::Preset::Crawler.rule_set()));
        assert!(!applies(fired("sort-query,remove-fragment")));
        assert!(applies(fired("sort-query,remove-empty-query")));
    }
}
