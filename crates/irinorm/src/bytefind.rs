//! Finding the next byte that needs a look, for the ladder's rewrite path
//! and the trusted split of its output, through the kernels of
//! `irinorm-simd` (the scanner's mechanism: 16 or 32 bytes per step,
//! chosen at run time; docs/simd.md).
//!
//! Why: the rewrite of input that is not already normal (`write_normal`)
//! copies runs of bytes that need nothing in one go, and the split of its
//! output only looks for delimiters. Until issue 14 round 4 this module
//! was a second mechanism, SWAR words of eight bytes; one mechanism is
//! kept, the kernels, which also step over the triplets a normalizer keeps
//! (RFC 3986 §6.2.2.1-§6.2.2.2) instead of stopping at every `%`.
//!
//! What the kernels cannot do, this module adds: they classify ASCII only
//! (a byte >= 0x80 always ends a run), so [`find`] can step over non-ASCII
//! bytes; and they read the byte before their start (for a run's pair),
//! so from position 0 they fall back to the scalar kernel for the whole
//! input: [`find`] judges byte 0 itself and starts them at 1.

use irinorm_simd::{Class, Kernel, Run};

/// Every ASCII byte except those of `except`: the plain bytes of a run
/// that stops only at `except` (and at non-ASCII bytes, as every run).
pub(crate) const fn ascii_except(except: &[u8]) -> Class {
    let mut c = Class::EMPTY;
    let mut b = 0u8;
    while b < 0x80 {
        let mut k = 0;
        let mut keep = true;
        while k < except.len() {
            if except[k] == b {
                keep = false;
            }
            k += 1;
        }
        if keep {
            c = c.with(b);
        }
        b += 1;
    }
    c
}

/// Inputs of at most this many bytes are read by [`Class::contains`], a
/// byte at a time: the kernels' own fallback there is their scalar step
/// (which also judges triplets and pairs), about five times dearer per
/// byte (callgrind: 606 instructions per host of `query-heavy`).
const SHORT: usize = 16;

/// Bytes read by [`Class::contains`] before a kernel is called: a kernel
/// call has the fixed cost of dozens of bytes, so stops that come close
/// together (non-ASCII text in `uri` form, runs of triplets that change)
/// are found without a call each, and a long run costs eight lookups more.
/// Without it, a reference of `é` or `%7e` repeated cost a kernel call per
/// character (the adversarial cost tests).
const PEEK: usize = 8;

/// The first position at or after `i` where `run` ends in `b` (see
/// `irinorm_simd::Kernel::next_stop`), or `b.len()`; with `skip_high`,
/// bytes >= 0x80 do not end it. The run must have no pair (the bytes
/// before a kernel call are judged here by the class alone). It may stop
/// early at the `%` of a triplet the run would skip, in the bytes judged by
/// the class: callers judge the byte they stop at (a stop is never
/// missed, only early).
#[inline(always)]
pub(crate) fn find(b: &[u8], i: usize, run: &Run, skip_high: bool) -> usize {
    find_with(Kernel::active(), b, i, run, skip_high)
}

/// [`find`] with the kernel `k` (the tests run every kernel).
#[inline(always)]
fn find_with(k: Kernel, b: &[u8], mut i: usize, run: &Run, skip_high: bool) -> usize {
    let plain = run.plain();
    let kept = |c: u8| plain.contains(c) || (skip_high && c >= 0x80);
    loop {
        // The next few bytes (all of a short input) by the class. The
        // kernel then starts at 1 or later: from 0 the vector kernels fall
        // back to the scalar one for the whole input (they read the byte
        // before their start, for a run's pair).
        let end = if b.len() <= SHORT {
            b.len()
        } else {
            b.len().min(i.saturating_add(PEEK))
        };
        while i < end {
            if !kept(b[i]) {
                return i;
            }
            i += 1;
        }
        if i >= b.len() {
            return i;
        }
        let at = k.next_stop(b, i, run).at;
        match b.get(at) {
            // A non-ASCII sequence is kept: go on after it.
            Some(&c) if skip_high && c >= 0x80 => i = at + 1,
            _ => return at,
        }
    }
}

/// Components of at most this many bytes (from the position searched) are
/// read by words only ([`irinorm_simd::words`]); longer ones by a word
/// and then a kernel. Most components the rewrite path writes (hosts, path
/// segments of the frontier) are shorter: their search is a few words.
const WORDS: usize = 32;

/// The first position at or after `i` where a component's run may need a
/// look: a `%`, a byte >= 0x80 unless `skip_high`, or a stop of `run`
/// beyond the first word; `b.len()` when there is none. For the rewrite
/// path (`ladder/percent.rs`), whose input is a component of a parsed
/// reference: every byte of it outside the run's class is a `%` or
/// non-ASCII, so the words' stops are the run's (a `%` of a triplet the
/// kernel would step over included: the caller judges it and goes on),
/// and the kernel is called only for what is left after 8 bytes of a
/// longer component. Issue 14, round 5: the class loop before a kernel
/// call cost about ten instructions a byte; a word costs about eight.
#[inline(always)]
pub(crate) fn find_component(b: &[u8], i: usize, run: &Run, skip_high: bool) -> usize {
    find_component_with(Kernel::active(), b, i, run, skip_high)
}

/// [`find_component`] with the kernel `k` (the tests run every kernel).
#[inline(always)]
fn find_component_with(k: Kernel, b: &[u8], mut i: usize, run: &Run, skip_high: bool) -> usize {
    use irinorm_simd::words::find_byte_or_high;
    loop {
        if b.len().saturating_sub(i) <= WORDS {
            return find_byte_or_high(b, i, b'%', skip_high);
        }
        // One word, then the kernel from at least byte 8 (a vector kernel
        // started at 0 falls back to the scalar one: it reads the byte
        // before its start, for a run's pair).
        let j = find_byte_or_high(&b[..i + 8], i, b'%', skip_high);
        if j < i + 8 {
            return j;
        }
        let at = k.next_stop(b, i + 8, run).at;
        match b.get(at) {
            // A non-ASCII sequence is kept: go on after it.
            Some(&c) if skip_high && c >= 0x80 => i = at + 1,
            _ => return at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: byte by byte.
    fn find_bytewise(b: &[u8], i: usize, stop: &dyn Fn(u8) -> bool) -> usize {
        (i..b.len()).find(|&k| stop(b[k])).unwrap_or(b.len().max(i))
    }

    #[test]
    fn ascii_except_is_the_complement() {
        let c = ascii_except(b"/?#");
        for b in 0..=255u8 {
            assert_eq!(c.contains(b), b < 0x80 && !b"/?#".contains(&b), "{b:#x}");
        }
    }

    /// `len` bytes `b'x'`, with `x` at `a` (when `a < len`) and `y` a little
    /// after it (`1 + a % gap` on, kept inside the input).
    fn planted(len: usize, a: usize, x: u8, y: u8, gap: usize) -> Vec<u8> {
        let mut s = vec![b'x'; len];
        if a < len {
            s[a] = x;
        }
        let second = (a + 1 + a % gap).min(len.saturating_sub(1));
        if second < len && second != a {
            s[second] = y;
        }
        s
    }

    /// Every stop byte (one of the set, a byte >= 0x80) at every position
    /// of inputs around the window sizes, two of them, from every start,
    /// with and without stepping over non-ASCII, under every kernel the CPU
    /// has.
    #[test]
    fn find_is_the_first_stop() {
        const RUN: Run = Run::new(ascii_except(b"?#"), None, None);
        for len in (0..40).chain([63, 64, 65, 66, 97]) {
            for a in 0..len.max(1) {
                for (x, y) in [(b'?', b'#'), (0xc3, 0xa9), (b'#', 0xe2), (0x80, b'?')] {
                    let s = planted(len, a, x, y, 5);
                    for skip_high in [false, true] {
                        let stop = |c: u8| c == b'?' || c == b'#' || (!skip_high && c >= 0x80);
                        for start in 0..=len {
                            for k in Kernel::supported() {
                                assert_eq!(
                                    find_with(k, &s, start, &RUN, skip_high),
                                    find_bytewise(&s, start, &stop),
                                    "{k:?}: {s:?} from {start}, skip_high {skip_high}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// [`find_component`] against the byte loop on inputs whose bytes are
    /// the run's plain bytes, `%` and non-ASCII (what a parsed component
    /// holds), under every kernel, from every start: its answer is the
    /// first `%` or (unless `skip_high`) non-ASCII byte, or a later stop
    /// of the run (never a byte after the first `%` or non-ASCII byte).
    #[test]
    fn find_component_is_the_first_pct_or_high() {
        const RUN: Run = Run::new(ascii_except(b"%"), None, None).mark(0x7f);
        for len in (0..45).chain([63, 64, 65, 66, 97]) {
            for a in 0..len.max(1) {
                for (x, y) in [(b'%', b'%'), (0xc3, 0xa9), (b'%', 0xe2), (0x80, b'%')] {
                    let s = planted(len, a, x, y, 11);
                    for skip_high in [false, true] {
                        let stop = |c: u8| c == b'%' || (!skip_high && c >= 0x80);
                        for start in 0..=len {
                            for k in Kernel::supported() {
                                assert_eq!(
                                    find_component_with(k, &s, start, &RUN, skip_high),
                                    find_bytewise(&s, start, &stop),
                                    "{k:?}: {s:?} from {start}, skip_high {skip_high}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
