//! `analyze` and `droughts`: a randomizer measured over a match of `T` samples —
//! expected entropy and outcome variance per step, repeat rate, and the longest
//! runs without each outcome — exactly by sweeping its states, or by seeded Monte
//! Carlo when the sweep is too large or when asked, as an [`AnalysisReport`]
//! (droughts alone: a [`DroughtsReport`], which a page shows after the cheaper
//! curves).

use crate::charts::{Drawn, View};
use fairdice::analysis::monte_carlo;
use fairdice::analysis::{
    self, AnalysisError, AnalysisOptions, DEFAULT_STATE_BUDGET, HARD_STATE_CAP, MethodChoice,
};
use fairdice::control::step_count;
use fairdice::randomizer::{AnyRandomizer, Randomizer, Spec};
use fairdice::{Control, FailureKind};
use serde::{Deserialize, Serialize};

pub use fairdice::analysis::AnalysisReport;
pub use fairdice::analysis::report::DroughtsReport;

use crate::error::{Suggestion, method_flags, nice_runs, shell_quote};
use crate::{DEFAULT_SEED, Error, UseCase};

/// The fewest runs an automatic fallback to Monte Carlo makes (the library's
/// floor); a budget that affords fewer leaves the exact sweep alone.
pub const MIN_FALLBACK_RUNS: u64 = 1_000;

/// The draws (runs × samples) a suggested estimate makes: a few seconds.
pub const SUGGESTED_DRAWS: u64 = 20_000_000;

/// A randomizer and the match to measure it over.
///
/// As JSON: `{"spec": "deck(values=6)", "samples": 25, "exact": false, "runs":
/// null, "seed": 1, "max_states": null, "droughts": true}` (only `spec` and `samples`
/// are required). `exact` refuses to fall back to Monte Carlo; `runs` asks for
/// Monte Carlo; `max_states` is the merged states one step of the exact sweep may hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The randomizer spec, e.g. `dynamic(values=6, decrease=0.355)`.
    pub spec: String,
    /// Samples in the match (`T`).
    pub samples: usize,
    /// Exact, or an error (no Monte Carlo fallback).
    #[serde(default)]
    pub exact: bool,
    /// Estimate by Monte Carlo with this many runs.
    #[serde(default)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed (also of an automatic fallback).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Merged states one step of the exact sweep may hold.
    #[serde(default, alias = "budget")]
    pub max_states: Option<usize>,
    /// Also measure the droughts (the costliest part of an exact analysis).
    #[serde(default = "yes")]
    pub droughts: bool,
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

fn yes() -> bool {
    true
}

impl AnalyzeRequest {
    /// `spec` over `samples` samples, exact where it fits, droughts included.
    pub fn new(spec: impl Into<String>, samples: usize) -> AnalyzeRequest {
        AnalyzeRequest {
            spec: spec.into(),
            samples,
            exact: false,
            runs: None,
            seed: DEFAULT_SEED,
            max_states: None,
            droughts: true,
        }
    }

    /// The same request estimated from `runs` runs with `seed`.
    #[must_use]
    pub fn estimated(mut self, runs: u64, seed: u64) -> AnalyzeRequest {
        self.runs = Some(runs);
        self.seed = seed;
        self
    }

    /// The method the request asks for, as the library takes it.
    ///
    /// # Errors
    /// A budget outside `1..=HARD_STATE_CAP`, or both `exact` and `runs`.
    pub fn method(&self) -> Result<MethodChoice, Error> {
        method_choice(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
            DEFAULT_STATE_BUDGET,
        )
    }

    /// The request as a `fairdice analyze` command line (defaults left out).
    pub fn command(&self) -> String {
        let mut command = format!(
            "fairdice analyze {} --samples {}",
            shell_quote(&self.spec),
            self.samples
        );
        command.push_str(&method_flags(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
        ));
        if !self.droughts {
            command.push_str(" --no-droughts");
        }
        command
    }

    /// The randomizer, its base evaluated under `control`, and the method, checked
    /// before any work (a Monte Carlo estimate priced against the budget).
    fn prepare(&self, control: &Control) -> Result<(AnyRandomizer, MethodChoice), Error> {
        // The randomizer is built to price the sweep; a small budget refuses with
        // the sweep's estimate, not its base die's.
        let randomizer = open(&self.spec, &control.preparing())?;
        let method = self.method()?;
        if self.samples == 0 || self.samples > analysis::MAX_SAMPLES {
            return Err(Error::from_failure(&AnalysisError::Samples(self.samples)));
        }
        let outcomes = randomizer.outcomes().len() as u64;
        let per_run = monte_carlo::steps_per_run(&randomizer, self.samples).max(1);
        if let MethodChoice::Auto { .. } = method {
            let method = priced_fallback(method, per_run, self.samples, outcomes as usize, control);
            return Ok((randomizer, method));
        }
        if let MethodChoice::MonteCarlo { runs, .. } = method {
            let steps = runs.saturating_mul(per_run);
            if steps > control.max_steps() {
                let mut error = Error::too_big(format!(
                    "{runs} runs of {} samples of {outcomes} outcomes is more than the budget allows (about {} steps, the limit is {}); ask for fewer runs",
                    self.samples,
                    step_count(steps as f64),
                    step_count(control.max_steps() as f64),
                ));
                if let Some(suggestion) = self.suggestion(&randomizer, control) {
                    error = error.with_suggestion(suggestion);
                }
                return Err(error);
            }
        }
        Ok((randomizer, method))
    }

    /// The same analysis as a Monte Carlo estimate that finishes in seconds.
    fn suggestion(&self, randomizer: &AnyRandomizer, control: &Control) -> Option<Suggestion> {
        let by_draws = SUGGESTED_DRAWS / self.samples.max(1) as u64;
        let by_budget =
            control.max_steps() / monte_carlo::steps_per_run(randomizer, self.samples).max(1);
        let runs = nice_runs(by_draws.min(by_budget));
        if runs < 2 {
            return None;
        }
        let request = AnalyzeRequest {
            exact: false,
            max_states: None,
            ..self.clone().estimated(runs, self.seed)
        };
        Some(Suggestion {
            use_case: Self::NAME,
            command: request.command(),
            request: serde_json::to_value(&request).ok()?,
        })
    }

    /// An analysis error, with an estimate that finishes when the exact sweep was
    /// too large.
    fn failure(
        &self,
        error: &AnalysisError,
        randomizer: &AnyRandomizer,
        control: &Control,
    ) -> Error {
        let mut found = Error::from_failure(error);
        if found.kind == FailureKind::TooLarge {
            found = found.with_hint("fewer samples, or a Monte Carlo estimate, finish sooner");
            if let Some(suggestion) = self.suggestion(randomizer, control) {
                found = found.with_suggestion(suggestion);
            }
        }
        found
    }
}

/// An automatic method whose Monte Carlo fallback is priced too: it gets the runs
/// the budget affords at `per_run` steps a run, and none (exact or nothing) when
/// too few fit for a standard error worth having. Other methods come back as they
/// are.
pub(crate) fn priced_fallback(
    method: MethodChoice,
    per_run: u64,
    samples: usize,
    outcomes: usize,
    control: &Control,
) -> MethodChoice {
    let MethodChoice::Auto { budget, runs, seed } = method else {
        return method;
    };
    let affordable = control.max_steps() / per_run.max(1);
    if affordable >= analysis::fallback_runs(runs, samples, outcomes) {
        method
    } else if affordable >= MIN_FALLBACK_RUNS {
        MethodChoice::Auto {
            budget,
            runs: affordable,
            seed,
        }
    } else {
        MethodChoice::Exact { cap: budget }
    }
}

impl UseCase for AnalyzeRequest {
    const NAME: &'static str = "analyze";
    type Report = AnalysisReport;

    /// The entropy and outcome-variance curves.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        Ok(crate::charts::first(reports, "curves", |report| {
            crate::charts::curves(&fairdice_charts::CurvesFigure::analysis(report), view)
        }))
    }

    fn run(&self, control: &Control) -> Result<AnalysisReport, Error> {
        let (randomizer, method) = self.prepare(control)?;
        let options = AnalysisOptions {
            samples: self.samples,
            method,
            droughts: self.droughts,
        };
        let analysis = analysis::analyze(&randomizer, &options, control)
            .map_err(|e| self.failure(&e, &randomizer, control))?;
        let mut report = AnalysisReport::new(&randomizer, &analysis);
        report.add_attempts(&randomizer, control);
        if let Some(droughts) = &mut report.droughts {
            droughts.add_exact_gaps(&randomizer, self.samples, control);
        }
        Ok(report)
    }
}

/// The droughts of a randomizer over a match alone: the longest run of samples
/// without each outcome. The same request as [`AnalyzeRequest`] (its `droughts`
/// field is ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DroughtsRequest(pub AnalyzeRequest);

impl UseCase for DroughtsRequest {
    const NAME: &'static str = "droughts";
    type Report = DroughtsReport;

    fn run(&self, control: &Control) -> Result<DroughtsReport, Error> {
        let request = &self.0;
        let (randomizer, method) = request.prepare(control)?;
        let droughts = analysis::droughts(&randomizer, request.samples, &method, control)
            .map_err(|e| request.failure(&e, &randomizer, control))?;
        let mut report = DroughtsReport::new(&randomizer, &droughts);
        report.add_exact_gaps(&randomizer, request.samples, control);
        Ok(report)
    }
}

/// The randomizer of `spec`, a `base=EXPR` evaluated under `control` (so a huge
/// base is refused by the budget or stopped by a cancel).
///
/// # Errors
/// The spec's error, which lists what is accepted.
pub fn open(spec: &str, control: &Control) -> Result<AnyRandomizer, Error> {
    Spec::build_with(spec, control).map_err(|e| Error::from_failure(&e))
}

/// The method flags ask for: runs mean Monte Carlo; `exact` refuses to fall back;
/// otherwise exact within `budget` merged states a step (or `auto_budget`), Monte
/// Carlo beyond.
///
/// # Errors
/// A budget outside `1..=HARD_STATE_CAP`, or both `exact` and `runs`.
pub fn method_choice(
    exact: bool,
    runs: Option<u64>,
    seed: u64,
    budget: Option<usize>,
    auto_budget: usize,
) -> Result<MethodChoice, Error> {
    if let Some(b) = budget
        && (b == 0 || b > HARD_STATE_CAP)
    {
        return Err(Error::invalid_input(format!(
            "the budget must be 1 to {HARD_STATE_CAP} merged states a step, got {b}"
        )));
    }
    Ok(match (exact, runs) {
        (true, Some(_)) => {
            return Err(Error::invalid_input(
                "ask for an exact sweep or for Monte Carlo runs, not both",
            ));
        }
        (false, Some(runs)) => MethodChoice::MonteCarlo { runs, seed },
        (true, None) => MethodChoice::Exact {
            cap: budget.unwrap_or(HARD_STATE_CAP),
        },
        (false, None) => MethodChoice::Auto {
            budget: budget.unwrap_or(auto_budget),
            runs: analysis::DEFAULT_RUNS,
            seed,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice::analysis::Method;

    #[test]
    fn the_articles_deck_is_exact() {
        let report = AnalyzeRequest::new("deck(values=6, copies=1, refill_below=6)", 25)
            .run(&Control::new())
            .unwrap();
        assert!(matches!(report.method, Method::Exact { .. }));
        assert_eq!(format!("{:.4}", report.outcome_variance), "0.5089");
        assert!(report.droughts.is_some());
        assert!(
            report.attempts.is_none(),
            "a deck is not a randomizer of attempts"
        );
    }

    #[test]
    fn prd_and_pity_give_the_attempts_until_a_success() {
        let analyzed = AnalyzeRequest::new("prd(p=0.25)", 5)
            .run(&Control::new())
            .unwrap()
            .attempts
            .expect("PRD is a randomizer of attempts");
        let table = crate::prd::PrdRequest {
            p: 0.25,
            limit: 100,
        }
        .run(&Control::new())
        .unwrap();
        assert_eq!(analyzed.max_attempts, Some(table.max_attempts));
        assert_eq!(analyzed.attempts.len(), table.attempts.len());
        for (a, b) in analyzed.attempts.iter().zip(&table.attempts) {
            assert_eq!(a.attempt, b.attempt);
            for (x, y) in [
                (a.probability, b.probability),
                (a.first_success, b.first_success),
                (a.cumulative, b.cumulative),
            ] {
                assert!(
                    (x - y).abs() < 1e-12,
                    "attempt {}: {x} against {y}",
                    a.attempt
                );
            }
        }
        assert!((analyzed.expected_attempts.unwrap() - 4.0).abs() < 1e-9);
        // The published 62.297 pulls of a soft-pity banner (0.6%, +6 points a
        // pull from the 74th, certain at the 90th).
        let banner = AnalyzeRequest::new("pity(p=0.006, soft=74, rise=0.06, cap=90)", 5)
            .run(&Control::new())
            .unwrap()
            .attempts
            .expect("pity is a randomizer of attempts");
        assert_eq!(
            format!("{:.3}", banner.expected_attempts.unwrap()),
            "62.297"
        );
        assert_eq!(banner.max_attempts, Some(90));
        assert_eq!(banner.attempts[73].probability, 0.066);
    }

    #[test]
    fn droughts_alone_equal_those_of_the_whole_analysis() {
        let request = AnalyzeRequest::new("prd(p=0.25)", 20);
        let whole = request.run(&Control::new()).unwrap();
        let alone = DroughtsRequest(request).run(&Control::new()).unwrap();
        assert_eq!(whole.droughts, Some(alone));
    }

    #[test]
    fn monte_carlo_is_seeded_and_priced() {
        let request = AnalyzeRequest::new("tgm2", 25).estimated(1_000, 9);
        let a = request.run(&Control::new()).unwrap();
        let b = request.run(&Control::new()).unwrap();
        assert_eq!(a, b);
        assert!(matches!(
            a.method,
            Method::MonteCarlo {
                runs: 1_000,
                seed: 9
            }
        ));
        let runaway = AnalyzeRequest::new("tgm2", 1000).estimated(1_000_000_000_000, 1);
        let error = runaway.run(&Control::new()).unwrap_err();
        assert_eq!(error.exit_status(), 3);
        let suggestion = error.suggestion.expect("an estimate that finishes");
        assert_eq!(
            suggestion.command,
            "fairdice analyze tgm2 --samples 1000 --runs 20000"
        );
    }

    #[test]
    fn a_forced_exact_sweep_too_large_suggests_an_estimate() {
        let request = AnalyzeRequest {
            exact: true,
            max_states: Some(10),
            ..AnalyzeRequest::new("dynamic(values=6, decrease=0.9)", 25)
        };
        let error = request.run(&Control::new()).unwrap_err();
        assert_eq!(error.exit_status(), 3);
        assert!(error.suggestion.is_some());
    }

    #[test]
    fn bad_requests_are_refused_before_any_work() {
        for request in [
            AnalyzeRequest::new("dek(values=6)", 25),
            AnalyzeRequest::new("deck(values=6)", 0),
            AnalyzeRequest {
                max_states: Some(0),
                ..AnalyzeRequest::new("deck(values=6)", 25)
            },
            AnalyzeRequest {
                exact: true,
                ..AnalyzeRequest::new("deck(values=6)", 25).estimated(100, 1)
            },
        ] {
            let error = request.run(&Control::new()).unwrap_err();
            assert_eq!(error.exit_status(), 2, "{request:?}");
        }
        let unknown = AnalyzeRequest::new("dek(values=6)", 25)
            .run(&Control::new())
            .unwrap_err();
        assert!(unknown.message.contains("accepted"), "{}", unknown.message);
    }

    #[test]
    fn a_huge_base_is_priced_by_the_budget() {
        let error = AnalyzeRequest::new("dice(base=2000d2000kh1000)", 5)
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.exit_status(), 3, "{}", error.message);
        let cancelled = Control::new();
        cancelled.cancel();
        let error = AnalyzeRequest::new("fair(base=300d100, tightness=1)", 5)
            .run(&cancelled)
            .unwrap_err();
        assert_eq!(error.kind, FailureKind::Cancelled, "{}", error.message);
    }
}
