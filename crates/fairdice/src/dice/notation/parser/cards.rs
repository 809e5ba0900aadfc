//! Decks and deals: `deal(deck{1..13:4}, 5)`, `deal(deck{1:24, 0:36}, 7)`,
//! `deal(deck{1:13, 0:39}, 5, 5)`.
//!
//! # Design decisions
//! A deck is written out, value by value: a card value or a range of them, and
//! after `:` how many copies of each (one if left out). A hand's size is any
//! expression without dice (`deal(d, 2*5)`); a rolled size would make every
//! deal a mixture, which the hands' names could not follow. The deal is built
//! as it is read, so a hand larger than the deck is refused with a caret under
//! the deal, before any work.

use super::dice::face_range;
use super::expression::expression;
use super::input::{Fail, Input, Parsed};
use super::lexical::literal;
use crate::dice::deck::{Deal, Deck, MAX_CARDS};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{Expr, ExprKind};
use crate::dice::notation::error::Problem;

/// `deal(deck, size, …)` from `deal` at `start`, the position at its `(`.
pub(super) fn deal(input: &mut Input<'_>, start: usize) -> Parsed<Expr> {
    input.expect(b'(')?;
    input.whitespace();
    let deck_start = input.pos();
    let cards = deck(input)?;
    let deck_span = deck_start..input.pos();
    let mut sizes: Vec<Expr> = Vec::new();
    input.whitespace();
    input.expect(b',')?;
    sizes.push(expression(input)?);
    input.list_end(&mut sizes, expression, b')')?;
    let span = start..input.pos();
    let mut hands = Vec::with_capacity(sizes.len());
    for size in &sizes {
        match size.constant() {
            Some(n) if n >= 0 => hands.push(n as u64),
            _ => {
                input.problem(size.span.clone(), Problem::HandSize);
                hands.push(0);
            }
        }
    }
    let deck = match Deck::new(cards) {
        Ok(deck) => deck,
        Err(error) => {
            input.problem(deck_span, Problem::Cards(error.to_string()));
            Deck::new([(0, 1)]).expect("one card")
        }
    };
    let deal = match Deal::new(deck, &hands) {
        Ok(deal) => deal,
        Err(error) => {
            input.problem(span.clone(), Problem::Cards(error.to_string()));
            Deal::new(Deck::new([(0, 1)]).expect("one card"), &[0]).expect("no card")
        }
    };
    Ok(Expr {
        kind: ExprKind::Deal(deal),
        span,
    })
}

/// `deck{1..13:4}`: card values with their copies.
fn deck(input: &mut Input<'_>) -> Parsed<Vec<(Outcome, u64)>> {
    if !input.word("deck") {
        return Err(Fail);
    }
    input.expect(b'{')?;
    let mut items = vec![copies(input)?];
    input.list_end(&mut items, copies, b'}')?;
    let mut cards = Vec::new();
    let mut total: u128 = 0;
    for (low, high, copies) in items {
        total += (i128::from(high) - i128::from(low) + 1).max(0) as u128 * u128::from(copies);
        if total > u128::from(MAX_CARDS) {
            // Deck::new names the limit; the values need not be listed.
            return Ok(vec![(0, MAX_CARDS + 1)]);
        }
        cards.extend((low..=high).map(|value| (value, copies)));
    }
    Ok(cards)
}

/// `5`, `1..13` or either followed by `:copies`.
fn copies(input: &mut Input<'_>) -> Parsed<(Outcome, Outcome, u64)> {
    let (low, high) = face_range(input)?;
    input.whitespace();
    let copies = input
        .attempt(|input| {
            input.expect(b':')?;
            input.whitespace();
            literal::<u64>(input)
        })
        .unwrap_or(1);
    input.whitespace();
    Ok((low, high, copies))
}
