//! [`AnalysisReport`]: the document of one randomizer's analysis — summaries,
//! per-step curves and droughts, each outcome named as the randomizer names it —
//! built in one place so `fairdice analyze --json` and the web app's
//! `/api/analyze` serve the same bytes.
//!
//! With the `serde` feature it serializes to `{"spec", "samples", "method",
//! "peak_states" | "runs", "seed", "mean_entropy", "outcome_variance",
//! "base_deviation", "base_deviation_per_outcome", "repeat_rate", "errors"?, "steps": [{"step", "entropy", "outcome_variance",
//! "repeat", …}], "droughts"?, "attempts"?}`; the standard errors appear only for Monte Carlo.
//!
//! # Example
//! ```
//! use fairdice::Control;
//! use fairdice::analysis::{analyze, AnalysisOptions, AnalysisReport};
//! use fairdice::randomizer::Spec;
//!
//! let deck = Spec::build("deck(values=6)")?;
//! let analysis = analyze(&deck, &AnalysisOptions::new(6), &Control::new())?;
//! let report = AnalysisReport::new(&deck, &analysis);
//! assert_eq!(report.steps.len(), 6);
//! assert!(report.steps[5].outcome_variance.abs() < 1e-12); // one of each after a deck
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::base_deviation::base_probabilities;
use super::goal::{AttemptRow, Goal, attempts_until};
use super::{Analysis, Droughts, Method};
use crate::control::Control;
use crate::randomizer::report::has_labels;
use crate::randomizer::{OutcomeName, Randomizer, StateSpace};

/// The numbers of one analysis, ready to print, serve or chart.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnalysisReport {
    /// The randomizer's spec, in its canonical form.
    pub spec: String,
    /// Samples in the match (`T`).
    pub samples: usize,
    /// How many outcomes the randomizer draws from.
    pub outcomes: usize,
    /// How the curves were obtained.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Method,
    /// Mean entropy over the match (fraction of a fair die's).
    pub mean_entropy: f64,
    /// Expected outcome variance after the last sample.
    pub outcome_variance: f64,
    /// The counts' deviation from the base after the last sample: the expected
    /// chi-square against `p_i·T` over its value for plain dice (1 = as scattered
    /// as independent draws, 0 = every outcome exactly `p_i·T` times); see
    /// [`base_deviation`](super::base_deviation).
    pub base_deviation: f64,
    /// Standard error of `base_deviation` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub base_deviation_error: Option<f64>,
    /// Per outcome, the expected squared deviation from `p_i·T` over the
    /// binomial variance `T·p_i·(1 − p_i)` (1 for plain dice).
    pub base_deviation_per_outcome: Vec<OutcomeDeviationReport>,
    /// Expected fraction of samples equal to the one before.
    pub repeat_rate: f64,
    /// Standard errors of the three summaries (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub errors: Option<SummaryErrors>,
    /// One entry per sample.
    pub steps: Vec<StepReport>,
    /// Each outcome's droughts, when they were asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub droughts: Option<DroughtsReport>,
    /// For a randomizer of attempts (PRD, pity): the attempts until a success,
    /// from the start (see [`AnalysisReport::add_attempts`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub attempts: Option<SuccessAttempts>,
}

/// The most attempts a report's table of attempts until a success shows.
pub const MAX_ATTEMPT_ROWS: usize = 1_000;

/// The attempts until a success of a randomizer of attempts, from its start,
/// attempt by attempt (what `fairdice prd` shows for PRD, for any of them).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SuccessAttempts {
    /// The outcome that is a success.
    pub outcome: OutcomeName,
    /// The attempts a success takes on average.
    pub expected_attempts: Option<f64>,
    /// No run without a success outlasts this many attempts, when none can.
    pub max_attempts: Option<u64>,
    /// The attempts, from the first, until a success is certain (at most
    /// [`MAX_ATTEMPT_ROWS`]).
    pub attempts: Vec<AttemptRow>,
    /// Whether later attempts were left out.
    pub truncated: bool,
}

/// Standard errors of a Monte Carlo analysis's summaries.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SummaryErrors {
    /// Of the mean entropy.
    pub mean_entropy: f64,
    /// Of the outcome variance.
    pub outcome_variance: f64,
    /// Of the repeat rate.
    pub repeat_rate: f64,
}

/// The expectations at one step of the match.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StepReport {
    /// The step, 1-based.
    pub step: usize,
    /// Entropy of the next-sample distribution before this sample (fraction of a
    /// fair die's).
    pub entropy: f64,
    /// Outcome variance after this sample.
    pub outcome_variance: f64,
    /// Probability that this sample repeats the one before.
    pub repeat: f64,
    /// Standard error of `entropy` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub entropy_error: Option<f64>,
    /// Standard error of `outcome_variance` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outcome_variance_error: Option<f64>,
}

/// One outcome's deviation from its expected count.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OutcomeDeviationReport {
    /// The outcome, by value or by the randomizer's name for it.
    pub outcome: OutcomeName,
    /// Its probability in the base, `p_i`.
    pub probability: f64,
    /// `E[(c_i − p_i·T)²] / (T·p_i·(1 − p_i))`.
    pub deviation: f64,
    /// Standard error of `deviation` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub error: Option<f64>,
}

/// Droughts of every outcome and how they were obtained.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DroughtsReport {
    /// The method (exact droughts may fall back to Monte Carlo on their own).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Method,
    /// One entry per outcome, in outcome order.
    pub outcomes: Vec<OutcomeDroughtsReport>,
    /// The gaps `k` whose P(longest gap > k) a table of these droughts shows:
    /// spaced by whole sets of outcomes to span the longest expected gap
    /// ([`shown_gaps`](super::shown_gaps)).
    pub shown_gaps: Vec<usize>,
}

/// One outcome's droughts.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OutcomeDroughtsReport {
    /// The outcome, by value or by the randomizer's name for it.
    pub outcome: OutcomeName,
    /// Expected longest run of samples without it.
    pub longest_gap: f64,
    /// `longest_gap` as an exact fraction `p/q`, for a randomizer with exact
    /// chances (a machine) whose states are few enough
    /// ([`exact_longest_gaps`](super::exact_gaps::exact_longest_gaps)).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub longest_gap_exact: Option<String>,
    /// `gap_exceeds[k]` = P(longest gap > k), for `k` in `0..=T`.
    pub gap_exceeds: Vec<f64>,
    /// Standard error of `longest_gap` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub longest_gap_error: Option<f64>,
    /// Standard errors of `gap_exceeds` (Monte Carlo only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gap_exceeds_error: Option<Vec<f64>>,
}

impl DroughtsReport {
    /// The report of `droughts`, measured on `randomizer` (which names the
    /// outcomes).
    pub fn new(randomizer: &impl Randomizer, droughts: &Droughts) -> DroughtsReport {
        let labelled = has_labels(randomizer);
        let longest = droughts
            .outcomes
            .iter()
            .map(|o| o.longest_gap)
            .fold(0.0, f64::max);
        // `exceeds` has one entry per gap 0..=T.
        let samples = droughts
            .outcomes
            .first()
            .map_or(0, |o| o.exceeds.len().saturating_sub(1));
        DroughtsReport {
            method: droughts.method,
            shown_gaps: super::shown_gaps(longest, droughts.outcomes.len(), samples),
            outcomes: droughts
                .outcomes
                .iter()
                .map(|o| OutcomeDroughtsReport {
                    outcome: OutcomeName::named(randomizer, o.outcome, labelled),
                    longest_gap: o.longest_gap,
                    longest_gap_exact: None,
                    gap_exceeds: o.exceeds.clone(),
                    longest_gap_error: o.errors.as_ref().map(|(longest, _)| *longest),
                    gap_exceeds_error: o.errors.as_ref().map(|(_, exceeds)| exceeds.clone()),
                })
                .collect(),
        }
    }
}

impl DroughtsReport {
    /// Fills in each outcome's exact expected longest gap over `samples`
    /// samples, when `randomizer` has exact chances and its states and the
    /// work fit (nothing changes otherwise, or when the budget stops it).
    pub fn add_exact_gaps<R: StateSpace + Clone>(
        &mut self,
        randomizer: &R,
        samples: usize,
        control: &Control,
    ) {
        use super::chain::Chain;
        if randomizer.exact_next_distribution().is_none() {
            return;
        }
        let mut fresh = randomizer.clone();
        fresh.reset();
        let Ok(chain) = Chain::explore(&fresh, control) else {
            return;
        };
        if let Ok(Some(gaps)) = super::exact_gaps::exact_longest_gaps(&chain, samples, control) {
            for (outcome, gap) in self.outcomes.iter_mut().zip(gaps) {
                outcome.longest_gap_exact = Some(gap.to_string());
            }
        }
    }
}

impl AnalysisReport {
    /// The report of `analysis`, made of `randomizer` (which names the outcomes).
    pub fn new(randomizer: &impl Randomizer, analysis: &Analysis) -> AnalysisReport {
        let curves = &analysis.curves;
        let errors = curves.errors.as_ref();
        let steps = (0..analysis.samples)
            .map(|t| StepReport {
                step: t + 1,
                entropy: curves.entropy[t],
                outcome_variance: curves.outcome_variance[t],
                repeat: curves.repeat[t],
                entropy_error: errors.map(|e| e.entropy[t]),
                outcome_variance_error: errors.map(|e| e.outcome_variance[t]),
            })
            .collect();
        let droughts = analysis
            .droughts
            .as_ref()
            .map(|d| DroughtsReport::new(randomizer, d));
        let deviation = &analysis.base_deviation;
        let labelled = has_labels(randomizer);
        AnalysisReport {
            spec: analysis.spec.clone(),
            samples: analysis.samples,
            outcomes: randomizer.outcomes().len(),
            method: analysis.method,
            mean_entropy: analysis.mean_entropy,
            outcome_variance: analysis.outcome_variance,
            base_deviation: deviation.normalized,
            base_deviation_error: deviation.errors.as_ref().map(|(e, _)| *e),
            base_deviation_per_outcome: base_probabilities(randomizer)
                .into_iter()
                .enumerate()
                .map(|(i, probability)| OutcomeDeviationReport {
                    outcome: OutcomeName::named(randomizer, i, labelled),
                    probability,
                    deviation: deviation.per_outcome[i],
                    error: deviation.errors.as_ref().map(|(_, e)| e[i]),
                })
                .collect(),
            repeat_rate: analysis.repeat_rate,
            errors: analysis
                .errors
                .map(
                    |[mean_entropy, outcome_variance, repeat_rate]| SummaryErrors {
                        mean_entropy,
                        outcome_variance,
                        repeat_rate,
                    },
                ),
            steps,
            droughts,
            attempts: None,
        }
    }

    /// Adds the attempts until a success when `randomizer` names one
    /// ([`Randomizer::success`]) and its states can be walked (nothing changes
    /// otherwise, or when the budget stops the walk).
    pub fn add_attempts<R: StateSpace + Clone>(&mut self, randomizer: &R, control: &Control) {
        let Some(success) = randomizer.success() else {
            return;
        };
        let mut fresh = randomizer.clone();
        fresh.reset();
        let Ok(found) = attempts_until(&fresh, &Goal::hits(vec![success], 1), 0, control) else {
            return;
        };
        let attempts = found.per_attempt(MAX_ATTEMPT_ROWS);
        self.attempts = Some(SuccessAttempts {
            outcome: OutcomeName::named(&fresh, success, has_labels(&fresh)),
            expected_attempts: found.mean,
            max_attempts: found.certain_by().map(|t| t as u64),
            truncated: attempts.len() + 1 < found.first.len(),
            attempts,
        });
    }

    /// The per-step entropy curve.
    pub fn entropy_curve(&self) -> Vec<f64> {
        self.steps.iter().map(|s| s.entropy).collect()
    }

    /// The per-step outcome-variance curve.
    pub fn outcome_variance_curve(&self) -> Vec<f64> {
        self.steps.iter().map(|s| s.outcome_variance).collect()
    }

    /// The `fairdice analyze --json` document (pretty-printed, no final newline).
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}
