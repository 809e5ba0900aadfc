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
//! The count type (u64, u128 or big integers) is chosen once from a bound on the
//! total: every path weight is at most the product of the pool totals.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use num_bigint::BigUint;
use smallvec::SmallVec;

use super::{Evaluator, Final, Order};
use crate::dice::budget::Meter;
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;
use crate::with_count_type;

/// Unassigned dice per group of every pool, in pool order.
type Remaining = SmallVec<[u32; 4]>;
/// Unassigned dice per group of one pool.
type PoolRemaining = SmallVec<[u32; 2]>;
/// A pool's branches at one step, by its unassigned dice.
type BranchCache<C> = HashMap<PoolRemaining, Vec<Branch<C>>>;

/// Evaluates over every possible roll of the pools: each distinct result with its
/// exact count, ascending. Rerolled rolls are left out, so the counts sum to the
/// weight of the rolls that were kept.
///
/// # Errors
/// Whatever the evaluator returns; [`DieError::Empty`] if every roll is rerolled.
pub fn evaluate<E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    evaluate_metered(evaluator, pools, &mut Meter::unlimited())
}

/// [`evaluate`] under a work budget that can also be cancelled.
///
/// # Errors
/// As [`evaluate`], plus the meter's budget and cancellation errors.
pub fn evaluate_metered<E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    with_count_type!(count_type(pools), C => {
        let results = run::<C, E>(evaluator, pools, meter)?;
        if results.is_empty() {
            return Err(DieError::Empty);
        }
        Ok(results.into_iter().map(|(o, c)| (o, c.to_big())).collect())
    })
}

/// [`evaluate`] for evaluators whose results are outcomes: the result as a [`Die`].
///
/// # Errors
/// As [`evaluate`].
pub fn evaluate_die<E: Evaluator<Output = Outcome>>(
    evaluator: &E,
    pools: &[&Pool],
) -> Result<Die, DieError> {
    evaluate_die_metered(evaluator, pools, &mut Meter::unlimited())
}

/// [`evaluate_die`] under a work budget.
///
/// # Errors
/// As [`evaluate_metered`].
pub fn evaluate_die_metered<E: Evaluator<Output = Outcome>>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
) -> Result<Die, DieError> {
    with_count_type!(count_type(pools), C => {
        Die::from_sorted_generic(run::<C, E>(evaluator, pools, meter)?)
    })
}

/// A bound on the total: the product of the totals of every die rolled, and at least
/// `2^n` so that binomial coefficients fit too.
fn count_type(pools: &[&Pool]) -> CountType {
    let bits: u64 = pools
        .iter()
        .flat_map(|p| p.groups())
        .map(|(die, n)| u64::from(*n) * die.total().bits().max(1))
        .sum();
    CountType::for_bits(bits + 1)
}

/// One group of identical dice, with its weights laid out in walk order.
struct Group<C> {
    size: u32,
    /// Weight of each outcome (zero where the die cannot show it).
    weights: Vec<C>,
    /// `tails[t]`: total weight of the outcomes after step `t`.
    tails: Vec<C>,
    /// The group's total weight (for a pool that counts none of its dice).
    total: C,
    /// `w^c` for the current step's weight `w`, `c = 0..=size`.
    shown_powers: Vec<C>,
    /// `tail^j` for the current step's tail, `j = 0..=size`.
    tail_powers: Vec<C>,
    /// Rows of Pascal's triangle, filled on first use.
    binomial_rows: Vec<Vec<C>>,
}

/// A pool's keep pattern in walk order.
struct PoolPlan {
    groups: std::ops::Range<usize>,
    size: u32,
    /// `kept_before[i]`: how many of the first `i` ranks in walk order count.
    kept_before: Vec<u32>,
    /// Ranks consumed after which no further die counts.
    settles_after: u32,
}

/// One way a pool's unassigned dice can show the current outcome.
struct Branch<C> {
    remaining: PoolRemaining,
    counted: u32,
    weight: C,
}

/// Evaluator states grouped by the unassigned dice they share.
struct Buckets<S, C> {
    keys: Vec<Remaining>,
    states: Vec<HashMap<S, C>>,
    index: HashMap<Remaining, usize>,
}

impl<S, C> Default for Buckets<S, C> {
    fn default() -> Self {
        Buckets {
            keys: Vec::new(),
            states: Vec::new(),
            index: HashMap::default(),
        }
    }
}

impl<S, C> Buckets<S, C> {
    /// The bucket of `remaining`, created empty if new.
    fn index(&mut self, remaining: Remaining) -> usize {
        if let Some(&i) = self.index.get(&remaining) {
            return i;
        }
        let i = self.keys.len();
        self.index.insert(remaining.clone(), i);
        self.keys.push(remaining);
        self.states.push(HashMap::default());
        i
    }
}

/// One joint branch of every pool from a bucket: the counted dice per pool, the
/// bucket it leads to, and its weight (`None` for weight one).
struct Move<C> {
    counts: SmallVec<[u32; 4]>,
    target: usize,
    weight: Option<C>,
}

/// Every joint branch from the bucket `remaining` at `step`.
fn moves<S, C: Count>(
    plans: &[PoolPlan],
    groups: &mut [Group<C>],
    branch_cache: &mut [BranchCache<C>],
    step: usize,
    remaining: &Remaining,
    next: &mut Buckets<S, C>,
) -> Vec<Move<C>> {
    let mut per_pool: Vec<&[Branch<C>]> = Vec::with_capacity(plans.len());
    for (p, plan) in plans.iter().enumerate() {
        let key: PoolRemaining = remaining[plan.groups.clone()].iter().copied().collect();
        branch_cache[p]
            .entry(key)
            .or_insert_with_key(|key| plan.branches(groups, step, key));
    }
    for (p, plan) in plans.iter().enumerate() {
        let key: PoolRemaining = remaining[plan.groups.clone()].iter().copied().collect();
        per_pool.push(&branch_cache[p][&key]);
    }
    let mut moves = Vec::new();
    if per_pool.iter().any(|b| b.is_empty()) {
        return moves;
    }
    let mut choice = vec![0usize; plans.len()];
    loop {
        let mut target = remaining.clone();
        let mut counts = SmallVec::new();
        let mut weight: Option<C> = None;
        for (p, plan) in plans.iter().enumerate() {
            let branch = &per_pool[p][choice[p]];
            counts.push(branch.counted);
            target[plan.groups.clone()].copy_from_slice(&branch.remaining);
            if !branch.weight.is_one() {
                weight = Some(match weight {
                    Some(w) => w.times(&branch.weight),
                    None => branch.weight.clone(),
                });
            }
        }
        moves.push(Move {
            counts,
            target: next.index(target),
            weight,
        });
        // Advance the odometer over one branch per pool.
        let mut p = 0;
        loop {
            if p == choice.len() {
                return moves;
            }
            choice[p] += 1;
            if choice[p] < per_pool[p].len() {
                break;
            }
            choice[p] = 0;
            p += 1;
        }
    }
}

fn run<C: Count, E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
) -> Result<BTreeMap<E::Output, C>, DieError> {
    let order = walk_order(evaluator.order(), pools);
    let mut outcomes: Vec<Outcome> = pools
        .iter()
        .flat_map(|p| p.groups())
        .flat_map(|(die, _)| die.outcomes().iter().copied())
        .collect();
    outcomes.sort_unstable();
    outcomes.dedup();
    if order == Order::Descending {
        outcomes.reverse();
    }

    let mut groups: Vec<Group<C>> = Vec::new();
    let mut plans: Vec<PoolPlan> = Vec::new();
    for pool in pools {
        let start = groups.len();
        for (die, n) in pool.groups() {
            groups.push(Group::new(die, *n, &outcomes));
        }
        plans.push(PoolPlan::new(pool, order, start..groups.len()));
    }

    // States are kept in buckets by their unassigned dice: every state of a bucket
    // has the same branches, so those are worked out once per bucket and step.
    let mut start_weight = C::one();
    let mut start_remaining: Remaining = groups.iter().map(|g| g.size).collect();
    // A pool that counts none of its dice settles before the first outcome.
    for plan in &plans {
        if plan.settles_after == 0 {
            for g in plan.groups.clone() {
                start_weight = start_weight.times(&groups[g].total.pow(groups[g].size));
                start_remaining[g] = 0;
            }
        }
    }
    let mut buckets = Buckets::<E::State, C>::default();
    let first = buckets.index(start_remaining);
    buckets.states[first].insert(evaluator.initial_state(), start_weight);

    for (step, &outcome) in outcomes.iter().enumerate() {
        meter.charge(buckets.states.iter().map(|b| b.len() as u64).sum())?;
        for group in &mut groups {
            group.start_step(step);
        }
        let mut branch_cache: Vec<BranchCache<C>> =
            (0..pools.len()).map(|_| HashMap::default()).collect();
        let mut next = Buckets::<E::State, C>::default();
        for (remaining, states) in buckets.keys.into_iter().zip(buckets.states) {
            let moves = moves(
                &plans,
                &mut groups,
                &mut branch_cache,
                step,
                &remaining,
                &mut next,
            );
            for (state, weight) in states {
                for m in &moves {
                    meter.charge(1)?;
                    let new_state = evaluator.next_state(&state, outcome, &m.counts)?;
                    let w = match &m.weight {
                        Some(factor) => weight.times(factor),
                        None => weight.clone(),
                    };
                    next.states[m.target]
                        .entry(new_state)
                        .and_modify(|acc| acc.add_assign(&w))
                        .or_insert(w);
                }
            }
        }
        buckets = next;
    }

    let mut results: BTreeMap<E::Output, C> = BTreeMap::new();
    for (remaining, states) in buckets.keys.iter().zip(buckets.states) {
        debug_assert!(remaining.iter().all(|&r| r == 0));
        for (state, weight) in states {
            if let Final::Value(value) = evaluator.final_outcome(&state)? {
                results
                    .entry(value)
                    .and_modify(|acc| acc.add_assign(&weight))
                    .or_insert(weight);
            }
        }
    }
    Ok(results)
}

/// Resolves [`Order::Any`]: walk from the side where the counted ranks are, so pools
/// settle early.
fn walk_order(preferred: Order, pools: &[&Pool]) -> Order {
    if preferred != Order::Any {
        return preferred;
    }
    let consumed = |pattern: &[bool]| pattern.iter().rposition(|&k| k).map_or(0, |i| i + 1);
    let (mut from_top, mut from_bottom) = (0, 0);
    for pool in pools {
        let mut pattern = pool.keep_pattern();
        from_top += consumed(&pattern);
        pattern.reverse();
        from_bottom += consumed(&pattern);
    }
    if from_bottom < from_top {
        Order::Ascending
    } else {
        Order::Descending
    }
}

impl<C: Count> Group<C> {
    fn new(die: &Die, size: u32, outcomes: &[Outcome]) -> Self {
        let counts: Vec<C> = die.generic_counts();
        let weights: Vec<C> = outcomes
            .iter()
            .map(|o| match die.outcomes().binary_search(o) {
                Ok(i) => counts[i].clone(),
                Err(_) => C::zero(),
            })
            .collect();
        let mut tails = vec![C::zero(); weights.len()];
        for t in (0..weights.len().saturating_sub(1)).rev() {
            let mut tail = tails[t + 1].clone();
            tail.add_assign(&weights[t + 1]);
            tails[t] = tail;
        }
        let mut total = C::zero();
        for w in &weights {
            total.add_assign(w);
        }
        Group {
            size,
            weights,
            tails,
            total,
            shown_powers: Vec::new(),
            tail_powers: Vec::new(),
            binomial_rows: vec![Vec::new(); size as usize + 1],
        }
    }
}

impl PoolPlan {
    fn new(pool: &Pool, order: Order, groups: std::ops::Range<usize>) -> Self {
        let mut pattern = pool.keep_pattern();
        if order == Order::Ascending {
            pattern.reverse();
        }
        let mut kept_before = Vec::with_capacity(pattern.len() + 1);
        kept_before.push(0);
        for &k in &pattern {
            kept_before.push(kept_before.last().copied().unwrap_or(0) + u32::from(k));
        }
        let settles_after = pattern.iter().rposition(|&k| k).map_or(0, |i| i + 1) as u32;
        PoolPlan {
            groups,
            size: pool.size(),
            kept_before,
            settles_after,
        }
    }

    /// Every way this pool's unassigned dice (`remaining`, one entry per group) can
    /// show the outcome at `step`, merged by result.
    fn branches<C: Count>(
        &self,
        groups: &mut [Group<C>],
        step: usize,
        remaining: &[u32],
    ) -> Vec<Branch<C>> {
        let consumed = self.size - remaining.iter().sum::<u32>();
        // Per group: (c, C(r, c)·w^c) for each feasible c.
        let per_group: Vec<Vec<(u32, C)>> = groups[self.groups.clone()]
            .iter_mut()
            .zip(remaining)
            .map(|(g, &r)| g.choices(step, r))
            .collect();
        let group_slice = &groups[self.groups.clone()];
        let mut merged: Vec<Branch<C>> = Vec::new();
        let mut choice = vec![0usize; per_group.len()];
        if per_group.iter().any(Vec::is_empty) {
            return merged;
        }
        loop {
            let mut weight = C::one();
            let mut shown = 0u32;
            let mut left: PoolRemaining = SmallVec::new();
            for (i, options) in per_group.iter().enumerate() {
                let (c, w) = &options[choice[i]];
                weight = weight.times(w);
                shown += c;
                left.push(remaining[i] - c);
            }
            let after = consumed + shown;
            let counted = self.kept_before[after as usize] - self.kept_before[consumed as usize];
            let mut feasible = true;
            if after >= self.settles_after {
                // No later rank counts: settle the rest on the outcomes still to come.
                for (g, r) in group_slice.iter().zip(left.iter_mut()) {
                    if *r > 0 {
                        weight = weight.times(&g.tail_powers[*r as usize]);
                        *r = 0;
                    }
                }
            } else {
                for (g, &r) in group_slice.iter().zip(left.iter()) {
                    if r > 0 && g.tails[step].is_zero() {
                        feasible = false;
                    }
                }
            }
            if feasible && !weight.is_zero() {
                match merged
                    .iter_mut()
                    .find(|b| b.counted == counted && b.remaining == left)
                {
                    Some(b) => b.weight.add_assign(&weight),
                    None => merged.push(Branch {
                        remaining: left,
                        counted,
                        weight,
                    }),
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    return merged;
                }
                choice[i] += 1;
                if choice[i] < per_group[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

impl<C: Count> Group<C> {
    /// Prepares the powers of this step's weights, once per step.
    fn start_step(&mut self, step: usize) {
        let powers = |base: &C| {
            let mut v = Vec::with_capacity(self.size as usize + 1);
            let mut p = C::one();
            for _ in 0..=self.size {
                v.push(p.clone());
                p = p.times(base);
            }
            v
        };
        self.shown_powers = powers(&self.weights[step]);
        self.tail_powers = powers(&self.tails[step]);
    }

    /// `C(r, c)` for `c = 0..=r`, computed once per `r`.
    fn binomials(&mut self, r: u32) -> &[C] {
        let row = &mut self.binomial_rows[r as usize];
        if row.is_empty() {
            let mut b = BigUint::from(1u32);
            for c in 0..=r {
                row.push(C::from_big(&b));
                b = b * (r - c) / (c + 1);
            }
        }
        row
    }

    /// `(c, C(r, c)·w^c)` for every count `c` of this group's `r` unassigned dice that
    /// can show the outcome at `step`.
    fn choices(&mut self, step: usize, r: u32) -> Vec<(u32, C)> {
        if r == 0 || self.weights[step].is_zero() {
            return vec![(0, C::one())];
        }
        let binomials = self.binomials(r).to_vec();
        (0..=r)
            .map(|c| {
                (
                    c,
                    binomials[c as usize].times(&self.shown_powers[c as usize]),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::evaluator::SumOf;
    use crate::dice::testing::{brute_force, d};

    /// Keep-by-rank oracle: sort each roll descending and add the kept ranks.
    fn keep_oracle(dice: &[&Die], pattern: &[bool]) -> Die {
        brute_force(dice, |v| {
            let mut v = v.to_vec();
            v.sort_unstable_by(|a, b| b.cmp(a));
            v.iter()
                .zip(pattern)
                .filter(|(_, k)| **k)
                .map(|(x, _)| x)
                .sum()
        })
    }

    #[test]
    fn every_keep_pattern_of_four_dice_matches_brute_force() {
        let odd = Die::new([(-1, 2u32), (0, 1), (3, 1)]).unwrap();
        for die in [d(4), odd] {
            let dice = [&die, &die, &die, &die];
            for mask in 0..16u32 {
                let pattern: Vec<bool> = (0..4).map(|i| mask & (1 << i) != 0).collect();
                let pool = Pool::new(&die, 4)
                    .unwrap()
                    .with_keep_pattern(pattern.clone())
                    .unwrap();
                let got = evaluate_die(&SumOf::identity(), &[&pool]).unwrap();
                assert_eq!(got, keep_oracle(&dice, &pattern), "{pattern:?}");
            }
        }
    }

    #[test]
    fn mixed_pools_match_brute_force_in_both_orders() {
        let (d4, d6) = (d(4), d(6));
        let dice = [&d4, &d4, &d6];
        for (k, pattern) in [(2, vec![true, true, false]), (1, vec![false, false, true])] {
            let pool = Pool::mixed([(d4.clone(), 2), (d6.clone(), 1)]).unwrap();
            let pool = if k == 2 {
                pool.keep_highest(2)
            } else {
                pool.keep_lowest(1)
            };
            assert_eq!(pool.keep_pattern(), pattern);
            let got = evaluate_die(&SumOf::identity(), &[&pool]).unwrap();
            assert_eq!(got, keep_oracle(&dice, &pattern));
        }
    }

    /// Sees outcomes in a fixed order and records them, to test both walks.
    struct Ordered(Order);
    impl Evaluator for Ordered {
        type State = Vec<(Outcome, u32)>;
        type Output = Outcome;
        fn initial_state(&self) -> Self::State {
            Vec::new()
        }
        fn next_state(
            &self,
            s: &Self::State,
            o: Outcome,
            c: &[u32],
        ) -> Result<Self::State, DieError> {
            let mut s = s.clone();
            s.push((o, c[0]));
            Ok(s)
        }
        fn final_outcome(&self, s: &Self::State) -> Result<Final<Outcome>, DieError> {
            // Encode "highest die minus lowest die" computed from the sequence.
            let shown: Vec<Outcome> = s.iter().filter(|(_, c)| *c > 0).map(|(o, _)| *o).collect();
            let ascending = self.0 == Order::Ascending;
            let (lo, hi) = if ascending {
                (shown[0], shown[shown.len() - 1])
            } else {
                (shown[shown.len() - 1], shown[0])
            };
            Ok(Final::Value(hi - lo))
        }
        fn order(&self) -> Order {
            self.0
        }
    }

    #[test]
    fn both_orders_see_every_outcome_in_turn() {
        let d5 = d(5);
        let expected = brute_force(&[&d5, &d5, &d5], |v| {
            v.iter().max().unwrap() - v.iter().min().unwrap()
        });
        for order in [Order::Ascending, Order::Descending] {
            let pool = Pool::new(&d5, 3).unwrap();
            assert_eq!(
                evaluate_die(&Ordered(order), &[&pool]).unwrap(),
                expected,
                "{order:?}"
            );
        }
    }

    /// Rerolls any roll whose dice all match: conditioning.
    struct NoDoubles;
    impl Evaluator for NoDoubles {
        type State = (Outcome, u32);
        type Output = Outcome;
        fn initial_state(&self) -> (Outcome, u32) {
            (0, 0)
        }
        fn next_state(
            &self,
            s: &(Outcome, u32),
            o: Outcome,
            c: &[u32],
        ) -> Result<(Outcome, u32), DieError> {
            Ok((s.0 + o * i64::from(c[0]), s.1.max(c[0])))
        }
        fn final_outcome(&self, s: &(Outcome, u32)) -> Result<Final<Outcome>, DieError> {
            Ok(if s.1 >= 2 {
                Final::Reroll
            } else {
                Final::Value(s.0)
            })
        }
    }

    #[test]
    fn rerolls_condition_the_result() {
        let d6 = d(6);
        let pool = Pool::new(&d6, 2).unwrap();
        let got = evaluate_die(&NoDoubles, &[&pool]).unwrap();
        let expected = brute_force(&[&d6, &d6], |v| v[0] + v[1])
            .reroll(|_| false)
            .unwrap();
        // Conditioned on no doubles: remove the six doubles from 2d6.
        assert_eq!(got.total(), BigUint::from(30u32));
        assert_eq!(got.count(7), expected.count(7));
        assert_eq!(got.count(2), BigUint::from(0u32));
        assert_eq!(got.count(4), BigUint::from(2u32));
    }

    #[test]
    fn large_keep_highest_is_exact() {
        // 4d6 drop lowest: mean 15869/1296.
        let pool = Pool::new(&d(6), 4).unwrap().drop_lowest(1);
        assert_eq!(pool.sum().unwrap().mean().to_string(), "15869/1296");
        // 100d10 keep 10 highest runs in big integers and sums to 10^100.
        let pool = Pool::new(&d(10), 100).unwrap().keep_highest(10);
        let die = pool.sum().unwrap();
        assert_eq!(die.total(), num_traits::pow(BigUint::from(10u32), 100));
        assert_eq!(die.max_outcome(), 100);
        assert_eq!(die.min_outcome(), 10);
        assert_eq!(die.count(10), BigUint::from(1u32));
    }

    #[test]
    fn pools_that_count_nothing_settle_at_once() {
        let pool = Pool::new(&d(6), 3).unwrap().keep_highest(0);
        assert_eq!(pool.sum().unwrap(), Die::new([(0, 216u32)]).unwrap());
    }

    #[test]
    fn two_pools_are_evaluated_jointly() {
        // Sum of a 2d4 pool and a 1d6 pool equals the convolution.
        let a = Pool::new(&d(4), 2).unwrap();
        let b = Pool::new(&d(6), 1).unwrap();
        let got = evaluate_die(&SumOf::identity(), &[&a, &b]).unwrap();
        assert_eq!(got, d(4).repeat_sum(2).unwrap().add(&d(6)).unwrap());
    }
}
