//! `remove-query-params` for the common lists (issue 14, rounds 6-8):
//! every parameter's name judged by one probe of a hash table, without a
//! branch that depends on the name and without finding where the name
//! ends.
//!
//! Where it runs (round 8): on every query of a set that compiles here,
//! in one pass from the query's start ([`filter_query`]): each 64-byte
//! block's `&` mask, each parameter judged where its `&` is found. Until
//! the first parameter that goes, the judge runs in screen mode (an empty
//! bucket refuses by a predicted branch; no start is noted, no frame is
//! set up: most queries end there); from it, [`filter`] notes the starts
//! and judges without that branch (on `query-heavy` one name in three
//! goes, and the predictor loses a branch on the bucket), then cuts.
//! Before round 8, round 5's screen (`apply::filter_query_by_prefixes`,
//! still the fallback past [`MAX_PARAMS`]) read the query with other
//! tables, and this filter re-read it from that block with 64 bytes of
//! padding pushed onto the output. Run from the start on every query
//! without a screen mode, the judge brought `query-heavy` from 2.2x to
//! 1.9x `rfc`, but `len 161+` from 1.27x to 1.41x and a data set of one
//! short parameter per query (`isaacs_files.txt`) from 1.1x to 1.4x
//! (BENCHMARKS.md, "Issue 14, round 6: crawler" and "round 7").
//!
//! No padding (round 8): a full block's mask is four compares without an
//! end test (`irinorm_simd::eq_mask64_padded`); the last, shorter one is
//! the 64 bytes that end the query, shifted down; a name is read as two
//! words and the byte after a 16-byte name where 17 bytes are there, else
//! from the 16 bytes that end the query as one `u128` shifted down to it
//! (zeros above end the name, as the padding did).
//!
//! Tried and dropped (round 9; BENCHMARKS.md, "Issue 14, round 8: crawler,
//! a wide prefilter and one forward compaction"; the code is in the
//! branch's history): a Teddy prefilter (SSSE3 nibble tables of the
//! patterns' first two bytes, only its candidates judged) costs 130
//! instructions per 64-byte block where the block's `&` mask costs ~21 and
//! the judge ~15 per parameter, with one to three parameters per block on
//! the data sets; the cuts as one forward compaction through `Vec<u8>`
//! and `String::from_utf8` cost 403 per query against ~200 for the drains
//! (`from_utf8` alone 190).
//!
//! Issue 14 round 9 (BENCHMARKS.md, "Issue 14, round 9: crawler, the
//! screen's blocks in place"): the screen reads the blocks before the
//! last one, and the names whose 17 bytes are there, from one slice of
//! the output (`first_chunk`: one compare per block, no window chosen, no
//! shift, no range check per name), and the SSE2 block mask is inlined;
//! `len 161+` from 1.38x to 1.29x `rfc` by instructions. Tried in
//! [`filter`] and dropped: the names read in place from one slice (+21
//! instructions per URL on `query-heavy`: both reads inlined in the
//! verdict loop spilled its state), the full blocks read in place (-5, a
//! second data-dependent branch per block for 0.2%); the query's first
//! name judged as a bit carried into the screen's first block (+12 on
//! `len 161+`).
//!
//! Issue 14 round 14 (BENCHMARKS.md, "Issue 14, round 14: `crawler` on
//! query-heavy"): the judges in [`filter`] read their 17 bytes from the
//! query's slice at a `u16` start, and the bucket table has a fixed size
//! (no test of its length per judge): -1.4% on `query-heavy`. Not built:
//! a two-byte prefilter (92.8% of `query-heavy`'s queries lose a
//! parameter, and 3.95 of its 9.57 names a query share their first two
//! bytes with a pattern). Tried and dropped: round 10's `Cuts` for the
//! cuts alone (+0.6%), the byte after a name read without `min(16)`
//! (+0.1%, more mispredicts), the screen's block mask handed to
//! [`filter`] (-1.9% on `query-heavy`, but +0.25-0.5% on the sets where
//! only the screen runs, +7% mispredicts).
//!
//! The judge ([`QueryFilter::goes_bounded`]): the name's first 16 bytes as
//! two words, case-folded; the bucket from the `key` bits of the first
//! word (the shortest pattern's length in bytes, and up to four bits after
//! them that tell apart the patterns those bytes do not: round 7); the
//! bucket's one pattern one masked compare of the two words and, for an
//! exact name, a lookup of the byte after it (`=`, `&`, `#` or the zero
//! past the query end the name); the verdicts gathered in one bit mask,
//! then one cut per run of removed parameters ([`cut_runs`]).
//!
//! The list must be made of non-empty names of at most 16 bytes of ASCII
//! letters, digits, `_`, `-`, `.` and `~`, each exact or followed by one
//! `*` (a prefix), at most 63 once those a prefix covers are dropped, told
//! apart by the key bits (see [`QueryFilter::new`]): the default tracking
//! list is (27 patterns; its first 3 bytes and 2 bits; 1,024 buckets).
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
/// byte does not matter). The empty slot (index 0) never matches (`k0`
/// outside `m0`).
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

/// The most buckets (`1 << 12`): the size of the table, whose first
/// `1 << bits` are used (a hash shifted by `64 - bits` stays below them),
/// so that a lookup masked by the constant needs no bounds check and no
/// test of the table's length (issue 14 round 14: a table of `1 << bits`
/// masked by its length tested that length for zero at every judge).
const MAX_BUCKETS: usize = 1 << 12;

/// The most patterns (after those a prefix covers are dropped; 0 is the
/// empty slot): the slots' table has a fixed size (2.5 KB) and a lookup no
/// bounds check. Longer lists go to round 5's filter.
const MAX_PATTERNS: usize = 63;

/// The most key bits added past the shared first bytes (see
/// [`QueryFilter::new`]): a pattern is placed in at most `1 << 4` buckets.
const MAX_EXTRA_BITS: usize = 4;

/// The folded bytes that can follow an exact name (`=`, `&`, `#`, the
/// padding's zero): a key bit in that byte takes only their values.
const ENDS_FOLDED: [u8; 4] = [b'=' | 0x20, b'&' | 0x20, b'#' | 0x20, 0x20];

/// A list of parameter names compiled for [`filter`] (built once per
/// pipeline).
#[derive(Clone, Debug)]
pub(crate) struct QueryFilter {
    /// For each bucket, the index in `slots` of the one pattern a name
    /// hashed there may match (0: none). One pattern per bucket: a name
    /// costs one compare (round 6 had two slots per bucket, 26 of the
    /// judge's 44 instructions).
    index: Box<[u8; MAX_BUCKETS]>,
    slots: Box<[Slot; MAX_PATTERNS + 1]>,
    /// The bits of a name's folded first word that are hashed: its first
    /// bytes (as many as the shortest pattern has) and up to
    /// [`MAX_EXTRA_BITS`] bits after them that tell apart the patterns
    /// those bytes do not (`gclid`/`gclsrc`, `mc_cid`/`mc_eid`,
    /// `_hsenc`/`_hsmi`, `oly_anon_id`/`oly_enc_id` in the default list).
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

/// The values each bit of a name's folded first word can have when the
/// name matches `s`: (bits that can be 0, bits that can be 1). The
/// pattern's bytes fix theirs; the byte after an exact name is one of
/// [`ENDS_FOLDED`]; any other byte is free but for bit 5 (the fold sets it).
fn bit_values(s: &Slot) -> (u64, u64) {
    let fixed = MASKS[usize::from(s.len).min(8)];
    let mut can0 = !fixed & !FOLD;
    let mut can1 = !fixed;
    can0 |= fixed & !s.k0;
    can1 |= fixed & s.k0;
    if !s.prefix && s.len < 8 {
        let at = 8 * u32::from(s.len);
        let byte = 0xffu64 << at;
        let (e0, e1) = ENDS_FOLDED.iter().fold((0u64, 0u64), |(z, o), &e| {
            (z | u64::from(!e) << at, o | u64::from(e) << at)
        });
        can0 = (can0 & !byte) | e0;
        can1 = (can1 & !byte) | e1;
    }
    (can0, can1)
}

/// The hashed words under which `s` can be found with `key`: its fixed
/// bits, each extra bit past them taken at every value it can have.
fn placements(s: &Slot, key: u64, base: u64, out: &mut Vec<(u64, u8)>, id: u8) {
    let (can0, can1) = bit_values(s);
    let first = out.len();
    out.push((s.k0 & base, id));
    let mut extra = key & !base;
    while extra != 0 {
        let bit = extra & extra.wrapping_neg();
        extra &= extra - 1;
        let (zero, one) = (can0 & bit != 0, can1 & bit != 0);
        for i in first..out.len() {
            let (x, _) = out[i];
            match (zero, one) {
                (true, true) => out.push((x | bit, id)),
                (false, _) => out[i].0 = x | bit,
                (true, false) => {}
            }
        }
    }
}

/// Name starts that are common in crawled links and never a tracking
/// name: `amp;` is what an `&amp;` left by HTML escaping makes of the next
/// parameter's name (1,310 of the 12,337 names of the corpora, 452 of the
/// 1,164 of `len 161+`; issue 14 round 16). All such names hash to the
/// one or few buckets that their first bytes and the key bits past them
/// give; when one of those held a pattern, every such name took the
/// judge's compares and the screen's empty-bucket branch went the other
/// way about one name in two (the default list's first multiplier put
/// one there: 327 of `len 161+`'s 633 in-place judges).
const DECOY_STARTS: &[&[u8]] = &[b"amp;"];

/// The hashed words of the names that start with a [`DECOY_STARTS`]
/// entry: its folded bytes under `key`, each key bit past them at both
/// values (a bit under them is fixed); none when more than
/// [`MAX_EXTRA_BITS`] key bits are past it. Leaving their buckets empty is a
/// preference of the multiplier's search, not a matter of correctness
/// (a name in a pattern's bucket is still compared). A decoy that equals
/// a pattern's placement is left out (no multiplier separates them).
fn decoys(key: u64, places: &[(u64, u8)]) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for start in DECOY_STARTS {
        let n = start.len().min(8);
        let (w, _) = words(&start[..n]);
        let mut free = key & !MASKS[n];
        if free.count_ones() > MAX_EXTRA_BITS as u32 {
            // Key bits past the start spread such names over many buckets
            // already (a list whose shortest pattern is longer than it).
            continue;
        }
        let first = out.len();
        out.push(w & key);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            for i in first..out.len() {
                out.push(out[i] | bit);
            }
        }
    }
    out.retain(|d| !places.iter().any(|(x, _)| x == d));
    out
}

impl QueryFilter {
    /// The filter of `patterns`, or `None` when a pattern is not of the
    /// shape it compiles (see the module's doc: an empty pattern is not),
    /// the list has more than 63 patterns, two of them cannot be told
    /// apart by their first eight bytes and [`MAX_EXTRA_BITS`] more key
    /// bits, or no multiplier put at most one pattern in each of up to
    /// 4,096 buckets. A pattern that a prefix in the list already covers
    /// (`ab` or `abc*` beside `ab*`) is dropped: it adds no match.
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
        // Shorter first, a prefix before an exact name of its length.
        slots.sort_unstable_by_key(|s| (s.len, !s.prefix, s.k0, s.k1));
        slots.dedup_by_key(|s| (s.len, !s.prefix, s.k0, s.k1));
        // Drop what a prefix covers (it sorts before what it covers).
        let covers = |p: &Slot, s: &Slot| {
            p.prefix && p.len <= s.len && (s.k0 & p.m0 == p.k0) && (s.k1 & p.m1 == p.k1)
        };
        let mut kept: Vec<Slot> = Vec::new();
        for s in &slots {
            if !kept.iter().any(|p| covers(p, s)) {
                kept.push(*s);
            }
        }
        let slots = kept;
        if slots.len() > MAX_PATTERNS {
            return None;
        }
        let shortest = slots.iter().map(|s| usize::from(s.len)).min().unwrap_or(8);
        let base = MASKS[shortest.min(8)];
        // Key bits added one at a time, each the one that tells apart the
        // most pairs still alike on every key bit (two patterns are apart
        // at a bit when the values they allow there are disjoint).
        let values: Vec<(u64, u64)> = slots.iter().map(bit_values).collect();
        let apart = |i: usize, j: usize| {
            let ((a0, a1), (b0, b1)) = (values[i], values[j]);
            !((a0 & b0) | (a1 & b1))
        };
        // The pairs not told apart by the first bytes, with the bits that
        // would (computed once: a pipeline is built per pass in the bench).
        let mut alike: Vec<u64> = Vec::new();
        for i in 0..slots.len() {
            for j in i + 1..slots.len() {
                let sep = apart(i, j);
                if sep & base == 0 {
                    alike.push(sep & !FOLD);
                }
            }
        }
        let mut key = base;
        while !alike.is_empty() {
            if (key & !base).count_ones() == MAX_EXTRA_BITS as u32 {
                return None;
            }
            let mut count = [0u16; 64];
            for &sep in &alike {
                let mut m = sep;
                while m != 0 {
                    count[m.trailing_zeros() as usize] += 1;
                    m &= m - 1;
                }
            }
            let (n, bit) = (0..64).map(|b| (count[b], 63 - b)).max()?;
            if n == 0 {
                return None;
            }
            key |= 1 << (63 - bit);
            alike.retain(|&sep| sep & key == 0);
        }
        let mut places: Vec<(u64, u8)> = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            placements(s, key, base, &mut places, i as u8 + 1);
        }
        let decoys = decoys(key, &places);
        // About sixteen buckets per placement (a one-per-bucket hash is
        // found in one or two tries: 35 placements, 1,024 buckets for the
        // default list); the search is deterministic (SplitMix64 from a
        // fixed seed). A failed try clears only the buckets it wrote. A
        // multiplier that also leaves the decoys' buckets empty is
        // preferred; when none of the 16 tries after a size's first
        // perfect one does, that one is taken (the decoys never make the
        // table larger).
        let mut bits = (places.len() * 16)
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut seed = 0x5eed_u64;
        let mut owner: Vec<u8> = Vec::new();
        while (1usize << bits) <= MAX_BUCKETS {
            let shift = 64 - bits;
            // Zero: a failed try clears what it wrote.
            owner.resize(1 << bits, 0);
            let mut first: Option<(u64, Vec<u8>)> = None;
            // After the first perfect multiplier, a few more tries for the
            // decoys (each is free with a probability near that of a
            // bucket: 0.97 for the default list), not 200.
            let mut tries_left = 16;
            for _ in 0..200 {
                seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                let mul = (z ^ (z >> 31)) | 1;
                let placed = places
                    .iter()
                    .take_while(|&&(x, id)| {
                        let o = &mut owner[hash(x, u64::MAX, mul, shift)];
                        let free = *o == 0 || *o == id;
                        if free {
                            *o = id;
                        }
                        free
                    })
                    .count();
                let perfect = placed == places.len();
                let clear = perfect
                    && decoys
                        .iter()
                        .all(|&x| owner[hash(x, u64::MAX, mul, shift)] == 0);
                if clear {
                    return Some(Self::with_table(&slots, &owner, key, mul, shift));
                }
                if perfect && first.is_none() {
                    first = Some((mul, owner.clone()));
                }
                for &(x, _) in &places[..placed] {
                    owner[hash(x, u64::MAX, mul, shift)] = 0;
                }
                if first.is_some() {
                    tries_left -= 1;
                    if tries_left == 0 {
                        break;
                    }
                }
            }
            if let Some((mul, owner)) = first {
                return Some(Self::with_table(&slots, &owner, key, mul, shift));
            }
            bits += 1;
        }
        None
    }

    /// The filter of the patterns `slots` whose buckets `owner` gives.
    fn with_table(slots: &[Slot], owner: &[u8], key: u64, mul: u64, shift: u32) -> Self {
        let mut index: Box<[u8; MAX_BUCKETS]> = vec![0u8; MAX_BUCKETS]
            .into_boxed_slice()
            .try_into()
            .expect("4,096 buckets");
        index[..owner.len()].copy_from_slice(owner);
        let mut table: Box<[Slot; MAX_PATTERNS + 1]> = vec![EMPTY; MAX_PATTERNS + 1]
            .into_boxed_slice()
            .try_into()
            .expect("64 slots");
        table[1..=slots.len()].copy_from_slice(slots);
        QueryFilter {
            index,
            slots: table,
            key,
            mul,
            shift,
        }
    }

    /// Whether the parameter at `b[at..]` goes. `b` holds at least 32
    /// bytes from `at` (the padding after the query). Its first 16 bytes
    /// as two words, folded: the one pattern of its bucket matches when
    /// they equal its bytes under its mask and, for an exact name, the
    /// byte after it ends the name (a name shorter than the pattern has
    /// `=`, `&`, `#` or zero under the mask, which no pattern byte folds
    /// to). No branch on the name's bytes, and no search for its end.
    #[cfg(test)]
    pub(crate) fn goes(&self, b: &[u8], at: usize) -> bool {
        let w: &[u8; 32] = b[at..at + 32].try_into().expect("32 bytes");
        self.judge(word(&w[..8]), word(&w[8..16]), |k| w[k & 31], false)
    }

    /// [`Self::goes`] on the parameter at `at` of the query `o[qs..qs +
    /// len]`, in the output `o` (a fragment's `#` may follow the query, or
    /// nothing), without padding (round 8: pushing 64 bytes of padding and
    /// cutting them again was a fixed cost of every query). The judge
    /// reads 17 bytes from the name (two words and the byte after a
    /// 16-byte name): where they are there, straight loads (a fragment's
    /// bytes after its `#` do not matter: `#` ends the name and folds onto
    /// no pattern byte); in the output's last 16 bytes, the 16 bytes that
    /// end the query as one `u128` shifted down to the name, which brings
    /// in the zeros that end it as the padding did (an output shorter than
    /// 16 bytes: copied into a zeroed window).
    ///
    /// `screen`: a name whose bucket is empty is refused by a branch
    /// before the compares (round 4's screen, now the same pass: taken
    /// until the first parameter that goes, where the branch is predicted
    /// on queries without tracking names; after it, no branch).
    #[inline(always)]
    pub(crate) fn goes_bounded(
        &self,
        o: &[u8],
        qs: usize,
        at: usize,
        len: usize,
        screen: bool,
    ) -> bool {
        let p = qs + at;
        if let Some(w) = o.get(p..p + 17) {
            let w: &[u8; 17] = w.try_into().expect("17 bytes");
            let (f0, f1) = (word(&w[..8]), word(&w[8..16]));
            return self.judge(f0, f1, |k| w[k.min(16)], screen);
        }
        let qe = qs + len;
        let name = match o.get(qe.wrapping_sub(16)..qe) {
            Some(t) => {
                // `at <= len` (a parameter's start), and `len - at <= 16`
                // here: the query's last `len - at` bytes, zeros above.
                let t = u128::from_le_bytes(t.try_into().expect("16 bytes"));
                t.checked_shr(8 * (16 - (len - at)) as u32).unwrap_or(0)
            }
            None => {
                let mut w = [0u8; 16];
                let r = o.get(p..qe).unwrap_or(&[]);
                w[..r.len()].copy_from_slice(r);
                u128::from_le_bytes(w)
            }
        };
        let (f0, f1) = (name as u64, (name >> 64) as u64);
        self.judge(
            f0,
            f1,
            |k| (name.checked_shr(8 * k as u32).unwrap_or(0) & 0xff) as u8,
            screen,
        )
    }

    /// [`Self::goes`] on a name whose 17 bytes are `w` (two words and the
    /// byte after a 16-byte name: all in the output).
    #[inline(always)]
    fn goes_in(&self, w: &[u8], screen: bool) -> bool {
        let w: &[u8; 17] = w.try_into().expect("17 bytes");
        self.judge(word(&w[..8]), word(&w[8..16]), |k| w[k.min(16)], screen)
    }

    /// The verdict on a name whose first 16 bytes are the words `w0`,
    /// `w1` (not yet folded), `after(k)` its byte `k` (`k <= 16`): see
    /// [`Self::goes`] and, for `screen`, [`Self::goes_bounded`].
    #[inline(always)]
    fn judge(&self, w0: u64, w1: u64, after: impl Fn(usize) -> u8, screen: bool) -> bool {
        let f0 = w0 | FOLD;
        let f1 = w1 | FOLD;
        let h = hash(f0, self.key, self.mul, self.shift);
        let i = self.index[h & (MAX_BUCKETS - 1)];
        if screen && i == 0 {
            return false;
        }
        let s = &self.slots[usize::from(i) & MAX_PATTERNS];
        (f0 & s.m0 == s.k0)
            & (f1 & s.m1 == s.k1)
            & (s.prefix | ENDS_NAME[usize::from(after(usize::from(s.len)))])
    }
}

/// A word from 8 bytes.
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

/// The bytes [`filter_query`] reads from a block's start: its 64 bytes
/// and the 17 a judge reads from its byte 64 (an `&` at byte 63).
const WIDE: usize = 64 + 17;

/// The most parameters [`filter`] judges (one bit each of a `u64`, their
/// starts and the end in an array of 72 `u16`: room for a block's four
/// unconditional writes); a query with more goes to
/// the caller's other filter.
pub(crate) const MAX_PARAMS: usize = 63;

/// The `&` of the query `o[qs..qs + len]` in the 64 bytes from its byte
/// `base`, bits past the query clear: a full block is four compares
/// without an end test (`eq_mask64_padded`); the last, shorter block is
/// the 64 bytes that end the query (the output's path, host... before
/// it) shifted down to `base`, so no padding is needed (round 8); only a
/// query that ends in the output's first 64 bytes takes the checked
/// compares.
#[inline(always)]
fn amps(o: &[u8], qs: usize, len: usize, base: usize) -> u64 {
    let qe = qs + len;
    if qe >= 64 {
        // The window: the block itself when 64 bytes of the query are
        // there, else the 64 bytes that end the query; chosen by a
        // `min` (a conditional move), not a branch: which block is the
        // last one was a mispredicted branch per query on `query-heavy`
        // (1.1 per URL by callgrind's branch simulation).
        let w = (qs + base).min(qe - 64);
        irinorm_simd::eq_mask64_padded(o, w, b'&') >> (qs + base - w)
    } else {
        let rest = len - base;
        irinorm_simd::eq_mask64(o, qs + base, b'&') & (u64::MAX >> 64usize.saturating_sub(rest))
    }
}

/// `remove-query-params` with `f` on the query `out[qs..qe]`, as
/// [`filter`] from the query's start (the same results): [`screen`], then
/// [`filter`] from the first parameter that goes. From the first
/// parameter that goes, [`filter`] takes over: only that parameter's
/// block mask is made again (round 8; before it, the screen had its own
/// tables and the filter re-read from that block with padding pushed onto
/// the output).
#[inline(always)]
pub(crate) fn filter_query(
    out: &mut String,
    qs: usize,
    qe: usize,
    f: &QueryFilter,
) -> Option<bool> {
    match screen(out.as_bytes(), qs, qe, f) {
        Some(at) => filter(out, qs, qe, f, at),
        None => Some(false),
    }
}

/// The start (from `qs`) of the first parameter of the query `o[qs..qe]`
/// that `f` removes, or `None` when none goes: read-only, in one pass over
/// the query with one judge ([`QueryFilter::goes_bounded`]): the `&` of
/// each block of 64 bytes and each parameter judged in screen mode (a name
/// whose bucket is empty costs a predicted branch, no compare); most
/// queries lose nothing, and then this is all (no frame, no starts noted:
/// `isaacs_files.txt`, one short parameter per query; `len 161+`). Apart
/// from [`filter_query`] since issue 14 round 17, so that `crawler`'s
/// rules stage screens with no frame for the cuts (`apply::quick_in_place`).
#[inline(always)]
pub(crate) fn screen(o: &[u8], qs: usize, qe: usize, f: &QueryFilter) -> Option<usize> {
    let len = qe - qs;
    if len == 0 {
        return None;
    }
    if len <= 64 && qe >= 64 {
        // One block, the 64 bytes that end the query: one parameter is
        // one judge (no loop).
        let m = irinorm_simd::eq_mask64_padded(o, qe - 64, b'&') >> (64 - len);
        if m == 0 {
            return f.goes_bounded(o, qs, 0, len, true).then_some(0);
        }
    }
    // The bytes the blocks below may read in place: to 16 past the
    // query's last byte, within the output (sliced once, so that each
    // read's test is the slice's bounds check).
    let region = o.get(qs..(qs + len + 16).min(o.len())).unwrap_or_default();
    let first = match region.get(..17) {
        Some(w) => f.goes_in(w, true),
        None => f.goes_bounded(o, qs, 0, len, true),
    };
    if first {
        return Some(0);
    }
    let mut base = 0;
    // The blocks before the last one whose names can all be read in place
    // (an `&` at the block's byte 63 starts a name at 64, whose 17 bytes
    // end at 81): one bounds check per block for its mask and its judges,
    // no window chosen, no shift (issue 14 round 9: those were ~10 instructions per
    // block and ~8 per judge on `len 161+`). The last block, and blocks
    // too near the output's end, are read by the checked code below.
    // (Tried: the query's first name judged in this loop as a bit carried
    // into the first block's mask, the last `&` of each block carried into
    // the next: +12 instructions per URL on `len 161+`.)
    // A block is read in place when its `WIDE` bytes are in `region`
    // (then it is not the last block: `base + 64 < len`).
    let mut rest = region;
    while let Some(w) = rest.first_chunk::<WIDE>() {
        rest = &rest[64..];
        let mut m = irinorm_simd::eq_mask64_padded(w, 0, b'&');
        while m != 0 {
            let at = m.trailing_zeros() as usize + 1;
            if f.goes_in(&w[at..at + 17], true) {
                return Some(base + at);
            }
            m &= m - 1;
        }
        base += 64;
    }
    loop {
        let mut m = amps(o, qs, len, base);
        while m != 0 {
            let at = base + m.trailing_zeros() as usize + 1;
            if f.goes_bounded(o, qs, at, len, true) {
                return Some(at);
            }
            m &= m - 1;
        }
        base += 64;
        if base >= len {
            return None;
        }
    }
}

/// `remove-query-params` with `f` on the query `out[qs..qe]` (after its
/// `?`), in place: the kept parameters joined by `&` (empty ones
/// included), the `?` dropped when none is kept; the same bytes as
/// `apply::filter_query_in_place` (the oracle of the tests). Returns
/// whether anything went, or `None`, with `out` untouched, when the query
/// has more than [`MAX_PARAMS`] parameters from `from` or 65,535 bytes.
/// `from` is the start of a parameter (0, or just after an `&`): those
/// before it are kept unjudged. Since round 8 `crawler` calls it with
/// `from` 0 on every query (no screen before it): one pass over the
/// query's `&` masks, one judge per parameter, the cuts.
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
    // The query and what follows it (a fragment, or nothing).
    let o = out.as_bytes();
    // 1. The parameters' starts: `starts[i]` for parameter `i`, and
    // `starts[n + 1]` one past the end (as if an `&` followed).
    let mut starts = [0u16; 72];
    starts[0] = from as u16;
    let mut n = 0usize;
    let mut base = from - from % 64;
    // The `&` before `from` are not noted.
    let mut m = amps(o, qs, len, base) & (u64::MAX << (from % 64));
    loop {
        // Four positions written whatever the mask holds, at fixed
        // offsets from one slice of the array taken per block (one bounds
        // check, no index per write: `n < MAX_PARAMS` here, so they end
        // before 68), the count advanced by the real ones (a write past
        // them is overwritten or never read); a fifth `&` in 64 bytes
        // takes the loop, whose index is taken modulo 64 (a count past the
        // limit is refused below, whatever it overwrote). Bit 63 set for
        // the search makes the word non-zero (`bsf` without the test for
        // zero baseline x86-64 adds); with `m` zero its position is
        // written and not counted. (Round 8 judged each parameter in this
        // loop, where its `&` is found, without the array: 2% fewer
        // instructions on `query-heavy`, but the exit of the loop over a
        // block's `&` is data-dependent and lost the predictor: 2.30-2.36x
        // `rfc` in time against 2.13-2.16 for the base in the same runs.)
        let at = (base as u16).wrapping_add(1);
        let dst: &mut [u16; 4] = (&mut starts[n + 1..n + 5]).try_into().expect("4");
        for d in dst {
            let tz = NonZeroU64::new(m | 1 << 63).map_or(63, NonZeroU64::trailing_zeros);
            *d = at.wrapping_add(tz as u16);
            n += usize::from(m != 0);
            m &= m.wrapping_sub(1);
        }
        while m != 0 {
            starts[(n + 1) & 63] = at.wrapping_add(m.trailing_zeros() as u16);
            n += 1;
            m &= m - 1;
        }
        if n >= MAX_PARAMS {
            return None;
        }
        base += 64;
        if base >= len {
            break;
        }
        m = amps(o, qs, len, base);
    }
    starts[n + 1] = len as u16 + 1;
    // 2. The verdicts (a loop of a known count: one exit per query).
    // The name's 17 bytes read from the query's own slice, at a start
    // that is a `u16`: the read's test is one compare, where the output's
    // `get(qs + at..qs + at + 17)` also tested the sum for overflow (8
    // instructions a judge; issue 14 round 14). Near the output's end, the
    // checked reads of [`QueryFilter::goes_bounded`].
    let tail = o.get(qs..).unwrap_or_default();
    let mut gone = 0u64;
    for (i, &at) in starts[..=n].iter().enumerate() {
        let at = usize::from(at);
        let goes = match tail.get(at..at + 17) {
            Some(w) => f.goes_in(w, false),
            None => f.goes_bounded(o, qs, at, len, false),
        };
        gone |= u64::from(goes) << i;
    }
    if gone == 0 {
        return Some(false);
    }
    let keep = !gone & (u64::MAX >> (63 - n));
    if keep == 0 && from == 0 {
        out.replace_range(qs - 1..qe, "");
        return Some(true);
    }
    // 3. The cuts, one per run of removed parameters (see [`cut_runs`]).
    cut_runs(out, qs, &starts, keep, gone);
    Some(true)
}

/// The cuts of the removed parameters (`gone`, the rest `keep`), one per
/// run, the last run first so that the offsets noted stay right: the run
/// `lo..=hi` spans `starts[lo]..starts[hi + 1] - 1` of the query at `qs`
/// and goes with the `&` before it when it has one (a kept parameter
/// precedes it), else with the `&` after it (the front run). Chosen
/// without a branch. Shared by this filter and round 5's block filter.
#[inline(always)]
pub(crate) fn cut_runs(out: &mut String, qs: usize, starts: &[u16], keep: u64, gone: u64) {
    let mut g = gone;
    while g != 0 {
        // `hi` the run's last parameter, `lo` the one after the last kept
        // parameter below it (0 when none).
        let hi = 63 - g.leading_zeros() as usize;
        let below = keep & ((1u64 << hi) - 1);
        let lo = 64 - below.leading_zeros() as usize;
        let a = usize::from(starts[lo & 63]);
        let b = usize::from(starts[(hi + 1) & 63]);
        let before = usize::from(a > 0);
        out.drain(qs + a - before..qs + b - before);
        g &= (1u64 << lo).wrapping_sub(1);
    }
}

/// A seeded generator of numbers below `n` (SplitMix64) for the tests of
/// this file and of `apply.rs`: the same queries on every machine.
#[cfg(test)]
pub(crate) fn below(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
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
        // The first three bytes, bit 1 of the fourth (`gcli`/`gcls`,
        // `mc_c`/`mc_e`) and bit 2 of the fifth (`_hsen`/`_hsmi`,
        // `oly_a`/`oly_e`); 35 placements in 1,024 buckets (`shift` 54).
        let key = MASKS[3] | 1 << (24 + 1) | 1 << (32 + 2);
        assert_eq!((default.len(), f.key, f.shift), (27, key, 54));
        // A pattern covered by a prefix is dropped: `ab*` alone is left.
        let f = QueryFilter::new(&list(&["ab", "abc", "ab*", "AB_x*"])).expect("compiles");
        assert_eq!(f.slots.iter().filter(|s| s.m0 != 0).count(), 1);
        assert!(QueryFilter::new(&list(&["a", "sixteen_bytes_ab", "x*"])).is_some());
        // Not compiled: a `*` elsewhere, a `%`, 17 bytes, an empty name,
        // two patterns alike in their first eight bytes (no key bit tells
        // them apart), names that need more than four key bits past their
        // shared first byte.
        for bad in [
            &["*_id"][..],
            &["a*b"],
            &["*"],
            &["a%20b"],
            &["seventeen_bytes_a"],
            &["", "a"],
            &["abcdefghij", "abcdefghik"],
            &["abcdefghij", "abcdefgh"],
        ] {
            assert!(QueryFilter::new(&list(bad)).is_none(), "{bad:?}");
        }
        // 36 names after one shared byte need six bits (`z` makes the
        // shared part one byte); ten digits need four.
        let many = |n: usize| {
            let mut l: Vec<String> = "0123456789abcdefghijklmnopqrstuvwxyz"[..n]
                .chars()
                .map(|c| format!("a{c}"))
                .collect();
            l.push("z".to_owned());
            l
        };
        assert!(QueryFilter::new(&many(36)).is_none());
        assert!(QueryFilter::new(&many(10)).is_some());
    }

    /// The names an `&amp;` leaves (`amp;` and any bytes after it) fall in
    /// empty buckets of the default list's table: the screen refuses them
    /// by its first branch, without a compare (round 16: the first
    /// multiplier put a pattern in one of their buckets). A list with a
    /// prefix that covers them still matches them.
    #[test]
    fn names_after_amp_find_empty_buckets() {
        let f = QueryFilter::new(&list(crate::config::DEFAULT_TRACKING_PARAMS)).expect("default");
        let bucket = |name: &[u8]| {
            let mut w = [0u8; 32];
            w[..name.len()].copy_from_slice(name);
            let f0 = word(&w[..8]) | FOLD;
            f.index[hash(f0, f.key, f.mul, f.shift) & (MAX_BUCKETS - 1)]
        };
        for c in 0u8..=255 {
            for tail in [&b""[..], b"x", b"=1", b"utm_source"] {
                let mut name = b"amp;".to_vec();
                name.push(c);
                name.extend_from_slice(tail);
                assert_eq!(bucket(&name), 0, "{name:?}");
            }
        }
        assert_eq!(bucket(b"amp;"), 0);
        // Eight shared bytes: 32 key bits past `amp;`, no decoys (they
        // would be 2^32).
        assert!(QueryFilter::new(&list(&["abcdefgh", "abcdefgz*"])).is_some());
        let f = QueryFilter::new(&list(&["am*", "amp", "gclid"])).expect("compiles");
        let mut b = b"amp;x=1".to_vec();
        b.extend_from_slice(&[0; 32]);
        assert!(f.goes(&b, 0));
    }

    /// A list of 60 exact names still finds its perfect hash (in at most
    /// 4,096 buckets) and judges each name; 64 do not (more than 63: the caller's other
    /// filter judges them).
    #[test]
    fn a_longer_list_hashes_perfectly() {
        let names = |n: usize| {
            (0..n)
                .map(|i| format!("p{i}_{}", i * 7919))
                .collect::<Vec<_>>()
        };
        assert!(QueryFilter::new(&names(64)).is_none());
        let names = names(60);
        let f = QueryFilter::new(&names).expect("60 names");
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
        let mut next = below(0x0123_4567);
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
            // A short path (the query's last block read through the
            // checked compares, the names in the output's first 16 bytes
            // copied) and a long one (the 64 bytes that end the query).
            let long = format!("http://a/{}?", "p".repeat(61));
            for (q, head) in queries
                .iter()
                .flat_map(|q| [(q, "http://a/p?"), (q, long.as_str())])
            {
                for frag in ["", "#", "#f&utm_x=1&a"] {
                    let url = format!("{head}{q}{frag}");
                    let (qs, qe) = (head.len(), head.len() + q.len());
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
                        let mut r = format!("{head}{rest}{frag}");
                        let w = filter_query_in_place(&mut r, qs, qs + rest.len(), &index);
                        let tail = &r[qs - 1..];
                        let want = match (from, tail.strip_prefix('?')) {
                            (0, _) => r.clone(),
                            (_, Some(t)) => format!("{head}{}&{t}", &q[..from - 1]),
                            (_, None) => format!("{head}{}{tail}", &q[..from - 1]),
                        };
                        (w, want)
                    };
                    // The whole filter (the screen, then the hand-over) on
                    // the query from its start.
                    if from == 0 {
                        let mut got = url.clone();
                        match filter_query(&mut got, qs, qe, &f) {
                            Some(g) => assert_eq!((g, &got), (w, &want), "{pats:?} {url:?}"),
                            None => assert_eq!(got, url, "refused, untouched"),
                        }
                    }
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
