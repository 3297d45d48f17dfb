//! Criterion: validating parsers on each URL corpus and on all of them
//! mixed. Every library gets the same full list (invalid lines included);
//! the acceptance counts are printed before the measurements.

mod common;

use common::{bench_ops, Per};
use criterion::{criterion_group, criterion_main, Criterion};
use irinorm_bench::op;

fn parse(c: &mut Criterion) {
    bench_ops(c, &[op::PARSE_URI_REF, op::PARSE_IRI_REF], Per::Byte);
}

criterion_group!(benches, parse);
criterion_main!(benches);
