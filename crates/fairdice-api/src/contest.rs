//! `contest`: two pools of dice rolled against each other, die paired with die —
//! exact, or estimated by seeded Monte Carlo when asked (`runs`) — as a
//! [`ContestReport`].
//!
//! A pool is written as on the command line (`5d6`, `3d6+1d8+1d10`); its errors
//! carry the pool's caret rendering and say which side is at fault. A contest too
//! large for the budget is refused with its estimate and a [`Suggestion`]: the same
//! contest estimated from a number of rolls sized to finish in seconds.

use crate::charts::{Drawn, View};
use fairdice::contest::written::{PoolTextError, parse_pool};
use fairdice::contest::{Contest, ContestError, Pairing, Side, TieRule};
use fairdice::control::step_count;
use fairdice::dice::notation::Options;
use fairdice::{Control, Die, FailureKind};
use serde::{Deserialize, Serialize};

pub use fairdice::contest::report::ContestReport;

use crate::dist::{MIN_SUGGESTED_RUNS, STEPS_PER_ROLLED_DIE, SUGGESTED_DICE};
use crate::error::{Suggestion, nice_runs, shell_quote};
use crate::{DEFAULT_SEED, Error, UseCase};

/// Two pools against each other.
///
/// As JSON: `{"a": "5d6", "b": "4d6+1d8", "pairing": "sorted", "ties": "a-wins",
/// "runs": null, "seed": 1}` (only `a` and `b` are required; pairing `sorted` or
/// `unsorted`, ties `stand`, `a-wins`, `b-wins` or `reroll`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestRequest {
    /// Pool A, e.g. `5d6` or `3d6+1d8+1d10`.
    pub a: String,
    /// Pool B, written the same way.
    pub b: String,
    /// How the dice are paired.
    #[serde(default)]
    pub pairing: Pairing,
    /// What a tied pair does.
    #[serde(default)]
    pub ties: TieRule,
    /// Estimate from this many seeded rolls instead of computing exactly.
    #[serde(default)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Read both pools as this dice tool reads them (`fairdice` by default).
    #[serde(default, skip_serializing_if = "crate::dist::is_fairdice")]
    pub dialect: fairdice::dice::notation::Dialect,
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

impl ContestRequest {
    /// The exact contest of `a` against `b`, sorted pairing, ties standing.
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> ContestRequest {
        ContestRequest {
            a: a.into(),
            b: b.into(),
            pairing: Pairing::default(),
            ties: TieRule::default(),
            runs: None,
            seed: DEFAULT_SEED,
            dialect: fairdice::dice::notation::Dialect::Fairdice,
        }
    }

    /// The same request with `pairing`.
    #[must_use]
    pub fn pairing(mut self, pairing: Pairing) -> ContestRequest {
        self.pairing = pairing;
        self
    }

    /// The same request with `ties`.
    #[must_use]
    pub fn ties(mut self, ties: TieRule) -> ContestRequest {
        self.ties = ties;
        self
    }

    /// The same request estimated from `runs` rolls with `seed`.
    #[must_use]
    pub fn estimated(mut self, runs: u64, seed: u64) -> ContestRequest {
        self.runs = Some(runs);
        self.seed = seed;
        self
    }

    /// The request as a `fairdice contest` command line (defaults left out).
    pub fn command(&self) -> String {
        let mut command = format!(
            "fairdice contest {} {}",
            shell_quote(&self.a),
            shell_quote(&self.b)
        );
        if self.pairing != Pairing::default() {
            command.push_str(&format!(" --pairing {}", self.pairing.as_str()));
        }
        if self.ties != TieRule::default() {
            command.push_str(&format!(" --ties {}", self.ties.as_str()));
        }
        if !crate::dist::is_fairdice(&self.dialect) {
            command.push_str(&format!(" --dialect {}", self.dialect));
        }
        if let Some(runs) = self.runs {
            command.push_str(&format!(" --runs {runs}"));
            if self.seed != DEFAULT_SEED {
                command.push_str(&format!(" --seed {}", self.seed));
            }
        }
        command
    }

    /// Both pools read and paired under the request's rules.
    ///
    /// # Errors
    /// A pool that is empty or not dice joined by `+` (with its caret rendering
    /// and side), or a contest the rules cannot score.
    pub fn contest(&self, control: &Control) -> Result<Contest, Error> {
        // The pools are built to price the contest; a small budget refuses with the
        // contest's estimate, not a pool's.
        let control = &control.preparing();
        let sides =
            pool(Side::A, &self.a, control).and_then(|a| Ok((a, pool(Side::B, &self.b, control)?)));
        let (a, b) = sides.map_err(|error| {
            if error.code != "not_a_pool" {
                return error;
            }
            // Totals with constants are a question for `dist`, not a pairing of dice.
            let totals = crate::dist::DistRequest::new(format!("{} > {}", self.a, self.b));
            error.with_hint(format!(
                "a contest pairs dice one by one; to compare the totals, ask for `{}`",
                totals.command()
            ))
        })?;
        Ok(Contest::from_dice(a, b)
            .map_err(|e| contest_error(&e))?
            .pairing(self.pairing)
            .ties(self.ties))
    }

    /// The same contest as an estimate that finishes in seconds.
    fn suggestion(&self, contest: &Contest) -> Option<Suggestion> {
        let dice = u64::from(contest.size(Side::A) + contest.size(Side::B));
        let runs = nice_runs(SUGGESTED_DICE / dice.max(1));
        if runs < MIN_SUGGESTED_RUNS {
            return None;
        }
        let request = self.clone().estimated(runs, self.seed);
        Some(Suggestion {
            use_case: Self::NAME,
            command: request.command(),
            request: serde_json::to_value(&request).ok()?,
        })
    }

    /// Advice for an exact contest too large to compute.
    fn cheaper(&self) -> &'static str {
        match self.pairing {
            Pairing::Sorted => {
                "fewer dice, fewer kinds of dice per side, or unsorted pairing are cheaper to compute exactly"
            }
            Pairing::Unsorted => "fewer or smaller dice are cheaper to compute exactly",
        }
    }

    fn estimate(
        &self,
        contest: &Contest,
        runs: u64,
        control: &Control,
    ) -> Result<ContestReport, Error> {
        if runs == 0 {
            return Err(Error::invalid_input(
                "runs must be at least 1 (the number of rolls to estimate from)",
            ));
        }
        let dice = u64::from(contest.size(Side::A) + contest.size(Side::B));
        let steps = runs
            .saturating_mul(dice)
            .saturating_mul(STEPS_PER_ROLLED_DIE);
        if steps > control.max_steps() {
            let fits = control.max_steps() / STEPS_PER_ROLLED_DIE / dice.max(1);
            let mut error = Error::too_big(format!(
                "{runs} rolls of {dice} dice each is more than the budget allows \
                 (about {} steps, the limit is {}); at most about {fits} rolls fit",
                step_count(steps as f64),
                step_count(control.max_steps() as f64)
            ));
            if let Some(suggestion) = self.suggestion(contest) {
                error = error.with_suggestion(suggestion);
            }
            return Err(error);
        }
        let estimate = contest
            .monte_carlo(runs, self.seed, control)
            .map_err(|e| contest_error(&e))?;
        Ok(ContestReport::estimated(
            &self.a, &self.b, contest, &estimate,
        ))
    }
}

impl UseCase for ContestRequest {
    const NAME: &'static str = "contest";
    type Report = ContestReport;

    /// An exact contest estimated at up to [`QUICK_STEPS`](crate::dist::QUICK_STEPS),
    /// or pools that do not parse.
    fn is_quick(&self) -> bool {
        self.runs.is_none()
            && self.contest(&Control::new()).map_or(true, |contest| {
                contest.estimate().steps <= crate::dist::QUICK_STEPS
            })
    }

    /// The net score of the (one) contest.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        use fairdice_charts::Chart as _;
        let (width, height) = crate::charts::size(view);
        Ok(crate::charts::first(reports, "net_score", |report| {
            fairdice_charts::net_score_chart(report)
                .size(width, height)
                .to_svg()
        }))
    }

    fn run(&self, control: &Control) -> Result<ContestReport, Error> {
        if !crate::dist::is_fairdice(&self.dialect) {
            // Both pools as the dialect reads them, written in fairdice: the
            // report names them so.
            let read = |pool: &str, side: &str| {
                crate::dist::translated(pool, self.dialect)
                    .map(|t| t.expression)
                    .map_err(|e| e.in_context(&format!("in pool {side}:")))
            };
            let request = ContestRequest {
                a: read(&self.a, "A")?,
                b: read(&self.b, "B")?,
                dialect: fairdice::dice::notation::Dialect::Fairdice,
                ..self.clone()
            };
            return request.run(control);
        }
        let contest = self.contest(control)?;
        if let Some(runs) = self.runs {
            return self.estimate(&contest, runs, control);
        }
        match contest.evaluate(control) {
            Ok(result) => Ok(ContestReport::new(&self.a, &self.b, &contest, &result)),
            Err(error) => {
                let mut refusal = contest_error(&error);
                if refusal.kind == FailureKind::TooLarge && refusal.code == "too_big" {
                    refusal = refusal.with_hint(self.cheaper());
                    if let Some(suggestion) = self.suggestion(&contest) {
                        refusal = refusal.with_suggestion(suggestion);
                    }
                }
                Err(refusal)
            }
        }
    }
}

/// The dice of one side's pool, or its error with the side named and a caret
/// under the part at fault.
fn pool(side: Side, text: &str, control: &Control) -> Result<Vec<(Die, u64)>, Error> {
    if text.trim().is_empty() {
        return Err(Error::invalid_input(format!(
            "pool {side} is empty; give both pools, e.g. 5d6 against 4d6+1d8"
        )));
    }
    parse_pool(text, &Options::default(), control).map_err(|error| {
        let code = match &error {
            PoolTextError::NotAPool { .. } => Some("not_a_pool"),
            PoolTextError::Notation(_) => None,
        };
        let mut found = match error {
            PoolTextError::Notation(e) => Error::notation(&e, text),
            e => Error::from_pool(&e, text),
        };
        if let Some(code) = code {
            found.code = code;
        }
        found.in_context(&format!("in pool {side}:"))
    })
}

/// A contest's error: too large, cancelled, or rules the pools cannot follow.
fn contest_error(error: &ContestError) -> Error {
    Error::from_failure(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_contests_and_their_fractions() {
        // Risk's one roll: three attacking dice against two, ties to the defender.
        let report = ContestRequest::new("3d6", "2d6")
            .ties(TieRule::BWins)
            .run(&Control::new())
            .unwrap();
        assert_eq!(report.p_a_wins_exact.to_string(), "1445/3888");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["a"], "3d6");
    }

    #[test]
    fn pool_errors_name_their_side_and_span() {
        let error = ContestRequest::new("3d6", "2d6+")
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.code, "parse");
        assert_eq!(error.expression.as_deref(), Some("2d6+"));
        assert!(
            error.rendered.starts_with("in pool B:\n2d6+"),
            "{}",
            error.rendered
        );
        let error = ContestRequest::new("3d6+2", "2d6")
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.code, "not_a_pool");
        assert_eq!(error.span, Some(4..5));
        let error = ContestRequest::new("", "2d6")
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.exit_status(), 2);
    }

    #[test]
    fn too_large_suggests_an_estimate_that_finishes() {
        let error = ContestRequest::new("300d6", "300d6")
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.exit_status(), 3);
        let suggestion = error.suggestion.expect("an estimate can answer");
        assert_eq!(
            suggestion.command,
            "fairdice contest 300d6 300d6 --runs 20000"
        );
        let request: ContestRequest = serde_json::from_value(suggestion.request).unwrap();
        let report = request.run(&Control::new()).unwrap();
        assert_eq!(report.total.to_string(), "20000");
        // Rules other than the defaults are repeated in the suggestion.
        let error = ContestRequest::new("300d6", "300d6")
            .pairing(Pairing::Unsorted)
            .ties(TieRule::AWins)
            .run(&Control::new().with_max_steps(1000))
            .unwrap_err();
        assert_eq!(
            error.suggestion.expect("suggested").command,
            "fairdice contest 300d6 300d6 --pairing unsorted --ties a-wins --runs 20000"
        );
    }

    #[test]
    fn monte_carlo_is_priced_before_it_rolls() {
        let error = ContestRequest::new("3d6", "3d6")
            .estimated(1_000_000_000_000, 1)
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.code, "too_big");
        let zero = ContestRequest::new("3d6", "3d6")
            .estimated(0, 1)
            .run(&Control::new());
        assert_eq!(zero.unwrap_err().exit_status(), 2);
    }

    #[test]
    fn requests_read_from_json_with_defaults() {
        let request: ContestRequest =
            serde_json::from_str(r#"{"a": "5d6", "b": "5d6", "ties": "a-wins"}"#).unwrap();
        assert_eq!(
            request,
            ContestRequest::new("5d6", "5d6").ties(TieRule::AWins)
        );
        assert!(
            serde_json::from_str::<ContestRequest>(r#"{"a": "d6", "b": "d6", "ties": "draw"}"#)
                .is_err()
        );
    }
}
