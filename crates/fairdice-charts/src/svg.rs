//! A small SVG writer: the few elements the charts draw, with every piece of text
//! escaped and every number written compactly.
//!
//! # Design decisions
//! Styling uses presentation attributes (`fill="…"`), never `style="…"`, so a page
//! served with a strict Content-Security-Policy (no inline styles) shows the chart,
//! and resvg renders exactly what the browser does. Charts carry no `id`s, so any
//! number of them can sit inline in one HTML page.

use std::fmt::Write as _;

/// The font stack of every chart: the system's UI font in a browser, and the
/// embedded DejaVu Sans when rasterized (see [`crate::raster`]).
pub(crate) const FONT_FAMILY: &str =
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif";

/// Colour of titles and axis labels.
pub(crate) const INK: &str = "#1f2937";
/// Colour of tick labels and other secondary text.
pub(crate) const MUTED: &str = "#4b5563";
/// Colour of grid lines.
pub(crate) const GRID: &str = "#e5e7eb";
/// Colour of axis lines.
pub(crate) const AXIS: &str = "#9ca3af";

/// Escapes text for use in SVG (and HTML) content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A number with at most two decimals and no trailing zeros (`12`, `12.5`, `12.25`).
pub(crate) fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// How long `text` is when drawn at `size` px: an estimate (0.6 em a character),
/// slightly generous so that labels laid out with it do not collide.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// `text` cut to at most `max` characters, with an ellipsis when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Where a text's `x` is: its start, middle or end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn as_str(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextStyle {
    pub size: f64,
    pub anchor: Anchor,
    pub fill: &'static str,
    pub bold: bool,
    /// Rotated a quarter turn counter-clockwise about its anchor point (a y-axis label).
    pub vertical: bool,
}

impl TextStyle {
    /// Secondary text (tick labels) of the given size.
    pub fn muted(size: f64, anchor: Anchor) -> TextStyle {
        TextStyle {
            size,
            anchor,
            fill: MUTED,
            bold: false,
            vertical: false,
        }
    }

    /// Primary text (titles, axis labels) of the given size.
    pub fn ink(size: f64, anchor: Anchor) -> TextStyle {
        TextStyle {
            fill: INK,
            ..TextStyle::muted(size, anchor)
        }
    }
}

/// An SVG document being written.
pub(crate) struct Svg {
    out: String,
}

impl Svg {
    /// Starts a document of `width` × `height` px on a white background, whose
    /// accessible name is `title` and description `description`.
    pub fn new(width: f64, height: f64, title: &str, description: &str) -> Svg {
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" font-family="{font}" class="fairdice-chart"><title>{title}</title><desc>{desc}</desc><rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##,
            w = num(width),
            h = num(height),
            font = FONT_FAMILY,
            title = escape(title),
            desc = escape(description),
        );
        Svg { out }
    }

    /// A filled rectangle, with a tooltip when `tooltip` is given.
    pub fn rect(&mut self, x: f64, y: f64, width: f64, height: f64, fill: &str, tooltip: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}""#,
            num(x),
            num(y),
            num(width.max(0.0)),
            num(height.max(0.0)),
            fill
        );
        if tooltip.is_empty() {
            self.out.push_str("/>");
        } else {
            let _ = write!(self.out, "><title>{}</title></rect>", escape(tooltip));
        }
    }

    /// A straight line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) {
        let _ = write!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            stroke,
            num(width)
        );
    }

    /// A path: `d` in SVG path syntax, stroked and/or filled (`"none"` for neither).
    pub fn path(&mut self, d: &str, stroke: &str, width: f64, fill: &str, fill_opacity: f64) {
        let _ = write!(
            self.out,
            r#"<path d="{d}" stroke="{stroke}" stroke-width="{}" fill="{fill}" fill-opacity="{}" stroke-linejoin="round"/>"#,
            num(width),
            num(fill_opacity)
        );
    }

    /// A dashed line along a path, unfilled.
    pub fn dashed_path(&mut self, d: &str, stroke: &str) {
        let _ = write!(
            self.out,
            r#"<path d="{d}" stroke="{stroke}" stroke-width="1.5" stroke-dasharray="6 4" fill="none"/>"#
        );
    }

    /// A small filled circle (a line-chart marker), with a tooltip.
    pub fn dot(&mut self, x: f64, y: f64, radius: f64, fill: &str, tooltip: &str) {
        let _ = write!(
            self.out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{}"><title>{}</title></circle>"#,
            num(x),
            num(y),
            num(radius),
            fill,
            escape(tooltip)
        );
    }

    /// A line of text.
    pub fn text(&mut self, x: f64, y: f64, text: &str, style: TextStyle) {
        let _ = write!(
            self.out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{}" fill="{}""#,
            num(x),
            num(y),
            num(style.size),
            style.anchor.as_str(),
            style.fill
        );
        if style.bold {
            self.out.push_str(r#" font-weight="bold""#);
        }
        if style.vertical {
            let _ = write!(
                self.out,
                r#" transform="rotate(-90 {} {})""#,
                num(x),
                num(y)
            );
        }
        let _ = write!(self.out, ">{}</text>", escape(text));
    }

    /// Opens a group with an accessible label (closed by [`Svg::end_group`]).
    pub fn begin_group(&mut self, label: &str) {
        let _ = write!(self.out, r#"<g aria-label="{}">"#, escape(label));
    }

    /// Closes the innermost group.
    pub fn end_group(&mut self) {
        self.out.push_str("</g>");
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<b a="1">&'x'"#),
            "&lt;b a=&quot;1&quot;&gt;&amp;&#39;x&#39;"
        );
        assert_eq!(escape("a\u{0}b"), "a b");
    }

    #[test]
    fn numbers_are_compact() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(0.126), "0.13");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn truncation_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
