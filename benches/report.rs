//! Turning timings into the tables of the comparison: medians, readable durations, ratios and
//! aligned Markdown.

/// The median of `samples` (the mean of the two middle ones for an even count); `None` if empty.
pub fn median(samples: &[f64]) -> Option<f64> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// A duration in seconds with three significant digits, in µs, ms or s.
pub fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds < 1e-3 {
        (seconds * 1e6, "µs")
    } else if seconds < 1.0 {
        (seconds * 1e3, "ms")
    } else {
        (seconds, "s")
    };
    format!("{} {unit}", significant(value))
}

/// A ratio with three significant digits and a `×`, e.g. `×24.3`.
pub fn ratio(ratio: f64) -> String {
    format!("×{}", significant(ratio))
}

fn significant(value: f64) -> String {
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$}")
}

/// A Markdown table whose columns are padded to line up in plain text too.
pub fn markdown(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, &width)| format!("{cell:<width$}"))
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut table = line(headers.iter().map(|h| h.to_string()).collect());
    table += &line(widths.iter().map(|&w| "-".repeat(w)).collect());
    for row in rows {
        table += &line(row.clone());
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_sample_or_the_mean_of_the_two_middle_ones() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn durations_and_ratios_keep_three_significant_digits() {
        assert_eq!(duration(0.000_123_4), "123 µs");
        assert_eq!(duration(0.012_34), "12.3 ms");
        assert_eq!(duration(1.234), "1.23 s");
        assert_eq!(ratio(24.34), "×24.3");
        assert_eq!(ratio(0.987), "×0.99");
    }

    #[test]
    fn markdown_columns_line_up() {
        let table = markdown(&["case", "t"], &[vec!["3d6".into(), "12.3 ms".into()]]);
        assert_eq!(
            table,
            "| case | t       |\n| ---- | ------- |\n| 3d6  | 12.3 ms |\n"
        );
    }
}
