//! The SIMD kernels of the scanner (`crates/irinorm-simd`, issue 14):
//! every kernel this CPU has (AVX2, SSSE3) gives the scalar kernel's
//! answer, stop position and triplet flags, for a run the fuzzer chooses
//! (its byte class, pair, triplets, dense or not) on any bytes, from every
//! start; and none of them panics. `eq_mask64_padded` (the query filter's
//! block compare) equals the scalar compare on a padded copy. Input: 16 bytes of class table, a pair,
//! a flags byte, then the text.
#![no_main]

use irinorm_simd::{eq_mask64, eq_mask64_padded, eq_mask64_scalar, Class, Kernel, Run, Triplets};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 19 {
        return;
    }
    let (head, text) = data.split_at(19);
    for base in 0..=text.len() + 1 {
        assert_eq!(
            eq_mask64(text, base, head[17]),
            eq_mask64_scalar(text, base, head[17]),
            "eq_mask64 at {base}"
        );
    }
    // `eq_mask64_padded` on the text followed by 64 bytes of padding
    // (as the query filter holds it): the bits of the text are those of
    // `eq_mask64`, and the padding's bits are its own bytes' answer.
    let pad = head[16];
    let mut padded = text.to_vec();
    padded.resize(text.len() + 64, pad);
    for base in 0..=text.len() {
        let want = eq_mask64_scalar(&padded, base, head[17]);
        assert_eq!(
            eq_mask64_padded(&padded, base, head[17]),
            want,
            "eq_mask64_padded at {base}"
        );
        let inside = text.len() - base;
        let keep = if inside >= 64 {
            u64::MAX
        } else {
            (1u64 << inside) - 1
        };
        assert_eq!(
            want & keep,
            eq_mask64(text, base, head[17]) & keep,
            "text bits at {base}"
        );
    }
    // The class: bit h of byte l says whether byte 16 h + l is plain.
    let mut plain = Class::EMPTY;
    for (l, &bits) in head[..16].iter().enumerate() {
        for h in 0..8 {
            if bits & (1 << h) != 0 {
                plain = plain.with((h * 16 + l) as u8);
            }
        }
    }
    let pair = [head[16] & 0x7f, head[17] & 0x7f];
    let flags = head[18];
    let pair = (flags & 1 != 0).then_some(pair);
    let triplets = if flags & 2 != 0 {
        // What `Run::new` requires of a run with triplets: `%` ends it,
        // the digits are plain, the pair's byte is not a digit.
        let digits = Class::EMPTY
            .with(b'0')
            .with(b'1')
            .with(b'2')
            .with(b'3')
            .with(b'4')
            .with(b'5')
            .with(b'6')
            .with(b'7')
            .with(b'8')
            .with(b'9')
            .with(b'A')
            .with(b'B')
            .with(b'C')
            .with(b'D')
            .with(b'E')
            .with(b'F');
        for d in b"0123456789ABCDEF" {
            plain = plain.with(*d);
        }
        plain = plain.without(b'%');
        if pair.is_some_and(|p| digits.contains(p[1])) {
            return;
        }
        // Unreserved: every byte the class says, to vary it too.
        Some(Triplets::new(
            digits,
            Class::EMPTY
                .with(b'-')
                .with(b'.')
                .with(b'_')
                .with(b'~')
                .and(plain),
        ))
    } else {
        None
    };
    let mut run = Run::new(plain, pair, triplets);
    if flags & 4 != 0 {
        run = run.dense();
    }
    if flags & 8 != 0 && triplets.is_none() {
        // One window first (no triplets, no mark: `Run::short`).
        run = run.short();
    }
    for start in 0..=text.len() + 1 {
        let want = Kernel::SCALAR.next_stop(text, start, &run);
        assert!(want.at >= start.min(text.len()) && want.at <= text.len().max(start));
        for k in Kernel::supported() {
            assert_eq!(k.next_stop(text, start, &run), want, "{k:?} from {start}");
        }
    }
});
