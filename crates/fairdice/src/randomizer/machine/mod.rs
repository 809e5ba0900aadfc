//! [`Machine`]: a game's own finite-state randomizer, described as data — a
//! banner with soft pity and a 50/50 guarantee, a shot whose chance rises after
//! each miss, a loot table with bad-luck protection — drawn, saved and measured
//! like every randomizer of the crate.
//!
//! A machine is a stack of **layers**. Each layer has states; in each state it
//! draws one of its **results** with exact chances and then moves to the state
//! that result names. The first layer draws on every step; a later layer
//! **refines** one result of an earlier one (the 50/50 acts only when the pity
//! layer gave a 5-star), replacing it with its own. The results no layer refines
//! are the machine's outcomes. The machine's state is one state per layer, so a
//! 90-state pity counter under a 2-state guarantee is a 180-state machine
//! written as two small layers.
//!
//! The document format is described in docs/machines.md; [`Machine`] has an
//! example.
//!
//! # Design decisions
//! - Chances are exact rationals; each state keeps them as integer weights over
//!   their common denominator and draws with [`rng::below`](crate::rng::below)
//!   of that denominator, so a draw is exact and replays bit for bit from a
//!   saved session (a denominator above 2^63 is refused).
//! - Every outcome comes from one chain of results (refined layers form a
//!   tree), so observing an outcome says which layers moved.
//! - The document is the spec: [`Randomizer::spec`] is the document written
//!   compactly, so a saved session restores the same machine. Validation walks
//!   every reachable state once ([`MAX_MACHINE_STATES`]), naming a state that
//!   cannot be reached or an outcome never drawn.

// Without serde no document can be read, so nothing builds a machine.
#![cfg_attr(not(feature = "serde"), allow(dead_code))]

#[cfg(feature = "serde")]
mod document;
#[cfg(feature = "serde")]
mod formula;
#[cfg(all(test, feature = "serde"))]
mod tests;

use std::sync::Arc;

use num_rational::Ratio;
use num_traits::CheckedMul;
use thiserror::Error;

use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

#[cfg(feature = "serde")]
pub use document::MAX_PARAMETERS;
#[cfg(feature = "serde")]
pub use formula::{MAX_FORMULA_BYTES, MAX_FORMULA_DEPTH, MAX_FORMULA_DIGITS};

/// Budget steps one entry of a machine costs to build (its formulas parsed and
/// evaluated, its reachable states walked): about 1 µs, at the budget's 10 ns a
/// step.
pub const BUILD_STEPS_PER_ENTRY: u64 = 100;

/// The longest machine document read, in bytes.
pub const MAX_MACHINE_BYTES: usize = 256 * 1024;

/// The most layers in a machine.
pub const MAX_LAYERS: usize = 8;

/// The most results one layer draws.
pub const MAX_RESULTS: usize = 256;

/// The most states of one layer times its results (the table a layer keeps).
pub const MAX_LAYER_ENTRIES: usize = 1_000_000;

/// The most reachable machine states (one state per layer) a machine may have.
pub const MAX_MACHINE_STATES: usize = 1_000_000;

/// Why a machine document was refused: the message names the layer, state and
/// result at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MachineError {
    /// Not a JSON document of the expected shape (unknown fields included).
    #[error("the machine document is not valid: {0}")]
    Document(String),
    /// Longer than [`MAX_MACHINE_BYTES`].
    #[error("the machine document is {found} bytes; accepted: at most {MAX_MACHINE_BYTES}")]
    TooLong {
        /// Its length in bytes.
        found: usize,
    },
    /// The layers, states or chances do not describe a randomizer.
    #[error("{0}")]
    Invalid(String),
    /// More states than the limits allow.
    #[error("{0}")]
    TooLarge(String),
}

/// Where a layer's result leads: to the layer refining it, or to an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Then {
    Layer(usize),
    Outcome(usize),
}

/// A layer state: integer weights of the results over `total`, and the state
/// each result leads to ([`NEVER`] for results it cannot draw).
#[derive(Debug, Clone, PartialEq, Eq)]
struct LayerState {
    total: u64,
    weights: Vec<u64>,
    next: Vec<u32>,
}

const NEVER: u32 = u32::MAX;

/// One layer of a built machine.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layer {
    name: String,
    /// `Some(n)` for a counter of `n` states, named by their count.
    counter: Option<usize>,
    state_names: Vec<String>,
    results: Vec<String>,
    then: Vec<Then>,
    start: u32,
    states: Vec<LayerState>,
}

impl Layer {
    fn state_name(&self, state: u32) -> String {
        match self.counter {
            Some(_) => format!("n = {state}"),
            None => format!("state {:?}", self.state_names[state as usize]),
        }
    }
}

/// A named number of a machine document that its formulas use
/// (`"parameters": {"step": {"value": "10%", "tune": "5%..30% step 5%"}}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineParameter {
    /// Its name in formulas.
    pub name: String,
    /// Its value as written.
    pub value: String,
    /// The values a tuner tries, as grid values (`5%..30% step 5%`, `10..40`,
    /// `1|2|4`), if the document names them.
    pub tune: Option<String>,
}

/// A finite-state randomizer read from a document: layers of states drawing
/// results with exact chances, the first layer on every step and each later
/// one refining a result of an earlier one.
///
/// Draws each outcome with exactly the chance its document gives in the
/// current state, and moves every layer that acted to the state its result
/// names.
///
/// # Example
/// A streak-breaking shot (the document format is docs/machines.md's):
/// ```
/// # #[cfg(feature = "serde")]
/// # fn main() -> Result<(), fairdice::randomizer::MachineError> {
/// use fairdice::randomizer::{Machine, Randomizer};
///
/// let shot = Machine::from_json(r#"{
///   "name": "streak-breaking shot",
///   "layers": [{
///     "name": "misses", "counter": 6,
///     "draw": {"hit": "min(1, 1/2 + n/10)", "miss": "rest"},
///     "next": {"hit": 0, "miss": "min(5, n + 1)"}
///   }]
/// }"#)?;
/// assert_eq!(shot.outcomes(), [0, 1]);
/// assert_eq!(shot.label(0), "hit");
/// assert_eq!(shot.next_distribution(), [0.5, 0.5]);
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "serde"))]
/// # fn main() {}
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Machine {
    shared: Arc<Shared>,
    /// The current state of each layer.
    states: Vec<u32>,
}

#[derive(Debug, PartialEq)]
struct Shared {
    spec: String,
    name: Option<String>,
    outcomes: Vec<Outcome>,
    labels: Option<Vec<String>>,
    layers: Vec<Layer>,
    /// Per outcome, the results that give it: `(layer, result)` from the first
    /// layer down.
    paths: Vec<Vec<(usize, usize)>>,
    reachable: usize,
}

impl Machine {
    /// Reads a machine document (JSON).
    ///
    /// # Errors
    /// [`MachineError`] naming what is wrong: not JSON or an unknown field,
    /// chances that do not sum to 1, a state that cannot be reached, an outcome
    /// never drawn, more states than [`MAX_MACHINE_STATES`].
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<Machine, MachineError> {
        document::read(text)
    }

    /// The parameters its document defines, in the order written.
    pub fn parameters(&self) -> Vec<MachineParameter> {
        #[cfg(feature = "serde")]
        {
            document::parameters(&self.shared.spec).unwrap_or_default()
        }
        #[cfg(not(feature = "serde"))]
        Vec::new()
    }

    /// The same machine with some parameters set to other values (numbers or
    /// formulas, as a parameter's `value` takes them), checked as any document.
    ///
    /// # Errors
    /// [`MachineError`]: a name the document does not define, or a value that
    /// makes the document invalid (a chance above 1, a counter of 0 states).
    #[cfg(feature = "serde")]
    pub fn with_parameters(&self, values: &[(&str, String)]) -> Result<Machine, MachineError> {
        document::read(&document::with_parameters(&self.shared.spec, values)?)
    }

    /// The machine's name, if its document gives one.
    pub fn name(&self) -> Option<&str> {
        self.shared.name.as_deref()
    }

    /// What reading its document again costs, in budget steps: about
    /// [`BUILD_STEPS_PER_ENTRY`] per chance written out (a state's result) and
    /// per reachable state walked. A search that builds a machine per candidate
    /// charges this for each.
    pub fn build_steps(&self) -> u64 {
        let entries: usize = self
            .shared
            .layers
            .iter()
            .map(|l| l.states.len() * l.results.len())
            .sum();
        (entries as u64 + self.shared.reachable as u64).saturating_mul(BUILD_STEPS_PER_ENTRY)
    }

    /// How many machine states (one per layer) can be reached from the start.
    pub fn reachable_states(&self) -> usize {
        self.shared.reachable
    }

    /// The layers' names and the state each is in, e.g. `[("pity", "n = 3")]`.
    pub fn describe_state(&self) -> Vec<(String, String)> {
        self.shared
            .layers
            .iter()
            .zip(&self.states)
            .map(|(layer, &state)| (layer.name.clone(), layer.state_name(state)))
            .collect()
    }

    /// Builds from checked layers: computes the outcomes' paths and walks every
    /// reachable state.
    fn assemble(
        spec: String,
        name: Option<String>,
        layers: Vec<Layer>,
        leaves: Vec<String>,
    ) -> Result<Machine, MachineError> {
        let mut paths = vec![Vec::new(); leaves.len()];
        fn walk(
            layers: &[Layer],
            layer: usize,
            prefix: &mut Vec<(usize, usize)>,
            paths: &mut [Vec<(usize, usize)>],
        ) {
            for (result, then) in layers[layer].then.iter().enumerate() {
                prefix.push((layer, result));
                match *then {
                    Then::Layer(child) => walk(layers, child, prefix, paths),
                    Then::Outcome(outcome) => paths[outcome] = prefix.clone(),
                }
                prefix.pop();
            }
        }
        walk(&layers, 0, &mut Vec::new(), &mut paths);
        let numbers: Option<Vec<Outcome>> = leaves.iter().map(|l| l.parse().ok()).collect();
        let (outcomes, labels) = match numbers {
            Some(values) if values.windows(2).all(|w| w[0] < w[1]) => (values, None),
            Some(_) => {
                return Err(MachineError::Invalid(format!(
                    "the outcomes are numbers, so list them in increasing order (found {})",
                    leaves.join(", ")
                )));
            }
            None => ((0..leaves.len() as Outcome).collect(), Some(leaves)),
        };
        let start: Vec<u32> = layers.iter().map(|l| l.start).collect();
        let mut shared = Shared {
            spec,
            name,
            outcomes,
            labels,
            layers,
            paths,
            reachable: 0,
        };
        shared.reachable = shared.walk_reachable(&start)?;
        Ok(Machine {
            shared: Arc::new(shared),
            states: start,
        })
    }

    /// The chance of `outcome` in the current state, exactly as a fraction's
    /// numerator and denominator products, in floating point.
    fn chance(&self, outcome: usize) -> f64 {
        self.shared.chance(&self.states, outcome)
    }
}

impl Shared {
    fn chance(&self, states: &[u32], outcome: usize) -> f64 {
        self.paths[outcome]
            .iter()
            .map(|&(layer, result)| {
                let state = &self.layers[layer].states[states[layer] as usize];
                state.weights[result] as f64 / state.total as f64
            })
            .product()
    }

    /// True when `outcome` can be drawn from `states`.
    fn possible(&self, states: &[u32], outcome: usize) -> bool {
        self.paths[outcome].iter().all(|&(layer, result)| {
            self.layers[layer].states[states[layer] as usize].weights[result] > 0
        })
    }

    /// Moves `states` as drawing `outcome` does (which must be possible).
    fn apply(&self, states: &mut [u32], outcome: usize) {
        for &(layer, result) in &self.paths[outcome] {
            let next = self.layers[layer].states[states[layer] as usize].next[result];
            states[layer] = next;
        }
    }

    /// Visits every state reachable from `start`, checking that each layer state
    /// and each outcome is met; returns how many machine states there are.
    fn walk_reachable(&self, start: &[u32]) -> Result<usize, MachineError> {
        use std::collections::HashSet;
        let mut seen: HashSet<Vec<u32>, rustc_hash::FxBuildHasher> = HashSet::default();
        let mut visited: Vec<Vec<bool>> = self
            .layers
            .iter()
            .map(|l| vec![false; l.states.len()])
            .collect();
        let mut drawn = vec![false; self.paths.len()];
        let mut queue = vec![start.to_vec()];
        seen.insert(start.to_vec());
        while let Some(states) = queue.pop() {
            for (layer, &state) in states.iter().enumerate() {
                visited[layer][state as usize] = true;
            }
            for (outcome, drawn) in drawn.iter_mut().enumerate() {
                if !self.possible(&states, outcome) {
                    continue;
                }
                *drawn = true;
                let mut next = states.clone();
                self.apply(&mut next, outcome);
                if !seen.contains(&next) {
                    if seen.len() >= MAX_MACHINE_STATES {
                        return Err(MachineError::TooLarge(format!(
                            "the machine reaches more than {MAX_MACHINE_STATES} states \
                             (one per layer together); accepted: at most {MAX_MACHINE_STATES}"
                        )));
                    }
                    seen.insert(next.clone());
                    queue.push(next);
                }
            }
        }
        for (layer, visited) in self.layers.iter().zip(&visited) {
            if let Some(state) = visited.iter().position(|v| !v) {
                return Err(MachineError::Invalid(format!(
                    "layer {:?}: {} cannot be reached from the start",
                    layer.name,
                    layer.state_name(state as u32)
                )));
            }
        }
        if let Some(outcome) = drawn.iter().position(|d| !d) {
            return Err(MachineError::Invalid(format!(
                "the outcome {:?} is never drawn from any reachable state",
                self.label(outcome)
            )));
        }
        Ok(seen.len())
    }

    fn label(&self, outcome: usize) -> String {
        match &self.labels {
            Some(labels) => labels[outcome].clone(),
            None => self.outcomes[outcome].to_string(),
        }
    }
}

impl Randomizer for Machine {
    fn spec(&self) -> String {
        self.shared.spec.clone()
    }

    fn outcomes(&self) -> &[Outcome] {
        &self.shared.outcomes
    }

    fn label(&self, index: usize) -> String {
        if index >= self.shared.outcomes.len() {
            return format!("#{index}");
        }
        self.shared.label(index)
    }

    fn next_distribution(&self) -> Vec<f64> {
        (0..self.shared.outcomes.len())
            .map(|outcome| self.chance(outcome))
            .collect()
    }

    fn base_distribution(&self) -> Vec<f64> {
        self.long_run_frequencies()
    }

    fn exact_next_distribution(&self) -> Option<Vec<Ratio<u64>>> {
        let shared = &*self.shared;
        shared
            .paths
            .iter()
            .map(|path| {
                path.iter()
                    .try_fold(Ratio::from_integer(1u64), |chance, &(layer, result)| {
                        let state = &shared.layers[layer].states[self.states[layer] as usize];
                        chance.checked_mul(&Ratio::new(state.weights[result], state.total))
                    })
            })
            .collect()
    }

    fn sample_steps(&self) -> u64 {
        let depth = self.shared.layers.len() as u64;
        (self.shared.outcomes.len() as u64).saturating_mul(super::STEPS_PER_DRAWN_OUTCOME + depth)
    }

    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let shared = &*self.shared;
        let mut layer = 0;
        loop {
            let state = &shared.layers[layer].states[self.states[layer] as usize];
            let mut pick = rng::below(rng, state.total);
            let mut result = 0;
            while pick >= state.weights[result] {
                pick -= state.weights[result];
                result += 1;
            }
            self.states[layer] = state.next[result];
            match shared.layers[layer].then[result] {
                Then::Layer(child) => layer = child,
                Then::Outcome(outcome) => return outcome,
            }
        }
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.shared.outcomes.len())?;
        if !self.shared.possible(&self.states, index) {
            let (at, result) = *self.shared.paths[index]
                .iter()
                .find(|&&(layer, result)| {
                    self.shared.layers[layer].states[self.states[layer] as usize].weights[result]
                        == 0
                })
                .expect("an impossible outcome has a zero chance on its path");
            let layer = &self.shared.layers[at];
            return Err(ObserveError::Impossible {
                outcome: self.label(index),
                reason: format!(
                    "layer {:?} at {} cannot give {}",
                    layer.name,
                    layer.state_name(self.states[at]),
                    layer.results[result]
                ),
            });
        }
        self.shared.apply(&mut self.states, index);
        Ok(())
    }

    fn reset(&mut self) {
        for (state, layer) in self.states.iter_mut().zip(&self.shared.layers) {
            *state = layer.start;
        }
    }
}

impl StateSpace for Machine {
    fn state_bound(&self) -> Option<usize> {
        Some(self.shared.reachable)
    }

    fn state_key(&self) -> Vec<i64> {
        self.states.iter().map(|&s| i64::from(s)).collect()
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.shared.layers.len())?;
        let mut states = Vec::with_capacity(key.len());
        for (layer, &entry) in self.shared.layers.iter().zip(key) {
            match u32::try_from(entry) {
                Ok(state) if (state as usize) < layer.states.len() => states.push(state),
                _ => {
                    return Err(RestoreError::Inconsistent {
                        spec: self.spec(),
                        reason: format!(
                            "layer {:?} has states 0 to {}, not {entry}",
                            layer.name,
                            layer.states.len() - 1
                        ),
                    });
                }
            }
        }
        self.states = states;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

impl Machine {
    /// The long-run share of each outcome from the start: the limit of the
    /// average frequency over a long match, computed on the reachable states.
    pub fn long_run_frequencies(&self) -> Vec<f64> {
        let mut fresh = self.clone();
        fresh.reset();
        super::chain::Chain::explore(&fresh, &crate::Control::new())
            .map(|chain| chain.long_run_frequencies())
            .unwrap_or_else(|_| fresh.next_distribution())
    }
}
