//! Whole expressions (labels at the end, `parser/labels.rs`): bindings, the conditional, and the operators by precedence
//! (`or`, `and`, `not`, comparisons, sums, products, unary minus) over atoms.
//!
//! # Design decisions
//! Binary operators are read by precedence climbing: one loop per operand chain
//! instead of one function per level, so a level of parentheses costs a handful
//! of stack frames. After an operator of some level, the loop only takes
//! operators of that level or looser: tighter ones were the right operand's to
//! take, and if the right operand stopped at one (a mistake), trying it again
//! here would only read the same text twice.

use super::atom::atom;
use super::functions::definition;
use super::input::{Fail, Input, Parsed};
use super::labels::labelled;
use super::lexical::{at_keyword, identifier};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::notation::ast::{Expr, ExprKind, Span};
use crate::dice::notation::error::{Expected, Problem};

/// The whole input: one expression and nothing after it but whitespace.
pub(super) fn whole(input: &mut Input<'_>) -> Parsed<Expr> {
    let mut expr = expression(input)?;
    input.whitespace();
    if at_keyword(input, "as") {
        input.advance(2);
        expr = labelled(input, expr)?;
        input.whitespace();
    }
    if input.peek().is_some() {
        input.want(&[Expected::EndOfInput]);
        return Err(Fail);
    }
    Ok(expr)
}

/// `[name = value, …] … body`: any bindings, then a conditional; a level of
/// nesting (the parser recurses only through here).
pub(super) fn expression(input: &mut Input<'_>) -> Parsed<Expr> {
    input.nested(unnested)
}

/// See [`expression`].
fn unnested(input: &mut Input<'_>) -> Parsed<Expr> {
    // Functions defined in this expression's bindings hold until its end.
    let functions = input.functions.len();
    let mut bindings = Vec::new();
    while let Some(list) = input.attempt(binding_list) {
        bindings.extend(list);
    }
    let body = conditional(input);
    input.functions.truncate(functions);
    let body = body?;
    Ok(bindings
        .into_iter()
        .rev()
        .fold(body, |body, binding| binding.around(body)))
}

/// A binding as read: the names with their spans, the value and where the
/// binding starts (the `[` for the first of a list, the name for the others);
/// no value for a function's definition, which binds nothing in the tree.
struct Binding {
    names: Vec<(String, Span)>,
    value: Option<Expr>,
    start: usize,
}

impl Binding {
    /// The binding around `body`: one name bound to a value, or names bound to
    /// the hands of a deal (one name to a deal of one hand too).
    fn around(self, body: Expr) -> Expr {
        let span = self.start..body.span.end;
        let mut names = self.names;
        let Some(value) = self.value else {
            return body;
        };
        let kind = if let ExprKind::Deal(_) = &value.kind {
            ExprKind::BindHands {
                names,
                deal: Box::new(value),
                body: Box::new(body),
            }
        } else {
            // The parser refused several names bound to anything else.
            let (name, name_span) = names.swap_remove(0);
            ExprKind::Bind {
                name,
                name_span,
                value: Box::new(value),
                body: Box::new(body),
            }
        };
        Expr { kind, span }
    }
}

/// `[name = value, name = value]`.
fn binding_list(input: &mut Input<'_>) -> Parsed<Vec<Binding>> {
    input.whitespace();
    let open = input.pos();
    input.expect(b'[')?;
    // A binding ends with the whitespace after its value, so the list's own
    // whitespace before `,` and `]` reads nothing.
    let mut list = vec![binding(input, Some(open))?];
    input.list_end(&mut list, |input| binding(input, None), b']')?;
    Ok(list)
}

/// `name = value`, `a, b = deal(…)` or `(rank, suit) = deal(…)`; the binding
/// starts at `start`, or at the first name.
fn binding(input: &mut Input<'_>, start: Option<usize>) -> Parsed<Binding> {
    input.whitespace();
    let name_start = input.pos();
    let first = if input.byte(0) == Some(b'(') {
        card_names(input)?
    } else {
        let name = binding_name(input)?;
        if input.byte(0) == Some(b'(') {
            // `f(x) = body`: a function.
            let (name, name_span) = name;
            definition(input, name, name_span)?;
            return Ok(Binding {
                names: Vec::new(),
                value: None,
                start: start.unwrap_or(name_start),
            });
        }
        vec![name]
    };
    let mut targets = vec![first];
    let mut names_end = input.pos();
    while let Some(target) = input.attempt(|input| {
        input.whitespace();
        input.expect(b',')?;
        input.whitespace();
        binding_target(input)
    }) {
        targets.push(target);
        names_end = input.pos();
    }
    input.whitespace();
    input.expect(b'=')?;
    let value = expression(input)?;
    input.whitespace();
    let names_span = name_start..names_end;
    let widest = targets.iter().map(Vec::len).max().unwrap_or(1);
    match &value.kind {
        ExprKind::Deal(deal) if deal.hands().len() != targets.len() => {
            let problem = Problem::HandNames {
                names: targets.len(),
                hands: deal.hands().len(),
            };
            input.problem(name_start..value.span.end, problem);
        }
        ExprKind::Deal(deal) => {
            let attributes = deal.deck().attributes();
            if let Some(target) = targets.iter().find(|t| t.len() != attributes) {
                let problem = Problem::AttributeNames {
                    names: target.len(),
                    attributes,
                };
                input.problem(names_span, problem);
            }
        }
        _ if value.joins_a_deal() => input.problem(value.span.clone(), Problem::HandInPool),
        _ if targets.len() > 1 || widest > 1 => {
            input.problem(names_span, Problem::SeveralNames);
        }
        _ => {}
    }
    Ok(Binding {
        names: targets.into_iter().flatten().collect(),
        value: Some(value),
        start: start.unwrap_or(name_start),
    })
}

/// `name`, or `(rank, suit)`: a name for each value of a hand's cards.
fn binding_target(input: &mut Input<'_>) -> Parsed<Vec<(String, Span)>> {
    if input.byte(0) == Some(b'(') {
        card_names(input)
    } else {
        Ok(vec![binding_name(input)?])
    }
}

/// `(rank, suit)`: a name for each value of a hand's cards.
fn card_names(input: &mut Input<'_>) -> Parsed<Vec<(String, Span)>> {
    input.expect(b'(')?;
    input.whitespace();
    let mut names = vec![binding_name(input)?];
    input.list_end(
        &mut names,
        |input| {
            input.whitespace();
            binding_name(input)
        },
        b')',
    )?;
    Ok(names)
}

/// A name of a binding, with its span.
fn binding_name(input: &mut Input<'_>) -> Parsed<(String, Span)> {
    let name_start = input.pos();
    let Some(name) = identifier(input) else {
        input.want(&[Expected::Name]);
        return Err(Fail);
    };
    Ok((name.to_string(), name_start..input.pos()))
}

/// `a ? b : c ? d : e`, read as `a ? b : (c ? d : e)` without recursing per `?`.
fn conditional(input: &mut Input<'_>) -> Parsed<Expr> {
    let mut conditions = vec![binary(input, Level::Or)?];
    let mut thens = Vec::new();
    while let Some((then, next)) = input.attempt(|input| {
        input.whitespace();
        if !input.eat(b'?') {
            input.want(&[Expected::Operator]);
            return Err(Fail);
        }
        let then = expression(input)?;
        input.whitespace();
        input.expect(b':')?;
        Ok((then, binary(input, Level::Or)?))
    }) {
        thens.push(then);
        conditions.push(next);
    }
    let mut result = conditions.pop().ok_or(Fail)?;
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
    Ok(result)
}

/// How tightly an operator binds, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Or,
    And,
    /// `not`, a prefix: its operand is a comparison.
    Not,
    Comparison,
    Sum,
    Product,
}

impl Level {
    /// The level of a right operand: one tighter (every binary operator is
    /// left-associative).
    fn tighter(self) -> Option<Level> {
        match self {
            Level::Or => Some(Level::And),
            Level::And => Some(Level::Not),
            Level::Not => Some(Level::Comparison),
            Level::Comparison => Some(Level::Sum),
            Level::Sum => Some(Level::Product),
            Level::Product => None,
        }
    }
}

/// Operands joined by operators of level `min` or tighter.
fn binary(input: &mut Input<'_>, min: Level) -> Parsed<Expr> {
    let (mut left, mut loosest_taken) = match negations(input, min) {
        Some(nots) => {
            let inner = binary(input, Level::Comparison)?;
            (negate_all(nots, inner, ExprKind::Not), Level::Not)
        }
        None => (unary(input)?, Level::Product),
    };
    // The span of the second comparison of a chain, reported once the chain ends.
    let mut comparisons: (usize, Option<Span>) = (0, None);
    loop {
        let before = input.pos();
        input.whitespace();
        let Some((op, level, len)) = operator(input, min, loosest_taken) else {
            input.reset(before);
            break;
        };
        if level != Level::Comparison {
            chained(input, &mut comparisons);
        }
        let at = input.pos();
        let right = input.attempt(|input| {
            if op == BinaryOp::Eq && !input.looking_at("==") {
                input.problem(at..at + 1, Problem::SingleEquals);
            }
            input.advance(len);
            match level.tighter() {
                Some(tighter) => binary(input, tighter),
                None => unary(input),
            }
        });
        let Some(right) = right else {
            input.reset(before);
            break;
        };
        if level == Level::Comparison {
            comparisons.0 += 1;
            if comparisons.0 == 2 {
                comparisons.1 = Some(at..at + len);
            }
        }
        left = Expr {
            span: left.span.start..right.span.end,
            kind: ExprKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
        };
        loosest_taken = level;
    }
    chained(input, &mut comparisons);
    Ok(left)
}

/// Reports a chain of comparisons (`1 < 2 < 3`) once it has ended.
fn chained(input: &mut Input<'_>, comparisons: &mut (usize, Option<Span>)) {
    if let Some(span) = comparisons.1.take() {
        input.problem(span, Problem::ChainedComparison);
    }
    comparisons.0 = 0;
}

/// The binary operator at the position, of level `min` to `loosest_taken`
/// (`loosest_taken` and everything looser when nothing was taken yet), with its
/// level and length; records that an operator was wanted otherwise.
fn operator(
    input: &mut Input<'_>,
    min: Level,
    loosest_taken: Level,
) -> Option<(BinaryOp, Level, usize)> {
    let allowed = |level: Level| min <= level && level <= loosest_taken;
    let binary_levels = [
        Level::Or,
        Level::And,
        Level::Comparison,
        Level::Sum,
        Level::Product,
    ];
    if !binary_levels.into_iter().any(allowed) {
        return None;
    }
    let found = match (input.byte(0), input.byte(1)) {
        (Some(b'*'), _) => Some((BinaryOp::Mul, Level::Product, 1)),
        (Some(b'/'), _) => Some((BinaryOp::Div, Level::Product, 1)),
        (Some(b'%'), _) => Some((BinaryOp::Mod, Level::Product, 1)),
        (Some(b'+'), _) => Some((BinaryOp::Add, Level::Sum, 1)),
        (Some(b'-'), _) => Some((BinaryOp::Sub, Level::Sum, 1)),
        (Some(b'<'), Some(b'=')) => Some((BinaryOp::Le, Level::Comparison, 2)),
        (Some(b'<'), _) => Some((BinaryOp::Lt, Level::Comparison, 1)),
        (Some(b'>'), Some(b'=')) => Some((BinaryOp::Ge, Level::Comparison, 2)),
        (Some(b'>'), _) => Some((BinaryOp::Gt, Level::Comparison, 1)),
        (Some(b'='), Some(b'=')) => Some((BinaryOp::Eq, Level::Comparison, 2)),
        // A lone `=` is reported and read as `==` to go on.
        (Some(b'='), _) => Some((BinaryOp::Eq, Level::Comparison, 1)),
        (Some(b'!'), Some(b'=')) => Some((BinaryOp::Ne, Level::Comparison, 2)),
        (Some(b'!'), _) if allowed(Level::Comparison) => {
            let at = input.pos() + 1;
            input.want_at(at, &[Expected::Symbol('=')]);
            None
        }
        _ if at_keyword(input, "and") => Some((BinaryOp::And, Level::And, 3)),
        _ if at_keyword(input, "or") => Some((BinaryOp::Or, Level::Or, 2)),
        _ => None,
    };
    input.want(&[Expected::Operator]);
    found.filter(|&(_, level, _)| allowed(level))
}

/// The positions of the `not`s at the start of an operand of level `min` (only
/// operands of `and`, `or` and the conditional may start with `not`), or `None`.
fn negations(input: &mut Input<'_>, min: Level) -> Option<Vec<usize>> {
    if min > Level::Not {
        return None;
    }
    let mut nots = Vec::new();
    loop {
        let before = input.pos();
        input.whitespace();
        if !at_keyword(input, "not") {
            input.reset(before);
            break;
        }
        nots.push(input.pos());
        input.advance(3);
    }
    (!nots.is_empty()).then_some(nots)
}

/// Wraps `inner` in one node per prefix position, the last written innermost.
fn negate_all(prefixes: Vec<usize>, inner: Expr, kind: fn(Box<Expr>) -> ExprKind) -> Expr {
    prefixes.into_iter().rev().fold(inner, |inner, start| Expr {
        span: start..inner.span.end,
        kind: kind(Box::new(inner)),
    })
}

/// `-…-atom`, each `-` optionally preceded by whitespace.
fn unary(input: &mut Input<'_>) -> Parsed<Expr> {
    let mut minuses = Vec::new();
    loop {
        input.whitespace();
        if input.eat(b'-') {
            minuses.push(input.pos() - 1);
        } else {
            input.want(&[Expected::Symbol('-')]);
            break;
        }
    }
    let inner = atom(input, true)?;
    Ok(negate_all(minuses, inner, ExprKind::Negate))
}
