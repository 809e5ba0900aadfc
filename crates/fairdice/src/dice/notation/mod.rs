//! Dice notation: `4d6kh3`, `d20+5 >= 15`, `10d10cs>=8`, `(d4)d6`, `d6!`, `2d6r1`.
//!
//! Text is parsed into an [`ast::Expr`]; the exact evaluator turns that into a
//! [`Die`](crate::Die) after a cost estimate, and the roller rolls it die by die.

pub mod ast;
mod shim;

pub use shim::{NotationError, evaluate};
