//! Opposed-roll contests: two pools of dice paired die against die, each pair
//! scoring +1, −1 or 0 for side A, the net score the sum (Isaksen et al., 2016).
//!
//! - **Pairing.** [`Pairing::Sorted`] sorts both rolls and pairs highest with
//!   highest; [`Pairing::Unsorted`] pairs the dice as written, the i-th die of A
//!   with the i-th die of B. Pools of unequal size pair `min(a, b)` dice: the highest
//!   ones when sorted, the first ones written when unsorted.
//! - **Ties.** [`TieRule`]: tied pairs stand (score 0), go to A, go to B, or are
//!   rerolled until they differ.
//! - **Metrics.** [`ContestResult`]: exact P(A wins) / P(tie) / P(B wins), the net
//!   score distribution, win bias, tie % and closeness; [`PairWins`]: the joint
//!   distribution of the pairs each side wins in one roll.
//!
//! # Example
//! ```
//! use fairdice::Control;
//! use fairdice::contest::{Contest, Pairing, TieRule};
//! use fairdice::{Die, Pool};
//!
//! let five_d6 = Pool::new(&Die::standard(6)?, 5)?;
//! let result = Contest::new(&five_d6, &five_d6)?
//!     .pairing(Pairing::Sorted)
//!     .ties(TieRule::AWins)
//!     .evaluate(&Control::new())?;
//! assert_eq!(format!("{:.2}", result.win_bias()), "38.21");
//! assert_eq!(result.p_tie().to_string(), "0");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design decisions
//! A sorted contest is a fold over the outcomes from the highest down
//! ([`SortedPairs`]): a die that arrives while the other side has unpaired dice
//! pairs with one of them. It runs on the pool engine one pool at a time, and a
//! state sees first the side that is *behind* (fewer dice seen so far): the dice it
//! pairs with then are strictly higher, so those pairs are decided, and the dice the
//! other side pairs with afterwards show the same outcome, so those pairs are tied.
//! That keeps every step a sum, not a product, of the two pools' branches.
//!
//! Rerolled ties in a sorted contest become sub-contests of the tied dice, which
//! exist only when each side is one kind of die; an outcome where every pair ties is
//! the same sub-contest again, so it is conditioned away and the recursion ends after
//! at most `min(a, b)` levels. An unsorted contest is a sum of independent pairs, so
//! it is convolved directly without the engine.

mod cost;
pub mod isaksen;
mod metrics;
mod monte_carlo;
mod names;
mod pairing;
pub mod report;
mod reroll;
mod unsorted;
mod wins;
pub mod written;

use std::fmt;

use thiserror::Error;

use crate::control::{Control, Failure, FailureKind};
use crate::dice::die::{Die, DieError, MAX_DICE};
use crate::dice::evaluator::engine::evaluate_by_pool;
use crate::dice::notation::options::DEFAULT_MAX_OUTCOMES;
use crate::dice::notation::{Cost, TooBig};
use crate::dice::pool::Pool;

pub use metrics::ContestResult;
pub use monte_carlo::{ContestEstimate, MAX_ROLLED_DICE};
pub use names::UnknownName;
pub use pairing::{NetScore, PairCounts, PairResult, PairScore, PairState, SortedPairs};
pub use wins::PairWins;

/// How the dice of the two sides are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Pairing {
    /// Highest with highest, second highest with second highest, and so on.
    #[default]
    Sorted,
    /// In the order written: the i-th die of A against the i-th die of B.
    Unsorted,
}

/// What happens to a pair whose dice show the same number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum TieRule {
    /// The pair scores 0.
    #[default]
    Stand,
    /// Side A wins the pair.
    AWins,
    /// Side B wins the pair.
    BWins,
    /// The tied dice are rolled again until they differ. Sorted: the tied dice of
    /// each side form a smaller sorted contest, repeated while any pair ties.
    Reroll,
}

/// One side of a contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first pool, whose point of view the scores take.
    A,
    /// The second pool.
    B,
}

impl Side {
    /// The opposing side.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Why a contest cannot be evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ContestError {
    /// A side rolls no dice, so nothing can be paired.
    #[error("side {0} has no dice; each side of a contest needs at least one die")]
    NoDice(Side),
    /// A pool with a keep/drop selection: a contest pairs every die rolled.
    #[error(
        "side {0} keeps or drops dice; a contest pairs every die rolled, so pass the pool without a selection"
    )]
    KeepPattern(Side),
    /// Rerolling tied dice of a sorted contest needs to know which kind of die to
    /// roll again, so each side must be one kind of die.
    #[error(
        "rerolling tied pairs of a sorted contest needs one kind of die per side, but side {0} mixes {1} kinds; use unsorted pairing or another tie rule"
    )]
    MixedReroll(Side, usize),
    /// The exact computation would cost more than the budget allows.
    #[error("{0}")]
    TooBig(TooBig),
    /// A Monte Carlo estimate asked to roll more dice than it may.
    #[error(
        "{runs} rolls of this contest roll about {dice:.1e} dice, more than the {limit:.1e} an estimate may; ask for fewer rolls"
    )]
    TooManyRolls {
        /// Rolls asked for.
        runs: u64,
        /// Dice they would roll, rerolls aside.
        dice: f64,
        /// [`MAX_ROLLED_DICE`].
        limit: f64,
    },
    /// Ties are rerolled, but some pair can only tie (both dice show one and the
    /// same number), so the rerolling never ends.
    #[error(
        "rerolling ties would never end: some pair of dice can only tie (each shows one and the same number); use another tie rule"
    )]
    TiesForever,
    /// The dice or the computation failed (the budget ran out, or the computation
    /// was cancelled).
    #[error(transparent)]
    Die(DieError),
}

impl From<DieError> for ContestError {
    fn from(error: DieError) -> ContestError {
        match error {
            // In a contest only rerolled ties are rerolled.
            DieError::RerollsEverything => ContestError::TiesForever,
            error => ContestError::Die(error),
        }
    }
}

impl Failure for ContestError {
    fn kind(&self) -> FailureKind {
        match self {
            ContestError::TooBig(_) | ContestError::TooManyRolls { .. } => FailureKind::TooLarge,
            ContestError::Die(error) => error.kind(),
            _ => FailureKind::Invalid,
        }
    }
}

/// `runs` with neighbouring runs of the same die joined (`d6+d6+d6` is `3d6`): the
/// order written is kept, so an unsorted contest pairs the same dice.
fn merge_adjacent(runs: Vec<(Die, u32)>) -> Vec<(Die, u32)> {
    let mut merged: Vec<(Die, u32)> = Vec::with_capacity(runs.len());
    for (die, n) in runs {
        match merged.last_mut() {
            Some((last, count)) if *last == die => *count += n,
            _ => merged.push((die, n)),
        }
    }
    merged
}

/// Bytes a state of the contest engine holds besides its count: its score, its
/// bucket's share, the hash table's slack.
const STATE_OVERHEAD_BYTES: f64 = 48.0;

/// A contest between two pools, configured step by step and then evaluated.
///
/// Sides are kept as runs of identical dice in the order written, which is the
/// order [`Pairing::Unsorted`] pairs them in.
#[derive(Debug, Clone)]
pub struct Contest {
    a: Vec<(Die, u32)>,
    b: Vec<(Die, u32)>,
    pairing: Pairing,
    ties: TieRule,
}

impl Contest {
    /// A contest of pool `a` against pool `b`, sorted pairing, ties standing. An
    /// unsorted pairing takes each pool's dice group by group, in the order the
    /// groups were first given ([`Contest::from_dice`] keeps any written order).
    ///
    /// # Errors
    /// [`ContestError::NoDice`] for an empty pool; [`ContestError::KeepPattern`] for a
    /// pool that keeps or drops dice.
    pub fn new(a: &Pool, b: &Pool) -> Result<Contest, ContestError> {
        for (pool, side) in [(a, Side::A), (b, Side::B)] {
            if pool.kept() != pool.size() {
                return Err(ContestError::KeepPattern(side));
            }
        }
        let runs = |pool: &Pool| pool.groups().to_vec();
        Contest::from_runs(runs(a), runs(b))
    }

    /// A contest between dice given as runs `(die, how many)` in the order written,
    /// e.g. `[(d6, 3), (d8, 1), (d6, 1)]` for `3d6+1d8+1d6`.
    ///
    /// # Errors
    /// [`ContestError::NoDice`] for a side without dice; [`DieError::TooManyDice`]
    /// beyond [`MAX_DICE`] on a side.
    pub fn from_dice(
        a: impl IntoIterator<Item = (Die, u64)>,
        b: impl IntoIterator<Item = (Die, u64)>,
    ) -> Result<Contest, ContestError> {
        let runs = |dice: Vec<(Die, u64)>| -> Result<Vec<(Die, u32)>, ContestError> {
            let size: u64 = dice
                .iter()
                .map(|(_, n)| n)
                .fold(0, |s, n| s.saturating_add(*n));
            if size > MAX_DICE {
                return Err(DieError::TooManyDice {
                    count: size,
                    max: MAX_DICE,
                }
                .into());
            }
            Ok(dice
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(d, n)| (d, n as u32))
                .collect())
        };
        Contest::from_runs(
            runs(a.into_iter().collect())?,
            runs(b.into_iter().collect())?,
        )
    }

    fn from_runs(a: Vec<(Die, u32)>, b: Vec<(Die, u32)>) -> Result<Contest, ContestError> {
        for (runs, side) in [(&a, Side::A), (&b, Side::B)] {
            if runs.iter().all(|(_, n)| *n == 0) {
                return Err(ContestError::NoDice(side));
            }
        }
        Ok(Contest {
            a: merge_adjacent(a),
            b: merge_adjacent(b),
            pairing: Pairing::default(),
            ties: TieRule::default(),
        })
    }

    /// Sets how dice are paired.
    pub fn pairing(mut self, pairing: Pairing) -> Contest {
        self.pairing = pairing;
        self
    }

    /// Sets what tied pairs do.
    pub fn ties(mut self, ties: TieRule) -> Contest {
        self.ties = ties;
        self
    }

    /// The pairing in force.
    pub fn pairing_rule(&self) -> Pairing {
        self.pairing
    }

    /// The tie rule in force.
    pub fn tie_rule(&self) -> TieRule {
        self.ties
    }

    /// The runs `(die, how many)` of a side, in the order given.
    pub fn dice(&self, side: Side) -> &[(Die, u32)] {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    /// The number of dice a side rolls.
    pub fn size(&self, side: Side) -> u32 {
        self.dice(side).iter().map(|(_, n)| n).sum()
    }

    /// The number of pairs scored per roll: `min(a, b)`.
    pub fn pairs(&self) -> u32 {
        self.size(Side::A).min(self.size(Side::B))
    }

    /// The estimated cost of [`evaluate`](Self::evaluate), which refuses to start
    /// above the control's budget.
    pub fn estimate(&self) -> Cost {
        cost::estimate(self, false)
    }

    /// The exact net score distribution and the metrics derived from it, priced
    /// against and metered by `control`.
    ///
    /// # Errors
    /// [`ContestError::TooBig`] when the estimate exceeds the budget;
    /// [`ContestError::MixedReroll`] for rerolled ties in a sorted contest of mixed
    /// dice; [`ContestError::TiesForever`] when rerolled pairs can never differ;
    /// [`DieError::Stopped`] if `control` stops it.
    pub fn evaluate(&self, control: &Control) -> Result<ContestResult, ContestError> {
        self.check(false, control)?;
        let net = match (self.pairing, self.ties) {
            (Pairing::Unsorted, _) => unsorted::net(self, control)?,
            (Pairing::Sorted, TieRule::Reroll) => reroll::net(self, control)?,
            (Pairing::Sorted, ties) => {
                let (a, b) = (self.pool(Side::A)?, self.pool(Side::B)?);
                let results =
                    evaluate_by_pool(&SortedPairs::<NetScore>::new(ties), &[&a, &b], control)?;
                Die::new(results.into_iter().map(|(NetScore(net), c)| (net, c)))?
            }
        };
        Ok(ContestResult::new(net, self.pairs()))
    }

    /// The joint distribution of the pairs won by A and by B in one roll (the rest
    /// of the `min(a, b)` pairs tie). With [`TieRule::Reroll`] no pair is left tied.
    ///
    /// # Errors
    /// As [`evaluate`](Self::evaluate).
    pub fn pair_wins(&self, control: &Control) -> Result<PairWins, ContestError> {
        self.check(true, control)?;
        match (self.pairing, self.ties) {
            (Pairing::Unsorted, _) => unsorted::pair_wins(self, control),
            (Pairing::Sorted, TieRule::Reroll) => reroll::pair_wins(self, control),
            (Pairing::Sorted, ties) => {
                let (a, b) = (self.pool(Side::A)?, self.pool(Side::B)?);
                let results =
                    evaluate_by_pool(&SortedPairs::<PairCounts>::new(ties), &[&a, &b], control)?;
                Ok(PairWins::from_counts(self.pairs(), results))
            }
        }
    }

    /// Refuses what cannot or should not be computed, before any work.
    fn check(&self, joint: bool, control: &Control) -> Result<(), ContestError> {
        if self.pairing == Pairing::Sorted && self.ties == TieRule::Reroll {
            for side in [Side::A, Side::B] {
                let dice = self.dice(side);
                let kinds = dice
                    .iter()
                    .enumerate()
                    .filter(|(i, (die, _))| dice[..*i].iter().all(|(seen, _)| seen != die))
                    .count();
                if kinds > 1 {
                    return Err(ContestError::MixedReroll(side, kinds));
                }
            }
        }
        let cost = cost::estimate(self, joint);
        if cost.steps > control.max_steps() as f64 || cost.outcomes > DEFAULT_MAX_OUTCOMES as f64 {
            return Err(ContestError::TooBig(TooBig {
                estimate: cost,
                max_steps: control.max_steps(),
                max_outcomes: DEFAULT_MAX_OUTCOMES,
            }));
        }
        // The engine holds its states twice (the step's and the next), each a
        // score and a count, in hashed buckets.
        let bytes = cost.outcomes * 2.0 * (cost.bytes_per_outcome() + STATE_OVERHEAD_BYTES);
        control
            .reserve(bytes.min(u64::MAX as f64) as u64)
            .map_err(|stop| ContestError::Die(DieError::Stopped(stop)))?;
        Ok(())
    }

    /// A side's dice as a pool (identical dice grouped).
    fn pool(&self, side: Side) -> Result<Pool, DieError> {
        Pool::mixed(
            self.dice(side)
                .iter()
                .map(|(d, n)| (d.clone(), u64::from(*n))),
        )
    }
}
