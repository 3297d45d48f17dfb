//! The one loop every criterion bench runs: for each operation, every
//! registry entry of it on every data set of the operation's kind, after
//! printing how many inputs each library accepted.

// Each bench includes this module and uses part of it.
#![allow(dead_code, unreachable_pub)]

use criterion::{BenchmarkId, Criterion, Throughput};
use irinorm_bench::{Checksum, Inputs, REGISTRY};

/// How throughput is counted.
#[derive(Clone, Copy)]
pub enum Per {
    /// Bytes of input (parse, normalize).
    Byte,
    /// Items: URLs or pairs (resolve, presets, keys).
    Item,
}

pub fn bench_ops(c: &mut Criterion, ops: &[&str], per: Per) {
    let Some(sets) = irinorm_bench::load_all() else {
        return;
    };
    for &name in ops {
        let entries: Vec<_> = REGISTRY.iter().filter(|e| e.op == name).collect();
        let Some(kind) = entries.first().map(|e| e.kind) else {
            continue;
        };
        let mut g = c.benchmark_group(name);
        for inputs in sets.iter().filter(|s| s.kind() == kind) {
            g.throughput(match per {
                Per::Byte => Throughput::Bytes(inputs.bytes() as u64),
                Per::Item => Throughput::Elements(inputs.items() as u64),
            });
            for e in &entries {
                eprintln!(
                    "{name} / {} / {}: accepted {} of {}",
                    inputs.name,
                    e.lib,
                    Checksum::accepted((e.run)(inputs)),
                    inputs.items()
                );
                g.bench_with_input(
                    BenchmarkId::new(e.lib, &inputs.name),
                    inputs,
                    |b, i: &Inputs| b.iter(|| (e.run)(std::hint::black_box(i))),
                );
            }
        }
        g.finish();
    }
}
