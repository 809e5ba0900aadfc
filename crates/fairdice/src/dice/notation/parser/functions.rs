//! Functions of the user's own: `[crit(x) = x == 20 ? 2 : x >= 15] crit(d20) +
//! crit(d20)`.
//!
//! # Design decisions
//! - A definition is a binding with parameters; it holds for the rest of the
//!   binding list and the body, as a name does. A call rolls its arguments
//!   afresh, and the body sees one roll of each wherever it says a parameter:
//!   `f(a, b)` means `[x = a, y = b] body`. It is written out that way as it is
//!   read, so the evaluator, the cost estimate and the roller know nothing of
//!   functions, and an argument that is a pool is read by the body's pool
//!   functions (`[pairs(h) = sets(h, 2)] pairs(5d6)`).
//! - The names of a call's body are given the function's name as a prefix
//!   (`crit.x`), which no one can write, so they never meet the caller's names.
//! - A body sees only its parameters (and the functions defined before it): what
//!   a function gives depends on its arguments alone.
//! - A function never calls itself, directly or through another (a body can
//!   call only functions defined before it): an exact answer cannot cut a
//!   recursion short, so one that might not end is refused where it is written.
//!   Explosions, the usual reason for recursion in AnyDice, are `!`.
//! - Written-out calls are counted: past [`MAX_EXPANDED_NODES`] nodes (calls of
//!   calls doubling at each level) the expression is refused.

use super::input::{Fail, Input, Parsed};
use super::names::{check_names_within, reads_as};
use crate::dice::notation::ast::{Expr, ExprKind, Function, Span};
use crate::dice::notation::error::{Expected, Problem};

/// The most nodes the calls of one expression may write out.
pub const MAX_EXPANDED_NODES: usize = 100_000;

/// A function defined by the user.
#[derive(Debug, Clone)]
pub(super) struct Definition {
    name: String,
    parameters: Vec<(String, Span)>,
    body: Expr,
    nodes: usize,
}

impl Definition {
    /// The function's name.
    pub(super) fn name(&self) -> &str {
        &self.name
    }
}

/// `f(x, y) = body` from the `(` on, the name already read at `name_span`.
pub(super) fn definition(input: &mut Input<'_>, name: String, name_span: Span) -> Parsed<()> {
    input.expect(b'(')?;
    let mut parameters = vec![parameter(input)?];
    input.list_end(&mut parameters, parameter, b')')?;
    input.whitespace();
    input.expect(b'=')?;
    input.defining.push(name.clone());
    let body = super::expression::expression(input);
    input.defining.pop();
    let body = body?;
    input.whitespace();
    if let Some(reads_as) = reads_as(&name) {
        input.problem(
            name_span.clone(),
            Problem::ReservedName {
                name: name.clone(),
                reads_as,
            },
        );
    } else if input.function(&name).is_some() {
        input.problem(name_span.clone(), Problem::NameTaken { name: name.clone() });
    }
    let names: Vec<&str> = parameters.iter().map(|(p, _)| p.as_str()).collect();
    for (i, (parameter, span)) in parameters.iter().enumerate() {
        if let Some(reads_as) = reads_as(parameter) {
            let problem = Problem::ReservedName {
                name: parameter.clone(),
                reads_as,
            };
            input.problem(span.clone(), problem);
        } else if names[..i].contains(&parameter.as_str()) {
            let problem = Problem::NameTaken {
                name: parameter.clone(),
            };
            input.problem(span.clone(), problem);
        }
    }
    // The body sees its parameters and nothing else.
    if let Err(error) = check_names_within(input.text(), &body, &names)
        && let Some(problem) = error.problem()
    {
        let problem = match problem {
            Problem::UnknownName { name: free } => Problem::FunctionSeesOnlyParameters {
                function: name.clone(),
                name: free.clone(),
            },
            other => other.clone(),
        };
        input.problem(error.span(), problem);
    }
    let nodes = count_nodes(&body);
    input.functions.push(Definition {
        name,
        parameters,
        body,
        nodes,
    });
    Ok(())
}

/// A parameter's name and where it is written.
fn parameter(input: &mut Input<'_>) -> Parsed<(String, Span)> {
    input.whitespace();
    let start = input.pos();
    let Some(name) = super::lexical::identifier(input) else {
        input.want(&[Expected::Name]);
        return Err(Fail);
    };
    let parameter = (name.to_string(), start..input.pos());
    input.whitespace();
    Ok(parameter)
}

/// A call of a function the user defined, `name(a, b)` from the `(` on, written
/// out as bindings of its parameters around its body.
pub(super) fn call(input: &mut Input<'_>, name: &str, name_span: Span) -> Parsed<Expr> {
    let definition = input.function(name).cloned().ok_or(Fail)?;
    input.expect(b'(')?;
    let mut arguments = vec![super::expression::expression(input)?];
    input.list_end(&mut arguments, super::expression::expression, b')')?;
    let span = name_span.start..input.pos();
    if arguments.len() != definition.parameters.len() {
        let problem = Problem::FunctionArguments {
            function: name.to_string(),
            parameters: definition.parameters.len(),
            given: arguments.len(),
        };
        input.problem(span.clone(), problem);
        return Ok(Expr {
            kind: ExprKind::Number(0),
            span,
        });
    }
    input.expanded += definition.nodes;
    if input.expanded > MAX_EXPANDED_NODES {
        let problem = Problem::FunctionsTooLarge {
            max: MAX_EXPANDED_NODES,
        };
        input.problem(span.clone(), problem);
        return Ok(Expr {
            kind: ExprKind::Number(0),
            span,
        });
    }
    let prefix = format!("{name}.");
    let mut body = definition.body.clone();
    prefix_names(&mut body, &prefix);
    let mut call = body;
    for ((parameter, _), argument) in definition.parameters.iter().zip(arguments).rev() {
        // A roll shows the binding as the argument's text.
        let name = (format!("{prefix}{parameter}"), argument.span.clone());
        let kind = match &argument.kind {
            ExprKind::Deal(deal) => {
                if deal.deck().attributes() > 1 {
                    let problem = Problem::CardAttributes {
                        attributes: deal.deck().attributes(),
                    };
                    input.problem(argument.span.clone(), problem);
                } else if deal.hands().len() != 1 {
                    let problem = Problem::HandNames {
                        names: 1,
                        hands: deal.hands().len(),
                    };
                    input.problem(argument.span.clone(), problem);
                }
                ExprKind::BindHands {
                    names: vec![name],
                    deal: Box::new(argument),
                    body: Box::new(call),
                }
            }
            _ => {
                if argument.joins_a_deal() {
                    input.problem(argument.span.clone(), Problem::HandInPool);
                }
                ExprKind::Bind {
                    name: name.0,
                    name_span: name.1,
                    value: Box::new(argument),
                    body: Box::new(call),
                }
            }
        };
        call = Expr {
            kind,
            span: span.clone(),
        };
    }
    call.span = span;
    Ok(call)
}

/// Whether a call of `name` would be a function calling itself.
pub(super) fn calls_itself(input: &Input<'_>, name: &str) -> bool {
    input.defining.iter().any(|defining| defining == name)
        && input.function(name).is_none()
        && Function::named(name).is_none()
}

/// Puts `prefix` before every name bound or used in `expr`.
fn prefix_names(expr: &mut Expr, prefix: &str) {
    let mut stack = vec![expr];
    while let Some(node) = stack.pop() {
        match &mut node.kind {
            ExprKind::Name(name) | ExprKind::Bind { name, .. } => {
                name.insert_str(0, prefix);
            }
            ExprKind::BindHands { names, .. } => {
                for (name, _) in names {
                    name.insert_str(0, prefix);
                }
            }
            _ => {}
        }
        stack.extend(node.children_mut());
    }
}

/// The nodes of a tree.
fn count_nodes(expr: &Expr) -> usize {
    let mut stack = vec![expr];
    let mut nodes = 0;
    while let Some(node) = stack.pop() {
        nodes += 1;
        stack.extend(node.children());
    }
    nodes
}
