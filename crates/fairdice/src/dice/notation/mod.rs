//! Dice notation: `4d6kh3`, `d20+5 >= 15`, `10d10cs>=8`, `(d4)d6`, `d6!`, `2d6r1`.
//!
//! Text is parsed into an [`ast::Expr`]; [`evaluate`] estimates the cost, refuses
//! what is too big, and computes the exact [`Die`]; [`roll`](roll::roll) rolls it
//! die by die and [`monte_carlo`] estimates what is too big to compute exactly.
//!
//! # Example
//! ```
//! use fairdice::dice::notation::evaluate;
//!
//! let hit = evaluate("d20+5 >= 15")?;
//! assert_eq!(hit.probability(1).to_string(), "11/20");
//! # Ok::<(), fairdice::dice::notation::NotationError>(())
//! ```

pub mod ast;
pub mod cost;
pub mod dialect;
pub mod error;
pub mod eval;
pub mod failure;
pub mod help;
pub mod options;
pub mod parser;
pub mod readings;
pub mod roll;

pub use cost::{Cost, estimate};
pub use dialect::{Dialect, Translation, translate};
pub use error::{Expected, Found, ParseError, Problem};
pub use eval::evaluate_expr;
pub use failure::{NotationError, TooBig};
pub use options::Options;
pub use parser::parse;
pub use readings::{OtherReading, other_readings};
pub use roll::{
    BoundRoll, Estimate, PoolKind, PoolRoll, Roll, RolledDie, dice_per_roll, monte_carlo, roll,
};

use crate::control::Control;
use crate::dice::die::Die;

/// Parses and evaluates a dice expression exactly, with default [`Options`] and the
/// default budget ([`Control::new`]).
///
/// # Errors
/// A parse error, an invalid expression, or [`NotationError::TooBig`].
pub fn evaluate(text: &str) -> Result<Die, NotationError> {
    evaluate_with(text, &Options::default(), &Control::new())
}

/// Parses and evaluates a dice expression exactly under `control`.
///
/// # Errors
/// As [`evaluate`]; [`NotationError::Stopped`] if `control` stops it.
pub fn evaluate_with(
    text: &str,
    options: &Options,
    control: &Control,
) -> Result<Die, NotationError> {
    evaluate_expr(&parse(text)?, options, control)
}
