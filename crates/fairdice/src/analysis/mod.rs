//! Measuring randomizers: the expected entropy and outcome variance per step, the
//! immediate-repeat rate and droughts, exactly where the state space allows and by
//! seeded Monte Carlo otherwise.
//!
//! The measures follow "Making Randomness Fair" (see [`metrics`]): over a match of
//! `T` samples,
//! - **mean entropy**: the Shannon entropy of each next-sample distribution, taken
//!   *before* each of the `T` samples (the first included), averaged over the `T`
//!   steps, divided by `ln n`; expected over all runs;
//! - **outcome variance**: the population variance (divide by `n`) of the `n`
//!   outcome counts after the `T`-th sample; expected over all runs;
//! - **repeat rate**: the expected fraction of samples 2..=T equal to the one
//!   before;
//! - **droughts** ([`gaps`]): per outcome, the expected longest run of samples
//!   without it and P(longest run > k).
//!
//! ```
//! use fairdice::Control;
//! use fairdice::analysis::{analyze, AnalysisOptions, Method};
//! use fairdice::randomizer::Spec;
//!
//! let deck = Spec::build("deck(values=6, copies=1, refill_below=6)")?;
//! let result = analyze(&deck, &AnalysisOptions::new(25), &Control::new())?;
//! assert!(matches!(result.method, Method::Exact { .. }));
//! assert_eq!(format!("{:.2}", result.outcome_variance), "0.51"); // the article's 0.51
//! assert!(result.mean_entropy >= 0.90);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design decisions
//! The exact sweep ([`exact`]) is the default: it is faster than a Monte Carlo run
//! precise enough to rank candidates, and it has no noise to break ties. Monte
//! Carlo ([`monte_carlo`]) takes over when a step would hold more merged states
//! than a budget, and the result always names the method used.

pub mod audit;
pub mod base_deviation;
/// The Markov chain of a randomizer's states, which goals are computed on; it lives
/// with the randomizers, whose long-run frequencies need it too.
pub use crate::randomizer::chain;
pub mod exact;
pub mod exact_gaps;
mod exact_tests;
pub mod gaps;
pub mod goal;
pub mod metrics;
pub mod monte_carlo;
pub mod report;
pub mod seats;

mod canonical;
mod graph;
mod sweep_cost;
mod sweep_options;

use thiserror::Error;

pub use base_deviation::{BaseDeviation, base_probabilities};
pub use exact::{DEFAULT_STATE_BUDGET, ExactError, ExactOptions, HARD_STATE_CAP};
pub use gaps::{OutcomeDroughts, shown_gaps};
pub use metrics::{CurveErrors, Curves, entropy_fraction, population_variance};
pub use report::AnalysisReport;

use crate::control::{Control, Failure, FailureKind, Stop};
use crate::randomizer::{Randomizer, StateSpace};

/// The most samples one analysis covers.
pub const MAX_SAMPLES: usize = 100_000;

/// Monte Carlo runs used when an automatic analysis falls back from exact.
pub const DEFAULT_RUNS: u64 = 100_000;

/// The seed used when an automatic analysis falls back from exact.
pub const DEFAULT_SEED: u64 = 1;

/// Which method to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodChoice {
    /// Exact when every step fits in `budget` merged states, else Monte Carlo with
    /// `runs` runs and `seed`. The sweep also gives up early when its growth
    /// projects far past the budget (see [`ExactOptions::give_up_early`]).
    Auto {
        /// Merged states one step may hold.
        budget: usize,
        /// Monte Carlo runs for the fallback.
        runs: u64,
        /// Seed for the fallback.
        seed: u64,
    },
    /// Exact, failing past `cap` states in one step.
    Exact {
        /// Merged states one step may hold.
        cap: usize,
    },
    /// Monte Carlo.
    MonteCarlo {
        /// Runs (matches simulated).
        runs: u64,
        /// Seed of the run's streams.
        seed: u64,
    },
}

impl Default for MethodChoice {
    fn default() -> Self {
        MethodChoice::Auto {
            budget: DEFAULT_STATE_BUDGET,
            runs: DEFAULT_RUNS,
            seed: DEFAULT_SEED,
        }
    }
}

/// The method a result came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "method", rename_all = "snake_case"))]
pub enum Method {
    /// The exact sweep.
    Exact {
        /// The most merged states one step held.
        peak_states: usize,
    },
    /// Monte Carlo.
    MonteCarlo {
        /// Runs simulated.
        runs: u64,
        /// The seed.
        seed: u64,
    },
}

impl Method {
    /// `exact` or `monte_carlo`.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Exact { .. } => "exact",
            Method::MonteCarlo { .. } => "monte_carlo",
        }
    }
}

/// What to analyze.
#[derive(Debug, Clone)]
pub struct AnalysisOptions {
    /// Samples in the match (`T`).
    pub samples: usize,
    /// The method.
    pub method: MethodChoice,
    /// Also compute droughts (costlier exactly: see [`gaps`]).
    pub droughts: bool,
}

impl AnalysisOptions {
    /// `samples` samples, the automatic method, droughts included.
    pub fn new(samples: usize) -> AnalysisOptions {
        AnalysisOptions {
            samples,
            method: MethodChoice::default(),
            droughts: true,
        }
    }
}

/// Why an analysis could not run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum AnalysisError {
    /// `samples` outside `1..=MAX_SAMPLES`.
    #[error("samples must be in 1..={max}, got {0}", max = MAX_SAMPLES)]
    Samples(usize),
    /// No Monte Carlo runs.
    #[error("Monte Carlo needs at least 2 runs (for a standard error), got {0}")]
    Runs(u64),
    /// The forced exact sweep is too large.
    #[error("{0}")]
    Exact(ExactError),
    /// The control cancelled the analysis.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl From<ExactError> for AnalysisError {
    fn from(error: ExactError) -> AnalysisError {
        match error {
            ExactError::Stopped(stop) => AnalysisError::Stopped(stop),
            other => AnalysisError::Exact(other),
        }
    }
}

impl Failure for AnalysisError {
    fn kind(&self) -> FailureKind {
        match self {
            AnalysisError::Samples(_) | AnalysisError::Runs(_) => FailureKind::Invalid,
            AnalysisError::Exact(error) => error.kind(),
            AnalysisError::Stopped(stop) => stop.kind(),
        }
    }
}

/// Droughts and how they were obtained (they may fall back to Monte Carlo while
/// the curves are exact).
#[derive(Debug, Clone, PartialEq)]
pub struct Droughts {
    /// The method.
    pub method: Method,
    /// One entry per outcome, in outcome order.
    pub outcomes: Vec<OutcomeDroughts>,
}

/// A randomizer measured over a match.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The randomizer's spec.
    pub spec: String,
    /// Samples in the match.
    pub samples: usize,
    /// How the curves were obtained.
    pub method: Method,
    /// Per-step expectations.
    pub curves: Curves,
    /// Mean entropy over the match (fraction of a fair die's).
    pub mean_entropy: f64,
    /// Outcome variance after the last sample.
    pub outcome_variance: f64,
    /// The counts' deviation from the base after the last sample (beside the
    /// outcome variance, which expects every outcome equally often).
    pub base_deviation: BaseDeviation,
    /// Expected fraction of samples that repeat the one before.
    pub repeat_rate: f64,
    /// Standard errors of the three summaries (Monte Carlo only).
    pub errors: Option<[f64; 3]>,
    /// Droughts, when asked for.
    pub droughts: Option<Droughts>,
}

fn check(samples: usize, method: &MethodChoice) -> Result<(), AnalysisError> {
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(AnalysisError::Samples(samples));
    }
    match *method {
        MethodChoice::MonteCarlo { runs, .. } | MethodChoice::Auto { runs, .. } if runs < 2 => {
            Err(AnalysisError::Runs(runs))
        }
        _ => Ok(()),
    }
}

/// The per-step curves of `randomizer` over `samples` samples by the chosen
/// method, and the method used. The tuner calls this for every candidate.
///
/// # Errors
/// [`AnalysisError`] for bad options or a forced exact sweep over its cap;
/// [`AnalysisError::Stopped`] once `control` is cancelled.
pub fn curves<R: StateSpace + Clone + Sync>(
    randomizer: &R,
    samples: usize,
    method: &MethodChoice,
    control: &Control,
) -> Result<(Curves, Method), AnalysisError> {
    check(samples, method)?;
    let exact = |budget: usize, give_up_early: bool| {
        let options = ExactOptions {
            budget,
            merge: true,
            give_up_early,
            ..ExactOptions::default()
        };
        exact::curves(randomizer, samples, &options, control)
    };
    let monte_carlo = |runs: u64, seed: u64| {
        monte_carlo::estimate(randomizer, samples, runs, seed, false, control)
            .map(|estimate| (estimate.curves, Method::MonteCarlo { runs, seed }))
            .map_err(AnalysisError::Stopped)
    };
    Ok(match *method {
        MethodChoice::Exact { cap } => {
            let result = exact(cap, false)?;
            (
                result.curves,
                Method::Exact {
                    peak_states: result.peak_states,
                },
            )
        }
        MethodChoice::MonteCarlo { runs, seed } => monte_carlo(runs, seed)?,
        MethodChoice::Auto { budget, runs, seed } => match exact(budget, true) {
            Ok(result) => (
                result.curves,
                Method::Exact {
                    peak_states: result.peak_states,
                },
            ),
            Err(e) if e.is_too_large() => monte_carlo(
                fallback_runs(runs, samples, randomizer.outcomes().len()),
                seed,
            )?,
            Err(other) => return Err(other.into()),
        },
    })
}

/// The most samples (runs × samples per run) an automatic fallback draws: a few
/// seconds of work, however long the match.
pub const FALLBACK_DRAWS: u64 = 100_000_000;

/// The most outcome-steps (runs × samples × outcomes) an automatic fallback spends:
/// every step weighs the whole next-sample distribution for its entropy, so a
/// randomizer with many outcomes gets fewer runs.
pub const FALLBACK_WORK: u64 = 2_000_000_000;

/// The runs of an automatic Monte Carlo fallback: `runs`, fewer for very long
/// matches or many outcomes (never below 1,000) so the fallback stays within
/// [`FALLBACK_DRAWS`] and [`FALLBACK_WORK`]. A forced Monte Carlo run uses exactly
/// the runs asked for.
pub fn fallback_runs(runs: u64, samples: usize, outcomes: usize) -> u64 {
    let draws = samples.max(1) as u64;
    let work = draws.saturating_mul(outcomes.max(1) as u64);
    runs.min(FALLBACK_DRAWS / draws)
        .min(FALLBACK_WORK / work)
        .max(1_000)
}

/// Measures `randomizer` over a match of `options.samples` samples.
///
/// `control` is told of the work done, stage by stage: steps of an exact sweep,
/// outcomes followed by the exact drought sweep, runs of a Monte Carlo estimate.
///
/// # Errors
/// [`AnalysisError`] for bad options or a forced exact sweep over its cap;
/// [`AnalysisError::Stopped`] once `control` is cancelled.
pub fn analyze<R: StateSpace + Clone + Sync>(
    randomizer: &R,
    options: &AnalysisOptions,
    control: &Control,
) -> Result<Analysis, AnalysisError> {
    let samples = options.samples;
    check(samples, &options.method)?;
    let exact_curves = match options.method {
        MethodChoice::MonteCarlo { .. } => None,
        MethodChoice::Exact { cap } => Some(exact_sweep(randomizer, samples, cap, false, control)?),
        MethodChoice::Auto { budget, .. } => {
            match exact_sweep(randomizer, samples, budget, true, control) {
                Ok(result) => Some(result),
                Err(e) if e.is_too_large() => None,
                Err(other) => return Err(other.into()),
            }
        }
    };
    let (runs, seed) = match options.method {
        MethodChoice::MonteCarlo { runs, seed } => (runs, seed),
        MethodChoice::Auto { runs, seed, .. } => (
            fallback_runs(runs, samples, randomizer.outcomes().len()),
            seed,
        ),
        MethodChoice::Exact { .. } => (DEFAULT_RUNS, DEFAULT_SEED),
    };
    let (curves, method, droughts, base_deviation) = match exact_curves {
        None => return simulate(randomizer, samples, runs, seed, options.droughts, control),
        Some(result) => {
            let method = Method::Exact {
                peak_states: result.peak_states,
            };
            let droughts = if options.droughts {
                Some(droughts(randomizer, samples, &options.method, control)?)
            } else {
                None
            };
            (result.curves, method, droughts, result.base_deviation)
        }
    };
    Ok(assemble(
        randomizer.spec(),
        samples,
        curves,
        method,
        droughts,
        base_deviation,
    ))
}

/// Measures `randomizer` over a match of `samples` samples by seeded Monte
/// Carlo alone (`runs` runs from `seed`, droughts with `droughts`): what
/// [`analyze`] reports by [`MethodChoice::MonteCarlo`], for a randomizer that
/// draws and gives its next distribution but does not name its states (a
/// [`Randomizer`] that is not a [`StateSpace`]).
///
/// ```
/// use fairdice::Control;
/// use fairdice::analysis::{Method, simulate};
/// use fairdice::randomizer::Spec;
///
/// let deck = Spec::build("deck(values=6, copies=1, refill_below=6)")?;
/// let result = simulate(&deck, 25, 20_000, 1, false, &Control::new())?;
/// assert_eq!(result.method, Method::MonteCarlo { runs: 20_000, seed: 1 });
/// assert!((result.outcome_variance - 0.51).abs() < 0.02); // exactly 0.51...
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`AnalysisError`] for `samples` out of range or fewer than 2 runs;
/// [`AnalysisError::Stopped`] once `control` is cancelled.
pub fn simulate<R: Randomizer + Clone + Sync>(
    randomizer: &R,
    samples: usize,
    runs: u64,
    seed: u64,
    droughts: bool,
    control: &Control,
) -> Result<Analysis, AnalysisError> {
    check(samples, &MethodChoice::MonteCarlo { runs, seed })?;
    // One Monte Carlo pass gives the curves and the droughts together.
    let estimate = monte_carlo::estimate(randomizer, samples, runs, seed, droughts, control)?;
    let method = Method::MonteCarlo { runs, seed };
    let droughts = estimate
        .droughts
        .map(|outcomes| Droughts { method, outcomes });
    Ok(assemble(
        randomizer.spec(),
        samples,
        estimate.curves,
        method,
        droughts,
        estimate.base_deviation,
    ))
}

/// The summaries of a match read off its curves.
fn assemble(
    spec: String,
    samples: usize,
    curves: Curves,
    method: Method,
    droughts: Option<Droughts>,
    base_deviation: BaseDeviation,
) -> Analysis {
    let errors = curves.errors.as_ref().map(|e| {
        [
            e.mean_entropy[samples - 1],
            e.outcome_variance[samples - 1],
            repeat_rate_error(&e.repeat, samples),
        ]
    });
    Analysis {
        spec,
        samples,
        method,
        mean_entropy: curves.mean_entropy(samples),
        outcome_variance: curves.outcome_variance(samples),
        base_deviation,
        repeat_rate: curves.repeat_rate(samples),
        errors,
        curves,
        droughts,
    }
}

fn exact_sweep<R: StateSpace + Clone>(
    randomizer: &R,
    samples: usize,
    budget: usize,
    give_up_early: bool,
    control: &Control,
) -> Result<exact::ExactCurves, ExactError> {
    let options = ExactOptions {
        budget,
        merge: true,
        give_up_early,
        ..ExactOptions::default()
    };
    exact::curves(randomizer, samples, &options, control)
}

/// A conservative standard error of the repeat rate: the per-step errors added as
/// if fully correlated, averaged like the rate.
fn repeat_rate_error(errors: &[f64], samples: usize) -> f64 {
    if samples < 2 {
        return 0.0;
    }
    errors[1..samples].iter().sum::<f64>() / (samples - 1) as f64
}

/// Each outcome's droughts by the chosen method (exact droughts fall back to Monte
/// Carlo under [`MethodChoice::Auto`] when over the budget): what [`analyze`]
/// reports, on their own, for a caller that shows the curves first.
///
/// # Errors
/// [`AnalysisError`] for bad options or a forced exact sweep over its cap;
/// [`AnalysisError::Stopped`] once `control` is cancelled.
pub fn droughts<R: StateSpace + Clone + Sync>(
    randomizer: &R,
    samples: usize,
    method: &MethodChoice,
    control: &Control,
) -> Result<Droughts, AnalysisError> {
    check(samples, method)?;
    let exact = |budget: usize, give_up_early: bool| {
        let options = ExactOptions {
            budget,
            merge: true,
            give_up_early,
            ..ExactOptions::default()
        };
        gaps::exact(randomizer, samples, &options, control)
    };
    let monte_carlo = |runs: u64, seed: u64| {
        let estimate = monte_carlo::estimate(randomizer, samples, runs, seed, true, control)?;
        Ok::<_, AnalysisError>(Droughts {
            method: Method::MonteCarlo { runs, seed },
            outcomes: estimate.droughts.unwrap_or_default(),
        })
    };
    let exact_droughts = |(outcomes, peak_states)| Droughts {
        method: Method::Exact { peak_states },
        outcomes,
    };
    Ok(match *method {
        MethodChoice::Exact { cap } => exact_droughts(exact(cap, false)?),
        MethodChoice::MonteCarlo { runs, seed } => monte_carlo(runs, seed)?,
        MethodChoice::Auto { budget, runs, seed } => match exact(budget, true) {
            Ok(outcomes) => exact_droughts(outcomes),
            Err(e) if e.is_too_large() => monte_carlo(
                fallback_runs(runs, samples, randomizer.outcomes().len()),
                seed,
            )?,
            Err(other) => return Err(other.into()),
        },
    })
}
