//! Fair randomizers: dice, decks, dice bags, dynamic dice, the fair die roller,
//! PRD, bad-luck protection and the Tetris randomizers (NES, 7-bag, TGM1/2 and
//! TGM3's 35-piece bag), behind one [`Randomizer`] trait.
//!
//! Every randomizer draws an outcome *index* from a finite, ordered list of outcomes
//! ([`Randomizer::outcomes`]). At each step it has a next-sample distribution
//! ([`Randomizer::next_distribution`]), draws from it with the caller's generator
//! (any `rand_core` [`Rng`]), and updates its state. [`Randomizer::observe`] applies
//! an outcome without drawing (replaying a history, or sweeping states in an exact
//! analysis).
//!
//! Build one from a spec string shared by the command line and the web UI:
//!
//! ```
//! use fairdice::randomizer::{Randomizer, Spec};
//! use fairdice::rng;
//!
//! let mut deck = Spec::build("deck(values=6, copies=1, refill_below=1)")?;
//! let mut generator = rng::seeded(7);
//! let mut seen = [0; 6];
//! for _ in 0..6 {
//!     seen[deck.draw(&mut generator)] += 1;
//! }
//! assert_eq!(seen, [1; 6]); // every face exactly once per six draws
//! let face = deck.draw_outcome(&mut generator); // the value, 1..=6
//! assert!((1..=6).contains(&face));
//! # Ok::<(), fairdice::randomizer::SpecError>(())
//! ```
//!
//! # Design decisions
//! - [`Randomizer::draw`] is generic over the generator (`R: Rng + ?Sized`), with
//!   `where Self: Sized`; the trait stays object-safe through its supertrait
//!   [`DrawDyn`], whose [`draw_dyn`](DrawDyn::draw_dyn) takes a `&mut dyn Rng` and is
//!   implemented for every randomizer by forwarding to `draw`. A generic draw keeps
//!   the hot loops (Monte Carlo analyses, the benches) free of a virtual call per
//!   random word; a `dyn` randomizer pays one per word, and draws the same values:
//!   both paths run the same code on the same words.
//! - Range reduction is [`rng::below`](crate::rng::below)'s, whatever the generator,
//!   so the same seed gives the same sequence on every platform; the portable
//!   [`Generator`](crate::rng::Generator) is the default (sessions, command line,
//!   web app).
//! - [`Randomizer::draw`] returns an index (what analyses count);
//!   [`Randomizer::draw_outcome`] returns the value, and [`Randomizer::draws`] is an
//!   endless iterator of values. A randomizer itself is not a
//!   `rand::distr::Distribution`: sampling one changes it, and `Distribution` promises
//!   independent, identically distributed samples from `&self` (see [`NextSample`]
//!   for the distribution of the next draw, and [`Dice`], which has no state).
//! - State is integer counts (cards left, times drawn), never accumulated floats;
//!   float weights are recomputed from the counts, so a restored randomizer
//!   continues bit for bit, and equal states compare equal ([`StateSpace::state_key`]).
//! - Two traits: [`Randomizer`] is what drawing needs (outcomes, the next
//!   distribution, draw, observe, reset), enough for seeded Monte Carlo
//!   ([`analysis::simulate`](crate::analysis::simulate)); [`StateSpace`] adds the
//!   state as integers, which exact sweeps, goals and sessions need. A game's own
//!   randomizer implements the first, and the second when its states can be
//!   listed.
//! - [`AnyRandomizer`] is an enum rather than a `Box<dyn Randomizer>` so it can be
//!   cloned, compared and matched on; the trait stays object-safe for callers that
//!   prefer `dyn`.

mod any;
mod args;
mod bag;
mod base;
pub mod chain;
mod deck;
mod dice;
mod dynamic_dice;
mod fair_roller;
pub mod family;
mod machine;
mod piece_history;
mod pile;
mod pity;
mod portable_math;
mod prd;
pub mod report;
mod sampling;
#[cfg(feature = "serde")]
mod saved;
mod spec;
mod state;
mod sum_tree;
mod tetris;
mod tgm;
mod tgm3;

#[cfg(test)]
mod testing;

use num_rational::Ratio;
use thiserror::Error;

use crate::dice::die::Outcome;
use crate::rng::Rng;

pub use any::AnyRandomizer;
pub use bag::{BagError, DiceBag};
pub use base::{Base, BaseError, MAX_EXPRESSION_BYTES, MAX_OUTCOMES};
pub use deck::{Deck, DeckError, MAX_CARDS, RefillMode};
pub use dice::Dice;
pub use dynamic_dice::{DynamicDice, DynamicDiceError, MAX_LEAD};
pub use fair_roller::{FairRoller, FairRollerError, MAX_TIGHTNESS};
pub use machine::{
    BUILD_STEPS_PER_ENTRY, MAX_LAYER_ENTRIES, MAX_LAYERS, MAX_MACHINE_BYTES, MAX_MACHINE_STATES,
    MAX_RESULTS, Machine, MachineError, MachineParameter,
};
#[cfg(feature = "serde")]
pub use machine::{MAX_FORMULA_BYTES, MAX_FORMULA_DEPTH, MAX_FORMULA_DIGITS, MAX_PARAMETERS};
pub use pity::{MAX_CAP, Pity, PityError};
pub use prd::{C_TOLERANCE, MIN_PROBABILITY, Prd, PrdError, prd_constant};
pub use report::{NextReport, OutcomeName, SampleReport, has_labels};
pub use sampling::{Draws, NextSample};
pub use spec::{MAX_SPEC_BYTES, Spec, SpecError};
pub use state::{
    CHECK_ALGORITHM, FORMAT, GENERATOR_ALGORITHM, MAX_DRAWS, MAX_SESSION_BYTES, Session,
    StateError, VERSION,
};
pub use tetris::{Nes, PIECES, SevenBag};
pub use tgm::{Tgm, TgmError, TgmPreset};
pub use tgm3::{POOL_SIZE, Tgm3, Tgm3Error};

/// How far from 1 a next-sample distribution's sum may be (float rounding only).
pub const DISTRIBUTION_TOLERANCE: f64 = 1e-9;

/// Budget steps a sample of a Monte Carlo run costs for each outcome of the
/// randomizer ([`Randomizer::sample_steps`]'s default): each sample weighs the
/// whole next distribution for its entropy and follows every outcome's gap
/// (measured: about 2 ns an outcome for the curves, 20 for the droughts of the
/// fair roller over 2d6).
pub const STEPS_PER_DRAWN_OUTCOME: u64 = 4;

/// A source of outcomes whose next-sample distribution depends on what it drew.
///
/// Outcomes are addressed by index into [`outcomes`](Self::outcomes). The trait is
/// object-safe: a `dyn Randomizer` draws with [`draw_dyn`](DrawDyn::draw_dyn) and
/// [`draw_outcome_dyn`](Self::draw_outcome_dyn); [`AnyRandomizer`] is the enum over
/// every randomizer in the crate.
///
/// # Example
/// A game's own generator, through a trait object:
/// ```
/// use fairdice::randomizer::{Randomizer, Spec};
/// use fairdice::rng::{Rng, SeedableRng};
/// use rand::rngs::SmallRng;
///
/// let mut systems: Vec<Box<dyn Randomizer>> = vec![
///     Box::new(Spec::build("deck(values=6)")?),
///     Box::new(Spec::build("prd(p=0.25)")?),
/// ];
/// let mut game_rng = SmallRng::seed_from_u64(1);
/// let rng: &mut dyn Rng = &mut game_rng;
/// for system in &mut systems {
///     let index = system.draw_dyn(rng);
///     assert!(index < system.outcomes().len());
///     let value = system.draw_outcome_dyn(rng);
///     assert!(system.outcomes().contains(&value));
/// }
/// # Ok::<(), fairdice::randomizer::SpecError>(())
/// ```
pub trait Randomizer: DrawDyn {
    /// The spec string that builds this randomizer afresh (its parameters, not its
    /// state), e.g. `deck(values=6, copies=1, refill_below=1, refill=top-up)`.
    fn spec(&self) -> String;

    /// The outcome values, in index order (ascending, e.g. `1..=6` or `2..=12`; the
    /// tetrominoes are `0..7`).
    fn outcomes(&self) -> &[Outcome];

    /// How outcome `index` is shown: its value, or a name (tetromino letters,
    /// `fail`/`success` for PRD).
    fn label(&self, index: usize) -> String {
        self.outcomes()
            .get(index)
            .map_or_else(|| format!("#{index}"), ToString::to_string)
    }

    /// The spec of a randomizer that, from a fresh start, draws exactly as this
    /// one does over its first `samples` draws (the same chances at every step),
    /// where a plainer one is known: a deck that cannot refill within `samples`
    /// draws is the same deck refilling only when empty. Two candidates that name
    /// the same spec here measure alike over a match of `samples`, so a search
    /// measures them once. `None` (the default) when there is none to name.
    fn same_over(&self, samples: usize) -> Option<String> {
        let _ = samples;
        None
    }

    /// For a randomizer of attempts (PRD, pity), the outcome index that is a
    /// success: analyses then give the attempts until one, attempt by attempt.
    /// `None` (the default) otherwise.
    fn success(&self) -> Option<usize> {
        None
    }

    /// The probability of each outcome index at the next draw, given the current
    /// state. Sums to 1 within [`DISTRIBUTION_TOLERANCE`]; zero exactly for the
    /// outcomes the randomizer cannot draw next.
    fn next_distribution(&self) -> Vec<f64>;

    /// The distribution the randomizer is fair to: what plain draws would give
    /// (its base for dice, decks, dynamic dice and the fair roller; the nominal
    /// chance for PRD and the base chance for pity; every outcome alike for bags
    /// and the Tetris randomizers; a machine's long-run frequencies). Fairness
    /// measures (base deviation, the seats' fair shares, an audit's fit) compare
    /// counts with it.
    fn base_distribution(&self) -> Vec<f64>;

    /// The probability of each outcome index at the next draw as exact
    /// fractions in lowest terms, when the randomizer knows them exactly and
    /// each fits 64 bits (a [`Machine`]'s chances); `None` (the default)
    /// otherwise. Equal to [`next_distribution`](Self::next_distribution) up to
    /// its rounding; the exact figures of goals and droughts are computed from
    /// it.
    fn exact_next_distribution(&self) -> Option<Vec<Ratio<u64>>> {
        None
    }

    /// The entropy of the next draw as a fraction of a fair die's over the same
    /// number of outcomes ([`entropy_fraction`](crate::entropy::entropy_fraction)
    /// of [`next_distribution`](Randomizer::next_distribution)). A randomizer may
    /// compute it in closed form, equal up to rounding: the analyses ask for it
    /// at every sample.
    fn next_entropy_fraction(&self) -> f64 {
        crate::entropy::entropy_fraction(&self.next_distribution())
    }

    /// Budget steps one sample of a Monte Carlo run costs: weighing the next
    /// distribution for its entropy, drawing, and following every outcome's
    /// tallies. [`STEPS_PER_DRAWN_OUTCOME`] an outcome by default; a randomizer
    /// whose draw or distribution costs more than its outcomes' count says so
    /// here, and every price of a run reads it.
    fn sample_steps(&self) -> u64 {
        (self.outcomes().len() as u64).saturating_mul(STEPS_PER_DRAWN_OUTCOME)
    }

    /// Draws an outcome index with `rng` and updates the state.
    ///
    /// `rng` is any `rand_core` generator: the portable
    /// [`rng::seeded`](crate::rng::seeded) for a run that replays everywhere, or the
    /// game's own. On a trait object, call [`draw_dyn`](DrawDyn::draw_dyn).
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize
    where
        Self: Sized;

    /// Draws an outcome and returns its value: `outcomes()[draw(rng)]`, which the
    /// borrow checker refuses in one expression.
    #[inline]
    fn draw_outcome<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome
    where
        Self: Sized,
    {
        let index = self.draw(rng);
        self.outcomes()[index]
    }

    /// Fills `out` with draws, as many [`draw_outcome`](Self::draw_outcome) calls
    /// would: a game's batch of rolls. [`AnyRandomizer`] chooses its family once
    /// for the whole batch.
    #[inline]
    fn fill_outcomes<R: Rng + ?Sized>(&mut self, rng: &mut R, out: &mut [Outcome])
    where
        Self: Sized,
    {
        for slot in out {
            *slot = self.draw_outcome(rng);
        }
    }

    /// [`draw_outcome`](Self::draw_outcome) for a trait object.
    fn draw_outcome_dyn(&mut self, rng: &mut dyn Rng) -> Outcome {
        let index = self.draw_dyn(rng);
        self.outcomes()[index]
    }

    /// An endless iterator of outcome values drawn with `rng`, each draw updating
    /// the state (take as many as the game needs).
    fn draws<'a, R: Rng + ?Sized>(&'a mut self, rng: &'a mut R) -> Draws<'a, Self, R>
    where
        Self: Sized,
    {
        Draws::new(self, rng)
    }

    /// The distribution of the next draw as a `rand::distr::Distribution`: sampling
    /// it leaves the randomizer as it is.
    fn next_sample(&self) -> NextSample {
        NextSample::of(self)
    }

    /// Updates the state as if outcome `index` had been drawn.
    ///
    /// # Errors
    /// [`ObserveError`] if `index` is out of range or the randomizer cannot draw it
    /// now (the state is then unchanged).
    fn observe(&mut self, index: usize) -> Result<(), ObserveError>;

    /// Returns to the initial state.
    fn reset(&mut self);
}

/// What an exact sweep needs beyond drawing: the state as integers, restored
/// from them, and whether outcomes may be relabeled.
///
/// [`Randomizer`] is enough to draw, to follow a history and to be measured by
/// seeded Monte Carlo ([`analysis::simulate`](crate::analysis::simulate)); a
/// randomizer that also names its state here can be measured exactly
/// ([`analysis::analyze`](crate::analysis::analyze), goals, droughts, seats)
/// and saved in a session. Every randomizer of the crate implements both.
pub trait StateSpace: Randomizer {
    /// The complete mutable state as integers: two randomizers with the same spec
    /// and equal keys have the same next-sample distribution and the same futures.
    /// Parameters (the spec) are not part of the key.
    ///
    /// When [`exchangeable`](Self::exchangeable) is true the key has exactly one
    /// entry per outcome, entry `i` belonging to outcome `i`.
    fn state_key(&self) -> Vec<i64>;

    /// Sets the state from a [`state_key`](Self::state_key).
    ///
    /// # Errors
    /// [`RestoreError`] if the key has the wrong length or describes a state this
    /// randomizer cannot be in; the state is then unchanged.
    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError>;

    /// The state to save for an exact continuation: the state key plus anything it
    /// leaves out because no next-sample distribution depends on it, though a seeded
    /// run's future does (the order of a listed deck's cards, held and drawn). Defaults to the key.
    fn save_state(&self) -> Vec<i64> {
        self.state_key()
    }

    /// Sets the state from [`save_state`](Self::save_state).
    ///
    /// # Errors
    /// As [`restore`](Self::restore).
    fn load_state(&mut self, saved: &[i64]) -> Result<(), RestoreError> {
        self.restore(saved)
    }

    /// True when relabeling outcomes commutes with the randomizer (a uniform base and
    /// a rule that treats outcomes alike): permuting the per-outcome entries of the
    /// state key permutes the next-sample distribution the same way. An exact
    /// analysis may then merge states whose sorted keys are equal.
    fn exchangeable(&self) -> bool;

    /// The state key with outcome labels forgotten when outcomes are exchangeable
    /// (the key sorted), otherwise the key itself.
    fn canonical_key(&self) -> Vec<i64> {
        let mut key = self.state_key();
        if self.exchangeable() {
            key.sort_unstable();
        }
        key
    }

    /// The most states it can be in, when it knows (a machine has walked every
    /// state reachable from its start): an exact sweep projects its cost with
    /// no more states a step. `None` (the default) when unknown.
    fn state_bound(&self) -> Option<usize> {
        None
    }
}

/// The object-safe form of [`Randomizer::draw`], implemented for every randomizer:
/// a `dyn Randomizer` draws with a `&mut dyn Rng`.
pub trait DrawDyn {
    /// Draws an outcome index with `rng` and updates the state, exactly as
    /// [`Randomizer::draw`] does with the same generator.
    fn draw_dyn(&mut self, rng: &mut dyn Rng) -> usize;
}

impl<T: Randomizer> DrawDyn for T {
    #[inline]
    fn draw_dyn(&mut self, rng: &mut dyn Rng) -> usize {
        self.draw(rng)
    }
}

/// Why an outcome could not be observed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ObserveError {
    /// The index is not an outcome index.
    #[error("outcome index {index} is out of range: this randomizer has {len} outcomes (0..{len})")]
    OutOfRange {
        /// The index given.
        index: usize,
        /// The number of outcomes.
        len: usize,
    },
    /// The randomizer cannot draw that outcome in its current state.
    #[error("{outcome} cannot be drawn now: {reason}")]
    Impossible {
        /// The outcome's label.
        outcome: String,
        /// Why, e.g. "the deck holds no 3 (every copy was drawn since the last refill)".
        reason: String,
    },
    /// The history names something that is not an outcome.
    #[error("`{token}` is not an outcome of this randomizer; outcomes are {accepted}")]
    UnknownOutcome {
        /// The text given.
        token: String,
        /// The accepted outcomes, e.g. `1, 2, 3, 4, 5, 6`.
        accepted: String,
    },
}

crate::control::invalid_input!(ObserveError);

/// Why a state key could not be restored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RestoreError {
    /// The key has the wrong number of entries for this spec.
    #[error("the state has {found} entries but {spec} keeps {expected}")]
    WrongLength {
        /// The spec of the randomizer restoring.
        spec: String,
        /// Entries this randomizer keeps.
        expected: usize,
        /// Entries given.
        found: usize,
    },
    /// An entry this randomizer cannot hold.
    #[error("the state is impossible for {spec}: {reason}")]
    Inconsistent {
        /// The spec of the randomizer restoring.
        spec: String,
        /// What is wrong, naming the entry.
        reason: String,
    },
}

crate::control::invalid_input!(RestoreError);

impl RestoreError {
    /// The same error, naming `spec` (for a randomizer built on another).
    pub(crate) fn with_spec(self, spec: String) -> RestoreError {
        match self {
            RestoreError::WrongLength {
                expected, found, ..
            } => RestoreError::WrongLength {
                spec,
                expected,
                found,
            },
            RestoreError::Inconsistent { reason, .. } => {
                RestoreError::Inconsistent { spec, reason }
            }
        }
    }
}

/// The index of the outcome named `token`: its value (`7`) or its label (`T`,
/// `success`), matched case-insensitively.
///
/// # Errors
/// [`ObserveError::UnknownOutcome`], listing the accepted outcomes.
pub fn outcome_index<R: Randomizer + ?Sized>(
    randomizer: &R,
    token: &str,
) -> Result<usize, ObserveError> {
    let token = token.trim();
    let len = randomizer.outcomes().len();
    if let Ok(value) = token.parse::<Outcome>()
        && let Ok(index) = randomizer.outcomes().binary_search(&value)
    {
        return Ok(index);
    }
    if let Some(index) = (0..len).find(|&i| randomizer.label(i).eq_ignore_ascii_case(token)) {
        return Ok(index);
    }
    let mut accepted: Vec<String> = (0..len.min(20)).map(|i| randomizer.label(i)).collect();
    if len > 20 {
        accepted.push(format!("… {}", randomizer.label(len - 1)));
    }
    Err(ObserveError::UnknownOutcome {
        token: token.to_string(),
        accepted: accepted.join(", "),
    })
}

/// Observes each outcome of `history` in turn (values or labels, see
/// [`outcome_index`]).
///
/// # Errors
/// The first [`ObserveError`], its message prefixed with the position in the
/// history; earlier outcomes stay observed.
pub fn observe_history<R: Randomizer + ?Sized, S: AsRef<str>>(
    randomizer: &mut R,
    history: &[S],
) -> Result<(), ObserveError> {
    for (position, token) in history.iter().enumerate() {
        let index = outcome_index(randomizer, token.as_ref())?;
        randomizer.observe(index).map_err(|e| match e {
            ObserveError::Impossible { outcome, reason } => ObserveError::Impossible {
                outcome: format!("history entry {} ({outcome})", position + 1),
                reason,
            },
            other => other,
        })?;
    }
    Ok(())
}

/// Checks an index against the number of outcomes.
pub(crate) fn check_index(index: usize, len: usize) -> Result<(), ObserveError> {
    if index >= len {
        return Err(ObserveError::OutOfRange { index, len });
    }
    Ok(())
}

/// Checks a key's length.
pub(crate) fn check_key_len(
    spec: impl FnOnce() -> String,
    key: &[i64],
    expected: usize,
) -> Result<(), RestoreError> {
    if key.len() != expected {
        return Err(RestoreError::WrongLength {
            spec: spec(),
            expected,
            found: key.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::testing::assert_draws_follow_distribution;
    use super::*;
    use crate::rng;

    #[test]
    fn every_randomizer_draws_from_its_next_distribution() {
        for spec in [
            "dice(base=2d6)",
            "deck(values=6, copies=2, refill_below=5)",
            "deck(values=20, copies=1, refill_below=3)",
            "bag(min=1, max=4, sets=2)",
            "dynamic(values=6, decrease=0.355)",
            "dynamic(values=6, decrease=0.01)",
            "dynamic(values=40, decrease=0.2)",
            "dynamic(base=2d6, decrease=0.3)",
            "fair(base=2d6, tightness=1)",
            "fair(values=20, tightness=2)",
            "prd(p=0.3)",
            "pity(p=0.2, soft=3, rise=0.2, cap=6)",
            "nes",
            "tgm1",
            "tgm2",
            "tgm3",
            "bag7",
        ] {
            let mut randomizer = Spec::build(spec).expect("valid");
            let mut generator = rng::seeded(5);
            for step in 0..12 {
                if step % 4 == 0 {
                    assert_draws_follow_distribution(&randomizer, 4000);
                }
                randomizer.draw(&mut generator);
            }
        }
    }

    #[test]
    fn every_draw_path_draws_the_same_values() {
        for spec in [
            "dice(base=2d6)",
            "deck(values=6, copies=2, refill_below=5)",
            "deck(base=10d10)",
            "bag(min=1, max=4, sets=2)",
            "dynamic(values=40, decrease=0.2)",
            "dynamic(base=2d6, decrease=0.3)",
            "fair(base=2d6, tightness=1)",
            "prd(p=0.3)",
            "nes",
            "tgm2",
            "tgm3",
            "bag7",
        ] {
            let start = Spec::build(spec).expect("valid");
            let (mut generic, mut object, mut values) = (start.clone(), start.clone(), start);
            let (mut a, mut b, mut c) = (rng::seeded(8), rng::seeded(8), rng::seeded(8));
            let object: &mut dyn StateSpace = &mut object;
            let b: &mut dyn Rng = &mut b;
            for _ in 0..200 {
                let index = generic.draw(&mut a);
                assert_eq!(object.draw_dyn(b), index, "{spec}");
                assert_eq!(values.draw_outcome(&mut c), generic.outcomes()[index]);
            }
            assert_eq!(generic.state_key(), object.state_key(), "{spec}");
        }
    }

    /// Valid specs over every randomizer, with small parameters.
    fn any_spec() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let base = prop_oneof![
            (1u64..9).prop_map(|n| format!("values={n}")),
            (1u64..4, 2u64..7).prop_map(|(k, m)| format!("base={k}d{m}")),
        ];
        prop_oneof![
            base.clone().prop_map(|b| format!("dice({b})")),
            (base.clone(), 1u64..4, 1u64..12, any::<bool>()).prop_map(|(b, s, r, reshuffle)| {
                let mode = if reshuffle { "reshuffle" } else { "top-up" };
                format!("deck({b}, copies={s}, refill_below={r}, refill={mode})")
            }),
            (-3i64..3, 0i64..6, 1u64..4).prop_map(|(min, span, sets)| format!(
                "bag(min={min}, max={}, sets={sets})",
                min + span
            )),
            (base.clone(), 1u32..=100)
                .prop_map(|(b, d)| format!("dynamic({b}, decrease={})", f64::from(d) / 100.0)),
            (base, 0u32..=40)
                .prop_map(|(b, k)| format!("fair({b}, tightness={})", f64::from(k) / 8.0)),
            (1u32..=100).prop_map(|p| format!("prd(p={})", f64::from(p) / 100.0)),
            (1u64..8, 1u64..8).prop_map(|(h, t)| format!("tgm(history={h}, tries={t})")),
            Just("nes".to_string()),
            Just("tgm2".to_string()),
            (1u64..8, 1u64..8).prop_map(|(h, t)| format!("tgm3(history={h}, tries={t})")),
            Just("bag7".to_string()),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Every next-sample distribution sums to 1 and is zero exactly on the
        /// outcomes that cannot be drawn; states restore and saved states continue.
        #[test]
        fn next_distributions_are_distributions(spec in any_spec(), seed in 0u64..1000) {
            let mut randomizer = Spec::build(&spec).expect("valid by construction");
            testing::assert_distribution_invariants(&mut randomizer, 25, seed);
        }

        /// A randomizer's own entropy equals the entropy of its next
        /// distribution, up to rounding, in every state a run reaches.
        #[test]
        fn next_entropy_is_the_entropy_of_the_next_distribution(spec in any_spec(), seed in 0u64..1000) {
            let mut randomizer = Spec::build(&spec).expect("valid by construction");
            let mut rng = crate::rng::seeded(seed);
            for _ in 0..40 {
                let direct =
                    crate::entropy::entropy_fraction(&randomizer.next_distribution());
                let own = randomizer.next_entropy_fraction();
                proptest::prop_assert!((own - direct).abs() < 1e-12, "{spec}: {own} vs {direct}");
                randomizer.draw(&mut rng);
            }
        }
    }

    #[test]
    fn exchangeable_randomizers_key_one_entry_per_outcome() {
        for spec in [
            "dice(values=6)",
            "deck(values=6)",
            "bag(max=5)",
            "dynamic(values=6, decrease=0.5)",
            "fair(values=4, tightness=1)",
            "bag7",
        ] {
            let mut randomizer = Spec::build(spec).expect("valid");
            assert!(randomizer.exchangeable(), "{spec}");
            randomizer.draw(&mut rng::seeded(1));
            assert_eq!(
                randomizer.state_key().len(),
                randomizer.outcomes().len(),
                "{spec}"
            );
            let mut sorted = randomizer.state_key();
            sorted.sort_unstable();
            assert_eq!(randomizer.canonical_key(), sorted);
        }
        for spec in [
            "dice(base=2d6)",
            "deck(base=2d6)",
            "prd(p=0.5)",
            "nes",
            "tgm1",
            "tgm3",
        ] {
            assert!(!Spec::build(spec).expect("valid").exchangeable(), "{spec}");
        }
    }

    #[test]
    fn histories_name_outcomes_by_value_or_label() {
        let mut tgm = Spec::build("tgm1").expect("valid");
        observe_history(&mut tgm, &["t", "I", "6"]).expect("pieces by name or index");
        assert_eq!(tgm.state_key(), [4, 2, 0, 6, 0]);
        let mut deck = Spec::build("deck(values=6)").expect("valid");
        let error = observe_history(&mut deck, &["3", "3"]).expect_err("one 3 per deck");
        assert!(error.to_string().contains("history entry 2"), "{error}");
        assert!(outcome_index(&deck, "7").is_err());
        let as_dyn: &dyn Randomizer = deck.as_dyn();
        assert_eq!(as_dyn.outcomes().len(), 6);
    }
}
