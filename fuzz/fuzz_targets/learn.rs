//! The learner end to end on arbitrary bytes (issue 11): the list reader
//! (URLs with an optional digest or size column and time; crawl files go
//! through irinorm-archive, fuzzed by its own targets) never panics and accounts for every line
//! (lines = rows + skipped + rejected); learning on the rows never panics
//! and its rules pass the settings-file checks; the `crawler` preset with
//! the learned host rules is idempotent on every row's URL.

#![no_main]

use irinorm::ladder::{Normalizer, Options as LadderOptions};
use irinorm_learn::{learn, rows, Options};
use irinorm_rules::host_rules::HostRuleFile;
use irinorm_rules::{Config, Pipeline, Preset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut all = Vec::new();
    let st = rows::read(data, |r| all.push(r)).expect("reading a slice does not fail");
    assert_eq!(st.lines, st.rows + st.skipped + st.rejected);
    assert_eq!(st.rows as usize, all.len());
    let opts = Options {
        min_paths: 1,
        ..Options::default()
    };
    let learned = learn(all.clone(), &opts);
    for r in &learned.rules {
        // What the learner writes, the settings file accepts.
        HostRuleFile::from(r).into_rule().expect("a learned rule loads");
    }
    let p = Pipeline::new(
        Normalizer::new(LadderOptions::new(Preset::Crawler.rung(), Default::default())),
        Preset::Crawler.rule_set(),
        Config {
            host_rules: learned.rules,
            ..Config::default()
        },
    );
    for r in &all {
        let Ok(once) = p.normalize(&r.url) else { continue };
        let twice = p.normalize(&once.text).expect("normal form parses");
        assert_eq!(twice.text, once.text, "not idempotent: {:?}", r.url);
    }
});
