//! How an exact sweep runs ([`ExactOptions`]) and why it stops ([`ExactError`]):
//! what the sweep (`exact.rs`), its state graph (`graph.rs`) and its pricing
//! (`sweep_cost.rs`) all share, so none of them imports another for it.

use thiserror::Error;

use crate::control::{Failure, FailureKind, Stop, step_count};

/// The default budget: merged states in one step of a sweep.
pub const DEFAULT_STATE_BUDGET: usize = 2_000_000;

/// The most states a forced exact sweep may hold in one step (about 4 GB).
pub const HARD_STATE_CAP: usize = 20_000_000;

/// How an exact sweep runs.
#[derive(Debug, Clone)]
pub struct ExactOptions {
    /// Give up when one step holds more merged states than this.
    pub budget: usize,
    /// Merge states equal up to relabeling exchangeable outcomes (on by default;
    /// off only to check the merging).
    pub merge: bool,
    /// Also give up early, once a step holds at least [`EARLY_MIN_STATES`](super::exact::EARLY_MIN_STATES) states
    /// and their growth so far projects past four times the budget by the last step
    /// (an automatic choice of method uses this, so a hopeless sweep does not run
    /// all the way to the budget before Monte Carlo takes over).
    pub give_up_early: bool,
    /// Past this many bytes of stored states and edges the state graph forgets
    /// the states of earlier steps ([`GRAPH_BYTES`] by default).
    pub graph_bytes: usize,
}

/// How many states a sweep expands between two looks at its control's cancel
/// switch (it also looks before every step).
pub const CANCEL_CHECK_STATES: usize = 4096;

/// Past this many bytes of stored states and edges, the state graph forgets all
/// but the current step's states when it holds more than twice as many: states
/// that recur are expanded again, at a fraction of what paging in the memory costs.
pub const GRAPH_BYTES: usize = 64 << 20;

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            budget: DEFAULT_STATE_BUDGET,
            merge: true,
            give_up_early: false,
            graph_bytes: GRAPH_BYTES,
        }
    }
}

/// Why an exact sweep stopped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExactError {
    /// Too many states.
    #[error(
        "the exact sweep needs more than {budget} states in a step ({states} at step {step}; about {estimate:.1e} by step {samples} at the growth seen); use Monte Carlo (--runs) or fewer samples"
    )]
    OverBudget {
        /// The step (1-based) where the budget was exceeded.
        step: usize,
        /// States reached at that step.
        states: usize,
        /// The budget.
        budget: usize,
        /// The samples asked for.
        samples: usize,
        /// A rough extrapolation of the states at the last step.
        estimate: f64,
    },
    /// The sweep would hold more memory than its control allows.
    #[error(
        "the exact sweep needs more than {} MiB at step {step} (its states are large: one number per outcome); use Monte Carlo (--runs) or fewer samples",
        limit >> 20
    )]
    OutOfMemory {
        /// The step (1-based) where the limit was passed.
        step: usize,
        /// Bytes held then.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The sweep would take longer than the step budget allows.
    #[error(
        "the exact sweep would take about {} steps (the limit is {}; it was stopped at step {step}); use Monte Carlo (--runs) or fewer samples",
        step_count(*projected),
        step_count(*limit as f64)
    )]
    TooSlow {
        /// The step (1-based) where the projection passed the budget.
        step: usize,
        /// The steps the whole sweep would take, as projected then.
        projected: f64,
        /// The budget.
        limit: u64,
    },
    /// The randomizer refused a state it produced itself (a bug in the randomizer).
    #[error("the randomizer {spec} refused its own state: {message}")]
    Inconsistent {
        /// The randomizer.
        spec: String,
        /// Its error.
        message: String,
    },
    /// The control cancelled the sweep.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl ExactError {
    /// Whether the sweep stopped for its size (a Monte Carlo estimate can answer
    /// instead), not for a fault.
    pub fn is_too_large(&self) -> bool {
        self.kind() == FailureKind::TooLarge
    }
}

impl Failure for ExactError {
    fn kind(&self) -> FailureKind {
        match self {
            ExactError::OverBudget { .. }
            | ExactError::OutOfMemory { .. }
            | ExactError::TooSlow { .. } => FailureKind::TooLarge,
            // A bug, but nothing the input can fix either; reported as invalid.
            ExactError::Inconsistent { .. } => FailureKind::Invalid,
            ExactError::Stopped(stop) => stop.kind(),
        }
    }
}
