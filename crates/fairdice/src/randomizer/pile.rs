//! [`Pile`]: the cards a deck holds, either listed one by one or counted per
//! outcome.
//!
//! # Design decisions
//! A listed pile draws in `O(1)`: pick a held card uniformly and swap it behind
//! the last held one. That is as fast as a plain die, and the drawn cards stay in
//! the list behind the held ones, so putting every card back (a deck that runs
//! empty, or reshuffles) only moves the boundary. The future of a seeded run then
//! depends on the order of the list, not only on how many cards of each outcome
//! remain; so the order is part of a saved state ([`Pile::order`]), while an
//! analysis keys states by the counts alone (equal counts, equal next-sample
//! distributions). Piles too large to list (a deck of `base=10d10`) keep counts
//! in a [`SumTree`] and draw in `O(log n)`.

use super::sum_tree::SumTree;
use crate::rng::{self, Rng};

/// The most cards a pile lists one by one; larger piles are counted.
pub(crate) const MAX_LISTED: u64 = 1 << 16;

/// Cards per outcome, and how to draw one.
#[derive(Debug, Clone)]
pub(crate) enum Pile {
    /// The held cards (`cards[..held]`, outcome indices, tallied by `counts`),
    /// then the cards drawn since. `whole` is true when all of `cards` together
    /// is exactly the deck's set, so [`Pile::restock`] only has to move `held`
    /// back to the end.
    Listed {
        cards: Vec<u32>,
        held: usize,
        counts: Vec<u64>,
        whole: bool,
    },
    /// Cards per outcome only.
    Counted(SumTree<u64>),
}

impl Pile {
    /// A pile holding `counts[i]` cards of outcome `i`, listed (in outcome order)
    /// when `capacity`, the most cards it will ever hold, is small enough. It
    /// counts as filled with `counts` (see [`Pile::restock`]).
    pub(crate) fn new(counts: &[u64], capacity: u64) -> Pile {
        if capacity <= MAX_LISTED {
            let mut pile = Pile::Listed {
                cards: Vec::with_capacity(capacity as usize),
                held: 0,
                counts: vec![0; counts.len()],
                whole: false,
            };
            pile.add(counts);
            if let Pile::Listed { whole, .. } = &mut pile {
                *whole = true;
            }
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
            Pile::Listed { held, .. } => *held as u64,
            Pile::Counted(tree) => tree.total(),
        }
    }

    /// True when no card is held.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes a uniformly chosen card and returns its outcome. A listed pile, the
    /// common case, draws inline; a counted one out of line.
    #[inline(always)]
    pub(crate) fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        match self {
            Pile::Listed {
                cards,
                held,
                counts,
                ..
            } => {
                let position = rng::below(rng, *held as u64) as usize;
                *held -= 1;
                cards.swap(position, *held);
                let outcome = cards[*held] as usize;
                counts[outcome] -= 1;
                outcome
            }
            Pile::Counted(tree) => draw_counted(tree, rng),
        }
    }

    /// Takes a card of `outcome` (the last one held); false if there is none.
    pub(crate) fn remove(&mut self, outcome: usize) -> bool {
        match self {
            Pile::Listed {
                cards,
                held,
                counts,
                ..
            } => match cards[..*held].iter().rposition(|&c| c as usize == outcome) {
                Some(position) => {
                    *held -= 1;
                    cards.swap(position, *held);
                    counts[outcome] -= 1;
                    true
                }
                None => false,
            },
            Pile::Counted(tree) => {
                let held = tree.get(outcome);
                if held > 0 {
                    tree.set(outcome, held - 1);
                }
                held > 0
            }
        }
    }

    /// Adds `more[i]` cards of each outcome `i` (listed after the cards held, in
    /// outcome order). The drawn cards are forgotten.
    pub(crate) fn add(&mut self, more: &[u64]) {
        match self {
            Pile::Listed { .. } => {
                let listed: Vec<u32> = (0u32..)
                    .zip(more)
                    .flat_map(|(outcome, &k)| std::iter::repeat_n(outcome, k as usize))
                    .collect();
                self.add_listed(more, &listed);
            }
            Pile::Counted(tree) => tree.update_all(|i, held| held + more[i]),
        }
    }

    /// Adds the cards of `listed` (outcome indices), whose tally per outcome is
    /// `more`: a refill copies a prepared set in one go. The drawn cards are
    /// forgotten.
    pub(crate) fn add_listed(&mut self, more: &[u64], listed: &[u32]) {
        match self {
            Pile::Listed {
                cards,
                held,
                counts,
                whole,
            } => {
                cards.truncate(*held);
                cards.extend_from_slice(listed);
                for (count, &k) in counts.iter_mut().zip(more) {
                    *count += k;
                }
                *held = cards.len();
                *whole = false;
            }
            Pile::Counted(_) => self.add(more),
        }
    }

    /// Empties the pile, then adds `set` (listed as `set_list`). The pile
    /// remembers that it was filled with this set, for [`Pile::restock`].
    pub(crate) fn fill(&mut self, set: &[u64], set_list: &[u32]) {
        self.clear();
        self.add_listed(set, set_list);
        if let Pile::Listed { whole, .. } = self {
            *whole = true;
        }
    }

    /// Empties the pile, then adds `set`, as [`Pile::fill`] does; `set` must be
    /// the set the pile was last filled with. When every card since is still
    /// listed (drawn or held), putting them back is `O(1)` for the list (the
    /// held cards then stand in the order the draws left them).
    #[inline]
    pub(crate) fn restock(&mut self, set: &[u64], set_list: &[u32]) {
        match self {
            Pile::Listed {
                cards,
                held,
                counts,
                whole: true,
            } => {
                *held = cards.len();
                counts.copy_from_slice(set);
            }
            _ => self.fill(set, set_list),
        }
    }

    /// Empties the pile.
    pub(crate) fn clear(&mut self) {
        match self {
            Pile::Listed {
                cards,
                held,
                counts,
                whole,
            } => {
                cards.clear();
                *held = 0;
                counts.fill(0);
                *whole = false;
            }
            Pile::Counted(tree) => tree.update_all(|_, _| 0),
        }
    }

    /// Replaces the pile by `counts` cards per outcome (listed in outcome order);
    /// `set` is the deck's set.
    pub(crate) fn set_counts(&mut self, counts: &[u64], set: &[u64]) {
        self.clear();
        self.add(counts);
        if let Pile::Listed { whole, .. } = self {
            *whole = counts == set;
        }
    }

    /// The listed order of the held cards (outcome indices), if the pile is listed.
    pub(crate) fn order(&self) -> Option<&[u32]> {
        match self {
            Pile::Listed { cards, held, .. } => Some(&cards[..*held]),
            Pile::Counted(_) => None,
        }
    }

    /// The cards drawn since the pile last held the deck's whole set, when they
    /// make it up with the held cards (empty otherwise, and for a counted pile).
    pub(crate) fn drawn(&self) -> &[u32] {
        match self {
            Pile::Listed {
                cards,
                held,
                whole: true,
                ..
            } => &cards[*held..],
            _ => &[],
        }
    }

    /// Replaces a listed pile's cards by `order`, with `drawn` behind them (every
    /// entry a valid outcome index, checked by the caller). The drawn cards are
    /// kept only when they make up the deck's `set` with the held ones.
    pub(crate) fn set_order(&mut self, order: &[u32], drawn: &[u32], set: &[u64]) {
        if let Pile::Listed {
            cards,
            held,
            counts,
            whole,
        } = self
        {
            cards.clear();
            cards.extend_from_slice(order);
            *held = cards.len();
            counts.fill(0);
            for &c in order {
                counts[c as usize] += 1;
            }
            let mut tally = counts.clone();
            for &c in drawn {
                tally[c as usize] += 1;
            }
            *whole = tally == set;
            if *whole {
                cards.extend_from_slice(drawn);
            }
        }
    }
}

/// Equal when the same cards are held in the same order, with the same drawn
/// cards to put back (drawn cards that a refill forgets do not count).
impl PartialEq for Pile {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Pile::Listed { counts: a, .. }, Pile::Listed { counts: b, .. }) => {
                a == b && self.order() == other.order() && self.drawn() == other.drawn()
            }
            (Pile::Counted(a), Pile::Counted(b)) => a == b,
            _ => false,
        }
    }
}

/// Takes a uniformly chosen card of a counted pile: a point located in the tree.
#[inline(never)]
fn draw_counted<R: Rng + ?Sized>(tree: &mut SumTree<u64>, rng: &mut R) -> usize {
    let outcome = tree.find(rng::below(rng, tree.total()));
    tree.set(outcome, tree.get(outcome) - 1);
    outcome
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
            pile.set_counts(&[0, 0, 3], &[2, 1, 2]);
            assert_eq!(pile.counts(), [0, 0, 3]);
        }
    }

    #[test]
    fn listed_order_round_trips() {
        let mut pile = Pile::new(&[1, 1, 1], 6);
        assert_eq!(pile.order(), Some(&[0, 1, 2][..]));
        pile.set_order(&[2, 2, 0], &[], &[1, 1, 1]);
        assert_eq!(pile.counts(), [1, 0, 2]);
        assert_eq!(pile.order(), Some(&[2, 2, 0][..]));
        assert!(pile.drawn().is_empty());
    }

    #[test]
    fn restocking_puts_the_drawn_cards_back() {
        let set = [2, 1, 1];
        let set_list = [0, 0, 1, 2];
        let mut pile = Pile::new(&set, 4);
        let mut generator = rng::seeded(3);
        let first = pile.draw(&mut generator);
        let second = pile.draw(&mut generator);
        let mut drawn = pile.drawn().to_vec();
        drawn.sort_unstable();
        let mut expected = vec![first as u32, second as u32];
        expected.sort_unstable();
        assert_eq!(drawn, expected);
        pile.restock(&set, &set_list);
        assert_eq!(pile.counts(), set);
        assert_eq!(pile.len(), 4);
        // A pile restored to a state that is not a whole set forgets its drawn cards
        // and refills from the list.
        pile.set_order(&[2], &[0, 0], &set);
        assert!(pile.drawn().is_empty());
        pile.restock(&set, &set_list);
        assert_eq!(pile.order(), Some(&set_list[..]));
    }
}
