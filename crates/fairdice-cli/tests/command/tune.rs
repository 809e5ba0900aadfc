//! `fairdice tune` and `fairdice analyze`, run as a user would; the article's table
//! ("Making Randomness Fair") reproduced by the binary.

use super::support::{fails, json, ok};

fn rounded(value: &serde_json::Value) -> String {
    format!("{:.2}", value.as_f64().expect("a number"))
}

#[test]
fn the_articles_first_scenario() {
    // 6 outcomes, 25 samples, entropy ≥ 0.90: deck (1, 6) → 0.51; dynamic 0.355 → 0.46.
    let report = json(&[
        "tune",
        "--values",
        "6",
        "--samples",
        "25",
        "--min-entropy",
        "0.9",
        "--json",
    ]);
    let systems = &report["systems"];
    assert_eq!(systems[0]["system"], "deck");
    assert_eq!(
        systems[0]["params"],
        serde_json::json!({"copies": 1, "refill_below": 6})
    );
    assert_eq!(rounded(&systems[0]["outcome_variance"]), "0.51");
    assert_eq!(systems[1]["system"], "dynamic");
    assert_eq!(systems[1]["params"], serde_json::json!({"decrease": 0.355}));
    assert_eq!(rounded(&systems[1]["outcome_variance"]), "0.46");
    assert_eq!(systems[1]["method"], "exact");
    assert_eq!(report["fairest"], "dynamic");
    for system in systems.as_array().expect("a list") {
        assert!(system["mean_entropy"].as_f64() >= Some(0.9));
    }
}

#[test]
fn the_articles_second_scenario() {
    // 4 outcomes, 30 samples, entropy ≥ 0.90: deck (8, 1) → 0.36; dynamic 0.425 → 0.50.
    let report = json(&[
        "tune",
        "--values",
        "4",
        "--samples",
        "30",
        "--min-entropy",
        "0.9",
        "--json",
    ]);
    let systems = &report["systems"];
    assert_eq!(
        systems[0]["params"],
        serde_json::json!({"copies": 8, "refill_below": 1})
    );
    assert_eq!(rounded(&systems[0]["outcome_variance"]), "0.36");
    assert_eq!(systems[1]["params"], serde_json::json!({"decrease": 0.425}));
    assert_eq!(rounded(&systems[1]["outcome_variance"]), "0.50");
    assert_eq!(report["fairest"], "deck");
    let text = ok(&[
        "tune",
        "--values",
        "4",
        "--samples",
        "30",
        "--min-entropy",
        "0.9",
    ]);
    assert!(text.contains("copies=8, refill_below=1"), "{text}");
    assert!(text.contains("decrease=0.425"), "{text}");
    assert!(text.contains("fairest: deck"), "{text}");
}

#[test]
fn uncertain_match_lengths_and_custom_grids() {
    let uniform = json(&[
        "tune",
        "--values",
        "4",
        "--samples",
        "20..40",
        "--systems",
        "deck",
        "--grid",
        "dynamic(decrease=0.30..0.50 step 0.005)",
        "--json",
    ]);
    assert_eq!(
        uniform["samples"]["lengths"].as_array().map(Vec::len),
        Some(21)
    );
    let systems = uniform["systems"].as_array().expect("a list");
    assert_eq!(systems.len(), 2);
    assert_eq!(systems[1]["candidates_tried"], 41);
    // Over uncertain lengths the big deck of the fixed-length answer loses.
    assert_eq!(uniform["fairest"], "dynamic");
    let weighted = json(&[
        "tune",
        "--values",
        "6",
        "--samples",
        "20:1,30:2,40:1",
        "--systems",
        "dynamic,fair,bag,dice",
        "--json",
    ]);
    let names: Vec<&str> = weighted["systems"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["system"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["dynamic", "fair", "bag", "dice"]);
    // The fair roller on a uniform base is dynamic dice with d = 2^-k.
    let fair = &weighted["systems"][1];
    assert!(
        fair["outcome_variance"].as_f64() >= weighted["systems"][0]["outcome_variance"].as_f64()
    );
}

#[test]
fn analyze_reports_the_issues_json() {
    let report = json(&[
        "analyze",
        "deck(values=6, copies=1, refill_below=6)",
        "--samples",
        "25",
        "--json",
    ]);
    assert_eq!(report["method"], "exact");
    assert_eq!(rounded(&report["outcome_variance"]), "0.51");
    let steps = report["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 25);
    assert_eq!(steps[0]["step"], 1);
    assert_eq!(steps[0]["entropy"], 1.0);
    let mean: f64 = steps
        .iter()
        .map(|s| s["entropy"].as_f64().unwrap_or(0.0))
        .sum::<f64>()
        / 25.0;
    assert!((mean - report["mean_entropy"].as_f64().unwrap_or(0.0)).abs() < 1e-12);
    let droughts = &report["droughts"];
    assert_eq!(droughts["method"], "exact");
    assert_eq!(droughts["outcomes"].as_array().map(Vec::len), Some(6));
    assert_eq!(
        droughts["outcomes"][0]["gap_exceeds"]
            .as_array()
            .map(Vec::len),
        Some(26)
    );
}

#[test]
fn monte_carlo_is_reproducible_and_reports_errors() {
    let args = [
        "analyze",
        "dynamic(values=6, decrease=0.355)",
        "--samples",
        "25",
        "--runs",
        "5000",
        "--seed",
        "4",
        "--json",
    ];
    let first = json(&args);
    assert_eq!(first, json(&args));
    assert_eq!(first["method"], "monte_carlo");
    assert_eq!(first["runs"], 5000);
    let error = first["errors"]["outcome_variance"]
        .as_f64()
        .expect("an error");
    let exact = json(&[
        "analyze",
        "dynamic(values=6, decrease=0.355)",
        "--samples",
        "25",
        "--json",
    ]);
    let difference = first["outcome_variance"].as_f64().unwrap_or(0.0)
        - exact["outcome_variance"].as_f64().unwrap_or(0.0);
    assert!(difference.abs() < 5.0 * error, "{difference} vs ± {error}");
}

#[test]
fn bad_input_and_budgets() {
    let stderr = fails(&["tune", "--values", "6", "--samples", "0"], 2);
    assert!(stderr.contains("1..="), "{stderr}");
    let stderr = fails(
        &[
            "tune",
            "--values",
            "6",
            "--samples",
            "25",
            "--systems",
            "prd",
        ],
        2,
    );
    assert!(stderr.contains("nothing to tune"), "{stderr}");
    let stderr = fails(
        &[
            "tune",
            "--values",
            "6",
            "--samples",
            "25",
            "--grid",
            "deck(size=2)",
        ],
        2,
    );
    assert!(stderr.contains("copies, refill_below, refill"), "{stderr}");
    let stderr = fails(
        &[
            "tune",
            "--values",
            "6",
            "--samples",
            "25",
            "--min-entropy",
            "2",
        ],
        2,
    );
    assert!(stderr.contains("[0, 1]"), "{stderr}");
    let stderr = fails(
        &[
            "analyze",
            "fair(base=2d6, tightness=1)",
            "--samples",
            "40",
            "--exact",
            "--budget",
            "500",
        ],
        3,
    );
    assert!(stderr.contains("--runs"), "{stderr}");
    let stderr = fails(
        &[
            "analyze",
            "deck(values=6)",
            "--samples",
            "10",
            "--plot",
            "x.gif",
        ],
        2,
    );
    assert!(stderr.contains(".svg, .png or .csv"), "{stderr}");
}

#[test]
fn plots_draw_the_articles_two_graphs() {
    let dir = std::env::temp_dir().join(format!("fairdice-tune-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("tune.svg");
    ok(&[
        "tune",
        "--values",
        "4",
        "--samples",
        "12",
        "--min-entropy",
        "0.9",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("Entropy of the next-sample distribution"),
        "{}",
        &text[..300]
    );
    assert!(text.contains("Outcome variance after each sample"));
    assert!(text.contains("dynamic (decrease="));
    let png = dir.join("analyze.png");
    ok(&[
        "analyze",
        "dynamic(values=6, decrease=0.355)",
        "--samples",
        "10",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_data_as_csv() {
    let dir = std::env::temp_dir().join(format!("fairdice-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("best.csv");
    let path_text = path.to_str().expect("a UTF-8 path");
    ok(&[
        "tune",
        "--values",
        "6",
        "--samples",
        "25",
        "--plot",
        path_text,
    ]);
    let csv = std::fs::read_to_string(&path).expect("written");
    // Two panels × two systems × 25 steps, plus the header.
    assert_eq!(csv.lines().count(), 1 + 2 * 2 * 25);
    assert!(csv.contains("dynamic (decrease=0.355)"), "{csv}");
    std::fs::remove_dir_all(&dir).ok();
}
