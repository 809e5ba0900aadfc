//! Why a request has no answer ([`ApiError`]): a use case's own error, a request
//! that is not one, or a stop of the server's, each with its HTTP status and
//! written as the use-case layer's error document. The API, its URL parameters and
//! the charts all answer with it.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use fairdice::FailureKind;
use fairdice_api::USE_CASES;

use crate::compute::Stopped;

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
        let mut error = fairdice_api::Error::new(kind, code, stopped.to_string());
        error.hint = hint.map(String::from);
        ApiError { status, error }
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
