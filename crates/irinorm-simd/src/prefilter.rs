//! A Teddy-style prefilter for `crawler`'s tracking-parameter filter
//! (`irinorm-rules`, `query_filter.rs`; issue 14, round 8 of the
//! engineers' rounds): for every position of a 64-byte block, whether its
//! first two case-folded bytes can begin one of a list of names, together
//! with the block's `&` mask, from one read of the block. A parameter
//! whose start is not such a position cannot be a tracking one and is
//! never judged.
//!
//! How (the "Teddy" algorithm of Hyperscan and the `aho-corasick` crate):
//! the names go into at most eight buckets (one bit each of a byte); for
//! offset `k` (0 and 1) two tables of 16 bytes give, for the low and the
//! high nibble of a folded byte, the buckets whose name may hold that
//! nibble there; a position is a candidate when some bucket survives the
//! `and` of the four lookups (byte `p` at offset 0, byte `p + 1` at offset
//! 1). A name shorter than two bytes leaves its bucket free at offset 1.
//! The second byte of position 63 lies outside the block: it is taken as
//! free (a candidate there may be false, never missed).
//!
//! Folding: every byte is read with bit 5 set, as the exact judge reads
//! names (`query_filter.rs`): a name's folded bytes are what the tables
//! hold, so the candidate mask is a superset of the positions the judge
//! can accept (property test `candidates_are_a_superset`). Both nibbles
//! are masked before the lookups, so a byte >= 0x80 is looked up like any
//! other (its high nibble's row holds only the free buckets): a prefix of
//! one byte may be followed by any byte.
//!
//! Kernels: SSSE3 (`pshufb`, 16 bytes per step, four steps a block),
//! chosen when the crate's runtime detection ([`crate::Kernel::active`])
//! found SSSE3 or better; elsewhere the scalar loop over the same tables,
//! which is also the oracle of the tests.

/// The `&` of a block and its candidate positions (see the module's doc).
#[derive(Clone, Debug)]
pub struct Prefilter {
    /// `lo[k][n]`: the buckets whose byte at offset `k` may have low
    /// nibble `n` (after folding); `hi[k][n]` the same for the high one.
    lo: [[u8; 16]; 2],
    hi: [[u8; 16]; 2],
    /// The SSSE3 kernel may be called: set only by [`Prefilter::new`]
    /// after the runtime detection said so (what makes the call sound).
    ssse3: bool,
}

/// Bit 5 of a byte: the ASCII case fold.
const FOLD: u8 = 0x20;

impl Prefilter {
    /// The prefilter of `names` (their bytes as the judge compares them:
    /// a `*` of a prefix pattern already removed; upper or lower case).
    /// Names are put in buckets by their first folded byte (names that
    /// share it share a bucket, so that their second bytes do not make
    /// false candidates across first bytes). An empty name makes every
    /// position a candidate.
    pub fn new(names: &[&[u8]]) -> Prefilter {
        Self::with_ssse3(names, cfg!(target_arch = "x86_64") && ssse3_detected())
    }

    /// [`Prefilter::new`] with the scalar kernel whatever the CPU (the
    /// oracle of the tests and of the fuzz target).
    pub fn scalar(names: &[&[u8]]) -> Prefilter {
        Self::with_ssse3(names, false)
    }

    fn with_ssse3(names: &[&[u8]], ssse3: bool) -> Prefilter {
        let mut lo = [[0u8; 16]; 2];
        let mut hi = [[0u8; 16]; 2];
        for name in names {
            let bucket = 1u8 << (name.first().map_or(0, |&c| c | FOLD) % 8);
            for k in 0..2 {
                match name.get(k) {
                    Some(&c) => {
                        let c = c | FOLD;
                        lo[k][usize::from(c & 15)] |= bucket;
                        hi[k][usize::from(c >> 4)] |= bucket;
                    }
                    None => {
                        for n in 0..16 {
                            lo[k][n] |= bucket;
                            hi[k][n] |= bucket;
                        }
                    }
                }
            }
        }
        Prefilter { lo, hi, ssse3 }
    }

    /// The buckets that may begin at a byte `c` at offset `k`.
    #[inline(always)]
    fn buckets(&self, k: usize, c: u8) -> u8 {
        let c = c | FOLD;
        self.lo[k][usize::from(c & 15)] & self.hi[k][usize::from(c >> 4)]
    }

    /// `(amps, candidates)` of the 64 bytes `b`: bit `p` of `amps` set
    /// when `b[p] == b'&'`, of `candidates` when the two folded bytes from
    /// `p` (the first alone at `p = 63`) may begin a name of the list.
    #[inline]
    pub fn block(&self, b: &[u8; 64]) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if self.ssse3 {
            #[allow(unsafe_code)]
            // SAFETY: `ssse3` is set only when the runtime detection
            // (`Kernel::active`) found SSSE3 on this CPU; the kernel holds
            // no `unsafe` (checked array slices, no raw pointers).
            return unsafe { ssse3::block(self, b) };
        }
        self.block_scalar(b)
    }

    /// [`Prefilter::block`] byte by byte (the fallback and the oracle).
    pub fn block_scalar(&self, b: &[u8; 64]) -> (u64, u64) {
        let mut amps = 0u64;
        let mut cands = 0u64;
        for p in 0..64 {
            amps |= u64::from(b[p] == b'&') << p;
            let next = b.get(p + 1).map_or(0xff, |&c| self.buckets(1, c));
            cands |= u64::from(self.buckets(0, b[p]) & next != 0) << p;
        }
        (amps, cands)
    }
}

/// Whether the crate's runtime detection chose SSSE3 or AVX2 (which
/// implies SSSE3 here: `Kernel::supported`).
fn ssse3_detected() -> bool {
    crate::Kernel::active().0 >= crate::SSSE3
}

#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use core::arch::x86_64::*;

    #[inline(always)]
    fn q(w: &[u8], k: usize) -> i64 {
        i64::from_le_bytes(w[8 * k..8 * k + 8].try_into().expect("eight bytes"))
    }

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn table(t: &[u8; 16]) -> __m128i {
        _mm_set_epi64x(q(t, 1), q(t, 0))
    }

    /// See [`super::Prefilter::block`]: per 16 bytes, a fold, the two
    /// nibbles, four `pshufb` and the `&` compare; the offset-1 buckets
    /// of the next step moved down one lane by `palignr` (all buckets
    /// past the block).
    #[target_feature(enable = "ssse3")]
    pub(super) fn block(f: &super::Prefilter, b: &[u8; 64]) -> (u64, u64) {
        let nib = _mm_set1_epi8(0x0f);
        let fold = _mm_set1_epi8(0x20);
        let amp = _mm_set1_epi8(b'&' as i8);
        let zero = _mm_setzero_si128();
        let (lo0, hi0) = (table(&f.lo[0]), table(&f.hi[0]));
        let (lo1, hi1) = (table(&f.lo[1]), table(&f.hi[1]));
        let mut r0 = [zero; 4];
        let mut r1 = [zero; 5];
        r1[4] = _mm_set1_epi8(-1);
        let mut amps = 0u64;
        for j in 0..4 {
            let raw = _mm_set_epi64x(q(b, 2 * j + 1), q(b, 2 * j));
            amps |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(raw, amp)) as u16) << (16 * j);
            let c = _mm_or_si128(raw, fold);
            let l = _mm_and_si128(c, nib);
            let h = _mm_and_si128(_mm_srli_epi16::<4>(c), nib);
            r0[j] = _mm_and_si128(_mm_shuffle_epi8(lo0, l), _mm_shuffle_epi8(hi0, h));
            r1[j] = _mm_and_si128(_mm_shuffle_epi8(lo1, l), _mm_shuffle_epi8(hi1, h));
        }
        let mut cands = 0u64;
        for j in 0..4 {
            let next = _mm_alignr_epi8::<1>(r1[j + 1], r1[j]);
            let none = _mm_cmpeq_epi8(_mm_and_si128(r0[j], next), zero);
            cands |= u64::from(!(_mm_movemask_epi8(none) as u16)) << (16 * j);
        }
        (amps, cands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive answer: some name's first `min(len, 2)` bytes equal, folded,
    /// the bytes from `p` (only those inside the block).
    fn naive(names: &[Vec<u8>], b: &[u8; 64], p: usize) -> bool {
        names.iter().any(|n| {
            n.iter()
                .take(2)
                .enumerate()
                .all(|(k, &c)| b.get(p + k).is_none_or(|&x| x | FOLD == c | FOLD))
        })
    }

    fn name() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(b"abcgmu_-.~0AZ&=?#%\xc3\x80".to_vec()),
            0..5,
        )
    }

    proptest! {
        /// The kernel equals the scalar loop, and every position where a
        /// name begins (folded) is a candidate, at every alignment of a
        /// buffer cut into blocks; the `&` mask is exact.
        #[test]
        fn candidates_are_a_superset(
            names in prop::collection::vec(name(), 1..30),
            bytes in prop::collection::vec(
                prop::sample::select(b"abcgmuUTM_-.~0AZ&=?#%\xc3\x80\x00 ".to_vec()), 64..200),
            shift in 0usize..64,
        ) {
            let refs: Vec<&[u8]> = names.iter().map(|n| &n[..]).collect();
            let (fast, slow) = (Prefilter::new(&refs), Prefilter::scalar(&refs));
            let mut at = shift.min(bytes.len() - 64);
            while at + 64 <= bytes.len() {
                let b: &[u8; 64] = bytes[at..at + 64].try_into().unwrap();
                let (amps, cands) = slow.block_scalar(b);
                prop_assert_eq!(fast.block(b), (amps, cands));
                for p in 0..64 {
                    prop_assert_eq!(amps >> p & 1 == 1, b[p] == b'&');
                    if naive(&names, b, p) {
                        prop_assert!(cands >> p & 1 == 1, "missed at {}", at + p);
                    }
                }
                at += 64;
            }
        }
    }

    #[test]
    fn the_default_shapes_screen_out_most_names() {
        let names: [&[u8]; 4] = [b"utm_", b"gclid", b"fbclid", b"q"];
        let f = Prefilter::new(&names);
        let mut b = [b'x'; 64];
        b[..19].copy_from_slice(b"UTM_source=a&id=7&q");
        let (amps, cands) = f.block(&b);
        assert_eq!(amps, 1 << 12 | 1 << 17);
        // `UT` at 0 and `q` at 18 (free after it); `id` and `x` are not.
        assert_eq!(cands, 1 | 1 << 18);
    }
}
