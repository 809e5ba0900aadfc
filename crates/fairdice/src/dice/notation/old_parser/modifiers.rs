//! The modifiers after a dice term or a pool, each with its condition: explode
//! (`!`, `!!`, `!p`, `x`, `xo`, `x5=10`), reroll (`r`, `rr`, `ro`), clamp (`min`,
//! `max`), keep/drop (`kh kl k dh dl`, with a count that may be computed) and
//! counting (`cs cf df even odd`).

use chumsky::input::MapExtra;
use chumsky::prelude::*;

use super::expression::parenthesized;
use super::lexical::{literal, ordering, signed, starts_with_one_of};
use super::raw_error::{Extra, Label, RawError};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{
    Comparison, Condition, DieModifier, ExplodeKind, ExplodeLimit, Expr, Keep, KeepKind,
    PoolModifier, Span,
};
use crate::dice::notation::error::{Expected, Problem};

/// A modifier as written, before the lists are split, merged and checked.
pub(super) enum Modifier {
    Die(DieModifier),
    Pool(PoolModifier),
}

/// One per-die or per-pool modifier.
pub(super) fn modifier<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, Modifier, Extra> + Clone {
    let alternatives = choice((
        explode().map(Modifier::Die),
        foundry_explode().map(Modifier::Die),
        reroll().map(Modifier::Die),
        clamp().map(Modifier::Die),
        pool_alternatives(expr).map(Modifier::Pool),
        bare_drop(),
    ));
    starts_with_one_of("!xrmkdceo")
        .ignore_then(alternatives)
        .labelled(Expected::Modifier)
}

/// One per-pool modifier (after a group or a repetition).
pub(super) fn pool_modifier<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, PoolModifier, Extra> + Clone {
    starts_with_one_of("kdceo")
        .ignore_then(pool_alternatives(expr))
        .labelled(Expected::Modifier)
}

fn pool_alternatives<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, PoolModifier, Extra> + Clone {
    choice((keep(expr), counting()))
}

/// `!`, `!!`, `!p`, `!!p`, each with an optional condition. `!!=` is not read as
/// `!!`: `d6!!=5` compares `d6!` with 5.
fn explode<'src>() -> impl Parser<'src, &'src str, DieModifier, Extra> + Clone {
    let second = just('!')
        .labelled(Label::Hidden)
        .then(just('=').not())
        .or_not()
        .map(|second| second.is_some());
    just("!=")
        .not()
        .ignore_then(just('!'))
        .ignore_then(second)
        .then(just('p').labelled(Label::Hidden).or_not())
        .then(explode_condition().or_not())
        .map_with(|((compound, penetrate), condition), e| {
            let kind = match (compound, penetrate.is_some()) {
                (false, false) => ExplodeKind::Dice,
                (true, false) => ExplodeKind::Compound,
                (false, true) => ExplodeKind::Penetrate,
                (true, true) => ExplodeKind::CompoundPenetrate,
            };
            DieModifier::Explode {
                conditions: condition.into_iter().collect(),
                kind,
                limit: ExplodeLimit::Depth,
                span: e.span().into_range(),
            }
        })
}

/// Foundry's explosions: `x`, `x10`, `x>=9`, `xo`, `xo>=9`, and the cap on the
/// term's extra rolls `x5=10` (a number followed by a condition).
fn foundry_explode<'src>() -> impl Parser<'src, &'src str, DieModifier, Extra> + Clone {
    use Comparison::{Eq, Ge, Gt, Le, Lt};
    let comparison = choice((
        ordering(Lt, Le, Gt, Ge),
        just('=').labelled(Label::Hidden).to(Eq),
    ));
    let condition = choice((
        comparison.clone().then(signed()),
        literal::<Outcome>().map(|value| (Eq, value)),
    ))
    .map(|(comparison, value)| Condition { comparison, value })
    .labelled(Expected::Condition);
    let capped =
        literal::<u64>()
            .then(comparison.then(signed()))
            .map(|(cap, (comparison, value))| {
                (
                    ExplodeLimit::PerTerm(cap),
                    Some(Condition { comparison, value }),
                )
            });
    let once = just('o')
        .labelled(Label::Hidden)
        .ignore_then(condition.clone().or_not())
        .map(|condition| (ExplodeLimit::Once, condition));
    let plain = condition.or_not().map(|c| (ExplodeLimit::Depth, c));
    just('x')
        .ignore_then(choice((once, capped, plain)))
        .map_with(|(limit, condition), e| DieModifier::Explode {
            conditions: condition.into_iter().collect(),
            kind: ExplodeKind::Dice,
            limit,
            span: e.span().into_range(),
        })
}

/// `r`, `rr` (until no match) and `ro` (once), each with a condition.
fn reroll<'src>() -> impl Parser<'src, &'src str, DieModifier, Extra> + Clone {
    just('r')
        .ignore_then(one_of("ro").labelled(Label::Hidden).or_not())
        .then(condition())
        .map_with(|(second, condition), e| {
            let (conditions, span) = (vec![condition], e.span().into_range());
            match second {
                Some('o') => DieModifier::RerollOnce { conditions, span },
                _ => DieModifier::Reroll { conditions, span },
            }
        })
}

/// `min3`, `max5`.
fn clamp<'src>() -> impl Parser<'src, &'src str, DieModifier, Extra> + Clone {
    choice((
        just("min")
            .ignore_then(signed())
            .map_with(|value, e| DieModifier::Minimum {
                value,
                span: e.span().into_range(),
            }),
        just("max")
            .ignore_then(signed())
            .map_with(|value, e| DieModifier::Maximum {
                value,
                span: e.span().into_range(),
            }),
    ))
}

/// `kh3` = `k3`, `kl`, `dh`, `dl`; the count a literal, a parenthesized
/// expression (`kh(1+2)`, `kh(d3)`) or nothing (one die).
fn keep<'src>(
    expr: impl Parser<'src, &'src str, Expr, Extra> + Clone + 'src,
) -> impl Parser<'src, &'src str, PoolModifier, Extra> + Clone {
    let kind = choice((
        just("kh").to(KeepKind::Highest),
        just("kl").to(KeepKind::Lowest),
        just('k').to(KeepKind::Highest),
        just("dh").to(KeepKind::DropHighest),
        just("dl").to(KeepKind::DropLowest),
    ));
    let count = choice((
        literal::<u64>().map(KeepCount::Literal),
        parenthesized(expr).map(KeepCount::Expr),
    ))
    .or_not();
    kind.then(count).validate(|(kind, count), e, emitter| {
        let span = e.span().into_range();
        match count {
            None => PoolModifier::Keep {
                keep: Keep::new(kind, 1),
                span,
            },
            Some(KeepCount::Literal(n)) => PoolModifier::Keep {
                keep: Keep::new(kind, n),
                span,
            },
            Some(KeepCount::Expr(count)) => match count.constant() {
                Some(n) if n >= 0 => PoolModifier::Keep {
                    keep: Keep::new(kind, n as u64),
                    span,
                },
                Some(n) => {
                    emitter.emit(RawError::problem(
                        SimpleSpan::from(count.span.clone()),
                        Problem::NegativeKeep(n),
                    ));
                    PoolModifier::Keep {
                        keep: Keep::new(kind, 0),
                        span,
                    }
                }
                None => PoolModifier::KeepRolled {
                    kind,
                    count: Box::new(count),
                    span,
                },
            },
        }
    })
}

/// A keep count as written.
enum KeepCount {
    Literal(u64),
    Expr(Expr),
}

/// `cs>=8`, `cf<3`, `df=1`, `even`, `odd`.
fn counting<'src>() -> impl Parser<'src, &'src str, PoolModifier, Extra> + Clone {
    let with = |kind: fn(Condition, Span) -> PoolModifier| {
        move |condition: Condition, e: &mut MapExtra<'src, '_, &'src str, Extra>| {
            kind(condition, e.span().into_range())
        }
    };
    let parity = |comparison: Comparison| {
        move |_, e: &mut MapExtra<'src, '_, &'src str, Extra>| PoolModifier::CountSuccesses {
            condition: Condition {
                comparison,
                value: 0,
            },
            span: e.span().into_range(),
        }
    };
    choice((
        just("cs")
            .ignore_then(condition())
            .map_with(with(|condition, span| PoolModifier::CountSuccesses {
                condition,
                span,
            })),
        just("cf")
            .ignore_then(condition())
            .map_with(with(|condition, span| PoolModifier::CountFailures {
                condition,
                span,
            })),
        just("df")
            .ignore_then(condition())
            .map_with(with(|condition, span| PoolModifier::DeductFailures {
                condition,
                span,
            })),
        just("even").map_with(parity(Comparison::Even)),
        just("odd").map_with(parity(Comparison::Odd)),
    ))
}

/// Roll20's and Foundry's bare `d` for dropping dice: reported, read as `dl`.
fn bare_drop<'src>() -> impl Parser<'src, &'src str, Modifier, Extra> + Clone {
    just('d')
        .then(literal::<u64>().or_not())
        .validate(|_, e, emitter| {
            emitter.emit(RawError::problem(e.span(), Problem::BareDrop));
            Modifier::Pool(PoolModifier::Keep {
                keep: Keep::DropLowest(1),
                span: e.span().into_range(),
            })
        })
}

/// The condition of `r`, `ro`, `cs`, `cf` and `df`: `<N <=N >N >=N =N ==N !=N`
/// or `N`.
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
