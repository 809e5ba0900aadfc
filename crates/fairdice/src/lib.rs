//! # fairdice
//!
//! Fair, measurable randomness for games.
//!
//! - [`Die`]: the exact distribution of any dice expression, with exact integer
//!   counts (big integers when needed, machine words when they suffice).
//! - [`randomizer`]: fair randomizers (decks, dice bags, dynamic dice, the fair die
//!   roller, PRD, Tetris randomizers) behind one [`Randomizer`](randomizer::Randomizer)
//!   trait, built from spec strings and saved as JSON.
//! - [`analysis`]: a randomizer's expected entropy and outcome variance per step,
//!   repeats and droughts, by an exact sweep over its states or seeded Monte Carlo.
//! - [`tune`]: the fairest parameters of each system above an entropy threshold,
//!   for a fixed or uncertain match length (the search of "Making Randomness Fair").
#![deny(missing_docs)]

pub mod battle;
pub mod dice;

pub use dice::arithmetic::BinaryOp;
pub use dice::die::{Die, DieError, Outcome};
pub mod analysis;
pub mod randomizer;
pub mod rng;
pub mod tune;
pub use dice::pool::Pool;
