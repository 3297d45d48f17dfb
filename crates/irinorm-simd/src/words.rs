//! Eight bytes at a time (SWAR, in a `u64`) for the short inputs of the
//! core's rewrite path: a component of a reference that is not already
//! normal (`crates/irinorm/src/ladder/percent.rs`, `write_component`).
//!
//! Why: such components are short (a host, a path of 20 bytes), and what
//! they need first is "the next `%` or byte >= 0x80": every other byte of
//! a parsed component is kept as it is (RFC 3986 §6.2.2), except the host's
//! upper-case letters (§6.2.2.1). A call of a vector kernel
//! ([`crate::Kernel::next_stop`]) has a fixed cost of dozens of
//! instructions, and a byte-by-byte class lookup before it cost about ten
//! instructions a byte (callgrind on the CLI's frontier input, issue 14
//! round 5); a word here costs about eight. Long runs still go to the
//! kernels, which also step over the triplets a normalizer keeps.
//!
//! Every mask below is exact per byte (no borrow or carry crosses a byte:
//! each byte's low seven bits plus at most 0x7f stay below 0x100), so any
//! set bit, not only the lowest, is a real match.

/// One in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// The low seven bits of every byte.
const LOW7: u64 = !HIGH;

/// Eight bytes (exactly) as a little-endian word (also the SSE2 byte
/// masks' loads, `bytemask.rs`).
#[inline(always)]
pub(crate) fn word(w: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(w);
    u64::from_le_bytes(a)
}

/// The bytes of `b` from `at` (`at < b.len()`): eight of them, or what is
/// left with zeros above (a zero byte matches none of the masks below for
/// a `c != 0`). The end is read without a copy of variable length (a
/// `memcpy` call, dearer than the words on short components): the last
/// eight bytes shifted, or for an input shorter than eight, two loads of
/// 4, 2 or 1 bytes that overlap in the middle (`|` keeps the bytes they
/// share, which are the same).
#[inline(always)]
fn load(b: &[u8], at: usize) -> u64 {
    let n = b.len();
    if at + 8 <= n {
        word(&b[at..at + 8])
    } else if n >= 8 {
        word(&b[n - 8..]) >> (8 * (at + 8 - n))
    } else {
        partial(&b[at..])
    }
}

/// The bytes of `r` (at most eight) as a little-endian word, zeros above:
/// eight bytes as one word, fewer as two loads of 4, 2 or 1 bytes that
/// overlap in the middle (the overlapping bytes are the same, so `|` keeps
/// them; no copy of variable length).
#[inline(always)]
pub(crate) fn partial(r: &[u8]) -> u64 {
    let k = r.len();
    if k >= 8 {
        word(&r[..8])
    } else if k >= 4 {
        let w = |s: &[u8]| u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
        w(&r[..4]) | (w(&r[k - 4..]) << (8 * (k - 4)))
    } else if k >= 2 {
        let w = |s: &[u8]| u64::from(u16::from_le_bytes([s[0], s[1]]));
        w(&r[..2]) | (w(&r[k - 2..]) << (8 * (k - 2)))
    } else {
        r.first().map_or(0, |&c| u64::from(c))
    }
}

/// The high bit of each byte of `w` that is zero.
#[inline(always)]
fn zero(w: u64) -> u64 {
    !(((w & LOW7) + LOW7) | w) & HIGH
}

/// The high bit of each byte of `w` equal to `c`.
#[inline(always)]
fn eq(w: u64, c: u8) -> u64 {
    zero(w ^ (ONES * u64::from(c)))
}

/// The high bit of each byte of `w` in `A..=Z`.
#[inline(always)]
fn upper(w: u64) -> u64 {
    let x = w & LOW7;
    // bit 7 of x + 0x3f: x >= 0x41 ('A'); of x + 0x25: x >= 0x5b (past 'Z').
    (x + ONES * 0x3f) & !(x + ONES * 0x25) & !w & HIGH
}

/// The high bit of each byte of `w` that is `c` or, unless `SKIP_HIGH`,
/// non-ASCII (`>= 0x80`). Without `SKIP_HIGH` a byte >= 0x80 is a stop whatever the
/// compare says, so the compare needs only the low seven bits: for a byte
/// below 0x80, `x = w ^ c` has its high bit clear and `x + 0x7f` sets it
/// unless `x` is 0 (six operations a word instead of nine).
#[inline(always)]
fn stops<const SKIP_HIGH: bool>(w: u64, c: u8) -> u64 {
    if SKIP_HIGH {
        eq(w, c)
    } else {
        let x = w ^ (ONES * u64::from(c));
        (w | !((x & LOW7) + LOW7)) & HIGH
    }
}

/// Whether none of the 16 bytes at `b[at..]` (`at + 16 <= b.len()`) is
/// `c` or, unless `SKIP_HIGH`, non-ASCII. Written over a fixed-size array
/// so that the compiler makes it one vector compare and one mask in safe
/// Rust (SSE2 on x86-64: `pcmpeqb`, `pandn`, `por`, `pmovmskb`; 8
/// instructions for 16 bytes, where two words cost about 20).
#[inline(always)]
fn clean16<const SKIP_HIGH: bool>(b: &[u8], at: usize, c: u8) -> bool {
    let mut a = [0u8; 16];
    a.copy_from_slice(&b[at..at + 16]);
    let mut acc = 0u8;
    for x in a {
        let hit = u8::from(x == c) << 7;
        acc |= if SKIP_HIGH { hit } else { hit | (x & 0x80) };
    }
    acc == 0
}

/// [`find_byte_or_high`] for one `skip_high`: 16 bytes a step, judged
/// whole ([`clean16`]); in the block that holds a stop, its place by the
/// words; then what is left, by words.
#[inline(always)]
fn find_stop<const SKIP_HIGH: bool>(b: &[u8], from: usize, c: u8) -> usize {
    let n = b.len();
    let mut i = from;
    while i + 16 <= n {
        if !clean16::<SKIP_HIGH>(b, i, c) {
            let m0 = stops::<SKIP_HIGH>(word(&b[i..i + 8]), c);
            return if m0 != 0 {
                i + (m0.trailing_zeros() / 8) as usize
            } else {
                let m1 = stops::<SKIP_HIGH>(word(&b[i + 8..i + 16]), c);
                i + 8 + (m1.trailing_zeros() / 8) as usize
            };
        }
        i += 16;
    }
    while i < n {
        let m = stops::<SKIP_HIGH>(load(b, i), c);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    n
}

/// The first position at or after `from` of byte `c`, or of a byte >= 0x80
/// unless `skip_high`; `b.len()` when there is none (and when `from` is
/// past the end). `c` must be ASCII and not 0.
#[inline(always)]
pub fn find_byte_or_high(b: &[u8], from: usize, c: u8, skip_high: bool) -> usize {
    debug_assert!(c != 0 && c < 0x80);
    if skip_high {
        find_stop::<true>(b, from, c)
    } else {
        find_stop::<false>(b, from, c)
    }
}

/// Whether `b` holds neither `c` nor a byte >= 0x80 (`c` ASCII, not 0).
#[inline(always)]
pub fn ascii_without(b: &[u8], c: u8) -> bool {
    find_byte_or_high(b, 0, c, false) == b.len()
}

/// Whether `b` holds an ASCII upper-case letter (RFC 3986 §6.2.2.1: the
/// host is lower-cased; most hosts the rewrite path writes have none, and
/// then nothing needs the byte-by-byte lower-casing).
#[inline(always)]
pub fn any_ascii_upper(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        if upper(load(b, i)) != 0 {
            return true;
        }
        i += 8;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_is_the_bytes_padded_with_zeros() {
        let text: Vec<u8> = (1..=40u8).collect();
        for len in 0..20 {
            let b = &text[..len];
            for at in 0..len {
                let mut w = [0u8; 8];
                let tail = &b[at..(at + 8).min(len)];
                w[..tail.len()].copy_from_slice(tail);
                assert_eq!(load(b, at), u64::from_le_bytes(w), "{len} {at}");
            }
        }
    }

    #[test]
    fn masks_agree_with_byte_tests() {
        for fill in [
            0x00u8, 0x7f, 0x80, 0xff, b'@', b'[', b'Z', b'A', b'%', 0xc1, 0xdb,
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
                    assert_eq!(stops::<true>(x, b'%'), want(&|b| b == b'%'), "{w:?}");
                    assert_eq!(
                        stops::<false>(x, b'%'),
                        want(&|b| b == b'%' || b >= 0x80),
                        "{w:?}"
                    );
                    assert_eq!(upper(x), want(&|b| b.is_ascii_uppercase()), "{w:?}");
                }
            }
        }
    }

    /// Every stop at every position of inputs around the word size, two
    /// stops, from every start, with and without `skip_high`.
    #[test]
    fn find_is_the_first_stop() {
        for len in 0..40usize {
            for a in 0..=len {
                for (x, y) in [(b'%', b'%'), (0xc3, b'%'), (b'%', 0x80), (0xff, 0xe2)] {
                    for second in [a + 1, a + 7, a + 8, a + 9, a + 20] {
                        let mut s = vec![b'x'; len];
                        if a < len {
                            s[a] = x;
                        }
                        if second < len {
                            s[second] = y;
                        }
                        for skip_high in [false, true] {
                            let stop = |c: u8| c == b'%' || (!skip_high && c >= 0x80);
                            for start in 0..=len + 1 {
                                let want = s
                                    .get(start..)
                                    .and_then(|r| r.iter().position(|&c| stop(c)))
                                    .map_or(len, |p| start + p);
                                assert_eq!(
                                    find_byte_or_high(&s, start, b'%', skip_high),
                                    want,
                                    "{s:?} from {start}, skip_high {skip_high}"
                                );
                            }
                        }
                        let clean = !s.iter().any(|&c| c == b'%' || c >= 0x80);
                        assert_eq!(ascii_without(&s, b'%'), clean, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn any_upper_is_any_upper() {
        let text: Vec<u8> = (0..=255u8)
            .chain(b"www.Example.COM/a-z@[`{".iter().copied())
            .collect();
        for start in 0..text.len() {
            for len in 0..40 {
                let s = &text[start..(start + len).min(text.len())];
                assert_eq!(
                    any_ascii_upper(s),
                    s.iter().any(u8::is_ascii_uppercase),
                    "{s:?}"
                );
            }
        }
    }
}
