//! The tokens of the notation: numbers, signed numbers and names.

use std::str::FromStr;

use super::input::{Fail, Input, Parsed};
use crate::dice::die::Outcome;
use crate::dice::notation::error::{Expected, Problem};

/// Moves past a run of ASCII digits and returns how many there were.
fn digits(input: &mut Input<'_>) -> usize {
    let mut n = 0;
    while input.byte(n).is_some_and(|b| b.is_ascii_digit()) {
        n += 1;
    }
    input.advance(n);
    n
}

/// An unsigned integer literal; one that does not fit is reported and read as 0.
pub(super) fn literal<T: FromStr + Default>(input: &mut Input<'_>) -> Parsed<T> {
    let start = input.pos();
    if digits(input) == 0 {
        input.want(&[Expected::Number]);
        return Err(Fail);
    }
    Ok(parse_number(input, start))
}

/// An optionally negative integer literal, `-12` (in conditions and face lists).
pub(super) fn signed(input: &mut Input<'_>) -> Parsed<Outcome> {
    let start = input.pos();
    input.eat(b'-');
    if digits(input) == 0 {
        input.want(&[Expected::Number]);
        return Err(Fail);
    }
    Ok(parse_number(input, start))
}

/// Reads the literal from `start` to the position, reporting one that does not fit.
fn parse_number<T: FromStr + Default>(input: &mut Input<'_>, start: usize) -> T {
    input.since(start).parse().unwrap_or_else(|_| {
        input.problem(start..input.pos(), Problem::NumberTooLarge);
        T::default()
    })
}

/// Whether `c` may continue a name.
pub(super) fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// How long the name starting at the position is (0 if none does): an ASCII
/// letter or `_`, then letters, digits and `_`.
pub(super) fn name_len(input: &Input<'_>) -> usize {
    if !input
        .byte(0)
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
    {
        return 0;
    }
    let mut n = 1;
    while input.byte(n).is_some_and(is_name_char) {
        n += 1;
    }
    n
}

/// Moves past a name and returns it, if one starts at the position.
pub(super) fn identifier<'a>(input: &mut Input<'a>) -> Option<&'a str> {
    let start = input.pos();
    match name_len(input) {
        0 => None,
        n => {
            input.advance(n);
            Some(input.since(start))
        }
    }
}

/// Whether the keyword `word` (`and`, `or`, `not`) comes next as a whole name.
pub(super) fn at_keyword(input: &Input<'_>, word: &str) -> bool {
    name_len(input) == word.len() && input.looking_at(word)
}
