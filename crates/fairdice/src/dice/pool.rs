//! [`Pool`]: several dice rolled together, possibly of different kinds, with an
//! optional choice of which ranks count (keep the 3 highest, drop the lowest …).
//!
//! A pool has no distribution of its own; an [`Evaluator`](crate::dice::evaluator)
//! folds over it. The sum of a pool is the most common evaluation, so [`Pool::sum`]
//! is provided.

use std::fmt;

use super::die::{Die, DieError, MAX_DICE};
use super::evaluator::kept_sum;
use crate::control::Control;

/// Why a keep/drop selection is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// A keep pattern whose length differs from the pool size.
    #[error("a keep pattern for a pool of {pool} dice must have {pool} entries, got {pattern}")]
    PatternLength {
        /// Dice in the pool.
        pool: u32,
        /// Entries given.
        pattern: usize,
    },
    /// More dice than the engine allows.
    #[error(transparent)]
    Die(#[from] DieError),
}

/// A multiset of dice rolled together.
///
/// # Example
/// ```
/// use fairdice::{Die, Pool};
///
/// // Roll four d6 and keep the three highest.
/// let stat = Pool::new(&Die::standard(6)?, 4)?.keep_highest(3).sum()?;
/// assert_eq!(stat.mean().to_string(), "15869/1296");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Pool {
    /// Groups of identical dice: the die and how many of it.
    groups: Vec<(Die, u32)>,
    /// For each rank from the highest roll down, whether that die counts; `None`
    /// means every die counts.
    keep: Option<Vec<bool>>,
}

impl Pool {
    /// `n` copies of `die`.
    ///
    /// # Errors
    /// [`DieError::TooManyDice`] beyond [`MAX_DICE`].
    pub fn new(die: &Die, n: u64) -> Result<Pool, DieError> {
        Pool::mixed([(die.clone(), n)])
    }

    /// A pool of several kinds of dice, e.g. three d6, one d8 and one d10.
    /// Identical dice are grouped, which is what keeps evaluation polynomial.
    ///
    /// # Errors
    /// [`DieError::TooManyDice`] if the pool holds more than [`MAX_DICE`] dice.
    pub fn mixed(dice: impl IntoIterator<Item = (Die, u64)>) -> Result<Pool, DieError> {
        let mut groups: Vec<(Die, u32)> = Vec::new();
        let mut size = 0u64;
        for (die, n) in dice {
            size = size.saturating_add(n);
            if size > MAX_DICE {
                return Err(DieError::TooManyDice {
                    count: size,
                    max: MAX_DICE,
                });
            }
            if n == 0 {
                continue;
            }
            match groups.iter_mut().find(|(d, _)| *d == die) {
                Some((_, count)) => *count += n as u32,
                None => groups.push((die, n as u32)),
            }
        }
        Ok(Pool { groups, keep: None })
    }

    /// The number of dice rolled (kept or not).
    pub fn size(&self) -> u32 {
        self.groups.iter().map(|(_, n)| n).sum()
    }

    /// The groups of identical dice.
    pub fn groups(&self) -> &[(Die, u32)] {
        &self.groups
    }

    /// For each rank from the highest down, whether it counts (all true if no
    /// selection was made).
    pub fn keep_pattern(&self) -> Vec<bool> {
        self.keep
            .clone()
            .unwrap_or_else(|| vec![true; self.size() as usize])
    }

    /// The number of dice that count.
    pub fn kept(&self) -> u32 {
        self.keep_pattern().iter().filter(|&&k| k).count() as u32
    }

    /// Keeps only the dice at the given ranks (from the highest roll down) among those
    /// currently kept.
    fn select(self, choose: impl Fn(usize, usize) -> bool) -> Pool {
        let mut pattern = self.keep_pattern();
        let kept: Vec<usize> = (0..pattern.len()).filter(|&i| pattern[i]).collect();
        for (rank, &position) in kept.iter().enumerate() {
            pattern[position] = choose(rank, kept.len());
        }
        Pool {
            groups: self.groups,
            keep: Some(pattern),
        }
    }

    /// Keeps the `k` highest of the dice currently kept (all of them if `k` exceeds
    /// their number).
    pub fn keep_highest(self, k: u64) -> Pool {
        self.select(|rank, _| (rank as u64) < k)
    }

    /// Keeps the `k` lowest of the dice currently kept.
    pub fn keep_lowest(self, k: u64) -> Pool {
        self.select(|rank, n| ((n - rank) as u64) <= k)
    }

    /// Drops the `k` highest of the dice currently kept.
    pub fn drop_highest(self, k: u64) -> Pool {
        self.select(|rank, _| (rank as u64) >= k)
    }

    /// Drops the `k` lowest of the dice currently kept.
    pub fn drop_lowest(self, k: u64) -> Pool {
        self.select(|rank, n| ((n - rank) as u64) > k)
    }

    /// Sets which ranks count, from the highest roll down.
    ///
    /// # Errors
    /// [`PoolError::PatternLength`] unless there is one entry per die.
    pub fn with_keep_pattern(self, pattern: Vec<bool>) -> Result<Pool, PoolError> {
        if pattern.len() != self.size() as usize {
            return Err(PoolError::PatternLength {
                pool: self.size(),
                pattern: pattern.len(),
            });
        }
        Ok(Pool {
            groups: self.groups,
            keep: Some(pattern),
        })
    }

    /// The distribution of the sum of the dice that count, without a budget (the
    /// engine's [`evaluate_die`](crate::dice::evaluator::evaluate_die) takes a [`Control`] for one).
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a sum leaves the `i64` range.
    pub fn sum(&self) -> Result<Die, DieError> {
        if self.keep.is_none() {
            // Without a selection the sum is a convolution, which is cheaper still.
            let mut total = Die::constant(0);
            for (die, n) in &self.groups {
                total = total.add(&die.repeat_sum(u64::from(*n), &Control::unlimited())?)?;
            }
            return Ok(total);
        }
        kept_sum(self, &|outcome| outcome, &Control::unlimited())
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("groups", &self.groups)
            .field("keep", &self.keep)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::{brute_force, d};

    #[test]
    fn selections_compose_on_kept_dice() {
        let pool = Pool::new(&d(6), 5).unwrap();
        assert_eq!(
            pool.clone().keep_highest(3).keep_pattern(),
            [true, true, true, false, false]
        );
        assert_eq!(
            pool.clone().keep_lowest(2).keep_pattern(),
            [false, false, false, true, true]
        );
        assert_eq!(
            pool.clone().drop_highest(1).drop_lowest(1).keep_pattern(),
            [false, true, true, true, false]
        );
        assert_eq!(
            pool.clone().keep_highest(3).keep_lowest(1).keep_pattern(),
            [false, false, true, false, false]
        );
        assert_eq!(pool.clone().keep_highest(9).kept(), 5);
        assert_eq!(pool.drop_lowest(9).kept(), 0);
    }

    #[test]
    fn keep_highest_matches_brute_force() {
        let d6 = d(6);
        let expected = brute_force(&[&d6, &d6, &d6, &d6], |v| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v[1..].iter().sum()
        });
        let kept = Pool::new(&d6, 4).unwrap().keep_highest(3).sum().unwrap();
        assert_eq!(kept, expected);
    }

    #[test]
    fn mixed_pools_group_identical_dice() {
        let pool = Pool::mixed([(d(6), 2), (d(8), 1), (d(6), 1)]).unwrap();
        assert_eq!(pool.groups().len(), 2);
        assert_eq!(pool.size(), 4);
        assert!(matches!(
            Pool::new(&d(6), MAX_DICE + 1),
            Err(DieError::TooManyDice { .. })
        ));
    }
}
