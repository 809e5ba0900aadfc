//! Tuning for the seats of a game: the search ranks the candidates that keep the
//! entropy threshold by the seat analysis's spread (E[best − worst player's
//! total]) and reports plain dice's spread beside it.

use fairdice::Control;
use fairdice::analysis::MethodChoice;
use fairdice::analysis::seats::{self, Columns, Game, SeatOptions};
use fairdice::randomizer::Spec;
use fairdice::tune::{
    Fairness, Grid, MatchLength, Outcomes, STATE_BUDGET, TuneError, Tuning, tune,
};

/// Two players taking turns over 2d3 sums: the roller collects on 2 and 6, the
/// other player on 4.
fn game() -> Game {
    Game::new(
        vec!["first".into(), "second".into()],
        vec![(2, vec![1, 0]), (6, vec![1, 0]), (4, vec![0, 1])],
        true,
        Columns::Roller,
    )
    .expect("valid game")
}

fn tuning(samples: &str, method: MethodChoice) -> Tuning {
    Tuning {
        outcomes: Outcomes::Base("2d3".into()),
        samples: samples.parse::<MatchLength>().expect("valid"),
        min_entropy: 0.8,
        fairness: Fairness::SeatSpread,
        game: Some(game()),
        grids: vec![
            Grid::parse("deck(copies=1..2, refill_below=1..3)").expect("valid"),
            Grid::parse("dynamic(decrease=0.1..0.9 step 0.2)").expect("valid"),
        ],
        method,
    }
}

fn exact_spread(spec: &str, samples: usize) -> f64 {
    let r = Spec::build(spec).expect("valid");
    let options = SeatOptions {
        method: MethodChoice::Exact { cap: STATE_BUDGET },
        droughts: false,
        shares: Vec::new(),
        ..SeatOptions::new(samples)
    };
    seats::analyze(&r, &game(), &options, &Control::new())
        .expect("small")
        .all_rolls
        .spread
        .value
}

#[test]
fn the_winner_has_the_least_spread_of_the_qualifiers_every_one_swept_exactly() {
    let search = tuning("8", MethodChoice::Exact { cap: STATE_BUDGET });
    let result = tune(&search, &Control::new()).expect("small");
    for system in &result.systems {
        let mut best: Option<(f64, &str)> = None;
        for c in system.candidates.iter().filter(|c| c.qualifies) {
            let spread = exact_spread(&c.spec, 8);
            assert!((c.fairness - spread).abs() < 1e-12, "{}", c.spec);
            assert_eq!(c.fairness_error, None);
            if best.is_none_or(|(b, _)| spread < b - 1e-12) {
                best = Some((spread, &c.spec));
            }
        }
        let winner = system.best().expect("a qualifier");
        assert_eq!(
            Some(winner.spec.as_str()),
            best.map(|b| b.1),
            "{}",
            system.system
        );
        assert!(system.certain, "{}", system.system);
        // Candidates that miss the threshold are not analyzed for seats.
        for c in system.candidates.iter().filter(|c| !c.qualifies) {
            assert!(c.fairness.is_nan(), "{}", c.spec);
        }
    }
    let baseline = search.plain_dice().expect("plain dice");
    let dice = exact_spread("dice(base=2d3)", 8);
    assert_eq!(baseline.seat_spread, Some(dice));
    assert_eq!(baseline.seat_spread_error, None, "swept exactly");
}

#[test]
fn plain_dice_too_large_to_sweep_are_estimated_with_their_error() {
    // The beginner Catan board over 40 rolls holds more (state, totals) pairs a
    // step than the default budget: plain dice fall back to the search's runs.
    let payoffs = [
        (2, [1, 0, 0, 0]),
        (3, [0, 1, 1, 1]),
        (4, [0, 1, 0, 2]),
        (5, [0, 2, 1, 0]),
        (6, [1, 0, 1, 1]),
        (8, [1, 1, 1, 0]),
        (9, [1, 0, 0, 1]),
        (10, [1, 0, 0, 1]),
        (11, [1, 1, 1, 0]),
        (12, [0, 0, 1, 0]),
    ];
    let game = Game::new(
        ["red", "blue", "white", "orange"]
            .map(String::from)
            .to_vec(),
        payoffs.map(|(o, row)| (o, row.to_vec())).to_vec(),
        true,
        Columns::Players,
    )
    .expect("valid game");
    let method = MethodChoice::Auto {
        budget: STATE_BUDGET,
        runs: 4_000,
        seed: 3,
    };
    let search = Tuning {
        outcomes: Outcomes::Base("2d6".into()),
        samples: "40".parse::<MatchLength>().expect("valid"),
        game: Some(game.clone()),
        grids: vec![Grid::parse("dice").expect("valid")],
        method,
        ..tuning("8", MethodChoice::default())
    };
    let baseline = search.plain_dice().expect("plain dice");
    let error = baseline.seat_spread_error.expect("estimated");
    let dice = Spec::build("dice(base=2d6)").expect("valid");
    let options = SeatOptions {
        method,
        droughts: false,
        shares: Vec::new(),
        ..SeatOptions::new(40)
    };
    let alone = seats::analyze(&dice, &game, &options, &Control::new())
        .expect("estimated")
        .all_rolls
        .spread;
    assert_eq!(baseline.seat_spread, Some(alone.value), "the same runs");
    assert_eq!(Some(error), alone.error);
    assert!(error > 0.0 && error < 0.1 * alone.value, "{error}");
}

#[test]
fn an_uncertain_length_weighs_the_spreads_of_its_lengths() {
    let search = tuning("6..8", MethodChoice::Exact { cap: STATE_BUDGET });
    let result = tune(&search, &Control::new()).expect("small");
    let winner = result.systems[1].best().expect("a qualifier");
    let expected: f64 = (6..=8).map(|t| exact_spread(&winner.spec, t)).sum::<f64>() / 3.0;
    assert!((winner.fairness - expected).abs() < 1e-12);
}

#[test]
fn the_automatic_search_agrees_with_the_exhaustive_one() {
    let exact = tune(
        &tuning("8", MethodChoice::Exact { cap: STATE_BUDGET }),
        &Control::new(),
    )
    .expect("small");
    let auto = tune(&tuning("8", MethodChoice::default()), &Control::new()).expect("small");
    for (a, e) in auto.systems.iter().zip(&exact.systems) {
        let (won, truth) = (a.best().expect("winner"), e.best().expect("winner"));
        let off = (won.fairness - truth.fairness).abs();
        match won.fairness_error {
            None => assert_eq!(won.spec, truth.spec, "{}", a.system),
            Some(error) => assert!(off <= 4.0 * error, "{}: {off} > 4 × {error}", a.system),
        }
    }
}

#[test]
fn a_seat_measure_needs_a_game() {
    let search = Tuning {
        game: None,
        ..tuning("8", MethodChoice::default())
    };
    assert!(matches!(
        tune(&search, &Control::new()),
        Err(TuneError::NoGame)
    ));
}
