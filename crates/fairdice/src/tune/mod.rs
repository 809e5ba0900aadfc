//! Tuning a randomizer: search each system's parameter grid for the fairest
//! candidate (lowest outcome variance, or lowest deviation from a weighted base:
//! [`Fairness`]) that stays unpredictable enough (mean entropy at or above a
//! threshold), over a fixed or uncertain match length.
//!
//! With the automatic method the candidates are raced ([`race`]): exact where a
//! sweep is cheap, seeded Monte Carlo with standard errors elsewhere, and only
//! those that could still win measured again; each system says whether its winner
//! is certain.
//!
//! The default search is the article's: the generalized deck with `copies` (size
//! factor) 1..=10 × `refill_below` (refill constant) 1..=10, and dynamic dice with
//! `decrease` = (i + 0.5)/100 for i in 0..=99; any family from
//! [`randomizer`](crate::randomizer) with a [`Grid`] can join.
//!
//! ```
//! use fairdice::Control;
//! use fairdice::tune::{tune, Tuning};
//!
//! let tuning = Tuning::article(6, 25)?; // 6 outcomes, 25 samples, entropy ≥ 0.90
//! let result = tune(&tuning, &Control::new())?;
//! let deck = result.systems[0].best().expect("a deck qualifies");
//! assert_eq!(deck.spec, "deck(values=6, copies=1, refill_below=6, refill=top-up)");
//! assert_eq!(format!("{:.2}", deck.outcome_variance), "0.51");
//! let dynamic = result.systems[1].best().expect("dynamic dice qualify");
//! assert_eq!(dynamic.spec, "dynamic(values=6, decrease=0.355)");
//! assert_eq!(format!("{:.2}", dynamic.outcome_variance), "0.46");
//! # Ok::<(), fairdice::tune::TuneError>(())
//! ```
//!
//! # Design decisions
//! - Selection is deterministic: among qualifying candidates, those within
//!   [`TIE_RELATIVE`] (relative) of the lowest variance tie, and the first in the
//!   grid's order wins (smaller `copies`, then smaller `refill_below`; smaller
//!   `decrease`). Exact results make ties real ones, not noise.
//! - The entropy threshold is met when `mean_entropy ≥ min_entropy −`
//!   [`ENTROPY_TOLERANCE`], so float rounding never disqualifies a candidate whose
//!   exact entropy equals the threshold.

pub mod grid;
pub mod match_length;
pub mod race;
pub mod report;
pub mod seats;

use std::borrow::Borrow;

use crate::parallel::*;
use thiserror::Error;

use crate::analysis::seats::{Game, SeatError};
use crate::analysis::{self, AnalysisError, Curves, Method, MethodChoice};
use crate::control::{Control, Failure, FailureKind, Stop, step_count};
use crate::randomizer::{AnyRandomizer, Randomizer, Spec, SpecError};

pub use grid::{BaseArgs, Grid, GridError, ParamValue};
pub use match_length::{MatchLength, MatchLengthError};
pub use report::TuneReport;

/// Variances closer than this (relative to the larger) tie.
pub const TIE_RELATIVE: f64 = 1e-9;

/// Variances closer than this (absolute) tie too: an exact 0 computed as
/// `Σc²/n − (T/n)²` may come out as 1e-15.
pub const TIE_ABSOLUTE: f64 = 1e-12;

/// Merged states one step of a candidate's exact sweep may hold by default (less
/// than a single analysis allows, because a search sweeps many candidates).
pub const STATE_BUDGET: usize = 250_000;

/// The most Monte Carlo runs the automatic method gives a candidate (a contender
/// of the [`race`]; the article used 10,000 for every candidate).
pub const FALLBACK_RUNS: u64 = 20_000;

/// The most Monte Carlo work (runs × samples × outcomes, summed over candidates) a
/// search may risk: a few minutes. Candidates that sweep exactly cost far less, but
/// any may fall back, so the search is judged by its worst case before it starts.
pub const MAX_SEARCH_WORK: f64 = 5e10;

/// How far below the threshold a mean entropy may be and still qualify (float
/// rounding only).
pub const ENTROPY_TOLERANCE: f64 = 1e-12;

/// The measure of fairness a search minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fairness {
    /// The article's outcome variance: the expected population variance of the
    /// outcome counts, which expects every outcome equally often.
    OutcomeVariance,
    /// The [base deviation](crate::analysis::base_deviation): the expected
    /// chi-square of the counts against the base's `p_i·T`, over its value for
    /// plain dice (1); the measure for weighted bases such as 2d6 sums.
    BaseDeviation,
    /// The seats of a game ([`Tuning::game`]): the expected spread between the
    /// best and the worst player's totals over the match ([`seats`]).
    SeatSpread,
}

impl Fairness {
    /// The measure for `outcomes` when none is asked for: outcome variance for
    /// the faces of a fair die (the article's search), base deviation for a base
    /// expression (for a uniform base the two rank candidates alike).
    pub fn default_for(outcomes: &Outcomes) -> Fairness {
        match outcomes {
            Outcomes::Values(_) => Fairness::OutcomeVariance,
            Outcomes::Base(_) | Outcomes::Machine { .. } => Fairness::BaseDeviation,
        }
    }

    /// Its name in reports and on the command line: `outcome_variance` or
    /// `base_deviation` (the report's field holding it).
    pub fn as_str(self) -> &'static str {
        match self {
            Fairness::OutcomeVariance => "outcome_variance",
            Fairness::BaseDeviation => "base_deviation",
            Fairness::SeatSpread => "seat_spread",
        }
    }

    /// A candidate's value of this measure over `lengths`, from its `curves`,
    /// with its standard error when estimated; `NaN` for the seats' spread, which
    /// a seat analysis fills in ([`seats::measure`]).
    fn of(self, curves: &Curves, lengths: &MatchLength) -> (f64, Option<f64>) {
        let (values, errors) = match self {
            Fairness::SeatSpread => return (f64::NAN, None),
            Fairness::OutcomeVariance => (
                &curves.outcome_variance,
                curves.errors.as_ref().map(|e| &e.outcome_variance),
            ),
            Fairness::BaseDeviation => (
                &curves.base_deviation,
                curves.errors.as_ref().map(|e| &e.base_deviation),
            ),
        };
        (
            lengths.expect(|t| values[t - 1]),
            errors.map(|e| lengths.expect(|t| e[t - 1])),
        )
    }
}

impl std::fmt::Display for Fairness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fairness measure's name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown fairness measure `{0}`; accepted: outcome_variance, base_deviation, seat_spread")]
pub struct FairnessError(pub String);

impl std::str::FromStr for Fairness {
    type Err = FairnessError;

    /// `outcome_variance`, `base_deviation` or `seat_spread` (or with hyphens).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().replace('-', "_").as_str() {
            "outcome_variance" => Ok(Fairness::OutcomeVariance),
            "base_deviation" => Ok(Fairness::BaseDeviation),
            "seat_spread" => Ok(Fairness::SeatSpread),
            _ => Err(FairnessError(text.to_string())),
        }
    }
}

/// The outcomes every candidate draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcomes {
    /// The faces `1..=N` of a fair die.
    Values(u64),
    /// The outcomes of a dice expression, weighted (e.g. `2d6`).
    Base(String),
    /// A machine's own outcomes: a search over the machine's parameters
    /// ([`Grid`] of a machine document), measured against the machine as written.
    Machine {
        /// The machine's name.
        name: String,
        /// Its document as written: the baseline.
        spec: String,
    },
}

impl Outcomes {
    /// The outcomes of a search over `grids`: a machine's own when a grid is a
    /// machine (tuned alone), otherwise `given`.
    ///
    /// # Errors
    /// [`TuneError::Outcomes`] for a machine grid beside another grid, or a
    /// machine with `given` outcomes; [`TuneError::NoOutcomes`] when neither
    /// says what the outcomes are.
    pub fn of_search(given: Option<Outcomes>, grids: &[Grid]) -> Result<Outcomes, TuneError> {
        let machine = grids.iter().find_map(|g| match g.system() {
            grid::System::Machine(machine) => Some((g.name(), machine)),
            grid::System::Family { .. } => None,
        });
        match (machine, given) {
            (Some((name, _)), _) if grids.len() > 1 => Err(TuneError::Outcomes {
                family: name.to_string(),
                message: "a machine draws its own outcomes, so it is tuned alone; leave out the other systems".into(),
            }),
            (Some((name, _)), Some(_)) => Err(TuneError::Outcomes {
                family: name.to_string(),
                message: "a machine draws its own outcomes; leave out the values and the base".into(),
            }),
            (Some((name, machine)), None) => Ok(Outcomes::Machine {
                name: name.to_string(),
                spec: machine.spec(),
            }),
            (None, Some(given)) => Ok(given),
            (None, None) => Err(TuneError::NoOutcomes),
        }
    }
}

impl std::fmt::Display for Outcomes {
    /// `6 outcomes` or `outcomes of 2d6`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcomes::Values(n) => write!(f, "{n} outcomes"),
            Outcomes::Base(expr) => write!(f, "outcomes of {expr}"),
            Outcomes::Machine { name, .. } => write!(f, "outcomes of {name}"),
        }
    }
}

/// What to tune.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// The outcomes.
    pub outcomes: Outcomes,
    /// How many samples a match takes.
    pub samples: MatchLength,
    /// The least mean entropy (fraction of a fair die's) a candidate must keep.
    pub min_entropy: f64,
    /// The measure the search minimises.
    pub fairness: Fairness,
    /// The game whose seats [`Fairness::SeatSpread`] measures.
    pub game: Option<Game>,
    /// One grid per system, in the order results are reported.
    pub grids: Vec<Grid>,
    /// How each candidate is measured.
    pub method: MethodChoice,
}

impl Tuning {
    /// The article's search: deck and dynamic dice grids, entropy ≥ 0.90, exact
    /// where possible.
    ///
    /// # Errors
    /// [`TuneError::MatchLength`] for a bad number of samples.
    pub fn article(values: u64, samples: u64) -> Result<Tuning, TuneError> {
        Ok(Tuning {
            outcomes: Outcomes::Values(values),
            samples: MatchLength::fixed(samples)?,
            min_entropy: 0.9,
            fairness: Fairness::OutcomeVariance,
            game: None,
            grids: vec![Grid::default_for("deck")?, Grid::default_for("dynamic")?],
            method: MethodChoice::Auto {
                budget: STATE_BUDGET,
                runs: FALLBACK_RUNS,
                seed: crate::analysis::DEFAULT_SEED,
            },
        })
    }

    /// The spec of plain dice over the same outcomes: the baseline every system
    /// improves on; for a machine's search, the machine as written.
    pub fn plain_dice_spec(&self) -> String {
        match &self.outcomes {
            Outcomes::Values(n) => format!("dice(values={n})"),
            Outcomes::Base(expr) => format!("dice(base={expr})"),
            Outcomes::Machine { spec, .. } => spec.clone(),
        }
    }

    /// What the baseline is: `plain dice`, or `as written` for a machine.
    pub fn baseline_name(&self) -> &'static str {
        match &self.outcomes {
            Outcomes::Machine { .. } => "as written",
            _ => "plain dice",
        }
    }

    /// Plain dice's expected outcome variance and base deviation at the end of a
    /// match, over the same match lengths (exact: plain dice keep no state): the
    /// baseline every system improves on.
    ///
    /// # Errors
    /// [`TuneError::Candidate`] when the outcomes are not valid for dice (a bad
    /// base expression).
    pub fn plain_dice(&self) -> Result<Baseline, TuneError> {
        let spec = self.plain_dice_spec();
        let dice = Spec::build(&spec).map_err(|source| TuneError::Candidate {
            spec: spec.clone(),
            source,
        })?;
        let method = match &self.outcomes {
            Outcomes::Machine { .. } => self.method,
            _ => MethodChoice::Exact { cap: 1 },
        };
        let (curves, _) =
            analysis::curves(&dice, self.samples.max(), &method, &Control::unlimited())
                .map_err(|source| TuneError::Analysis { spec, source })?;
        let (seat_spread, seat_spread_error) = match seats::game_of(self)? {
            Some(game) => {
                let (value, error) = seats::plain_dice(&dice, game, self)?;
                (Some(value), error)
            }
            None => (None, None),
        };
        Ok(Baseline {
            outcome_variance: Fairness::OutcomeVariance.of(&curves, &self.samples).0,
            base_deviation: Fairness::BaseDeviation.of(&curves, &self.samples).0,
            seat_spread,
            seat_spread_error,
        })
    }
}

/// Plain dice's figures over a search's match lengths.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Baseline {
    /// Expected outcome variance at the end of the match.
    pub outcome_variance: f64,
    /// Expected base deviation at the end of the match (1 up to rounding).
    pub base_deviation: f64,
    /// Expected spread between the seats of the search's game, if it has one.
    pub seat_spread: Option<f64>,
    /// The seat spread's standard error when it was estimated (a game too large
    /// for the exact seat sweep).
    pub seat_spread_error: Option<f64>,
}

/// Why a search could not run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TuneError {
    /// The threshold is outside `[0, 1]`.
    #[error("the entropy threshold must be in [0, 1] (a fraction of a fair die's), got {0}")]
    MinEntropy(f64),
    /// No grid.
    #[error("no system to tune; accepted systems: {}", crate::randomizer::family::tunable_names().join(", "))]
    NoSystems,
    /// A bad grid.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Neither a number of outcomes, a base nor a machine.
    #[error(
        "give the number of outcomes (values, e.g. 6), a base expression (e.g. 2d6), or a machine's grid"
    )]
    NoOutcomes,
    /// A machine's candidate that is not a valid machine.
    #[error("{machine} with {params}: {message}")]
    MachineCandidate {
        /// The machine's name.
        machine: String,
        /// The candidate's parameters (`step=0.5`).
        params: String,
        /// What is wrong with the document they give.
        message: String,
    },
    /// A bad match length.
    #[error(transparent)]
    MatchLength(#[from] MatchLengthError),
    /// The family cannot draw these outcomes.
    #[error("{family} cannot use these outcomes: {message}")]
    Outcomes {
        /// The family.
        family: String,
        /// Why, and what it accepts.
        message: String,
    },
    /// The search could cost more than [`MAX_SEARCH_WORK`] if its candidates fall
    /// back to Monte Carlo.
    #[error(
        "{candidates} candidates of {outcomes} outcomes over {samples} samples could draw about {} outcomes by Monte Carlo, more than the {} a search may draw; use fewer outcomes, samples or candidates, or fewer --runs",
        step_count(*work),
        step_count(limit.floor())
    )]
    TooBig {
        /// Candidates in the grids.
        candidates: usize,
        /// Outcomes each draws.
        outcomes: usize,
        /// The longest match.
        samples: usize,
        /// The worst-case work: runs × samples × outcomes, summed over candidates.
        work: f64,
        /// The outcomes a search may draw: [`MAX_SEARCH_WORK`] for a forced method,
        /// the budget's share for screening.
        limit: f64,
    },
    /// A candidate's spec was rejected.
    #[error("candidate {spec}: {source}")]
    Candidate {
        /// The candidate's spec.
        spec: String,
        /// The randomizer's error.
        source: SpecError,
    },
    /// A seat measure without a game.
    #[error("the seat_spread measure needs a game (the players and what each outcome pays them)")]
    NoGame,
    /// A candidate's seats could not be measured.
    #[error("candidate {spec}: {source}")]
    Seats {
        /// The candidate's spec.
        spec: String,
        /// The seat analysis's error.
        source: SeatError,
    },
    /// A candidate could not be measured.
    #[error("candidate {spec}: {source}")]
    Analysis {
        /// The candidate's spec.
        spec: String,
        /// The analysis error.
        source: AnalysisError,
    },
    /// The control cancelled the search.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl Failure for TuneError {
    fn kind(&self) -> FailureKind {
        match self {
            TuneError::TooBig { .. } => FailureKind::TooLarge,
            TuneError::Analysis { source, .. } => source.kind(),
            TuneError::Seats { source, .. } => source.kind(),
            TuneError::Stopped(stop) => stop.kind(),
            _ => FailureKind::Invalid,
        }
    }
}

/// One measured candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateResult {
    /// Its parameters, in the grid's key order.
    pub params: Vec<(String, ParamValue)>,
    /// Its spec string (builds the randomizer).
    pub spec: String,
    /// Expected mean entropy over the match (over the match-length distribution).
    pub mean_entropy: f64,
    /// The standard error of `mean_entropy` when it was estimated (`None`: exact).
    pub mean_entropy_error: Option<f64>,
    /// Expected outcome variance at the end of the match.
    pub outcome_variance: f64,
    /// The standard error of `outcome_variance` when it was estimated.
    pub outcome_variance_error: Option<f64>,
    /// Expected base deviation at the end of the match.
    pub base_deviation: f64,
    /// The standard error of `base_deviation` when it was estimated.
    pub base_deviation_error: Option<f64>,
    /// The search's measure ([`Tuning::fairness`]): one of the two above, the
    /// figure candidates are ranked by.
    pub fairness: f64,
    /// Its standard error when estimated.
    pub fairness_error: Option<f64>,
    /// Whether `mean_entropy` meets the threshold.
    pub qualifies: bool,
    /// How it was measured.
    pub method: Method,
    /// Its per-step curves up to the longest match.
    pub curves: Curves,
}

impl CandidateResult {
    /// A candidate's figures over `tuning`'s match lengths, from its per-step
    /// `curves` (with their standard errors when estimated).
    pub fn measured(
        tuning: &Tuning,
        params: Vec<(String, ParamValue)>,
        spec: String,
        curves: Curves,
        method: Method,
    ) -> CandidateResult {
        let lengths = &tuning.samples;
        let mean_entropy = lengths.mean_entropy(&curves);
        let mean_entropy_error = curves
            .errors
            .as_ref()
            .map(|e| lengths.expect(|t| e.mean_entropy[t - 1]));
        let (outcome_variance, outcome_variance_error) =
            Fairness::OutcomeVariance.of(&curves, lengths);
        let (base_deviation, base_deviation_error) = Fairness::BaseDeviation.of(&curves, lengths);
        let (fairness, fairness_error) = tuning.fairness.of(&curves, lengths);
        CandidateResult {
            params,
            spec,
            mean_entropy,
            mean_entropy_error,
            outcome_variance,
            outcome_variance_error,
            base_deviation,
            base_deviation_error,
            fairness,
            fairness_error,
            qualifies: mean_entropy >= tuning.min_entropy - ENTROPY_TOLERANCE,
            method,
            curves,
        }
    }
}

/// One system's search.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemResult {
    /// The family (`deck`, `dynamic`, …).
    pub system: String,
    /// Every candidate in the grid's order.
    pub candidates: Vec<CandidateResult>,
    /// The winner's index in `candidates`, if any qualifies.
    pub best: Option<usize>,
    /// Whether the winner (or that none qualifies) is certain: every candidate
    /// that could still have won was measured exactly, or the estimates leave
    /// only the winner (see [`race`]).
    pub certain: bool,
}

impl SystemResult {
    /// The winner, if any candidate qualifies.
    pub fn best(&self) -> Option<&CandidateResult> {
        self.best.map(|i| &self.candidates[i])
    }

    /// How many candidates meet the threshold.
    pub fn qualified(&self) -> usize {
        self.candidates.iter().filter(|c| c.qualifies).count()
    }
}

/// A whole search.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneResult {
    /// One result per grid, in the tuning's order.
    pub systems: Vec<SystemResult>,
}

impl TuneResult {
    /// The system whose winner is fairest by the search's measure (ties: the first).
    pub fn fairest(&self) -> Option<&SystemResult> {
        let mut best: Option<&SystemResult> = None;
        for system in &self.systems {
            let Some(c) = system.best() else { continue };
            let better = best
                .and_then(SystemResult::best)
                .is_none_or(|b| c.fairness < b.fairness && !ties(c.fairness, b.fairness));
            if better {
                best = Some(system);
            }
        }
        best
    }
}

/// True when two variances tie under [`TIE_RELATIVE`] / [`TIE_ABSOLUTE`].
pub fn ties(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIE_RELATIVE * a.abs().max(b.abs()) + TIE_ABSOLUTE
}

/// The index of the winner among `candidates` (see the module's design notes).
pub fn select<C: Borrow<CandidateResult>>(candidates: &[C]) -> Option<usize> {
    let lowest = candidates
        .iter()
        .map(Borrow::borrow)
        .filter(|c| c.qualifies)
        .map(|c| c.fairness)
        .min_by(f64::total_cmp)?;
    candidates
        .iter()
        .map(Borrow::borrow)
        .position(|c| c.qualifies && ties(c.fairness, lowest))
}

/// The spec of a candidate of `grid` over `outcomes`.
///
/// # Errors
/// [`TuneError::Outcomes`] when the family cannot draw those outcomes.
pub fn candidate_spec(
    grid: &Grid,
    outcomes: &Outcomes,
    params: &[(String, ParamValue)],
) -> Result<String, TuneError> {
    candidate(grid, outcomes, params).map(|(spec, _)| spec)
}

/// A candidate's spec, and the steps checking it took (a machine's document is
/// built to check it; a family's spec is only written).
fn candidate(
    grid: &Grid,
    outcomes: &Outcomes,
    params: &[(String, ParamValue)],
) -> Result<(String, u64), TuneError> {
    let (family, base) = match grid.system() {
        grid::System::Family { name, base } => (*name, *base),
        grid::System::Machine(machine) => return machine_candidate(grid.name(), machine, params),
    };
    let refuse = |message: &str| TuneError::Outcomes {
        family: family.to_string(),
        message: message.to_string(),
    };
    let mut args: Vec<String> = match (base, outcomes) {
        (_, Outcomes::Machine { .. }) => {
            return Err(refuse("a machine's search holds no other system"));
        }
        (BaseArgs::ValuesOrBase, Outcomes::Values(n)) => vec![format!("values={n}")],
        (BaseArgs::ValuesOrBase, Outcomes::Base(expr)) => vec![format!("base={expr}")],
        (BaseArgs::MinMax, Outcomes::Values(n)) => vec!["min=1".into(), format!("max={n}")],
        (BaseArgs::MinMax, Outcomes::Base(_)) => {
            return Err(refuse(
                "a bag holds the faces 1..N; give a number of values, not a base",
            ));
        }
        (BaseArgs::Tetrominoes, Outcomes::Values(7)) => Vec::new(),
        (BaseArgs::Tetrominoes, _) => {
            return Err(refuse("it deals the seven tetrominoes; use 7 values"));
        }
        (BaseArgs::Chance, _) => {
            return Err(refuse("it draws success or failure with its own chance"));
        }
    };
    args.extend(params.iter().map(|(k, v)| format!("{k}={v}")));
    let spec = if args.is_empty() {
        family.to_string()
    } else {
        format!("{family}({})", args.join(", "))
    };
    Ok((spec, 0))
}

/// A machine's candidate: its document with `params` set, checked, and what
/// building it cost in steps.
fn machine_candidate(
    name: &str,
    machine: &crate::randomizer::Machine,
    params: &[(String, ParamValue)],
) -> Result<(String, u64), TuneError> {
    let values: Vec<(&str, String)> = params
        .iter()
        .map(|(k, v)| (k.as_str(), v.to_string()))
        .collect();
    let refuse = |message: String| TuneError::MachineCandidate {
        machine: name.to_string(),
        params: report::Parameters(params.to_vec()).to_string(),
        message,
    };
    #[cfg(feature = "serde")]
    {
        machine
            .with_parameters(&values)
            .map(|m| (m.spec(), m.build_steps()))
            .map_err(|e| refuse(e.to_string()))
    }
    #[cfg(not(feature = "serde"))]
    {
        let _ = (machine, values);
        Err(refuse("machine documents need the serde feature".into()))
    }
}

/// Runs the search: every candidate of every grid is measured (in parallel) and
/// each system's winner chosen. `control` is told of each candidate measured
/// (stage `measuring candidates`) and can stop the search.
///
/// # Errors
/// [`TuneError`] for a bad threshold, an impossible family, a rejected candidate,
/// or a forced exact analysis over its cap; [`TuneError::Stopped`] once `control`
/// is cancelled.
pub fn tune(tuning: &Tuning, control: &Control) -> Result<TuneResult, TuneError> {
    if !(0.0..=1.0).contains(&tuning.min_entropy) {
        return Err(TuneError::MinEntropy(tuning.min_entropy));
    }
    if tuning.grids.is_empty() {
        return Err(TuneError::NoSystems);
    }
    let game = seats::game_of(tuning)?;
    // Candidates are built as they are measured: a thousand randomizers of many
    // outcomes each would not all fit in memory at once.
    let mut jobs = Vec::new();
    for grid in &tuning.grids {
        // A machine is built to check each candidate: charged as it is.
        if let grid::System::Machine(machine) = grid.system() {
            control.afford(machine.build_steps() as f64 * grid.len() as f64)?;
        }
        for params in grid.candidates() {
            let (spec, steps) = candidate(grid, &tuning.outcomes, &params)?;
            if steps > 0 {
                control.meter().charge(steps)?;
            }
            jobs.push((params, spec));
        }
    }
    let build = |spec: &String| {
        let built = Spec::build_with(spec, control);
        if let Ok(AnyRandomizer::Machine(machine)) = &built {
            control.meter().charge(machine.build_steps())?;
        }
        built.map_err(|source| match source {
            SpecError::Base { ref source, .. } if source.kind() != FailureKind::Invalid => {
                TuneError::Stopped(match source.kind() {
                    FailureKind::Cancelled => Stop::Cancelled,
                    _ => Stop::OverBudget {
                        limit: control.max_steps(),
                    },
                })
            }
            source => TuneError::Candidate {
                spec: spec.clone(),
                source,
            },
        })
    };
    let samples = tuning.samples.max();
    // Every candidate draws the same outcomes: the first tells how many.
    let outcomes = match jobs.first() {
        Some((_, spec)) => build(spec)?.outcomes().len(),
        None => 0,
    };
    // A seat search first settles the entropy threshold as any search does (the
    // race ranks by the base deviation meanwhile), then measures the seats of the
    // candidates that keep it.
    // The race spends what budget it is given on refining, so in a seat search
    // it gets half, and the seats the rest.
    let curves_tuning;
    let half;
    let (measuring, game, control_curves) = match game {
        Some(game) => {
            curves_tuning = Tuning {
                fairness: Fairness::BaseDeviation,
                game: None,
                ..tuning.clone()
            };
            half = control.share_shown(control.max_steps() / 2);
            (&curves_tuning, Some(game), &half)
        }
        None => (tuning, None, control),
    };
    // Finding twins builds every candidate (110 randomizers of a million
    // outcomes took 10 s): first the search is priced with the fewest
    // candidates it can have, one per system.
    let fewest = tuning.grids.len();
    let priced = match measuring.method {
        MethodChoice::Auto { .. } => {
            race::screening_runs(fewest, samples, outcomes, control_curves).map(|_| ())
        }
        _ => search_fits(fewest, samples, outcomes, &measuring.method),
    };
    // Refused, it says what all the candidates would take.
    priced.map_err(|refused| match refused {
        TuneError::TooBig {
            candidates,
            outcomes,
            samples,
            work,
            limit,
        } => TuneError::TooBig {
            candidates: jobs.len(),
            outcomes,
            samples,
            work: work / candidates.max(1) as f64 * jobs.len() as f64,
            limit,
        },
        other => other,
    })?;
    let twins = Twins::find(&jobs, &tuning.grids, samples, &build)?;
    let sizes = twins.sizes(&tuning.grids);
    let unique = twins.unique(&jobs);
    let mut measured: Vec<CandidateResult> = match measuring.method {
        MethodChoice::Auto { budget, runs, seed } => {
            let runs = analysis::fallback_runs(runs, samples, outcomes);
            let field = race::Field {
                tuning: measuring,
                sizes: &sizes,
                light: game.is_none(),
            };
            race::race(
                field,
                unique,
                outcomes,
                (budget, runs, seed),
                &build,
                control_curves,
            )?
        }
        _ => measure_each(measuring, unique, outcomes, &build, control_curves)?,
    };
    // Twins split a match between the seats alike too.
    if let Some(game) = game {
        seats::measure(tuning, game, &mut measured, &build, control)?;
    }
    let measured = twins.spread(measured, jobs);
    let mut systems: Vec<SystemResult> = tuning
        .grids
        .iter()
        .map(|g| SystemResult {
            system: g.name().to_string(),
            candidates: Vec::with_capacity(g.len()),
            best: None,
            certain: true,
        })
        .collect();
    let mut owners = owners(&tuning.grids);
    for result in measured {
        let owner = owners.next().unwrap_or(0);
        systems[owner].candidates.push(result);
    }
    for system in &mut systems {
        system.best = select(&system.candidates);
        system.certain = match game {
            Some(_) => seats::certain(&system.candidates, system.best, tuning),
            None => race::certain(&system.candidates, tuning),
        };
    }
    Ok(TuneResult { systems })
}

/// Candidates of one grid that draw alike over the match
/// ([`Randomizer::same_over`]): each is measured once, as its first in the
/// grid's order, and its twins take the result with their own parameters.
struct Twins {
    /// For each job, the job measured for it (itself, or its first twin).
    measured_as: Vec<usize>,
    /// Each job's spec as its randomizer writes it.
    specs: Vec<String>,
}

impl Twins {
    fn find(
        jobs: &[race::Job],
        grids: &[Grid],
        samples: usize,
        build: &(dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
    ) -> Result<Twins, TuneError> {
        let named: Vec<(String, Option<String>)> = jobs
            .par_iter()
            .map(|(_, spec)| {
                let randomizer = build(spec)?;
                Ok((randomizer.spec(), randomizer.same_over(samples)))
            })
            .collect::<Result<_, TuneError>>()?;
        let mut measured_as = Vec::with_capacity(jobs.len());
        let mut first: std::collections::HashMap<(usize, &str), usize> =
            std::collections::HashMap::new();
        for (i, (owner, (_, same))) in owners(grids).zip(&named).enumerate() {
            measured_as.push(match same {
                Some(same) => *first.entry((owner, same.as_str())).or_insert(i),
                None => i,
            });
        }
        let specs = named.into_iter().map(|(spec, _)| spec).collect();
        Ok(Twins { measured_as, specs })
    }

    /// How many jobs of each grid are measured.
    fn sizes(&self, grids: &[Grid]) -> Vec<usize> {
        let mut start = 0;
        grids
            .iter()
            .map(|grid| {
                let end = start + grid.len();
                let size = (start..end).filter(|&i| self.measured_as[i] == i).count();
                start = end;
                size
            })
            .collect()
    }

    /// The jobs to measure, in order.
    fn unique(&self, jobs: &[race::Job]) -> Vec<race::Job> {
        jobs.iter()
            .enumerate()
            .filter(|&(i, _)| self.measured_as[i] == i)
            .map(|(_, job)| job.clone())
            .collect()
    }

    /// Every job's result from the `measured` ones (in the order of
    /// [`unique`](Self::unique)).
    fn spread(&self, measured: Vec<CandidateResult>, jobs: Vec<race::Job>) -> Vec<CandidateResult> {
        let mut measured = measured.into_iter();
        let mut all: Vec<CandidateResult> = Vec::with_capacity(jobs.len());
        for (i, (params, _)) in jobs.into_iter().enumerate() {
            // A twin's first comes before it, so its result is already in place.
            let first = self.measured_as[i];
            let mut result = if first == i {
                measured.next().expect("a result for each job measured")
            } else {
                all[first].clone()
            };
            result.params = params;
            result.spec.clone_from(&self.specs[i]);
            all.push(result);
        }
        all
    }
}

/// The index of the grid each candidate comes from, in the order of `grids`.
fn owners(grids: &[Grid]) -> impl Iterator<Item = usize> + '_ {
    grids
        .iter()
        .enumerate()
        .flat_map(|(g, grid)| std::iter::repeat_n(g, grid.len()))
}

/// Measures every candidate by the forced method (every one exact, or every one
/// estimated from the same runs), in parallel.
fn measure_each(
    tuning: &Tuning,
    jobs: Vec<race::Job>,
    outcomes: usize,
    build: &(dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
    control: &Control,
) -> Result<Vec<CandidateResult>, TuneError> {
    let samples = tuning.samples.max();
    search_fits(jobs.len(), samples, outcomes, &tuning.method)?;
    control.stage("measuring candidates", jobs.len() as u64);
    let each = control.silent();
    jobs.into_par_iter()
        .map(|(params, spec)| {
            control.check()?;
            let randomizer = build(&spec)?;
            let spec = randomizer.spec();
            let (curves, method) = analysis::curves(&randomizer, samples, &tuning.method, &each)
                .map_err(|source| match source {
                    AnalysisError::Stopped(stop) => TuneError::Stopped(stop),
                    source => TuneError::Analysis {
                        spec: spec.clone(),
                        source,
                    },
                })?;
            control.advance(1);
            Ok(CandidateResult::measured(
                tuning, params, spec, curves, method,
            ))
        })
        .collect()
}

/// Refuses a search by a forced method whose `candidates` could together need
/// more than [`MAX_SEARCH_WORK`].
///
/// # Errors
/// [`TuneError::TooBig`] with the work and the limit.
fn search_fits(
    candidates: usize,
    samples: usize,
    outcomes: usize,
    method: &MethodChoice,
) -> Result<(), TuneError> {
    let work = candidates as f64 * worst_case_work(outcomes, samples, method);
    if work > MAX_SEARCH_WORK {
        return Err(TuneError::TooBig {
            candidates,
            outcomes,
            samples,
            work,
            limit: MAX_SEARCH_WORK,
        });
    }
    Ok(())
}

/// The Monte Carlo work one candidate may need: runs × samples × outcomes.
fn worst_case_work(outcomes: usize, samples: usize, method: &MethodChoice) -> f64 {
    let runs = match *method {
        MethodChoice::Exact { .. } => 0,
        MethodChoice::MonteCarlo { runs, .. } => runs,
        MethodChoice::Auto { runs, .. } => analysis::fallback_runs(runs, samples, outcomes),
    };
    runs as f64 * samples as f64 * outcomes as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(variance: f64, qualifies: bool) -> CandidateResult {
        CandidateResult {
            params: Vec::new(),
            spec: String::new(),
            mean_entropy: 1.0,
            mean_entropy_error: None,
            outcome_variance: variance,
            outcome_variance_error: None,
            base_deviation: variance,
            base_deviation_error: None,
            fairness: variance,
            fairness_error: None,
            qualifies,
            method: Method::Exact { peak_states: 1 },
            curves: Curves::default(),
        }
    }

    #[test]
    fn ties_go_to_the_first_candidate() {
        let candidates = [
            candidate(0.1, false),
            candidate(0.5, true),
            candidate(0.3 + 1e-12, true),
            candidate(0.3, true),
            candidate(0.3 * (1.0 + 5e-10), true),
        ];
        assert_eq!(select(&candidates), Some(2));
        assert_eq!(select(&candidates[..2]), Some(1));
        assert_eq!(select(&candidates[..1]), None);
        assert!(!ties(0.3, 0.3 * (1.0 + 1e-8)));
    }

    #[test]
    fn a_weighted_base_and_the_tetris_families() {
        let spec = |family: &str, outcomes: Outcomes| {
            let grid = Grid::parse(family).expect("valid grid");
            let params = grid.candidates().remove(0);
            candidate_spec(&grid, &outcomes, &params)
        };
        assert_eq!(
            spec("fair", Outcomes::Base("2d6".into())).expect("fits"),
            "fair(base=2d6, tightness=0)"
        );
        assert_eq!(
            spec("bag", Outcomes::Values(6)).expect("fits"),
            "bag(min=1, max=6, sets=1)"
        );
        assert_eq!(spec("nes", Outcomes::Values(7)).expect("fits"), "nes");
        assert!(spec("tgm", Outcomes::Values(6)).is_err());
        assert!(spec("bag", Outcomes::Base("2d6".into())).is_err());
    }

    #[test]
    fn twins_are_measured_once_and_each_keeps_its_own_parameters() {
        // Twelve cards over eight samples: the seven draws that can show a refill
        // leave at least five cards, so thresholds 1 to 5 draw alike; 6 does not.
        let mut tuning = Tuning::article(4, 8).expect("valid");
        tuning.grids = vec![
            Grid::parse("deck(copies=3, refill_below=1..6)").expect("a grid"),
            Grid::parse("deck(copies=1, refill_below=1..2)").expect("a grid"),
        ];
        let jobs: Vec<race::Job> = tuning
            .grids
            .iter()
            .flat_map(|g| {
                g.candidates()
                    .into_iter()
                    .map(|p| (p.clone(), candidate_spec(g, &tuning.outcomes, &p).unwrap()))
            })
            .collect();
        let build = |spec: &String| Spec::build(spec).map_err(|_| TuneError::NoSystems);
        let twins = Twins::find(&jobs, &tuning.grids, 8, &build).expect("builds");
        // Twins are found within a grid only; four cards refill within eight samples.
        assert_eq!(twins.measured_as, [0, 0, 0, 0, 0, 5, 6, 7]);
        assert_eq!(twins.sizes(&tuning.grids), [2, 2]);
        let result = tune(&tuning, &Control::new()).expect("runs");
        for c in result.systems.iter().flat_map(|s| &s.candidates) {
            let own = Spec::build(&c.spec).expect("its spec builds");
            let (curves, _) = analysis::curves(&own, 8, &MethodChoice::default(), &Control::new())
                .expect("small");
            let mean = curves.entropy.iter().sum::<f64>() / 8.0;
            assert!((c.mean_entropy - mean).abs() < 1e-12, "{}", c.spec);
            assert!(
                (c.outcome_variance - curves.outcome_variance[7]).abs() < 1e-12,
                "{}",
                c.spec
            );
            let below = c.params[1].1.to_string();
            assert!(
                c.spec.contains(&format!("refill_below={below}")),
                "{}",
                c.spec
            );
        }
    }

    #[test]
    fn a_search_that_could_run_for_hours_is_refused_before_it_starts() {
        let tuning = Tuning::article(1000, 100).expect("valid");
        // 110 to measure: a deck of 1000 values cannot refill within 100 samples,
        // so its ten thresholds draw alike for each number of copies.
        assert!(matches!(
            tune(&tuning, &Control::new()),
            Err(TuneError::TooBig {
                candidates: 110,
                outcomes: 1000,
                samples: 100,
                ..
            })
        ));
    }

    #[test]
    fn a_search_too_large_for_even_one_candidate_a_system_is_refused_before_building_them() {
        // 200 candidates of a million outcomes: building them all to find twins
        // took 10 s before the refusal; the first alone prices the search.
        let tuning = Tuning::article(1_000_000, 10).expect("valid");
        assert!(matches!(
            tune(&tuning, &Control::new()),
            Err(TuneError::TooBig {
                candidates: 200,
                outcomes: 1_000_000,
                samples: 10,
                ..
            })
        ));
    }

    #[test]
    fn rejects_a_threshold_outside_the_unit_interval() {
        let mut tuning = Tuning::article(6, 10).expect("valid");
        tuning.min_entropy = 1.5;
        assert_eq!(
            tune(&tuning, &Control::new()),
            Err(TuneError::MinEntropy(1.5))
        );
    }
}
