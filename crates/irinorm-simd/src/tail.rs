//! The last 32 bytes of a buffer, loaded once and compared with as many
//! byte values as a caller needs ([`Tail32`]): bit `k` of each mask is the
//! byte at `len - 32 + k`.
//!
//! Why: a learned host's plan (`irinorm-rules`, `host_rules/plan`) asks of
//! the `path?query` at the end of its buffer, for each URL, whether it has
//! an ASCII capital (`lowercase-path`) and where a substitution's two
//! rarest bytes stand at the distance they have in its `from`. Answered
//! byte by byte through a table (two dependent loads a byte), that screen
//! was ~0.10 of `crawler`'s time on the learned crawl, and the
//! substitutions' searches after it ~0.14 (BENCHMARKS.md, "Issue 11,
//! round 22"). The crawl's `path?query` is at most 34 bytes: two 16-byte
//! windows hold it, and each question is then two compares and two byte
//! masks, no loop and no data-dependent branch.
//!
//! SSE2 is part of the x86-64 baseline (the target enables it for the
//! whole program), so the vector form needs no runtime detection; the
//! byte loop is used elsewhere and is the oracle of the tests.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_movemask_epi8,
    _mm_set1_epi8, _mm_set_epi64x,
};

/// The last 32 bytes of a buffer of at least 32 ([`Tail32::of`]).
#[derive(Clone, Copy, Debug)]
pub struct Tail32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    lo: __m128i,
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    hi: __m128i,
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    bytes: [u8; 32],
}

/// The 16 bytes of `b` at `at` as one unaligned load (a checked `u128`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn load16(b: &[u8], at: usize) -> __m128i {
    let x = u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"));
    #[allow(unsafe_code)]
    // SAFETY: compiled only when the build enables SSE2 for the whole
    // program (`cfg(target_feature = "sse2")`, always so on x86-64); the
    // intrinsic takes and returns values, no pointer.
    unsafe {
        _mm_set_epi64x((x >> 64) as i64, x as i64)
    }
}

impl Tail32 {
    /// The last 32 bytes of `b`; `None` when it has fewer.
    #[inline(always)]
    pub fn of(b: &[u8]) -> Option<Tail32> {
        let n = b.len();
        if n < 32 {
            return None;
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            Some(Tail32 {
                lo: load16(b, n - 32),
                hi: load16(b, n - 16),
            })
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            Some(Tail32 {
                bytes: b[n - 32..].try_into().expect("32 bytes"),
            })
        }
    }

    /// Bit `k` set when the byte at `len - 32 + k` is `c`.
    #[inline(always)]
    pub fn eq(&self, c: u8) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            #[allow(unsafe_code)]
            // SAFETY: as in `load16`: SSE2 is enabled for the whole
            // program; the intrinsics take and return values.
            unsafe {
                let c = _mm_set1_epi8(c as i8);
                let lo = _mm_movemask_epi8(_mm_cmpeq_epi8(self.lo, c)) as u32 & 0xffff;
                let hi = _mm_movemask_epi8(_mm_cmpeq_epi8(self.hi, c)) as u32;
                lo | hi << 16
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            self.scalar(|x| x == c)
        }
    }

    /// Bit `k` set when the byte at `len - 32 + k` is an ASCII capital
    /// (`A..=Z`).
    #[inline(always)]
    pub fn upper(&self) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            #[allow(unsafe_code)]
            // SAFETY: as in `load16`. The compares are signed: a byte
            // >= 0x80 is negative, below `A`, never a capital.
            unsafe {
                let (a, z) = (_mm_set1_epi8(b'A' as i8 - 1), _mm_set1_epi8(b'Z' as i8 + 1));
                let cap = |v| _mm_and_si128(_mm_cmpgt_epi8(v, a), _mm_cmplt_epi8(v, z));
                let lo = _mm_movemask_epi8(cap(self.lo)) as u32 & 0xffff;
                let hi = _mm_movemask_epi8(cap(self.hi)) as u32;
                lo | hi << 16
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            self.scalar(|x| x.is_ascii_uppercase())
        }
    }

    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    fn scalar(&self, f: impl Fn(u8) -> bool) -> u32 {
        self.bytes
            .iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | u32::from(f(x)) << k)
    }
}

/// [`Tail32::eq`] byte by byte: the oracle of the tests.
pub fn tail32_eq_scalar(b: &[u8], c: u8) -> Option<u32> {
    let t = b.get(b.len().checked_sub(32)?..)?;
    Some(
        t.iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | u32::from(x == c) << k),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn upper_scalar(b: &[u8]) -> u32 {
        b[b.len() - 32..]
            .iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | u32::from(x.is_ascii_uppercase()) << k)
    }

    /// Every byte value at every place of the last 32 (and before them,
    /// where it must not count); capitals' neighbours `@` and `[`, and
    /// bytes >= 0x80, are not capitals.
    #[test]
    fn masks_agree_with_the_bytes() {
        assert!(Tail32::of(&[b'a'; 31]).is_none());
        for len in [32usize, 33, 40, 64] {
            for at in 0..len {
                for x in [0u8, b'@', b'A', b'M', b'Z', b'[', b'a', 0x80, 0xC1, 0xFF] {
                    let mut b = vec![b'/'; len];
                    b[at] = x;
                    let t = Tail32::of(&b).expect("32 bytes");
                    for c in [0u8, b'/', x] {
                        assert_eq!(Some(t.eq(c)), tail32_eq_scalar(&b, c), "{len} {at} {x} {c}");
                    }
                    assert_eq!(t.upper(), upper_scalar(&b), "{len} {at} {x}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn masks_agree_on_any_bytes(b in proptest::collection::vec(any::<u8>(), 32..80), c: u8) {
            let t = Tail32::of(&b).expect("32 bytes");
            prop_assert_eq!(Some(t.eq(c)), tail32_eq_scalar(&b, c));
            prop_assert_eq!(t.upper(), upper_scalar(&b));
        }
    }
}
