//! LADDER.md's invariants per preset (`crates/irinorm-rules/tests/
//! prop_presets.rs` is the property test; docs/rules.md "The presets and
//! the invariants"). The input is split at its first NUL byte (or first
//! newline) into a base and a reference; a lone input is a reference
//! against `http://a/b/c/d;p?q`. For `rfc`, `fetch`, `crawler` and
//! `aggressive`, in both forms:
//! - idempotent on the base and on the reference;
//! - the presets nest: N_larger(N_smaller(x)) == N_larger(x);
//! - forms agree: the `uri`-form pipeline on the `iri`-form output gives
//!   the `uri`-form output;
//! - invariant 4 for `rfc`, `fetch` and `crawler` (not `aggressive`:
//!   remove-duplicate-slashes and remove-session-ids' segments change what
//!   a relative path is merged into): N(resolve(B, R)) ==
//!   N(resolve(N(B), N(R))) for a base with an authority, outside the
//!   shapes where the bare ladder cannot commute (a base path ending in
//!   `..`, a percent-encoded dot segment), where all the normal forms exist.
#![no_main]

use irinorm::ladder::Form;
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/irinorm-rules/tests/support/presets.rs"]
#[allow(dead_code)]
mod presets;

use presets::{commutes, n, nested, NESTED};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (base, r) = s
        .split_once('\0')
        .or_else(|| s.split_once('\n'))
        .unwrap_or(("http://a/b/c/d;p?q", s));
    for form in [Form::Uri, Form::Iri] {
        let ps = nested(form);
        for x in [base, r] {
            for (i, small) in ps.iter().enumerate() {
                let Some(once) = n(small, x) else { continue };
                assert_eq!(
                    n(small, &once),
                    Some(once.clone()),
                    "{} not idempotent on {x:?}",
                    NESTED[i]
                );
                for (j, big) in ps.iter().enumerate().skip(i + 1) {
                    assert_eq!(
                        n(big, &once),
                        n(big, x),
                        "{} after {} on {x:?} ({form:?})",
                        NESTED[j],
                        NESTED[i]
                    );
                }
                if form == Form::Iri {
                    let u = &nested(Form::Uri)[i];
                    assert_eq!(
                        n(u, &once),
                        n(u, x),
                        "{}: forms disagree on {x:?}",
                        NESTED[i]
                    );
                }
            }
        }
        // Invariant 4 where it holds (not `aggressive`).
        for (i, p) in ps.iter().enumerate().take(3) {
            if let Err(e) = commutes(p, base, r) {
                panic!("invariant 4 under {} ({form:?}): {e}", NESTED[i]);
            }
        }
    }
});
