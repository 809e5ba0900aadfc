//! The price of a deal: the walk of [`Deal::evaluate`] over the deck's values.

use super::{Estimator, Shape, limbs};
use crate::dice::deck::Deal;
use crate::dice::evaluator::Pattern;

/// Steps a (state, branch) pair of a deal's walk costs besides its count's
/// words: the evaluator's state made afresh and merged in a hash map.
const DEAL_PAIR_OVERHEAD: f64 = 24.0;

impl Estimator<'_> {
    /// `reads` of the hands of `deal` (each the hand's index and a pattern),
    /// walked together: at each of the deck's values, every group of states
    /// sharing the cards still to come (counted exactly, [`groups_by_step`])
    /// branches on the copies each hand takes (at most `∏(min(h_i, c) + 1)`,
    /// and at most the `C(c + H, H)` ways to split `c` copies among `H`
    /// hands), for each state: the product of each pattern's, as for dice with
    /// the hand's cards as its dice and the deck's values as its faces (a count
    /// of listed values at most their copies). The shape is the last pattern's;
    /// its support, the joint outcomes.
    ///
    /// For cards of several values, each read is of one value of one hand (the
    /// index of a read counts values hand by hand, as the names do), its faces
    /// that value's; a read of the first value also holds the cards of the value
    /// still open, and one of a later value holds the hand's cards of each of its
    /// values (at most `C(h + v − 1, v − 1)` ways in a group of states, whose
    /// hands have taken as many cards each).
    pub(super) fn deal(&mut self, deal: &Deal, reads: &[(usize, Pattern)]) -> Shape {
        let cards = deal.deck().cards();
        let attributes = deal.deck().attributes();
        let copies = cards.iter().map(|&(_, c)| f64::from(c)).fold(1.0, f64::max);
        let hands: Vec<f64> = deal.hands().iter().map(|&h| f64::from(h)).collect();
        let splits = binomial(copies + hands.len() as f64, hands.len() as f64);
        let branches = hands
            .iter()
            .map(|h| h.min(copies) + 1.0)
            .product::<f64>()
            .min(splits);
        let (mut states, mut joint) = (1.0, 1.0);
        let (mut low, mut high) = (0.0, 0.0);
        for (position, (name, pattern)) in reads.iter().enumerate() {
            let (hand, attribute) = (name / attributes, name % attributes);
            let seen = deal.deck().attribute(attribute);
            let values = seen.len() as f64;
            let copies = seen.iter().map(|&(_, c)| c as f64).fold(1.0, f64::max);
            let (lowest, highest) = (seen[0].0 as f64, seen[seen.len() - 1].0 as f64);
            let h = hands[hand];
            let m = h.min(values) + 1.0;
            let pattern_states = match pattern {
                Pattern::LongestStraight => m * (m + 1.0) / 2.0,
                Pattern::LargestSet | Pattern::Sets(_) => h.min(copies) + 1.0,
                Pattern::Height => (h.min(copies) + 1.0) * values,
                Pattern::Count(listed) => {
                    let held: f64 = seen
                        .iter()
                        .filter(|(v, _)| listed.contains(v))
                        .map(|&(_, c)| c as f64)
                        .sum();
                    h.min(held) + 1.0
                }
                Pattern::Sum => h * (highest - lowest) + 1.0,
            };
            // A value of several read once holds its open value, or its
            // counts, once for all its patterns.
            let first_of_view = !reads[..position].iter().any(|(other, _)| *other == *name);
            states *= match (attributes, attribute) {
                (1, _) => pattern_states,
                (_, 0) if first_of_view => pattern_states * (h.min(copies) + 1.0),
                (_, 0) => pattern_states,
                _ if first_of_view => binomial(h + values - 1.0, values - 1.0).min(
                    seen.iter()
                        .map(|&(_, c)| h.min(c as f64) + 1.0)
                        .product::<f64>(),
                ),
                _ => 1.0,
            };
            (low, high) = match pattern {
                Pattern::Sum => hand_sums(deal, *name),
                Pattern::Height => (lowest.min(0.0), highest),
                _ => (0.0, pattern.most(h as u64, values as u64) as f64),
            };
            joint *= high - low + 1.0;
        }
        let bits = deal.total().bits() as f64;
        let words = limbs(bits);
        let (held, widest) = if attributes == 1 {
            let steps = groups_by_step(deal, |_, _| 1.0);
            let groups: f64 = steps.iter().sum();
            (
                groups * states,
                steps.into_iter().fold(1.0, f64::max) * states,
            )
        } else {
            // Of cards of several values, the patterns' product grows fast,
            // but a group's states are also at most the ways its hands can
            // have taken their cards from those passed.
            let hands = deal.hands().len() as f64;
            let steps = groups_by_step(deal, |passed, taken| {
                (binomial(passed as f64, taken as f64) * hands.powi(taken as i32)).min(states)
            });
            (steps.iter().sum(), steps.into_iter().fold(1.0, f64::max))
        };
        let pairs = held * branches;
        Shape {
            low,
            high,
            support: joint,
            bits,
            steps: pairs * (words + DEAL_PAIR_OVERHEAD),
            peak: widest,
        }
        .with_support(joint)
    }
}

/// The range of the sums the values named `name` of `deal` can hold (a hand,
/// or one value of a hand's cards of several): the hand's size times the
/// lowest and highest of those values.
pub(super) fn hand_sums(deal: &Deal, name: usize) -> (f64, f64) {
    let attributes = deal.deck().attributes();
    let seen = deal.deck().attribute(name % attributes);
    let size = f64::from(deal.hands()[name / attributes]);
    (
        size * seen[0].0 as f64,
        size * seen[seen.len() - 1].0 as f64,
    )
}

/// How many groups of states (vectors of the cards still to come in each hand)
/// the walk of `deal` holds at each of its values: those whose cards taken so
/// far the values passed can have given, and whose cards still to come the
/// values after can give; each group weighed by `at_most(passed, taken)`, a
/// bound on its states once `passed` cards have passed and its hands have
/// taken `taken` in all (1 counts the groups alone).
fn groups_by_step(deal: &Deal, at_most: impl Fn(u64, u64) -> f64) -> Vec<f64> {
    // ways[t]: vectors of cards taken, `t` in all (each hand at most its size).
    let mut ways = vec![1.0f64];
    for &h in deal.hands() {
        let mut next = vec![0.0; ways.len() + h as usize];
        for (t, &w) in ways.iter().enumerate() {
            for k in 0..=h as usize {
                next[t + k] += w;
            }
        }
        ways = next;
    }
    let dealt = (ways.len() - 1) as u64;
    let mut passed = 0u64;
    let mut steps = Vec::with_capacity(deal.deck().cards().len());
    for &(_, copies) in deal.deck().cards() {
        passed += u64::from(copies);
        let later = deal.deck().len() - passed;
        // Taken so far at most what has passed, at least what later cannot give.
        let most = passed.min(dealt) as usize;
        let least = dealt.saturating_sub(later) as usize;
        steps.push(
            (least.min(most)..=most)
                .map(|t| ways[t] * at_most(passed, t as u64))
                .sum(),
        );
    }
    steps
}

/// `C(n, k)` in floating point.
fn binomial(n: f64, k: f64) -> f64 {
    (0..k as u64).fold(1.0, |c, i| c * (n - i as f64) / (i as f64 + 1.0))
}
