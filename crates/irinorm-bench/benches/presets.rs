//! Criterion: the presets of irinorm-rules (`rfc`, `fetch`, `crawler`,
//! `aggressive`) and comparison-key digests, on each URL corpus and on all
//! of them mixed. `crawler` against `rfc` is what the named rules cost
//! beyond the ladder.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use irinorm_bench::{op, Kind, REGISTRY};

fn presets(c: &mut Criterion) {
    let Some(sets) = irinorm_bench::load_all() else {
        return;
    };
    for name in [op::PRESETS, op::KEY_DIGEST] {
        let mut g = c.benchmark_group(name);
        for inputs in sets.iter().filter(|s| s.kind() == Kind::Urls) {
            g.throughput(Throughput::Elements(inputs.items() as u64));
            for e in REGISTRY.iter().filter(|e| e.op == name) {
                g.bench_with_input(BenchmarkId::new(e.lib, &inputs.name), inputs, |b, i| {
                    b.iter(|| (e.run)(std::hint::black_box(i)))
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, presets);
criterion_main!(benches);
