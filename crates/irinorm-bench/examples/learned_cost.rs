//! What applying a learned rules file costs beyond the `crawler` preset,
//! for counting instructions (`perf stat -e instructions:u`, or
//! callgrind) rather than timing on a shared machine: `learned_cost MODE
//! REPS` learns rules from epoch 0 of the simulated crawl, then normalizes
//! the URLs of epoch 1 REPS times with `crawler` (MODE `crawler`) or with
//! `crawler` and the rules (MODE `learned`); only that loop is counted.
//! With a third argument `corpora`, the URLs are those of the shared
//! corpora instead, whose hosts have no rules (what a host without rules
//! costs; any other third argument: the crawl). A fourth argument `text`
//! calls `Pipeline::normalize_text_into` (a bulk `normalize` that writes
//! only the text: no list of the rules that fired). BENCHMARKS.md ("Learned rules") has the figures.

use irinorm::ladder::{Normalizer, Options};
use irinorm_learn::{learn, sim};
use irinorm_rules::{Config, Pipeline, Preset};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("learned", String::as_str);
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let train = sim::crawl(1, 200, 60, 0);
    let rules = learn(train.iter().map(|s| s.row.clone()), &Default::default()).rules;
    let urls: Vec<String> = if args.get(3).map(String::as_str) == Some("corpora") {
        irinorm_testdata::text_corpora("learned_cost")
            .expect("../shared/corpora")
            .into_iter()
            .flat_map(|(_, l)| l)
            .collect()
    } else {
        sim::crawl(1, 200, 60, 1)
            .into_iter()
            .map(|s| s.row.url)
            .collect()
    };
    let p = match mode {
        "crawler" => Pipeline::preset(Preset::Crawler),
        "learned" => Pipeline::new(
            Normalizer::new(Options::new(Preset::Crawler.rung(), Default::default())),
            Preset::Crawler.rule_set(),
            Config {
                host_rules: rules,
                ..Config::default()
            },
        ),
        other => panic!("mode {other:?}: crawler or learned"),
    };
    let n = if args.get(4).map(String::as_str) == Some("text") {
        irinorm_bench::run_loop_text(&p, &urls, reps)
    } else {
        irinorm_bench::run_loop(&p, &urls, reps)
    };
    eprintln!("{mode}: {} URLs x {reps}, {n} bytes out", urls.len());
}
