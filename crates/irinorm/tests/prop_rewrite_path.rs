//! Differential property tests of the rewrite path of issue 14, round 4:
//!
//! - the hand-off from the wide scanner to the full parser
//!   (`parse` goes on where the scanner stopped) against the full parser
//!   started from the first byte (`parse_full`);
//! - the full parser's path, query and fragment loops on the kernels of
//!   `irinorm-simd` (`parse_full`) against its own table loops, one exit
//!   per `%` (`parse_table`, the oracle);
//! - the ladder's rewrite of such references (`normalize`, whose runs are
//!   found by the same kernels) against `explain` step by step and
//!   against idempotence.
//!
//! The inputs are references of the scanner's common shape with long,
//! triplet-dense queries (upper-case triplets the scanner steps over) and
//! one to three things it cannot prove normal planted anywhere: a
//! lower-case or unreserved triplet, a broken one, a dot segment, upper
//! case, a second `#`, a space, non-ASCII, a bidi control.
//!
//! Case counts: proptest's default (256) times the `with_cases` below, or
//! `PROPTEST_CASES`.

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::parse::{parse_full, parse_table};
use irinorm::{parse, Grammar};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// A reference of the common shape whose query is long and full of
/// triplets (as `query-heavy` in the bench), or a short one.
fn common_shape() -> BoxedStrategy<String> {
    let scheme = select(vec!["http", "https", "file", "mailto", "urn", "x-y"]);
    let host = "[a-z0-9.-]{0,20}";
    let seg = select(vec![
        "a", "bc", "/", "/", "-", "_", "~", ".", "%20", "%2F", "%C3%A9", "=", "+", ":", "@",
    ]);
    let path = proptest::collection::vec(seg, 0..20).prop_map(|v| v.concat());
    let piece = select(vec![
        "utm_source=",
        "&",
        "&",
        "=",
        "q=",
        "abc",
        "Xyz09",
        "%2F",
        "%3A",
        "%3F",
        "%3D",
        "%26",
        "%C3%A9",
        "https%3A%2F%2Fwww.example.com%2F",
        "+",
        "/",
        "?",
        ".",
        "/.",
        "-",
        "~",
    ]);
    let query = prop_oneof![
        1 => Just(String::new()),
        4 => proptest::collection::vec(piece, 0..70).prop_map(|v| format!("?{}", v.concat())),
    ];
    let frag = prop_oneof![
        3 => Just(String::new()),
        1 => "[a-z0-9/?.%A-F-]{0,24}".prop_map(|f| format!("#{f}")),
    ];
    (scheme, any::<bool>(), host, path, query, frag)
        .prop_map(|(s, auth, h, p, q, f)| {
            if auth {
                let p = if p.is_empty() || p.starts_with('/') {
                    p
                } else {
                    format!("/{p}")
                };
                format!("{s}://{h}{p}{q}{f}")
            } else {
                format!("{s}:{p}{q}{f}")
            }
        })
        .boxed()
}

/// The common shape with one to three things planted, each inserted or
/// replacing a character, anywhere (the scanner's every stop, in every
/// component, at every window position).
fn planted() -> BoxedStrategy<String> {
    let thing = select(vec![
        "%2f", "%2e", "%41", "%7E", "%5F", "%c3%a9", "%C3%a9", "%", "%4", "%G1", "/./", "/..", ".",
        "A", "#", "?", " ", "é", "\u{202E}", "\u{E000}", "[", "--", "\\", "%25",
    ]);
    let one = (any::<Index>(), thing, any::<bool>());
    (common_shape(), proptest::collection::vec(one, 1..4))
        .prop_map(|(mut s, things)| {
            for (at, t, replace) in things {
                let bounds: Vec<usize> =
                    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
                let i = bounds[at.index(bounds.len())];
                if replace && i < s.len() {
                    s.remove(i);
                }
                s.insert_str(i, t);
            }
            s
        })
        .boxed()
}

fn inputs() -> BoxedStrategy<String> {
    prop_oneof![1 => common_shape(), 4 => planted()].boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4 * ProptestConfig::default().cases))]

    /// `parse` (the scanner, then the parser from where it stopped) =
    /// `parse_full` (the parser from the start, its loops on the kernels) =
    /// `parse_table` (the parser's own loops): `Meta`, hints and errors,
    /// under every grammar.
    #[test]
    fn resumed_and_wide_parses_equal_the_table_parser(s in inputs()) {
        for g in Grammar::ALL {
            let want = parse_table(&s, g);
            prop_assert_eq!(parse_full(&s, g), want, "{} {:?}", g, s);
            prop_assert_eq!(parse(&s, g), want, "{} {:?}", g, s);
        }
    }

    /// The rewrite: what `normalize` returns is what `explain` computes
    /// (the full computation, traced), at rungs 1 and 2 in both forms; and
    /// normalizing it again changes nothing.
    #[test]
    fn rewrite_equals_explain_and_is_idempotent(s in inputs()) {
        let Ok(ex) = Normalizer::default().explain(&s) else {
            return Ok(());
        };
        for step in ex.steps.iter().filter(|st| st.rung != Rung::String) {
            let n = Normalizer::new(Options::new(step.rung, step.form));
            let got = n.normalize(&s).expect("explain parsed it");
            prop_assert_eq!(&*got, step.output.as_str(), "{} {} {:?}", step.rung, step.form.name(), s);
            let mut into = String::from("prefix");
            n.normalize_into(&s, &mut into).expect("parsed");
            prop_assert_eq!(&into[6..], step.output.as_str());
            prop_assert_eq!(&*n.normalize(&got).expect("normal forms parse"), &*got);
        }
    }
}

/// Hand-offs at hand-picked places, with what the RFC says by hand: the
/// flags and offsets of the parser started over, and the errors at the
/// right byte.
#[test]
fn hand_offs_at_every_stage() {
    let cases = [
        // A lower-case triplet at the end of a long query (query-heavy).
        "http://example.com/p?utm_source=a%2Fb%3A&x=https%3A%2F%2Fq.example%2F&next=%2fhome%2f",
        // A dot segment in the path, after triplets.
        "https://example.com/%C3%A9/a/./b?q=%2F",
        // A path that starts with `.` (no authority).
        "mailto:./x?subject=%20hi",
        // In the fragment: an unreserved triplet, then a second `#`.
        "http://example.com/a/b?q=1#frag%7e",
        "http://example.com/a/b?q=1#frag#again",
        // Non-ASCII in the query (IRI grammars only) and a space (never).
        "http://example.com/a/b?q=caf\u{e9}&r=%2F",
        "http://example.com/a/b?q=a b&r=%2F%2F%2F%2F",
        // A broken triplet at the very end.
        "http://example.com/a/b?q=%2F%2F%2",
    ];
    for s in cases {
        for g in Grammar::ALL {
            assert_eq!(parse(s, g), parse_table(s, g), "{g} {s:?}");
            assert_eq!(parse_full(s, g), parse_table(s, g), "{g} {s:?}");
        }
    }
    let n = Normalizer::default();
    assert_eq!(
        n.normalize(cases[0]).unwrap(),
        "http://example.com/p?utm_source=a%2Fb%3A&x=https%3A%2F%2Fq.example%2F&next=%2Fhome%2F"
    );
    assert_eq!(
        n.normalize(cases[1]).unwrap(),
        "https://example.com/%C3%A9/a/b?q=%2F"
    );
    assert_eq!(
        n.normalize(cases[3]).unwrap(),
        "http://example.com/a/b?q=1#frag~"
    );
    let e = parse(cases[4], Grammar::IriReference).unwrap_err();
    // RFC 3986 §3.5: a fragment holds no `#`; the second one is at 31.
    assert_eq!(
        (e.offset(), e.kind()),
        (31, irinorm::ErrorKind::InvalidChar)
    );
    assert_eq!(
        parse(cases[3], Grammar::AbsoluteUri).unwrap_err().offset(),
        26,
        "absolute-URI has no fragment (RFC 3986 §4.3): the `#` at 26"
    );
    let iri = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
    assert_eq!(
        iri.normalize(cases[5]).unwrap(),
        "http://example.com/a/b?q=caf%C3%A9&r=%2F"
    );
}
