//! Nanoseconds per draw of every randomizer, beside the bare generator (one
//! `next_u64` and Lemire's range reduction), at 6 and 100 outcomes.
//!
//! Run: `cargo bench -p fairdice-bench --bench randomizers`. Each randomizer is
//! built from its spec string and drawn through `AnyRandomizer`, as the command
//! line and the web UI draw it.
//!
//! Time is the benchmark thread's CPU time (Linux `/proc/thread-self/schedstat`,
//! wall-clock time elsewhere): the machines these run on are shared, and wall-clock
//! time would count the moments another process held the core.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::randomizer::{
    Base, Deck, Dice, DiceBag, DynamicDice, Prd, Randomizer, RefillMode, Spec,
};
use fairdice::rng;

/// Nanoseconds of CPU time this thread has run, if the kernel says.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Thread CPU time (falling back to wall-clock time), in nanoseconds.
struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = (Instant, Option<u64>);
    type Value = Duration;

    fn start(&self) -> Self::Intermediate {
        (Instant::now(), thread_cpu_ns())
    }

    fn end(&self, (wall, cpu): Self::Intermediate) -> Self::Value {
        match cpu.zip(thread_cpu_ns()) {
            Some((start, end)) => Duration::from_nanos(end.saturating_sub(start)),
            None => wall.elapsed(),
        }
    }

    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value {
        *v1 + *v2
    }

    fn zero(&self) -> Self::Value {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Self::Value) -> f64 {
        value.as_nanos() as f64
    }

    /// Nanoseconds, formatted as wall-clock time is.
    fn formatter(&self) -> &dyn ValueFormatter {
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

fn draws(c: &mut Criterion<CpuTime>) {
    let mut group = c.benchmark_group("draw");
    group
        // Few long samples: the CPU-time clock advances in scheduler ticks (a few
        // milliseconds), so every sample must run for tens of milliseconds.
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(10);
    for n in [6u64, 100] {
        let mut generator = rng::seeded(1);
        group.bench_function(format!("bare generator/{n}"), |b| {
            // The generator goes through `black_box` as in every randomizer's bench,
            // so its state round-trips through memory as it does in a game.
            b.iter(|| rng::below(black_box(&mut generator), black_box(n)))
        });
        // The concrete types, without the `AnyRandomizer` dispatch.
        let values = || Base::values(n).expect("valid");
        bench_direct(&mut group, &format!("direct dice/{n}"), Dice::new(values()));
        let deck = Deck::new(values(), 1, 1, RefillMode::TopUp).expect("valid");
        bench_direct(&mut group, &format!("direct deck/{n}"), deck);
        let bag = DiceBag::new(1, n as i64, 1).expect("valid");
        bench_direct(&mut group, &format!("direct bag/{n}"), bag);
        let dynamic = DynamicDice::new(values(), 0.5).expect("valid");
        bench_direct(&mut group, &format!("direct dynamic/{n}"), dynamic);
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
        ("tgm3", 7),
        ("bag7", 7),
    ] {
        bench_spec(&mut group, spec, n);
    }
    bench_direct(&mut group, "direct prd/2", Prd::new(0.25).expect("valid"));
    group.finish();
}

fn bench_direct<R: Randomizer>(
    group: &mut criterion::BenchmarkGroup<'_, CpuTime>,
    name: &str,
    mut randomizer: R,
) {
    let mut generator = rng::seeded(1);
    group.bench_function(name, |b| {
        b.iter(|| randomizer.draw(black_box(&mut generator)))
    });
}

fn bench_spec(group: &mut criterion::BenchmarkGroup<'_, CpuTime>, spec: &str, n: u64) {
    let mut randomizer = Spec::build(spec).expect("a valid spec");
    assert_eq!(randomizer.outcomes().len() as u64, n, "{spec}");
    let mut generator = rng::seeded(1);
    let name = spec.split('(').next().unwrap_or(spec);
    group.bench_function(format!("{name}/{n}/{spec}"), |b| {
        b.iter(|| randomizer.draw(black_box(&mut generator)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = draws
}
criterion_main!(benches);
