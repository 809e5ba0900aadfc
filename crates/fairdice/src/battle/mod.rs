//! Risk battles: one roll's losses, and whole battles solved exactly or simulated.
//!
//! One roll sorts the attacker's and the defender's dice from highest to lowest and
//! compares them pairwise for `min(a, b)` pairs; a tie goes to the defender. A battle
//! repeats rolls until one side is beaten, under [`Rules`] that fix the die size,
//! the dice caps and how attacking armies are counted.
//!
//! # Example
//! ```
//! use fairdice::Control;
//! use fairdice::battle::{Rules, solve_exact};
//!
//! // Two attacking armies against one defender, six-sided dice.
//! let outcome = solve_exact(2, 1, &Rules::default(), &Control::new())?;
//! assert_eq!(outcome.p_attacker_wins().to_string(), "1955/2592");
//! # Ok::<(), fairdice::battle::BattleError>(())
//! ```

mod error;
pub mod report;
mod roll;
mod rules;
mod simulate;
mod solve;

pub use error::{BattleError, MAX_EXACT_STATES, MAX_FLOAT_STATES, MAX_SIMULATED_DICE};
pub use roll::{RollLosses, roll_losses};
pub use rules::{MAX_DICE, MAX_FACES, Rule, Rules, RulesError};
pub use simulate::{Simulation, most_dice, simulate};
pub use solve::{BattleOutcome, ExactOutcome, FloatOutcome, solve_exact, solve_float, win_table};
