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
//! - The use cases are listed once, in the one `use_cases!` list of this file: it
//!   writes [`USE_CASES`] and [`visit`], through which [`run_json`], the WebAssembly
//!   module and the Python extension reach every use case by its name. What a
//!   front-end does with any use case (read, run, check, chart) is a method of
//!   [`UseCase`], so a new use case is its module and one line in that list.
//! - One [`Error`] for every use case: a [`FailureKind`](fairdice::FailureKind) that
//!   front-ends turn into exit statuses and HTTP statuses, a stable `code`, the
//!   message with its caret rendering, and where it helps a request that does finish
//!   (a Monte Carlo estimate sized to take seconds).
#![deny(missing_docs)]
// An `Error` carries its message, rendering and suggestion by value so front-ends
// read plain fields; it is built once per failed request, far from any hot path.
#![allow(clippy::result_large_err)]

pub mod analyze;
pub mod audit;
pub mod charts;
pub mod contest;
pub mod dist;
pub mod error;
pub mod explain;
pub mod goal;
pub mod page;
pub mod prd;
pub mod randomizer;
pub mod risk;
pub mod roll;
pub mod seats;
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
pub trait UseCase: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// Its name in [`run_json`], the web API's path and the command line.
    const NAME: &'static str;
    /// What it answers.
    type Report: Serialize + Send + Sync + 'static;

    /// Validates the request and computes its report.
    ///
    /// # Errors
    /// An [`Error`] saying what is wrong with the request, that it is too large
    /// for the control's budget (with a request that finishes), or that the control
    /// cancelled it.
    fn run(&self, control: &Control) -> Result<Self::Report, Error>;

    /// The request read from its JSON document.
    ///
    /// # Errors
    /// [`Error`] with code `bad_request`, saying what is wrong with the document.
    fn from_json(text: &str) -> Result<Self, Error> {
        serde_json::from_str(text)
            .map_err(|e| Error::bad_request(format!("not a {} request: {e}", Self::NAME)))
    }

    /// True when the request is estimated to finish within about a millisecond
    /// (or fails at once), so a front-end may run it on the calling thread rather
    /// than hand it to a worker it can cancel. Use cases that price themselves only
    /// inside [`run`](UseCase::run) say false.
    fn is_quick(&self) -> bool {
        false
    }

    /// Refuses a report whose document would pass `max_bytes`, before it is
    /// written, with a message that says what shows it instead (the writer refuses
    /// past the limit anyway, in general words).
    ///
    /// # Errors
    /// [`Error`] with code `too_big`.
    fn check_document(report: &Self::Report, max_bytes: u64) -> Result<(), Error> {
        let _ = (report, max_bytes);
        Ok(())
    }

    /// The report as its JSON document, as `document` says: refused by
    /// [`check_document`](UseCase::check_document) before it is written, then by
    /// the writer past `document.max_bytes`.
    ///
    /// # Errors
    /// [`Error`] with code `too_big`.
    fn write(report: &Self::Report, document: &Document) -> Result<String, Error> {
        Self::check_document(report, document.max_bytes)?;
        write_document(report, document)
    }

    /// The charts of one or several reports (several are drawn on one axis where
    /// that compares them), drawn as `view` asks; none for a use case without a
    /// picture.
    ///
    /// # Errors
    /// A `bad_request` for a view the charts cannot honour.
    fn charts(reports: &[Self::Report], view: &charts::View) -> Result<Vec<charts::Drawn>, Error> {
        let _ = (reports, view);
        Ok(Vec::new())
    }
}

/// Something done with whichever use case a name picks: [`visit`] calls
/// [`Visitor::visit`] with that use case's request type.
pub trait Visitor {
    /// What the visit gives.
    type Output;
    /// Does it with use case `U`.
    fn visit<U: UseCase>(self) -> Self::Output;
}

/// Lists the use cases once: `module::Request` for each, in the order front-ends
/// show them. Writes [`USE_CASES`] and [`visit`].
macro_rules! use_cases {
    ($($module:ident :: $request:ident),+ $(,)?) => {
        /// The names of every use case [`run_json`] answers.
        pub const USE_CASES: &[&str] = &[$($module::$request::NAME),+];

        /// Calls `visitor` with the use case named `name`.
        ///
        /// # Errors
        /// [`Error`] with code `bad_request` naming the use cases, for an unknown name.
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Result<V::Output, Error> {
            match name {
                $($module::$request::NAME => Ok(visitor.visit::<$module::$request>()),)+
                other => Err(Error::bad_request(format!(
                    "unknown use case `{other}`; accepted: {}",
                    USE_CASES.join(", ")
                ))),
            }
        }
    };
}

use_cases![
    dist::DistRequest,
    roll::RollRequest,
    contest::ContestRequest,
    risk::RiskRequest,
    analyze::AnalyzeRequest,
    analyze::DroughtsRequest,
    tune::TuneRequest,
    randomizer::SampleRequest,
    randomizer::NextRequest,
    randomizer::StateRequest,
    prd::PrdRequest,
    goal::GoalRequest,
    audit::AuditRequest,
    seats::SeatsRequest,
];

/// Runs the use case `name` on a JSON request and returns its JSON report: the
/// entry point of front-ends that speak JSON only. The report is compact and at
/// most [`dist::MAX_DOCUMENT_BYTES`] long; see [`run_json_within`].
///
/// # Errors
/// [`Error`] with code `bad_request` for an unknown use case or a request that is
/// not its JSON document; otherwise the use case's own errors.
pub fn run_json(name: &str, request: &str, control: &Control) -> Result<String, Error> {
    run_json_within(name, request, control, &Document::default())
}

/// How a JSON report is written: indented as the command line prints it, or
/// compact; and the most bytes it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Document {
    /// Indented, as `fairdice … --json` prints it.
    pub pretty: bool,
    /// The most bytes the document may take; past it the request is refused as too
    /// large, before more is written.
    pub max_bytes: u64,
}

impl Default for Document {
    fn default() -> Document {
        Document {
            pretty: false,
            max_bytes: dist::MAX_DOCUMENT_BYTES,
        }
    }
}

/// [`run_json`] writing the report as `document` says.
///
/// # Errors
/// As [`run_json`]; [`Error`] with code `too_big` when the report would pass
/// `document.max_bytes`.
pub fn run_json_within(
    name: &str,
    request: &str,
    control: &Control,
    document: &Document,
) -> Result<String, Error> {
    struct Json<'a> {
        request: &'a str,
        control: &'a Control,
        document: &'a Document,
    }
    impl Visitor for Json<'_> {
        type Output = Result<String, Error>;
        fn visit<U: UseCase>(self) -> Result<String, Error> {
            let report = U::from_json(self.request)?.run(self.control)?;
            U::write(&report, self.document)
        }
    }
    visit(
        name,
        Json {
            request,
            control,
            document,
        },
    )?
}

/// `report` as a JSON document, refused as too large past `document.max_bytes`
/// (the writer stops there: a huge report is never written whole).
///
/// # Errors
/// [`Error`] with code `too_big` past the limit.
pub fn write_document(report: &impl Serialize, document: &Document) -> Result<String, Error> {
    let mut out = Limited {
        bytes: Vec::new(),
        max: document.max_bytes,
    };
    let written = if document.pretty {
        serde_json::to_writer_pretty(&mut out, report)
    } else {
        serde_json::to_writer(&mut out, report)
    };
    match written {
        Ok(()) => String::from_utf8(out.bytes).map_err(|e| Error::internal(e.to_string())),
        Err(e) if e.is_io() => Err(Error::too_big(format!(
            "the report would be longer than {}; ask for less, or use the command line's table output",
            fairdice::control::bytes(document.max_bytes)
        ))),
        Err(e) => Err(Error::internal(e.to_string())),
    }
}

/// A buffer that refuses to grow past `max` bytes.
struct Limited {
    bytes: Vec<u8>,
    max: u64,
}

impl std::io::Write for Limited {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.bytes.len() + buf.len()) as u64 > self.max {
            return Err(std::io::Error::other("the document is over its limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
