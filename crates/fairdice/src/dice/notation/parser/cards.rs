//! Decks and deals: `deal(deck{1..13:4}, 5)`, `deal(deck{1:24, 0:36}, 7)`,
//! `deal(deck{1:13, 0:39}, 5, 5)`, `deal(deck{(1..13, 1..4)}, 5)`.
//!
//! # Design decisions
//! A deck is written out, value by value: a card value or a range of them, and
//! after `:` how many copies of each (one if left out). A card of several
//! attributes is a tuple, each place a value or a range, and the deck holds
//! every card of their product (`(1..13, 1..4)`: 52 cards); every card of a
//! deck has as many attributes. A hand's size is any
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
use crate::dice::tuple::MAX_TUPLE;

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
    // After a problem, a deal of no card stands in for the one written.
    let none = || Deal::new(Deck::new([(0, 1)]).expect("one card"), &[0]).expect("no card");
    let deal = match cards.map(|deck| Deal::new(deck, &hands)) {
        Ok(Ok(deal)) => deal,
        Ok(Err(error)) => {
            input.problem(span.clone(), Problem::Cards(error.to_string()));
            none()
        }
        Err(problem) => {
            input.problem(deck_span, problem);
            none()
        }
    };
    Ok(Expr {
        kind: ExprKind::Deal(deal),
        span,
    })
}

/// `deck{1..13:4}` or `deck{(1..13, 1..4)}`: the cards with their copies, or
/// what is wrong with them.
fn deck(input: &mut Input<'_>) -> Parsed<Result<Deck, Problem>> {
    if !input.word("deck") {
        return Err(Fail);
    }
    input.expect(b'{')?;
    let mut items = vec![copies(input)?];
    input.list_end(&mut items, copies, b'}')?;
    let attributes = items[0].0.len();
    if items.iter().any(|(ranges, _)| ranges.len() != attributes) {
        return Ok(Err(Problem::CardShapes));
    }
    let mut total: u128 = 0;
    for (ranges, copies) in &items {
        let cards = ranges.iter().fold(1u128, |n, &(low, high)| {
            n.saturating_mul((i128::from(high) - i128::from(low) + 1).max(0) as u128)
        });
        total = total.saturating_add(cards.saturating_mul(u128::from(*copies)));
        if total > u128::from(MAX_CARDS) {
            // Deck::new names the limit; the cards need not be listed.
            let too_many = Deck::new([(0, MAX_CARDS + 1)]).expect_err("past the limit");
            return Ok(Err(Problem::Cards(too_many.to_string())));
        }
    }
    let deck = if attributes == 1 {
        let cards = items
            .iter()
            .flat_map(|(ranges, copies)| (ranges[0].0..=ranges[0].1).map(|v| (v, *copies)));
        Deck::new(cards)
    } else {
        let mut cards = Vec::new();
        for (ranges, copies) in &items {
            for_each_card(ranges, &mut Vec::with_capacity(attributes), &mut |card| {
                cards.push((card.to_vec(), *copies));
            });
        }
        Deck::of_tuples(attributes, cards)
    };
    Ok(deck.map_err(|error| Problem::Cards(error.to_string())))
}

/// Every card of the product of `ranges`, after the values in `prefix`.
fn for_each_card(
    ranges: &[(Outcome, Outcome)],
    prefix: &mut Vec<Outcome>,
    each: &mut impl FnMut(&[Outcome]),
) {
    let Some((&(low, high), rest)) = ranges.split_first() else {
        each(prefix);
        return;
    };
    for value in low..=high {
        prefix.push(value);
        for_each_card(rest, prefix, each);
        prefix.pop();
    }
}

/// `5`, `1..13`, `(1..13, 1..4)` (a card of several attributes, each value or
/// range of them) or any of them followed by `:copies`.
fn copies(input: &mut Input<'_>) -> Parsed<(Vec<(Outcome, Outcome)>, u64)> {
    input.whitespace();
    let ranges = if input.eat(b'(') {
        let mut ranges = vec![face_range(input)?];
        input.list_end(&mut ranges, face_range, b')')?;
        if ranges.len() > MAX_TUPLE {
            let at = input.pos() - 1;
            input.problem(at..at + 1, Problem::TupleSize { max: MAX_TUPLE });
            ranges.truncate(MAX_TUPLE);
        }
        ranges
    } else {
        vec![face_range(input)?]
    };
    input.whitespace();
    let copies = input
        .attempt(|input| {
            input.expect(b':')?;
            input.whitespace();
            literal::<u64>(input)
        })
        .unwrap_or(1);
    input.whitespace();
    Ok((ranges, copies))
}
