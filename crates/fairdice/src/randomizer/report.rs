//! Reports of a randomizer's draws and of its next-sample distribution, built in
//! one place so `fairdice sample --json` / `fairdice next --json` and the web
//! app's `/api/sample` / `/api/next` serve the same bytes.
//!
//! - [`SampleReport`]: `{"spec", "seed", "samples": [values], "labels"?}`, the
//!   labels only for randomizers that name their outcomes (tetrominoes, PRD's
//!   `fail`/`success`);
//! - [`NextReport`]: `{"spec", "history", "outcomes": [{"outcome",
//!   "probability", "label"?}]}`.
//!
//! # Example
//! ```
//! use fairdice::randomizer::report::{NextReport, SampleReport};
//! use fairdice::randomizer::{Spec, observe_history};
//!
//! let deck = Spec::build("deck(values=6)")?;
//! let report = SampleReport::draw(deck, 6, 7);
//! let mut dealt = report.samples.clone();
//! dealt.sort();
//! assert_eq!(dealt, [1, 2, 3, 4, 5, 6]); // one full deck
//!
//! let mut fair = Spec::build("fair(base=2d6, tightness=1)")?;
//! observe_history(&mut fair, &["2", "4", "7", "7"])?;
//! let next = NextReport::new(&fair, &["2", "4", "7", "7"]);
//! assert_eq!(format!("{:.5}", next.outcomes[5].probability), "0.05965"); // P(7)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{AnyRandomizer, Randomizer, Session};
use crate::dice::die::Outcome;
use crate::rng;

/// How a report names an outcome: its value, or the randomizer's name for it when
/// it has names (a JSON number or string).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum OutcomeName {
    /// The outcome's value.
    Value(Outcome),
    /// The randomizer's name for it.
    Label(String),
}

impl OutcomeName {
    /// Outcome `index` of `randomizer`: its label if the randomizer names its
    /// outcomes (see [`has_labels`]), else its value.
    pub fn of(randomizer: &dyn Randomizer, index: usize) -> OutcomeName {
        OutcomeName::named(randomizer, index, has_labels(randomizer))
    }

    /// Outcome `index` of `randomizer`, by its label when `labelled` (what
    /// [`has_labels`] says, asked once for a whole list of outcomes).
    pub fn named(randomizer: &dyn Randomizer, index: usize, labelled: bool) -> OutcomeName {
        if labelled {
            OutcomeName::Label(randomizer.label(index))
        } else {
            OutcomeName::Value(randomizer.outcomes()[index])
        }
    }
}

impl std::fmt::Display for OutcomeName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutcomeName::Value(v) => write!(f, "{v}"),
            OutcomeName::Label(l) => f.write_str(l),
        }
    }
}

/// True when the randomizer names its outcomes (pieces, fail/success) rather than
/// showing their values.
pub fn has_labels(randomizer: &dyn Randomizer) -> bool {
    let outcomes = randomizer.outcomes();
    (0..outcomes.len()).any(|i| randomizer.label(i) != outcomes[i].to_string())
}

/// A sequence drawn from a randomizer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SampleReport {
    /// The randomizer's spec, in its canonical form.
    pub spec: String,
    /// The generator's seed (`None` when a saved session was continued).
    pub seed: Option<u64>,
    /// The outcome values drawn, in order.
    pub samples: Vec<Outcome>,
    /// Their names, for randomizers that name their outcomes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub labels: Option<Vec<String>>,
}

impl SampleReport {
    /// Draws `count` outcomes from a fresh `randomizer` with the portable generator
    /// seeded by `seed`: the same seed gives the same sequence on every platform.
    pub fn draw(randomizer: AnyRandomizer, count: u64, seed: u64) -> SampleReport {
        let mut session = Session::new(randomizer, rng::seeded(seed));
        let indices: Vec<usize> = (0..count).map(|_| session.draw()).collect();
        SampleReport::new(session.randomizer(), &indices, Some(seed))
    }

    /// The report of outcome `indices` drawn from `randomizer` (whose outcomes
    /// they index) with `seed`.
    pub fn new(randomizer: &dyn Randomizer, indices: &[usize], seed: Option<u64>) -> SampleReport {
        let labels =
            has_labels(randomizer).then(|| indices.iter().map(|&i| randomizer.label(i)).collect());
        SampleReport {
            spec: randomizer.spec(),
            seed,
            samples: indices.iter().map(|&i| randomizer.outcomes()[i]).collect(),
            labels,
        }
    }

    /// The draws as shown to a person: the labels if there are any, else the
    /// values.
    pub fn shown(&self) -> Vec<String> {
        match &self.labels {
            Some(labels) => labels.clone(),
            None => self.samples.iter().map(ToString::to_string).collect(),
        }
    }

    /// The `fairdice sample --json` document (one line, no final newline).
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report holds only strings and numbers")
    }
}

/// The next-sample distribution of a randomizer after a history.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NextReport {
    /// The randomizer's spec, in its canonical form.
    pub spec: String,
    /// The outcomes observed, as given.
    pub history: Vec<String>,
    /// Every outcome with its probability at the next draw, in outcome order.
    pub outcomes: Vec<NextOutcome>,
}

/// One outcome of a next-sample distribution.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NextOutcome {
    /// Its value.
    pub outcome: Outcome,
    /// Its probability at the next draw.
    pub probability: f64,
    /// Its name, for randomizers that name their outcomes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub label: Option<String>,
}

impl NextOutcome {
    /// Every outcome of `randomizer`'s next-sample distribution in its current
    /// state.
    pub fn all(randomizer: &dyn Randomizer) -> Vec<NextOutcome> {
        let labeled = has_labels(randomizer);
        randomizer
            .next_distribution()
            .iter()
            .enumerate()
            .map(|(i, &probability)| NextOutcome {
                outcome: randomizer.outcomes()[i],
                probability,
                label: labeled.then(|| randomizer.label(i)),
            })
            .collect()
    }
}

impl NextReport {
    /// The report of `randomizer`, which has already observed `history`.
    pub fn new<S: AsRef<str>>(randomizer: &dyn Randomizer, history: &[S]) -> NextReport {
        NextReport {
            spec: randomizer.spec(),
            history: history.iter().map(|h| h.as_ref().to_string()).collect(),
            outcomes: NextOutcome::all(randomizer),
        }
    }

    /// The `fairdice next --json` document (pretty-printed, no final newline).
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    fn named_outcomes_are_labelled_and_numbered_ones_are_not() {
        let prd = Spec::build("prd(p=0.25)").expect("valid");
        assert!(has_labels(&prd));
        assert_eq!(
            OutcomeName::of(&prd, 1),
            OutcomeName::Label("success".into())
        );
        let dice = Spec::build("dice(values=6)").expect("valid");
        assert!(!has_labels(&dice));
        assert_eq!(OutcomeName::of(&dice, 0), OutcomeName::Value(1));
        let report = SampleReport::draw(prd, 4, 1);
        assert_eq!(report.labels.as_ref().map(Vec::len), Some(4));
        assert_eq!(report.shown(), report.labels.clone().expect("labels"));
    }

    #[test]
    fn the_same_seed_draws_the_same_sequence() {
        let draw = |seed| SampleReport::draw(Spec::build("tgm2").expect("valid"), 20, seed);
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3).samples, draw(4).samples);
    }

    #[test]
    fn a_next_distribution_sums_to_one() {
        let deck = Spec::build("deck(values=4)").expect("valid");
        let report = NextReport::new(&deck, &[] as &[&str]);
        let total: f64 = report.outcomes.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!(report.outcomes.iter().all(|o| o.label.is_none()));
    }
}
