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
//! so the answer is the scalar kernel's by construction. Triplets are that
//! step's work (the query-heavy case costs one step per `%`).

use crate::class::{Ranges, MAX_RANGES};
use crate::{Run, Stop};

/// Window width in bytes.
const W: usize = 16;

#[inline(always)]
fn win(b: &[u8], i: usize) -> &[u8; W] {
    b[i..i + W].try_into().expect("a window")
}

/// One byte per byte of `c` (bytes `i..i+W`; `p`: bytes `i-1..i+W-1`),
/// nonzero where it needs a look: not plain, the pair's second byte after
/// its first, or the mark.
#[inline(always)]
fn special(r: &Ranges, run: &Run, c: &[u8; W], p: &[u8; W]) -> u128 {
    let mut m = [0u8; W];
    for k in 0..W {
        let x = c[k];
        let mut plain = false;
        for j in 0..MAX_RANGES {
            plain |= x.wrapping_sub(r.lo[j]) < r.len[j];
        }
        let pair = (x == run.pair[1]) & (p[k] == run.pair[0]);
        m[k] = u8::from(!plain | pair | (x == run.mark));
    }
    u128::from_le_bytes(m)
}

/// The first position at or after `j` (`j >= 1`) whose byte needs a look
/// ([`special`]), or the length of `b`. The last bytes are the window that
/// ends the input, the bytes before `j` shifted out (straight-line code,
/// not a byte-by-byte loop of up to fifteen steps).
#[inline(always)]
fn skip(r: &Ranges, run: &Run, b: &[u8], mut j: usize) -> usize {
    let len = b.len();
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
            j = skip(r, run, b, j);
        }
        if j >= len {
            break;
        }
        // The scalar kernel's step (`scalar.rs`) at a byte that needs a
        // look (or the first byte, or any byte of an input of at most W).
        let c = b[j];
        if let Some(t) = &run.triplets {
            if c == b'%' {
                if let Some(f) = t.at(b, j) {
                    pct |= f;
                    j += 3;
                    continue;
                }
            }
        }
        let pair = j >= 1 && c == run.pair[1] && b[j - 1] == run.pair[0];
        if !run.plain.contains(c) || pair {
            return Stop {
                at: j,
                pct,
                mark: mark.unwrap_or(j),
            };
        }
        if c == run.mark && mark.is_none() {
            mark = Some(j);
        }
        j += 1;
    }
    let at = j.max(len);
    Stop {
        at,
        pct,
        mark: mark.unwrap_or(at),
    }
}
