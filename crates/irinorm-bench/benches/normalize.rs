//! Criterion: normalization (parse + normalize + serialize) at each rung and
//! form, irinorm against the peers' normalizing APIs, on each URL corpus
//! and on all of them mixed; then the already-normal data set
//! (`all-normal`). How many inputs each library accepted is printed first.

mod common;

use common::{bench_ops, Per};
use criterion::{criterion_group, criterion_main, Criterion};
use irinorm_bench::NORMALIZE_OPS;

fn normalize(c: &mut Criterion) {
    bench_ops(c, &NORMALIZE_OPS, Per::Byte);
}

criterion_group!(benches, normalize);
criterion_main!(benches);
