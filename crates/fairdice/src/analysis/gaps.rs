//! Droughts: how long an outcome keeps failing to appear. For each outcome, the
//! distribution of its longest gap in a match, exactly (a sweep that also follows
//! the outcome's current gap) or by Monte Carlo.
//!
//! A *gap* of outcome `i` is a maximal run of consecutive samples that are not `i`,
//! including the run before its first appearance and the one still open at the end
//! of the match. Its *longest gap* is `T` if it never appears in `T` samples and 0
//! if it is every sample.

use rustc_hash::FxHashMap;

use super::canonical::{Canonical, Key};
use super::exact::{
    CANCEL_CHECK_STATES, ExactError, ExactOptions, Work, check_budget, check_memory,
};
use super::graph::key_bytes;
use crate::control::Control;
use crate::randomizer::StateSpace;

/// The drought figures of one outcome over a match.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OutcomeDroughts {
    /// The outcome's index.
    pub outcome: usize,
    /// The expected longest gap.
    pub longest_gap: f64,
    /// `exceeds[k]` = P(longest gap > k), for `k` in `0..=T` (the last is 0).
    pub exceeds: Vec<f64>,
    /// Standard errors of `longest_gap` and of each `exceeds` entry (Monte Carlo
    /// only).
    pub errors: Option<(f64, Vec<f64>)>,
}

/// One sweep state: the randomizer's canonical key with the tracked outcome's
/// position, its current gap and its longest gap so far appended.
struct Layer {
    index: FxHashMap<Key, u32>,
    keys: Vec<Key>,
    mass: Vec<f64>,
    /// About how many bytes the layer holds.
    bytes: usize,
}

impl Layer {
    fn new() -> Layer {
        Layer {
            index: FxHashMap::default(),
            keys: Vec::new(),
            mass: Vec::new(),
            bytes: 0,
        }
    }

    fn add(&mut self, key: &Key, mass: f64) {
        if let Some(&s) = self.index.get(key) {
            self.mass[s as usize] += mass;
            return;
        }
        self.bytes += 2 * key_bytes(key) + 24;
        self.index.insert(key.clone(), self.keys.len() as u32);
        self.keys.push(key.clone());
        self.mass.push(mass);
    }
}

/// The gap lengths `k` worth showing P(longest gap > k) for, in a table of a match
/// of `samples` samples over `outcomes` outcomes whose largest expected longest gap
/// is `longest`: up to four multiples of a whole set of outcomes, spaced so that
/// they span that gap.
pub fn shown_gaps(longest: f64, outcomes: usize, samples: usize) -> Vec<usize> {
    let n = outcomes.max(1);
    let stride = n * ((longest / (2 * n) as f64).round() as usize).max(1);
    (1..=4)
        .map(|m| m * stride)
        .filter(|&k| k < samples)
        .collect()
}

/// The exact drought figures of every outcome over `samples` samples, and the most
/// states one step of the sweep held.
///
/// With exchangeable outcomes one outcome is followed and its figures hold for
/// all; otherwise each outcome is followed in turn. The sweep's states are the
/// randomizer's, times the pairs (current gap, longest gap so far), so it grows
/// roughly with `T²/2` times the randomizer's states; `options.budget` bounds
/// each step.
///
/// # Errors
/// [`ExactError::OverBudget`] when a step holds more states than the budget;
/// [`ExactError::OutOfMemory`] past the control's memory; [`ExactError::Stopped`]
/// once `control` is cancelled. `control` is told of each outcome followed
/// (stage `droughts`).
pub fn exact<R: StateSpace + Clone>(
    randomizer: &R,
    samples: usize,
    options: &ExactOptions,
    control: &Control,
) -> Result<(Vec<OutcomeDroughts>, usize), ExactError> {
    let mut scratch = randomizer.clone();
    scratch.reset();
    let n = scratch.outcomes().len();
    let merge = options.merge && scratch.exchangeable();
    let followed = if merge { 1 } else { n };
    control.stage("droughts", followed as u64);
    let mut results = Vec::with_capacity(n);
    let mut peak = 0;
    for tracked in 0..followed {
        let (longest, states) = follow(&mut scratch, tracked, samples, merge, options, control)?;
        peak = peak.max(states);
        control.advance(1);
        let exceeds: Vec<f64> = (0..=samples)
            .map(|k| longest[k + 1..].iter().sum())
            .collect();
        let mean = longest.iter().enumerate().map(|(g, p)| g as f64 * p).sum();
        results.push(OutcomeDroughts {
            outcome: tracked,
            longest_gap: mean,
            exceeds,
            errors: None,
        });
    }
    if merge {
        let one = results.remove(0);
        results = (0..n)
            .map(|outcome| OutcomeDroughts {
                outcome,
                ..one.clone()
            })
            .collect();
    }
    Ok((results, peak))
}

/// The distribution of the longest gap of outcome `tracked` (index `g` holds
/// P(longest gap = g), `g` in `0..=samples`), and the most states a step held.
fn follow<R: StateSpace>(
    scratch: &mut R,
    tracked: usize,
    samples: usize,
    merge: bool,
    options: &ExactOptions,
    control: &Control,
) -> Result<(Vec<f64>, usize), ExactError> {
    let n = scratch.outcomes().len();
    let spec = scratch.spec();
    let inconsistent = |e: &dyn std::fmt::Display| ExactError::Inconsistent {
        spec: spec.clone(),
        message: e.to_string(),
    };
    scratch.reset();
    let mut canonical = Canonical::new(n, merge);
    let mut key = Key::new();
    canonical.apply(&scratch.state_key(), Some(tracked), &[0, 0], &mut key);
    let mut layer = Layer::new();
    layer.add(&key, 1.0);
    let mut previous = 1usize;
    let mut peak = 1usize;
    let mut work = Work::new(control, options);
    // An edge restores, observes and relabels a key of `len` entries and hashes
    // it: about 8 ns an entry (measured: the droughts of fair(base=2d6) over 10
    // samples, 2e9 of these entries in 17 s), priced at 4 steps of the budget's
    // nanosecond or so each.
    let per_state = 4 * n as u64 * (24 + key.len() as u64);
    for step in 1..=samples {
        work.before_step(step, layer.keys.len(), per_state)?;
        let mut next = Layer::new();
        for s in 0..layer.keys.len() {
            if s % CANCEL_CHECK_STATES == 0 {
                control.check()?;
                check_memory(step, layer.bytes + next.bytes, control)?;
            }
            let state = &layer.keys[s];
            let m = layer.mass[s];
            // The key ends with: tracked position, current gap, longest gap.
            let len = state.len();
            let (position, gap, longest) =
                (state[len - 3] as usize, state[len - 2], state[len - 1]);
            let randomizer_key = &state[..len - 3];
            scratch
                .restore(randomizer_key)
                .map_err(|e| inconsistent(&e))?;
            let distribution = scratch.next_distribution();
            let mut fresh = true;
            for (i, &p) in distribution.iter().enumerate() {
                if p <= 0.0 {
                    continue;
                }
                if !fresh {
                    scratch
                        .restore(randomizer_key)
                        .map_err(|e| inconsistent(&e))?;
                }
                fresh = false;
                scratch.observe(i).map_err(|e| inconsistent(&e))?;
                let gap = if i == position { 0 } else { gap + 1 };
                canonical.apply(
                    &scratch.state_key(),
                    Some(position),
                    &[gap, longest.max(gap)],
                    &mut key,
                );
                next.add(&key, m * p);
            }
        }
        check_budget(step, samples, (next.keys.len(), previous), None, options)?;
        work.step(step, samples, layer.keys.len(), next.keys.len(), per_state)?;
        previous = next.keys.len();
        peak = peak.max(previous);
        layer = next;
    }
    let mut longest = vec![0.0; samples + 1];
    for (state, m) in layer.keys.iter().zip(&layer.mass) {
        longest[state[state.len() - 1] as usize] += m;
    }
    Ok((longest, peak))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    fn droughts(spec: &str, samples: usize, merge: bool) -> Vec<OutcomeDroughts> {
        let r = Spec::build(spec).expect("valid");
        let options = ExactOptions {
            merge,
            ..ExactOptions::default()
        };
        exact(&r, samples, &options, &Control::new())
            .expect("small")
            .0
    }

    #[test]
    fn a_plain_deck_never_waits_longer_than_two_decks_less_one() {
        // The worst case: the outcome is first in one deck and last in the next.
        let d = droughts("deck(values=4)", 40, true);
        assert_eq!(d.len(), 4);
        assert_eq!(d[0].exceeds[6], 0.0);
        assert!(d[0].exceeds[5] > 0.0);
    }

    #[test]
    fn a_coin_matches_the_run_length_closed_form() {
        // P(no run of 3 or more tails in 4 flips) = 1 − P(TTT in 4) = 1 − 3/16.
        let d = droughts("dice(values=2)", 4, true);
        assert!((d[0].exceeds[2] - 3.0 / 16.0).abs() < 1e-15);
        // Never appearing in 4 flips: 1/16.
        assert!((d[0].exceeds[3] - 1.0 / 16.0).abs() < 1e-15);
        assert_eq!(d[0].exceeds[0], 1.0 - 1.0 / 16.0);
    }

    #[test]
    fn merging_agrees_with_following_each_outcome() {
        for spec in [
            "dynamic(values=3, decrease=0.5)",
            "deck(values=3, copies=2, refill_below=2)",
        ] {
            let merged = droughts(spec, 10, true);
            let each = droughts(spec, 10, false);
            for (a, b) in merged.iter().zip(&each) {
                assert!((a.longest_gap - b.longest_gap).abs() < 1e-12, "{spec}");
                for (x, y) in a.exceeds.iter().zip(&b.exceeds) {
                    assert!((x - y).abs() < 1e-12, "{spec}");
                }
            }
        }
    }

    #[test]
    fn prd_droughts_differ_by_outcome() {
        let d = droughts("prd(p=0.25)", 20, true);
        // The success never waits more than the PRD's cap of attempts (1/C).
        assert_eq!(d[1].exceeds[12], 0.0);
        assert!(d[1].longest_gap > d[0].longest_gap);
    }
}
