//! Atoms: numbers, parenthesized expressions, names, calls, groups, repetitions
//! and dice terms (a number, a parenthesized expression or nothing as their count).
//!
//! # Design decisions
//! The first character decides what an atom is: a digit or `(` a count or a
//! value, `{` a group, `d` followed by what starts faces (`6`, `%`, `F`, `{`,
//! `(`) a die, any other letter a name or a call. `d(` is both a die with
//! computed sides and a call of a function named `d`: it is read once, as far as
//! one expression and the `)` make a die, and as a call if a `,` follows (reading
//! it twice, as the grammar this replaced did, doubled the work at every level of
//! `d(d(d(…`). A die or a call that does not fit leaves its letters as a name, and
//! the error is reported where the text stopped making sense inside it.

use super::dice::{DiceTail, FACES, dice_modifiers, dice_tail, pool_modifiers};
use super::expression::expression;
use super::input::{Fail, Input, Parsed};
use super::lexical::{identifier, literal, name_len};
use crate::dice::notation::ast::{
    Expr, ExprKind, Faces, Function, Group, PoolModifier, Repeat, Span,
};
use crate::dice::notation::error::{Expected, Problem};
use crate::dice::tuple::MAX_TUPLE;

/// An atom at the position; a repetition (`6#…`) only if `repeatable` (its body
/// is an atom that is not). The mistakes recorded inside an atom that does not
/// fit are forgotten with it: the text did not make an atom, so what it did
/// make up to the mistake is not the reader's intent.
pub(super) fn atom(input: &mut Input<'_>, repeatable: bool) -> Parsed<Expr> {
    input
        .attempt(|input| one_atom(input, repeatable))
        .ok_or(Fail)
}

/// See [`atom`].
fn one_atom(input: &mut Input<'_>, repeatable: bool) -> Parsed<Expr> {
    let start = input.pos();
    match (input.byte(0), input.byte(1)) {
        // A die; if its sides do not fit, `d` is a name (what follows it fails).
        (Some(b'd' | b'D'), Some(b'(')) => match input.attempt(die_or_call) {
            Some(expr) => Ok(expr),
            None => named(input, start, repeatable, false),
        },
        (Some(b'd' | b'D'), Some(b'0'..=b'9' | b'%' | b'F' | b'f' | b'{')) => {
            match input.attempt(dice_tail) {
                Some(tail) => Ok(tail.into_expr(None, start..input.pos())),
                None => named(input, start, repeatable, false),
            }
        }
        (Some(b'0'..=b'9'), _) => {
            let n = literal(input)?;
            let head = Expr {
                kind: ExprKind::Number(n),
                span: start..input.pos(),
            };
            Ok(with_tail(input, head, repeatable))
        }
        (Some(b'('), _) => {
            let head = parenthesized(input)?;
            Ok(with_tail(input, head, repeatable))
        }
        (Some(b'{'), _) => group(input),
        _ => match name_len(input) {
            1.. => named(input, start, repeatable, true),
            0 => {
                input.want(&[
                    Expected::Number,
                    Expected::Symbol('d'),
                    Expected::Symbol('('),
                    Expected::Symbol('{'),
                    Expected::Name,
                ]);
                Err(Fail)
            }
        },
    }
}

/// A number or a parenthesized expression, and the dice or repetition it counts,
/// if any follows.
fn with_tail(input: &mut Input<'_>, head: Expr, repeatable: bool) -> Expr {
    let start = head.span.start;
    if let Some(tail) = input.attempt(dice_tail) {
        return tail.into_expr(Some(head), start..input.pos());
    }
    if repeatable {
        if let Some((body, pool_modifiers)) = input.attempt(repeat_tail) {
            return repeat(head, body, pool_modifiers, input.pos());
        }
    }
    head
}

/// `#body` with pool modifiers: what follows the count of a repetition.
fn repeat_tail(input: &mut Input<'_>) -> Parsed<(Expr, Vec<PoolModifier>)> {
    input.expect(b'#')?;
    let body = atom(input, false)?;
    Ok((body, pool_modifiers(input)))
}

/// The repetition `count#body` ending at `end`.
fn repeat(count: Expr, body: Expr, pool_modifiers: Vec<PoolModifier>, end: usize) -> Expr {
    Expr {
        span: count.span.start..end,
        kind: ExprKind::Repeat(Repeat {
            count: Box::new(count),
            body: Box::new(body),
            pool_modifiers,
        }),
    }
}

/// A name: a call (if `may_call`), a repetition counted by the name, or the name
/// itself.
fn named(input: &mut Input<'_>, start: usize, repeatable: bool, may_call: bool) -> Parsed<Expr> {
    let name = identifier(input).ok_or(Fail)?;
    let name_span = start..input.pos();
    if may_call && name == "deal" && input.byte(0) == Some(b'(') {
        return super::cards::deal(input, start);
    }
    if may_call && input.byte(0) == Some(b'(') && input.function(name).is_some() {
        return super::functions::call(input, name, name_span);
    }
    if may_call && input.byte(0) == Some(b'(') && super::functions::calls_itself(input, name) {
        let problem = Problem::CallsItself {
            name: name.to_string(),
        };
        input.problem(name_span.clone(), problem);
    }
    if may_call && input.byte(0) == Some(b'(') {
        // A call that does not fit leaves the name (what follows it fails).
        if let Some(call) = input.attempt(|input| call(input, name, name_span.clone())) {
            return Ok(call);
        }
    }
    if matches!(name, "d" | "D") {
        input.want(&FACES);
    }
    input.want(&[Expected::Symbol('(')]);
    let head = Expr {
        kind: ExprKind::Name(name.to_string()),
        span: name_span,
    };
    if !repeatable {
        return Ok(head);
    }
    match input.attempt(repeat_tail) {
        Some((body, pool_modifiers)) => Ok(repeat(head, body, pool_modifiers, input.pos())),
        None => Ok(head),
    }
}

/// `(expr)`, its span including the parentheses.
pub(super) fn parenthesized(input: &mut Input<'_>) -> Parsed<Expr> {
    let start = input.pos();
    input.expect(b'(')?;
    let mut inner = expression(input)?;
    input.whitespace();
    if input.looking_at(",") {
        // `(a, b)`: a tuple (refused after parsing anywhere but at the end).
        let mut values = vec![inner];
        input.list_end(&mut values, expression, b')')?;
        let span = start..input.pos();
        if values.len() > MAX_TUPLE {
            input.problem(span.clone(), Problem::TupleSize { max: MAX_TUPLE });
        }
        return Ok(Expr {
            kind: ExprKind::Tuple(values),
            span,
        });
    }
    input.expect(b')')?;
    inner.span = start..input.pos();
    Ok(inner)
}

/// `d(…)`: a die whose sides are one expression, or a call of a function `d`.
fn die_or_call(input: &mut Input<'_>) -> Parsed<Expr> {
    let start = input.pos();
    input.advance(2);
    let mut arguments = Vec::new();
    if let Some(first) = input.attempt(expression) {
        let before = input.pos();
        input.whitespace();
        if input.eat(b')') {
            let mut sides = first;
            sides.span = start + 1..input.pos();
            let faces = match sides.constant() {
                Some(n) if n >= 0 => Faces::Standard(n as u64),
                _ => Faces::Rolled(Box::new(sides)),
            };
            let tail = dice_modifiers(input, faces, start + 1..input.pos());
            return Ok(tail.into_expr(None, start..input.pos()));
        }
        input.want(&[Expected::Closing(')')]);
        input.reset(before);
        arguments.push(first);
    }
    let name = input.slice(start..start + 1);
    call_arguments(input, name, start..start + 1, arguments)
}

/// `name(a, b, …)` from the `(` on.
fn call(input: &mut Input<'_>, name: &str, name_span: Span) -> Parsed<Expr> {
    input.advance(1);
    let mut arguments = Vec::new();
    if let Some(first) = input.attempt(expression) {
        arguments.push(first);
    }
    call_arguments(input, name, name_span, arguments)
}

/// The rest of a call after its first argument (if it has one): more arguments,
/// the `)`, and the checks of the function's name and arity.
fn call_arguments(
    input: &mut Input<'_>,
    name: &str,
    name_span: Span,
    mut arguments: Vec<Expr>,
) -> Parsed<Expr> {
    input.list_end(&mut arguments, expression, b')')?;
    let span = name_span.start..input.pos();
    let function = match Function::named(name) {
        Some(function) => function,
        None => {
            let problem = Problem::UnknownFunction {
                name: name.to_string(),
            };
            input.problem(name_span, problem);
            Function::Max
        }
    };
    let fits = function.takes(arguments.len())
        && match function {
            // A set size is a number written out, at least 1; faces to count too.
            Function::Sets => arguments[1].constant().is_some_and(|k| k >= 1),
            Function::Count => arguments[1..].iter().all(|a| a.constant().is_some()),
            _ => true,
        }
        // A pool function reads every die: a pool that keeps or counts is one value.
        && (!function.reads_pool() || !arguments[0].selects_from_pool());
    if fits && function.reads_pool() && arguments[0].joins_a_deal() {
        input.problem(arguments[0].span.clone(), Problem::HandInPool);
    }
    if !fits {
        let problem = Problem::Arguments {
            function: function.name(),
            expected: function.usage(),
        };
        input.problem(span.clone(), problem);
    }
    if arguments.is_empty() {
        arguments.push(Expr {
            kind: ExprKind::Number(0),
            span: span.clone(),
        });
    }
    Ok(Expr {
        kind: ExprKind::Call {
            function,
            arguments,
        },
        span,
    })
}

/// `{a, b, c}` with pool modifiers.
fn group(input: &mut Input<'_>) -> Parsed<Expr> {
    let start = input.pos();
    input.advance(1);
    let mut members = vec![expression(input)?];
    input.list_end(&mut members, expression, b'}')?;
    let pool_modifiers = pool_modifiers(input);
    Ok(Expr {
        kind: ExprKind::Group(Group {
            members,
            pool_modifiers,
        }),
        span: start..input.pos(),
    })
}

impl DiceTail {
    /// The dice term of this tail and `count`, spanning `span`.
    pub(super) fn into_expr(self, count: Option<Expr>, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Dice(self.into_dice(count)),
            span,
        }
    }
}
