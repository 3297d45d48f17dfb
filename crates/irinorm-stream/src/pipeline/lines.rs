//! The lines of a chunk: [`Lines`], the worker's line splitter.

use std::ops::Range;

use super::ChunkKind;

/// The lines of a chunk, in order: each line's span (without its `\n`, and
/// without a `\r` before it) and its number (from 1). A stream chunk is
/// cut at every `\n`, and a last line without one is a line too; a
/// single-unit chunk (a command-line argument) is one line, never split.
///
/// The line ends of each block of 64 bytes are found as one bit mask (SSE2
/// on x86-64: four compares) and visited by their bits: one search per
/// block, not one per line. `memchr_iter` cost 73 instructions per line of
/// the frontier (mean 53 bytes: a call, its dispatch and its short-input
/// path per line), a mask per block about 15 (callgrind, issue 14 round 5).
/// Every block but the last is whole, so it is read by `eq_mask64_padded`
/// (inlined, no test of the end); `eq_mask64`, which tests the end at each
/// 16-byte window, was a call of 42 instructions a block: 11.3 M of the
/// 300k-line frontier's 313.5 M (issue 14 round 13). An iterator rather
/// than a loop that calls a closure per line: the worker's loop over the
/// lines is then one function, the op's call inside it (the closure was
/// not inlined: a call of about 20 instructions per line, round 13).
pub(super) struct Lines<'d> {
    data: &'d [u8],
    /// The line ends of the block at `base` not visited yet.
    mask: u64,
    base: usize,
    /// Where the next block starts (past `data.len()`: no block left).
    next: usize,
    /// Where the next line starts.
    start: usize,
    /// The number of the next line.
    line: u64,
    /// Line ends passed so far.
    ends: u64,
    /// No line left.
    done: bool,
}

impl<'d> Lines<'d> {
    pub(super) fn new(data: &'d [u8], kind: ChunkKind) -> Self {
        Lines {
            data,
            mask: 0,
            base: 0,
            next: if kind == ChunkKind::Single {
                usize::MAX
            } else {
                0
            },
            start: 0,
            line: 1,
            ends: 0,
            done: false,
        }
    }

    /// The number of line ends passed: those of every line given so far
    /// (a single unit counts as one; the last line of a stream chunk, when
    /// it has no `\n`, as none).
    pub(super) fn ends(&self) -> u64 {
        self.ends
    }

    /// A line that ends at `nl` (a `\n`, or the end of the data).
    #[inline(always)]
    fn line_to(&mut self, nl: usize) -> (Range<usize>, u64) {
        let start = self.start;
        let end = if nl > start && self.data[nl - 1] == b'\r' {
            nl - 1
        } else {
            nl
        };
        let line = self.line;
        self.start = nl + 1;
        self.line += 1;
        (start..end, line)
    }
}

impl Iterator for Lines<'_> {
    type Item = (Range<usize>, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.mask != 0 {
                let nl = self.base + self.mask.trailing_zeros() as usize;
                self.mask &= self.mask - 1;
                self.ends += 1;
                return Some(self.line_to(nl));
            }
            let len = self.data.len();
            if self.next.saturating_add(64) <= len {
                self.base = self.next;
                self.next += 64;
                self.mask = irinorm_simd::eq_mask64_padded(self.data, self.base, b'\n');
            } else if self.next < len {
                self.base = self.next;
                self.next = len;
                self.mask = irinorm_simd::eq_mask64(self.data, self.base, b'\n');
            } else {
                return self.last();
            }
        }
    }
}

impl Lines<'_> {
    /// After the last line end: the rest of a stream chunk when it has no
    /// `\n`, or the whole of a single unit; then nothing.
    #[cold]
    fn last(&mut self) -> Option<(Range<usize>, u64)> {
        if self.done {
            return None;
        }
        self.done = true;
        let len = self.data.len();
        if self.next == usize::MAX {
            self.ends = 1;
            return Some((0..len, 1));
        }
        (self.start < len).then(|| self.line_to(len))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn spans(data: &[u8], kind: ChunkKind) -> (Vec<(Range<usize>, u64)>, u64) {
        let mut l = Lines::new(data, kind);
        let v: Vec<_> = l.by_ref().collect();
        assert_eq!(l.next(), None, "fused");
        (v, l.ends())
    }

    /// The lines by `split`: the oracle.
    fn oracle(data: &[u8]) -> (Vec<(Range<usize>, u64)>, u64) {
        let mut v = Vec::new();
        let mut start = 0;
        let parts: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
        let n = parts.len();
        for (i, p) in parts.into_iter().enumerate() {
            // The part after the last `\n` is a line only when not empty.
            if i + 1 == n && p.is_empty() {
                break;
            }
            let end = start + p.len() - usize::from(p.last() == Some(&b'\r'));
            v.push((start..end, i as u64 + 1));
            start += p.len() + 1;
        }
        (v, data.iter().filter(|&&b| b == b'\n').count() as u64)
    }

    #[test]
    fn lines_and_their_ends() {
        let (v, ends) = spans(b"a\r\nbb\n\nc", ChunkKind::Stream);
        assert_eq!(v, vec![(0..1, 1), (3..5, 2), (6..6, 3), (7..8, 4)]);
        assert_eq!(ends, 3);
        let (v, ends) = spans(b"a\nb\r\n", ChunkKind::Stream);
        assert_eq!(v, vec![(0..1, 1), (2..3, 2)]);
        assert_eq!(ends, 2);
        assert_eq!(spans(b"", ChunkKind::Stream), (vec![], 0));
        // A lone `\r` line: empty, its `\r` dropped.
        assert_eq!(spans(b"\r\n", ChunkKind::Stream), (vec![(0..0, 1)], 1));
        // A single unit: one line, whatever it holds.
        assert_eq!(spans(b"a\nb\r", ChunkKind::Single), (vec![(0..4, 1)], 1));
        assert_eq!(spans(b"", ChunkKind::Single), (vec![(0..0, 1)], 1));
    }

    #[test]
    fn line_ends_at_every_place_of_the_blocks() {
        // Ends at each position around the 64-byte blocks' edges.
        for len in 0..200usize {
            for at in 0..len {
                let mut d = vec![b'x'; len];
                d[at] = b'\n';
                if at > 0 {
                    d[at - 1] = b'\r';
                }
                assert_eq!(spans(&d, ChunkKind::Stream), oracle(&d), "{len} {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn lines_agree_with_split(
            d in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), any::<u8>()],
                0..400,
            )
        ) {
            prop_assert_eq!(spans(&d, ChunkKind::Stream), oracle(&d));
        }
    }
}
