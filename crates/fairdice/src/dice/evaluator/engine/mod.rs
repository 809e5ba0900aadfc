//! The evaluation engine: a dynamic programme over outcomes, not over rolls.
//!
//! # Design decisions
//! Outcomes are visited one at a time. For every group of identical dice with `r`
//! dice still unassigned, the engine branches on how many `c` of them show the
//! current outcome, with weight `C(r, c)·w^c`; the evaluator folds the counted dice
//! into its state, and equal `(state, unassigned dice)` pairs merge. The work is
//! therefore polynomial in the pool size.
//!
//! Keep patterns make this cheap for keep-highest and friends: once a pool has
//! consumed every rank that counts, its remaining dice can only show later outcomes
//! and no longer matter to the evaluator, so they are settled at once with weight
//! `tail^r` (the total weight of the outcomes still to come). Which outcomes a pool
//! produces at a step depends only on its unassigned dice, never on the evaluator's
//! state, so those branches are computed once per step and shared by every state.
//!
//! Mixed pools follow the same rule through two more merges. A pool of several
//! kinds only branches on splits of the shown dice that leave some counted rank
//! unfilled; every split that fills them settles the pool in one branch, whose
//! weight is a convolution capped at the ranks still needed. And kinds whose dice
//! behave alike for the rest of the walk (d4, d6 and d8 from the top, once the walk
//! reaches 4) join into one count, so buckets that split those dice differently
//! merge. The walk direction is then chosen per evaluation from a count of the
//! buckets each direction holds (`order`). `{30d4+30d6+30d8}kh15` so went from 3.3 s
//! to about a millisecond.
//!
//! With several pools, a plain [`Evaluator`] sees all their counts at once, so one
//! step costs the *product* of the pools' branches per state. An evaluator that also
//! implements [`PoolByPool`] is stepped one pool at a time
//! ([`evaluate_by_pool`]): states merge between the pools, and a step costs the
//! *sum* of their branches. That is what makes two opposed pools of twenty dice cheap.
//!
//! The count type (u64, u128 or big integers) is chosen once from a bound on the
//! total: every path weight is at most the product of the pool totals.

mod branches;
mod buckets;
mod by_pool;
mod joins;
mod joint;
mod order;
mod plan;
mod states;

use num_bigint::BigUint;

use super::{Evaluator, Final, PoolByPool};
use crate::control::{Control, Meter};
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;
use crate::with_count_type;
use buckets::{Buckets, Scratch};
use plan::{Code, Walk};

/// A bucket: the unassigned dice of every group (as a [`Code`]) and, between the
/// pools of a pool-by-pool step, which pool order its states chose.
type Key = (Code, u32);

/// Evaluates over every possible roll of the pools: each distinct result with its
/// exact count, ascending. Rerolled rolls are left out, so the counts sum to the
/// weight of the rolls that were kept. The work is metered against `control`.
///
/// # Errors
/// Whatever the evaluator returns; [`DieError::Empty`] if every roll is rerolled;
/// [`DieError::Stopped`] past the control's budget or once it is cancelled.
pub fn evaluate<E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    control: &Control,
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    let (mut meter, count_type) = sized(pools, control);
    with_count_type!(count_type, C => {
        to_big(run::<C, E>(evaluator, pools, &mut meter, joint::step::<C, E>)?)
    })
}

/// [`evaluate`] for an evaluator that takes the pools one at a time at each outcome:
/// the same results, but a step costs the sum of the pools' branches instead of
/// their product.
///
/// # Errors
/// As [`evaluate`].
pub fn evaluate_by_pool<E: PoolByPool>(
    evaluator: &E,
    pools: &[&Pool],
    control: &Control,
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    let (mut meter, count_type) = sized(pools, control);
    with_count_type!(count_type, C => {
        to_big(run::<C, E>(evaluator, pools, &mut meter, by_pool::step::<C, E>)?)
    })
}

/// [`evaluate`] for evaluators whose results are outcomes: the result as a [`Die`].
///
/// # Errors
/// As [`evaluate`].
pub fn evaluate_die<E: Evaluator<Output = Outcome>>(
    evaluator: &E,
    pools: &[&Pool],
    control: &Control,
) -> Result<Die, DieError> {
    let (mut meter, count_type) = sized(pools, control);
    with_count_type!(count_type, C => {
        Die::from_sorted_generic(run::<C, E>(evaluator, pools, &mut meter, joint::step::<C, E>)?)
    })
}

/// Results in big integers; an empty result means every roll was rerolled.
fn to_big<T, C: Count>(results: Vec<(T, C)>) -> Result<Vec<(T, BigUint)>, DieError> {
    if results.is_empty() {
        return Err(DieError::Empty);
    }
    Ok(results.into_iter().map(|(o, c)| (o, c.to_big())).collect())
}

/// Steps one weight update costs: a state's weight (up to the total's bits) times
/// a branch's binomial (up to a pool's dice in bits), about a step per four pairs
/// of 64-bit words; machine-word counts cost one. The fixed widths multiply all
/// their words. (`65536d20df>2kh`, weights of 283,000 bits, was charged a step a
/// product and ran for minutes inside a budget of seconds.)
fn weight_steps(pools: &[&Pool], bits: u64) -> u64 {
    let words = bits / 64 + 1;
    match CountType::for_bits(bits) {
        CountType::U64 | CountType::U128 => 1,
        CountType::Long | CountType::Big => {
            let dice = pools
                .iter()
                .flat_map(|p| p.groups())
                .map(|(_, n)| u64::from(*n))
                .max()
                .unwrap_or(1);
            let binomial_words = (dice / 64 + 1).min(words);
            (words * binomial_words).div_ceil(4)
        }
        _ => (words * words).div_ceil(4),
    }
}

/// Bits of the product of the totals of every die rolled, at least one a die.
///
/// From the sum of the totals' logarithms, not of their bit lengths: a d4's total
/// takes three bits but multiplies by four, so bit lengths overstate a pool of
/// d4s, d6s and d8s by a third and pushed `{60d4+60d6+60d8}kh30` into the widest
/// inline counts where 512 bits hold every weight. The margin covers the rounding of `f64`.
fn total_bits(pools: &[&Pool]) -> u64 {
    let log: f64 = pools
        .iter()
        .flat_map(|p| p.groups())
        .map(|(die, n)| f64::from(*n) * log2(&die.total()).max(1.0))
        .sum();
    (log * (1.0 + 1e-9)).ceil() as u64 + 1
}

/// `log2(value)` to about 53 bits, from its top word; 0 for zero.
fn log2(value: &BigUint) -> f64 {
    let bits = value.bits();
    if bits <= 64 {
        return value
            .to_u64_digits()
            .first()
            .map_or(0.0, |&v| (v as f64).log2());
    }
    let top = value >> (bits - 64);
    let top = top.to_u64_digits()[0] as f64;
    top.log2() + (bits - 64) as f64
}

/// The evaluation's meter, priced per weight update ([`weight_steps`]), and its count
/// type, both from one bound on the total: the product of the totals of every die
/// rolled, and at least `2^n` so that binomial coefficients fit too.
fn sized(pools: &[&Pool], control: &Control) -> (Meter, CountType) {
    let bits = total_bits(pools) + 1;
    let meter = control.meter().scaled(weight_steps(pools, bits));
    (meter, CountType::for_bits(bits))
}

/// Steps an evaluation costs before its first outcome: the walk's tables and the
/// layers of buckets, allocated afresh.
const SETUP: u64 = 256;

/// One step of the walk: every state of `current` sees the outcome at `step`; the
/// result is left in `current`, and `spare` is scratch space.
type Step<C, E> = fn(
    &E,
    &mut Walk<C>,
    usize,
    &mut Buckets<<E as Evaluator>::State, C>,
    &mut Buckets<<E as Evaluator>::State, C>,
    &mut Scratch<<E as Evaluator>::State, C>,
    &mut Meter,
) -> Result<(), DieError>;

/// Walks every outcome; the results ascending, each with its total weight.
fn run<C: Count, E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
    step: Step<C, E>,
) -> Result<Vec<(E::Output, C)>, DieError> {
    // Every outcome of every kind of die is held with its count, in the walk's
    // plan and its scratch space: priced before any of it is built.
    let outcomes: u64 = pools
        .iter()
        .flat_map(|p| p.groups())
        .map(|(die, _)| die.len() as u64)
        .sum();
    let per_outcome = 2 * std::mem::size_of::<C>() as u64 + 32;
    meter
        .control()
        .reserve(outcomes.saturating_mul(per_outcome))?;
    let mut walk = Walk::<C>::new(pools, order::walk_order(evaluator.order(), pools))?;
    // Laying every kind's weights out over every outcome, and comparing the kinds
    // of a pool to find where they join: a mixture of exploding pools evaluates
    // thousands of small pools, for which this is most of the work.
    let kinds = pools.iter().map(|p| p.groups().len() as u64).sum::<u64>();
    meter.charge((walk.outcomes.len() as u64).saturating_mul(kinds * (kinds + 2)) + SETUP)?;
    // States are kept in buckets by their unassigned dice: every state of a bucket
    // has the same branches, so those are worked out once per bucket and step.
    let (start, weight) = walk.start();
    let initial = evaluator.initial_state();
    let indexed = evaluator.state_index(&initial).is_some();
    let dice: u32 = pools.iter().map(|p| p.size()).sum();
    let table_codes = 64 * (Code::from(dice) + 1);
    let mut buckets = Buckets::<E::State, C>::new(indexed, table_codes);
    let mut spare = Buckets::<E::State, C>::new(indexed, table_codes);
    let mut scratch = Scratch::default();
    let first = buckets.index((start, 0));
    buckets.add(evaluator, first, initial, weight);
    for s in 0..walk.outcomes.len() {
        // A step also starts every kind's powers and branch tables afresh.
        meter.charge(buckets.len() + 4 * kinds)?;
        walk.start_step(s);
        if walk.joins_at(s) {
            rekey(evaluator, &walk, s, &mut buckets, &mut spare, &mut scratch);
        }
        step(
            evaluator,
            &mut walk,
            s,
            &mut buckets,
            &mut spare,
            &mut scratch,
            meter,
        )?;
    }

    let mut results: Vec<(E::Output, C)> = Vec::new();
    for (key, mut states) in buckets.keys.iter().zip(buckets.states) {
        debug_assert_eq!(key.0, 0, "every die is assigned at the end");
        states.drain_into(&mut scratch.states);
        for (state, weight) in scratch.states.drain(..) {
            if let Final::Value(value) = evaluator.final_outcome(&state)? {
                results.push((value, weight));
            }
        }
    }
    Ok(merge_sorted(results))
}

/// Moves every bucket to its code after the groups that join at `step` have joined,
/// merging the buckets that differed only in how those groups split their dice.
fn rekey<C: Count, E: Evaluator>(
    evaluator: &E,
    walk: &Walk<C>,
    step: usize,
    buckets: &mut Buckets<E::State, C>,
    spare: &mut Buckets<E::State, C>,
    scratch: &mut Scratch<E::State, C>,
) {
    for (key, states) in buckets.keys.iter().zip(&mut buckets.states) {
        let target = spare.index((walk.join(step, key.0), key.1));
        if spare.states[target].len() == 0 {
            std::mem::swap(states, &mut spare.states[target]);
        } else {
            states.drain_into(&mut scratch.states);
            for (state, weight) in scratch.states.drain(..) {
                spare.add(evaluator, target, state, weight);
            }
        }
    }
    buckets.clear();
    std::mem::swap(buckets, spare);
}

/// Sorts results and adds up the weights of equal ones.
fn merge_sorted<T: Ord, C: Count>(mut results: Vec<(T, C)>) -> Vec<(T, C)> {
    results.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut merged: Vec<(T, C)> = Vec::with_capacity(results.len());
    for (value, weight) in results {
        match merged.last_mut() {
            Some((last, acc)) if *last == value => acc.add_assign(&weight),
            _ => merged.push((value, weight)),
        }
    }
    merged
}

#[cfg(test)]
mod mixed_tests;
#[cfg(test)]
mod tests;
