//! `/api/{use_case}`: every use case of [`fairdice_api`] over HTTP, answering the
//! document `fairdice … --json` prints, byte for byte.
//!
//! - `GET /api/contest?a=5d6&b=5d6&ties=a-wins`: URL parameters mapped onto the
//!   request ([`crate::query`]);
//! - `POST /api/contest` with the request's JSON document as the body (what the
//!   browser app and the npm and Python packages send).
//!
//! A failure is `{"error": …}`, the use-case layer's error document, with the HTTP
//! status of its kind; the server adds its own stops (`timed_out`, `busy`,
//! `out_of_memory`) in the same shape.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use fairdice::FailureKind;
use fairdice_api::{Document, USE_CASES};

use crate::AppState;
use crate::compute::Stopped;
use crate::query;

/// Why a request has no answer, with the HTTP status it is served with.
#[derive(Debug, Clone)]
pub(crate) struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The error document.
    pub error: fairdice_api::Error,
}

impl ApiError {
    /// A use case's own error.
    pub fn from_api(error: fairdice_api::Error) -> ApiError {
        ApiError {
            status: error.http_status(),
            error,
        }
    }

    /// A request that is not one (a bad parameter, a body that is not JSON).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::from_api(fairdice_api::Error::bad_request(message))
    }

    /// A use case the API does not have.
    pub fn not_found(use_case: &str) -> ApiError {
        ApiError {
            status: 404,
            error: fairdice_api::Error::bad_request(format!(
                "there is no use case `{use_case}`; accepted: {}",
                USE_CASES.join(", ")
            )),
        }
    }

    /// A computation the server stopped or never started.
    pub fn stopped(stopped: &Stopped) -> ApiError {
        let (status, kind, code, hint) = match stopped {
            Stopped::TimedOut(_) => (
                422,
                FailureKind::Cancelled,
                "timed_out",
                Some(
                    "the command line has no time limit; a Monte Carlo estimate with fewer runs finishes sooner",
                ),
            ),
            Stopped::Busy(_) => (503, FailureKind::Cancelled, "busy", None),
            Stopped::ShuttingDown => (503, FailureKind::Cancelled, "shutting_down", None),
            Stopped::OutOfMemory(_) => (503, FailureKind::TooLarge, "out_of_memory", None),
            Stopped::Failed => (500, FailureKind::Internal, "failed", None),
        };
        let message = stopped.to_string();
        ApiError {
            status,
            error: fairdice_api::Error {
                kind,
                code,
                rendered: message.clone(),
                message,
                span: None,
                expression: None,
                hint: hint.map(String::from),
                suggestion: None,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.error }).to_string() + "\n";
        json(
            StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body,
        )
    }
}

/// A JSON response.
pub(crate) fn json(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
}

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
