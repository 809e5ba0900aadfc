//! [`LineChart`]: several named series over steps 1..T — a randomizer's entropy
//! and outcome-variance curves, one chart per panel.

use crate::frame::{self, Area, Legend, PAD};
use crate::palette::series_colour;
use crate::scale::{Linear, Ticks, ValueFormat};
use crate::svg::Svg;
use crate::{Chart, DEFAULT_HEIGHT, DEFAULT_WIDTH};

/// Markers are drawn on every point of series up to this long.
const MAX_MARKED_STEPS: usize = 40;

/// One named curve: its value at steps 1, 2, …
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// Shown in the legend and tooltips.
    pub name: String,
    /// The value at step `i + 1` is `values[i]`; non-finite values break the line.
    pub values: Vec<f64>,
}

impl LineSeries {
    /// A curve named `name`.
    pub fn new(name: impl Into<String>, values: impl IntoIterator<Item = f64>) -> LineSeries {
        LineSeries {
            name: name.into(),
            values: values.into_iter().collect(),
        }
    }
}

/// Curves of several series over steps 1..T on shared axes.
///
/// # Example
/// ```
/// use fairdice_charts::{Chart, LineChart, LineSeries, ValueFormat};
///
/// let chart = LineChart::new("Entropy")
///     .format(ValueFormat::Number)
///     .series(LineSeries::new("deck", [2.58, 2.32, 2.0]));
/// assert!(chart.to_svg().contains("deck"));
/// ```
#[derive(Debug, Clone)]
pub struct LineChart {
    title: String,
    x_label: String,
    y_label: String,
    format: ValueFormat,
    from_zero: bool,
    width: f64,
    height: f64,
    series: Vec<LineSeries>,
}

impl LineChart {
    /// An empty chart titled `title`, for plain numbers, with the value axis from 0.
    pub fn new(title: impl Into<String>) -> LineChart {
        LineChart {
            title: title.into(),
            x_label: "step".to_string(),
            y_label: String::new(),
            format: ValueFormat::Number,
            from_zero: true,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            series: Vec::new(),
        }
    }

    /// The title under the step axis (default `step`).
    pub fn x_label(mut self, label: impl Into<String>) -> LineChart {
        self.x_label = label.into();
        self
    }

    /// The title beside the value axis.
    pub fn y_label(mut self, label: impl Into<String>) -> LineChart {
        self.y_label = label.into();
        self
    }

    /// How values are written (plain numbers by default).
    pub fn format(mut self, format: ValueFormat) -> LineChart {
        self.format = format;
        self
    }

    /// Whether the value axis starts at 0 (default) or at the smallest value.
    pub fn from_zero(mut self, from_zero: bool) -> LineChart {
        self.from_zero = from_zero;
        self
    }

    /// The size in pixels (default 760 × 420; at least 240 × 160).
    pub fn size(mut self, width: u32, height: u32) -> LineChart {
        self.width = f64::from(width.max(240));
        self.height = f64::from(height.max(160));
        self
    }

    /// Adds a series.
    pub fn series(mut self, series: LineSeries) -> LineChart {
        self.series.push(series);
        self
    }
}

impl Chart for LineChart {
    fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    fn to_svg(&self) -> String {
        let steps = self
            .series
            .iter()
            .map(|s| s.values.len())
            .max()
            .unwrap_or(0);
        let names: Vec<&str> = self.series.iter().map(|s| s.name.as_str()).collect();
        let description = format!(
            "Line chart of {} over steps 1 to {steps}.",
            names.join(", ")
        );
        let mut svg = Svg::new(self.width, self.height, &self.title, &description);
        let mut top = frame::title(&mut svg, &self.title, self.width);
        if !self.series.is_empty() {
            let names = self.series.iter().map(|s| s.name.as_str());
            let legend = Legend::series(names, top, self.width);
            legend.draw(&mut svg);
            top += legend.height;
        }
        let finite = || {
            self.series
                .iter()
                .flat_map(|s| s.values.iter().copied())
                .filter(|v| v.is_finite())
        };
        let low = finite().fold(f64::INFINITY, f64::min);
        let high = finite().fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = if low.is_finite() {
            (if self.from_zero { low.min(0.0) } else { low }, high)
        } else {
            (0.0, 1.0)
        };
        let ticks = Ticks::new(low, high, 5);
        let plot = Area {
            left: frame::value_axis_width(&ticks, self.format, !self.y_label.is_empty()),
            top: top + 6.0,
            right: self.width - PAD - 8.0,
            bottom: self.height - frame::bottom_space(!self.x_label.is_empty()),
        };
        let y = frame::value_axis(&mut svg, plot, &ticks, self.format, &self.y_label);
        frame::category_axis_title(&mut svg, plot, self.height, &self.x_label);
        let last = steps.max(2) as f64;
        let x = Linear {
            domain: (1.0, last),
            range: (plot.left, plot.right),
        };
        step_ticks(&mut svg, plot, x, last);
        for (s, series) in self.series.iter().enumerate() {
            let colour = series_colour(s);
            svg.begin_group(&series.name);
            let mut d = String::new();
            let mut pen_down = false;
            for (i, &v) in series.values.iter().enumerate() {
                if !v.is_finite() {
                    pen_down = false;
                    continue;
                }
                let command = if pen_down { 'L' } else { 'M' };
                d.push_str(&format!(
                    "{command}{:.2} {:.2} ",
                    x.map(i as f64 + 1.0),
                    y.map(v)
                ));
                pen_down = true;
            }
            if !d.is_empty() {
                svg.path(d.trim_end(), colour, 2.0, "none", 0.0);
            }
            if series.values.len() <= MAX_MARKED_STEPS {
                for (i, &v) in series.values.iter().enumerate() {
                    if v.is_finite() {
                        let tip =
                            format!("{}, step {}: {}", series.name, i + 1, self.format.exact(v));
                        svg.dot(x.map(i as f64 + 1.0), y.map(v), 3.0, colour, &tip);
                    }
                }
            }
            svg.end_group();
        }
        svg.finish()
    }
}

/// Labels steps 1..=last at round intervals (always including step 1).
fn step_ticks(svg: &mut Svg, plot: Area, x: Linear, last: f64) {
    let target = ((plot.width() / 70.0) as usize).clamp(2, 12);
    let ticks = Ticks::new(0.0, last, target);
    let step = ticks.step.max(1.0);
    let mut values = vec![1.0];
    values.extend(
        ticks
            .values()
            .into_iter()
            .map(|v| (v / step).round() * step)
            .filter(|&v| v > 1.0 + step * 0.4 && v <= last + 1e-9),
    );
    frame::step_axis(svg, plot, x, &values, "step axis");
}

/// The chance of a goal within each number of attempts: `cumulative[i]` is
/// P(met within `i + 1` attempts), a rising line from attempt 1 (`fairdice goal
/// --plot`, the Randomizers page's goal).
pub fn attempts_chart(goal: &str, cumulative: &[f64]) -> LineChart {
    LineChart::new(format!("Attempts until {goal}"))
        .x_label("attempts")
        .y_label("P(done within)")
        .series(LineSeries::new(
            "P(done within N attempts)",
            cumulative.iter().copied(),
        ))
}
