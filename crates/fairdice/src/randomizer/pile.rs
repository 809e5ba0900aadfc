//! [`Pile`]: the cards a deck holds, either listed one by one or counted per
//! outcome.
//!
//! # Design decisions
//! A listed pile draws in `O(1)`: pick a position uniformly, take that card, move
//! the last card into the gap. That is as fast as a plain die, but the future of a
//! seeded run then depends on the order of the list, not only on how many cards
//! of each outcome remain; so the order is part of a saved state
//! ([`Pile::order`]), while an analysis keys states by the counts alone (equal
//! counts, equal next-sample distributions). Piles too large to list (a deck of
//! `base=10d10`) keep counts in a [`SumTree`] and draw in `O(log n)`.

use super::sum_tree::SumTree;
use crate::rng::{self, Generator};

/// The most cards a pile lists one by one; larger piles are counted.
pub(crate) const MAX_LISTED: u64 = 1 << 16;

/// Cards per outcome, and how to draw one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pile {
    /// Every card, as an outcome index; `counts` tallies them.
    Listed { cards: Vec<u32>, counts: Vec<u64> },
    /// Cards per outcome only.
    Counted(SumTree<u64>),
}

impl Pile {
    /// A pile holding `counts[i]` cards of outcome `i`, listed (in outcome order)
    /// when `capacity`, the most cards it will ever hold, is small enough.
    pub(crate) fn new(counts: &[u64], capacity: u64) -> Pile {
        if capacity <= MAX_LISTED {
            let mut pile = Pile::Listed {
                cards: Vec::with_capacity(capacity as usize),
                counts: vec![0; counts.len()],
            };
            pile.add(counts);
            pile
        } else {
            Pile::Counted(SumTree::new(counts))
        }
    }

    /// Cards left of each outcome.
    pub(crate) fn counts(&self) -> &[u64] {
        match self {
            Pile::Listed { counts, .. } => counts,
            Pile::Counted(tree) => tree.leaves(),
        }
    }

    /// Cards left in all.
    #[inline]
    pub(crate) fn len(&self) -> u64 {
        match self {
            Pile::Listed { cards, .. } => cards.len() as u64,
            Pile::Counted(tree) => tree.total(),
        }
    }

    /// Takes a uniformly chosen card and returns its outcome.
    #[inline]
    pub(crate) fn draw(&mut self, rng: &mut Generator) -> usize {
        match self {
            Pile::Listed { cards, counts } => {
                let position = rng::below(rng, cards.len() as u64) as usize;
                let outcome = cards.swap_remove(position) as usize;
                counts[outcome] -= 1;
                outcome
            }
            Pile::Counted(tree) => {
                let outcome = tree.find(rng::below(rng, tree.total()));
                tree.set(outcome, tree.get(outcome) - 1);
                outcome
            }
        }
    }

    /// Takes a card of `outcome` (the last one listed); false if there is none.
    pub(crate) fn remove(&mut self, outcome: usize) -> bool {
        match self {
            Pile::Listed { cards, counts } => {
                match cards.iter().rposition(|&c| c as usize == outcome) {
                    Some(position) => {
                        cards.swap_remove(position);
                        counts[outcome] -= 1;
                        true
                    }
                    None => false,
                }
            }
            Pile::Counted(tree) => {
                let held = tree.get(outcome);
                if held > 0 {
                    tree.set(outcome, held - 1);
                }
                held > 0
            }
        }
    }

    /// Adds `more[i]` cards of each outcome `i` (listed after the cards present,
    /// in outcome order).
    pub(crate) fn add(&mut self, more: &[u64]) {
        match self {
            Pile::Listed { cards, counts } => {
                for (outcome, &k) in more.iter().enumerate() {
                    cards.extend(std::iter::repeat_n(outcome as u32, k as usize));
                    counts[outcome] += k;
                }
            }
            Pile::Counted(tree) => tree.update_all(|i, held| held + more[i]),
        }
    }

    /// Adds the cards of `listed` (outcome indices), whose tally per outcome is
    /// `more`: a refill copies a prepared set in one go.
    #[inline]
    pub(crate) fn add_listed(&mut self, more: &[u64], listed: &[u32]) {
        match self {
            Pile::Listed { cards, counts } => {
                cards.extend_from_slice(listed);
                for (count, &k) in counts.iter_mut().zip(more) {
                    *count += k;
                }
            }
            Pile::Counted(_) => self.add(more),
        }
    }

    /// Empties the pile.
    pub(crate) fn clear(&mut self) {
        match self {
            Pile::Listed { cards, counts } => {
                cards.clear();
                counts.fill(0);
            }
            Pile::Counted(tree) => tree.update_all(|_, _| 0),
        }
    }

    /// Replaces the pile by `counts` cards per outcome (listed in outcome order).
    pub(crate) fn set_counts(&mut self, counts: &[u64]) {
        self.clear();
        self.add(counts);
    }

    /// The listed order of the cards (outcome indices), if the pile is listed.
    pub(crate) fn order(&self) -> Option<&[u32]> {
        match self {
            Pile::Listed { cards, .. } => Some(cards),
            Pile::Counted(_) => None,
        }
    }

    /// Replaces a listed pile's cards by `order` (every entry a valid outcome index,
    /// checked by the caller).
    pub(crate) fn set_order(&mut self, order: &[u32]) {
        if let Pile::Listed { cards, counts } = self {
            cards.clear();
            cards.extend_from_slice(order);
            counts.fill(0);
            for &c in order {
                counts[c as usize] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_and_counted_piles_agree_on_counts() {
        for capacity in [10, MAX_LISTED + 1] {
            let mut pile = Pile::new(&[2, 0, 1], capacity);
            assert_eq!(pile.order().is_some(), capacity <= MAX_LISTED);
            assert!(pile.remove(0));
            assert!(!pile.remove(1));
            pile.add(&[1, 1, 1]);
            assert_eq!(pile.counts(), [2, 1, 2]);
            assert_eq!(pile.len(), 5);
            let drawn = pile.draw(&mut rng::seeded(1));
            assert_eq!(pile.counts().iter().sum::<u64>(), 4);
            assert!(pile.counts()[drawn] < [2, 1, 2][drawn]);
            pile.set_counts(&[0, 0, 3]);
            assert_eq!(pile.counts(), [0, 0, 3]);
        }
    }

    #[test]
    fn listed_order_round_trips() {
        let mut pile = Pile::new(&[1, 1, 1], 6);
        assert_eq!(pile.order(), Some(&[0, 1, 2][..]));
        pile.set_order(&[2, 2, 0]);
        assert_eq!(pile.counts(), [1, 0, 2]);
        assert_eq!(pile.order(), Some(&[2, 2, 0][..]));
    }
}
