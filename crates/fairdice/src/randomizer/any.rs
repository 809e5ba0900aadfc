//! [`AnyRandomizer`]: every randomizer of the crate in one enum, as built from a
//! [`Spec`](super::Spec).

use super::{
    Deck, Dice, DiceBag, DynamicDice, FairRoller, Nes, ObserveError, Prd, Randomizer, RestoreError,
    SevenBag, Tgm,
};
use crate::dice::die::Outcome;
use crate::rng::Rng;

/// Any randomizer: what the command line, the web UI and the analyses hold when the
/// user names a randomizer by its spec string.
///
/// # Example
/// ```
/// use fairdice::randomizer::{AnyRandomizer, Randomizer, Spec};
///
/// let prd: AnyRandomizer = Spec::build("prd(p=0.25)")?;
/// assert!(matches!(prd, AnyRandomizer::Prd(_)));
/// assert_eq!(prd.spec(), "prd(p=0.25)");
/// # Ok::<(), fairdice::randomizer::SpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum AnyRandomizer {
    /// Independent draws.
    Dice(Dice),
    /// The generalized deck.
    Deck(Deck),
    /// A dice bag.
    Bag(DiceBag),
    /// Dynamic dice.
    Dynamic(DynamicDice),
    /// The fair die roller.
    Fair(FairRoller),
    /// Pseudo-random distribution.
    Prd(Prd),
    /// The NES Tetris randomizer.
    Nes(Nes),
    /// The TGM Tetris randomizers.
    Tgm(Tgm),
    /// The 7-bag.
    SevenBag(SevenBag),
}

macro_rules! dispatch {
    ($self:expr, $r:ident => $body:expr) => {
        match $self {
            AnyRandomizer::Dice($r) => $body,
            AnyRandomizer::Deck($r) => $body,
            AnyRandomizer::Bag($r) => $body,
            AnyRandomizer::Dynamic($r) => $body,
            AnyRandomizer::Fair($r) => $body,
            AnyRandomizer::Prd($r) => $body,
            AnyRandomizer::Nes($r) => $body,
            AnyRandomizer::Tgm($r) => $body,
            AnyRandomizer::SevenBag($r) => $body,
        }
    };
}

impl AnyRandomizer {
    /// The randomizer as a trait object.
    pub fn as_dyn(&self) -> &dyn Randomizer {
        dispatch!(self, r => r)
    }

    /// The randomizer as a mutable trait object.
    pub fn as_dyn_mut(&mut self) -> &mut dyn Randomizer {
        dispatch!(self, r => r)
    }
}

impl Randomizer for AnyRandomizer {
    fn spec(&self) -> String {
        dispatch!(self, r => r.spec())
    }

    fn outcomes(&self) -> &[Outcome] {
        dispatch!(self, r => r.outcomes())
    }

    fn label(&self, index: usize) -> String {
        dispatch!(self, r => r.label(index))
    }

    fn next_distribution(&self) -> Vec<f64> {
        dispatch!(self, r => r.next_distribution())
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        dispatch!(self, r => r.draw(rng))
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        dispatch!(self, r => r.observe(index))
    }

    fn reset(&mut self) {
        dispatch!(self, r => r.reset())
    }

    fn state_key(&self) -> Vec<i64> {
        dispatch!(self, r => r.state_key())
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        dispatch!(self, r => r.restore(key))
    }

    fn save_state(&self) -> Vec<i64> {
        dispatch!(self, r => r.save_state())
    }

    fn load_state(&mut self, saved: &[i64]) -> Result<(), RestoreError> {
        dispatch!(self, r => r.load_state(saved))
    }

    fn exchangeable(&self) -> bool {
        dispatch!(self, r => r.exchangeable())
    }

    fn canonical_key(&self) -> Vec<i64> {
        dispatch!(self, r => r.canonical_key())
    }
}

macro_rules! from_variant {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        $(impl From<$ty> for AnyRandomizer {
            fn from(r: $ty) -> Self {
                AnyRandomizer::$variant(r)
            }
        })*
    };
}

from_variant!(
    Dice(Dice),
    Deck(Deck),
    Bag(DiceBag),
    Dynamic(DynamicDice),
    Fair(FairRoller),
    Prd(Prd),
    Nes(Nes),
    Tgm(Tgm),
    SevenBag(SevenBag),
);
