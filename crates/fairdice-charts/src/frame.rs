//! The parts every chart shares: title, legend, the plot area's place, the value
//! axis with its grid, and axis titles.

use crate::palette::series_colour;
use crate::scale::{Linear, Ticks, ValueFormat};
use crate::svg::{AXIS, Anchor, GRID, Svg, TextStyle, text_width, truncate};

/// Font size of the title.
pub(crate) const TITLE_SIZE: f64 = 16.0;
/// Font size of axis titles and legend entries.
pub(crate) const LABEL_SIZE: f64 = 13.0;
/// Font size of tick labels.
pub(crate) const TICK_SIZE: f64 = 12.0;
/// Outer padding.
pub(crate) const PAD: f64 = 14.0;
/// Longest legend entry, in characters.
const MAX_LEGEND_CHARS: usize = 40;

/// A rectangle in pixels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Area {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Area {
    pub fn width(&self) -> f64 {
        self.right - self.left
    }

    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

/// Draws the title at the top left; returns the y below it.
pub(crate) fn title(svg: &mut Svg, text: &str, width: f64) -> f64 {
    let max_chars = ((width - 2.0 * PAD) / (TITLE_SIZE * 0.6)).max(8.0) as usize;
    svg.text(
        PAD,
        PAD + TITLE_SIZE,
        &truncate(text, max_chars),
        TextStyle {
            bold: true,
            ..TextStyle::ink(TITLE_SIZE, Anchor::Start)
        },
    );
    PAD + TITLE_SIZE + 10.0
}

/// Where each legend entry goes when the entries wrap within `width`.
pub(crate) struct Legend {
    entries: Vec<(String, &'static str, f64, f64)>,
    /// The height the legend takes.
    pub height: f64,
}

impl Legend {
    /// Lays out `entries` (name, colour) from `top`, wrapping within `width`. No
    /// legend is drawn for a single unnamed series.
    pub fn layout(entries: &[(String, &'static str)], top: f64, width: f64) -> Legend {
        if entries.is_empty() {
            return Legend {
                entries: Vec::new(),
                height: 0.0,
            };
        }
        let row_height = LABEL_SIZE + 8.0;
        let (mut x, mut y) = (PAD, top);
        let mut placed = Vec::new();
        for (name, colour) in entries {
            let name = truncate(name, MAX_LEGEND_CHARS);
            let entry_width = 12.0 + 6.0 + text_width(&name, LABEL_SIZE) + 18.0;
            if x > PAD && x + entry_width > width - PAD {
                x = PAD;
                y += row_height;
            }
            placed.push((name, *colour, x, y));
            x += entry_width;
        }
        Legend {
            entries: placed,
            height: y - top + row_height + 4.0,
        }
    }

    /// The legend of named series, each in its palette colour ([`series_colour`]).
    pub fn series<'a>(names: impl IntoIterator<Item = &'a str>, top: f64, width: f64) -> Legend {
        let entries: Vec<(String, &'static str)> = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| (name.to_string(), series_colour(i)))
            .collect();
        Legend::layout(&entries, top, width)
    }

    /// Draws the legend.
    pub fn draw(&self, svg: &mut Svg) {
        if self.entries.is_empty() {
            return;
        }
        svg.begin_group("legend");
        for (name, colour, x, y) in &self.entries {
            svg.rect(*x, y + 2.0, 12.0, 12.0, colour, "");
            svg.text(
                x + 18.0,
                y + 12.5,
                name,
                TextStyle::ink(LABEL_SIZE, Anchor::Start),
            );
        }
        svg.end_group();
    }
}

/// The width the value axis needs on the left: its title and its widest tick label.
pub(crate) fn value_axis_width(ticks: &Ticks, format: ValueFormat, has_title: bool) -> f64 {
    let widest = ticks
        .values()
        .iter()
        .map(|&v| text_width(&format.tick(v, ticks.step), TICK_SIZE))
        .fold(0.0, f64::max);
    PAD + if has_title { LABEL_SIZE + 10.0 } else { 0.0 } + widest + 8.0
}

/// Draws horizontal grid lines with tick labels on the left of `plot`, and the axis
/// title rotated beside them; returns the value → y scale.
pub(crate) fn value_axis(
    svg: &mut Svg,
    plot: Area,
    ticks: &Ticks,
    format: ValueFormat,
    axis_title: &str,
) -> Linear {
    let scale = Linear {
        domain: (ticks.low, ticks.high),
        range: (plot.bottom, plot.top),
    };
    svg.begin_group("value axis");
    for value in ticks.values() {
        let y = scale.map(value);
        let colour = if value.abs() < ticks.step * 1e-6 {
            AXIS
        } else {
            GRID
        };
        svg.line(plot.left, y, plot.right, y, colour, 1.0);
        svg.text(
            plot.left - 6.0,
            y + TICK_SIZE * 0.35,
            &format.tick(value, ticks.step),
            TextStyle::muted(TICK_SIZE, Anchor::End),
        );
    }
    if !axis_title.is_empty() {
        let x = PAD + LABEL_SIZE;
        let y = (plot.top + plot.bottom) / 2.0;
        svg.text(
            x,
            y,
            axis_title,
            TextStyle {
                vertical: true,
                ..TextStyle::ink(LABEL_SIZE, Anchor::Middle)
            },
        );
    }
    svg.end_group();
    scale
}

/// Draws the horizontal axis of a line chart under `plot` (a group labelled
/// `label`): its line, and a tick labelled with each of `values` (whole numbers).
pub(crate) fn step_axis(svg: &mut Svg, plot: Area, x: Linear, values: &[f64], label: &str) {
    svg.begin_group(label);
    svg.line(plot.left, plot.bottom, plot.right, plot.bottom, AXIS, 1.0);
    for &v in values {
        let px = x.map(v);
        svg.line(px, plot.bottom, px, plot.bottom + 4.0, AXIS, 1.0);
        svg.text(
            px,
            plot.bottom + 6.0 + TICK_SIZE,
            &format!("{v:.0}"),
            TextStyle::muted(TICK_SIZE, Anchor::Middle),
        );
    }
    svg.end_group();
}

/// Draws the horizontal axis title centred under `plot`.
pub(crate) fn category_axis_title(svg: &mut Svg, plot: Area, height: f64, text: &str) {
    if !text.is_empty() {
        svg.text(
            (plot.left + plot.right) / 2.0,
            height - PAD,
            text,
            TextStyle::ink(LABEL_SIZE, Anchor::Middle),
        );
    }
}

/// Space under the plot for tick labels and the axis title.
pub(crate) fn bottom_space(has_title: bool) -> f64 {
    PAD + TICK_SIZE + 8.0 + if has_title { LABEL_SIZE + 10.0 } else { 0.0 }
}
