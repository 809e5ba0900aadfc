//! Real games, each answer checked against a calculation that does not go
//! through the notation's evaluator.

use fairdice::dice::notation::evaluate;
use fairdice::{BinaryOp, Control, Die, Pool};
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn d(n: u64) -> Die {
    Die::standard(n).unwrap()
}

fn sum(die: &Die, n: u64) -> Die {
    die.repeat_sum(n, &Control::new()).unwrap()
}

#[test]
fn crit_damage_uses_one_d20_twice() {
    // d20 + 5 against AC 15, 2d6 + 3 damage, dice doubled on a natural 20: the
    // natural 20 (1 in 20) deals 4d6 + 3, the ten rolls 10..19 hit for 2d6 + 3.
    let crit = evaluate("[r = d20] r == 20 ? 4d6+3 : r + 5 >= 15 ? 2d6+3 : 0").unwrap();
    let four = sum(&d(6), 4).combine_constant(3, BinaryOp::Add).unwrap();
    let two = sum(&d(6), 2).combine_constant(3, BinaryOp::Add).unwrap();
    let by_hand = Die::mixture(&[
        (BigUint::from(1u32), four),
        (BigUint::from(10u32), two),
        (BigUint::from(9u32), Die::constant(0)),
    ])
    .unwrap();
    assert_eq!(crit.reduced(), by_hand.reduced());
    // Mean: 17/20 + 10·10/20 = 117/20; the same total as icepool's (25,920).
    assert_eq!(crit.mean(), ratio(117, 20));
    assert_eq!(crit.total(), BigUint::from(25_920u32));
    assert_eq!(crit.probability(0), ratio(9, 20));
    // The let-free spelling rolls two different d20s and is wrong.
    let naive = evaluate("d20 == 20 ? 4d6+3 : d20 + 5 >= 15 ? 2d6+3 : 0").unwrap();
    assert_ne!(naive.mean(), crit.mean());
}

#[test]
fn savage_worlds_trait_and_wild_die() {
    // A d8 trait die and a d6 wild die, both exploding, the better one counts.
    let roll = evaluate("{d8!, d6!}kh1").unwrap();
    let d8 = d(8).explode(|o| o == 8, 9, &Control::new()).unwrap();
    let d6 = d(6).explode(|o| o == 6, 9, &Control::new()).unwrap();
    let better = d8.combine(&d6, BinaryOp::Max, &Control::new()).unwrap();
    assert_eq!(roll.reduced(), better.reduced());
    assert_eq!(
        evaluate("max(d8!, d6!)").unwrap().reduced(),
        better.reduced()
    );
    // At least 4: fails only when both show 1–3, which no explosion can change.
    let success = evaluate("{d8!, d6!}kh1 >= 4").unwrap();
    assert_eq!(
        success.probability(1),
        BigRational::one() - ratio(3, 8) * ratio(3, 6)
    );
    assert_eq!(success.probability(1), ratio(13, 16));
}

#[test]
fn best_of_six_ability_scores() {
    // 4d6kh3 by enumerating all 1,296 rolls.
    let mut counts = [0u64; 19];
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                for e in 1..=6 {
                    let mut v = [a, b, c, e];
                    v.sort_unstable();
                    counts[v[1] + v[2] + v[3]] += 1;
                }
            }
        }
    }
    // The best of six: P(best <= x) = P(one <= x)^6.
    let at_most = |x: usize| ratio(counts[..=x].iter().sum::<u64>() as i64, 1296);
    let best = evaluate("6#(4d6kh3)kh1").unwrap();
    for x in 3..=18 {
        let p = at_most(x).pow(6) - at_most(x - 1).pow(6);
        assert_eq!(best.probability(x as i64), p, "best of six = {x}");
    }
    // Six scores added up is six independent copies.
    let six = evaluate("6#(4d6kh3)").unwrap();
    assert_eq!(six, sum(&evaluate("4d6kh3").unwrap(), 6));
}

#[test]
fn ten_again_keeps_explosions_as_dice() {
    // 10d10!kh3: each 10 adds a die. The chains are independent: a chain shows k
    // tens with probability 10^-k · 9/10 and then one die of 1–9 (all ten rolls
    // may be tens, when the tenth stands). With m < 3 tens in all, every chain
    // ended on a die of 1–9, so the value is 10m plus the best 3 − m of ten d9;
    // with 3 tens or more it is 30.
    let kept = evaluate("10d10!kh3").unwrap();
    let nine = d(9);
    let mut expected: Vec<(i64, BigRational)> = Vec::new();
    let mut low_mass = BigRational::zero();
    for m in 0..3u64 {
        // Ways to spread m tens over ten chains: C(m + 9, 9).
        let ways = [1, 10, 55][m as usize];
        let p = ratio(9, 10).pow(10) * ratio(1, 10).pow(m as i32) * ratio(ways, 1);
        low_mass += &p;
        let best = Pool::new(&nine, 10)
            .unwrap()
            .keep_highest(3 - m)
            .sum()
            .unwrap();
        for (o, _) in best.iter() {
            expected.push((10 * m as i64 + o, &p * best.probability(o)));
        }
    }
    expected.push((30, BigRational::one() - low_mass));
    let mut merged: std::collections::BTreeMap<i64, BigRational> = Default::default();
    for (o, p) in expected {
        *merged.entry(o).or_insert_with(BigRational::zero) += p;
    }
    let got: std::collections::BTreeMap<i64, BigRational> = kept
        .outcomes()
        .iter()
        .map(|&o| (o, kept.probability(o)))
        .collect();
    assert_eq!(got, merged);
    // icepool's `d10.explode_to_pool(10).highest(3).sum()` has the same total.
    assert_eq!(kept.total(), BigUint::from(10u32).pow(100));
    // Compounded, a 10 makes one die of 11–20 and three of them are kept less
    // often than three separate tens.
    let compounded = evaluate("10d10!!kh3").unwrap();
    assert!(compounded.mean() > kept.mean());
}

#[test]
fn world_of_darkness_ten_again_counts_every_die() {
    // 10-again: each 10 is a success and rolls another die. One chain's successes
    // are its tens plus one if it ends on 8 or 9; its mean is 3/10 · 10/9 = 1/3.
    let pool = evaluate("10d10!cs>=8").unwrap();
    let mean = fairdice::dice::die::ratio_to_f64(&pool.mean());
    assert!((mean - 10.0 / 3.0).abs() < 1e-8, "{mean}");
    // Without explosions it is Binomial(10, 3/10).
    assert_eq!(evaluate("10d10cs>=8").unwrap().mean(), ratio(3, 1));
    // The rote quality rerolls failures once (Foundry's `xo<8` is the same as
    // rerolling them as new dice): modelled per die with `ro<8`.
    let rote = evaluate("10d10ro<8cs>=8").unwrap();
    assert_eq!(
        rote.mean(),
        ratio(10, 1) * (ratio(3, 10) + ratio(7, 10) * ratio(3, 10))
    );
}
