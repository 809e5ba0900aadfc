//! Every chart renders well-formed SVG holding its text, and a PNG of the right size.

use fairdice_charts::{BarChart, Chart, HeatMap, LineChart, LineSeries, Series, ValueFormat};
use resvg::tiny_skia::Pixmap;
use resvg::usvg::roxmltree::Document;

/// Parses `svg` as XML and returns the text of every `<text>` element.
fn texts(svg: &str) -> Vec<String> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("invalid SVG ({e}):\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("role"), Some("img"));
    root.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

/// How many elements named `tag` the SVG holds.
fn count(svg: &str, tag: &str) -> usize {
    Document::parse(svg)
        .expect("valid SVG")
        .descendants()
        .filter(|n| n.has_tag_name(tag))
        .count()
}

/// Decodes a PNG and checks its size.
fn assert_png(png: &[u8], width: u32, height: u32) {
    let pixmap = Pixmap::decode_png(png).expect("a decodable PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (width, height));
    // Not blank: some pixel is darker than the white background.
    assert!(pixmap.pixels().iter().any(|p| p.red() < 128));
}

fn three_d6() -> Series {
    let counts = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    Series::new(
        "3d6",
        (3..=18).zip(counts).map(|(x, c)| (x, c as f64 / 216.0)),
    )
}

#[test]
fn a_bar_chart_has_a_bar_per_outcome_and_readable_labels() {
    let chart = BarChart::new("3d6")
        .x_label("outcome")
        .y_label("P(X = x)")
        .series(three_d6());
    let svg = chart.to_svg();
    let texts = texts(&svg);
    for label in ["3d6", "outcome", "P(X = x)", "10", "15", "0%", "10%"] {
        assert!(
            texts.iter().any(|t| t == label),
            "{label} missing: {texts:?}"
        );
    }
    // 16 bars, each with a tooltip naming its value; plus the white background.
    assert!(svg.contains("<title>3d6, 10: 12.500%</title>"));
    assert_eq!(count(&svg, "rect"), 17);
    assert_png(&chart.to_png(1.0).expect("png"), 760, 420);
    assert_png(&chart.to_png(2.0).expect("png"), 1520, 840);
}

#[test]
fn comparisons_share_axes_with_a_legend() {
    let d20 = Series::new("d20", (1..=20).map(|x| (x, 0.05)));
    let svg = BarChart::new("3d6 vs d20")
        .series(three_d6())
        .series(d20)
        .to_svg();
    let texts = texts(&svg);
    assert!(texts.contains(&"3d6".to_string()) && texts.contains(&"d20".to_string()));
    // Grouped bars over the union of outcomes 1..=20: two per outcome.
    assert_eq!(count(&svg, "rect"), 1 + 2 + 2 * 20);
}

#[test]
fn long_ranges_become_step_areas_and_lines() {
    let wide = Series::new("wide", (0..2000).map(|x| (x, 1.0 / 2000.0)));
    let svg = BarChart::new("wide").series(wide.clone()).to_svg();
    assert_eq!(count(&svg, "path"), 1);
    assert!(svg.len() < 120_000, "{} bytes", svg.len());
    let svg = BarChart::new("two")
        .series(wide.clone())
        .series(wide)
        .to_svg();
    assert_eq!(count(&svg, "path"), 2);
    texts(&svg);
    // A million outcomes still make a small chart: one step per pixel.
    let huge = Series::new("huge", (0..1_000_000).map(|x| (x, 1e-6)));
    let svg = BarChart::new("huge").series(huge).to_svg();
    assert!(svg.len() < 60_000, "{} bytes", svg.len());
}

#[test]
fn cumulative_charts_reach_one_hundred_percent() {
    let at_least = Series::new("d4", [(1, 1.0), (2, 0.75), (3, 0.5), (4, 0.25)]);
    let texts = texts(&BarChart::new("d4").y_max(1.0).series(at_least).to_svg());
    assert!(texts.iter().any(|t| t == "100%"), "{texts:?}");
}

#[test]
fn net_scores_can_be_negative_outcomes() {
    let net = Series::new(
        "net",
        (-3..=3).map(|x| (x, (4.0 - (x as f64).abs()) / 16.0)),
    );
    let texts = texts(&BarChart::new("net score").series(net).to_svg());
    assert!(texts.iter().any(|t| t == "-3") && texts.iter().any(|t| t == "3"));
}

#[test]
fn user_text_is_escaped() {
    let svg = BarChart::new("<script>alert(1)</script> & \"q\"")
        .series(Series::new("a<b", [(1, 1.0)]))
        .to_svg();
    assert!(!svg.contains("<script>"));
    let texts = texts(&svg);
    assert!(texts.iter().any(|t| t.starts_with("<script>")));
}

#[test]
fn an_empty_chart_says_so() {
    let svg = BarChart::new("nothing").to_svg();
    assert!(texts(&svg).contains(&"no data".to_string()));
}

#[test]
fn a_heat_map_labels_rows_columns_cells_and_scale() {
    let n = 6;
    let values: Vec<Vec<f64>> = (1..=n)
        .map(|d| (1..=n).map(|a| a as f64 / (a + d) as f64).collect())
        .collect();
    let chart = HeatMap::new("P(attacker wins)")
        .x_label("attackers")
        .y_label("defenders")
        .legend_title("P(win)")
        .columns((1..=n).map(|a| a.to_string()))
        .rows((1..=n).map(|d| d.to_string()))
        .values(values);
    let svg = chart.to_svg();
    let texts = texts(&svg);
    for label in [
        "P(attacker wins)",
        "attackers",
        "defenders",
        "P(win)",
        "50%",
        "0%",
        "100%",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "{label} missing: {texts:?}"
        );
    }
    assert!(svg.contains("defenders 2, attackers 3: 60.000%"));
    assert_png(&chart.to_png(1.0).expect("png"), 760, 420);
}

#[test]
fn a_line_chart_draws_each_series() {
    let chart = LineChart::new("Outcome variance")
        .y_label("variance")
        .format(ValueFormat::Number)
        .series(LineSeries::new("dice", vec![2.9; 30]))
        .series(LineSeries::new("deck", (1..=30).map(|t| 2.9 / t as f64)))
        .size(600, 300);
    let svg = chart.to_svg();
    let texts = texts(&svg);
    for label in ["Outcome variance", "dice", "deck", "step", "variance", "1"] {
        assert!(
            texts.iter().any(|t| t == label),
            "{label} missing: {texts:?}"
        );
    }
    assert_eq!(count(&svg, "path"), 2);
    assert_eq!(count(&svg, "circle"), 60);
    assert_png(&chart.to_png(1.0).expect("png"), 600, 300);
}

#[test]
fn png_size_limits_are_errors_not_panics() {
    let chart = BarChart::new("x").series(three_d6());
    assert!(chart.to_png(0.0).is_err());
    assert!(chart.to_png(100.0).is_err());
    assert!(fairdice_charts::raster::svg_to_png("not svg", 1.0).is_err());
}

#[test]
fn a_pair_is_a_grid_and_labels_name_the_bars() {
    use fairdice::dice::notation::{evaluate, parse};
    use fairdice::dice::report::{DistributionReport, Measure};
    use fairdice_charts::{DistributionChart, distribution_chart};

    let text = "[p = 4d6] (count(p, 5, 6), count(p, 1))";
    let code = parse(text).unwrap().tuple_code().unwrap();
    let texts_of = ["count(p, 5, 6)".to_string(), "count(p, 1)".to_string()];
    let report = DistributionReport::exact(text, &evaluate(text).unwrap()).tupled(code, &texts_of);
    let chart = distribution_chart(&[report], Measure::Probability);
    assert!(matches!(chart, DistributionChart::Grid(_)));
    let svg = chart.to_svg();
    // Hits 0 to 4 down, ones 0 to 4 across: a cell each (0 where hits and ones
    // exceed the four dice), beside the background and the scale's 64 stripes.
    assert_eq!(count(&svg, "rect") - 1 - 64, 25);
    let shown = texts(&svg);
    assert!(shown.contains(&"count(p, 5, 6)".to_string()), "{shown:?}");
    assert!(shown.contains(&"count(p, 1)".to_string()), "{shown:?}");

    let text = "2d6 as {..6: miss, 7..9: weak hit, 10..: strong hit}";
    let report = DistributionReport::exact(text, &evaluate(text).unwrap()).labelled(&[
        "miss".into(),
        "weak hit".into(),
        "strong hit".into(),
    ]);
    let svg = distribution_chart(&[report], Measure::Probability).to_svg();
    let shown = texts(&svg);
    for label in ["miss", "weak hit", "strong hit", "label"] {
        assert!(shown.contains(&label.to_string()), "{label}: {shown:?}");
    }
}
