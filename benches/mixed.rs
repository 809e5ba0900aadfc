//! Warm, in-process time per call of fairdice on the mixed pools of issue 19 (criterion):
//! a group `mixed_<case>` for each row of `cases/mixed.tsv` (see `warm.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::MIXED;

#[path = "warm.rs"]
mod warm;

fn mixed(c: &mut Criterion) {
    warm::notation_cases(c, "mixed", MIXED);
}

criterion_group!(benches, mixed);
criterion_main!(benches);
