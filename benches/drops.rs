//! Warm, in-process time per call of fairdice on pools that drop a few dice from one
//! end (criterion): a group `drops_<case>` for each row of `cases/drops.tsv` (see
//! `warm.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::DROPS;

#[path = "warm.rs"]
mod warm;

fn drops(c: &mut Criterion) {
    warm::notation_cases(c, "drops", DROPS);
}

criterion_group!(benches, drops);
criterion_main!(benches);
