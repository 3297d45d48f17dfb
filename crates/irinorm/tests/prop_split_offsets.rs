//! The components [`Normalizer::normalize_into_split`] hands back with the
//! text it appended (and [`Normalizer::normalize_into_meta`] writes into
//! its caller's `Meta`, the same) (issue 14: the ladder notes each component's start as
//! it writes it, so that the named rules need not split its output again)
//! are exactly what [`split_trusted`] finds in that text: the oracle is the
//! splitter the rules layer used before, run on the output. For every rung,
//! form and option variant (none, `ignore_fragment`, NFC, a base), on the
//! generated references of `ladder_gen` and on arbitrary strings, appended
//! after a prefix (offsets are relative to the start of the appended text).
//!
//! [`Normalizer::normalize_into_meta`], which writes the same components
//! into the caller's `Meta`, is checked against it on every case; so is
//! [`Normalizer::key_into_meta`] (the comparison key's components, issue
//! 14 round 23) against [`Normalizer::key_into`] and `split_trusted` of
//! the key.
//!
//! Case counts: proptest's default (256), or `PROPTEST_CASES`.

mod ladder_gen;

use irinorm::ladder::{CharNorm, Form, Normalizer, Options, Rung};
use irinorm::{parse, split_trusted, Grammar, Meta};
use proptest::prelude::*;
use proptest::sample::select;

const BASES: &[&str] = &[
    "http://Example.COM:80/a/b/c?q#f",
    "foo:a/b",
    "file://localhost/x/y",
    "mailto:x@Y.org",
];

fn normalizers(variant: usize) -> Vec<Normalizer> {
    let mut all = Vec::new();
    for rung in Rung::ALL {
        for form in [Form::Uri, Form::Iri] {
            let mut o = Options::new(rung, form);
            match variant {
                1 => o.ignore_fragment = true,
                2 => o.char_norm = CharNorm::Nfc,
                _ => {}
            }
            let n = Normalizer::new(o);
            all.push(match variant {
                3..=6 => n.with_base(BASES[variant - 3]).expect("base parses"),
                _ => n,
            });
        }
    }
    all
}

/// The check itself: same text as `normalize_into`, and the `Meta`, when
/// given, equal to `split_trusted` of the appended text; when the output
/// is the unchanged input (the fast path), the parser's own `Meta` (real
/// hints), whose structure is the same.
fn check(n: &Normalizer, x: &str) -> Result<(), TestCaseError> {
    let mut plain = String::from("prefix:");
    let r = n.normalize_into(x, &mut plain);
    let mut out = String::from("prefix:");
    let split = n.normalize_into_split(x, &mut out);
    prop_assert_eq!(&out, &plain);
    prop_assert_eq!(r.is_ok(), split.is_ok());
    // `normalize_into_meta` (the components written into the caller's
    // `Meta`, issue 14 round 22): the same text, warnings and components,
    // whatever the `Meta` held before (here another reference's).
    let mut into = String::from("prefix:");
    let mut m = split_trusted("HTTP://u@H.example:1/p/./q?r#s");
    let warned = n.normalize_into_meta(x, &mut into, &mut m);
    prop_assert_eq!(&into, &out);
    match (&split, &warned) {
        (Ok((w, meta)), Ok(w2)) => {
            prop_assert_eq!(w, w2);
            prop_assert_eq!(meta.as_ref(), Some(&m));
        }
        (Err(e), Err(e2)) => prop_assert_eq!(e, e2),
        _ => prop_assert!(false, "{:?} against {:?}", split, warned),
    }
    let Ok((_, meta)) = split else {
        return Ok(());
    };
    let text = &out["prefix:".len()..];
    // Always known today (None is allowed by the signature).
    let meta: Meta = meta.expect("the ladder hands back its offsets");
    let oracle = split_trusted(text);
    if meta != oracle {
        // Only the already-normal input may carry the parser's hints.
        prop_assert_eq!(text, x, "offsets differ for a rewritten reference");
        prop_assert!(meta.same_structure(&oracle), "{:?} vs {:?}", meta, oracle);
        prop_assert_eq!(meta.host_kind(), oracle.host_kind());
    }
    // And the text parses with the same components (the oracle's own
    // claim, checked here in release builds too).
    if let Ok(p) = parse(text, Grammar::IriReference) {
        prop_assert!(p.same_structure(&oracle), "{:?} vs {:?}", p, oracle);
    }
    Ok(())
}

/// The key's check: [`Normalizer::key_into_meta`] appends the text of
/// [`Normalizer::key_into`] (the same error), and when it says the
/// components are known they are `split_trusted` of the key (or, for the
/// unchanged input, the parser's, of the same structure), whatever the
/// caller's `Meta` held before; [`Normalizer::key_into_split`] hands back
/// the same.
fn check_key(n: &Normalizer, x: &str) -> Result<(), TestCaseError> {
    let mut plain = String::from("prefix:");
    let r = n.key_into(x, &mut plain);
    let mut out = String::from("prefix:");
    let mut m = split_trusted("HTTP://u@H.example:1/p/./q?r#s");
    let known = n.key_into_meta(x, &mut out, &mut m);
    prop_assert_eq!(&out, &plain);
    let mut split_out = String::from("prefix:");
    let split = n.key_into_split(x, &mut split_out);
    prop_assert_eq!(&split_out, &plain);
    let known = match (r, known, split) {
        (Ok(()), Ok(k), Ok(s)) => {
            prop_assert_eq!(s, k.then_some(m));
            k
        }
        (Err(e), Err(e2), Err(e3)) => {
            prop_assert_eq!(&e, &e2);
            prop_assert_eq!(&e, &e3);
            return Ok(());
        }
        other => return Err(TestCaseError::fail(format!("{other:?}"))),
    };
    if known {
        let key = &out["prefix:".len()..];
        let oracle = split_trusted(key);
        if m != oracle {
            prop_assert_eq!(key, x, "key offsets differ for a rewritten reference");
            prop_assert!(m.same_structure(&oracle), "{:?} vs {:?}", m, oracle);
            prop_assert_eq!(m.host_kind(), oracle.host_kind());
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn key_offsets_equal_split_trusted(x in ladder_gen::reference(), variant in 0usize..7) {
        for n in normalizers(variant) {
            check_key(&n, &x)?;
        }
    }

    #[test]
    fn key_offsets_equal_split_trusted_on_anything(x in ladder_gen::anything(), variant in select(vec![0usize, 1, 3])) {
        for n in normalizers(variant) {
            check_key(&n, &x)?;
        }
    }

    #[test]
    fn offsets_equal_split_trusted(x in ladder_gen::reference(), variant in 0usize..7) {
        for n in normalizers(variant) {
            check(&n, &x)?;
        }
    }

    #[test]
    fn offsets_equal_split_trusted_on_anything(x in ladder_gen::anything(), variant in select(vec![0usize, 1, 3])) {
        for n in normalizers(variant) {
            check(&n, &x)?;
        }
    }
}

/// Hand-picked: every component, each rewritten so that its length
/// changes (upper case, dot segments, triplets, IDN, ports, empty path,
/// scheme rules that rewrite after the generic pass), already-normal
/// references but for their empty path, and the hand-counted offsets of
/// two of them.
#[test]
fn offsets_of_rewritten_references() {
    let n = Normalizer::new(Options::default());
    for x in [
        "HTTP://User:Pw@Example.COM:0080/a/./b/../c?Q=%7e#F%7e",
        "http://a.example:80",
        "http://a.example:",
        "http://A.example?q#f",
        // The empty path made `/` without the full computation.
        "http://a.example?q#f",
        "https://u@a.example:8443#f",
        "http://a.example",
        "ws://a.example?",
        "https://faß.example/%e2%82%ac?x=%c3%a9",
        "http://%31%32%37.0.0.1/",
        "http://１２７.０.０.１/",
        "http://[::FFFF:1.2.3.4]:8080/x",
        "http://[v1.X]/",
        "file://localhost/etc/%7e",
        "mailto:A@EXAMPLE.org?subject=%7e",
        "urn:ISBN:0451450523",
        "data:Text/Plain,a",
        "a/./b:c",
        "//Host/%2e%2e/x",
        "zz:/.//p",
        "?q=%41",
        "#%7e",
    ] {
        check(&n, x).unwrap();
        check_key(&n, x).unwrap();
    }
    let mut out = String::from(">>");
    let (_, m) = n
        .normalize_into_split("HTTP://U@Example.COM:0080/a/../b?%7e#F", &mut out)
        .unwrap();
    let m = m.unwrap();
    let t = &out[2..];
    assert_eq!(t, "http://U@example.com/b?~#F");
    assert_eq!(m.scheme(t), Some("http"));
    assert_eq!(m.userinfo(t), Some("U"));
    assert_eq!(m.host(t), Some("example.com"));
    assert_eq!(m.port(t), None);
    assert_eq!(m.path(t), "/b");
    assert_eq!(m.query(t), Some("~"));
    assert_eq!(m.fragment(t), Some("F"));
    assert_eq!(m.query_fragment_offsets(), (Some((23, 24)), Some(25)));
    let mut out = String::from(">");
    let (_, m) = n
        .normalize_into_split("http://a.example?q#f", &mut out)
        .unwrap();
    let m = m.unwrap();
    assert_eq!(&out[1..], "http://a.example/?q#f");
    assert_eq!(m.path(&out[1..]), "/");
    assert_eq!(m.query_fragment_offsets(), (Some((18, 19)), Some(20)));
}

/// The key's components are known after the fast answers that rewrite
/// (issue 14, round 23): the empty path made `/` (RFC 3986 §6.2.3) and
/// the case repaired (§6.2.2.1), counted by hand; the named rules then
/// need not split the key again. A key the slow path projects (the URN's
/// q-component dropped, RFC 8141 §3.1) is not.
#[test]
fn key_offsets_after_the_fast_answers() {
    let n = Normalizer::new(Options::default());
    let mut out = String::from(">");
    let mut m = split_trusted("HTTP://u@H.example:1/p/./q?r#s");
    assert_eq!(
        n.key_into_meta("http://a.example?q", &mut out, &mut m),
        Ok(true)
    );
    let t = &out[1..];
    assert_eq!(t, "http://a.example/?q");
    assert_eq!(
        (m.host(t), m.path(t), m.query(t)),
        (Some("a.example"), "/", Some("q"))
    );
    assert_eq!(m.query_fragment_offsets(), (Some((18, 19)), None));
    let mut out = String::from(">");
    assert_eq!(
        n.key_into_meta("HTTP://A.Example/p?q", &mut out, &mut m),
        Ok(true)
    );
    let t = &out[1..];
    assert_eq!(t, "http://a.example/p?q");
    assert_eq!(
        (m.scheme(t), m.host(t), m.path(t)),
        (Some("http"), Some("a.example"), "/p")
    );
    assert_eq!(m.query_fragment_offsets(), (Some((19, 20)), None));
    let mut out = String::new();
    assert_eq!(
        n.key_into_meta("urn:example:a?=q", &mut out, &mut m),
        Ok(false)
    );
    assert_eq!(out, "urn:example:a");
}
