//! The `fairdice` command as a user runs it: output shapes, exit statuses, errors.

use std::process::{Command, Output};

use super::support::{fails, fairdice, json, ok, stderr, stdout};

#[test]
fn dist_json_has_exact_counts_and_fractions() {
    let v = json(&["dist", "3d6", "--json"]);
    assert_eq!(v["expression"], "3d6");
    assert_eq!(v["total"], "216");
    assert_eq!(v["mean_exact"], "21/2");
    assert_eq!(v["method"], "exact");
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 16);
    assert_eq!(outcomes[0]["outcome"], 3);
    let ten = outcomes.iter().find(|o| o["outcome"] == 10).unwrap();
    assert_eq!(ten["count"], "27");
    let sum: f64 = outcomes
        .iter()
        .map(|o| o["probability"].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!((v["sd"].as_f64().unwrap() - 2.958039891549808).abs() < 1e-12);
}

#[test]
fn dist_compares_several_expressions_side_by_side() {
    let table = stdout(&fairdice(&["dist", "3d6", "4d6kh3"]));
    assert!(
        table.starts_with("#1 3d6\n   mean 10.5000 (21/2)"),
        "{table}"
    );
    assert!(
        table.contains("#2 4d6kh3\n   mean 12.2446 (15869/1296)"),
        "{table}"
    );
    // Each outcome once, with each expression's chance of it and of at least it.
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("18 "))
        .expect("a row for 18");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        ["18", "0.4630%", "0.4630%", "1.620%", "1.620%"],
        "{table}"
    );
    assert!(
        table.contains("#2: exact, 1296 equally likely rolls"),
        "{table}"
    );
    // An outcome only one of them gives is 0 for the other.
    let table = stdout(&fairdice(&["dist", "d4", "d6"]));
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("6 "))
        .expect("6");
    assert_eq!(row.split_whitespace().nth(1), Some("0%"), "{table}");
    // JSON: the documents in order; CSV: a column names the expression.
    let documents = json(&["dist", "3d6", "4d6kh3", "--json"]);
    assert_eq!(documents[1], json(&["dist", "4d6kh3", "--json"]));
    assert_eq!(documents.as_array().map(Vec::len), Some(2));
    let csv = stdout(&fairdice(&["dist", "d4", "d6", "--csv"]));
    assert_eq!(csv.lines().nth(1), Some("d4,1,1,0.25,0.25,1"));
    assert_eq!(csv.lines().count(), 1 + 4 + 6);
    // The first expression at fault is shown with its caret, exit 2.
    let error = fails(&["dist", "d4", "d6+"], 2);
    assert!(error.contains("error: d6+\n"), "{error}");
}

#[test]
fn labels_show_in_the_table_csv_json_rolls_and_chart() {
    const MOVE: &str = "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}";
    let table = stdout(&fairdice(&["dist", MOVE]));
    let row = |label: &str| {
        table
            .lines()
            .find(|l| l.starts_with(label))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    assert!(
        row("weak hit")
            .unwrap()
            .starts_with("weak hit 16 44.444% 72.222%")
    );
    assert!(
        row("strong hit")
            .unwrap()
            .starts_with("strong hit 10 27.778%")
    );
    assert!(
        table.contains("labels miss, weak hit, strong hit (numbered from 0 in --json), most likely weak hit (44.444%)"),
        "{table}"
    );
    let document = json(&["dist", MOVE, "--json"]);
    assert_eq!(document["outcomes"][2]["label"], "strong hit");
    assert_eq!(document["outcomes"][2]["outcome"], 2);
    assert_eq!(document["outcomes"][2]["count"], "10");
    let csv = stdout(&fairdice(&["dist", MOVE, "--csv"]));
    assert_eq!(
        csv.lines().take(2).collect::<Vec<_>>(),
        [
            "outcome,label,count,probability,at_most,at_least",
            "0,miss,10,0.2777777777777778,0.2777777777777778,1"
        ]
    );
    let rolls = json(&["roll", MOVE, "--times", "20", "--seed", "3", "--json"]);
    for roll in rolls["rolls"].as_array().unwrap() {
        let sum = roll["terms"][0]["value"].as_i64().unwrap() + 1;
        let label = match sum {
            ..=6 => "miss",
            7..=9 => "weak hit",
            _ => "strong hit",
        };
        assert_eq!(roll["label"], label, "{roll}");
    }
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("move.svg");
    fairdice(&["dist", MOVE, "--plot", svg.to_str().unwrap()]);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.contains(">weak hit</text>") && svg.contains("over outcomes miss to strong hit"));
    // An outcome without a label is refused with a caret under what gave it.
    let error = fails(&["dist", "2d6 as {..6: miss, 8..: hit}"], 2);
    assert!(
        error.contains("the outcome 7 has no label: add a range that holds it"),
        "{error}"
    );
}

#[test]
fn tuples_show_joint_outcomes_as_a_grid_csv_json_and_rolls() {
    const GLITCH: &str = "[p = 4d6] (count(p, 5, 6), count(p, 1))";
    // Every roll of 4d6, counted independently.
    let mut joint = std::collections::BTreeMap::new();
    for roll in 0..6u32.pow(4) {
        let dice: Vec<u32> = (0..4).map(|i| roll / 6u32.pow(i) % 6 + 1).collect();
        let hits = dice.iter().filter(|&&d| d >= 5).count() as i64;
        let ones = dice.iter().filter(|&&d| d == 1).count() as i64;
        *joint.entry((hits, ones)).or_insert(0u64) += 1;
    }
    let document = json(&["dist", GLITCH, "--json"]);
    let got: std::collections::BTreeMap<(i64, i64), u64> = document["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let pair = (
                row["outcome"][0].as_i64().unwrap(),
                row["outcome"][1].as_i64().unwrap(),
            );
            (pair, row["count"].as_str().unwrap().parse().unwrap())
        })
        .collect();
    assert_eq!(got, joint);
    assert_eq!(document["values"][1]["expression"], "count(p, 1)");
    assert_eq!(document["values"][1]["mean_exact"], "2/3");
    assert_eq!(document["values"][0]["mean_exact"], "4/3");
    let table = stdout(&fairdice(&["dist", GLITCH]));
    assert!(table.contains("count(p, 5, 6) ↓  count(p, 1) →"), "{table}");
    assert!(table.contains("count(p, 1): mean 0.6667 (2/3)"), "{table}");
    let csv = stdout(&fairdice(&["dist", GLITCH, "--csv"]));
    assert_eq!(
        csv.lines().take(2).collect::<Vec<_>>(),
        [
            "\"count(p, 5, 6)\",\"count(p, 1)\",count,probability,at_most,at_least",
            "0,0,81,0.0625,0.0625,1"
        ]
    );
    let rolls = json(&["roll", GLITCH, "--times", "10", "--seed", "2", "--json"]);
    for roll in rolls["rolls"].as_array().unwrap() {
        let dice: Vec<i64> = roll["terms"][0]["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["value"].as_i64().unwrap())
            .collect();
        let hits = dice.iter().filter(|&&d| d >= 5).count() as i64;
        let ones = dice.iter().filter(|&&d| d == 1).count() as i64;
        assert_eq!(roll["values"], serde_json::json!([hits, ones]), "{roll}");
        assert_eq!(roll["label"], format!("({hits}, {ones})"));
    }
    let error = fails(&["dist", "(d6, d4) + 1"], 2);
    assert!(error.contains("a tuple is the whole result"), "{error}");
}

/// The counts of a `dist` document's outcomes.
fn counts(document: &serde_json::Value) -> Vec<(i64, u64)> {
    document["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let count = row["count"].as_str().unwrap().parse().unwrap();
            (row["outcome"].as_i64().unwrap(), count)
        })
        .collect()
}

#[test]
fn a_dialect_reads_the_string_as_its_tool_does_and_says_how() {
    // Roll20: `3d6>3` counts the dice showing 3 or more, C(3,k)·4^k·2^(3-k).
    let document = json(&["dist", "3d6>3", "--dialect", "roll20", "--json"]);
    assert_eq!(document["expression"], "3d6cs>=3");
    assert_eq!(document["dialect"]["written"], "3d6>3");
    assert_eq!(document["dialect"]["dialect"], "roll20");
    assert_eq!(counts(&document), [(0, 8), (1, 48), (2, 96), (3, 64)]);
    let output = fairdice(&["dist", "3d6>3", "--dialect", "roll20"]);
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .starts_with("note: read as Roll20 reads it: `3d6cs>=3`"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // rpg-dice-roller: each keep on the whole pool, so `4d6kh3kl2` keeps the
    // second lowest die: counted here over all 6^4 rolls.
    let mut second = std::collections::BTreeMap::new();
    for roll in 0..6u32.pow(4) {
        let mut dice: Vec<u32> = (0..4).map(|i| roll / 6u32.pow(i) % 6 + 1).collect();
        dice.sort_unstable();
        *second.entry(i64::from(dice[1])).or_insert(0u64) += 1;
    }
    let document = json(&[
        "dist",
        "4d6kh3kl2",
        "--dialect",
        "rpg-dice-roller",
        "--json",
    ]);
    assert_eq!(document["expression"], "4d6dl1dh2");
    assert_eq!(counts(&document), second.into_iter().collect::<Vec<_>>());
    // Foundry's `r` rerolls once; the roll command reads dialects too.
    let rolls = json(&[
        "roll",
        "1d20r1",
        "--dialect",
        "foundry",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(rolls["expression"], "1d20ro1");
    assert_eq!(rolls["dialect"]["changes"][0]["written"], "r1");
    // A contest reads both pools in the dialect (a Roll20 label is only shown).
    assert_eq!(
        json(&[
            "contest",
            "3d6 [attack]",
            "2d6",
            "--dialect",
            "roll20",
            "--json"
        ]),
        json(&["contest", "3d6", "2d6", "--json"])
    );
    // What the dialect reads but the language cannot say: refused, named, exit 2.
    let output = fairdice(&["dist", "d20/2", "--dialect", "roll20"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("Roll20 divides exactly"));
    // A dialect that does not exist lists the ones that do.
    let output = fairdice(&["dist", "d6", "--dialect", "roll21"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("fairdice, roll20, foundry, rpg-dice-roller, anydice")
    );
}

#[test]
fn another_tools_reading_is_noted_on_stderr_and_in_the_json() {
    let output = fairdice(&["dist", "2d6>=8"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end(),
        "note: rpg-dice-roller and Roll20 read `2d6>=8` as how many dice of `2d6` show 8 or more \
         (here: 1 when the sum of `2d6` is 8 or more, else 0); for their reading write `2d6cs>=8`"
    );
    assert!(stdout(&output).contains("mean 0.4167 (5/12)"));
    let document = json(&["dist", "d6!=3", "--json"]);
    assert_eq!(document["other_readings"][0]["spelling"], "d6!3");
    let rolls = json(&["roll", "d20/3", "--seed", "1", "--json"]);
    assert_eq!(rolls["other_readings"][0]["text"], "d20/3");
    // Read alike everywhere: nothing said.
    let output = fairdice(&["dist", "2d6 >= 8"]);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        json(&["dist", "2d6 >= 8", "--json"])
            .get("other_readings")
            .is_none()
    );
}

#[test]
fn an_expression_may_start_with_a_minus_without_a_double_dash() {
    let halved = json(&["dist", "-(-(d6)/2)", "--json"]);
    assert_eq!(halved["expression"], "-(-(d6)/2)");
    assert_eq!(halved["min"], 1, "floor(-1/2) is -1");
    // Several expressions keep their order, options anywhere.
    let side = json(&["dist", "-d6", "--json", "2d6", "---d4"]);
    let written: Vec<&str> = side
        .as_array()
        .map(|d| d.iter().filter_map(|e| e["expression"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(written, ["-d6", "2d6", "---d4"], "{side}");
    let rolled = json(&["roll", "-n", "2", "-d6", "--seed", "3", "--json"]);
    let again = json(&["roll", "-d6", "--seed=3", "-n2", "--json"]);
    assert_eq!(rolled, again);
    assert!(ok(&["dist", "-h"]).contains("Usage: fairdice dist"));
    // After `--` everything is an expression, as usual.
    let error = fails(&["dist", "--", "-d6", "--json"], 2);
    assert!(error.contains("unknown name `json`"), "{error}");
}

#[test]
fn dist_json_counts_stay_exact_when_huge() {
    let v = json(&["dist", "100d6", "--json"]);
    assert_eq!(
        v["total"],
        "653318623500070906096690267158057820537143710472954871543071966369497141477376"
    );
    assert_eq!(v["mean_exact"], "350/1");
}

#[test]
fn dist_table_and_csv() {
    let table = stdout(&fairdice(&["dist", "4d6kh3"]));
    assert!(table.contains("mean 12.2446 (15869/1296)"), "{table}");
    assert!(
        table.contains("exact: 1296 equally likely rolls"),
        "{table}"
    );
    let csv = stdout(&fairdice(&["dist", "2d6", "--csv"]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("outcome,count,probability,at_most,at_least")
    );
    assert_eq!(
        lines.next(),
        Some("2,1,0.027777777777777776,0.027777777777777776,1")
    );
    assert_eq!(csv.lines().count(), 12);
}

#[test]
fn parse_errors_point_at_the_mistake_and_exit_2() {
    let output = fairdice(&["dist", "4d6kh3y"]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    // On the terminal the caret stands under the `y`, below `error: 4d6kh3y`.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "error: 4d6kh3y", "{err}");
    assert_eq!(lines[1].find('^'), lines[0].find('y'), "{err}");
    assert!(
        lines[1].ends_with("^ unexpected `y`; expected a modifier, an operator or end of input")
    );
    // A contest names the side, and its pool's caret is aligned the same way.
    let err = stderr(&fairdice(&["contest", "5d6", "4d6+2q"]));
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[1].trim_start(), "4d6+2q", "{err}");
    assert_eq!(lines[2].find('^'), lines[1].find('q'), "{err}");
    let output = fairdice(&["roll", "d6r<7"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("rerolled forever"));
}

#[test]
fn too_big_is_refused_with_its_estimate_and_exit_3() {
    let output = fairdice(&["dist", "1000000d1000000"]);
    assert_eq!(output.status.code(), Some(3));
    let err = stderr(&output);
    assert!(err.contains("too large to compute exactly"), "{err}");
    assert!(err.contains("steps"), "{err}");
    assert!(err.contains("--runs"), "{err}");
}

#[test]
fn monte_carlo_is_seeded() {
    let args = [
        "dist", "10d10kh3", "--runs", "20000", "--seed", "9", "--json",
    ];
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a, b);
    assert_eq!(a["method"], "monte_carlo");
    assert_eq!(a["total"], "20000");
    let mean = a["mean"].as_f64().unwrap();
    let exact = json(&["dist", "10d10kh3", "--json"])["mean"]
        .as_f64()
        .unwrap();
    let error = a["mean_standard_error"].as_f64().unwrap();
    assert!((mean - exact).abs() < 5.0 * error, "{mean} vs {exact}");
}

#[test]
fn rolls_repeat_with_a_seed() {
    let a = stdout(&fairdice(&[
        "roll", "4d6kh3", "--times", "5", "--seed", "42",
    ]));
    let b = stdout(&fairdice(&[
        "roll", "4d6kh3", "--times", "5", "--seed", "42",
    ]));
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 5);
    let v = json(&["roll", "4d6kh3", "--seed", "42", "--json"]);
    let roll = &v["rolls"][0];
    let dice = roll["terms"][0]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    let kept: i64 = dice
        .iter()
        .filter(|d| d["counted"] == true)
        .map(|d| d["value"].as_i64().unwrap())
        .sum();
    assert_eq!(roll["value"].as_i64().unwrap(), kept);
    // The pinned sequence: changing it is a breaking change for saved games.
    assert!(
        a.starts_with(&format!("{:>4}", roll["value"].as_i64().unwrap())),
        "{a}"
    );
}

#[test]
fn risk_three_against_two_per_roll_counts() {
    let v = json(&["risk", "3", "2", "--per-roll", "--json"]);
    assert_eq!(v["p_attacker_wins_exact"], "6610505/10077696");
    assert_eq!(v["method"], "exact");
    let rolls = v["per_roll"].as_array().unwrap();
    let three_two = rolls
        .iter()
        .find(|r| r["attacker_dice"] == 3 && r["defender_dice"] == 2)
        .unwrap();
    assert_eq!(three_two["total"], "7776");
    let counts: Vec<&str> = three_two["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["count"].as_str().unwrap())
        .collect();
    // Attacker loses 0, 1, 2: defender loses 2 in 2890, each 1 in 2611, attacker 2 in 2275.
    assert_eq!(counts, ["2890", "2611", "2275"]);
}

#[test]
fn risk_explains_the_five_sided_simulation() {
    // The well-known 100-v-100 simulation rolled 1..5: 640,106 wins in a million.
    let v = json(&["risk", "100", "100", "--faces", "5", "--json"]);
    let p = v["p_attacker_wins"].as_f64().unwrap();
    assert!(
        (p - 0.640106).abs() < 3.0 * (0.64f64 * 0.36 / 1e6).sqrt() + 1e-9,
        "{p}"
    );
    assert!((v["attacker_survivors_if_win"].as_f64().unwrap() - 15.63).abs() < 0.01);
    assert!((v["defender_survivors_if_win"].as_f64().unwrap() - 11.6).abs() < 0.02);
    let six = json(&["risk", "100", "100", "--json"])["p_attacker_wins"]
        .as_f64()
        .unwrap();
    assert!(six > 0.8, "{six}");
}

#[test]
fn risk_names_its_rule_in_words() {
    // The default answers for the armies that fight; the official rule counts the
    // army that stays behind, so one more army on the territory is the same battle.
    let simple = fairdice(&["risk", "10", "8"]);
    assert!(simple.status.success());
    assert!(
        stdout(&simple).contains("simple rule: all 10 attacking armies fight"),
        "{}",
        stdout(&simple)
    );
    let official = fairdice(&["risk", "11", "8", "--rule", "official"]);
    assert!(stdout(&official).contains("11 armies on the territory, one of which stays behind"));
    let p = |args: &[&str]| {
        json(args)["p_attacker_wins"]
            .as_f64()
            .expect("a probability")
    };
    assert_eq!(
        p(&["risk", "10", "8", "--json"]),
        p(&["risk", "11", "8", "--rule", "official", "--json"])
    );
    assert_eq!(format!("{:.3}", p(&["risk", "10", "8", "--json"])), "0.724");
    assert_eq!(
        format!(
            "{:.3}",
            p(&["risk", "10", "8", "--rule", "official", "--json"])
        ),
        "0.646"
    );
}

#[test]
fn risk_simulation_and_bad_input() {
    let v = json(&[
        "risk",
        "10",
        "10",
        "--simulate",
        "20000",
        "--seed",
        "4",
        "--json",
    ]);
    let interval = v["simulation"]["interval95"].as_array().unwrap();
    let (low, high) = (interval[0].as_f64().unwrap(), interval[1].as_f64().unwrap());
    let p = v["p_attacker_wins"].as_f64().unwrap();
    let width = high - low;
    assert!(
        low - width <= p && p <= high + width,
        "{p} vs {low}..{high}"
    );
    let output = fairdice(&["risk", "1", "5", "--rule", "official"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("at least 2 armies"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn risk_refuses_what_it_cannot_hold_instead_of_crashing() {
    for (args, status, says) in [
        (&["risk", "100000", "100000"][..], 3, "army states"),
        (
            &["risk", "5", "5", "--faces", "1000000000"][..],
            2,
            "at most 100000 faces",
        ),
        (
            &[
                "risk",
                "50",
                "50",
                "--attacker-dice",
                "300",
                "--defender-dice",
                "300",
                "--faces",
                "100",
            ][..],
            3,
            "too large to compute exactly",
        ),
        (
            &["risk", "5", "5", "--attacker-dice", "200", "--per-roll"][..],
            2,
            "one-roll tables",
        ),
        (
            &["risk", "100", "100", "--simulate", "100000000000"][..],
            3,
            "simulate fewer battles",
        ),
    ] {
        let output = fairdice(args);
        assert_eq!(
            output.status.code(),
            Some(status),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn plots_are_written_as_svg_or_png() {
    let dir = std::env::temp_dir().join(format!("fairdice-plots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("risk.svg");
    let output = fairdice(&[
        "risk",
        "5",
        "5",
        "--table",
        "6",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("attacking armies"),
        "{}",
        &text[..200.min(text.len())]
    );
    let png = dir.join("dist.png");
    let output = fairdice(&["dist", "3d6", "--plot", png.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let output = fairdice(&[
        "risk",
        "5",
        "5",
        "--plot",
        dir.join("x.gif").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_with_a_table_prints_it_as_csv_under_the_json_names() {
    // (arguments, the JSON array the CSV holds, its first columns)
    let cases: [(&[&str], &str, &str); 8] = [
        (&["dist", "2d6"], "outcomes", "outcome,count,probability"),
        (&["contest", "2d6", "2d6"], "net", "score,count,probability"),
        (
            &["risk", "3", "2", "--per-roll"],
            "",
            "attacker_dice,defender_dice,total,attacker_loses",
        ),
        (
            &["analyze", "deck(values=3)", "--samples", "4"],
            "steps",
            "step,entropy,outcome_variance",
        ),
        (
            &["tune", "--values", "3", "--samples", "4"],
            "systems",
            "system,params.",
        ),
        (
            &["next", "prd(p=0.25)", "--history", "0,0"],
            "outcomes",
            "outcome,probability",
        ),
        (
            &["prd", "0.25"],
            "attempts",
            "attempt,probability,first_success",
        ),
        (
            &["sample", "nes", "--samples", "5", "--seed", "2"],
            "samples",
            "draw,outcome,label",
        ),
    ];
    for (args, array, header) in cases {
        let csv = fairdice(&[args, &["--csv"]].concat());
        assert!(csv.status.success(), "{args:?}: {}", stderr(&csv));
        let text = stdout(&csv);
        assert!(text.starts_with(header), "{args:?}: {text}");
        if !array.is_empty() {
            let document = json(&[args, &["--json"]].concat());
            let rows = document[array].as_array().expect("an array").len();
            assert_eq!(text.lines().count(), rows + 1, "{args:?}: {text}");
        }
    }
    let grid = stdout(&fairdice(&["risk", "3", "2", "--table", "2", "--csv"]));
    assert_eq!(grid.lines().next(), Some("attackers \\ defenders,1,2"));
    assert_eq!(grid.lines().count(), 3);
    let endings = stdout(&fairdice(&["risk", "3", "2", "--csv"]));
    assert!(
        endings.starts_with("side,armies,probability\nattacker,1,"),
        "{endings}"
    );
}

/// Runs the command under a 3 GiB address-space cap (`ulimit -v`), as a machine
/// with little memory would: an allocation past it aborts the process.
fn capped(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3145728; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("sh runs")
}

#[test]
fn requests_that_once_ran_away_are_refused_or_answered_under_a_memory_cap() {
    // Each of these once held gigabytes (5.3 GB, 2.4 GB, 2.35 GB) before it was
    // refused; now each is priced first and refused at once, with an estimate
    // that finishes.
    for expression in ["10255d10!cs>=8", "65563d6even", "65536d20df>2kh"] {
        let output = capped(&["dist", expression]);
        assert_eq!(
            output.status.code(),
            Some(3),
            "{expression}: {}",
            stderr(&output)
        );
        assert!(stderr(&output).contains("--runs"), "{}", stderr(&output));
    }
    // A seat sweep over a deck of a thousand values made one 4.2 GB allocation;
    // one over a d65536 ran for minutes. Both now fall back to Monte Carlo.
    for randomizer in ["deck(values=1000)", "dice(base=d65536)"] {
        let samples = if randomizer.starts_with("deck") {
            "30"
        } else {
            "1"
        };
        let output = capped(&[
            "seats",
            "docs/games/catan-beginner.json",
            "--randomizer",
            randomizer,
            "--samples",
            samples,
        ]);
        assert!(output.status.success(), "{randomizer}: {}", stderr(&output));
        assert!(
            stdout(&output).contains("method: Monte Carlo"),
            "{}",
            stdout(&output)
        );
    }
}
