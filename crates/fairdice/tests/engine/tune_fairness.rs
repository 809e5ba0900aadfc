//! The tuner's two measures of fairness: outcome variance (the article's) and the
//! deviation from a weighted base. Each search ranks by the measure it names,
//! the race finds the exhaustive winner under either, and on a uniform base the
//! two rank the candidates alike.

use fairdice::Control;
use fairdice::analysis::MethodChoice;
use fairdice::tune::{
    Fairness, Grid, MatchLength, Outcomes, STATE_BUDGET, SystemResult, Tuning, tune,
};

fn tuning(outcomes: Outcomes, fairness: Fairness, method: MethodChoice) -> Tuning {
    Tuning {
        outcomes,
        samples: MatchLength::fixed(12).expect("valid"),
        min_entropy: 0.85,
        fairness,
        game: None,
        grids: vec![
            Grid::parse("deck(copies=1..3, refill_below=1..3)").expect("valid"),
            Grid::parse("fair(tightness=0..2 step 0.25)").expect("valid"),
            Grid::parse("dynamic(decrease=0.05..0.95 step 0.1)").expect("valid"),
        ],
        method,
    }
}

/// Budget steps for the race: too few to sweep every candidate exactly.
const BUDGET: u64 = 3_000_000;

fn exact() -> MethodChoice {
    MethodChoice::Exact { cap: STATE_BUDGET }
}

/// The qualifying candidate with the lowest `measure`, first in the grid on ties.
fn lowest(system: &SystemResult, measure: impl Fn(usize) -> f64) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, c) in system.candidates.iter().enumerate() {
        if c.qualifies && best.is_none_or(|b| measure(i) < measure(b) - 1e-12) {
            best = Some(i);
        }
    }
    best
}

#[test]
fn each_search_ranks_by_the_measure_it_names() {
    let base = || Outcomes::Base("2d3".into());
    let by_deviation = tune(
        &tuning(base(), Fairness::BaseDeviation, exact()),
        &Control::unlimited(),
    )
    .expect("small");
    let by_variance = tune(
        &tuning(base(), Fairness::OutcomeVariance, exact()),
        &Control::unlimited(),
    )
    .expect("small");
    let mut differ = false;
    for (d, v) in by_deviation.systems.iter().zip(&by_variance.systems) {
        // The same candidates, measured alike; only the ranking differs.
        assert_eq!(d.candidates, {
            let mut same = v.candidates.clone();
            for c in &mut same {
                c.fairness = c.base_deviation;
                c.fairness_error = c.base_deviation_error;
            }
            same
        });
        let expect_d = lowest(d, |i| d.candidates[i].base_deviation);
        let expect_v = lowest(v, |i| v.candidates[i].outcome_variance);
        assert_eq!(d.best, expect_d, "{}", d.system);
        assert_eq!(v.best, expect_v, "{}", v.system);
        for c in &d.candidates {
            assert_eq!(c.fairness, c.base_deviation);
        }
        differ |= d.best != v.best;
    }
    // On 2d3 sums the two measures disagree about some system's fairest
    // candidate: outcome variance wants 2 and 6 as often as 4.
    assert!(differ);
}

#[test]
fn the_race_finds_the_exhaustive_winner_by_base_deviation() {
    let base = || Outcomes::Base("2d3".into());
    let truth = tune(
        &tuning(base(), Fairness::BaseDeviation, exact()),
        &Control::unlimited(),
    )
    .expect("small");
    // A budget small enough that the race estimates many candidates.
    let raced = tune(
        &tuning(base(), Fairness::BaseDeviation, MethodChoice::default()),
        &Control::new().with_max_steps(BUDGET),
    )
    .expect("runs");
    let estimated = raced
        .systems
        .iter()
        .flat_map(|s| &s.candidates)
        .filter(|c| c.base_deviation_error.is_some())
        .count();
    assert!(
        estimated >= 10,
        "only {estimated} candidates were estimated"
    );
    for (race, exact) in raced.systems.iter().zip(&truth.systems) {
        let (won, best) = (
            race.best().expect("a winner"),
            exact.best().expect("a winner"),
        );
        assert_eq!(won.spec, best.spec, "{}", race.system);
        let off = (won.base_deviation - best.base_deviation).abs();
        match won.base_deviation_error {
            None => assert!(off < 1e-9, "{}: {off}", race.system),
            Some(error) => assert!(off <= 4.0 * error, "{}: {off} > 4 × {error}", race.system),
        }
    }
}

#[test]
fn on_a_uniform_base_both_measures_pick_the_same_winners() {
    for outcomes in [Outcomes::Values(4), Outcomes::Base("1d4".into())] {
        let run = |fairness| {
            tune(
                &tuning(outcomes.clone(), fairness, exact()),
                &Control::unlimited(),
            )
            .expect("small")
        };
        let (d, v) = (run(Fairness::BaseDeviation), run(Fairness::OutcomeVariance));
        for (a, b) in d.systems.iter().zip(&v.systems) {
            assert_eq!(a.best, b.best, "{outcomes}: {}", a.system);
            // k²·variance / (T·(k − 1)) with k = 4, T = 12.
            for c in &a.candidates {
                let scaled = 16.0 * c.outcome_variance / (12.0 * 3.0);
                assert!((c.base_deviation - scaled).abs() < 1e-9, "{}", c.spec);
            }
        }
    }
}

#[test]
fn measures_parse_with_underscores_or_hyphens_and_defaults_follow_the_outcomes() {
    assert_eq!("base-deviation".parse(), Ok(Fairness::BaseDeviation));
    assert_eq!("outcome_variance".parse(), Ok(Fairness::OutcomeVariance));
    assert!("variance".parse::<Fairness>().is_err());
    assert_eq!(
        Fairness::default_for(&Outcomes::Values(6)),
        Fairness::OutcomeVariance
    );
    assert_eq!(
        Fairness::default_for(&Outcomes::Base("2d6".into())),
        Fairness::BaseDeviation
    );
}
