//! Dice terms after the count: `d`, the faces, and the modifiers, merged and
//! checked (repeats combined, contradictions refused), and the pool modifiers of
//! groups and repetitions.

use chumsky::input::Emitter;
use chumsky::prelude::*;

use super::MAX_CUSTOM_FACES;
use super::expression::parenthesized;
use super::lexical::{literal, signed, whitespace};
use super::modifiers::{Modifier, modifier, pool_modifier};
use super::raw_error::{Extra, RawError};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{
    Comparison, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces, PoolModifier,
    Span,
};
use crate::dice::notation::error::{Expected, Problem};

/// Everything of a dice term from the `d` on, its modifiers merged and checked.
pub(super) struct DiceTail {
    faces: Faces,
    faces_span: Span,
    die_modifiers: Vec<DieModifier>,
    pool_modifiers: Vec<PoolModifier>,
}

impl DiceTail {
    pub(super) fn into_expr(self, count: Option<Expr>, span: SimpleSpan) -> Expr {
        Expr {
            kind: ExprKind::Dice(Dice {
                count: count.map(Box::new),
                faces: self.faces,
                faces_span: self.faces_span,
                die_modifiers: self.die_modifiers,
                pool_modifiers: self.pool_modifiers,
            }),
            span: span.into_range(),
        }
    }
}

/// `d<faces>` followed by modifiers.
pub(super) fn dice_tail<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, DiceTail, Extra> + Clone {
    let faces = choice((
        literal::<u64>().map(Faces::Standard),
        just('%').to(Faces::Percent),
        one_of("Ff")
            .labelled(Expected::Symbol('F'))
            .to(Faces::Fudge),
        custom_faces().map(Faces::Custom),
        parenthesized(expr.clone()).map(|sides| match sides.constant() {
            Some(n) if n >= 0 => Faces::Standard(n as u64),
            _ => Faces::Rolled(Box::new(sides)),
        }),
    ))
    .map_with(|faces, e| (faces, e.span().into_range()));
    one_of("dD")
        .labelled(Expected::Symbol('d'))
        .ignore_then(faces)
        .then(
            whitespace()
                .ignore_then(modifier(expr))
                .repeated()
                .collect::<Vec<_>>(),
        )
        .validate(|((faces, faces_span), modifiers), _, emitter| {
            let (die_modifiers, pool_modifiers) = split(modifiers, emitter);
            DiceTail {
                faces,
                faces_span,
                die_modifiers,
                pool_modifiers,
            }
        })
}

/// The pool modifiers after a group or a repetition, checked.
pub(super) fn pool_modifiers<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Vec<PoolModifier>, Extra> + Clone {
    whitespace()
        .ignore_then(pool_modifier(expr))
        .repeated()
        .collect::<Vec<_>>()
        .validate(|modifiers, _, emitter| {
            check_counting(&modifiers, emitter);
            modifiers
        })
}

/// Splits the modifiers into per-die and per-pool lists, each in written order;
/// combines repeats of one per-die kind written one after another (`r1r2`,
/// `!5!6`) and reports combinations that cannot apply together.
fn split(
    modifiers: Vec<Modifier>,
    emitter: &mut Emitter<RawError>,
) -> (Vec<DieModifier>, Vec<PoolModifier>) {
    let mut die_modifiers: Vec<DieModifier> = Vec::new();
    let mut pool_modifiers = Vec::new();
    let mut previous_was_die = false;
    for modifier in modifiers {
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
    check_die_modifiers(&die_modifiers, emitter);
    check_counting(&pool_modifiers, emitter);
    (die_modifiers, pool_modifiers)
}

/// Adds the conditions of `next` to `last` when both are the same kind and both
/// have conditions (`r1r2`, `!5!6`); says whether it did.
fn merge_into(last: &mut DieModifier, next: &DieModifier) -> bool {
    let (conditions, span, more, next_span) = match (last, next) {
        (
            DieModifier::Explode {
                conditions,
                kind,
                limit,
                span,
            },
            DieModifier::Explode {
                conditions: more,
                kind: next_kind,
                limit: next_limit,
                span: next_span,
            },
        ) if kind == next_kind && limit == next_limit => (conditions, span, more, next_span),
        (
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

/// How an explosion was written, for messages.
fn written(kind: ExplodeKind, limit: ExplodeLimit) -> String {
    match (kind, limit) {
        (_, ExplodeLimit::Once) => "xo".into(),
        (_, ExplodeLimit::PerTerm(cap)) => format!("x{cap}"),
        (ExplodeKind::Dice, ExplodeLimit::Depth) => "!".into(),
        (ExplodeKind::Compound, _) => "!!".into(),
        (ExplodeKind::Penetrate, _) => "!p".into(),
        (ExplodeKind::CompoundPenetrate, _) => "!!p".into(),
    }
}

/// Refuses a second explosion, a reroll after an explosion that adds dice, and
/// clamps that leave a single value.
fn check_die_modifiers(modifiers: &[DieModifier], emitter: &mut Emitter<RawError>) {
    let mut explosion: Option<(ExplodeKind, ExplodeLimit)> = None;
    let mut least: Option<(Outcome, &Span)> = None;
    let mut most: Option<(Outcome, &Span)> = None;
    for modifier in modifiers {
        let span = SimpleSpan::from(modifier.span().clone());
        match modifier {
            DieModifier::Explode { kind, limit, .. } => {
                if let Some((first_kind, first_limit)) = explosion {
                    let problem = Problem::TwoExplosions {
                        first: written(first_kind, first_limit),
                        second: written(*kind, *limit),
                    };
                    emitter.emit(RawError::problem(span, problem));
                }
                explosion = Some((*kind, *limit));
            }
            DieModifier::Reroll { .. } | DieModifier::RerollOnce { .. } => {
                if let Some((kind, limit)) = explosion.filter(|(kind, _)| !kind.compounds()) {
                    let problem = Problem::RerollAfterExplosion {
                        explosion: written(kind, limit),
                    };
                    emitter.emit(RawError::problem(span, problem));
                }
            }
            DieModifier::Minimum { value, span } => least = Some((*value, span)),
            DieModifier::Maximum { value, span } => most = Some((*value, span)),
        }
        if let (Some((low, low_span)), Some((high, high_span))) = (least, most) {
            if low > high {
                let problem = Problem::ConflictingClamps {
                    min: format!("min{low}"),
                    max: format!("max{high}"),
                };
                let at = low_span.start.min(high_span.start);
                let end = low_span.end.max(high_span.end);
                emitter.emit(RawError::problem(SimpleSpan::from(at..end), problem));
                least = None;
            }
        }
    }
}

/// Refuses counting successes and failures at once (`cs>5cf<2`), and counting
/// failures while deducting them (`cf<2df=1`).
fn check_counting(modifiers: &[PoolModifier], emitter: &mut Emitter<RawError>) {
    let show = |m: &PoolModifier| match m {
        PoolModifier::CountSuccesses { condition, .. } => match condition.comparison {
            Comparison::Even | Comparison::Odd => condition.to_string(),
            _ => format!("cs{condition}"),
        },
        PoolModifier::CountFailures { condition, .. } => format!("cf{condition}"),
        PoolModifier::DeductFailures { condition, .. } => format!("df{condition}"),
        _ => String::new(),
    };
    let failures = modifiers
        .iter()
        .find(|m| matches!(m, PoolModifier::CountFailures { .. }));
    let Some(failures) = failures else {
        return;
    };
    let other = modifiers.iter().find(|m| {
        matches!(
            m,
            PoolModifier::CountSuccesses { .. } | PoolModifier::DeductFailures { .. }
        )
    });
    if let Some(other) = other {
        let (first, second) = if other.span().start < failures.span().start {
            (other, failures)
        } else {
            (failures, other)
        };
        let problem = Problem::ConflictingCounts {
            first: show(first),
            second: show(second),
        };
        emitter.emit(RawError::problem(
            SimpleSpan::from(second.span().clone()),
            problem,
        ));
    }
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
