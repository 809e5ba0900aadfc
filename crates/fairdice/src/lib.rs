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
//!
//! # A randomizer in a game loop
//! A loot table that never starves the player (every item twice per twelve
//! drops), and critical hits on a pseudo-random distribution (25% in the long run,
//! without the streaks of a plain 25% roll), drawn with the game's own generator:
//! any `rand_core` generator works, here rand's `SmallRng`.
//! ```
//! use fairdice::randomizer::{Prd, Randomizer, Spec};
//! use fairdice::rng::SeedableRng;
//! use rand::rngs::SmallRng;
//!
//! let items = ["sword", "shield", "potion", "herb", "arrow", "gem"];
//! let mut loot = Spec::build("deck(values=6, copies=2)")?;
//! let mut critical = Prd::new(0.25)?;
//! let mut rng = SmallRng::seed_from_u64(7);
//!
//! let mut found = Vec::new();
//! let mut criticals = 0;
//! for _turn in 0..12 {
//!     let item = loot.draw_outcome(&mut rng); // 1..=6
//!     found.push(items[(item - 1) as usize]);
//!     criticals += critical.draw(&mut rng); // 1 = success
//! }
//! found.sort();
//! found.dedup();
//! assert_eq!(found.len(), 6); // every item dropped (twice) in twelve turns
//! assert!(criticals <= 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! With the `serde` feature a [`Session`](randomizer::Session) (a randomizer and
//! the portable seeded generator) goes in the game's own save struct and continues
//! bit for bit after loading; see `examples/game_save.rs` and
//! `examples/own_generator.rs`.
#![deny(missing_docs)]

pub mod analysis;
pub mod battle;
pub mod contest;
pub mod control;
pub mod dice;
pub mod entropy;
mod parallel;
pub mod randomizer;
pub mod rng;
pub mod tune;

pub use control::{Control, Failure, FailureKind, Stop};
pub use dice::arithmetic::BinaryOp;
pub use dice::die::{Die, DieError, Outcome};
pub use dice::pool::Pool;
