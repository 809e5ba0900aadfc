//! fairdice against stated lower bounds on the big-integer cases (criterion, warm, in-process).
//!
//! For `100d6`, `1000d6` and `100d10kh10`, each group times fairdice's engine (`fairdice_core`:
//! `Die::repeat_sum` or `Pool::keep_highest`, the notation left out) beside two floors that any
//! exact method has to pay, built from the answer's own sizes:
//!
//! - `floor_output`: every count of the answer written once by one big-integer addition
//!   (`c + c`, a fresh integer per count): producing the output, nothing else.
//! - `floor_last_pass`: the last pass that produces the output. For `n` dice summed, one
//!   convolution of the `n − 1` dice's counts with one more die, as a sliding window (two
//!   big-integer operations per count). For keep-highest, the fold of the lowest face into
//!   the engine's last layer: one big-integer multiply-add per (kept dice, partial sum) state
//!   of the higher faces, by a binomial coefficient (the ways the dice left show the lowest face).
//!
//! `benches/README.md` ("Lower bounds") reads the ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice::{Control, Die};
use fairdice_bench::engines::CoreCase;
use num_bigint::BigUint;

/// The answer's counts from the smallest outcome up.
fn counts(die: &Die) -> Vec<BigUint> {
    die.outcomes().iter().map(|&o| die.count(o)).collect()
}

/// One big-integer addition (and a fresh integer) per count of the answer.
fn floor_output(answer: &[BigUint]) -> Vec<BigUint> {
    answer.iter().map(|c| c + c).collect()
}

/// `n` dice of `sides` from the counts of `n − 1`: each count is the previous one plus the
/// count entering the window minus the one leaving it.
fn floor_convolution(previous: &[BigUint], sides: usize) -> Vec<BigUint> {
    let len = previous.len() + sides - 1;
    let mut out = Vec::with_capacity(len);
    let mut window = BigUint::ZERO;
    for k in 0..len {
        if let Some(entering) = previous.get(k) {
            window += entering;
        }
        if let Some(leaving) = k.checked_sub(sides).and_then(|i| previous.get(i)) {
            window -= leaving;
        }
        out.push(window.clone());
    }
    out
}

/// The lowest face folded into the last layer of keep-highest `keep` of `dice` dice with
/// `sides` faces: for `j` dice kept among the higher faces (partial sums `2j..=sides·j`),
/// the rest show the lowest face, `C(dice, j)` ways; each state one multiply-add into the
/// output. The states' counts are stand-ins of the answer's size (the work depends on sizes).
fn floor_keep_last_layer(answer: &[BigUint], dice: u64, sides: u64, keep: u64) -> Vec<BigUint> {
    let widest = answer.iter().max().cloned().unwrap_or_default();
    let mut out = vec![BigUint::ZERO; answer.len()];
    let mut binomial = BigUint::from(1u32);
    for j in 0..=keep {
        for partial in 2 * j..=sides * j {
            let total = partial + (keep - j);
            let slot = (total - keep) as usize;
            out[slot] += &widest * &binomial;
        }
        binomial = binomial * (dice - j) / (j + 1);
    }
    out
}

fn bounds(c: &mut Criterion) {
    for expression in ["100d6", "1000d6", "100d10kh10"] {
        let case = CoreCase::parse(expression).expect("NdM or NdMkhK");
        let die = case.evaluate().expect(expression);
        let answer = counts(&die);
        let mut group = c.benchmark_group(format!("bounds_{expression}"));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        group.bench_function("fairdice_core", |b| {
            b.iter(|| black_box(case).evaluate().expect(expression))
        });
        group.bench_function("floor_output", |b| {
            b.iter(|| floor_output(black_box(&answer)))
        });
        match case.keep_highest {
            None => {
                let standard = Die::standard(case.sides).expect("a standard die");
                let previous = standard
                    .repeat_sum(case.dice - 1, &Control::new())
                    .expect("one die fewer");
                let previous = counts(&previous);
                let sides = case.sides as usize;
                assert_eq!(floor_convolution(&previous, sides), answer);
                group.bench_function("floor_last_pass", |b| {
                    b.iter(|| floor_convolution(black_box(&previous), sides))
                });
            }
            Some(keep) => {
                group.bench_function("floor_last_pass", |b| {
                    b.iter(|| {
                        floor_keep_last_layer(black_box(&answer), case.dice, case.sides, keep)
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bounds);
criterion_main!(benches);
