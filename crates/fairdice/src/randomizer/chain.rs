//! [`Chain`]: every state a randomizer can reach from where it stands, each with
//! its transitions (outcome, next state, chance) — the Markov chain that goals
//! ([`goal`](crate::analysis::goal)) and a machine's long-run frequencies are computed on.
//!
//! # Design decisions
//! The chain is found through the [`Randomizer`] trait alone (its state key,
//! `restore`, `next_distribution` and `observe`), so it serves every randomizer,
//! a game's own included. States are not merged by symmetry (the exact sweep's
//! canonical keys are): a goal names particular outcomes,
//! so relabelling them is not free. The walk is charged to the [`Control`] and
//! stops at [`MAX_CHAIN_STATES`].

use std::hash::{BuildHasher, BuildHasherDefault};

use hashbrown::HashTable;
use num_integer::Integer;
use num_rational::Ratio;
use rustc_hash::FxHasher;
use thiserror::Error;

use crate::control::{Control, Failure, FailureKind, Stop};
use crate::randomizer::{Randomizer, StateSpace};

/// The most states a chain holds.
pub const MAX_CHAIN_STATES: usize = 1_000_000;

/// Bytes a chain keeps per transition, and per slot of its index of states,
/// for the memory budget.
const BYTES_PER_EDGE: u64 = 16;
const BYTES_PER_STATE: u64 = 5;

/// Budget steps a state costs to expand, and each of its outcomes (restoring,
/// observing and finding the state reached).
pub const STEPS_PER_STATE: u64 = 64;
/// See [`STEPS_PER_STATE`].
pub const STEPS_PER_TRANSITION: u64 = 64;

/// State `id`'s key in the arena.
fn key(arena: &[i64], width: usize, id: u32) -> &[i64] {
    &arena[id as usize * width..(id as usize + 1) * width]
}

fn hash(key: &[i64]) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(key)
}

/// Why a chain could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChainError {
    /// More states than [`MAX_CHAIN_STATES`].
    #[error(
        "{spec} reaches more than {MAX_CHAIN_STATES} states from here; an exact answer walks every one (a Monte Carlo estimate does not)"
    )]
    TooManyStates {
        /// The randomizer.
        spec: String,
    },
    /// Over the budget, or cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl Failure for ChainError {
    fn kind(&self) -> FailureKind {
        match self {
            ChainError::TooManyStates { .. } => FailureKind::TooLarge,
            ChainError::Stopped(stop) => stop.kind(),
        }
    }
}

/// One transition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transition {
    /// The outcome index drawn.
    pub outcome: u32,
    /// The state reached.
    pub target: u32,
    /// Its chance.
    pub probability: f64,
}

/// The reachable states from a randomizer's current state (state 0), each with
/// its transitions.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    outcomes: usize,
    /// `transitions[starts[s]..starts[s + 1]]` leave state `s`.
    starts: Vec<usize>,
    transitions: Vec<Transition>,
    exact: Option<ExactWeights>,
}

/// Every transition's chance as an integer over one common denominator, when
/// the randomizer gives exact chances ([`Randomizer::exact_next_distribution`])
/// and their common denominator fits 64 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactWeights {
    /// The common denominator.
    pub scale: u64,
    /// Per transition (in [`Chain::edges`] order), its chance times `scale`.
    pub weights: Vec<u64>,
}

/// Gathers exact chances while the chain is walked: each transition's fraction
/// and the common denominator so far.
struct ExactGatherer {
    scale: u64,
    fractions: Vec<(u64, u64)>,
}

impl ExactGatherer {
    /// Adds a state's fractions for the outcomes it can draw; `None` when the
    /// randomizer has no exact chances or the denominator outgrows 64 bits.
    fn add(mut self, exact: Option<Vec<Ratio<u64>>>, drawn: &[usize]) -> Option<Self> {
        let exact = exact?;
        for &outcome in drawn {
            let chance = exact.get(outcome)?;
            let d = *chance.denom();
            self.scale = (self.scale / self.scale.gcd(&d)).checked_mul(d)?;
            self.fractions.push((*chance.numer(), d));
        }
        Some(self)
    }

    fn finish(self) -> ExactWeights {
        let scale = self.scale;
        ExactWeights {
            scale,
            weights: self
                .fractions
                .into_iter()
                .map(|(n, d)| n * (scale / d))
                .collect(),
        }
    }
}

impl Chain {
    /// Walks every state reachable from `randomizer`'s current state.
    ///
    /// # Errors
    /// [`ChainError::TooManyStates`]; [`ChainError::Stopped`] over the budget
    /// (a step a transition) or the memory limit, or when cancelled.
    pub fn explore<R: StateSpace + Clone>(
        randomizer: &R,
        control: &Control,
    ) -> Result<Chain, ChainError> {
        Chain::explore_within(randomizer, MAX_CHAIN_STATES, control)
    }

    /// [`explore`](Self::explore), refusing past `max_states` states (at most
    /// [`MAX_CHAIN_STATES`]): for a caller whose own walk could not use more.
    ///
    /// # Errors
    /// As [`explore`](Self::explore).
    pub fn explore_within<R: StateSpace + Clone>(
        randomizer: &R,
        max_states: usize,
        control: &Control,
    ) -> Result<Chain, ChainError> {
        let max_states = max_states.min(MAX_CHAIN_STATES);
        let outcomes = randomizer.outcomes().len();
        let width = randomizer.state_key().len();
        let mut meter = control.meter();
        // Every state's key end to end in one arena, found by hash.
        let mut arena: Vec<i64> = randomizer.state_key();
        let mut index: HashTable<u32> = HashTable::new();
        index.insert_unique(hash(&arena), 0, |&id| hash(key(&arena, width, id)));
        let mut starts = vec![0];
        let mut transitions = Vec::new();
        let mut scratch = randomizer.clone();
        let mut here: Vec<i64> = Vec::with_capacity(width);
        let mut reserved = 0u64;
        let mut exact = Some(ExactGatherer {
            scale: 1,
            fractions: Vec::new(),
        });
        let mut drawn = Vec::with_capacity(outcomes);
        let mut next = 0;
        while next * width < arena.len() || (width == 0 && next == 0) {
            here.clear();
            here.extend_from_slice(key(&arena, width, next as u32));
            scratch.restore(&here).expect("a reached state restores");
            let distribution = scratch.next_distribution();
            meter.charge(STEPS_PER_STATE + STEPS_PER_TRANSITION * outcomes as u64)?;
            drawn.clear();
            for (outcome, &probability) in distribution.iter().enumerate() {
                if probability <= 0.0 {
                    continue;
                }
                drawn.push(outcome);
                scratch
                    .observe(outcome)
                    .expect("an outcome of positive chance is observable");
                let moved = scratch.state_key();
                scratch.restore(&here).expect("a reached state restores");
                let h = hash(&moved);
                let found = index
                    .find(h, |&id| key(&arena, width, id) == moved.as_slice())
                    .copied();
                let target = match found {
                    Some(id) => id,
                    None => {
                        let id = arena.len().checked_div(width).unwrap_or(1);
                        if id >= max_states {
                            return Err(ChainError::TooManyStates {
                                spec: short_spec(randomizer),
                            });
                        }
                        arena.extend_from_slice(&moved);
                        index.insert_unique(h, id as u32, |&id| hash(key(&arena, width, id)));
                        id as u32
                    }
                };
                transitions.push(Transition {
                    outcome: outcome as u32,
                    target,
                    probability,
                });
            }
            starts.push(transitions.len());
            exact = exact.and_then(|e| e.add(scratch.exact_next_distribution(), &drawn));
            next += 1;
            // What the tables hold, at their capacity (they grow by doubling).
            let bytes = transitions.capacity() as u64 * BYTES_PER_EDGE
                + arena.capacity() as u64 * 8
                + starts.capacity() as u64 * 8
                + index.capacity() as u64 * BYTES_PER_STATE;
            // A table that grows holds its old and its new buffer at once.
            if bytes > reserved {
                control.reserve(2 * bytes)?;
                reserved = bytes;
            }
            if width == 0 {
                break;
            }
        }
        Ok(Chain {
            outcomes,
            starts,
            transitions,
            exact: exact.map(ExactGatherer::finish),
        })
    }

    /// The transitions' exact chances, when the randomizer gives them.
    pub fn exact(&self) -> Option<&ExactWeights> {
        self.exact.as_ref()
    }

    /// The number of states (state 0 is where the randomizer stood).
    pub fn states(&self) -> usize {
        self.starts.len() - 1
    }

    /// The number of outcomes of the randomizer.
    pub fn outcomes(&self) -> usize {
        self.outcomes
    }

    /// The transitions leaving `state`.
    pub fn transitions(&self, state: usize) -> &[Transition] {
        &self.transitions[self.starts[state]..self.starts[state + 1]]
    }

    /// The position of `state`'s first transition among all of them (its
    /// transitions follow in order): where its [`ExactWeights`] start.
    pub fn first_transition(&self, state: usize) -> usize {
        self.starts[state]
    }

    /// Every transition, state by state (for a loop over all states in order).
    pub fn edges(&self) -> impl Iterator<Item = (usize, &Transition)> {
        (0..self.states()).flat_map(move |s| self.transitions(s).iter().map(move |t| (s, t)))
    }

    /// The long-run share of each outcome starting from state 0: the limit of
    /// the expected frequency over a match as it grows. Computed by iterating the
    /// "lazy" chain (stay with chance 1/2), which has the same limit and
    /// converges on periodic chains too, until the state probabilities move less
    /// than 10^-13 or after a bounded number of steps.
    pub fn long_run_frequencies(&self) -> Vec<f64> {
        let n = self.states();
        let mut at = vec![0.0; n];
        at[0] = 1.0;
        let mut moved = vec![0.0; n];
        let rounds = (2_000_000_000 / (self.transitions.len() + n).max(1)).clamp(10, 200_000);
        for _ in 0..rounds {
            moved.iter_mut().for_each(|m| *m = 0.0);
            for (state, t) in self.edges() {
                moved[t.target as usize] += at[state] * t.probability;
            }
            let mut change: f64 = 0.0;
            for (a, m) in at.iter_mut().zip(&moved) {
                let lazy = 0.5 * (*a + m);
                change = change.max((lazy - *a).abs());
                *a = lazy;
            }
            if change < 1e-13 {
                break;
            }
        }
        let mut frequencies = vec![0.0; self.outcomes];
        for (state, t) in self.edges() {
            frequencies[t.outcome as usize] += at[state] * t.probability;
        }
        frequencies
    }
}

/// A randomizer's spec to name in a message: a long one (a machine document)
/// is cut to 80 characters.
pub fn short_spec<R: Randomizer + ?Sized>(randomizer: &R) -> String {
    let spec = randomizer.spec();
    if spec.len() <= 80 {
        return spec;
    }
    let cut = (0..=77)
        .rev()
        .find(|&i| spec.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}…", &spec[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    fn a_pity_counter_is_a_cycle_of_its_cap() {
        let pity = Spec::build("pity(p=0.1, cap=10)").expect("valid");
        let chain = Chain::explore(&pity, &Control::new()).expect("small");
        assert_eq!(chain.states(), 10);
        assert_eq!(chain.transitions(9).len(), 1);
        let hits = chain.long_run_frequencies()[1];
        let expected = 1.0 / (0..10).map(|k| 0.9f64.powi(k)).sum::<f64>();
        assert!((hits - expected).abs() < 1e-10, "{hits} vs {expected}");
    }

    #[test]
    fn a_periodic_deck_has_uniform_long_run_frequencies() {
        let deck = Spec::build("deck(values=3)").expect("valid");
        let chain = Chain::explore(&deck, &Control::new()).expect("small");
        for f in chain.long_run_frequencies() {
            assert!((f - 1.0 / 3.0).abs() < 1e-10, "{f}");
        }
    }

    #[test]
    fn large_chains_are_refused_by_the_budget() {
        let deck = Spec::build("deck(values=40)").expect("valid");
        let error = Chain::explore(&deck, &Control::new().with_max_steps(100_000))
            .expect_err("2^40 states");
        assert_eq!(error.kind(), FailureKind::TooLarge);
    }
}
