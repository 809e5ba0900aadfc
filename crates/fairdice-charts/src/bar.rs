//! [`BarChart`]: one or several distributions over integer outcomes on shared axes —
//! dice distributions (probability, at least, at most) and contest net scores.
//!
//! # Design decisions
//! Outcomes are categories: each present outcome gets a slot of equal width, in
//! order, so `3d6*1000` shows sixteen readable bars rather than sixteen hairlines
//! spread over fifteen thousand units. Several series share each slot as grouped
//! bars while bars stay at least a couple of pixels wide; past that (long ranges or
//! many series) each series becomes a step line over the slots, one series alone a
//! filled step area, so large distributions stay a few kilobytes of SVG.

use std::collections::BTreeSet;

use crate::frame::{self, Area, Legend, PAD, TICK_SIZE};
use crate::palette::series_colour;
use crate::scale::{Ticks, ValueFormat};
use crate::svg::{AXIS, Anchor, Svg, TextStyle, text_width};
use crate::{Chart, DEFAULT_HEIGHT, DEFAULT_WIDTH};

/// One named series: a value for each integer outcome it has.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Shown in the legend and tooltips.
    pub name: String,
    /// `(outcome, value)` pairs; outcomes a series lacks are drawn as 0.
    pub points: Vec<(i64, f64)>,
}

impl Series {
    /// A series named `name`.
    pub fn new(name: impl Into<String>, points: impl IntoIterator<Item = (i64, f64)>) -> Series {
        Series {
            name: name.into(),
            points: points.into_iter().collect(),
        }
    }
}

/// Bars of one or several series over integer outcomes.
///
/// # Example
/// ```
/// use fairdice_charts::{BarChart, Chart, Series};
///
/// let d6 = Series::new("d6", (1..=6).map(|x| (x, 1.0 / 6.0)));
/// let svg = BarChart::new("One die").x_label("outcome").series(d6).to_svg();
/// assert!(svg.starts_with("<svg") && svg.contains("One die"));
/// ```
#[derive(Debug, Clone)]
pub struct BarChart {
    title: String,
    x_label: String,
    y_label: String,
    format: ValueFormat,
    y_max: Option<f64>,
    width: f64,
    height: f64,
    series: Vec<Series>,
    /// Names shown for outcomes instead of their numbers (labelled outcomes).
    names: std::collections::BTreeMap<i64, String>,
}

impl BarChart {
    /// An empty chart titled `title`, for probabilities (shown as percentages).
    pub fn new(title: impl Into<String>) -> BarChart {
        BarChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            format: ValueFormat::Percent,
            y_max: None,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            series: Vec::new(),
            names: std::collections::BTreeMap::new(),
        }
    }

    /// The title under the outcome axis.
    pub fn x_label(mut self, label: impl Into<String>) -> BarChart {
        self.x_label = label.into();
        self
    }

    /// The title beside the value axis (e.g. `P(X ≥ x)`).
    pub fn y_label(mut self, label: impl Into<String>) -> BarChart {
        self.y_label = label.into();
        self
    }

    /// How values are written (percentages by default).
    pub fn format(mut self, format: ValueFormat) -> BarChart {
        self.format = format;
        self
    }

    /// Extends the value axis to at least `max` (e.g. 1 for cumulative charts).
    pub fn y_max(mut self, max: f64) -> BarChart {
        self.y_max = Some(max);
        self
    }

    /// The size in pixels (default 760 × 420; at least 240 × 160).
    pub fn size(mut self, width: u32, height: u32) -> BarChart {
        self.width = f64::from(width.max(240));
        self.height = f64::from(height.max(160));
        self
    }

    /// Adds a series.
    pub fn series(mut self, series: Series) -> BarChart {
        self.series.push(series);
        self
    }

    /// Shows these outcomes by name (labels) instead of by number.
    pub fn category_names(mut self, names: impl IntoIterator<Item = (i64, String)>) -> BarChart {
        self.names.extend(names);
        self
    }

    /// Outcome `x` as the chart shows it: its name, or its number.
    fn shown(&self, x: i64) -> String {
        self.names.get(&x).cloned().unwrap_or_else(|| x.to_string())
    }

    /// A description of the chart for screen readers.
    fn description(&self, categories: &[i64]) -> String {
        let names: Vec<&str> = self.series.iter().map(|s| s.name.as_str()).collect();
        match (categories.first(), categories.last()) {
            (Some(&low), Some(&high)) => format!(
                "Bar chart of {} over outcomes {} to {}.",
                names.join(", "),
                self.shown(low),
                self.shown(high)
            ),
            _ => "Empty bar chart.".to_string(),
        }
    }
}

impl Chart for BarChart {
    fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    fn to_svg(&self) -> String {
        let categories: Vec<i64> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|&(x, _)| x))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut svg = Svg::new(
            self.width,
            self.height,
            &self.title,
            &self.description(&categories),
        );
        let mut top = frame::title(&mut svg, &self.title, self.width);
        if self.series.len() > 1 {
            let names = self.series.iter().map(|s| s.name.as_str());
            let legend = Legend::series(names, top, self.width);
            legend.draw(&mut svg);
            top += legend.height;
        }
        let values = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1));
        let (low, high) = values
            .filter(|v| v.is_finite())
            .fold((0.0f64, self.y_max.unwrap_or(0.0)), |(l, h), v| {
                (l.min(v), h.max(v))
            });
        let ticks = Ticks::new(low, high, 5);
        let plot = Area {
            left: frame::value_axis_width(&ticks, self.format, !self.y_label.is_empty()),
            top: top + 6.0,
            right: self.width - PAD,
            bottom: self.height - frame::bottom_space(!self.x_label.is_empty()),
        };
        let scale = frame::value_axis(&mut svg, plot, &ticks, self.format, &self.y_label);
        frame::category_axis_title(&mut svg, plot, self.height, &self.x_label);
        if categories.is_empty() {
            svg.text(
                (plot.left + plot.right) / 2.0,
                (plot.top + plot.bottom) / 2.0,
                "no data",
                TextStyle::muted(frame::LABEL_SIZE, Anchor::Middle),
            );
            return svg.finish();
        }
        let band = plot.width() / categories.len() as f64;
        let shown: Vec<String> = categories.iter().map(|&c| self.shown(c)).collect();
        category_ticks(&mut svg, plot, &categories, &shown, band);
        let baseline = scale.map(0.0);
        let slots = |series: &Series| -> Vec<f64> {
            let mut by_outcome = vec![0.0; categories.len()];
            for &(x, v) in &series.points {
                if let Ok(i) = categories.binary_search(&x) {
                    by_outcome[i] = if v.is_finite() { v } else { 0.0 };
                }
            }
            by_outcome
        };
        let n = self.series.len();
        let group = band * if n == 1 { 0.8 } else { 0.86 };
        let bar_width = group / n as f64;
        for (s, series) in self.series.iter().enumerate() {
            let colour = series_colour(s);
            let values = slots(series);
            svg.begin_group(&series.name);
            if bar_width >= 2.0 {
                for (i, &v) in values.iter().enumerate() {
                    let x =
                        plot.left + i as f64 * band + (band - group) / 2.0 + s as f64 * bar_width;
                    let y = scale.map(v.max(0.0));
                    let tip = format!(
                        "{}, {}: {}",
                        series.name,
                        self.shown(categories[i]),
                        self.format.exact(v)
                    );
                    svg.rect(x, y, bar_width, scale.map(v.min(0.0)) - y, colour, &tip);
                }
            } else {
                let mut d = format!("M{:.2} {:.2}", plot.left, baseline);
                for (start, end, v) in pixel_runs(&values, band) {
                    let x = plot.left + start as f64 * band;
                    let x_end = plot.left + end as f64 * band;
                    d.push_str(&format!(" L{:.2} {:.2} H{:.2}", x, scale.map(v), x_end));
                }
                d.push_str(&format!(" L{:.2} {:.2}", plot.right, baseline));
                if n == 1 {
                    d.push('Z');
                    svg.path(&d, "none", 0.0, colour, 0.9);
                } else {
                    svg.path(&d, colour, 2.0, "none", 0.0);
                }
            }
            svg.end_group();
        }
        svg.line(plot.left, baseline, plot.right, baseline, AXIS, 1.0);
        svg.finish()
    }
}

/// Groups slots `[start, end)` that share a pixel column (when slots are narrower
/// than a pixel), each with its largest value, so a step path has at most one step
/// per pixel however many outcomes there are.
fn pixel_runs(values: &[f64], band: f64) -> Vec<(usize, usize, f64)> {
    let per_pixel = if band >= 1.0 {
        1
    } else {
        (1.0 / band).ceil() as usize
    };
    values
        .chunks(per_pixel)
        .enumerate()
        .map(|(i, chunk)| {
            let start = i * per_pixel;
            let top = chunk.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (start, start + chunk.len(), top)
        })
        .collect()
}

/// Labels some outcomes under the plot: every k-th, k chosen (1, 2, 5, 10, …) so
/// labels do not overlap; for a run of consecutive integers, the multiples of k.
fn category_ticks(svg: &mut Svg, plot: Area, categories: &[i64], shown: &[String], band: f64) {
    let widest = shown
        .iter()
        .map(|c| text_width(c, TICK_SIZE))
        .fold(0.0, f64::max);
    let needed = (widest + 8.0) / band;
    let mut every: i64 = 1;
    for k in [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000,
    ] {
        every = k;
        if k as f64 >= needed {
            break;
        }
    }
    let consecutive = categories.len() > 1
        && categories
            .windows(2)
            .all(|pair| pair[1].checked_sub(pair[0]) == Some(1));
    svg.begin_group("outcome axis");
    for (i, &c) in categories.iter().enumerate() {
        let labelled = if consecutive {
            c.rem_euclid(every) == 0
        } else {
            i as i64 % every == 0
        };
        if !labelled {
            continue;
        }
        let x = plot.left + (i as f64 + 0.5) * band;
        svg.line(x, plot.bottom, x, plot.bottom + 4.0, AXIS, 1.0);
        svg.text(
            x,
            plot.bottom + 6.0 + TICK_SIZE,
            &shown[i],
            TextStyle::muted(TICK_SIZE, Anchor::Middle),
        );
    }
    svg.end_group();
}
