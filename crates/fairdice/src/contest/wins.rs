//! [`PairWins`]: the joint distribution of the pairs each side wins in one roll of a
//! contest — what a battle needs (losses on both sides), not just who came out ahead.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::Zero;

use super::Side;
use super::pairing::PairCounts;
use crate::dice::die::{Die, ratio};

/// The exact joint distribution of `(pairs won by A, pairs won by B)` per roll; the
/// other pairs of the `min(a, b)` tied.
///
/// # Example
/// Risk: three attacking dice against two defending, the defender winning ties.
/// ```
/// use fairdice::Control;
/// use fairdice::contest::{Contest, TieRule};
/// use fairdice::{Die, Pool};
///
/// let d6 = Die::standard(6)?;
/// let (attack, defend) = (Pool::new(&d6, 3)?, Pool::new(&d6, 2)?);
/// let wins = Contest::new(&attack, &defend)?.ties(TieRule::BWins).pair_wins(&Control::new())?;
/// assert_eq!(wins.total().to_string(), "7776");
/// assert_eq!(wins.count(2, 0).to_string(), "2890"); // defender loses two armies
/// assert_eq!(wins.count(1, 1).to_string(), "2611");
/// assert_eq!(wins.count(0, 2).to_string(), "2275");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairWins {
    pairs: u32,
    /// `((a_wins, b_wins), count)`, sorted, every count positive.
    entries: Vec<((u32, u32), BigUint)>,
}

impl PairWins {
    /// From the results of a [`SortedPairs`](super::SortedPairs) evaluation.
    pub(crate) fn from_counts(pairs: u32, results: Vec<(PairCounts, BigUint)>) -> PairWins {
        PairWins::from_entries(
            pairs,
            results
                .into_iter()
                .map(|(p, c)| ((p.a_wins, p.b_wins), c))
                .collect(),
        )
    }

    /// From entries in any order; repeats add up and zero counts are dropped.
    pub(crate) fn from_entries(pairs: u32, mut entries: Vec<((u32, u32), BigUint)>) -> PairWins {
        entries.sort_by_key(|(k, _)| *k);
        let mut merged: Vec<((u32, u32), BigUint)> = Vec::with_capacity(entries.len());
        for (key, count) in entries {
            if count.is_zero() {
                continue;
            }
            match merged.last_mut() {
                Some((last, acc)) if *last == key => *acc += count,
                _ => merged.push((key, count)),
            }
        }
        PairWins {
            pairs,
            entries: merged,
        }
    }

    /// The number of pairs scored per roll.
    pub fn pairs(&self) -> u32 {
        self.pairs
    }

    /// `(pairs won by A, pairs won by B, count)`, ascending.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (u32, u32, &BigUint)> + '_ {
        self.entries.iter().map(|((a, b), c)| (*a, *b, c))
    }

    /// The count of rolls where A wins `a_wins` pairs and B wins `b_wins`.
    pub fn count(&self, a_wins: u32, b_wins: u32) -> BigUint {
        self.entries
            .binary_search_by_key(&(a_wins, b_wins), |(k, _)| *k)
            .map_or_else(|_| BigUint::zero(), |i| self.entries[i].1.clone())
    }

    /// The sum of all counts.
    pub fn total(&self) -> BigUint {
        self.entries.iter().map(|(_, c)| c).sum()
    }

    /// The exact probability that A wins `a_wins` pairs and B wins `b_wins`.
    pub fn probability(&self, a_wins: u32, b_wins: u32) -> BigRational {
        ratio(self.count(a_wins, b_wins), self.total())
    }

    /// The net score: pairs won by A minus pairs won by B.
    pub fn net(&self) -> Die {
        self.marginal(|a, b| i64::from(a) - i64::from(b))
    }

    /// How many pairs `side` wins.
    pub fn wins(&self, side: Side) -> Die {
        match side {
            Side::A => self.marginal(|a, _| i64::from(a)),
            Side::B => self.marginal(|_, b| i64::from(b)),
        }
    }

    /// How many pairs tie.
    pub fn ties(&self) -> Die {
        let pairs = i64::from(self.pairs);
        self.marginal(|a, b| pairs - i64::from(a) - i64::from(b))
    }

    fn marginal(&self, f: impl Fn(u32, u32) -> i64) -> Die {
        Die::new(
            self.entries
                .iter()
                .map(|((a, b), c)| (f(*a, *b), c.clone())),
        )
        .expect("a contest has at least one roll")
    }
}
