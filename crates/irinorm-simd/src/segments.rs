//! [`keep_segments`]: a range of a `String` rebuilt from some of its
//! segments, copied forward as fixed 64-byte blocks with the kept/dropped
//! choice made on the write position, not by a branch (issue 14, round 15).
//!
//! Why: `crawler`'s tracking-parameter filter (`irinorm-rules`,
//! `query_filter.rs`) cut the removed parameters out of the query by
//! `String::drain`, one `memmove` of the tail per run of them, whose size
//! classes the predictor missed (~1.6 mispredicts a call on
//! `query-heavy`). A parameter is mostly under 64 bytes: copied whole as
//! 64 bytes into a scratch area, the write position then advanced by its
//! length only when it is kept, it costs four vector loads and stores and
//! no branch on the verdict (BENCHMARKS.md, "Issue 14, round 15: the
//! floor": `copy2` against `copy`). In safe code the result would have to
//! go back into the `String` through `str::from_utf8` (as much again as
//! the copies); here the bytes are taken out of the `String`, and put back
//! without the check after proving, by checks made as the segments are
//! copied, that every cut is a character boundary.

/// Replaces `s[base + bounds[0]..base + bounds[count]]` (`count =
/// bounds.len() - 1`) by the concatenation of its segments `s[base +
/// bounds[i]..base + bounds[i + 1]]` whose bit `i` of `keep` is set; when
/// the result is not empty and `lead` is given, its first byte is made
/// `lead`. Returns the result's length.
///
/// The query filter's use: `base` the byte before the query's `?`,
/// `bounds[i]` the start of parameter `i` after it (each segment a
/// parameter with the `?` or `&` before it), `lead` `?`.
///
/// # Panics
/// When there are more than 64 segments, `bounds` decreases, a cut is past
/// `s`'s end or inside a character, or `lead` (or the byte it replaces) is
/// not ASCII. `s` is then left empty.
pub fn keep_segments(
    s: &mut String,
    base: usize,
    bounds: &[u16],
    keep: u64,
    lead: Option<u8>,
) -> usize {
    let count = bounds.len().saturating_sub(1);
    assert!(count <= 64, "at most 64 segments");
    // Taken out: a panic below leaves `s` empty, never holding bytes that
    // are not UTF-8.
    let mut v = std::mem::take(s).into_bytes();
    let len = v.len();
    let at = |i: usize| base + usize::from(bounds[i]);
    let (lo, hi) = (at(0), at(count));
    assert!(
        lo <= hi && boundary(&v, lo),
        "a cut at a character boundary"
    );
    // The scratch area after the string: the kept bytes (at most `hi -
    // lo`) and the 64 bytes a block written at the last position reaches.
    let end = len + (hi - lo) + 64;
    v.resize(end, 0);
    // The write position, in the scratch area.
    let mut w = len;
    let mut a = lo;
    for i in 0..count {
        let b = at(i + 1);
        // In order, and at a character boundary of the original (`b <=
        // len` included; bytes below `len` are never written): each kept
        // segment is then UTF-8 on its own.
        assert!(
            a <= b && boundary(&v[..len], b),
            "a cut at a character boundary"
        );
        let n = b - a;
        // Always copied, by blocks of 64 bytes read into a value first (a
        // block may read past `len`, into what was written: those bytes
        // land past the segment's `n`, where the next segment or nothing
        // is written). Reads end before `len + 64`, writes before `len +
        // (a - lo) + n + 64`: both inside `end`. A dropped segment is
        // overwritten by the next one.
        let mut k = 0;
        loop {
            let block: [u8; 64] = *v[a + k..].first_chunk().expect("64 bytes");
            *v[w + k..].first_chunk_mut().expect("64 bytes") = block;
            k += 64;
            if k >= n {
                break;
            }
        }
        w += usize::from((keep >> i) & 1 == 1) * n;
        a = b;
    }
    if let (Some(c), true) = (lead, w > len) {
        assert!(
            c.is_ascii() && v[len].is_ascii(),
            "an ASCII lead for an ASCII byte"
        );
        v[len] = c;
    }
    // The result where the range was, then what followed it.
    v.copy_within(len..w, lo);
    let w = w - len;
    if hi < len {
        v.copy_within(hi..len, lo + w);
    }
    v.truncate(lo + w + (len - hi));
    #[allow(unsafe_code)]
    // SAFETY: `v` was the bytes of a `String`, so UTF-8. It now holds
    // `v[..lo]`, the kept segments `v[at(i)..at(i + 1)]` in order, and
    // `v[hi..len]`, all of the original (nothing below `len` is written
    // before the final moves): the scratch area's `len..w` is exactly the
    // kept segments, since each copy starts at the current `w`, `w` only
    // grows, so bytes below it are never written again, and a copy's
    // bytes past its segment's `n` sit at or above the next `w`. Every cut (`lo`, each
    // `at(i)`, `hi = at(count)`) was asserted to be at most `len` and a
    // character boundary of the original (`boundary`), so each piece is
    // UTF-8 and so is their concatenation. `lead` replaced an ASCII byte
    // by an ASCII byte (asserted), which keeps it UTF-8. A panic before
    // this line drops `v` and leaves `s` empty.
    unsafe {
        *s = String::from_utf8_unchecked(v);
    }
    w
}

/// Whether `i` is a character boundary of the UTF-8 bytes `b` (its end
/// included): not past the end, and not at a continuation byte.
#[inline(always)]
fn boundary(b: &[u8], i: usize) -> bool {
    b.get(i).map_or(i == b.len(), |&c| (c as i8) >= -0x40)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The segments kept by slicing (the oracle).
    fn simple(s: &str, base: usize, bounds: &[u16], keep: u64, lead: Option<u8>) -> String {
        let at = |i: usize| base + usize::from(bounds[i]);
        let count = bounds.len() - 1;
        let mut mid: String = (0..count)
            .filter(|&i| (keep >> i) & 1 == 1)
            .map(|i| &s[at(i)..at(i + 1)])
            .collect();
        if let (Some(c), false) = (lead, mid.is_empty()) {
            mid.replace_range(..1, &char::from(c).to_string());
        }
        format!("{}{mid}{}", &s[..at(0)], &s[at(count)..])
    }

    #[test]
    fn keeps_the_segments_of_a_query() {
        let url = "http://a/p?a=1&utm_x=2&b&gclid=3#f";
        // The query from 11 (its `?` at 10): each parameter's start after
        // it, from the `?` (`base` 10), and one past the query's end.
        let bounds = [0u16, 4, 12, 14, 22];
        for keep in 0..16u64 {
            for lead in [None, Some(b'?')] {
                let mut s = url.to_owned();
                let w = keep_segments(&mut s, 10, &bounds, keep, lead);
                assert_eq!(s, simple(url, 10, &bounds, keep, lead), "{keep:b}");
                assert_eq!(s.len(), url.len() - 22 + w);
            }
        }
        let mut s = url.to_owned();
        keep_segments(&mut s, 10, &bounds, 0b1010, Some(b'?'));
        assert_eq!(s, "http://a/p?utm_x=2&gclid=3#f");
        // No segment: nothing changes.
        let mut s = url.to_owned();
        assert_eq!(keep_segments(&mut s, 3, &[4], 1, None), 0);
        assert_eq!(s, url);
    }

    /// Segments longer than 64 bytes, and near the string's end (the
    /// copies of their length), around a non-ASCII character.
    #[test]
    fn long_segments_and_the_end() {
        let s0 = format!("é{}|{}|ü|", "x".repeat(70), "y".repeat(63));
        let cuts: Vec<u16> = s0.match_indices('|').map(|(i, _)| i as u16).collect();
        let bounds = [&[0u16][..], &cuts].concat();
        for keep in 0..16u64 {
            let mut s = s0.clone();
            keep_segments(&mut s, 0, &bounds, keep, None);
            assert_eq!(s, simple(&s0, 0, &bounds, keep, None));
        }
    }

    #[test]
    fn refuses_a_cut_inside_a_character() {
        for bounds in [&[0u16, 1][..], &[1, 2], &[2, 1], &[0, 9]] {
            let r = std::panic::catch_unwind(|| {
                let mut s = "éa".to_owned();
                keep_segments(&mut s, 0, bounds, 1, None);
                s
            });
            assert!(r.is_err(), "{bounds:?}");
        }
        let r = std::panic::catch_unwind(|| {
            let mut s = "éa".to_owned();
            keep_segments(&mut s, 0, &[0, 2], 1, Some(b'?'))
        });
        assert!(r.is_err(), "a lead over a non-ASCII byte");
    }
}
