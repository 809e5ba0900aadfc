//! # fairdice
//!
//! Fair, measurable randomness for games.
//!
//! - [`Die`]: the exact distribution of any dice expression, with exact integer
//!   counts (big integers when needed, machine words when they suffice).
//! - [`contest`]: opposed pools paired die against die, with exact win, tie and
//!   loss probabilities and the measures of Isaksen et al. (2016).
#![deny(missing_docs)]

pub mod contest;
pub mod dice;

pub use dice::arithmetic::BinaryOp;
pub use dice::die::{Die, DieError, Outcome};
pub mod rng;
pub use dice::pool::Pool;
