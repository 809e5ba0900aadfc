//! The exact sweep: expected entropy, outcome variance and repeat rate per step,
//! by walking every reachable state of a randomizer with its probability.
//!
//! # Design decisions
//! - A state of the sweep is the randomizer's state key only. The outcome counts,
//!   which the outcome variance needs, are *not* part of it: each state carries its
//!   probability `m`, the partial moments `M_i = E[count_i; state]` and
//!   `S = E[Σ count²; state]`, which update linearly when outcome `i` is drawn with
//!   probability `p`: `S' += p(S + 2M_i + m)`, `M'_j += p M_j`, `M'_i += p m`.
//!   Plain dice then have one state, not one per count vector, and a PRD or a
//!   Tetris randomizer a handful; for decks and dynamic dice, whose state already
//!   determines the counts, nothing is lost.
//! - When outcomes are exchangeable, states equal up to a relabeling merge: the
//!   key is sorted and the per-outcome moments are permuted with it (see
//!   `Canonical`). Outcomes whose key entries tie may swap moments between
//!   merged states; that is harmless, because the future treats tied outcomes
//!   alike, so every later quantity depends only on the sum of their moments.
//! - Probabilities are `f64`. Every quantity is a sum of non-negative terms except
//!   the final `Σc²/n − (t/n)²`, so the relative error stays near 1e-13 for the
//!   sizes the budget allows; the tests compare against closed forms and against
//!   a sweep without merging.

use super::base_deviation::{self, BaseDeviation, base_probabilities};
use super::canonical::{Canonical, Key};
use super::graph::{Edge, Graph, graph_limit};
use super::metrics::Curves;
pub use super::sweep_cost::EARLY_MIN_STATES;
pub(crate) use super::sweep_cost::{Work, check_budget, check_memory, curve_steps_per_state};
pub use super::sweep_options::{
    CANCEL_CHECK_STATES, DEFAULT_STATE_BUDGET, ExactError, ExactOptions, GRAPH_BYTES,
    HARD_STATE_CAP,
};
use crate::control::Control;
use crate::randomizer::StateSpace;

/// An exact sweep's result.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCurves {
    /// The per-step expectations.
    pub curves: Curves,
    /// The most merged states any step held.
    pub peak_states: usize,
    /// The counts' deviation from the base after the last sample.
    pub base_deviation: BaseDeviation,
}

/// One step's states (graph nodes) and their moments, stored flat (`n` entries per
/// state).
struct Layer {
    n: usize,
    nodes: Vec<u32>,
    mass: Vec<f64>,
    squares: Vec<f64>,
    /// `E[count_i; state]`, outcome `i` at canonical position `i`.
    first: Vec<f64>,
    /// `P(state and the last sample was outcome i)`.
    last: Vec<f64>,
    /// `E[count_i²; state]`, kept without merging only (merged outcomes share
    /// a uniform base, and the outcome variance gives their deviation from it).
    second: Vec<f64>,
    tracks_second: bool,
}

impl Layer {
    fn new(n: usize, tracks_second: bool) -> Layer {
        Layer {
            n,
            nodes: Vec::new(),
            mass: Vec::new(),
            squares: Vec::new(),
            first: Vec::new(),
            last: Vec::new(),
            second: Vec::new(),
            tracks_second,
        }
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The counts' deviation from `base` after `samples` samples, from the
    /// moments summed over every state; a merged layer (uniform base, outcomes
    /// alike) has it from the expected outcome `variance`.
    fn base_deviation(&self, base: &[f64], samples: usize, variance: f64) -> BaseDeviation {
        if !self.tracks_second {
            return base_deviation::from_outcome_variance(self.n, samples, variance);
        }
        let n = self.n;
        let mut first = vec![0.0; n];
        let mut second = vec![0.0; n];
        for s in 0..self.len() {
            for i in 0..n {
                first[i] += self.first[s * n + i];
                second[i] += self.second[s * n + i];
            }
        }
        base_deviation::from_moments(base, samples, &first, &second)
    }

    /// About how many bytes the layer holds.
    fn bytes(&self) -> usize {
        self.nodes.capacity() * 4
            + (self.mass.capacity() + self.squares.capacity()) * 8
            + (self.first.capacity() + self.last.capacity() + self.second.capacity()) * 8
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.mass.clear();
        self.squares.clear();
        self.first.clear();
        self.last.clear();
        self.second.clear();
    }

    /// The slot of node `v`, added with zero moments if new; `slot_of` maps nodes
    /// to slots (`u32::MAX` for none).
    #[inline]
    fn slot(&mut self, v: u32, slot_of: &mut Vec<u32>) -> usize {
        let v = v as usize;
        if v >= slot_of.len() {
            slot_of.resize(v + 1, u32::MAX);
        }
        let s = slot_of[v];
        if s != u32::MAX {
            return s as usize;
        }
        let s = self.nodes.len();
        slot_of[v] = s as u32;
        self.nodes.push(v as u32);
        self.mass.push(0.0);
        self.squares.push(0.0);
        self.first.resize(self.first.len() + self.n, 0.0);
        self.last.resize(self.last.len() + self.n, 0.0);
        if self.tracks_second {
            self.second.resize(self.second.len() + self.n, 0.0);
        }
        s
    }
}

/// The expected entropy fraction before, and outcome variance after, each of the
/// first `samples` samples of `randomizer` from its initial state (it is reset
/// first), plus the immediate-repeat probabilities; exact up to `f64` rounding.
///
/// `control` is told of each step done (stage `exact sweep`) and can stop it.
///
/// # Errors
/// [`ExactError::OverBudget`] when a step holds more than `options.budget` merged
/// states; [`ExactError::OutOfMemory`] past the control's memory;
/// [`ExactError::Stopped`] once `control` is cancelled.
pub fn curves<R: StateSpace + Clone>(
    randomizer: &R,
    samples: usize,
    options: &ExactOptions,
    control: &Control,
) -> Result<ExactCurves, ExactError> {
    control.stage("exact sweep", samples as u64);
    let mut scratch = randomizer.clone();
    scratch.reset();
    let n = scratch.outcomes().len();
    let merge = options.merge && scratch.exchangeable();
    // Expanding one merged state records a relabeling of every outcome per edge.
    // Saturating: on a 32-bit target (WebAssembly) a million outcomes squared
    // overflows `usize`, and a wrapped estimate would pass.
    let one_state = if merge {
        n.saturating_mul(n).saturating_mul(4)
    } else {
        n.saturating_mul(16)
    };
    check_memory(1, one_state.saturating_add(n.saturating_mul(32)), control)?;
    let mut canonical = Canonical::new(n, merge);
    let raw = scratch.state_key();
    let mut graph = {
        let mut key = Key::new();
        canonical.apply(&raw, None, &[], &mut key);
        let mut graph = Graph::new(scratch, canonical);
        graph.key = key;
        graph
    };
    let start = graph.intern();
    let mut slot_of: Vec<u32> = Vec::new();
    let mut layer = Layer::new(n, !merge);
    let s0 = layer.slot(start, &mut slot_of);
    layer.mass[s0] = 1.0;
    slot_of[start as usize] = u32::MAX;
    let mut next = Layer::new(n, !merge);

    let mut out = Curves {
        entropy: Vec::with_capacity(samples),
        outcome_variance: Vec::with_capacity(samples),
        repeat: Vec::with_capacity(samples),
        base_deviation: Vec::with_capacity(samples),
        errors: None,
    };
    let base = base_probabilities(randomizer);
    let mut previous_size = 1usize;
    let mut peak = 1;
    let mut work = Work::new(control, options).capped(randomizer.state_bound());
    let per_state = curve_steps_per_state(n, raw.len());
    let memory_limit = usize::try_from(control.max_memory()).unwrap_or(usize::MAX);
    for step in 1..=samples {
        control.check()?;
        work.before_step(step, layer.len(), per_state)?;
        for k in 0..layer.len() {
            if k % CANCEL_CHECK_STATES == CANCEL_CHECK_STATES - 1 {
                control.check()?;
            }
            graph.expand(layer.nodes[k], step, memory_limit)?;
            if k % 64 == 0 {
                check_memory(step, graph.bytes() + layer.bytes(), control)?;
            }
        }
        next.clear();
        let (mut entropy, mut repeat) = (0.0, 0.0);
        for s in 0..layer.len() {
            if s % 256 == 0 {
                check_memory(step, graph.bytes() + layer.bytes() + next.bytes(), control)?;
            }
            let v = layer.nodes[s] as usize;
            let m = layer.mass[s];
            let squares = layer.squares[s];
            entropy += m * graph.entropy[v];
            let begin = graph.start[v] as usize;
            for e in begin..begin + graph.count[v] as usize {
                let Edge {
                    outcome,
                    target,
                    probability: p,
                } = graph.edges[e];
                let i = outcome as usize;
                repeat += layer.last[s * n + i] * p;
                let t = next.slot(target, &mut slot_of);
                let flow = m * p;
                next.mass[t] += flow;
                next.squares[t] += p * (squares + 2.0 * layer.first[s * n + i]) + flow;
                let from = &layer.first[s * n..(s + 1) * n];
                let to = &mut next.first[t * n..(t + 1) * n];
                if merge {
                    let order = &graph.orders[e * n..(e + 1) * n];
                    for pos in 0..n {
                        to[pos] += p * from[order[pos] as usize];
                    }
                    let at = order.iter().position(|&o| o == outcome).unwrap_or(i);
                    to[at] += flow;
                    next.last[t * n + at] += flow;
                } else {
                    for pos in 0..n {
                        to[pos] += p * from[pos];
                    }
                    to[i] += flow;
                    next.last[t * n + i] += flow;
                    // E[c_i²] gains p·(2·E[c_i] + m) when i is drawn.
                    let before_i = from[i];
                    let (from2, to2) = (s * n..(s + 1) * n, t * n..(t + 1) * n);
                    for (k, j) in to2.zip(from2) {
                        next.second[k] += p * layer.second[j];
                    }
                    next.second[t * n + i] += p * 2.0 * before_i + flow;
                }
            }
        }
        for &v in &next.nodes {
            slot_of[v as usize] = u32::MAX;
        }
        check_budget(
            step,
            samples,
            (next.len(), previous_size),
            randomizer.state_bound(),
            options,
        )?;
        work.step(step, samples, layer.len(), next.len(), per_state)?;
        let sum_squares: f64 = next.squares.iter().sum();
        let mean = step as f64 / n as f64;
        let variance = (sum_squares / n as f64 - mean * mean).max(0.0);
        out.entropy.push(entropy);
        out.outcome_variance.push(variance);
        out.repeat.push(if step == 1 { 0.0 } else { repeat });
        out.base_deviation
            .push(next.base_deviation(&base, step, variance).normalized);
        previous_size = next.len();
        peak = peak.max(next.len());
        std::mem::swap(&mut layer, &mut next);
        let crowded = graph.bytes() > options.graph_bytes && graph.len() > 2 * layer.nodes.len();
        if graph.len() > graph_limit(options.budget) || crowded {
            graph.compact(&layer.nodes);
            for (k, v) in layer.nodes.iter_mut().enumerate() {
                *v = k as u32;
            }
        }
        control.advance(1);
    }
    let base_deviation = layer.base_deviation(&base, samples, out.outcome_variance(samples));
    Ok(ExactCurves {
        curves: out,
        peak_states: peak,
        base_deviation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::metrics::{entropy_fraction, population_variance};
    use crate::randomizer::{Randomizer, Spec};

    fn sweep(spec: &str, samples: usize, merge: bool) -> ExactCurves {
        let r = Spec::build(spec).expect("valid spec");
        let options = ExactOptions {
            merge,
            ..ExactOptions::default()
        };
        curves(&r, samples, &options, &Control::new()).expect("within budget")
    }

    #[test]
    fn a_graph_that_forgets_earlier_steps_gives_the_same_curves() {
        // No room for stored states: the graph keeps only the current step's
        // states after every step, and re-expands the ones that recur.
        for spec in [
            "deck(values=4, copies=2, refill_below=1)",
            "dynamic(values=4, decrease=0.3)",
            "fair(base=2d4, tightness=1)",
        ] {
            let r = Spec::build(spec).expect("valid spec");
            let kept = curves(&r, 14, &ExactOptions::default(), &Control::new()).unwrap();
            let forgetful = ExactOptions {
                graph_bytes: 0,
                ..ExactOptions::default()
            };
            let forgot = curves(&r, 14, &forgetful, &Control::new()).unwrap();
            assert_eq!(kept.peak_states, forgot.peak_states, "{spec}");
            let pairs = [
                (&kept.curves.entropy, &forgot.curves.entropy),
                (
                    &kept.curves.outcome_variance,
                    &forgot.curves.outcome_variance,
                ),
                (&kept.curves.repeat, &forgot.curves.repeat),
                (&kept.curves.base_deviation, &forgot.curves.base_deviation),
            ];
            for (a, b) in pairs {
                for (x, y) in a.iter().zip(b) {
                    assert!((x - y).abs() < 1e-12, "{spec}: {x} against {y}");
                }
            }
        }
    }

    #[test]
    fn plain_dice_match_the_closed_form() {
        for n in [2usize, 4, 6, 10] {
            let result = sweep(&format!("dice(values={n})"), 30, true);
            assert_eq!(result.peak_states, 1, "plain dice keep no state");
            let q = 1.0 / n as f64;
            for t in 1..=30 {
                let expected = t as f64 * q * (1.0 - q);
                let got = result.curves.outcome_variance(t);
                assert!((got - expected).abs() < 1e-12, "n={n} t={t}: {got}");
                assert!((result.curves.entropy[t - 1] - 1.0).abs() < 1e-12);
            }
            assert!((result.curves.repeat_rate(30) - q).abs() < 1e-12);
        }
    }

    #[test]
    fn a_plain_deck_is_level_after_every_cycle() {
        let result = sweep("deck(values=6)", 24, true);
        for t in [6, 12, 18, 24] {
            assert!(result.curves.outcome_variance(t).abs() < 1e-12, "t={t}");
        }
        // Before the last card the deck holds one card: entropy 0.
        assert!(result.curves.entropy[5].abs() < 1e-12);
        // After one draw: counts are one 1 and five 0s.
        let one = result.curves.outcome_variance(1);
        assert!((one - (1.0 / 6.0 - 1.0 / 36.0)).abs() < 1e-12);
    }

    #[test]
    fn merging_changes_nothing_but_the_state_count() {
        for spec in [
            "deck(values=4, copies=2, refill_below=3)",
            "dynamic(values=4, decrease=0.4)",
            "fair(values=3, tightness=1.5)",
            "bag(min=1, max=3, sets=2)",
            "deck(values=4, copies=1, refill_below=3, refill=reshuffle)",
        ] {
            let merged = sweep(spec, 12, true);
            let plain = sweep(spec, 12, false);
            assert!(merged.peak_states < plain.peak_states, "{spec}");
            for (a, b) in [
                (&merged.curves.entropy, &plain.curves.entropy),
                (
                    &merged.curves.outcome_variance,
                    &plain.curves.outcome_variance,
                ),
                (&merged.curves.repeat, &plain.curves.repeat),
            ] {
                for (x, y) in a.iter().zip(b) {
                    assert!((x - y).abs() < 1e-12, "{spec}: {x} vs {y}");
                }
            }
        }
    }

    /// Every sequence of `samples` outcomes with its probability, from the
    /// randomizer's own next-sample distributions: the brute-force oracle.
    fn brute_force(spec: &str, samples: usize) -> Curves {
        let r = Spec::build(spec).expect("valid spec");
        let n = r.outcomes().len();
        let mut out = Curves {
            entropy: vec![0.0; samples],
            outcome_variance: vec![0.0; samples],
            repeat: vec![0.0; samples],
            base_deviation: vec![0.0; samples],
            errors: None,
        };
        let base = base_probabilities(&r);
        let mut stack = vec![(r, 1.0, vec![0u64; n], None::<usize>, 0usize)];
        while let Some((r, p, counts, last, t)) = stack.pop() {
            if t == samples {
                continue;
            }
            let d = r.next_distribution();
            out.entropy[t] += p * entropy_fraction(&d);
            for (i, &q) in d.iter().enumerate().filter(|(_, q)| **q > 0.0) {
                let mut child = r.clone();
                child.observe(i).expect("possible");
                let mut c = counts.clone();
                c[i] += 1;
                out.outcome_variance[t] += p * q * population_variance(&c);
                let squared: Vec<f64> = (0..n)
                    .map(|k| (c[k] as f64 - base[k] * (t + 1) as f64).powi(2))
                    .collect();
                out.base_deviation[t] += p * q * base_deviation::scale(&base, t + 1, &squared).1;
                if last == Some(i) {
                    out.repeat[t] += p * q;
                }
                stack.push((child, p * q, c, Some(i), t + 1));
            }
        }
        out
    }

    #[test]
    fn agrees_with_brute_force_enumeration() {
        for spec in [
            "deck(values=3, copies=2, refill_below=2)",
            "dynamic(base=d{1,1,2}, decrease=0.3)",
            "prd(p=0.3)",
            "fair(base=2d2, tightness=1)",
            "deck(base=d{1,2,2}, copies=1, refill_below=2, refill=reshuffle)",
            "fair(values=3, tightness=1, seats=2)",
        ] {
            let exact = sweep(spec, 7, true).curves;
            let oracle = brute_force(spec, 7);
            for t in 0..7 {
                assert!(
                    (exact.entropy[t] - oracle.entropy[t]).abs() < 1e-12,
                    "{spec}"
                );
                assert!(
                    (exact.base_deviation[t] - oracle.base_deviation[t]).abs() < 1e-12,
                    "{spec} t={t}: base deviation {} vs {}",
                    exact.base_deviation[t],
                    oracle.base_deviation[t]
                );
                assert!(
                    (exact.outcome_variance[t] - oracle.outcome_variance[t]).abs() < 1e-12,
                    "{spec} t={t}: {} vs {}",
                    exact.outcome_variance[t],
                    oracle.outcome_variance[t]
                );
                assert!((exact.repeat[t] - oracle.repeat[t]).abs() < 1e-12, "{spec}");
            }
        }
    }

    #[test]
    fn over_budget_reports_the_step() {
        let r = Spec::build("dynamic(values=6, decrease=0.9)").expect("valid");
        let options = ExactOptions {
            budget: 50,
            ..ExactOptions::default()
        };
        let error = curves(&r, 25, &options, &Control::new()).expect_err("too many states");
        assert!(matches!(error, ExactError::OverBudget { budget: 50, .. }));
        assert!(error.to_string().contains("Monte Carlo"), "{error}");
    }

    #[test]
    fn a_sweep_projected_past_the_step_budget_stops_early() {
        // 100 outcomes over 200 samples: one merged state a step, but each step
        // costs about 21,000 steps; 1,600,000 steps hold 76 of the 200 steps.
        let r = Spec::build("dice(values=100)").expect("valid");
        let control = Control::new().with_max_steps(1_600_000);
        let error = curves(&r, 200, &ExactOptions::default(), &control).expect_err("too slow");
        let ExactError::TooSlow {
            step, projected, ..
        } = error
        else {
            panic!("{error}");
        };
        assert!(step < 80, "stopped at step {step}");
        assert!(projected > 1_600_000.0, "{projected}");
        assert!(error.is_too_large());
        // The same sweep within a budget that holds it runs to the end.
        let control = Control::new().with_max_steps(40_000_000);
        let done = curves(&r, 200, &ExactOptions::default(), &control).expect("fits");
        assert_eq!(done.curves.entropy.len(), 200);
    }

    #[test]
    fn a_tiny_budget_refuses_with_the_growth_of_the_first_steps_seen() {
        // The fair roller over 2d6 keeps a count per outcome: its states grow like
        // `C(t + 10, 10)`, and 6 samples are charged about 1.2e7 steps. Projected
        // from the first step alone a budget of 1 was told about 1,900.
        let r = Spec::build("fair(base=2d6, tightness=1)").expect("valid");
        let whole = Control::new().with_max_steps(u64::MAX / 4);
        curves(&r, 6, &ExactOptions::default(), &whole).expect("fits");
        let charged = whole.steps_used() as f64;
        for budget in [1, 1_000, 100_000] {
            let control = Control::new().with_max_steps(budget);
            let error = curves(&r, 6, &ExactOptions::default(), &control).expect_err("too slow");
            let ExactError::TooSlow { projected, .. } = error else {
                panic!("{error}");
            };
            assert!(
                projected > charged / 10.0 && projected < charged * 10.0,
                "budget {budget}: {projected} for {charged}"
            );
        }
    }

    #[test]
    fn states_too_large_to_hold_stop_the_sweep_before_memory_runs_out() {
        // One merged state of 30,000 outcomes relabels all of them on every edge.
        let r = Spec::build("dynamic(values=30000, decrease=0.5)").expect("valid");
        let error =
            curves(&r, 10, &ExactOptions::default(), &Control::new()).expect_err("too large");
        assert!(
            matches!(error, ExactError::OutOfMemory { step: 1, .. }),
            "{error}"
        );
        assert!(error.is_too_large());
        assert!(error.to_string().contains("MiB"), "{error}");
    }
}
