//! `seats`: how a randomizer splits a match between the players of a game — each
//! player's total and longest drought, the spread between the best and the worst,
//! the chance someone is starved, and the same over each player's own turns —
//! exactly by sweeping (randomizer state, totals), or by seeded Monte Carlo when
//! the sweep is too large or when asked, as a [`SeatsReport`].

use crate::charts::{Drawn, View};
use fairdice::analysis::seats::{self, DEFAULT_SHARES, Game, SeatAnalysis, SeatError, SeatOptions};
use fairdice::analysis::{self, DEFAULT_STATE_BUDGET, MethodChoice};
use fairdice::control::step_count;
use fairdice::randomizer::{AnyRandomizer, Randomizer};
use fairdice::{Control, FailureKind};
use serde::{Deserialize, Serialize};

use crate::analyze::{SUGGESTED_DRAWS, method_choice, open, priced_fallback};
use crate::error::{Suggestion, method_flags, nice_runs, shell_quote};
use crate::{DEFAULT_SEED, Error, UseCase};

/// A game, a randomizer and the match to measure it over.
///
/// As JSON: `{"game": {"players": ["a", "b"], "payoffs": {"7": [1, 0]}},
/// "spec": "dice(base=2d6)", "samples": 60, "exact": false, "runs": null, "seed": 1,
/// "max_states": null, "shares": [0.5, 0.75], "droughts": true}` (only `game`,
/// `spec` and `samples` are required; the game is the file format of
/// [`Game`]). `max_states` is the (state, totals) pairs one step of the sweep may
/// hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsRequest {
    /// The game: players and payoffs.
    pub game: Game,
    /// The randomizer spec, e.g. `fair(base=2d6, tightness=1)`.
    pub spec: String,
    /// Rolls in the match (`T`).
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
    /// Pairs one step of the exact sweep may hold.
    #[serde(default)]
    pub max_states: Option<usize>,
    /// The fractions of the fair share a starved player is asked about.
    #[serde(default = "default_shares")]
    pub shares: Vec<f64>,
    /// Also the longest droughts (a sweep per player).
    #[serde(default = "yes")]
    pub droughts: bool,
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

fn default_shares() -> Vec<f64> {
    DEFAULT_SHARES.to_vec()
}

fn yes() -> bool {
    true
}

/// A seat analysis with its game: the `seats` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatsReport {
    /// The game measured.
    pub game: Game,
    /// The figures.
    #[serde(flatten)]
    pub analysis: SeatAnalysis,
}

impl SeatsRequest {
    /// `game` under `spec` over `samples` rolls, exact where it fits.
    pub fn new(game: Game, spec: impl Into<String>, samples: usize) -> SeatsRequest {
        SeatsRequest {
            game,
            spec: spec.into(),
            samples,
            exact: false,
            runs: None,
            seed: DEFAULT_SEED,
            max_states: None,
            shares: default_shares(),
            droughts: true,
        }
    }

    /// The same request estimated from `runs` runs with `seed`.
    #[must_use]
    pub fn estimated(mut self, runs: u64, seed: u64) -> SeatsRequest {
        self.runs = Some(runs);
        self.seed = seed;
        self
    }

    /// The request as a `fairdice seats` command line, the game file named
    /// `GAME.json` (defaults left out).
    pub fn command(&self) -> String {
        let mut command = format!(
            "fairdice seats GAME.json --randomizer {} --samples {}",
            shell_quote(&self.spec),
            self.samples
        );
        command.push_str(&method_flags(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
        ));
        if self.shares != default_shares() {
            let shares: Vec<String> = self.shares.iter().map(f64::to_string).collect();
            command.push_str(&format!(" --shares {}", shares.join(",")));
        }
        if !self.droughts {
            command.push_str(" --no-droughts");
        }
        command
    }

    fn per_run(&self, randomizer: &AnyRandomizer) -> u64 {
        seats::steps_per_run(
            self.samples,
            randomizer.outcomes().len(),
            self.game.players().len(),
        )
    }

    /// The randomizer and the method, checked before any work (a Monte Carlo
    /// estimate priced against the budget).
    fn prepare(&self, control: &Control) -> Result<(AnyRandomizer, MethodChoice), Error> {
        // Built to price the sweep, as `analyze` does.
        let randomizer = open(&self.spec, &control.preparing())?;
        let method = method_choice(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
            DEFAULT_STATE_BUDGET,
        )?;
        if self.samples == 0 || self.samples > analysis::MAX_SAMPLES {
            return Err(Error::from_failure(&SeatError::Samples(self.samples)));
        }
        self.game
            .table(&randomizer)
            .map_err(|e| Error::from_failure(&e))?;
        let per_run = self.per_run(&randomizer).max(1);
        match method {
            MethodChoice::Auto { .. } => {
                let outcomes = randomizer.outcomes().len();
                let method = priced_fallback(method, per_run, self.samples, outcomes, control);
                Ok((randomizer, method))
            }
            MethodChoice::MonteCarlo { runs, .. } => {
                let steps = runs.saturating_mul(per_run);
                if steps > control.max_steps() {
                    let mut error = Error::too_big(format!(
                        "{runs} runs of {} rolls is more than the budget allows (about {} steps, the limit is {}); ask for fewer runs",
                        self.samples,
                        step_count(steps as f64),
                        step_count(control.max_steps() as f64),
                    ));
                    if let Some(suggestion) = self.suggestion(&randomizer, control) {
                        error = error.with_suggestion(suggestion);
                    }
                    return Err(error);
                }
                Ok((randomizer, method))
            }
            MethodChoice::Exact { .. } => Ok((randomizer, method)),
        }
    }

    /// The same question as a Monte Carlo estimate that finishes in seconds.
    fn suggestion(&self, randomizer: &AnyRandomizer, control: &Control) -> Option<Suggestion> {
        let by_draws = SUGGESTED_DRAWS / self.samples.max(1) as u64;
        let by_budget = control.max_steps() / self.per_run(randomizer).max(1);
        let runs = nice_runs(by_draws.min(by_budget));
        if runs < 2 {
            return None;
        }
        let request = SeatsRequest {
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
}

impl UseCase for SeatsRequest {
    const NAME: &'static str = "seats";
    type Report = SeatsReport;

    /// Each player's total over the match.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        use fairdice_charts::Chart as _;
        let (width, height) = crate::charts::size(view);
        Ok(crate::charts::first(reports, "totals", |report| {
            fairdice_charts::seats_chart(&report.analysis)
                .size(width, height)
                .to_svg()
        }))
    }

    fn run(&self, control: &Control) -> Result<SeatsReport, Error> {
        let (randomizer, method) = self.prepare(control)?;
        let options = SeatOptions {
            samples: self.samples,
            method,
            shares: self.shares.clone(),
            droughts: self.droughts,
        };
        let analysis = seats::analyze(&randomizer, &self.game, &options, control).map_err(|e| {
            let mut found = Error::from_failure(&e);
            if found.kind == FailureKind::TooLarge {
                found = found.with_hint("fewer rolls, or a Monte Carlo estimate, finish sooner");
                if let Some(suggestion) = self.suggestion(&randomizer, control) {
                    found = found.with_suggestion(suggestion);
                }
            }
            found
        })?;
        Ok(SeatsReport {
            game: self.game.clone(),
            analysis,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice::analysis::Method;

    fn sevens() -> Game {
        Game::from_json(
            r#"{"players": ["first", "second"], "turns": true, "columns": "roller",
                "payoffs": {"7": [1, 0]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn who_gets_the_sevens_is_exact_and_documented() {
        let report = SeatsRequest::new(sevens(), "dice(base=2d6)", 50)
            .run(&Control::new())
            .unwrap();
        assert!(matches!(report.analysis.method, Method::Exact { .. }));
        let first = &report.analysis.all_rolls.players[0];
        assert!((first.fair_share - 25.0 / 6.0).abs() < 1e-12);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["method"], "exact");
        assert_eq!(json["game"]["payoffs"]["7"], serde_json::json!([1, 0]));
        assert!(json["all_rolls"]["spread"]["value"].is_f64());
        assert!(json["own_turns"]["players"][1]["longest_drought"]["value"].is_f64());
    }

    #[test]
    fn monte_carlo_is_seeded_and_priced() {
        let request =
            SeatsRequest::new(sevens(), "fair(base=2d6, tightness=1)", 40).estimated(2_000, 4);
        let a = request.run(&Control::new()).unwrap();
        assert_eq!(a, request.run(&Control::new()).unwrap());
        let runaway = SeatsRequest::new(sevens(), "dice(base=2d6)", 1000).estimated(1 << 40, 1);
        let error = runaway.run(&Control::new()).unwrap_err();
        assert_eq!(error.exit_status(), 3);
        let suggestion = error.suggestion.expect("an estimate that finishes");
        assert!(
            suggestion.command.starts_with("fairdice seats GAME.json"),
            "{}",
            suggestion.command
        );
    }

    #[test]
    fn a_game_that_does_not_fit_the_randomizer_is_invalid() {
        let error = SeatsRequest::new(sevens(), "dice(values=6)", 10)
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(error.message.contains("outcome 7"), "{}", error.message);
    }

    #[test]
    fn runs_as_json() {
        let request = r#"{"game": {"players": ["a", "b"], "payoffs": {"1": [1, 0], "2": [0, 1]}},
                          "spec": "deck(values=3)", "samples": 6}"#;
        let out = crate::run_json("seats", request, &Control::new()).unwrap();
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        // A deck of three deals each of 1 and 2 exactly twice in six draws.
        assert_eq!(
            json["all_rolls"]["players"][0]["totals"],
            serde_json::json!([0.0, 0.0, 1.0])
        );
        assert_eq!(json["all_rolls"]["spread"]["value"], 0.0);
    }
}
