//! Resolution: the input is split at its first NUL byte (or first newline)
//! into a base and a reference. When the base is an IRI and the reference
//! an IRI-reference, the target must equal the literal RFC 3986 §5.2 model,
//! parse as an IRI (a URI when both inputs are URIs) and split the same way
//! with the trusted splitter. `remove_dot_segments` must equal the §5.2.4
//! model on the reference text, whatever it is; `normalize_relative_path`
//! must keep the target of a relative-path reference against a
//! hierarchical base, and be idempotent.
#![no_main]

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
