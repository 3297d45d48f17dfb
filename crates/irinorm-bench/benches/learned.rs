//! Criterion: what applying a learned rules file costs beyond the
//! `crawler` preset (issue 11 goal: at most 1.5x). Two data sets: a
//! simulated crawl whose hosts all have rules (learned from its epoch 0,
//! measured on epoch 1), and the shared URL corpora, whose hosts have
//! none (the host screen: one hash lookup per label).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use irinorm::ladder::{Normalizer, Options};
use irinorm_learn::{learn, sim};
use irinorm_rules::{Config, Pipeline, Preset};

fn run(p: &Pipeline, urls: &[String]) -> usize {
    irinorm_bench::run_loop(p, urls, 1)
}

fn learned(c: &mut Criterion) {
    let train = sim::crawl(1, 200, 60, 0);
    let rules = learn(train.iter().map(|s| s.row.clone()), &Default::default()).rules;
    eprintln!("learned: {} rules", rules.len());
    let crawler = Pipeline::preset(Preset::Crawler);
    let with = Pipeline::new(
        Normalizer::new(Options::new(Preset::Crawler.rung(), Default::default())),
        Preset::Crawler.rule_set(),
        Config {
            host_rules: rules,
            ..Config::default()
        },
    );
    let mut sets: Vec<(String, Vec<String>)> = vec![(
        "simulated crawl".to_owned(),
        sim::crawl(1, 200, 60, 1)
            .into_iter()
            .map(|s| s.row.url)
            .collect(),
    )];
    if let Some(corpora) = irinorm_testdata::text_corpora("learned bench") {
        sets.push((
            "corpora (no rules)".to_owned(),
            corpora.into_iter().flat_map(|(_, l)| l).collect(),
        ));
    }
    let mut g = c.benchmark_group("learned rules");
    for (name, urls) in &sets {
        g.throughput(Throughput::Elements(urls.len() as u64));
        for (lib, p) in [("crawler", &crawler), ("crawler + learned", &with)] {
            g.bench_with_input(BenchmarkId::new(lib, name), urls, |b, u| {
                b.iter(|| run(p, u))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, learned);
criterion_main!(benches);
