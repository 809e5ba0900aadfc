//! The grammar of whole expressions: bindings, the conditional, logic,
//! comparisons, arithmetic, and the atoms (numbers, names, calls, groups,
//! repetitions and dice terms).

use chumsky::prelude::*;

use super::dice::{dice_tail, pool_modifiers};
use super::lexical::{comparison_operator, identifier, keyword, literal, operator, whitespace};
use super::raw_error::{Extra, Label, RawError};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{Expr, ExprKind, Function, Group, Repeat, Span};
use crate::dice::notation::error::{Expected, Problem};

/// The whole input: one expression and nothing after it.
pub(super) fn expression<'src>() -> impl Parser<'src, &'src str, Expr, Extra> {
    let expr = recursive(|expr| {
        let operand = unary(atom(expr.clone())).boxed();
        let product = operand.clone().foldl(
            whitespace()
                .ignore_then(operator(&[
                    ('*', BinaryOp::Mul),
                    ('/', BinaryOp::Div),
                    ('%', BinaryOp::Mod),
                ]))
                .then(operand)
                .repeated(),
            |left, (op, right)| binary(op, left, right),
        );
        let sum = product
            .clone()
            .foldl(
                whitespace()
                    .ignore_then(operator(&[('+', BinaryOp::Add), ('-', BinaryOp::Sub)]))
                    .then(product)
                    .repeated(),
                |left, (op, right)| binary(op, left, right),
            )
            .boxed();
        let comparison = sum
            .clone()
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
            });
        let negation = whitespace()
            .ignore_then(keyword("not").labelled(Label::Hidden).to_span())
            .repeated()
            .foldr(
                whitespace().ignore_then(comparison),
                |not: SimpleSpan, inner: Expr| Expr {
                    span: not.start..inner.span.end,
                    kind: ExprKind::Not(Box::new(inner)),
                },
            )
            .boxed();
        let and = logic(negation, "and", BinaryOp::And).boxed();
        let or = logic(and, "or", BinaryOp::Or).boxed();
        let conditional = or
            .clone()
            .then(
                whitespace()
                    .ignore_then(just('?').labelled(Expected::Operator))
                    .ignore_then(expr.clone())
                    .then_ignore(whitespace())
                    .then_ignore(just(':'))
                    .then(or)
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .map(|(first, rest)| conditional(first, rest));
        bindings(expr)
            .repeated()
            .collect::<Vec<_>>()
            .then(conditional)
            .map(|(bindings, body)| {
                let bindings: Vec<Binding> = bindings.into_iter().flatten().collect();
                bindings
                    .into_iter()
                    .rev()
                    .fold(body, |body, (name, name_span, value, start)| Expr {
                        span: start..body.span.end,
                        kind: ExprKind::Bind {
                            name,
                            name_span,
                            value: Box::new(value),
                            body: Box::new(body),
                        },
                    })
            })
    });
    expr.then_ignore(whitespace()).then_ignore(end())
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

/// Operands joined by the keyword `word` (`and`, `or`), left-associative.
fn logic<'src>(
    operand: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
    word: &'static str,
    op: BinaryOp,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    operand.clone().foldl(
        whitespace()
            .ignore_then(keyword(word))
            .ignore_then(operand)
            .repeated(),
        move |left, right| binary(op, left, right),
    )
}

/// `a ? b : c ? d : e` read as `a ? b : (c ? d : e)`, without recursing per `?`.
fn conditional(first: Expr, rest: Vec<(Expr, Expr)>) -> Expr {
    let mut conditions = vec![first];
    let mut thens = Vec::with_capacity(rest.len());
    for (then, next) in rest {
        thens.push(then);
        conditions.push(next);
    }
    let mut result = conditions.pop().expect("at least one operand");
    while let (Some(condition), Some(then)) = (conditions.pop(), thens.pop()) {
        result = Expr {
            span: condition.span.start..result.span.end,
            kind: ExprKind::Conditional {
                condition: Box::new(condition),
                then: Box::new(then),
                otherwise: Box::new(result),
            },
        };
    }
    result
}

/// A binding as read: the name, its span, the value and where the `[` is.
type Binding = (String, Span, Expr, usize);

/// A name, its span and its value, as read inside `[…]`.
type NamedValue = ((String, SimpleSpan), Expr);

/// `[name = value, name = value]` before an expression.
fn bindings<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Vec<Binding>, Extra> + Clone {
    let one = whitespace()
        .ignore_then(identifier().map_with(|name: &str, e| (name.to_string(), e.span())))
        .then_ignore(whitespace())
        .then_ignore(just('=').labelled(Expected::Symbol('=')))
        .then(expr)
        .then_ignore(whitespace());
    whitespace()
        .ignore_then(just('[').to_span())
        .then(one.separated_by(just(',')).at_least(1).collect::<Vec<_>>())
        .then_ignore(just(']'))
        .map(|(open, list): (SimpleSpan, Vec<NamedValue>)| {
            list.into_iter()
                .enumerate()
                .map(|(i, ((name, name_span), value))| {
                    let start = if i == 0 { open.start } else { name_span.start };
                    (name, name_span.into_range(), value, start)
                })
                .collect()
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

/// What may follow a number, a parenthesized expression or a name.
enum Tail {
    /// `d…`: the head is the count of dice.
    Dice(super::dice::DiceTail),
    /// `#…`: the head is how many times the body is rolled.
    Repeat(Expr, Vec<crate::dice::notation::ast::PoolModifier>),
}

/// An atom: a number, a parenthesized expression, a name, a call, a group, a
/// repetition or a dice term (with either of the first three as its count).
fn atom<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    let simple = simple_atom(expr.clone()).boxed();
    let repeat = just('#')
        .labelled(Expected::Symbol('#'))
        .ignore_then(simple.clone())
        .then(pool_modifiers(expr.clone()))
        .map(|(body, modifiers)| Tail::Repeat(body, modifiers));
    let dice = dice_tail(expr.clone()).boxed();
    let head = choice((number(), parenthesized(expr.clone())));
    let with_head = head
        .then(choice((dice.clone().map(Tail::Dice), repeat.clone())).or_not())
        .map_with(|(head, tail), e| attach(head, tail, e.span()));
    let named = name()
        .then(repeat.or_not())
        .map_with(|(head, tail), e| attach(head, tail, e.span()));
    let without_count = dice.map_with(|tail, e| tail.into_expr(None, e.span()));
    choice((
        without_count,
        call(expr.clone()),
        group(expr),
        with_head,
        named,
    ))
}

/// An atom that is not a repetition: the body of one.
fn simple_atom<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    let dice = dice_tail(expr.clone()).boxed();
    let with_head = choice((number(), parenthesized(expr.clone())))
        .then(dice.clone().map(Tail::Dice).or_not())
        .map_with(|(head, tail), e| attach(head, tail, e.span()));
    let without_count = dice.map_with(|tail, e| tail.into_expr(None, e.span()));
    choice((
        without_count,
        call(expr.clone()),
        group(expr),
        with_head,
        name(),
    ))
}

/// The head with what follows it, spanning both.
fn attach(head: Expr, tail: Option<Tail>, span: SimpleSpan) -> Expr {
    match tail {
        None => head,
        Some(Tail::Dice(tail)) => tail.into_expr(Some(head), span),
        Some(Tail::Repeat(body, pool_modifiers)) => Expr {
            kind: ExprKind::Repeat(Repeat {
                count: Box::new(head),
                body: Box::new(body),
                pool_modifiers,
            }),
            span: span.into_range(),
        },
    }
}

/// An integer literal.
fn number<'src>() -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    literal::<Outcome>().map_with(|n, e| Expr {
        kind: ExprKind::Number(n),
        span: e.span().into_range(),
    })
}

/// `(expr)`, its span including the parentheses.
pub(super) fn parenthesized<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    just('(')
        .ignore_then(expr)
        .then_ignore(whitespace())
        .then_ignore(just(')'))
        .map_with(|mut inner: Expr, e| {
            inner.span = e.span().into_range();
            inner
        })
}

/// A name of a bound roll (checked against the bindings after parsing).
fn name<'src>() -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    identifier().map_with(|name: &str, e| Expr {
        kind: ExprKind::Name(name.to_string()),
        span: e.span().into_range(),
    })
}

/// `max(a, b, …)`, `min(a, b, …)`, `abs(x)`.
fn call<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    identifier()
        .map_with(|name: &str, e| (name, e.span()))
        .then_ignore(just('('))
        .then(
            expr.separated_by(whitespace().then(just(',')))
                .collect::<Vec<_>>(),
        )
        .then_ignore(whitespace())
        .then_ignore(just(')'))
        .validate(|((name, name_span), arguments), e, emitter| {
            let function = match name {
                "max" => Function::Max,
                "min" => Function::Min,
                "abs" => Function::Abs,
                _ => {
                    let problem = Problem::UnknownFunction {
                        name: name.to_string(),
                    };
                    emitter.emit(RawError::problem(name_span, problem));
                    Function::Max
                }
            };
            let fits = match function {
                Function::Abs => arguments.len() == 1,
                Function::Max | Function::Min => !arguments.is_empty(),
            };
            if !fits {
                let expected = match function {
                    Function::Abs => "one argument: `abs(d20 - 10)`",
                    _ => "one argument or more: `max(d8!, d6!)`",
                };
                let problem = Problem::Arguments {
                    function: function.name(),
                    expected,
                };
                emitter.emit(RawError::problem(e.span(), problem));
            }
            let arguments = if arguments.is_empty() {
                vec![Expr {
                    kind: ExprKind::Number(0),
                    span: e.span().into_range(),
                }]
            } else {
                arguments
            };
            Expr {
                kind: ExprKind::Call {
                    function,
                    arguments,
                },
                span: e.span().into_range(),
            }
        })
}

/// `{a, b, c}` with pool modifiers.
fn group<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Expr, Extra> + Clone {
    just('{')
        .ignore_then(
            expr.clone()
                .separated_by(whitespace().then(just(',')))
                .at_least(1)
                .collect::<Vec<_>>(),
        )
        .then_ignore(whitespace())
        .then_ignore(just('}'))
        .then(pool_modifiers(expr))
        .map_with(|(members, pool_modifiers), e| Expr {
            kind: ExprKind::Group(Group {
                members,
                pool_modifiers,
            }),
            span: e.span().into_range(),
        })
}
