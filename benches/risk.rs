//! Risk battles: 100 against 100 exactly, 1000 against 1000 in floating point;
//! each also under a work meter with a cancel flag, as the web app solves them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::battle::{
    Rules, solve_exact, solve_exact_metered, solve_float, solve_float_metered, win_table,
};
use fairdice::dice::budget::Meter;

fn battles(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("risk");
    group.sample_size(10);
    group.bench_function("100v100 exact", |b| {
        b.iter(|| solve_exact(100, 100, &rules).unwrap())
    });
    group.bench_function("1000v1000 float", |b| {
        b.iter(|| solve_float(1000, 1000, &rules).unwrap())
    });
    let meter = || Meter::unlimited().with_cancel(Arc::new(AtomicBool::new(false)));
    group.bench_function("100v100 exact metered", |b| {
        b.iter(|| solve_exact_metered(100, 100, &rules, &mut meter()).unwrap())
    });
    group.bench_function("1000v1000 float metered", |b| {
        b.iter(|| solve_float_metered(1000, 1000, &rules, &mut meter()).unwrap())
    });
    group.bench_function("table 100 float", |b| {
        b.iter(|| win_table(100, &rules).unwrap())
    });
    group.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
