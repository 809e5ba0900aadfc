//! Contest benchmarks, run beside icepool 2.2.2 in the same run.
//!
//! ```text
//! cargo bench -p fairdice-bench --bench contests
//! ```
//!
//! Criterion times fairdice on four cases: every table of Isaksen et al. (2016), and
//! sorted contests of 5d6, 10d20 and 20d6 against as many (ties standing). Then, if
//! `benches/.venv` holds icepool (see `benches/CONTESTS.md`), the same cases run in
//! icepool, each in a fresh interpreter, and a table compares the two: wall time and
//! CPU time per call, and how many times faster fairdice is.
//!
//! Sorted contests of mixed pools (issue 19: `3d6+1d8+1d10` against as many, and
//! larger) are timed as the whole request `fairdice contest A B --json` runs
//! (`fairdice_api::run_json`): warm in process (criterion), and, beside icepool's
//! `peers/icepool_mixed_contests.py`, as whole processes, once their net scores agree.

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use fairdice::Control;
use fairdice::contest::{Contest, ContestResult, isaksen};
use fairdice::{Die, Pool};
use num_bigint::BigInt;

/// The cases, by the names the icepool script uses.
const CASES: [&str; 4] = ["isaksen", "5d6", "10d20", "20d6"];

/// Sorted contests of mixed pools, ties standing: pool A, pool B.
const MIXED: [(&str, &str); 3] = [
    ("3d6+1d8+1d10", "3d6+1d8+1d10"),
    ("5d6", "3d6+1d8+1d10"),
    ("10d6+3d8+3d10", "10d6+3d8+3d10"),
];

/// Processes of each side for the whole-process table of mixed contests.
const PROCESSES: usize = 7;

/// The use-case request of a mixed contest.
fn mixed_request(a: &str, b: &str) -> String {
    serde_json::json!({ "a": a, "b": b }).to_string()
}

/// One mixed contest as `fairdice contest A B --json` computes it: the request read,
/// priced, evaluated and written as its JSON document.
fn run_mixed(request: &str) -> String {
    fairdice_api::run_json("contest", request, &Control::new()).expect("a contest that fits")
}

/// Computes one case from scratch (nothing is cached between calls).
fn run_case(case: &str) -> usize {
    let sorted = |sides: u64, n: u64| -> ContestResult {
        let pool = Pool::new(&Die::standard(sides).expect("a die"), n).expect("a pool");
        Contest::new(&pool, &pool)
            .expect("a contest")
            .evaluate(&Control::new())
            .expect("small enough")
    };
    match case {
        "isaksen" => isaksen::sections()
            .expect("the tables")
            .iter()
            .flat_map(|s| &s.tables)
            .map(|t| {
                // Each row's measures, as the paper prints them.
                t.iter().map(|r| r.line().len()).sum::<usize>()
            })
            .sum(),
        "5d6" => sorted(6, 5).net().len(),
        "10d20" => sorted(20, 10).net().len(),
        "20d6" => sorted(6, 20).net().len(),
        _ => unreachable!("unknown case {case}"),
    }
}

fn contests(c: &mut Criterion) {
    let mut group = c.benchmark_group("contests");
    group.measurement_time(Duration::from_secs(3));
    for case in CASES {
        group.bench_function(case, |b| b.iter(|| black_box(run_case(black_box(case)))));
    }
    group.finish();
    let mut group = c.benchmark_group("contests_mixed");
    group.measurement_time(Duration::from_secs(3));
    for (a, b) in MIXED {
        let request = mixed_request(a, b);
        group.bench_function(format!("{a} v {b}"), |bench| {
            bench.iter(|| black_box(run_mixed(black_box(&request))));
        });
    }
    group.finish();
}

criterion_group!(benches, contests);

/// This thread's CPU time so far, in nanoseconds (Linux; `None` elsewhere).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Wall and CPU seconds per call of fairdice on `case`, over at least half a second.
fn time_ours(case: &str) -> (f64, Option<f64>) {
    per_call(|| {
        black_box(run_case(case));
    })
}

/// Wall and CPU seconds per call of `call`, over at least half a second after one
/// untimed call.
fn per_call(mut call: impl FnMut()) -> (f64, Option<f64>) {
    call();
    let (start, cpu) = (Instant::now(), cpu_ns());
    let mut calls = 0u32;
    while calls < 5 || start.elapsed() < Duration::from_millis(500) {
        call();
        calls += 1;
    }
    let wall = start.elapsed().as_secs_f64() / f64::from(calls);
    let cpu = cpu
        .zip(cpu_ns())
        .map(|(a, b)| (b - a) as f64 * 1e-9 / f64::from(calls));
    (wall, cpu)
}

/// Wall and CPU seconds of icepool's first call in a fresh interpreter.
fn time_icepool(python: &Path, script: &Path, case: &str) -> Option<(f64, f64)> {
    let output = Command::new(python).arg(script).arg(case).output().ok()?;
    if !output.status.success() {
        eprintln!(
            "icepool failed on {case}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let field = |name: &str| -> Option<f64> {
        let start = text.find(&format!("\"{name}\": "))? + name.len() + 4;
        let rest = &text[start..];
        let end = rest.find([',', '}'])?;
        rest[..end].trim().parse().ok()
    };
    Some((field("seconds")?, field("cpu_seconds")?))
}

/// Seconds in a readable unit.
fn duration(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}

fn side_by_side() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = here.join(".venv/bin/python");
    let script = here.join("peers/icepool_contests.py");
    if !python.exists() {
        println!(
            "\nicepool is not installed, so no comparison: see benches/CONTESTS.md to set up benches/.venv"
        );
        return;
    }
    println!("\nSide by side with icepool 2.2.2 (its first call in a fresh interpreter):\n");
    println!("| case | fairdice wall | icepool wall | × | fairdice CPU | icepool CPU | × |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for case in CASES {
        let (wall, cpu) = time_ours(case);
        let Some((peer_wall, peer_cpu)) = time_icepool(&python, &script, case) else {
            continue;
        };
        let cpu_cells = match cpu {
            Some(cpu) => format!(
                "{} | {} | {:.0}",
                duration(cpu),
                duration(peer_cpu),
                peer_cpu / cpu
            ),
            None => format!("– | {} | –", duration(peer_cpu)),
        };
        println!(
            "| {case} | {} | {} | {:.0} | {cpu_cells} |",
            duration(wall),
            duration(peer_wall),
            peer_wall / wall
        );
    }
}

/// The net score's exact total and `Σ score·count`, from a contest document.
fn net_fingerprint(document: &str) -> Option<(BigInt, BigInt)> {
    let value: serde_json::Value = serde_json::from_str(document).ok()?;
    let mut total = BigInt::default();
    let mut sum = BigInt::default();
    for row in value["net"].as_array()? {
        let count: BigInt = row["count"].as_str()?.parse().ok()?;
        sum += BigInt::from(row["score"].as_i64()?) * &count;
        total += count;
    }
    Some((total, sum))
}

/// A pool of dice joined by `+` as icepool's script takes it: `3d6+1d8` → `6,6,6,8`.
fn sides(pool: &str) -> String {
    pool.split('+')
        .flat_map(|term| {
            let (n, s) = term.split_once('d').expect("NdS");
            std::iter::repeat_n(s.to_string(), n.parse().expect("a count"))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// One `key=value` field of the icepool script's line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

/// The median wall time of `PROCESSES` runs of `command`, start to exit, output
/// discarded.
fn process_seconds(mut command: impl FnMut() -> Command) -> Option<f64> {
    let mut times = Vec::new();
    for _ in 0..PROCESSES {
        let start = Instant::now();
        let status = command()
            .stdout(std::process::Stdio::null())
            .status()
            .ok()?;
        times.push(start.elapsed().as_secs_f64());
        if !status.success() {
            return None;
        }
    }
    times.sort_by(f64::total_cmp);
    Some(times[times.len() / 2])
}

fn mixed_side_by_side() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = here.join(".venv/bin/python");
    let script = here.join("peers/icepool_mixed_contests.py");
    if !python.exists() {
        return;
    }
    // The command-line program, built beside this bench (`cargo build --release -p
    // fairdice-cli`).
    let cli = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("fairdice")))
        .filter(|cli| cli.exists());
    println!("\nSorted contests of mixed pools, ties standing (issue 19):\n");
    println!(
        "| contest | fairdice warm | icepool first call (CPU) | × | `fairdice contest --json` process | Python process (import, evaluate, print) | × |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (a, b) in MIXED {
        let request = mixed_request(a, b);
        let ours = net_fingerprint(&run_mixed(&request)).expect("a net score");
        let peer = || {
            let mut command = Command::new(&python);
            command.arg(&script).arg(sides(a)).arg(sides(b));
            command
        };
        let Ok(output) = peer().output() else {
            continue;
        };
        let line = String::from_utf8_lossy(&output.stdout).to_string();
        let theirs = field(&line, "total")
            .zip(field(&line, "sum"))
            .and_then(|(t, s)| Some((t.parse().ok()?, s.parse().ok()?)));
        if theirs.as_ref() != Some(&ours) {
            println!("| {a} v {b} | the engines disagree: {ours:?} against {line} |");
            continue;
        }
        let Some(peer_cpu) = field(&line, "cpu").and_then(|c| c.parse::<f64>().ok()) else {
            continue;
        };
        let (wall, cpu) = per_call(|| {
            black_box(run_mixed(&request));
        });
        let warm = cpu.unwrap_or(wall);
        let processes = cli.as_ref().and_then(|cli| {
            let ours = process_seconds(|| {
                let mut command = Command::new(cli);
                command.args(["contest", a, b, "--json"]);
                command
            })?;
            Some((ours, process_seconds(peer)?))
        });
        let process_cells = match processes {
            Some((ours, theirs)) => format!(
                "{} | {} | {:.1}",
                duration(ours),
                duration(theirs),
                theirs / ours
            ),
            None => "– | – | –".to_string(),
        };
        println!(
            "| {a} v {b} | {} | {} | {:.0} | {process_cells} |",
            duration(warm),
            duration(peer_cpu),
            peer_cpu / warm
        );
    }
    if cli.is_none() {
        println!(
            "\n(no process timings: build the command first, `cargo build --release -p fairdice-cli`)"
        );
    }
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    side_by_side();
    mixed_side_by_side();
}
