//! `/api/{use_case}`: every use case of [`fairdice_api`] over HTTP, answering the
//! document `fairdice … --json` prints, byte for byte.
//!
//! - `GET /api/contest?a=5d6&b=5d6&ties=a-wins`: URL parameters mapped onto the
//!   request ([`crate::query`]);
//! - `POST /api/contest` with the request's JSON document as the body (what the
//!   browser app and the npm and Python packages send);
//! - `POST /api/page/dist` with `{"requests": [request, …], "view": {…}}`: what a
//!   page of the web app shows, every report or error and the charts of all of
//!   them, as the browser's wasm module answers it ([`fairdice_api::page`]).
//!
//! A failure is `{"error": …}`, the use-case layer's error document, with the HTTP
//! status of its kind; the server adds its own stops (`timed_out`, `busy`,
//! `out_of_memory`) in the same shape.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use fairdice_api::{Document, USE_CASES};

use crate::AppState;
use crate::compute::Stopped;
use crate::error::{ApiError, json};
use crate::query;

/// `GET /api/{use_case}?…`.
pub(crate) async fn get(
    State(state): State<AppState>,
    Path(use_case): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    match query::request(&use_case, &query::pairs(raw.as_deref()), &[]) {
        Ok(request) => answer(&state, use_case, request.to_string()).await,
        Err(error) => error.into_response(),
    }
}

/// `POST /api/{use_case}` with the request's JSON document.
pub(crate) async fn post(
    State(state): State<AppState>,
    Path(use_case): Path<String>,
    body: Bytes,
) -> Response {
    if !USE_CASES.contains(&use_case.as_str()) {
        return ApiError::not_found(&use_case).into_response();
    }
    match String::from_utf8(body.to_vec()) {
        Ok(request) => answer(&state, use_case, request).await,
        Err(_) => ApiError::bad_request("the body is not UTF-8 text").into_response(),
    }
}

/// What a page posts: its requests of one use case and how to draw their charts.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PageRequest {
    requests: Vec<serde_json::Value>,
    #[serde(default)]
    view: Option<serde_json::Value>,
}

/// `POST /api/page/{use_case}`: a page's requests answered as the wasm module's
/// `compute` answers them, each report at most the server's document limit. The
/// requests run one after another under one control, so the time limit and the
/// memory guard stop the page as a whole.
pub(crate) async fn page(
    State(state): State<AppState>,
    Path(use_case): Path<String>,
    body: Bytes,
) -> Response {
    if !USE_CASES.contains(&use_case.as_str()) {
        return ApiError::not_found(&use_case).into_response();
    }
    let posted: PageRequest = match serde_json::from_slice(&body) {
        Ok(posted) => posted,
        Err(e) => {
            return ApiError::bad_request(format!(
                "not a page's request ({{\"requests\": [...], \"view\": {{...}}}}): {e}"
            ))
            .into_response();
        }
    };
    let requests: Vec<String> = posted.requests.iter().map(ToString::to_string).collect();
    let view = posted.view.map(|v| v.to_string()).unwrap_or_default();
    let max_document = state.limits.max_document_bytes;
    let result = state
        .computer
        .run_each(vec![()], move |(), control| {
            fairdice_api::page::compute_json(&use_case, &requests, &view, max_document, |_| {
                control.clone()
            })
        })
        .await
        .pop();
    match result {
        Some(Ok(text)) => json(StatusCode::OK, text),
        Some(Err(stopped)) => ApiError::stopped(&stopped).into_response(),
        None => ApiError::stopped(&Stopped::Failed).into_response(),
    }
}

/// Runs the request on the server's computer and answers its document.
async fn answer(state: &AppState, use_case: String, request: String) -> Response {
    let document = Document {
        pretty: true,
        max_bytes: state.limits.max_document_bytes,
    };
    let result = state
        .computer
        .run_each(vec![()], move |(), control| {
            fairdice_api::run_json_within(&use_case, &request, control, &document)
        })
        .await
        .pop();
    match result {
        Some(Ok(Ok(mut text))) => {
            text.push('\n');
            json(StatusCode::OK, text)
        }
        Some(Ok(Err(error))) => ApiError::from_api(error).into_response(),
        Some(Err(stopped)) => ApiError::stopped(&stopped).into_response(),
        None => ApiError::stopped(&Stopped::Failed).into_response(),
    }
}
