//! What a preset's comparison key costs on one data set, for counting
//! instructions (callgrind): `key_cost PRESET SET [REPS]` computes the key
//! (`Pipeline::key_into`, the path of `dedupe` and `compare`) of every URL
//! of the data set SET (a name printed by `bench --list`) REPS times
//! through the pipeline of PRESET; only that loop is counted (`valgrind
//! --tool=callgrind --collect-atstart=no --toggle-collect='*run_loop*'`).
//! Whole-process `dedupe` counts vary by ~1.5% between runs of one binary
//! (its table's hashing, its threads): this loop is the measure of a change
//! to the key's path (BENCHMARKS.md, issue 14, round 23).

use irinorm_rules::{Pipeline, Preset};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args
        .get(1)
        .map_or("crawler", String::as_str)
        .parse()
        .expect("a preset: rfc, fetch, crawler, aggressive");
    let set = args.get(2).map_or("all", String::as_str);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(urls) = irinorm_bench::load_set(set) else {
        eprintln!("key_cost: the corpora are absent (../shared/vectors)");
        return;
    };
    let urls = &urls;
    let p = Pipeline::preset(preset);
    let n = irinorm_bench::run_loop_key(&p, urls, reps);
    eprintln!("{set}: {} URLs x {reps}, {n} bytes of keys", urls.len());
}
