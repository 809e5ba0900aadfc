//! `GET /api/contest`: the `fairdice contest --json` document of two pools; and the
//! Contest page's net score chart as a standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairdice::contest::report::ContestReport;
use fairdice_charts::net_score_chart;

use super::{ContestRequest, compute};
use crate::AppState;
use crate::problem::Problem;
use crate::respond::{json, png, problem, svg};

/// The report of a request with both pools, or the response explaining why there is
/// none.
async fn report(state: &AppState, query: Option<&str>) -> Result<ContestReport, Response> {
    let request =
        ContestRequest::from_query(query, &state.limits).map_err(|p| problem(&p, None))?;
    if request.a.is_empty() || request.b.is_empty() {
        let p = Problem::BadRequest("give both pools: ?a=3d6&b=3d6".into());
        return Err(problem(&p, None));
    }
    compute(state, &request).await.map_err(|p| {
        let expression = match &p {
            Problem::Pool { source, .. } => Some(source.as_str()),
            _ => None,
        };
        problem(&p, expression)
    })
}

/// `GET /api/contest?a=A&b=B[&pairing=P&ties=T]`: exactly what `fairdice contest A
/// B --pairing P --ties T --json` prints, or `{"error": …}` with a 4xx/5xx status.
pub(super) async fn contest(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => json(StatusCode::OK, report.to_json() + "\n"),
        Err(response) => response,
    }
}

/// `GET /chart/contest.svg?a=…&b=…[&pairing=…&ties=…]`: the net score chart.
pub(super) async fn chart_svg(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => svg(&net_score_chart(&report)),
        Err(response) => response,
    }
}

/// `GET /chart/contest.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn chart_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => png(net_score_chart(&report)).await,
        Err(response) => response,
    }
}
