//! Tuning for the seats of a game: the fairest split of a match between players
//! ([`Fairness::SeatSpread`]), above the same entropy threshold.
//!
//! A search for seats has the same two questions per candidate as any search —
//! does it keep the entropy threshold, and is its measure the lowest of those that
//! do — but the measure is the seat analysis's spread, E[best player's total −
//! worst player's total] over the match ([`seats::analyze`]), which no per-step
//! curve of the randomizer gives. So every candidate's curves are measured first
//! (exact where the sweep fits, else seeded Monte Carlo, as
//! [`MethodChoice::Auto`] does), and only the candidates that keep the threshold
//! get a seat analysis, by the same method choice, over every match length of the
//! search (an uncertain length weighs the spreads of its lengths).
//!
//! # Design decisions
//! - A candidate that misses the threshold is never analyzed for seats: it cannot
//!   win, and a seat sweep costs more than the randomizer's own.
//! - The winner is certain when it and every rival within four standard errors of
//!   it were measured exactly (seats and entropy), as the race says of its own.

use crate::parallel::*;

use super::race::CONFIDENCE_Z;
use super::{CandidateResult, Fairness, TuneError, Tuning, ties};
use crate::analysis::MethodChoice;
use crate::analysis::seats::{self, Game, SeatError, SeatOptions};
use crate::control::{Control, Stop};
use crate::randomizer::AnyRandomizer;

/// The expected spread of `randomizer` over `tuning`'s match lengths, with its
/// standard error when estimated (`None`: every length exact).
///
/// An uncertain length is measured in one analysis of the longest match, whose
/// spread after each roll (`spread_by_roll`) gives every shorter length's, when
/// each length is one of its checkpoints (every roll up to
/// [`MAX_CHECKPOINTS`](seats::MAX_CHECKPOINTS)); else each length is analyzed
/// on its own.
///
/// # Errors
/// [`TuneError::Seats`] when the game does not fit the randomizer or a forced
/// exact sweep is too large; [`TuneError::Stopped`] once `control` stops it.
pub fn spread(
    randomizer: &AnyRandomizer,
    game: &Game,
    tuning: &Tuning,
    control: &Control,
) -> Result<(f64, Option<f64>), TuneError> {
    let analyze = |samples: usize| {
        let options = SeatOptions {
            samples,
            method: tuning.method,
            shares: Vec::new(),
            droughts: false,
        };
        seats::analyze(randomizer, game, &options, control).map_err(|source| match source {
            SeatError::Stopped(stop) => TuneError::Stopped(stop),
            source => TuneError::Seats {
                spec: crate::randomizer::Randomizer::spec(randomizer),
                source,
            },
        })
    };
    let lengths = tuning.samples.lengths();
    let longest = tuning.samples.max();
    let rolls = seats::checkpoints(longest);
    let mut value = 0.0;
    let mut error: Option<f64> = None;
    // Errors of different lengths add up at worst linearly (they come from the
    // same seeded runs).
    if lengths.len() > 1 && lengths.iter().all(|(t, _)| rolls.binary_search(t).is_ok()) {
        let figures = analyze(longest)?.all_rolls;
        for &(samples, weight) in lengths {
            let k = rolls.binary_search(&samples).unwrap_or(rolls.len() - 1);
            value += weight * figures.spread_by_roll[k];
            if let Some(errors) = &figures.spread_by_roll_errors {
                *error.get_or_insert(0.0) += weight * errors[k];
            }
        }
        return Ok((value, error));
    }
    for &(samples, weight) in lengths {
        let figure = analyze(samples)?.all_rolls.spread;
        value += weight * figure.value;
        if let Some(e) = figure.error {
            *error.get_or_insert(0.0) += weight * e;
        }
    }
    Ok((value, error))
}

/// A measured spread: the candidate's index, the value and its standard error
/// when estimated.
type Measured = (usize, (f64, Option<f64>));

/// Monte Carlo runs of a candidate's first seat estimate; the candidates that
/// could still win are measured again with the search's runs.
pub const SCREEN_RUNS: u64 = 1_000;

/// Fills in the spread of every candidate that keeps the threshold; the others
/// get `NaN`. Every qualifier is screened (exact where its seat sweep is cheap,
/// else [`SCREEN_RUNS`] seeded runs), then the contenders — those whose spread may
/// still be at or below the best upper bound, [`CONFIDENCE_Z`] standard errors
/// out — are measured again by the search's own method. `control` is told of each
/// candidate analyzed (stages `screening seats`, `refining seats`).
pub(super) fn measure(
    tuning: &Tuning,
    game: &Game,
    candidates: &mut [CandidateResult],
    build: &(dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
    control: &Control,
) -> Result<(), TuneError> {
    for c in candidates.iter_mut().filter(|c| !c.qualifies) {
        c.fairness = f64::NAN;
        c.fairness_error = None;
    }
    let qualifying: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].qualifies)
        .collect();
    let screening = match tuning.method {
        MethodChoice::Auto { budget, seed, runs } => MethodChoice::Auto {
            budget,
            runs: runs.min(SCREEN_RUNS),
            seed,
        },
        forced => forced,
    };
    let screened = spreads(
        tuning,
        game,
        candidates,
        &qualifying,
        screening,
        "screening seats",
        build,
        control,
    )?;
    store(candidates, &screened);
    if screening == tuning.method {
        return Ok(());
    }
    let bound = qualifying
        .iter()
        .map(|&i| high(&candidates[i]))
        .min_by(f64::total_cmp)
        .unwrap_or(f64::INFINITY);
    let contenders: Vec<usize> = qualifying
        .into_iter()
        .filter(|&i| {
            let c = &candidates[i];
            c.fairness_error.is_some() && (low(c) <= bound || ties(low(c), bound))
        })
        .collect();
    let refined = spreads(
        tuning,
        game,
        candidates,
        &contenders,
        tuning.method,
        "refining seats",
        build,
        control,
    )?;
    store(candidates, &refined);
    Ok(())
}

/// The spreads of `which` candidates by `method`, in parallel.
#[allow(clippy::too_many_arguments)] // private: one stage of `measure`
fn spreads(
    tuning: &Tuning,
    game: &Game,
    candidates: &[CandidateResult],
    which: &[usize],
    method: MethodChoice,
    stage: &'static str,
    build: &(dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
    control: &Control,
) -> Result<Vec<Measured>, TuneError> {
    control.stage(stage, which.len() as u64);
    let each = control.silent();
    let staged = Tuning {
        method,
        ..tuning.clone()
    };
    which
        .par_iter()
        .map(|&i| {
            control.check()?;
            let randomizer = build(&candidates[i].spec)?;
            let measured = spread(&randomizer, game, &staged, &each)?;
            control.advance(1);
            Ok((i, measured))
        })
        .collect()
}

fn store(candidates: &mut [CandidateResult], spreads: &[Measured]) {
    for &(i, (value, error)) in spreads {
        candidates[i].fairness = value;
        candidates[i].fairness_error = error;
    }
}

fn low(c: &CandidateResult) -> f64 {
    c.fairness - CONFIDENCE_Z * c.fairness_error.unwrap_or(0.0)
}

fn high(c: &CandidateResult) -> f64 {
    c.fairness + CONFIDENCE_Z * c.fairness_error.unwrap_or(0.0)
}

/// Whether the seat winner among `candidates` (index `best`) is certain: no
/// estimated candidate's entropy is within [`CONFIDENCE_Z`] standard errors of the
/// threshold, and every other qualifying candidate is either exact as the winner
/// is, or its spread is surely above the winner's (the intervals of `Z` standard
/// errors apart).
pub(super) fn certain(
    candidates: &[CandidateResult],
    best: Option<usize>,
    tuning: &Tuning,
) -> bool {
    let threshold = tuning.min_entropy - super::ENTROPY_TOLERANCE;
    let unsure = |c: &CandidateResult| {
        c.mean_entropy_error
            .is_some_and(|e| (c.mean_entropy - threshold).abs() <= CONFIDENCE_Z * e)
    };
    if candidates.iter().any(unsure) {
        return false;
    }
    let Some(best) = best else {
        return true;
    };
    let winner = &candidates[best];
    let top = high(winner);
    candidates
        .iter()
        .enumerate()
        .filter(|&(i, c)| i != best && c.qualifies)
        .all(|(_, c)| {
            let both_exact = c.fairness_error.is_none() && winner.fairness_error.is_none();
            both_exact || (low(c) > top && !ties(low(c), top))
        })
}

/// The game of a seat search, or the error that a seat measure needs one.
pub(super) fn game_of(tuning: &Tuning) -> Result<Option<&Game>, TuneError> {
    match (tuning.fairness, &tuning.game) {
        (Fairness::SeatSpread, Some(game)) => Ok(Some(game)),
        (Fairness::SeatSpread, None) => Err(TuneError::NoGame),
        _ => Ok(None),
    }
}

/// Plain dice's spread over the search's lengths, with its standard error when
/// estimated: the baseline of a seat search. Exact where the seat sweep fits the
/// default state budget, else estimated by the search's own method (its runs, not
/// a screening's, so it may be more precise than the dice row of the search).
pub(super) fn plain_dice(
    dice: &AnyRandomizer,
    game: &Game,
    tuning: &Tuning,
) -> Result<(f64, Option<f64>), TuneError> {
    let exact = Tuning {
        method: MethodChoice::Exact {
            cap: crate::analysis::DEFAULT_STATE_BUDGET,
        },
        ..tuning.clone()
    };
    match spread(dice, game, &exact, &Control::new()) {
        Ok(measured) => Ok(measured),
        // Too many totals to sweep: plain dice are estimated like a candidate.
        Err(
            TuneError::Seats { .. }
            | TuneError::Stopped(Stop::OverBudget { .. } | Stop::OverEstimate { .. }),
        ) => spread(dice, game, tuning, &Control::new()),
        Err(other) => Err(other),
    }
}
