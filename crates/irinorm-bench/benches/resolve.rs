//! Criterion: reference resolution on `relative_urls_cc_10k.csv`, the same
//! operation for every library (parse base and reference, resolve, produce
//! the target text). How many pairs each handled is printed first.

mod common;

use common::{bench_ops, Per};
use criterion::{criterion_group, criterion_main, Criterion};
use irinorm_bench::op;

fn resolve(c: &mut Criterion) {
    bench_ops(c, &[op::RESOLVE_URI, op::RESOLVE_IRI], Per::Item);
}

criterion_group!(benches, resolve);
criterion_main!(benches);
