//! Pool functions of one attribute of a hand of cards with several (the ranks or
//! the suits of a poker hand), walked together over one deal.
//!
//! # Design decisions
//! A deck of cards with several attributes is walked card by card in the order
//! of their packed values: by the first attribute, then the next. Each card is
//! one value of the walk, so the walk itself does not change; what changes is
//! what a pattern sees:
//! - Of the first attribute, the cards come in order, so the pattern walks its
//!   values as each one ends: the state holds the value still being counted and
//!   the cards of it so far, and hands them on when a card of a higher value
//!   comes. The state stays as small as the pattern's.
//! - Of a later attribute, the cards come in no order of it, so the state counts
//!   the hand's cards of each of its values, and the pattern walks those counts
//!   at the end. With `v` values and a hand of `h` cards that is at most
//!   `C(h + v, v)` states (126 for a poker hand's suits).
//!
//! Two attributes of the same cards in one question (a straight flush: five
//! consecutive ranks, one suit) are read jointly, since every read walks the same
//! deal. A pattern of the ranks within one suit is not among the reads.

use smallvec::SmallVec;

use crate::dice::die::{DieError, Outcome};
use crate::dice::evaluator::{Evaluator, Final, Order, Pattern};
use crate::dice::tuple::TupleCode;

/// One pattern of one attribute of one hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeRead {
    /// The hand's index in the deal.
    pub hand: usize,
    /// The attribute's index in each card, from 0.
    pub attribute: usize,
    /// What is read of the hand's values of that attribute.
    pub pattern: Pattern,
}

/// Patterns of single attributes of the hands of one deal of cards with
/// several attributes: the result of a deal is their values in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeReads {
    code: TupleCode,
    /// The `(hand, attribute)` pairs read, each once, with the patterns
    /// reading each in order.
    views: Vec<(usize, usize, Vec<Pattern>)>,
    /// For each read, its view and its place among the view's patterns.
    places: Vec<(usize, usize)>,
}

impl AttributeReads {
    /// `reads` of a deck whose cards are packed by `code`
    /// ([`Deck::code`](super::Deck::code)).
    pub fn new(code: TupleCode, reads: Vec<AttributeRead>) -> AttributeReads {
        let mut views: Vec<(usize, usize, Vec<Pattern>)> = Vec::new();
        let places = reads
            .into_iter()
            .map(|read| {
                let at = views
                    .iter()
                    .position(|&(hand, attribute, _)| {
                        (hand, attribute) == (read.hand, read.attribute)
                    })
                    .unwrap_or_else(|| {
                        views.push((read.hand, read.attribute, Vec::new()));
                        views.len() - 1
                    });
                views[at].2.push(read.pattern);
                (at, views[at].2.len() - 1)
            })
            .collect();
        AttributeReads {
            code,
            views,
            places,
        }
    }
}

/// What a deal has shown one attribute of one hand so far.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ViewState {
    /// Of the first attribute: the states of the patterns reading it, over the
    /// values that have ended, and the value still being counted with the
    /// hand's cards of it.
    First {
        /// The patterns' states, in order.
        patterns: SmallVec<[<Pattern as Evaluator>::State; 4]>,
        /// The value of the last cards the hand took, and how many.
        open: Option<(Outcome, u32)>,
    },
    /// Of a later attribute: the hand's cards of each value, ascending.
    Later(SmallVec<[(Outcome, u32); 4]>),
}

impl Evaluator for AttributeReads {
    type State = Vec<ViewState>;
    type Output = Vec<Outcome>;

    fn initial_state(&self) -> Self::State {
        self.views
            .iter()
            .map(|(_, attribute, patterns)| match attribute {
                0 => ViewState::First {
                    patterns: patterns.iter().map(Evaluator::initial_state).collect(),
                    open: None,
                },
                _ => ViewState::Later(SmallVec::new()),
            })
            .collect()
    }

    fn next_state(
        &self,
        state: &Self::State,
        card: Outcome,
        counts: &[u32],
    ) -> Result<Self::State, DieError> {
        let mut next = state.clone();
        for ((hand, attribute, read), s) in self.views.iter().zip(next.iter_mut()) {
            let held = counts[*hand];
            let value = self.code.value(card, *attribute);
            match s {
                ViewState::First { patterns, open } => {
                    let mut so_far = 0;
                    if let Some((last, count)) = *open {
                        if last == value {
                            so_far = count;
                        } else {
                            for (pattern, p) in read.iter().zip(patterns.iter_mut()) {
                                *p = pattern.next_state(p, last, &[count])?;
                            }
                        }
                        *open = None;
                    }
                    if so_far + held > 0 {
                        *open = Some((value, so_far + held));
                    }
                }
                ViewState::Later(_) if held == 0 => {}
                ViewState::Later(seen) => match seen.binary_search_by_key(&value, |&(v, _)| v) {
                    Ok(at) => seen[at].1 += held,
                    Err(at) => seen.insert(at, (value, held)),
                },
            }
        }
        Ok(next)
    }

    fn final_outcome(&self, state: &Self::State) -> Result<Final<Vec<Outcome>>, DieError> {
        let mut values = Vec::with_capacity(self.places.len());
        for &(view, place) in &self.places {
            let pattern = &self.views[view].2[place];
            let end = match &state[view] {
                ViewState::First { patterns, open } => match *open {
                    Some((last, count)) => pattern.next_state(&patterns[place], last, &[count])?,
                    None => patterns[place].clone(),
                },
                ViewState::Later(seen) => {
                    let mut walked = pattern.initial_state();
                    for &(value, count) in seen {
                        walked = pattern.next_state(&walked, value, &[count])?;
                    }
                    walked
                }
            };
            let Final::Value(value) = pattern.final_outcome(&end)? else {
                unreachable!("a pattern never rerolls");
            };
            values.push(value);
        }
        Ok(Final::Value(values))
    }

    fn order(&self) -> Order {
        Order::Ascending
    }
}
