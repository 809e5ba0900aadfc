//! Responses the randomizer and tuner routes share: a JSON document, an API error,
//! and a chart as SVG or as PNG rasterized off the async threads.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use fairdice_charts::Chart;

use crate::problem::Problem;

/// A JSON response with `status`.
pub(crate) fn json(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
}

/// A problem as the API's JSON error document; `input` names what it concerns
/// (a spec, a base expression), if anything.
pub(crate) fn problem(problem: &Problem, input: Option<&str>) -> Response {
    json(problem.status(), problem.to_json(input).to_string())
}

/// A chart as a standalone SVG document.
pub(crate) fn svg(chart: &dyn Chart) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], chart.to_svg()).into_response()
}

/// A chart as PNG at twice its size, rendered on a blocking thread.
pub(crate) async fn png<C: Chart + Send + 'static>(chart: C) -> Response {
    match tokio::task::spawn_blocking(move || chart.to_png(2.0)).await {
        Ok(Ok(bytes)) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        Ok(Err(error)) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "rendering failed").into_response(),
    }
}
