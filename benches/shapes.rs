//! Warm, in-process time per call of fairdice on other pool shapes (criterion): drops
//! from both ends and compounding explosions, a group `shapes_<case>` for each row of
//! `cases/shapes.tsv` (see `warm.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::SHAPES;

#[path = "warm.rs"]
mod warm;

fn shapes(c: &mut Criterion) {
    warm::notation_cases(c, "shapes", SHAPES);
}

criterion_group!(benches, shapes);
criterion_main!(benches);
