//! Round 16 (docs/testing.md): the CLI's per-line path (`irinorm
//! normalize` on a list: the text alone per line, no warnings list, the
//! learned or preset rules' text-only entry) against the library's
//! `Pipeline::normalize` of each line, on near-normal `http(s)` URLs at
//! the edges of the fast answers (`irinorm-rules/tests/support/
//! fast_edges.rs`), one thread and two, under the options a caller sets
//! (`--nfc`, `--nfkc`, `--ignore-fragment`, `--schemes`, `--base`), both
//! forms, without rules and under `rfc`, `crawler` and `aggressive`: the
//! same text for every line the library accepts, a reject for every line
//! it refuses, in order.
//!
//! Each case runs the binary twice: `PROPTEST_CASES / 8` cases, at least
//! 32 (docs/testing.md).

mod common;

#[path = "../../irinorm-rules/tests/support/fast_edges.rs"]
#[allow(dead_code)]
mod fast_edges;

use common::{rejects, run_in};
use fast_edges::{options, url, Variant};
use irinorm::ladder::{Form, Normalizer};
use irinorm_rules::{Config, Pipeline, Preset, RuleSet};
use proptest::prelude::*;
use proptest::sample::select;

/// `http`'s default port is 8080 (every other field as built in:
/// docs/schemes.md).
const HTTP_8080: &str = "[schemes.http]\ndefault-port = 8080\ndns-host = true\nempty-path-is-root = true\nnormalizer = \"none\"\n";
const HTTP_FORGOTTEN: &str = "[schemes.http]\nforget = true\n";
const BASE: &str = "http://b.example/d/e?q";

/// The CLI's options and the library's: (flags, variant, base).
fn setting() -> impl Strategy<Value = (Vec<&'static str>, Variant, bool)> {
    select(vec![
        (vec![], Variant::Plain, false),
        (vec!["--ignore-fragment"], Variant::IgnoreFragment, false),
        (vec!["--nfc"], Variant::Nfc, false),
        (vec!["--nfkc"], Variant::Nfkc, false),
        (vec!["--schemes", "http8080.toml"], Variant::Http8080, false),
        (
            vec!["--schemes", "forget.toml"],
            Variant::HttpUnknown,
            false,
        ),
        (vec!["--base", BASE], Variant::Plain, true),
    ])
}

/// A line: a URL of the generator, or a relative reference made of its
/// tail (for `--base`).
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => url(),
        1 => fast_edges::tail(8),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32.max(ProptestConfig::default().cases / 8)))]

    #[test]
    fn per_line_output_is_the_librarys(
        lines in prop::collection::vec(line(), 1..40),
        (flags, v, base) in setting(),
        preset in select(vec![None, Some(Preset::Rfc), Some(Preset::Crawler), Some(Preset::Aggressive)]),
        form in select(vec![Form::Uri, Form::Iri]),
    ) {
        // An empty line is the empty reference (RFC 3986 §4.1), written
        // as such (no piece holds a line break).
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("http8080.toml"), HTTP_8080).unwrap();
        std::fs::write(dir.path().join("forget.toml"), HTTP_FORGOTTEN).unwrap();
        let mut input = lines.join("\n");
        input.push('\n');
        std::fs::write(dir.path().join("in.txt"), &input).unwrap();

        let mut o = options(v, form);
        if let Some(p) = preset {
            o.rung = p.rung();
        }
        let mut nz = Normalizer::new(o);
        if base {
            nz = nz.with_base(BASE).unwrap();
        }
        let p = Pipeline::new(nz, preset.map_or_else(RuleSet::default, Preset::rule_set), Config::default());
        let mut want = String::new();
        let mut want_rejected = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            match p.normalize(l) {
                Ok(out) => {
                    want.push_str(&out.text);
                    want.push('\n');
                }
                Err(_) => want_rejected.push(i as u64 + 1),
            }
        }

        for threads in ["1", "2"] {
            let mut args = vec!["normalize", "-i", "in.txt", "--rejects", "rej.tsv", "-j", threads];
            args.extend(["--form", if form == Form::Iri { "iri" } else { "uri" }]);
            let preset_name = preset.map(|p| p.to_string());
            if let Some(name) = &preset_name {
                args.extend(["--preset", name.as_str()]);
            }
            args.extend(flags.iter().copied());
            let r = run_in(dir.path(), &args, b"");
            prop_assert!(r.code == 0 || r.code == 1, "{}: {}", r.code, r.stderr);
            prop_assert_eq!(r.out(), want.clone(), "{:?} -j {}", args, threads);
            let rej: Vec<u64> = rejects(&dir.path().join("rej.tsv"))
                .iter()
                .map(|row| row[0].parse().unwrap())
                .collect();
            prop_assert_eq!(&rej, &want_rejected, "{:?} -j {}", args, threads);
        }
    }
}
