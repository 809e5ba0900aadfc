//! `fairdice seats`, run as a user would: the table, `--json`, `--csv` and a bad
//! game file.

use super::support::{fairdice, ok};

fn game_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fairdice-seats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the game file is written");
    path
}

const CATAN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/games/catan-beginner.json"
);

#[test]
fn the_catan_board_is_measured_exactly_with_its_fields() {
    let out = ok(&[
        "seats",
        CATAN,
        "--randomizer",
        "dice(base=2d6)",
        "--samples",
        "12",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(json["method"], "exact");
    assert_eq!(json["samples"], 12);
    assert_eq!(json["game"]["players"][3], "orange");
    let red = &json["all_rolls"]["players"][0];
    assert_eq!(red["player"], "red");
    // Red's settlements collect on 2, 6, 8, 9, 10 and 11: 20 of 36 rolls, one each.
    let share = 12.0 * 20.0 / 36.0;
    assert!((red["fair_share"].as_f64().unwrap() - share).abs() < 1e-12);
    assert!((red["expected_total"]["value"].as_f64().unwrap() - share).abs() < 1e-12);
    assert_eq!(red["totals"].as_array().unwrap().len(), 13);
    assert!(red["longest_drought"]["value"].as_f64().unwrap() > 1.0);
    assert!(json["all_rolls"]["spread"]["value"].as_f64().unwrap() > 0.0);
    assert_eq!(json["all_rolls"]["starved"][0]["share"], 0.5);
    assert_eq!(json["own_turns"]["scope"], "own_turns");
}

#[test]
fn csv_has_a_row_per_player_and_scope() {
    let out = ok(&[
        "seats",
        CATAN,
        "-r",
        "dice(base=2d6)",
        "-T",
        "8",
        "--csv",
        "--runs",
        "2000",
    ]);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    for column in [
        "scope",
        "spread",
        "spread_error",
        "starved_at_0.5",
        "player",
        "fair_share",
        "expected_total.value",
        "expected_total.error",
        "longest_drought.value",
    ] {
        assert!(header.contains(&column), "{column} in {header:?}");
    }
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 8, "4 players × 2 scopes");
    assert!(rows[0].starts_with("all_rolls,"), "{}", rows[0]);
    assert!(rows[7].starts_with("own_turns,"), "{}", rows[7]);
}

#[test]
fn the_table_names_the_players_and_the_method() {
    let sevens = game_file(
        "sevens.json",
        r#"{"name": "who gets the 7s", "players": ["first", "second"], "turns": true,
            "columns": "roller", "payoffs": {"7": [1, 0]}}"#,
    );
    let out = ok(&[
        "seats",
        sevens.to_str().unwrap(),
        "-r",
        "dice(base=2d6)",
        "-T",
        "50",
    ]);
    assert!(out.starts_with("who gets the 7s\n"), "{out}");
    assert!(out.contains("method: exact"), "{out}");
    assert!(out.contains("over each player's own turns:"), "{out}");
    assert!(out.contains("first"), "{out}");
}

#[test]
fn a_bad_game_file_is_bad_input_naming_the_file() {
    for (text, says) in [
        ("{\"players\": [\"a\"],", "not a game file"),
        (
            r#"{"players": ["a", "b"], "payoffs": {"7": [1]}}"#,
            "one per player",
        ),
        (
            r#"{"players": ["a"], "payoffs": {"13": [1]}}"#,
            "not an outcome of dice(base=2d6)",
        ),
    ] {
        let path = game_file("bad.json", text);
        let output = fairdice(&[
            "seats",
            path.to_str().unwrap(),
            "-r",
            "dice(base=2d6)",
            "-T",
            "5",
        ]);
        assert_eq!(output.status.code(), Some(2), "{text}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{text}: {stderr}");
        assert!(
            stderr.contains("bad.json") || says.starts_with("not an outcome"),
            "{stderr}"
        );
    }
    let missing = fairdice(&[
        "seats",
        "no/such/game.json",
        "-r",
        "dice(base=2d6)",
        "-T",
        "5",
    ]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn plot_draws_each_players_total_over_the_match() {
    let svg = game_file("totals.svg", "");
    let ten_rolls = ["seats", CATAN, "-r", "dice(base=2d6)", "-T", "10"];
    let path = svg.to_str().expect("utf-8 path");
    let json = ok(&[&ten_rolls[..], &["--no-droughts", "--json", "--plot", path]].concat());
    let json: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let red = &json["all_rolls"]["players"][0];
    assert_eq!(
        json["all_rolls"]["rolls"].as_array().map(Vec::len),
        Some(10)
    );
    // Red collects on 20 of 36 rolls, one resource each.
    assert!((red["expected_by_roll"][9].as_f64().unwrap() - 10.0 * 20.0 / 36.0).abs() < 1e-12);
    let drawn = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(drawn.starts_with("<svg") && drawn.contains("Totals over 10 rolls"));
    assert!(drawn.contains("red, roll 10: expected 5.556"), "{drawn}");
    let refused = fairdice(&[&ten_rolls[..], &["--plot", "totals.txt"]].concat());
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("must end in .svg or .png"));
}
