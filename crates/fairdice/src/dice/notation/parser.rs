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
//! `r1r2` is one reroll on 1 or 2 (the same for `ro` and, when both carry a
//! condition, for `!`).
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
//! - The grammar is written with `chumsky`; its errors are collected in a private type
//!   whose labels are the public [`Expected`] items, and the error that starts first
//!   in the text is reported.

use chumsky::DefaultExpected;
use chumsky::error::{Error as ChumskyError, LabelError};
use chumsky::prelude::*;
use chumsky::util::MaybeRef;

use super::ast::{
    Comparison, Condition, Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier, Span,
};
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
    check_size(text)?;
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
    if text.trim().is_empty() {
        return Err(ParseError::new(
            0..text.len(),
            Found::EndOfInput,
            [Expected::Expression],
            Some(Problem::Empty),
        ));
    }
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let problem = Problem::TooDeep { max: MAX_NESTING };
                    return Err(ParseError::with_problem(text, at..at + 1, problem));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
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

/// Picks the error that starts first (a specific problem wins a tie) and turns it
/// into a [`ParseError`].
fn report(text: &str, errors: Vec<RawError>) -> ParseError {
    let Some(raw) = errors
        .into_iter()
        .min_by_key(|e| (e.span.start, e.problem.is_none()))
    else {
        // Unreachable in practice: chumsky reports at least one error on failure.
        return ParseError::new(0..0, Found::at(text, 0), [Expected::Expression], None);
    };
    let expected: Vec<Expected> = raw.expected.iter().filter_map(|l| l.shown()).collect();
    let found = match (&raw.problem, raw.found) {
        (None, Some(c)) => Found::Char(c),
        (None, None) => Found::EndOfInput,
        (Some(_), _) => Found::at(text, raw.span.start),
    };
    let problem = raw
        .problem
        .or_else(|| hint(text, &raw.span, found, &expected));
    ParseError::new(raw.span, found, expected, problem)
}

/// A specific explanation for a common slip that the grammar reports generically.
fn hint(text: &str, span: &Span, found: Found, expected: &[Expected]) -> Option<Problem> {
    match found {
        Found::Char(')') if !expected.contains(&Expected::Closing(')')) => {
            let before = text.get(..span.start)?;
            let opened = before.matches('(').count();
            (before.matches(')').count() >= opened).then_some(Problem::UnmatchedParen)
        }
        _ => None,
    }
}

/// What a failed alternative would have accepted: a public [`Expected`] item, or
/// something not worth listing (whitespace, another digit of a number just read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Shown(Expected),
    Hidden,
}

impl Label {
    fn shown(self) -> Option<Expected> {
        match self {
            Label::Shown(e) => Some(e),
            Label::Hidden => None,
        }
    }
}

impl From<DefaultExpected<'_, char>> for Label {
    fn from(expected: DefaultExpected<'_, char>) -> Label {
        match expected {
            DefaultExpected::Token(c) => match *c {
                c @ (')' | '}' | ',') => Label::Shown(Expected::Closing(c)),
                c => Label::Shown(Expected::Symbol(c)),
            },
            DefaultExpected::EndOfInput => Label::Shown(Expected::EndOfInput),
            _ => Label::Hidden,
        }
    }
}

/// The parser's error while it runs; [`report`] turns the chosen one into a
/// [`ParseError`].
#[derive(Debug, Clone)]
struct RawError {
    span: Span,
    found: Option<char>,
    expected: Vec<Label>,
    problem: Option<Problem>,
}

impl RawError {
    fn problem(span: SimpleSpan, problem: Problem) -> RawError {
        RawError {
            span: span.into_range(),
            found: None,
            expected: Vec::new(),
            problem: Some(problem),
        }
    }
}

impl<'src> ChumskyError<'src, &'src str> for RawError {
    fn merge(mut self, other: RawError) -> RawError {
        match (&self.problem, &other.problem) {
            (Some(_), _) => self,
            (None, Some(_)) => other,
            (None, None) => {
                self.expected.extend(other.expected);
                self
            }
        }
    }
}

impl<'src, L: Into<Label>> LabelError<'src, &'src str, L> for RawError {
    fn expected_found<E: IntoIterator<Item = L>>(
        expected: E,
        found: Option<MaybeRef<'src, char>>,
        span: SimpleSpan,
    ) -> RawError {
        RawError {
            span: span.into_range(),
            found: found.as_deref().copied(),
            expected: expected.into_iter().map(Into::into).collect(),
            problem: None,
        }
    }

    fn label_with(&mut self, label: L) {
        if self.problem.is_none() {
            self.expected = vec![label.into()];
        }
    }
}

impl From<Expected> for Label {
    fn from(expected: Expected) -> Label {
        Label::Shown(expected)
    }
}

type Extra = extra::Err<RawError>;

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
fn whitespace<'src>() -> impl Parser<'src, &'src str, (), Extra> + Clone {
    any()
        .filter(|c: &char| c.is_whitespace())
        .labelled(Label::Hidden)
        .repeated()
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
    let second_eq = || {
        just('=')
            .labelled(Label::Hidden)
            .or_not()
            .map(|e| e.is_some())
    };
    choice((
        just('<')
            .ignore_then(second_eq())
            .map(|eq| if eq { BinaryOp::Le } else { BinaryOp::Lt }),
        just('>')
            .ignore_then(second_eq())
            .map(|eq| if eq { BinaryOp::Ge } else { BinaryOp::Gt }),
        just("!=").to(BinaryOp::Ne),
        just('=')
            .ignore_then(second_eq())
            .validate(|eq, e, emitter| {
                if !eq {
                    emitter.emit(RawError::problem(e.span(), Problem::SingleEquals));
                }
                BinaryOp::Eq
            }),
    ))
    .labelled(Expected::Operator)
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

/// Everything of a dice term from the `d` on.
struct DiceTail {
    faces: Faces,
    faces_span: Span,
    modifiers: Vec<Modifier>,
}

impl DiceTail {
    fn into_expr(self, count: Option<Expr>, span: SimpleSpan) -> Expr {
        let mut die_modifiers: Vec<DieModifier> = Vec::new();
        let mut pool_modifiers = Vec::new();
        let mut previous_was_die = false;
        for modifier in self.modifiers {
            match modifier {
                Modifier::Die(m) => {
                    let merged = previous_was_die
                        && die_modifiers
                            .last_mut()
                            .is_some_and(|last| merge_into(last, &m));
                    if !merged {
                        die_modifiers.push(m);
                    }
                    previous_was_die = true;
                }
                Modifier::Pool(m) => {
                    pool_modifiers.push(m);
                    previous_was_die = false;
                }
            }
        }
        Expr {
            kind: ExprKind::Dice(Dice {
                count: count.map(Box::new),
                faces: self.faces,
                faces_span: self.faces_span,
                die_modifiers,
                pool_modifiers,
            }),
            span: span.into_range(),
        }
    }
}

/// Adds the conditions of `next` to `last` when both are the same kind and both
/// have conditions (`r1r2`); says whether it did.
fn merge_into(last: &mut DieModifier, next: &DieModifier) -> bool {
    let (conditions, span, more, next_span) = match (last, next) {
        (
            DieModifier::Explode { conditions, span },
            DieModifier::Explode {
                conditions: more,
                span: next_span,
            },
        )
        | (
            DieModifier::Reroll { conditions, span },
            DieModifier::Reroll {
                conditions: more,
                span: next_span,
            },
        )
        | (
            DieModifier::RerollOnce { conditions, span },
            DieModifier::RerollOnce {
                conditions: more,
                span: next_span,
            },
        ) => (conditions, span, more, next_span),
        _ => return false,
    };
    if conditions.is_empty() || more.is_empty() {
        return false;
    }
    conditions.extend_from_slice(more);
    span.end = next_span.end;
    true
}

/// A modifier as written, before the lists are split and merged.
enum Modifier {
    Die(DieModifier),
    Pool(PoolModifier),
}

/// `d<faces>` followed by modifiers.
fn dice_tail<'src>() -> impl Parser<'src, &'src str, DiceTail, Extra> + Clone {
    let faces = choice((
        literal::<u64>().map(Faces::Standard),
        just('%').to(Faces::Percent),
        one_of("Ff")
            .labelled(Expected::Symbol('F'))
            .to(Faces::Fudge),
        custom_faces().map(Faces::Custom),
    ))
    .map_with(|faces, e| (faces, e.span().into_range()));
    one_of("dD")
        .labelled(Expected::Symbol('d'))
        .ignore_then(faces)
        .then(
            whitespace()
                .ignore_then(modifier())
                .repeated()
                .collect::<Vec<_>>(),
        )
        .map(|((faces, faces_span), modifiers)| DiceTail {
            faces,
            faces_span,
            modifiers,
        })
}

/// `{1, 1, 2, 3}` or `{-1..1, 5}`: listed faces, ranges expanded inclusively.
fn custom_faces<'src>() -> impl Parser<'src, &'src str, Vec<Outcome>, Extra> + Clone {
    let dot = || just('.').labelled(Expected::RangeDots);
    let item = whitespace()
        .ignore_then(
            signed()
                .then(
                    whitespace()
                        .then(dot())
                        .then(dot())
                        .then(whitespace())
                        .ignore_then(signed())
                        .or_not(),
                )
                .map_with(|(low, high), e| (low, high.unwrap_or(low), e.span())),
        )
        .validate(|(low, high, span), _, emitter| {
            if high < low {
                emitter.emit(RawError::problem(span, Problem::EmptyRange { low, high }));
            }
            (low, high)
        });
    just('{')
        .ignore_then(
            item.separated_by(whitespace().then(just(',')))
                .collect::<Vec<_>>(),
        )
        .then_ignore(whitespace())
        .then_ignore(just('}'))
        .validate(|ranges, e, emitter| {
            let size = |&(low, high): &(Outcome, Outcome)| {
                (i128::from(high) - i128::from(low) + 1).max(0) as u128
            };
            let total: u128 = ranges.iter().map(size).sum();
            if total == 0 && ranges.iter().all(|(low, high)| low <= high) {
                emitter.emit(RawError::problem(e.span(), Problem::NoFaces));
                return Vec::new();
            }
            if total > MAX_CUSTOM_FACES as u128 {
                let problem = Problem::TooManyFaces {
                    max: MAX_CUSTOM_FACES,
                };
                emitter.emit(RawError::problem(e.span(), problem));
                return Vec::new();
            }
            ranges
                .into_iter()
                .flat_map(|(low, high)| low..=high)
                .collect()
        })
}

/// One per-die or per-pool modifier.
fn modifier<'src>() -> impl Parser<'src, &'src str, Modifier, Extra> + Clone {
    let die = |kind: fn(Vec<Condition>, Span) -> DieModifier| {
        move |conditions: Vec<Condition>,
              e: &mut chumsky::input::MapExtra<'src, '_, &'src str, Extra>| {
            Modifier::Die(kind(conditions, e.span().into_range()))
        }
    };
    let explode = |conditions, span| DieModifier::Explode { conditions, span };
    let compounding = just('!')
        .then(just('!').labelled(Label::Hidden))
        .then(just('=').not())
        .validate(|_, e, emitter| {
            emitter.emit(RawError::problem(e.span(), Problem::CompoundingExplosion));
            Vec::new()
        })
        .map_with(die(explode));
    let single_explode = just("!=")
        .not()
        .ignore_then(just('!'))
        .ignore_then(explode_condition().or_not())
        .map(|c| c.into_iter().collect())
        .map_with(die(explode));
    let reroll = just('r')
        .ignore_then(just('o').labelled(Label::Hidden).or_not())
        .then(condition())
        .map_with(|(once, condition), e| {
            let (conditions, span) = (vec![condition], e.span().into_range());
            Modifier::Die(match once {
                Some(_) => DieModifier::RerollOnce { conditions, span },
                None => DieModifier::Reroll { conditions, span },
            })
        });
    let pool = |kind: fn(u64) -> Keep| {
        move |n: Option<u64>, e: &mut chumsky::input::MapExtra<'src, '_, &'src str, Extra>| {
            Modifier::Pool(PoolModifier::Keep {
                keep: kind(n.unwrap_or(1)),
                span: e.span().into_range(),
            })
        }
    };
    let count = || literal::<u64>().or_not();
    let keep = choice((
        just("kh")
            .ignore_then(count())
            .map_with(pool(Keep::Highest)),
        just("kl").ignore_then(count()).map_with(pool(Keep::Lowest)),
        just('k').ignore_then(count()).map_with(pool(Keep::Highest)),
        just("dh")
            .ignore_then(count())
            .map_with(pool(Keep::DropHighest)),
        just("dl")
            .ignore_then(count())
            .map_with(pool(Keep::DropLowest)),
    ));
    let counting = choice((
        just("cs")
            .ignore_then(condition())
            .map_with(|condition, e| PoolModifier::CountSuccesses {
                condition,
                span: e.span().into_range(),
            }),
        just("df")
            .ignore_then(condition())
            .map_with(|condition, e| PoolModifier::DeductFailures {
                condition,
                span: e.span().into_range(),
            }),
    ))
    .map(Modifier::Pool);
    let bare_drop = just('d')
        .then(literal::<u64>().or_not())
        .validate(|_, e, emitter| {
            emitter.emit(RawError::problem(e.span(), Problem::BareDrop));
            Modifier::Pool(PoolModifier::Keep {
                keep: Keep::DropLowest(1),
                span: e.span().into_range(),
            })
        });
    choice((
        compounding,
        single_explode,
        reroll,
        keep,
        counting,
        bare_drop,
    ))
    .labelled(Expected::Modifier)
}

/// The condition of `r`, `ro`, `cs` and `df`: `<N <=N >N >=N =N ==N !=N` or `N`.
fn condition<'src>() -> impl Parser<'src, &'src str, Condition, Extra> + Clone {
    let second_eq = || {
        just('=')
            .labelled(Label::Hidden)
            .or_not()
            .map(|e| e.is_some())
    };
    let comparison = choice((
        just('<')
            .ignore_then(second_eq())
            .map(|eq| if eq { Comparison::Le } else { Comparison::Lt }),
        just('>')
            .ignore_then(second_eq())
            .map(|eq| if eq { Comparison::Ge } else { Comparison::Gt }),
        just('=').ignore_then(second_eq()).to(Comparison::Eq),
        just("!=").to(Comparison::Ne),
    ));
    choice((
        comparison.then(signed()),
        signed().map(|value| (Comparison::Eq, value)),
    ))
    .map(|(comparison, value)| Condition { comparison, value })
    .labelled(Expected::Condition)
}

/// The condition of `!`: `<N <=N >N >=N` or a non-negative `N`.
fn explode_condition<'src>() -> impl Parser<'src, &'src str, Condition, Extra> + Clone {
    let second_eq = || {
        just('=')
            .labelled(Label::Hidden)
            .or_not()
            .map(|e| e.is_some())
    };
    let comparison = choice((
        just('<')
            .ignore_then(second_eq())
            .map(|eq| if eq { Comparison::Le } else { Comparison::Lt }),
        just('>')
            .ignore_then(second_eq())
            .map(|eq| if eq { Comparison::Ge } else { Comparison::Gt }),
    ));
    choice((
        comparison.then(signed()),
        literal::<Outcome>().map(|value| (Comparison::Eq, value)),
    ))
    .map(|(comparison, value)| Condition { comparison, value })
    .labelled(Expected::Condition)
}

/// An optionally negative integer literal, `-12` (inside conditions and face lists).
fn signed<'src>() -> impl Parser<'src, &'src str, Outcome, Extra> + Clone {
    just('-')
        .or_not()
        .then(digits())
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
fn digits<'src>() -> impl Parser<'src, &'src str, &'src str, Extra> + Clone {
    any()
        .filter(|c: &char| c.is_ascii_digit())
        .labelled(Label::Hidden)
        .repeated()
        .at_least(1)
        .to_slice()
}
