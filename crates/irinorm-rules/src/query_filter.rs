//! `remove-query-params` for the common lists (issue 14, round 6): every
//! parameter's name judged by one probe of a hash table, without a branch
//! that depends on the name and without finding where the name ends.
//!
//! Where it runs: round 5's screen (`apply::filter_query_by_prefixes`)
//! still reads the query up to the first parameter that goes, and this
//! filter takes over from there, in place of round 5's block filter
//! (`apply::filter_query_blocks`, still the fallback). Run on every query
//! from its start (no screen), it brought `query-heavy` from 2.2x to 1.9x
//! `rfc`, but `len 161+` from 1.27x to 1.41x and a data set of one short
//! parameter per query (`isaacs_files.txt`) from 1.1x to 1.4x; neither
//! choice by the `&` of the first block nor by the whole query's density
//! kept the gain without the loss (BENCHMARKS.md, "Issue 14, round 6:
//! crawler").
//!
//! In three steps over the query followed by 64 bytes of padding (pushed
//! onto the output and cut again, so every load has a fixed size and no
//! end test):
//! 1. where each parameter from `from` starts, from the `&` mask of each
//!    64-byte block (`irinorm_simd::eq_mask64_padded`), four positions
//!    written per block without a branch;
//! 2. each parameter judged by [`QueryFilter::goes`]: its first 16 bytes as
//!    two words, case-folded; the bucket from the first `key` bytes (the
//!    shortest pattern's length); each of the bucket's two patterns one
//!    masked compare of the two words and, for an exact name, a lookup of
//!    the byte after it (`=`, `&`, `#` or the padding end the name); the
//!    verdicts gathered in one bit mask;
//! 3. when the mask keeps every parameter, nothing is left written (the
//!    padding is cut); else one cut per run of removed parameters.
//!
//! The list must be made of non-empty names of at most 16 bytes of ASCII
//! letters, digits, `_`, `-`, `.` and `~`, each exact or followed by one
//! `*` (a prefix), at most two of them sharing their first `key` bytes:
//! the default tracking list is (27 patterns, `key` 3, 64 buckets).
//! [`QueryFilter::new`] refuses other lists, and queries of more than
//! [`MAX_PARAMS`] parameters are refused at run time; then round 5's filter
//! (or the simple one) judges, with the same results (docs/rules.md).
//!
//! Case folding sets bit 5 of every byte (ASCII letters: the two cases
//! meet). On a pattern's bytes that is the lower case; a byte of a name
//! folds onto a pattern's byte only when it is that byte, its other case,
//! or a byte that a query in normal form never holds unencoded (controls,
//! DEL, `^`: RFC 3986 §3.4, RFC 3987 §2.2 `iquery`), so on the ladder's
//! output the compare is the ASCII case-insensitive equality of
//! [`crate::glob::matches`]. `=`, `&`, `#`, NUL and non-ASCII bytes never
//! fold onto a pattern's byte: a name shorter than a pattern fails its
//! compare, and a name with `%` is judged byte by byte as the oracle does.

use core::num::NonZeroU64;

/// The longest pattern (without its `*`): two words.
const MAX_NAME: usize = 16;

/// Bit 5 of each byte: the ASCII case fold.
const FOLD: u64 = 0x2020_2020_2020_2020;

/// The first `k` bytes of a word (`k <= 8`).
static MASKS: [u64; 9] = [
    0,
    0xff,
    0xffff,
    0xff_ffff,
    0xffff_ffff,
    0xff_ffff_ffff,
    0xffff_ffff_ffff,
    0xff_ffff_ffff_ffff,
    u64::MAX,
];

/// The bytes that end a parameter's name when they follow it: `=`, `&`,
/// `#` (the fragment after the query) and the padding's zero (a normal
/// form holds no NUL).
static ENDS_NAME: [bool; 256] = {
    let mut t = [false; 256];
    t[0] = true;
    t[b'=' as usize] = true;
    t[b'&' as usize] = true;
    t[b'#' as usize] = true;
    t
};

/// One pattern: its folded words under their masks (the pattern's bytes),
/// the offset of the byte after it, and whether it is a prefix (then that
/// byte does not matter). An empty slot never matches (`k0` outside
/// `m0`).
#[derive(Clone, Copy, Debug)]
struct Slot {
    k0: u64,
    m0: u64,
    k1: u64,
    m1: u64,
    len: u8,
    prefix: bool,
}

const EMPTY: Slot = Slot {
    k0: 1,
    m0: 0,
    k1: 0,
    m1: 0,
    len: 0,
    prefix: true,
};

/// Two slots: the patterns of one bucket.
type Bucket = [Slot; 2];

/// A list of parameter names compiled for [`filter`] (built once per
/// pipeline).
#[derive(Clone, Debug)]
pub(crate) struct QueryFilter {
    /// The patterns by the hash of their first `key` bytes (a
    /// power-of-two count; at most two patterns per bucket: the multiplier
    /// is searched at construction).
    buckets: Box<[Bucket]>,
    /// The first `key` bytes of a word: `key` is the shortest pattern's
    /// length (at most 8), so every pattern is found by its own bytes and
    /// no name's length is needed to hash it.
    key: u64,
    mul: u64,
    shift: u32,
}

/// Whether `c` may be part of a pattern the filter compiles (see the
/// module's doc: bytes whose fold is exact on a normal form, and which
/// never end a name).
fn plain(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'~')
}

/// The folded words of up to 16 bytes (zeros past them).
fn words(b: &[u8]) -> (u64, u64) {
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(b);
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8 bytes"));
    let (w0, w1) = (word(&w[..8]), word(&w[8..]));
    (
        (w0 | FOLD) & MASKS[b.len().min(8)],
        (w1 | FOLD) & MASKS[b.len().saturating_sub(8)],
    )
}

/// The bucket of a name whose folded first word is `f0`.
#[inline(always)]
fn hash(f0: u64, key: u64, mul: u64, shift: u32) -> usize {
    ((f0 & key).wrapping_mul(mul) >> shift) as usize
}

impl QueryFilter {
    /// The filter of `patterns`, or `None` when a pattern is not of the
    /// shape it compiles (see the module's doc: an empty pattern is not),
    /// more than two patterns share their first `key` bytes, or no
    /// multiplier put at most two patterns in each of up to 4,096 buckets.
    pub(crate) fn new(patterns: &[String]) -> Option<Self> {
        let mut slots: Vec<Slot> = Vec::new();
        for p in patterns {
            let b = p.as_bytes();
            let (body, prefix) = match b.split_last() {
                Some((b'*', body)) => (body, true),
                _ => (b, false),
            };
            if body.is_empty() || body.len() > MAX_NAME || !body.iter().all(|&c| plain(c)) {
                return None;
            }
            let (k0, k1) = words(body);
            slots.push(Slot {
                k0,
                m0: MASKS[body.len().min(8)],
                k1,
                m1: MASKS[body.len().saturating_sub(8)],
                len: body.len() as u8,
                prefix,
            });
        }
        slots.sort_unstable_by_key(|s| (s.k0, s.k1, s.len, s.prefix));
        slots.dedup_by_key(|s| (s.k0, s.k1, s.len, s.prefix));
        let shortest = slots.iter().map(|s| usize::from(s.len)).min().unwrap_or(8);
        let key = MASKS[shortest.min(8)];
        // About two buckets per pattern; the search is deterministic
        // (SplitMix64 from a fixed seed).
        let mut bits = (slots.len() * 2)
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut seed = 0x5eed_u64;
        while bits <= 12 {
            let shift = 64 - bits;
            // Each try counts the patterns per bucket (a byte each; a
            // pipeline is built per data set pass in the bench, so the
            // search showed there); the buckets are filled once.
            let mut count = vec![0u8; 1 << bits];
            for _ in 0..200 {
                seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                let mul = (z ^ (z >> 31)) | 1;
                count.fill(0);
                let fits = slots.iter().all(|s| {
                    let c = &mut count[hash(s.k0, key, mul, shift)];
                    *c += 1;
                    *c <= 2
                });
                if fits {
                    let mut buckets = vec![[EMPTY; 2]; 1 << bits];
                    count.fill(0);
                    for s in &slots {
                        let h = hash(s.k0, key, mul, shift);
                        buckets[h][usize::from(count[h])] = *s;
                        count[h] += 1;
                    }
                    return Some(QueryFilter {
                        buckets: buckets.into_boxed_slice(),
                        key,
                        mul,
                        shift,
                    });
                }
            }
            bits += 1;
        }
        None
    }

    /// Whether the parameter at `b[at..]` goes. `b` holds at least 32
    /// bytes from `at` (the padding after the query). Its first 16 bytes
    /// as two words, folded: a pattern matches when they equal its bytes
    /// under its mask and, for an exact name, the byte after it ends the
    /// name (a name shorter than the pattern has `=`, `&`, `#` or zero
    /// under the mask, which no pattern byte folds to). No branch on the
    /// name's bytes, and no search for its end.
    #[inline(always)]
    pub(crate) fn goes(&self, b: &[u8], at: usize) -> bool {
        let w: &[u8; 32] = b[at..at + 32].try_into().expect("32 bytes");
        let mut w0 = [0u8; 8];
        let mut w1 = [0u8; 8];
        w0.copy_from_slice(&w[..8]);
        w1.copy_from_slice(&w[8..16]);
        let f0 = u64::from_le_bytes(w0) | FOLD;
        let f1 = u64::from_le_bytes(w1) | FOLD;
        let bucket =
            &self.buckets[hash(f0, self.key, self.mul, self.shift) & (self.buckets.len() - 1)];
        let hit = |s: &Slot| {
            (f0 & s.m0 == s.k0)
                & (f1 & s.m1 == s.k1)
                & (s.prefix | ENDS_NAME[usize::from(w[usize::from(s.len) & 31])])
        };
        hit(&bucket[0]) | hit(&bucket[1])
    }
}

/// The most parameters [`filter`] judges (one bit each of a `u64`, their
/// starts and the end in an array of 64 `u16`); a query with more goes to
/// the caller's other filter.
pub(crate) const MAX_PARAMS: usize = 63;

/// Padding after the query: the last block's `&` mask and every name's
/// loads (32 bytes) have a fixed size.
const PAD: &str = "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";

/// `remove-query-params` with `f` on the query `out[qs..qe]` (after its
/// `?`), in place: the kept parameters joined by `&` (empty ones
/// included), the `?` dropped when none is kept; the same bytes as
/// `apply::filter_query_in_place` (the oracle of the tests). Returns
/// whether anything went, or `None`, with `out` untouched, when the query
/// has more than [`MAX_PARAMS`] parameters from `from` or 65,535 bytes.
/// `from` is the start of a parameter (0, or just after an `&`): those
/// before it are kept unjudged (the caller's screen has judged them).
#[inline(never)]
pub(crate) fn filter(
    out: &mut String,
    qs: usize,
    qe: usize,
    f: &QueryFilter,
    from: usize,
) -> Option<bool> {
    let len = qe - qs;
    if len == 0 {
        // An empty query is kept (`?` included), as by the oracle.
        return Some(false);
    }
    if len >= usize::from(u16::MAX) {
        return None;
    }
    let end = out.len();
    out.push_str(PAD);
    let b = &out.as_bytes()[qs..];
    // 1. The parameters' starts: `starts[i]` for parameter `i`, and
    // `starts[n + 1]` one past the end (as if an `&` followed).
    let mut starts = [0u16; 64];
    starts[0] = from as u16;
    let mut n = 0usize;
    let mut base = from - from % 64;
    // Whether a fragment follows the query (its `&` are not the query's);
    // else the padding does (`crawler` has cut the fragment already).
    let tail = end > qe;
    // The `&` before `from` are not noted.
    let mut m = irinorm_simd::eq_mask64_padded(b, base, b'&') & (u64::MAX << (from % 64));
    loop {
        if tail && len - base < 64 {
            m &= (1u64 << (len - base)) - 1;
        }
        // Four positions written whatever the mask holds, the count
        // advanced only past real ones (a write past them is overwritten
        // or never read); a fifth `&` in 64 bytes takes the loop. The
        // index is taken modulo the array (no bounds check); a count past
        // the limit is refused below. Bit 63 set for the search makes the
        // word non-zero (`bsf` without the test for zero baseline x86-64
        // adds); with `m` zero its position is written and not counted.
        for _ in 0..4 {
            let tz = NonZeroU64::new(m | 1 << 63).map_or(63, NonZeroU64::trailing_zeros);
            starts[(n + 1) & 63] = (base as u16).wrapping_add(tz as u16 + 1);
            n += usize::from(m != 0);
            m &= m.wrapping_sub(1);
        }
        while m != 0 {
            starts[(n + 1) & 63] = base as u16 + m.trailing_zeros() as u16 + 1;
            n += 1;
            m &= m - 1;
        }
        if n >= MAX_PARAMS {
            out.truncate(end);
            return None;
        }
        base += 64;
        if base >= len {
            break;
        }
        m = irinorm_simd::eq_mask64_padded(b, base, b'&');
    }
    starts[n + 1] = len as u16 + 1;
    // 2. The verdicts.
    let mut gone = 0u64;
    for (i, &at) in starts[..=n].iter().enumerate() {
        gone |= u64::from(f.goes(b, usize::from(at))) << i;
    }
    out.truncate(end);
    if gone == 0 {
        return Some(false);
    }
    let keep = !gone & (u64::MAX >> (63 - n));
    if keep == 0 && from == 0 {
        out.replace_range(qs - 1..qe, "");
        return Some(true);
    }
    // 3. The cuts, one per run of removed parameters, the last run first
    // (the offsets noted stay right). The run `lo..=hi` spans
    // `starts[lo]..starts[hi + 1] - 1`; it goes with the `&` before it when
    // it has one (a kept parameter precedes it), else with the `&` after it
    // (the front run: a kept parameter follows). Chosen without a branch.
    let mut g = gone;
    while g != 0 {
        let hi = 63 - g.leading_zeros() as usize;
        let below = keep & ((1u64 << hi) - 1);
        let lo = 64 - below.leading_zeros() as usize;
        let a = usize::from(starts[lo & 63]);
        let b = usize::from(starts[(hi + 1) & 63]);
        let before = usize::from(a > 0);
        out.drain(qs + a - before..qs + b - before);
        g &= (1u64 << lo).wrapping_sub(1);
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn shapes_it_compiles() {
        let default: Vec<String> = list(crate::config::DEFAULT_TRACKING_PARAMS);
        let f = QueryFilter::new(&default).expect("the default list");
        assert_eq!((default.len(), f.key, f.buckets.len()), (27, MASKS[3], 64));
        assert!(QueryFilter::new(&list(&["a", "sixteen_bytes_ab", "x*"])).is_some());
        // Not compiled: a `*` elsewhere, a `%`, 17 bytes, an empty name,
        // three patterns with the same first `key` bytes.
        for bad in [
            &["*_id"][..],
            &["a*b"],
            &["*"],
            &["a%20b"],
            &["seventeen_bytes_a"],
            &["", "a"],
            &["ab", "abc", "ab*"],
        ] {
            assert!(QueryFilter::new(&list(bad)).is_none(), "{bad:?}");
        }
    }

    /// A list of 80 exact names still finds its perfect hash (in at most
    /// 4,096 slots) and judges each name; 2,000 do not (the caller's other
    /// filter judges them).
    #[test]
    fn a_longer_list_hashes_perfectly() {
        let names = |n: usize| {
            (0..n)
                .map(|i| format!("p{i}_{}", i * 7919))
                .collect::<Vec<_>>()
        };
        assert!(QueryFilter::new(&names(2000)).is_none());
        let names = names(80);
        let f = QueryFilter::new(&names).expect("80 names");
        for n in &names {
            let mut b = n.clone().into_bytes();
            b.extend_from_slice(&[0; 32]);
            assert!(f.goes(&b, 0), "{n}");
            b[n.len() - 1] = 0;
            assert!(!f.goes(&b, 0), "{n}");
        }
    }

    /// The new filter against the simple one (`filter_query_in_place`: a
    /// `memchr` loop and [`NameIndex`], the oracle) on generated queries:
    /// every parameter count to 90 (past the 63 it judges: then `None`),
    /// names of every length 0-20 (around the 8- and 16-byte words),
    /// tracking names with bytes added before or after or one byte
    /// changed, in both cases, empty names, parameters without `=`, values
    /// with `=`, with and without a fragment (holding `&` and `=`), on the
    /// default list and on custom lists (an empty name, 16-byte names,
    /// four prefixes, a long prefix). Same bytes, same answer.
    #[test]
    fn filter_equals_the_simple_one() {
        use crate::apply::filter_query_in_place;
        use crate::glob::NameIndex;
        let lists: Vec<Vec<String>> = vec![
            list(crate::config::DEFAULT_TRACKING_PARAMS),
            list(&[
                "sixteen_bytes_ab",
                "eight_by",
                "nine_byte",
                "q",
                "a.b-c~d",
                "Q*",
            ]),
            list(&[
                "abcdefgh*",
                "x*",
                "ABCDEFGHIJKLMNOP*",
                "id",
                "Seven_7",
                "z*",
            ]),
            list(&["a*", "b*", "ref", "ref_src", "c", "d"]),
            list(&[
                "gclid",
                "gclsrc",
                "sixteen_bytes_ab",
                "sixteen_bytes_a*",
                "abcdefghi",
            ]),
        ];
        let mut state = 0x0123_4567_u64;
        let mut next = move |n: usize| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % n as u64) as usize
        };
        for pats in &lists {
            let f = QueryFilter::new(pats).unwrap_or_else(|| panic!("{pats:?} compiles"));
            let index = NameIndex::new(pats);
            // Names: each pattern (a prefix with 0-12 bytes after it), in
            // upper case, with a byte before or after, one byte short, one
            // byte changed; and names of every length 0-20.
            let mut names: Vec<String> = Vec::new();
            for p in pats {
                let body = p.trim_end_matches('*');
                for tail in ["", "x", "_source", "abcdefghijkl"] {
                    names.push(format!("{body}{tail}"));
                    names.push(format!("{body}{tail}").to_ascii_uppercase());
                }
                names.push(format!("x{body}"));
                if !body.is_empty() {
                    names.push(body[..body.len() - 1].to_owned());
                    let mut b = body.as_bytes().to_vec();
                    let k = b.len() - 1;
                    b[k] ^= 1;
                    names.push(String::from_utf8(b).expect("ASCII"));
                }
            }
            for k in 0..=20 {
                names.push("abcdefghijklmnopqrstu"[..k].to_owned());
                names.push("ref_srcxxxxxxxxxxxxxx"[..k].to_owned());
                names.push("utm_%C3%A9abcdefghijk"[..k].to_owned());
            }
            names.push("é".to_owned());
            let values = [
                "",
                "=",
                "=1",
                "=a=b",
                "=https%3A%2F%2Fa.b%2F%3Fq%3D1",
                "==",
                "=utm_x",
            ];
            let mut queries: Vec<String> = Vec::new();
            for count in 1..=90 {
                for _ in 0..24 {
                    let q: Vec<String> = (0..count)
                        .map(|_| {
                            let v = values[next(values.len())];
                            format!("{}{v}", names[next(names.len())])
                        })
                        .collect();
                    queries.push(q.join("&"));
                }
            }
            // Every name alone and between two others.
            for n in &names {
                for v in values {
                    queries.push(format!("{n}{v}"));
                    queries.push(format!("k=1&{n}{v}&{n}"));
                    // Empty parameters around it (the cut's `&` before or
                    // after it).
                    queries.push(format!("&{n}{v}"));
                    queries.push(format!("{n}{v}&"));
                    queries.push(format!("&&{n}{v}&k&{n}"));
                }
            }
            for q in &queries {
                for frag in ["", "#", "#f&utm_x=1&a"] {
                    let url = format!("http://a/p?{q}{frag}");
                    let (qs, qe) = (11, 11 + q.len());
                    let mut got = url.clone();
                    // From the start, and from a later parameter (as the
                    // screen hands over: those before `from` are kept).
                    let from = match q.len() % 3 {
                        0 => 0,
                        _ => q
                            .match_indices('&')
                            .nth(q.len() % 5)
                            .map_or(0, |(i, _)| i + 1),
                    };
                    // The oracle on the parameters from `from`, the others
                    // put back before them (with the `&` between, unless
                    // nothing from `from` is kept).
                    let (w, want) = {
                        let rest = &q[from..];
                        let mut r = format!("http://a/p?{rest}{frag}");
                        let w = filter_query_in_place(&mut r, 11, 11 + rest.len(), &index);
                        let tail = &r[10..];
                        let want = match (from, tail.strip_prefix('?')) {
                            (0, _) => r.clone(),
                            (_, Some(t)) => format!("http://a/p?{}&{t}", &q[..from - 1]),
                            (_, None) => format!("http://a/p?{}{tail}", &q[..from - 1]),
                        };
                        (w, want)
                    };
                    match filter(&mut got, qs, qe, &f, from) {
                        Some(g) => assert_eq!((g, &got), (w, &want), "{pats:?} {url:?}"),
                        None => {
                            assert_eq!(got, url, "refused, untouched");
                            assert!(q.matches('&').count() >= MAX_PARAMS, "{url:?}");
                        }
                    }
                }
            }
        }
    }
}
