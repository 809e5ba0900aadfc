//! Shared output helpers: aligned tables, bars, number formats, progress bars.

use std::fmt::Write as _;

use fairdice::dice::die::ratio_to_f64;
use indicatif::{ProgressBar, ProgressStyle};
use num_rational::BigRational;

/// A table printed with aligned columns: text left-aligned, numbers right-aligned.
pub struct Table {
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
    right_aligned: Vec<bool>,
}

impl Table {
    /// A table with these column headers; `right[i]` right-aligns column `i`.
    pub fn new(headers: &[&str], right: &[bool]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            right_aligned: right.to_vec(),
        }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Renders the table, the last column unpadded (it usually holds a bar).
    pub fn render(&self) -> String {
        let columns = self.headers.len();
        let mut widths = vec![0usize; columns];
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for (i, row) in std::iter::once(&self.headers).chain(&self.rows).enumerate() {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                let pad = widths[c] - cell.chars().count();
                let last = c + 1 == columns;
                if c > 0 {
                    line.push_str("  ");
                }
                if self.right_aligned.get(c).copied().unwrap_or(false) {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    if !last {
                        line.push_str(&" ".repeat(pad));
                    }
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
            if i == 0 {
                let rule: Vec<String> = widths.iter().map(|&w| "─".repeat(w)).collect();
                let _ = writeln!(out, "{}", rule.join("  "));
            }
        }
        out
    }
}

/// A horizontal bar of `fraction · width` cells, with eighth-cell resolution.
pub fn bar(fraction: f64, width: usize) -> String {
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let eighths = (fraction.clamp(0.0, 1.0) * width as f64 * 8.0).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    s.push_str(PARTS[eighths % 8]);
    s
}

/// A probability as a percentage with enough digits to tell small values apart.
pub fn percent(p: f64) -> String {
    if p == 0.0 {
        "0%".to_string()
    } else if p >= 0.001 {
        format!("{:.3}%", p * 100.0)
    } else {
        format!("{:.3e}%", p * 100.0)
    }
}

/// A fraction as `p/q` (always with a denominator, so machines parse it one way).
pub fn fraction(r: &BigRational) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

/// A fraction's decimal value.
pub fn decimal(r: &BigRational) -> f64 {
    ratio_to_f64(r)
}

/// A progress bar on stderr for `total` units (hidden when stderr is not a terminal).
pub fn progress(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40.cyan/blue} {pos}/{len} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// A spinner on stderr counting units of work whose total is not known in advance
/// (hidden when stderr is not a terminal).
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({pos} done, {elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_have_eighth_resolution() {
        assert_eq!(bar(1.0, 2), "██");
        assert_eq!(bar(0.5, 1), "▌");
        assert_eq!(bar(0.0, 10), "");
    }

    #[test]
    fn tables_align() {
        let mut t = Table::new(&["a", "count"], &[false, true]);
        t.row(vec!["x".into(), "5".into()]);
        t.row(vec!["long".into(), "123".into()]);
        assert_eq!(
            t.render(),
            "a     count\n────  ─────\nx         5\nlong    123\n"
        );
    }

    #[test]
    fn percentages() {
        assert_eq!(percent(0.5), "50.000%");
        assert_eq!(percent(1e-7), "1.000e-5%");
    }
}
