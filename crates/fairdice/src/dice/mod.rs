//! Exact dice: the [`Die`](die::Die) distribution, its arithmetic, pools of dice, decks
//! and their deals, the evaluators that fold over them, and the dice notation that
//! builds them all.

pub mod arithmetic;
pub mod count;
pub mod deck;
pub mod die;
pub mod evaluator;
pub mod mixture;
pub mod notation;
mod ntt;
pub mod pool;
pub mod report;
pub mod sampler;
pub mod transform;
pub mod tuple;

#[cfg(test)]
pub(crate) mod testing;
