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

use irinorm::ladder::{Form, Normalizer, Options};
use irinorm::{parse, resolve, Grammar};
use irinorm_rules::{Config, Pipeline, Preset};
use libfuzzer_sys::fuzz_target;

const NESTED: [Preset; 4] = [
    Preset::Rfc,
    Preset::Fetch,
    Preset::Crawler,
    Preset::Aggressive,
];

/// The eight pipelines, built once (a pipeline with the query tables costs
/// ~26,000 instructions to build: per input, it was most of the run).
fn pipelines() -> &'static [Vec<Pipeline>; 2] {
    static P: std::sync::OnceLock<[Vec<Pipeline>; 2]> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        [Form::Uri, Form::Iri].map(|f| NESTED.iter().map(|&p| pipeline(p, f)).collect())
    })
}

fn pipeline(p: Preset, form: Form) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options::new(p.rung(), form)),
        p.rule_set(),
        Config::default(),
    )
}

fn n(p: &Pipeline, x: &str) -> Option<String> {
    p.normalize(x).ok().map(|o| o.text.into_owned())
}

fn encoded_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|seg| seg.contains('%') && matches!(&*irinorm::pct::decode(seg), b"." | b".."))
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (base, r) = s
        .split_once('\0')
        .or_else(|| s.split_once('\n'))
        .unwrap_or(("http://a/b/c/d;p?q", s));
    for (f, form) in [Form::Uri, Form::Iri].into_iter().enumerate() {
        let ps = &pipelines()[f];
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
                    let u = pipeline(NESTED[i], Form::Uri);
                    assert_eq!(
                        n(&u, &once),
                        n(&u, x),
                        "{}: forms disagree on {x:?}",
                        NESTED[i]
                    );
                }
            }
        }
        let (Ok(bm), Ok(rm)) = (parse(base, Grammar::Iri), parse(r, Grammar::IriReference)) else {
            continue;
        };
        if bm.authority(base).is_none()
            || bm.path(base).split('/').next_back() == Some("..")
            || encoded_dot_segment(bm.path(base))
            || encoded_dot_segment(rm.path(r))
        {
            continue;
        }
        let t = resolve(base, r).expect("valid inputs resolve");
        for (i, p) in ps.iter().enumerate().take(3) {
            let (Some(lhs), Some(nb), Some(nr)) = (n(p, &t), n(p, base), n(p, r)) else {
                continue;
            };
            let t2 = resolve(&nb, &nr).expect("normal forms of valid inputs resolve");
            assert_eq!(
                n(p, &t2),
                Some(lhs),
                "invariant 4 under {} ({form:?}): B={base:?} R={r:?}",
                NESTED[i]
            );
        }
    }
});
