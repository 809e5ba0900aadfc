//! The net score chart of a contest (the web app's Contest page): P(net = x) for
//! each net score, A's pairs won minus B's.

use fairdice::contest::report::ContestReport;

use crate::bar::{BarChart, Series};

/// Bars of P(net = x) for every possible net score of `report`.
///
/// # Example
/// ```
/// use fairdice::contest::report::ContestReport;
/// use fairdice::contest::Contest;
/// use fairdice::{Control, Die, Pool};
/// use fairdice_charts::{Chart, net_score_chart};
///
/// let three_d6 = Pool::new(&Die::standard(6)?, 3)?;
/// let contest = Contest::new(&three_d6, &three_d6)?;
/// let report = ContestReport::new("3d6", "3d6", &contest, &contest.evaluate(&Control::new())?);
/// let svg = net_score_chart(&report).to_svg();
/// assert!(svg.contains("Net score: 3d6 vs 3d6"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn net_score_chart(report: &ContestReport) -> BarChart {
    let name = format!("{} vs {}", report.a, report.b);
    let title = format!(
        "Net score: {name} ({} pairing, {})",
        report.pairing,
        report.ties.words()
    );
    BarChart::new(title)
        .x_label("net score (pairs A wins − pairs B wins)")
        .y_label("P(net = x)")
        .series(Series::new(
            name,
            report.net.iter().map(|row| (row.score, row.probability)),
        ))
}
