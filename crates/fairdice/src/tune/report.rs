//! [`TuneReport`]: the document of a parameter search — each system's winner, how
//! many candidates qualified, the fairest system and the plain-dice baseline —
//! built in one place so `fairdice tune --json` and the web app's `/api/tune`
//! serve the same bytes.
//!
//! With the `serde` feature it serializes to `{"values" | "base" | "machine", "samples",
//! "min_entropy", "fairness", "systems": [{"system", "params", "spec",
//! "mean_entropy", "outcome_variance", "base_deviation", "method", …, "certain",
//! "qualified", "candidates_tried", "candidates"?, "curves"?: {"entropy",
//! "outcome_variance", "base_deviation"}}], "fairest", "baseline",
//! "plain_dice_outcome_variance", "plain_dice_base_deviation"}`, where
//! `baseline` is `plain dice`, or `as written` for a machine's search, and
//! `fairness` names the measure the search minimised (`outcome_variance`,
//! `base_deviation` or `seat_spread`, see [`Fairness`](super::Fairness)); a seat
//! search adds `"seat_spread"` (and its error) to each system and candidate that
//! keeps the threshold, `"game"` and `"plain_dice_seat_spread"`; a system with no
//! qualifying candidate has `null` parameters and measures, and `samples` is a
//! number for a fixed match length or `{"distribution", "lengths": [{"samples",
//! "weight"}]}` for an uncertain one.
//!
//! # Example
//! ```
//! use fairdice::Control;
//! use fairdice::tune::{tune, Tuning, TuneReport};
//!
//! let tuning = Tuning::article(6, 25)?;
//! let result = tune(&tuning, &Control::new())?;
//! let report = TuneReport::new(&tuning, &result, &tuning.plain_dice()?, false);
//! let deck = &report.systems[0];
//! assert_eq!(deck.params.as_ref().map(|p| p.to_string()).as_deref(), Some("copies=1, refill_below=6"));
//! assert_eq!(format!("{:.4}", deck.outcome_variance.unwrap_or(0.0)), "0.5089");
//! assert_eq!(report.fairest.as_deref(), Some("dynamic"));
//! assert_eq!(report.fairness, "outcome_variance");
//! # Ok::<(), fairdice::tune::TuneError>(())
//! ```

use std::fmt;

use super::{
    Baseline, CandidateResult, MatchLength, Outcomes, ParamValue, SystemResult, TuneResult, Tuning,
};
use crate::analysis::Method;

/// The numbers of one search, ready to print or serve.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TuneReport {
    /// The number of outcomes (faces `1..=N`), when the search used values.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub values: Option<u64>,
    /// The base expression, when the search used weighted outcomes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub base: Option<String>,
    /// The machine's name, when the search tuned a machine's parameters.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub machine: Option<String>,
    /// The match length.
    pub samples: SamplesReport,
    /// The entropy threshold.
    pub min_entropy: f64,
    /// The measure the search minimised: `outcome_variance`, `base_deviation` or
    /// `seat_spread`.
    pub fairness: &'static str,
    /// The game of a seat search.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub game: Option<crate::analysis::seats::Game>,
    /// One entry per system, in the search's order.
    pub systems: Vec<SystemReport>,
    /// The system whose winner is fairest by that measure, if any qualifies.
    pub fairest: Option<String>,
    /// What the `plain_dice_*` figures measure: `plain dice` over the same
    /// outcomes, or for a machine's search the machine `as written`.
    pub baseline: &'static str,
    /// Plain dice's outcome variance over the same match lengths.
    pub plain_dice_outcome_variance: f64,
    /// Plain dice's base deviation over the same match lengths (1 up to
    /// rounding: the measure is scaled to it).
    pub plain_dice_base_deviation: f64,
    /// Plain dice's seat spread, in a seat search.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub plain_dice_seat_spread: Option<f64>,
    /// Its standard error when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub plain_dice_seat_spread_error: Option<f64>,
}

/// A match length: a number, or a distribution of lengths.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum SamplesReport {
    /// Always this many samples.
    Fixed(usize),
    /// An uncertain length.
    Distribution {
        /// As written back (`20..40`, `20:0.25,30:0.5,40:0.25`).
        distribution: String,
        /// Every length with its weight.
        lengths: Vec<LengthWeight>,
    },
}

/// One match length and its weight.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LengthWeight {
    /// Samples.
    pub samples: usize,
    /// Its probability.
    pub weight: f64,
}

/// One system's winner and tally.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SystemReport {
    /// The family (`deck`, `dynamic`, …).
    pub system: String,
    /// The winner's parameters (`null` when none qualifies).
    pub params: Option<Parameters>,
    /// The winner's spec.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub spec: Option<String>,
    /// The winner's mean entropy.
    pub mean_entropy: Option<f64>,
    /// Its standard error, when the winner was estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub mean_entropy_error: Option<f64>,
    /// The winner's outcome variance.
    pub outcome_variance: Option<f64>,
    /// Its standard error, when the winner was estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outcome_variance_error: Option<f64>,
    /// The winner's base deviation.
    pub base_deviation: Option<f64>,
    /// Its standard error, when the winner was estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub base_deviation_error: Option<f64>,
    /// The winner's seat spread, in a seat search.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seat_spread: Option<f64>,
    /// Its standard error, when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seat_spread_error: Option<f64>,
    /// Whether the winner is certain: every candidate that could have beaten it
    /// was measured exactly or is ruled out by four standard errors.
    pub certain: bool,
    /// How the winner was measured.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Option<Method>,
    /// Candidates that kept the entropy threshold.
    pub qualified: usize,
    /// Candidates measured.
    pub candidates_tried: usize,
    /// Every candidate, when asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub candidates: Option<Vec<CandidateReport>>,
    /// The winner's expected entropy and outcome variance at every step of the
    /// longest match (what a chart of the winners draws).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub curves: Option<WinnerCurves>,
}

/// A winner's curves, one entry per step.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WinnerCurves {
    /// Entropy of the next-sample distribution before each sample (fraction of a
    /// fair die's).
    pub entropy: Vec<f64>,
    /// Outcome variance after each sample.
    pub outcome_variance: Vec<f64>,
    /// Base deviation after each sample.
    pub base_deviation: Vec<f64>,
}

/// One measured candidate.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CandidateReport {
    /// Its parameters.
    pub params: Parameters,
    /// Its spec.
    pub spec: String,
    /// Expected mean entropy.
    pub mean_entropy: f64,
    /// Its standard error, when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub mean_entropy_error: Option<f64>,
    /// Expected outcome variance at the end of the match.
    pub outcome_variance: f64,
    /// Its standard error, when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outcome_variance_error: Option<f64>,
    /// Expected base deviation at the end of the match.
    pub base_deviation: f64,
    /// Its standard error, when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub base_deviation_error: Option<f64>,
    /// Its seat spread, in a seat search, when it keeps the threshold.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seat_spread: Option<f64>,
    /// Its standard error, when estimated.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seat_spread_error: Option<f64>,
    /// Whether it keeps the entropy threshold.
    pub qualifies: bool,
    /// How it was measured.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Method,
}

/// A candidate's parameters in the grid's key order: shown as `copies=1,
/// refill_below=6` (or `(none)`), serialized as a JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters(pub Vec<(String, ParamValue)>);

impl fmt::Display for Parameters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(none)");
        }
        for (i, (key, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{key}={value}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Parameters {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Parameters {
    /// The parameters of `candidate`.
    pub fn of(candidate: &CandidateResult) -> Parameters {
        Parameters(candidate.params.clone())
    }
}

impl SamplesReport {
    /// The report of `samples`.
    pub fn new(samples: &MatchLength) -> SamplesReport {
        if samples.is_fixed() {
            return SamplesReport::Fixed(samples.max());
        }
        SamplesReport::Distribution {
            distribution: samples.to_string(),
            lengths: samples
                .lengths()
                .iter()
                .map(|&(samples, weight)| LengthWeight { samples, weight })
                .collect(),
        }
    }
}

/// A candidate's seat spread and its error, when the search measured seats and
/// the candidate keeps the threshold.
fn seat_spread(candidate: &CandidateResult, seats: bool) -> (Option<f64>, Option<f64>) {
    if seats && candidate.qualifies {
        (Some(candidate.fairness), candidate.fairness_error)
    } else {
        (None, None)
    }
}

impl CandidateReport {
    /// The report of `candidate`; `seats` when the search measured seats.
    pub fn new(candidate: &CandidateResult, seats: bool) -> CandidateReport {
        let (seat_spread, seat_spread_error) = seat_spread(candidate, seats);
        CandidateReport {
            params: Parameters::of(candidate),
            spec: candidate.spec.clone(),
            mean_entropy: candidate.mean_entropy,
            mean_entropy_error: candidate.mean_entropy_error,
            outcome_variance: candidate.outcome_variance,
            outcome_variance_error: candidate.outcome_variance_error,
            base_deviation: candidate.base_deviation,
            base_deviation_error: candidate.base_deviation_error,
            seat_spread,
            seat_spread_error,
            qualifies: candidate.qualifies,
            method: candidate.method,
        }
    }
}

impl SystemReport {
    /// The report of `system`, listing every candidate if `all`; `seats` when the
    /// search measured seats.
    pub fn new(system: &SystemResult, all: bool, seats: bool) -> SystemReport {
        let best = system.best();
        let (seat_spread, seat_spread_error) = best.map_or((None, None), |b| seat_spread(b, seats));
        SystemReport {
            system: system.system.clone(),
            params: best.map(Parameters::of),
            spec: best.map(|b| b.spec.clone()),
            mean_entropy: best.map(|b| b.mean_entropy),
            mean_entropy_error: best.and_then(|b| b.mean_entropy_error),
            outcome_variance: best.map(|b| b.outcome_variance),
            outcome_variance_error: best.and_then(|b| b.outcome_variance_error),
            base_deviation: best.map(|b| b.base_deviation),
            base_deviation_error: best.and_then(|b| b.base_deviation_error),
            seat_spread,
            seat_spread_error,
            certain: system.certain,
            method: best.map(|b| b.method),
            qualified: system.qualified(),
            candidates_tried: system.candidates.len(),
            candidates: all.then(|| {
                system
                    .candidates
                    .iter()
                    .map(|c| CandidateReport::new(c, seats))
                    .collect()
            }),
            curves: best.map(|b| WinnerCurves {
                entropy: b.curves.entropy.clone(),
                outcome_variance: b.curves.outcome_variance.clone(),
                base_deviation: b.curves.base_deviation.clone(),
            }),
        }
    }
}

impl TuneReport {
    /// The report of `result`, the search of `tuning`; `plain_dice` is
    /// [`Tuning::plain_dice`]; `all` lists every candidate.
    pub fn new(
        tuning: &Tuning,
        result: &TuneResult,
        plain_dice: &Baseline,
        all: bool,
    ) -> TuneReport {
        let (values, base, machine) = match &tuning.outcomes {
            Outcomes::Values(n) => (Some(*n), None, None),
            Outcomes::Base(expr) => (None, Some(expr.clone()), None),
            Outcomes::Machine { name, .. } => (None, None, Some(name.clone())),
        };
        let seats = tuning.game.is_some() && tuning.fairness == super::Fairness::SeatSpread;
        TuneReport {
            values,
            base,
            machine,
            samples: SamplesReport::new(&tuning.samples),
            min_entropy: tuning.min_entropy,
            fairness: tuning.fairness.as_str(),
            game: seats.then(|| tuning.game.clone()).flatten(),
            systems: result
                .systems
                .iter()
                .map(|s| SystemReport::new(s, all, seats))
                .collect(),
            fairest: result.fairest().map(|s| s.system.clone()),
            baseline: tuning.baseline_name(),
            plain_dice_outcome_variance: plain_dice.outcome_variance,
            plain_dice_base_deviation: plain_dice.base_deviation,
            plain_dice_seat_spread: plain_dice.seat_spread,
            plain_dice_seat_spread_error: plain_dice.seat_spread_error,
        }
    }

    /// The searched outcomes as written: `6 outcomes` or `base 2d6`.
    pub fn outcomes_text(&self) -> String {
        match (&self.values, &self.base, &self.machine) {
            (Some(n), _, _) => Outcomes::Values(*n).to_string(),
            (None, Some(base), _) => Outcomes::Base(base.clone()).to_string(),
            (None, None, Some(name)) => format!("outcomes of {name}"),
            (None, None, None) => String::new(),
        }
    }

    /// The match length as written: `25` or `20..40`.
    pub fn samples_text(&self) -> String {
        match &self.samples {
            SamplesReport::Fixed(n) => n.to_string(),
            SamplesReport::Distribution { distribution, .. } => distribution.clone(),
        }
    }

    /// The fairest system's report, if any candidate qualifies.
    pub fn fairest_system(&self) -> Option<&SystemReport> {
        let name = self.fairest.as_deref()?;
        self.systems.iter().find(|s| s.system == name)
    }

    /// The `fairdice tune --json` document (pretty-printed, no final newline).
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}
