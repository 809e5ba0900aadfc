//! The randomizer subcommands, run as a user would: `sample`, `next`, `prd`, `state`.

use std::process::Command;

use super::support::{fails, json, ok};

/// Stderr of a run that must fail with exit status 2 (bad input).
fn bad_input(args: &[&str]) -> String {
    fails(args, 2)
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
fn plain_draws_written_as_they_come_are_the_documents_draws() {
    // The plain output is written draw by draw, the document from the report:
    // the same draws, named or not, one space apart on one line.
    for spec in ["dice(values=6)", "tgm3", "fair(base=2d6, tightness=1)"] {
        let text = ok(&["sample", spec, "--samples", "200000", "--seed", "5"]);
        let report = json(&[
            "sample",
            spec,
            "--samples",
            "200000",
            "--seed",
            "5",
            "--json",
        ]);
        let shown: Vec<String> = report
            .get("labels")
            .unwrap_or(&report["samples"])
            .as_array()
            .expect("draws")
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        assert_eq!(text, format!("{}\n", shown.join(" ")), "{spec}");
    }
    assert_eq!(ok(&["sample", "dice(values=6)", "--samples", "0"]), "\n");
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
        "tgm3",
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
    assert!(bad_input(&["next", "tgm3", "--history", "O"]).contains("never S, Z or O"));
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

/// A version 1 session (no check) of `spec` with `state` and `draws`.
fn version_1(spec: &str, state: &str, draws: &str) -> String {
    format!(
        r#"{{"format": "fairdice-randomizer", "version": 1, "spec": "{spec}", "state": {state},
"generator": {{"algorithm": "xoshiro256++", "state": ["0000000000000001",
"0000000000000002", "0000000000000003", "0000000000000004"]}}, "draws": {draws}}}"#
    )
}

#[cfg(unix)]
#[test]
fn a_failed_save_keeps_the_previous_session() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("game.json");
    let file = file.to_str().expect("utf-8 path");
    ok(&[
        "sample",
        "deck(values=100)",
        "--seed",
        "3",
        "-n",
        "5",
        "--save",
        file,
    ]);
    let saved = std::fs::read(file).expect("saved");
    assert!(saved.len() > 1024, "larger than the size limit below");
    // The disk fills up mid-save: writes past 1 block fail (SIGXFSZ ignored, so
    // the write returns an error as on a full disk).
    let output = Command::new("sh")
        .args(["-c", r#"trap "" XFSZ; ulimit -f 1; exec "$0" "$@""#])
        .arg(env!("CARGO_BIN_EXE_fairdice"))
        .args(["sample", "--resume", file, "--save", file, "-n", "3"])
        .output()
        .expect("sh runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("cannot write session file"), "{message}");
    assert!(message.contains("left as it was"), "{message}");
    assert_eq!(std::fs::read(file).expect("still there"), saved);
    let left: Vec<_> = std::fs::read_dir(directory.path())
        .expect("listed")
        .collect();
    assert_eq!(left.len(), 1, "no temporary file left behind");
    // The session continues from where it was saved: the same three draws.
    let drawn = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(ok(&["sample", "--resume", file, "-n", "3"]), drawn);
}

#[test]
fn endless_or_oversized_files_are_refused_unread() {
    let started = std::time::Instant::now();
    for args in [
        &["sample", "--resume", "/dev/zero"][..],
        &["state", "show", "/dev/zero"],
        &["next", "--resume", "/dev/zero"],
    ] {
        let message = bad_input(args);
        assert!(message.contains("longer than the"), "{message}");
    }
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let directory = tempfile::tempdir().expect("a temporary directory");
    let binary = directory.path().join("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).expect("written");
    let message = bad_input(&["state", "show", binary.to_str().expect("utf-8")]);
    assert!(message.contains("not UTF-8"), "{message}");
}

#[test]
fn a_changed_session_is_refused() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("game.json");
    let file = file.to_str().expect("utf-8 path");
    ok(&[
        "sample",
        "dynamic(values=6, decrease=0.355)",
        "--seed",
        "4",
        "--save",
        file,
    ]);
    let text = std::fs::read_to_string(file).expect("saved");
    ok(&["state", "show", file]);
    let changes = [
        text.replacen("decrease=0.355", "decrease=0.356", 1),
        text.replacen("\"draws\": 10", "\"draws\": 11", 1),
        {
            // One hex digit of the generator.
            let at = text.find("\"state\": [\n      \"").expect("the generator") + 18;
            let digit = if &text[at..at + 1] == "0" { "1" } else { "0" };
            format!("{}{digit}{}", &text[..at], &text[at + 1..])
        },
    ];
    for changed in changes {
        assert_ne!(changed, text);
        std::fs::write(file, &changed).expect("written");
        let message = bad_input(&["sample", "--resume", file]);
        assert!(message.contains("changed after it was saved"), "{message}");
        assert!(message.contains("checksum mismatch"), "{message}");
    }
    std::fs::write(file, &text[..text.len() / 2]).expect("written");
    let message = bad_input(&["state", "show", file]);
    assert!(
        message.contains("not a saved fairdice randomizer"),
        "{message}"
    );
}

#[test]
fn runaway_numbers_are_refused_at_once() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let file = directory.path().join("old.json");
    let file = file.to_str().expect("utf-8 path");
    let started = std::time::Instant::now();
    for (spec, state) in [
        (
            "dynamic(values=6, decrease=0.5)",
            "[0, 1000000000, 0, 0, 0, 0]",
        ),
        (
            "dynamic(values=6, decrease=0.5)",
            "[0, 9223372036854775807, 0, 0, 0, 0]",
        ),
        ("fair(values=6, tightness=1)", "[0, 0, 1000000000, 0, 0, 0]"),
    ] {
        std::fs::write(file, version_1(spec, state, "3")).expect("written");
        let message = bad_input(&["state", "show", file]);
        assert!(
            message.contains("accepted: a lead of 0..=1048576"),
            "{message}"
        );
    }
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    std::fs::write(file, version_1("prd(p=0.5)", "[0]", "9223372036854775808")).expect("written");
    let message = bad_input(&["state", "show", file]);
    assert!(
        message.contains("`draws` is 9223372036854775808; accepted: 0..=9007199254740991"),
        "{message}"
    );
    // A version 1 session within range still loads.
    std::fs::write(file, version_1("prd(p=0.5)", "[1]", "3")).expect("written");
    assert!(ok(&["state", "show", file]).contains("draws: 3"));
    let message = bad_input(&["prd", "0.000001", "--limit", "100000000000"]);
    assert!(message.contains("accepted: 0..=1000000"), "{message}");
}
