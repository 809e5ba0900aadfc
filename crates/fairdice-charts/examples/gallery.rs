//! Writes one of each chart, as SVG and PNG, into a folder: `cargo run -p
//! fairdice-charts --example gallery -- /tmp/charts`.

use std::path::PathBuf;

use fairdice_charts::{BarChart, Chart, HeatMap, LineChart, LineSeries, Series, ValueFormat};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "charts".into()));
    std::fs::create_dir_all(&dir)?;
    let three_d6 = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    let four_d6_kh3 = [
        1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21,
    ];
    let bars = BarChart::new("4d6kh3 vs 3d6")
        .x_label("outcome")
        .y_label("P(X = x)")
        .series(Series::new(
            "4d6kh3",
            (3..=18)
                .zip(four_d6_kh3)
                .map(|(x, c)| (x, c as f64 / 1296.0)),
        ))
        .series(Series::new(
            "3d6",
            (3..=18).zip(three_d6).map(|(x, c)| (x, c as f64 / 216.0)),
        ));
    let n = 10;
    let heat = HeatMap::new("P(attacker wins)")
        .x_label("attacking armies")
        .y_label("defending armies")
        .legend_title("P(win)")
        .columns((1..=n).map(|a| a.to_string()))
        .rows((1..=n).map(|d| d.to_string()))
        .values(
            (1..=n)
                .map(|d| (1..=n).map(|a| a as f64 / (a + d) as f64).collect())
                .collect(),
        );
    let lines = LineChart::new("Mean entropy")
        .y_label("bits")
        .format(ValueFormat::Number)
        .series(LineSeries::new("dice(values=6)", vec![2.585; 24]))
        .series(LineSeries::new(
            "deck(values=6)",
            (0..24).map(|t| ((6 - t % 6) as f64).log2()),
        ));
    for (name, svg, png) in [
        ("bars", bars.to_svg(), bars.to_png(2.0)?),
        ("heat", heat.to_svg(), heat.to_png(2.0)?),
        ("lines", lines.to_svg(), lines.to_png(2.0)?),
    ] {
        std::fs::write(dir.join(format!("{name}.svg")), svg)?;
        std::fs::write(dir.join(format!("{name}.png")), png)?;
    }
    Ok(())
}
