//! `goal`: how many attempts until a randomizer gives what the player waits for
//! (the first hit, k hits, k copies of a featured outcome, every outcome once),
//! from the start, after a history, or from a saved session: the mean, the
//! percentiles, the chance within a budget and the table of attempts, exact.

use crate::charts::{Drawn, View};
use fairdice::analysis::chain::Chain;
use fairdice::analysis::goal::{
    Goal, attempts_on, exact_figures, expected_draws, simulate_attempts,
};
use fairdice::randomizer::{AnyRandomizer, Randomizer, outcome_index};
use fairdice::{Control, Failure};
use serde::{Deserialize, Serialize};

use crate::randomizer::{Source, spec_title};
use crate::{Error, UseCase};

/// The most attempts one report tabulates.
pub const MAX_LIMIT: u64 = 1_000_000;

/// About how many bytes one tabulated attempt takes until it is reported.
pub const BYTES_PER_ATTEMPT: u64 = 160;

/// The quantiles every report gives.
pub const QUANTILES: [f64; 5] = [0.25, 0.5, 0.75, 0.9, 0.99];

/// A goal over a randomizer.
///
/// As JSON: `{"source": {"spec": "pity(p=0.006, soft=74, rise=0.06, cap=90)"},
/// "until": ["hit"], "times": 1, "budget": 90}`. `until` names outcomes by value
/// or label; with `"every": true` the goal is each of them at least once (every
/// outcome when `until` is empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalRequest {
    /// The randomizer: a spec (a machine document included) or a saved session.
    pub source: Source,
    /// Outcomes drawn before counting starts, oldest first (`3-star*73` repeats).
    #[serde(default)]
    pub history: Vec<String>,
    /// The outcomes that count.
    #[serde(default)]
    pub until: Vec<String>,
    /// How many draws of them (with `every`, ignored).
    #[serde(default = "one")]
    pub times: u32,
    /// Each of `until` (or every outcome) at least once, instead of a count.
    #[serde(default)]
    pub every: bool,
    /// The attempts the player has: the report gives the chance within them.
    #[serde(default)]
    pub budget: Option<u64>,
    /// Tabulate at most this many attempts.
    #[serde(default = "thousand")]
    pub limit: u64,
    /// Exact, or an error (no Monte Carlo fallback).
    #[serde(default)]
    pub exact: bool,
    /// Estimate by Monte Carlo with this many runs.
    #[serde(default)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed (also of an automatic fallback).
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_seed() -> u64 {
    crate::DEFAULT_SEED
}

/// Monte Carlo runs of an automatic fallback.
pub const DEFAULT_RUNS: u64 = 100_000;

/// The most draws one simulated run makes before it counts as not met.
pub const MAX_SIMULATED_ATTEMPTS: usize = 1_000_000;

/// How the attempts were counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum GoalMethod {
    /// The exact dynamic program over every reachable state.
    Exact {
        /// The states the randomizer can reach from where it stood.
        states: usize,
    },
    /// Simulated runs.
    MonteCarlo {
        /// Runs simulated.
        runs: u64,
        /// Their seed.
        seed: u64,
    },
}

/// An exact figure written `p/q` (or an integer).
fn fraction<T: ToString>(figure: &Option<T>) -> Option<String> {
    figure.as_ref().map(ToString::to_string)
}

fn one() -> u32 {
    1
}

fn thousand() -> u64 {
    1000
}

/// The distribution of attempts: the `fairdice goal --json` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoalReport {
    /// The randomizer's spec (a machine's document, written compactly).
    pub spec: String,
    /// The machine's name, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The goal in words, e.g. `2 × featured`.
    pub goal: String,
    /// The outcomes the goal counts or collects, by label.
    pub until: Vec<String>,
    /// The outcomes drawn before counting started.
    pub history: Vec<String>,
    /// Where a machine stood when counting started: each layer and its state,
    /// e.g. `pity: n = 73` (empty for other randomizers).
    pub start: Vec<String>,
    /// Exact (with the states walked) or Monte Carlo (runs and seed).
    pub method: GoalMethod,
    /// P(the goal is ever met) (Monte Carlo: within a run's draws).
    pub ever: f64,
    /// The expected attempts (absent when the goal may never be met).
    pub mean: Option<f64>,
    /// Their standard deviation.
    pub sd: Option<f64>,
    /// The standard error of the mean (Monte Carlo only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_error: Option<f64>,
    /// The mean as an exact fraction `p/q`, when the randomizer's chances are
    /// exact (a machine) and the goal is certain by some attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_exact: Option<String>,
    /// The fewest attempts within which the goal is certain, if any.
    pub certain_by: Option<u64>,
    /// The fewest attempts reaching each of [`QUANTILES`].
    pub percentiles: Vec<Percentile>,
    /// The chance within the budget asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// One row per attempt, from 1.
    pub attempts: Vec<AttemptRow>,
    /// Whether attempts past the limit were left out.
    pub truncated: bool,
}

/// A quantile of the attempts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Percentile {
    /// The chance, e.g. 0.9.
    pub chance: f64,
    /// The fewest attempts reaching it (absent when the goal never reaches it).
    pub attempts: Option<u64>,
}

/// The chance within a budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budget {
    /// The attempts.
    pub attempts: u64,
    /// P(the goal is met within them).
    pub chance: f64,
    /// The expected draws of the goal's outcomes within them (a count goal only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_hits: Option<f64>,
    /// `chance` as an exact fraction, when the chances are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance_exact: Option<String>,
    /// `expected_hits` as an exact fraction, when the chances are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_hits_exact: Option<String>,
}

/// One attempt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttemptRow {
    /// Its number, from 1.
    pub attempt: u64,
    /// P(the goal is met at this attempt).
    pub chance: f64,
    /// P(the goal is met within this many attempts).
    pub cumulative: f64,
}

impl GoalRequest {
    /// The goal over `randomizer`'s outcome indices, and its words.
    fn goal(&self, randomizer: &AnyRandomizer) -> Result<(Goal, String), Error> {
        let mut outcomes = Vec::new();
        for name in self
            .until
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
        {
            let index = outcome_index(randomizer, name)
                .map_err(|e| Error::invalid_input(format!("`until`: {e}")))?;
            if !outcomes.contains(&index) {
                outcomes.push(index);
            }
        }
        let names = |outcomes: &[usize]| -> String {
            outcomes
                .iter()
                .map(|&i| randomizer.label(i))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        if self.every {
            if outcomes.is_empty() {
                outcomes = (0..randomizer.outcomes().len()).collect();
            }
            let words = format!(
                "every one of {}",
                outcomes
                    .iter()
                    .map(|&i| randomizer.label(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return Ok((Goal::every_one(outcomes), words));
        }
        if outcomes.is_empty() {
            return Err(Error::invalid_input(
                "name the outcomes the goal waits for (`until`), or ask for every outcome once (`every`)",
            ));
        }
        let words = if self.times == 1 {
            names(&outcomes)
        } else {
            format!("{} × {}", self.times, names(&outcomes))
        };
        Ok((Goal::hits(outcomes, self.times), words))
    }
}

impl UseCase for GoalRequest {
    const NAME: &'static str = "goal";
    type Report = GoalReport;

    /// The chance within each number of attempts.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        use fairdice_charts::Chart as _;
        let (width, height) = crate::charts::size(view);
        Ok(crate::charts::first(reports, "attempts", |report| {
            fairdice_charts::attempts_chart(&report.goal, &report.cumulative())
                .size(width, height)
                .to_svg()
        }))
    }

    fn run(&self, control: &Control) -> Result<GoalReport, Error> {
        if self.limit > MAX_LIMIT {
            return Err(Error::invalid_input(format!(
                "{} attempts is more than the {MAX_LIMIT} one report shows; accepted: 0..={MAX_LIMIT}",
                self.limit
            )));
        }
        let (randomizer, history) = self.source.after_history(&self.history, control)?;
        let (goal, words) = self.goal(&randomizer)?;
        let budget = self.budget.unwrap_or(0).min(MAX_LIMIT * 10);
        let failed = |e: &dyn fairdice::Failure| Error::from_failure(e);
        fairdice::analysis::goal::check(randomizer.outcomes().len(), &goal)
            .map_err(|e| failed(&e))?;
        let simulate = |runs: u64| {
            simulate_attempts(
                &randomizer,
                &goal,
                runs,
                self.seed,
                MAX_SIMULATED_ATTEMPTS,
                control,
            )
            .map_err(|e| failed(&e))
            .map(|attempts| {
                (
                    attempts,
                    None,
                    GoalMethod::MonteCarlo {
                        runs,
                        seed: self.seed,
                    },
                )
            })
        };
        let (attempts, chain, method) = match self.runs {
            Some(runs) => simulate(runs)?,
            None => match Chain::explore(&randomizer, control) {
                Ok(chain) => {
                    let attempts = attempts_on(&chain, &goal, budget as usize, control)
                        .map_err(|e| failed(&e))?;
                    let method = GoalMethod::Exact {
                        states: chain.states(),
                    };
                    (attempts, Some(chain), method)
                }
                Err(e) if self.exact || e.kind() != fairdice::FailureKind::TooLarge => {
                    return Err(failed(&e).with_hint(format!(
                        "a Monte Carlo estimate finishes: add \"runs\": {DEFAULT_RUNS} (on the command line, --runs {DEFAULT_RUNS})"
                    )));
                }
                Err(_) => simulate(DEFAULT_RUNS)?,
            },
        };
        let cumulative = attempts.cumulative();
        let certain_by = match method {
            GoalMethod::Exact { .. } => attempts.certain_by().map(|t| t as u64),
            GoalMethod::MonteCarlo { .. } => None,
        };
        let exact = match &chain {
            Some(chain) => exact_figures(
                chain,
                &goal,
                self.budget.map(|b| b as usize),
                certain_by.unwrap_or(0) as usize,
                control,
            )
            .map_err(|e| failed(&e))?,
            None => None,
        };
        let expected_hits = match (&goal, self.budget, &chain) {
            (Goal::Hits { outcomes, .. }, Some(b), Some(chain)) => {
                Some(expected_draws(chain, outcomes, b as usize, control).map_err(|e| failed(&e))?)
            }
            _ => None,
        };
        // The table runs until the goal is met but for 10^-12 (or the budget).
        let settled = cumulative
            .iter()
            .position(|&c| c >= attempts.ever - 1e-12)
            .unwrap_or(cumulative.len() - 1);
        let last = (settled as u64).max(budget);
        let shown = last.min(self.limit);
        control
            .reserve(shown.saturating_mul(BYTES_PER_ATTEMPT))
            .map_err(|stop| Error::from_failure(&stop))?;
        let at = |t: usize| cumulative.get(t).copied().unwrap_or(attempts.ever);
        let rows = (1..=shown as usize)
            .map(|t| AttemptRow {
                attempt: t as u64,
                chance: attempts.first.get(t).copied().unwrap_or(0.0),
                cumulative: at(t),
            })
            .collect();
        Ok(GoalReport {
            spec: randomizer.spec(),
            name: match &randomizer {
                AnyRandomizer::Machine(machine) => machine.name().map(str::to_string),
                _ => None,
            },
            until: match &goal {
                Goal::Hits { outcomes, .. } | Goal::EveryOne { outcomes } => {
                    outcomes.iter().map(|&i| randomizer.label(i)).collect()
                }
            },
            goal: words,
            history,
            start: match &randomizer {
                AnyRandomizer::Machine(machine) => machine
                    .describe_state()
                    .into_iter()
                    .map(|(layer, state)| format!("{layer}: {state}"))
                    .collect(),
                _ => Vec::new(),
            },
            method,
            ever: attempts.ever,
            mean: attempts.mean,
            sd: attempts.sd,
            mean_error: attempts.mean_error,
            mean_exact: exact.as_ref().and_then(|e| fraction(&e.mean)),
            certain_by,
            percentiles: QUANTILES
                .iter()
                .map(|&q| Percentile {
                    chance: q,
                    attempts: attempts.percentile(q).map(|t| t as u64),
                })
                .collect(),
            budget: self.budget.map(|b| Budget {
                attempts: b,
                chance: at(b as usize),
                expected_hits,
                chance_exact: exact.as_ref().and_then(|e| fraction(&e.within_budget)),
                expected_hits_exact: exact.as_ref().and_then(|e| fraction(&e.expected_draws)),
            }),
            attempts: rows,
            truncated: shown < last,
        })
    }
}

impl GoalReport {
    /// What the randomizer is called in a heading ([`spec_title`]).
    pub fn title(&self) -> String {
        spec_title(&self.spec)
    }

    /// P(the goal is met within each number of attempts), from 1: the
    /// `cumulative` column, for a chart.
    pub fn cumulative(&self) -> Vec<f64> {
        self.attempts.iter().map(|a| a.cumulative).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(spec: &str, until: &[&str], times: u32) -> GoalRequest {
        GoalRequest {
            source: Source::Spec(spec.to_string()),
            history: Vec::new(),
            until: until.iter().map(|s| s.to_string()).collect(),
            times,
            every: false,
            budget: None,
            limit: 1000,
            exact: false,
            runs: None,
            seed: 1,
        }
    }

    #[test]
    fn pity_reports_the_published_mean_and_its_table() {
        let report = request("pity(p=0.006, soft=74, rise=0.06, cap=90)", &["hit"], 1)
            .run(&Control::new())
            .expect("small");
        assert_eq!(format!("{:.3}", report.mean.expect("certain")), "62.297");
        assert_eq!(report.certain_by, Some(90));
        assert_eq!(report.attempts.len(), 90);
        assert_eq!(report.attempts[89].cumulative, 1.0);
        assert_eq!(report.goal, "hit");
    }

    #[test]
    fn a_history_moves_the_start() {
        let mut asked = request("pity(p=0.006, soft=74, rise=0.06, cap=90)", &["hit"], 1);
        asked.history = vec!["miss*89".to_string()];
        let report = asked.run(&Control::new()).expect("small");
        assert_eq!(report.mean, Some(1.0));
        assert_eq!(report.history.len(), 89);
        asked.history = vec!["miss*90".to_string()];
        assert!(asked.run(&Control::new()).is_err());
    }

    #[test]
    fn bad_goals_are_refused() {
        for asked in [
            request("dice(values=6)", &[], 1),
            request("dice(values=6)", &["7"], 1),
            request("dice(values=6)", &["6"], 0),
        ] {
            let error = asked.run(&Control::new()).expect_err("refused");
            assert_eq!(error.exit_status(), 2, "{asked:?}");
        }
        let mut exact = request("fair(values=6, tightness=1)", &["6"], 3);
        exact.exact = true;
        let error = exact
            .run(&Control::new().with_max_steps(1_000_000))
            .expect_err("too many states");
        assert_eq!(error.exit_status(), 3, "{error:?}");
        assert!(
            error.full_text().contains("--runs"),
            "{}",
            error.full_text()
        );
        exact.exact = false;
        exact.runs = Some(4000);
        let estimate = exact.run(&Control::new()).expect("monte carlo");
        assert_eq!(
            estimate.method,
            GoalMethod::MonteCarlo {
                runs: 4000,
                seed: 1
            }
        );
        // Three 6s: plain dice take 18 draws on average; the fair roller, which
        // breaks streaks, fewer.
        let (mean, error) = (
            estimate.mean.expect("all met"),
            estimate.mean_error.expect("mc"),
        );
        assert!(mean + 3.0 * error < 18.0 && mean > 9.0, "{mean} ± {error}");
    }
}
