//! Seat figures checked against brute-force enumeration of every sequence, closed
//! forms and Monte Carlo.

use super::*;
use crate::randomizer::{Randomizer, Spec};

/// How far an exact figure may stray from the brute-force one (`f64` rounding of
/// sums of a few thousand products).
const TOLERANCE: f64 = 1e-12;

/// The figures of one scope computed from every sequence of `samples` outcomes
/// with its probability: (per player distribution, per player expected longest
/// drought, spread, starved chances).
struct Oracle {
    totals: Vec<Vec<f64>>,
    droughts: Vec<f64>,
    spread: f64,
    starved: Vec<f64>,
}

fn brute_force(spec: &str, game: &Game, samples: usize, scope: Scope, shares: &[f64]) -> Oracle {
    let r = Spec::build(spec).expect("valid spec");
    let table = game.table(&r).expect("fits");
    let players = table.players();
    let first = crate::analysis::base_probabilities(&r);
    // Fair shares straight from the definition.
    let fair: Vec<f64> = (0..players)
        .map(|p| {
            let mut f = 0.0;
            for t in 0..samples {
                if scope == Scope::OwnTurns && table.roller(t) != Some(p) {
                    continue;
                }
                for (o, q) in first.iter().enumerate() {
                    f += q * f64::from(table.amount(t, o, p));
                }
            }
            f
        })
        .collect();
    let mut oracle = Oracle {
        totals: vec![vec![0.0; samples * 10 + 1]; players],
        droughts: vec![0.0; players],
        spread: 0.0,
        starved: vec![0.0; shares.len()],
    };
    let mut stack = vec![(r, 1.0, Vec::<usize>::new())];
    while let Some((r, p, sequence)) = stack.pop() {
        if sequence.len() == samples {
            let mut totals = vec![0u64; players];
            let mut longest = vec![0u64; players];
            for player in 0..players {
                let mut run = 0;
                for (t, &o) in sequence.iter().enumerate() {
                    let own = table.roller(t).is_none_or(|roller| roller == player);
                    if scope == Scope::OwnTurns && !own {
                        continue;
                    }
                    let amount = table.amount(t, o, player);
                    totals[player] += u64::from(amount);
                    run = if amount > 0 { 0 } else { run + 1 };
                    longest[player] = longest[player].max(run);
                }
                oracle.totals[player][totals[player] as usize] += p;
                oracle.droughts[player] += p * longest[player] as f64;
            }
            let best = *totals.iter().max().expect("players");
            let worst = *totals.iter().min().expect("players");
            oracle.spread += p * (best - worst) as f64;
            for (k, &share) in shares.iter().enumerate() {
                let starved = (0..players)
                    .any(|q| fair[q] > 0.0 && totals[q] as f64 <= share * fair[q] + 1e-9);
                if starved {
                    oracle.starved[k] += p;
                }
            }
            continue;
        }
        for (i, &q) in r.next_distribution().iter().enumerate() {
            if q > 0.0 {
                let mut child = r.clone();
                child.observe(i).expect("possible");
                let mut s = sequence.clone();
                s.push(i);
                stack.push((child, p * q, s));
            }
        }
    }
    oracle
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE
}

fn assert_matches_brute_force(spec: &str, game: &Game, samples: usize) {
    let shares = vec![0.0, 0.5, 0.75, 1.0];
    let options = SeatOptions {
        samples,
        method: MethodChoice::Exact { cap: 1_000_000 },
        shares: shares.clone(),
        droughts: true,
    };
    let r = Spec::build(spec).expect("valid");
    let result = analyze(&r, game, &options, &Control::new()).expect("small");
    assert!(matches!(result.method, Method::Exact { .. }));
    let mut scopes = vec![&result.all_rolls];
    scopes.extend(result.own_turns.as_ref());
    assert_eq!(scopes.len(), if game.turns() { 2 } else { 1 });
    for figures in scopes {
        let oracle = brute_force(spec, game, samples, figures.scope, &shares);
        let what = format!("{spec}, T={samples}, {:?}", figures.scope);
        for (p, player) in figures.players.iter().enumerate() {
            for (k, want) in oracle.totals[p].iter().enumerate() {
                let got = player.totals.get(k).copied().unwrap_or(0.0);
                assert!(
                    close(got, *want),
                    "{what}: P(player {p} total = {k}) {got} vs {want}"
                );
            }
            let mean: f64 = oracle.totals[p]
                .iter()
                .enumerate()
                .map(|(k, m)| k as f64 * m)
                .sum();
            assert!(
                close(player.expected_total.value, mean),
                "{what}: mean of {p}"
            );
            // The growth ends where the match does.
            let variance: f64 = oracle.totals[p]
                .iter()
                .enumerate()
                .map(|(k, m)| (k as f64 - mean).powi(2) * m)
                .sum();
            assert_eq!(figures.rolls, (1..=samples).collect::<Vec<_>>());
            assert!(close(*player.expected_by_roll.last().expect("T"), mean));
            assert!((player.sd_by_roll.last().expect("T") - variance.sqrt()).abs() < 1e-9);
            assert!(close(
                *player.fair_share_by_roll.last().expect("T"),
                player.fair_share
            ));
            let drought = player.longest_drought.expect("asked for").value;
            assert!(
                close(drought, oracle.droughts[p]),
                "{what}: drought of {p}: {drought} vs {}",
                oracle.droughts[p]
            );
        }
        assert!(
            close(figures.spread.value, oracle.spread),
            "{what}: spread {} vs {}",
            figures.spread.value,
            oracle.spread
        );
        // The spread after each roll is the spread of the match cut there.
        assert_eq!(figures.spread_by_roll.len(), samples);
        for t in 1..=samples {
            let cut = brute_force(spec, game, t, figures.scope, &[]);
            let got = figures.spread_by_roll[t - 1];
            assert!(
                close(got, cut.spread),
                "{what}: spread after {t} rolls {got} vs {}",
                cut.spread
            );
        }
        for (starved, want) in figures.starved.iter().zip(&oracle.starved) {
            assert!(
                close(starved.probability.value, *want),
                "{what}: starved at {}: {} vs {want}",
                starved.share,
                starved.probability.value
            );
        }
    }
}

fn game(payoffs: Vec<(i64, Vec<u32>)>, turns: bool, columns: Columns) -> Game {
    Game::new(vec!["a".into(), "b".into()], payoffs, turns, columns).expect("valid")
}

#[test]
fn plain_dice_agree_with_every_sequence() {
    // Three and four outcomes; multiplicities, a shared outcome and one paying no one.
    let shared = game(
        vec![(1, vec![2, 0]), (2, vec![1, 1]), (3, vec![0, 1])],
        false,
        Columns::Players,
    );
    let turns = game(
        vec![(1, vec![1, 0]), (3, vec![0, 2]), (4, vec![1, 1])],
        true,
        Columns::Players,
    );
    let roller = game(
        vec![(2, vec![1, 0]), (4, vec![2, 1])],
        true,
        Columns::Roller,
    );
    for samples in [1, 2, 5, 8] {
        assert_matches_brute_force("dice(values=3)", &shared, samples);
        assert_matches_brute_force("dice(values=4)", &turns, samples);
        assert_matches_brute_force("dice(base=d{1,2,2,4})", &roller, samples);
    }
}

#[test]
fn stateful_randomizers_agree_with_every_sequence() {
    let shared = game(
        vec![(1, vec![2, 0]), (2, vec![1, 1]), (3, vec![0, 1])],
        false,
        Columns::Players,
    );
    let roller = game(
        vec![(2, vec![1, 0]), (4, vec![2, 1])],
        true,
        Columns::Roller,
    );
    for samples in [3, 7, 8] {
        assert_matches_brute_force("deck(values=3, copies=2, refill_below=2)", &shared, samples);
        assert_matches_brute_force("fair(values=3, tightness=1)", &shared, samples);
        assert_matches_brute_force("deck(values=4, copies=1, refill_below=1)", &roller, samples);
        assert_matches_brute_force("fair(base=d{1,2,2,4}, tightness=1.5)", &roller, samples);
        // Each player held to their own history.
        assert_matches_brute_force(
            "fair(base=d{1,2,2,4}, tightness=1.5, seats=2)",
            &roller,
            samples,
        );
        assert_matches_brute_force("fair(values=3, tightness=1, seats=3)", &shared, samples);
        assert_matches_brute_force(
            "prd(p=0.3)",
            &game(
                vec![(1, vec![1, 0]), (0, vec![0, 1])],
                true,
                Columns::Players,
            ),
            samples,
        );
    }
}

#[test]
fn a_players_count_on_plain_2d6_is_binomial() {
    // Settlements on a 6 and an 8: 10 of 36 rolls pay, one resource each.
    let game = Game::new(
        vec!["six-eight".into(), "two".into()],
        vec![(6, vec![1, 0]), (8, vec![1, 0]), (2, vec![0, 1])],
        false,
        Columns::Players,
    )
    .expect("valid");
    let dice = Spec::build("dice(base=2d6)").expect("valid");
    let samples = 30;
    let result = analyze(&dice, &game, &SeatOptions::new(samples), &Control::new()).expect("small");
    let p: f64 = 10.0 / 36.0;
    let mut binomial = 1.0f64; // C(T, k)
    for (k, got) in result.all_rolls.players[0].totals.iter().enumerate() {
        let want = binomial * p.powi(k as i32) * (1.0 - p).powi((samples - k) as i32);
        assert!((got - want).abs() < 1e-14, "k={k}: {got} vs {want}");
        binomial = binomial * (samples - k) as f64 / (k + 1) as f64;
    }
    let six_eight = &result.all_rolls.players[0];
    assert!((six_eight.fair_share - samples as f64 * p).abs() < 1e-12);
    assert!((six_eight.expected_total.value - samples as f64 * p).abs() < 1e-12);
    // After t rolls the count is Binomial(t, p): mean t·p, sd √(t·p·(1 − p)).
    for (i, &t) in result.all_rolls.rolls.iter().enumerate() {
        let t = t as f64;
        assert!((six_eight.expected_by_roll[i] - t * p).abs() < 1e-12);
        assert!((six_eight.fair_share_by_roll[i] - t * p).abs() < 1e-12);
        assert!((six_eight.sd_by_roll[i] - (t * p * (1.0 - p)).sqrt()).abs() < 1e-9);
    }
}

#[test]
fn totals_are_followed_at_every_roll_or_at_evenly_spaced_checkpoints() {
    assert_eq!(checkpoints(3), vec![1, 2, 3]);
    assert_eq!(checkpoints(MAX_CHECKPOINTS).len(), MAX_CHECKPOINTS);
    for samples in [MAX_CHECKPOINTS + 1, 1000, 99_999] {
        let rolls = checkpoints(samples);
        assert_eq!(rolls.len(), MAX_CHECKPOINTS);
        assert_eq!(rolls.last(), Some(&samples));
        assert!(rolls.windows(2).all(|w| w[0] < w[1]), "{samples}");
    }
}

#[test]
fn the_exact_sweep_agrees_with_monte_carlo() {
    // Three players on a Catan-like board, under the fair die roller.
    let game = Game::new(
        vec!["red".into(), "blue".into(), "white".into()],
        vec![
            (4, vec![1, 0, 1]),
            (5, vec![0, 2, 0]),
            (6, vec![1, 0, 0]),
            (8, vec![2, 1, 0]),
            (9, vec![0, 1, 1]),
            (10, vec![0, 0, 2]),
            (11, vec![1, 0, 0]),
        ],
        true,
        Columns::Players,
    )
    .expect("valid");
    for (spec, samples) in [("dice(base=2d6)", 30), ("fair(base=2d6, tightness=1)", 8)] {
        exact_within_standard_errors(&game, spec, samples);
    }
}

fn exact_within_standard_errors(game: &Game, spec: &str, samples: usize) {
    let r = Spec::build(spec).expect("valid");
    let mut options = SeatOptions::new(samples);
    options.method = MethodChoice::Exact { cap: 2_000_000 };
    let exact = analyze(&r, game, &options, &Control::new()).expect("fits");
    options.method = MethodChoice::MonteCarlo {
        runs: 40_000,
        seed: 3,
    };
    let estimate = analyze(&r, game, &options, &Control::new()).expect("runs");
    let within = |what: &str, exact: f64, estimate: Figure| {
        let error = estimate.error.expect("Monte Carlo has errors");
        assert!(
            (exact - estimate.value).abs() <= 4.0 * error + 1e-12,
            "{spec}: {what}: exact {exact}, estimate {} ± {error}",
            estimate.value
        );
    };
    for (e, m) in [
        (&exact.all_rolls, &estimate.all_rolls),
        (
            exact.own_turns.as_ref().expect("turns"),
            estimate.own_turns.as_ref().expect("turns"),
        ),
    ] {
        within("spread", e.spread.value, m.spread);
        let errors = m.spread_by_roll_errors.as_ref().expect("Monte Carlo");
        for (i, &exact) in e.spread_by_roll.iter().enumerate() {
            let estimate = Figure {
                value: m.spread_by_roll[i],
                error: Some(errors[i]),
            };
            within("spread by roll", exact, estimate);
        }
        // The last checkpoint is the end of the match: the same runs, the same sums.
        assert_eq!(m.spread_by_roll.last(), Some(&m.spread.value));
        assert_eq!(errors.last(), m.spread.error.as_ref());
        for (a, b) in e.starved.iter().zip(&m.starved) {
            within("starved", a.probability.value, b.probability);
        }
        for (a, b) in e.players.iter().zip(&m.players) {
            within("total", a.expected_total.value, b.expected_total);
            within(
                "drought",
                a.longest_drought.expect("on").value,
                b.longest_drought.expect("on"),
            );
            assert_eq!(a.fair_share, b.fair_share);
            assert_eq!(a.fair_share_by_roll, b.fair_share_by_roll);
            let errors = b.expected_by_roll_errors.as_ref().expect("Monte Carlo");
            for (i, &exact) in a.expected_by_roll.iter().enumerate() {
                let estimate = Figure {
                    value: b.expected_by_roll[i],
                    error: Some(errors[i]),
                };
                within("total by roll", exact, estimate);
                // The sd of a total of up to 60 resources, from 40,000 runs.
                assert!((a.sd_by_roll[i] - b.sd_by_roll[i]).abs() < 0.05 * a.sd_by_roll[i] + 0.01);
            }
        }
    }
}

#[test]
fn an_automatic_choice_falls_back_to_monte_carlo() {
    let game = game(
        vec![(1, vec![1, 0]), (2, vec![0, 1])],
        false,
        Columns::Players,
    );
    let r = Spec::build("dynamic(values=6, decrease=0.9)").expect("valid");
    let mut options = SeatOptions::new(60);
    options.method = MethodChoice::Auto {
        budget: 5_000,
        runs: 2_000,
        seed: 1,
    };
    let result = analyze(&r, &game, &options, &Control::new()).expect("estimates");
    assert!(
        matches!(result.method, Method::MonteCarlo { .. }),
        "{:?}",
        result.method
    );
    options.method = MethodChoice::Exact { cap: 5_000 };
    let error = analyze(&r, &game, &options, &Control::new()).expect_err("too large");
    assert_eq!(error.kind(), FailureKind::TooLarge);
}

#[test]
fn a_cancelled_control_stops_both_methods() {
    let game = game(vec![(1, vec![1, 0])], false, Columns::Players);
    let r = Spec::build("dice(values=6)").expect("valid");
    let control = Control::new();
    control.cancel();
    for method in [
        MethodChoice::Exact { cap: 1000 },
        MethodChoice::MonteCarlo {
            runs: 5000,
            seed: 1,
        },
    ] {
        let options = SeatOptions {
            method,
            ..SeatOptions::new(10)
        };
        let error = analyze(&r, &game, &options, &control).expect_err("cancelled");
        assert!(matches!(error, SeatError::Stopped(_)), "{error}");
    }
}

#[test]
fn bad_options_are_refused() {
    let game = game(vec![(1, vec![1, 0])], false, Columns::Players);
    let r = Spec::build("dice(values=6)").expect("valid");
    let mut options = SeatOptions::new(0);
    assert_eq!(
        analyze(&r, &game, &options, &Control::new()),
        Err(SeatError::Samples(0))
    );
    options.samples = 5;
    options.shares = vec![1.5];
    assert_eq!(
        analyze(&r, &game, &options, &Control::new()),
        Err(SeatError::Share(1.5))
    );
    let far = Game::new(
        vec!["a".into()],
        vec![(9, vec![1])],
        false,
        Columns::Players,
    )
    .expect("valid");
    assert!(matches!(
        analyze(&r, &far, &SeatOptions::new(5), &Control::new()),
        Err(SeatError::Game(GameError::UnknownOutcome { .. }))
    ));
}

#[test]
#[cfg(feature = "parallel")]
fn monte_carlo_is_independent_of_the_thread_count() {
    let game = game(
        vec![(1, vec![1, 0]), (2, vec![0, 2])],
        true,
        Columns::Players,
    );
    let r = Spec::build("dynamic(values=4, decrease=0.4)").expect("valid");
    let options = SeatOptions {
        method: MethodChoice::MonteCarlo {
            runs: 5000,
            seed: 9,
        },
        ..SeatOptions::new(30)
    };
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| analyze(&r, &game, &options, &Control::new()))
            .expect("runs")
    };
    assert_eq!(on(1), on(2));
}

#[test]
fn totals_too_wide_to_hold_are_refused_before_any_work() {
    let game = Game::new(
        vec!["a".into(); 16],
        vec![(1, vec![1000; 16])],
        false,
        Columns::Players,
    )
    .expect("valid");
    let r = Spec::build("dice(values=2)").expect("valid");
    let control = Control::new().with_max_memory(64 << 20);
    let error = analyze(&r, &game, &SeatOptions::new(100_000), &control).expect_err("too wide");
    assert_eq!(error.kind(), FailureKind::TooLarge, "{error}");
}

#[test]
fn a_graph_of_large_states_stops_before_it_outgrows_the_memory_limit() {
    // A deck of 400 values has states of 400 entries: its graph grew by doubling
    // to gigabytes (deck(values=1000): one 4.2 GB allocation) before the limit
    // was looked at. The growth is now priced before each expansion.
    let game = game(
        vec![(1, vec![1, 0]), (2, vec![0, 1])],
        false,
        Columns::Players,
    );
    let r = Spec::build("deck(values=400)").expect("valid");
    let limit = 32 << 20;
    let control = Control::new().with_max_memory(limit);
    let options = SeatOptions {
        method: MethodChoice::Exact { cap: 10_000_000 },
        ..SeatOptions::new(3)
    };
    let error = analyze(&r, &game, &options, &control).expect_err("too large");
    assert!(
        matches!(error, SeatError::Exact(ExactError::OutOfMemory { bytes, .. }) if bytes > limit as usize),
        "{error}"
    );
}

#[test]
fn a_first_expansion_past_the_budget_is_refused_before_it_starts() {
    // One state of dice(base=d65536) has 65,536 edges of keys as long: an exact
    // sweep of one roll ran for minutes; it is refused at once.
    let game = game(
        vec![(1, vec![1, 0]), (2, vec![0, 1])],
        false,
        Columns::Players,
    );
    let r = Spec::build("dice(base=d65536)").expect("valid");
    let control = Control::new();
    let options = SeatOptions {
        method: MethodChoice::Exact { cap: 10_000_000 },
        ..SeatOptions::new(1)
    };
    let error = analyze(&r, &game, &options, &control).expect_err("too slow");
    assert!(
        matches!(error, SeatError::Exact(ExactError::TooSlow { step: 1, .. })),
        "{error}"
    );
    assert_eq!(control.steps_used(), 0);
}
