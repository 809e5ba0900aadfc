//! `fairdice contest` end to end: the report, the JSON, and the exit status of
//! every kind of refusal.

use super::support::{fairdice, stderr, stdout};

/// The JSON document of a run that must succeed, `--json` added.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    super::support::json(&all)
}

#[test]
fn the_report_shows_odds_measures_and_the_net_score() {
    let output = fairdice(&["contest", "5d6", "5d6"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for expected in [
        "A: 5d6  vs  B: 5d6",
        "sorted pairing, ties stand; 5 dice against 5 dice, 5 pairs per roll",
        "A wins",
        "13618495/30233088",
        "win bias 0.00, tie % 9.91, closeness 0.340",
        "net score",
        "exact: 60466176 equally likely rolls",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // One row per net score from −5 to +5, each with a bar.
    assert_eq!(text.lines().filter(|l| l.contains('█')).count(), 11);
}

#[test]
fn json_has_exact_fractions_beside_floats() {
    let value = json(&["contest", "5d6", "5d6", "--ties", "a-wins"]);
    assert_eq!(value["pairing"], "sorted");
    assert_eq!(value["ties"], "a-wins");
    assert_eq!(
        format!("{:.2}", value["win_bias"].as_f64().unwrap()),
        "38.21"
    );
    assert_eq!(value["tie_percent"].as_f64().unwrap(), 0.0);
    assert_eq!(
        format!("{:.3}", value["closeness"].as_f64().unwrap()),
        "0.282"
    );
    assert_eq!(value["p_tie_exact"], "0/1");
    assert_eq!(value["total"], "60466176");
    let net = value["net"].as_array().unwrap();
    let total: u64 = net
        .iter()
        .map(|row| row["count"].as_str().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 60466176);
    let p: f64 = net
        .iter()
        .map(|row| row["probability"].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-12);
    let a_wins: f64 = net
        .iter()
        .filter(|row| row["score"].as_i64().unwrap() > 0)
        .map(|row| row["probability"].as_f64().unwrap())
        .sum();
    assert!((a_wins - value["p_a_wins"].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn risk_odds_with_the_defender_winning_ties() {
    let value = json(&["contest", "3d6", "2d6", "--ties", "b-wins"]);
    assert_eq!(value["pairs"], 2);
    assert_eq!(value["p_a_wins_exact"], "1445/3888"); // 2890/7776
    assert_eq!(value["p_tie_exact"], "2611/7776");
    assert_eq!(value["p_b_wins_exact"], "2275/7776");
}

#[test]
fn mixed_pools_pair_as_written_when_unsorted() {
    // 5d6 against 3d6+1d8+1d10, A winning ties: 2.97 unsorted, 2.67 sorted.
    let unsorted = json(&[
        "contest",
        "5d6",
        "3d6+1d8+1d10",
        "--pairing",
        "unsorted",
        "--ties",
        "a-wins",
    ]);
    assert_eq!(
        format!("{:.2}", unsorted["win_bias"].as_f64().unwrap()),
        "2.97"
    );
    let sorted = json(&["contest", "5d6", "3d6+1d8+1d10", "--ties", "a-wins"]);
    assert_eq!(
        format!("{:.2}", sorted["win_bias"].as_f64().unwrap()),
        "2.67"
    );
}

#[test]
fn rerolled_ties_are_exact() {
    let value = json(&["contest", "2d6", "2d6", "--ties", "reroll"]);
    assert_eq!(value["p_tie_exact"], "14/41");
    assert_eq!(
        format!("{:.4}", value["tie_percent"].as_f64().unwrap()),
        "34.1463"
    );
    let output = fairdice(&["contest", "2d6", "2d6", "--ties", "reroll"]);
    assert!(stdout(&output).contains("rerolls condition the rolls"));
}

#[test]
fn pools_that_are_not_dice_are_refused_with_a_caret() {
    for (a, b, fragment) in [
        (
            "3d6+2",
            "5d6",
            "a constant cannot be part of a contest pool",
        ),
        (
            "5d6",
            "4d6kh3",
            "keeping, dropping or counting dice is not allowed",
        ),
        ("(d4)d6", "2d6", "needs a fixed number of dice"),
        ("2d6-1d6", "2d6", "`-` cannot be part of a contest pool"),
        ("3d6+", "2d6", "unexpected end of input"),
    ] {
        let output = fairdice(&["contest", a, b]);
        assert_eq!(output.status.code(), Some(2), "{a} {b}");
        let message = stderr(&output);
        assert!(message.contains(fragment), "{message}");
        assert!(message.contains('^'), "{message}");
    }
    let output = fairdice(&["contest", "5d6", "4d6kh3"]);
    let message = stderr(&output);
    // The pool and its caret are indented under `error: `, so the caret stands
    // under `kh3`.
    assert!(
        message.contains("in pool B:\n       4d6kh3\n          ^^^"),
        "{message}"
    );
    // A constant in a pool points to the distribution that compares the totals.
    let message = stderr(&fairdice(&["contest", "5d6", "4d6+2"]));
    assert!(
        message.contains("`fairdice dist '5d6 > 4d6+2'`"),
        "{message}"
    );
}

#[test]
fn contests_that_cannot_be_computed_say_why() {
    let output = fairdice(&["contest", "0d6", "5d6"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("side A has no dice"));

    let output = fairdice(&["contest", "3d6+1d8", "5d6", "--ties", "reroll"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("one kind of die per side"));

    let output = fairdice(&["contest", "d1", "d1", "--ties", "reroll"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("rerolling ties would never end"));

    let output = fairdice(&["contest", "300d6", "300d6"]);
    assert_eq!(output.status.code(), Some(3));
    let message = stderr(&output);
    assert!(
        message.contains("too large to compute exactly"),
        "{message}"
    );
    assert!(message.contains("steps (the limit is 2.0e9)"), "{message}");
    assert!(
        message.contains("fairdice contest 300d6 300d6 --runs 20000"),
        "{message}"
    );
}

#[test]
fn runs_estimate_a_contest_by_monte_carlo_beside_its_exact_value() {
    let exact = json(&["contest", "5d6", "5d6"]);
    assert_eq!(exact["method"], "exact");
    let estimate = json(&["contest", "5d6", "5d6", "--runs", "100000", "--seed", "9"]);
    assert_eq!(estimate["method"], "monte_carlo");
    assert_eq!(
        (estimate["runs"].as_u64(), estimate["seed"].as_u64()),
        (Some(100000), Some(9))
    );
    assert_eq!(estimate["total"], "100000");
    for (key, error) in [
        ("win_bias", "win_bias_standard_error"),
        ("tie_percent", "tie_percent_standard_error"),
        ("closeness", "closeness_standard_error"),
    ] {
        let (got, want) = (
            estimate[key].as_f64().unwrap(),
            exact[key].as_f64().unwrap(),
        );
        let error = estimate[error].as_f64().unwrap();
        assert!(error > 0.0, "{key}");
        assert!(
            (got - want).abs() <= 4.0 * error,
            "{key}: {got} vs {want} ± {error}"
        );
    }
    // Too large to compute, but not to estimate.
    let text = stdout(&fairdice(&["contest", "300d6", "300d6", "--runs", "2000"]));
    assert!(
        text.contains("Monte Carlo estimate: 2000 seeded rolls (seed 1)"),
        "{text}"
    );
    assert!(text.contains("± standard error"), "{text}");
}

#[test]
fn help_explains_pools_and_measures() {
    let output = fairdice(&["contest", "--help"]);
    let text = stdout(&output);
    assert!(text.contains("`+` joins dice into one pool"));
    assert!(text.contains("closeness = 1 / sqrt(E[net²])"));
    assert!(text.contains("a-wins"));
}
