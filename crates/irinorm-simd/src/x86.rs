//! The x86-64 kernels: AVX2 (32 bytes per step) and SSSE3 (16 bytes per
//! step), the same algorithm written twice by one macro.
//!
//! Per window `c` (bytes `i..i+W`), with `p` the window one byte earlier:
//! - plain bytes: two nibble lookups (`pshufb`) and an `and` ([`crate::Class`]);
//!   a zero lane is a stop;
//! - the pair: `c == pair[1] && p == pair[0]`, a stop;
//! - triplets, in steps with a stop (a `%` is never plain), or in every
//!   step of a dense run or after a triplet was seen:
//!   `%` in `c`, hex digits in the windows one and two bytes later, their
//!   value `(x & 15) + 9 * letter` looked up in the `unreserved` nibble
//!   table with the high digit as the row: one more pair of lookups, so
//!   every triplet of the window is judged at once and a query full of
//!   `%XX` is not a loop exit per `%`. In the loop (round 6) the digits'
//!   hex class is judged once per byte, on `c` itself with the nibbles of
//!   its plain test, and read one and two bits later in the step's mask;
//!   such a step judges its first 2W - 2 bytes only (the last two lanes'
//!   digits lie after it) and the next step starts there.
//!
//! Two windows make a step, their stops one 64-bit mask; the first stop
//! is its lowest set bit. The last 1 to 2W bytes are two windows in
//! straight-line code: the one that ends the input and the one before it
//! (or, on inputs of at most 2W bytes, the one at 1, overlapping it), the
//! bits before the start cleared; their lookahead past the end is the
//! window shifted with zeros in (zero is never a hex digit). Inputs of at
//! most one window go to the narrower kernel, then to the scalar one. A
//! run's mark (`Run::mark`) is one more compare per window.
//!
//! Loads are `u64::from_le_bytes` of checked array slices, which the
//! compiler merges into one unaligned vector load: no raw pointers, so
//! every intrinsic called here is a safe function inside these
//! `#[target_feature]` functions (Rust >= 1.87).

use core::arch::x86_64::*;

use crate::class::BIT;
use crate::{Packed, Run, PCT_ANY, PCT_HIGH};

#[inline(always)]
fn q(w: &[u8], k: usize) -> i64 {
    i64::from_le_bytes(w[8 * k..8 * k + 8].try_into().expect("eight bytes"))
}

#[inline(always)]
fn win<const W: usize>(b: &[u8], i: usize) -> &[u8; W] {
    b[i..i + W].try_into().expect("a window")
}

/// `base` plus the lowest set bit of `m`, or `usize::MAX`.
#[inline(always)]
fn first(base: usize, m: u64) -> usize {
    if m != 0 {
        base + m.trailing_zeros() as usize
    } else {
        usize::MAX
    }
}

#[inline(always)]
fn flags(any: u64, high: u64) -> u8 {
    (u8::from(any != 0) * PCT_ANY) | (u8::from(high != 0) * PCT_HIGH)
}

/// The answer at the first stop of `m` (not zero), bits from `base`: the
/// triplets judged so far (`seen`: any, high) and those of this step
/// (`step`: ok, hi) count only below the stop, as do the step's marks
/// `mk`; `mark` is the first mark of the steps before.
#[inline(always)]
fn stop_at(
    base: usize,
    m: u64,
    seen: (u64, u64),
    step: (u64, u64),
    mark: usize,
    mk: u64,
) -> Packed {
    let below = m.wrapping_sub(1) & !m;
    let at = base + m.trailing_zeros() as usize;
    Packed::new(
        at,
        flags(seen.0 | (step.0 & below), seen.1 | (step.1 & below)),
        mark.min(first(base, mk & below)).min(at),
    )
}

/// The tables of a run as AVX2 registers.
struct T256 {
    plain: __m256i,
    bit: __m256i,
    pair0: __m256i,
    pair1: __m256i,
    mark: __m256i,
    hex: __m256i,
    unres: __m256i,
    nine: __m256i,
}

#[target_feature(enable = "avx2")]
#[inline]
fn load256(w: &[u8; 32]) -> __m256i {
    _mm256_setr_epi64x(q(w, 0), q(w, 1), q(w, 2), q(w, 3))
}

impl T256 {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(run: &Run) -> T256 {
        let (hex, unres) = match &run.triplets {
            Some(t) => (t.hex.lo, t.unreserved.lo),
            None => ([0; 32], [0; 32]),
        };
        T256 {
            plain: load256(&run.plain.lo),
            bit: load256(&BIT),
            pair0: _mm256_set1_epi8(run.pair[0] as i8),
            pair1: _mm256_set1_epi8(run.pair[1] as i8),
            mark: _mm256_set1_epi8(run.mark as i8),
            hex: load256(&hex),
            unres: load256(&unres),
            nine: load256(&NINE),
        }
    }
}

/// Nonzero lanes: the bytes of `c` in the class `table`.
///
/// The low nibble's lookup takes `c` itself as its index (round 8: one
/// `and` less per window): `pshufb` reads an index's low four bits, and
/// gives zero when its top bit is set, i.e. for a byte >= 0x80, which is
/// never in a class (`class.rs`: ASCII only; `BIT` is zero for its high
/// nibble anyway). So the answer is `LO[c & 15] & BIT[c >> 4]` for every
/// byte, as before. The high nibble keeps its mask: `psrlw` shifts the
/// next byte's low bits into bits 4-7 of every other lane, and bit 7 of
/// an index would zero the lookup.
#[target_feature(enable = "avx2")]
#[inline]
fn member256(table: __m256i, bit: __m256i, c: __m256i) -> __m256i {
    let nib = _mm256_set1_epi8(0x0f);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(c), nib);
    _mm256_and_si256(_mm256_shuffle_epi8(table, c), _mm256_shuffle_epi8(bit, hi))
}

/// The stops of `c` (`p`: the window one byte earlier), the pair
/// compared only when the run has one (`PAIR`: 2-3% fewer instructions on
/// the query run, which has none).
#[target_feature(enable = "avx2")]
#[inline]
fn stops256<const PAIR: bool>(t: &T256, c: __m256i, p: __m256i) -> u32 {
    let z = _mm256_setzero_si256();
    let mut stop = _mm256_cmpeq_epi8(member256(t.plain, t.bit, c), z);
    if PAIR {
        let pair = _mm256_and_si256(_mm256_cmpeq_epi8(c, t.pair1), _mm256_cmpeq_epi8(p, t.pair0));
        stop = _mm256_or_si256(stop, pair);
    }
    _mm256_movemask_epi8(stop) as u32
}

/// The positions of the run's mark in `c`.
#[target_feature(enable = "avx2")]
#[inline]
fn marks256(t: &T256, c: __m256i) -> u32 {
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(c, t.mark)) as u32
}

/// Added to a triplet's high digit, the index of its row bit in `BIT`
/// (`pshufb` reads the low nibble, and gives zero when the top bit is
/// set): `0`-`9` become 0x70-0x79, whose low nibble is the value (`BIT`
/// is zero from 8 on); `A`-`F` become 0x81-0x86, zero. A high digit >= 8
/// makes a byte >= 0x80, never unreserved (RFC 3986 §2.3), so its row is
/// empty either way. Bytes that are not hex digits give garbage, which
/// the digits' class test (`hex`) discards.
const ROW_INDEX: i8 = 0x40;

/// Looked up by a digit's hex-class bits (`member(hex, x)`: `1 << 3` for
/// `0`-`9`, `1 << 4` for `A`-`F`, zero for any other byte; `pshufb`
/// reads their low nibble, 8 and 0), what a letter adds to its low
/// nibble to make its value: 0 for a digit, 9 for a letter (and 9 for a
/// byte that is not a digit, garbage the class test discards). Round 6:
/// the class bits already tell a letter from a digit, where the value
/// took four operations of its own (`& 0x40`, a compare, `& 9`, an add).
const NINE: [u8; 32] = {
    let mut t = [0u8; 32];
    t[0] = 9;
    t[16] = 9;
    t
};

/// The value of the hex digits of `x` (`cls`: their hex-class bits, see
/// [`NINE`]; garbage below 32 where `x` is not a digit).
#[target_feature(enable = "avx2")]
#[inline]
fn digits256(t: &T256, x: __m256i, cls: __m256i) -> __m256i {
    let v = _mm256_and_si256(x, _mm256_set1_epi8(0x0f));
    _mm256_add_epi8(v, _mm256_shuffle_epi8(t.nine, cls))
}

/// The `%` of the skipped triplets of `c` (`c1`, `c2`: the windows one and
/// two bytes later), and those of them encoding a byte >= 0x80.
#[target_feature(enable = "avx2")]
#[inline]
fn triplets256(t: &T256, c: __m256i, c1: __m256i, c2: __m256i) -> (u32, u32) {
    let z = _mm256_setzero_si256();
    let pct = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(b'%' as i8));
    let (h1, h2) = (member256(t.hex, t.bit, c1), member256(t.hex, t.bit, c2));
    // Both digits hex: the smaller class value is not zero (one `min`
    // where two compares and an `or` made the mask of bad digits; round 6).
    let hex = _mm256_min_epu8(h1, h2);
    // The high digit's row bit, `BIT[value]`, straight from its byte
    // (`row_index`): two operations instead of the value's five and a
    // lookup (round 5).
    let row = _mm256_shuffle_epi8(t.bit, _mm256_add_epi8(c1, _mm256_set1_epi8(ROW_INDEX)));
    let unres = _mm256_and_si256(_mm256_shuffle_epi8(t.unres, digits256(t, c2, h2)), row);
    let ok = _mm256_andnot_si256(
        _mm256_cmpeq_epi8(hex, z),
        _mm256_and_si256(pct, _mm256_cmpeq_epi8(unres, z)),
    );
    // A normal triplet whose row bit is zero has a high digit >= 8.
    let high = _mm256_and_si256(ok, _mm256_cmpeq_epi8(row, z));
    (
        _mm256_movemask_epi8(ok) as u32,
        _mm256_movemask_epi8(high) as u32,
    )
}

/// The lanes of `c` that are not hex digits of the run's triplets, as
/// bits. The nibble lookups are those of `c`'s plain-byte test
/// ([`member256`]: the same expressions, computed once by the compiler),
/// so this is two operations more than it and a compare.
#[target_feature(enable = "avx2")]
#[inline]
fn not_hex256(t: &T256, c: __m256i) -> u32 {
    let z = _mm256_setzero_si256();
    _mm256_movemask_epi8(_mm256_cmpeq_epi8(member256(t.hex, t.bit, c), z)) as u32
}

/// The loop's triplet judging (round 6): like [`triplets256`], but the
/// digits are taken to be hex digits; the caller clears the lanes where
/// they are not, from [`not_hex256`] of the step's own windows, shifted
/// by one and two bits. The digit class of `c1` and `c2` (two nibble
/// lookups each, 14 operations a window with their compares) is gone;
/// the low digit's letter offset is computed from its byte.
#[target_feature(enable = "avx2")]
#[inline]
fn triplets_unchecked256(t: &T256, c: __m256i, c1: __m256i, c2: __m256i) -> (u32, u32) {
    let z = _mm256_setzero_si256();
    let pct = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(b'%' as i8));
    let row = _mm256_shuffle_epi8(t.bit, _mm256_add_epi8(c1, _mm256_set1_epi8(ROW_INDEX)));
    let l = _mm256_set1_epi8(0x40);
    let letter = _mm256_cmpeq_epi8(_mm256_and_si256(c2, l), l);
    // The low digit's value as a `pshufb` index: only the low nibble
    // and the top bit count, so a digit is its own index and a letter
    // (0x41-0x46, 0x4a-0x4f with the 9 added) needs no `& 15`.
    let v = _mm256_add_epi8(c2, _mm256_and_si256(letter, _mm256_set1_epi8(9)));
    let unres = _mm256_and_si256(_mm256_shuffle_epi8(t.unres, v), row);
    let ok = _mm256_and_si256(pct, _mm256_cmpeq_epi8(unres, z));
    let high = _mm256_and_si256(ok, _mm256_cmpeq_epi8(row, z));
    (
        _mm256_movemask_epi8(ok) as u32,
        _mm256_movemask_epi8(high) as u32,
    )
}

/// `c` one byte later, a zero shifted in at the top.
#[target_feature(enable = "avx2")]
#[inline]
fn shift256(c: __m256i) -> __m256i {
    // [c.high, 0], then each lane's concatenation shifted by one byte.
    let hi = _mm256_permute2x128_si256::<0x81>(c, c);
    _mm256_alignr_epi8::<1>(hi, c)
}

/// The tables of a run as SSSE3 registers.
struct T128 {
    plain: __m128i,
    bit: __m128i,
    pair0: __m128i,
    pair1: __m128i,
    mark: __m128i,
    hex: __m128i,
    unres: __m128i,
    nine: __m128i,
}

#[target_feature(enable = "ssse3")]
#[inline]
fn load128(w: &[u8; 16]) -> __m128i {
    _mm_set_epi64x(q(w, 1), q(w, 0))
}

impl T128 {
    #[target_feature(enable = "ssse3")]
    #[inline]
    fn new(run: &Run) -> T128 {
        let (hex, unres) = match &run.triplets {
            Some(t) => (t.hex.lo, t.unreserved.lo),
            None => ([0; 32], [0; 32]),
        };
        let half = |t: &[u8; 32]| -> [u8; 16] { t[..16].try_into().expect("sixteen") };
        T128 {
            plain: load128(&half(&run.plain.lo)),
            bit: load128(&half(&BIT)),
            pair0: _mm_set1_epi8(run.pair[0] as i8),
            pair1: _mm_set1_epi8(run.pair[1] as i8),
            mark: _mm_set1_epi8(run.mark as i8),
            hex: load128(&half(&hex)),
            unres: load128(&half(&unres)),
            nine: load128(&half(&NINE)),
        }
    }
}

#[target_feature(enable = "ssse3")]
#[inline]
fn member128(table: __m128i, bit: __m128i, c: __m128i) -> __m128i {
    // As [`member256`]: `c` is its own low-nibble index.
    let nib = _mm_set1_epi8(0x0f);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(c), nib);
    _mm_and_si128(_mm_shuffle_epi8(table, c), _mm_shuffle_epi8(bit, hi))
}

#[target_feature(enable = "ssse3")]
#[inline]
fn stops128<const PAIR: bool>(t: &T128, c: __m128i, p: __m128i) -> u32 {
    let z = _mm_setzero_si128();
    let mut stop = _mm_cmpeq_epi8(member128(t.plain, t.bit, c), z);
    if PAIR {
        let pair = _mm_and_si128(_mm_cmpeq_epi8(c, t.pair1), _mm_cmpeq_epi8(p, t.pair0));
        stop = _mm_or_si128(stop, pair);
    }
    _mm_movemask_epi8(stop) as u32
}

#[target_feature(enable = "ssse3")]
#[inline]
fn marks128(t: &T128, c: __m128i) -> u32 {
    _mm_movemask_epi8(_mm_cmpeq_epi8(c, t.mark)) as u32
}

#[target_feature(enable = "ssse3")]
#[inline]
fn digits128(t: &T128, x: __m128i, cls: __m128i) -> __m128i {
    let v = _mm_and_si128(x, _mm_set1_epi8(0x0f));
    _mm_add_epi8(v, _mm_shuffle_epi8(t.nine, cls))
}

#[target_feature(enable = "ssse3")]
#[inline]
fn triplets128(t: &T128, c: __m128i, c1: __m128i, c2: __m128i) -> (u32, u32) {
    let z = _mm_setzero_si128();
    let pct = _mm_cmpeq_epi8(c, _mm_set1_epi8(b'%' as i8));
    let (h1, h2) = (member128(t.hex, t.bit, c1), member128(t.hex, t.bit, c2));
    let hex = _mm_min_epu8(h1, h2);
    let row = _mm_shuffle_epi8(t.bit, _mm_add_epi8(c1, _mm_set1_epi8(ROW_INDEX)));
    let unres = _mm_and_si128(_mm_shuffle_epi8(t.unres, digits128(t, c2, h2)), row);
    let ok = _mm_andnot_si128(
        _mm_cmpeq_epi8(hex, z),
        _mm_and_si128(pct, _mm_cmpeq_epi8(unres, z)),
    );
    let high = _mm_and_si128(ok, _mm_cmpeq_epi8(row, z));
    (_mm_movemask_epi8(ok) as u32, _mm_movemask_epi8(high) as u32)
}

#[target_feature(enable = "ssse3")]
#[inline]
fn not_hex128(t: &T128, c: __m128i) -> u32 {
    let z = _mm_setzero_si128();
    _mm_movemask_epi8(_mm_cmpeq_epi8(member128(t.hex, t.bit, c), z)) as u32
}

#[target_feature(enable = "ssse3")]
#[inline]
fn triplets_unchecked128(t: &T128, c: __m128i, c1: __m128i, c2: __m128i) -> (u32, u32) {
    let z = _mm_setzero_si128();
    let pct = _mm_cmpeq_epi8(c, _mm_set1_epi8(b'%' as i8));
    let row = _mm_shuffle_epi8(t.bit, _mm_add_epi8(c1, _mm_set1_epi8(ROW_INDEX)));
    let l = _mm_set1_epi8(0x40);
    let letter = _mm_cmpeq_epi8(_mm_and_si128(c2, l), l);
    let v = _mm_add_epi8(c2, _mm_and_si128(letter, _mm_set1_epi8(9)));
    let unres = _mm_and_si128(_mm_shuffle_epi8(t.unres, v), row);
    let ok = _mm_and_si128(pct, _mm_cmpeq_epi8(unres, z));
    let high = _mm_and_si128(ok, _mm_cmpeq_epi8(row, z));
    (_mm_movemask_epi8(ok) as u32, _mm_movemask_epi8(high) as u32)
}

#[target_feature(enable = "ssse3")]
#[inline]
fn shift128(c: __m128i) -> __m128i {
    _mm_srli_si128::<1>(c)
}

/// One kernel: `$w`-byte windows; `$short` for inputs of at most `$w`
/// bytes (a window needs the byte before it too).
macro_rules! kernel {
    ($(#[$doc:meta])* $inner:ident, $feat:literal, $w:literal, $tables:ident,
     $load:ident, $stops:ident, $triplets:ident, $not_hex:ident, $unchecked:ident,
     $marks:ident, $shift:ident, $short:ident) => {
        $(#[$doc])*
        /// One function per kind of run (`TRIP`: with triplets, `DENSE`,
        /// `MARK`: with a mark, `PAIR`: with a pair), chosen by the caller,
        /// where the run is usually a constant, so that the choice costs
        /// nothing.
        #[target_feature(enable = $feat)]
        pub(crate) fn $inner<
            const TRIP: bool,
            const DENSE: bool,
            const MARK: bool,
            const PAIR: bool,
        >(
            b: &[u8],
            start: usize,
            run: &Run,
        ) -> Packed {
            const W: usize = $w;
            let len = b.len();
            if start == 0 || start >= len || len <= W {
                return $short::<TRIP, DENSE, MARK, PAIR>(b, start, run);
            }
            let t = $tables::new(run);
            // A short run (`Run::short`, no triplets, no mark: a host) looks
            // at the window at `start` alone first: a stop there is the
            // answer. Otherwise the loop below reads that window again
            // (rare: a host longer than a window).
            if run.short && start + W <= len {
                let c = $load(win::<W>(b, start));
                let m = $stops::<PAIR>(&t, c, $load(win::<W>(b, start - 1)));
                if m != 0 {
                    let at = start + m.trailing_zeros() as usize;
                    return Packed::new(at, 0, at);
                }
            }
            let (mut any, mut high) = (0u64, 0u64);
            // Nonzero once the run is dense: the triplets judged so far
            // (any bit will do), all ones for a dense run. A mask, so that
            // the step's test is one `or` with its stops (round 7: the
            // `bool` took a `setne`, an `or` and a `test` per step).
            let mut dense: u64 = if DENSE { !0 } else { 0 };
            // The lanes a step that judged triplets has judged (all but
            // its last two, whose digits lie after the step).
            const JUDGED: u64 = !0u64 >> (64 - (2 * W - 2));
            // The marks of the first step that had any, and that step's
            // start (`mark_bits == 0`: none so far). Two conditional moves
            // per step, where `mark.min(first(i, mk))` was nine
            // instructions (round 5); the position is found once, after
            // the loop or at the stop.
            let (mut mark_at, mut mark_bits) = (0usize, 0u64);
            let mut i = start;
            // Two windows per step (one mask of up to 64 bits: half the
            // loop branches), with their lookahead windows in bounds.
            // Triplets are judged in steps with a stop (a `%` is one), and
            // in every step of a dense run or once a step had one: in a
            // query full of triplets, whether the next window holds a `%`
            // is a coin toss the branch predictor loses, while a path
            // without any costs nothing more.
            while i + 2 * W + 2 <= len {
                // The step's bytes, `i - 1 ..= i + 2W + 1`, as one array:
                // one bounds check per step (implied by the loop's test)
                // instead of one per window (round 5).
                let s: &[u8; 2 * W + 3] = b[i - 1..i + 2 * W + 2].try_into().expect("a step");
                let (c, d) = ($load(win::<W>(s, 1)), $load(win::<W>(s, W + 1)));
                let mut m = u64::from($stops::<PAIR>(&t, c, $load(win::<W>(s, 0))))
                    | u64::from($stops::<PAIR>(&t, d, $load(win::<W>(s, W)))) << W;
                let mk = if MARK {
                    u64::from($marks(&t, c)) | u64::from($marks(&t, d)) << W
                } else {
                    0
                };
                // The bytes this step has looked at (fewer when it judged
                // triplets; its marks need no cut: a mark in the last two
                // lanes is at its true position, and a stop there is found
                // by the next step, before which the answer's mark is cut).
                let mut adv = 2 * W;
                // A step without triplets to judge returns or goes on with
                // `any` and `high` as they are: no zero `ok` and `hi` to
                // merge (five instructions per plain step, round 5).
                if TRIP && (m | dense) != 0 {
                    // The digits' class, judged once per byte (round 6): the
                    // lanes of `c` and `d` that are not digits (the nibbles of
                    // their plain test again); a triplet at bit `j` needs bits
                    // `j + 1` and `j + 2` clear. The last two lanes' digits
                    // lie after `d`: this step judges only its first 2W - 2
                    // bytes and the next one starts there (3% more steps on
                    // runs that judge triplets; reading the two bytes after
                    // `d` one by one cost more, 25 instructions a step).
                    let nh = u64::from($not_hex(&t, c)) | u64::from($not_hex(&t, d)) << W;
                    let good = !((nh >> 1) | (nh >> 2)) & JUDGED;
                    let (ok0, hi0) =
                        $unchecked(&t, c, $load(win::<W>(s, 2)), $load(win::<W>(s, 3)));
                    let (ok1, hi1) =
                        $unchecked(&t, d, $load(win::<W>(s, W + 2)), $load(win::<W>(s, W + 3)));
                    let ok = (u64::from(ok0) | u64::from(ok1) << W) & good;
                    let hi = (u64::from(hi0) | u64::from(hi1) << W) & good;
                    m &= !ok & JUDGED;
                    if !DENSE {
                        dense |= ok;
                    }
                    if m != 0 {
                        return stop_at(i, m, (any, high), (ok, hi), first(mark_at, mark_bits), mk);
                    }
                    any |= ok;
                    high |= hi;
                    adv = 2 * W - 2;
                } else if !TRIP && m != 0 {
                    // With triplets, a step that gets here has no stop
                    // (`m | dense` was zero): the test is only for runs
                    // without them (round 8: the compiler kept it, two
                    // instructions per plain step of the path and query).
                    return stop_at(i, m, (any, high), (0, 0), first(mark_at, mark_bits), mk);
                }
                if MARK {
                    let none = mark_bits == 0;
                    mark_at = if none { i } else { mark_at };
                    mark_bits = if none { mk } else { mark_bits };
                }
                i += adv;
            }
            // The first mark so far (`usize::MAX`: none).
            let mut mark = first(mark_at, mark_bits);
            // One more window if 2W + 1 bytes are left (rare), so that at
            // most 2W are.
            if len - i > 2 * W {
                let c = $load(win::<W>(b, i));
                let mut m = u64::from($stops::<PAIR>(&t, c, $load(win::<W>(b, i - 1))));
                let mk = if MARK { u64::from($marks(&t, c)) } else { 0 };
                let (mut ok, mut hi) = (0, 0);
                if TRIP {
                    let (o, h) = $triplets(&t, c, $load(win::<W>(b, i + 1)), $load(win::<W>(b, i + 2)));
                    (ok, hi) = (u64::from(o), u64::from(h));
                    m &= !ok;
                }
                if m != 0 {
                    return stop_at(i, m, (any, high), (ok, hi), mark, mk);
                }
                any |= ok;
                high |= hi;
                if MARK {
                    mark = mark.min(first(i, mk));
                }
                i += W;
            }
            // The rest, 1 to 2W bytes, in straight-line code (no loop whose
            // trip count depends on the length): the window that ends the
            // input and the one before it (or the one at 1, on inputs of at
            // most 2W bytes, overlapping it), bits before `i` cleared. Their
            // lookahead past the end is the window shifted, zeros in.
            let q0 = if len > 2 * W { len - 2 * W } else { 1 };
            let q1 = len - W;
            let (c, d) = ($load(win::<W>(b, q0)), $load(win::<W>(b, q1)));
            let keep = !0u64 << (i - q0);
            let mut m = (u64::from($stops::<PAIR>(&t, c, $load(win::<W>(b, q0 - 1))))
                | u64::from($stops::<PAIR>(&t, d, $load(win::<W>(b, q1 - 1)))) << (q1 - q0))
                & keep;
            let mk = if MARK {
                (u64::from($marks(&t, c)) | u64::from($marks(&t, d)) << (q1 - q0)) & keep
            } else {
                0
            };
            if m == 0 {
                // The run reaches the end (nearly every already-normal
                // input): no triplet of these windows to fold and no stop
                // to cut the flags and marks at (issue 14, round 17: the
                // general answer below, with its zero `ok`/`hi` and
                // all-ones `below`, was 17 instructions a call).
                return Packed::new(len, flags(any, high), mark.min(first(q0, mk)).min(len));
            }
            let (mut ok, mut hi) = (0, 0);
            if TRIP {
                let c1 = if q0 + W < len { $load(win::<W>(b, q0 + 1)) } else { $shift(c) };
                let c2 = if q0 + W + 1 < len { $load(win::<W>(b, q0 + 2)) } else { $shift(c1) };
                let (ok0, hi0) = $triplets(&t, c, c1, c2);
                let d1 = $shift(d);
                let (ok1, hi1) = $triplets(&t, d, d1, $shift(d1));
                ok = (u64::from(ok0) | u64::from(ok1) << (q1 - q0)) & keep;
                hi = (u64::from(hi0) | u64::from(hi1) << (q1 - q0)) & keep;
                m &= !ok;
            }
            let below = m.wrapping_sub(1) & !m; // all bits when `m == 0`
            let at = if m != 0 { q0 + m.trailing_zeros() as usize } else { len };
            Packed::new(
                at,
                flags(any | (ok & below), high | (hi & below)),
                mark.min(first(q0, mk & below)).min(at),
            )
        }
    };
}

kernel!(
    /// The AVX2 kernel: 32 bytes per step.
    avx2, "avx2", 32, T256, load256, stops256, triplets256, not_hex256,
    triplets_unchecked256, marks256, shift256, ssse3
);

kernel!(
    /// The SSSE3 kernel: 16 bytes per step.
    ssse3, "ssse3", 16, T128, load128, stops128, triplets128, not_hex128,
    triplets_unchecked128, marks128, shift128, scalar
);

/// The scalar kernel with the vector kernels' signature (their fallback
/// on inputs of at most 16 bytes).
fn scalar<const TRIP: bool, const DENSE: bool, const MARK: bool, const PAIR: bool>(
    b: &[u8],
    start: usize,
    run: &Run,
) -> Packed {
    crate::scalar::next_stop_packed(b, start, run)
}
