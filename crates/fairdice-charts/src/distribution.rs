//! The distribution chart of `fairdice dist --chart` and the web app's Dice page:
//! one or several [`DistributionReport`]s as bars of one [`Measure`].

use std::collections::BTreeSet;

use fairdice::dice::report::{DistributionReport, Measure};

use crate::bar::{BarChart, Series};

/// Bars of `measure` for each report over the union of their outcomes, so
/// comparisons share one axis (outside its support a distribution has probability
/// 0, and its cumulative chances stay at 0 or 1).
///
/// # Example
/// ```
/// use fairdice::dice::notation::evaluate;
/// use fairdice::dice::report::{DistributionReport, Measure};
/// use fairdice_charts::{Chart, distribution_chart};
///
/// let report = DistributionReport::exact("3d6", &evaluate("3d6")?);
/// let svg = distribution_chart(&[report], Measure::AtLeast).to_svg();
/// assert!(svg.contains("P(X ≥ x)"));
/// # Ok::<(), fairdice::dice::notation::NotationError>(())
/// ```
pub fn distribution_chart(reports: &[DistributionReport], measure: Measure) -> BarChart {
    let names: Vec<&str> = reports.iter().map(|r| r.expression.as_str()).collect();
    let title = match measure {
        Measure::Probability => names.join(" vs "),
        _ => format!("{} ({})", names.join(" vs "), measure.words()),
    };
    let outcomes: BTreeSet<i64> = reports
        .iter()
        .flat_map(|r| r.outcomes.iter().map(|row| row.outcome))
        .collect();
    let mut chart = BarChart::new(title)
        .x_label("outcome")
        .y_label(measure.formula());
    if measure != Measure::Probability {
        chart = chart.y_max(1.0);
    }
    // Labelled outcomes (`as {…}`) are named by their labels.
    if reports.iter().any(DistributionReport::is_labelled) {
        chart = chart
            .x_label("label")
            .category_names(outcomes.iter().map(|&x| (x, reports[0].shown(x))));
    }
    for report in reports {
        let points = outcomes.iter().map(|&x| (x, report.value_at(measure, x)));
        chart = chart.series(Series::new(report.expression.clone(), points));
    }
    chart
}
