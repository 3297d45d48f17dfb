//! Round 16 (docs/testing.md): the learner's output as a property. On a
//! random small simulated crawl (irinorm-frontier's generator through
//! `sim::crawl`, random seed and size), the rules `learn` writes, applied
//! with their base preset (`crawler`, docs/learning.md "Method" step 1)
//! in both forms, on the training URLs and the next epoch's:
//!
//! 1. idempotent: N(N(x)) == N(x);
//! 5. forms agree: N_uri(N_iri(x)) == N_uri(x);
//! 7. the entry points agree: `normalize`, `normalize_into`,
//!    `normalize_text_only` (the CLI's per-line path, the fused learned
//!    path), `key` and `digest` (dedupe's sets);
//!
//! and `explain` lists the rules `normalize` applied (round 11's
//! contract, there on generated rules files, here on learned ones); and
//! (round 18) the rules file `irinorm learn` writes, read back as
//! `--config` reads it, is the same rules with the same normal forms.
//!
//! Case counts: `PROPTEST_CASES / 32`, at least 8 (each case learns a
//! crawl: 63 to 661 URLs and 1 to 42 rules in
//! a first run of 16 cases).

use irinorm::ladder::{Form, Key, Normalizer, Options as LadderOptions};
use irinorm_learn::{learn, sim, Options};
use irinorm_rules::{Config, Pipeline, Preset, RuleName};
use proptest::prelude::*;

fn with_rules(rules: &[irinorm_rules::HostRule], form: Form) -> Pipeline {
    let p = Preset::Crawler;
    Pipeline::new(
        Normalizer::new(LadderOptions::new(p.rung(), form)),
        p.rule_set(),
        Config {
            host_rules: rules.to_vec(),
            ..Config::default()
        },
    )
}

fn n(p: &Pipeline, x: &str) -> Option<String> {
    p.normalize(x).ok().map(|o| o.text.into_owned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8.max(ProptestConfig::default().cases / 32)))]

    #[test]
    fn learned_rules_are_normal_forms(seed in any::<u64>(), sites in 2usize..8, pages in 5usize..25) {
        let train = sim::crawl(seed, sites, pages, 0);
        let test = sim::crawl(seed, sites, pages, 1);
        let learned = learn(train.iter().map(|s| s.row.clone()), &Options::default());
        let (u, i) = (with_rules(&learned.rules, Form::Uri), with_rules(&learned.rules, Form::Iri));
        // Round 18: the file `irinorm learn` writes (`to_toml`), read back
        // as `--config` reads it (`load_toml`), is the same rules: the same
        // normal forms in both forms as the learner's own.
        let text = irinorm_rules::host_rules::to_toml(&learned.rules);
        let mut loaded = Config::default();
        let mut schemes = irinorm::scheme::SchemeRegistry::builtin();
        irinorm_rules::config::load_toml(&text, &mut loaded, &mut schemes)
            .map_err(|e| TestCaseError::fail(format!("{e} (seed {seed}):\n{text}")))?;
        prop_assert_eq!(&loaded.host_rules, &learned.rules, "round trip (seed {})", seed);
        let (lu, li) = (with_rules(&loaded.host_rules, Form::Uri), with_rules(&loaded.host_rules, Form::Iri));
        for x in train.iter().chain(&test).map(|s| s.row.url.as_str()) {
            prop_assert_eq!(n(&lu, x), n(&u, x), "loaded rules, uri form, {:?} (seed {})", x, seed);
            prop_assert_eq!(n(&li, x), n(&i, x), "loaded rules, iri form, {:?} (seed {})", x, seed);
        }
        for x in train.iter().chain(&test).map(|s| s.row.url.as_str()) {
            let (nu, ni) = (n(&u, x), n(&i, x));
            let (Some(nu), Some(ni)) = (nu, ni) else { continue };
            for (p, once) in [(&u, &nu), (&i, &ni)] {
                let twice = n(p, once);
                prop_assert_eq!(twice.as_ref(), Some(once), "not idempotent on {:?} (seed {})", x, seed);
                let mut only = String::new();
                p.normalize_text_only(x, &mut only).unwrap();
                prop_assert_eq!(&only, once, "normalize_text_only {:?}", x);
                let mut into = String::new();
                let mut applied = Vec::new();
                p.normalize_into(x, &mut into, &mut applied).unwrap();
                prop_assert_eq!(&into, once, "normalize_into {:?}", x);
                // `explain` lists every rule `normalize` applied, in the
                // order they first fired.
                let (_, fired) = p.explain(x).unwrap();
                let mut listed: Vec<RuleName> = Vec::new();
                for f in &fired {
                    if !listed.contains(&f.rule) {
                        listed.push(f.rule);
                    }
                }
                let out = p.normalize(x).unwrap();
                for r in &out.applied {
                    prop_assert!(listed.contains(r), "{:?}: {:?} applied, explain lists {:?}", x, r, listed);
                }
            }
            prop_assert_eq!(n(&u, &ni), Some(nu.clone()), "forms of {:?}: iri {:?}", x, ni);
            prop_assert_eq!(u.digest(x).ok(), Some(Key::of(&nu)), "digest of {:?}", x);
            prop_assert_eq!(u.key(x).ok(), Some(nu), "key of {:?}", x);
        }
    }
}
