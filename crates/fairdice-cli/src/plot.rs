//! `--plot`: writes a [`CurvesFigure`] (the article's two graphs, drawn by the
//! chart crate, shared with the web app) as SVG, PNG or CSV by the file's
//! extension.

use std::path::Path;

use anyhow::Context;
use fairdice_charts::CurvesFigure;

use crate::failure::UserError;
use crate::output::write_plot;

/// Writes the figure to `path`: SVG or PNG charts, or CSV, by its extension.
///
/// # Errors
/// A [`UserError`] for another extension, an I/O error otherwise.
pub fn write(path: &Path, figure: &CurvesFigure) -> anyhow::Result<()> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("csv") => std::fs::write(path, figure.to_csv())
            .with_context(|| format!("could not write {}", path.display())),
        Some("svg" | "png") => write_plot(path, &figure.to_chart()),
        _ => Err(UserError::input(format!(
            "--plot {}: give a file ending in .svg, .png or .csv",
            path.display()
        ))),
    }
}
