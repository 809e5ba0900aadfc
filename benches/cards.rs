//! Warm, in-process time per call of fairdice on the decks, deals and matching
//! sets of issue 40 (criterion): a group `cards_<case>` for each row of
//! `cases/cards.tsv` (see `warm.rs`).

use criterion::{Criterion, criterion_group, criterion_main};
use fairdice_bench::cases::CARDS;

#[path = "warm.rs"]
mod warm;

fn cards(c: &mut Criterion) {
    warm::notation_cases(c, "cards", CARDS);
}

criterion_group!(benches, cards);
criterion_main!(benches);
