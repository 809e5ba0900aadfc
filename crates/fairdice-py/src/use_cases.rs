//! The use cases of `fairdice-api` for Python: `dist` as a [`PyDie`], and every
//! use case by name on its JSON request, its report as the JSON document every
//! front-end shares (the Python package wraps it in a typed report class).
//!
//! Every use case is reached by its name through [`fairdice_api::visit`], run
//! typed so its charts ([`UseCase::charts`]) can be drawn from the report when a
//! notebook shows it: a use case added to the API is reachable from Python, with
//! its charts, at once.

use std::sync::Arc;

use fairdice::dice::report::{DistributionReport, Method};
use fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH;
use fairdice::{Control, Die};
use fairdice_api::charts::{Drawn, View};
use fairdice_api::dist::DistRequest;
use fairdice_api::{DEFAULT_SEED, Document, Error, UseCase, Visitor};
use pyo3::prelude::*;

use crate::compute;
use crate::die::{EstimateInfo, PyDie};
use crate::error::raise;

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
    let quick = request.is_quick();
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

/// Draws a report's charts.
type ChartsFn = Box<dyn Fn() -> Result<Vec<Drawn>, Error> + Send + Sync>;

/// A use case's report: its JSON document, and its charts on request.
#[pyclass(module = "fairdice._native", name = "Report", frozen)]
pub struct NativeReport {
    json: String,
    charts: ChartsFn,
}

#[pymethods]
impl NativeReport {
    /// The report's JSON document (the command line's `--json` output).
    #[getter]
    fn json(&self) -> &str {
        &self.json
    }

    /// The report's charts, `(name, SVG document)` each, as the web app draws
    /// them; none for a use case without a picture.
    fn charts(&self, py: Python<'_>) -> PyResult<Vec<(&'static str, String)>> {
        let drawn = (self.charts)().map_err(|e| raise(py, &e))?;
        Ok(drawn.into_iter().map(|d| (d.name, d.svg)).collect())
    }

    /// The report's first chart as an SVG document, or `None` if it has none.
    fn chart_svg(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let drawn = (self.charts)().map_err(|e| raise(py, &e))?;
        Ok(drawn.into_iter().next().map(|d| d.svg))
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
    let typed = Typed {
        py,
        control: compute::control(max_steps),
        request,
    };
    fairdice_api::visit(&name, typed).map_err(|e| raise(py, &e))?
}

/// One JSON request of whichever use case [`run`] names, run typed so its charts
/// can be drawn from the report: on the calling thread when the request is quick
/// ([`UseCase::is_quick`]), else on a worker.
struct Typed<'py> {
    py: Python<'py>,
    control: Control,
    request: String,
}

impl Visitor for Typed<'_> {
    type Output = PyResult<NativeReport>;

    fn visit<U: UseCase>(self) -> PyResult<NativeReport> {
        let request = U::from_json(&self.request);
        let here = request.as_ref().map_or(true, U::is_quick);
        let job = move |control: &Control| {
            let report = request?.run(control)?;
            // The API's one writer: compact, and refused past its size limit.
            let json = U::write(&report, &Document::default())?;
            Ok((json, report))
        };
        let (json, report) = if here {
            compute::run_here(self.py, &self.control, job)?
        } else {
            compute::run(self.py, &self.control, job)?
        };
        let report = Arc::new(report);
        Ok(NativeReport {
            json,
            charts: Box::new(move || U::charts(std::slice::from_ref(&*report), &View::default())),
        })
    }
}
