//! Criterion: the presets of irinorm-rules (`rfc`, `fetch`, `crawler`,
//! `aggressive`) and comparison-key digests, on each URL corpus and on all
//! of them mixed. `crawler` against `rfc` is what the named rules cost
//! beyond the ladder.

mod common;

use common::{bench_ops, Per};
use criterion::{criterion_group, criterion_main, Criterion};
use irinorm_bench::op;

fn presets(c: &mut Criterion) {
    bench_ops(c, &[op::PRESETS, op::KEY_DIGEST], Per::Item);
}

criterion_group!(benches, presets);
criterion_main!(benches);
