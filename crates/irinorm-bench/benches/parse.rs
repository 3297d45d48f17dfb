//! Criterion: validating parsers on each URL corpus and on all of them
//! mixed. Every library gets the same full list (invalid lines included);
//! the acceptance counts are printed before the measurements.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use irinorm_bench::{op, Checksum, Kind, REGISTRY};

fn parse(c: &mut Criterion) {
    let Some(sets) = irinorm_bench::load_all() else {
        return;
    };
    for name in [op::PARSE_URI_REF, op::PARSE_IRI_REF] {
        let mut g = c.benchmark_group(name);
        for inputs in sets.iter().filter(|s| s.kind() == Kind::Urls) {
            g.throughput(Throughput::Bytes(inputs.bytes() as u64));
            for e in REGISTRY.iter().filter(|e| e.op == name) {
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

criterion_group!(benches, parse);
criterion_main!(benches);
