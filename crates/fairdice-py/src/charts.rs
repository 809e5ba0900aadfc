//! A die's distribution chart as SVG, for notebooks (a report's charts are the
//! use-case layer's, [`fairdice_api::UseCase::charts`]).

use fairdice::dice::report::{DistributionReport, Measure};
use fairdice_charts::{Chart, distribution_chart};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::die::PyDie;

/// The bar chart of `die` over `measure` (`probability`, `at_least`, `at_most`).
///
/// # Errors
/// `ValueError` naming the accepted measures.
pub fn distribution_svg(die: &PyDie, measure: &str) -> PyResult<String> {
    let measure: Measure = measure.parse().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown measure `{measure}`; accepted: probability, at_least, at_most"
        ))
    })?;
    Ok(distribution_chart(&[report(die)], measure).to_svg())
}

/// The report the charts draw, named after the die's expression.
fn report(die: &PyDie) -> DistributionReport {
    let mut report = DistributionReport::exact(&die.label(), &die.die);
    if let Some(labels) = &die.labels {
        for row in &mut report.outcomes {
            row.label = labels.get(&row.outcome).cloned();
        }
    }
    report
}
