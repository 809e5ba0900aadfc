//! The distribution chart of `fairdice dist --chart` and the web app's Dice page:
//! one or several [`DistributionReport`]s as bars of one [`Measure`].

use std::collections::BTreeSet;

use fairdice::dice::report::{DistributionReport, Measure};

use crate::Chart;
use crate::bar::{BarChart, Series};
use crate::heat::HeatMap;

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
pub fn distribution_chart(reports: &[DistributionReport], measure: Measure) -> DistributionChart {
    match reports {
        [report] => pair_grid(report).map_or_else(
            || DistributionChart::Bars(bars(reports, measure)),
            DistributionChart::Grid,
        ),
        _ => DistributionChart::Bars(bars(reports, measure)),
    }
}

/// A distribution's chart: bars, or for a pair (`(count(p, 5, 6), count(p,
/// 1))`) a grid of the chances of each pair.
#[derive(Debug, Clone)]
pub enum DistributionChart {
    /// Bars of one measure over the outcomes.
    Bars(BarChart),
    /// A pair's chances, its first value down and its second across.
    Grid(HeatMap),
}

impl DistributionChart {
    /// The size in pixels (default 760 × 420; at least 240 × 160).
    #[must_use]
    pub fn size(self, width: u32, height: u32) -> DistributionChart {
        match self {
            DistributionChart::Bars(chart) => DistributionChart::Bars(chart.size(width, height)),
            DistributionChart::Grid(chart) => DistributionChart::Grid(chart.size(width, height)),
        }
    }
}

impl Chart for DistributionChart {
    fn size(&self) -> (f64, f64) {
        match self {
            DistributionChart::Bars(chart) => chart.size(),
            DistributionChart::Grid(chart) => chart.size(),
        }
    }

    fn to_svg(&self) -> String {
        match self {
            DistributionChart::Bars(chart) => chart.to_svg(),
            DistributionChart::Grid(chart) => chart.to_svg(),
        }
    }
}

/// The grid of a pair's chances, coloured against the likeliest pair; `None`
/// for anything but a pair.
fn pair_grid(report: &DistributionReport) -> Option<HeatMap> {
    let grid = report.pair_grid()?;
    // A pair no roll gives is grey, apart from the merely unlikely.
    let values: Vec<Vec<f64>> = grid
        .cells
        .iter()
        .map(|row| row.iter().map(|p| p.unwrap_or(f64::NAN)).collect())
        .collect();
    let peak = report.likeliest().map_or(1.0, |row| row.probability);
    Some(
        HeatMap::new(report.expression.clone())
            .y_label(grid.first)
            .x_label(grid.second)
            .legend_title("P(pair)")
            .rows(grid.rows.iter().map(i64::to_string))
            .columns(grid.columns.iter().map(i64::to_string))
            .values(values)
            .scale_max(peak),
    )
}

/// Bars of `measure` for each report over the union of their outcomes.
fn bars(reports: &[DistributionReport], measure: Measure) -> BarChart {
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
