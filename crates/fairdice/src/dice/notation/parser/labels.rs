//! Labels at the end of an expression: `2d6+1 as {..6: miss, 7..9: weak hit,
//! 10..: strong hit}`.
//!
//! # Design decisions
//! A range is `7..9`, open at one end (`..6`, `10..`), one outcome (`12`), or a
//! comparison (`<=6`, `<7`, `>9`, `>=10`), which is the same open range. A label
//! is a quoted text (`"weak hit"`) or the words up to the next `,` or `}`. The
//! ranges are kept sorted; two that share an outcome are refused here, with a
//! caret under the later one. Whether every outcome has a label is known only
//! once the expression is computed (see `ast::Labels`).

use super::input::{Fail, Input, Parsed};
use super::lexical::signed;
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{Band, Expr, ExprKind, Labels};
use crate::dice::notation::error::{Expected, Problem};

/// The most ranges one list of labels may hold.
pub const MAX_LABELS: usize = 64;
/// The longest label, in characters.
pub const MAX_LABEL_LEN: usize = 60;

/// `as {range: label, …}` after `body`, the `as` already read.
pub(super) fn labelled(input: &mut Input<'_>, body: Expr) -> Parsed<Expr> {
    input.whitespace();
    let open = input.pos();
    input.expect(b'{')?;
    let mut bands = vec![band(input)?];
    input.list_end(&mut bands, band, b'}')?;
    let span = body.span.start..input.pos();
    let too_long = bands
        .iter()
        .any(|b| b.label.chars().count() > MAX_LABEL_LEN);
    if bands.len() > MAX_LABELS || too_long {
        let problem = Problem::TooManyLabels {
            max_labels: MAX_LABELS,
            max_len: MAX_LABEL_LEN,
        };
        input.problem(open..input.pos(), problem);
    }
    // Sorted by their lower ends (an open one first); each must start above
    // where the one before it ends.
    bands.sort_by_key(|band| band.low.unwrap_or(Outcome::MIN));
    for pair in bands.windows(2) {
        let overlaps = match (pair[0].high, pair[1].low) {
            (Some(high), Some(low)) => low <= high,
            _ => true,
        };
        if overlaps {
            input.problem(pair[1].span.clone(), Problem::LabelsOverlap);
        }
    }
    Ok(Expr {
        kind: ExprKind::Labelled {
            body: Box::new(body),
            labels: Labels::new(bands),
        },
        span,
    })
}

/// `range: label`.
fn band(input: &mut Input<'_>) -> Parsed<Band> {
    input.whitespace();
    let start = input.pos();
    let (low, high) = input.label(Some(Expected::Range), range)?;
    input.whitespace();
    input.expect(b':')?;
    input.whitespace();
    let label = label(input)?;
    let span = start..input.pos();
    if let (Some(low), Some(high)) = (low, high)
        && high < low
    {
        input.problem(span.clone(), Problem::EmptyRange { low, high });
    }
    Ok(Band {
        low,
        high,
        label,
        span,
    })
}

/// `7..9`, `..6`, `10..`, `12`, `<=6`, `<7`, `>9` or `>=10`: the smallest and
/// largest outcome held (`None`: unbounded).
fn range(input: &mut Input<'_>) -> Parsed<(Option<Outcome>, Option<Outcome>)> {
    if input.looking_at("..") {
        input.advance(2);
        input.whitespace();
        return Ok((None, Some(signed(input)?)));
    }
    for (symbol, below) in [("<=", true), (">=", false), ("<", true), (">", false)] {
        if input.looking_at(symbol) {
            input.advance(symbol.len());
            input.whitespace();
            let value = signed(input)?;
            // `<7` holds 6 and below; `>9` holds 10 and above.
            let strict = symbol.len() == 1;
            return Ok(match (below, strict) {
                (true, false) => (None, Some(value)),
                (true, true) => (None, Some(value.saturating_sub(1))),
                (false, false) => (Some(value), None),
                (false, true) => (Some(value.saturating_add(1)), None),
            });
        }
    }
    let low = signed(input)?;
    input.whitespace();
    if !input.looking_at("..") {
        return Ok((Some(low), Some(low)));
    }
    input.advance(2);
    input.whitespace();
    let high = input.attempt(signed);
    Ok((Some(low), high))
}

/// A quoted text, or the words up to the next `,` or `}`.
fn label(input: &mut Input<'_>) -> Parsed<String> {
    if input.eat(b'"') {
        let start = input.pos();
        let mut n = 0;
        while input.byte(n).is_some_and(|b| b != b'"') {
            n += 1;
        }
        input.advance(n);
        let text = input.since(start).to_string();
        input.expect(b'"')?;
        return Ok(text);
    }
    let start = input.pos();
    let mut n = 0;
    while input
        .byte(n)
        .is_some_and(|b| !matches!(b, b',' | b'}' | b'"' | b'{' | b':') && !b.is_ascii_control())
    {
        n += 1;
    }
    let words = input.slice(start..start + n).trim_end();
    if words.is_empty() || !words.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        input.want(&[Expected::Label]);
        return Err(Fail);
    }
    input.advance(words.len());
    Ok(words.to_string())
}
