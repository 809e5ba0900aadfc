//! A game's own randomness measured exactly, against a Monte Carlo estimate of
//! the same precision in the same run: the exact answer's time, the estimate's
//! time per run (measured over `--runs` runs), the runs the estimate needs for
//! the precision the exact answer is printed to (from its own standard error,
//! which shrinks as one over the square root of the runs), and what those runs
//! would take.
//!
//! - `banner goal`: docs/machines/banner.json, the attempts until the featured
//!   5-star, the table to 1,000 pulls; precision: the mean to ±0.0005 pulls
//!   (one standard error; the published banner figure, 62.297, has three decimals).
//! - `machine of 10^5 states`: a generated machine whose 100,000 states are
//!   all reached within a few draws, analyzed over 100 samples; precision: the
//!   outcome variance to ±0.0005.
//! - `audit of 10,000 entries`: a log of 2d6 sums scored (the exact
//!   log-likelihood) and tested (exact where the states allow, else 2,000
//!   simulated logs) under each built-in family that draws them; the times are
//!   the figures.
//!
//! `machines [--runs 100000]`, from the workspace root.

use std::process::ExitCode;
use std::time::Instant;

use fairdice::Control;
use fairdice::analysis::audit::{AuditOptions, audit, log_likelihood};
use fairdice::analysis::goal::{Goal, attempts_until, simulate_attempts};
use fairdice::analysis::{AnalysisOptions, MethodChoice, analyze, simulate};
use fairdice::randomizer::{Randomizer, Spec, outcome_index};
use fairdice::rng;
use fairdice_bench::report::duration;

/// The precision the exact figures are printed to: one standard error.
const PRECISION: f64 = 0.0005;

/// The median of `times` calls of `f`, in seconds.
fn median<T>(times: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut seconds = Vec::with_capacity(times);
    let mut last = None;
    for _ in 0..times {
        let start = Instant::now();
        last = Some(f());
        seconds.push(start.elapsed().as_secs_f64());
    }
    seconds.sort_by(f64::total_cmp);
    (seconds[times / 2], last.expect("at least one call"))
}

/// A row: the exact time, the estimate's runs and time, the runs needed.
fn row(case: &str, exact: f64, runs: u64, estimate: f64, error: f64) {
    let needed = (runs as f64 * (error / PRECISION).powi(2)).ceil();
    let projected = estimate / runs as f64 * needed;
    println!(
        "| {case} | {} | {runs} runs: {} (± {error:.5}) | {needed:.3e} | {} | ×{:.0} |",
        duration(exact),
        duration(estimate),
        duration(projected),
        projected / exact
    );
}

/// 100,000 counter states, most reached within a few dozen draws: a hit
/// moves to `n + 1`, a miss to `2n + 1`, both modulo 100,000.
fn big_machine() -> String {
    r#"{"name": "scrambled counter", "outcomes": ["miss", "hit"], "layers": [{"name": "n", "counter": 100000,
        "draw": {"hit": "1/4 + n / 400000", "miss": "rest"},
        "next": {"hit": "n + 1 < 100000 ? n + 1 : 0",
                 "miss": "2 * n + 1 < 100000 ? 2 * n + 1 : 2 * n + 1 - 100000"}}]}"#
        .to_string()
}

fn run(runs: u64) -> Result<(), String> {
    let control = Control::new();
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    println!("| case | exact | Monte Carlo | runs for ±{PRECISION} | their time | exact's lead |");
    println!("|---|---:|---:|---:|---:|---:|");

    let banner_text = std::fs::read_to_string("docs/machines/banner.json").map_err(|e| fail(&e))?;
    let banner = Spec::build(&banner_text).map_err(|e| fail(&e))?;
    let featured = outcome_index(&banner, "featured").map_err(|e| fail(&e))?;
    let goal = Goal::hits(vec![featured], 1);
    let (exact, table) = median(5, || attempts_until(&banner, &goal, 1000, &control));
    let table = table.map_err(|e| fail(&e))?;
    let (estimate, simulated) = median(3, || {
        simulate_attempts(&banner, &goal, runs, 1, 1000, &control)
    });
    let simulated = simulated.map_err(|e| fail(&e))?;
    eprintln!(
        "banner: exact mean {:.5}, estimated {:.5}",
        table.mean.unwrap_or(f64::NAN),
        simulated.mean.unwrap_or(f64::NAN)
    );
    row(
        "banner goal, table to 1,000 pulls",
        exact,
        runs,
        estimate,
        simulated.mean_error.unwrap_or(f64::NAN),
    );

    let machine = Spec::build(&big_machine()).map_err(|e| fail(&e))?;
    let options = AnalysisOptions {
        samples: 100,
        method: MethodChoice::Exact { cap: 200_000 },
        droughts: false,
    };
    let (exact, swept) = median(3, || analyze(&machine, &options, &Control::unlimited()));
    let swept = swept.map_err(|e| fail(&e))?;
    let mc_runs = runs / 10;
    let (estimate, drawn) = median(3, || simulate(&machine, 100, mc_runs, 1, false, &control));
    let drawn = drawn.map_err(|e| fail(&e))?;
    eprintln!(
        "machine: {:?}, outcome variance {:.5} exact, {:.5} estimated",
        swept.method, swept.outcome_variance, drawn.outcome_variance
    );
    row(
        "machine of 10^5 states, 100 samples",
        exact,
        mc_runs,
        estimate,
        drawn.errors.map_or(f64::NAN, |e| e[1]),
    );

    let dice = Spec::build("dice(base=2d6)").map_err(|e| fail(&e))?;
    let mut generator = rng::seeded(5);
    let mut roller = dice.clone();
    let log: Vec<usize> = (0..10_000).map(|_| roller.draw(&mut generator)).collect();
    let families = [
        "dice(base=2d6)",
        "deck(base=2d6)",
        "deck(base=2d6, copies=2)",
        "fair(base=2d6, tightness=1)",
        "dynamic(base=2d6, decrease=0.3)",
    ];
    println!();
    println!(
        "| audit of 10,000 entries of 2d6 sums, under | log-likelihood | the three tests | their method |"
    );
    println!("|---|---:|---:|---|");
    let mut likelihoods = 0.0;
    for spec in families {
        let r = Spec::build(spec).map_err(|e| fail(&e))?;
        let (scored, _) = median(3, || log_likelihood(&r, &log));
        likelihoods += scored;
        let (tested, found) = median(1, || {
            audit(&r, &log, &AuditOptions::default(), &Control::unlimited())
        });
        let found = found.map_err(|e| fail(&e))?;
        let method = found
            .fit
            .as_ref()
            .map_or_else(|| "none".to_string(), |t| t.method.describe());
        println!(
            "| {spec} | {} | {} | {method} |",
            duration(scored),
            duration(tested)
        );
    }
    println!(
        "| all {} (the ranking of candidates) | {} | – | – |",
        families.len(),
        duration(likelihoods)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = match args.as_slice() {
        [] => 100_000,
        [flag, n] if flag == "--runs" => match n.parse() {
            Ok(n) if n >= 100 => n,
            _ => {
                eprintln!("machines: --runs takes a whole number of at least 100");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("machines: usage: machines [--runs N]");
            return ExitCode::from(2);
        }
    };
    match run(runs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("machines: {message}");
            ExitCode::FAILURE
        }
    }
}
