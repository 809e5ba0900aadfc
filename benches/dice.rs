//! Warm, in-process time per call of fairdice and xdy on the exact dice cases (criterion).
//!
//! Each case of `cases/dice.tsv` is a group `dice_<case>` with three functions: `fairdice`
//! (parse, estimate and evaluate the notation, what users run), `fairdice_core` (the same
//! distribution from `Die::repeat_sum` or `Pool::keep_highest`, without the notation) and
//! `xdy` (compile, plan and build). Every iteration starts from the text, so nothing is reused
//! between calls except what each library keeps by itself. icepool is absent on purpose: it
//! caches results, so a warm loop would time a dictionary look-up; the `compare` runner times
//! it cold instead.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::DICE;
use fairdice_bench::engines::{self, CoreCase};

#[path = "warm.rs"]
mod warm;

fn dice(c: &mut Criterion) {
    warm::cases(c, "dice", DICE, |group, table, case| {
        if let Some(expression) = case.expression(table, "fairdice")
            && let Some(core) = CoreCase::parse(expression)
        {
            group.bench_function("fairdice_core", |b| {
                b.iter(|| black_box(core).evaluate().expect(expression))
            });
        }
        if let Some(expression) = case.expression(table, "xdy") {
            group.bench_function("xdy", |b| {
                b.iter(|| engines::xdy(black_box(expression)).expect(expression))
            });
        }
    });
}

criterion_group!(benches, dice);
criterion_main!(benches);
