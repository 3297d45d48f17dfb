//! Runtime-dispatched SIMD kernels for irinorm's scanner of already-normal
//! references (issue 14; `crates/irinorm/src/scan.rs` is the caller).
//!
//! One operation, [`Kernel::next_stop`]: from a position in a byte string,
//! find the first byte that ends a run of "plain" bytes (a [`Run`]: a byte
//! class as nibble tables, an optional forbidden pair such as `/.`, and
//! optionally the percent-encoded triplets that a syntax normalizer keeps,
//! RFC 3986 §6.2.2.1-§6.2.2.2, which then do not end the run).
//!
//! Four kernels compute the same answer (`docs/simd.md`):
//! - AVX2, 32 bytes per step (`vpshufb` nibble lookups);
//! - SSSE3, 16 bytes per step (`pshufb`);
//! - portable, 16 bytes per window by comparisons against the class's
//!   byte ranges, which the compiler vectorizes on any target: the choice
//!   on targets without a hand-written kernel;
//! - scalar, byte by byte over the same tables: the oracle of the tests.
//!
//! The kernel is chosen once per process by runtime feature detection
//! (`is_x86_feature_detected!`), cached in an atomic. The environment
//! variable `IRINORM_SIMD` (`avx2`, `ssse3`, `portable`, `scalar`), read at that first
//! use, can lower the choice, never raise it above what the CPU has: a way
//! to test and measure the fallbacks.
//!
//! Safety: the crate denies `unsafe_code`; the only `unsafe` blocks are the
//! two calls of a `#[target_feature]` kernel in [`Kernel::next_stop`], each
//! reached only through a [`Kernel`] value, which can only be made after the
//! feature was detected; the call of the SSE2 [`eq_mask64`] kernel; and the
//! SSE2 intrinsics of [`eq_mask64_padded`]'s block, called in place (issue 14,
//! round 9: a `#[target_feature]` function there was not inlined); and the
//! SSE2 intrinsics of [`Tail32`]'s load and masks (issue 11, round 23), also
//! in place, on values loaded from a checked slice. The last three are
//! compiled only where the build enables SSE2 for the whole program (every
//! x86-64 CPU; rustc still asks for `unsafe` there). Inside the kernels, vector loads are made from
//! `u64::from_le_bytes` of checked slices (no raw pointers), so since Rust
//! 1.87 the intrinsics they call are safe functions.

#![deny(unsafe_code)]

mod bytemask;
mod class;
mod padded;
mod portable;
mod scalar;
mod tail;
pub mod words;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use bytemask::{eq_mask64, eq_mask64_scalar};
pub use class::Class;
pub use padded::eq_mask64_padded;
pub use tail::{tail32_eq_scalar, Tail32};

use std::sync::atomic::{AtomicU8, Ordering};

/// [`Stop::pct`]: at least one normal triplet was skipped.
pub const PCT_ANY: u8 = 1;
/// [`Stop::pct`]: at least one skipped triplet encodes a byte >= 0x80.
pub const PCT_HIGH: u8 = 2;

/// The triplets a run skips: `%` followed by two bytes of `hex` whose
/// value (as upper-case hex digits) is not in `unreserved`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triplets {
    hex: Class,
    unreserved: Class,
    /// `hex` and `unreserved` as byte ranges, for the portable kernel
    /// (`None`: too many ranges; it then leaves triplets to its scalar step).
    ranges: Option<(class::Ranges, class::Ranges)>,
}

impl Triplets {
    /// The triplets `%HH` with both `H` in `hex` (a subset of `0-9A-F`)
    /// whose value is not in `unreserved` (RFC 3986 §6.2.2.2: a syntax
    /// normalizer decodes those, so they are not normal).
    pub const fn new(hex: Class, unreserved: Class) -> Triplets {
        let digits = {
            let mut c = Class::EMPTY;
            let mut b = 0u8;
            while b < 16 {
                c = c.with(if b < 10 { b'0' + b } else { b'A' + b - 10 });
                b += 1;
            }
            c
        };
        assert!(
            hex.is_subset(&digits),
            "triplet digits are upper-case hex digits"
        );
        let ranges = match (hex.ranges(), unreserved.ranges()) {
            (Some(h), Some(u)) => Some((h, u)),
            _ => None,
        };
        Triplets {
            hex,
            unreserved,
            ranges,
        }
    }

    /// The value of hex digit `x` (the vector kernels compute the same:
    /// low nibble, plus 9 for a letter).
    #[inline(always)]
    pub(crate) const fn digit(x: u8) -> u8 {
        (x & 15) + if x & 0x40 != 0 { 9 } else { 0 }
    }

    /// The [`Stop::pct`] flags of a triplet at `i` that the run skips, or
    /// `None`.
    #[inline]
    pub(crate) fn at(&self, b: &[u8], i: usize) -> Option<u8> {
        if b[i] != b'%' || i + 2 >= b.len() {
            return None;
        }
        let (h, l) = (b[i + 1], b[i + 2]);
        if !self.hex.contains(h) || !self.hex.contains(l) {
            return None;
        }
        let v = (Self::digit(h) << 4) | Self::digit(l);
        if self.unreserved.contains(v) {
            return None;
        }
        Some(if v >= 0x80 {
            PCT_ANY | PCT_HIGH
        } else {
            PCT_ANY
        })
    }
}

/// [`Run::pair`] when there is none (0x80 is never plain: no effect; the
/// vector kernels then skip the pair's compares).
const NO_PAIR: [u8; 2] = [0x80, 0x80];

/// What continues a run of bytes (see [`Kernel::next_stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    plain: Class,
    /// `[prev, byte]`: `byte` ends the run when the byte before it is
    /// `prev`. `[0x80, 0x80]` for none (0x80 is never plain: no effect).
    pair: [u8; 2],
    triplets: Option<Triplets>,
    /// Judge triplets in every window, not only in windows with a stop.
    dense: bool,
    /// A plain byte whose first position is reported ([`Stop::mark`]);
    /// 0x80 for none (never plain: never before the stop).
    mark: u8,
    /// `plain` as byte ranges, for the portable kernel (`None`: too many
    /// ranges, the scalar kernel's loop instead).
    ranges: Option<class::Ranges>,
    /// Usually ends within one window ([`Run::short`]).
    short: bool,
}

impl Run {
    /// A run of `plain` bytes; `pair = Some([p, c])`: a `c` right after a
    /// `p` also ends it; `triplets`: those triplets do not end it (their
    /// `%` must not be plain, their digits must be, and the pair's second
    /// byte must not be a digit, so that a skipped triplet never hides a
    /// stop: checked here, at compile time in a `const`).
    pub const fn new(plain: Class, pair: Option<[u8; 2]>, triplets: Option<Triplets>) -> Run {
        let pair = match pair {
            Some(p) => p,
            None => NO_PAIR,
        };
        if let Some(t) = &triplets {
            assert!(!plain.contains(b'%'), "`%` must end a run with triplets");
            assert!(t.hex.is_subset(&plain), "triplet digits must be plain");
            assert!(
                !t.hex.contains(pair[1]),
                "the pair's byte must not be a digit"
            );
        }
        Run {
            plain,
            pair,
            triplets,
            dense: false,
            mark: 0x80,
            ranges: plain.ranges(),
            short: false,
        }
    }

    /// The same run, reporting the first position of the plain byte `b`
    /// before the stop ([`Stop::mark`]): e.g. the `?` that ends a path,
    /// in a run over the path and the query together, without a stop
    /// there. `b` must be plain and, with triplets, not a hex digit.
    pub const fn mark(self, b: u8) -> Run {
        assert!(self.plain.contains(b), "the mark must be plain");
        if let Some(t) = &self.triplets {
            assert!(!t.hex.contains(b), "the mark must not be a digit");
        }
        Run { mark: b, ..self }
    }

    /// The same run, for text where triplets are frequent (queries): the
    /// vector kernels judge the triplets of every window instead of
    /// branching on whether the window has a stop first (a branch that a
    /// query full of `%XX` makes unpredictable). Same answers.
    pub const fn dense(self) -> Run {
        Run {
            dense: true,
            ..self
        }
    }

    /// The same run, for text that usually ends within one window of the
    /// vector kernels (a host: 32 bytes for AVX2, 16 for SSSE3): they first
    /// look at the window at the start alone, and return at once when it
    /// holds the stop, instead of classifying two windows (or the last two
    /// of the input, in straight-line code) whatever the answer. Same
    /// answers. Only for runs without triplets or a mark (the window's stop
    /// is then the answer, with no flags).
    pub const fn short(self) -> Run {
        assert!(
            self.triplets.is_none() && self.mark == 0x80,
            "a short run has no triplets and no mark"
        );
        Run {
            short: true,
            ..self
        }
    }

    /// The plain bytes.
    pub const fn plain(&self) -> &Class {
        &self.plain
    }
}

/// Where a run ends ([`Kernel::next_stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stop {
    /// The first byte at or after the start that ends the run, or the
    /// length of the input.
    pub at: usize,
    /// [`PCT_ANY`] / [`PCT_HIGH`] for the triplets skipped before `at`.
    pub pct: u8,
    /// The first position of the run's mark ([`Run::mark`]) before `at`,
    /// or `at`.
    pub mark: usize,
}

/// A [`Stop`] in two words, which a function returns in two registers
/// (a three-word `Stop` goes through memory: measurably slower on short
/// inputs): `at`, and `mark << 2 | pct` (a position fits in 62 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packed(usize, usize);

impl Packed {
    #[inline(always)]
    pub(crate) fn new(at: usize, pct: u8, mark: usize) -> Packed {
        Packed(at, mark << 2 | usize::from(pct & 3))
    }

    #[inline(always)]
    fn stop(self) -> Stop {
        Stop {
            at: self.0,
            pct: (self.1 & 3) as u8,
            mark: self.1 >> 2,
        }
    }
}

const UNKNOWN: u8 = 0;
const SCALAR: u8 = 1;
const PORTABLE: u8 = 2;
const SSSE3: u8 = 3;
const AVX2: u8 = 4;

/// The kernel in use, once detected (`UNKNOWN` before).
static ACTIVE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// One of the kernels, available on this CPU: a value can only be made by
/// detection ([`Kernel::active`], [`Kernel::supported`]), which is what
/// makes [`Kernel::next_stop`] sound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Kernel(u8);

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Kernel {
    /// The byte-by-byte kernel (every target): the tests' oracle.
    pub const SCALAR: Kernel = Kernel(SCALAR);

    /// The portable kernel (every target): sixteen-byte windows classified
    /// by comparisons that the compiler vectorizes (`src/portable.rs`).
    /// The choice on targets without a hand-written kernel.
    pub const PORTABLE: Kernel = Kernel(PORTABLE);

    /// The kernel of this process: the widest one the CPU has, lowered by
    /// `IRINORM_SIMD` if set (read once, at the first call).
    #[inline(always)]
    pub fn active() -> Kernel {
        match ACTIVE.load(Ordering::Relaxed) {
            UNKNOWN => Self::detect(),
            k => Kernel(k),
        }
    }

    #[cold]
    fn detect() -> Kernel {
        let best = Self::supported().last().copied().unwrap_or(Kernel::SCALAR);
        let k = match std::env::var("IRINORM_SIMD").as_deref() {
            Ok("scalar") => Kernel::SCALAR,
            Ok("portable") => Kernel::PORTABLE,
            Ok("ssse3") if best.0 >= SSSE3 => Kernel(SSSE3),
            _ => best,
        };
        ACTIVE.store(k.0, Ordering::Relaxed);
        k
    }

    /// Every kernel this CPU can run, narrowest first (scalar always).
    pub fn supported() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut v = vec![Kernel::SCALAR, Kernel::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        {
            // AVX2 only with SSSE3 too: the AVX2 kernel calls the SSSE3
            // one on short inputs (every AVX2 CPU has SSSE3 anyway).
            if std::arch::is_x86_feature_detected!("ssse3") {
                v.push(Kernel(SSSE3));
                if std::arch::is_x86_feature_detected!("avx2") {
                    v.push(Kernel(AVX2));
                }
            }
        }
        v
    }

    /// `avx2`, `ssse3`, `portable` or `scalar` (the values of
    /// `IRINORM_SIMD`).
    pub fn name(&self) -> &'static str {
        match self.0 {
            AVX2 => "avx2",
            SSSE3 => "ssse3",
            PORTABLE => "portable",
            _ => "scalar",
        }
    }

    /// The first `j >= i` where the run ends in `b`, or `b.len()`:
    /// `b[j]` is not plain, or is the pair's second byte right after its
    /// first; a triplet of the run's [`Triplets`] at `j` is skipped whole
    /// (and noted in [`Stop::pct`]) instead. Total on any input: `i` past
    /// the end gives `Stop { at: i.max(len) .. }`, i.e. the end.
    #[inline(always)]
    pub fn next_stop(self, b: &[u8], i: usize, run: &Run) -> Stop {
        // The kind of run picks one monomorphized kernel; `run` is usually
        // a constant at the (inlined) call site, so the `match` folds away.
        #[cfg(target_arch = "x86_64")]
        macro_rules! by_kind {
            ($k:ident) => {
                match (
                    run.triplets.is_some(),
                    run.dense,
                    run.mark < 0x80,
                    run.pair != NO_PAIR,
                ) {
                    (false, _, false, false) => x86::$k::<false, false, false, false>(b, i, run),
                    (false, _, false, true) => x86::$k::<false, false, false, true>(b, i, run),
                    (false, _, true, false) => x86::$k::<false, false, true, false>(b, i, run),
                    (false, _, true, true) => x86::$k::<false, false, true, true>(b, i, run),
                    (true, false, false, false) => x86::$k::<true, false, false, false>(b, i, run),
                    (true, false, false, true) => x86::$k::<true, false, false, true>(b, i, run),
                    (true, false, true, false) => x86::$k::<true, false, true, false>(b, i, run),
                    (true, false, true, true) => x86::$k::<true, false, true, true>(b, i, run),
                    (true, true, false, false) => x86::$k::<true, true, false, false>(b, i, run),
                    (true, true, false, true) => x86::$k::<true, true, false, true>(b, i, run),
                    (true, true, true, false) => x86::$k::<true, true, true, false>(b, i, run),
                    (true, true, true, true) => x86::$k::<true, true, true, true>(b, i, run),
                }
            };
        }
        // Every kernel's answer as a `Packed` (two registers), made a
        // `Stop` once after they merge: with a `Stop` from each branch the
        // three words met in memory at the (inlined) call site, stored and
        // loaded again on every call (issue 14, round 9).
        #[cfg(target_arch = "x86_64")]
        let p = if self.0 == AVX2 && b.len() > 32 {
            // Inputs of at most 32 bytes (a third of real lists) go
            // straight to the 16-byte kernel, the AVX2 one's own fallback.
            #[allow(unsafe_code)]
            // SAFETY: a `Kernel(AVX2)` is only made by `supported`, after
            // `is_x86_feature_detected!("avx2")` said the CPU has AVX2.
            unsafe {
                by_kind!(avx2)
            }
        } else if self.0 >= SSSE3 {
            #[allow(unsafe_code)]
            // SAFETY: a `Kernel(SSSE3)` or `Kernel(AVX2)` is only made by
            // `supported` (or `detect`, from it), after
            // `is_x86_feature_detected!("ssse3")` said the CPU has SSSE3
            // (AVX2 without SSSE3 is never reported).
            unsafe {
                by_kind!(ssse3)
            }
        } else {
            self.fallback(b, i, run)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let p = self.fallback(b, i, run);
        p.stop()
    }

    /// The portable or scalar kernel, as a [`Packed`].
    #[inline]
    fn fallback(self, b: &[u8], i: usize, run: &Run) -> Packed {
        let s = if self.0 == PORTABLE {
            portable::next_stop(b, i, run)
        } else {
            scalar::next_stop(b, i, run)
        };
        Packed::new(s.at, s.pct, s.mark)
    }
}

/// [`Kernel::next_stop`] with [`Kernel::active`].
#[inline(always)]
pub fn next_stop(b: &[u8], i: usize, run: &Run) -> Stop {
    Kernel::active().next_stop(b, i, run)
}
