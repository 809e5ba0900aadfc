//! A game's own randomness on the command line: machine documents, goals and
//! audits, and the hostile files and logs they must refuse without a panic.

use super::support::{fails, json, ok};

/// A file in a fresh temporary folder holding `text`; its path.
fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("fairdice-machines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path.to_str().expect("a UTF-8 path").to_string()
}

const BANNER: &str = "@../../docs/machines/banner.json";

#[test]
fn a_machine_is_a_spec_for_every_randomizer_command() {
    let drawn = json(&[
        "sample",
        BANNER,
        "--samples",
        "300",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(drawn["labels"].as_array().map(Vec::len), Some(300));
    let next = json(&["next", BANNER, "--history", "3-star*89", "--json"]);
    let chances: Vec<f64> = next["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| o["probability"].as_f64().expect("a chance"))
        .collect();
    assert_eq!(chances, [0.0, 0.5, 0.5]);
    let analysis = json(&[
        "analyze",
        "@../../docs/machines/loot.json",
        "--samples",
        "10",
        "--json",
    ]);
    assert_eq!(analysis["method"], "exact");
    // A saved session keeps the document and continues it.
    let saved = file("banner-session.json", "");
    ok(&[
        "sample",
        BANNER,
        "--samples",
        "50",
        "--seed",
        "2",
        "--save",
        &saved,
    ]);
    let rest = json(&["sample", "--resume", &saved, "--samples", "50", "--json"]);
    let whole = json(&[
        "sample",
        BANNER,
        "--samples",
        "100",
        "--seed",
        "2",
        "--json",
    ]);
    assert_eq!(
        rest["samples"].as_array().unwrap()[..],
        whole["samples"].as_array().unwrap()[50..]
    );
}

#[test]
fn goals_answer_exactly_and_refuse_what_they_cannot_count() {
    let goal = json(&["goal", BANNER, "--until", "featured", "--json"]);
    assert_eq!(goal["certain_by"], 180);
    assert!(goal["mean_exact"].as_str().is_some_and(|f| f.contains('/')));
    let every = json(&["goal", "dice(values=4)", "--every", "--json"]);
    // Collecting four faces: 4·(1 + 1/2 + 1/3 + 1/4) = 25/3 draws.
    assert!((every["mean"].as_f64().unwrap() - 25.0 / 3.0).abs() < 1e-9);
    assert!(fails(&["goal", BANNER, "--until", "legendary"], 2).contains("legendary"));
    assert!(fails(&["goal", BANNER], 2).contains("until"));
    assert!(fails(&["goal", BANNER, "--until", "featured", "--times", "0"], 2).contains("1 to"));
    assert!(
        fails(
            &[
                "goal",
                BANNER,
                "--until",
                "featured",
                "--history",
                "3-star*90"
            ],
            2
        )
        .contains("history")
    );
    let refused = fails(
        &[
            "goal",
            "fair(values=6, tightness=1)",
            "--until",
            "6",
            "--exact",
        ],
        3,
    );
    assert!(refused.contains("--runs"), "{refused}");
    let estimate = json(&[
        "goal",
        "fair(values=6, tightness=1)",
        "--until",
        "6",
        "--runs",
        "2000",
        "--json",
    ]);
    assert_eq!(estimate["method"]["method"], "monte_carlo");
    // The chance within each number of attempts, drawn.
    let chart = file("banner-goal.svg", "");
    ok(&["goal", BANNER, "--until", "featured", "--plot", &chart]);
    let svg = std::fs::read_to_string(&chart).expect("the chart");
    assert!(
        svg.starts_with("<svg") && svg.contains("Attempts until featured"),
        "{svg:.200}"
    );
}

#[test]
fn hostile_machine_files_are_refused_with_a_reason() {
    let huge_weight = format!(
        r#"{{"layers": [{{"name": "a", "draw": {{"x": "{}", "y": "rest"}}}}]}}"#,
        "9".repeat(300)
    );
    let deep = format!(
        r#"{{"layers": {}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let unknown = r#"{"layers": [{"name": "a", "draw": {"x": 1}}], "weights": []}"#;
    let cycle = r#"{"layers": [{"name": "a", "draw": {"x": 1}}, {"name": "b", "refines": "y", "draw": {"y": 1}}]}"#;
    let long = format!(r#"{{"about": "{}", "layers": []}}"#, "x".repeat(300 * 1024));
    for (name, text, says) in [
        (
            "weight.json",
            huge_weight.as_str(),
            "(300 digits) has more than 30 digits",
        ),
        ("deep.json", deep.as_str(), "not valid"),
        ("unknown.json", unknown, "unknown field"),
        ("cycle.json", cycle, "no earlier layer"),
        ("long.json", long.as_str(), "longer than"),
        ("binary.json", "\u{0}\u{1}", "not a machine document"),
        ("list.json", "[1, 2]", "not a machine document"),
    ] {
        let path = file(name, text);
        let error = fails(&["sample", &format!("@{path}")], 2);
        assert!(error.contains(says), "{name}: {error}");
    }
    let missing = fails(&["sample", "@/nonexistent/machine.json"], 2);
    assert!(missing.contains("cannot read"), "{missing}");
}

#[test]
fn audits_score_logs_and_name_what_is_wrong_with_them() {
    let dealt = json(&[
        "sample",
        "deck(base=2d6)",
        "--samples",
        "36",
        "--seed",
        "9",
        "--json",
    ]);
    let log = file("dealt.json", &dealt.to_string());
    let report = json(&[
        "audit",
        &log,
        "--randomizer",
        "dice(base=2d6)",
        "--runs",
        "300",
        "--json",
    ]);
    assert_eq!(report["entries"], 36);
    assert!(
        report["candidates"][0]["spec"]
            .as_str()
            .unwrap()
            .starts_with("deck(base=2d6, copies=1")
    );
    // An entry the randomizer cannot give: minus infinity, named, and exit 0.
    let impossible = file("impossible.txt", "2\n2\n");
    let scored = json(&[
        "audit",
        &impossible,
        "--randomizer",
        "deck(base=2d6)",
        "--runs",
        "0",
        "--json",
    ]);
    assert!(scored["log_likelihood"].is_null());
    assert_eq!(scored["impossible"]["entry"], 2);
    let text = ok(&[
        "audit",
        &impossible,
        "--randomizer",
        "deck(base=2d6)",
        "--runs",
        "0",
    ]);
    assert!(text.contains("-inf: entry 2"), "{text}");
    for (name, text, says) in [
        ("empty.txt", "# nothing rolled yet\n\n", "no entries"),
        ("wrong.txt", "7\n13\n", "log entry 2"),
        ("bad.json", "[7, {}]", "a number or a text"),
    ] {
        let path = file(name, text);
        let error = fails(&["audit", &path, "--randomizer", "dice(base=2d6)"], 2);
        assert!(error.contains(says), "{name}: {error}");
    }
    let enormous = file("enormous.txt", &"7\n".repeat(1_000_001));
    assert!(
        fails(&["audit", &enormous, "--randomizer", "dice(base=2d6)"], 2)
            .contains("at most 1000000")
    );
}

#[test]
fn seats_split_a_machine_by_its_labels() {
    // Two players shoot the streak-breaking shot in turns; each scores their own
    // hits ("roller" columns), named by the machine's label.
    let game = file(
        "shooters.json",
        r#"{"players": ["ann", "bob"], "turns": true, "columns": "roller", "payoffs": {"hit": [1, 0]}}"#,
    );
    let report = json(&[
        "seats",
        &game,
        "--randomizer",
        "@../../docs/machines/streak-shot.json",
        "--samples",
        "6",
        "--json",
    ]);
    assert_eq!(report["method"], "exact");
    // Every sequence of 6 shots: a hit has chance min(1, 1/2 + misses/10), the
    // misses in a row counted up to 5.
    let mut expected = [0.0f64; 2];
    for shots in 0u32..64 {
        let (mut chance, mut misses) = (1.0, 0u32);
        for t in 0..6 {
            let hit_chance = (0.5 + f64::from(misses) / 10.0).min(1.0);
            if shots >> t & 1 == 1 {
                chance *= hit_chance;
                misses = 0;
            } else {
                chance *= 1.0 - hit_chance;
                misses = (misses + 1).min(5);
            }
        }
        for (t, total) in (0..6).zip([0, 1, 0, 1, 0, 1]) {
            if shots >> t & 1 == 1 {
                expected[total] += chance;
            }
        }
    }
    for (player, want) in report["all_rolls"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .zip(expected)
    {
        let got = player["expected_total"]["value"].as_f64().expect("a total");
        assert!((got - want).abs() < 1e-12, "{player}: {got} against {want}");
    }
    // A label the machine does not have is named, with the ones it has.
    let wrong = file(
        "wrong-label.json",
        r#"{"players": ["ann"], "payoffs": {"bullseye": [1]}}"#,
    );
    let error = fails(
        &[
            "seats",
            &wrong,
            "--randomizer",
            "@../../docs/machines/streak-shot.json",
            "--samples",
            "6",
        ],
        2,
    );
    assert!(
        error.contains("`bullseye` in the payoffs is not an outcome of"),
        "{error}"
    );
    assert!(error.contains("miss, hit"), "{error}");
}

#[test]
fn tune_searches_the_parameters_a_machine_names() {
    const AIM: &str = "@../../docs/machines/aim-assist.json";
    let text = ok(&["tune", "--grid", AIM, "--samples", "20"]);
    assert!(
        text.starts_with(
            "outcomes of aim assist, 20 samples, mean entropy ≥ 0.9, fairest by base deviation"
        ),
        "{text}"
    );
    assert!(
        text.contains("fairest: aim assist (boost=0.2), base deviation 0.56 (as written: 0.68)"),
        "{text}"
    );
    // The spec printed is the document with the winner's value: it draws.
    let spec = text
        .lines()
        .find_map(|line| line.strip_prefix("spec: "))
        .expect("a spec line");
    let drawn = json(&["sample", spec, "--samples", "5", "--seed", "2", "--json"]);
    assert_eq!(drawn["labels"].as_array().map(Vec::len), Some(5));
    // Values after the file choose the candidates.
    let chosen = json(&[
        "tune",
        "--grid",
        &format!("{AIM}(boost=0|5%|0.3)"),
        "--samples",
        "20",
        "--all",
        "--json",
    ]);
    let tried: Vec<f64> = chosen["systems"][0]["candidates"]
        .as_array()
        .expect("every candidate")
        .iter()
        .map(|c| c["params"]["boost"].as_f64().expect("a number"))
        .collect();
    assert_eq!(tried, [0.0, 0.05, 0.3]);
    // Each refusal names its fault (exit 2).
    let untunable = fails(&["tune", "--grid", BANNER, "--samples", "20"], 2);
    assert!(
        untunable.contains("has no parameter to tune"),
        "{untunable}"
    );
    let both = fails(
        &["tune", "--grid", AIM, "--values", "2", "--samples", "20"],
        2,
    );
    assert!(both.contains("leave out the values"), "{both}");
    let unknown = fails(
        &[
            "tune",
            "--grid",
            &format!("{AIM}(bost=1)"),
            "--samples",
            "20",
        ],
        2,
    );
    assert!(unknown.contains("accepted: boost"), "{unknown}");
    let over = file(
        "over.json",
        &std::fs::read_to_string("../../docs/machines/aim-assist.json")
            .expect("the example")
            .replace("min(95%, 50% + boost * n)", "50% + boost * n"),
    );
    let invalid = fails(
        &["tune", "--grid", &format!("@{over}"), "--samples", "20"],
        2,
    );
    assert!(
        invalid.contains(
            "aim assist with boost=0.125: layer \"misses\": n = 5: the chance of \"hit\" is 9/8"
        ),
        "{invalid}"
    );
    let missing = fails(&["tune", "--grid", "@nowhere.json", "--samples", "20"], 2);
    assert!(missing.contains("cannot read nowhere.json"), "{missing}");
}
