//! Monotonicity along the tuner's grids, tested exactly: along the fair die
//! roller's tightness the mean entropy of a match falls, on uniform and weighted
//! bases alike, and along dynamic dice's decrease it rises on uniform bases.
//! Dynamic dice over a weighted base were not monotone in every estimate tried.
//! Every candidate is swept exactly; a pair out of order fails with both.

use fairdice::Control;
use fairdice::analysis::MethodChoice;
use fairdice::tune::{Grid, MatchLength, Outcomes, STATE_BUDGET, Tuning, tune};

/// The exact mean entropies of a grid's candidates, in the grid's order.
fn entropies(outcomes: Outcomes, samples: u64, grid: &str) -> Vec<(String, f64)> {
    let tuning = Tuning {
        outcomes,
        samples: MatchLength::fixed(samples).expect("a length"),
        grids: vec![Grid::parse(grid).expect("a grid")],
        method: MethodChoice::Exact { cap: STATE_BUDGET },
        ..Tuning::article(6, samples).expect("valid")
    };
    let result = tune(&tuning, &Control::unlimited()).expect("every candidate sweeps");
    result.systems[0]
        .candidates
        .iter()
        .map(|c| {
            assert_eq!(c.mean_entropy_error, None, "{} is exact", c.spec);
            (c.spec.clone(), c.mean_entropy)
        })
        .collect()
}

#[track_caller]
fn falls(curve: &[(String, f64)]) {
    assert!(curve.len() >= 5, "a grid of several candidates");
    for pair in curve.windows(2) {
        let ((a, ea), (b, eb)) = (&pair[0], &pair[1]);
        assert!(eb < ea, "{b}: {eb} is not below {a}: {ea}");
    }
}

#[track_caller]
fn rises(curve: &[(String, f64)]) {
    let reversed: Vec<(String, f64)> = curve.iter().rev().cloned().collect();
    falls(&reversed);
}

#[test]
fn the_fair_rollers_entropy_falls_with_its_tightness_on_every_base() {
    for (outcomes, samples) in [
        (Outcomes::Values(3), 12),
        (Outcomes::Values(4), 12),
        (Outcomes::Values(6), 10),
        (Outcomes::Base("2d6".into()), 8),
        (Outcomes::Base("3d4".into()), 8),
        (Outcomes::Base("d{1,1,2,3}".into()), 12),
    ] {
        falls(&entropies(
            outcomes,
            samples,
            "fair(tightness=0..3 step 0.25)",
        ));
    }
}

#[test]
fn dynamic_dice_gain_entropy_as_their_decrease_grows_on_uniform_bases() {
    for (values, samples) in [(3, 12), (4, 12), (6, 10)] {
        rises(&entropies(
            Outcomes::Values(values),
            samples,
            "dynamic(decrease=0.05..0.95 step 0.05)",
        ));
    }
}
