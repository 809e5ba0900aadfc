//! [`BattleError`]: why a battle could not be solved or simulated.

use thiserror::Error;

use super::rules::RulesError;
use crate::contest::ContestError;
use crate::control::{Failure, FailureKind, Stop};

/// Why a battle could not be solved or simulated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BattleError {
    /// Invalid rules or starting armies.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// More army states than the chosen sweep holds in memory.
    #[error(
        "{attacker} against {defender} armies is {states} army states, more than the {limit} {method} sweep holds"
    )]
    TooManyStates {
        /// Attacking armies.
        attacker: u32,
        /// Defending armies.
        defender: u32,
        /// `(attacker + 1) · (defender + 1)`.
        states: u64,
        /// The sweep's limit ([`MAX_EXACT_STATES`] or [`MAX_FLOAT_STATES`]).
        limit: u64,
        /// `an exact` or `a floating-point`.
        method: &'static str,
    },
    /// One roll could not be solved (too large for the pool engine).
    #[error("one roll of {attacker} dice against {defender}: {source}")]
    Roll {
        /// Attacker's dice in that roll.
        attacker: u32,
        /// Defender's dice in that roll.
        defender: u32,
        /// Why.
        source: ContestError,
    },
    /// The sweep went past its budget or was cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
    /// A simulation asked to roll more dice than it may.
    #[error(
        "{runs} battles of {attacker} against {defender} armies roll up to about {dice:.1e} dice, more than the {limit:.1e} a simulation may"
    )]
    TooMuchSimulation {
        /// Battles asked for.
        runs: u64,
        /// Attacking armies.
        attacker: u32,
        /// Defending armies.
        defender: u32,
        /// An upper bound of the dice rolled.
        dice: f64,
        /// [`MAX_SIMULATED_DICE`].
        limit: f64,
    },
}

impl Failure for BattleError {
    fn kind(&self) -> FailureKind {
        match self {
            BattleError::Rules(_) => FailureKind::Invalid,
            BattleError::Stopped(stop) => stop.kind(),
            BattleError::TooManyStates { .. } | BattleError::TooMuchSimulation { .. } => {
                FailureKind::TooLarge
            }
            BattleError::Roll { source, .. } => source.kind(),
        }
    }
}

/// The most army states, `(A + 1)·(D + 1)`, an exact sweep holds (each an exact
/// fraction).
pub const MAX_EXACT_STATES: u64 = 1_000_000;
/// The most army states a floating-point sweep holds (8 bytes each).
pub const MAX_FLOAT_STATES: u64 = 50_000_000;
/// The most dice a simulation rolls in all (bounds its run time at minutes).
pub const MAX_SIMULATED_DICE: f64 = 1e11;

impl BattleError {
    /// Whether the battle is valid but too large for the method asked.
    pub fn is_too_large(&self) -> bool {
        self.kind() == FailureKind::TooLarge
    }

    /// Checks that a sweep of `method` can hold the states of `attacker` against
    /// `defender` armies.
    pub(crate) fn check_states(
        attacker: u32,
        defender: u32,
        limit: u64,
        method: &'static str,
    ) -> Result<(), BattleError> {
        // At most 2^64 for u32 armies: saturate rather than wrap.
        let states = (u64::from(attacker) + 1).saturating_mul(u64::from(defender) + 1);
        if states > limit {
            return Err(BattleError::TooManyStates {
                attacker,
                defender,
                states,
                limit,
                method,
            });
        }
        Ok(())
    }
}
