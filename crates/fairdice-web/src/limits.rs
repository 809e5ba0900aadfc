//! [`Limits`]: what one request may ask of the server, and the middleware that
//! turns away requests over the size limits before any handler runs.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// What one request may ask of the server. The computation budget itself is the
/// command line's ([`fairdice::dice::notation::Options::default`]); these limits
/// add what a server needs on top: a clock, a queue, and sizes.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Wall-clock time for a request's computations, queueing included; past it the
    /// computation is cancelled and the page says so.
    pub time_limit: Duration,
    /// Computations running at once in the slow lane (those that did not finish
    /// within [`quick_slice`](Self::quick_slice)); further ones wait their turn.
    pub max_concurrent: usize,
    /// How long a computation may run in the quick lane before it moves to the
    /// slow lane (and starts again there).
    pub quick_slice: Duration,
    /// Computations running at once in the quick lane.
    pub quick_concurrent: usize,
    /// Memory one computation may plan to hold (its control's memory budget).
    pub job_memory: u64,
    /// The process's resident memory past which running computations are
    /// stopped (Linux; see the memory guard in `compute.rs`).
    pub max_memory: u64,
    /// The largest JSON document of exact counts an API answer may carry.
    pub max_document_bytes: u64,
    /// Time a client has to send a request's headers, and to start its next
    /// request on a kept-alive connection; past it the connection is closed.
    pub header_read_timeout: Duration,
    /// Connections served at once; further ones wait in the listen queue until
    /// one closes.
    pub max_connections: usize,
    /// The longest query string accepted (longer: 414).
    pub max_query_bytes: usize,
    /// The largest request body accepted (larger: 413).
    pub max_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time_limit: Duration::from_secs(5),
            max_concurrent: 2,
            quick_slice: Duration::from_millis(150),
            quick_concurrent: 16,
            job_memory: 1 << 30,
            max_memory: 4 << 30,
            max_document_bytes: 32 << 20,
            header_read_timeout: Duration::from_secs(5),
            max_connections: 512,
            max_query_bytes: 8 * 1024,
            max_body_bytes: 64 * 1024,
        }
    }
}

/// Refuses a request whose query string is longer than the limit, with 414.
pub(crate) async fn reject_long_queries(
    State(max_query_bytes): State<usize>,
    request: Request,
    next: Next,
) -> Response {
    let length = request.uri().query().map_or(0, str::len);
    if length > max_query_bytes {
        return (
            StatusCode::URI_TOO_LONG,
            format!("the query is {length} bytes; the limit is {max_query_bytes}\n"),
        )
            .into_response();
    }
    next.run(request).await
}

/// Refuses a request whose `Host` is not one of `allowed` with 421, so a web page
/// elsewhere cannot reach this local server through DNS rebinding; and a request
/// without exactly one well-formed `Host` (a name, an optional port from 0 to
/// 65535) with 400.
pub(crate) async fn check_host(
    State(allowed): State<std::sync::Arc<Vec<String>>>,
    request: Request,
    next: Next,
) -> Response {
    let mut hosts = request.headers().get_all(axum::http::header::HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return (
            StatusCode::BAD_REQUEST,
            "a request needs exactly one Host header\n",
        )
            .into_response();
    };
    // A request in absolute form (`GET http://elsewhere.example/ HTTP/1.1`) names
    // its host in the target too, and that one must be local as well.
    if let Some(authority) = request.uri().authority()
        && !allowed
            .iter()
            .any(|a| a.eq_ignore_ascii_case(authority.host()))
    {
        return (
            StatusCode::MISDIRECTED_REQUEST,
            "this fairdice server answers only requests addressed to it by a local name\n",
        )
            .into_response();
    }
    match host.to_str().ok().and_then(host_name) {
        None => (
            StatusCode::BAD_REQUEST,
            "the Host header is not a host name with an optional port\n",
        )
            .into_response(),
        Some(name) if !allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) => (
            StatusCode::MISDIRECTED_REQUEST,
            "this fairdice server answers only requests addressed to it by a local name\n",
        )
            .into_response(),
        Some(_) => next.run(request).await,
    }
}

/// The host name of a `Host` header without its port (`[::1]:8077` → `[::1]`),
/// or `None` if it is not a host with an optional port of at most 65535.
fn host_name(host: &str) -> Option<&str> {
    let authority: axum::http::uri::Authority = host.parse().ok()?;
    let end = authority.host().len();
    if host.contains('@') || end == 0 {
        return None;
    }
    let name = &host[..end];
    // Nothing after the name but an optional port that fits 16 bits.
    match &host[end..] {
        "" => Some(name),
        rest => {
            let port = rest.strip_prefix(':')?;
            let digits = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
            (digits && port.parse::<u16>().is_ok()).then_some(name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::host_name;

    #[test]
    fn host_names_drop_the_port_and_malformed_hosts_have_none() {
        assert_eq!(host_name("localhost:8077"), Some("localhost"));
        assert_eq!(host_name("127.0.0.1"), Some("127.0.0.1"));
        assert_eq!(host_name("[::1]:8077"), Some("[::1]"));
        for bad in [
            "localhost:99999",
            "localhost:80a",
            "user@localhost",
            "",
            ":80",
            "a b",
        ] {
            assert_eq!(host_name(bad), None, "{bad}");
        }
    }
}
