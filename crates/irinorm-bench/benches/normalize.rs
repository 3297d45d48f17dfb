//! Criterion: normalization (parse + normalize + serialize) at each rung and
//! form, irinorm against the peers' normalizing APIs, on each URL corpus
//! and on all of them mixed; then the already-normal data set
//! (`all-normal`). How many inputs each library accepted is printed first.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use irinorm_bench::{Checksum, NORMALIZE_OPS, REGISTRY};

fn normalize(c: &mut Criterion) {
    let Some(sets) = irinorm_bench::load_all() else {
        return;
    };
    for name in NORMALIZE_OPS {
        let mut g = c.benchmark_group(name);
        let entries: Vec<_> = REGISTRY.iter().filter(|e| e.op == name).collect();
        let Some(kind) = entries.first().map(|e| e.kind) else {
            continue;
        };
        for inputs in sets.iter().filter(|s| s.kind() == kind) {
            g.throughput(Throughput::Bytes(inputs.bytes() as u64));
            for e in &entries {
                eprintln!(
                    "{name} / {} / {}: accepted {} of {}",
                    inputs.name,
                    e.lib,
                    Checksum::accepted((e.run)(inputs)),
                    inputs.items()
                );
                g.bench_with_input(BenchmarkId::new(e.lib, &inputs.name), inputs, |b, i| {
                    b.iter(|| (e.run)(std::hint::black_box(i)))
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, normalize);
criterion_main!(benches);
