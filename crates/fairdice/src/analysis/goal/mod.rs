//! Goals: how many attempts until a randomizer has given what a player wants —
//! the first hit, `k` hits, `k` copies of a featured outcome, or every outcome
//! at least once — as an exact distribution of attempts, from wherever the
//! randomizer stands (a pity counter at 73, a guarantee held).
//!
//! ```
//! use fairdice::Control;
//! use fairdice::analysis::goal::{Goal, attempts_until};
//! use fairdice::randomizer::Spec;
//!
//! let banner = Spec::build("pity(p=0.006, soft=74, rise=0.06, cap=90)")?;
//! let hit = Goal::hits(vec![1], 1);
//! let attempts = attempts_until(&banner, &hit, 0, &Control::new())?;
//! assert_eq!(format!("{:.3}", attempts.mean.unwrap()), "62.297"); // the published figure
//! assert_eq!(attempts.done_within(90), 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design decisions
//! The distribution is a dynamic program over the randomizer's reachable
//! states ([`Chain`]) times the goal's progress (hits so far, or the set of
//! outcomes seen): each attempt moves the probability of every (state, progress)
//! pair along the chain's transitions, and what reaches the goal is the chance
//! of finishing at that attempt. Pairs from which the goal can no longer be
//! reached (a deck that holds no more featured cards) are found first, by a
//! walk backwards from the goal, so their probability is counted as "never"
//! at once instead of lingering: the mean is then finite exactly when that
//! probability is zero. The walk continues until less than [`TAIL`] of the
//! probability is left, so the mean and the percentiles are those of the whole
//! distribution, not of a table cut short.

use thiserror::Error;

mod exact;

pub use exact::{ExactFigures, MAX_EXACT_WORK, exact_figures};

use super::chain::{Chain, ChainError};
use crate::control::{Control, Failure, FailureKind, Stop};
use crate::randomizer::{Randomizer, StateSpace};

/// The most hits a goal may count.
pub const MAX_GOAL_COUNT: u32 = 100_000;

/// The most outcomes a "see every one" goal may list (its progress is the set
/// seen, `2^n` values).
pub const MAX_COLLECTED: usize = 16;

/// The most attempts the distribution follows.
pub const MAX_ATTEMPTS: usize = 10_000_000;

/// The probability left unfinished at which the walk stops.
pub const TAIL: f64 = 1e-15;

/// Budget steps an attempt costs besides its transitions (its row of the
/// table and the sum of what is left).
pub const STEPS_PER_ATTEMPT: u64 = 8;

/// The most (state, progress) pairs a goal follows.
pub const MAX_PAIRS: usize = 20_000_000;

/// What the player waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// `count` draws of any of `outcomes` (indices); the first hit is a count of 1.
    Hits {
        /// The outcomes that count.
        outcomes: Vec<usize>,
        /// How many draws of them.
        count: u32,
    },
    /// Each of `outcomes` drawn at least once.
    EveryOne {
        /// The outcomes to collect.
        outcomes: Vec<usize>,
    },
}

impl Goal {
    /// `count` draws of any of `outcomes`.
    pub fn hits(outcomes: Vec<usize>, count: u32) -> Goal {
        Goal::Hits { outcomes, count }
    }

    /// Every one of `outcomes` at least once.
    pub fn every_one(outcomes: Vec<usize>) -> Goal {
        Goal::EveryOne { outcomes }
    }

    /// How many progress values there are before the goal is met.
    fn levels(&self) -> usize {
        match self {
            Goal::Hits { count, .. } => *count as usize,
            Goal::EveryOne { outcomes } => 1 << outcomes.len(),
        }
    }

    /// The progress after drawing `outcome` at progress `level`; `None` when that
    /// meets the goal.
    fn advance(&self, level: usize, outcome: usize) -> Option<usize> {
        match self {
            Goal::Hits { outcomes, count } => {
                let next = level + usize::from(outcomes.contains(&outcome));
                (next < *count as usize).then_some(next)
            }
            Goal::EveryOne { outcomes } => {
                let bit = outcomes
                    .iter()
                    .position(|&o| o == outcome)
                    .map_or(0, |i| 1 << i);
                let next = level | bit;
                (next != (1 << outcomes.len()) - 1).then_some(next)
            }
        }
    }
}

/// Why a goal could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GoalError {
    /// The goal names no outcome, an outcome out of range, or a count of 0.
    #[error("{0}")]
    Invalid(String),
    /// The randomizer's states times the goal's progress are too many.
    #[error(
        "the goal follows {pairs} (state, progress) pairs; accepted: at most {MAX_PAIRS} (a Monte Carlo estimate does not walk them)"
    )]
    TooLarge {
        /// The pairs it would follow.
        pairs: u128,
    },
    /// The states could not be walked.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// Over the budget, or cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl Failure for GoalError {
    fn kind(&self) -> FailureKind {
        match self {
            GoalError::Invalid(_) => FailureKind::Invalid,
            GoalError::TooLarge { .. } => FailureKind::TooLarge,
            GoalError::Chain(e) => e.kind(),
            GoalError::Stopped(stop) => stop.kind(),
        }
    }
}

/// The distribution of the attempts a goal takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempts {
    /// `first[t]`: P(the goal is met at attempt `t`), from `t = 1`
    /// (`first[0]` is 0).
    pub first: Vec<f64>,
    /// `left[t]`: P(the goal is not met after `t` attempts but still can be).
    pub left: Vec<f64>,
    /// `lost[t]`: P(the goal can no longer be met after `t` attempts).
    pub lost: Vec<f64>,
    /// P(the goal is ever met).
    pub ever: f64,
    /// The expected attempts, when the goal is certain (`ever` = 1).
    pub mean: Option<f64>,
    /// Their standard deviation, when the goal is certain.
    pub sd: Option<f64>,
    /// The states the randomizer can reach from where it stood.
    pub states: usize,
    /// True when the walk stopped at [`MAX_ATTEMPTS`] with more than [`TAIL`]
    /// left (the mean is then not given).
    pub cut_short: bool,
    /// The standard error of the mean (Monte Carlo only).
    pub mean_error: Option<f64>,
}

impl Attempts {
    /// P(the goal is met within `attempts` attempts): one less what is left or
    /// lost, so a goal certain by then gives exactly `ever`.
    pub fn done_within(&self, attempts: usize) -> f64 {
        let t = attempts.min(self.left.len() - 1);
        (1.0 - self.left[t] - self.lost[t]).clamp(0.0, 1.0)
    }

    /// The cumulative chances, `[P(done within 0), P(done within 1), …]`.
    pub fn cumulative(&self) -> Vec<f64> {
        (0..self.left.len()).map(|t| self.done_within(t)).collect()
    }

    /// The fewest attempts after which the goal is surely met (nothing left and
    /// nothing lost), if the walk reached such an attempt.
    pub fn certain_by(&self) -> Option<usize> {
        (0..self.left.len()).find(|&t| self.left[t] == 0.0 && self.lost[t] == 0.0)
    }

    /// The fewest attempts within which the goal is met with probability at
    /// least `q` (up to rounding of 10^-12), if it ever is.
    pub fn percentile(&self, q: f64) -> Option<usize> {
        self.cumulative().iter().position(|&c| c >= q - 1e-12)
    }

    /// Attempts `1..=rows` (as far as the walk went) one by one: the chance
    /// of each given that the goal was not met before it, of meeting it there,
    /// and of having met it by then.
    pub fn per_attempt(&self, rows: usize) -> Vec<AttemptRow> {
        (1..self.first.len().min(rows.saturating_add(1)))
            .map(|t| {
                let before = self.left[t - 1];
                AttemptRow {
                    attempt: t as u64,
                    probability: if before > 0.0 {
                        (self.first[t] / before).min(1.0)
                    } else {
                        0.0
                    },
                    first_success: self.first[t],
                    cumulative: self.done_within(t),
                }
            })
            .collect()
    }
}

/// One attempt of a table of attempts until a success (`fairdice prd`'s and
/// `analyze`'s for PRD and pity).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AttemptRow {
    /// Its number, from 1.
    pub attempt: u64,
    /// P(it succeeds | every attempt before it failed).
    pub probability: f64,
    /// P(the first success is this attempt).
    pub first_success: f64,
    /// P(a success by this attempt).
    pub cumulative: f64,
}

/// The distribution of attempts until `goal`, from `randomizer`'s current
/// state. `at_least` asks for the table to reach that attempt even when the
/// goal is certain earlier (a budget past the certainty).
///
/// # Errors
/// [`GoalError::Invalid`] for an empty goal, an outcome out of range, a count of
/// 0 or over [`MAX_GOAL_COUNT`], more than [`MAX_COLLECTED`] outcomes to collect;
/// [`GoalError::TooLarge`], [`GoalError::Chain`] and [`GoalError::Stopped`]
/// when the states are too many for the budget.
pub fn attempts_until<R: StateSpace + Clone>(
    randomizer: &R,
    goal: &Goal,
    at_least: usize,
    control: &Control,
) -> Result<Attempts, GoalError> {
    check(randomizer.outcomes().len(), goal)?;
    let chain = Chain::explore(randomizer, control)?;
    attempts_on(&chain, goal, at_least, control)
}

/// [`attempts_until`] on a chain already walked (state 0 is the start).
///
/// # Errors
/// As [`attempts_until`].
pub fn attempts_on(
    chain: &Chain,
    goal: &Goal,
    at_least: usize,
    control: &Control,
) -> Result<Attempts, GoalError> {
    check(chain.outcomes(), goal)?;
    let levels = goal.levels();
    let pairs = chain.states() as u128 * levels as u128;
    if pairs > MAX_PAIRS as u128 {
        return Err(GoalError::TooLarge { pairs });
    }
    let pairs = pairs as usize;
    control.reserve(pairs as u64 * 24)?;
    let finishes = can_finish(chain, goal, levels);
    let mut first = vec![0.0];
    let mut mass = vec![0.0; pairs];
    let mut never = 0.0;
    if finishes[0] {
        mass[0] = 1.0;
    } else {
        never = 1.0;
    }
    let mut moved = vec![0.0; pairs];
    let mut left = 1.0 - never;
    let mut lefts = vec![left];
    let mut losts = vec![never];
    let mut meter = control.meter();
    let edges = chain.edges().count() as u64 * levels as u64;
    // Past the tail, a little further while something is left: a goal certain
    // by some attempt (a hard cap) reaches exactly nothing left there.
    let mut tail_at = None;
    loop {
        let t = first.len();
        if left <= TAIL && tail_at.is_none() {
            tail_at = Some(t);
        }
        let in_tail = tail_at.is_some_and(|at| left == 0.0 || t > 2 * at);
        if (in_tail && t > at_least) || t > MAX_ATTEMPTS {
            break;
        }
        // Three numbers an attempt are kept (its chance, what is left, what is lost).
        if t % 65_536 == 0 {
            control.reserve((t as u64 + 65_536) * 24 + pairs as u64 * 24)?;
        }
        meter.charge(edges + STEPS_PER_ATTEMPT)?;
        moved.iter_mut().for_each(|m| *m = 0.0);
        let mut done = 0.0;
        for state in 0..chain.states() {
            for level in 0..levels {
                let here = mass[state * levels + level];
                if here == 0.0 {
                    continue;
                }
                for t in chain.transitions(state) {
                    let p = here * t.probability;
                    match goal.advance(level, t.outcome as usize) {
                        None => done += p,
                        Some(next) => {
                            let pair = t.target as usize * levels + next;
                            if finishes[pair] {
                                moved[pair] += p;
                            } else {
                                never += p;
                            }
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut mass, &mut moved);
        first.push(done);
        left = mass.iter().sum();
        lefts.push(left);
        losts.push(never);
    }
    let cut_short = left > TAIL;
    let ever = (1.0 - never).max(0.0);
    let (mean, sd) = if never == 0.0 && !cut_short {
        let total: f64 = first.iter().sum();
        let mean: f64 = first
            .iter()
            .enumerate()
            .map(|(t, p)| t as f64 * p)
            .sum::<f64>()
            / total;
        let square: f64 = first
            .iter()
            .enumerate()
            .map(|(t, p)| (t as f64).powi(2) * p)
            .sum::<f64>()
            / total;
        (Some(mean), Some((square - mean * mean).max(0.0).sqrt()))
    } else {
        (None, None)
    };
    Ok(Attempts {
        first,
        left: lefts,
        lost: losts,
        ever,
        mean,
        sd,
        states: chain.states(),
        cut_short,
        mean_error: None,
    })
}

/// Budget steps one simulated draw costs (drawing, and checking the goal).
pub const STEPS_PER_SIMULATED_DRAW: u64 = 16;

/// A Monte Carlo estimate of [`attempts_until`]: `runs` runs from
/// `randomizer`'s current state, each drawing with its own stream of `seed`
/// until the goal is met or `max_attempts` draws have passed (a run cut there
/// counts as not met). `first[t]` is the share of runs met at draw `t`;
/// `states` is 0 (the states are not walked).
///
/// # Errors
/// [`GoalError::Invalid`] as [`attempts_until`]; [`GoalError::Stopped`] over the
/// budget or when cancelled.
pub fn simulate_attempts<R: Randomizer + Clone>(
    randomizer: &R,
    goal: &Goal,
    runs: u64,
    seed: u64,
    max_attempts: usize,
    control: &Control,
) -> Result<Attempts, GoalError> {
    check(randomizer.outcomes().len(), goal)?;
    if runs == 0 {
        return Err(GoalError::Invalid(
            "a Monte Carlo estimate needs at least one run".into(),
        ));
    }
    let mut met_at: Vec<u64> = vec![0];
    let mut unmet = 0u64;
    let mut meter = control.meter();
    let cost = randomizer.sample_steps().max(1) + STEPS_PER_SIMULATED_DRAW;
    for run in 0..runs {
        let mut rng = crate::rng::stream(seed, run);
        let mut r = randomizer.clone();
        let mut level = 0;
        let mut attempt = 0;
        loop {
            if attempt == max_attempts {
                unmet += 1;
                break;
            }
            meter.charge(cost)?;
            attempt += 1;
            let outcome = r.draw_dyn(&mut rng);
            match goal.advance(level, outcome) {
                None => {
                    if met_at.len() <= attempt {
                        control.reserve((attempt as u64 + 1) * 32)?;
                        met_at.resize(attempt + 1, 0);
                    }
                    met_at[attempt] += 1;
                    break;
                }
                Some(next) => level = next,
            }
        }
    }
    let n = runs as f64;
    let first: Vec<f64> = met_at.iter().map(|&c| c as f64 / n).collect();
    let mut left = Vec::with_capacity(first.len());
    let mut remaining = runs;
    for &count in &met_at {
        remaining -= count;
        left.push(remaining as f64 / n);
    }
    let (mean, sd, mean_error) = if unmet == 0 {
        let mean = met_at
            .iter()
            .enumerate()
            .map(|(t, &c)| t as f64 * c as f64)
            .sum::<f64>()
            / n;
        let square = met_at
            .iter()
            .enumerate()
            .map(|(t, &c)| (t as f64).powi(2) * c as f64)
            .sum::<f64>()
            / n;
        let sd = (square - mean * mean).max(0.0).sqrt();
        (Some(mean), Some(sd), Some(sd / n.sqrt()))
    } else {
        (None, None, None)
    };
    Ok(Attempts {
        lost: vec![0.0; left.len()],
        left,
        first,
        ever: (runs - unmet) as f64 / n,
        mean,
        sd,
        states: 0,
        cut_short: unmet > 0,
        mean_error,
    })
}

/// Checks `goal` against a randomizer of `n` outcomes, before any state is
/// walked.
///
/// # Errors
/// As [`attempts_until`]'s [`GoalError::Invalid`].
pub fn check(n: usize, goal: &Goal) -> Result<(), GoalError> {
    let invalid = |m: String| Err(GoalError::Invalid(m));
    let outcomes = match goal {
        Goal::Hits { outcomes, count } => {
            if *count == 0 || *count > MAX_GOAL_COUNT {
                return invalid(format!(
                    "the goal counts {count} hits; accepted: 1 to {MAX_GOAL_COUNT}"
                ));
            }
            outcomes
        }
        Goal::EveryOne { outcomes } => {
            if outcomes.len() > MAX_COLLECTED {
                return invalid(format!(
                    "the goal collects {} outcomes; accepted: at most {MAX_COLLECTED}",
                    outcomes.len()
                ));
            }
            outcomes
        }
    };
    if outcomes.is_empty() {
        return invalid("the goal names no outcome".into());
    }
    if let Some(&o) = outcomes.iter().find(|&&o| o >= n) {
        return invalid(format!("outcome index {o} is out of range (0..{n})"));
    }
    Ok(())
}

/// The expected number of draws of any of `outcomes` in the first `attempts`
/// draws from state 0 of `chain` (expected hits within a budget).
///
/// # Errors
/// [`GoalError::Stopped`] over the budget (a step a transition an attempt).
pub fn expected_draws(
    chain: &Chain,
    outcomes: &[usize],
    attempts: usize,
    control: &Control,
) -> Result<f64, GoalError> {
    let mut at = vec![0.0; chain.states()];
    at[0] = 1.0;
    let mut moved = vec![0.0; chain.states()];
    let mut expected = 0.0;
    let mut meter = control.meter();
    let edges = chain.edges().count() as u64;
    for _ in 0..attempts {
        meter.charge(edges.max(1))?;
        moved.iter_mut().for_each(|m| *m = 0.0);
        for (state, t) in chain.edges() {
            let p = at[state] * t.probability;
            if outcomes.contains(&(t.outcome as usize)) {
                expected += p;
            }
            moved[t.target as usize] += p;
        }
        std::mem::swap(&mut at, &mut moved);
    }
    Ok(expected)
}

/// For each (state, progress) pair, whether the goal can still be met from it:
/// a walk backwards from the transitions that meet it.
fn can_finish(chain: &Chain, goal: &Goal, levels: usize) -> Vec<bool> {
    let pairs = chain.states() * levels;
    // Predecessor lists in compressed form: count, then fill.
    let mut count = vec![0u32; pairs + 1];
    let mut finishes = vec![false; pairs];
    for (state, t) in chain.edges() {
        for level in 0..levels {
            match goal.advance(level, t.outcome as usize) {
                None => finishes[state * levels + level] = true,
                Some(next) => count[t.target as usize * levels + next] += 1,
            }
        }
    }
    let mut start = vec![0usize; pairs + 1];
    for pair in 0..pairs {
        start[pair + 1] = start[pair] + count[pair] as usize;
    }
    let mut fill = start.clone();
    let mut predecessors = vec![0u32; start[pairs]];
    for (state, t) in chain.edges() {
        for level in 0..levels {
            if let Some(next) = goal.advance(level, t.outcome as usize) {
                let target = t.target as usize * levels + next;
                predecessors[fill[target]] = (state * levels + level) as u32;
                fill[target] += 1;
            }
        }
    }
    let mut queue: Vec<usize> = (0..pairs).filter(|&p| finishes[p]).collect();
    while let Some(pair) = queue.pop() {
        for &before in &predecessors[start[pair]..start[pair + 1]] {
            if !finishes[before as usize] {
                finishes[before as usize] = true;
                queue.push(before as usize);
            }
        }
    }
    finishes
}

#[cfg(test)]
mod tests;
