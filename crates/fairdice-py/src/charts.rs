//! Charts as SVG from the chart crate, for notebooks: a die's distribution, and
//! the chart of each report that has one (the command line's `--plot` and the web
//! app's charts, from the same reports).

use fairdice::Die;
use fairdice::analysis::AnalysisReport;
use fairdice::battle::report::BattleReport;
use fairdice::contest::report::ContestReport;
use fairdice::dice::report::{DistributionReport, Measure};
use fairdice::tune::TuneReport;
use fairdice_api::seats::SeatsReport;
use fairdice_charts::{
    Chart, CurvesFigure, Stack, distribution_chart, net_score_chart, seats_chart, survivors_chart,
    win_grid_chart,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::die::PyDie;
use crate::use_cases::die_of;

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

/// A distribution report's chart.
pub fn dist(report: &DistributionReport) -> Option<String> {
    let die = Die::new(report.outcomes.iter().map(|r| (r.outcome, r.count.clone()))).ok()?;
    distribution_svg(&die_of(die, report), "probability").ok()
}

/// A contest's net score distribution.
pub fn contest(report: &ContestReport) -> Option<String> {
    Some(net_score_chart(report).to_svg())
}

/// A battle's survivors, and the grid of odds when the report has one.
pub fn risk(report: &BattleReport) -> Option<String> {
    let title = format!("{} attacking {}", report.attacker, report.defender);
    let mut stack = Stack::new(title).chart(survivors_chart(report));
    if let Some(grid) = &report.table {
        stack = stack.chart(win_grid_chart(grid, &report.rules()));
    }
    Some(stack.to_svg())
}

/// An analysis's entropy and outcome variance per step.
pub fn analyze(report: &AnalysisReport) -> Option<String> {
    Some(CurvesFigure::analysis(report).to_chart().to_svg())
}

/// The tuner's winners' curves.
pub fn tune(report: &TuneReport) -> Option<String> {
    Some(CurvesFigure::tuning(report).to_chart().to_svg())
}

/// Each player's total over the match against their fair share.
pub fn seats(report: &SeatsReport) -> Option<String> {
    Some(seats_chart(&report.analysis).to_svg())
}
