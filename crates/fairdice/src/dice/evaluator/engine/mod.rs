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
//! With several pools, a plain [`Evaluator`] sees all their counts at once, so one
//! step costs the *product* of the pools' branches per state. An evaluator that also
//! implements [`PoolByPool`] is stepped one pool at a time
//! ([`evaluate_by_pool`]): states merge between the pools, and a step costs the
//! *sum* of their branches. That is what makes two opposed pools of twenty dice cheap.
//!
//! The count type (u64, u128 or big integers) is chosen once from a bound on the
//! total: every path weight is at most the product of the pool totals.

mod by_pool;
mod joint;
mod plan;
mod states;

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use num_bigint::BigUint;
use smallvec::SmallVec;

use super::{Evaluator, Final, Order, PoolByPool};
use crate::dice::budget::Meter;
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;
use crate::with_count_type;
use plan::{Code, Walk};
use states::StateSet;

/// A bucket: the unassigned dice of every group (as a [`Code`]) and, between the
/// pools of a pool-by-pool step, which pool order its states chose.
type Key = (Code, u32);

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
        to_big(run::<C, E>(evaluator, pools, meter, joint::step::<C, E>)?)
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
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    evaluate_by_pool_metered(evaluator, pools, &mut Meter::unlimited())
}

/// [`evaluate_by_pool`] under a work budget that can also be cancelled.
///
/// # Errors
/// As [`evaluate_metered`].
pub fn evaluate_by_pool_metered<E: PoolByPool>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
) -> Result<Vec<(E::Output, BigUint)>, DieError> {
    with_count_type!(count_type(pools), C => {
        to_big(run::<C, E>(evaluator, pools, meter, by_pool::step::<C, E>)?)
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
        Die::from_sorted_generic(run::<C, E>(evaluator, pools, meter, joint::step::<C, E>)?)
    })
}

/// Results in big integers; an empty result means every roll was rerolled.
fn to_big<T, C: Count>(results: BTreeMap<T, C>) -> Result<Vec<(T, BigUint)>, DieError> {
    if results.is_empty() {
        return Err(DieError::Empty);
    }
    Ok(results.into_iter().map(|(o, c)| (o, c.to_big())).collect())
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

/// Evaluator states grouped by the unassigned dice they share (and, between the
/// pools of a pool-by-pool step, the order the state sees the pools in).
///
/// A walk keeps two of these and swaps them at every step; emptied maps are kept
/// for reuse, so after the first few steps a walk allocates almost nothing.
struct Buckets<S, C> {
    keys: Vec<Key>,
    states: Vec<StateSet<S, C>>,
    index: KeyIndex,
    /// Empty sets with their capacity, ready for new buckets.
    spare: Vec<StateSet<S, C>>,
    /// Whether new sets index states by the evaluator's numbering.
    indexed: bool,
}

/// Finds a bucket by its key: a direct table for small keys, stamped so that
/// forgetting every bucket costs nothing, and a map for the rest.
struct KeyIndex {
    /// `(stamp, bucket)` by `code · TABLE_ORDERS + order`.
    table: Vec<(u32, u32)>,
    map: HashMap<Key, usize>,
    stamp: u32,
}

/// Keys with a code below this and an order below [`TABLE_ORDERS`] use the table.
const TABLE_CODES: Code = 1 << 14;
const TABLE_ORDERS: u32 = 4;

impl Default for KeyIndex {
    fn default() -> Self {
        // Stamps start at 1: table slots start at 0, so they read as unused.
        KeyIndex {
            table: Vec::new(),
            map: HashMap::default(),
            stamp: 1,
        }
    }
}

impl KeyIndex {
    #[inline]
    fn slot(key: Key) -> Option<usize> {
        (key.0 < TABLE_CODES && key.1 < TABLE_ORDERS)
            .then(|| key.0 as usize * TABLE_ORDERS as usize + key.1 as usize)
    }

    #[inline]
    fn get(&self, key: Key) -> Option<usize> {
        match KeyIndex::slot(key) {
            Some(slot) => match self.table.get(slot) {
                Some(&(stamp, bucket)) if stamp == self.stamp => Some(bucket as usize),
                _ => None,
            },
            None => self.map.get(&key).copied(),
        }
    }

    fn insert(&mut self, key: Key, bucket: usize) {
        match KeyIndex::slot(key) {
            Some(slot) => {
                if slot >= self.table.len() {
                    self.table.resize((slot + 1).next_power_of_two(), (0, 0));
                }
                self.table[slot] = (self.stamp, bucket as u32);
            }
            None => {
                self.map.insert(key, bucket);
            }
        }
    }

    fn clear(&mut self) {
        self.map.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.table.clear();
            self.stamp = 1;
        }
    }
}

impl<S: Eq + std::hash::Hash, C: Count> Buckets<S, C> {
    fn new(indexed: bool) -> Self {
        Buckets {
            keys: Vec::new(),
            states: Vec::new(),
            index: KeyIndex::default(),
            spare: Vec::new(),
            indexed,
        }
    }

    /// The bucket of `key`, created empty if new.
    #[inline]
    fn index(&mut self, key: Key) -> usize {
        if let Some(i) = self.index.get(key) {
            return i;
        }
        let i = self.keys.len();
        self.index.insert(key, i);
        self.keys.push(key);
        let set = self
            .spare
            .pop()
            .unwrap_or_else(|| StateSet::new(self.indexed));
        self.states.push(set);
        i
    }

    /// Adds `weight` to `state` in bucket `bucket`.
    #[inline]
    fn add<E: Evaluator<State = S>>(&mut self, evaluator: &E, bucket: usize, state: S, weight: C) {
        self.states[bucket].add(evaluator, state, weight);
    }

    /// The number of states held.
    fn len(&self) -> u64 {
        self.states.iter().map(|b| b.len() as u64).sum()
    }

    /// Forgets every bucket, keeping the storage. The sets must have been drained.
    fn clear(&mut self) {
        self.keys.clear();
        self.index.clear();
        self.spare.extend(
            self.states
                .drain(..)
                .inspect(|s| debug_assert_eq!(s.len(), 0)),
        );
    }
}

/// Work space reused by every step of a walk, so steps allocate nothing.
struct Scratch<S, C> {
    /// The states of the bucket being stepped.
    states: Vec<(S, C)>,
    /// The target bucket of each branch.
    targets: Vec<usize>,
    /// Counted dice shown so far, per pool.
    seen: Vec<u32>,
    /// The pool orders chosen at the current step, named by index.
    orders: Vec<SmallVec<[usize; 4]>>,
    /// The order in which to visit the buckets of a layer.
    visit: Vec<usize>,
}

impl<S, C> Default for Scratch<S, C> {
    fn default() -> Self {
        Scratch {
            states: Vec::new(),
            targets: Vec::new(),
            seen: Vec::new(),
            orders: Vec::new(),
            visit: Vec::new(),
        }
    }
}

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

fn run<C: Count, E: Evaluator>(
    evaluator: &E,
    pools: &[&Pool],
    meter: &mut Meter,
    step: Step<C, E>,
) -> Result<BTreeMap<E::Output, C>, DieError> {
    let mut walk = Walk::<C>::new(pools, walk_order(evaluator.order(), pools))?;
    // States are kept in buckets by their unassigned dice: every state of a bucket
    // has the same branches, so those are worked out once per bucket and step.
    let (start, weight) = walk.start();
    let initial = evaluator.initial_state();
    let indexed = evaluator.state_index(&initial).is_some();
    let mut buckets = Buckets::<E::State, C>::new(indexed);
    let mut spare = Buckets::<E::State, C>::new(indexed);
    let mut scratch = Scratch::default();
    let first = buckets.index((start, 0));
    buckets.add(evaluator, first, initial, weight);
    for s in 0..walk.outcomes.len() {
        meter.charge(buckets.len())?;
        walk.start_step(s);
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

    let mut results: BTreeMap<E::Output, C> = BTreeMap::new();
    for (key, mut states) in buckets.keys.iter().zip(buckets.states) {
        debug_assert_eq!(key.0, 0, "every die is assigned at the end");
        states.drain_into(&mut scratch.states);
        for (state, weight) in scratch.states.drain(..) {
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

    /// An order-sensitive fold: what each pool contributes depends on when it is
    /// shown, and the pool order depends on the dice shown so far (tracked in the
    /// state for the joint path).
    struct Scrambled;
    impl Evaluator for Scrambled {
        type State = (i64, Vec<u32>);
        type Output = Outcome;
        fn initial_state(&self) -> Self::State {
            (0, Vec::new())
        }
        fn next_state(
            &self,
            s: &Self::State,
            o: Outcome,
            c: &[u32],
        ) -> Result<Self::State, DieError> {
            let mut seen = s.1.clone();
            seen.resize(c.len(), 0);
            let s = (s.0, seen.clone());
            crate::dice::evaluator::next_state_by_pool(self, &s, o, c, &seen)
        }
        fn final_outcome(&self, s: &Self::State) -> Result<Final<Outcome>, DieError> {
            Ok(Final::Value(s.0))
        }
        fn order(&self) -> Order {
            Order::Descending
        }
    }
    impl PoolByPool for Scrambled {
        fn pool_order(&self, seen: &[u32], order: &mut [usize]) {
            let shown: u32 = seen.iter().sum();
            if shown % 2 == 1 {
                order.reverse();
            }
            if seen[0] % 3 == 2 {
                order.rotate_left(1);
            }
        }
        fn next_state_for_pool(
            &self,
            s: &Self::State,
            o: Outcome,
            pool: usize,
            position: usize,
            count: u32,
        ) -> Result<Self::State, DieError> {
            let step = (pool as i64 + 1) * (position as i64 + 2) * i64::from(count) + o;
            let mut seen = s.1.clone();
            if seen.len() <= pool {
                seen.resize(pool + 1, 0);
            }
            seen[pool] += count;
            Ok(((s.0 * 3 + step).rem_euclid(23), seen))
        }
    }

    /// The fold of [`Scrambled`] over every roll, by brute force.
    fn scrambled_oracle(pools: &[Vec<Die>]) -> Die {
        let dice: Vec<&Die> = pools.iter().flatten().collect();
        let owner: Vec<usize> = (0..pools.len())
            .flat_map(|p| std::iter::repeat_n(p, pools[p].len()))
            .collect();
        let mut outcomes: Vec<Outcome> = dice.iter().flat_map(|d| d.outcomes().to_vec()).collect();
        outcomes.sort_unstable_by(|a, b| b.cmp(a));
        outcomes.dedup();
        brute_force(&dice, |roll| {
            let mut s = Scrambled.initial_state();
            for &o in &outcomes {
                let mut counts = vec![0u32; pools.len()];
                for (x, &p) in roll.iter().zip(&owner) {
                    counts[p] += u32::from(*x == o);
                }
                s = Scrambled.next_state(&s, o, &counts).unwrap();
            }
            s.0
        })
    }

    fn as_die(results: Vec<(Outcome, BigUint)>) -> Die {
        Die::new(results).unwrap()
    }

    #[test]
    fn pool_by_pool_steps_match_brute_force() {
        let (d3, d4) = (d(3), d(4));
        let odd = Die::new([(0, 2u32), (2, 1), (5, 1)]).unwrap();
        let cases = [
            vec![vec![d4.clone(), d4.clone()], vec![d3.clone(), d4.clone()]],
            vec![
                vec![d3.clone()],
                vec![odd.clone(), odd.clone()],
                vec![d4.clone()],
            ],
            vec![vec![odd.clone(), d3.clone(), d3.clone()]],
        ];
        for dice in cases {
            let pools: Vec<Pool> = dice
                .iter()
                .map(|p| Pool::mixed(p.iter().map(|d| (d.clone(), 1))).unwrap())
                .collect();
            let refs: Vec<&Pool> = pools.iter().collect();
            let expected = scrambled_oracle(&dice);
            assert_eq!(as_die(evaluate(&Scrambled, &refs).unwrap()), expected);
            assert_eq!(
                as_die(evaluate_by_pool(&Scrambled, &refs).unwrap()),
                expected
            );
        }
    }

    #[test]
    fn pool_by_pool_agrees_with_joint_steps_under_keep_patterns() {
        let a = Pool::mixed([(d(4), 2), (d(6), 1)]).unwrap().keep_highest(2);
        let b = Pool::new(&d(5), 3).unwrap().drop_highest(1);
        let c = Pool::new(&d(3), 2).unwrap().keep_lowest(1);
        let pools = [&a, &b, &c];
        assert_eq!(
            evaluate(&Scrambled, &pools).unwrap(),
            evaluate_by_pool(&Scrambled, &pools).unwrap()
        );
        let sum = SumOf::identity();
        assert_eq!(
            evaluate(&sum, &pools).unwrap(),
            evaluate_by_pool(&sum, &pools).unwrap()
        );
    }

    /// A sum forced to walk in a given order.
    struct SumIn(Order);
    impl Evaluator for SumIn {
        type State = Outcome;
        type Output = Outcome;
        fn initial_state(&self) -> Outcome {
            0
        }
        fn next_state(&self, s: &Outcome, o: Outcome, c: &[u32]) -> Result<Outcome, DieError> {
            SumOf::identity().next_state(s, o, c)
        }
        fn final_outcome(&self, s: &Outcome) -> Result<Final<Outcome>, DieError> {
            Ok(Final::Value(*s))
        }
        fn order(&self) -> Order {
            self.0
        }
        fn state_index(&self, s: &Outcome) -> Option<usize> {
            usize::try_from(*s).ok()
        }
    }
    impl PoolByPool for SumIn {
        fn next_state_for_pool(
            &self,
            s: &Outcome,
            o: Outcome,
            _: usize,
            _: usize,
            c: u32,
        ) -> Result<Outcome, DieError> {
            self.next_state(s, o, &[c])
        }
        fn empty_pool_keeps_state(&self) -> bool {
            true
        }
    }

    #[test]
    fn kept_sums_of_several_pools_match_brute_force_in_both_orders() {
        // 2d4 keep the highest, plus 1d3 + 1d5 keep the lowest: by enumeration.
        let (d3, d4, d5) = (d(3), d(4), d(5));
        let expected = brute_force(&[&d4, &d4, &d3, &d5], |v| v[0].max(v[1]) + v[2].min(v[3]));
        let a = Pool::new(&d4, 2).unwrap().keep_highest(1);
        let b = Pool::mixed([(d3.clone(), 1), (d5.clone(), 1)])
            .unwrap()
            .keep_lowest(1);
        for order in [Order::Ascending, Order::Descending] {
            let joint = as_die(evaluate(&SumIn(order), &[&a, &b]).unwrap());
            let by_pool = as_die(evaluate_by_pool(&SumIn(order), &[&a, &b]).unwrap());
            assert_eq!(joint, expected, "{order:?}");
            assert_eq!(by_pool, expected, "{order:?}");
        }
    }
}
