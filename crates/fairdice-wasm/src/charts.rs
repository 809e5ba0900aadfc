//! The charts of each use case's reports, as the native app draws them (the
//! command line's `--plot`, `fairdice serve`'s pages), drawn at the width a page
//! has for them: a narrow screen gets a narrower chart with the same outcomes and
//! legible labels, not a wide one shrunk.

use fairdice::dice::report::DistributionReport;
use fairdice_api::Error;
use fairdice_charts::{Chart, distribution_chart};
use serde::Serialize;

use crate::compute::View;

/// The native app's chart width, in pixels.
pub const WIDE: f64 = fairdice_charts::DEFAULT_WIDTH;
/// The narrowest chart drawn, in pixels.
pub const NARROWEST: u32 = 280;

/// A chart drawn for a page: its name and its SVG document.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    /// What it shows, e.g. `at_least` or `heat_map`.
    pub name: &'static str,
    /// The chart, a standalone SVG document.
    pub svg: String,
}

/// The width and height to draw at for `view`: its width within
/// [`NARROWEST`]..=[`WIDE`], and the native height scaled with it, but never
/// below three fifths of it (a narrow chart is taller than its scale, so its
/// bars keep their height).
pub fn size(view: &View) -> (u32, u32) {
    let width = view.width.clamp(NARROWEST, WIDE as u32);
    let native = fairdice_charts::DEFAULT_HEIGHT;
    let height = (native * f64::from(width) / WIDE).max(native * 0.6);
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
