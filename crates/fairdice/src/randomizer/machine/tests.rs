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

/// A loot chest whose guarantee comes after `cap` chests and whose sword chance is
/// a parameter: the counter's size and the chances are formulas of parameters.
const LOOT: &str = r#"{"name": "loot",
  "parameters": {"cap": {"value": 25, "tune": "10..40"}, "rate": {"value": "2%"},
                 "last": {"value": "cap - 1"}},
  "layers": [{"name": "since sword", "counter": "cap",
    "draw": {"sword": "n == last ? 1 : rate", "gold": "rest"},
    "next": {"sword": 0, "gold": "n + 1"}}]}"#;

#[test]
fn parameters_set_counters_and_chances() {
    let loot = machine(LOOT);
    assert_eq!(loot.reachable_states(), 25);
    assert_eq!(
        loot.parameters(),
        [
            MachineParameter {
                name: "cap".into(),
                value: "25".into(),
                tune: Some("10..40".into()),
            },
            MachineParameter {
                name: "rate".into(),
                value: "2%".into(),
                tune: None,
            },
            MachineParameter {
                name: "last".into(),
                value: "cap - 1".into(),
                tune: None,
            },
        ]
    );
    assert_eq!(
        loot.exact_next_distribution(),
        Some(vec![Ratio::new(1, 50), Ratio::new(49, 50)])
    );
    let short = loot
        .with_parameters(&[("cap", "3".into()), ("rate", "1/4".into())])
        .expect("valid");
    assert_eq!(short.reachable_states(), 3);
    assert_eq!(
        short.exact_next_distribution(),
        Some(vec![Ratio::new(1, 4), Ratio::new(3, 4)])
    );
    // The values set are in the spec, which rebuilds the same machine.
    assert!(
        short.spec().contains(r#""cap":{"value":3"#),
        "{}",
        short.spec()
    );
    assert_eq!(machine(&short.spec()), short);
    let mut after = short.clone();
    after.observe(1).expect("gold");
    after.observe(1).expect("gold");
    assert_eq!(after.next_distribution(), [1.0, 0.0]);
    // A machine without parameters writes none.
    assert!(!machine(SHOT).spec().contains("parameters"));
}

#[test]
fn parameter_refusals_name_the_fault() {
    let with = |parameters: &str, counter: &str| {
        refusal(&format!(
            r#"{{"parameters": {parameters}, "layers": [{{"name": "l", "counter": {counter},
                "draw": {{"a": "1/2", "b": "rest"}}, "next": {{"a": 0, "b": "min(n + 1, 1)"}}}}]}}"#
        ))
    };
    for (parameters, counter, needle) in [
        (r#"{"n": {"value": 1}}"#, "2", "taken by formulas"),
        (r#"{"2x": {"value": 1}}"#, "2", "a name is a letter"),
        (
            r#"{"k": {"value": "1 +"}}"#,
            "2",
            "parameter \"k\": its value",
        ),
        (
            r#"{"k": {"value": 1.5}}"#,
            "\"k\"",
            "a whole number of states",
        ),
        (r#"{"k": {"value": 0}}"#, "\"k\"", "at least 1"),
        (r#"{"k": {"value": 1, "step": 2}}"#, "2", "unknown field"),
        (
            r#"{"k": {"value": "j"}, "j": {"value": 1}}"#,
            "2",
            "its value: at byte 0 of `j`",
        ),
        (r#"{"k": {"value": 1}}"#, "\"kk\"", "a parameter (k)"),
    ] {
        let error = with(parameters, counter);
        assert!(error.contains(needle), "{parameters} {counter}: {error}");
    }
    let error = machine(LOOT)
        .with_parameters(&[("cup", "3".into())])
        .expect_err("no such parameter");
    assert!(
        error
            .to_string()
            .contains("its parameters: cap, rate, last"),
        "{error}"
    );
    let error = machine(LOOT)
        .with_parameters(&[("rate", "2".into())])
        .expect_err("a chance above 1");
    assert!(error.to_string().contains("accepted: 0 to 1"), "{error}");
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

/// Machine documents from pieces that are often right and sometimes wrong:
/// counters of any size, formulas of any shape, moves to any state, layers
/// refining a result of the layer before.
fn any_document() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let formula = prop_oneof![
        4 => Just("1/2".to_string()),
        3 => Just("min(1, 1/3 + n/7)".to_string()),
        2 => Just("n / 10".to_string()),
        2 => (0u32..120).prop_map(|k| format!("{k}%")),
        1 => Just("n == 2 ? 1 : 0".to_string()),
        1 => Just("1 / (n - 1)".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("0.1234567890123456789012345678901".to_string()),
        1 => Just("((((1))))".to_string()),
        1 => Just("1e5".to_string()),
        1 => Just(String::new()),
    ];
    let next = prop_oneof![
        3 => Just("0".to_string()),
        3 => Just("min(3, n + 1)".to_string()),
        1 => Just("n + 1".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("n * 1000".to_string()),
    ];
    let results = ["x", "y", "z", "w"];
    let layer = (
        proptest::option::of(1u64..6),
        proptest::collection::vec((1usize..4, formula), 0..3),
        proptest::collection::vec((0usize..4, next), 0..3),
        0usize..4,
        prop::bool::weighted(0.85),
    );
    proptest::collection::vec(layer, 1..4).prop_map(move |layers| {
        let written: Vec<String> = layers
            .iter()
            .enumerate()
            .map(|(index, (counter, draws, moves, refined, rest))| {
                // Result 0 takes the rest (usually), the others their formulas.
                let mut draw = vec![format!(
                    "\"x{index}\": \"{}\"",
                    if *rest { "rest" } else { "1/4" }
                )];
                // Mostly formulas that make sense where they are written.
                let fits = |f: &String| {
                    if counter.is_none() && f.contains('n') && f.len() < 20 {
                        "1/3".to_string()
                    } else {
                        f.clone()
                    }
                };
                draw.extend(
                    draws
                        .iter()
                        .map(|(r, f)| format!("\"{}{index}\": \"{}\"", results[*r], fits(f))),
                );
                draw.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
                let drawn = |r: usize| r == 0 || draws.iter().any(|(d, _)| *d == r);
                let moves: Vec<String> = match counter {
                    Some(c) => moves
                        .iter()
                        .filter(|(r, _)| drawn(*r))
                        .map(|(r, m)| {
                            let m = m.replace('3', &(c - 1).to_string());
                            format!("\"{}{index}\": \"{m}\"", results[*r])
                        })
                        .collect(),
                    None => Vec::new(),
                };
                let counter = counter.map_or(String::new(), |c| format!("\"counter\": {c}, "));
                let refines = if index == 0 {
                    String::new()
                } else {
                    format!("\"refines\": \"{}{}\", ", results[if *refined < 2 { 0 } else { *refined }], index - 1)
                };
                format!(
                    "{{\"name\": \"layer{index}\", {counter}{refines}\"draw\": {{{}}}, \"next\": {{{}}}}}",
                    draw.join(", "),
                    moves.join(", ")
                )
            })
            .collect();
        format!("{{\"layers\": [{}]}}", written.join(", "))
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any document is refused with a message or builds a machine that keeps
    /// every randomizer invariant; nothing panics.
    #[test]
    fn any_document_is_refused_or_keeps_the_invariants(text in any_document(), seed in 0u64..100) {
        match Machine::from_json(&text) {
            Err(error) => proptest::prop_assert!(!error.to_string().is_empty()),
            Ok(mut machine) => {
                assert_distribution_invariants(&mut machine, 30, seed);
                let again = Machine::from_json(&machine.spec()).expect("its spec rebuilds it");
                proptest::prop_assert_eq!(again.spec(), machine.spec());
            }
        }
    }
}
