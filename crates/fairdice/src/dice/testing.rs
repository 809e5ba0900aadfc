//! Brute-force oracles for tests: enumerate every roll of a few small dice.

use num_bigint::BigUint;

use super::die::{Die, Outcome};

/// `v` as a big count.
pub(crate) fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

/// A fair `dN`.
pub(crate) fn d(sides: u64) -> Die {
    Die::standard(sides).expect("a test die has sides")
}

/// The distribution of `f(rolls)` over every combination of outcomes of `dice`,
/// each weighted by the product of its counts.
pub(crate) fn brute_force(dice: &[&Die], f: impl Fn(&[Outcome]) -> Outcome) -> Die {
    let mut pairs = Vec::new();
    let mut rolls = vec![0; dice.len()];
    let mut weights = vec![BigUint::from(1u32); dice.len() + 1];
    fn walk(
        dice: &[&Die],
        depth: usize,
        rolls: &mut Vec<Outcome>,
        weights: &mut Vec<BigUint>,
        f: &dyn Fn(&[Outcome]) -> Outcome,
        pairs: &mut Vec<(Outcome, BigUint)>,
    ) {
        if depth == dice.len() {
            pairs.push((f(rolls), weights[depth].clone()));
            return;
        }
        for (o, c) in dice[depth].iter() {
            rolls[depth] = o;
            weights[depth + 1] = &weights[depth] * c;
            walk(dice, depth + 1, rolls, weights, f, pairs);
        }
    }
    walk(dice, 0, &mut rolls, &mut weights, &f, &mut pairs);
    Die::new(pairs).expect("brute force sees every roll")
}
