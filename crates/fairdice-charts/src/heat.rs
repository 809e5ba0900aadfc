//! [`HeatMap`]: a grid of values in [0, 1] with row and column labels and a colour
//! scale legend — e.g. P(attacker wins) for A attackers (columns) against D
//! defenders (rows).

use crate::frame::{self, Area, LABEL_SIZE, PAD, TICK_SIZE};
use crate::palette::{heat_colour, heat_text_colour};
use crate::scale::ValueFormat;
use crate::svg::{Anchor, Svg, TextStyle, text_width, truncate};
use crate::{Chart, DEFAULT_HEIGHT, DEFAULT_WIDTH};

/// Width reserved on the right for the colour scale and its labels.
const LEGEND_WIDTH: f64 = 78.0;
/// Cells narrower or lower than this show no value text.
const MIN_TEXT_CELL: (f64, f64) = (34.0, 16.0);
/// Longest row or column label, in characters.
const MAX_LABEL_CHARS: usize = 12;

/// A grid of values in [0, 1], coloured on the viridis scale.
///
/// # Example
/// ```
/// use fairdice_charts::{Chart, HeatMap};
///
/// let svg = HeatMap::new("P(attacker wins)")
///     .columns(["1", "2"])
///     .rows(["1", "2"])
///     .values(vec![vec![0.42, 0.75], vec![0.11, 0.36]])
///     .to_svg();
/// assert!(svg.contains("42%"));
/// ```
#[derive(Debug, Clone)]
pub struct HeatMap {
    title: String,
    x_label: String,
    y_label: String,
    legend_title: String,
    columns: Vec<String>,
    rows: Vec<String>,
    values: Vec<Vec<f64>>,
    format: ValueFormat,
    width: f64,
    height: f64,
    scale_max: f64,
}

impl HeatMap {
    /// An empty heat map titled `title`, for probabilities.
    pub fn new(title: impl Into<String>) -> HeatMap {
        HeatMap {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            legend_title: String::new(),
            columns: Vec::new(),
            rows: Vec::new(),
            values: Vec::new(),
            format: ValueFormat::Percent,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            scale_max: 1.0,
        }
    }

    /// The title under the columns.
    pub fn x_label(mut self, label: impl Into<String>) -> HeatMap {
        self.x_label = label.into();
        self
    }

    /// The title beside the rows.
    pub fn y_label(mut self, label: impl Into<String>) -> HeatMap {
        self.y_label = label.into();
        self
    }

    /// The title above the colour scale.
    pub fn legend_title(mut self, label: impl Into<String>) -> HeatMap {
        self.legend_title = label.into();
        self
    }

    /// Column labels, left to right.
    pub fn columns<S: Into<String>>(mut self, labels: impl IntoIterator<Item = S>) -> HeatMap {
        self.columns = labels.into_iter().map(Into::into).collect();
        self
    }

    /// Row labels, top to bottom.
    pub fn rows<S: Into<String>>(mut self, labels: impl IntoIterator<Item = S>) -> HeatMap {
        self.rows = labels.into_iter().map(Into::into).collect();
        self
    }

    /// The values, `values[row][column]`, each in [0, 1]; missing or non-finite
    /// cells are grey.
    pub fn values(mut self, values: Vec<Vec<f64>>) -> HeatMap {
        self.values = values;
        self
    }

    /// The value the colour scale tops out at (1 by default): a grid of small
    /// chances coloured against the largest of them.
    pub fn scale_max(mut self, max: f64) -> HeatMap {
        if max.is_finite() && max > 0.0 {
            self.scale_max = max;
        }
        self
    }

    /// How values are written (percentages by default).
    pub fn format(mut self, format: ValueFormat) -> HeatMap {
        self.format = format;
        self
    }

    /// The size in pixels (default 760 × 420; at least 240 × 160).
    pub fn size(mut self, width: u32, height: u32) -> HeatMap {
        self.width = f64::from(width.max(240));
        self.height = f64::from(height.max(160));
        self
    }

    fn value(&self, row: usize, column: usize) -> f64 {
        self.values
            .get(row)
            .and_then(|r| r.get(column))
            .copied()
            .filter(|v| v.is_finite())
            .unwrap_or(f64::NAN)
    }

    fn cell_text(&self, value: f64) -> String {
        match self.format {
            // A chance too small to round to 1% is not shown as none.
            ValueFormat::Percent if value > 0.0 && value < 0.005 => "<1%".to_string(),
            ValueFormat::Percent => format!("{:.0}%", value * 100.0),
            ValueFormat::Number => format!("{value:.2}"),
        }
    }
}

impl Chart for HeatMap {
    fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    fn to_svg(&self) -> String {
        let description = format!(
            "Heat map of {} rows by {} columns.",
            self.rows.len(),
            self.columns.len()
        );
        let mut svg = Svg::new(self.width, self.height, &self.title, &description);
        let top = frame::title(&mut svg, &self.title, self.width);
        let row_labels: Vec<String> = self
            .rows
            .iter()
            .map(|r| truncate(r, MAX_LABEL_CHARS))
            .collect();
        let widest_row = row_labels
            .iter()
            .map(|r| text_width(r, TICK_SIZE))
            .fold(0.0, f64::max);
        let y_title_width = if self.y_label.is_empty() {
            0.0
        } else {
            LABEL_SIZE + 10.0
        };
        let plot = Area {
            left: PAD + y_title_width + widest_row + 8.0,
            top: top + 6.0,
            right: self.width - PAD - LEGEND_WIDTH,
            bottom: self.height - frame::bottom_space(!self.x_label.is_empty()),
        };
        let (n_rows, n_columns) = (self.rows.len().max(1), self.columns.len().max(1));
        let cell_w = plot.width() / n_columns as f64;
        let cell_h = plot.height() / n_rows as f64;
        let show_text = cell_w >= MIN_TEXT_CELL.0 && cell_h >= MIN_TEXT_CELL.1;
        svg.begin_group("cells");
        for (r, row) in self.rows.iter().enumerate() {
            for (c, column) in self.columns.iter().enumerate() {
                let value = self.value(r, c);
                let (x, y) = (plot.left + c as f64 * cell_w, plot.top + r as f64 * cell_h);
                let shown = if value.is_nan() {
                    "n/a".to_string()
                } else {
                    self.format.exact(value)
                };
                let tip = format!("{} {row}, {} {column}: {shown}", self.y_label, self.x_label);
                svg.rect(
                    x,
                    y,
                    cell_w - 1.0,
                    cell_h - 1.0,
                    &heat_colour(value / self.scale_max),
                    tip.trim(),
                );
                if show_text && !value.is_nan() {
                    svg.text(
                        x + cell_w / 2.0,
                        y + cell_h / 2.0 + TICK_SIZE * 0.35,
                        &self.cell_text(value),
                        TextStyle {
                            fill: heat_text_colour(value / self.scale_max),
                            ..TextStyle::ink(TICK_SIZE, Anchor::Middle)
                        },
                    );
                }
            }
        }
        svg.end_group();
        axis_labels(&mut svg, plot, &row_labels, &self.columns, (cell_w, cell_h));
        if !self.y_label.is_empty() {
            svg.text(
                PAD + LABEL_SIZE,
                (plot.top + plot.bottom) / 2.0,
                &self.y_label,
                TextStyle {
                    vertical: true,
                    ..TextStyle::ink(LABEL_SIZE, Anchor::Middle)
                },
            );
        }
        frame::category_axis_title(&mut svg, plot, self.height, &self.x_label);
        self.legend(&mut svg, plot);
        svg.finish()
    }
}

/// Row labels left of the grid and column labels under it, thinned to fit.
fn axis_labels(svg: &mut Svg, plot: Area, rows: &[String], columns: &[String], cell: (f64, f64)) {
    let (cell_w, cell_h) = cell;
    let row_every = ((TICK_SIZE + 2.0) / cell_h).ceil().max(1.0) as usize;
    svg.begin_group("row labels");
    for (r, label) in rows.iter().enumerate().filter(|(r, _)| r % row_every == 0) {
        let y = plot.top + (r as f64 + 0.5) * cell_h + TICK_SIZE * 0.35;
        svg.text(
            plot.left - 6.0,
            y,
            label,
            TextStyle::muted(TICK_SIZE, Anchor::End),
        );
    }
    svg.end_group();
    let widest = columns
        .iter()
        .map(|c| text_width(&truncate(c, MAX_LABEL_CHARS), TICK_SIZE))
        .fold(0.0, f64::max);
    let column_every = ((widest + 6.0) / cell_w).ceil().max(1.0) as usize;
    svg.begin_group("column labels");
    for (c, label) in columns
        .iter()
        .enumerate()
        .filter(|(c, _)| c % column_every == 0)
    {
        let x = plot.left + (c as f64 + 0.5) * cell_w;
        svg.text(
            x,
            plot.bottom + 6.0 + TICK_SIZE,
            &truncate(label, MAX_LABEL_CHARS),
            TextStyle::muted(TICK_SIZE, Anchor::Middle),
        );
    }
    svg.end_group();
}

impl HeatMap {
    /// The colour scale: a vertical bar from its top (1, or the scale's
    /// maximum) to 0 with labels.
    fn legend(&self, svg: &mut Svg, plot: Area) {
        const STRIPES: usize = 64;
        let x = self.width - PAD - LEGEND_WIDTH + 18.0;
        let (top, bottom) = (plot.top + 18.0, plot.bottom);
        let stripe = (bottom - top) / STRIPES as f64;
        svg.begin_group("colour scale");
        if !self.legend_title.is_empty() {
            svg.text(
                x - 4.0,
                plot.top + 6.0,
                &truncate(&self.legend_title, 14),
                TextStyle::ink(TICK_SIZE, Anchor::Start),
            );
        }
        for i in 0..STRIPES {
            let value = 1.0 - (i as f64 + 0.5) / STRIPES as f64;
            svg.rect(
                x,
                top + i as f64 * stripe,
                14.0,
                stripe + 0.5,
                &heat_colour(value),
                "",
            );
        }
        // Labels rounded to the leading digit of a quarter of the scale.
        let quarter = 0.25 * self.scale_max;
        let legend_step = 10f64.powf(quarter.log10().floor());
        for value in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let y = bottom - value * (bottom - top);
            svg.text(
                x + 20.0,
                y + TICK_SIZE * 0.35,
                &self.format.tick(value * self.scale_max, legend_step),
                TextStyle::muted(TICK_SIZE, Anchor::Start),
            );
        }
        svg.end_group();
    }
}
