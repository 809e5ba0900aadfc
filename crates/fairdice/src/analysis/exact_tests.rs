//! The exact distribution of an audit's statistics over logs of a given length
//! drawn from a randomizer: a walk over (state, summary) pairs, the summary
//! being what the statistic needs of the entries so far (the last entry and
//! the repeats; each outcome's run without it; the counts). Pairs with the same
//! state and summary merge, so the walk is exact and as large as the distinct
//! summaries, not the logs. It gives up (`None`) past [`MAX_PAIRS`] pairs in a
//! step or when its share of the budget is spent, and the audit then simulates.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::chain::Chain;
use crate::control::{Control, Stop};

/// The most (state, summary) pairs one step of an exact test holds.
pub const MAX_PAIRS: usize = 100_000;

/// Budget steps a pair's transition costs (hashing its summary).
pub const STEPS_PER_PAIR_TRANSITION: u64 = 32;

/// A statistic of a log, as the walk follows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Statistic<'a> {
    /// `Σ (c_i − p_i·T)² / (p_i·T)` over the outcomes with `p_i > 0`.
    Fit {
        /// The base `p`.
        base: &'a [f64],
    },
    /// The longest run of entries without some outcome (for an outcome of
    /// the base, the run at the end counts too). Followed up to `cap`: every
    /// value past it is one.
    Drought {
        /// The base: whose runs at the end count.
        base: &'a [f64],
        /// Values above it are not told apart.
        cap: u32,
    },
    /// Entries equal to the one before, followed up to `cap`.
    Repeats {
        /// Values above it are not told apart.
        cap: u32,
    },
}

/// A summary past the statistic's cap, whatever comes next.
const PAST_CAP: u32 = u32::MAX;

impl Statistic<'_> {
    fn start(&self, outcomes: usize) -> Vec<u32> {
        match self {
            Statistic::Fit { .. } => vec![0; outcomes],
            // Each outcome's run without it, then the longest finished run.
            Statistic::Drought { .. } => vec![0; outcomes + 1],
            // The last entry (0: none yet, else 1 + outcome) and the repeats.
            Statistic::Repeats { .. } => vec![0, 0],
        }
    }

    /// The summary after one more entry, `outcome`.
    fn step(&self, key: &mut Vec<u32>, outcome: usize) {
        match *self {
            Statistic::Fit { .. } => key[outcome] += 1,
            Statistic::Drought { base, cap } => {
                if key[0] == PAST_CAP {
                    return;
                }
                let n = key.len() - 1;
                let finished = key[outcome];
                key[n] = key[n].max(finished);
                key[outcome] = 0;
                for (y, run) in key[..n].iter_mut().enumerate() {
                    if y != outcome {
                        *run = (*run + 1).min(cap + 1);
                    }
                }
                // A run past the cap of an outcome of the base will count.
                let past = key[n] > cap || (0..n).any(|y| base[y] > 0.0 && key[y] > cap);
                if past {
                    key.clear();
                    key.push(PAST_CAP);
                }
            }
            Statistic::Repeats { cap } => {
                let last = outcome as u32 + 1;
                if key[0] == last {
                    key[1] = (key[1] + 1).min(cap + 1);
                }
                key[0] = last;
            }
        }
    }

    /// The statistic of a finished log's summary (`f64::INFINITY` past the cap).
    fn value(&self, key: &[u32]) -> f64 {
        match *self {
            Statistic::Fit { base } => {
                let t: f64 = key.iter().map(|&c| f64::from(c)).sum();
                base.iter()
                    .zip(key)
                    .filter(|(p, _)| **p > 0.0)
                    .map(|(&p, &c)| (f64::from(c) - p * t).powi(2) / (p * t))
                    .sum()
            }
            Statistic::Drought { base, cap } => {
                if key[0] == PAST_CAP {
                    return f64::INFINITY;
                }
                let n = key.len() - 1;
                let longest = (0..n)
                    .filter(|&y| base[y] > 0.0)
                    .map(|y| key[y])
                    .fold(key[n], u32::max);
                if longest > cap {
                    f64::INFINITY
                } else {
                    f64::from(longest)
                }
            }
            Statistic::Repeats { cap } => {
                if key[1] > cap {
                    f64::INFINITY
                } else {
                    f64::from(key[1])
                }
            }
        }
    }
}

/// P(statistic ≥ observed − slack), P(statistic ≤ observed + slack) over logs
/// of `entries` entries drawn from the chain's state 0, and the most pairs a
/// step held; `None` when the pairs outgrow [`MAX_PAIRS`], their memory does
/// not fit the control's, or the steps left would cost more than its budget.
///
/// # Errors
/// [`Stop`] over the budget or when cancelled.
pub(crate) fn tails(
    chain: &Chain,
    entries: usize,
    statistic: Statistic<'_>,
    observed: f64,
    slack: f64,
    control: &Control,
) -> Result<Option<(f64, f64, usize)>, Stop> {
    // Two layers of pairs at most, each pair a key and its hash table slot.
    let key_bytes = (chain.outcomes() as u64 + 1) * 4 + 64;
    if control.reserve(2 * MAX_PAIRS as u64 * key_bytes).is_err() {
        return Ok(None);
    }
    let mut meter = control.meter();
    let mut peak = 1;
    // Each step's pairs in key order, so that every platform adds the same
    // chances in the same order (a hash table's order differs between 32- and
    // 64-bit targets) and the p-values agree to the last bit.
    let mut layer: Vec<((u32, Vec<u32>), f64)> =
        vec![((0, statistic.start(chain.outcomes())), 1.0)];
    let mut spent = 0u64;
    for step in 0..entries {
        control.check()?;
        let mut next: FxHashMap<(u32, Vec<u32>), f64> = FxHashMap::default();
        next.reserve(layer.len());
        let mut moves = 0u64;
        for ((state, key), p) in layer {
            let transitions = chain.transitions(state as usize);
            moves += transitions.len() as u64;
            for t in transitions {
                let mut moved = key.clone();
                statistic.step(&mut moved, t.outcome as usize);
                match next.entry((t.target, moved)) {
                    Entry::Occupied(mut e) => *e.get_mut() += p * t.probability,
                    Entry::Vacant(e) => {
                        e.insert(p * t.probability);
                    }
                }
            }
            if next.len() > MAX_PAIRS {
                return Ok(None);
            }
        }
        let cost = moves.saturating_mul(STEPS_PER_PAIR_TRANSITION);
        meter.charge(cost)?;
        spent = spent.saturating_add(cost);
        // The steps left cost at least as much as this one did: give up now
        // when that passes the budget, rather than spend it and give up then.
        let left = (entries - step - 1) as u64;
        if spent.saturating_add(left.saturating_mul(cost)) > control.max_steps() {
            return Ok(None);
        }
        peak = peak.max(next.len());
        layer = next.into_iter().collect();
        layer.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }
    let (mut at_least, mut at_most) = (0.0, 0.0);
    for ((_, key), p) in &layer {
        let value = statistic.value(key);
        if value >= observed - slack {
            at_least += p;
        }
        if value <= observed + slack {
            at_most += p;
        }
    }
    Ok(Some((at_least.min(1.0), at_most.min(1.0), peak)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::{Randomizer, Spec, StateSpace};

    /// Every log of `len` entries from `spec`'s start with its chance.
    fn every_log(spec: &str, len: usize) -> Vec<(Vec<usize>, f64)> {
        let start = Spec::build(spec).expect("valid");
        let mut logs = vec![(Vec::new(), 1.0, start)];
        for _ in 0..len {
            let mut longer = Vec::new();
            for (log, p, r) in logs {
                for (x, q) in r.next_distribution().into_iter().enumerate() {
                    if q > 0.0 {
                        let mut child = r.clone();
                        child.observe(x).expect("possible");
                        let mut log = log.clone();
                        log.push(x);
                        longer.push((log, p * q, child));
                    }
                }
            }
            logs = longer;
        }
        logs.into_iter().map(|(log, p, _)| (log, p)).collect()
    }

    /// The three statistics of a log, as the audit computes them.
    fn direct(log: &[usize], base: &[f64]) -> [f64; 3] {
        let n = base.len();
        let (mut counts, mut last) = (vec![0u64; n], vec![0usize; n]);
        let (fit, drought, repeats) =
            super::super::audit::statistics(log, base, &mut counts, &mut last);
        [fit, drought, repeats]
    }

    #[test]
    fn the_walk_agrees_with_every_log_of_small_randomizers() {
        for spec in [
            "dice(values=3)",
            "deck(values=3, copies=2)",
            "prd(p=0.3)",
            "pity(p=0.2, cap=4)",
            "deck(base=2d2, copies=1)",
        ] {
            let r = Spec::build(spec).expect("valid");
            let base = crate::analysis::base_probabilities(&r);
            let chain = Chain::explore(&r, &Control::new()).expect("small");
            let len = 7;
            let logs = every_log(spec, len);
            for (which, observed) in [(0, 1.0), (0, 2.5), (1, 2.0), (1, 4.0), (2, 1.0), (2, 3.0)] {
                let statistic = match which {
                    0 => Statistic::Fit { base: &base },
                    1 => Statistic::Drought {
                        base: &base,
                        cap: observed as u32,
                    },
                    _ => Statistic::Repeats {
                        cap: observed as u32,
                    },
                };
                let (at_least, at_most, _) =
                    tails(&chain, len, statistic, observed, 1e-9, &Control::new())
                        .expect("within budget")
                        .expect("small");
                let (mut ge, mut le) = (0.0, 0.0);
                for (log, p) in &logs {
                    let s = direct(log, &base)[which];
                    if s >= observed - 1e-9 {
                        ge += p;
                    }
                    if s <= observed + 1e-9 {
                        le += p;
                    }
                }
                assert!(
                    (at_least - ge).abs() < 1e-12,
                    "{spec} #{which} ≥ {observed}: {at_least} vs {ge}"
                );
                assert!(
                    (at_most - le).abs() < 1e-12,
                    "{spec} #{which} ≤ {observed}: {at_most} vs {le}"
                );
            }
            let _ = r.state_key();
        }
    }
}
