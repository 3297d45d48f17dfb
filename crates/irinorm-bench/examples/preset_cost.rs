//! What a preset costs on one data set, for counting instructions
//! (callgrind) rather than timing on a shared machine: `preset_cost PRESET
//! SET [REPS]` normalizes the data set SET (a name printed by `bench
//! --list`, e.g. `query-heavy`) REPS times through the pipeline of PRESET;
//! only that loop is counted (`valgrind --tool=callgrind
//! --collect-atstart=no --toggle-collect='*run_loop*'`). BENCHMARKS.md
//! (issue 14, `crawler` against `rfc`) has the figures.

use irinorm_rules::{Pipeline, Preset};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args
        .get(1)
        .map_or("crawler", String::as_str)
        .parse()
        .expect("a preset: rfc, fetch, crawler, aggressive");
    let set = args.get(2).map_or("query-heavy", String::as_str);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(urls) = irinorm_bench::load_set(set) else {
        eprintln!("preset_cost: the corpora are absent (../shared/vectors)");
        return;
    };
    let urls = &urls;
    let p = Pipeline::preset(preset);
    let n = irinorm_bench::run_loop(&p, urls, reps);
    eprintln!("{set}: {} URLs x {reps}, {n} bytes out", urls.len());
}
