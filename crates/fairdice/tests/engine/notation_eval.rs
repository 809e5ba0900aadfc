//! The exact evaluator of dice notation: well-known values, brute-force oracles for
//! pools, agreement with the roller, and robustness on random input.

use std::collections::BTreeMap;

use fairdice::dice::notation::{self, NotationError, Options, evaluate, evaluate_with};
use fairdice::rng;
use fairdice::{Control, Die, DieError, Stop};
use num_bigint::BigUint;
use num_rational::BigRational;
use proptest::prelude::*;

fn frac(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn counts(die: &Die) -> Vec<(i64, u64)> {
    die.iter()
        .map(|(o, c)| (o, u64::try_from(c).unwrap()))
        .collect()
}

#[test]
fn well_known_values() {
    assert_eq!(evaluate("4d6kh3").unwrap().mean(), frac(15869, 1296));
    assert_eq!(evaluate("4d6dl1").unwrap(), evaluate("4d6kh3").unwrap());
    assert_eq!(evaluate("4d6k3").unwrap(), evaluate("4d6kh3").unwrap());
    let three = evaluate("3d6").unwrap();
    assert_eq!(three.total(), BigUint::from(216u32));
    assert_eq!(three.count(10), BigUint::from(27u32));
    assert_eq!(
        evaluate("d20+5 >= 15").unwrap().probability(1),
        frac(11, 20)
    );
    assert_eq!(evaluate("2d20kh").unwrap().mean(), frac(553, 40));
    assert_eq!(evaluate("2d20kl").unwrap().mean(), frac(287, 40));
    assert_eq!(
        counts(&evaluate("4dF").unwrap()),
        [
            (-4, 1),
            (-3, 4),
            (-2, 10),
            (-1, 16),
            (0, 19),
            (1, 16),
            (2, 10),
            (3, 4),
            (4, 1)
        ]
    );
    assert_eq!(evaluate("d%").unwrap().mean(), frac(101, 2));
    assert_eq!(evaluate("(d4)d6").unwrap().mean(), frac(35, 4));
    assert_eq!(evaluate("d6ro1").unwrap().mean(), frac(47, 12));
    // Rerolls once apply in the order written, the second rerolling the die the
    // first made (icepool's d6.reroll([1], depth=1).reroll([2], depth=1) and
    // Roll20 agree); one reroll of either face is another die.
    assert_eq!(evaluate("d6ro1ro2").unwrap().mean(), frac(1853, 432));
    assert_eq!(evaluate("d6ro<=2").unwrap().mean(), frac(25, 6));
    // Rerolls until no match condition the die: together or in turn alike.
    assert_eq!(evaluate("d6r1r2").unwrap(), evaluate("d6r<=2").unwrap());
    assert_eq!(evaluate("d6r1").unwrap(), Die::range(2, 6));
    assert_eq!(
        evaluate("d{1,1,2,3}").unwrap().count(1),
        BigUint::from(2u32)
    );
    assert_eq!(evaluate("-d4").unwrap().outcomes(), &[-4, -3, -2, -1]);
    assert_eq!(evaluate("7/2").unwrap().outcomes(), &[3]);
    assert_eq!(evaluate("-7/2").unwrap().outcomes(), &[-4]);
    assert_eq!(evaluate("d6*0").unwrap().outcomes(), &[0]);
    assert_eq!(
        evaluate("3d6 != 3d6").unwrap().probability(0),
        evaluate("3d6 == 3d6").unwrap().probability(1)
    );
}

#[test]
fn success_counting_is_binomial() {
    // How many of 10d10 show 8 or more: Binomial(10, 3/10), over 10^10.
    let die = evaluate("10d10cs>=8").unwrap();
    for k in 0..=10u32 {
        let binomial: u64 = (0..k).fold(1u64, |b, i| b * (10 - i as u64) / (i as u64 + 1));
        let expected = binomial * 3u64.pow(k) * 7u64.pow(10 - k);
        assert_eq!(
            die.count(i64::from(k)),
            BigUint::from(expected),
            "{k} successes"
        );
    }
    // Successes minus ones.
    let net = evaluate("2d10cs>=8df=1").unwrap();
    assert_eq!(net.count(2), BigUint::from(9u32));
    assert_eq!(net.count(-2), BigUint::from(1u32));
    assert_eq!(net.count(0), BigUint::from(6u32 * 6 + 2 * 3));
}

#[test]
fn exploding_dice_follow_the_depth_option() {
    let options = Options {
        explode_depth: 2,
        ..Options::default()
    };
    let die = evaluate_with("d4!", &options, &Control::new()).unwrap();
    // Up to three rolls: 1..3, 5..7, 9..12.
    assert_eq!(die.outcomes(), &[1, 2, 3, 5, 6, 7, 9, 10, 11, 12]);
    assert_eq!(die.total(), BigUint::from(64u32));
    assert_eq!(die.count(5), BigUint::from(4u32));
    // With the default depth of 9 the mean is within 6^-9 of 3.5·6/5 = 4.2.
    let mean = fairdice::dice::die::ratio_to_f64(&evaluate("d6!").unwrap().mean());
    assert!((mean - 4.2).abs() < 1e-6, "{mean}");
    let conditional = evaluate_with("d6!>=5", &options, &Control::new()).unwrap();
    assert_eq!(conditional.min_outcome(), 1);
    assert_eq!(conditional.max_outcome(), 18);
}

/// Enumerates every roll of a pool of at most a few dice, applying per-die
/// distributions from the library (tested on their own) and pool rules by hand.
fn pool_oracle(
    die: &Die,
    n: usize,
    keep: impl Fn(&[i64]) -> Vec<i64>,
    value: impl Fn(i64) -> i64,
) -> Die {
    let mut tally: BTreeMap<i64, BigUint> = BTreeMap::new();
    let faces: Vec<(i64, BigUint)> = die.iter().collect();
    let mut index = vec![0usize; n];
    loop {
        let roll: Vec<i64> = index.iter().map(|&i| faces[i].0).collect();
        let weight: BigUint = index.iter().map(|&i| faces[i].1.clone()).product();
        let total: i64 = keep(&roll).into_iter().map(&value).sum();
        *tally.entry(total).or_default() += weight;
        let mut p = 0;
        loop {
            if p == n {
                return Die::new(tally).unwrap();
            }
            index[p] += 1;
            if index[p] < faces.len() {
                break;
            }
            index[p] = 0;
            p += 1;
        }
    }
}

fn sorted_desc(roll: &[i64]) -> Vec<i64> {
    let mut v = roll.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

#[test]
fn pools_match_brute_force() {
    let d6 = Die::standard(6).unwrap();
    let id = |x| x;
    let cases: Vec<(&str, Die)> = vec![
        (
            "4d6kh3",
            pool_oracle(&d6, 4, |r| sorted_desc(r)[..3].to_vec(), id),
        ),
        (
            "4d6kl2",
            pool_oracle(&d6, 4, |r| sorted_desc(r)[2..].to_vec(), id),
        ),
        (
            "4d6dh1",
            pool_oracle(&d6, 4, |r| sorted_desc(r)[1..].to_vec(), id),
        ),
        (
            "5d6dh1dl1",
            pool_oracle(&d6, 5, |r| sorted_desc(r)[1..4].to_vec(), id),
        ),
        (
            "4d6kh3kl1",
            pool_oracle(&d6, 4, |r| sorted_desc(r)[2..3].to_vec(), id),
        ),
        (
            "4d6cs>=5",
            pool_oracle(&d6, 4, |r| r.to_vec(), |x| i64::from(x >= 5)),
        ),
        (
            "4d6kh2cs>=5df1",
            pool_oracle(
                &d6,
                4,
                |r| sorted_desc(r)[..2].to_vec(),
                |x| i64::from(x >= 5) - i64::from(x == 1),
            ),
        ),
        (
            "3d6r1kh2",
            pool_oracle(
                &d6.reroll(|o| o == 1).unwrap(),
                3,
                |r| sorted_desc(r)[..2].to_vec(),
                id,
            ),
        ),
        (
            "3d6ro<3kl1",
            pool_oracle(
                &d6.reroll_once(|o| o < 3),
                3,
                |r| sorted_desc(r)[2..].to_vec(),
                id,
            ),
        ),
        (
            "3dFkh2",
            pool_oracle(&Die::fudge(), 3, |r| sorted_desc(r)[..2].to_vec(), id),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(evaluate(text).unwrap(), expected, "{text}");
    }
    let options = Options {
        explode_depth: 2,
        ..Options::default()
    };
    let exploded = d6.explode(|o| o == 6, 2, &Control::new()).unwrap();
    assert_eq!(
        evaluate_with("3d6!!kh2", &options, &Control::new()).unwrap(),
        pool_oracle(&exploded, 3, |r| sorted_desc(r)[..2].to_vec(), |x| x)
    );
}

#[test]
fn random_counts_mix_pools() {
    // (d2)d6kh1: one d6, or the higher of two, each half the time.
    let mixed = evaluate("(d2)d6kh1").unwrap();
    let one = evaluate("d6").unwrap();
    let two = evaluate("2d6kh1").unwrap();
    let expected = Die::mixture(&[(BigUint::from(1u32), one), (BigUint::from(1u32), two)]).unwrap();
    assert_eq!(mixed.reduced(), expected.reduced());
    // A zero count gives 0.
    assert_eq!(evaluate("(d2-1)d6").unwrap().probability(0), frac(1, 2));
}

#[test]
fn invalid_expressions_say_where() {
    let err = evaluate("2d6 + d0").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Invalid {
            error: DieError::NoSides(0),
            ..
        }
    ));
    assert_eq!(err.span(), Some(7..8));
    let err = evaluate("d6 / (d2 - 1)").unwrap_err();
    assert_eq!(err.span(), Some(5..13));
    assert!(
        err.render("d6 / (d2 - 1)")
            .contains("     ^^^^^^^^ division by zero")
    );
    // The divisor is looked at before the dividend is computed: a dividend
    // far past the budget is never started.
    let control = Control::new().with_max_steps(1_000_000_000_000_000);
    let expr = notation::parse("(300d20kh150) / (d2 - 1)").unwrap();
    let err = notation::evaluate_expr(&expr, &Options::default(), &control).unwrap_err();
    assert!(
        matches!(
            err,
            NotationError::Invalid {
                error: DieError::DivisionByZero,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        control.steps_used() < 1000,
        "{} steps",
        control.steps_used()
    );
    let err = evaluate("3d6r<=6").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Invalid {
            error: DieError::RerollsEverything,
            ..
        }
    ));
    let err = evaluate("(d4-3)d6").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Invalid {
            error: DieError::NegativeDiceCount(-2),
            ..
        }
    ));
    assert_eq!(err.span(), Some(0..6));
    let err = evaluate("9223372036854775807 + 1").unwrap_err();
    assert!(matches!(
        err,
        NotationError::Invalid {
            error: DieError::Overflow,
            ..
        }
    ));
}

#[test]
fn huge_computations_are_refused_with_an_estimate() {
    for text in [
        "1000000d1000000",
        "d1000000000",
        "1000d1000 * 1000d1000",
        "200000d20kh100000",
    ] {
        match evaluate(text) {
            Err(NotationError::TooBig(too_big)) => {
                let message = too_big.to_string();
                assert!(
                    message.contains("too large to compute exactly"),
                    "{message}"
                );
                assert!(message.contains("e"), "{message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn monte_carlo_agrees_with_the_exact_distribution() {
    let expr = notation::parse("4d6kh3 + d4").unwrap();
    let exact = notation::evaluate_expr(&expr, &Options::default(), &Control::new()).unwrap();
    let estimate =
        notation::monte_carlo(&expr, &Options::default(), 200_000, 7, &Control::new()).unwrap();
    let (mean, error) = estimate.mean_and_error();
    let exact_mean = fairdice::dice::die::ratio_to_f64(&exact.mean());
    assert!(
        (mean - exact_mean).abs() < 4.0 * error,
        "{mean} vs {exact_mean} ± {error}"
    );
    // Every value seen is possible, and frequencies match within 5 standard errors.
    for (&o, &c) in &estimate.tally {
        let p = fairdice::dice::die::ratio_to_f64(&exact.probability(o));
        assert!(p > 0.0, "{o} cannot happen");
        let se = (p * (1.0 - p) / 200_000.0).sqrt();
        assert!((c as f64 / 200_000.0 - p).abs() < 5.0 * se + 1e-6, "{o}");
    }
    // Same seed, same estimate, whatever the threads.
    let again =
        notation::monte_carlo(&expr, &Options::default(), 200_000, 7, &Control::new()).unwrap();
    assert_eq!(estimate, again);
}

#[test]
fn rolls_are_reproducible_and_show_every_die() {
    let expr = notation::parse("4d6kh3 + 2").unwrap();
    let mut a = rng::seeded(11);
    let mut b = rng::seeded(11);
    for _ in 0..20 {
        let ra = notation::roll(&expr, &Options::default(), &mut a).unwrap();
        let rb = notation::roll(&expr, &Options::default(), &mut b).unwrap();
        assert_eq!(ra, rb);
        let pool = &ra.pools[0];
        assert_eq!(pool.dice.len(), 4);
        assert_eq!(pool.dice.iter().filter(|d| d.counted).count(), 3);
        let kept: i64 = pool
            .dice
            .iter()
            .filter(|d| d.counted)
            .map(|d| d.value)
            .sum();
        assert_eq!(ra.value, kept + 2);
        let dropped = pool.dice.iter().find(|d| !d.counted).unwrap().value;
        assert!(pool.dice.iter().all(|d| d.value >= dropped));
    }
}

/// Small well-formed expressions for property tests.
fn expression() -> impl Strategy<Value = String> {
    let die = (
        0u32..4,
        prop_oneof![
            Just("d4".to_string()),
            Just("d6".to_string()),
            Just("dF".to_string()),
            Just("d{1,3,3}".to_string())
        ],
        prop::sample::select(vec![
            "", "kh1", "kl2", "dl1", "r1", "ro1", "!", "cs>=3", "!kh2", "r<2kh1", "cs>2df=1",
        ]),
    )
        .prop_map(|(n, d, m)| format!("{n}{d}{m}"));
    let leaf = prop_oneof![die, (-5i64..10).prop_map(|n| n.to_string())];
    leaf.prop_recursive(3, 8, 2, |inner| {
        (
            inner.clone(),
            prop::sample::select(vec!["+", "-", "*", "/", ">=", "==", "<"]),
            inner,
        )
            .prop_map(|(a, op, b)| format!("({a}){op}({b})"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever the roller can produce, the exact distribution gives a positive
    /// probability; and the counts add up to the total.
    #[test]
    fn rolls_land_in_the_exact_support(text in expression(), seed in any::<u64>()) {
        let options = Options { explode_depth: 3, ..Options::default() };
        match evaluate_with(&text, &options, &Control::new()) {
            Ok(die) => {
                let expr = notation::parse(&text).unwrap();
                let mut generator = rng::seeded(seed);
                for _ in 0..10 {
                    match notation::roll(&expr, &options, &mut generator) {
                        Ok(roll) => prop_assert!(die.count(roll.value) > BigUint::from(0u32), "{} rolled {}", text, roll.value),
                        Err(e) => prop_assert!(false, "{} failed to roll: {}", text, e),
                    }
                }
            }
            Err(NotationError::Invalid { .. }) => {}
            Err(e) => prop_assert!(false, "{}: {}", text, e),
        }
    }

    /// Arbitrary text never panics the evaluator.
    #[test]
    fn arbitrary_text_never_panics(text in "[0-9d%F{}(),.!<>=rokhlcsf+*/ -]{0,24}") {
        let _ = evaluate(&text);
    }
}

#[test]
fn a_cancelled_control_stops_every_kind_of_computation() {
    let options = Options::default();
    let control = Control::new();
    control.cancel();
    // Plain sums, sums in big integers, explosions, random counts, products, pools.
    for text in [
        "30d2000",
        "300d100",
        "20d100!",
        "(d20)d2000",
        "d2000*d2000",
        "50d100kh25",
    ] {
        match evaluate_with(text, &options, &control) {
            Err(NotationError::Stopped(Stop::Cancelled)) => {}
            other => panic!("{text}: {:?}", other.map(|die| die.len())),
        }
    }
}

#[test]
fn a_pool_that_keeps_no_dice_settles_them_all_at_once() {
    // Keeping none of 222,337 dice used to build every power of the face weights up
    // to the pool's size at every outcome: gigabytes of big integers for a result of
    // one outcome. It is one power of the die's total.
    let none = evaluate("222337d6kh0").unwrap();
    assert_eq!(none.outcomes(), &[0]);
    assert_eq!(none.total(), BigUint::from(6u32).pow(222_337));
    let exploding = evaluate("65535d4!!<6k0").unwrap();
    assert_eq!(exploding.outcomes(), &[0]);
    assert_eq!(evaluate("5d6dh5").unwrap(), evaluate("5d6kh0").unwrap());
}

#[test]
fn a_group_only_added_up_is_the_sum_of_its_members() {
    // Without keep/drop or counting, pooling a group's dice changes nothing: it is
    // the sum of its members, evaluated as such (`{40d10!>=9}` listed its make-ups
    // and took seconds; alone, the term takes milliseconds).
    for (group, sum) in [
        ("{3d6!+2d8!}", "3d6!+2d8!"),
        ("{2d6!p+2d8!p}", "2d6!p+2d8!p"),
        ("{4d6!>=5, 2d8}", "4d6!>=5+2d8"),
        ("{(d4)d6!+(d6)d8}", "(d4)d6!+(d6)d8"),
        ("{d20, 2d6!, 3}", "d20+2d6!+3"),
        ("{2d10!>=9+1d6!<=2}", "2d10!>=9+1d6!<=2"),
    ] {
        assert_eq!(evaluate(group).unwrap(), evaluate(sum).unwrap(), "{group}");
    }
    let steps = |text: &str| {
        let control = Control::new();
        evaluate_with(text, &Options::default(), &control).unwrap();
        control.steps_used()
    };
    assert!(steps("{30d10!>=9}") <= 2 * steps("30d10!>=9"));
}
