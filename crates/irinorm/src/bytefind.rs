//! Finding the first byte of a small set eight bytes at a time, in a `u64`
//! (SWAR), in safe Rust on the x86-64 baseline.
//!
//! Why: the slow path of the ladder (`write_normal` on input that is not
//! already normal) and the trusted split of its output walked components
//! byte by byte, a compare and a branch per byte; on long queries full of
//! triplets (BENCHMARKS.md, issue 14: `query-heavy`) that loop was most of
//! the rewrite. A mask of the bytes of interest in a word, then the lowest
//! set byte, takes a few operations per eight bytes.
//!
//! Every mask here is exact (the high bit of each byte of interest and of
//! no other byte): no carry crosses a byte, so callers may also iterate
//! over all set bytes of a word, not only the lowest.

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW7: u64 = !HIGH;

/// Eight bytes of `b` from `i` (little-endian: byte `i` is the lowest),
/// zeros past the end of `b`. Zero is in none of the sets searched here.
#[inline(always)]
pub(crate) fn load(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    match b.get(i..i + 8) {
        Some(s) => w.copy_from_slice(s),
        None => {
            let tail = b.get(i..).unwrap_or(&[]);
            w[..tail.len()].copy_from_slice(tail);
        }
    }
    u64::from_le_bytes(w)
}

/// The high bit of each byte of `w` that is zero.
/// `(x & 0x7f) + 0x7f` has its high bit set exactly when the low seven
/// bits are not all zero, and at most 0xfe: no carry into the next byte.
#[inline(always)]
pub(crate) fn zero(w: u64) -> u64 {
    !(((w & LOW7) + LOW7) | w) & HIGH
}

/// The high bit of each byte of `w` equal to `c`.
#[inline(always)]
pub(crate) fn eq(w: u64, c: u8) -> u64 {
    zero(w ^ (ONES * u64::from(c)))
}

/// The high bit of each byte of `w` that is an ASCII upper-case letter.
/// On the low seven bits `x`, `x + 0x3f` reaches 0x80 exactly when
/// `x >= 0x41` ('A') and `x + 0x25` when `x >= 0x5b` (past 'Z'); bytes
/// with the high bit set are excluded.
#[inline(always)]
pub(crate) fn upper(w: u64) -> u64 {
    let x = w & LOW7;
    let ge_a = x + ONES * 0x3f;
    let gt_z = x + ONES * 0x25;
    ge_a & !gt_z & !w & HIGH
}

/// The index of the first byte at or after `i` whose byte has its high
/// bit set in `mask(word)`, or `b.len()`.
#[inline(always)]
pub(crate) fn find(b: &[u8], mut i: usize, mask: impl Fn(u64) -> u64) -> usize {
    while i < b.len() {
        let m = mask(load(b, i));
        if m != 0 {
            // Zeros past the end never match, so this is inside `b`.
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_agree_with_byte_tests() {
        // Every byte value at every position of a word, the other bytes
        // chosen to provoke carries and borrows (0x00, 0x7f, 0x80, 0xff,
        // the neighbours of each class).
        for fill in [
            0x00u8, 0x7f, 0x80, 0xff, b'@', b'[', b'Z', b'A', b'%', b'$', b'&',
        ] {
            for pos in 0..8 {
                for c in 0..=255u8 {
                    let mut w = [fill; 8];
                    w[pos] = c;
                    let x = u64::from_le_bytes(w);
                    let want = |f: &dyn Fn(u8) -> bool| {
                        w.iter()
                            .enumerate()
                            .filter(|(_, &b)| f(b))
                            .fold(0u64, |m, (k, _)| m | (0x80 << (8 * k)))
                    };
                    assert_eq!(zero(x), want(&|b| b == 0), "{w:?}");
                    assert_eq!(eq(x, b'%'), want(&|b| b == b'%'), "{w:?}");
                    assert_eq!(eq(x, b'&'), want(&|b| b == b'&'), "{w:?}");
                    assert_eq!(upper(x), want(&|b| b.is_ascii_uppercase()), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn find_is_the_first_match() {
        for len in 0..40usize {
            for a in 0..=len {
                for b2 in [a + 1, a + 7, a + 8, a + 9, a + 20] {
                    let mut s = vec![b'x'; len];
                    for at in [a, b2] {
                        if at < len {
                            s[at] = b'?';
                        }
                    }
                    for start in 0..=len + 1 {
                        let want = s
                            .get(start..)
                            .and_then(|r| r.iter().position(|&c| c == b'?'))
                            .map_or(len, |p| start + p);
                        assert_eq!(find(&s, start, |w| eq(w, b'?')), want, "{s:?} {start}");
                    }
                }
            }
        }
    }
}
