//! The exact sweep against seeded Monte Carlo on several randomizers, and the
//! article's parameter search reproduced by the exact method.

use fairdice::analysis::{
    AnalysisError, AnalysisOptions, Method, MethodChoice, analyze, exact, monte_carlo,
};
use fairdice::randomizer::Spec;
use fairdice::tune::{Grid, MatchLength, Outcomes, TuneError, Tuning, tune};
use fairdice::{Control, Failure, Stop};

/// How many standard errors a Monte Carlo estimate may stray from the exact value.
/// With about 2,000 comparisons, 5 standard errors keeps a false alarm below 1e-3.
const SIGMAS: f64 = 5.0;

fn agree(what: &str, exact: f64, estimate: f64, error: f64) {
    let allowed = SIGMAS * error + 1e-9;
    assert!(
        (exact - estimate).abs() <= allowed,
        "{what}: exact {exact} vs Monte Carlo {estimate} ± {error}"
    );
}

#[test]
fn exact_agrees_with_monte_carlo_within_its_error() {
    for spec in [
        "deck(values=6, copies=2, refill_below=4)",
        "deck(values=5, copies=1, refill_below=3, refill=reshuffle)",
        "dynamic(values=6, decrease=0.355)",
        "fair(base=2d4, tightness=1)",
        "bag(min=1, max=4, sets=2)",
        "prd(p=0.2)",
        "nes",
    ] {
        let r = Spec::build(spec).expect("valid spec");
        let samples = 20;
        let exact = exact::curves(&r, samples, &Default::default(), &Control::new())
            .expect("within budget")
            .curves;
        let estimate = monte_carlo::estimate(&r, samples, 20_000, 42, false, &Control::new())
            .expect("not cancelled")
            .curves;
        let errors = estimate.errors.clone().expect("standard errors");
        for t in 0..samples {
            agree(
                &format!("{spec} entropy before sample {}", t + 1),
                exact.entropy[t],
                estimate.entropy[t],
                errors.entropy[t],
            );
            agree(
                &format!("{spec} outcome variance after sample {}", t + 1),
                exact.outcome_variance[t],
                estimate.outcome_variance[t],
                errors.outcome_variance[t],
            );
            agree(
                &format!("{spec} repeat at sample {}", t + 1),
                exact.repeat[t],
                estimate.repeat[t],
                errors.repeat[t],
            );
        }
        agree(
            &format!("{spec} mean entropy"),
            exact.mean_entropy(samples),
            estimate.mean_entropy(samples),
            errors.mean_entropy[samples - 1],
        );
    }
}

const RUNS: u64 = 20_000;

#[test]
fn exact_droughts_agree_with_monte_carlo() {
    for spec in [
        "deck(values=4, copies=2, refill_below=3)",
        "dynamic(values=4, decrease=0.5)",
        "prd(p=0.3)",
    ] {
        let r = Spec::build(spec).expect("valid spec");
        let exact = analyze(&r, &AnalysisOptions::new(16), &Control::new()).expect("small");
        let exact = exact.droughts.expect("asked for");
        assert!(matches!(exact.method, Method::Exact { .. }));
        let estimate = monte_carlo::estimate(&r, 16, RUNS, 7, true, &Control::new())
            .expect("not cancelled")
            .droughts
            .expect("asked for");
        for (e, m) in exact.outcomes.iter().zip(&estimate) {
            let (gap_error, exceeds_errors) = m.errors.clone().expect("errors");
            agree(
                &format!("{spec} longest gap"),
                e.longest_gap,
                m.longest_gap,
                gap_error,
            );
            for (k, (&p, &error)) in e.exceeds.iter().zip(&exceeds_errors).enumerate() {
                // A rare event may have no hit at all, and then no estimated error:
                // use the binomial error of the exact probability as well.
                let binomial = (p * (1.0 - p) / RUNS as f64).sqrt() + 1.0 / RUNS as f64;
                agree(
                    &format!("{spec} P(gap > {k}) of outcome {}", e.outcome),
                    p,
                    m.exceeds[k],
                    error.max(binomial),
                );
            }
        }
    }
}

#[test]
fn automatic_method_falls_back_to_monte_carlo_over_budget() {
    let r = Spec::build("fair(base=2d6, tightness=0.5)").expect("valid");
    let options = AnalysisOptions {
        samples: 30,
        method: MethodChoice::Auto {
            budget: 1000,
            runs: 4000,
            seed: 3,
        },
        droughts: false,
    };
    let result = analyze(&r, &options, &Control::new()).expect("falls back");
    assert_eq!(
        result.method,
        Method::MonteCarlo {
            runs: 4000,
            seed: 3
        }
    );
    assert!(result.errors.is_some());
    let forced = AnalysisOptions {
        method: MethodChoice::Exact { cap: 1000 },
        ..options.clone()
    };
    let error = analyze(&r, &forced, &Control::new()).expect_err("over the cap");
    // Refused for its states or, sooner, for the steps its growth projects.
    let message = error.to_string();
    assert!(
        message.contains("more than 1000 states") || message.contains("steps (the limit"),
        "{error}"
    );
    assert_eq!(error.kind(), fairdice::FailureKind::TooLarge);
}

/// The article's table ("Making Randomness Fair", reproduced in REFERENCE §2):
/// 6 outcomes, 25 samples → deck (1, 6) 0.51, dynamic 0.355 0.46;
/// 4 outcomes, 30 samples → deck (8, 1) 0.36, dynamic 0.425 0.50.
#[test]
fn the_articles_table() {
    for (values, samples, deck, deck_variance, decrease, dynamic_variance) in [
        (6, 25, "copies=1, refill_below=6", "0.51", "0.355", "0.46"),
        (4, 30, "copies=8, refill_below=1", "0.36", "0.425", "0.50"),
    ] {
        let result = tune(
            &Tuning::article(values, samples).expect("valid"),
            &Control::new(),
        )
        .expect("runs");
        let best_deck = result.systems[0].best().expect("a deck qualifies");
        assert_eq!(
            best_deck.spec,
            format!("deck(values={values}, {deck}, refill=top-up)")
        );
        assert_eq!(format!("{:.2}", best_deck.outcome_variance), deck_variance);
        assert!(best_deck.mean_entropy >= 0.9);
        let best_dynamic = result.systems[1].best().expect("dynamic dice qualify");
        assert_eq!(
            best_dynamic.spec,
            format!("dynamic(values={values}, decrease={decrease})")
        );
        assert_eq!(
            format!("{:.2}", best_dynamic.outcome_variance),
            dynamic_variance
        );
        assert!(matches!(best_dynamic.method, Method::Exact { .. }));
    }
}

#[test]
#[cfg(feature = "parallel")]
fn the_search_is_deterministic() {
    let tuning = Tuning::article(5, 12).expect("valid");
    let first = tune(&tuning, &Control::new()).expect("runs");
    let again = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
        .install(|| tune(&tuning, &Control::new()).expect("runs"));
    assert_eq!(first, again);
}

#[test]
fn an_uncertain_match_length_reuses_one_sweep() {
    let tuning = Tuning {
        outcomes: Outcomes::Values(4),
        samples: "20..40".parse::<MatchLength>().expect("valid"),
        min_entropy: 0.9,
        fairness: fairdice::tune::Fairness::OutcomeVariance,
        game: None,
        grids: vec![Grid::parse("deck(copies=8, refill_below=1)").expect("valid")],
        method: MethodChoice::default(),
    };
    let result = tune(&tuning, &Control::new()).expect("runs");
    let deck = result.systems[0].best().expect("qualifies");
    assert_eq!(deck.curves.len(), 40);
    let expected: f64 = (20..=40)
        .map(|t| deck.curves.outcome_variance(t))
        .sum::<f64>()
        / 21.0;
    assert!((deck.outcome_variance - expected).abs() < 1e-12);
    // The deck of 32 cards is level only near 32 samples: over 20..40 it is
    // over twice as unfair as at exactly 30 (0.36).
    assert!(deck.outcome_variance > 0.72, "{}", deck.outcome_variance);
}

#[test]
fn a_cancelled_control_stops_every_method_and_the_search() {
    let cancelled = Control::new();
    cancelled.cancel();
    let r = Spec::build("dynamic(values=6, decrease=0.355)").expect("valid");
    for method in [
        MethodChoice::default(),
        MethodChoice::Exact { cap: 1_000_000 },
        MethodChoice::MonteCarlo {
            runs: 10_000,
            seed: 1,
        },
    ] {
        let options = AnalysisOptions {
            method,
            ..AnalysisOptions::new(25)
        };
        assert_eq!(
            analyze(&r, &options, &cancelled),
            Err(AnalysisError::Stopped(Stop::Cancelled)),
            "{method:?}"
        );
    }
    let tuning = Tuning::article(6, 25).expect("valid");
    assert_eq!(
        tune(&tuning, &cancelled).err(),
        Some(TuneError::Stopped(Stop::Cancelled))
    );
    // A control never cancelled changes nothing.
    let deck = tune(&tuning, &Control::new()).expect("runs").systems[0].clone();
    assert_eq!(
        format!("{:.4}", deck.best().expect("qualifies").outcome_variance),
        "0.5089"
    );
}
