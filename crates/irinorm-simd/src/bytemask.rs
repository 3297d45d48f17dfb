//! The positions of one byte value in a block of up to 64 bytes, as a bit
//! mask (`eq_mask64`): bit `k` set when `b[base + k] == c`.
//!
//! Why: `crawler`'s tracking-parameter filter (`irinorm-rules`, `apply.rs`)
//! visits the `&` of a query through such a mask, one block of 64 bytes at
//! a time, so that the loop over the parameters exits once per block and
//! not at data-dependent places (issue 14). Built from SWAR words (eight
//! bytes, a carry-free compare, then the high bits gathered by shifts) it
//! cost about 100 instructions per 45-byte query of `isaacs_files.txt`,
//! a third of `crawler`'s extra cost over `rfc` there (BENCHMARKS.md, issue
//! 14, round 3). With SSE2 a 16-byte window is a load, a `pcmpeqb` and a
//! `pmovmskb`.
//!
//! SSE2 is part of the x86-64 baseline (every x86-64 CPU has it, and the
//! target enables it statically), so this kernel needs no runtime
//! detection: it is compiled only under `target_feature = "sse2"`, and
//! the scalar loop is used elsewhere and is the oracle of the tests.

/// Bit `k` (`k < 64`) set when `b[base + k] == c`; positions at or past
/// `b.len()` are never set. `base` may be anywhere, `b.len()` included.
#[inline(always)]
pub fn eq_mask64(b: &[u8], base: usize, c: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        #[allow(unsafe_code)]
        // SAFETY: `sse2::eq_mask64` is `#[target_feature(enable = "sse2")]`
        // and this block is compiled only when the build enables SSE2 for
        // the whole program (`cfg(target_feature = "sse2")`, always so on
        // x86-64), so every CPU this binary runs on has it. The function
        // itself holds no `unsafe` (checked slices, no raw pointers).
        unsafe {
            sse2::eq_mask64(b, base, c)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        eq_mask64_scalar(b, base, c)
    }
}

/// [`eq_mask64`] byte by byte: the fallback and the oracle of the tests.
pub fn eq_mask64_scalar(b: &[u8], base: usize, c: u8) -> u64 {
    (0..64)
        .filter(|&k| b.get(base.saturating_add(k)) == Some(&c))
        .fold(0, |m, k| m | (1 << k))
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8, _mm_set_epi64x,
    };

    /// Eight bytes (exactly), and at most eight with zeros above, as
    /// little-endian words: the loads of the word-at-a-time search.
    #[inline(always)]
    fn word(w: &[u8]) -> i64 {
        crate::words::word(w) as i64
    }

    #[inline(always)]
    fn partial(r: &[u8]) -> i64 {
        crate::words::partial(r) as i64
    }

    /// The 16 bytes at `at` (`at + 16 <= b.len()`): one checked `u128`,
    /// which the compiler makes one unaligned load (two words of eight
    /// bytes were a 16-byte load, the high half loaded again and merged).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn load16(b: &[u8], at: usize) -> __m128i {
        let x = u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"));
        _mm_set_epi64x((x >> 64) as i64, x as i64)
    }

    /// The bits of the 16-byte window at `p` (`p < b.len()`) equal to
    /// `needle`, zeros past the end. A window that would cross the end is
    /// read as the last 16 bytes of `b`, shifted (no copy of variable
    /// length); an input shorter than 16 bytes as two words padded with
    /// zeros, which never equal a non-zero needle (and are cleared for a
    /// zero one).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn window(b: &[u8], p: usize, needle: __m128i) -> u64 {
        let n = b.len();
        let bits = |v: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)) as u32 as u64;
        if p + 16 <= n {
            bits(load16(b, p))
        } else if n >= 16 {
            // `p > n - 16`: the bytes before `p` shifted out, zeros in.
            bits(load16(b, n - 16)) >> (p - (n - 16))
        } else {
            // A short input (a short query, the common case): two words of
            // overlapping loads, no copy of variable length (a `memcpy`
            // call, which cost short queries more than the SWAR words).
            let r = &b[p..];
            let (lo, hi) = if r.len() > 8 {
                (word(&r[..8]), partial(&r[8..]))
            } else {
                (partial(r), 0)
            };
            bits(_mm_set_epi64x(hi, lo))
        }
    }

    #[target_feature(enable = "sse2")]
    #[inline]
    pub(super) fn eq_mask64(b: &[u8], base: usize, c: u8) -> u64 {
        let needle = _mm_set1_epi8(c as i8);
        let mut m = 0u64;
        let mut j = 0;
        while j < 64 {
            let p = base.saturating_add(j);
            if p >= b.len() {
                break;
            }
            let w = window(b, p, needle);
            // A window cut at the end holds zeros past it: clear any bit
            // a zero needle would set there.
            let w = if p + 16 > b.len() {
                w & ((1u64 << (b.len() - p)) - 1)
            } else {
                w
            };
            m |= w << j;
            j += 16;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_scalar_oracle() {
        // Every length up to 150, one or two needles (and near-misses) at
        // every place, every base including past the end; zero needles too.
        for len in 0..150usize {
            for a in 0..=len {
                for c in [b'&', 0u8] {
                    let mut q: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if a < len {
                        q[a] = c;
                    }
                    if a + 17 < len {
                        q[a + 17] = c;
                    }
                    if len > 2 {
                        q[len / 3] ^= 0x80;
                    }
                    for base in [0, 1, 15, 16, 17, 31, 48, 63, 64, 65, 80, 128, len] {
                        assert_eq!(
                            eq_mask64(&q, base, c),
                            eq_mask64_scalar(&q, base, c),
                            "{q:?} base {base} needle {c}"
                        );
                    }
                }
            }
        }
    }
}
