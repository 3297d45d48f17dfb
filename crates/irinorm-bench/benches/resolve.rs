//! Criterion: reference resolution on `relative_urls_cc_10k.csv`, the same
//! operation for every library (parse base and reference, resolve, produce
//! the target text). How many pairs each handled is printed first.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use irinorm_bench::{op, Checksum, Kind, REGISTRY};

fn resolve(c: &mut Criterion) {
    let Some(sets) = irinorm_bench::load_all() else {
        return;
    };
    for name in [op::RESOLVE_URI, op::RESOLVE_IRI] {
        let mut g = c.benchmark_group(name);
        for inputs in sets.iter().filter(|s| s.kind() == Kind::Pairs) {
            g.throughput(Throughput::Elements(inputs.items() as u64));
            for e in REGISTRY.iter().filter(|e| e.op == name) {
                eprintln!(
                    "{name} / {} / {}: resolved {} of {}",
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

criterion_group!(benches, resolve);
criterion_main!(benches);
