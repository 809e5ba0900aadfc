//! Nanoseconds per draw of every randomizer, beside the bare generator (one
//! `next_u64` and Lemire's range reduction), at 6 and 100 outcomes.
//!
//! Run: `cargo bench -p fairdice-bench --bench randomizers`. Each randomizer is
//! built from its spec string and drawn through `AnyRandomizer`, as the command
//! line and the web UI draw it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::randomizer::{Randomizer, Spec};
use fairdice::rng;

fn draws(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40);
    for n in [6u64, 100] {
        let mut generator = rng::seeded(1);
        group.bench_function(format!("bare generator/{n}"), |b| {
            b.iter(|| rng::below(&mut generator, black_box(n)))
        });
        for spec in [
            format!("dice(values={n})"),
            format!("deck(values={n}, copies=1, refill_below=1)"),
            format!("bag(min=1, max={n}, sets=1)"),
            format!("dynamic(values={n}, decrease=0.5)"),
            format!("fair(values={n}, tightness=1)"),
        ] {
            bench_spec(&mut group, &spec, n);
        }
    }
    for (spec, n) in [
        ("dice(base=2d6)", 11),
        ("fair(base=2d6, tightness=1)", 11),
        ("dynamic(base=2d6, decrease=0.5)", 11),
        ("prd(p=0.25)", 2),
        ("nes", 7),
        ("tgm1", 7),
        ("tgm2", 7),
        ("bag7", 7),
    ] {
        bench_spec(&mut group, spec, n);
    }
    group.finish();
}

fn bench_spec(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    spec: &str,
    n: u64,
) {
    let mut randomizer = Spec::build(spec).expect("a valid spec");
    assert_eq!(randomizer.outcomes().len() as u64, n, "{spec}");
    let mut generator = rng::seeded(1);
    let name = spec.split('(').next().unwrap_or(spec);
    group.bench_function(format!("{name}/{n}/{spec}"), |b| {
        b.iter(|| randomizer.draw(black_box(&mut generator)))
    });
}

criterion_group!(benches, draws);
criterion_main!(benches);
