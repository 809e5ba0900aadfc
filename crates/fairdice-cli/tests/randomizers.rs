//! The randomizer subcommands, run as a user would: `sample`, `next`, `prd`, `state`.

use std::process::{Command, Output};

fn fairdice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .output()
        .expect("the fairdice binary runs")
}

/// Stdout of a successful run.
fn ok(args: &[&str]) -> String {
    let output = fairdice(args);
    assert!(
        output.status.success(),
        "fairdice {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// Stderr of a run that must fail with exit status 2 (bad input).
fn bad_input(args: &[&str]) -> String {
    let output = fairdice(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "fairdice {args:?}: {output:?}"
    );
    String::from_utf8(output.stderr).expect("utf-8 output")
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

#[test]
fn sample_is_reproducible_and_deals_a_full_deck() {
    let first = ok(&["sample", "deck(values=6)", "--count", "12", "--seed", "1"]);
    assert_eq!(
        first,
        ok(&["sample", "deck(values=6)", "--count", "12", "--seed", "1"])
    );
    let mut values: Vec<i64> = first
        .split_whitespace()
        .map(|v| v.parse().expect("numbers"))
        .collect();
    values[..6].sort_unstable();
    assert_eq!(values[..6], [1, 2, 3, 4, 5, 6]);
    let report = json(&[
        "sample",
        "bag(min=1, max=4, sets=4)",
        "--count",
        "16",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(report["samples"].as_array().map(Vec::len), Some(16));
    assert_eq!(report["seed"], 3);
}

#[test]
fn tetris_samples_show_piece_names() {
    let text = ok(&["sample", "bag7", "--count", "7", "--seed", "2"]);
    let mut pieces: Vec<&str> = text.split_whitespace().collect();
    pieces.sort_unstable();
    assert_eq!(pieces, ["I", "J", "L", "O", "S", "T", "Z"]);
    let report = json(&["sample", "tgm2", "--count", "3", "--seed", "2", "--json"]);
    assert_eq!(report["labels"].as_array().map(Vec::len), Some(3));
    assert!(report["samples"][0].is_i64());
}

#[test]
fn resuming_a_saved_session_continues_the_same_sequence() {
    let dir = std::env::temp_dir().join(format!("fairdice-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("game.json");
    let file = file.to_str().expect("utf-8 path");
    for spec in [
        "deck(values=6, copies=2, refill_below=4)",
        "fair(base=2d6, tightness=1)",
        "tgm1",
        "prd(p=0.3)",
    ] {
        let whole = ok(&["sample", spec, "--count", "20", "--seed", "7"]);
        let head = ok(&[
            "sample", spec, "--count", "8", "--seed", "7", "--save", file,
        ]);
        let tail = ok(&["sample", "--resume", file, "--count", "12", "--save", file]);
        assert_eq!(
            format!("{} {}", head.trim(), tail.trim()),
            whole.trim(),
            "{spec}"
        );
        let shown = json(&["state", "show", file, "--json"]);
        assert_eq!(shown["draws"], 20);
    }
    std::fs::write(
        file,
        "{\"format\": \"fairdice-randomizer\", \"version\": 9}",
    )
    .expect("write");
    assert!(bad_input(&["sample", "--resume", file]).contains("newer fairdice"));
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn next_gives_the_fair_roller_check_value() {
    let report = json(&[
        "next",
        "fair(base=2d6, tightness=1)",
        "--history",
        "2,4,7,7",
        "--json",
    ]);
    let outcomes = report["outcomes"].as_array().expect("outcomes");
    let p = |value: i64| {
        outcomes
            .iter()
            .find(|o| o["outcome"] == value)
            .and_then(|o| o["probability"].as_f64())
            .expect("present")
    };
    assert!((p(7) - 0.05965).abs() < 5e-6);
    assert!((p(2) - 0.01353).abs() < 5e-6);
    assert!((p(6) - 0.18408).abs() < 5e-6);
    let sum: f64 = outcomes
        .iter()
        .filter_map(|o| o["probability"].as_f64())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9);
}

#[test]
fn next_rejects_a_history_the_randomizer_cannot_produce() {
    let seventh_three = bad_input(&["next", "deck(values=6)", "--history", "3,1,2,4,5,6,3,3"]);
    assert!(seventh_three.contains("holds no 3"), "{seventh_three}");
    assert!(bad_input(&["next", "deck(values=6)", "--history", "7"]).contains("1, 2, 3, 4, 5, 6"));
    assert!(bad_input(&["next", "tgm2", "--history", "S"]).contains("never S, Z or O"));
    let text = ok(&["next", "nes", "--history", "T"]);
    assert!(text.contains("0.035714"), "{text}");
}

#[test]
fn prd_reports_c_and_attempts() {
    let report = json(&["prd", "0.25", "--json"]);
    assert!((report["c"].as_f64().expect("c") - 0.084744091852317).abs() < 1e-12);
    assert_eq!(report["max_attempts"], 12);
    assert_eq!(report["expected_attempts"], 4.0);
    assert_eq!(report["attempts"].as_array().map(Vec::len), Some(12));
    assert!(bad_input(&["prd", "1.5"]).contains("[0.000001, 1]"));
    assert!(bad_input(&["prd", "-0.5"]).contains("[0.000001, 1]"));
}

#[test]
fn bad_specs_list_what_is_accepted() {
    assert!(bad_input(&["sample", "cards(values=6)"]).contains("accepted: dice("));
    assert!(bad_input(&["sample", "deck(value=6)"]).contains("accepted keys: values, base"));
    assert!(bad_input(&["sample", "dynamic(values=6, decrease=2)"]).contains("(0, 1]"));
    assert!(bad_input(&["sample", "--resume", "/nonexistent/game.json"]).contains("cannot read"));
}
