//! Every kernel this CPU has gives the scalar kernel's answer (position
//! and triplet flags) on random byte strings: lengths 0..200, every start,
//! stop bytes and triplets at every position and window boundary,
//! non-ASCII bytes. The runs are the scanner's three (`crates/irinorm/src/scan.rs`),
//! their classes written here from RFC 3986's ABNF (§2.2, §2.3, §3.2.2,
//! §3.3, §3.4), independently of the core's tables.

use irinorm_simd::{Class, Kernel, Run, Stop, Triplets};
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

const ALPHA_LOW: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const ALPHA_UP: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT: &[u8] = b"0123456789";
const SUB_DELIMS: &[u8] = b"!$&'()*+,;=";
const UNRES_MARK: &[u8] = b"-._~";

const fn union(a: Class, b: Class) -> Class {
    // (a' & b')' by De Morgan is not available; add b's members one by one.
    let mut c = a;
    let mut x = 0u8;
    while x < 0x80 {
        if b.contains(x) {
            c = c.with(x);
        }
        x += 1;
    }
    c
}

const UNRESERVED: Class = union(
    union(set(ALPHA_LOW), set(ALPHA_UP)),
    union(set(DIGIT), set(UNRES_MARK)),
);
/// pchar without pct-encoded, plus `/` and `?` (§3.4).
const QUERY: Class = union(union(UNRESERVED, set(SUB_DELIMS)), set(b":@/?"));
/// reg-name in normal form: no upper case, no `%` (§3.2.2, §6.2.2.1).
const HOST: Class = union(
    union(set(ALPHA_LOW), set(DIGIT)),
    union(set(UNRES_MARK), set(SUB_DELIMS)),
);
const TRIPLETS: Triplets = Triplets::new(set(b"0123456789ABCDEF"), UNRESERVED);

const RUNS: [Run; 9] = [
    Run::new(HOST, Some(*b"--"), None),
    Run::new(QUERY.without(b'?'), Some(*b"/."), Some(TRIPLETS)),
    Run::new(QUERY, None, Some(TRIPLETS)),
    Run::new(QUERY, None, Some(TRIPLETS)).dense(),
    // The path and the query in one run, the `?` marked (scan.rs).
    Run::new(QUERY, Some(*b"/."), Some(TRIPLETS)).mark(b'?'),
    Run::new(HOST, None, None).mark(b'.'),
    // No pair, no triplets, `%` plain: the simplest run.
    Run::new(union(QUERY, set(b"%")), None, None),
    // The scanner's host run: one window first (`Run::short`).
    Run::new(HOST, Some(*b"--"), None).short(),
    Run::new(union(QUERY, set(b"%")), None, None).short(),
];

/// Bytes that matter, often; any byte, sometimes.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        6 => prop::sample::select(b"abcxyz019/-.:@&=+".to_vec()),
        3 => prop::sample::select(b"%%%2F3A7E4120C3AF5f7e".to_vec()),
        2 => prop::sample::select(b"?#[] <>\"{}|\\^`A-Z.".to_vec()),
        1 => prop::sample::select(vec![0u8, 0x7f, 0x80, 0xc3, 0xa9, 0xff, 0x25 | 0x80]),
        1 => any::<u8>(),
    ]
}

fn check(b: &[u8]) {
    for run in &RUNS {
        for start in 0..=b.len() + 1 {
            let want = Kernel::SCALAR.next_stop(b, start, run);
            for k in Kernel::supported() {
                assert_eq!(
                    k.next_stop(b, start, run),
                    want,
                    "{k:?} on {:?} from {start}, run {run:?}",
                    String::from_utf8_lossy(b)
                );
            }
        }
    }
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(2048.max(ProptestConfig::default().cases)))]

    #[test]
    fn kernels_agree(b in prop::collection::vec(byte(), 0..200)) {
        check(&b);
    }

    /// Long plain runs with one or two planted bytes: the stop lands in
    /// every lane of every window, the last window included.
    #[test]
    fn planted(len in 0usize..200, at in any::<prop::sample::Index>(),
               at2 in any::<prop::sample::Index>(), x in byte(), y in byte()) {
        let mut b = vec![b'a'; len];
        if len > 0 {
            b[at.index(len)] = x;
            b[at2.index(len)] = y;
        }
        check(&b);
    }
}

/// Every byte at every position of inputs around the window sizes (all
/// lanes of the 16- and 32-byte windows, of the lookahead windows and of
/// the overlapping last window), after a `/` and after a `-` (the pairs).
#[test]
fn every_byte_at_every_position() {
    for len in (1..=36usize).chain(46..=52).chain(62..=68) {
        for at in 0..len {
            for x in 0..=255u8 {
                for before in [b'a', b'/', b'-'] {
                    let mut b = vec![b'a'; len];
                    b[at] = x;
                    if at > 0 {
                        b[at - 1] = before;
                    }
                    for run in &RUNS {
                        let want = Kernel::SCALAR.next_stop(&b, 1, run);
                        for k in Kernel::supported() {
                            assert_eq!(k.next_stop(&b, 1, run), want, "{k:?} {len} {at} {x:#x}");
                        }
                    }
                }
            }
        }
    }
}

/// A triplet, normal or not (a digit that is not a hex digit, lower case,
/// an unreserved value, cut short by the end), at every position of
/// inputs around one and two steps of each kernel's loop: the vector
/// kernels judge a triplet's digits on the hex mask shifted by one and two
/// positions, with the two bytes after a step carried in, so a triplet
/// across a step's end is the case to get right. A normal triplet a few
/// bytes earlier keeps the loop in its triplet-judging branch.
#[test]
fn triplet_at_every_position() {
    let digits: [&[u8; 2]; 14] = [
        b"2F", b"C3", b"A9", b"8A", b"41", b"7E", b"2f", b"G0", b"g0", b"/0", b"2G", b"2z", b"2-",
        b"2%",
    ];
    for len in (30..=40usize).chain(62..=72).chain(126..=136) {
        for at in 0..len {
            for d in digits {
                for lead in [false, true] {
                    let mut b = vec![b'a'; len];
                    if lead && at >= 5 {
                        b[at - 5..at - 2].copy_from_slice(b"%3A");
                    }
                    b[at] = b'%';
                    for (k, &x) in d.iter().enumerate() {
                        if at + 1 + k < len {
                            b[at + 1 + k] = x;
                        }
                    }
                    for run in &RUNS {
                        for start in [1, 2] {
                            let want = Kernel::SCALAR.next_stop(&b, start, run);
                            for k in Kernel::supported() {
                                assert_eq!(
                                    k.next_stop(&b, start, run),
                                    want,
                                    "{k:?} {len} {at} {:?} {run:?}",
                                    String::from_utf8_lossy(&b)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Runs that reach the end (the vector kernels' own exit when the last
/// two windows hold no stop: issue 14, round 17), with a mark and a
/// normal triplet (high or not) at every pair of positions: the answer's
/// flags and first mark are the ones folded from the loop and from those
/// windows, on inputs of 0-70 and 126-136 bytes from starts 1 and 2.
#[test]
fn mark_and_triplet_with_no_stop() {
    for len in (0..=70usize).chain(126..=136) {
        for at in 0..len {
            for (t, pct) in [(b"%2F", 1u8), (b"%C3", 3)] {
                for m in (0..len).step_by(6).chain([len.saturating_sub(1)]) {
                    let mut b = vec![b'a'; len];
                    if at + 3 <= len {
                        b[at..at + 3].copy_from_slice(t);
                    }
                    if b[m] == b'a' {
                        b[m] = b'?';
                    }
                    for run in &RUNS {
                        for start in [1, 2] {
                            let want = Kernel::SCALAR.next_stop(&b, start, run);
                            for k in Kernel::supported() {
                                assert_eq!(
                                    k.next_stop(&b, start, run),
                                    want,
                                    "{k:?} {len} {at} {pct} {m} {run:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The scalar kernel itself, against a model written from the definition.
#[test]
fn scalar_semantics() {
    let run = &RUNS[2];
    let stop = |at, pct| Stop { at, pct, mark: at };
    let s = |b: &str, i| Kernel::SCALAR.next_stop(b.as_bytes(), i, run);
    assert_eq!(s("a=b&c=d", 0), stop(7, 0));
    assert_eq!(s("a=%2F&c", 0), stop(7, 1));
    assert_eq!(s("a=%C3%A9#", 0), stop(8, 3));
    assert_eq!(s("a=%2f", 0), stop(2, 0), "lower-case hex");
    assert_eq!(s("a=%7E", 0), stop(2, 0), "unreserved ~");
    assert_eq!(s("a=%2", 0), stop(2, 0), "cut at the end");
    assert_eq!(s("%2F #%C3", 0), stop(3, 1), "flags before the stop only");
    assert_eq!(s("abc", 5), stop(5, 0));
    let path = &RUNS[1];
    assert_eq!(Kernel::SCALAR.next_stop(b"/a/./b", 1, path).at, 3);
    assert_eq!(Kernel::SCALAR.next_stop(b"/a?b", 1, path).at, 2);
    assert_eq!(
        Kernel::SCALAR.next_stop(b"/a%2F.b", 1, path).at,
        7,
        "`.` after a triplet"
    );
    let fused = &RUNS[4];
    let f = |b: &str| Kernel::SCALAR.next_stop(b.as_bytes(), 1, fused);
    assert_eq!(
        f("/a/b?c=/d?e#f"),
        Stop {
            at: 11,
            pct: 0,
            mark: 4
        },
        "the first `?`"
    );
    assert_eq!(
        f("/a/b#?"),
        Stop {
            at: 4,
            pct: 0,
            mark: 4
        },
        "none before the stop"
    );
    assert_eq!(
        f("/a?b/.c"),
        Stop {
            at: 5,
            pct: 0,
            mark: 2
        },
        "the pair still stops"
    );
    let host = &RUNS[0];
    assert_eq!(Kernel::SCALAR.next_stop(b"xn--abc", 1, host).at, 3);
    assert_eq!(Kernel::SCALAR.next_stop(b"a-b.Com", 1, host).at, 4);
}

#[test]
fn detection() {
    let s = Kernel::supported();
    assert_eq!(s[0], Kernel::SCALAR);
    assert!(s.contains(&Kernel::active()));
    #[cfg(target_arch = "x86_64")]
    if std::env::var_os("IRINORM_SIMD").is_none() {
        assert_eq!(
            Kernel::active().name(),
            if std::arch::is_x86_feature_detected!("avx2") {
                "avx2"
            } else if std::arch::is_x86_feature_detected!("ssse3") {
                "ssse3"
            } else {
                "scalar"
            }
        );
    }
}
