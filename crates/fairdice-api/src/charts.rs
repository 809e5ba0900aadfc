//! What every use case's charts ([`UseCase::charts`](crate::UseCase::charts), in the
//! use case's own file) are drawn with: the [`View`] a front-end asks for, the
//! [`Drawn`] charts it gets, and the size to draw at for the width it has: a narrow
//! screen gets a narrower chart with the same outcomes and legible labels, not a
//! wide one shrunk. The web pages, the npm package and Python draw them through
//! the use cases.

use crate::Error;
use fairdice::dice::report::{Measure, UnknownMeasure};
use fairdice_charts::{Chart, CurvesFigure, LineChart, LineSeries, Stack, ValueFormat};
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

/// The one chart, `name`, of a page that shows one report: drawn from the first.
pub(crate) fn first<R>(
    reports: &[R],
    name: &'static str,
    draw: impl FnOnce(&R) -> String,
) -> Vec<Drawn> {
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
pub(crate) fn curves(figure: &CurvesFigure, view: &View) -> String {
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
        .to_svg()
}
