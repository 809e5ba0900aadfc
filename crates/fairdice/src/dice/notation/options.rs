//! [`Options`]: what a dice expression means beyond its text — how deep explosions
//! go, and how many distinct outcomes an exact result may hold. The budget, the
//! cancel switch and progress are the [`Control`](crate::Control)'s.

use crate::dice::transform::DEFAULT_EXPLODE_DEPTH;

pub use crate::control::DEFAULT_MAX_STEPS;

/// The default limit on distinct outcomes held by any intermediate distribution.
pub const DEFAULT_MAX_OUTCOMES: u64 = 10_000_000;

/// Evaluation settings shared by the exact evaluator, the cost estimate and the
/// roller.
#[derive(Debug, Clone)]
pub struct Options {
    /// How many extra rolls `!` may add per die (default
    /// [`DEFAULT_EXPLODE_DEPTH`]).
    pub explode_depth: u32,
    /// Refuse exact computations holding more distinct outcomes than this.
    pub max_outcomes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            explode_depth: DEFAULT_EXPLODE_DEPTH,
            max_outcomes: DEFAULT_MAX_OUTCOMES,
        }
    }
}
