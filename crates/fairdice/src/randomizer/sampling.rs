//! Randomizers in `rand`'s terms: [`NextSample`], the distribution of the next
//! draw as a `rand::distr::Distribution`, and [`Draws`], the endless iterator of
//! drawn outcomes.
//!
//! # Design decisions
//! `Distribution::sample` takes `&self`, and `sample_iter` promises independent
//! samples from one distribution. A randomizer changes with every draw (that is its
//! point), so it is not a `Distribution`; wrapping it in a `RefCell` to pass as one
//! would hide the state change behind `&self` and make `sample_iter` a sequence
//! that is neither independent nor identically distributed (and the orphan rule
//! forbids `Distribution<i64>` for `RefCell<Deck>` anyway). Instead:
//! - a *state* has a next-sample distribution, a true `Distribution`: [`NextSample`],
//!   a snapshot that may be sampled any number of times (an AI looking ahead, a
//!   what-if) without touching the randomizer;
//! - drawing in sequence, the randomizer's own business, is [`Randomizer::draws`]:
//!   an iterator, as `sample_iter` would be, but over the changing randomizer;
//! - [`Dice`](super::Dice) has no state, so it is a `Distribution` itself and
//!   samples exactly what its draw would.

use std::iter::FusedIterator;

use rand::distr::Distribution;

use super::Randomizer;
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// The distribution of a randomizer's next draw, frozen at the state it was taken
/// from ([`Randomizer::next_sample`]); it samples outcome values.
///
/// Sampling does not change the randomizer: every sample comes from the same
/// next-sample distribution. It follows [`Randomizer::next_distribution`] (within
/// float rounding, below 2⁻⁵² per outcome) and never yields an outcome the
/// randomizer cannot draw next; it does not replay the randomizer's own draw
/// (use [`Randomizer::draw`] for that).
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, Spec};
/// use fairdice::rng::{self, Rng};
/// use rand::RngExt;
///
/// let mut deck = Spec::build("deck(values=3)")?;
/// let mut generator = rng::seeded(5);
/// let first = deck.draw_outcome(&mut generator);
/// // What could come next? Never the card just dealt.
/// let next = deck.next_sample();
/// let guesses: Vec<i64> = (0..100).map(|_| generator.sample(&next)).collect();
/// assert!(guesses.iter().all(|&g| g != first));
/// # Ok::<(), fairdice::randomizer::SpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NextSample {
    outcomes: Vec<Outcome>,
    /// Running sums of the probabilities; equal neighbours mark impossible outcomes.
    cumulative: Vec<f64>,
    /// The last outcome of positive probability.
    last: usize,
}

impl NextSample {
    /// The next-sample distribution of `randomizer` in its current state.
    pub fn of<R: Randomizer + ?Sized>(randomizer: &R) -> NextSample {
        let cumulative = randomizer
            .next_distribution()
            .iter()
            .scan(0.0, |sum, &p| {
                *sum += p;
                Some(*sum)
            })
            .collect::<Vec<f64>>();
        let last = (0..cumulative.len())
            .rev()
            .find(|&i| cumulative[i] > if i == 0 { 0.0 } else { cumulative[i - 1] })
            .unwrap_or(0);
        NextSample {
            outcomes: randomizer.outcomes().to_vec(),
            cumulative,
            last,
        }
    }

    /// Samples an outcome index.
    pub fn index<G: Rng + ?Sized>(&self, rng: &mut G) -> usize {
        let target = rng::unit_f64(rng) * self.cumulative[self.last];
        // The first running sum above the target: never an outcome of probability
        // 0, whose running sum equals its predecessor's. The target is below the
        // total, so the clamp only guards against rounding.
        self.cumulative
            .partition_point(|&c| c <= target)
            .min(self.last)
    }

    /// The outcome values, in index order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }
}

impl Distribution<Outcome> for NextSample {
    fn sample<G: Rng + ?Sized>(&self, rng: &mut G) -> Outcome {
        self.outcomes[self.index(rng)]
    }
}

/// The outcome values a randomizer draws one after another
/// ([`Randomizer::draws`]); endless, each step a real draw that updates the state.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, SevenBag};
/// use fairdice::rng;
///
/// let mut bag = SevenBag::new();
/// let mut pieces: Vec<i64> = bag.draws(&mut rng::seeded(3)).take(7).collect();
/// pieces.sort();
/// assert_eq!(pieces, [0, 1, 2, 3, 4, 5, 6]); // every tetromino once per bag
/// ```
#[derive(Debug)]
pub struct Draws<'a, T: ?Sized, G: ?Sized> {
    randomizer: &'a mut T,
    rng: &'a mut G,
}

impl<'a, T: ?Sized, G: ?Sized> Draws<'a, T, G> {
    /// Draws from `randomizer` with `rng`.
    pub fn new(randomizer: &'a mut T, rng: &'a mut G) -> Draws<'a, T, G> {
        Draws { randomizer, rng }
    }
}

impl<T: Randomizer, G: Rng + ?Sized> Iterator for Draws<'_, T, G> {
    type Item = Outcome;

    #[inline]
    fn next(&mut self) -> Option<Outcome> {
        Some(self.randomizer.draw_outcome(self.rng))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}

impl<T: Randomizer, G: Rng + ?Sized> FusedIterator for Draws<'_, T, G> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    fn next_sample_follows_the_next_distribution_and_leaves_the_state() {
        for spec in [
            "deck(values=6, copies=1)",
            "dynamic(base=2d6, decrease=0.3)",
            "prd(p=0.2)",
            "tgm2",
            "tgm3",
        ] {
            let mut randomizer = Spec::build(spec).expect("valid");
            let mut generator = rng::seeded(11);
            for _ in 0..3 {
                randomizer.draw(&mut generator);
            }
            let before = randomizer.clone();
            let next = randomizer.next_sample();
            let distribution = randomizer.next_distribution();
            let trials = 20_000u32;
            let mut counts = vec![0u32; distribution.len()];
            for _ in 0..trials {
                counts[next.index(&mut generator)] += 1;
            }
            assert_eq!(randomizer, before, "{spec}: sampling changed the state");
            let n = f64::from(trials);
            for (i, (&count, &p)) in counts.iter().zip(&distribution).enumerate() {
                if p == 0.0 {
                    assert_eq!(count, 0, "{spec}: outcome {i} is impossible");
                }
                let sigma = (n * p * (1.0 - p)).sqrt();
                let gap = (f64::from(count) - n * p).abs();
                assert!(gap <= 5.0 * sigma + 1e-9, "{spec}: {i}: {count} vs p {p}");
            }
            let value: Outcome = next.sample(&mut generator);
            assert!(randomizer.outcomes().contains(&value));
        }
    }

    /// A generator whose every word is the largest: the target lands on the total.
    struct Saturated;

    impl rand_core::TryRng for Saturated {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(u32::MAX)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::MAX)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(u8::MAX);
            Ok(())
        }
    }

    #[test]
    fn the_top_of_the_range_is_a_possible_outcome() {
        // The last card dealt leaves the last outcome impossible until the refill.
        let mut deck = Spec::build("deck(values=4)").expect("valid");
        deck.observe(3).expect("possible");
        deck.observe(0).expect("possible");
        let next = NextSample::of(&deck);
        assert_eq!(next.last, 2);
        assert_eq!(next.index(&mut Saturated), 2);
        assert_eq!(next.outcomes(), [1, 2, 3, 4]);
    }

    #[test]
    fn draws_are_the_draws_in_order() {
        let mut a = Spec::build("fair(base=2d6, tightness=1)").expect("valid");
        let mut b = a.clone();
        let mut generator = rng::seeded(4);
        let drawn: Vec<Outcome> = a.draws(&mut generator).take(20).collect();
        let mut generator = rng::seeded(4);
        let expected: Vec<Outcome> = (0..20).map(|_| b.draw_outcome(&mut generator)).collect();
        assert_eq!(drawn, expected);
        assert_eq!(a, b);
    }
}
