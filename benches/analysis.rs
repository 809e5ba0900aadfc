//! The exact analysis and the tuner: the article's whole default grid (200
//! candidates) for 6 outcomes × 25 samples and 4 outcomes × 30 samples, single
//! exact sweeps, and a Monte Carlo estimate of the article's size (10,000 runs) for
//! comparison.
//!
//! Run: `cargo bench -p fairdice-bench --bench analysis`. The Python re-run of the
//! article's own procedure is timed beside it by `peers/compare_analysis.sh`;
//! results in `ANALYSIS.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::Control;
use fairdice::analysis::{exact, monte_carlo};
use fairdice::randomizer::Spec;
use fairdice::tune::{Tuning, tune};

fn grid(c: &mut Criterion) {
    let mut group = c.benchmark_group("tune");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .sample_size(10);
    for (values, samples) in [(6, 25), (4, 30)] {
        let tuning = Tuning::article(values, samples).expect("valid");
        group.bench_function(
            format!("article grid/{values} outcomes/{samples} samples"),
            |b| b.iter(|| tune(black_box(&tuning), &Control::new()).expect("runs")),
        );
    }
    group.finish();
}

fn single(c: &mut Criterion) {
    let mut group = c.benchmark_group("analysis");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for spec in [
        "deck(values=6, copies=1, refill_below=6)",
        "deck(values=6, copies=10, refill_below=10)",
        "dynamic(values=6, decrease=0.355)",
    ] {
        let r = Spec::build(spec).expect("valid");
        group.bench_function(format!("exact/25 samples/{spec}"), |b| {
            b.iter(|| {
                exact::curves(black_box(&r), 25, &Default::default(), &Control::new())
                    .expect("small")
            })
        });
    }
    let r = Spec::build("dynamic(values=6, decrease=0.355)").expect("valid");
    group.bench_function("monte carlo/10000 runs/25 samples/dynamic 0.355", |b| {
        b.iter(|| monte_carlo::estimate(black_box(&r), 25, 10_000, 1, false, &Control::new()))
    });
    group.finish();
}

criterion_group!(benches, grid, single);
criterion_main!(benches);
