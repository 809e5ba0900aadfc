//! [`SortedPairs`]: the evaluator of a sorted contest — two pools, outcomes from the
//! highest down, each die paired with the die of the same rank on the other side.
//!
//! # Design decisions
//! The state is the *advantage* (dice of A seen minus dice of B seen) and a score.
//! A positive advantage means that many dice of A are still unpaired and higher than
//! anything to come; a die of B arriving pairs with one of them and loses. So the
//! fold needs no memory of individual dice, and the `i`-th die of A always meets the
//! `i`-th of B, which is why unequal pools pair exactly `min(a, b)` dice.
//!
//! Stepped pool by pool ([`PoolByPool`]), a state sees the side that is behind first:
//! its dice meet strictly higher dice (decided pairs). Whatever the other side then
//! pairs with showed the same outcome (tied pairs, scored by the [`TieRule`]).

use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;

use super::{Side, TieRule};
use crate::dice::die::{DieError, Outcome};
use crate::dice::evaluator::{Evaluator, Final, Order, PoolByPool, next_state_by_pool};

/// How one pair ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PairResult {
    /// The pair was won by this side.
    Won(Side),
    /// The dice showed the same number and the tie stands.
    Tie,
}

/// What a sorted contest keeps count of. Keep it as small as the question allows:
/// states that compare equal merge.
pub trait PairScore: Clone + Eq + Hash + Ord + Default + Debug + 'static {
    /// Records `pairs` pairs that ended in `result`.
    fn record(&mut self, result: PairResult, pairs: u32);

    /// A small number naming this score among the scores of rolls that have seen
    /// the same dice (see [`Evaluator::state_index`]); `None` if there is none.
    fn index(&self) -> Option<usize> {
        None
    }
}

/// Only the net score: pairs won by A minus pairs won by B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NetScore(pub Outcome);

impl PairScore for NetScore {
    #[inline]
    fn record(&mut self, result: PairResult, pairs: u32) {
        match result {
            PairResult::Won(Side::A) => self.0 += i64::from(pairs),
            PairResult::Won(Side::B) => self.0 -= i64::from(pairs),
            PairResult::Tie => {}
        }
    }

    /// 0, −1, 1, −2, 2, … numbered 0, 1, 2, 3, 4, …
    fn index(&self) -> Option<usize> {
        let zigzag = if self.0 >= 0 {
            self.0.checked_mul(2)
        } else {
            self.0.checked_mul(-2).map(|x| x - 1)
        };
        zigzag.and_then(|z| usize::try_from(z).ok())
    }
}

/// The pairs won by each side and the pairs tied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct PairCounts {
    /// Pairs won by A.
    pub a_wins: u32,
    /// Pairs won by B.
    pub b_wins: u32,
    /// Pairs tied.
    pub ties: u32,
}

/// One word to hash instead of three: equality still compares every field.
impl Hash for PairCounts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let packed = u64::from(self.a_wins)
            ^ u64::from(self.b_wins).rotate_left(21)
            ^ u64::from(self.ties).rotate_left(42);
        state.write_u64(packed);
    }
}

impl PairScore for PairCounts {
    #[inline]
    fn record(&mut self, result: PairResult, pairs: u32) {
        match result {
            PairResult::Won(Side::A) => self.a_wins += pairs,
            PairResult::Won(Side::B) => self.b_wins += pairs,
            PairResult::Tie => self.ties += pairs,
        }
    }

    /// Numbers `(a_wins, b_wins)` along diagonals. Ties are left out: rolls that have
    /// seen the same dice have decided the same number of pairs, so the ties follow.
    fn index(&self) -> Option<usize> {
        let (a, b) = (self.a_wins as usize, self.b_wins as usize);
        let diagonal = a + b;
        Some(diagonal * (diagonal + 1) / 2 + b)
    }
}

/// Pairs pool 0 (side A) with pool 1 (side B) by rank and scores each pair with
/// `S`. Tied pairs are scored by the tie rule; [`TieRule::Reroll`] records them as
/// ties, and [`Contest`](super::Contest) rerolls them.
///
/// # Example
/// ```
/// use fairdice::Control;
/// use fairdice::contest::{NetScore, SortedPairs, TieRule};
/// use fairdice::dice::evaluator::evaluate_by_pool;
/// use fairdice::{Die, Pool};
///
/// let d6 = Die::standard(6)?;
/// let (a, b) = (Pool::new(&d6, 1)?, Pool::new(&d6, 2)?);
/// // One d6 against the higher of two d6: B wins 125 of the 216 rolls.
/// let net = evaluate_by_pool(&SortedPairs::<NetScore>::new(TieRule::Stand), &[&a, &b], &Control::new())?;
/// assert_eq!(net[0].0, NetScore(-1));
/// assert_eq!(net[0].1.to_string(), "125");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SortedPairs<S> {
    ties: TieRule,
    score: PhantomData<S>,
}

impl<S: PairScore> SortedPairs<S> {
    /// A sorted pairing whose tied pairs follow `ties`.
    pub fn new(ties: TieRule) -> Self {
        SortedPairs {
            ties,
            score: PhantomData,
        }
    }

    /// How a tied pair is recorded.
    fn tie(&self) -> PairResult {
        match self.ties {
            TieRule::Stand | TieRule::Reroll => PairResult::Tie,
            TieRule::AWins => PairResult::Won(Side::A),
            TieRule::BWins => PairResult::Won(Side::B),
        }
    }
}

/// A fold state: the advantage (dice of A seen minus dice of B seen) and the score.
///
/// Equality and hashing look at the score only: the advantage follows from the dice
/// seen so far, and the engine only compares states that have seen the same dice.
#[derive(Debug, Clone)]
pub struct PairState<S> {
    advantage: i64,
    score: S,
}

impl<S: PartialEq> PartialEq for PairState<S> {
    fn eq(&self, other: &Self) -> bool {
        debug_assert_eq!(self.advantage, other.advantage, "compared across buckets");
        self.score == other.score
    }
}

impl<S: Eq> Eq for PairState<S> {}

impl<S: Hash> Hash for PairState<S> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.score.hash(state);
    }
}

impl<S: PairScore> Evaluator for SortedPairs<S> {
    type State = PairState<S>;
    type Output = S;

    fn initial_state(&self) -> Self::State {
        PairState {
            advantage: 0,
            score: S::default(),
        }
    }

    fn next_state(
        &self,
        state: &Self::State,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<Self::State, DieError> {
        let seen = [
            u32::try_from(state.advantage.max(0)).unwrap_or(u32::MAX),
            u32::try_from((-state.advantage).max(0)).unwrap_or(u32::MAX),
        ];
        // Only the difference matters to the order, so the advantage stands in for
        // the dice seen.
        next_state_by_pool(self, state, outcome, counts, &seen)
    }

    fn final_outcome(&self, state: &Self::State) -> Result<Final<S>, DieError> {
        Ok(Final::Value(state.score.clone()))
    }

    fn order(&self) -> Order {
        Order::Descending
    }

    fn state_index(&self, state: &Self::State) -> Option<usize> {
        state.score.index()
    }
}

impl<S: PairScore> PoolByPool for SortedPairs<S> {
    /// The side that is behind goes first (B when level: either would do).
    fn pool_order(&self, seen: &[u32], order: &mut [usize]) {
        if seen[0] >= seen[1] {
            order.reverse();
        }
    }

    /// No dice, no pairs, no change.
    fn empty_pool_keeps_state(&self) -> bool {
        true
    }

    fn next_state_for_pool(
        &self,
        state: &Self::State,
        _outcome: Outcome,
        pool: usize,
        position: usize,
        count: u32,
    ) -> Result<Self::State, DieError> {
        let mut next = state.clone();
        if count == 0 {
            return Ok(next);
        }
        // Unpaired dice of the other side, which the arriving dice pair with.
        let (side, waiting) = if pool == 0 {
            (Side::A, (-state.advantage).max(0))
        } else {
            (Side::B, state.advantage.max(0))
        };
        let paired = u32::try_from(waiting.min(i64::from(count))).unwrap_or(count);
        if paired > 0 {
            let result = if position == 0 {
                // Seen first: the waiting dice came at earlier, higher outcomes.
                PairResult::Won(side.other())
            } else {
                // Seen second: the waiting dice arrived at this very outcome.
                self.tie()
            };
            next.score.record(result, paired);
        }
        next.advantage += match side {
            Side::A => i64::from(count),
            Side::B => -i64::from(count),
        };
        Ok(next)
    }
}
