//! Charts as SVG from the chart crate, for notebooks: a die's distribution, and
//! each report's chart where it has one.

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
pub fn report(die: &PyDie) -> DistributionReport {
    DistributionReport::exact(&die.label(), &die.die)
}
