//! Machines against their documents: exact chances, draws, saved states and the
//! refusals that name the fault.

use super::*;
use crate::randomizer::testing::{assert_distribution_invariants, draws};

/// The banner of the docs: 0.6% a pull, rising 6 points a pull from the 74th,
/// certain at the 90th; a 5-star is the featured one with chance 1/2, and after
/// one that is not, the next is.
pub(crate) const BANNER: &str = r#"{
  "name": "limited banner",
  "outcomes": ["3-star", "featured", "standard"],
  "layers": [
    {"name": "pity", "counter": 90,
     "draw": {"5-star": "min(1, 0.6% + 6% * max(0, n - 72))", "3-star": "rest"},
     "next": {"5-star": 0, "3-star": "n + 1"}},
    {"name": "fifty-fifty", "refines": "5-star",
     "states": {
       "even": {"draw": {"featured": "1/2", "standard": "1/2"},
                "next": {"standard": "guaranteed"}},
       "guaranteed": {"draw": {"featured": 1}, "next": {"featured": "even"}}}}
  ]
}"#;

pub(crate) const SHOT: &str = r#"{"layers": [{"name": "misses", "counter": 6,
  "draw": {"hit": "min(1, 1/2 + n/10)", "miss": "rest"},
  "next": {"hit": 0, "miss": "min(5, n + 1)"}}]}"#;

fn machine(text: &str) -> Machine {
    Machine::from_json(text).unwrap_or_else(|e| panic!("{e}"))
}

fn refusal(text: &str) -> String {
    Machine::from_json(text).expect_err(text).to_string()
}

#[test]
fn the_banner_draws_its_documented_chances() {
    let mut banner = machine(BANNER);
    assert_eq!(banner.outcomes(), [0, 1, 2]);
    assert_eq!(banner.label(1), "featured");
    assert_eq!(banner.reachable_states(), 180);
    let d = banner.next_distribution();
    assert!((d[0] - 0.994).abs() < 1e-15 && (d[1] - 0.003).abs() < 1e-15);
    for _ in 0..73 {
        banner.observe(0).expect("a 3-star");
    }
    assert!((banner.next_distribution()[0] - 0.934).abs() < 1e-12);
    for _ in 73..89 {
        banner.observe(0).expect("a 3-star");
    }
    assert_eq!(banner.next_distribution(), [0.0, 0.5, 0.5]);
    let error = banner.clone().observe(0).expect_err("certain at 90");
    assert!(error.to_string().contains("n = 89"), "{error}");
    banner.observe(2).expect("lost the 50/50");
    assert_eq!(banner.next_distribution()[2], 0.0);
    assert_eq!(
        banner.describe_state(),
        [
            ("pity".to_string(), "n = 0".to_string()),
            (
                "fifty-fifty".to_string(),
                "state \"guaranteed\"".to_string()
            )
        ]
    );
    assert_eq!(banner.state_key(), [0, 1]);
}

#[test]
fn machines_keep_every_randomizer_invariant() {
    for text in [BANNER, SHOT] {
        for seed in 0..4 {
            let mut m = machine(text);
            assert_distribution_invariants(&mut m, 300, seed);
        }
        let mut m = machine(text);
        crate::randomizer::testing::assert_draws_follow_distribution(&m, 4000);
        m.observe(0).expect("possible");
    }
}

#[test]
fn the_spec_is_the_document_and_rebuilds_the_machine() {
    let banner = machine(BANNER);
    let again = machine(&banner.spec());
    assert_eq!(again.spec(), banner.spec());
    assert!(!banner.spec().contains('\n'));
    let built = crate::randomizer::Spec::build(&format!("  {SHOT}")).expect("a spec");
    assert_eq!(built.spec(), machine(SHOT).spec());
}

#[test]
fn value_stability() {
    let mut shot = machine(SHOT);
    assert_eq!(
        draws(&mut shot, 7, 16),
        [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    );
}

#[test]
fn numbered_outcomes_keep_their_values() {
    let dice =
        machine(r#"{"layers": [{"name": "d", "draw": {"1": "1/4", "2": "1/4", "5": "rest"}}]}"#);
    assert_eq!(dice.outcomes(), [1, 2, 5]);
    assert_eq!(dice.next_distribution(), [0.25, 0.25, 0.5]);
    assert!(
        refusal(r#"{"layers": [{"name": "d", "draw": {"2": "1/2", "1": "rest"}}]}"#)
            .contains("increasing order")
    );
}

#[test]
fn refusals_name_the_fault() {
    for (text, needle) in [
        ("not json", "not valid"),
        (r#"{"layers": []}"#, "at least one layer"),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1}}], "colour": 1}"#,
            "unknown field",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "1/2", "y": "1/3"}}]}"#,
            "sum to 5/6, not 1",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "2/3", "y": "rest", "z": "1/2"}}]}"#,
            "above 1",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "3/2", "y": "rest"}}]}"#,
            "accepted: 0 to 1",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1, "x": 0}}]}"#,
            "twice",
        ),
        (
            r#"{"layers": [{"name": "a", "counter": 3, "draw": {"x": 1}, "next": {"x": "n + 1"}}]}"#,
            "next count is 3",
        ),
        (
            r#"{"layers": [{"name": "a", "counter": 3, "draw": {"x": 1}}]}"#,
            "n = 1 cannot be reached",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "n"}}]}"#,
            "counter layer",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1, "y": 0}}]}"#,
            "\"y\" is never drawn",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1}}, {"name": "b", "draw": {"y": 1}}]}"#,
            "needs \"refines\"",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1}}, {"name": "b", "refines": "q", "draw": {"y": 1}}]}"#,
            "no earlier layer",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": 1}}, {"name": "b", "refines": "x", "draw": {"x": 1}}]}"#,
            "drawn by layers",
        ),
        (
            r#"{"layers": [{"name": "a", "states": {"s": {"draw": {"x": 1}, "next": {"x": "t"}}}}]}"#,
            "not one of its states",
        ),
        (
            r#"{"outcomes": ["x", "z"], "layers": [{"name": "a", "draw": {"x": 1}}]}"#,
            "not a result",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "0.1234567890123456789012345678901"}}]}"#,
            "digits",
        ),
        (
            r#"{"layers": [{"name": "a", "counter": 2000000, "draw": {"x": 1}}]}"#,
            "at most 1000000",
        ),
        (
            r#"{"layers": [{"name": "a", "draw": {"x": "1/3", "y": "1/7", "z": "rest", "w": "0"}}]}"#,
            "\"w\" is never drawn",
        ),
    ] {
        let error = refusal(text);
        assert!(error.contains(needle), "{text}: {error}");
    }
    let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(refusal(&deep).contains("not valid"));
    let long = format!(
        r#"{{"name": "{}", "layers": []}}"#,
        "x".repeat(MAX_MACHINE_BYTES)
    );
    assert!(refusal(&long).contains("at most"));
}

#[test]
fn too_many_states_together_are_refused() {
    // Two counters of 1,001 states each, moving independently: 1,002,001 states.
    let text = r#"{"layers": [
      {"name": "a", "counter": 1001, "draw": {"x": "1/2", "y": "rest"},
       "next": {"x": "n == 1000 ? 0 : n + 1", "y": "n == 1000 ? 0 : n + 1"}},
      {"name": "b", "refines": "y", "counter": 1001, "draw": {"u": "1/2", "v": "rest"},
       "next": {"u": "n == 1000 ? 0 : n + 1", "v": 0}}]}"#;
    assert!(refusal(text).contains("more than 1000000 states"));
}
