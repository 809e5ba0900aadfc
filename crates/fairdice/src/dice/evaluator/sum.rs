//! [`SumOf`]: the sum over counted dice of a value per outcome — the pool's total,
//! the number of successes, or successes minus failures.

use super::engine::evaluate_die;
use super::{Evaluator, Final, PoolByPool, drop_few};
use crate::control::Control;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;

/// The distribution of `value` summed over the counted dice of `pool`: by
/// [`drop_few`] when the pool drops a few dice from one end of many, else by the
/// engine.
///
/// # Errors
/// [`DieError::Overflow`] if a sum leaves the `i64` range; [`DieError::Stopped`]
/// past the control's budget or once it is cancelled.
pub(crate) fn kept_sum(
    pool: &Pool,
    value: &dyn Fn(Outcome) -> Outcome,
    control: &Control,
) -> Result<Die, DieError> {
    drop_few::sum(pool, value, control)
        .unwrap_or_else(|| evaluate_die(&SumOf::new(value), &[pool], control))
}

/// Adds up `value(outcome)` over every counted die of every pool.
///
/// With the identity it is the pool's total; with a 0/1 indicator it counts
/// successes; with values in {−1, 0, 1} it counts successes minus failures.
pub struct SumOf<F> {
    value: F,
}

impl SumOf<fn(Outcome) -> Outcome> {
    /// The total of the counted dice.
    pub fn identity() -> Self {
        SumOf {
            value: |outcome| outcome,
        }
    }
}

impl<F: Fn(Outcome) -> Outcome> SumOf<F> {
    /// Adds up `value(outcome)` per counted die.
    pub fn new(value: F) -> Self {
        SumOf { value }
    }

    /// What `counts` dice showing `outcome` add to any sum: the outcome's value times
    /// the dice (`None` past the `i64` range).
    fn gain(&self, outcome: Outcome, counts: &[u32]) -> Option<Outcome> {
        let dice: i64 = counts.iter().map(|&c| i64::from(c)).sum();
        if dice == 0 {
            return Some(0);
        }
        (self.value)(outcome).checked_mul(dice)
    }
}

impl<F: Fn(Outcome) -> Outcome> Evaluator for SumOf<F> {
    type State = Outcome;
    type Output = Outcome;

    fn initial_state(&self) -> Outcome {
        0
    }

    fn next_state(
        &self,
        sum: &Outcome,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<Outcome, DieError> {
        self.gain(outcome, counts)
            .and_then(|add| sum.checked_add(add))
            .ok_or(DieError::Overflow)
    }

    fn final_outcome(&self, sum: &Outcome) -> Result<Final<Outcome>, DieError> {
        Ok(Final::Value(*sum))
    }

    /// A sum that is not negative numbers itself: states then merge in arrays.
    fn state_index(&self, sum: &Outcome) -> Option<usize> {
        usize::try_from(*sum).ok()
    }

    /// Every partial sum gains the same value.
    fn shift(&self, outcome: Outcome, counts: &[u32]) -> Option<isize> {
        isize::try_from(self.gain(outcome, counts)?).ok()
    }
}

/// A sum does not care which pool a die belongs to, so pools can come one at a time.
impl<F: Fn(Outcome) -> Outcome> PoolByPool for SumOf<F> {
    /// Adding no dice adds nothing.
    fn empty_pool_keeps_state(&self) -> bool {
        true
    }

    fn next_state_for_pool(
        &self,
        sum: &Outcome,
        outcome: Outcome,
        _pool: usize,
        _position: usize,
        count: u32,
    ) -> Result<Outcome, DieError> {
        self.next_state(sum, outcome, &[count])
    }
}
