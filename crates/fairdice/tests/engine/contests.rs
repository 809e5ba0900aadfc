//! Contests checked against brute force: every roll of small pools enumerated,
//! paired by hand, and scored under every tie rule — sorted and unsorted, equal and
//! unequal sizes, one kind of die and mixed — with exact fractions throughout.

use std::collections::BTreeMap;

use fairdice::contest::{
    Contest, ContestError, NetScore, PairCounts, Pairing, Side, SortedPairs, TieRule,
};
use fairdice::dice::evaluator::{evaluate, evaluate_by_pool};
use fairdice::{Control, Die, DieError, Pool, Stop};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A distribution as exact probabilities.
type Dist<K> = BTreeMap<K, BigRational>;

fn d(sides: u64) -> Die {
    Die::standard(sides).unwrap()
}

fn frac(n: i64, den: i64) -> BigRational {
    BigRational::new(n.into(), den.into())
}

/// Every roll of `dice` (one entry per die, in order) with its probability.
fn rolls(dice: &[Die]) -> Vec<(Vec<i64>, BigRational)> {
    let mut out = vec![(Vec::new(), BigRational::one())];
    for die in dice {
        let total = BigInt::from(die.total());
        out = out
            .into_iter()
            .flat_map(|(roll, p)| {
                let total = total.clone();
                die.iter().map(move |(o, c)| {
                    let mut roll = roll.clone();
                    roll.push(o);
                    (roll, &p * BigRational::new(BigInt::from(c), total.clone()))
                })
            })
            .collect();
    }
    out
}

/// `(A wins, B wins, ties)` of paired dice, the i-th of `a` against the i-th of `b`.
fn score_pairs(a: &[i64], b: &[i64], rule: TieRule) -> (u32, u32, u32) {
    let (mut wins, mut losses, mut ties) = (0, 0, 0);
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Less => losses += 1,
            std::cmp::Ordering::Equal => match rule {
                TieRule::AWins => wins += 1,
                TieRule::BWins => losses += 1,
                TieRule::Stand | TieRule::Reroll => ties += 1,
            },
        }
    }
    (wins, losses, ties)
}

fn sorted_desc(v: &[i64]) -> Vec<i64> {
    let mut v = v.to_vec();
    v.sort_unstable_by(|x, y| y.cmp(x));
    v
}

/// Joint (A wins, B wins, ties) of one roll of `a` against `b`, by enumeration.
fn raw(a: &[Die], b: &[Die], pairing: Pairing, rule: TieRule) -> Dist<(u32, u32, u32)> {
    let mut all = a.to_vec();
    all.extend_from_slice(b);
    let mut dist = Dist::new();
    for (roll, p) in rolls(&all) {
        let (ra, rb) = roll.split_at(a.len());
        let (ra, rb) = match pairing {
            Pairing::Sorted => (sorted_desc(ra), sorted_desc(rb)),
            Pairing::Unsorted => (ra.to_vec(), rb.to_vec()),
        };
        *dist
            .entry(score_pairs(&ra, &rb, rule))
            .or_insert_with(BigRational::zero) += p;
    }
    dist
}

/// Joint (A wins, B wins) once tied pairs are rerolled. Sorted (one kind of die a
/// side): the tied dice form a smaller contest. Unsorted: each tied pair is rolled
/// again until it differs.
fn resolved(a: &[Die], b: &[Die], pairing: Pairing) -> Dist<(u32, u32)> {
    if pairing == Pairing::Sorted {
        let first = raw(a, b, Pairing::Sorted, TieRule::Reroll);
        let mut out = Dist::new();
        for ((w, l, t), p) in first {
            let t = t as usize;
            let rest = if t == 0 {
                point()
            } else {
                resolved_equal(&vec![a[0].clone(); t], &vec![b[0].clone(); t])
            };
            add_shifted(&mut out, &rest, (w, l), &p);
        }
        return out;
    }
    let mut all = a.to_vec();
    all.extend_from_slice(b);
    let mut out = Dist::new();
    for (roll, p) in rolls(&all) {
        let (ra, rb) = roll.split_at(a.len());
        let (w, l, _) = score_pairs(ra, rb, TieRule::Reroll);
        let mut rest = point();
        for (i, (x, y)) in ra.iter().zip(rb).enumerate() {
            if x == y {
                rest = convolve(&rest, &pair_until_different(&a[i], &b[i]));
            }
        }
        add_shifted(&mut out, &rest, (w, l), &p);
    }
    out
}

/// One pair rolled until its dice differ.
fn pair_until_different(a: &Die, b: &Die) -> Dist<(u32, u32)> {
    let mut out = Dist::new();
    for (roll, p) in rolls(&[a.clone(), b.clone()]) {
        let key = match roll[0].cmp(&roll[1]) {
            std::cmp::Ordering::Greater => (1, 0),
            std::cmp::Ordering::Less => (0, 1),
            std::cmp::Ordering::Equal => continue,
        };
        *out.entry(key).or_insert_with(BigRational::zero) += p;
    }
    let differ: BigRational = out.values().sum();
    out.into_iter().map(|(k, p)| (k, p / &differ)).collect()
}

fn point() -> Dist<(u32, u32)> {
    Dist::from([((0, 0), BigRational::one())])
}

/// The resolved contest of `t` against `t` dice of one kind per side.
fn resolved_equal(a: &[Die], b: &[Die]) -> Dist<(u32, u32)> {
    let t = a.len() as u32;
    let first = raw(a, b, Pairing::Sorted, TieRule::Reroll);
    let all_tied = first
        .get(&(0, 0, t))
        .cloned()
        .unwrap_or_else(BigRational::zero);
    let keep = BigRational::one() - all_tied;
    let mut out = Dist::new();
    for ((w, l, ties), p) in first {
        if ties == t {
            continue;
        }
        let rest = if ties == 0 {
            point()
        } else {
            resolved_equal(&a[..ties as usize], &b[..ties as usize])
        };
        add_shifted(&mut out, &rest, (w, l), &(p / &keep));
    }
    out
}

fn add_shifted(
    out: &mut Dist<(u32, u32)>,
    rest: &Dist<(u32, u32)>,
    by: (u32, u32),
    p: &BigRational,
) {
    for ((x, y), q) in rest {
        *out.entry((x + by.0, y + by.1))
            .or_insert_with(BigRational::zero) += p * q;
    }
}

fn convolve(a: &Dist<(u32, u32)>, b: &Dist<(u32, u32)>) -> Dist<(u32, u32)> {
    let mut out = Dist::new();
    for (k, p) in a {
        add_shifted(&mut out, b, *k, p);
    }
    out
}

/// The oracle's joint wins, ties dropped from the key.
fn oracle(a: &[Die], b: &[Die], pairing: Pairing, rule: TieRule) -> Dist<(u32, u32)> {
    if rule == TieRule::Reroll {
        return resolved(a, b, pairing);
    }
    let mut out = Dist::new();
    for ((w, l, _), p) in raw(a, b, pairing, rule) {
        *out.entry((w, l)).or_insert_with(BigRational::zero) += p;
    }
    out
}

/// Runs of identical neighbouring dice, as `Contest::from_dice` takes them.
fn runs(dice: &[Die]) -> Vec<(Die, u64)> {
    let mut out: Vec<(Die, u64)> = Vec::new();
    for die in dice {
        match out.last_mut() {
            Some((last, n)) if last == die => *n += 1,
            _ => out.push((die.clone(), 1)),
        }
    }
    out
}

/// Checks both the net score and the joint wins of one contest against the oracle.
fn check(a: &[Die], b: &[Die], pairing: Pairing, rule: TieRule) {
    let expected = oracle(a, b, pairing, rule);
    let contest = Contest::from_dice(runs(a), runs(b))
        .unwrap()
        .pairing(pairing)
        .ties(rule);
    let label = format!("{a:?} v {b:?} {pairing:?} {rule:?}");

    let wins = contest.pair_wins(&Control::new()).unwrap();
    let mut got = Dist::new();
    for (x, y, _) in wins.iter() {
        got.insert((x, y), wins.probability(x, y));
    }
    assert_eq!(got, expected, "pair wins of {label}");

    let mut net: Dist<i64> = Dist::new();
    for ((x, y), p) in &expected {
        *net.entry(i64::from(*x) - i64::from(*y))
            .or_insert_with(BigRational::zero) += p;
    }
    let result = contest.evaluate(&Control::new()).unwrap();
    let got: Dist<i64> = result
        .net()
        .outcomes()
        .iter()
        .map(|&o| (o, result.net().probability(o)))
        .collect();
    assert_eq!(got, net, "net score of {label}");
    let positive: BigRational = net.iter().filter(|(k, _)| **k > 0).map(|(_, p)| p).sum();
    assert_eq!(result.p_a_wins(), positive, "P(A wins) of {label}");
    assert_eq!(
        result.p_a_wins() + result.p_tie() + result.p_b_wins(),
        BigRational::one()
    );
}

const RULES: [TieRule; 4] = [
    TieRule::Stand,
    TieRule::AWins,
    TieRule::BWins,
    TieRule::Reroll,
];

#[test]
fn sorted_contests_of_one_kind_match_brute_force() {
    let (d3, d4, d6) = (d(3), d(4), d(6));
    let odd = Die::new([(0, 2u32), (2, 1), (5, 1)]).unwrap();
    for rule in RULES {
        for (a, b) in [
            (vec![d4.clone(); 1], vec![d4.clone(); 1]),
            (vec![d4.clone(); 2], vec![d4.clone(); 2]),
            (vec![d4.clone(); 3], vec![d4.clone(); 3]),
            (vec![d6.clone(); 2], vec![d6.clone(); 3]),
            (vec![d6.clone(); 3], vec![d4.clone(); 1]),
            (vec![d3.clone(); 3], vec![d6.clone(); 2]),
            (vec![odd.clone(); 2], vec![d3.clone(); 2]),
        ] {
            check(&a, &b, Pairing::Sorted, rule);
        }
    }
}

#[test]
fn sorted_contests_of_mixed_dice_match_brute_force() {
    let (d4, d6) = (d(4), d(6));
    let odd = Die::new([(-1, 1u32), (2, 3)]).unwrap();
    for rule in [TieRule::Stand, TieRule::AWins, TieRule::BWins] {
        for (a, b) in [
            (vec![d4.clone(), d6.clone()], vec![d6.clone(), d4.clone()]),
            (
                vec![d4.clone(), d4.clone(), d6.clone()],
                vec![d6.clone(); 2],
            ),
            (vec![d6.clone()], vec![d4.clone(), odd.clone(), d6.clone()]),
            (
                vec![odd.clone(), d4.clone(), d4.clone()],
                vec![d4.clone(), d6.clone(), odd.clone()],
            ),
        ] {
            check(&a, &b, Pairing::Sorted, rule);
        }
    }
}

#[test]
fn unsorted_contests_match_brute_force() {
    let (d4, d6) = (d(4), d(6));
    let odd = Die::new([(0, 2u32), (2, 1), (5, 1)]).unwrap();
    for rule in RULES {
        for (a, b) in [
            (vec![d4.clone(); 3], vec![d4.clone(); 3]),
            (
                vec![d4.clone(), d6.clone(), d4.clone()],
                vec![d6.clone(), d4.clone(), odd.clone()],
            ),
            (vec![d6.clone(); 3], vec![d4.clone(); 2]),
            (vec![odd.clone()], vec![d4.clone(), d6.clone()]),
        ] {
            check(&a, &b, Pairing::Unsorted, rule);
        }
    }
}

#[test]
fn the_joint_engine_agrees_with_pool_by_pool_steps() {
    // The sorted evaluator's joint step folds its per-pool steps, so the plain engine
    // and the pool-by-pool engine must give identical counts.
    let a = Pool::mixed([(d(4), 2), (d(6), 1)]).unwrap();
    let b = Pool::mixed([(d(6), 2), (d(3), 2)]).unwrap();
    for rule in RULES {
        let net = SortedPairs::<NetScore>::new(rule);
        assert_eq!(
            evaluate(&net, &[&a, &b], &Control::new()).unwrap(),
            evaluate_by_pool(&net, &[&a, &b], &Control::new()).unwrap()
        );
        let counts = SortedPairs::<PairCounts>::new(rule);
        assert_eq!(
            evaluate(&counts, &[&a, &b], &Control::new()).unwrap(),
            evaluate_by_pool(&counts, &[&a, &b], &Control::new()).unwrap()
        );
    }
}

#[test]
fn counts_are_exact_integers_over_every_roll() {
    let five = Pool::new(&d(6), 5).unwrap();
    let result = Contest::new(&five, &five)
        .unwrap()
        .evaluate(&Control::new())
        .unwrap();
    assert_eq!(
        result.net().total(),
        num_bigint::BigUint::from(6u64.pow(10))
    );
    // Net score −5..=5, symmetric for identical sides.
    for k in 1..=5 {
        assert_eq!(result.net().count(k), result.net().count(-k));
    }
    assert_eq!(result.p_a_wins(), result.p_b_wins());
}

#[test]
fn rerolled_ties_of_two_d6_tie_with_the_exact_probability() {
    // The paper's Monte Carlo gave 34.155 %; the exact value rounds to 34.1463 %.
    let two = Pool::new(&d(6), 2).unwrap();
    let result = Contest::new(&two, &two)
        .unwrap()
        .ties(TieRule::Reroll)
        .evaluate(&Control::new())
        .unwrap();
    assert_eq!(format!("{:.4}", result.tie_percent()), "34.1463");
    // And no pair is ever left tied.
    let wins = Contest::new(&two, &two)
        .unwrap()
        .ties(TieRule::Reroll)
        .pair_wins(&Control::new())
        .unwrap();
    assert!(wins.iter().all(|(a, b, _)| a + b == 2));
}

#[test]
fn risk_battles_follow_from_pair_wins() {
    // Three attackers against two defenders, defender winning ties: 2890, 2611 and
    // 2275 of 7776.
    let d6 = d(6);
    let (attack, defend) = (Pool::new(&d6, 3).unwrap(), Pool::new(&d6, 2).unwrap());
    let wins = Contest::new(&attack, &defend)
        .unwrap()
        .ties(TieRule::BWins)
        .pair_wins(&Control::new())
        .unwrap();
    assert_eq!(wins.probability(2, 0), frac(2890, 7776));
    assert_eq!(wins.probability(1, 1), frac(2611, 7776));
    assert_eq!(wins.probability(0, 2), frac(2275, 7776));
    assert_eq!(wins.wins(Side::B).mean(), frac(2 * 2275 + 2611, 7776));
    assert_eq!(wins.ties().outcomes(), &[0]);
}

/// A pool written as separate dice of one kind: `d6+d6+d6`.
fn spelled_out(die: &Die, n: u64) -> Vec<(Die, u64)> {
    (0..n).map(|_| (die.clone(), 1)).collect()
}

#[test]
fn dice_of_one_kind_written_apart_are_one_pool() {
    // `d6+d6+d6` against `3d6`, `7d6+1d6` against `6d10`: rerolled ties need one
    // kind per side, and the answers equal the merged spellings.
    let cases = [
        (
            spelled_out(&d(6), 3),
            vec![(d(6), 3)],
            vec![(d(6), 3)],
            vec![(d(6), 3)],
        ),
        (
            vec![(d(10), 6)],
            vec![(d(6), 7), (d(6), 1)],
            vec![(d(10), 6)],
            vec![(d(6), 8)],
        ),
    ];
    for (a, b, merged_a, merged_b) in cases {
        for pairing in [Pairing::Sorted, Pairing::Unsorted] {
            for rule in [TieRule::Stand, TieRule::Reroll] {
                let written = Contest::from_dice(a.clone(), b.clone())
                    .unwrap()
                    .pairing(pairing)
                    .ties(rule)
                    .evaluate(&Control::new())
                    .unwrap();
                let merged = Contest::from_dice(merged_a.clone(), merged_b.clone())
                    .unwrap()
                    .pairing(pairing)
                    .ties(rule)
                    .evaluate(&Control::new())
                    .unwrap();
                assert_eq!(written.net(), merged.net(), "{pairing:?} {rule:?}");
            }
        }
    }
    // Really mixed pools count their kinds, not their runs: d6+d8+d6 has two.
    let error = Contest::from_dice(vec![(d(6), 1), (d(8), 1), (d(6), 1)], vec![(d(6), 3)])
        .unwrap()
        .ties(TieRule::Reroll)
        .evaluate(&Control::new())
        .unwrap_err();
    assert_eq!(error, ContestError::MixedReroll(Side::A, 2));
}

#[test]
fn impossible_and_oversized_contests_are_refused() {
    let d1 = d(1);
    let one = Pool::new(&d1, 2).unwrap();
    for pairing in [Pairing::Sorted, Pairing::Unsorted] {
        let error = Contest::new(&one, &one)
            .unwrap()
            .pairing(pairing)
            .ties(TieRule::Reroll)
            .evaluate(&Control::new())
            .unwrap_err();
        assert_eq!(error, ContestError::TiesForever);
    }
    let empty = Pool::new(&d(6), 0).unwrap();
    assert_eq!(
        Contest::new(&empty, &one).unwrap_err(),
        ContestError::NoDice(Side::A)
    );
    let kept = Pool::new(&d(6), 3).unwrap().keep_highest(2);
    assert_eq!(
        Contest::new(&one, &kept).unwrap_err(),
        ContestError::KeepPattern(Side::B)
    );
    let mixed = Pool::mixed([(d(6), 2), (d(8), 1)]).unwrap();
    assert_eq!(
        Contest::new(&mixed, &one)
            .unwrap()
            .ties(TieRule::Reroll)
            .evaluate(&Control::new())
            .unwrap_err(),
        ContestError::MixedReroll(Side::A, 2)
    );
    let huge = Pool::new(&d(6), 300).unwrap();
    let error = Contest::new(&huge, &huge)
        .unwrap()
        .evaluate(&Control::new())
        .unwrap_err();
    let ContestError::TooBig(too_big) = &error else {
        panic!("expected TooBig, got {error:?}");
    };
    assert!(too_big.estimate.steps > too_big.max_steps as f64);
    assert!(error.to_string().contains("too large to compute exactly"));
}

#[test]
fn the_estimate_is_an_order_of_magnitude() {
    // The estimate should not undershoot the engine's real work, nor overshoot it by
    // more than a couple of orders of magnitude.
    for (sides, n) in [(6u64, 5u64), (6, 20), (20, 10), (2, 30)] {
        let pool = Pool::new(&d(sides), n).unwrap();
        let estimate = Contest::new(&pool, &pool).unwrap().estimate().steps;
        let control = Control::unlimited();
        evaluate_by_pool(
            &SortedPairs::<NetScore>::new(TieRule::Stand),
            &[&pool, &pool],
            &control,
        )
        .unwrap();
        let used = control.steps_used() as f64;
        assert!(estimate >= used, "{n}d{sides}: {estimate} < {used}");
        assert!(estimate <= used * 300.0, "{n}d{sides}: {estimate} ≫ {used}");
    }
}

#[test]
fn the_estimate_of_mixed_pools_is_an_order_of_magnitude() {
    // Kinds that are truncations of one another from the top (d6, d8, d10) join as
    // a sorted contest walks down: priced as one count, the estimate must still
    // cover the engine's work.
    let side =
        |d6: u64, d8: u64, d10: u64| Pool::mixed([(d(6), d6), (d(8), d8), (d(10), d10)]).unwrap();
    for (a, b) in [
        (side(3, 1, 1), side(3, 1, 1)),
        (side(5, 0, 0), side(3, 1, 1)),
        (side(10, 3, 3), side(10, 3, 3)),
    ] {
        let estimate = Contest::new(&a, &b).unwrap().estimate().steps;
        let control = Control::unlimited();
        evaluate_by_pool(
            &SortedPairs::<NetScore>::new(TieRule::Stand),
            &[&a, &b],
            &control,
        )
        .unwrap();
        let used = control.steps_used() as f64;
        assert!(estimate >= used, "{a:?} v {b:?}: {estimate} < {used}");
        assert!(
            estimate <= used * 300.0,
            "{a:?} v {b:?}: {estimate} ≫ {used}"
        );
    }
}

#[test]
fn many_pairs_agree_between_net_and_pair_wins() {
    // Fifty pairs number their win counts past the engine's direct tables, so the
    // pair wins fall back to hashed states; the net score stays in tables.
    let pool = Pool::new(&d(2), 50).unwrap();
    for rule in [TieRule::Stand, TieRule::BWins] {
        let contest = Contest::new(&pool, &pool).unwrap().ties(rule);
        let wins = contest.pair_wins(&Control::new()).unwrap();
        assert_eq!(
            wins.net(),
            contest.evaluate(&Control::new()).unwrap().net().clone()
        );
        assert_eq!(wins.total(), num_bigint::BigUint::from(2u64).pow(100));
    }
}

#[test]
fn unsorted_contests_price_wide_multiplications_and_can_be_cancelled() {
    // 1000d6 against 1000d6 takes well under a second and stays within the budget;
    // two kinds of 1000 dice a side convolve counts thousands of bits wide for over
    // half a minute, and are refused before any work.
    let thousand = Pool::new(&d(6), 1000).unwrap();
    let cheap = Contest::new(&thousand, &thousand)
        .unwrap()
        .pairing(Pairing::Unsorted);
    assert!(cheap.estimate().steps <= 2e9, "{:?}", cheap.estimate());
    let a = Pool::mixed([(d(6), 1000), (d(8), 1000)]).unwrap();
    let b = Pool::mixed([(d(8), 1000), (d(6), 1000)]).unwrap();
    let error = Contest::new(&a, &b)
        .unwrap()
        .pairing(Pairing::Unsorted)
        .evaluate(&Control::new())
        .unwrap_err();
    assert!(matches!(error, ContestError::TooBig(_)), "{error:?}");
    // A cancelled control stops both the net score and the pair wins.
    let control = Control::new();
    control.cancel();
    let pool = Pool::new(&d(6), 200).unwrap();
    let contest = Contest::new(&pool, &pool)
        .unwrap()
        .pairing(Pairing::Unsorted);
    let cancelled = ContestError::Die(DieError::Stopped(Stop::Cancelled));
    assert_eq!(contest.evaluate(&control).unwrap_err(), cancelled);
    assert_eq!(contest.pair_wins(&control).unwrap_err(), cancelled);
}
