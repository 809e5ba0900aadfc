//! The data behind `--plot`: the article's two graphs (entropy per step and outcome
//! variance per step), one line per system, ready for the chart crate.
//!
//! `--plot FILE.svg|png` draws the panels as line charts stacked in one image
//! (the chart crate's [`Stack`]); `--plot FILE.csv` writes the same series as a
//! table.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use fairdice_charts::{LineChart, LineSeries, Stack, ValueFormat};

use crate::failure::UserError;
use crate::output::write_plot;

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
    /// The figure's title (the CSV has no place for it).
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

impl Figure {
    /// The panels as line charts stacked in one image.
    pub fn to_chart(&self) -> Stack {
        self.panels
            .iter()
            .fold(Stack::new(self.title.clone()), |stack, panel| {
                let chart = panel.series.iter().fold(
                    LineChart::new(panel.title.clone())
                        .x_label(self.x_label.clone())
                        .y_label(panel.y_label.clone())
                        .format(ValueFormat::Number),
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
}

/// Writes the figure to `path`: SVG or PNG charts, or CSV, by its extension.
///
/// # Errors
/// A [`UserError`] for another extension, an I/O error otherwise.
pub fn write(path: &Path, figure: &Figure) -> anyhow::Result<()> {
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
