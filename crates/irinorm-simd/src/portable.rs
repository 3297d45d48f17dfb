//! The portable kernel: sixteen bytes per window, classified with
//! comparisons against the class's byte ranges ([`crate::class::Ranges`])
//! instead of table lookups. The loop over the window has no branch and a
//! constant trip count, so the compiler vectorizes it with the target's
//! baseline instructions (SSE2 on x86-64, NEON on aarch64), in safe Rust:
//! the form of the scanner's classifier before the x86 kernels (commit
//! `74d09d4`, `scan.rs`), kept so that targets without a hand-written
//! kernel do not get slower than that.
//!
//! A window where no byte needs a look (every byte plain, none completing
//! the pair, none the mark) is skipped whole; otherwise the scan moves to
//! the first byte that needs one and takes the scalar kernel's step there,
//! so the answer is the scalar kernel's by construction. In a window that
//! has such a byte, the triplets the run skips are judged inside the window
//! first (`%`, hex digits in the windows one and two bytes later, their
//! value not unreserved, all by comparisons): a query full of `%XX` is not
//! one step per `%`.

use crate::class::{Ranges, MAX_RANGES};
use crate::{Run, Stop, Triplets, PCT_ANY, PCT_HIGH};

/// Window width in bytes.
const W: usize = 16;

#[inline(always)]
fn win(b: &[u8], i: usize) -> &[u8; W] {
    b[i..i + W].try_into().expect("a window")
}

#[inline(always)]
fn in_ranges(r: &Ranges, x: u8) -> bool {
    let mut yes = false;
    for j in 0..MAX_RANGES {
        yes |= x.wrapping_sub(r.lo[j]) < r.len[j];
    }
    yes
}

/// One byte per `%` of `c` that starts a triplet the run skips (`c1`,
/// `c2`: the windows one and two bytes later; `hex`, `unres`: the
/// [`Triplets`] as ranges), and one per such triplet encoding a
/// non-ASCII byte (0x80 or above). The value is computed as the vector kernels do
/// ([`Triplets::digit`]); it is garbage where a digit is not hex, and
/// then not used.
#[inline(always)]
fn triplets(hex: &Ranges, unres: &Ranges, c: &[u8; W], c1: &[u8; W], c2: &[u8; W]) -> (u128, u128) {
    let (mut ok, mut high) = ([0u8; W], [0u8; W]);
    for k in 0..W {
        let (h, l) = (c1[k], c2[k]);
        let v = (Triplets::digit(h) << 4) | Triplets::digit(l);
        let good = (c[k] == b'%') & in_ranges(hex, h) & in_ranges(hex, l) & !in_ranges(unres, v);
        ok[k] = u8::from(good);
        high[k] = u8::from(good & (v >= 0x80));
    }
    (u128::from_le_bytes(ok), u128::from_le_bytes(high))
}

#[inline(always)]
fn flags(ok: u128, high: u128) -> u8 {
    (u8::from(ok != 0) * PCT_ANY) | (u8::from(high != 0) * PCT_HIGH)
}

/// One byte per byte of `c` (bytes `i..i+W`; `p`: bytes `i-1..i+W-1`),
/// nonzero where it needs a look: not plain, the pair's second byte after
/// its first, or the mark.
#[inline(always)]
fn special(r: &Ranges, run: &Run, c: &[u8; W], p: &[u8; W]) -> u128 {
    let mut m = [0u8; W];
    for k in 0..W {
        let x = c[k];
        let plain = in_ranges(r, x);
        let pair = (x == run.pair[1]) & (p[k] == run.pair[0]);
        m[k] = u8::from(!plain | pair | (x == run.mark));
    }
    u128::from_le_bytes(m)
}

/// The first position at or after `j` (`j >= 1`) whose byte needs a look
/// ([`special`]) and is not the `%` of a triplet the run skips, or the
/// length of `b`; the flags of the skipped triplets before it are added to
/// `pct`. Triplets are judged where two bytes follow the window; nearer
/// the end, their `%` is left to the scalar step. The last bytes are the window that
/// ends the input, the bytes before `j` shifted out (straight-line code,
/// not a byte-by-byte loop of up to fifteen steps).
#[inline(always)]
fn skip(r: &Ranges, run: &Run, b: &[u8], mut j: usize, pct: &mut u8) -> usize {
    let len = b.len();
    if let Some((hex, unres)) = run.triplets.as_ref().and_then(|t| t.ranges.as_ref()) {
        while j + W + 2 <= len {
            let c = win(b, j);
            let mut m = special(r, run, c, win(b, j - 1));
            if m != 0 {
                let (ok, high) = triplets(hex, unres, c, win(b, j + 1), win(b, j + 2));
                m &= !ok;
                if m != 0 {
                    let at = (m.trailing_zeros() / 8) as usize;
                    // Only the triplets before the stop are skipped.
                    let before = (1u128 << (8 * at)) - 1;
                    *pct |= flags(ok & before, high & before);
                    return j + at;
                }
                *pct |= flags(ok, high);
            }
            j += W;
        }
    }
    while j + W <= len {
        let m = special(r, run, win(b, j), win(b, j - 1));
        if m != 0 {
            return j + (m.trailing_zeros() / 8) as usize;
        }
        j += W;
    }
    if j < len && len > W {
        let base = len - W;
        let m = special(r, run, win(b, base), win(b, base - 1)) >> (8 * (j - base));
        return if m != 0 {
            j + (m.trailing_zeros() / 8) as usize
        } else {
            len
        };
    }
    j
}

/// [`crate::Kernel::next_stop`], sixteen bytes per window.
#[inline(always)]
pub(crate) fn next_stop(b: &[u8], i: usize, run: &Run) -> Stop {
    let Some(r) = &run.ranges else {
        return crate::scalar::next_stop(b, i, run);
    };
    let len = b.len();
    let mut j = i;
    let mut pct = 0u8;
    let mut mark = None;
    loop {
        if j >= 1 {
            j = skip(r, run, b, j, &mut pct);
        }
        if j >= len {
            break;
        }
        // The scalar kernel's step (`scalar.rs`) at a byte that needs a
        // look (or the first byte, or any byte of an input of at most W).
        match crate::scalar::step(b, j, run, &mut pct, &mut mark) {
            Some(next) => j = next,
            None => {
                return Stop {
                    at: j,
                    pct,
                    mark: mark.unwrap_or(j),
                }
            }
        }
    }
    let at = j.max(len);
    Stop {
        at,
        pct,
        mark: mark.unwrap_or(at),
    }
}
