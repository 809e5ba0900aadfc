//! The charts of each use case's reports ([`UseCase::charts`](crate::UseCase::charts)),
//! drawn by the chart crate at the width a front-end has for them: a narrow screen
//! gets a narrower chart with the same outcomes and legible labels, not a wide one
//! shrunk. The web pages, the npm package and Python draw them from here.

use crate::Error;
use crate::goal::GoalReport;
use crate::risk::RiskReport;
use crate::seats::SeatsReport;
use fairdice::analysis::AnalysisReport;
use fairdice::contest::report::ContestReport;
use fairdice::dice::report::DistributionReport;
use fairdice::dice::report::{Measure, UnknownMeasure};
use fairdice::tune::TuneReport;
use fairdice_charts::{
    Chart, CurvesFigure, LineChart, LineSeries, Stack, ValueFormat, attempts_chart,
    distribution_chart, net_score_chart, seats_chart, survivors_chart, win_grid_chart,
};
use serde::{Deserialize, Serialize};

/// How a front-end wants its charts drawn.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct View {
    /// What distribution charts show, one chart each: `probability`, `at_least`,
    /// `at_most` (a page that draws all three switches between them at once).
    pub measures: Vec<String>,
    /// The width to draw charts at, in pixels (the room the page has for them;
    /// labels stay legible and every outcome keeps its bar).
    pub width: u32,
    /// Draw no charts (the npm package's plain calls).
    pub charts: bool,
}

impl Default for View {
    fn default() -> View {
        View {
            measures: vec!["probability".to_string()],
            width: WIDE as u32,
            charts: true,
        }
    }
}

impl View {
    /// The measures distribution charts show.
    ///
    /// # Errors
    /// A `bad_request` naming the measures accepted.
    pub fn measures(&self) -> Result<Vec<Measure>, Error> {
        self.measures
            .iter()
            .map(|m| {
                m.parse()
                    .map_err(|e: UnknownMeasure| Error::bad_request(e.to_string()))
            })
            .collect()
    }
}

/// The native app's chart width, in pixels.
pub const WIDE: f64 = fairdice_charts::DEFAULT_WIDTH;
/// The narrowest chart drawn, in pixels.
pub const NARROWEST: u32 = 280;

/// A chart drawn for a front-end: its name and its SVG document.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    /// What it shows, e.g. `at_least` or `heat_map`.
    pub name: &'static str,
    /// The chart, a standalone SVG document.
    pub svg: String,
}

/// The least height a chart is drawn at: a narrow chart keeps a plot tall enough
/// for its axis title and legend.
pub const LOWEST: f64 = 340.0;

/// The width and height to draw at for `view`: its width within
/// [`NARROWEST`]..=[`WIDE`], and the native height scaled with it, but never below
/// [`LOWEST`].
pub fn size(view: &View) -> (u32, u32) {
    let width = view.width.clamp(NARROWEST, WIDE as u32);
    let native = fairdice_charts::DEFAULT_HEIGHT;
    let height = (native * f64::from(width) / WIDE).max(LOWEST);
    (width, height.round() as u32)
}

/// The Dice page's charts: every report on one axis, one chart per measure the
/// view asks for, named by the measure (`probability`, `at_least`, `at_most`).
///
/// # Errors
/// An unknown measure.
pub fn distribution(reports: &[DistributionReport], view: &View) -> Result<Vec<Drawn>, Error> {
    let (width, height) = size(view);
    Ok(view
        .measures()?
        .into_iter()
        .map(|measure| Drawn {
            name: measure.as_str(),
            svg: distribution_chart(reports, measure)
                .size(width, height)
                .to_svg(),
        })
        .collect())
}

/// The Contest page's chart: the net score of the (one) contest.
///
/// # Errors
/// None; the signature is every use case's.
pub fn contest(reports: &[ContestReport], view: &View) -> Result<Vec<Drawn>, Error> {
    let (width, height) = size(view);
    Ok(first(reports, "net_score", |report| {
        net_score_chart(report).size(width, height).to_svg()
    }))
}

/// The Risk page's charts: the armies left when the battle ends, and the heat map
/// of P(attacker wins) when the report has its table. The heat map is square-ish:
/// as tall as it is wide on a phone.
///
/// # Errors
/// None; the signature is every use case's.
pub fn battle(reports: &[RiskReport], view: &View) -> Result<Vec<Drawn>, Error> {
    let (width, height) = size(view);
    let mut drawn = Vec::new();
    if let Some(report) = reports.first().map(|r| &r.battle) {
        drawn.push(Drawn {
            name: "survivors",
            svg: survivors_chart(report).size(width, height).to_svg(),
        });
        if let Some(table) = &report.table {
            let side = height.max(width.min(fairdice_charts::DEFAULT_HEIGHT as u32));
            drawn.push(Drawn {
                name: "heat_map",
                svg: win_grid_chart(table, &report.rules())
                    .size(width, side)
                    .to_svg(),
            });
        }
    }
    Ok(drawn)
}

/// The Randomizers page's chart: the entropy and outcome-variance curves.
///
/// # Errors
/// None; the signature is every use case's.
pub fn analysis(reports: &[AnalysisReport], view: &View) -> Result<Vec<Drawn>, Error> {
    Ok(first(reports, "curves", |report| {
        curves(&CurvesFigure::analysis(report), view).to_svg()
    }))
}

/// The Seats page's chart: each player's total over the match.
///
/// # Errors
/// None; the signature is every use case's.
pub fn seats(reports: &[SeatsReport], view: &View) -> Result<Vec<Drawn>, Error> {
    let (width, height) = size(view);
    Ok(first(reports, "totals", |report| {
        seats_chart(&report.analysis).size(width, height).to_svg()
    }))
}

/// The Randomizers page's goal chart: the chance within each number of
/// attempts.
///
/// # Errors
/// None; the signature is every use case's.
pub fn goal(reports: &[GoalReport], view: &View) -> Result<Vec<Drawn>, Error> {
    let (width, height) = size(view);
    Ok(first(reports, "attempts", |report| {
        attempts_chart(&report.goal, &report.cumulative())
            .size(width, height)
            .to_svg()
    }))
}

/// The Tuner page's chart: the curves of each system's winner.
///
/// # Errors
/// None; the signature is every use case's.
pub fn tuning(reports: &[TuneReport], view: &View) -> Result<Vec<Drawn>, Error> {
    Ok(first(reports, "curves", |report| {
        curves(&CurvesFigure::tuning(report), view).to_svg()
    }))
}

/// The one chart, `name`, of a page that shows one report: drawn from the first.
fn first<R>(reports: &[R], name: &'static str, draw: impl FnOnce(&R) -> String) -> Vec<Drawn> {
    reports
        .first()
        .map(|report| Drawn {
            name,
            svg: draw(report),
        })
        .into_iter()
        .collect()
}

/// The figure's panels stacked as [`CurvesFigure::to_chart`] stacks them, each
/// drawn at the view's size.
fn curves(figure: &CurvesFigure, view: &View) -> Stack {
    let (width, height) = size(view);
    figure
        .panels
        .iter()
        .fold(Stack::new(figure.title.clone()), |stack, panel| {
            let chart = panel.series.iter().fold(
                LineChart::new(panel.title.clone())
                    .x_label(figure.x_label.clone())
                    .y_label(panel.y_label.clone())
                    .format(ValueFormat::Number)
                    .size(width, height),
                |chart, series| {
                    chart.series(LineSeries::new(
                        series.name.clone(),
                        series.points.iter().map(|&(_, y)| y),
                    ))
                },
            );
            stack.chart(chart)
        })
}
