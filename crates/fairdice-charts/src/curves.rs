//! [`CurvesFigure`]: the article's two graphs — the entropy of the next-sample
//! distribution before each sample and the outcome variance after it — one line
//! per randomizer, as stacked line charts or as CSV. `fairdice analyze --plot`,
//! `fairdice tune --plot` and the web app's Randomizers and Tuner pages all draw
//! through here.

use std::fmt::Write as _;

use fairdice::analysis::AnalysisReport;
use fairdice::tune::TuneReport;

use crate::{LineChart, LineSeries, Stack, ValueFormat};

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
pub struct CurvesFigure {
    /// The figure's title (the CSV has no place for it).
    pub title: String,
    /// The x-axis label.
    pub x_label: String,
    /// The panels, top to bottom.
    pub panels: Vec<Panel>,
}

impl CurvesFigure {
    /// The article's two graphs for named `(entropy, outcome variance)` curves.
    pub fn entropy_and_variance(
        title: String,
        lines: Vec<(String, &[f64], &[f64])>,
    ) -> CurvesFigure {
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
        CurvesFigure {
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

impl CurvesFigure {
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

impl CurvesFigure {
    /// The curves of one analysis: `{spec} over {T} samples`.
    pub fn analysis(report: &AnalysisReport) -> CurvesFigure {
        let entropy = report.entropy_curve();
        let variance = report.outcome_variance_curve();
        CurvesFigure::entropy_and_variance(
            format!("{} over {} samples", report.spec, report.samples),
            vec![(report.spec.clone(), &entropy[..], &variance[..])],
        )
    }

    /// The curves of each system's winner in a search, over the longest match.
    pub fn tuning(report: &TuneReport) -> CurvesFigure {
        // The second panel draws the measure the search minimised.
        let deviation = report.fairness == "base_deviation";
        let lines = report
            .systems
            .iter()
            .filter_map(|s| {
                let (params, curves) = (s.params.as_ref()?, s.curves.as_ref()?);
                Some((
                    format!("{} ({params})", s.system),
                    &curves.entropy[..],
                    if deviation {
                        &curves.base_deviation[..]
                    } else {
                        &curves.outcome_variance[..]
                    },
                ))
            })
            .collect();
        let mut figure = CurvesFigure::entropy_and_variance(
            format!(
                "Best systems, {}, {} samples, mean entropy ≥ {}",
                report.outcomes_text(),
                report.samples_text(),
                report.min_entropy
            ),
            lines,
        );
        if deviation {
            figure.panels[1].title = "Deviation from the base after each sample".to_string();
            figure.panels[1].y_label = "base deviation (plain dice: 1)".to_string();
        }
        figure
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Chart;
    use fairdice::analysis::{AnalysisOptions, analyze};
    use fairdice::randomizer::Spec;

    #[test]
    fn an_analysis_draws_two_panels_and_writes_every_step_as_csv() {
        let deck = Spec::build("deck(values=4)").expect("valid");
        let analysis =
            analyze(&deck, &AnalysisOptions::new(8), &fairdice::Control::new()).expect("small");
        let figure = CurvesFigure::analysis(&AnalysisReport::new(&deck, &analysis));
        assert_eq!(figure.panels.len(), 2);
        assert_eq!(figure.panels[1].series[0].points.len(), 8);
        // A header and 8 steps in each of the two panels.
        assert_eq!(figure.to_csv().lines().count(), 1 + 2 * 8);
        let svg = figure.to_chart().to_svg();
        assert!(svg.contains("Outcome variance after each sample"));
        assert_eq!(svg.matches("<svg").count(), 3);
    }
}
