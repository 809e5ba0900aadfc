//! Every use case stops through its `Control`: a cancelled control stops it with
//! the cancelled kind, and a budget too small for the request refuses it as too
//! large, never running past it.

use fairdice::{Control, FailureKind};
use fairdice_api::{USE_CASES, run_json};

/// A request of each use case big enough to need the budget (a few steps are
/// not enough), as its JSON document.
fn request(use_case: &str) -> String {
    let text = match use_case {
        "dist" => r#"{"expression": "60d20kh30"}"#,
        "roll" => r#"{"expression": "1000d6", "times": 1000, "seed": 1}"#,
        "contest" => r#"{"a": "40d6", "b": "40d6"}"#,
        "risk" => r#"{"attacker": 200, "defender": 200, "simulate": 100000}"#,
        "sample" => r#"{"source": {"spec": "deck(values=6)"}, "count": 1000000}"#,
        "next" => r#"{"source": {"spec": "fair(base=60d20, tightness=1)"}, "history": ["600"]}"#,
        "state" => return state_request(),
        "prd" => r#"{"p": 0.000001, "limit": 1000000}"#,
        "analyze" => r#"{"spec": "dynamic(values=6, decrease=0.5)", "samples": 60}"#,
        "droughts" => r#"{"spec": "deck(values=6, copies=3)", "samples": 60}"#,
        "tune" => r#"{"values": 6, "samples": "25"}"#,
        "seats" => {
            r#"{"game": {"players": ["a", "b", "c"], "payoffs": {"6": [1, 0, 1], "8": [0, 2, 0], "5": [0, 1, 1]}},
                "spec": "dice(base=2d6)", "samples": 40}"#
        }
        "goal" => r#"{"source": {"spec": "deck(values=8)"}, "until": ["1"], "times": 3}"#,
        "audit" => r#"{"spec": "dice(base=2d6)", "log": "7\n8\n6\n7\n12\n5\n9\n7\n4\n10\n"}"#,
        other => panic!("no test request for the use case `{other}`: add one"),
    };
    text.to_string()
}

/// A saved session whose randomizer's base is a large expression: loading it
/// evaluates the base again.
fn state_request() -> String {
    let sample = run_json(
        "sample",
        r#"{"source": {"spec": "dynamic(base=60d20kh30, decrease=0.5)"}, "count": 3, "save": true}"#,
        &Control::new(),
    )
    .expect("a session");
    let sample: serde_json::Value = serde_json::from_str(&sample).expect("JSON");
    serde_json::json!({ "session": sample["session"] }).to_string()
}

fn kind_of(use_case: &str, control: &Control) -> Option<FailureKind> {
    run_json(use_case, &request(use_case), control)
        .err()
        .map(|error| error.kind)
}

#[test]
fn every_use_case_has_a_request_that_runs_to_its_end() {
    for &use_case in USE_CASES {
        if let Err(error) = run_json(use_case, &request(use_case), &Control::new()) {
            panic!("{use_case}: {}", error.full_text());
        }
    }
}

#[test]
fn a_cancelled_control_stops_every_use_case() {
    let control = Control::new();
    control.cancel();
    for &use_case in USE_CASES {
        assert_eq!(
            kind_of(use_case, &control),
            Some(FailureKind::Cancelled),
            "{use_case}"
        );
    }
}

#[test]
fn a_budget_too_small_refuses_every_use_case() {
    let control = Control::new().with_max_steps(1_000);
    for &use_case in USE_CASES {
        assert_eq!(
            kind_of(use_case, &control),
            Some(FailureKind::TooLarge),
            "{use_case}"
        );
        // Refused before or while running, never past the budget's slack.
        assert!(
            control.steps_used() < 1_000_000,
            "{use_case}: {}",
            control.steps_used()
        );
    }
}

/// The steps a refusal states ("about 1.0e9 steps").
fn stated_steps(message: &str) -> f64 {
    let after = message
        .split("about ")
        .nth(1)
        .unwrap_or_else(|| panic!("no estimate in: {message}"));
    after
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number of steps in: {message}"))
}

#[test]
fn a_request_of_several_stages_is_refused_with_the_whole_estimate() {
    // Each first builds something small (a pool, one roll's table) and
    // then prices its main work: a budget of one step must name the main work's
    // estimate, not the first stage's few steps.
    let cases = [
        ("contest", r#"{"a": "60d10", "b": "60d10"}"#, 1e8),
        ("risk", r#"{"attacker": 100, "defender": 100}"#, 1e6),
    ];
    for (use_case, request, least) in cases {
        let error =
            run_json(use_case, request, &Control::new().with_max_steps(1)).expect_err("refused");
        assert_eq!(error.kind, FailureKind::TooLarge, "{use_case}");
        let stated = stated_steps(&error.message);
        assert!(stated >= least, "{use_case}: {}", error.message);
        // The same request under a budget of its estimate is answered.
        let budget = (stated * 2.0) as u64;
        run_json(use_case, request, &Control::new().with_max_steps(budget))
            .unwrap_or_else(|e| panic!("{use_case} under {budget}: {}", e.full_text()));
    }
}

/// The fuzz targets' seeds (`fuzz/seeds`: everyday expressions and the grammar's
/// newer forms, a request of each use case, a saved session of each family) run
/// as the targets run them, under the targets' budget: so the test command covers
/// what the fuzzers start from, without a fuzzer. A seed that panics fails here as
/// it would fail there.
#[test]
fn the_fuzz_seeds_run_as_the_fuzz_targets_run_them() {
    use fairdice::randomizer::{Randomizer, Session};
    let budget = || {
        Control::new()
            .with_max_steps(20_000_000)
            .with_max_memory(64 << 20)
    };
    let seeds = |target: &str| {
        let folder = format!("{}/../../fuzz/seeds/{target}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .map(|entry| entry.expect("a seed").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{folder} holds no seeds");
        files
            .into_iter()
            .map(|path| std::fs::read(&path).expect("a readable seed"))
            .collect::<Vec<_>>()
    };
    for seed in seeds("expression") {
        let text = String::from_utf8_lossy(&seed);
        for request in [
            ("dist", serde_json::json!({ "expression": text })),
            (
                "dist",
                serde_json::json!({ "expression": text, "runs": 200, "seed": 7 }),
            ),
            ("roll", serde_json::json!({ "expression": text, "seed": 7 })),
        ] {
            let _ = run_json(request.0, &request.1.to_string(), &budget());
        }
    }
    for seed in seeds("request") {
        let Some((&pick, rest)) = seed.split_first() else {
            continue;
        };
        let use_case = USE_CASES[usize::from(pick) % USE_CASES.len()];
        let _ = run_json(use_case, &String::from_utf8_lossy(rest), &budget());
    }
    let mut loaded = 0;
    for seed in seeds("session") {
        let Ok(mut session) = Session::from_json_with(&String::from_utf8_lossy(&seed), &budget())
        else {
            continue;
        };
        loaded += 1;
        let reloaded = Session::from_json(&session.to_json()).expect("a saved session loads");
        assert_eq!(reloaded, session, "a session saved and loaded is the same");
        let outcomes = session.randomizer().outcomes().len();
        for _ in 0..64 {
            assert!(session.draw() < outcomes, "a draw indexes an outcome");
        }
    }
    assert!(loaded > 0, "no session seed loads");
}
