//! Names after parsing: every name used is bound by an enclosing `[name = …]`, no
//! name is bound again where it is already bound, and no name reads as something
//! else (a die, a keyword, a function).

use crate::dice::notation::ast::{Expr, ExprKind};
use crate::dice::notation::error::{ParseError, Problem};

/// Checks the names of `expr`, walking it without recursion.
///
/// # Errors
/// The first name at fault, in the order written.
pub(super) fn check_names(text: &str, expr: &Expr) -> Result<(), ParseError> {
    check_names_within(text, expr, &[])
}

/// As [`check_names`], `outer` already bound around `expr` (a function's
/// parameters around its body).
pub(super) fn check_names_within(
    text: &str,
    expr: &Expr,
    outer: &[&str],
) -> Result<(), ParseError> {
    enum Task<'a> {
        Visit(&'a Expr),
        Bind(&'a str),
        Unbind,
    }
    let mut scope: Vec<&str> = outer.to_vec();
    let mut tasks = vec![Task::Visit(expr)];
    let mut first: Option<(usize, ParseError)> = None;
    let mut report = |span: &std::ops::Range<usize>, problem: Problem| {
        if first.as_ref().is_none_or(|(at, _)| span.start < *at) {
            let error = ParseError::with_problem(text, span.clone(), problem);
            first = Some((span.start, error));
        }
    };
    while let Some(task) = tasks.pop() {
        let node = match task {
            Task::Unbind => {
                scope.pop();
                continue;
            }
            Task::Bind(name) => {
                scope.push(name);
                continue;
            }
            Task::Visit(node) => node,
        };
        match &node.kind {
            ExprKind::Name(name) if !scope.contains(&name.as_str()) => {
                let problem = match reads_as(name) {
                    Some(reads_as) => Problem::ReservedName {
                        name: name.clone(),
                        reads_as,
                    },
                    None => Problem::UnknownName { name: name.clone() },
                };
                report(&node.span, problem);
            }
            ExprKind::Bind {
                name,
                name_span,
                value,
                body,
            } => {
                if let Some(reads_as) = reads_as(name) {
                    let problem = Problem::ReservedName {
                        name: name.clone(),
                        reads_as,
                    };
                    report(name_span, problem);
                } else if scope.contains(&name.as_str()) {
                    report(name_span, Problem::NameTaken { name: name.clone() });
                }
                // The value is outside the name's scope, the body inside it (the
                // tasks run last pushed first).
                tasks.push(Task::Unbind);
                tasks.push(Task::Visit(body));
                tasks.push(Task::Bind(name));
                tasks.push(Task::Visit(value));
            }
            ExprKind::BindHands { names, body, .. } => {
                let mut bound: Vec<&str> = Vec::new();
                for (name, name_span) in names {
                    if let Some(reads_as) = reads_as(name) {
                        let problem = Problem::ReservedName {
                            name: name.clone(),
                            reads_as,
                        };
                        report(name_span, problem);
                    } else if scope.contains(&name.as_str()) || bound.contains(&name.as_str()) {
                        report(name_span, Problem::NameTaken { name: name.clone() });
                    }
                    bound.push(name);
                }
                // The deal is read through the names: it is not visited as a
                // deal of several hands standing alone.
                for _ in names {
                    tasks.push(Task::Unbind);
                }
                tasks.push(Task::Visit(body));
                for name in bound {
                    tasks.push(Task::Bind(name));
                }
            }
            ExprKind::Deal(deal) if deal.deck().attributes() > 1 => {
                let problem = Problem::CardAttributes {
                    attributes: deal.deck().attributes(),
                };
                report(&node.span, problem);
            }
            ExprKind::Deal(deal) if deal.hands().len() > 1 => {
                let problem = Problem::UnnamedHands {
                    hands: deal.hands().len(),
                };
                report(&node.span, problem);
            }
            _ => {
                for child in node.children().into_iter().rev() {
                    tasks.push(Task::Visit(child));
                }
            }
        }
    }
    first.map_or(Ok(()), |(_, error)| Err(error))
}

/// What a name reads as, if it cannot be a name.
pub(super) fn reads_as(name: &str) -> Option<&'static str> {
    let bytes = name.as_bytes();
    if matches!(name, "and" | "or" | "not" | "as") {
        return Some("a keyword");
    }
    if matches!(name, "deal" | "deck") {
        return Some("cards (`deal(deck{1..13:4}, 5)`)");
    }
    if crate::dice::notation::ast::Function::named(name).is_some() {
        return Some("a function");
    }
    if matches!(name, "d" | "D") {
        return Some("a die without its faces (`d6`)");
    }
    let dice_like = matches!(bytes.first(), Some(b'd' | b'D'))
        && matches!(bytes.get(1), Some(b'0'..=b'9' | b'F' | b'f'));
    dice_like.then_some("a die")
}
