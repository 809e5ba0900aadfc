//! Shared output helpers: aligned tables, bars, progress bars (number formats are
//! in `fairdice::dice::report`, shared with the web app).

use std::fmt::Write as _;

/// `println!` that returns an error instead of panicking when stdout is closed
/// (`fairdice … | head`); use inside functions returning `anyhow::Result`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}
pub(crate) use outln;

use fairdice::Control;
use indicatif::{ProgressBar, ProgressStyle};

/// A report as the `--json` document every front-end serves: indented, with a
/// final newline, and refused (exit 3) past the document limit.
pub fn json(report: &impl serde::Serialize) -> anyhow::Result<String> {
    let document = fairdice_api::Document {
        pretty: true,
        ..fairdice_api::Document::default()
    };
    let mut text = fairdice_api::write_document(report, &document)
        .map_err(crate::failure::UserError::from_api)?;
    text.push('\n');
    Ok(text)
}

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

/// `control` reporting its progress on `bar`: each new stage (`screening
/// candidates`, `refining contenders`, …) names the bar and restarts its count and
/// its time-left estimate.
pub fn shown_on(control: Control, bar: &ProgressBar) -> Control {
    let bar = bar.clone();
    let stage = std::sync::Mutex::new("");
    control.with_progress(move |p| {
        if let Ok(mut current) = stage.lock() {
            if *current != p.stage && !p.stage.is_empty() {
                *current = p.stage;
                bar.set_message(p.stage);
                bar.reset();
            }
        }
        if p.total > 0 {
            bar.set_length(p.total);
        }
        bar.set_position(p.done);
    })
}

/// Writes a chart to `path` as SVG or PNG, chosen by the file's extension.
///
/// # Errors
/// A [`UserError`](crate::failure::UserError) for another extension; an I/O error
/// if the file cannot be written.
pub fn write_plot(
    path: &std::path::Path,
    chart: &dyn fairdice_charts::Chart,
) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let bytes = match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => chart.to_svg().into_bytes(),
        #[cfg(feature = "png")]
        Some(e) if e.eq_ignore_ascii_case("png") => chart.to_png(2.0)?,
        #[cfg(not(feature = "png"))]
        Some(e) if e.eq_ignore_ascii_case("png") => {
            return Err(crate::failure::UserError::input(format!(
                "--plot {}: this fairdice was built without PNG charts (feature `png`); write .svg",
                path.display()
            )));
        }
        _ => {
            return Err(crate::failure::UserError::input(format!(
                "--plot {}: the file name must end in .svg or .png",
                path.display()
            )));
        }
    };
    std::fs::write(path, bytes).with_context(|| format!("could not write {}", path.display()))
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

/// One line on stderr for each part of an expression another dice tool reads
/// differently, with the spelling of that reading.
pub fn note_other_readings(readings: &[fairdice::dice::notation::OtherReading]) {
    for reading in readings {
        eprintln!("note: {}", reading.note);
    }
}

/// One line on stderr saying how a dice tool's dialect read the expression.
pub fn note_dialect(translation: Option<&fairdice::dice::notation::Translation>) {
    if let Some(translation) = translation {
        eprintln!("note: {}", translation.note);
    }
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
}
