//! The tokens of the notation: whitespace, numbers, names and keywords, and the
//! operator symbols, each a small parser the grammar is built from.

use chumsky::input::InputRef;
use chumsky::prelude::*;

use super::raw_error::{Extra, Label, RawError};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::Outcome;
use crate::dice::notation::error::{Expected, Problem};

/// Any number of whitespace characters.
///
/// Written by hand rather than as `any().filter(…).repeated()`: whitespace is
/// skipped before nearly every token, and this way skipping it never fails, so it
/// builds no error for the parse to merge (a failed whitespace character would only
/// have added a hidden label at the place where the next token is tried anyway).
#[allow(
    clippy::result_large_err,
    reason = "chumsky fixes the error type; it is large so that failing needs no allocation"
)]
pub(super) fn whitespace<'src>() -> impl Parser<'src, &'src str, (), Extra> + Clone {
    custom(|input: &mut InputRef<'src, '_, &'src str, Extra>| {
        while input.peek().is_some_and(char::is_whitespace) {
            input.skip();
        }
        Ok(())
    })
}

/// One of the single-character arithmetic operators given.
pub(super) fn operator<'src>(
    ops: &'static [(char, BinaryOp)],
) -> impl Parser<'src, &'src str, BinaryOp, Extra> + Clone {
    any()
        .filter_map(move |c| ops.iter().find(|(symbol, _)| *symbol == c).map(|p| p.1))
        .labelled(Expected::Operator)
}

/// `< <= > >= == !=`; a lone `=` is reported, then read as `==` to go on.
pub(super) fn comparison_operator<'src>() -> impl Parser<'src, &'src str, BinaryOp, Extra> + Clone {
    use BinaryOp::{Ge, Gt, Le, Lt};
    let alternatives = choice((
        ordering(Lt, Le, Gt, Ge),
        just("!=").to(BinaryOp::Ne),
        just('=')
            .ignore_then(just('=').labelled(Label::Hidden).or_not())
            .validate(|second, e, emitter| {
                if second.is_none() {
                    emitter.emit(RawError::problem(e.span(), Problem::SingleEquals));
                }
                BinaryOp::Eq
            }),
    ));
    starts_with_one_of("<>!=")
        .ignore_then(alternatives)
        .labelled(Expected::Operator)
}

/// Succeeds, reading nothing, where the next character is one of `first`, and
/// otherwise fails with an unlabelled error at that character.
///
/// Put before a labelled choice whose alternatives all start with one of `first`,
/// it gives the same error as trying them all (the label replaces what they would
/// have expected) without trying them: after every operand and every dice term the
/// parser asks for an operator or a modifier, and usually finds neither.
#[allow(
    clippy::result_large_err,
    reason = "chumsky fixes the error type; it is large so that failing needs no allocation"
)]
pub(super) fn starts_with_one_of<'src>(
    first: &'static str,
) -> impl Parser<'src, &'src str, (), Extra> + Clone {
    custom(move |input: &mut InputRef<'src, '_, &'src str, Extra>| {
        if input.peek().is_some_and(|c| first.contains(c)) {
            return Ok(());
        }
        let before = input.save();
        let found = input.next();
        let span = input.span_since(before.cursor());
        input.rewind(before);
        Err(RawError::unexpected(found, span))
    })
}

/// `<`, `<=`, `>`, `>=`, read as the caller's four values.
pub(super) fn ordering<'src, T: Copy + 'src>(
    lt: T,
    le: T,
    gt: T,
    ge: T,
) -> impl Parser<'src, &'src str, T, Extra> + Clone {
    let or_equal = || {
        just('=')
            .labelled(Label::Hidden)
            .or_not()
            .map(|e| e.is_some())
    };
    choice((
        just('<')
            .ignore_then(or_equal())
            .map(move |eq| if eq { le } else { lt }),
        just('>')
            .ignore_then(or_equal())
            .map(move |eq| if eq { ge } else { gt }),
    ))
}

/// An optionally negative integer literal, `-12` (inside conditions and face lists).
pub(super) fn signed<'src>() -> impl Parser<'src, &'src str, Outcome, Extra> + Clone {
    just('-')
        .or_not()
        .then(digits().labelled(Expected::Number))
        .to_slice()
        .validate(parse_number::<Outcome>)
        .labelled(Expected::Number)
}

/// An unsigned integer literal of type `T`.
pub(super) fn literal<'src, T>() -> impl Parser<'src, &'src str, T, Extra> + Clone
where
    T: std::str::FromStr + Default + 'src,
{
    digits()
        .validate(parse_number::<T>)
        .labelled(Expected::Number)
}

/// Reads a literal of digits, reporting one that does not fit (and reading 0).
fn parse_number<'src, T: std::str::FromStr + Default>(
    text: &'src str,
    e: &mut chumsky::input::MapExtra<'src, '_, &'src str, Extra>,
    emitter: &mut chumsky::input::Emitter<RawError>,
) -> T {
    text.parse().unwrap_or_else(|_| {
        emitter.emit(RawError::problem(e.span(), Problem::NumberTooLarge));
        T::default()
    })
}

/// One or more ASCII digits.
///
/// Written by hand for the same reason as [`whitespace`]: a number ends at the
/// first character that is not a digit, which needs no error; without any digit it
/// fails with an unlabelled error at the character found, which the callers label.
#[allow(
    clippy::result_large_err,
    reason = "chumsky fixes the error type; it is large so that failing needs no allocation"
)]
fn digits<'src>() -> impl Parser<'src, &'src str, &'src str, Extra> + Clone {
    custom(|input: &mut InputRef<'src, '_, &'src str, Extra>| {
        let start = input.cursor();
        while input.peek().is_some_and(|c| c.is_ascii_digit()) {
            input.skip();
        }
        let digits: &str = input.slice_since(&start..);
        if !digits.is_empty() {
            return Ok(digits);
        }
        let found = input.next();
        let span = input.span_since(&start);
        Err(RawError::unexpected(found, span))
    })
}

/// Whether `c` may continue a name.
pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A name: an ASCII letter or `_`, then letters, digits and `_`.
#[allow(
    clippy::result_large_err,
    reason = "chumsky fixes the error type; it is large so that failing needs no allocation"
)]
pub(super) fn identifier<'src>() -> impl Parser<'src, &'src str, &'src str, Extra> + Clone {
    custom(|input: &mut InputRef<'src, '_, &'src str, Extra>| {
        let start = input.cursor();
        if input
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            while input.peek().is_some_and(is_name_char) {
                input.skip();
            }
            return Ok(input.slice_since(&start..));
        }
        let found = input.next();
        let span = input.span_since(&start);
        Err(RawError::unexpected(found, span))
    })
    .labelled(Expected::Name)
}

/// The word `word` (`and`, `or`, `not`) not followed by another letter of a name.
pub(super) fn keyword<'src>(word: &'static str) -> impl Parser<'src, &'src str, (), Extra> + Clone {
    just(word)
        .then(any().filter(|c: &char| is_name_char(*c)).not())
        .ignored()
        .labelled(Expected::Operator)
}
