//! The already-normal answer written as the kernel reads it (issue 14,
//! round 16): an [`Echo`] is a reference's copy in an output `String`'s
//! spare capacity, which the AVX2 kernel fills window by window while it
//! validates ([`next_stop_echo`]), so that an input found already normal is
//! appended by setting the length ([`Echo::finish`]) instead of a second
//! pass over its bytes (`memcpy`, ~44 instructions per `len 161+` URL).
//!
//! The invariant that makes [`Echo::finish`] sound: every byte of the spare
//! capacity `base + k` (`k < src.len()`) that anything here wrote holds
//! `src[k]` (the only writes are windows of `src` stored at their own
//! offsets), and `echoed` is set only by a kernel call that stored windows
//! covering all of `0..src.len()`. So when it is set, the `src.len()` bytes
//! after `base` are a copy of `src`, a `&str`: valid UTF-8 to append by
//! setting the length; otherwise `finish` is `push_str`.

use core::mem::MaybeUninit;

use crate::{Kernel, Packed, Run, Stop};

/// A copy of `src` being written at the end of an output `String`
/// (module documentation). Dropped without [`Echo::finish`], it leaves the
/// string's text as it was (only its capacity may have grown).
#[derive(Debug)]
pub struct Echo<'o, 's> {
    out: &'o mut String,
    src: &'s str,
    /// `out.len()` when made: where the copy starts.
    base: usize,
    /// Every byte `base .. base + src.len()` of the copy is written.
    echoed: bool,
}

impl<'o, 's> Echo<'o, 's> {
    /// A copy of `src` to be appended to `out`, nothing written yet (the
    /// room is reserved by the kernel call that writes it, so that an
    /// input no kernel call copies costs no more than `push_str`).
    #[inline(always)]
    pub fn new(out: &'o mut String, src: &'s str) -> Echo<'o, 's> {
        Echo {
            base: out.len(),
            echoed: false,
            out,
            src,
        }
    }

    /// The text being copied.
    #[inline(always)]
    pub fn src(&self) -> &'s str {
        self.src
    }

    /// The spare capacity where the copy goes, reserved now (at least
    /// `src.len()` bytes, the same reservation as `push_str`).
    #[inline(always)]
    fn spare(&mut self) -> &mut [MaybeUninit<u8>] {
        self.out.reserve(self.src.len());
        #[allow(unsafe_code)]
        // SAFETY: the `Vec` is only used to reach its spare capacity (the
        // string's text, `..len()`, is not touched) and to set its length
        // in `finish`, after the bytes it adds hold a copy of `src`, a
        // `&str` (module documentation): the `String` stays UTF-8.
        let v = unsafe { self.out.as_mut_vec() };
        v.spare_capacity_mut()
    }

    /// Appends `src` to the string: the copy a kernel call wrote, or (when
    /// none did: another kernel, a short input, a stop) `push_str`.
    #[inline(always)]
    pub fn finish(self) {
        if !self.echoed {
            self.out.push_str(self.src);
            return;
        }
        #[allow(unsafe_code)]
        // SAFETY: `spare` reserved `src.len()` bytes after `base` (nothing
        // changed the string since: `self.out` is borrowed), and `echoed`
        // says a kernel call wrote every one of them with the byte of `src`
        // at its offset (the module's invariant): they are initialized and
        // are `src`, valid UTF-8.
        unsafe {
            let v = self.out.as_mut_vec();
            v.set_len(self.base + self.src.len());
        }
    }

    /// The string, the copy abandoned (its text unchanged).
    #[inline(always)]
    pub fn into_out(self) -> &'o mut String {
        self.out
    }
}

/// [`crate::next_stop`] over [`Echo::src`] from `i`, which also writes the
/// bytes it validates into the echo's copy when the active kernel is AVX2
/// and the input longer than 32 bytes (the others leave the copy to
/// [`Echo::finish`]): when such a call reaches the end of the input
/// without a stop, the whole copy is written (the kernel stores the
/// windows before `i` too) and `finish` only sets the length. The answer
/// is `next_stop`'s, on every kernel.
#[inline(always)]
pub fn next_stop_echo(echo: &mut Echo<'_, '_>, i: usize, run: &Run) -> Stop {
    Kernel::active().next_stop_echo(echo, i, run)
}

impl Kernel {
    /// [`next_stop_echo`] with this kernel.
    #[inline(always)]
    pub fn next_stop_echo(self, echo: &mut Echo<'_, '_>, i: usize, run: &Run) -> Stop {
        let b = echo.src.as_bytes();
        #[cfg(target_arch = "x86_64")]
        if self.is_avx2() && b.len() > 32 {
            let len = b.len();
            let p = crate::x86_echo(self, b, i, run, echo.spare());
            let s = p.stop();
            if s.at >= len {
                // The kernel stored every byte of `0..len` (x86.rs, the
                // kernel's `ECHO`: inputs over 32 bytes, answer `len`): the
                // whole copy is written.
                echo.echoed = true;
            }
            return s;
        }
        self.next_stop(b, i, run)
    }
}

/// [`crate::next_stop`] over `src` from `i`, which appends `src` to `out`
/// when the AVX2 kernel validated it to its end (an input over 32 bytes
/// and an answer `>= src.len()`): the kernel's stores made the copy
/// ([`next_stop_echo`]'s `ECHO` instance), and the length alone is set
/// ([`Echo::finish`]). It then says so by [`crate::PCT_APPENDED`] in the
/// answer's `pct`; otherwise `out`'s text is left as it was and the
/// answer is `next_stop`'s, on every kernel.
///
/// Issue 14, round 20: the output's reservation, the kernel and the claim
/// are one call ([`avx2_appending`], compiled for AVX2 like the kernel it
/// inlines), so that the caller holds nothing of the echo but `out`'s
/// address and learns the outcome from the bit of the answer it reads
/// anyway; round 19 told by `out.len()` (a test and a length held across
/// every scan: ~5 instructions a short call), round 16's [`Echo`]
/// carried its state through every scan (~6).
#[inline(always)]
pub fn next_stop_appending(out: &mut String, src: &str, i: usize, run: &Run) -> Stop {
    let k = Kernel::active();
    #[cfg(target_arch = "x86_64")]
    if k.is_avx2() && src.len() > 32 {
        return crate::x86_appending(k, out, src, i, run).stop();
    }
    k.next_stop(src.as_bytes(), i, run)
}

/// [`next_stop_appending`] on the AVX2 kernel (`src` longer than 32
/// bytes): the kernel's `ECHO` instance inlined (the same target
/// feature), writing into `out`'s spare capacity, reserved here (the same
/// reservation as `push_str`); when its answer is the end, the copy is
/// whole (the kernel's documentation, `x86.rs`) and is appended by
/// setting the length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) fn avx2_appending<
    const TRIP: bool,
    const DENSE: bool,
    const MARK: bool,
    const PAIR: bool,
>(
    out: &mut String,
    src: &str,
    start: usize,
    run: &Run,
) -> Packed {
    debug_assert!(src.len() > 32);
    let mut echo = Echo::new(out, src);
    let p = crate::x86::avx2_with::<TRIP, DENSE, MARK, PAIR, true>(
        src.as_bytes(),
        start,
        run,
        echo.spare(),
    );
    if p.0 >= src.len() {
        // The kernel stored every byte of `0..len` (x86.rs, the kernel's
        // `ECHO`: inputs over 32 bytes, answer `len`): the whole copy is
        // written.
        echo.echoed = true;
        echo.finish();
        return p.appended();
    }
    p
}
