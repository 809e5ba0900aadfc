//! Random expressions of the whole language (functions, labels and tuples
//! included): they never panic or hang, the work
//! stays within a small multiple of the estimate, every roll lands where the
//! exact distribution says it can, and they agree with the brute-force oracle.

use fairdice::dice::notation::{self, NotationError, Options, estimate, evaluate_expr};
use fairdice::{Control, rng};
use num_bigint::BigUint;
use proptest::prelude::*;

use super::oracle::Oracle;

/// Small expressions of the whole language, with `a` and `b` bound and `sq`
/// defined around them.
fn expression() -> impl Strategy<Value = String> {
    let die = (
        0u32..4,
        prop::sample::select(vec!["d3", "d4", "dF", "d{1,3,3}", "d(d3)"]),
        prop::sample::select(vec![
            "", "kh1", "kl2", "dl1", "r1", "ro1", "!", "!!", "!p", "!>=3kh2", "xo", "x2=3kh1",
            "min2", "max2", "cs>=3", "cf<2", "even", "odd", "kh(d2)", "!cs>=3", "!!p>2",
        ]),
    )
        .prop_map(|(n, d, m)| format!("{n}{d}{m}"));
    // A small deal, read whole or by a pool function.
    let deal = (
        prop::sample::select(vec!["deck{1..3:2}", "deck{0:2, 1, 2..4}", "deck{-1..1:3}"]),
        1u32..4,
        prop::sample::select(vec![
            "{}",
            "largest_set({})",
            "sets({}, 2)",
            "longest_straight({})",
            "height({})",
            "count({}, 1)",
        ]),
    )
        .prop_map(|(deck, k, f)| f.replace("{}", &format!("deal({deck}, {k})")));
    let leaf = prop_oneof![
        3 => die,
        1 => deal,
        1 => (-3i64..5).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["a", "b"]).prop_map(str::to_string),
    ];
    let inner = leaf.prop_recursive(3, 10, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", ">=", "==", "<", " and ", " or "
                ]),
                inner.clone(),
            )
                .prop_map(|(a, op, b)| format!("({a}){op}({b})")),
            inner.clone().prop_map(|a| format!("not ({a})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("({c}) ? ({a}) : ({b})")),
            (
                prop::sample::select(vec!["max", "min"]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            (
                inner.clone(),
                inner.clone(),
                prop::sample::select(vec!["", "kh1", "kl1", "cs>=2"])
            )
                .prop_map(|(a, b, m)| format!("{{{a}, {b}}}{m}")),
            (
                0u32..3,
                inner.clone(),
                prop::sample::select(vec!["", "kh1", "dl1"])
            )
                .prop_map(|(n, a, m)| format!("{n}#({a}){m}")),
            inner.clone().prop_map(|a| format!("[c = {a}] c * c")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("sq({a}) + sq({b})")),
            (
                prop::sample::select(vec![
                    "largest_set({})",
                    "sets({}, 2)",
                    "longest_straight({})",
                    "height({})",
                    "count({}, 1, 3)"
                ]),
                inner.clone(),
                inner.clone(),
            )
                .prop_map(|(f, a, b)| f.replace("{}", &format!("{{{a}, {b}}}"))),
            (inner.clone(), 1u32..4)
                .prop_map(|(a, n)| format!("[p = {n}#({a})] largest_set(p) + count(p, 1) + p")),
            (inner.clone(), 1u32..3).prop_map(|(a, k)| format!(
                "({a}) + ([h, g = deal(deck{{1..3:2}}, {k}, 2)] largest_set(h) * 10 - count(g, 2) + h)"
            )),
            (inner.clone(), 1u32..4).prop_map(|(a, k)| format!(
                "({a}) + ([(r, s) = deal(deck{{(1..3, 1..2), (2, 3)}}, {k})] longest_straight(r) * 10 + sets(s, 2) - s)"
            )),
        ]
    });
    // The whole: as it is, labelled, or as a tuple with one of the names.
    let whole = prop_oneof![
        4 => inner.clone(),
        1 => inner.clone().prop_map(|body| format!("{body} as {{..0: low, 1..2: mid, 3..: high}}")),
        1 => inner.prop_map(|body| format!("({body}, a - b)")),
    ];
    whole.prop_map(|body| format!("[sq(x) = x * x - x] [a = d3] [b = d2 - 1] {body}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Evaluation ends with an answer or a clear error, within its estimate; the
    /// roller lands in the exact support; small answers match the oracle.
    #[test]
    fn random_expressions_are_exact_and_bounded(text in expression(), seed in any::<u64>()) {
        let options = Options { explode_depth: 2, ..Options::default() };
        let expr = notation::parse(&text).map_err(|e| TestCaseError::fail(e.render(&text)))?;
        let control = Control::new();
        let cost = estimate(&expr, &options);
        match evaluate_expr(&expr, &options, &control) {
            Ok(die) => {
                let used = control.steps_used() as f64;
                prop_assert!(used <= 4.0 * cost.steps + 10_000.0,
                    "{}: {} steps used, estimated {}", text, used, cost.steps);
                prop_assert!(die.len() as f64 <= cost.outcomes.max(1.0) * 4.0 + 64.0,
                    "{}: {} outcomes, estimated {}", text, die.len(), cost.outcomes);
                let mut generator = rng::seeded(seed);
                for _ in 0..10 {
                    match notation::roll(&expr, &options, &mut generator) {
                        Ok(roll) => prop_assert!(die.count(roll.value) > BigUint::from(0u32),
                            "{} rolled {}", text, roll.value),
                        // A division by a zero the exact answer refused too.
                        Err(e) => prop_assert!(false, "{} failed to roll: {}", text, e),
                    }
                }
                if die.len() < 200 && text.matches('#').count() < 2 {
                    let oracle: Vec<_> = Oracle::new(2).value(&expr).into_iter().collect();
                    let exact: Vec<_> = die.outcomes().iter().map(|&o| (o, die.probability(o))).collect();
                    prop_assert_eq!(exact, oracle, "{}", text);
                }
            }
            Err(NotationError::Invalid { .. }) | Err(NotationError::TooBig(_)) => {}
            Err(e) => prop_assert!(false, "{}: {}", text, e),
        }
    }

    /// Text made of the language's characters never panics the parser, the
    /// estimate or the evaluator.
    #[test]
    fn arbitrary_text_never_panics(text in "[0-9d%F{}()\\[\\],.!<>=rokhlcsfxpmina#?:+*/ -]{0,28}") {
        if let Ok(expr) = notation::parse(&text) {
            let _ = estimate(&expr, &Options::default());
            let control = Control::new().with_max_steps(5_000_000);
            let _ = evaluate_expr(&expr, &Options::default(), &control);
        }
    }
}
