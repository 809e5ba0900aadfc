//! Evaluators: folds over the outcomes of one or more [`Pool`](crate::Pool)s.
//!
//! An evaluator sees the outcomes one at a time, in an order it may choose, and for
//! each outcome learns how many (counted) dice of each pool rolled it. It carries a
//! state of its own and ends in a value, or asks for the whole roll to be rerolled.
//! The [`engine`] runs it over every possible roll at once by dynamic
//! programming, so its cost grows with the number of distinct states, not rolls.
//!
//! Sums, keep-highest, success counting and opposed contests are all evaluators (or
//! a pool's keep pattern feeding one). One shape has a path of its own: the sum of
//! a pool that drops a few dice from one end of many (`300d6dl1`), which the engine
//! would walk rank by rank, is read off powers of the dice cut at each face
//! (`kept_sum` chooses; see `drop_few.rs`).
//!
//! An evaluator over several pools may also implement [`PoolByPool`]: it then takes
//! the pools' dice at each outcome one pool at a time, which the engine steps far
//! more cheaply ([`evaluate_by_pool`]).
//!
//! # Example
//! Count the pairs in five d6 (how many faces show at least twice):
//! ```
//! use fairdice::Control;
//! use fairdice::dice::evaluator::{Evaluator, Final, evaluate_die};
//! use fairdice::{Die, DieError, Outcome, Pool};
//!
//! struct Pairs;
//! impl Evaluator for Pairs {
//!     type State = i64;
//!     type Output = Outcome;
//!     fn initial_state(&self) -> i64 { 0 }
//!     fn next_state(&self, pairs: &i64, _: Outcome, counts: &[u32]) -> Result<i64, DieError> {
//!         Ok(pairs + i64::from(counts[0] >= 2))
//!     }
//!     fn final_outcome(&self, pairs: &i64) -> Result<Final<Outcome>, DieError> {
//!         Ok(Final::Value(*pairs))
//!     }
//! }
//!
//! let pool = Pool::new(&Die::standard(6)?, 5)?;
//! let pairs = evaluate_die(&Pairs, &[&pool], &Control::new())?;
//! assert_eq!(pairs.count(2).to_string(), "2100"); // two pairs or a full house
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod drop_few;
pub mod engine;
pub mod sets;
mod sum;

use std::hash::Hash;

use super::die::{DieError, Outcome};

pub(crate) use drop_few::drops_few;
pub use engine::{evaluate, evaluate_by_pool, evaluate_die};
pub use sets::{Joint, Pattern, PerPool, joint, pattern};
pub use sum::SumOf;
pub(crate) use sum::kept_sum;

/// The order in which an evaluator sees outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Lowest outcome first.
    Ascending,
    /// Highest outcome first.
    Descending,
    /// Either; the engine picks the cheaper one (e.g. highest first for
    /// keep-highest).
    Any,
}

/// How an evaluation ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Final<T> {
    /// The roll evaluates to this.
    Value(T),
    /// The roll is discarded and rolled again (exact conditioning).
    Reroll,
}

/// A fold over `(outcome, counts)`.
pub trait Evaluator {
    /// What is carried from outcome to outcome. States that compare equal merge, so
    /// keep it as small as the question allows.
    ///
    /// States only ever meet states whose rolls have assigned the same number of
    /// dice of every pool so far (and in a pool-by-pool step the same pool order), so
    /// a part of the state that follows from those — such as how many dice each pool
    /// has shown — may be left out of equality and hashing. (Within a pool, states
    /// whose rolls split the shown dice differently among kinds of dice meet once
    /// those kinds behave alike for the rest of the walk.) States are owned values
    /// (`'static`): the engine keeps its emptied tables of states on the thread
    /// between evaluations, to spare the next one allocating them again.
    type State: Clone + Eq + Hash + 'static;
    /// The result of one roll.
    type Output: Clone + Ord;

    /// The state before any outcome is seen.
    fn initial_state(&self) -> Self::State;

    /// The state after seeing `outcome`, which `counts[i]` counted dice of pool `i`
    /// rolled.
    ///
    /// # Errors
    /// Any error ends the evaluation with it (e.g. an overflowing sum).
    fn next_state(
        &self,
        state: &Self::State,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<Self::State, DieError>;

    /// The value of a roll once every outcome has been seen.
    ///
    /// # Errors
    /// Any error ends the evaluation with it.
    fn final_outcome(&self, state: &Self::State) -> Result<Final<Self::Output>, DieError>;

    /// The order in which outcomes must be seen.
    fn order(&self) -> Order {
        Order::Any
    }

    /// Optionally numbers the states with small integers, so the engine can merge
    /// them in arrays instead of hash maps (much faster). Two states that can meet
    /// (see [`State`](Self::State)) must get the same number exactly when they are
    /// equal. Return `None` (the default) for states without a numbering; the engine
    /// then hashes, as it also does past a thousand or so.
    fn state_index(&self, state: &Self::State) -> Option<usize> {
        let _ = state;
        None
    }

    /// For an evaluator whose step moves every numbered state by the same amount
    /// (a sum adds the same value to every partial sum): how far the numbers move at
    /// `outcome` when `counts` dice show it. `Some(d)` promises that for every state
    /// `s` numbered `i` for which `i + d` is a number too, `next_state(s, outcome,
    /// counts)` succeeds and is numbered `i + d`; the engine then merges such states
    /// by their numbers and calls `next_state` only for states it has not met. `None`
    /// (the default) makes no promise.
    fn shift(&self, outcome: Outcome, counts: &[u32]) -> Option<isize> {
        let _ = (outcome, counts);
        None
    }
}

/// An evaluator that can take the dice of several pools at one outcome one pool at a
/// time.
///
/// Stepping pool by pool lets the engine merge states between the pools, so an
/// outcome costs the *sum* of the pools' branches rather than their product. The
/// order of the pools at an outcome may depend on how many dice each pool has shown
/// so far (so every state that has seen the same dice shares it), and its
/// [`next_state`](Evaluator::next_state) must agree with folding
/// [`next_state_for_pool`](Self::next_state_for_pool) over the pools in that order —
/// [`next_state_by_pool`] does exactly that.
pub trait PoolByPool: Evaluator {
    /// The order in which the pools show their dice at the next outcome, where
    /// `seen[p]` counted dice of pool `p` have shown at earlier outcomes. `order`
    /// holds `0, 1, …` on entry; permute it in place to change it (the default keeps
    /// pool order).
    fn pool_order(&self, seen: &[u32], order: &mut [usize]) {
        let _ = (seen, order);
    }

    /// Whether a pool that shows no counted dice leaves every state unchanged (that
    /// is, `next_state_for_pool` with `count == 0` returns an equal state). The
    /// engine then moves such states wholesale instead of one by one. The default,
    /// `false`, is always correct.
    fn empty_pool_keeps_state(&self) -> bool {
        false
    }

    /// The state after `count` counted dice of pool `pool` rolled `outcome`, `pool`
    /// being the `position`-th pool (from 0) shown at this outcome.
    ///
    /// # Errors
    /// Any error ends the evaluation with it.
    fn next_state_for_pool(
        &self,
        state: &Self::State,
        outcome: Outcome,
        pool: usize,
        position: usize,
        count: u32,
    ) -> Result<Self::State, DieError>;
}

/// [`Evaluator::next_state`] for a [`PoolByPool`] evaluator: its per-pool steps
/// folded over the pools in [`pool_order`](PoolByPool::pool_order), given how many
/// counted dice each pool has shown before this outcome (`seen`), which the evaluator
/// tracks in its state if its order depends on it.
///
/// # Errors
/// The first error of a per-pool step.
pub fn next_state_by_pool<E: PoolByPool>(
    evaluator: &E,
    state: &E::State,
    outcome: Outcome,
    counts: &[u32],
    seen: &[u32],
) -> Result<E::State, DieError> {
    let mut order: smallvec::SmallVec<[usize; 4]> = (0..counts.len()).collect();
    evaluator.pool_order(seen, &mut order);
    let mut state = state.clone();
    for (position, &pool) in order.iter().enumerate() {
        state = evaluator.next_state_for_pool(&state, outcome, pool, position, counts[pool])?;
    }
    Ok(state)
}
