//! # fairdice-charts
//!
//! The charts of fairdice, shared by the `fairdice` command and its web app:
//!
//! - [`BarChart`]: one or several distributions over integer outcomes (probability,
//!   at least, at most; contest net scores);
//! - [`HeatMap`]: a grid of values in [0, 1] with a colour scale (Risk odds);
//! - [`LineChart`]: named series over steps 1..T (randomizer curves);
//! - [`attempts_chart`]: the chance of a goal within each number of attempts;
//! - [`distribution_chart`]: the bar chart of one or several dice distributions (a grid for a pair);
//! - [`Stack`]: several charts one above the other in one image;
//! - [`CurvesFigure`]: the article's entropy and outcome-variance graphs of
//!   randomizers, stacked (or as CSV);
//! - [`net_score_chart`]: a contest's net score distribution;
//! - [`seats_chart`]: each player's total over a match against their fair share;
//! - [`win_grid_chart`] and [`survivors_chart`]: a Risk battle's odds over a grid
//!   of starting armies, and the armies left when it ends.
//!
//! Every chart renders to an SVG string ([`Chart::to_svg`]), which the web app
//! inlines in its pages, and to PNG bytes ([`Chart::to_png`]) rasterized from that
//! same SVG. Nothing here reads or writes files.
//!
//! # Design decisions
//! The SVG is written by hand rather than through a plotting library: the charts
//! are few and simple, and owning the markup gives tooltips on every bar, screen-
//! reader titles, CSP-safe attributes and no `id` clashes when several charts share
//! a page. resvg then rasterizes the identical markup with an embedded DejaVu Sans,
//! so the PNG a designer saves from the command line is the chart the browser shows.
#![deny(missing_docs)]

mod bar;
mod battle;
mod contest;
mod curves;
mod distribution;
mod frame;
mod heat;
mod line;
mod palette;
#[cfg(feature = "png")]
pub mod raster;
mod scale;
mod seats;
mod stack;
mod svg;

use thiserror::Error;

pub use bar::{BarChart, Series};
pub use battle::{survivors_chart, win_grid_chart};
pub use contest::net_score_chart;
pub use curves::{CurvesFigure, Panel, Series as CurveSeries};
pub use distribution::{DistributionChart, distribution_chart};
pub use heat::HeatMap;
pub use line::{LineChart, LineSeries, attempts_chart};
pub use palette::{heat_colour, series_colour};
pub use scale::ValueFormat;
pub use seats::{SeatsChart, seats_chart};
pub use stack::Stack;
pub use svg::escape;

/// Default chart width in pixels.
pub const DEFAULT_WIDTH: f64 = 760.0;
/// Default chart height in pixels.
pub const DEFAULT_HEIGHT: f64 = 420.0;

/// Something that draws itself as SVG, and so as PNG.
pub trait Chart {
    /// Width and height in pixels (the SVG's own size).
    fn size(&self) -> (f64, f64);

    /// The chart as a standalone SVG document.
    fn to_svg(&self) -> String;

    /// The chart as PNG bytes, `scale` times its SVG size (feature `png`).
    ///
    /// # Errors
    /// As [`raster::svg_to_png`].
    #[cfg(feature = "png")]
    fn to_png(&self, scale: f32) -> Result<Vec<u8>, ChartError> {
        raster::svg_to_png(&self.to_svg(), scale)
    }
}

/// The largest side of a PNG, in pixels.
pub const MAX_PNG_SIDE: u32 = 8192;

/// Why a chart could not be rasterized.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ChartError {
    /// The SVG could not be parsed.
    #[error("invalid SVG: {0}")]
    Svg(String),
    /// The scaled image would be empty or too large.
    #[error("a {width}×{height} px image is outside 1 to {max} px a side", max = MAX_PNG_SIDE)]
    Size {
        /// The scaled width.
        width: f32,
        /// The scaled height.
        height: f32,
    },
    /// PNG encoding failed.
    #[error("could not encode PNG: {0}")]
    Png(String),
}
