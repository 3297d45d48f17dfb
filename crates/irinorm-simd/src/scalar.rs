//! The scalar kernel: byte by byte over the same nibble tables. The
//! fallback on targets without a vector kernel, the tail of the vector
//! kernels on inputs shorter than one window, and the oracle of the tests.

use crate::{Packed, Run, Stop};

/// [`crate::Kernel::next_stop`], one byte at a time.
pub(crate) fn next_stop(b: &[u8], i: usize, run: &Run) -> Stop {
    let mut j = i;
    let mut pct = 0u8;
    let mut mark = None;
    while j < b.len() {
        match step(b, j, run, &mut pct, &mut mark) {
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
    let at = j.max(b.len());
    Stop {
        at,
        pct,
        mark: mark.unwrap_or(at),
    }
}

/// One step of the scalar kernel at `b[j]` (`j < b.len()`): the position
/// after the byte, or after the triplet it starts when the run skips
/// triplets (its flags added to `pct`), with the run's first mark noted;
/// `None` when the run stops at `j`. Shared with the portable kernel, which
/// takes this step at every byte its windows flag, so both give the same
/// answers by construction.
#[inline(always)]
pub(crate) fn step(
    b: &[u8],
    j: usize,
    run: &Run,
    pct: &mut u8,
    mark: &mut Option<usize>,
) -> Option<usize> {
    let c = b[j];
    if let Some(t) = &run.triplets {
        if c == b'%' {
            if let Some(f) = t.at(b, j) {
                *pct |= f;
                return Some(j + 3);
            }
        }
    }
    let pair = j >= 1 && c == run.pair[1] && b[j - 1] == run.pair[0];
    if !run.plain.contains(c) || pair {
        return None;
    }
    if c == run.mark && mark.is_none() {
        *mark = Some(j);
    }
    Some(j + 1)
}

/// [`next_stop`] in the vector kernels' return type.
pub(crate) fn next_stop_packed(b: &[u8], i: usize, run: &Run) -> Packed {
    let s = next_stop(b, i, run);
    Packed::new(s.at, s.pct, s.mark)
}
