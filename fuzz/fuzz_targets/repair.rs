//! `repair`: never panics, for any base scheme; reports steps exactly when
//! it changed the text; without a base it is idempotent; a reference the
//! exact parser accepts is changed only by `scheme-slashes` (the one step
//! where WHATWG reads valid RFC syntax otherwise) and the `encode-userinfo-at`
//! its new authority may need.

#![no_main]

use irinorm::repair::{repair, Step};
use irinorm::{parse, Grammar};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let Ok(input) = std::str::from_utf8(rest) else { return };
    let base = [None, Some("http"), Some("file"), Some("mailto")][(sel % 4) as usize];
    let r = repair(input, base);
    assert_eq!(r.changed(), r.text != input, "{input:?}: {:?} -> {:?}", r.steps, r.text);
    if base.is_none() {
        assert_eq!(repair(&r.text, None).text, r.text, "not idempotent: {input:?}");
    }
    if parse(input, Grammar::IriReference).is_ok() && base.is_none() {
        // A valid reference is changed only where WHATWG reads it otherwise
        // (`http:/a` has the host `a` for a browser), and then its new
        // authority may need its `@`s encoded (`http:@a@b`, found by this
        // target): docs/repair.md.
        assert!(
            r.steps.iter().all(|s| matches!(s, Step::SchemeSlashes | Step::EncodeUserinfoAt)),
            "a valid reference was repaired: {input:?} -> {:?} {:?}",
            r.text,
            r.steps
        );
    }
});
