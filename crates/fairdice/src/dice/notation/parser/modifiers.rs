//! The modifiers after a dice term or a pool, each with its condition: explode
//! (`!`, `!!`, `!p`, `x`, `xo`, `x5=10`), reroll (`r`, `rr`, `ro`), clamp (`min`,
//! `max`), keep/drop (`kh kl k dh dl`, with a count that may be computed) and
//! counting (`cs cf df even odd`) and unique dice (`u`, `uo`).
//!
//! The spellings are tried in a fixed order, each undone if it does not fit, so
//! that one that shares its start with another (`kh` and `k`, `df` and Roll20's
//! bare `d`) is read as the first that fits whole.

use super::atom::parenthesized;
use super::input::{Fail, Input, Parsed};
use super::lexical::{literal, signed};
use crate::dice::die::Outcome;
use crate::dice::notation::ast::{
    Comparison, Condition, DieModifier, ExplodeKind, ExplodeLimit, Keep, KeepKind, PoolModifier,
};
use crate::dice::notation::error::{Expected, Problem};

/// A modifier as written, before the lists are split, merged and checked.
pub(super) enum Modifier {
    Die(DieModifier),
    Pool(PoolModifier),
}

/// One modifier: per-die or per-pool after a dice term (`dice`), per-pool only
/// after a group or a repetition.
pub(super) fn modifier(input: &mut Input<'_>, dice: bool) -> Parsed<Modifier> {
    input.label(Some(Expected::Modifier), |input| {
        let starts: &[u8] = if dice { b"!xrmkdceou" } else { b"kdceo" };
        if !input.byte(0).is_some_and(|b| starts.contains(&b)) {
            input.want(&[]);
            return Err(Fail);
        }
        if dice {
            let die = input
                .attempt(explode)
                .or_else(|| input.attempt(foundry_explode))
                .or_else(|| input.attempt(reroll))
                .or_else(|| input.attempt(clamp));
            if let Some(die) = die {
                return Ok(Modifier::Die(die));
            }
        }
        let pool = input
            .attempt(keep)
            .or_else(|| input.attempt(counting))
            .or_else(|| dice.then(|| input.attempt(unique)).flatten());
        match pool {
            Some(pool) => Ok(Modifier::Pool(pool)),
            None if dice => bare_drop(input).map(Modifier::Pool),
            None => Err(Fail),
        }
    })
}

/// `!`, `!!`, `!p`, `!!p`, each with an optional condition. `!!=` is not read as
/// `!!`: `d6!!=5` compares `d6!` with 5, and `!=` is never an explosion.
fn explode(input: &mut Input<'_>) -> Parsed<DieModifier> {
    let start = input.pos();
    if input.looking_at("!=") {
        input.want_span(start, start..start + 2, &[]);
        return Err(Fail);
    }
    if !input.eat(b'!') {
        input.want(&[Expected::Symbol('!')]);
        return Err(Fail);
    }
    let compound = match (input.byte(0), input.byte(1)) {
        (Some(b'!'), Some(b'=')) => {
            let at = input.pos() + 1;
            input.want_at(at, &[]);
            false
        }
        (Some(b'!'), _) => {
            input.advance(1);
            true
        }
        _ => {
            input.want(&[]);
            false
        }
    };
    let penetrate = input.eat(b'p');
    if !penetrate {
        input.want(&[]);
    }
    let condition = input.attempt(explode_condition);
    let kind = match (compound, penetrate) {
        (false, false) => ExplodeKind::Dice,
        (true, false) => ExplodeKind::Compound,
        (false, true) => ExplodeKind::Penetrate,
        (true, true) => ExplodeKind::CompoundPenetrate,
    };
    Ok(DieModifier::Explode {
        conditions: condition.into_iter().collect(),
        kind,
        limit: ExplodeLimit::Depth,
        span: start..input.pos(),
    })
}

/// Foundry's explosions: `x`, `x10`, `x>=9`, `xo`, `xo>=9`, and the cap on the
/// term's extra rolls `x5=10` (a number followed by a condition).
fn foundry_explode(input: &mut Input<'_>) -> Parsed<DieModifier> {
    let start = input.pos();
    if !input.eat(b'x') {
        input.want(&[Expected::Symbol('x')]);
        return Err(Fail);
    }
    let once = |input: &mut Input<'_>| {
        if !input.eat(b'o') {
            input.want(&[]);
            return Err(Fail);
        }
        Ok((ExplodeLimit::Once, input.attempt(foundry_condition)))
    };
    let capped = |input: &mut Input<'_>| {
        let cap = literal::<u64>(input)?;
        let comparison = written_comparison(input)?;
        let value = signed(input)?;
        Ok((
            ExplodeLimit::PerTerm(cap),
            Some(Condition { comparison, value }),
        ))
    };
    let (limit, condition) = match input.attempt(once).or_else(|| input.attempt(capped)) {
        Some(found) => found,
        None => (ExplodeLimit::Depth, input.attempt(foundry_condition)),
    };
    Ok(DieModifier::Explode {
        conditions: condition.into_iter().collect(),
        kind: ExplodeKind::Dice,
        limit,
        span: start..input.pos(),
    })
}

/// `r`, `rr` (until no match) and `ro` (once), each with a condition.
fn reroll(input: &mut Input<'_>) -> Parsed<DieModifier> {
    let start = input.pos();
    if !input.eat(b'r') {
        input.want(&[Expected::Symbol('r')]);
        return Err(Fail);
    }
    let once = match input.byte(0) {
        Some(b'o') => true,
        Some(b'r') => false,
        _ => {
            input.want(&[]);
            let conditions = vec![condition(input)?];
            let span = start..input.pos();
            return Ok(DieModifier::Reroll { conditions, span });
        }
    };
    input.advance(1);
    let conditions = vec![condition(input)?];
    let span = start..input.pos();
    Ok(if once {
        DieModifier::RerollOnce { conditions, span }
    } else {
        DieModifier::Reroll { conditions, span }
    })
}

/// `min3`, `max5`.
fn clamp(input: &mut Input<'_>) -> Parsed<DieModifier> {
    let start = input.pos();
    if let Some(value) = input.attempt(after_word("min", signed)) {
        let span = start..input.pos();
        return Ok(DieModifier::Minimum { value, span });
    }
    let value = after_word("max", signed)(input)?;
    let span = start..input.pos();
    Ok(DieModifier::Maximum { value, span })
}

/// `kh3` = `k3`, `kl`, `dh`, `dl`; the count a literal, a parenthesized
/// expression (`kh(1+2)`, `kh(d3)`) or nothing (one die).
fn keep(input: &mut Input<'_>) -> Parsed<PoolModifier> {
    let start = input.pos();
    let kinds = [
        ("kh", KeepKind::Highest),
        ("kl", KeepKind::Lowest),
        ("k", KeepKind::Highest),
        ("dh", KeepKind::DropHighest),
        ("dl", KeepKind::DropLowest),
    ];
    let kind = kinds
        .into_iter()
        .find(|(word, _)| input.word(word))
        .map(|(_, kind)| kind)
        .ok_or(Fail)?;
    let count = input.attempt(|input| match input.byte(0) {
        Some(b'0'..=b'9') => literal::<u64>(input).map(Ok),
        Some(b'(') => parenthesized(input).map(Err),
        _ => {
            input.want(&[Expected::Number, Expected::Symbol('(')]);
            Err(Fail)
        }
    });
    let span = start..input.pos();
    let keep = |n| PoolModifier::Keep {
        keep: Keep::new(kind, n),
        span: span.clone(),
    };
    Ok(match count {
        None => keep(1),
        Some(Ok(n)) => keep(n),
        Some(Err(count)) => match count.constant() {
            Some(n) if n >= 0 => keep(n as u64),
            Some(n) => {
                input.problem(count.span.clone(), Problem::NegativeKeep(n));
                keep(0)
            }
            None => PoolModifier::KeepRolled {
                kind,
                count: Box::new(count),
                span: span.clone(),
            },
        },
    })
}

/// `cs>=8`, `cf<3`, `df=1`, `even`, `odd`.
fn counting(input: &mut Input<'_>) -> Parsed<PoolModifier> {
    let start = input.pos();
    let with_condition = |word| after_word(word, condition);
    if let Some(condition) = input.attempt(with_condition("cs")) {
        let span = start..input.pos();
        return Ok(PoolModifier::CountSuccesses { condition, span });
    }
    if let Some(condition) = input.attempt(with_condition("cf")) {
        let span = start..input.pos();
        return Ok(PoolModifier::CountFailures { condition, span });
    }
    if let Some(condition) = input.attempt(with_condition("df")) {
        let span = start..input.pos();
        return Ok(PoolModifier::DeductFailures { condition, span });
    }
    let comparison = if input.word("even") {
        Comparison::Even
    } else if input.word("odd") {
        Comparison::Odd
    } else {
        return Err(Fail);
    };
    Ok(PoolModifier::CountSuccesses {
        condition: Condition {
            comparison,
            value: 0,
        },
        span: start..input.pos(),
    })
}

/// `u`, `uo`, each with an optional condition (`u=5`, `uo<3`).
fn unique(input: &mut Input<'_>) -> Parsed<PoolModifier> {
    let start = input.pos();
    if !input.eat(b'u') {
        input.want(&[Expected::Symbol('u')]);
        return Err(Fail);
    }
    let once = input.eat(b'o');
    if !once {
        input.want(&[Expected::Symbol('o')]);
    }
    let condition = input.attempt(condition);
    Ok(PoolModifier::Unique {
        once,
        condition,
        span: start..input.pos(),
    })
}

/// Roll20's and Foundry's bare `d` for dropping dice: reported, read as `dl`.
fn bare_drop(input: &mut Input<'_>) -> Parsed<PoolModifier> {
    let start = input.pos();
    if !input.eat(b'd') {
        input.want(&[Expected::Symbol('d')]);
        return Err(Fail);
    }
    input.attempt(literal::<u64>);
    let span = start..input.pos();
    input.problem(span.clone(), Problem::BareDrop);
    Ok(PoolModifier::Keep {
        keep: Keep::DropLowest(1),
        span,
    })
}

/// `word` and then what `then` reads.
fn after_word<T>(
    word: &'static str,
    then: fn(&mut Input<'_>) -> Parsed<T>,
) -> impl Fn(&mut Input<'_>) -> Parsed<T> {
    move |input| {
        if !input.word(word) {
            return Err(Fail);
        }
        then(input)
    }
}

/// `<`, `<=`, `>`, `>=`.
fn ordering(input: &mut Input<'_>) -> Parsed<Comparison> {
    let (strict, or_equal) = match input.byte(0) {
        Some(b'<') => (Comparison::Lt, Comparison::Le),
        Some(b'>') => (Comparison::Gt, Comparison::Ge),
        _ => {
            input.want(&[Expected::Symbol('<'), Expected::Symbol('>')]);
            return Err(Fail);
        }
    };
    input.advance(1);
    if input.eat(b'=') {
        return Ok(or_equal);
    }
    input.want(&[]);
    Ok(strict)
}

/// The comparison of Foundry's `x`: one of `< <= > >=` or `=`.
fn foundry_comparison(input: &mut Input<'_>) -> Parsed<Comparison> {
    if let Some(comparison) = input.attempt(ordering) {
        return Ok(comparison);
    }
    if input.eat(b'=') {
        return Ok(Comparison::Eq);
    }
    input.want(&[]);
    Err(Fail)
}

/// The condition of `r`, `ro`, `cs`, `cf` and `df`: `<N <=N >N >=N =N ==N !=N`
/// or `N`.
fn condition(input: &mut Input<'_>) -> Parsed<Condition> {
    input.label(Some(Expected::Condition), |input| {
        let compared = input.attempt(|input| {
            let comparison = written_comparison(input)?;
            let value = signed(input)?;
            Ok(Condition { comparison, value })
        });
        match compared {
            Some(condition) => Ok(condition),
            None => bare(input, signed),
        }
    })
}

/// The comparison of a condition written out: `< <= > >= = == !=`.
fn written_comparison(input: &mut Input<'_>) -> Parsed<Comparison> {
    Ok(match input.attempt(ordering) {
        Some(comparison) => comparison,
        None if input.eat(b'=') => {
            if !input.eat(b'=') {
                input.want(&[]);
            }
            Comparison::Eq
        }
        None if input.word("!=") => Comparison::Ne,
        None => return Err(Fail),
    })
}

/// The condition of `!`: `<N <=N >N >=N` or a non-negative `N`.
fn explode_condition(input: &mut Input<'_>) -> Parsed<Condition> {
    input.label(Some(Expected::Condition), |input| {
        let compared = input.attempt(|input| {
            let comparison = ordering(input)?;
            let value = signed(input)?;
            Ok(Condition { comparison, value })
        });
        match compared {
            Some(condition) => Ok(condition),
            None => bare(input, literal::<Outcome>),
        }
    })
}

/// The condition of Foundry's `x` and `xo`: `<N <=N >N >=N =N` or a
/// non-negative `N`.
fn foundry_condition(input: &mut Input<'_>) -> Parsed<Condition> {
    input.label(Some(Expected::Condition), |input| {
        let compared = input.attempt(|input| {
            let comparison = foundry_comparison(input)?;
            let value = signed(input)?;
            Ok(Condition { comparison, value })
        });
        match compared {
            Some(condition) => Ok(condition),
            None => bare(input, literal::<Outcome>),
        }
    })
}

/// A bare number read by `number`: the condition "equal to it".
fn bare(input: &mut Input<'_>, number: fn(&mut Input<'_>) -> Parsed<Outcome>) -> Parsed<Condition> {
    let value = number(input)?;
    Ok(Condition {
        comparison: Comparison::Eq,
        value,
    })
}
