//! The exact seat sweep: every reachable (randomizer state, tracked value) pair
//! with its probability, step by step, where the tracked value is what a measure
//! follows (the players' totals packed into one word, or one player's current and
//! longest drought).
//!
//! # Design decisions
//! - The randomizer's states come from the analysis's state [`Graph`], each
//!   expanded once into its transitions and reused at every step, as in the
//!   curves' sweep; states are not merged across outcomes, because payoffs tell
//!   outcomes apart.
//! - The tracked value is one `u64` (totals in mixed radix), so a pair hashes as
//!   two words and adding a roll's payoffs to every total is one addition.
//! - The work is priced with the curves' [`Work`] (charged per step and projected
//!   over the steps to come) and the states with [`check_budget`] and
//!   [`check_memory`], so an oversized sweep stops early with its estimate.

use rustc_hash::FxHashMap;

use crate::analysis::canonical::{Canonical, Key};
use crate::analysis::exact::{
    CANCEL_CHECK_STATES, ExactError, ExactOptions, Work, check_budget, check_memory,
};
use crate::analysis::graph::{Edge, Graph};
use crate::control::Control;
use crate::randomizer::StateSpace;

/// Budget steps one (state, value) pair costs per outcome it can draw: a hash
/// look-up and an addition, 30 to 80 ns once the pairs outgrow the caches
/// (measured on the Catan board of `docs/seats.md`: 30 rolls of 2d6 swept
/// 3·10⁷ edges in 0.9 s, 40 rolls 1.2·10⁸ in 10 s on a loaded machine), so
/// priced like the rest of the engine at a few nanoseconds a step.
pub const STEPS_PER_EDGE: u64 = 16;

/// Bytes one pair takes in a step: the pair and its mass, in a vector and a map.
const PAIR_BYTES: usize = 64;

/// What the sweep follows besides the randomizer's state.
pub(crate) trait Tracker {
    /// The value before the first roll.
    fn start(&self) -> u64;
    /// The value after roll `step` (from 0) drew outcome index `outcome`.
    fn advance(&self, step: usize, outcome: usize, value: u64) -> u64;
}

/// One step's (randomizer state, tracked value, probability) pairs.
pub(crate) type Layer = [(u32, u64, f64)];

/// The distribution of the tracked value after `samples` rolls of `randomizer`
/// (reset first), and the most pairs one step held. `observe` sees the pairs
/// after each roll, with the rolls made so far.
///
/// # Errors
/// [`ExactError::OverBudget`] past `options.budget` pairs in a step (or projected
/// far past it with `give_up_early`); [`ExactError::TooSlow`] when the work
/// projects past the control's steps; [`ExactError::OutOfMemory`] past its memory;
/// [`ExactError::Stopped`] once it is cancelled.
pub(crate) fn sweep<R: StateSpace + Clone>(
    randomizer: &R,
    samples: usize,
    tracker: &impl Tracker,
    options: &ExactOptions,
    control: &Control,
    mut observe: impl FnMut(usize, &Layer),
) -> Result<(FxHashMap<u64, f64>, usize), ExactError> {
    let mut scratch = randomizer.clone();
    scratch.reset();
    let n = scratch.outcomes().len();
    let key_len = scratch.state_key().len() as u64;
    let mut canonical = Canonical::new(n, false);
    let mut key = Key::new();
    canonical.apply(&scratch.state_key(), None, &[], &mut key);
    let mut graph = Graph::new(scratch, canonical);
    graph.key = key;
    let start = graph.intern();

    let mut layer: Vec<(u32, u64, f64)> = vec![(start, tracker.start(), 1.0)];
    let mut next: Vec<(u32, u64, f64)> = Vec::new();
    let mut index: FxHashMap<(u32, u64), u32> = FxHashMap::default();
    let mut work = Work::new(control, options);
    let per_state = STEPS_PER_EDGE * n as u64 + 8;
    let memory_limit = usize::try_from(control.max_memory()).unwrap_or(usize::MAX);
    // A state met for the first time is expanded: each outcome restores,
    // observes and relabels a key. Most states recur, but the first expansion
    // alone can pass the budget (a randomizer of 65,536 outcomes has keys as
    // long: 4·10⁹ entries), and is priced before it starts.
    work.before_step(1, 1, n as u64 * 3 * key_len)?;
    let mut previous = 1usize;
    let mut peak = 1usize;
    for step in 0..samples {
        control.check()?;
        work.before_step(step + 1, layer.len(), per_state)?;
        next.clear();
        index.clear();
        for (k, &(node, value, mass)) in layer.iter().enumerate() {
            if k % CANCEL_CHECK_STATES == CANCEL_CHECK_STATES - 1 {
                control.check()?;
                let bytes = graph.bytes() + (layer.len() + next.len()) * PAIR_BYTES;
                check_memory(step + 1, bytes, control)?;
            }
            graph.expand(node, step + 1, memory_limit)?;
            let begin = graph.start[node as usize] as usize;
            for e in begin..begin + graph.count[node as usize] as usize {
                let Edge {
                    outcome,
                    target,
                    probability,
                } = graph.edges[e];
                let reached = tracker.advance(step, outcome as usize, value);
                let slot = *index.entry((target, reached)).or_insert_with(|| {
                    next.push((target, reached, 0.0));
                    (next.len() - 1) as u32
                });
                next[slot as usize].2 += mass * probability;
            }
        }
        check_memory(
            step + 1,
            graph.bytes() + (layer.len() + next.len()) * PAIR_BYTES,
            control,
        )?;
        check_budget(step + 1, samples, (next.len(), previous), None, options)?;
        work.step(step + 1, samples, layer.len(), next.len(), per_state)?;
        previous = next.len();
        peak = peak.max(next.len());
        std::mem::swap(&mut layer, &mut next);
        observe(step + 1, &layer);
        control.advance(1);
    }
    let mut values: FxHashMap<u64, f64> = FxHashMap::default();
    for (_, value, mass) in layer {
        *values.entry(value).or_insert(0.0) += mass;
    }
    Ok((values, peak))
}
