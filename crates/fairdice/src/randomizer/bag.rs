//! [`DiceBag`]: `sets` copies of the faces `min..=max` in a bag, refilled when empty.

use thiserror::Error;

use super::args::{Args, SpecError};
use super::base::{Base, BaseError};
use super::deck::{Deck, DeckError, RefillMode};
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::{ObserveError, Randomizer, RestoreError, StateSpace};
use crate::dice::die::Outcome;
use crate::rng::Rng;

/// Why a dice bag could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BagError {
    /// `min > max`.
    #[error("a dice bag needs min <= max, got min={min}, max={max}")]
    EmptyRange {
        /// The smallest face asked for.
        min: Outcome,
        /// The largest face asked for.
        max: Outcome,
    },
    /// `sets=0`.
    #[error("sets must be at least 1 (copies of min..=max in the bag), got 0")]
    NoSets,
    /// Too many faces.
    #[error(transparent)]
    Base(#[from] BaseError),
    /// Too many dice in the bag.
    #[error(transparent)]
    Deck(#[from] DeckError),
}

/// Every face of `min..=max` comes out exactly `sets` times per bag, that is per
/// `sets · (max − min + 1)` draws; then the bag is refilled.
///
/// The dice bag of "A Bag of Dice": `DiceBag(min, max, sets)` holds `sets` dice
/// showing each face, drawn without replacement and refilled when empty. It is the
/// generalized [`Deck`] with `copies = sets` and `refill_below = 1` over the faces
/// `min..=max`, kept as its own type because games name it by its range.
///
/// # Example
/// ```
/// use fairdice::randomizer::{DiceBag, Randomizer};
/// use fairdice::rng;
///
/// let mut bag = DiceBag::new(1, 4, 4)?;
/// let mut generator = rng::seeded(9);
/// let mut rolls: Vec<i64> = (0..16).map(|_| bag.roll(&mut generator)).collect();
/// rolls.sort();
/// assert_eq!(rolls, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
/// # Ok::<(), fairdice::randomizer::BagError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DiceBag {
    deck: Deck,
    min: Outcome,
    max: Outcome,
    sets: u64,
}

impl DiceBag {
    /// A bag of `sets` copies of each face `min..=max`.
    ///
    /// # Errors
    /// [`BagError::EmptyRange`] if `min > max`, [`BagError::NoSets`] for `sets = 0`,
    /// [`BagError::Base`] / [`BagError::Deck`] if the bag is too large.
    pub fn new(min: Outcome, max: Outcome, sets: u64) -> Result<DiceBag, BagError> {
        if min > max {
            return Err(BagError::EmptyRange { min, max });
        }
        if sets == 0 {
            return Err(BagError::NoSets);
        }
        let deck = Deck::new(Base::range(min, max)?, sets, 1, RefillMode::TopUp)?;
        Ok(DiceBag {
            deck,
            min,
            max,
            sets,
        })
    }

    /// Draws a face (the value, not its index).
    pub fn roll<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        let index = self.deck.draw(rng);
        self.deck.outcomes()[index]
    }

    /// The smallest face.
    pub fn min(&self) -> Outcome {
        self.min
    }

    /// The largest face.
    pub fn max(&self) -> Outcome {
        self.max
    }

    /// Copies of each face per bag.
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// Dice left in the bag of each face.
    pub fn remaining(&self) -> &[u64] {
        self.deck.cards()
    }
}

impl Randomizer for DiceBag {
    fn spec(&self) -> String {
        format!(
            "bag(min={}, max={}, sets={})",
            self.min, self.max, self.sets
        )
    }

    fn outcomes(&self) -> &[Outcome] {
        self.deck.outcomes()
    }

    /// Every outcome alike: the guarantee is about order, not shares.
    fn base_distribution(&self) -> Vec<f64> {
        let n = self.outcomes().len();
        vec![1.0 / n as f64; n]
    }

    fn next_distribution(&self) -> Vec<f64> {
        self.deck.next_distribution()
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        self.deck.draw(rng)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        self.deck.observe(index).map_err(|e| match e {
            ObserveError::Impossible { outcome, .. } => ObserveError::Impossible {
                reason: format!(
                    "the bag holds no {outcome} (all {} were drawn since it was refilled)",
                    self.sets
                ),
                outcome,
            },
            other => other,
        })
    }

    fn reset(&mut self) {
        self.deck.reset();
    }
}

impl StateSpace for DiceBag {
    /// Dice left of each face.
    fn state_key(&self) -> Vec<i64> {
        self.deck.state_key()
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        // The spec is written only on failure: exact sweeps restore millions of states.
        self.deck.restore(key).map_err(|e| e.with_spec(self.spec()))
    }

    fn save_state(&self) -> Vec<i64> {
        self.deck.save_state()
    }

    fn load_state(&mut self, saved: &[i64]) -> Result<(), RestoreError> {
        self.deck
            .load_state(saved)
            .map_err(|e| e.with_spec(self.spec()))
    }

    fn exchangeable(&self) -> bool {
        true
    }
}

/// `bag(min=1, max=N, sets=1)`.
pub(super) const FAMILY: Family = Family {
    name: "bag",
    summary: "a dice bag: `sets` copies of min..max, refilled when empty",
    usage: "bag(min=1, max=N, sets=1)",
    example: "bag(min=1, max=6, sets=1)",
    outcomes: OutcomeKeys::MinMax,
    params: &[Param {
        key: "sets",
        kind: ParamKind::Count,
        default: Some("1"),
        doc: "copies of every value in the bag",
        tune: Some("1..10"),
    }],
    not_tunable: None,
};

/// Builds a `bag` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<DiceBag, SpecError> {
    let max = args
        .parsed::<i64>("max")?
        .ok_or_else(|| args.missing("max=N is required"))?;
    DiceBag::new(
        args.parsed("min")?.unwrap_or(1),
        max,
        args.number("sets", 1)?,
    )
    .map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};
    use crate::rng;

    /// `count` rolls, sorted.
    fn sorted_rolls(bag: &mut DiceBag, seed: u64, count: usize) -> Vec<Outcome> {
        let mut generator = rng::seeded(seed);
        let mut rolls: Vec<Outcome> = (0..count).map(|_| bag.roll(&mut generator)).collect();
        rolls.sort_unstable();
        rolls
    }

    // The three tests of "A Bag of Dice", for several seeds each.

    #[test]
    fn one_set_of_six_gives_each_face_once() {
        for seed in 0..20 {
            let rolls = sorted_rolls(&mut DiceBag::new(1, 6, 1).expect("valid"), seed, 6);
            for (i, &roll) in rolls.iter().enumerate() {
                assert_eq!(roll, i as Outcome + 1);
            }
        }
    }

    #[test]
    fn four_sets_of_four_give_each_face_four_times() {
        for seed in 0..20 {
            let rolls = sorted_rolls(&mut DiceBag::new(1, 4, 4).expect("valid"), seed, 16);
            for i in 0..4 {
                for j in 0..4 {
                    assert_eq!(rolls[i * 4 + j], i as Outcome + 1);
                }
            }
        }
    }

    #[test]
    fn an_exhausted_bag_refills_with_a_new_set() {
        for seed in 0..20 {
            let rolls = sorted_rolls(&mut DiceBag::new(1, 8, 1).expect("valid"), seed, 16);
            for i in 0..8 {
                for j in 0..2 {
                    assert_eq!(rolls[i * 2 + j], i as Outcome + 1);
                }
            }
        }
    }

    #[test]
    fn invalid_bags() {
        assert_eq!(
            DiceBag::new(6, 1, 1),
            Err(BagError::EmptyRange { min: 6, max: 1 })
        );
        assert_eq!(DiceBag::new(1, 6, 0), Err(BagError::NoSets));
        assert!(DiceBag::new(i64::MIN, i64::MAX, 1).is_err());
    }

    #[test]
    fn a_drawn_out_face_cannot_be_observed() {
        let mut bag = DiceBag::new(1, 6, 1).expect("valid");
        bag.observe(0).expect("present");
        let error = bag.observe(0).expect_err("drawn out");
        assert!(error.to_string().contains("bag holds no 1"), "{error}");
        assert_eq!(bag.spec(), "bag(min=1, max=6, sets=1)");
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut DiceBag::new(-2, 3, 2).expect("valid"), 40, 8);
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut DiceBag::new(1, 6, 1).expect("valid"), 3, 12),
            [0, 3, 4, 2, 1, 5, 1, 4, 2, 5, 0, 3]
        );
    }
}
