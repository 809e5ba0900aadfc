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
//! total: every path weight is at most the product of the pool totals. A walk of
//! one pool holds the states whose dice are all assigned apart, in that type, and
//! steps its other buckets in a narrower one, bounded by the dice that can be
//! assigned before the pool settles (`narrow_bits`): `{60d4+60d6+60d8}kh30`
//! steps them in 256 bits, not 512.

mod branches;
mod buckets;
mod by_pool;
mod joins;
mod joint;
mod order;
mod plan;
mod states;
mod workspace;

use num_bigint::BigUint;

use super::{Evaluator, Final, PoolByPool};
use crate::control::{Control, Meter};
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::Order;
use crate::dice::pool::Pool;
use crate::with_count_type;
use buckets::{Buckets, Scratch};
use plan::{Code, PoolPlan, Walk};
use workspace::Workspace;

/// A bucket: the unassigned dice of every group (as a [`Code`]) and, between the
/// pools of a pool-by-pool step, which pool order its states chose.
type Key = (Code, u32);

/// Runs `$body` with `$C` the buckets' count type and `$W` the settled states',
/// for settled states in `$wide`: the first pair listed here for `$wide` whose
/// narrow type holds the buckets' bound `$narrow()` (worked out once, and only if
/// `$wide` has a pair), else `$wide` for both. Each pair is another copy of the
/// walk: one for each step along the curve of mixed pools (3 kinds of 20, 30, 60,
/// 100 and 200 dice, kept half).
macro_rules! with_count_pair {
    ($wide:expr, $narrow:expr, $C:ident, $W:ident => $body:expr) => {
        with_count_pair!(@pairs $wide, $narrow, $C, $W, $body;
            U64 u64, U256 U256;
            U128 u128, U256 U256;
            U256 U256, U512 U512;
            U384 U384, U960 U960;
            U960 U960, Long Long)
    };
    (@pairs $wide:expr, $narrow:expr, $C:ident, $W:ident, $body:expr;
        $($narrow_name:ident $narrow_type:ty, $wide_name:ident $wide_type:ty);*) => {{
        use $crate::dice::count::{CountType as T, Long, U256, U384, U512, U960};
        let bound = std::cell::OnceCell::new();
        let fits = |t: T| *bound.get_or_init($narrow) <= t;
        match $wide {
            $(T::$wide_name if fits(T::$narrow_name) => {
                type $C = $narrow_type;
                type $W = $wide_type;
                $body
            })*
            wide => with_count_type!(wide, $C => {
                type $W = $C;
                $body
            }),
        }
    }};
}

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
    let order = order::walk_order(evaluator.order(), pools);
    let (mut meter, count_type) = sized(pools, control);
    with_count_type!(count_type, C => {
        to_big(run::<C, C, E>(evaluator, pools, order, &mut meter, joint::step::<C, C, E>, true)?)
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
    let order = order::walk_order(evaluator.order(), pools);
    let (mut meter, count_type) = sized(pools, control);
    with_count_type!(count_type, C => {
        to_big(run::<C, C, E>(evaluator, pools, order, &mut meter, by_pool::step::<C, E>, false)?)
    })
}

/// [`evaluate`] for evaluators whose results are outcomes: the result as a [`Die`].
///
/// A walk of one pool steps the buckets not yet settled in the narrowest counts
/// that hold their weight (`narrow_bits`), and only its settled states in counts
/// that hold the total.
///
/// # Errors
/// As [`evaluate`].
pub fn evaluate_die<E: Evaluator<Output = Outcome>>(
    evaluator: &E,
    pools: &[&Pool],
    control: &Control,
) -> Result<Die, DieError> {
    let order = order::walk_order(evaluator.order(), pools);
    let (meter, wide) = sized(pools, control);
    let (mut meter, narrow) = match pools {
        [pool] => {
            let bits = narrow_bits(pool, order);
            let scale = apart_weight_steps(pool, order, total_bits(pools) + 1, bits);
            (meter.scaled(scale), CountType::for_bits(bits))
        }
        _ => (meter, wide),
    };
    let narrow = || narrow;
    with_count_pair!(wide, narrow, C, W => {
        Die::from_sorted_generic(run::<C, W, E>(evaluator, pools, order, &mut meter, joint::step::<C, W, E>, true)?)
    })
}

/// Bits that hold the weight of every bucket of a walk of `pool` in `order` that
/// has not settled: such a bucket has assigned `a` dice, fewer than the ranks
/// after which none counts, chosen among the `n` in at most `C(n, a)` ways, each
/// showing an outcome of weight at most its die's total `T`; so every bucket weighs
/// at most the greatest `C(n, a)·T^a`. (The settled states hold the rest: the
/// remaining dice's `tail^r`, the widest weights of a walk.)
pub(super) fn narrow_bits(pool: &Pool, order: Order) -> u64 {
    let settles_after = u64::from(PoolPlan::new(pool, order, 0..0).settles_after);
    let n = u64::from(pool.size());
    let most = settles_after.saturating_sub(1).min(n);
    let total = pool
        .groups()
        .iter()
        .map(|(die, _)| log2(&die.total()))
        .fold(0.0, f64::max);
    let (mut log, mut greatest) = (0.0f64, 0.0f64);
    for a in 0..most {
        log += ((n - a) as f64 / (a + 1) as f64).log2() + total;
        greatest = greatest.max(log);
    }
    (greatest * (1.0 + 1e-9)).ceil() as u64 + 2
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

/// [`weight_steps`] for the walk of one pool, whose unsettled states weigh at most
/// `narrow` bits ([`narrow_bits`]) and whose branches multiply binomials `C(r, c)`
/// that never pass `c` of about the ranks that still count: a weight update
/// multiplies a total of `wide` bits by the wider of those two, not by a binomial
/// of the whole pool (`3000d6kh10` was charged 16 words a product of 64 bits and
/// 2000d2 kept 1000 of 2000 bits). The powers the branches read are charged as
/// they are made ([`PoolPlan::power_work`]).
fn apart_weight_steps(pool: &Pool, order: Order, wide: u64, narrow: u64) -> u64 {
    let words = wide / 64 + 1;
    match CountType::for_bits(wide) {
        CountType::U64 | CountType::U128 => 1,
        CountType::Long | CountType::Big => {
            let n = u64::from(pool.size());
            let counted = u64::from(PoolPlan::new(pool, order, 0..0).settles_after);
            // `C(r, c) <= r^c`, and a walk that does not settle by complement reads
            // rows of at most twice the counted ranks: `C(r, c) <= 2^r`.
            let per_rank = (u64::BITS - n.leading_zeros()).max(2);
            let binomial = n.min(counted.saturating_mul(u64::from(per_rank))) + 1;
            let other = narrow.max(binomial) / 64 + 1;
            (words * other.min(words)).div_ceil(4)
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
type Step<C, W, E> = fn(
    &E,
    &mut Walk<W>,
    usize,
    &mut Buckets<<E as Evaluator>::State, C, W>,
    &mut Buckets<<E as Evaluator>::State, C, W>,
    &mut Scratch<<E as Evaluator>::State, C, W>,
    &mut Meter,
) -> Result<(), DieError>;

/// Walks every outcome in `order`; the results ascending, each with its total
/// weight. Buckets count in `C`; with `apart`, the states whose dice are all
/// assigned are held apart and count in `W`, which `C` must then only hold the
/// weight of unsettled buckets in ([`narrow_bits`]); without, `C` is `W`.
fn run<C: Count, W: Count, E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    order: Order,
    meter: &mut Meter,
    step: Step<C, W, E>,
    apart: bool,
) -> Result<Vec<(E::Output, W)>, DieError> {
    // Every outcome of every kind of die is held with its count, in the walk's
    // plan and its scratch space: priced before any of it is built.
    let outcomes: u64 = pools
        .iter()
        .flat_map(|p| p.groups())
        .map(|(die, _)| die.len() as u64)
        .sum();
    let per_outcome = 2 * std::mem::size_of::<W>() as u64 + 32;
    meter
        .control()
        .reserve(outcomes.saturating_mul(per_outcome))?;
    let mut walk = Walk::<W>::new(pools, order)?;
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
    let mut space = Workspace::<E::State, C, W>::take(indexed, table_codes, apart);
    let start = (start, weight, initial);
    let results = walk_all(evaluator, &mut walk, &mut space, meter, step, kinds, start);
    space.keep();
    results
}

/// [`run`]'s walk over every outcome of `walk` (of `kinds` kinds of dice) in
/// `space`, from the bucket `start` (every die unassigned) holding `initial` with
/// weight `weight`.
fn walk_all<C: Count, W: Count, E: Evaluator>(
    evaluator: &E,
    walk: &mut Walk<W>,
    space: &mut Workspace<E::State, C, W>,
    meter: &mut Meter,
    step: Step<C, W, E>,
    kinds: u64,
    (start, weight, initial): (Code, W, E::State),
) -> Result<Vec<(E::Output, W)>, DieError> {
    let Workspace {
        buckets,
        spare,
        scratch,
    } = space;
    match buckets.target(start) {
        Some(first) => buckets.add(evaluator, first, initial, weight.convert()),
        None => buckets.settled.add(evaluator, initial, weight),
    }
    for s in 0..walk.outcomes.len() {
        // A step also starts every kind's powers and branch tables afresh.
        meter.charge(buckets.len() + 4 * kinds)?;
        walk.start_step(s);
        if walk.joins_at(s) {
            rekey(evaluator, walk, s, buckets, spare, scratch);
        }
        step(evaluator, walk, s, buckets, spare, scratch, meter)?;
    }

    let mut results: Vec<(E::Output, W)> = Vec::new();
    for (key, states) in buckets.keys.iter().zip(&mut buckets.states) {
        debug_assert_eq!(key.0, 0, "every die is assigned at the end");
        states.drain_into(&mut scratch.states);
        for (state, weight) in scratch.states.drain(..) {
            if let Final::Value(value) = evaluator.final_outcome(&state)? {
                results.push((value, weight.convert()));
            }
        }
    }
    buckets.settled.drain_into(&mut scratch.settled);
    for (state, weight) in scratch.settled.drain(..) {
        if let Final::Value(value) = evaluator.final_outcome(&state)? {
            results.push((value, weight));
        }
    }
    Ok(merge_sorted(results))
}

/// Moves every bucket to its code after the groups that join at `step` have joined,
/// merging the buckets that differed only in how those groups split their dice.
fn rekey<C: Count, W: Count, E: Evaluator>(
    evaluator: &E,
    walk: &Walk<W>,
    step: usize,
    buckets: &mut Buckets<E::State, C, W>,
    spare: &mut Buckets<E::State, C, W>,
    scratch: &mut Scratch<E::State, C, W>,
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
    // The settled states have no dice to join.
    std::mem::swap(&mut buckets.settled, &mut spare.settled);
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
