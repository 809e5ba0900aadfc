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

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use fairdice::Control;
use fairdice::contest::{Contest, ContestResult, isaksen};
use fairdice::{Die, Pool};

/// The cases, by the names the icepool script uses.
const CASES: [&str; 4] = ["isaksen", "5d6", "10d20", "20d6"];

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
}

criterion_group!(benches, contests);

/// This thread's CPU time so far, in nanoseconds (Linux; `None` elsewhere).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Wall and CPU seconds per call of fairdice on `case`, over at least half a second.
fn time_ours(case: &str) -> (f64, Option<f64>) {
    black_box(run_case(case));
    let (start, cpu) = (Instant::now(), cpu_ns());
    let mut calls = 0u32;
    while calls < 5 || start.elapsed() < Duration::from_millis(500) {
        black_box(run_case(case));
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

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    side_by_side();
}
