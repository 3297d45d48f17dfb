//! The fast host rules against the first implementation (kept as the
//! oracle in irinorm-rules) on a simulated crawl: rules learned from epoch
//! 1, every URL of epoch 2 after the `crawler` preset. Same bytes, by the
//! compiled plans too, and the whole pipeline with the rules is
//! idempotent, by the general and the fused path.

use irinorm::ladder::{Normalizer, Options as LadderOptions};
use irinorm_learn::{learn, sim, Options};
use irinorm_rules::{Config, HostRuleSet, Pipeline, Preset};

#[test]
fn fast_host_rules_give_the_bytes_of_the_reference() {
    let train = sim::crawl(5, 60, 30, 0);
    let rules = learn(train.iter().map(|s| s.row.clone()), &Options::default()).rules;
    assert!(rules.len() > 50, "{}", rules.len());
    let set = HostRuleSet::new(&rules);
    let crawler = Pipeline::preset(Preset::Crawler);
    let with = Pipeline::new(
        Normalizer::new(LadderOptions::new(
            Preset::Crawler.rung(),
            Default::default(),
        )),
        Preset::Crawler.rule_set(),
        Config {
            host_rules: rules,
            ..Config::default()
        },
    );
    let (mut changed, mut n) = (0, 0);
    for s in sim::crawl(5, 60, 30, 1) {
        let Ok(base) = crawler.normalize(&s.row.url) else {
            continue;
        };
        n += 1;
        let fast = set.apply(&base.text);
        assert_eq!(fast, set.apply_reference(&base.text), "{}", base.text);
        changed += usize::from(fast.is_some());
        let once = with.normalize(&s.row.url).unwrap().text.into_owned();
        let twice = with.normalize(&once).unwrap().text.into_owned();
        assert_eq!(once, twice, "not idempotent: {}", s.row.url);
        // The fused path (`normalize_into`: the host's compiled plan in the
        // output buffer) gives the general path's bytes, and is idempotent.
        let mut fused = String::new();
        with.normalize_into(&s.row.url, &mut fused, &mut Vec::new())
            .unwrap();
        assert_eq!(fused, once, "fused path: {}", s.row.url);
        let mut again = String::new();
        with.normalize_into(&fused, &mut again, &mut Vec::new())
            .unwrap();
        assert_eq!(again, fused, "fused path not idempotent: {}", s.row.url);
        // Without the list of rules that fired (no copy of the ladder's
        // text: issue 11, round 8), the same bytes.
        let mut text = String::new();
        with.normalize_text_into(&s.row.url, &mut text, &mut Vec::new())
            .unwrap();
        assert_eq!(text, once, "normalize_text_into: {}", s.row.url);
    }
    // Most URLs of the crawl are rewritten: the comparison is not vacuous.
    assert!(changed * 2 > n, "{changed} of {n} changed");
}
