//! # fairdice-api
//!
//! Everything a user can ask of fairdice, as one request type per use case: its
//! validation, one `run(&request, &Control)` and the report document that *is* the
//! command line's `--json` output, the web API's answer and what the WebAssembly
//! and Python packages return. Front-ends map their inputs (flags, query strings,
//! keyword arguments) onto a request, call [`UseCase::run`] and render the report
//! or the [`Error`]; they never decide exact against Monte Carlo, limits or error
//! kinds themselves.
//!
//! ```
//! use fairdice::Control;
//! use fairdice_api::{UseCase, dist::DistRequest};
//!
//! let report = DistRequest::new("4d6kh3").run(&Control::new())?;
//! assert_eq!(report.mean_fraction().as_deref(), Some("15869/1296"));
//!
//! let error = DistRequest::new("4d6kh3y").run(&Control::new()).unwrap_err();
//! assert_eq!(error.code, "parse");
//! assert_eq!(error.exit_status(), 2);
//! # Ok::<(), fairdice_api::Error>(())
//! ```
//!
//! # Design decisions
//! - A request is plain data with serde defaults, so the same JSON document drives
//!   every front-end; [`run_json`] dispatches by use-case name for the front-ends
//!   that speak JSON only (WebAssembly, scripts).
//! - Budget, cancellation and progress are the [`Control`]'s, passed to `run`, not
//!   fields of the request: the same request runs under the command line's budget
//!   and under the web app's time limit.
//! - One [`Error`] for every use case: a [`FailureKind`](fairdice::FailureKind) that
//!   front-ends turn into exit statuses and HTTP statuses, a stable `code`, the
//!   message with its caret rendering, and where it helps a request that does finish
//!   (a Monte Carlo estimate sized to take seconds).
#![deny(missing_docs)]
// An `Error` carries its message, rendering and suggestion by value so front-ends
// read plain fields; it is built once per failed request, far from any hot path.
#![allow(clippy::result_large_err)]

pub mod analyze;
pub mod contest;
pub mod dist;
pub mod error;
pub mod explain;
pub mod prd;
pub mod randomizer;
pub mod risk;
pub mod roll;
pub mod tune;

use fairdice::Control;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use error::{Error, Suggestion};

/// The default seed of every seeded request: the same everywhere, so a request
/// without a seed gives the same numbers in every front-end.
pub const DEFAULT_SEED: u64 = 1;

/// One thing a user can ask: a request that validates itself and runs under a
/// [`Control`] to a report.
pub trait UseCase: Serialize + DeserializeOwned {
    /// Its name in [`run_json`], the web API's path and the command line.
    const NAME: &'static str;
    /// What it answers.
    type Report: Serialize;

    /// Validates the request and computes its report.
    ///
    /// # Errors
    /// An [`Error`] saying what is wrong with the request, that it is too large
    /// for the control's budget (with a request that finishes), or that the control
    /// cancelled it.
    fn run(&self, control: &Control) -> Result<Self::Report, Error>;
}

/// The names of every use case [`run_json`] answers.
pub const USE_CASES: &[&str] = &[
    dist::DistRequest::NAME,
    roll::RollRequest::NAME,
    contest::ContestRequest::NAME,
    risk::RiskRequest::NAME,
    analyze::AnalyzeRequest::NAME,
    analyze::DroughtsRequest::NAME,
    tune::TuneRequest::NAME,
    randomizer::SampleRequest::NAME,
    randomizer::NextRequest::NAME,
    randomizer::StateRequest::NAME,
    prd::PrdRequest::NAME,
];

/// Runs the use case `name` on a JSON request and returns its JSON report: the
/// entry point of front-ends that speak JSON only.
///
/// # Errors
/// [`Error`] with code `bad_request` for an unknown use case or a request that is
/// not its JSON document; otherwise the use case's own errors.
pub fn run_json(name: &str, request: &str, control: &Control) -> Result<String, Error> {
    fn run<U: UseCase>(request: &str, control: &Control) -> Result<String, Error> {
        let request: U = serde_json::from_str(request)
            .map_err(|e| Error::bad_request(format!("not a {} request: {e}", U::NAME)))?;
        let report = request.run(control)?;
        serde_json::to_string(&report).map_err(|e| Error::internal(e.to_string()))
    }
    match name {
        dist::DistRequest::NAME => run::<dist::DistRequest>(request, control),
        roll::RollRequest::NAME => run::<roll::RollRequest>(request, control),
        contest::ContestRequest::NAME => run::<contest::ContestRequest>(request, control),
        risk::RiskRequest::NAME => run::<risk::RiskRequest>(request, control),
        analyze::AnalyzeRequest::NAME => run::<analyze::AnalyzeRequest>(request, control),
        analyze::DroughtsRequest::NAME => run::<analyze::DroughtsRequest>(request, control),
        tune::TuneRequest::NAME => run::<tune::TuneRequest>(request, control),
        randomizer::SampleRequest::NAME => run::<randomizer::SampleRequest>(request, control),
        randomizer::NextRequest::NAME => run::<randomizer::NextRequest>(request, control),
        randomizer::StateRequest::NAME => run::<randomizer::StateRequest>(request, control),
        prd::PrdRequest::NAME => run::<prd::PrdRequest>(request, control),
        other => Err(Error::bad_request(format!(
            "unknown use case `{other}`; accepted: {}",
            USE_CASES.join(", ")
        ))),
    }
}
