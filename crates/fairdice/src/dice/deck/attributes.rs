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
    reads: Vec<AttributeRead>,
}

impl AttributeReads {
    /// `reads` of a deck whose cards are packed by `code`
    /// ([`Deck::code`](super::Deck::code)).
    pub fn new(code: TupleCode, reads: Vec<AttributeRead>) -> AttributeReads {
        AttributeReads { code, reads }
    }
}

/// The state of one [`AttributeRead`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReadState {
    /// Of the first attribute: the pattern's state over the values that have
    /// ended, and the value still being counted with the hand's cards of it.
    First {
        /// The pattern's state.
        pattern: <Pattern as Evaluator>::State,
        /// The value of the last cards the hand took, and how many.
        open: Option<(Outcome, u32)>,
    },
    /// Of a later attribute: the hand's cards of each value, ascending.
    Later(SmallVec<[(Outcome, u32); 4]>),
}

impl Evaluator for AttributeReads {
    type State = Vec<ReadState>;
    type Output = Vec<Outcome>;

    fn initial_state(&self) -> Vec<ReadState> {
        self.reads
            .iter()
            .map(|read| match read.attribute {
                0 => ReadState::First {
                    pattern: read.pattern.initial_state(),
                    open: None,
                },
                _ => ReadState::Later(SmallVec::new()),
            })
            .collect()
    }

    fn next_state(
        &self,
        state: &Vec<ReadState>,
        card: Outcome,
        counts: &[u32],
    ) -> Result<Vec<ReadState>, DieError> {
        let mut next = state.clone();
        for (read, s) in self.reads.iter().zip(next.iter_mut()) {
            let held = counts[read.hand];
            let value = self.code.value(card, read.attribute);
            match s {
                ReadState::First { pattern, open } => {
                    let mut so_far = 0;
                    if let Some((last, count)) = *open {
                        if last == value {
                            so_far = count;
                        } else {
                            *pattern = read.pattern.next_state(pattern, last, &[count])?;
                        }
                        *open = None;
                    }
                    if so_far + held > 0 {
                        *open = Some((value, so_far + held));
                    }
                }
                ReadState::Later(_) if held == 0 => {}
                ReadState::Later(seen) => match seen.binary_search_by_key(&value, |&(v, _)| v) {
                    Ok(at) => seen[at].1 += held,
                    Err(at) => seen.insert(at, (value, held)),
                },
            }
        }
        Ok(next)
    }

    fn final_outcome(&self, state: &Vec<ReadState>) -> Result<Final<Vec<Outcome>>, DieError> {
        let mut values = Vec::with_capacity(self.reads.len());
        for (read, s) in self.reads.iter().zip(state) {
            let end = match s {
                ReadState::First { pattern, open } => match *open {
                    Some((last, count)) => read.pattern.next_state(pattern, last, &[count])?,
                    None => pattern.clone(),
                },
                ReadState::Later(seen) => {
                    let mut walked = read.pattern.initial_state();
                    for &(value, count) in seen {
                        walked = read.pattern.next_state(&walked, value, &[count])?;
                    }
                    walked
                }
            };
            let Final::Value(value) = read.pattern.final_outcome(&end)? else {
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
