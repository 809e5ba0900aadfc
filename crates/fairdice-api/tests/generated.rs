//! Generated requests of every use case — well formed, extreme and malformed —
//! run under a small budget: none panics, none works past its step budget, and
//! none allocates far past its memory budget (a counting allocator watches the
//! whole process). The requests are those a hostile or unlucky user could send:
//! huge counts, deep specs, runaway numbers.
//!
//! `FAIRDICE_EXPLORE=1 cargo test --release -p fairdice-api --test generated`
//! tries new random cases; `FAIRDICE_TRACE=1` (with `-- --nocapture`) prints each
//! request before it runs.

use std::time::{Duration, Instant};

use fairdice::Control;
use fairdice::control::METER_SLACK;
use fairdice_api::{USE_CASES, run_json};
use peak_alloc::PeakAlloc;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRng, TestRunner};
use serde_json::{Value, json};

/// The system allocator, counting the bytes held and their peak.
#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// The budget every generated request runs under: a few hundredths of a second
/// of work, 64 MiB of planned memory.
const MAX_STEPS: u64 = 20_000_000;
const MAX_MEMORY: u64 = 64 << 20;

/// Memory a request may hold past its budget: the report and the bookkeeping a
/// budget does not plan (strings, small vectors).
const MEMORY_SLACK: usize = 64 << 20;

/// The longest any request may take before it counts as a hang (far above what
/// its budget allows, so a loaded machine does not trip it).
const HANG: Duration = Duration::from_secs(30);

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..20).prop_map(Value::from),
        (0u64..100_000).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        Just(Value::from(u32::MAX)),
    ]
}

fn small() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![0u64..8, 0u64..3000, Just(65_535), Just(1_000_000)]
}

/// Dice expressions: everyday ones, extreme sizes, and text that is not one.
fn expression() -> impl Strategy<Value = String> {
    let term = || {
        (small(), small(), 0usize..9, small()).prop_map(|(n, x, modifier, k)| {
            let modifier = [
                String::new(),
                format!("kh{k}"),
                format!("kl{k}"),
                format!("k{k}"),
                "!".into(),
                format!("!<{k}"),
                format!("r<{k}"),
                format!("cs>={k}"),
                format!("dl{k}"),
            ][modifier]
                .clone();
            format!("{n}d{x}{modifier}")
        })
    };
    prop_oneof![
        4 => term(),
        2 => (term(), term(), prop::sample::select(vec!["+", "-", "*", "/", ">=", "<"]))
            .prop_map(|(a, b, op)| format!("{a}{op}{b}")),
        1 => (term(), small()).prop_map(|(a, n)| format!("({a})d{n}")),
        1 => (small(), small()).prop_map(|(a, b)| format!("d{{1..{a}}}*d{{1..{b}}}")),
        1 => "[ -~]{0,40}",
    ]
}

/// Randomizer specs of every family, with values in and far out of range.
fn spec() -> impl Strategy<Value = String> {
    prop_oneof![
        (small(), small(), small())
            .prop_map(|(v, c, r)| format!("deck(values={v}, copies={c}, refill_below={r})")),
        (small(), 0u32..12).prop_map(|(v, d)| format!("dynamic(values={v}, decrease=0.{d})")),
        (expression(), 0u32..6).prop_map(|(b, t)| format!("fair(base={b}, tightness={t})")),
        expression().prop_map(|b| format!("dice(base={b})")),
        (0u32..1000).prop_map(|p| format!("prd(p=0.{p:03})")),
        (small(), small(), small()).prop_map(|(c, a, b)| format!(
            r#"{{"layers": [{{"name": "c", "counter": {c}, "draw": {{"hit": "min(1, {a}/100 + n/{b})", "miss": "rest"}}, "next": {{"hit": 0, "miss": "n + 1"}}}}]}}"#
        )),
        prop::sample::select(vec![
            "tgm1",
            "tgm2",
            "tgm3",
            "nes",
            "bag7",
            "tgm(history=6, tries=8)"
        ])
        .prop_map(String::from),
        "[ -~]{0,30}",
    ]
}

/// A request of `use_case`, as JSON.
fn request(use_case: &'static str) -> BoxedStrategy<Value> {
    match use_case {
        "dist" => (expression(), prop::option::of(number()), number())
            .prop_map(|(e, runs, depth)| json!({"expression": e, "runs": runs, "explode_depth": depth}))
            .boxed(),
        "roll" => (expression(), number(), number())
            .prop_map(|(e, times, seed)| json!({"expression": e, "times": times, "seed": seed}))
            .boxed(),
        "contest" => (expression(), expression(), prop::sample::select(vec!["stand", "reroll", "a-wins"]), prop::option::of(number()))
            .prop_map(|(a, b, ties, runs)| json!({"a": a, "b": b, "ties": ties, "runs": runs}))
            .boxed(),
        "risk" => (number(), number(), number(), number(), prop::option::of(number()), prop::option::of(number()), any::<bool>())
            .prop_map(|(a, d, faces, dice, table, runs, per_roll)| json!({
                "attacker": a, "defender": d, "faces": faces, "attacker_dice": dice,
                "table": table, "runs": runs, "per_roll": per_roll,
            }))
            .boxed(),
        "sample" => (spec(), number())
            .prop_map(|(s, n)| json!({"source": {"spec": s}, "samples": n}))
            .boxed(),
        "next" => (spec(), prop::collection::vec("[0-9]{1,3}", 0..20))
            .prop_map(|(s, history)| json!({"source": {"spec": s}, "history": history}))
            .boxed(),
        "state" => "[ -~]{0,200}".prop_map(|session| json!({"session": session})).boxed(),
        "prd" => (-1.0f64..2.0, number())
            .prop_map(|(p, limit)| json!({"p": p, "limit": limit}))
            .boxed(),
        "analyze" | "droughts" => (spec(), number(), prop::option::of(number()), any::<bool>())
            .prop_map(|(s, samples, runs, exact)| json!({"spec": s, "samples": samples, "runs": runs, "exact": exact && runs.is_none()}))
            .boxed(),
        "tune" => prop_oneof![
            (number(), prop::sample::select(vec!["25", "1..200", "10:1,100000:2", "0", "x"]), prop::sample::select(vec!["deck", "dynamic", "fair", "tgm", "deck,dynamic,bag"]))
                .prop_map(|(values, samples, systems)| json!({"values": values, "samples": samples, "systems": systems.split(',').collect::<Vec<_>>()})),
            // A machine whose parameters set its counter's size and its chance.
            (
                prop::sample::select(vec!["1..50", "0..3", "999999", "2..2000000", "1|x", "10"]),
                prop::sample::select(vec!["0..1 step 0.25", "0%..200% step 50%", "-1|0.5", "1/2", ""]),
                prop::sample::select(vec!["25", "1..200", "0"]),
                prop::option::of(number()),
            )
                .prop_map(|(cap, chance, samples, values)| {
                    let document = json!({
                        "parameters": {"cap": {"value": 3, "tune": cap}, "p": {"value": "1/3", "tune": chance}},
                        "layers": [{"name": "c", "counter": "cap",
                            "draw": {"a": "n == cap - 1 ? 1 : p", "b": "rest"},
                            "next": {"a": 0, "b": "n + 1"}}]
                    });
                    json!({"values": values, "samples": samples, "grids": [document.to_string()]})
                }),
        ]
        .boxed(),
        "seats" => (
            0usize..20,
            prop::collection::vec((-2i64..14, prop::collection::vec(number(), 0..5)), 0..6),
            any::<bool>(),
            spec(),
            number(),
            prop::option::of(number()),
        )
            .prop_map(|(players, payoffs, turns, s, samples, runs)| {
                let names: Vec<String> = (0..players).map(|p| format!("p{p}")).collect();
                let payoffs: serde_json::Map<String, Value> = payoffs
                    .into_iter()
                    .map(|(outcome, row)| (outcome.to_string(), Value::from(row)))
                    .collect();
                json!({"game": {"players": names, "turns": turns, "payoffs": payoffs},
                       "spec": s, "samples": samples, "runs": runs})
            })
            .boxed(),
        "goal" => (
            spec(),
            prop::collection::vec(prop::sample::select(vec!["1", "6", "7", "hit", "miss", "T", "", "x*3"]), 0..3),
            number(),
            any::<bool>(),
            prop::option::of(number()),
            prop::collection::vec(prop::sample::select(vec!["1", "miss*1000000", "hit*99999999999", "7", "2*3"]), 0..3),
            number(),
            prop::option::of(number()),
        )
            .prop_map(|(s, until, times, every, budget, history, limit, runs)| {
                json!({"source": {"spec": s}, "until": until, "times": times, "every": every,
                       "budget": budget, "history": history, "limit": limit, "runs": runs})
            })
            .boxed(),
        "audit" => (
            spec(),
            prop_oneof![
                prop::collection::vec(0i64..14, 0..60).prop_map(Value::from),
                (prop::sample::select(vec!["7\n", "1\n", "hit\n", "x,1\n", "[", "{}"]), small())
                    .prop_map(|(line, times)| Value::from(line.repeat(times as usize))),
            ],
            prop::collection::vec(spec(), 0..3),
            number(),
        )
            .prop_map(|(s, log, candidates, simulations)| {
                json!({"spec": s, "log": log, "candidates": candidates, "simulations": simulations})
            })
            .boxed(),
        other => panic!("no generator for the use case `{other}`: add one"),
    }
}

/// Stack for the generators: proptest's nested unions of strategies take more
/// than a test thread's 2 MiB in an unoptimized build.
const GENERATOR_STACK: usize = 64 << 20;

#[test]
fn generated_requests_stay_within_their_budget() {
    std::thread::Builder::new()
        .stack_size(GENERATOR_STACK)
        .spawn(run_generated_requests)
        .expect("a thread")
        .join()
        .expect("every generated request stays within its budget");
}

fn run_generated_requests() {
    for &use_case in USE_CASES {
        let config = Config {
            cases: 40,
            failure_persistence: None,
            ..Config::default()
        };
        // The same cases on every run, so the test command is deterministic; with
        // FAIRDICE_EXPLORE set, new random cases each time (to look for more).
        let mut runner = if std::env::var_os("FAIRDICE_EXPLORE").is_some() {
            TestRunner::new(config)
        } else {
            let rng = TestRng::deterministic_rng(config.rng_algorithm);
            TestRunner::new_with_rng(config, rng)
        };
        runner
            .run(&request(use_case), |request| {
                let control = Control::new()
                    .with_max_steps(MAX_STEPS)
                    .with_max_memory(MAX_MEMORY);
                let before = ALLOCATOR.current_usage();
                ALLOCATOR.reset_peak_usage();
                if std::env::var_os("FAIRDICE_TRACE").is_some() {
                    eprintln!("{use_case} {request}");
                }
                let started = Instant::now();
                let answer = run_json(use_case, &request.to_string(), &control);
                let took = started.elapsed();
                let peak = ALLOCATOR.peak_usage().saturating_sub(before);
                if let Err(error) = &answer {
                    prop_assert!(
                        !error.message.is_empty(),
                        "{use_case} {request}: empty message"
                    );
                    prop_assert!(
                        error.code != "internal",
                        "{use_case} {request}: {}",
                        error.message
                    );
                }
                // The meter stops work past its slack; charges in flight on other
                // threads may add up to one budget more.
                prop_assert!(
                    control.steps_used() <= MAX_STEPS * (METER_SLACK + 1),
                    "{use_case} {request}: {} steps",
                    control.steps_used()
                );
                prop_assert!(
                    peak <= MAX_MEMORY as usize + MEMORY_SLACK,
                    "{use_case} {request}: held {} MiB",
                    peak >> 20
                );
                prop_assert!(took < HANG, "{use_case} {request}: {took:?}");
                Ok(())
            })
            .unwrap_or_else(|failure| panic!("{use_case}: {failure}"));
    }
}
