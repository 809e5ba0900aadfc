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
    pub(super) fn deal(&mut self, deal: &Deal, reads: &[(usize, Pattern)]) -> Shape {
        let cards = deal.deck().cards();
        let values = cards.len() as f64;
        let copies = cards.iter().map(|&(_, c)| f64::from(c)).fold(1.0, f64::max);
        let (lowest, highest) = (cards[0].0 as f64, cards[cards.len() - 1].0 as f64);
        let hands: Vec<f64> = deal.hands().iter().map(|&h| f64::from(h)).collect();
        let splits = binomial(copies + hands.len() as f64, hands.len() as f64);
        let branches = hands
            .iter()
            .map(|h| h.min(copies) + 1.0)
            .product::<f64>()
            .min(splits);
        let (mut states, mut joint) = (1.0, 1.0);
        let (mut low, mut high) = (0.0, 0.0);
        for (hand, pattern) in reads {
            let h = hands[*hand];
            let m = h.min(values) + 1.0;
            states *= match pattern {
                Pattern::LongestStraight => m * (m + 1.0) / 2.0,
                Pattern::LargestSet | Pattern::Sets(_) => h.min(copies) + 1.0,
                Pattern::Height => (h.min(copies) + 1.0) * values,
                Pattern::Count(listed) => {
                    let held: f64 = listed
                        .iter()
                        .map(|&v| f64::from(deal.deck().copies(v)))
                        .sum();
                    h.min(held) + 1.0
                }
                Pattern::Sum => h * (highest - lowest) + 1.0,
            };
            (low, high) = match pattern {
                Pattern::Sum => hand_sums(deal, *hand),
                Pattern::Height => (lowest.min(0.0), highest),
                _ => (0.0, pattern.most(h as u64, values as u64) as f64),
            };
            joint *= high - low + 1.0;
        }
        let bits = deal.total().bits() as f64;
        let words = limbs(bits);
        let steps = groups_by_step(deal);
        let groups: f64 = steps.iter().sum();
        let widest = steps.into_iter().fold(1.0, f64::max);
        let pairs = groups * branches * states;
        Shape {
            low,
            high,
            support: joint,
            bits,
            steps: pairs * (words + DEAL_PAIR_OVERHEAD),
            peak: widest * states,
        }
        .with_support(joint)
    }
}

/// The range of the sums hand `hand` of `deal` can hold: its size times the
/// deck's lowest and highest values.
pub(super) fn hand_sums(deal: &Deal, hand: usize) -> (f64, f64) {
    let cards = deal.deck().cards();
    let size = f64::from(deal.hands()[hand]);
    let (lowest, highest) = (cards[0].0 as f64, cards[cards.len() - 1].0 as f64);
    (size * lowest, size * highest)
}

/// How many groups of states (vectors of the cards still to come in each hand)
/// the walk of `deal` holds at each of its values: those whose cards taken so
/// far the values passed can have given, and whose cards still to come the
/// values after can give.
fn groups_by_step(deal: &Deal) -> Vec<f64> {
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
        steps.push(ways[least.min(most)..=most].iter().sum());
    }
    steps
}

/// `C(n, k)` in floating point.
fn binomial(n: f64, k: f64) -> f64 {
    (0..k as u64).fold(1.0, |c, i| c * (n - i as f64) / (i as f64 + 1.0))
}
