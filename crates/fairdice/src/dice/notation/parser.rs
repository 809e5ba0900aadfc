//! The dice-notation parser: text such as `4d6kh3 + 2 >= 12` to an [`Expr`].
//!
//! # Grammar
//! Operators, loosest binding first:
//!
//! | level      | forms                              | notes                                        |
//! |------------|------------------------------------|----------------------------------------------|
//! | comparison | `a < b`, `<=`, `>`, `>=`, `==`, `!=` | gives 0 or 1; cannot be chained (`1<2<3`)    |
//! | sum        | `a + b`, `a - b`                   | left-associative                             |
//! | product    | `a * b`, `a / b`                   | left-associative; `/` is floor division      |
//! | unary      | `-a`                               |                                              |
//! | atom       | `12`, `(a)`, dice                  | a literal must fit in `i64`                  |
//!
//! Dice are `[count]d<faces><modifiers>`:
//!
//! | part      | forms                                                                     |
//! |-----------|---------------------------------------------------------------------------|
//! | count     | nothing (one die), `3`, or a parenthesized expression: `(d4)d6`            |
//! | `d`       | `d` or `D`                                                                |
//! | faces     | `6` (`d0` parses; evaluation rejects it), `%`, `F`/`f`, `{1,1,2,3}`, `{-1..1,5}` |
//! | per die   | `!` explode (on the top face), `!N` `!<N` `!<=N` `!>N` `!>=N`; `rC` reroll; `roC` reroll once |
//! | per pool  | `khN` = `kN`, `klN`, `dhN`, `dlN` (N defaults to 1); `csC` count successes; `dfC` deduct failures |
//! | condition | `C` is `<N`, `<=N`, `>N`, `>=N`, `=N`, `==N`, `!=N` or a bare `N`; N may be negative |
//!
//! Modifiers may come in any order; per-die and per-pool modifiers are stored apart,
//! each list in written order. Repeating a per-die letter adds a condition:
//! `r1r2` (or `r1 r2`) is one reroll on 1 or 2; the same holds for `ro` and, when
//! both carry a condition, for `!` (`!5!6`). A bare `!` is never merged.
//!
//! Whitespace may appear between tokens: around operators and parentheses, inside
//! `{…}`, and before each modifier (`4d6 kh3`). A die term (`3d6`, `(d4)d6`) and a
//! single modifier (`kh3`, `!>=5`) are tokens and take no inner spaces.
//!
//! # Design decisions
//! - `!=` is always the not-equal operator, never "explode on `=`": `d6!=5` is
//!   `d6 != 5`. An explosion condition is therefore one of `< <= > >=` or a bare
//!   non-negative number (`!-1` would read as `(d6!) - 1`), while conditions of the
//!   letters that always take one (`r`, `ro`, `cs`, `df`) also allow `=`, `==`, `!=`
//!   and bare negative numbers: `r-1` rerolls −1.
//! - Because a modifier takes no inner spaces, `d6! >= 5` compares an exploding d6
//!   with 5 while `d6!>=5` explodes on 5 and 6.
//! - Roll20's bare `d` (drop lowest), `!!` (compounding) and a single `=` as an
//!   operator are rejected with a message saying what to write instead, rather than
//!   being guessed at.
//! - Limits keep hostile input cheap and every tree shallow enough for recursive
//!   walkers: [`MAX_INPUT_LEN`] bytes, [`MAX_NESTING`] levels of parentheses (checked
//!   before parsing, so the recursive parser cannot exhaust the stack), a tree at most
//!   [`MAX_DEPTH`] deep, and [`MAX_CUSTOM_FACES`] faces per custom die.
//! - The parser recurses once per level of parentheses. Everyday input (at most
//!   eight levels) is parsed on the caller's stack in less than 512 KiB, optimized or
//!   not; deeper input is parsed on a thread of its own whose stack is sized for its
//!   depth, known before parsing. That replaces chumsky's `stacker` feature, which
//!   checks the stack at every recursion and whose first check on a main thread reads
//!   `/proc/self/maps`: about 100 µs, more than the rest of a first call.
//! - A single plain term (`3d6`, `d20`, `4d6kh3`: digits, `d`, digits and at most
//!   one keep/drop) is read by a few lines of hand-written code (`parser/plain.rs`)
//!   that build the same tree, spans included; everything else goes to the grammar.
//!   Most input is such a term, and a process's first run of the grammar costs more
//!   than evaluating `3d6` (its code is mapped into memory page by page).
//! - The grammar is written with `chumsky` (dice terms in `parser/dice.rs`); its
//!   errors are collected in a private type (`parser/raw_error.rs`) whose labels are
//!   the public [`Expected`] items. Mistakes that still let parsing go on (a number
//!   too large, `d{}`, chained comparisons) are recorded and parsing continues; the
//!   error that starts first in the text is reported.

mod dice;
mod plain;
mod raw_error;

use chumsky::input::InputRef;
use chumsky::prelude::*;

use self::dice::dice_tail;
use self::plain::plain_dice;
use self::raw_error::{Extra, Label, RawError, report};
use super::ast::{Expr, ExprKind};
use super::error::{Expected, Found, ParseError, Problem};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::Outcome;

/// The longest input accepted, in bytes.
pub const MAX_INPUT_LEN: usize = 10_000;
/// How deeply parentheses may nest.
pub const MAX_NESTING: usize = 200;
/// How deep a parsed expression tree may be (a leaf has depth 1).
pub const MAX_DEPTH: usize = 1_000;
/// The most faces a custom die `d{…}` may list after expanding ranges.
pub const MAX_CUSTOM_FACES: usize = 1 << 16;

/// Parses a dice expression.
///
/// # Errors
/// A [`ParseError`] pointing at the first mistake, with what was expected there;
/// input that is empty, longer than [`MAX_INPUT_LEN`] or nested beyond
/// [`MAX_NESTING`] / [`MAX_DEPTH`] is refused.
///
/// # Example
/// ```
/// use fairdice::BinaryOp;
/// use fairdice::dice::notation::{ast::ExprKind, parse};
///
/// let expr = parse("4d6kh3 >= 12")?;
/// assert!(matches!(expr.kind, ExprKind::Binary { op: BinaryOp::Ge, .. }));
/// assert_eq!(expr.span, 0..12);
/// # Ok::<(), fairdice::dice::notation::ParseError>(())
/// ```
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    if let Some(expr) = plain_dice(text) {
        return Ok(expr);
    }
    check_size(text)?;
    if deepest_paren(text, INLINE_NESTING).is_none() {
        parse_sized(text)
    } else {
        parse_on_own_stack(text)
    }
}

/// Parentheses nested at most this deep are parsed on the caller's stack.
const INLINE_NESTING: usize = 8;
/// Stack for a parse on a thread of its own: a base, and this much per level of
/// parentheses (a level takes about 4 KiB optimized and 36 KiB unoptimized).
const OWN_STACK_BASE: usize = 256 << 10;
/// See [`OWN_STACK_BASE`].
const OWN_STACK_PER_LEVEL: usize = 64 << 10;

/// Parses deeply parenthesized text on a thread with a stack sized for its depth.
fn parse_on_own_stack(text: &str) -> Result<Expr, ParseError> {
    let levels = nesting(text);
    let stack = OWN_STACK_BASE + levels * OWN_STACK_PER_LEVEL;
    std::thread::scope(|scope| {
        let parser = std::thread::Builder::new()
            .name("fairdice-parse".into())
            .stack_size(stack)
            .spawn_scoped(scope, || parse_sized(text));
        match parser {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: refuse what the caller's stack is not sized for.
            Err(_) => {
                let at = deepest_paren(text, INLINE_NESTING).unwrap_or(0);
                let problem = Problem::TooDeep {
                    max: INLINE_NESTING,
                };
                Err(ParseError::with_problem(text, at..at + 1, problem))
            }
        }
    })
}

/// Parses text whose size and nesting have been checked.
fn parse_sized(text: &str) -> Result<Expr, ParseError> {
    let expr = expression()
        .parse(text)
        .into_result()
        .map_err(|errors| report(text, errors))?;
    check_depth(text, &expr)?;
    Ok(expr)
}

/// Refuses empty, overlong and too deeply parenthesized input before parsing.
fn check_size(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_INPUT_LEN {
        let cut = (0..=MAX_INPUT_LEN)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let problem = Problem::TooLong {
            len: text.len(),
            max: MAX_INPUT_LEN,
        };
        return Err(ParseError::with_problem(text, cut..text.len(), problem));
    }
    if text.chars().all(char::is_whitespace) {
        return Err(ParseError::new(
            0..text.len(),
            Found::EndOfInput,
            [Expected::Expression],
            Some(Problem::Empty),
        ));
    }
    if let Some(at) = deepest_paren(text, MAX_NESTING) {
        let problem = Problem::TooDeep { max: MAX_NESTING };
        return Err(ParseError::with_problem(text, at..at + 1, problem));
    }
    Ok(())
}

/// Where the first `(` nested more than `max` deep is, if there is one.
fn deepest_paren(text: &str, max: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in text.bytes().enumerate() {
        match byte {
            b'(' => {
                depth += 1;
                if depth > max {
                    return Some(at);
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// How deep parentheses nest.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    for byte in text.bytes() {
        match byte {
            b'(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Refuses a tree deeper than [`MAX_DEPTH`] (long operator chains, many unary
/// minuses), walking it without recursion.
fn check_depth(text: &str, expr: &Expr) -> Result<(), ParseError> {
    let mut stack = vec![(expr, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            let problem = Problem::TooComplex { max: MAX_DEPTH };
            return Err(ParseError::with_problem(text, node.span.clone(), problem));
        }
        match &node.kind {
            ExprKind::Number(_) => {}
            ExprKind::Dice(dice) => stack.extend(dice.count.as_deref().map(|c| (c, depth + 1))),
            ExprKind::Negate(inner) => stack.push((inner, depth + 1)),
            ExprKind::Binary { left, right, .. } => {
                stack.push((left, depth + 1));
                stack.push((right, depth + 1));
            }
        }
    }
    Ok(())
}

/// The whole input: one expression and nothing after it.
fn expression<'src>() -> impl Parser<'src, &'src str, Expr, Extra> {
    let comparison = recursive(|comparison| {
        let operand = unary(atom(comparison)).boxed();
        let product = operand.clone().foldl(
            whitespace()
                .ignore_then(operator(&[('*', BinaryOp::Mul), ('/', BinaryOp::Div)]))
                .then(operand)
                .repeated(),
            |left, (op, right)| binary(op, left, right),
        );
        let sum = product.clone().foldl(
            whitespace()
                .ignore_then(operator(&[('+', BinaryOp::Add), ('-', BinaryOp::Sub)]))
                .then(product)
                .repeated(),
            |left, (op, right)| binary(op, left, right),
        );
        let sum = sum.boxed();
        sum.clone()
            .then(
                whitespace()
                    .ignore_then(comparison_operator().map_with(|op, e| (op, e.span())))
                    .then(sum)
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .validate(|(first, rest), _, emitter| {
                if let Some(((_, span), _)) = rest.get(1) {
                    emitter.emit(RawError::problem(*span, Problem::ChainedComparison));
                }
                rest.into_iter()
                    .fold(first, |left, ((op, _), right)| binary(op, left, right))
            })
    });
    comparison.then_ignore(whitespace()).then_ignore(end())
}

/// `left op right`, spanning both.
fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    Expr {
        span: left.span.start..right.span.end,
        kind: ExprKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
    }
}

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
fn whitespace<'src>() -> impl Parser<'src, &'src str, (), Extra> + Clone {
    custom(|input: &mut InputRef<'src, '_, &'src str, Extra>| {
        while input.peek().is_some_and(char::is_whitespace) {
            input.skip();
        }
        Ok(())
    })
}

/// One of the single-character arithmetic operators given.
fn operator<'src>(
    ops: &'static [(char, BinaryOp)],
) -> impl Parser<'src, &'src str, BinaryOp, Extra> + Clone {
    any()
        .filter_map(move |c| ops.iter().find(|(symbol, _)| *symbol == c).map(|p| p.1))
        .labelled(Expected::Operator)
}

/// `< <= > >= == !=`; a lone `=` is reported, then read as `==` to go on.
fn comparison_operator<'src>() -> impl Parser<'src, &'src str, BinaryOp, Extra> + Clone {
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
fn starts_with_one_of<'src>(
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

/// Unary minus over an operand, each `-` optionally preceded by whitespace.
fn unary<'src>(
    atom: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    whitespace()
        .ignore_then(just('-').labelled(Expected::Symbol('-')).to_span())
        .repeated()
        .foldr(
            whitespace().ignore_then(atom),
            |minus: SimpleSpan, inner: Expr| Expr {
                span: minus.start..inner.span.end,
                kind: ExprKind::Negate(Box::new(inner)),
            },
        )
}

/// A number, a parenthesized expression, or dice (with either as the count).
fn atom<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    let number = literal::<Outcome>().map_with(|n, e| Expr {
        kind: ExprKind::Number(n),
        span: e.span().into_range(),
    });
    let parenthesized = just('(')
        .ignore_then(expr)
        .then_ignore(whitespace())
        .then_ignore(just(')'))
        .map_with(|mut inner: Expr, e| {
            inner.span = e.span().into_range();
            inner
        });
    let dice_tail = dice_tail().boxed();
    let with_count = choice((number, parenthesized))
        .then(dice_tail.clone().or_not())
        .map_with(|(count, tail), e| match tail {
            None => count,
            Some(tail) => tail.into_expr(Some(count), e.span()),
        });
    let without_count = dice_tail.map_with(|tail, e| tail.into_expr(None, e.span()));
    choice((with_count, without_count))
}

/// `<`, `<=`, `>`, `>=`, read as the caller's four values.
fn ordering<'src, T: Copy + 'src>(
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
fn signed<'src>() -> impl Parser<'src, &'src str, Outcome, Extra> + Clone {
    just('-')
        .or_not()
        .then(digits().labelled(Expected::Number))
        .to_slice()
        .validate(parse_number::<Outcome>)
        .labelled(Expected::Number)
}

/// An unsigned integer literal of type `T`.
fn literal<'src, T>() -> impl Parser<'src, &'src str, T, Extra> + Clone
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
