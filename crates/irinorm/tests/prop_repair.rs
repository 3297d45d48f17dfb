//! Properties of `repair` (the fuzz target `repair` checks the same on
//! any bytes): steps are reported exactly when the text changed; without a
//! base it is idempotent; its output parses as an IRI-reference unless a
//! host kept what browsers refuse too; a valid reference is changed only by
//! `scheme-slashes` (and the `encode-userinfo-at` its new authority may
//! need: `http:@a@b`, found by the fuzz target).

use irinorm::repair::{repair, Step};
use irinorm::{parse, Grammar};
use proptest::prelude::*;

/// Messy hrefs: scheme-ish starts, delimiters, the characters repair
/// encodes, controls, percent signs, non-ASCII.
fn messy() -> impl Strategy<Value = String> {
    let start = prop_oneof![
        Just(""),
        Just("http:"),
        Just("http://"),
        Just("HTTP:\\\\"),
        Just("https:///"),
        Just("file:"),
        Just("mailto:"),
        Just("//"),
        Just("\\\\"),
        Just(" \t"),
        Just("x:"),
        Just("1a:")
    ];
    let piece = prop_oneof![
        Just("a"),
        Just("b.example"),
        Just("/"),
        Just("\\"),
        Just("?"),
        Just("#"),
        Just("@"),
        Just(":"),
        Just("%"),
        Just("%4"),
        Just("%41"),
        Just(" "),
        Just("\t"),
        Just("\n"),
        Just("\""),
        Just("<"),
        Just(">"),
        Just("`"),
        Just("{"),
        Just("}"),
        Just("|"),
        Just("^"),
        Just("["),
        Just("]"),
        Just("é"),
        Just("\u{FFFE}"),
        Just("\u{E000}"),
        Just("\u{1}"),
        Just("\u{7f}"),
        Just("."),
        Just("..")
    ];
    (start, prop::collection::vec(piece, 0..12)).prop_map(|(s, p)| format!("{s}{}", p.concat()))
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(2000.max(ProptestConfig::default().cases)))]

    #[test]
    fn repair_properties(input in messy(), b in 0usize..4) {
        let base = [None, Some("http"), Some("file"), Some("mailto")][b];
        let r = repair(&input, base);
        prop_assert_eq!(r.changed(), r.text != input, "{:?}: {:?}", input, r.steps);
        if base.is_none() {
            prop_assert_eq!(repair(&r.text, None).text, r.text.clone(), "not idempotent: {:?}", input);
        }
        if parse(&input, Grammar::IriReference).is_ok() && base.is_none() {
            prop_assert!(r.steps.iter().all(|s| matches!(s, Step::SchemeSlashes | Step::EncodeUserinfoAt)), "{:?} -> {:?} {:?}", input, r.text, r.steps);
        }
        if let Err(e) = parse(&r.text, Grammar::IriReference) {
            // Only a host (what browsers refuse there is kept) or a port may
            // still be wrong.
            let c = e.component().map(|c| c.to_string()).unwrap_or_default();
            prop_assert!(
                ["host", "port", "authority", "userinfo"].contains(&c.as_str()),
                "{:?} -> {:?}: {}", input, r.text, e
            );
        }
    }
}
