//! The exact evaluator: a syntax tree to its [`Die`].
//!
//! Keep/drop and success counting on pools go through the pool engine
//! ([`SumOf`] over a [`Pool`] with a keep pattern); plain sums of identical dice use
//! [`Die::repeat_sum`], which gives the same distribution faster.

use super::ast::{Condition, Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier};
use super::cost::estimate;
use super::failure::{NotationError, TooBig};
use super::options::Options;
use crate::control::{Control, Meter};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::SumOf;
use crate::dice::evaluator::engine::evaluate_die;
use crate::dice::mixture::Mixture;
use crate::dice::pool::Pool;

/// Evaluates a syntax tree exactly, after checking its estimated cost against the
/// budget of `control`, which also meters the work.
///
/// # Errors
/// [`NotationError::TooBig`] when the estimate exceeds the budget;
/// [`NotationError::Stopped`] if metering stops it; otherwise the first invalid
/// operation, with its span.
pub fn evaluate_expr(
    expr: &Expr,
    options: &Options,
    control: &Control,
) -> Result<Die, NotationError> {
    let cost = estimate(expr, options);
    if cost.steps > control.max_steps() as f64 || cost.outcomes > options.max_outcomes as f64 {
        return Err(NotationError::TooBig(TooBig {
            estimate: cost,
            max_steps: control.max_steps(),
            max_outcomes: options.max_outcomes,
        }));
    }
    let mut evaluator = Exact {
        options,
        control,
        meter: control.meter(),
    };
    evaluator.expr(expr)
}

struct Exact<'a> {
    options: &'a Options,
    control: &'a Control,
    meter: Meter,
}

impl Exact<'_> {
    fn expr(&mut self, expr: &Expr) -> Result<Die, NotationError> {
        let at = NotationError::at(&expr.span);
        self.meter.charge(1).map_err(DieError::from).map_err(&at)?;
        match &expr.kind {
            ExprKind::Number(n) => Ok(Die::constant(*n)),
            ExprKind::Negate(inner) => self.expr(inner)?.negate().map_err(at),
            ExprKind::Binary { op, left, right } => {
                let a = self.expr(left)?;
                let b = self.expr(right)?;
                a.combine(&b, *op, self.control).map_err(|e| match e {
                    // Point at the divisor, which is what can be zero.
                    DieError::DivisionByZero => NotationError::at(&right.span)(e),
                    e => at(e),
                })
            }
            ExprKind::Dice(dice) => self.dice(dice, &expr.span),
        }
    }

    fn dice(&mut self, dice: &Dice, span: &super::ast::Span) -> Result<Die, NotationError> {
        let die = self.single_die(dice)?;
        match dice.count.as_deref() {
            None => self.pool(dice, &die, 1, span),
            Some(Expr {
                kind: ExprKind::Number(n),
                span: count_span,
            }) => {
                let n = u64::try_from(*n).map_err(|_| NotationError::Invalid {
                    error: DieError::NegativeDiceCount(*n),
                    span: count_span.clone(),
                })?;
                self.pool(dice, &die, n, span)
            }
            Some(count_expr) => {
                let count = self.expr(count_expr)?;
                let at_count = NotationError::at(&count_expr.span);
                if count.min_outcome() < 0 {
                    return Err(at_count(DieError::NegativeDiceCount(count.min_outcome())));
                }
                if is_plain_sum(dice) {
                    return die
                        .repeat_sum_random(&count, self.control)
                        .map_err(NotationError::at(span));
                }
                let mut mixture = Mixture::new();
                for (k, weight) in count.iter() {
                    let part = self.pool(dice, &die, k as u64, span)?;
                    mixture
                        .add(&weight, &part, self.control)
                        .map_err(NotationError::at(span))?;
                }
                mixture.finish().map_err(NotationError::at(span))
            }
        }
    }

    /// One die with its per-die modifiers applied in the order written.
    fn single_die(&mut self, dice: &Dice) -> Result<Die, NotationError> {
        let faces_at = NotationError::at(&dice.faces_span);
        let base = match &dice.faces {
            Faces::Standard(n) => Die::standard(*n).map_err(&faces_at)?,
            Faces::Percent => Die::standard(100).map_err(&faces_at)?,
            Faces::Fudge => Die::fudge(),
            Faces::Custom(faces) => Die::from_faces(faces).map_err(&faces_at)?,
        };
        let top = base.max_outcome();
        let mut die = base;
        for modifier in &dice.die_modifiers {
            die = match modifier {
                DieModifier::Explode { conditions, span } => {
                    let explodes = explode_test(conditions, top);
                    die.explode(explodes, self.options.explode_depth, self.control)
                        .map_err(NotationError::at(span))?
                }
                DieModifier::Reroll { conditions, span } => die
                    .reroll(|o| any_matches(conditions, o))
                    .map_err(NotationError::at(span))?,
                DieModifier::RerollOnce { conditions, .. } => {
                    die.reroll_once(|o| any_matches(conditions, o))
                }
            };
        }
        Ok(die)
    }

    /// `n` copies of `die` with the pool modifiers of `dice`.
    fn pool(
        &mut self,
        dice: &Dice,
        die: &Die,
        n: u64,
        span: &super::ast::Span,
    ) -> Result<Die, NotationError> {
        let at = NotationError::at(span);
        let value = pool_value(&dice.pool_modifiers);
        let keeps: Vec<Keep> = dice
            .pool_modifiers
            .iter()
            .filter_map(|m| match m {
                PoolModifier::Keep { keep, .. } => Some(*keep),
                _ => None,
            })
            .collect();
        if keeps.is_empty() {
            let per_die = match &value {
                Some(value) => die.map(value),
                None => die.clone(),
            };
            return per_die.repeat_sum(n, self.control).map_err(at);
        }
        let mut pool = Pool::new(die, n).map_err(&at)?;
        for keep in keeps {
            pool = match keep {
                Keep::Highest(k) => pool.keep_highest(k),
                Keep::Lowest(k) => pool.keep_lowest(k),
                Keep::DropHighest(k) => pool.drop_highest(k),
                Keep::DropLowest(k) => pool.drop_lowest(k),
            };
        }
        match value {
            Some(value) => evaluate_die(&SumOf::new(value), &[&pool], self.control),
            None => evaluate_die(&SumOf::identity(), &[&pool], self.control),
        }
        .map_err(at)
    }
}

/// True when the pool is a plain sum (no keep/drop, no counting).
fn is_plain_sum(dice: &Dice) -> bool {
    dice.pool_modifiers.is_empty()
}

/// Whether any of the conditions matches.
pub(crate) fn any_matches(conditions: &[Condition], outcome: Outcome) -> bool {
    conditions.iter().any(|c| c.matches(outcome))
}

/// The explode test: the listed conditions, or the die's highest face.
pub(crate) fn explode_test(
    conditions: &[Condition],
    top: Outcome,
) -> impl Fn(Outcome) -> bool + '_ {
    move |o| {
        if conditions.is_empty() {
            o == top
        } else {
            any_matches(conditions, o)
        }
    }
}

/// The value of one counted die under success counting: +1 per success, −1 per
/// failure; `None` when the pool simply adds its dice.
pub(crate) fn pool_value(
    modifiers: &[PoolModifier],
) -> Option<impl Fn(Outcome) -> Outcome + Clone + '_> {
    let mut success = None;
    let mut failure = None;
    for modifier in modifiers {
        match modifier {
            PoolModifier::CountSuccesses { condition, .. } => success = Some(*condition),
            PoolModifier::DeductFailures { condition, .. } => failure = Some(*condition),
            PoolModifier::Keep { .. } => {}
        }
    }
    if success.is_none() && failure.is_none() {
        return None;
    }
    Some(move |o: Outcome| {
        let s = success.is_some_and(|c| c.matches(o));
        let f = failure.is_some_and(|c| c.matches(o));
        i64::from(s) - i64::from(f)
    })
}
