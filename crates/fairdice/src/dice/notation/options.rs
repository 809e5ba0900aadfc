//! [`Options`]: how a dice expression is evaluated — explode depth and the budget
//! that keeps an exact computation from running away.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::dice::budget::Meter;
use crate::dice::transform::DEFAULT_EXPLODE_DEPTH;

/// The default budget of an exact computation, in estimated work steps (one step is
/// about one multiply-add of 64-bit limbs: a few nanoseconds). Roughly ten seconds.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000_000;

/// The default limit on distinct outcomes held by any intermediate distribution.
pub const DEFAULT_MAX_OUTCOMES: u64 = 10_000_000;

/// Evaluation settings shared by the exact evaluator, the cost estimate and the
/// roller.
#[derive(Debug, Clone)]
pub struct Options {
    /// How many extra rolls `!` may add per die (default
    /// [`DEFAULT_EXPLODE_DEPTH`]).
    pub explode_depth: u32,
    /// Refuse exact computations estimated above this many steps.
    pub max_steps: u64,
    /// Refuse exact computations holding more distinct outcomes than this.
    pub max_outcomes: u64,
    /// Stop as soon as this flag becomes true (e.g. a server's time limit).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            explode_depth: DEFAULT_EXPLODE_DEPTH,
            max_steps: DEFAULT_MAX_STEPS,
            max_outcomes: DEFAULT_MAX_OUTCOMES,
            cancel: None,
        }
    }
}

impl Options {
    /// A meter for one exact computation under these options. The estimate is an
    /// order of magnitude, so the meter allows some slack beyond it before stopping.
    pub(crate) fn meter(&self) -> Meter {
        let meter = Meter::new(self.max_steps.saturating_mul(4));
        match &self.cancel {
            Some(flag) => meter.with_cancel(flag.clone()),
            None => meter,
        }
    }
}
