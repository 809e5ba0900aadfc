//! [`AnyRandomizer`]: every randomizer of the crate in one enum, as built from a
//! [`Spec`](super::Spec).

use super::args::{Args, SpecError};
use super::family::kinds::Family;
use super::{
    Deck, Dice, DiceBag, DynamicDice, FairRoller, Machine, Nes, ObserveError, Pity, Prd,
    Randomizer, RestoreError, SevenBag, StateSpace, Tgm, Tgm3,
};
use crate::dice::die::Outcome;
use crate::rng::Rng;

/// Declares every randomizer once: its variant of [`AnyRandomizer`], its type and
/// the families ([`Family`]) that build it. Generates the enum, the match that
/// dispatches to the variant's own code, the conversions into the enum and the
/// catalogue [`FAMILIES`]. (`$d` is a `$` passed in, so the generated `dispatch!`
/// macro can have repetitions of its own.)
macro_rules! randomizers {
    ($d:tt $( $(#[$doc:meta])* $variant:ident($ty:ty) => [$($family:expr => $build:path),*] ),+ $(,)?) => {
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
            $( $(#[$doc])* $variant($ty), )+
        }

        macro_rules! dispatch {
            ($d self_:expr, $d r:ident => $d body:expr) => {
                match $d self_ {
                    $( AnyRandomizer::$variant($d r) => $d body, )+
                }
            };
        }

        $(impl From<$ty> for AnyRandomizer {
            fn from(r: $ty) -> Self {
                AnyRandomizer::$variant(r)
            }
        })+

        /// Every family, in the order they are listed to users.
        pub(crate) const FAMILIES: &[Family] = &[$($($family,)*)+];

        /// Each family's builder, in the order of [`FAMILIES`]: the family's own
        /// `build`, its randomizer put in the enum.
        const BUILDERS: &[Builder] = &[$($(|args| $build(args).map(AnyRandomizer::from),)*)+];
    };
}

/// Builds a family's randomizer from its spec's checked arguments.
type Builder = fn(&Args<'_>) -> Result<AnyRandomizer, SpecError>;

/// The family named `name` (lowercase) and its builder.
pub(crate) fn registered(name: &str) -> Option<(&'static Family, Builder)> {
    FAMILIES
        .iter()
        .zip(BUILDERS)
        .find(|(family, _)| family.name == name)
        .map(|(family, &build)| (family, build))
}

randomizers! {$
    /// Independent draws.
    Dice(Dice) => [super::dice::FAMILY => super::dice::build],
    /// The generalized deck.
    Deck(Deck) => [super::deck::FAMILY => super::deck::build],
    /// A dice bag.
    Bag(DiceBag) => [super::bag::FAMILY => super::bag::build],
    /// Dynamic dice.
    Dynamic(DynamicDice) => [super::dynamic_dice::FAMILY => super::dynamic_dice::build],
    /// The fair die roller.
    Fair(FairRoller) => [super::fair_roller::FAMILY => super::fair_roller::build],
    /// Pseudo-random distribution.
    Prd(Prd) => [super::prd::FAMILY => super::prd::build],
    /// Bad-luck protection (pity).
    Pity(Pity) => [super::pity::FAMILY => super::pity::build],
    /// The NES Tetris randomizer.
    Nes(Nes) => [super::tetris::NES => super::tetris::build_nes],
    /// The TGM Tetris randomizers.
    Tgm(Tgm) => [
        super::tgm::FAMILY => super::tgm::build,
        super::tgm::TGM1 => super::tgm::build_tgm1,
        super::tgm::TGM2 => super::tgm::build_tgm2
    ],
    /// The 35-piece bag of TGM3.
    Tgm3(Tgm3) => [super::tgm3::FAMILY => super::tgm3::build],
    /// The 7-bag.
    SevenBag(SevenBag) => [super::tetris::SEVEN_BAG => super::tetris::build_seven_bag],
    /// A game's own system read from a machine document (no family: its spec is
    /// the document).
    Machine(Machine) => [],
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

    fn same_over(&self, samples: usize) -> Option<String> {
        dispatch!(self, r => r.same_over(samples))
    }

    fn success(&self) -> Option<usize> {
        dispatch!(self, r => r.success())
    }

    fn next_distribution(&self) -> Vec<f64> {
        dispatch!(self, r => r.next_distribution())
    }

    fn base_distribution(&self) -> Vec<f64> {
        dispatch!(self, r => r.base_distribution())
    }

    fn exact_next_distribution(&self) -> Option<Vec<num_rational::Ratio<u64>>> {
        dispatch!(self, r => r.exact_next_distribution())
    }

    fn next_entropy_fraction(&self) -> f64 {
        dispatch!(self, r => r.next_entropy_fraction())
    }

    fn sample_steps(&self) -> u64 {
        dispatch!(self, r => r.sample_steps())
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        dispatch!(self, r => r.draw(rng))
    }

    /// One dispatch for the draw and the value (the default would dispatch twice).
    #[inline(always)]
    fn draw_outcome<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        dispatch!(self, r => r.draw_outcome(rng))
    }

    /// One dispatch for the whole batch.
    #[inline]
    fn fill_outcomes<R: Rng + ?Sized>(&mut self, rng: &mut R, out: &mut [Outcome]) {
        dispatch!(self, r => r.fill_outcomes(rng, out))
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        dispatch!(self, r => r.observe(index))
    }

    fn reset(&mut self) {
        dispatch!(self, r => r.reset())
    }
}

impl StateSpace for AnyRandomizer {
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

    fn state_bound(&self) -> Option<usize> {
        dispatch!(self, r => r.state_bound())
    }
}
