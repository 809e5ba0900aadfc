//! Tests of spec strings: the issue's examples, error messages, and no panics.

use super::*;
use crate::randomizer::Randomizer;
use proptest::prelude::*;

fn canonical(text: &str) -> String {
    Spec::build(text)
        .map(|r| r.spec())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_issues_examples_build() {
    assert_eq!(
        canonical("deck(values=6, copies=1, refill_below=6)"),
        "deck(values=6, copies=1, refill_below=6, refill=top-up)"
    );
    assert_eq!(
        canonical("dynamic(values=6, decrease=0.355)"),
        "dynamic(values=6, decrease=0.355)"
    );
    assert_eq!(
        canonical("fair(base=2d6, tightness=1)"),
        "fair(base=2d6, tightness=1)"
    );
    assert_eq!(
        canonical("bag(min=1, max=6, sets=1)"),
        "bag(min=1, max=6, sets=1)"
    );
    assert_eq!(canonical("prd(p=0.25)"), "prd(p=0.25)");
    assert_eq!(
        canonical("tgm(history=4, tries=6)"),
        "tgm(history=4, tries=6)"
    );
    assert_eq!(canonical("tgm(preset=tgm2)"), "tgm(preset=tgm2)");
    assert_eq!(canonical(" TGM2 "), "tgm(preset=tgm2)");
    assert_eq!(canonical("nes()"), "nes");
    assert_eq!(canonical("bag7"), "bag7");
    assert_eq!(canonical("dice(values=20)"), "dice(values=20)");
    assert_eq!(
        canonical("deck(base=2d6, refill=reshuffle, refill_below=10)"),
        "deck(base=2d6, copies=1, refill_below=10, refill=reshuffle)"
    );
}

#[test]
fn every_canonical_spec_rebuilds_itself() {
    for text in [
        "deck(values=4, copies=8)",
        "fair(values=6, tightness=0.5)",
        "bag(max=8)",
        "tgm",
        "prd(p=0.1)",
    ] {
        let spec = canonical(text);
        assert_eq!(canonical(&spec), spec);
    }
}

#[test]
fn values_keep_their_brackets() {
    let spec = Spec::parse("dice(base=d{1,1,2}, values=(3))").expect("parses");
    assert_eq!(spec.args()[0], ("base".into(), "d{1,1,2}".into()));
    assert_eq!(spec.args()[1], ("values".into(), "(3)".into()));
    assert_eq!(spec.to_string(), "dice(base=d{1,1,2}, values=(3))");
}

fn message(text: &str) -> String {
    Spec::build(text).expect_err("invalid").to_string()
}

#[test]
fn errors_say_what_is_accepted() {
    assert!(message("").contains("deck(values=N"));
    assert!(
        message("cards(values=6)").contains("accepted: dice("),
        "{}",
        message("cards(values=6)")
    );
    let unknown_key = message("deck(values=6, size=2)");
    assert!(
        unknown_key.contains("copies, refill_below, refill"),
        "{unknown_key}"
    );
    assert!(message("deck(copies=2)").contains("values=N"));
    assert!(message("deck(values=6, base=2d6)").contains("not both"));
    assert!(message("deck(values=6, copies=two)").contains("whole number"));
    assert!(message("deck(values=6, refill=never)").contains("top-up or reshuffle"));
    assert!(message("deck(values=6, copies=0)").contains("at least 1"));
    assert!(message("dynamic(values=6, decrease=1.5)").contains("(0, 1]"));
    assert!(message("dynamic(values=6)").contains("decrease= is required"));
    assert!(message("fair(values=6, tightness=-1)").contains("[0, 1000]"));
    assert!(message("prd(p=0)").contains("[0.000001, 1]"));
    assert!(message("bag(min=1)").contains("max=N is required"));
    assert!(message("bag(min=6, max=1)").contains("min <= max"));
    assert!(message("tgm(preset=tgm3)").contains("tgm1 or tgm2"));
    assert!(message("tgm(preset=tgm1, tries=2)").contains("either a preset"));
    assert!(message("tgm(history=0)").contains("1..=16"));
    assert!(message("nes(x=1)").contains("accepted keys: none"));
    assert!(message("deck(values=6, values=7)").contains("twice"));
    assert!(message("dice(base=2x6)").contains("base=2x6"));
    assert!(message("dice(values=0)").contains("at least 1"));
}

#[test]
fn syntax_errors_point_at_the_problem() {
    for (text, fragment) in [
        ("deck(values=6", "expected `)`"),
        ("deck(values=6))", "unbalanced"),
        ("deck(values=6,)", "empty argument"),
        ("deck(values)", "key=value"),
        ("deck(=6)", "missing key"),
        ("deck(values=)", "missing value"),
        ("deck(base=(2d6)", "unclosed bracket"),
        ("de ck", "randomizer name"),
        ("(values=6)", "randomizer name"),
    ] {
        let m = message(text);
        assert!(m.contains(fragment), "{text}: {m}");
    }
}

proptest! {
    #[test]
    fn no_spec_string_panics(text in "\\PC{0,40}") {
        let _ = Spec::build(&text);
    }

    #[test]
    fn no_spec_shaped_string_panics(
        name in "(dice|deck|bag|dynamic|fair|prd|nes|tgm|bag7|x)",
        args in proptest::collection::vec(("(values|base|copies|refill_below|refill|min|max|sets|decrease|tightness|p|preset|history|tries|y)", "[-0-9a-z.(){},]{0,6}"), 0..4),
    ) {
        let args: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = Spec::build(&format!("{name}({})", args.join(",")));
    }
}

/// A missing or bad parameter is refused before the base is built: the base here
/// is far past the budget, and the error is still the parameter's.
#[test]
fn parameters_are_checked_before_a_costly_base() {
    let tiny = Control::new().with_max_steps(1).with_max_memory(1);
    for (spec, wanted) in [
        ("fair(base=704d809)", "tightness= is required"),
        ("fair(base=704d809, tightness=5000)", "tightness"),
        ("fair(base=704d809, tightness=1, seats=99)", "seats"),
        ("dynamic(base=704d809)", "decrease= is required"),
        ("dynamic(base=704d809, decrease=2)", "decrease"),
        ("deck(base=704d809, copies=x)", "copies"),
        ("deck(base=704d809, refill=sometimes)", "refill"),
    ] {
        let error = Spec::build_with(spec, &tiny).unwrap_err();
        assert!(
            !matches!(error, SpecError::Base { .. } | SpecError::Memory { .. }),
            "{spec}: the base was built first: {error}"
        );
        assert!(error.to_string().contains(wanted), "{spec}: {error}");
    }
    assert!(matches!(
        Spec::build_with("fair(base=704d809, tightness=1)", &tiny),
        Err(SpecError::Base { .. })
    ));
}
