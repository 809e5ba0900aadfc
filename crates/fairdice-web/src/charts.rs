//! `/chart/{name}.svg` and `/chart/{name}.png`: the chart of a use case's report,
//! the one `--plot` writes on the command line and the browser app draws, for
//! scripts and documents that want an image.
//!
//! | name | request | chart |
//! |---|---|---|
//! | `dist` | `dist`'s parameters; `expr` repeatable (up to six, on one chart); `mode=probability\|at_least\|at_most` | the distributions |
//! | `contest` | `contest`'s | the net score |
//! | `risk-survivors` | `risk`'s | the armies left |
//! | `risk-grid` | `risk`'s rules and `grid=N` (default 20) | P(attacker wins) for A, D = 1..N |
//! | `analyze` | `analyze`'s | entropy and outcome variance per step |
//! | `tune` | `tune`'s | the winners' curves |

use axum::extract::{Path, RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use fairdice::Control;
use fairdice::dice::report::Measure;
use fairdice_api::UseCase;
use fairdice_api::analyze::AnalyzeRequest;
use fairdice_api::contest::ContestRequest;
use fairdice_api::dist::DistRequest;
use fairdice_api::risk::RiskRequest;
use fairdice_api::tune::TuneRequest;
use fairdice_charts::{
    Chart, CurvesFigure, distribution_chart, net_score_chart, survivors_chart, win_grid_chart,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::AppState;
use crate::compute::Stopped;
use crate::error::ApiError;
use crate::query;

/// Distributions one chart compares.
pub const MAX_COMPARED: usize = 6;

/// The heat map's size when `grid` is not given.
pub const DEFAULT_GRID: u32 = 20;

/// The largest heat map.
pub const MAX_GRID: u32 = 100;

/// How a chart is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// `GET /chart/{name}.{svg|png}?…`.
pub(crate) async fn chart(
    State(state): State<AppState>,
    Path(file): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let (name, format) = match file.rsplit_once('.') {
        Some((name, "svg")) => (name.to_string(), Format::Svg),
        Some((name, "png")) => (name.to_string(), Format::Png),
        _ => {
            return ApiError::bad_request(format!("charts are NAME.svg or NAME.png, not `{file}`"))
                .into_response();
        }
    };
    let pairs = query::pairs(raw.as_deref());
    let result = state
        .computer
        .run_each(vec![()], move |(), control| {
            draw(&name, &pairs, control).and_then(|chart| render(chart.as_ref(), format))
        })
        .await
        .pop();
    match result {
        Some(Ok(Ok(bytes))) => {
            let content_type = match format {
                Format::Svg => "image/svg+xml",
                Format::Png => "image/png",
            };
            ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
        }
        Some(Ok(Err(error))) => error.into_response(),
        Some(Err(stopped)) => ApiError::stopped(&stopped).into_response(),
        None => ApiError::stopped(&Stopped::Failed).into_response(),
    }
}

/// The chart `name` of the request in `pairs`, computed under `control`.
fn draw(
    name: &str,
    pairs: &[(String, String)],
    control: &Control,
) -> Result<Box<dyn Chart + Send>, ApiError> {
    Ok(match name {
        "dist" => {
            let measure = match pairs.iter().find(|(k, _)| k == "mode") {
                Some((_, mode)) => mode
                    .parse::<Measure>()
                    .map_err(|e| ApiError::bad_request(e.to_string()))?,
                None => Measure::Probability,
            };
            let expressions: Vec<&str> = pairs
                .iter()
                .filter(|(k, v)| k == "expr" && !v.trim().is_empty())
                .map(|(_, v)| v.as_str())
                .collect();
            if expressions.is_empty() || expressions.len() > MAX_COMPARED {
                return Err(ApiError::bad_request(format!(
                    "give 1 to {MAX_COMPARED} expressions: expr=4d6kh3&expr=3d6"
                )));
            }
            let rest: Vec<(String, String)> =
                pairs.iter().filter(|(k, _)| k != "expr").cloned().collect();
            let mut reports = Vec::new();
            for expression in expressions {
                let request: DistRequest = typed_with("dist", &rest, &["mode"], expression)?;
                reports.push(request.run(control).map_err(ApiError::from_api)?);
            }
            Box::new(distribution_chart(&reports, measure))
        }
        "contest" => {
            let request: ContestRequest = typed("contest", pairs, &[])?;
            Box::new(net_score_chart(&run(&request, control)?))
        }
        "risk-survivors" => {
            let request: RiskRequest = typed("risk", pairs, &[])?;
            Box::new(survivors_chart(&run(&request, control)?.battle))
        }
        "risk-grid" => {
            let grid = match pairs.iter().find(|(k, _)| k == "grid") {
                Some((_, n)) => n
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_GRID).contains(n)),
                None => Some(DEFAULT_GRID),
            }
            .ok_or_else(|| ApiError::bad_request(format!("grid must be 1 to {MAX_GRID}")))?;
            // The rules alone; the armies of the heat map are 1..=grid.
            let mut with_armies = pairs.to_vec();
            with_armies.retain(|(k, _)| k != "attacker" && k != "defender");
            with_armies.push(("attacker".into(), "2".into()));
            with_armies.push(("defender".into(), "1".into()));
            let request: RiskRequest = typed("risk", &with_armies, &["grid"])?;
            let rules = request.rules();
            let table = fairdice::battle::win_table(grid, &rules, control)
                .map_err(|e| ApiError::from_api(fairdice_api::Error::from_failure(&e)))?;
            Box::new(win_grid_chart(&table, &rules))
        }
        "analyze" => {
            let mut request: AnalyzeRequest = typed("analyze", pairs, &[])?;
            request.droughts = false;
            Box::new(CurvesFigure::analysis(&run(&request, control)?).to_chart())
        }
        "tune" => {
            let request: TuneRequest = typed("tune", pairs, &[])?;
            Box::new(CurvesFigure::tuning(&run(&request, control)?).to_chart())
        }
        other => {
            return Err(ApiError {
                status: 404,
                error: fairdice_api::Error::bad_request(format!(
                    "there is no chart `{other}`; accepted: dist, contest, risk-survivors, risk-grid, analyze, tune"
                )),
            });
        }
    })
}

/// The typed request of `use_case` from URL parameters.
fn typed<R: DeserializeOwned>(
    use_case: &str,
    pairs: &[(String, String)],
    extra: &[&str],
) -> Result<R, ApiError> {
    let value = query::request(use_case, pairs, extra)?;
    serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("not a {use_case} request: {e}")))
}

/// [`typed`] with an expression filled in (a dist request needs one to read).
fn typed_with<R: DeserializeOwned>(
    use_case: &str,
    pairs: &[(String, String)],
    extra: &[&str],
    expression: &str,
) -> Result<R, ApiError> {
    let mut value = query::request(use_case, pairs, extra)?;
    if let Value::Object(fields) = &mut value {
        fields.insert("expression".into(), Value::from(expression));
    }
    serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("not a {use_case} request: {e}")))
}

/// Runs a use case, its error as the API's.
fn run<U: UseCase>(request: &U, control: &Control) -> Result<U::Report, ApiError> {
    request.run(control).map_err(ApiError::from_api)
}

/// The chart as SVG text or as PNG at twice its size.
fn render(chart: &(dyn Chart + Send), format: Format) -> Result<Vec<u8>, ApiError> {
    match format {
        Format::Svg => Ok(chart.to_svg().into_bytes()),
        #[cfg(feature = "png")]
        Format::Png => chart.to_png(2.0).map_err(|e| {
            ApiError::from_api(fairdice_api::Error::internal(format!(
                "the chart could not be drawn as PNG: {e}"
            )))
        }),
        #[cfg(not(feature = "png"))]
        Format::Png => Err(ApiError::bad_request(
            "this server was built without PNG charts (feature `png`); ask for .svg",
        )),
    }
}
