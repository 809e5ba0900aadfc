//! [`Stack`]: several charts drawn one above the other as one image.

use crate::Chart;
use crate::svg::{FONT_FAMILY, escape, num};

/// Charts stacked vertically, left-aligned, in one SVG document (each keeps its own
/// title, axes and legend).
///
/// # Example
/// ```
/// use fairdice_charts::{Chart, LineChart, LineSeries, Stack};
///
/// let stack = Stack::new("Two panels")
///     .chart(LineChart::new("Entropy").series(LineSeries::new("deck", [1.0, 0.9])))
///     .chart(LineChart::new("Variance").series(LineSeries::new("deck", [0.0, 0.3])));
/// let (_, height) = stack.size();
/// assert_eq!(height, 2.0 * fairdice_charts::DEFAULT_HEIGHT);
/// assert_eq!(stack.to_svg().matches("<svg").count(), 3);
/// ```
pub struct Stack {
    title: String,
    charts: Vec<Box<dyn Chart + Send + Sync>>,
}

impl Stack {
    /// An empty stack; `title` names the whole image for screen readers.
    pub fn new(title: impl Into<String>) -> Stack {
        Stack {
            title: title.into(),
            charts: Vec::new(),
        }
    }

    /// Adds a chart below the others.
    pub fn chart(mut self, chart: impl Chart + Send + Sync + 'static) -> Stack {
        self.charts.push(Box::new(chart));
        self
    }
}

impl Chart for Stack {
    fn size(&self) -> (f64, f64) {
        self.charts.iter().fold((0.0, 0.0), |(w, h), c| {
            let (cw, ch) = c.size();
            (w.max(cw), h + ch)
        })
    }

    fn to_svg(&self) -> String {
        let (width, height) = self.size();
        let (w, h) = (num(width), num(height));
        let mut out = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" font-family="{FONT_FAMILY}" class="fairdice-chart"><title>{}</title><rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##,
            escape(&self.title)
        );
        let mut top = 0.0;
        for chart in &self.charts {
            // A nested <svg> is placed by its x and y attributes.
            let inner = chart.to_svg();
            let placed = inner.replacen("<svg ", &format!(r#"<svg x="0" y="{}" "#, num(top)), 1);
            out.push_str(&placed);
            top += chart.size().1;
        }
        out.push_str("</svg>");
        out
    }
}
