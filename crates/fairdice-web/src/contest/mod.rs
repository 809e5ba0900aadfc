//! The Contest page and its API: two pools of dice rolled against each other, die
//! paired with die ([`ContestRequest`], read from the URL so every result is a
//! shareable link), computed exactly under the server's limits.
//!
//! - `GET /contest?a=3d6&b=3d6&pairing=sorted&ties=stand`: the page.
//! - `GET /api/contest?a=…&b=…[&pairing=…&ties=…]`: `fairdice contest A B --json`.
//! - `GET /chart/contest.svg?…`, `GET /chart/contest.png?…`: the net score chart.

mod api;
mod page;

use axum::Router;
use axum::routing::get;
use fairdice::Control;
use fairdice::contest::report::ContestReport;
use fairdice::contest::written::parse_pool;
use fairdice::contest::{Contest, Pairing, Side, TieRule};
use fairdice::dice::notation::Options;

use crate::AppState;
use crate::dice::precheck;
use crate::limits::{Limits, read_runs, read_seed};
use crate::problem::Problem;

/// The routes of the Contest page and its API.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/contest", get(page::show))
        .route("/api/contest", get(api::contest))
        .route("/chart/contest.svg", get(api::chart_svg))
        .route("/chart/contest.png", get(api::chart_png))
}

/// What a Contest request asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContestRequest {
    /// Pool A as typed (`5d6`, `3d6+1d8+1d10`); blank when not given.
    pub a: String,
    /// Pool B as typed.
    pub b: String,
    /// How the dice are paired.
    pub pairing: Pairing,
    /// What tied pairs do.
    pub ties: TieRule,
    /// Estimate by this many seeded rolls instead of computing exactly.
    pub runs: Option<u64>,
    /// The Monte Carlo seed (the command line's default, 1, when not given).
    pub seed: u64,
}

impl ContestRequest {
    /// Reads a request from a query string: `a`, `b`, `pairing`, `ties`, `runs`,
    /// `seed`. Unknown parameters are ignored.
    ///
    /// # Errors
    /// [`Problem::BadRequest`] for an unknown pairing or tie rule, or a bad `runs`
    /// or `seed`.
    pub fn from_query(query: Option<&str>, limits: &Limits) -> Result<ContestRequest, Problem> {
        let mut request = ContestRequest {
            a: String::new(),
            b: String::new(),
            pairing: Pairing::default(),
            ties: TieRule::default(),
            runs: None,
            seed: 1,
        };
        let bad = |e: fairdice::contest::UnknownName| Problem::BadRequest(e.to_string());
        for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match key.as_ref() {
                "a" => request.a = value.trim().to_string(),
                "b" => request.b = value.trim().to_string(),
                "pairing" if !value.is_empty() => request.pairing = value.parse().map_err(bad)?,
                "ties" if !value.is_empty() => request.ties = value.parse().map_err(bad)?,
                "runs" if !value.is_empty() => request.runs = Some(read_runs(&value, limits)?),
                "seed" if !value.is_empty() => request.seed = read_seed(&value)?,
                _ => {}
            }
        }
        Ok(request)
    }

    /// Whether both pools are blank (the page then shows examples).
    pub fn is_empty(&self) -> bool {
        self.a.is_empty() && self.b.is_empty()
    }

    /// The dice both pools roll, as far as they can be read (0 for one that
    /// cannot).
    pub fn dice(&self) -> u64 {
        [&self.a, &self.b]
            .iter()
            .filter_map(|text| parse_pool(text, &Options::default(), &Control::new()).ok())
            .flatten()
            .map(|(_, n)| n)
            .sum()
    }

    /// The query string that asks for this request again.
    pub fn query(&self) -> String {
        let mut pairs = vec![
            ("a", self.a.clone()),
            ("b", self.b.clone()),
            ("pairing", self.pairing.as_str().to_string()),
            ("ties", self.ties.as_str().to_string()),
        ];
        if let Some(runs) = self.runs {
            pairs.push(("runs", runs.to_string()));
            pairs.push(("seed", self.seed.to_string()));
        }
        crate::html::query(pairs.iter().map(|(k, v)| (*k, v.as_str())))
    }
}

/// Parses both pools and computes the contest under `control` (which the time
/// limit cancels); runs on a blocking thread.
fn compute_one(
    request: &ContestRequest,
    control: &Control,
    limits: &Limits,
) -> Result<ContestReport, Problem> {
    let options = &Options::default();
    let pool = |side: Side, text: &String| {
        if text.is_empty() {
            return Err(Problem::BadRequest(format!(
                "pool {side} is empty: give both pools, e.g. a=3d6&b=3d6"
            )));
        }
        precheck(text, limits)?;
        parse_pool(text, options, control).map_err(|error| Problem::Pool {
            side,
            error,
            source: text.clone(),
        })
    };
    let (a, b) = (pool(Side::A, &request.a)?, pool(Side::B, &request.b)?);
    let contest = Contest::from_dice(a, b)
        .map_err(Problem::Contest)?
        .pairing(request.pairing)
        .ties(request.ties);
    match request.runs {
        None => {
            let result = contest.evaluate(control).map_err(Problem::Contest)?;
            Ok(ContestReport::new(
                &request.a, &request.b, &contest, &result,
            ))
        }
        Some(runs) => {
            // Monte Carlo checks the cancel flag between chunks only, so its work is
            // bounded up front.
            let dice = u64::from(contest.size(Side::A) + contest.size(Side::B));
            if dice.saturating_mul(runs) > limits.max_rolled_dice {
                return Err(Problem::Refused(format!(
                    "{runs} rolls of {dice} dice each is more than the {} dice the web app rolls for one request; ask for fewer rolls",
                    limits.max_rolled_dice
                )));
            }
            let estimate = contest
                .monte_carlo(runs, request.seed, control)
                .map_err(Problem::Contest)?;
            Ok(ContestReport::estimated(
                &request.a, &request.b, &contest, &estimate,
            ))
        }
    }
}

/// Computes the contest of `request` under the server's limits.
pub(crate) async fn compute(
    state: &AppState,
    request: &ContestRequest,
) -> Result<ContestReport, Problem> {
    let limits = state.limits.clone();
    state
        .computer
        .run_each(vec![request.clone()], move |request, options| {
            compute_one(request, options, &limits)
        })
        .await
        .pop()
        .map_or(
            Err(Problem::Stopped(crate::compute::Stopped::Failed)),
            |r| r.unwrap_or_else(|stopped| Err(Problem::Stopped(stopped))),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_pools_and_rules_from_the_url() {
        let r = ContestRequest::from_query(
            Some("a=3d6%2B1d8&b=+5d6+&pairing=unsorted&ties=a-wins"),
            &Limits::default(),
        )
        .expect("valid");
        assert_eq!((r.a.as_str(), r.b.as_str()), ("3d6+1d8", "5d6"));
        assert_eq!((r.pairing, r.ties), (Pairing::Unsorted, TieRule::AWins));
        assert_eq!(r.query(), "a=3d6%2B1d8&b=5d6&pairing=unsorted&ties=a-wins");
        let empty = ContestRequest::from_query(None, &Limits::default()).expect("valid");
        assert!(empty.is_empty());
        assert_eq!(
            (empty.pairing, empty.ties),
            (Pairing::Sorted, TieRule::Stand)
        );
    }

    #[test]
    fn unknown_rules_are_bad_requests() {
        for query in [
            "pairing=zigzag",
            "a=d6&ties=draw",
            "a=d6&runs=0",
            "a=d6&seed=x",
        ] {
            let error =
                ContestRequest::from_query(Some(query), &Limits::default()).expect_err(query);
            assert_eq!(error.kind(), "bad_request", "{query}");
        }
    }

    #[test]
    fn pools_are_checked_side_by_side() {
        let limits = Limits::default();
        let request = |a: &str, b: &str| ContestRequest {
            a: a.into(),
            b: b.into(),
            pairing: Pairing::Sorted,
            ties: TieRule::BWins,
            runs: None,
            seed: 1,
        };
        let report = compute_one(&request("3d6", "2d6"), &Control::new(), &limits).expect("small");
        assert_eq!(report.p_a_wins_exact.to_string(), "1445/3888");
        let error =
            compute_one(&request("3d6", "2d6+"), &Control::new(), &limits).expect_err("malformed");
        assert!(matches!(error, Problem::Pool { side: Side::B, .. }));
        let error = compute_one(&request("", "2d6"), &Control::new(), &limits).expect_err("empty");
        assert_eq!(error.kind(), "bad_request");
        let huge =
            compute_one(&request("300d6", "300d6"), &Control::new(), &limits).expect_err("huge");
        assert_eq!(huge.kind(), "too_big");
        let estimate = ContestRequest {
            runs: Some(2_000),
            ..request("300d6", "300d6")
        };
        let report = compute_one(&estimate, &Control::new(), &limits).expect("estimated");
        assert_eq!(report.total.to_string(), "2000");
        let runaway = ContestRequest {
            runs: Some(10_000_000),
            ..request("300d6", "300d6")
        };
        let refused = compute_one(&runaway, &Control::new(), &limits).expect_err("bounded");
        assert_eq!(refused.kind(), "refused");
    }
}
