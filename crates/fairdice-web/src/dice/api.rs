//! `GET /api/dist`: the `fairdice dist --json` document of one expression; and the
//! Dice page's chart as a standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairdice::dice::report::DistributionReport;
use fairdice_charts::distribution_chart;

use super::{DiceRequest, compute, compute_json};
use crate::AppState;
use crate::problem::Problem;
use crate::respond::{json, png, problem, svg};

/// `GET /api/dist?expr=EXPR[&runs=N&seed=S]`: exactly what `fairdice dist EXPR
/// --json [--runs N --seed S]` prints, or `{"error": …}` with a 4xx/5xx status.
pub(super) async fn dist(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    let request = match DiceRequest::from_query(query.as_deref(), &state.limits) {
        Ok(r) => r,
        Err(p) => return problem(&p, None),
    };
    if request.expressions.len() != 1 {
        let p = Problem::BadRequest("give exactly one expression: /api/dist?expr=3d6".into());
        return problem(&p, None);
    }
    let expression = request.expressions[0].clone();
    match compute_json(&state, &request).await {
        Ok(document) => json(StatusCode::OK, document),
        Err(p) => problem(&p, Some(&expression)),
    }
}

/// The reports of a chart request, or the response explaining why there are none.
async fn chart_reports(
    state: &AppState,
    query: Option<&str>,
) -> Result<(DiceRequest, Vec<DistributionReport>), Response> {
    let request = DiceRequest::from_query(query, &state.limits).map_err(|p| problem(&p, None))?;
    if request.expressions.is_empty() {
        let p = Problem::BadRequest("give at least one expression: ?expr=3d6".into());
        return Err(problem(&p, None));
    }
    let mut reports = Vec::new();
    for (result, expression) in compute(state, &request)
        .await
        .into_iter()
        .zip(&request.expressions)
    {
        reports.push(result.map_err(|p| problem(&p, Some(expression)))?);
    }
    Ok((request, reports))
}

/// `GET /chart/dist.svg?expr=…[&expr=…][&mode=…]`: the Dice page's chart.
pub(super) async fn chart_svg(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match chart_reports(&state, query.as_deref()).await {
        Ok((request, reports)) => svg(&distribution_chart(&reports, request.measure)),
        Err(response) => response,
    }
}

/// `GET /chart/dist.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn chart_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match chart_reports(&state, query.as_deref()).await {
        Ok((request, reports)) => png(distribution_chart(&reports, request.measure)).await,
        Err(response) => response,
    }
}
