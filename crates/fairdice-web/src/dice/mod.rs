//! The Dice page and the distribution API: what they ask for ([`DiceRequest`], read
//! from the URL so every result is a shareable link), and how it is computed.
//!
//! - `GET /dice?expr=4d6kh3&expr=3d6&mode=at_least[&runs=N&seed=S]`: the page.
//! - `GET /api/dist?expr=3d6[&runs=N&seed=S]`: `fairdice dist 3d6 --json`.
//! - `GET /chart/dist.svg?…`, `GET /chart/dist.png?…`: the page's chart.

mod api;
mod page;

use axum::Router;
use axum::routing::get;
use fairdice::Control;
use fairdice::dice::report::{DistributionReport, Measure};
use fairdice_api::UseCase;
use fairdice_api::dist::DistRequest;

use crate::AppState;
use crate::limits::{Limits, read_runs, read_seed};
use crate::problem::Problem;

/// The routes of the Dice page and its API.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/dice", get(page::show))
        .route("/api/dist", get(api::dist))
        .route("/chart/dist.svg", get(api::chart_svg))
        .route("/chart/dist.png", get(api::chart_png))
}

/// What a Dice request asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DiceRequest {
    /// The expressions, as typed (blank ones dropped).
    pub expressions: Vec<String>,
    /// What the chart shows.
    pub measure: Measure,
    /// Estimate by this many seeded rolls instead of computing exactly.
    pub runs: Option<u64>,
    /// The Monte Carlo seed (the command line's default, 1, when not given).
    pub seed: u64,
}

impl DiceRequest {
    /// Reads a request from a query string: `expr` (repeatable), `mode`, `runs`,
    /// `seed`. Unknown parameters are ignored, like most web forms do.
    ///
    /// # Errors
    /// [`Problem::BadRequest`] for too many expressions or a bad `mode`, `runs` or
    /// `seed`.
    pub fn from_query(query: Option<&str>, limits: &Limits) -> Result<DiceRequest, Problem> {
        let mut request = DiceRequest {
            expressions: Vec::new(),
            measure: Measure::Probability,
            runs: None,
            seed: 1,
        };
        let bad = |message: String| Problem::BadRequest(message);
        for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match key.as_ref() {
                "expr" if !value.trim().is_empty() => request.expressions.push(value.into_owned()),
                "mode" => request.measure = value.parse().map_err(|e| bad(format!("{e}")))?,
                "runs" if !value.is_empty() => request.runs = Some(read_runs(&value, limits)?),
                "seed" if !value.is_empty() => request.seed = read_seed(&value)?,
                _ => {}
            }
        }
        if request.expressions.len() > limits.max_expressions {
            return Err(bad(format!(
                "at most {} expressions can be compared at once, not {}",
                limits.max_expressions,
                request.expressions.len()
            )));
        }
        Ok(request)
    }

    /// The query string that asks for this request again, with `measure` shown.
    pub fn query_with(&self, measure: Measure) -> String {
        let mut pairs: Vec<(&str, String)> = self
            .expressions
            .iter()
            .map(|e| ("expr", e.clone()))
            .collect();
        if measure != Measure::Probability {
            pairs.push(("mode", measure.as_str().to_string()));
        }
        if let Some(runs) = self.runs {
            pairs.push(("runs", runs.to_string()));
            pairs.push(("seed", self.seed.to_string()));
        }
        crate::html::query(pairs.iter().map(|(k, v)| (*k, v.as_str())))
    }
}

/// Refuses what is too long or nested too deeply to hand to the recursive parser
/// on a server thread.
pub(crate) fn precheck(text: &str, limits: &Limits) -> Result<(), Problem> {
    if text.len() > limits.max_expression_bytes {
        return Err(Problem::Refused(format!(
            "the expression is {} bytes long; the web app accepts up to {}",
            text.len(),
            limits.max_expression_bytes
        )));
    }
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut unary_run = 0usize;
    let mut longest_unary_run = 0usize;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == '-' || c == '+' {
            unary_run += 1;
            longest_unary_run = longest_unary_run.max(unary_run);
        } else if !c.is_whitespace() {
            unary_run = 0;
        }
    }
    if deepest > limits.max_nesting || longest_unary_run > limits.max_nesting {
        return Err(Problem::Refused(format!(
            "the expression nests more than {} levels deep",
            limits.max_nesting
        )));
    }
    Ok(())
}

/// The distribution of one expression (or its Monte Carlo estimate) under
/// `control`; runs on a blocking thread.
fn compute_one(
    text: &str,
    request: &DiceRequest,
    control: &Control,
    limits: &Limits,
) -> Result<DistributionReport, Problem> {
    precheck(text, limits)?;
    let mut dist = DistRequest::new(text);
    if let Some(runs) = request.runs {
        dist = dist.estimated(runs, request.seed);
    }
    let report = dist.run(control)?;
    if report.outcomes.len() > limits.max_outcomes {
        return Err(Problem::TooManyOutcomes {
            outcomes: report.outcomes.len(),
            max: limits.max_outcomes,
        });
    }
    Ok(report)
}

/// Computes every expression of `request`, in order, under the server's limits.
pub(crate) async fn compute(
    state: &AppState,
    request: &DiceRequest,
) -> Vec<Result<DistributionReport, Problem>> {
    let limits = state.limits.clone();
    let shared = request.clone();
    state
        .computer
        .run_each(request.expressions.clone(), move |text, control| {
            compute_one(text, &shared, control, &limits)
        })
        .await
        .into_iter()
        .map(|r| r.unwrap_or_else(|stopped| Err(Problem::Stopped(stopped))))
        .collect()
}

/// The `fairdice dist --json` document of the request's one expression, written
/// inside the job (priced first against the document limit), so a huge document
/// is refused or written within the time limit, never on the async threads after
/// it.
pub(crate) async fn compute_json(
    state: &AppState,
    request: &DiceRequest,
) -> Result<String, Problem> {
    let limits = state.limits.clone();
    let shared = request.clone();
    state
        .computer
        .run_each(request.expressions.clone(), move |text, control| {
            let report = compute_one(text, &shared, control, &limits)?;
            fairdice_api::dist::check_document(&report, limits.max_document_bytes)?;
            Ok(report.to_json() + "\n")
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
    fn requests_read_repeated_expressions_and_the_mode() {
        let limits = Limits::default();
        let r = DiceRequest::from_query(Some("expr=4d6kh3&expr=3d6&expr=&mode=at_least"), &limits)
            .expect("valid");
        assert_eq!(r.expressions, ["4d6kh3", "3d6"]);
        assert_eq!(r.measure, Measure::AtLeast);
        assert_eq!(
            r.query_with(Measure::AtMost),
            "expr=4d6kh3&expr=3d6&mode=at_most"
        );
        let r = DiceRequest::from_query(Some("expr=d20%2B5+%3E%3D+15"), &limits).expect("valid");
        assert_eq!(r.expressions, ["d20+5 >= 15"]);
    }

    #[test]
    fn bad_parameters_are_bad_requests() {
        let limits = Limits::default();
        for query in [
            "mode=sideways",
            "expr=d6&runs=0",
            "expr=d6&runs=x",
            "expr=d6&seed=-1",
        ] {
            let error = DiceRequest::from_query(Some(query), &limits).expect_err(query);
            assert_eq!(error.kind(), "bad_request", "{query}");
        }
        let many = ["expr=d6"; 7].join("&");
        assert!(DiceRequest::from_query(Some(&many), &limits).is_err());
    }

    #[test]
    fn deep_nesting_and_long_expressions_are_refused_before_parsing() {
        let limits = Limits::default();
        let deep = format!("{}1{}", "(".repeat(40), ")".repeat(40));
        assert_eq!(
            precheck(&deep, &limits).expect_err("deep").kind(),
            "refused"
        );
        assert!(precheck(&"-".repeat(40), &limits).is_err());
        assert!(precheck(&"1+".repeat(300), &limits).is_err());
        assert!(precheck("((d6)d6)+-3", &limits).is_ok());
    }

    #[test]
    fn monte_carlo_work_is_bounded_before_rolling() {
        let limits = Limits::default();
        let request = DiceRequest {
            expressions: vec!["1000000d1000000".into()],
            measure: Measure::Probability,
            runs: Some(10_000),
            seed: 1,
        };
        let refused = compute_one("1000000d1000000", &request, &Control::new(), &limits)
            .expect_err("too many dice");
        assert_eq!(refused.kind(), "too_big");
        let three = compute_one("3d6", &request, &Control::new(), &limits).expect("small");
        assert_eq!(three.outcomes.len(), 16);
    }
}
