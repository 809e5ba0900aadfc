//! Dice terms: the faces (listed, or as many sides as a roll shows), the per-die
//! modifiers, the count (fixed, computed or rolled) and the pool modifiers.
//!
//! Per-die modifiers apply in the order written, each to what the ones before it
//! made; a compounding explosion (`!!`) is one of them and makes one die of its
//! chain. An explosion whose extra rolls are dice (`!`, `!p`, `x`) splits them:
//! the modifiers before it shape every roll (and the explosion tests that
//! shaped roll), the clamps and rerolls after it apply to every die it makes (a
//! reroll rolls the die as shaped before the explosion, and does not explode).

use super::chains::{Chain, Settle};
use super::pools::Shapes;
use super::unique::Unique;
use super::{Count, Exact, any_matches, explode_test, pool_value, selected};
use crate::dice::die::{Die, DieError, MAX_DICE, Outcome};
use crate::dice::evaluator::kept_sum;
use crate::dice::mixture::Mixture;
use crate::dice::notation::ast::{
    Condition, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces, PoolModifier,
    Span,
};
use crate::dice::notation::failure::NotationError;
use crate::dice::pool::Pool;

/// What one die of a term is, once its per-die modifiers are read.
enum PerDie<'m> {
    /// One value per die.
    Single(Die),
    /// Extra rolls are dice of their own.
    Exploding {
        /// One roll, shaped by the modifiers before the explosion.
        roll: Die,
        /// The highest face of the bare die (what `!` without a condition tests).
        top: Outcome,
        conditions: &'m [Condition],
        kind: ExplodeKind,
        limit: ExplodeLimit,
        /// The clamps and rerolls written after the explosion.
        after: &'m [DieModifier],
    },
}

impl<'a> Exact<'a> {
    /// A whole dice term.
    pub(super) fn dice(&mut self, dice: &'a Dice, span: &Span) -> Result<Die, NotationError> {
        match &dice.faces {
            Faces::Rolled(sides) => {
                let rolled = self.sides(sides, &dice.faces_span)?;
                let mut mixture = Mixture::new();
                for (n, weight) in rolled.iter() {
                    let part = self.term(dice, Die::standard(n as u64), span)?;
                    mixture
                        .add(&weight, &part, self.control)
                        .map_err(NotationError::at(span))?;
                }
                mixture.finish().map_err(NotationError::at(span))
            }
            faces => {
                let base = fixed_faces(faces);
                self.term(dice, base, span)
            }
        }
    }

    /// The dice of a term without pool modifiers, as a pool (a group's lone
    /// member pools them).
    #[cold]
    pub(super) fn dice_pool(&mut self, dice: &'a Dice) -> Result<Shapes, NotationError> {
        match &dice.faces {
            Faces::Rolled(sides) => {
                let rolled = self.sides(sides, &dice.faces_span)?;
                let mut parts = Vec::with_capacity(rolled.len());
                for (n, weight) in rolled.iter() {
                    let per_die = self.per_die(dice, Die::standard(n as u64))?;
                    parts.push((weight, self.term_shapes(dice, &per_die)?));
                }
                Shapes::choose(parts, &mut self.meter).map_err(NotationError::at(&dice.faces_span))
            }
            faces => {
                let per_die = self.per_die(dice, fixed_faces(faces))?;
                self.term_shapes(dice, &per_die)
            }
        }
    }

    /// The distribution of the sides of `d(…)`: every outcome at least 1.
    #[cold]
    fn sides(&mut self, sides: &'a Expr, faces_span: &Span) -> Result<Die, NotationError> {
        let rolled = self.expr(sides)?;
        if rolled.min_outcome() < 1 {
            let shown = u64::try_from(rolled.min_outcome()).unwrap_or(0);
            return Err(NotationError::at(faces_span)(DieError::NoSides(shown)));
        }
        Ok(rolled)
    }

    /// A term whose faces are known.
    fn term(
        &mut self,
        dice: &'a Dice,
        base: Result<Die, DieError>,
        span: &Span,
    ) -> Result<Die, NotationError> {
        if let Some(unique) = Unique::of(dice) {
            let base = base.map_err(NotationError::at(&dice.faces_span))?;
            return self.unique(dice, base, unique, &dice.pool_modifiers[1..], span);
        }
        let per_die = self.per_die(dice, base)?;
        let selects = dice.pool_modifiers.iter().any(|m| m.selects());
        let capped = matches!(
            per_die,
            PerDie::Exploding {
                limit: ExplodeLimit::PerTerm(_),
                ..
            }
        );
        if selects || capped {
            if let (PerDie::Single(die), false) = (&per_die, capped) {
                if let Some(kept) = self.plain_keep(dice, die, span)? {
                    return Ok(kept);
                }
            }
            let shapes = self.term_shapes(dice, &per_die)?;
            return self.finish_pool(&shapes, &dice.pool_modifiers, span);
        }
        // Added up or counted: each die's value on its own, then their sum.
        let at = NotationError::at(span);
        let counting = pool_value(&dice.pool_modifiers);
        let value = |o: Outcome| counting.as_ref().map_or(o, |f| f(o));
        let mapped;
        let one = match &per_die {
            // Added up as they are: no copy of the die.
            PerDie::Single(die) if counting.is_none() => die,
            PerDie::Single(die) => {
                mapped = die.map(value);
                &mapped
            }
            PerDie::Exploding {
                roll,
                top,
                conditions,
                kind,
                after,
                limit,
            } => {
                let explodes = explode_test(conditions, *top);
                let chain = Chain {
                    roll,
                    explodes: &explodes,
                    extra_offset: kind.extra_offset(),
                    depth: self.depth(*limit),
                };
                let settle = Settle::new(roll, after).map_err(&at)?;
                mapped = chain.sum(&settle, &value, &mut self.meter).map_err(&at)?;
                &mapped
            }
        };
        match self.count(dice)? {
            Count::Fixed(n) => one.repeat_sum(n, self.control).map_err(at),
            Count::Rolled(counts) => one.repeat_sum_random(&counts, self.control).map_err(at),
        }
    }

    /// `4d6kh3`, `10d10kh3cs>=8`: a fixed number of one die with literal keeps,
    /// straight to the pool engine (the everyday case, kept short for a first
    /// call); `None` for anything else.
    fn plain_keep(
        &mut self,
        dice: &'a Dice,
        die: &Die,
        span: &Span,
    ) -> Result<Option<Die>, NotationError> {
        let n = match dice.count.as_deref() {
            None => 1,
            Some(Expr {
                kind: ExprKind::Number(n),
                ..
            }) if *n >= 0 => *n as u64,
            _ => return Ok(None),
        };
        let mut keeps = Vec::with_capacity(dice.pool_modifiers.len());
        for modifier in &dice.pool_modifiers {
            match modifier {
                PoolModifier::Keep { keep, .. } => keeps.push(*keep),
                PoolModifier::KeepRolled { .. } => return Ok(None),
                _ => {}
            }
        }
        let at = NotationError::at(span);
        let pool = selected(Pool::new(die, n).map_err(&at)?, &keeps);
        // One evaluator type for every pool of the notation (one copy of the engine).
        let counting = pool_value(&dice.pool_modifiers);
        let identity = |o: Outcome| o;
        let value: &dyn Fn(Outcome) -> Outcome = match &counting {
            Some(f) => f,
            None => &identity,
        };
        kept_sum(&pool, value, self.control).map(Some).map_err(at)
    }

    /// The term's dice as a pool: fixed, or mixed over a rolled count.
    #[cold]
    fn term_shapes(
        &mut self,
        dice: &'a Dice,
        per_die: &PerDie<'a>,
    ) -> Result<Shapes, NotationError> {
        match self.count(dice)? {
            Count::Fixed(n) => self.shapes_of(per_die, n, dice),
            Count::Rolled(counts) => {
                let mut parts = Vec::with_capacity(counts.len());
                for (n, weight) in counts.iter() {
                    parts.push((weight, self.shapes_of(per_die, n as u64, dice)?));
                }
                let span = dice.count.as_deref().map_or(&dice.faces_span, |c| &c.span);
                Shapes::choose(parts, &mut self.meter).map_err(NotationError::at(span))
            }
        }
    }

    #[cold]
    fn shapes_of(
        &mut self,
        per_die: &PerDie<'a>,
        n: u64,
        dice: &'a Dice,
    ) -> Result<Shapes, NotationError> {
        let span = dice
            .die_modifiers
            .first()
            .map_or(&dice.faces_span, DieModifier::span);
        let at = NotationError::at(span);
        match per_die {
            PerDie::Single(die) => Ok(Shapes::fixed(vec![(die.clone(), n)])),
            PerDie::Exploding {
                roll,
                top,
                conditions,
                kind,
                limit,
                after,
            } => {
                let explodes = explode_test(conditions, *top);
                let chain = Chain {
                    roll,
                    explodes: &explodes,
                    extra_offset: kind.extra_offset(),
                    depth: self.depth(*limit),
                };
                let settle = Settle::new(roll, after).map_err(&at)?;
                match limit {
                    ExplodeLimit::PerTerm(cap) => {
                        chain.capped_shapes(n, *cap, &settle, &mut self.meter)
                    }
                    _ => chain.shapes(n, &settle, &mut self.meter),
                }
                .map_err(at)
            }
        }
    }

    /// How many extra rolls one die may make under `limit`.
    fn depth(&self, limit: ExplodeLimit) -> u32 {
        match limit {
            ExplodeLimit::Once => 1,
            ExplodeLimit::Depth | ExplodeLimit::PerTerm(_) => self.options.explode_depth,
        }
    }

    /// The count of a term: fixed (a literal, or an expression with one outcome)
    /// or rolled.
    pub(super) fn count(&mut self, dice: &'a Dice) -> Result<Count, NotationError> {
        let Some(count) = dice.count.as_deref() else {
            return Ok(Count::Fixed(1));
        };
        let at = NotationError::at(&count.span);
        let counts = match &count.kind {
            ExprKind::Number(n) => Die::constant(*n),
            _ => self.expr(count)?,
        };
        if counts.min_outcome() < 0 {
            return Err(at(DieError::NegativeDiceCount(counts.min_outcome())));
        }
        if counts.max_outcome() as u64 > MAX_DICE {
            return Err(at(DieError::TooManyDice {
                count: counts.max_outcome() as u64,
                max: MAX_DICE,
            }));
        }
        if counts.len() == 1 {
            return Ok(Count::Fixed(counts.min_outcome() as u64));
        }
        Ok(Count::Rolled(counts))
    }

    /// One die of the term with its per-die modifiers read.
    fn per_die(
        &mut self,
        dice: &'a Dice,
        base: Result<Die, DieError>,
    ) -> Result<PerDie<'a>, NotationError> {
        let base = base.map_err(NotationError::at(&dice.faces_span))?;
        let top = base.max_outcome();
        let mut die = base;
        for (i, modifier) in dice.die_modifiers.iter().enumerate() {
            let at = NotationError::at(modifier.span());
            die = match modifier {
                DieModifier::Explode {
                    conditions,
                    kind,
                    limit,
                    ..
                } if !kind.compounds() => {
                    return Ok(PerDie::Exploding {
                        roll: die,
                        top,
                        conditions,
                        kind: *kind,
                        limit: *limit,
                        after: &dice.die_modifiers[i + 1..],
                    });
                }
                DieModifier::Explode {
                    conditions, kind, ..
                } => {
                    let explodes = explode_test(conditions, top);
                    let chain = Chain {
                        roll: &die,
                        explodes: &explodes,
                        extra_offset: kind.extra_offset(),
                        depth: self.options.explode_depth,
                    };
                    chain
                        .sum(&Settle::none(), &|x| x, &mut self.meter)
                        .map_err(at)?
                }
                DieModifier::Reroll { conditions, .. } => {
                    die.reroll(|o| any_matches(conditions, o)).map_err(at)?
                }
                DieModifier::RerollOnce { conditions, .. } => {
                    die.reroll_once(|o| any_matches(conditions, o))
                }
                DieModifier::Minimum { value, .. } => die.map(|o| o.max(*value)),
                DieModifier::Maximum { value, .. } => die.map(|o| o.min(*value)),
            };
        }
        Ok(PerDie::Single(die))
    }
}

/// The bare die of faces that are written out.
fn fixed_faces(faces: &Faces) -> Result<Die, DieError> {
    match faces {
        Faces::Standard(n) => Die::standard(*n),
        Faces::Percent => Die::standard(100),
        Faces::Fudge => Ok(Die::fudge()),
        Faces::Custom(faces) => Die::from_faces(faces),
        Faces::Rolled(_) => unreachable!("rolled faces are read by the caller"),
    }
}
