//! The use cases of `fairdice-api` for Python: `dist` as a [`PyDie`], and every
//! use case by name on its JSON request, its report as the JSON document every
//! front-end shares (the Python package wraps it in a typed report class).
//!
//! A use case whose report has a chart (a contest's net score, a battle's
//! survivors, an analysis's curves, the players' totals over a match) is run typed here, so the chart can be drawn
//! from the report when a notebook shows it; every other one goes through
//! [`fairdice_api::run_json`], so a use case added to the API is reachable from
//! Python by its name at once.

use std::sync::Arc;

use fairdice::dice::notation::estimate;
use fairdice::dice::report::{DistributionReport, Method};
use fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH;
use fairdice::{Control, Die};
use fairdice_api::analyze::AnalyzeRequest;
use fairdice_api::contest::ContestRequest;
use fairdice_api::dist::DistRequest;
use fairdice_api::risk::RiskRequest;
use fairdice_api::seats::SeatsRequest;
use fairdice_api::tune::TuneRequest;
use fairdice_api::{DEFAULT_SEED, Document, Error, UseCase};
use pyo3::prelude::*;

use crate::charts;
use crate::compute;
use crate::die::{EstimateInfo, PyDie};

/// The exact distribution of a dice expression, or its Monte Carlo estimate.
#[pyfunction]
#[pyo3(signature = (expression, *, runs=None, seed=DEFAULT_SEED, explode_depth=DEFAULT_EXPLODE_DEPTH, max_steps=None, dialect="fairdice"))]
pub fn dist(
    py: Python<'_>,
    expression: String,
    runs: Option<u64>,
    seed: u64,
    explode_depth: u32,
    max_steps: Option<u64>,
    dialect: &str,
) -> PyResult<PyDie> {
    let dialect =
        dialect
            .parse()
            .map_err(|e: fairdice::dice::notation::dialect::UnknownDialect| {
                pyo3::exceptions::PyValueError::new_err(e.to_string())
            })?;
    let request = DistRequest {
        expression,
        runs,
        seed,
        explode_depth,
        dialect,
    };
    let control = compute::control(max_steps);
    let quick = is_quick(&request);
    let job = move |control: &Control| {
        let report = request.run(control)?;
        if report.values.is_some() {
            // A Die holds numbers; a tuple's joint outcomes are the report's.
            return Err(Error::invalid_input(format!(
                "{} gives a tuple: its joint distribution is fairdice.run(\"dist\", {{\"expression\": …}}).tuples",
                report.expression
            )));
        }
        let die = Die::new(report.outcomes.iter().map(|r| (r.outcome, r.count.clone())))
            .map_err(|e| Error::from_failure(&e))?;
        Ok((die, report))
    };
    let (die, report) = if quick {
        compute::run_here(py, &control, job)?
    } else {
        compute::run(py, &control, job)?
    };
    // Where another dice tool reads the expression otherwise: a warning each.
    for reading in &report.other_readings {
        let message = std::ffi::CString::new(reading.note.clone()).unwrap_or_default();
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            &message,
            1,
        )?;
    }
    Ok(die_of(die, &report))
}

/// Estimated steps up to which an exact distribution is computed on the calling
/// thread: about a millisecond at most (`100d6` is 12,531 steps and 0.5 ms, its
/// counts being 260-bit integers; `20d20kh5` 213,380 steps and 0.3 ms), where
/// handing it to a worker would add two thread wake-ups, tens of microseconds on a
/// virtual machine, and Ctrl-C has nothing to interrupt.
const QUICK_STEPS: f64 = 300_000.0;

/// Never quick: a use case that prices itself as a whole only inside its run.
fn never<U>(_: &U) -> bool {
    false
}

/// True for an exact contest estimated to take microseconds (or whose pools do not
/// parse: it fails at once either way).
fn is_quick_contest(request: &ContestRequest) -> bool {
    request.runs.is_none()
        && request
            .contest(&Control::new())
            .map_or(true, |contest| contest.estimate().steps <= QUICK_STEPS)
}

/// True for an exact request estimated to take microseconds, or one that fails to
/// parse (it fails at once, the same way on either thread).
fn is_quick(request: &DistRequest) -> bool {
    if request.runs.is_some() {
        return false;
    }
    match request.parse() {
        Ok(expr) => estimate(&expr, &request.options()).steps <= QUICK_STEPS,
        Err(_) => true,
    }
}

pub fn die_of(die: Die, report: &DistributionReport) -> PyDie {
    let mut die = PyDie::named(die, Some(report.expression.clone()));
    if report.is_labelled() {
        die.labels = Some(
            report
                .outcomes
                .iter()
                .filter_map(|row| Some((row.outcome, row.label.clone()?)))
                .collect(),
        );
    }
    if let Method::MonteCarlo {
        runs,
        seed,
        mean_standard_error,
    } = report.method
    {
        die.estimate = Some(EstimateInfo {
            runs,
            seed,
            mean_standard_error,
        });
    }
    die
}

/// Draws a report's chart, when it has one.
type ChartFn = Box<dyn Fn() -> Option<String> + Send + Sync>;

/// A use case's report: its JSON document, and its chart on request.
#[pyclass(module = "fairdice._native", name = "Report", frozen)]
pub struct NativeReport {
    json: String,
    chart: ChartFn,
}

#[pymethods]
impl NativeReport {
    /// The report's JSON document (the command line's `--json` output).
    #[getter]
    fn json(&self) -> &str {
        &self.json
    }

    /// The report's chart as an SVG document, or `None` if it has none.
    fn chart_svg(&self) -> Option<String> {
        (self.chart)()
    }
}

/// The names of every use case `run` answers.
#[pyfunction]
pub fn use_cases() -> Vec<&'static str> {
    fairdice_api::USE_CASES.to_vec()
}

/// Runs the use case `name` on its JSON request under the default budget (or
/// `max_steps`), the GIL released and Ctrl-C honoured.
#[pyfunction]
#[pyo3(signature = (name, request, *, max_steps=None))]
pub fn run(
    py: Python<'_>,
    name: String,
    request: String,
    max_steps: Option<u64>,
) -> PyResult<NativeReport> {
    let control = compute::control(max_steps);
    match name.as_str() {
        DistRequest::NAME => typed(py, &control, request, is_quick, charts::dist),
        ContestRequest::NAME => typed(py, &control, request, is_quick_contest, charts::contest),
        RiskRequest::NAME => typed::<RiskRequest>(py, &control, request, never, charts::risk),
        AnalyzeRequest::NAME => {
            typed::<AnalyzeRequest>(py, &control, request, never, charts::analyze)
        }
        TuneRequest::NAME => typed::<TuneRequest>(py, &control, request, never, charts::tune),
        SeatsRequest::NAME => typed::<SeatsRequest>(py, &control, request, never, charts::seats),
        _ => {
            let json = compute::run(py, &control, move |control| {
                fairdice_api::run_json(&name, &request, control)
            })?;
            Ok(NativeReport {
                json,
                chart: Box::new(|| None),
            })
        }
    }
}

/// Runs use case `U` on its JSON request, keeping the typed report for its chart:
/// on the calling thread when `quick` says it takes microseconds, else on a
/// worker.
fn typed<U>(
    py: Python<'_>,
    control: &Control,
    request: String,
    quick: fn(&U) -> bool,
    chart: fn(&U::Report) -> Option<String>,
) -> PyResult<NativeReport>
where
    U: UseCase + Send + 'static,
    U::Report: Send + Sync + 'static,
{
    let request: Result<U, Error> = serde_json::from_str(&request)
        .map_err(|e| Error::bad_request(format!("not a {} request: {e}", U::NAME)));
    let here = request.as_ref().map_or(true, quick);
    let job = move |control: &Control| {
        let report = request?.run(control)?;
        // The API's one writer: compact, and refused past its size limit.
        let json = fairdice_api::write_document(&report, &Document::default())?;
        Ok((json, report))
    };
    let (json, report) = if here {
        compute::run_here(py, control, job)?
    } else {
        compute::run(py, control, job)?
    };
    let report = Arc::new(report);
    Ok(NativeReport {
        json,
        chart: Box::new(move || chart(&report)),
    })
}
