//! Decks and deals: cards drawn without replacement, exactly.
//!
//! A [`Deck`] is a multiset of card values (`deck{1..13:4}`: thirteen ranks, four
//! of each); a [`Deal`] hands out one or more hands from one shuffle of it. Any
//! [`Evaluator`] of pools reads a deal as it reads dice: each hand is a pool, and
//! at each card value it learns how many cards of it each hand holds. Matching
//! sets, straights, counts and sums of hands come from the same evaluators as
//! those of dice ([`Pattern`](super::evaluator::Pattern)). Cards of several
//! values (a rank and a suit, [`Deck::of_tuples`]) are read one value at a time
//! by [`AttributeReads`], every value of the same cards in one walk.
//!
//! # Design decisions
//! A deal is walked value by value, never hand by hand. With `c` copies of the
//! value and `r_i` cards still to come in hand `i`, the walk branches on how many
//! `k_i` of the copies each hand gets, with weight `c! / (k_1!·…·k_h!·(c−Σk)!)`
//! (the ways to choose which copies go where); equal `(state, cards still to
//! come)` pairs merge. Every path's weight and every sum is at most the number of
//! deals, `N! / (h_1!·…·h_h!·(N−Σh)!)`, so the count type is chosen once from
//! it. The branches depend on the cards still to come, not on the evaluator's
//! state, so they are made once per step for every state that shares them. The
//! work is polynomial in the deck and the hands: a 13-card hand from a standard
//! deck's ranks walks 13 values with at most 14 counts to come.

use rustc_hash::FxHashMap as HashMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use smallvec::SmallVec;

use super::count::{Count, CountType};
use super::die::{Die, DieError, MAX_DICE, Outcome};
use super::evaluator::{Evaluator, Final, Order};
use super::tuple::TupleCode;
use crate::control::Control;
use crate::with_count_type;

/// The most hands one deal may hand out.
pub const MAX_HANDS: usize = 8;

/// The most cards a deck may hold (the dice a pool may hold).
pub const MAX_CARDS: u64 = MAX_DICE;

/// A multiset of card values: how many copies of each value the deck holds.
///
/// # Example
/// ```
/// use fairdice::dice::deck::Deck;
///
/// let ranks = Deck::new((1..=13).map(|rank| (rank, 4)))?;
/// assert_eq!(ranks.len(), 52);
/// assert_eq!(ranks.copies(1), 4);
/// # Ok::<(), fairdice::DieError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Deck {
    /// `(value, copies)`, ascending by value, copies positive; for cards of
    /// several attributes, each card's values packed into one.
    cards: Vec<(Outcome, u32)>,
    len: u64,
    /// The packing of cards of several attributes; `None` for one.
    code: Option<TupleCode>,
}

impl Deck {
    /// A deck from `(value, copies)` pairs; repeated values add up, zero copies
    /// are dropped.
    ///
    /// # Errors
    /// [`DieError::EmptyDeck`] when no value has a copy, and
    /// [`DieError::TooManyDice`] past [`MAX_CARDS`] cards.
    pub fn new(pairs: impl IntoIterator<Item = (Outcome, u64)>) -> Result<Deck, DieError> {
        let mut merged: std::collections::BTreeMap<Outcome, u64> = Default::default();
        let mut len = 0u64;
        for (value, copies) in pairs {
            len = len.saturating_add(copies);
            if len > MAX_CARDS {
                return Err(DieError::TooManyDice {
                    count: len,
                    max: MAX_CARDS,
                });
            }
            if copies > 0 {
                *merged.entry(value).or_default() += copies;
            }
        }
        if len == 0 {
            return Err(DieError::EmptyDeck);
        }
        let cards = merged.into_iter().map(|(v, c)| (v, c as u32)).collect();
        Ok(Deck {
            cards,
            len,
            code: None,
        })
    }

    /// A deck of cards with several attributes each, a rank and a suit say:
    /// `(values, copies)` pairs, each card's values in the same order.
    /// Repeated cards add up, zero copies are dropped. Pool functions read one
    /// attribute of a hand at a time ([`AttributeReads`]).
    ///
    /// # Example
    /// ```
    /// use fairdice::dice::deck::Deck;
    ///
    /// let cards = (1..=13).flat_map(|rank| (1..=4).map(move |suit| (vec![rank, suit], 1)));
    /// let standard = Deck::of_tuples(2, cards)?;
    /// assert_eq!((standard.len(), standard.attributes()), (52, 2));
    /// assert_eq!(standard.attribute(1), (1..=4).map(|suit| (suit, 13)).collect::<Vec<_>>());
    /// # Ok::<(), fairdice::DieError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Deck::new`]; [`DieError::TupleValue`] for a value past what a card
    /// of `attributes` values holds.
    ///
    /// # Panics
    /// If `attributes` is outside 2 to [`MAX_TUPLE`](crate::dice::tuple::MAX_TUPLE),
    /// or a card has another number of values (the parser refuses both).
    pub fn of_tuples(
        attributes: usize,
        cards: impl IntoIterator<Item = (Vec<Outcome>, u64)>,
    ) -> Result<Deck, DieError> {
        let code = TupleCode::new(attributes);
        let packed = cards
            .into_iter()
            .map(|(values, copies)| {
                assert_eq!(values.len(), attributes, "a card of {attributes} values");
                Ok((code.pack_all(&values)?, copies))
            })
            .collect::<Result<Vec<_>, DieError>>()?;
        Ok(Deck {
            code: Some(code),
            ..Deck::new(packed)?
        })
    }

    /// How many values each card holds: 1, or its attributes'.
    pub fn attributes(&self) -> usize {
        self.code.map_or(1, TupleCode::size)
    }

    /// The packing of the cards' values, for cards of several attributes.
    pub fn code(&self) -> Option<TupleCode> {
        self.code
    }

    /// The values of attribute `index` (from 0) with the cards holding each,
    /// ascending: the deck as seen through that attribute alone.
    pub fn attribute(&self, index: usize) -> Vec<(Outcome, u64)> {
        let Some(code) = self.code else {
            return self.cards.iter().map(|&(v, c)| (v, u64::from(c))).collect();
        };
        let mut seen: std::collections::BTreeMap<Outcome, u64> = Default::default();
        for &(card, copies) in &self.cards {
            *seen.entry(code.value(card, index)).or_default() += u64::from(copies);
        }
        seen.into_iter().collect()
    }

    /// Attribute `index` of a card as the deck holds it (the card itself for
    /// cards of one value).
    pub fn value_of(&self, card: Outcome, index: usize) -> Outcome {
        self.code.map_or(card, |code| code.value(card, index))
    }

    /// How many cards the deck holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Never true: a deck holds at least one card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many copies of `value` the deck holds.
    pub fn copies(&self, value: Outcome) -> u32 {
        self.cards
            .binary_search_by_key(&value, |&(v, _)| v)
            .map_or(0, |i| self.cards[i].1)
    }

    /// The values and their copies, ascending.
    pub fn cards(&self) -> &[(Outcome, u32)] {
        &self.cards
    }
}

/// One shuffle of a deck dealt into hands of given sizes (the rest of the deck
/// stays undealt).
///
/// # Example
/// Two players dealt five cards each: how often does the first hold more hearts?
/// ```
/// use fairdice::Control;
/// use fairdice::dice::deck::{Deal, Deck};
/// use fairdice::dice::evaluator::{Evaluator, Final, Order};
/// use fairdice::{DieError, Outcome};
///
/// // 1 is a heart, 0 any other card.
/// let deck = Deck::new([(1, 13), (0, 39)])?;
/// let deal = Deal::new(deck, &[5, 5])?;
///
/// struct MoreHearts;
/// impl Evaluator for MoreHearts {
///     type State = i64;
///     type Output = Outcome;
///     fn initial_state(&self) -> i64 { 0 }
///     fn next_state(&self, s: &i64, card: Outcome, held: &[u32]) -> Result<i64, DieError> {
///         let lead = i64::from(held[0]) - i64::from(held[1]);
///         Ok(if card == 1 { s + lead } else { *s })
///     }
///     fn final_outcome(&self, s: &i64) -> Result<Final<Outcome>, DieError> {
///         Ok(Final::Value(Outcome::from(*s > 0)))
///     }
/// }
///
/// let more = deal.evaluate_die(&MoreHearts, &Control::new())?;
/// assert_eq!(more.total(), deal.total());
/// assert_eq!(more.probability(1).to_string(), "24134279/67339720");
/// # Ok::<(), fairdice::DieError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Deal {
    deck: Deck,
    hands: Vec<u32>,
}

impl Deal {
    /// `hands[i]` cards to hand `i`, all from one shuffle of `deck`.
    ///
    /// # Errors
    /// [`DieError::DealTooLarge`] when the hands need more cards than the deck
    /// holds, [`DieError::TooManyHands`] past [`MAX_HANDS`] hands or with none.
    pub fn new(deck: Deck, hands: &[u64]) -> Result<Deal, DieError> {
        if hands.is_empty() || hands.len() > MAX_HANDS {
            return Err(DieError::TooManyHands {
                hands: hands.len(),
                max: MAX_HANDS,
            });
        }
        let cards = hands.iter().fold(0u64, |a, &h| a.saturating_add(h));
        if cards > deck.len() {
            return Err(DieError::DealTooLarge {
                cards,
                deck: deck.len(),
            });
        }
        let hands = hands.iter().map(|&h| h as u32).collect();
        Ok(Deal { deck, hands })
    }

    /// The deck dealt from.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The sizes of the hands.
    pub fn hands(&self) -> &[u32] {
        &self.hands
    }

    /// How many different deals there are, counting which cards of the deck go
    /// to which hand: `N! / (h_1!·…·h_h!·(N−Σh)!)`, the total of every
    /// distribution of a deal.
    pub fn total(&self) -> BigUint {
        let mut total = BigUint::one();
        let mut left = self.deck.len();
        for &h in &self.hands {
            total *= binomial_big(left, u64::from(h));
            left -= u64::from(h);
        }
        total
    }

    /// The exact distribution of `evaluator` over every deal: each output with
    /// the number of deals giving it, ascending; deals the evaluator rerolls are
    /// left out.
    ///
    /// # Errors
    /// The evaluator's errors; [`DieError::Stopped`] past the control's budget or
    /// once it is cancelled.
    pub fn evaluate<E: Evaluator>(
        &self,
        evaluator: &E,
        control: &Control,
    ) -> Result<Vec<(E::Output, BigUint)>, DieError> {
        let bits = self.total().bits();
        with_count_type!(CountType::for_bits(bits), C => self.walk::<E, C>(evaluator, control))
    }

    /// [`evaluate`](Self::evaluate) for an evaluator of integer outcomes, as a [`Die`].
    ///
    /// # Errors
    /// As [`evaluate`](Self::evaluate); [`DieError::RerollsEverything`] when
    /// every deal is rerolled.
    pub fn evaluate_die<E: Evaluator<Output = Outcome>>(
        &self,
        evaluator: &E,
        control: &Control,
    ) -> Result<Die, DieError> {
        let outcomes = self.evaluate(evaluator, control)?;
        if outcomes.is_empty() {
            return Err(DieError::RerollsEverything);
        }
        Die::new(outcomes)
    }

    /// The walk over the deck's values in the evaluator's order, in counts of `C`.
    fn walk<E: Evaluator, C: Count>(
        &self,
        evaluator: &E,
        control: &Control,
    ) -> Result<Vec<(E::Output, BigUint)>, DieError> {
        let mut meter = control.meter();
        let mut values: Vec<(Outcome, u32)> = self.deck.cards.clone();
        if evaluator.order() == Order::Descending {
            values.reverse();
        }
        let mut binomials = Binomials::new(self.hands.iter().copied().max().unwrap_or(0));
        // The states, grouped by the cards each hand still has to come.
        let mut groups: HashMap<Hand, HashMap<E::State, C>> = HashMap::default();
        let start: Hand = self.hands.iter().copied().collect();
        groups
            .entry(start)
            .or_default()
            .insert(evaluator.initial_state(), C::one());
        let mut later: u64 = self.deck.len();
        for &(value, copies) in &values {
            later -= u64::from(copies);
            let mut next: HashMap<Hand, HashMap<E::State, C>> = HashMap::default();
            for (to_come, states) in groups {
                control.check()?;
                let branches: Vec<(Hand, C)> = branches(&to_come, copies, later, &mut binomials);
                meter.charge((branches.len() as u64).saturating_mul(states.len() as u64))?;
                for (held, ways) in &branches {
                    let left: Hand = to_come.iter().zip(held).map(|(r, k)| r - k).collect();
                    let target = next.entry(left).or_default();
                    for (state, weight) in &states {
                        let after = evaluator.next_state(state, value, held)?;
                        target
                            .entry(after)
                            .or_insert_with(C::zero)
                            .add_mul(weight, ways);
                    }
                }
            }
            groups = next;
        }
        meter.settle()?;
        let mut outcomes: std::collections::BTreeMap<E::Output, BigUint> = Default::default();
        for (to_come, states) in groups {
            debug_assert!(
                to_come.iter().all(|&r| r == 0),
                "every hand is dealt in full"
            );
            for (state, weight) in states {
                if let Final::Value(output) = evaluator.final_outcome(&state)? {
                    let entry = outcomes.entry(output).or_insert_with(BigUint::zero);
                    *entry += weight.to_big();
                }
            }
        }
        Ok(outcomes.into_iter().collect())
    }
}

/// Cards still to come in each hand, or cards each hand takes of one value.
type Hand = SmallVec<[u32; 4]>;

/// Every way the hands can take some of `copies` copies of a value, given the
/// cards `to_come` in each and the `later` cards of the values after it (which
/// must be able to fill what is left), with its number of ways. Made once per
/// group of states, so the ways are worked out in big integers and narrowed only
/// for the branches kept (a way that leaves a hand unfillable can exceed `C`).
fn branches<C: Count>(
    to_come: &Hand,
    copies: u32,
    later: u64,
    binomials: &mut Binomials,
) -> Vec<(Hand, C)> {
    let mut out = Vec::new();
    let mut split: Hand = SmallVec::from_elem(0, to_come.len());
    let needed: u64 = to_come.iter().map(|&r| u64::from(r)).sum();
    let mut fill = Fill {
        to_come,
        later,
        binomials,
        split: &mut split,
        out: &mut out,
    };
    fill.from(0, copies, needed, &BigUint::one());
    out
}

/// The walk of [`branches`] over the hands.
struct Fill<'a, C> {
    to_come: &'a Hand,
    later: u64,
    binomials: &'a mut Binomials,
    split: &'a mut Hand,
    out: &'a mut Vec<(Hand, C)>,
}

impl<C: Count> Fill<'_, C> {
    /// The splits from hand `at` on, `copies` copies still free, `needed` cards
    /// still to come in the hands from `at` on, `ways` the ways so far.
    fn from(&mut self, at: usize, copies: u32, needed: u64, ways: &BigUint) {
        if at == self.to_come.len() {
            if needed <= self.later {
                self.out.push((self.split.clone(), C::from_big(ways)));
            }
            return;
        }
        for k in 0..=self.to_come[at].min(copies) {
            self.split[at] = k;
            let weight = ways * self.binomials.get(copies, k);
            self.from(at + 1, copies - k, needed - u64::from(k), &weight);
        }
        self.split[at] = 0;
    }
}

/// Binomial coefficients `C(n, k)`, a row for each `n` met, `k` up to the
/// largest hand.
struct Binomials {
    largest: u32,
    rows: HashMap<u32, Vec<BigUint>>,
}

impl Binomials {
    fn new(largest: u32) -> Binomials {
        Binomials {
            largest,
            rows: HashMap::default(),
        }
    }

    fn get(&mut self, n: u32, k: u32) -> &BigUint {
        let largest = self.largest;
        let row = self.rows.entry(n).or_insert_with(|| {
            let mut row = vec![BigUint::one()];
            for k in 1..=n.min(largest) {
                let next = &row[k as usize - 1] * (n - k + 1) / k;
                row.push(next);
            }
            row
        });
        &row[k as usize]
    }
}

/// `C(n, k)` as a big integer.
fn binomial_big(n: u64, k: u64) -> BigUint {
    let k = k.min(n - k);
    let mut c = BigUint::one();
    for i in 0..k {
        c = c * (n - i) / (i + 1);
    }
    c
}

mod attributes;
pub use attributes::{AttributeRead, AttributeReads};

#[cfg(test)]
mod tests;
