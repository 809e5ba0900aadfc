//! The racing search against the exhaustive one: on a case where a tight budget
//! makes it estimate most candidates, it still finds the winners an exact
//! measurement of every candidate finds, with the same values, and it says so;
//! with too little budget to settle, it says the winner is not certain. A line of
//! candidates (one parameter varying) is screened by bisection, the rest of it with
//! light runs; the winner never rests on the line being monotone.

use fairdice::Control;
use fairdice::analysis::{Method, MethodChoice};
use fairdice::tune::race::LIGHT_SCREEN_RUNS;
use fairdice::tune::{Fairness, Grid, Outcomes, TuneResult, Tuning, tune};

fn exhaustive(values: u64, samples: u64) -> TuneResult {
    swept(Tuning::article(values, samples).expect("valid"))
}

fn swept(mut tuning: Tuning) -> TuneResult {
    tuning.method = MethodChoice::Exact {
        cap: fairdice::tune::STATE_BUDGET,
    };
    tune(&tuning, &Control::unlimited()).expect("every candidate sweeps")
}

/// The candidates of `system` estimated from the light screening runs alone.
fn light(result: &TuneResult, system: &str) -> usize {
    result
        .systems
        .iter()
        .filter(|s| s.system == system)
        .flat_map(|s| &s.candidates)
        .filter(
            |c| matches!(c.method, Method::MonteCarlo { runs, .. } if runs == LIGHT_SCREEN_RUNS),
        )
        .count()
}

fn estimated(result: &TuneResult) -> usize {
    result
        .systems
        .iter()
        .flat_map(|s| &s.candidates)
        .filter(|c| matches!(c.method, Method::MonteCarlo { .. }))
        .count()
}

#[test]
fn the_race_finds_the_exhaustive_winners_with_their_exact_values() {
    let truth = exhaustive(8, 30);
    let tuning = Tuning::article(8, 30).expect("valid");
    let raced = tune(&tuning, &Control::new().with_max_steps(200_000_000)).expect("runs");
    assert!(
        estimated(&raced) > 50,
        "the budget should leave most candidates to Monte Carlo, {} were",
        estimated(&raced)
    );
    // Dynamic dice are a line: bisection found the crossing, and most of the
    // line was settled by light runs.
    assert!(
        light(&raced, "dynamic") > 50,
        "{}",
        light(&raced, "dynamic")
    );
    assert_eq!(light(&raced, "deck"), 0, "the deck's grid is not a line");
    for (race, exact) in raced.systems.iter().zip(&truth.systems) {
        let (won, best) = (
            race.best().expect("a winner"),
            exact.best().expect("a winner"),
        );
        assert_eq!(won.spec, best.spec, "{}", race.system);
        // The winner is confirmed by the exact sweep: the same numbers.
        assert!(
            matches!(won.method, Method::Exact { .. }),
            "{:?}",
            won.method
        );
        assert_eq!(won.mean_entropy_error, None);
        assert!((won.outcome_variance - best.outcome_variance).abs() < 1e-12);
        assert!((won.mean_entropy - best.mean_entropy).abs() < 1e-12);
        assert!(race.certain, "{}", race.system);
        // Every candidate the race estimated is within its error of the truth.
        for (c, t) in race.candidates.iter().zip(&exact.candidates) {
            if let Some(error) = c.outcome_variance_error {
                let off = (c.outcome_variance - t.outcome_variance).abs();
                assert!(off <= 6.0 * error + 1e-9, "{}: {off} > 6 × {error}", c.spec);
            }
        }
    }
}

#[test]
fn a_budget_too_small_to_settle_says_the_winner_is_not_certain() {
    let tuning = Tuning::article(8, 30).expect("valid");
    let raced = tune(&tuning, &Control::new().with_max_steps(50_000_000)).expect("runs");
    assert!(raced.systems.iter().any(|s| !s.certain));
    for system in &raced.systems {
        if let Some(best) = system.best() {
            assert!(best.outcome_variance_error.is_some() || system.certain);
        }
    }
    // The same search again on one thread: the same numbers (seeded, thread count
    // aside).
    #[cfg(feature = "parallel")]
    {
        let again = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool")
            .install(|| tune(&tuning, &Control::new().with_max_steps(50_000_000)).expect("runs"));
        assert_eq!(raced, again);
    }
}

#[test]
fn a_line_whose_winner_is_not_at_the_crossing_is_still_raced_to_it() {
    // On an uneven base the fairest dynamic dice keep far more entropy than the
    // threshold asks (0.948 against 0.9): the bisection's bracket points the wrong
    // way, and refining the light looks must still find the exhaustive winner.
    let tuning = Tuning {
        outcomes: Outcomes::Base("d{1,1,1,2,3,3}".into()),
        fairness: Fairness::BaseDeviation,
        grids: vec![Grid::default_for("dynamic").expect("a grid")],
        // Twenty states a step: every candidate is left to Monte Carlo.
        method: MethodChoice::Auto {
            budget: 20,
            runs: fairdice::tune::FALLBACK_RUNS,
            seed: 1,
        },
        ..Tuning::article(3, 30).expect("valid")
    };
    let truth = swept(tuning.clone());
    let raced = tune(&tuning, &Control::new()).expect("runs");
    assert_eq!(estimated(&raced), 100);
    assert!(light(&raced, "dynamic") > 0, "{}", light(&raced, "dynamic"));
    let (won, best) = (
        raced.systems[0].best().expect("a winner"),
        truth.systems[0].best().expect("a winner"),
    );
    assert_eq!(best.spec, "dynamic(base=d{1,1,1,2,3,3}, decrease=0.935)");
    assert_eq!(won.spec, best.spec);
    let error = won.base_deviation_error.expect("estimated");
    assert!((won.base_deviation - best.base_deviation).abs() <= 4.0 * error);
}
