//! `GET /api/risk`: the `fairdice risk --json` document of a battle; and the Risk
//! page's charts — the armies left and the heat map — as standalone SVG or PNG.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairdice::battle::report::BattleReport;
use fairdice_charts::{HeatMap, survivors_chart, win_grid_chart};

use super::{RiskRequest, compute, compute_grid};
use crate::AppState;
use crate::problem::Problem;
use crate::respond::{json, png, problem, svg};

/// The report of a request naming both armies, or the response explaining why
/// there is none.
async fn report(state: &AppState, query: Option<&str>) -> Result<BattleReport, Response> {
    let request = RiskRequest::from_query(query).map_err(|p| problem(&p, None))?;
    if request.attacker.is_none() || request.defender.is_none() {
        let p = Problem::BadRequest("give both armies: ?attacker=10&defender=10".into());
        return Err(problem(&p, None));
    }
    compute(state, &request)
        .await
        .map_err(|p| problem(&p, None))
}

/// The heat map of a request's rules and grid, or the response explaining why not.
async fn heat_map(state: &AppState, query: Option<&str>) -> Result<HeatMap, Response> {
    let request = RiskRequest::from_query(query).map_err(|p| problem(&p, None))?;
    let grid = compute_grid(state, &request)
        .await
        .map_err(|p| problem(&p, None))?;
    Ok(win_grid_chart(&grid, &request.rules))
}

/// `GET /api/risk?attacker=A&defender=D[&rule=…&faces=…&attacker_dice=…&defender_dice=…&per_roll=1&table=N&float=1]`:
/// exactly what `fairdice risk A D [--rule …] [--per-roll] [--table N] [--float]
/// --json` prints, or `{"error": …}` with a 4xx/5xx status.
pub(super) async fn risk(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => json(StatusCode::OK, report.to_json() + "\n"),
        Err(response) => response,
    }
}

/// `GET /chart/risk-survivors.svg?attacker=…&defender=…[&rule=…]`: the armies
/// each side has left when the battle ends.
pub(super) async fn survivors_svg(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => svg(&survivors_chart(&report)),
        Err(response) => response,
    }
}

/// `GET /chart/risk-survivors.png?…`: the same chart as PNG, at twice its size.
pub(super) async fn survivors_png(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    match report(&state, query.as_deref()).await {
        Ok(report) => png(survivors_chart(&report)).await,
        Err(response) => response,
    }
}

/// `GET /chart/risk-grid.svg?rule=…&faces=…&attacker_dice=…&defender_dice=…&grid=N`:
/// the heat map of P(attacker wins) for A, D = 1..N, as `fairdice risk --plot`
/// draws it.
pub(super) async fn grid_svg(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match heat_map(&state, query.as_deref()).await {
        Ok(chart) => svg(&chart),
        Err(response) => response,
    }
}

/// `GET /chart/risk-grid.png?…`: the same heat map as PNG, at twice its size.
pub(super) async fn grid_png(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    match heat_map(&state, query.as_deref()).await {
        Ok(chart) => png(chart).await,
        Err(response) => response,
    }
}
