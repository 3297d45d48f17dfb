//! A set of ASCII bytes as two 16-entry nibble tables, the form a byte
//! shuffle (`pshufb`, `vpshufb`, NEON `tbl`) looks up sixteen or
//! thirty-two bytes at a time (W. Mula and D. Lemire's vectorized
//! classification, as in simdjson).
//!
//! Byte `b` is in the set when `LO[b & 15] & BIT[b >> 4] != 0`, where
//! `BIT[h] = 1 << h` for `h < 8` and `0` for `h >= 8`: bit `h` of `LO[l]`
//! says whether byte `h * 16 + l` is in the set. Every subset of ASCII has
//! exactly one such table, and no byte >= 0x80 is ever in it (the URI
//! classes of RFC 3986 are ASCII; non-ASCII always goes to the full parser).
//! Tables are built by `const fn` from the caller's class table, never by
//! hand, so the class table stays the single source of truth.

/// `BIT[h]`: the bit of high nibble `h` (`0` for non-ASCII nibbles 8..=15),
/// twice (the two 128-bit lanes of an AVX2 register).
pub(crate) const BIT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut h = 0;
    while h < 8 {
        t[h] = 1 << h;
        t[h + 16] = 1 << h;
        h += 1;
    }
    t
};

/// The most byte ranges a class may have for the portable kernel's
/// comparisons (the scanner's classes have 8 or 9; a class with more is
/// left to the scalar kernel).
pub(crate) const MAX_RANGES: usize = 12;

/// A class as ranges of consecutive bytes: `b` is in it when
/// `b - lo[k] < len[k]` (wrapping) for some `k`; unused entries have
/// `len` 0 (never true). Comparisons that a compiler turns into SSE2 or
/// NEON vector operations on any target, with no table lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ranges {
    pub(crate) lo: [u8; MAX_RANGES],
    pub(crate) len: [u8; MAX_RANGES],
}

/// A set of ASCII bytes (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Class {
    /// `LO[l]`, twice (both 128-bit lanes of an AVX2 register).
    pub(crate) lo: [u8; 32],
}

impl std::fmt::Debug for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let members: String = (0..=127u8)
            .filter(|&b| self.contains(b))
            .map(|b| b as char)
            .collect();
        f.debug_tuple("Class").field(&members).finish()
    }
}

impl Class {
    /// The empty set.
    pub const EMPTY: Class = Class { lo: [0; 32] };

    /// The bytes `b` with `table[b] & any_of != 0` and
    /// `table[b] & none_of == 0`. Fails (at compile time, in a `const`) if
    /// a byte >= 0x80 would be in the set.
    pub const fn from_table(table: &[u16; 256], any_of: u16, none_of: u16) -> Class {
        let mut c = Class::EMPTY;
        let mut b = 0usize;
        while b < 256 {
            let t = table[b];
            if t & any_of != 0 && t & none_of == 0 {
                assert!(b < 0x80, "a nibble class holds ASCII bytes only");
                c = c.with(b as u8);
            }
            b += 1;
        }
        c
    }

    /// This set and the byte `b` (ASCII).
    pub const fn with(self, b: u8) -> Class {
        assert!(b < 0x80, "a nibble class holds ASCII bytes only");
        let mut c = self;
        let l = (b & 15) as usize;
        c.lo[l] |= 1 << (b >> 4);
        c.lo[l + 16] = c.lo[l];
        c
    }

    /// This set without the byte `b`.
    pub const fn without(self, b: u8) -> Class {
        if b >= 0x80 {
            return self;
        }
        let mut c = self;
        let l = (b & 15) as usize;
        c.lo[l] &= !(1 << (b >> 4));
        c.lo[l + 16] = c.lo[l];
        c
    }

    /// The bytes in both sets.
    pub const fn and(self, other: Class) -> Class {
        let mut c = self;
        let mut l = 0;
        while l < 32 {
            c.lo[l] &= other.lo[l];
            l += 1;
        }
        c
    }

    /// Whether `b` is in the set: the scalar form of the vector lookup.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        self.lo[(b & 15) as usize] & BIT[(b >> 4) as usize] != 0
    }

    /// The set as at most [`MAX_RANGES`] ranges, or `None` if it has more.
    pub(crate) const fn ranges(&self) -> Option<Ranges> {
        let mut r = Ranges {
            lo: [0; MAX_RANGES],
            len: [0; MAX_RANGES],
        };
        let mut n = 0;
        let mut x = 0u16;
        while x < 128 {
            if self.contains(x as u8) {
                let start = x;
                while x < 128 && self.contains(x as u8) {
                    x += 1;
                }
                if n == MAX_RANGES {
                    return None;
                }
                r.lo[n] = start as u8;
                r.len[n] = (x - start) as u8;
                n += 1;
            } else {
                x += 1;
            }
        }
        Some(r)
    }

    /// Whether every member of `self` is in `other`.
    pub const fn is_subset(&self, other: &Class) -> bool {
        let mut l = 0;
        while l < 16 {
            if self.lo[l] & !other.lo[l] != 0 {
                return false;
            }
            l += 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ascii_subset_round_trips() {
        // A few irregular sets: the table holds each exactly.
        for seed in [0u64, 1, 0x5555, 0xdead_beef_cafe_f00d, u64::MAX] {
            let mut table = [0u16; 256];
            let mut x = seed;
            for t in table.iter_mut().take(128) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *t = u16::from(x >> 63 == 1);
            }
            let c = Class::from_table(&table, 1, 0);
            for b in 0..=255u8 {
                assert_eq!(c.contains(b), table[b as usize] == 1, "{seed} {b:#x}");
            }
        }
    }

    #[test]
    fn with_without_and() {
        let c = Class::EMPTY.with(b'a').with(b'%').with(0x7f);
        assert!(c.contains(b'a') && c.contains(b'%') && c.contains(0x7f));
        assert!(!c.contains(b'b') && !c.contains(0xe1) && !c.contains(0xa5));
        let d = c.without(b'%');
        assert!(!d.contains(b'%') && d.contains(b'a'));
        assert_eq!(c.and(d), d);
        assert!(d.is_subset(&c) && !c.is_subset(&d));
        assert_eq!(c.without(0xff), c);
    }

    #[test]
    fn ranges_hold_the_set() {
        let c = Class::EMPTY
            .with(b'!')
            .with(b'a')
            .with(b'b')
            .with(b'c')
            .with(0x7f);
        let r = c.ranges().expect("three ranges");
        assert_eq!((&r.lo[..3], &r.len[..3]), (&b"!a\x7f"[..], &[1, 3, 1][..]));
        assert!(r.len[3..].iter().all(|&l| l == 0));
        for b in 0..=255u8 {
            let inr = (0..MAX_RANGES).any(|k| b.wrapping_sub(r.lo[k]) < r.len[k]);
            assert_eq!(inr, c.contains(b), "{b:#x}");
        }
        // Every other byte: 64 ranges, more than the portable kernel takes.
        let mut odd = Class::EMPTY;
        for b in (1..128u8).step_by(2) {
            odd = odd.with(b);
        }
        assert_eq!(odd.ranges(), None);
    }
}
