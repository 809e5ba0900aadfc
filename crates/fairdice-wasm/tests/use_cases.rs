//! Every use case through the wasm crate's entry points, natively: the reports are
//! the use-case layer's own documents, each page gets its charts and everything it shows in those documents,
//! and errors are the use-case layer's error documents.

use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_wasm::{compute_json, run_json};
use serde_json::Value;

fn page(use_case: &str, request: &str, view: &str) -> Value {
    serde_json::from_str(&compute_json(use_case, &[request.to_string()], view)).expect("JSON")
}

fn names(answer: &Value) -> Vec<&str> {
    answer["charts"]
        .as_array()
        .expect("charts")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect()
}

#[test]
fn run_json_answers_every_use_case_with_the_use_case_layers_document() {
    let cases = [
        ("dist", r#"{"expression": "3d6"}"#),
        ("roll", r#"{"expression": "4d6kh3", "seed": 7}"#),
        ("contest", r#"{"a": "3d6", "b": "2d6", "ties": "b-wins"}"#),
        (
            "risk",
            r#"{"attacker": 3, "defender": 2, "per_roll": true}"#,
        ),
        ("analyze", r#"{"spec": "tgm2", "samples": 12}"#),
        ("droughts", r#"{"spec": "deck(values=3)", "samples": 6}"#),
        ("tune", r#"{"values": 4, "samples": "12"}"#),
        ("sample", r#"{"source": {"spec": "tgm2"}, "count": 5}"#),
        (
            "next",
            r#"{"source": {"spec": "deck(values=3)"}, "history": ["1"]}"#,
        ),
        ("prd", r#"{"p": 0.25}"#),
    ];
    for (use_case, request) in cases {
        let answered = run_json(use_case, request);
        let native = fairdice_api::run_json(use_case, request, &Control::new()).expect(use_case);
        assert_eq!(answered, native, "{use_case}");
    }
}

#[test]
fn a_contest_page_gets_its_net_score_chart_and_both_sides_dice() {
    let answer = page(
        "contest",
        r#"{"a": "5d6", "b": "3d6+1d8+1d10"}"#,
        r#"{"width": 400}"#,
    );
    assert_eq!(names(&answer), ["net_score"]);
    assert_eq!(answer["results"][0]["report"]["a_dice"], 5);
    assert_eq!(answer["results"][0]["report"]["b_dice"], 5);
    assert!(
        answer["charts"][0]["svg"]
            .as_str()
            .expect("svg")
            .contains(r#"width="400""#)
    );
}

#[test]
fn a_risk_page_gets_survivors_a_heat_map_and_the_one_roll_probabilities() {
    let request =
        r#"{"attacker": 5, "defender": 5, "rule": "official", "per_roll": true, "table": 6}"#;
    let answer = page("risk", request, "{}");
    assert_eq!(names(&answer), ["survivors", "heat_map"]);
    let report = &answer["results"][0]["report"];
    assert!(
        report["setup"]
            .as_str()
            .expect("setup")
            .starts_with("5 attacking v 5 defending, official rule")
    );
    assert!(report.get("float_reason").is_none());
    // 3 dice against 2: 2890, 2611 and 2275 of 7776.
    let per_roll = answer["results"][0]["report"]["per_roll"]
        .as_array()
        .expect("tables");
    let three_two = per_roll
        .iter()
        .position(|t| t["attacker_dice"] == 3 && t["defender_dice"] == 2)
        .expect("3 v 2");
    let p = per_roll[three_two]["outcomes"][0]["probability"]
        .as_f64()
        .expect("p");
    assert!((p - 2890.0 / 7776.0).abs() < 1e-15, "{p}");
    let heat = answer["charts"][1]["svg"].as_str().expect("svg");
    assert!(heat.matches("<rect").count() >= 36);

    let float = page(
        "risk",
        r#"{"attacker": 5, "defender": 5, "float": true}"#,
        "{}",
    );
    assert_eq!(
        float["results"][0]["report"]["float_reason"],
        "solved in floating point, as asked"
    );
    let large = page("risk", r#"{"attacker": 1000, "defender": 1000}"#, "{}");
    let reason = large["results"][0]["report"]["float_reason"]
        .as_str()
        .expect("reason");
    assert!(reason.contains("more than 90000 states"), "{reason}");
}

#[test]
fn analyses_get_their_curves_and_the_drought_gaps_worth_a_column() {
    let answer = page(
        "analyze",
        r#"{"spec": "deck(values=6)", "samples": 25}"#,
        r#"{"width": 320}"#,
    );
    assert_eq!(names(&answer), ["curves"]);
    let gaps = &answer["results"][0]["report"]["droughts"]["shown_gaps"];
    assert!(gaps.as_array().is_some_and(|g| !g.is_empty()), "{gaps}");
    let alone = page(
        "droughts",
        r#"{"spec": "deck(values=6)", "samples": 25}"#,
        "{}",
    );
    assert_eq!(alone["results"][0]["report"]["shown_gaps"], *gaps);
    let svg = answer["charts"][0]["svg"].as_str().expect("svg");
    // Two panels in a stack, each drawn at the page's width.
    assert!(svg.matches(r#"<svg"#).count() == 3 && svg.matches(r#"width="320""#).count() >= 3);
}

#[test]
fn a_search_gets_the_winners_curves() {
    let answer = page("tune", r#"{"values": 6, "samples": "25"}"#, "{}");
    assert_eq!(names(&answer), ["curves"]);
    let svg = answer["charts"][0]["svg"].as_str().expect("svg");
    assert!(svg.contains("dynamic (decrease=0.355)"), "{svg:.300}");
    let request: fairdice_api::tune::TuneRequest =
        serde_json::from_str(r#"{"values": 6, "samples": "25"}"#).expect("request");
    let report = request.run(&Control::new()).expect("small");
    assert_eq!(
        answer["results"][0]["report"],
        serde_json::from_str::<Value>(&serde_json::to_string(&report).expect("JSON"))
            .expect("JSON")
    );
}
