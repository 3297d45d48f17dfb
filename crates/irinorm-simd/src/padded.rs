//! [`eq_mask64_padded`]: [`crate::eq_mask64`] for a caller whose buffer
//! holds 64 readable bytes from `base` (a query followed by padding:
//! `irinorm-rules`' query filter, issue 14 round 6). Without the checks
//! against the end (each 16-byte window of `eq_mask64` tests it, and the
//! windows' loop exits at it) a 64-byte block is four compares and four
//! byte masks, no branch.

/// Bit `k` set when `b[base + k] == c`, for the 64 bytes from `base`.
///
/// # Panics
/// When `b` holds fewer than `base + 64` bytes.
#[inline(always)]
pub fn eq_mask64_padded(b: &[u8], base: usize, c: u8) -> u64 {
    let block: &[u8; 64] = b[base..base + 64].try_into().expect("64 bytes");
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::eq_mask64_block(block, c)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        eq_mask64_block_scalar(block, c)
    }
}

/// The bits of a block equal to `c`, byte by byte (the fallback off
/// x86-64 and the oracle of the test).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn eq_mask64_block_scalar(block: &[u8; 64], c: u8) -> u64 {
    block
        .iter()
        .enumerate()
        .fold(0, |m, (k, &x)| m | (u64::from(x == c) << k))
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8, _mm_set_epi64x};

    /// Not a `#[target_feature]` function (issue 14 round 9): LLVM did not inline
    /// one into its callers (the query filter's loops), and the call cost
    /// about 8 of the block's ~28 instructions, 2.8 calls per URL on `len
    /// 161+` (BENCHMARKS.md, "Issue 14, round 9"). `#[inline(always)]` is
    /// refused on a `#[target_feature]` function, and rustc still asks for
    /// `unsafe` around the intrinsics outside one, so the intrinsics are
    /// called in one `unsafe` block here.
    #[inline(always)]
    pub(super) fn eq_mask64_block(block: &[u8; 64], c: u8) -> u64 {
        #[allow(unsafe_code)]
        // SAFETY: this module is compiled only when the build enables
        // SSE2 for the whole program (`cfg(target_feature = "sse2")`,
        // always so on x86-64), so every CPU this binary runs on has the
        // intrinsics' feature. They take and return values (the loads are
        // checked slices made into `u128`s): no pointer, nothing else to
        // uphold.
        unsafe {
            let needle = _mm_set1_epi8(c as i8);
            let mut m = 0u64;
            for j in 0..4 {
                // One `u128` per window: the compiler makes it one
                // unaligned load (two words of eight bytes became a 16-byte
                // load whose high half was loaded again and merged: 8 of
                // the block's 28 instructions).
                let x = u128::from_le_bytes(block[16 * j..16 * j + 16].try_into().expect("16"));
                let v = _mm_set_epi64x((x >> 64) as i64, x as i64);
                m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)) as u16) << (16 * j);
            }
            m
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_eq_mask64_and_the_scalar_oracle() {
        // A needle (and a byte one bit away) at every place of two blocks,
        // every base, non-ASCII bytes around.
        for a in 0..128usize {
            let mut b: Vec<u8> = (0..192).map(|i| b'a' + (i % 26) as u8).collect();
            b[a] = b'&';
            b[(a + 37) % 128] = b'&' ^ 1;
            b[(a + 5) % 128] = 0xC3;
            for base in [0, 1, 15, 16, 63, 64, 100, 128] {
                let block: &[u8; 64] = b[base..base + 64].try_into().unwrap();
                let want = crate::eq_mask64_scalar(&b, base, b'&');
                assert_eq!(eq_mask64_padded(&b, base, b'&'), want, "at {a} base {base}");
                assert_eq!(eq_mask64_block_scalar(block, b'&'), want);
            }
        }
    }
}
