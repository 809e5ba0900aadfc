//! `GET /api/dist`: the `fairdice dist --json` document of one expression; and the
//! Dice page's chart as a standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use fairdice::dice::report::DistributionReport;
use fairdice_charts::{Chart, distribution_chart};

use super::{DiceRequest, compute};
use crate::AppState;
use crate::problem::Problem;

/// A JSON response with `status`.
fn json(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
}

/// A problem as the API's JSON error document.
fn problem(problem: &Problem, expression: Option<&str>) -> Response {
    json(problem.status(), problem.to_json(expression).to_string())
}

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
    match compute(&state, &request).await.remove(0) {
        Ok(report) => json(StatusCode::OK, report.to_json() + "\n"),
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
        Ok((request, reports)) => (
            [(header::CONTENT_TYPE, "image/svg+xml")],
            distribution_chart(&reports, request.measure).to_svg(),
        )
            .into_response(),
        Err(response) => response,
    }
}

/// `GET /chart/dist.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn chart_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    let (request, reports) = match chart_reports(&state, query.as_deref()).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let png = tokio::task::spawn_blocking(move || {
        distribution_chart(&reports, request.measure).to_png(2.0)
    })
    .await;
    match png {
        Ok(Ok(bytes)) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        Ok(Err(error)) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "rendering failed").into_response(),
    }
}
