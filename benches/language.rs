//! Warm, in-process time per call of fairdice on the dice-language cases (criterion):
//! a group `language_<case>` for each row of `cases/language.tsv` (see `warm.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::LANGUAGE;

#[path = "warm.rs"]
mod warm;

fn language(c: &mut Criterion) {
    warm::notation_cases(c, "language", LANGUAGE);
}

criterion_group!(benches, language);
criterion_main!(benches);
