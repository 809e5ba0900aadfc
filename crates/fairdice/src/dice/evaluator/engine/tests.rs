//! Engine tests: brute-force oracles for keep patterns, both walk orders, rerolls,
//! several pools, and pool-by-pool steps against joint steps.

use super::mixed_tests::InOrder;
use super::*;
use crate::dice::evaluator::{Order, SumOf};
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
            let got = evaluate_die(&SumOf::identity(), &[&pool], &Control::new()).unwrap();
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
        let got = evaluate_die(&SumOf::identity(), &[&pool], &Control::new()).unwrap();
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
    fn next_state(&self, s: &Self::State, o: Outcome, c: &[u32]) -> Result<Self::State, DieError> {
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
            evaluate_die(&Ordered(order), &[&pool], &Control::new()).unwrap(),
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
    let got = evaluate_die(&NoDoubles, &[&pool], &Control::new()).unwrap();
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
    let got = evaluate_die(&SumOf::identity(), &[&a, &b], &Control::new()).unwrap();
    assert_eq!(
        got,
        d(4).repeat_sum(2, &Control::new())
            .unwrap()
            .add(&d(6))
            .unwrap()
    );
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
    fn next_state(&self, s: &Self::State, o: Outcome, c: &[u32]) -> Result<Self::State, DieError> {
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
        assert_eq!(
            as_die(evaluate(&Scrambled, &refs, &Control::new()).unwrap()),
            expected
        );
        assert_eq!(
            as_die(evaluate_by_pool(&Scrambled, &refs, &Control::new()).unwrap()),
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
        evaluate(&Scrambled, &pools, &Control::new()).unwrap(),
        evaluate_by_pool(&Scrambled, &pools, &Control::new()).unwrap()
    );
    let sum = SumOf::identity();
    assert_eq!(
        evaluate(&sum, &pools, &Control::new()).unwrap(),
        evaluate_by_pool(&sum, &pools, &Control::new()).unwrap()
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
        let joint = as_die(evaluate(&SumIn(order), &[&a, &b], &Control::new()).unwrap());
        let by_pool = as_die(evaluate_by_pool(&SumIn(order), &[&a, &b], &Control::new()).unwrap());
        assert_eq!(joint, expected, "{order:?}");
        assert_eq!(by_pool, expected, "{order:?}");
    }
}

#[test]
fn dice_past_the_last_counted_rank_settle_in_one_branch() {
    // 100d10 keeping the 10 highest, at the top face: 0 to 9 dice showing it walk on
    // to the next face; 10 or more leave nothing that counts, and settle together.
    let pool = Pool::new(&d(10), 100).unwrap().keep_highest(10);
    let mut walk = plan::Walk::<BigUint>::new(&[&pool], Order::Descending).unwrap();
    let (start, _) = walk.start();
    walk.start_step(0);
    let control = crate::control::Control::new();
    let branches = walk.branches(0, start, &mut control.meter()).unwrap();
    assert_eq!(branches.len(), 11);
    let settled = branches.iter().filter(|b| b.assigned == start).count();
    assert_eq!(settled, 1);
}

#[test]
fn branches_of_wide_counts_are_charged_before_they_are_made() {
    // 65,536 d20s: a branch weight is a binomial of up to 65,536 bits times a count
    // of 283,000; making a step's 65,537 branches took minutes and 1.5 GB inside
    // a budget of seconds. Charged as weight updates, they stop at once.
    use crate::control::{Control, Stop};
    use crate::dice::notation::{NotationError, Options, evaluate_with};
    // The tails' powers the branches read are charged too, memory first: 65,536
    // powers of up to 283,000 bits would hold gigabytes.
    let stopped = evaluate_with("65536d20df>2kh", &Options::default(), &Control::new());
    assert!(
        matches!(
            stopped,
            Err(NotationError::Stopped(
                Stop::OverBudget { .. } | Stop::OverMemory { .. }
            ))
        ),
        "{stopped:?}"
    );
}

#[test]
fn weight_updates_of_a_pool_are_charged_at_the_counts_they_multiply() {
    // A walk of one pool multiplies its unsettled states' weights (`narrow_bits`) and
    // binomials of the ranks still counted, not binomials of the whole pool: these
    // take milliseconds and were charged 6.7e7 to 1.3e8 steps (2000d2 keeping
    // half, 3000d6 keeping 10; 10000d6kh10, 0.05 s, was refused by default).
    use crate::control::Control;
    use crate::dice::notation::{Options, evaluate_with};
    for expression in ["2000d2kh1000", "3000d6kh10", "222337d6kh0", "1000d6kh1"] {
        let control = Control::new().with_max_steps(1 << 25);
        let answered = evaluate_with(expression, &Options::default(), &control);
        assert!(answered.is_ok(), "{expression}: {answered:?}");
    }
}

#[test]
fn the_count_bound_holds_every_product_of_totals_and_every_binomial() {
    // Totals at and around powers of two, where logarithms and bit lengths part.
    let totals = [
        1u64, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 20, 31, 32, 33, 64, 100, 255, 256,
    ];
    let dice: Vec<Die> = totals.iter().map(|&t| d(t)).collect();
    for (i, a) in dice.iter().enumerate() {
        for b in &dice[i..] {
            for (n, m) in [
                (1u64, 0u64),
                (3, 1),
                (10, 7),
                (64, 64),
                (200, 1),
                (1000, 333),
            ] {
                let groups = [(a.clone(), n), (b.clone(), m)]
                    .into_iter()
                    .filter(|g| g.1 > 0);
                let pool = Pool::mixed(groups).unwrap();
                let bound = total_bits(&[&pool]);
                let product = a.total().pow(n as u32) * b.total().pow(m as u32);
                assert!(bound >= product.bits(), "{pool:?}: {bound} bits");
                assert!(bound >= n + m, "{pool:?}: binomials need {} bits", n + m);
                // And tight: at most a bit over the product with every total at least
                // two (a die of one face still needs a bit for its binomials).
                let at_least_two = |t: BigUint| t.max(BigUint::from(2u32));
                let loose =
                    at_least_two(a.total()).pow(n as u32) * at_least_two(b.total()).pow(m as u32);
                assert!(bound <= loose.bits() + 1, "{pool:?}: {bound} bits");
            }
        }
    }
}

#[test]
fn states_merged_by_their_shifted_numbers_agree_with_steps_state_by_state() {
    // Values that take partial sums below zero (no number) and past the numbered
    // range, as well as through it, with one kind of die and with mixed kinds.
    let values: [fn(Outcome) -> Outcome; 3] = [|o| o, |o| (o - 4) * 700, |o| o * o * 90];
    let pools = [
        Pool::new(&d(8), 6).unwrap().keep_highest(3),
        Pool::mixed([(d(4), 3), (d(6), 2), (d(8), 3)])
            .unwrap()
            .keep_lowest(4),
        Pool::new(&d(6), 5).unwrap(),
    ];
    for value in values {
        for pool in &pools {
            let shifted = evaluate_die(&SumOf::new(value), &[pool], &Control::new()).unwrap();
            let sum = SumOf::new(value);
            let one_by_one =
                evaluate_die(&InOrder(&sum, Order::Any), &[pool], &Control::new()).unwrap();
            assert_eq!(shifted, one_by_one);
        }
    }
    let die = d(8);
    let pool = Pool::new(&die, 4).unwrap().keep_highest(2);
    let value = |o: Outcome| (o - 4) * 700;
    let got = evaluate_die(&SumOf::new(value), &[&pool], &Control::new()).unwrap();
    let mapped = Die::new(die.iter().map(|(o, w)| (value(o), w.clone()))).unwrap();
    let oracle = keep_oracle(
        &[&mapped, &mapped, &mapped, &mapped],
        &[true, true, false, false],
    );
    assert_eq!(got, oracle);
}
