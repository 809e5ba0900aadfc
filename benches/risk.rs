//! Risk battles: 100 against 100 exactly, 1000 against 1000 in floating point,
//! and the 100 × 100 grid of P(attacker wins); every solve is metered by a
//! [`Control`], as every front-end solves them.

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::Control;
use fairdice::battle::{Rules, solve_exact, solve_float, win_table};

fn battles(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("risk");
    group.sample_size(10);
    group.bench_function("100v100 exact", |b| {
        b.iter(|| solve_exact(100, 100, &rules, &Control::new()).unwrap())
    });
    group.bench_function("1000v1000 float", |b| {
        b.iter(|| solve_float(1000, 1000, &rules, &Control::new()).unwrap())
    });
    group.bench_function("table 100 float", |b| {
        b.iter(|| win_table(100, &rules, &Control::new()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, battles);
criterion_main!(benches);
