//! `GET /api/analyze`, `/api/sample`, `/api/next`: the documents `fairdice
//! analyze`, `sample` and `next` print with `--json`; and the page's curves as a
//! standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairdice::analysis::AnalysisReport;
use fairdice_charts::CurvesFigure;

use super::{Job, Output, RandomizerRequest, compute};
use crate::AppState;
use crate::problem::Problem;
use crate::respond::{json, png, problem, svg};

/// Reads the request and runs one job, or answers with the API's error document.
async fn one(state: &AppState, query: Option<&str>, job: Job) -> Result<Output, Response> {
    let request =
        RandomizerRequest::from_query(query, &state.limits).map_err(|p| problem(&p, None))?;
    if request.spec.is_empty() {
        let p = Problem::BadRequest("give a randomizer spec: ?spec=deck(values=6)".into());
        return Err(problem(&p, None));
    }
    compute(state, &request, vec![job])
        .await
        .remove(0)
        .map_err(|p| problem(&p, Some(&request.spec)))
}

/// `GET /api/analyze?spec=SPEC&samples=T[&method=…&runs=N&seed=S&droughts=off]`:
/// exactly what `fairdice analyze SPEC --samples T --json` prints (with `--runs N
/// --seed S`, `--exact`, `--no-droughts` for the same options).
pub(super) async fn analyze(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match one(&state, query.as_deref(), Job::Analyze).await {
        Ok(Output::Analysis(report)) => json(StatusCode::OK, report.to_json() + "\n"),
        Ok(_) => unexpected(),
        Err(response) => response,
    }
}

/// `GET /api/sample?spec=SPEC&count=N&seed=S`: exactly what `fairdice sample SPEC
/// --count N --seed S --json` prints (`count` 10 and `seed` 1 when not given).
pub(super) async fn sample(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match one(&state, query.as_deref(), Job::Sample).await {
        Ok(Output::Sample(report)) => json(StatusCode::OK, report.to_json() + "\n"),
        Ok(_) => unexpected(),
        Err(response) => response,
    }
}

/// `GET /api/next?spec=SPEC&history=2,4,7,7`: exactly what `fairdice next SPEC
/// --history 2,4,7,7 --json` prints.
pub(super) async fn next(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match one(&state, query.as_deref(), Job::Next).await {
        Ok(Output::Next(report)) => json(StatusCode::OK, report.to_json() + "\n"),
        Ok(_) => unexpected(),
        Err(response) => response,
    }
}

fn unexpected() -> Response {
    problem(&Problem::Stopped(crate::compute::Stopped::Failed), None)
}

/// The analysis of a chart request (its curves; no droughts).
async fn chart_report(state: &AppState, query: Option<&str>) -> Result<AnalysisReport, Response> {
    match one(state, query, Job::Curves).await? {
        Output::Analysis(report) => Ok(*report),
        _ => Err(unexpected()),
    }
}

/// `GET /chart/analyze.svg?spec=…&samples=T[…]`: the page's entropy and outcome
/// variance curves, the chart `fairdice analyze … --plot FILE.svg` writes.
pub(super) async fn chart_svg(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match chart_report(&state, query.as_deref()).await {
        Ok(report) => svg(&CurvesFigure::analysis(&report).to_chart()),
        Err(response) => response,
    }
}

/// `GET /chart/analyze.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn chart_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match chart_report(&state, query.as_deref()).await {
        Ok(report) => png(CurvesFigure::analysis(&report).to_chart()).await,
        Err(response) => response,
    }
}
