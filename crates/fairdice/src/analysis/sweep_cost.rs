//! What an exact sweep may cost, and the checks that stop it early: its states
//! against the state budget, its memory against the control's, and its steps —
//! done and projected over the steps to come — against the step budget. Every
//! exact sweep (the curves, the droughts, the seats) uses these.

use super::sweep_options::{ExactError, ExactOptions};
use crate::control::{Control, PREPARATION_STEPS};

/// Fails with [`ExactError::OutOfMemory`] once `bytes` pass the control's memory
/// limit: the states of randomizers with many outcomes are large, so the state
/// budget alone does not bound what a sweep holds (its current and next step and
/// its state graph).
pub(crate) fn check_memory(step: usize, bytes: usize, control: &Control) -> Result<(), ExactError> {
    let limit = usize::try_from(control.max_memory()).unwrap_or(usize::MAX);
    if bytes > limit {
        return Err(ExactError::OutOfMemory { step, bytes, limit });
    }
    Ok(())
}

/// The fewest states a step must hold before a sweep may give up early.
pub const EARLY_MIN_STATES: usize = 5_000;

/// The growth exponent of a sweep's states: `states ∝ step^exponent` between the
/// last two steps (state counts of count vectors grow like `t^(n−1)`).
fn growth(step: usize, states: usize, previous: usize) -> f64 {
    if step >= 2 && previous > 0 {
        ((states as f64 / previous as f64).ln() / (step as f64 / (step - 1) as f64).ln()).max(0.0)
    } else {
        0.0
    }
}

/// Whether a sweep with `states` states at `step` (and `previous` at the step
/// before) must stop, and the error saying so. The growth is projected as a power
/// of the step, up to `cap` states when the randomizer knows its bound.
pub(crate) fn check_budget(
    step: usize,
    samples: usize,
    (states, previous): (usize, usize),
    cap: Option<usize>,
    options: &ExactOptions,
) -> Result<(), ExactError> {
    let exponent = growth(step, states, previous);
    let estimate = states as f64 * (samples as f64 / step as f64).powf(exponent);
    let estimate = cap.map_or(estimate, |cap| estimate.min(cap as f64));
    let early = options.give_up_early
        && states >= EARLY_MIN_STATES
        && estimate > 4.0 * options.budget as f64;
    if states > options.budget || early {
        return Err(ExactError::OverBudget {
            step,
            states,
            budget: options.budget,
            samples,
            estimate: estimate.max(states as f64),
        });
    }
    Ok(())
}

/// The work of a sweep, in the [`Control`]'s steps: charged as each step is done,
/// and projected over the steps still to come, so a sweep that would outrun the
/// step budget stops early and says how long it would have taken (an automatic
/// choice of method then falls back to Monte Carlo).
pub(crate) struct Work {
    meter: crate::control::Meter,
    done: u64,
    limit: u64,
    /// The states reached by the first step: growth is projected from there, not
    /// from the last step alone, because sweeps whose states stay bounded (a deck
    /// refilled every few draws) swing between steps.
    first: usize,
    /// Whether the first steps run past a small budget to measure the growth.
    measures: bool,
    /// The most states a step can hold, when the randomizer knows
    /// ([`StateSpace::state_bound`](crate::randomizer::StateSpace::state_bound)):
    /// the projected growth stops there.
    cap: Option<usize>,
}

/// The first steps of a sweep, which may run past a budget smaller than
/// [`PREPARATION_STEPS`] (within it) to see how the states grow: projected from the
/// first step alone, `fair(base=2d6,tightness=1)` over 30 samples was priced at
/// 1,900 steps under a budget of 1 and at 608,000 under a budget that let it
/// see the second.
const MEASURED_STEPS: usize = 4;

impl Work {
    /// The work of a sweep under `control`. A sweep that may not give up early
    /// (its refusal is what the user sees, not a fallback to Monte Carlo) measures
    /// its first steps within [`PREPARATION_STEPS`] however small the budget.
    pub(crate) fn new(control: &Control, options: &ExactOptions) -> Work {
        let measures = !options.give_up_early;
        Work {
            // A budget too small to see the growth is given the preparation's.
            meter: if measures {
                control.preparing().meter()
            } else {
                control.meter()
            },
            measures,
            // Work done before this sweep under the same control (the droughts of
            // the outcomes followed before) counts against the same budget.
            done: control.steps_used(),
            limit: control.max_steps(),
            first: 0,
            cap: None,
        }
    }

    /// The same work with no step projected past `cap` states.
    pub(crate) fn capped(self, cap: Option<usize>) -> Work {
        Work { cap, ..self }
    }

    /// Refuses to start step `step` when expanding its `expanding` states at
    /// `per_state` steps each would already pass the budget (one step of a
    /// randomizer with many outcomes can take seconds).
    pub(crate) fn before_step(
        &self,
        step: usize,
        expanding: usize,
        per_state: u64,
    ) -> Result<(), ExactError> {
        let projected = self.done as f64 + expanding as f64 * per_state as f64;
        if projected > self.limit as f64 && !self.measuring(step, projected) {
            return Err(ExactError::TooSlow {
                step,
                projected,
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// Charges step `step`, which expanded `expanded` states at `per_state` steps
    /// each into `reached` states, and refuses to go on when the work done plus
    /// the work projected for the remaining steps (states growing as they did from
    /// the first step to `reached`) passes the budget.
    pub(crate) fn step(
        &mut self,
        step: usize,
        samples: usize,
        expanded: usize,
        reached: usize,
        per_state: u64,
    ) -> Result<(), ExactError> {
        let this_step = (expanded as u64).saturating_mul(per_state);
        self.done = self.done.saturating_add(this_step);
        self.meter.charge(this_step)?;
        if step == 1 {
            self.first = reached.max(1);
        }
        // The power of the step that carried the first step's states to these.
        let exponent = if step >= 2 {
            ((reached.max(1) as f64 / self.first as f64).ln() / (step as f64).ln()).max(0.0)
        } else {
            0.0
        };
        let next_step = reached as f64 * per_state as f64;
        let states_to_come = match self.cap {
            Some(cap) => capped_growth_sum(step, samples, exponent, reached.max(1), cap),
            None => reached as f64 * growth_sum(step, samples, exponent),
        };
        let projected = self.done as f64 + per_state as f64 * states_to_come;
        let measuring = step < samples && self.measuring(step + 1, self.done as f64 + next_step);
        if projected > self.limit as f64 && !measuring {
            return Err(ExactError::TooSlow {
                step,
                projected,
                limit: self.limit,
            });
        }
        Ok(())
    }
}

impl Work {
    /// Whether step `step`, which would bring the work done to `done`, is one of
    /// the first steps that measure the growth within [`PREPARATION_STEPS`].
    fn measuring(&self, step: usize, done: f64) -> bool {
        self.measures && step <= MEASURED_STEPS && done <= PREPARATION_STEPS as f64
    }
}

/// The states of the steps after `step` up to `samples`, growing from `reached`
/// as `(later / step)^exponent` until they hold `cap`, then `cap` a step.
fn capped_growth_sum(
    step: usize,
    samples: usize,
    exponent: f64,
    reached: usize,
    cap: usize,
) -> f64 {
    let (reached, cap) = (reached as f64, (cap as f64).max(reached as f64));
    // The step where the growth meets the cap.
    let meets = if exponent > 0.0 {
        step as f64 * (cap / reached).powf(1.0 / exponent)
    } else {
        f64::INFINITY
    };
    let growing_to = (meets.floor() as usize).clamp(step, samples);
    reached * growth_sum(step, growing_to, exponent) + cap * (samples - growing_to) as f64
}

/// `Σ (later / step)^exponent` over the steps `later` after `step` up to
/// `samples`, in closed form (the integral over each step's middle): a sweep of
/// 75,000 samples projected step by step would otherwise spend seconds on the
/// projection alone.
fn growth_sum(step: usize, samples: usize, exponent: f64) -> f64 {
    if samples <= step {
        return 0.0;
    }
    let (from, to) = (step as f64 + 0.5, samples as f64 + 0.5);
    if exponent == 0.0 {
        return to - from;
    }
    let e = exponent + 1.0;
    step as f64 / e * ((to / step as f64).powf(e) - (from / step as f64).powf(e))
}

/// Steps one state of a step costs the curves' sweep with `n` outcomes and state
/// keys of `key_len` entries: each of up to `n` edges updates `n` moments, and
/// restores, observes and relabels a key; about 5 ns each of these, so priced at
/// four steps (measured: `tune --values 7 --samples 40` spent 20 s of CPU where
/// a step apiece priced 0.5 s).
pub(crate) fn curve_steps_per_state(n: usize, key_len: usize) -> u64 {
    let (n, key_len) = (n as u64, key_len as u64);
    4 * (n * (n + 8) / 2 + 8 + n * 3 * key_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projected_growth_is_close_to_the_sum_it_stands_for() {
        for (step, samples, exponent) in
            [(1, 50, 0.0), (3, 100, 1.0), (10, 75_234, 2.5), (7, 9, 0.3)]
        {
            let sum: f64 = (step + 1..=samples)
                .map(|later| (later as f64 / step as f64).powf(exponent))
                .sum();
            let closed = growth_sum(step, samples, exponent);
            assert!(
                (closed - sum).abs() <= 0.02 * sum,
                "{step} {samples} {exponent}: {closed} vs {sum}"
            );
        }
        assert_eq!(growth_sum(5, 5, 2.0), 0.0);
    }

    #[test]
    fn a_known_bound_caps_the_projected_states() {
        for (step, samples, exponent, reached, cap) in [
            (16, 100, 3.0, 30_000, 100_000),
            (3, 50, 1.0, 10, 1_000_000),
            (4, 40, 0.0, 500, 500),
            (10, 200, 2.0, 1_000, 1_000),
        ] {
            let sum: f64 = (step + 1..=samples)
                .map(|later| {
                    (reached as f64 * (later as f64 / step as f64).powf(exponent)).min(cap as f64)
                })
                .sum();
            let closed = capped_growth_sum(step, samples, exponent, reached, cap);
            assert!(
                (closed - sum).abs() <= 0.03 * sum.max(1.0),
                "{step} {samples} {exponent} {reached} {cap}: {closed} vs {sum}"
            );
        }
    }
}
