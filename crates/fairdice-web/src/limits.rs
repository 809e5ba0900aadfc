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
    /// Expressions compared on one page.
    pub max_expressions: usize,
    /// The longest single expression.
    pub max_expression_bytes: usize,
    /// The deepest nesting of parentheses in an expression (keeps the recursive
    /// parser and evaluator far from the end of a thread's stack).
    pub max_nesting: usize,
    /// Distinct outcomes a distribution may have to be shown or served.
    pub max_outcomes: usize,
    /// Rows of a distribution table on a page (the JSON API has every row).
    pub max_table_rows: usize,
    /// Monte Carlo rolls one request may ask for.
    pub max_runs: u64,
    /// Dice a Monte Carlo request may roll in all (rolls × dice per roll).
    pub max_rolled_dice: u64,
    /// States (attacking × defending armies) of a Risk battle the app solves: the
    /// floating-point sweep holds one number per state.
    pub max_battle_states: u64,
    /// Faces of a Risk die.
    pub max_battle_faces: u64,
    /// Dice a side of a Risk battle may roll at once.
    pub max_battle_dice: u32,
    /// Rows and columns of the Risk page's heat map.
    pub max_battle_grid: u32,
    /// The longest randomizer spec.
    pub max_spec_bytes: usize,
    /// Samples (`T`) one randomizer analysis may cover.
    pub max_samples: usize,
    /// Outcomes one sample request may draw.
    pub max_draws: u64,
    /// Outcomes a history may list before the next-sample distribution.
    pub max_history: usize,
    /// Monte Carlo runs one randomizer analysis may ask for.
    pub max_analysis_runs: u64,
    /// Samples a Monte Carlo analysis may draw in all (runs × T).
    pub max_analysis_draws: u64,
    /// Merged states one step of an exact sweep may hold when exact is forced (the
    /// automatic choice uses the command line's budget, which is no larger).
    pub max_analysis_states: usize,
    /// The longest match a parameter search may measure.
    pub max_tune_samples: usize,
    /// Candidates one parameter search may measure, over all its systems.
    pub max_tune_candidates: usize,
    /// Outcomes a randomizer may have (a draw or a step can cost one unit of work
    /// per outcome, and a draw is never interrupted).
    pub max_randomizer_outcomes: usize,
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
            max_expressions: 6,
            max_expression_bytes: 500,
            max_nesting: 32,
            max_outcomes: 100_000,
            max_table_rows: 1_000,
            max_runs: 10_000_000,
            max_rolled_dice: 1_000_000_000,
            max_battle_states: 4_000_000,
            max_battle_faces: 1_000,
            max_battle_dice: 6,
            max_battle_grid: 60,
            max_spec_bytes: 300,
            max_samples: 1_000,
            max_draws: 10_000,
            max_history: 1_000,
            max_analysis_runs: 1_000_000,
            max_analysis_draws: 100_000_000,
            max_analysis_states: fairdice::analysis::DEFAULT_STATE_BUDGET,
            max_tune_samples: 200,
            max_tune_candidates: 1_000,
            max_randomizer_outcomes: 10_000,
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

/// Reads a request's `runs` parameter: Monte Carlo rolls, 1 to `limits.max_runs`.
pub(crate) fn read_runs(value: &str, limits: &Limits) -> Result<u64, crate::problem::Problem> {
    let bad = crate::problem::Problem::BadRequest;
    let runs: u64 = value
        .parse()
        .map_err(|_| bad(format!("runs must be a whole number, not `{value}`")))?;
    if runs == 0 || runs > limits.max_runs {
        return Err(bad(format!(
            "runs must be between 1 and {}, not {runs}",
            limits.max_runs
        )));
    }
    Ok(runs)
}

/// Reads a request's `seed` parameter.
pub(crate) fn read_seed(value: &str) -> Result<u64, crate::problem::Problem> {
    value.parse().map_err(|_| {
        crate::problem::Problem::BadRequest(format!(
            "seed must be a whole number from 0 to 2^64−1, not `{value}`"
        ))
    })
}

/// The Monte Carlo rolls a page offers when an exact computation is too big.
pub(crate) const OFFERED_RUNS: u64 = 1_000_000;

/// Dice an offered estimate may roll: well under a second of work.
const OFFERED_DICE: u64 = 10_000_000;

/// The rolls to offer for an estimate of `dice` dice per roll: [`OFFERED_RUNS`],
/// or the largest round number (1, 2 or 5 times a power of ten, at least 1,000)
/// that keeps the work within a second or so.
pub(crate) fn offered_runs(dice: u64) -> u64 {
    let fits = OFFERED_DICE / dice.max(1);
    let mut best = 1_000;
    let mut power = 1_000;
    while power <= OFFERED_RUNS {
        for step in [1, 2, 5] {
            let runs = power * step;
            if runs <= fits && runs <= OFFERED_RUNS {
                best = runs;
            }
        }
        power *= 10;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{host_name, offered_runs};

    #[test]
    fn offered_estimates_stay_round_and_quick() {
        assert_eq!(offered_runs(5), 1_000_000);
        assert_eq!(offered_runs(200), 50_000);
        assert_eq!(offered_runs(600), 10_000);
        assert_eq!(offered_runs(u64::MAX), 1_000);
    }

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
