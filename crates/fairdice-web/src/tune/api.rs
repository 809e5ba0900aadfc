//! `GET /api/tune`: the `fairdice tune --json` document of a search; and the
//! winners' curves as a standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::{Searched, TuneRequest, compute};
use crate::AppState;
use crate::respond::{json, png, problem, svg};

/// Reads the request and runs the search, or answers with the API's error
/// document.
async fn searched(state: &AppState, query: Option<&str>) -> Result<Searched, Response> {
    let request = TuneRequest::from_query(query, &state.limits).map_err(|p| problem(&p, None))?;
    if let Err(p) = request.tuning(&state.limits) {
        return Err(problem(&p, None));
    }
    compute(state, &request)
        .await
        .map_err(|p| problem(&p, request.base.as_deref()))
}

/// `GET /api/tune?values=6&samples=25[&min_entropy=0.9&systems=deck,dynamic&grid=…&all=1]`:
/// exactly what `fairdice tune --values 6 --samples 25 --json` prints for the same
/// options (`all=1` is `--all`).
pub(super) async fn tune(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match searched(&state, query.as_deref()).await {
        Ok(found) => json(StatusCode::OK, found.report.to_json() + "\n"),
        Err(response) => response,
    }
}

/// `GET /chart/tune.svg?…`: the winners' entropy and outcome-variance curves,
/// the chart `fairdice tune … --plot FILE.svg` writes.
pub(super) async fn chart_svg(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match searched(&state, query.as_deref()).await {
        Ok(found) => svg(&found.figure.to_chart()),
        Err(response) => response,
    }
}

/// `GET /chart/tune.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn chart_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match searched(&state, query.as_deref()).await {
        Ok(found) => png(found.figure.to_chart()).await,
        Err(response) => response,
    }
}
