//! The data behind `--plot`: the article's two graphs (entropy per step and outcome
//! variance per step), one line per system, ready for the chart crate.
//!
//! `--plot FILE.csv` writes the series as a table today. SVG and PNG output
//! arrive with the `fairdice-charts` crate (line charts of named series over
//! steps); `write` is the one place to wire it.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::failure::UserError;

/// One named line: `(step, value)` points.
pub struct Series {
    /// The legend entry, e.g. `deck (copies=1, refill_below=6)`.
    pub name: String,
    /// Points in step order.
    pub points: Vec<(f64, f64)>,
}

/// One chart of the figure.
pub struct Panel {
    /// The chart title, e.g. `Entropy before each sample`.
    pub title: String,
    /// The y-axis label.
    pub y_label: String,
    /// Its lines.
    pub series: Vec<Series>,
}

/// What `--plot` draws: panels sharing the x-axis (the step).
pub struct Figure {
    /// The figure's title (drawn by the chart crate; the CSV has no place for it).
    #[allow(dead_code)]
    pub title: String,
    /// The x-axis label.
    pub x_label: String,
    /// The panels, top to bottom.
    pub panels: Vec<Panel>,
}

impl Figure {
    /// The article's two graphs for named `(entropy, outcome variance)` curves.
    pub fn entropy_and_variance(title: String, lines: Vec<(String, &[f64], &[f64])>) -> Figure {
        let points = |values: &[f64]| -> Vec<(f64, f64)> {
            values
                .iter()
                .enumerate()
                .map(|(i, &v)| ((i + 1) as f64, v))
                .collect()
        };
        let entropy = lines
            .iter()
            .map(|(name, e, _)| Series {
                name: name.clone(),
                points: points(e),
            })
            .collect();
        let variance = lines
            .iter()
            .map(|(name, _, v)| Series {
                name: name.clone(),
                points: points(v),
            })
            .collect();
        Figure {
            title,
            x_label: "sample".to_string(),
            panels: vec![
                Panel {
                    title: "Entropy of the next-sample distribution".to_string(),
                    y_label: "entropy (fraction of a fair die's)".to_string(),
                    series: entropy,
                },
                Panel {
                    title: "Outcome variance after each sample".to_string(),
                    y_label: "outcome variance".to_string(),
                    series: variance,
                },
            ],
        }
    }

    /// The figure as CSV: `panel,quantity,series,<x label>,value`.
    pub fn to_csv(&self) -> String {
        let mut out = format!("panel,quantity,series,{},value\n", self.x_label);
        for panel in &self.panels {
            for series in &panel.series {
                for (x, y) in &series.points {
                    let _ = writeln!(
                        out,
                        "\"{}\",\"{}\",\"{}\",{x},{y}",
                        panel.title,
                        panel.y_label,
                        series.name.replace('"', "\"\"")
                    );
                }
            }
        }
        out
    }
}

/// Writes the figure to `path`, by its extension.
///
/// # Errors
/// A [`UserError`] for an extension not supported (yet), an I/O error otherwise.
pub fn write(path: &Path, figure: &Figure) -> anyhow::Result<()> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("csv") => std::fs::write(path, figure.to_csv())
            .with_context(|| format!("could not write {}", path.display())),
        Some("svg" | "png") => Err(UserError::input(format!(
            "--plot {}: SVG and PNG charts arrive with the fairdice-charts crate, which this build \
does not have yet; --plot FILE.csv writes the same series now",
            path.display()
        ))),
        _ => Err(UserError::input(format!(
            "--plot {}: give a file ending in .svg, .png or .csv",
            path.display()
        ))),
    }
}
