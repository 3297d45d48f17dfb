//! [`irinorm_simd::next_stop_echo`] (issue 14, round 16): on every kernel
//! this CPU has, the answer is `next_stop`'s, and [`Echo::finish`] appends
//! exactly the input after the string's text, whether the kernel wrote the
//! copy (AVX2, inputs over 32 bytes, the run to the end) or not; a dropped
//! echo leaves the text as it was. The output strings hold text before,
//! and spare capacity filled with a sentinel (`~`, stale bytes after a
//! `truncate`), so that a window the kernel failed to store shows in the
//! result; or no capacity at all.

use irinorm_simd::{Class, Echo, Kernel, Run, Triplets};
use proptest::prelude::*;

const fn set(bytes: &[u8]) -> Class {
    let mut c = Class::EMPTY;
    let mut k = 0;
    while k < bytes.len() {
        c = c.with(bytes[k]);
        k += 1;
    }
    c
}

/// RFC 3986 §3.4's query characters (pchar, `/`, `?`), written here from
/// the ABNF as in `prop_kernels.rs`.
const QUERY: Class =
    set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?");
const UNRESERVED: Class =
    set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~");
const TRIPLETS: Triplets = Triplets::new(set(b"0123456789ABCDEF"), UNRESERVED);

/// The scanner's path runs (`crates/irinorm/src/scan.rs`: the path and
/// query with the `?` marked, the path alone), the query run, and a run
/// without triplets.
const RUNS: [Run; 4] = [
    Run::new(QUERY, Some(*b"/."), Some(TRIPLETS)).mark(b'?'),
    Run::new(QUERY.without(b'?'), Some(*b"/."), Some(TRIPLETS)),
    Run::new(QUERY, None, Some(TRIPLETS)).dense(),
    Run::new(QUERY, None, None),
];

/// The kinds of output string: empty without capacity; text before and
/// stale sentinel bytes in the spare capacity; text and no spare capacity.
fn outputs(n: usize) -> [String; 3] {
    let mut stale = String::with_capacity(n + 100);
    stale.push_str("before|");
    stale.push_str(&"~".repeat(n + 90));
    stale.truncate(7);
    let mut tight = String::from("text:");
    tight.shrink_to_fit();
    [String::new(), stale, tight]
}

/// The checks of one call, on each kind of output.
fn check(src: &str, start: usize, run: &Run) {
    check_on(src, start, run, 0..3);
}

/// [`check`] on the kinds of output `kinds` ([`outputs`]).
fn check_on(src: &str, start: usize, run: &Run, kinds: std::ops::Range<usize>) {
    let b = src.as_bytes();
    let want = Kernel::SCALAR.next_stop(b, start, run);
    for k in Kernel::supported() {
        for kind in kinds.clone() {
            // Made twice, not cloned: a clone does not keep the capacity.
            let mut kept = std::mem::take(&mut outputs(src.len())[kind]);
            let mut dropped = std::mem::take(&mut outputs(src.len())[kind]);
            let before = kept.clone();
            let mut e = Echo::new(&mut kept, src);
            assert_eq!(
                k.next_stop_echo(&mut e, start, run),
                want,
                "{k:?} {src:?} from {start}, {run:?}"
            );
            e.finish();
            assert_eq!(
                kept,
                before.clone() + src,
                "{k:?} {src:?} from {start}, {run:?}"
            );
            let mut e = Echo::new(&mut dropped, src);
            k.next_stop_echo(&mut e, start, run);
            assert_eq!(*e.into_out(), before, "{k:?} {src:?} from {start}");
        }
    }
}

/// What is planted: plain bytes, the stops (`/.`, `#`, a space, upper
/// case in a triplet, `%` cut short), the mark, triplets normal or not,
/// non-ASCII.
const PLANTS: [&str; 12] = [
    "a", "/", "/.", "?", "#", "%", " ", "%2F", "%41", "%2f", "%C3%A9", "é",
];

/// Every planted piece at every position of inputs of 0-70 and 126-136
/// bytes (every lane of the windows, the steps, the straight-line end and
/// the windows before the start), from the start 1 and from a later one;
/// the kind of output taken in turn (all three on every length and run).
#[test]
fn echo_at_every_position() {
    for len in (0..=70usize).chain(126..=136) {
        for at in 0..len {
            for plant in PLANTS {
                if at + plant.len() > len {
                    continue;
                }
                let mut s = String::with_capacity(len);
                s.push_str(&"a".repeat(at));
                s.push_str(plant);
                s.push_str(&"b".repeat(len - at - plant.len()));
                let kind = (at + plant.len()) % 3;
                for run in &RUNS[..2] {
                    for start in [1, 2 + at / 2] {
                        check_on(&s, start, run, kind..kind + 1);
                    }
                }
                for run in &RUNS[2..] {
                    check_on(&s, 1, run, kind..kind + 1);
                }
            }
        }
    }
}

/// Starts at every position of plain inputs (the windows before the start
/// are stored by the kernel too: the start in every lane of them).
#[test]
fn echo_from_every_start() {
    for len in (30..=70usize).chain(126..=136).chain(190..=200) {
        let s: String = (0..len).map(|k| (b'a' + (k % 26) as u8) as char).collect();
        for start in 0..=len + 1 {
            check(&s, start, &RUNS[0]);
            check(&s, start, &RUNS[1]);
        }
    }
}

/// Without a kernel call, `finish` copies the whole input; a dropped echo
/// appends nothing.
#[test]
fn echo_without_a_call() {
    for kind in 0..3 {
        let mut a = std::mem::take(&mut outputs(40)[kind]);
        let mut b = std::mem::take(&mut outputs(40)[kind]);
        let before = a.clone();
        Echo::new(&mut a, "https://example.com/a/long/enough/path?q=1").finish();
        assert_eq!(
            a,
            before.clone() + "https://example.com/a/long/enough/path?q=1"
        );
        let e = Echo::new(&mut b, "https://example.com/");
        assert_eq!(e.src(), "https://example.com/");
        assert_eq!(*e.into_out(), before);
    }
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(vec!["a", "z", "0", "/", "-", ".", "=", "&", "?"]),
            2 => prop::sample::select(vec!["%2F", "%C3%A9", "%41", "%2f", "%", "#", " ", "é", "/."]),
        ],
        0..120,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    /// Random inputs (up to ~300 bytes), any start.
    #[test]
    fn echo_agrees(s in text(), start in 0usize..320, run in 0usize..RUNS.len()) {
        check(&s, start, &RUNS[run]);
    }
}
