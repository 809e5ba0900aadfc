//! Engine tests on mixed pools: every evaluator against a fold over every roll, in
//! both walk orders, with dice that join from the top, from the bottom, or never.

use super::*;
use crate::dice::count::U256;
use crate::dice::evaluator::{Order, SumOf, next_state_by_pool};
use crate::dice::testing::{brute_force, d};

/// An evaluator made to walk in a given order. It makes no promise of
/// [`Evaluator::shift`], so the engine steps its states one by one.
pub(super) struct InOrder<'a, E>(pub(super) &'a E, pub(super) Order);

impl<E: Evaluator> Evaluator for InOrder<'_, E> {
    type State = E::State;
    type Output = E::Output;
    fn initial_state(&self) -> E::State {
        self.0.initial_state()
    }
    fn next_state(&self, s: &E::State, o: Outcome, c: &[u32]) -> Result<E::State, DieError> {
        self.0.next_state(s, o, c)
    }
    fn final_outcome(&self, s: &E::State) -> Result<Final<E::Output>, DieError> {
        self.0.final_outcome(s)
    }
    fn order(&self) -> Order {
        self.1
    }
    fn state_index(&self, s: &E::State) -> Option<usize> {
        self.0.state_index(s)
    }
}

impl<E: PoolByPool> PoolByPool for InOrder<'_, E> {
    fn pool_order(&self, seen: &[u32], order: &mut [usize]) {
        self.0.pool_order(seen, order);
    }
    fn empty_pool_keeps_state(&self) -> bool {
        self.0.empty_pool_keeps_state()
    }
    fn next_state_for_pool(
        &self,
        s: &E::State,
        o: Outcome,
        pool: usize,
        position: usize,
        count: u32,
    ) -> Result<E::State, DieError> {
        self.0.next_state_for_pool(s, o, pool, position, count)
    }
}

/// An order-sensitive fold over several pools, pool by pool: what a pool adds
/// depends on its position and on how many dice every pool has shown.
struct Scrambled;
impl Evaluator for Scrambled {
    type State = (i64, [u32; 2]);
    type Output = Outcome;
    fn initial_state(&self) -> Self::State {
        (0, [0; 2])
    }
    fn next_state(&self, s: &Self::State, o: Outcome, c: &[u32]) -> Result<Self::State, DieError> {
        next_state_by_pool(self, s, o, c, &s.1)
    }
    fn final_outcome(&self, s: &Self::State) -> Result<Final<Outcome>, DieError> {
        Ok(Final::Value(s.0))
    }
}
impl PoolByPool for Scrambled {
    fn pool_order(&self, seen: &[u32], order: &mut [usize]) {
        if (seen[0] + 2 * seen[1]) % 3 == 1 {
            order.reverse();
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
        let mut seen = s.1;
        seen[pool] += count;
        Ok(((s.0 * 3 + step).rem_euclid(29), seen))
    }
}

/// A pool's dice, one entry a die, and its keep pattern from the highest rank down.
struct Spec {
    dice: Vec<Die>,
    keep: Vec<bool>,
}

impl Spec {
    fn pool(&self) -> Pool {
        Pool::mixed(self.dice.iter().map(|d| (d.clone(), 1)))
            .unwrap()
            .with_keep_pattern(self.keep.clone())
            .unwrap()
    }
}

/// `evaluator` folded over every roll of the pools' dice, outcome by outcome in
/// `order`, each pool counting the dice at its kept ranks.
fn oracle<E: Evaluator<Output = Outcome>>(evaluator: &E, specs: &[Spec], order: Order) -> Die {
    let dice: Vec<&Die> = specs.iter().flat_map(|s| &s.dice).collect();
    let mut outcomes: Vec<Outcome> = dice.iter().flat_map(|d| d.outcomes().to_vec()).collect();
    outcomes.sort_unstable();
    outcomes.dedup();
    if order == Order::Descending {
        outcomes.reverse();
    }
    brute_force(&dice, |roll| {
        // Each pool's kept values.
        let mut kept: Vec<Vec<Outcome>> = Vec::new();
        let mut at = 0;
        for spec in specs {
            let mut values = roll[at..at + spec.dice.len()].to_vec();
            at += spec.dice.len();
            values.sort_unstable_by(|a, b| b.cmp(a));
            kept.push(
                values
                    .iter()
                    .zip(&spec.keep)
                    .filter(|(_, k)| **k)
                    .map(|(v, _)| *v)
                    .collect(),
            );
        }
        let mut state = evaluator.initial_state();
        for &o in &outcomes {
            let counts: Vec<u32> = kept
                .iter()
                .map(|k| k.iter().filter(|&&v| v == o).count() as u32)
                .collect();
            state = evaluator.next_state(&state, o, &counts).unwrap();
        }
        match evaluator.final_outcome(&state).unwrap() {
            Final::Value(v) => v,
            Final::Reroll => unreachable!("these evaluators never reroll"),
        }
    })
}

/// Mixed sets of dice: truncations from the top (d4, d6, d8), from the bottom (a d6
/// and the faces 3–6), uneven weights with gaps, and dice that never join.
fn mixed_sets() -> Vec<Vec<Die>> {
    let upper = Die::range(3, 6);
    let gaps = Die::new([(1, 2u32), (3, 1), (6, 1)]).unwrap();
    let gaps_top = Die::new([(3, 1u32), (6, 1)]).unwrap();
    vec![
        vec![d(4), d(6), d(4), d(8), d(6)],
        vec![d(6), upper.clone(), d(6), upper, d(2)],
        vec![gaps.clone(), d(4), gaps, gaps_top, d(3)],
    ]
}

/// Every keep pattern of `n` dice.
fn patterns(n: usize) -> impl Iterator<Item = Vec<bool>> {
    (0..1u32 << n).map(move |mask| (0..n).map(|i| mask & (1 << i) != 0).collect())
}

/// A value per outcome for [`SumOf`].
type Value = fn(Outcome) -> Outcome;

#[test]
fn every_keep_pattern_of_mixed_pools_matches_brute_force() {
    let values: [(&str, Value); 3] = [
        ("sum", |o| o),
        ("cs", |o| Outcome::from(o >= 4)),
        ("df", |o| match o {
            1 => -1,
            o if o >= 5 => 1,
            _ => 0,
        }),
    ];
    for dice in mixed_sets() {
        for keep in patterns(dice.len()) {
            let spec = [Spec {
                dice: dice.clone(),
                keep,
            }];
            let pool = spec[0].pool();
            for (name, value) in values {
                let evaluator = SumOf::new(value);
                let expected = oracle(&evaluator, &spec, Order::Ascending);
                for order in [Order::Ascending, Order::Descending, Order::Any] {
                    let got = evaluate_die(&InOrder(&evaluator, order), &[&pool], &Control::new());
                    assert_eq!(got.unwrap(), expected, "{name} {:?} {order:?}", pool);
                }
            }
        }
    }
}

#[test]
fn keep_highest_and_lowest_of_mixed_pools_match_brute_force() {
    for dice in mixed_sets() {
        let pool = Pool::mixed(dice.iter().map(|d| (d.clone(), 1))).unwrap();
        for k in 0..=dice.len() as u64 {
            for selected in [
                pool.clone().keep_highest(k),
                pool.clone().keep_lowest(k),
                pool.clone().drop_highest(k).drop_lowest(1),
            ] {
                let spec = [Spec {
                    dice: dice.clone(),
                    keep: selected.keep_pattern(),
                }];
                let expected = oracle(&SumOf::identity(), &spec, Order::Descending);
                assert_eq!(selected.sum().unwrap(), expected, "{selected:?}");
            }
        }
    }
}

#[test]
fn order_sensitive_folds_over_two_mixed_pools_match_brute_force() {
    let sets = mixed_sets();
    let keeps = [
        (vec![true, true, false], vec![false, true]),
        (vec![false, false, true], vec![true, true]),
        (vec![true, false, true], vec![true, false]),
    ];
    for (set, (keep_a, keep_b)) in sets.iter().zip(keeps) {
        let specs = [
            Spec {
                dice: set[..3].to_vec(),
                keep: keep_a,
            },
            Spec {
                dice: set[3..].to_vec(),
                keep: keep_b,
            },
        ];
        let (a, b) = (specs[0].pool(), specs[1].pool());
        for order in [Order::Ascending, Order::Descending] {
            let evaluator = InOrder(&Scrambled, order);
            let expected = oracle(&evaluator, &specs, order);
            let joint = evaluate(&evaluator, &[&a, &b], &Control::new()).unwrap();
            let by_pool = evaluate_by_pool(&evaluator, &[&a, &b], &Control::new()).unwrap();
            assert_eq!(Die::new(joint).unwrap(), expected, "joint {order:?}");
            assert_eq!(Die::new(by_pool).unwrap(), expected, "by pool {order:?}");
        }
    }
}

#[test]
fn large_truncated_pools_agree_in_both_orders() {
    // 12d4 + 12d6 + 12d8 keep 5: from the top the kinds join; from the bottom they
    // never do and the pool settles early instead. Both walks must agree exactly.
    let pool = Pool::mixed([(d(4), 12), (d(6), 12), (d(8), 12)]).unwrap();
    for pool in [pool.clone().keep_highest(5), pool.keep_lowest(5)] {
        let sum = SumOf::identity();
        let up = evaluate_die(&InOrder(&sum, Order::Ascending), &[&pool], &Control::new());
        let down = evaluate_die(&InOrder(&sum, Order::Descending), &[&pool], &Control::new());
        assert_eq!(up.unwrap(), down.unwrap(), "{pool:?}");
    }
}

#[test]
fn a_pool_without_dice_walks_no_steps() {
    // No kinds, no outcomes: nothing joins, and the sum is 0 once.
    let empty = Pool::mixed([(d(6), 0), (d(8), 0)]).unwrap().keep_highest(1);
    let got = evaluate_die(&SumOf::identity(), &[&empty], &Control::new()).unwrap();
    assert_eq!(got, Die::constant(0));
}

/// `evaluator` over `pool`, its unsettled buckets in `N` and its settled states in
/// `W`, after checking that `N` has the `bits` that [`narrow_bits`] asks for.
fn narrowed<N: Count, W: Count, E: Evaluator<Output = Outcome>>(
    evaluator: &E,
    pool: &Pool,
    bits: u64,
) -> Die {
    let order = order::walk_order(evaluator.order(), &[pool]);
    assert!(narrow_bits(pool, order) <= bits, "{pool:?} {order:?}");
    let mut meter = Control::new().meter();
    let step = joint::step::<N, W, E>;
    let results = run::<N, W, E>(evaluator, &[pool], order, &mut meter, step, true);
    Die::from_sorted_generic(results.unwrap()).unwrap()
}

/// `evaluator` over `pool` in big integers, every state in its bucket.
fn in_one_type<E: Evaluator<Output = Outcome>>(evaluator: &E, pool: &Pool) -> Die {
    let order = order::walk_order(evaluator.order(), &[pool]);
    let mut meter = Control::new().meter();
    let step = joint::step::<BigUint, BigUint, E>;
    let results = run::<BigUint, BigUint, E>(evaluator, &[pool], order, &mut meter, step, false);
    Die::from_sorted_generic(results.unwrap()).unwrap()
}

#[test]
fn walks_in_narrow_counts_agree_with_walks_in_big_integers() {
    // Pools whose totals pass 64 bits while their unsettled buckets fit: the keep
    // patterns of the mixed sets (in a pool twice their size), keeps of weighted and
    // rerolled dice, and keeps whose bound nearly fills the narrow type (30d20kh9:
    // 59 bits), so a bound too small would overflow it.
    let rerolled = d(6).reroll(|o| o == 1).unwrap();
    let weighted = Die::new([(1, 5u32), (2, 1), (4, 3), (9, 7)]).unwrap();
    let mut pools: Vec<Pool> = vec![
        Pool::new(&d(20), 30).unwrap().keep_highest(9),
        Pool::new(&d(20), 30).unwrap().keep_lowest(7),
        Pool::new(&rerolled, 40).unwrap().keep_highest(5),
        Pool::new(&weighted, 30).unwrap().drop_lowest(27),
        Pool::mixed([(d(4), 15), (d(6), 15), (d(8), 15)])
            .unwrap()
            .keep_highest(6),
        Pool::mixed([(d(4), 15), (d(6), 15), (d(8), 15)])
            .unwrap()
            .keep_lowest(6),
        Pool::mixed([(weighted.clone(), 12), (rerolled.clone(), 12), (d(3), 12)])
            .unwrap()
            .keep_highest(4),
    ];
    for dice in mixed_sets() {
        let doubled = dice.iter().chain(&dice).map(|d| (d.clone(), 4));
        let pool = Pool::mixed(doubled).unwrap();
        for k in [1, 3] {
            pools.push(pool.clone().keep_highest(k));
            pools.push(pool.clone().keep_lowest(k));
        }
    }
    for pool in &pools {
        let sum = SumOf::identity();
        let successes = SumOf::new(|o| Outcome::from(o >= 4));
        let mut narrowed_walks = 0;
        for order in [Order::Ascending, Order::Descending] {
            // With a promise of shift, and without (`InOrder`).
            let expected = in_one_type(&InOrder(&sum, order), pool);
            assert!(expected.total().bits() > 64, "{pool:?} fits 64 bits");
            let bits = narrow_bits(pool, order);
            if bits <= 64 {
                assert_eq!(
                    narrowed::<u64, U256, _>(&InOrder(&sum, order), pool, 64),
                    expected
                );
                let counted = in_one_type(&InOrder(&successes, order), pool);
                let got = narrowed::<u64, U256, _>(&InOrder(&successes, order), pool, 64);
                assert_eq!(got, counted, "{pool:?} {order:?}");
                narrowed_walks += 1;
            }
            if bits <= 128 {
                let got = narrowed::<u128, U256, _>(&InOrder(&sum, order), pool, 128);
                assert_eq!(got, expected, "{pool:?} {order:?}");
            }
        }
        assert!(narrowed_walks > 0, "{pool:?} never narrows to 64 bits");
        // The engine's own choice, shift and all.
        let expected = in_one_type(&sum, pool);
        assert_eq!(
            evaluate_die(&sum, &[pool], &Control::new()).unwrap(),
            expected
        );
        let order = order::walk_order(sum.order(), &[pool]);
        if narrow_bits(pool, order) <= 64 {
            assert_eq!(
                narrowed::<u64, U256, _>(&sum, pool, 64),
                expected,
                "{pool:?}"
            );
        }
    }
}

#[test]
fn the_narrow_bound_is_the_greatest_weight_of_an_unsettled_bucket() {
    // 30d20kh9 from the top: at most 8 of 30 dice assigned, C(30, 8)·20^8 < 2^57.
    let pool = Pool::new(&d(20), 30).unwrap().keep_highest(9);
    let bound = BigUint::from(5_852_925u32) * Count::pow(&BigUint::from(20u32), 8);
    assert_eq!(narrow_bits(&pool, Order::Descending), bound.bits() + 2);
    // From the bottom every rank but the last counts: no narrowing to speak of.
    assert!(narrow_bits(&pool, Order::Ascending) > pool.sum().unwrap().total().bits());
    // A pool that counts no die settles at once: nothing is unsettled.
    let none = Pool::new(&d(20), 30).unwrap().keep_highest(0);
    assert_eq!(narrow_bits(&none, Order::Descending), 2);
}

/// A weighted sum of the counted dice of every pool that also counts the outcomes it
/// has seen: its states change at every outcome while their numbers move by a
/// promised shift (zero when no die counts), so a bucket whose states all take the
/// move that assigns none of its dice hands them over whole and must still step
/// each one.
struct Stepped;
impl Evaluator for Stepped {
    type State = (i64, u32);
    type Output = Outcome;
    fn initial_state(&self) -> Self::State {
        (0, 0)
    }
    fn next_state(&self, s: &Self::State, o: Outcome, c: &[u32]) -> Result<Self::State, DieError> {
        Ok((s.0 + self.gain(o, c), s.1 + 1))
    }
    fn final_outcome(&self, s: &Self::State) -> Result<Final<Outcome>, DieError> {
        Ok(Final::Value(s.0 * 100 + i64::from(s.1)))
    }
    fn state_index(&self, s: &Self::State) -> Option<usize> {
        usize::try_from(s.0).ok()
    }
    fn shift(&self, o: Outcome, c: &[u32]) -> Option<isize> {
        isize::try_from(self.gain(o, c)).ok()
    }
}
impl Stepped {
    fn gain(&self, o: Outcome, counts: &[u32]) -> i64 {
        counts
            .iter()
            .enumerate()
            .map(|(pool, &c)| (pool as i64 + 1) * o * i64::from(c))
            .sum()
    }
}

#[test]
fn states_handed_over_whole_still_see_every_outcome() {
    let sets = mixed_sets();
    for dice in &sets {
        let pool = Pool::mixed(dice.iter().map(|d| (d.clone(), 1))).unwrap();
        for k in 0..=dice.len() as u64 {
            for selected in [pool.clone().keep_highest(k), pool.clone().keep_lowest(k)] {
                let spec = [Spec {
                    dice: dice.clone(),
                    keep: selected.keep_pattern(),
                }];
                for order in [Order::Ascending, Order::Descending] {
                    let expected = oracle(&Stepped, &spec, order);
                    let got = evaluate_die(&InOrderShifted(order), &[&selected], &Control::new());
                    assert_eq!(got.unwrap(), expected, "{selected:?} {order:?}");
                }
            }
        }
    }
    // Two pools at once: the joint step hands over the move in which neither shows a die.
    for dice in &sets {
        let a = Pool::mixed(dice[..3].iter().map(|d| (d.clone(), 1))).unwrap();
        let b = Pool::mixed(dice[3..].iter().map(|d| (d.clone(), 1))).unwrap();
        let (a, b) = (a.keep_highest(2), b.keep_lowest(1));
        let specs = [
            Spec {
                dice: dice[..3].to_vec(),
                keep: a.keep_pattern(),
            },
            Spec {
                dice: dice[3..].to_vec(),
                keep: b.keep_pattern(),
            },
        ];
        for order in [Order::Ascending, Order::Descending] {
            let expected = oracle(&Stepped, &specs, order);
            let got = evaluate(&InOrderShifted(order), &[&a, &b], &Control::new()).unwrap();
            assert_eq!(Die::new(got).unwrap(), expected, "{a:?} {b:?} {order:?}");
        }
    }
}

/// [`Stepped`] walked in a given order, with its promise of [`Evaluator::shift`].
struct InOrderShifted(Order);
impl Evaluator for InOrderShifted {
    type State = (i64, u32);
    type Output = Outcome;
    fn initial_state(&self) -> Self::State {
        Stepped.initial_state()
    }
    fn next_state(&self, s: &Self::State, o: Outcome, c: &[u32]) -> Result<Self::State, DieError> {
        Stepped.next_state(s, o, c)
    }
    fn final_outcome(&self, s: &Self::State) -> Result<Final<Outcome>, DieError> {
        Stepped.final_outcome(s)
    }
    fn order(&self) -> Order {
        self.0
    }
    fn state_index(&self, s: &Self::State) -> Option<usize> {
        Stepped.state_index(s)
    }
    fn shift(&self, o: Outcome, c: &[u32]) -> Option<isize> {
        Stepped.shift(o, c)
    }
}

/// [`SumOf`] without its numbering: the same states, found by hashing.
struct Unnumbered;
impl Evaluator for Unnumbered {
    type State = Outcome;
    type Output = Outcome;
    fn initial_state(&self) -> Outcome {
        SumOf::identity().initial_state()
    }
    fn next_state(&self, s: &Outcome, o: Outcome, c: &[u32]) -> Result<Outcome, DieError> {
        SumOf::identity().next_state(s, o, c)
    }
    fn final_outcome(&self, s: &Outcome) -> Result<Final<Outcome>, DieError> {
        SumOf::identity().final_outcome(s)
    }
}

#[test]
fn walks_that_reuse_a_kept_workspace_agree_with_walks_on_a_fresh_thread() {
    // One thread evaluates these in turn, each walk taking the emptied layers the
    // one before kept: numbered and hashed states of one type, narrow and wide
    // counts, and a walk stopped half-way by its budget, whose states must not
    // leak into the next.
    let pools: Vec<Pool> = vec![
        Pool::mixed([(d(4), 6), (d(6), 6), (d(8), 6)])
            .unwrap()
            .keep_highest(3),
        Pool::new(&d(10), 12).unwrap().keep_lowest(4),
        Pool::mixed([(d(6), 3), (d(8), 3)]).unwrap().keep_highest(2),
        Pool::mixed([(d(4), 40), (d(6), 40), (d(8), 40)])
            .unwrap()
            .keep_highest(20),
    ];
    let sum = SumOf::identity();
    let on_a_fresh_thread = |pool: &Pool, numbered: bool| {
        let pool = pool.clone();
        std::thread::spawn(move || {
            let control = Control::new();
            if numbered {
                evaluate_die(&SumOf::identity(), &[&pool], &control)
            } else {
                evaluate_die(&Unnumbered, &[&pool], &control)
            }
        })
        .join()
        .unwrap()
        .unwrap()
    };
    for round in 0..2 {
        for (i, pool) in pools.iter().enumerate() {
            let stopped = evaluate_die(&sum, &[&pools[3]], &Control::new().with_max_steps(2000));
            assert!(stopped.is_err(), "the budget stops the widest pool");
            let numbered = (i + round) % 2 == 0;
            let got = if numbered {
                evaluate_die(&sum, &[pool], &Control::new())
            } else {
                evaluate_die(&Unnumbered, &[pool], &Control::new())
            };
            let fresh = on_a_fresh_thread(pool, numbered);
            assert_eq!(got.unwrap(), fresh, "{pool:?} numbered: {numbered}");
        }
    }
}
