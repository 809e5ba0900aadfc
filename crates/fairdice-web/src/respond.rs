//! Responses shared by the API and chart routes: JSON documents, problems as the
//! API's JSON error document, and charts as SVG or PNG.

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

/// A problem as the API's JSON error document, with its status.
pub(crate) fn problem(problem: &Problem, expression: Option<&str>) -> Response {
    json(problem.status(), problem.to_json(expression).to_string())
}

/// A chart as an SVG document.
pub(crate) fn svg(chart: &dyn Chart) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], chart.to_svg()).into_response()
}

/// A chart as PNG at twice its size, rasterized on a blocking thread.
pub(crate) async fn png(chart: impl Chart + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(move || chart.to_png(2.0)).await {
        Ok(Ok(bytes)) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        Ok(Err(error)) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "rendering failed").into_response(),
    }
}
