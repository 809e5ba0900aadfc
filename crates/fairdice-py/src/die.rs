//! `fairdice.Die`: an exact distribution over integer outcomes, as a read-only
//! mapping from outcome to count with exact statistics. The type is here; its
//! Python methods are in `die_methods.rs`, arithmetic and comparisons in
//! `die_ops.rs`, conversions in `die_convert.rs`, each using this file alone.
//!
//! # Design decisions
//! - The Rust [`Die`] sits behind an `Arc`, so the GIL-free worker of a long
//!   operation takes a reference, not a copy, and the Python object is immutable
//!   (`frozen`) like icepool's.
//! - Counts are Python `int`s and probabilities `Fraction`s, converted when asked
//!   for: a distribution of 100d6 is computed without building 501 Python objects.
//! - `==` between dice answers as icepool does: a die of 0/1 outcomes (the chance
//!   that two rolls are equal) whose truth value is whether the two dice are the
//!   same distribution, so `assert a == b`, `in` and dictionary keys work.

use std::sync::Arc;

use fairdice::Die;
use pyo3::prelude::*;

/// How a Monte Carlo estimate was made: its counts are the rolls that showed each
/// outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateInfo {
    /// Rolls made.
    pub runs: u64,
    /// The generator seed.
    pub seed: u64,
    /// The standard error of the sample mean.
    pub mean_standard_error: f64,
}

/// An exact distribution over integer outcomes.
#[pyclass(module = "fairdice", name = "Die", frozen)]
pub struct PyDie {
    /// The distribution.
    pub die: Arc<Die>,
    /// The expression it was computed from, when there is one.
    pub name: Option<String>,
    /// Set when the counts are a Monte Carlo estimate's.
    pub estimate: Option<EstimateInfo>,
    /// The truth value of a `==` or `!=` result: whether the dice compared were
    /// the same distribution.
    pub truth: Option<bool>,
    /// The labels of its outcomes, for an expression with labels (`as {…}`).
    pub labels: Option<std::collections::BTreeMap<i64, String>>,
}

impl PyDie {
    /// A die without a name.
    pub fn plain(die: Die) -> PyDie {
        PyDie::named(die, None)
    }

    /// A die computed from `name`.
    pub fn named(die: Die, name: Option<String>) -> PyDie {
        PyDie {
            die: Arc::new(die),
            name,
            estimate: None,
            truth: None,
            labels: None,
        }
    }

    /// The name shown for this die in charts and reprs.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| "die".into())
    }
}

/// True when the two dice give every outcome the same probability.
pub fn same_distribution(a: &Die, b: &Die) -> bool {
    a.outcomes() == b.outcomes() && a.reduced() == b.reduced()
}
