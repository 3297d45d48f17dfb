//! What applying a learned rules file costs beyond the `crawler` preset,
//! for counting instructions (`perf stat -e instructions:u`, or
//! callgrind) rather than timing on a shared machine: `learned_cost MODE
//! REPS` learns rules from epoch 0 of the simulated crawl, then normalizes
//! the URLs of epoch 1 REPS times with `crawler` (MODE `crawler`) or with
//! `crawler` and the rules (MODE `learned`); only that loop is counted.
//! With a third argument `corpora`, the URLs are those of the shared
//! corpora instead, whose hosts have no rules (what a host without rules
//! costs), `mix50` or `mix25` (the crawl's URLs interleaved with the
//! corpora's, one to one or one to three: crawls where fewer URLs are
//! rewritten; any other third argument: the crawl). A fourth argument `text`
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
    let corpora = || -> Vec<String> {
        irinorm_testdata::text_corpora("learned_cost")
            .expect("../shared/corpora")
            .into_iter()
            .flat_map(|(_, l)| l)
            .collect()
    };
    let crawl = || -> Vec<String> {
        sim::crawl(1, 200, 60, 1)
            .into_iter()
            .map(|s| s.row.url)
            .collect()
    };
    let urls: Vec<String> = match args.get(3).map(String::as_str) {
        Some("corpora") => corpora(),
        Some("mix50") => mixed(crawl(), corpora(), 1),
        Some("mix25") => mixed(crawl(), corpora(), 3),
        _ => crawl(),
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

/// `crawl`'s URLs, in their order, interleaved with `others`' one to
/// `per`: every URL of the crawl followed by `per` of `others`, as many
/// of each as the shorter list allows (both taken evenly spaced, so the
/// crawl's hosts keep their order and grouping).
fn mixed(crawl: Vec<String>, others: Vec<String>, per: usize) -> Vec<String> {
    let n = crawl.len().min(others.len() / per);
    let pick = |v: &[String], k: usize, i: usize| v[i * v.len() / k].clone();
    let mut out = Vec::with_capacity(n * (per + 1));
    for i in 0..n {
        out.push(pick(&crawl, n, i));
        for j in 0..per {
            out.push(pick(&others, n * per, i * per + j));
        }
    }
    out
}
