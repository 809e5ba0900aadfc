//! Dice terms after the count: `d`, the faces, and the modifiers with their
//! conditions.

use chumsky::input::MapExtra;
use chumsky::prelude::*;

use super::raw_error::{Extra, Label, RawError};
use super::{MAX_CUSTOM_FACES, literal, ordering, signed, starts_with_one_of, whitespace};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{
    Comparison, Condition, Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier, Span,
};
use crate::dice::notation::error::{Expected, Problem};

/// Everything of a dice term from the `d` on.
pub(super) struct DiceTail {
    faces: Faces,
    faces_span: Span,
    modifiers: Vec<Modifier>,
}

impl DiceTail {
    pub(super) fn into_expr(self, count: Option<Expr>, span: SimpleSpan) -> Expr {
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
pub(super) fn dice_tail<'src>() -> impl Parser<'src, &'src str, DiceTail, Extra> + Clone {
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
        move |conditions: Vec<Condition>, e: &mut MapExtra<'src, '_, &'src str, Extra>| {
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
        move |n: Option<u64>, e: &mut MapExtra<'src, '_, &'src str, Extra>| {
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
    let alternatives = choice((
        compounding,
        single_explode,
        reroll,
        keep,
        counting,
        bare_drop,
    ));
    starts_with_one_of("!rkdc")
        .ignore_then(alternatives)
        .labelled(Expected::Modifier)
}

/// The condition of `r`, `ro`, `cs` and `df`: `<N <=N >N >=N =N ==N !=N` or `N`.
fn condition<'src>() -> impl Parser<'src, &'src str, Condition, Extra> + Clone {
    use Comparison::{Eq, Ge, Gt, Le, Lt, Ne};
    let comparison = choice((
        ordering(Lt, Le, Gt, Ge),
        just('=')
            .then(just('=').labelled(Label::Hidden).or_not())
            .to(Eq),
        just("!=").to(Ne),
    ));
    choice((comparison.then(signed()), signed().map(|value| (Eq, value))))
        .map(|(comparison, value)| Condition { comparison, value })
        .labelled(Expected::Condition)
}

/// The condition of `!`: `<N <=N >N >=N` or a non-negative `N`.
fn explode_condition<'src>() -> impl Parser<'src, &'src str, Condition, Extra> + Clone {
    use Comparison::{Eq, Ge, Gt, Le, Lt};
    choice((
        ordering(Lt, Le, Gt, Ge).then(signed()),
        literal::<Outcome>().map(|value| (Eq, value)),
    ))
    .map(|(comparison, value)| Condition { comparison, value })
    .labelled(Expected::Condition)
}
