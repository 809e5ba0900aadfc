//! Dice terms after the count: `d`, the faces, and the modifiers, merged and
//! checked (repeats combined, contradictions refused), and the pool modifiers of
//! groups and repetitions.

use super::MAX_CUSTOM_FACES;
use super::atom::parenthesized;
use super::input::{Fail, Input, Parsed};
use super::lexical::{literal, signed};
use super::modifiers::{Modifier, modifier};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{
    Comparison, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, Faces, PoolModifier, Span,
};
use crate::dice::notation::error::{Expected, Problem};

/// What may start the faces of a die.
pub(super) const FACES: [Expected; 5] = [
    Expected::Number,
    Expected::Symbol('%'),
    Expected::Symbol('F'),
    Expected::Symbol('{'),
    Expected::Symbol('('),
];

/// Everything of a dice term from the `d` on, its modifiers merged and checked.
pub(super) struct DiceTail {
    faces: Faces,
    faces_span: Span,
    die_modifiers: Vec<DieModifier>,
    pool_modifiers: Vec<PoolModifier>,
}

impl DiceTail {
    /// The dice term of this tail with `count` dice.
    pub(super) fn into_dice(self, count: Option<Expr>) -> Dice {
        Dice {
            count: count.map(Box::new),
            faces: self.faces,
            faces_span: self.faces_span,
            die_modifiers: self.die_modifiers,
            pool_modifiers: self.pool_modifiers,
        }
    }
}

/// `d<faces>` followed by modifiers.
pub(super) fn dice_tail(input: &mut Input<'_>) -> Parsed<DiceTail> {
    if !matches!(input.byte(0), Some(b'd' | b'D')) {
        input.want(&[Expected::Symbol('d')]);
        return Err(Fail);
    }
    input.advance(1);
    let start = input.pos();
    let faces = match input.byte(0) {
        Some(b'0'..=b'9') => Faces::Standard(literal(input)?),
        Some(b'%') => {
            input.advance(1);
            Faces::Percent
        }
        Some(b'F' | b'f') => {
            input.advance(1);
            Faces::Fudge
        }
        Some(b'{') => Faces::Custom(custom_faces(input)?),
        Some(b'(') => {
            let sides = parenthesized(input)?;
            match sides.constant() {
                Some(n) if n >= 0 => Faces::Standard(n as u64),
                _ => Faces::Rolled(Box::new(sides)),
            }
        }
        _ => {
            input.want(&FACES);
            return Err(Fail);
        }
    };
    let faces_span = start..input.pos();
    Ok(dice_modifiers(input, faces, faces_span))
}

/// The modifiers after the faces, split into per-die and per-pool lists.
pub(super) fn dice_modifiers(input: &mut Input<'_>, faces: Faces, faces_span: Span) -> DiceTail {
    let mut modifiers = Vec::new();
    while let Some(m) = input.attempt(|input| {
        input.whitespace();
        modifier(input, true)
    }) {
        modifiers.push(m);
    }
    let (die_modifiers, pool_modifiers) = split(input, modifiers);
    DiceTail {
        faces,
        faces_span,
        die_modifiers,
        pool_modifiers,
    }
}

/// The pool modifiers after a group or a repetition, checked.
pub(super) fn pool_modifiers(input: &mut Input<'_>) -> Vec<PoolModifier> {
    let mut modifiers = Vec::new();
    while let Some(Modifier::Pool(m)) = input.attempt(|input| {
        input.whitespace();
        modifier(input, false)
    }) {
        modifiers.push(m);
    }
    check_counting(input, &modifiers);
    modifiers
}

/// Splits the modifiers into per-die and per-pool lists, each in written order;
/// combines repeats of one per-die kind written one after another (`r1r2`,
/// `!5!6`, but not `ro1ro2`) and reports combinations that cannot apply together.
fn split(input: &mut Input<'_>, modifiers: Vec<Modifier>) -> (Vec<DieModifier>, Vec<PoolModifier>) {
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
    check_die_modifiers(input, &die_modifiers);
    check_counting(input, &pool_modifiers);
    check_unique(input, &die_modifiers, &pool_modifiers);
    (die_modifiers, pool_modifiers)
}

/// Refuses unique dice after another pool modifier, twice, or with per-die
/// modifiers (whose rolls a repeat would be rolled again through).
fn check_unique(input: &mut Input<'_>, die: &[DieModifier], pool: &[PoolModifier]) {
    for (i, modifier) in pool.iter().enumerate() {
        if !matches!(modifier, PoolModifier::Unique { .. }) {
            continue;
        }
        let span = modifier.span().clone();
        if pool[..i]
            .iter()
            .all(|m| !matches!(m, PoolModifier::Unique { .. }))
            && i > 0
        {
            input.problem(span, Problem::UniqueLate);
            continue;
        }
        let message = if i > 0 {
            "a second `u`: write the dice's unique rule once"
        } else if pool
            .iter()
            .any(|m| matches!(m, PoolModifier::KeepRolled { .. }))
        {
            "`u` with a rolled keep count (`kh(d3)`) has no exact reading yet"
        } else if !die.is_empty() {
            "`u` with per-die modifiers (`!`, `r`, `min`, `max`) has no exact reading yet: a repeat would be rolled again through them"
        } else {
            continue;
        };
        input.problem(span, Problem::Unique(message.to_string()));
    }
}
/// Adds the conditions of `next` to `last` when both are the same kind and both
/// have conditions (`r1r2`, `!5!6`; not `ro1ro2`, which applies in turn); says
/// whether it did.
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
        ) => (conditions, span, more, next_span),
        // `ro1ro2` rerolls a 1 once, then a 2 once, the second reroll rolling
        // the die the first made (mean 1853/432); one `ro` on either (`ro<=2`,
        // 25/6) is another die. Rerolls until no match (`r1r2`) condition the
        // die, which is the same in either order or together.
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

/// Refuses a second explosion and clamps that leave a single value.
fn check_die_modifiers(input: &mut Input<'_>, modifiers: &[DieModifier]) {
    let mut explosion: Option<(ExplodeKind, ExplodeLimit)> = None;
    let mut least: Option<(Outcome, &Span)> = None;
    let mut most: Option<(Outcome, &Span)> = None;
    for modifier in modifiers {
        let span = modifier.span().clone();
        match modifier {
            DieModifier::Explode { kind, limit, .. } => {
                if let Some((first_kind, first_limit)) = explosion {
                    let problem = Problem::TwoExplosions {
                        first: written(first_kind, first_limit),
                        second: written(*kind, *limit),
                    };
                    input.problem(span.clone(), problem);
                }
                explosion = Some((*kind, *limit));
            }
            DieModifier::Reroll { .. } | DieModifier::RerollOnce { .. } => {}
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
                input.problem(at..end, problem);
                least = None;
            }
        }
    }
}

/// Refuses counting successes and failures at once (`cs>5cf<2`), and counting
/// failures while deducting them (`cf<2df=1`).
fn check_counting(input: &mut Input<'_>, modifiers: &[PoolModifier]) {
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
        input.problem(second.span().clone(), problem);
    }
}

/// `{1, 1, 2, 3}` or `{-1..1, 5}`: listed faces, ranges expanded inclusively.
fn custom_faces(input: &mut Input<'_>) -> Parsed<Vec<Outcome>> {
    let start = input.pos();
    input.expect(b'{')?;
    let mut ranges: Vec<_> = input.attempt(face_range).into_iter().collect();
    input.list_end(&mut ranges, face_range, b'}')?;
    let span = start..input.pos();
    let size =
        |&(low, high): &(Outcome, Outcome)| (i128::from(high) - i128::from(low) + 1).max(0) as u128;
    let total: u128 = ranges.iter().map(size).sum();
    if total == 0 && ranges.iter().all(|(low, high)| low <= high) {
        input.problem(span, Problem::NoFaces);
        return Ok(Vec::new());
    }
    if total > MAX_CUSTOM_FACES as u128 {
        let problem = Problem::TooManyFaces {
            max: MAX_CUSTOM_FACES,
        };
        input.problem(span, problem);
        return Ok(Vec::new());
    }
    Ok(ranges
        .into_iter()
        .flat_map(|(low, high)| low..=high)
        .collect())
}

/// One face `5` or range `-1..1` of a custom die.
pub(super) fn face_range(input: &mut Input<'_>) -> Parsed<(Outcome, Outcome)> {
    input.whitespace();
    let start = input.pos();
    let low = signed(input)?;
    let high = input
        .attempt(|input| {
            input.whitespace();
            for _ in 0..2 {
                if !input.eat(b'.') {
                    input.want(&[Expected::RangeDots]);
                    return Err(Fail);
                }
            }
            input.whitespace();
            signed(input)
        })
        .unwrap_or(low);
    if high < low {
        input.problem(start..input.pos(), Problem::EmptyRange { low, high });
    }
    Ok((low, high))
}
