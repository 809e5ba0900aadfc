//! Exact fractions for a goal, when the randomizer's chances are exact
//! ([`ExactWeights`]): the mean of a goal certain by some attempt, the chance
//! within a budget and the expected draws within it.
//!
//! # Design decisions
//! Every chance is an integer over one common denominator `L`, so after `t`
//! attempts every probability is an integer over `L^t`: each step multiplies by
//! small integers and adds, with no fraction reduced until the end. Sums over
//! attempts are kept in Horner form (`acc·L + next`). The cost grows with the
//! attempts times the size of `L^t`, so the lane is priced first
//! ([`MAX_EXACT_WORK`]) and left out (floats only) past it.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Zero;

use super::{Goal, GoalError, can_finish};
use crate::analysis::chain::{Chain, ExactWeights};
use crate::control::Control;

/// The most work (transitions times 64-bit words of `L^t`, summed over the
/// attempts) the exact lane takes on; past it, the figures are floats only.
pub const MAX_EXACT_WORK: f64 = 2e9;

/// Exact figures of a goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactFigures {
    /// The expected attempts, when the goal is certain within the attempts
    /// walked.
    pub mean: Option<BigRational>,
    /// P(the goal is met within the budget).
    pub within_budget: Option<BigRational>,
    /// The expected draws of the goal's outcomes within the budget (a count
    /// goal).
    pub expected_draws: Option<BigRational>,
}

/// The exact figures of `goal` over `chain`, walking `attempts` attempts (the
/// goal's certainty, or the budget if later); `None` when the chain has no
/// exact chances or the work would pass [`MAX_EXACT_WORK`].
///
/// # Errors
/// [`GoalError::Stopped`] over the control's budget or when cancelled.
pub fn exact_figures(
    chain: &Chain,
    goal: &Goal,
    budget: Option<usize>,
    attempts: usize,
    control: &Control,
) -> Result<Option<ExactFigures>, GoalError> {
    let Some(exact) = chain.exact() else {
        return Ok(None);
    };
    let steps = attempts.max(budget.unwrap_or(0));
    let levels = goal.levels();
    let edges = exact.weights.len() as f64 * levels as f64;
    let bits_per_step = 64.0 - f64::from(exact.scale.leading_zeros());
    // Σ_t edges · words(L^t) ≈ edges · steps² · bits / 128.
    let work = edges * (steps as f64).powi(2) * bits_per_step / 128.0 + edges * steps as f64;
    if work > MAX_EXACT_WORK {
        return Ok(None);
    }
    control.afford(work)?;
    let mut meter = control.meter();
    let finishes = can_finish(chain, goal, levels);
    let pairs = finishes.len();
    let mut alive = vec![BigUint::zero(); pairs];
    let mut lost = BigUint::zero();
    if finishes[0] {
        alive[0] = BigUint::from(1u32);
    } else {
        lost = BigUint::from(1u32);
    }
    let mut done = BigUint::zero();
    // Σ_t P(not met after t)·L^(now − t), for the mean.
    let mut waiting = alive.iter().sum::<BigUint>() + &lost;
    let mut done_by_budget = None;
    let mut certain = None;
    let mut next = vec![BigUint::zero(); pairs];
    for t in 1..=steps {
        let scale = exact.scale;
        let mut met = BigUint::zero();
        let mut newly_lost = BigUint::zero();
        for (pair, here) in alive.iter().enumerate() {
            if here.is_zero() {
                continue;
            }
            let (state, level) = (pair / levels, pair % levels);
            let first = chain.first_transition(state);
            for (i, t) in chain.transitions(state).iter().enumerate() {
                let mass = here * exact.weights[first + i];
                match goal.advance(level, t.outcome as usize) {
                    None => met += mass,
                    Some(level) => {
                        let target = t.target as usize * levels + level;
                        if finishes[target] {
                            next[target] += mass;
                        } else {
                            newly_lost += mass;
                        }
                    }
                }
            }
        }
        meter.charge((edges * (1.0 + t as f64 * bits_per_step / 64.0)) as u64)?;
        std::mem::swap(&mut alive, &mut next);
        next.iter_mut().for_each(BigUint::set_zero);
        done = done * scale + met;
        lost = lost * scale + newly_lost;
        if budget == Some(t) {
            done_by_budget = Some(done.clone());
        }
        let left = alive.iter().sum::<BigUint>();
        if left.is_zero() && lost.is_zero() && certain.is_none() {
            certain = Some(t);
        }
        if t < steps && certain.is_none() {
            waiting = waiting * scale + left + &lost;
        }
    }
    if budget == Some(0) {
        done_by_budget = Some(BigUint::zero());
    }
    let over = |numerator: BigUint, power: usize| {
        BigRational::new(
            BigInt::from(numerator),
            BigInt::from(BigUint::from(exact.scale).pow(power as u32)),
        )
    };
    let mean = certain.map(|n| over(waiting.clone(), n - 1));
    let within_budget = budget.and_then(|b| done_by_budget.clone().map(|d| over(d, b)));
    let expected_draws = match (goal, budget) {
        (Goal::Hits { outcomes, .. }, Some(b)) => Some(exact_draws(chain, exact, outcomes, b)),
        _ => None,
    };
    Ok(Some(ExactFigures {
        mean,
        within_budget,
        expected_draws,
    }))
}

/// The expected draws of any of `outcomes` in the first `attempts` draws from
/// state 0, exactly.
fn exact_draws(
    chain: &Chain,
    exact: &ExactWeights,
    outcomes: &[usize],
    attempts: usize,
) -> BigRational {
    let mut at = vec![BigUint::zero(); chain.states()];
    at[0] = BigUint::from(1u32);
    let mut next = vec![BigUint::zero(); chain.states()];
    let mut expected = BigUint::zero();
    for _ in 0..attempts {
        let mut hits = BigUint::zero();
        for (state, here) in at.iter().enumerate() {
            if here.is_zero() {
                continue;
            }
            let first = chain.first_transition(state);
            for (i, t) in chain.transitions(state).iter().enumerate() {
                let mass = here * exact.weights[first + i];
                if outcomes.contains(&(t.outcome as usize)) {
                    hits += &mass;
                }
                next[t.target as usize] += mass;
            }
        }
        std::mem::swap(&mut at, &mut next);
        next.iter_mut().for_each(BigUint::set_zero);
        expected = expected * exact.scale + hits;
    }
    BigRational::new(
        BigInt::from(expected),
        BigInt::from(BigUint::from(exact.scale).pow(attempts as u32)),
    )
}
