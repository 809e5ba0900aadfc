//! Goals against every sequence of small randomizers, and the published banner.
use super::*;
use crate::randomizer::Spec;

/// P(goal met at attempt t) for t = 0..=depth by walking every sequence.
fn brute_force(spec: &str, goal: &Goal, depth: usize) -> Vec<f64> {
    fn walk(
        r: &crate::randomizer::AnyRandomizer,
        goal: &Goal,
        level: usize,
        t: usize,
        depth: usize,
        p: f64,
        first: &mut [f64],
    ) {
        if t == depth {
            return;
        }
        for (o, q) in r.next_distribution().into_iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            match goal.advance(level, o) {
                None => first[t + 1] += p * q,
                Some(next) => {
                    let mut moved = r.clone();
                    moved.observe(o).expect("possible");
                    walk(&moved, goal, next, t + 1, depth, p * q, first);
                }
            }
        }
    }
    let r = Spec::build(spec).expect("valid");
    let mut first = vec![0.0; depth + 1];
    walk(&r, goal, 0, 0, depth, 1.0, &mut first);
    first
}

#[test]
fn the_distribution_agrees_with_every_sequence() {
    for (spec, goal) in [
        (
            "pity(p=0.2, soft=2, rise=0.3, cap=4)",
            Goal::hits(vec![1], 2),
        ),
        ("prd(p=0.3)", Goal::hits(vec![1], 3)),
        (
            "deck(values=3, copies=2, refill_below=2)",
            Goal::hits(vec![0, 2], 3),
        ),
        ("dice(base=2d3)", Goal::every_one(vec![0, 2, 4])),
        ("deck(values=4)", Goal::every_one(vec![0, 1, 2, 3])),
        ("bag(min=1, max=3, sets=1)", Goal::every_one(vec![1, 2])),
        ("tgm(history=2, tries=2)", Goal::hits(vec![6], 2)),
    ] {
        let depth = 9;
        let exact = attempts_until(
            &Spec::build(spec).expect("valid"),
            &goal,
            depth,
            &Control::new(),
        )
        .expect("small");
        let brute = brute_force(spec, &goal, depth);
        for (t, brute) in brute.iter().enumerate() {
            assert!(
                (exact.first[t] - brute).abs() < 1e-12,
                "{spec} {goal:?} t={t}: {} vs {brute}",
                exact.first[t],
            );
        }
        assert!(exact.mean.is_some(), "{spec}");
    }
}

#[test]
fn the_published_banner_mean_and_certainty() {
    let banner = Spec::build("pity(p=0.006, soft=74, rise=0.06, cap=90)").expect("valid");
    let attempts =
        attempts_until(&banner, &Goal::hits(vec![1], 1), 0, &Control::new()).expect("small");
    assert!((attempts.mean.expect("certain") - 62.297).abs() < 5e-4);
    assert_eq!(attempts.first.len(), 91);
    assert_eq!(attempts.percentile(1.0), Some(90));
    assert_eq!(attempts.certain_by(), Some(90));
    assert!((attempts.done_within(73) - (1.0 - 0.994f64.powi(73))).abs() < 1e-12);
}

#[test]
fn monte_carlo_agrees_within_its_standard_error() {
    let dice = Spec::build("dice(base=2d6)").expect("valid");
    let goal = Goal::every_one((0..11).collect());
    let exact = attempts_until(&dice, &goal, 0, &Control::new()).expect("small");
    let estimate =
        simulate_attempts(&dice, &goal, 4000, 3, 100_000, &Control::new()).expect("small");
    let (m, e) = (
        estimate.mean.expect("all met"),
        estimate.mean_error.expect("mc"),
    );
    assert!(
        (m - exact.mean.expect("certain")).abs() < 4.0 * e,
        "{m} ± {e}"
    );
    assert!((estimate.done_within(52) - exact.done_within(52)).abs() < 0.04);
    assert_eq!(
        estimate,
        simulate_attempts(&dice, &goal, 4000, 3, 100_000, &Control::new()).expect("small")
    );
}

#[test]
fn expected_draws_agree_with_every_sequence() {
    // A streak-breaking shot as pity: 50%, +10 points a miss, certain at the 6th.
    let shot = Spec::build("pity(p=0.5, soft=2, rise=0.1, cap=6)").expect("valid");
    let chain = Chain::explore(&shot, &Control::new()).expect("small");
    let exact = expected_draws(&chain, &[1], 8, &Control::new()).expect("small");
    let mut brute = 0.0;
    for sequence in 0u32..1 << 8 {
        let mut r = shot.clone();
        let mut p = 1.0;
        for t in 0..8 {
            let o = (sequence >> t & 1) as usize;
            p *= r.next_distribution()[o];
            if p == 0.0 {
                break;
            }
            r.observe(o).expect("possible");
        }
        brute += p * f64::from(sequence.count_ones());
    }
    assert!((exact - brute).abs() < 1e-12, "{exact} vs {brute}");
}

#[test]
fn a_deck_gives_a_second_copy_only_after_its_refill() {
    let deck = Spec::build("deck(values=2)").expect("valid");
    let twice = attempts_until(&deck, &Goal::hits(vec![0], 2), 0, &Control::new()).expect("small");
    assert_eq!(twice.ever, 1.0);
    assert_eq!(twice.percentile(1.0), Some(4));
    assert_eq!(twice.percentile(0.25), Some(3));
    assert!(attempts_until(&deck, &Goal::hits(vec![2], 1), 0, &Control::new()).is_err());
    assert!(attempts_until(&deck, &Goal::every_one(vec![]), 0, &Control::new()).is_err());
    assert!(attempts_until(&deck, &Goal::hits(vec![0], 0), 0, &Control::new()).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn a_goal_that_may_never_be_met_has_no_mean() {
    // Half the time the machine falls into a state that never gives `x` again.
    let machine = crate::randomizer::Machine::from_json(
        r#"{"layers": [{"name": "a", "states": {
          "open": {"draw": {"x": "1/2", "y": "rest"}, "next": {"y": "shut"}},
          "shut": {"draw": {"y": 1}}}}]}"#,
    )
    .expect("valid");
    let attempts =
        attempts_until(&machine, &Goal::hits(vec![0], 2), 5, &Control::new()).expect("small");
    // x x: 1/4; from `open` after one x, the second x comes with 1/2 as well.
    assert!((attempts.ever - 0.25).abs() < 1e-15, "{}", attempts.ever);
    assert_eq!(attempts.mean, None);
    assert_eq!(attempts.first[2], 0.25);
    assert_eq!(attempts.first.len(), 6);
}

#[cfg(feature = "serde")]
mod exact_lane {
    use num_bigint::BigInt;
    use num_rational::BigRational;

    use super::*;
    use crate::randomizer::Machine;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    const PITY: &str = r#"{"layers": [{"name": "pity", "counter": 90,
      "draw": {"hit": "min(1, 0.6% + 6% * max(0, n - 72))", "miss": "rest"},
      "next": {"hit": 0, "miss": "n + 1"}}]}"#;

    #[test]
    fn the_banner_mean_is_the_exact_sum_over_its_first_hit() {
        let machine = Machine::from_json(PITY).expect("valid");
        let chain = Chain::explore(&machine, &Control::new()).expect("small");
        let goal = Goal::hits(vec![0], 1);
        let figures = exact_figures(&chain, &goal, Some(80), 90, &Control::new())
            .expect("fits")
            .expect("exact chances");
        // Σ k · P(first hit at k), each chance written out.
        let chance = |k: i64| match k {
            90 => ratio(1, 1),
            74..=89 => ratio(6, 1000) + ratio(60 * (k - 73), 1000),
            _ => ratio(6, 1000),
        };
        let (mut survive, mut mean, mut by_80) = (ratio(1, 1), ratio(0, 1), ratio(0, 1));
        for k in 1..=90 {
            let first = &survive * chance(k);
            mean += &first * BigInt::from(k);
            if k <= 80 {
                by_80 += &first;
            }
            survive -= first;
        }
        assert_eq!(figures.mean, Some(mean.clone()));
        assert_eq!(figures.within_budget, Some(by_80));
        let float = attempts_until(&machine, &goal, 0, &Control::new()).expect("small");
        let as_float = mean.numer().to_string().parse::<f64>().unwrap()
            / mean.denom().to_string().parse::<f64>().unwrap();
        assert!((float.mean.unwrap() - as_float).abs() < 1e-9);
        assert!((as_float - 62.297).abs() < 5e-4);
    }

    #[test]
    fn exact_draws_agree_with_every_sequence() {
        let shot = Machine::from_json(
            r#"{"layers": [{"name": "m", "counter": 6,
              "draw": {"hit": "min(1, 1/2 + n/10)", "miss": "rest"},
              "next": {"hit": 0, "miss": "min(5, n + 1)"}}]}"#,
        )
        .expect("valid");
        let chain = Chain::explore(&shot, &Control::new()).expect("small");
        let figures = exact_figures(&chain, &Goal::hits(vec![0], 1), Some(7), 6, &Control::new())
            .expect("fits")
            .expect("exact");
        let mut expected = ratio(0, 1);
        for sequence in 0u32..1 << 7 {
            let (mut p, mut misses) = (ratio(1, 1), 0i64);
            for t in 0..7 {
                let hit_chance = ratio(5 + misses, 10).min(ratio(1, 1));
                if sequence >> t & 1 == 1 {
                    p *= hit_chance;
                    misses = 0;
                } else {
                    p *= ratio(1, 1) - hit_chance;
                    misses = (misses + 1).min(5);
                }
            }
            expected += p * BigInt::from(sequence.count_ones());
        }
        assert_eq!(figures.expected_draws, Some(expected));
        // Certain by the sixth shot: the mean of the first hit is exact too.
        assert!(figures.mean.is_some());
    }

    #[test]
    fn randomizers_without_exact_chances_have_no_exact_lane() {
        let prd = Spec::build("prd(p=0.25)").expect("valid");
        let chain = Chain::explore(&prd, &Control::new()).expect("small");
        assert!(chain.exact().is_none());
        let figures = exact_figures(&chain, &Goal::hits(vec![1], 1), None, 4, &Control::new());
        assert_eq!(figures, Ok(None));
    }
}
