//! # fairdice
//!
//! Fair, measurable randomness for games.
//!
//! - [`Die`]: the exact distribution of any dice expression, with exact integer
//!   counts (big integers when needed, machine words when they suffice);
//!   [`dice::notation`] parses `4d6kh3`-style expressions, and [`Pool`]s of dice are
//!   folded by [`dice::evaluator`]s (sums, keep-highest, counting, contests).
//! - [`battle`]: Risk battles, one roll and whole battles, exact or simulated.
//! - [`randomizer`]: fair randomizers (decks, dice bags, dynamic dice, the fair die
//!   roller, PRD, Tetris randomizers) behind one [`Randomizer`](randomizer::Randomizer)
//!   trait, built from spec strings and saved as JSON.
//! - [`analysis`]: a randomizer's expected entropy and outcome variance per step,
//!   repeats and droughts, by an exact sweep over its states or seeded Monte Carlo.
//! - [`tune`]: the fairest parameters of each system above an entropy threshold,
//!   for a fixed or uncertain match length (the search of "Making Randomness Fair").
//! - [`contest`]: opposed pools paired die against die, with exact win, tie and
//!   loss probabilities and the measures of Isaksen et al. (2016).
#![deny(missing_docs)]

pub mod analysis;
pub mod battle;
pub mod contest;
pub mod control;
pub mod dice;
pub mod randomizer;
pub mod rng;
pub mod tune;

pub use control::{Control, Failure, FailureKind, Stop};
pub use dice::arithmetic::BinaryOp;
pub use dice::die::{Die, DieError, Outcome};
pub use dice::pool::Pool;
