//! Resolution: the input is split at its first NUL byte (or first newline)
//! into a base and a reference. When the base is an IRI and the reference
//! an IRI-reference, the target must equal the literal RFC 3986 §5.2 model,
//! parse as an IRI (a URI when both inputs are URIs) and split the same way
//! with the trusted splitter. `remove_dot_segments` must equal the §5.2.4
//! model on the reference text, whatever it is; `normalize_relative_path`
//! must keep the target of a relative-path reference against a
//! hierarchical base, and be idempotent. Invariant 4 (LADDER.md):
//! N(resolve(B, R)) == N(resolve(N(B), N(R))) at every rung and form,
//! where it applies (the shapes `prop_ladder.rs`'s module comment
//! excludes: a base without authority whose path is rootless, a base
//! path ending in `..`, a percent-encoded dot segment), and where all
//! three normalizations succeed.
#![no_main]

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::path::{normalize_relative_path, remove_dot_segments};
use irinorm::{parse, resolve, split_trusted, Grammar};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/irinorm/tests/support/model.rs"]
#[allow(dead_code)]
mod model;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (base, r) = s
        .split_once('\0')
        .or_else(|| s.split_once('\n'))
        .unwrap_or(("http://a/b/c/d;p?q", s));

    let mut out = String::new();
    remove_dot_segments(r, &mut out);
    assert_eq!(out, model::remove_dot_segments(r), "{r:?}");

    let (Ok(_), Ok(rm)) = (parse(base, Grammar::Iri), parse(r, Grammar::IriReference)) else {
        return;
    };
    let t = resolve(base, r).expect("valid inputs resolve");
    assert_eq!(t, model::resolve(base, r), "{base:?} + {r:?}");
    let tm = parse(&t, Grammar::Iri).expect("target is an IRI");
    assert!(tm.same_structure(&split_trusted(&t)));
    if base.is_ascii() && r.is_ascii() {
        assert!(parse(&t, Grammar::Uri).is_ok(), "{t:?}");
    }

    commutes(base, r, &t);

    // A relative-path reference and its normalized path.
    let b = model::split(base);
    let hierarchical = b.authority.is_some() || b.path.starts_with('/');
    if rm.scheme(r).is_none() && rm.authority(r).is_none() && !rm.path(r).starts_with('/') {
        let path = rm.path(r);
        let mut n = String::new();
        normalize_relative_path(path, &mut n);
        let mut n2 = String::new();
        normalize_relative_path(&n, &mut n2);
        assert_eq!(n2, n, "not idempotent on {path:?}");
        let rest = &r[path.len()..];
        let r2 = format!("{n}{rest}");
        assert!(parse(&r2, Grammar::IrelativeRef).is_ok(), "{r:?} -> {r2:?}");
        if hierarchical {
            assert_eq!(
                resolve(base, &r2).unwrap(),
                t,
                "{r:?} -> {r2:?} against {base:?}"
            );
        }
    }
});

/// Whether a path has a segment that is `.` or `..` only once its
/// triplets are decoded (where strict resolution and rung 1 part ways).
fn encoded_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|seg| seg.contains('%') && matches!(&*irinorm::pct::decode(seg), b"." | b".."))
}

/// Invariant 4 for the base `b`, the reference `r` and their target `t`
/// (round 8: the property tests found six scheme-rule defects of this
/// invariant, docs/ladder.md decision 23; no fuzz target checked it).
fn commutes(b: &str, r: &str, t: &str) {
    let bm = split_trusted(b);
    let rm = split_trusted(r);
    if (bm.authority(b).is_none() && !bm.path(b).starts_with('/'))
        || bm.path(b).split('/').next_back() == Some("..")
        || encoded_dot_segment(bm.path(b))
        || encoded_dot_segment(rm.path(r))
    {
        return;
    }
    for rung in Rung::ALL {
        for form in [Form::Uri, Form::Iri] {
            let n = Normalizer::new(Options::new(rung, form));
            let (Ok(lhs), Ok(nb), Ok(nr)) = (n.normalize(t), n.normalize(b), n.normalize(r)) else {
                continue;
            };
            let t2 = resolve(&nb, &nr).expect("normal forms of valid inputs resolve");
            let Ok(rhs) = n.normalize(&t2) else {
                panic!("N(resolve(N(B), N(R))) fails: B={b:?} R={r:?} -> {t2:?}");
            };
            assert_eq!(lhs, rhs, "invariant 4 at {rung}/{form:?}: B={b:?} R={r:?}");
        }
    }
}
