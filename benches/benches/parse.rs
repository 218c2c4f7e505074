//! Criterion benchmarks of the reply parse. Run with `cargo bench -p elicit-benches`.

#[path = "common/paths.rs"]
#[allow(dead_code)] // Each bench target uses part of the shared paths.
mod paths;

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_benches::{Large, Small, accept_reply, large, small};
use elicit_core::{ElicitResult, Limits};
use std::hint::black_box;

/// What the default limits cost: the same parse with and without them.
fn limits(c: &mut Criterion) {
    let small_reply = accept_reply(&small());
    let large_reply = accept_reply(&large());
    let mut group = c.benchmark_group("limits");
    group.bench_function("small/default limits", |b| {
        b.iter(|| ElicitResult::<Small>::from_json(black_box(&small_reply)).unwrap())
    });
    group.bench_function("small/unlimited", |b| {
        b.iter(|| {
            ElicitResult::<Small>::from_json_with(black_box(&small_reply), &Limits::UNLIMITED)
                .unwrap()
        })
    });
    group.bench_function("large/default limits", |b| {
        b.iter(|| ElicitResult::<Large>::from_json(black_box(&large_reply)).unwrap())
    });
    group.bench_function("large/unlimited", |b| {
        b.iter(|| {
            ElicitResult::<Large>::from_json_with(black_box(&large_reply), &Limits::UNLIMITED)
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, limits);
criterion_main!(benches);
