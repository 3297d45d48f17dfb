//! Differential property tests of the fast paths (issue 14): the wide
//! scanner of already-normal references (`parse` = `parse_full`, the
//! table-driven parser alone, under every grammar) and the ladder's
//! already-normal shortcut (what `normalize` / `normalize_into` / `key`
//! return equals what `explain` computes the slow way, step by step,
//! at every rung and form, with and without `ignore_fragment`).
//!
//! The inputs are mostly near the common shape the scanner takes
//! (`scheme://host:port/path?query#fragment`, lower case, with triplets),
//! with one thing wrong or unusual planted at a random place so that the
//! scanner's every refusal and every window boundary is exercised, plus
//! the grammar-aware generators of `support/gen.rs`.
//!
//! Case counts: proptest's default (256), or `PROPTEST_CASES`.

#[path = "support/gen.rs"]
#[allow(dead_code, unreachable_pub)]
mod gen;

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::parse::parse_full;
use irinorm::{parse, Grammar};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// A reference of the common shape, long enough for several windows.
fn common_shape() -> BoxedStrategy<String> {
    let scheme = select(vec![
        "http", "https", "ftp", "file", "ws", "urn", "mailto", "x-y.z+w",
    ]);
    let host = "[a-z0-9.-]{0,24}";
    let port = prop_oneof![
        Just(String::new()),
        "[0-9]{0,6}".prop_map(|p| format!(":{p}"))
    ];
    let piece = select(vec![
        "a", "bc", "/", "/", ".", "-", "_", "~", "%20", "%2F", "%C3%A9", "%3A", "%7E", "%2e",
        "%41", "%5F", "%7a", "=", "&", "+", ";", ",", "@", ":", "!", "$", "'", "(", "*",
    ]);
    let tail = proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat());
    let query = prop_oneof![
        Just(String::new()),
        "[a-z0-9=&%/?.A-F]{0,60}".prop_map(|q| format!("?{q}"))
    ];
    let frag = prop_oneof![
        3 => Just(String::new()),
        1 => "[a-z0-9/?.%A-F]{0,20}".prop_map(|f| format!("#{f}"))
    ];
    (scheme, any::<bool>(), host, port, tail, query, frag)
        .prop_map(|(s, auth, h, p, t, q, f)| {
            if auth {
                let t = if t.is_empty() || t.starts_with('/') {
                    t
                } else {
                    format!("/{t}")
                };
                format!("{s}://{h}{p}{t}{q}{f}")
            } else {
                format!("{s}:{t}{q}{f}")
            }
        })
        .boxed()
}

/// A common-shape reference with one byte inserted or replaced: upper
/// case, a delimiter, a bad byte, a second `#`, non-ASCII, a dot...
fn near_common() -> BoxedStrategy<String> {
    let c = select(vec![
        'A', 'Z', '%', '#', '?', '.', '/', '@', '[', ']', ':', ' ', '"', '<', '\\', '^', '`', '{',
        '|', '}', '\u{7f}', '\u{1}', 'é', '\u{202E}', '-', 'f',
    ]);
    (common_shape(), any::<Index>(), c, any::<bool>())
        .prop_map(|(s, at, c, replace)| {
            let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let i = bounds[at.index(bounds.len())];
            let mut t = s;
            if replace && i < t.len() {
                t.remove(i);
            }
            t.insert(i, c);
            t
        })
        .boxed()
}

fn inputs() -> BoxedStrategy<String> {
    prop_oneof![
        4 => common_shape(),
        4 => near_common(),
        2 => gen::any_input(),
    ]
    .boxed()
}

proptest! {
    /// The wide scanner never changes what `parse` answers: same `Meta`
    /// (components, host kind, every hint) or the same error.
    #[test]
    fn parse_equals_the_full_parser(s in inputs()) {
        for g in Grammar::ALL {
            prop_assert_eq!(parse(&s, g), parse_full(&s, g), "{} {:?}", g, s);
        }
    }

    /// The already-normal shortcut gives what the full computation gives
    /// (`explain` never takes it), at every rung and form: text and
    /// warnings; a borrowed result is exactly the input.
    #[test]
    fn fast_path_equals_slow_path(s in inputs(), ignore_fragment in any::<bool>()) {
        let n = Normalizer::new(Options { ignore_fragment, ..Options::default() });
        let Ok(ex) = n.explain(&s) else {
            prop_assert!(n.normalize(&s).is_err());
            // The text-only entry refuses it with the same error, and
            // appends nothing.
            let mut text = String::new();
            prop_assert_eq!(n.normalize_text_only(&s, &mut text), n.normalize_into(&s, &mut text).map(drop));
            prop_assert_eq!(text, "");
            return Ok(());
        };
        for step in &ex.steps {
            let mut o = Options::new(step.rung, step.form);
            o.ignore_fragment = ignore_fragment;
            let n = Normalizer::new(o);
            let full = n.normalize_full(&s).unwrap();
            prop_assert_eq!(&*full.text, step.output.as_str(), "{} {}", step.rung, step.form.name());
            prop_assert_eq!(&full.warnings, &step.warnings);
            if let std::borrow::Cow::Borrowed(t) = full.text {
                prop_assert_eq!(t, s.as_str());
            }
            let mut out = String::from("prefix:");
            n.normalize_into(&s, &mut out).unwrap();
            prop_assert_eq!(&out["prefix:".len()..], step.output.as_str());
            // The text-only entry (round 14): the same text.
            let mut text = String::from("prefix:");
            n.normalize_text_only(&s, &mut text).unwrap();
            prop_assert_eq!(&text, &out);
            if step.form == Form::Uri && step.rung != Rung::String {
                // The key is the `uri`-form normal string (URNs aside,
                // which never take the shortcut: LADDER.md).
                let key = n.key(&s).unwrap();
                if !s.to_ascii_lowercase().starts_with("urn:") {
                    prop_assert_eq!(key, step.output.clone());
                }
            }
        }
    }
}

/// The kernel the scanner runs in this process is the one `IRINORM_SIMD`
/// asks for, when the CPU has it (see [`every_kernel`]).
#[test]
fn kernel_is_the_requested_one() {
    let active = irinorm_simd::Kernel::active();
    if let Ok(want) = std::env::var("IRINORM_SIMD") {
        if irinorm_simd::Kernel::supported()
            .iter()
            .any(|k| k.name() == want)
        {
            assert_eq!(active.name(), want);
        }
    }
}

/// The two properties above again under each narrower kernel the CPU has
/// (the scalar fallback always): this test binary run again with
/// `IRINORM_SIMD` set, which the dispatch reads once per process.
#[test]
fn every_kernel() {
    if std::env::var_os("IRINORM_SIMD").is_some() {
        return; // the child itself
    }
    let exe = std::env::current_exe().unwrap();
    let best = irinorm_simd::Kernel::active();
    for k in irinorm_simd::Kernel::supported() {
        if k == best {
            continue; // this process
        }
        let out = std::process::Command::new(&exe)
            .env("IRINORM_SIMD", k.name())
            .args(["--test-threads", "2", "--skip", "every_kernel"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "under {k:?}:\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The child ran the properties and checked its kernel.
        for t in [
            "parse_equals_the_full_parser",
            "kernel_is_the_requested_one",
        ] {
            assert!(text.contains(&format!("{t} ... ok")), "under {k:?}: {text}");
        }
    }
}
