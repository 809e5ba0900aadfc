//! Fairness between players: how a randomizer splits a match's value between the
//! seats of a game, exactly where the state space allows and by seeded Monte Carlo
//! otherwise.
//!
//! A [`Game`] names the players and what each outcome pays each of them (in Catan,
//! the resources their settlements collect on each number). Over a match of `T`
//! rolls, [`analyze`] gives per player the distribution of their total, their
//! fair share (what the base distribution promises) and their expected longest
//! drought; across players the expected spread E[best total − worst total] and
//! P(some player receives at most x of their fair share); and, when rolls are
//! taken in turns, the same over each player's own turns.
//!
//! ```
//! use fairdice::Control;
//! use fairdice::analysis::seats::{self, Columns, Game, SeatOptions};
//! use fairdice::randomizer::Spec;
//!
//! // 1v1: whoever rolls a 7 on their own turn moves the robber.
//! let game = Game::new(
//!     vec!["first".into(), "second".into()],
//!     vec![(7, vec![1, 0])],
//!     true,
//!     Columns::Roller,
//! )?;
//! let dice = Spec::build("dice(base=2d6)")?;
//! let result = seats::analyze(&dice, &game, &SeatOptions::new(10), &Control::new())?;
//! let first = &result.all_rolls.players[0];
//! assert!((first.fair_share - 5.0 / 6.0).abs() < 1e-12); // 5 turns × 1/6
//! assert!((first.totals[0] - (5.0f64 / 6.0).powi(5)).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design decisions
//! - The exact figures come from sweeps over (randomizer state, tracked value)
//!   built on the analysis's state graph (`sweep`); the totals of every player
//!   are one sweep (the spread and the starved chances need them jointly), each
//!   player's droughts one more.
//! - The fair share is taken from the randomizer's base
//!   ([`base_probabilities`]), not from the randomizer's own expectation, so a
//!   starved player is measured against what the dice promise, the same in an
//!   exact sweep and in a Monte Carlo estimate.
//! - An automatic choice runs Monte Carlo for every figure when any sweep is too
//!   large, so one analysis never mixes methods.

mod exact;
mod figures;
mod game;
mod monte_carlo;
mod sweep;
#[cfg(test)]
mod tests;

use thiserror::Error;

pub use figures::{
    Figure, MAX_CHECKPOINTS, PlayerFigures, Scope, SeatAnalysis, SeatFigures, Starved, checkpoints,
};
pub use game::{Columns, Game, GameError, MAX_AMOUNT, MAX_PLAYERS, Table};
pub use monte_carlo::{STEPS_PER_ROLL, steps_per_run};
pub use sweep::STEPS_PER_EDGE;

use super::base_deviation::base_probabilities;
use super::exact::{ExactError, ExactOptions};
use super::{MAX_SAMPLES, Method, MethodChoice, fallback_runs};
use crate::control::{Control, Failure, FailureKind, Stop};
use crate::randomizer::StateSpace;

/// The fractions of the fair share a starved player is asked about by default.
pub const DEFAULT_SHARES: [f64; 2] = [0.5, 0.75];

/// What to measure.
#[derive(Debug, Clone)]
pub struct SeatOptions {
    /// Rolls in the match (`T`).
    pub samples: usize,
    /// The method (the budget counts (state, totals) pairs in one step).
    pub method: MethodChoice,
    /// P(some player receives at most this fraction of their fair share), for
    /// each fraction in `0..=1`.
    pub shares: Vec<f64>,
    /// Also the longest droughts (a sweep per player).
    pub droughts: bool,
}

impl SeatOptions {
    /// `samples` rolls, the automatic method, [`DEFAULT_SHARES`], droughts
    /// included.
    pub fn new(samples: usize) -> SeatOptions {
        SeatOptions {
            samples,
            method: MethodChoice::default(),
            shares: DEFAULT_SHARES.to_vec(),
            droughts: true,
        }
    }
}

/// Why a seat analysis could not run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SeatError {
    /// The game does not fit the randomizer.
    #[error(transparent)]
    Game(#[from] GameError),
    /// `samples` outside `1..=MAX_SAMPLES`.
    #[error("samples must be in 1..={max}, got {0}", max = MAX_SAMPLES)]
    Samples(usize),
    /// Too few Monte Carlo runs.
    #[error("Monte Carlo needs at least 2 runs (for a standard error), got {0}")]
    Runs(u64),
    /// A share outside `0..=1`.
    #[error("a share of the fair share is a fraction in 0..=1, got {0}")]
    Share(f64),
    /// The forced exact sweep is too large.
    #[error("{0}")]
    Exact(ExactError),
    /// The control stopped the analysis.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl From<ExactError> for SeatError {
    fn from(error: ExactError) -> SeatError {
        match error {
            ExactError::Stopped(stop) => SeatError::Stopped(stop),
            other => SeatError::Exact(other),
        }
    }
}

impl Failure for SeatError {
    fn kind(&self) -> FailureKind {
        match self {
            SeatError::Game(_)
            | SeatError::Samples(_)
            | SeatError::Runs(_)
            | SeatError::Share(_) => FailureKind::Invalid,
            SeatError::Exact(error) => error.kind(),
            SeatError::Stopped(stop) => stop.kind(),
        }
    }
}

/// The shares asked about and every player's fair share in each scope, over the
/// whole match and up to each checkpoint.
pub(crate) struct Shares {
    pub(crate) starved: Vec<f64>,
    /// The rolls at which totals are followed ([`checkpoints`]).
    pub(crate) rolls: Vec<usize>,
    all_rolls: FairShares,
    own_turns: FairShares,
}

/// One scope's fair shares: per player, over the match and at each checkpoint.
#[derive(Default)]
struct FairShares {
    whole: Vec<f64>,
    by_roll: Vec<Vec<f64>>,
}

impl Shares {
    fn new(base: &[f64], table: &Table, samples: usize, starved: Vec<f64>) -> Shares {
        let rolls = checkpoints(samples);
        let fair = |scope: Scope| -> FairShares {
            let mut shares = FairShares {
                whole: Vec::with_capacity(table.players()),
                by_roll: Vec::with_capacity(table.players()),
            };
            for p in 0..table.players() {
                let mut sum = 0.0;
                let mut by_roll = Vec::with_capacity(rolls.len());
                let mut next = rolls.iter().peekable();
                for t in 0..samples {
                    if scope.counts(table.roller(t), p) {
                        sum += base
                            .iter()
                            .enumerate()
                            .map(|(o, q)| q * f64::from(table.amount(t, o, p)))
                            .sum::<f64>();
                    }
                    if next.next_if_eq(&&(t + 1)).is_some() {
                        by_roll.push(sum);
                    }
                }
                shares.whole.push(sum);
                shares.by_roll.push(by_roll);
            }
            shares
        };
        Shares {
            starved,
            all_rolls: fair(Scope::AllRolls),
            own_turns: if table.turns() {
                fair(Scope::OwnTurns)
            } else {
                FairShares::default()
            },
            rolls,
        }
    }

    fn scope(&self, scope: Scope) -> &FairShares {
        match scope {
            Scope::AllRolls => &self.all_rolls,
            Scope::OwnTurns => &self.own_turns,
        }
    }

    /// Every player's fair share over the match.
    pub(crate) fn fair(&self, scope: Scope) -> &[f64] {
        &self.scope(scope).whole
    }

    /// Player `player`'s fair share up to each checkpoint.
    pub(crate) fn fair_by_roll(&self, scope: Scope, player: usize) -> Vec<f64> {
        self.scope(scope).by_roll[player].clone()
    }
}

/// One question: a randomizer, a game bound to its outcomes, a match.
pub(crate) struct Match<'a, R> {
    pub(crate) randomizer: &'a R,
    pub(crate) table: Table,
    pub(crate) names: &'a [String],
    pub(crate) samples: usize,
    pub(crate) shares: Shares,
    pub(crate) droughts: bool,
}

impl<R> Match<'_, R> {
    fn scopes(&self) -> &'static [Scope] {
        if self.table.turns() {
            &[Scope::AllRolls, Scope::OwnTurns]
        } else {
            &[Scope::AllRolls]
        }
    }
}

/// Measures how `randomizer` splits a match of `options.samples` rolls between
/// the seats of `game`.
///
/// `control` is told of each sweep's steps (stages `seat totals`, `seat
/// droughts`) or of the Monte Carlo runs (stage `simulating seats`), and can stop
/// either.
///
/// # Errors
/// [`SeatError`] for a game that does not fit the randomizer, bad options, or a
/// forced exact sweep over its budget; [`SeatError::Stopped`] once `control` is
/// cancelled or its budget is spent.
pub fn analyze<R: StateSpace + Clone + Sync>(
    randomizer: &R,
    game: &Game,
    options: &SeatOptions,
    control: &Control,
) -> Result<SeatAnalysis, SeatError> {
    let samples = options.samples;
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(SeatError::Samples(samples));
    }
    if let Some(&bad) = options.shares.iter().find(|s| !(0.0..=1.0).contains(*s)) {
        return Err(SeatError::Share(bad));
    }
    if let MethodChoice::MonteCarlo { runs, .. } | MethodChoice::Auto { runs, .. } = options.method
        && runs < 2
    {
        return Err(SeatError::Runs(runs));
    }
    let table = game.table(randomizer)?;
    // Every player's distribution of totals, per scope: in the sweep's result, or
    // in each thread's Monte Carlo tally.
    let scopes = if table.turns() { 2 } else { 1 };
    // (And every player's sums at each checkpoint: a sum and a sum of squares.)
    let followed = (table.players() * checkpoints(samples).len()) as u64 * 3;
    let distributions: u64 = (0..table.players())
        .map(|p| u64::from(table.most(p)) * samples as u64 + 1)
        .sum::<u64>()
        + followed;
    let copies = scopes * (crate::parallel::current_num_threads() as u64 + 1);
    control.reserve(distributions.saturating_mul(8).saturating_mul(copies))?;
    let shares = Shares::new(
        &base_probabilities(randomizer),
        &table,
        samples,
        options.shares.clone(),
    );
    let question = Match {
        randomizer,
        table,
        names: game.players(),
        samples,
        shares,
        droughts: options.droughts,
    };
    let exact = |budget: usize, give_up_early: bool| {
        let options = ExactOptions {
            budget,
            merge: false,
            give_up_early,
            ..ExactOptions::default()
        };
        let mut peak = 0;
        let mut all = Vec::new();
        for &scope in question.scopes() {
            let (figures, states) = exact::figures(&question, scope, &options, control)?;
            peak = peak.max(states);
            all.push(figures);
        }
        Ok::<_, ExactError>((all, Method::Exact { peak_states: peak }))
    };
    let estimate = |runs: u64, seed: u64| {
        monte_carlo::figures(&question, runs, seed, control)
            .map(|all| (all, Method::MonteCarlo { runs, seed }))
    };
    let (mut all, method) = match options.method {
        MethodChoice::Exact { cap } => exact(cap, false)?,
        MethodChoice::MonteCarlo { runs, seed } => estimate(runs, seed)?,
        MethodChoice::Auto { budget, runs, seed } => match exact(budget, true) {
            Ok(done) => done,
            Err(e) if e.is_too_large() => estimate(
                fallback_runs(runs, samples, randomizer.outcomes().len()),
                seed,
            )?,
            Err(other) => return Err(other.into()),
        },
    };
    let own_turns = (all.len() > 1).then(|| all.remove(1));
    Ok(SeatAnalysis {
        spec: randomizer.spec(),
        samples,
        method,
        all_rolls: all.remove(0),
        own_turns,
    })
}
