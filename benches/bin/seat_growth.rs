//! How the exact seat sweep's cost grows with players, outcomes and the match
//! length `T`. Each cell asks the use-case layer (`fairdice_api::run_json("seats",
//! …)`, what `fairdice seats --exact` runs) for a generated game under plain dice
//! and prints the work metered by its `Control` (steps), the most (state, totals)
//! pairs a step held, the heap peak and the CPU and wall time, or what refused it.
//!
//! The game of `p` players over `k` outcomes: outcome `i` pays one to every
//! player `j` with `j ≡ i (mod min(k, p))`, so every player is paid by some
//! outcome; the randomizer is `dice(values=k)`, or `dice(base=2d6)` for 11
//! outcomes. Droughts are included, as in the command's default report.
//!
//! `seat_growth [--players 2,3,4] [--outcomes 3,6,11] [--samples 10,30,60,100]`

// The use-case layer's `Error` is returned by value (see fairdice-api).
#![allow(clippy::result_large_err)]

use std::process::ExitCode;
use std::time::Instant;

use cpu_time::ProcessTime;
use fairdice::Control;
use fairdice_bench::report::duration;
use peak_alloc::PeakAlloc;
use serde_json::json;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = |flag: &str, default: &[usize]| -> Result<Vec<usize>, String> {
        match args.iter().position(|a| a == flag) {
            None => Ok(default.to_vec()),
            Some(at) => args
                .get(at + 1)
                .ok_or(format!("{flag} needs a list"))?
                .split(',')
                .map(|n| n.trim().parse().map_err(|_| format!("{flag}: `{n}`")))
                .collect(),
        }
    };
    let lists = (|| {
        Ok::<_, String>((
            list("--players", &[2, 3, 4])?,
            list("--outcomes", &[3, 6, 11])?,
            list("--samples", &[10, 30, 60, 100])?,
        ))
    })();
    let (players, outcomes, samples) = match lists {
        Ok(lists) => lists,
        Err(message) => {
            eprintln!("seat_growth: {message}");
            return ExitCode::from(2);
        }
    };
    println!("| players | outcomes | T | steps | pairs a step | heap peak | CPU | wall |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &p in &players {
        for &k in &outcomes {
            for &t in &samples {
                println!("| {p} | {k} | {t} | {}", measure(p, k, t));
            }
        }
    }
    ExitCode::SUCCESS
}

/// The request of the cell: `p` players, `k` outcomes, `t` rolls, exact.
fn request(p: usize, k: usize, t: usize) -> String {
    let spec = if k == 11 {
        "dice(base=2d6)".to_string()
    } else {
        format!("dice(values={k})")
    };
    let first = if k == 11 { 2 } else { 1 };
    let paid = k.min(p);
    let payoffs: serde_json::Map<String, serde_json::Value> = (0..k)
        .map(|i| {
            let row: Vec<u32> = (0..p).map(|j| u32::from(j % paid == i % paid)).collect();
            ((first + i).to_string(), json!(row))
        })
        .collect();
    let players: Vec<String> = (1..=p).map(|j| format!("p{j}")).collect();
    json!({
        "game": {"players": players, "payoffs": payoffs},
        "spec": spec,
        "samples": t,
        "exact": true,
    })
    .to_string()
}

/// The rest of the cell's row.
fn measure(p: usize, k: usize, t: usize) -> String {
    let request = request(p, k, t);
    let control = Control::new();
    let before = ALLOCATOR.current_usage() as u64;
    ALLOCATOR.reset_peak_usage();
    let (start, cpu) = (Instant::now(), ProcessTime::now());
    let answer = fairdice_api::run_json("seats", &request, &control);
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu.elapsed().as_secs_f64());
    let heap = (ALLOCATOR.peak_usage() as u64).saturating_sub(before);
    match answer {
        Ok(document) => {
            let value: serde_json::Value = serde_json::from_str(&document).unwrap_or_default();
            format!(
                "{} | {} | {} | {} | {} |",
                control.steps_used(),
                value["peak_states"],
                fairdice::control::bytes(heap),
                duration(cpu),
                duration(wall)
            )
        }
        Err(error) => {
            let first = error
                .message
                .lines()
                .next()
                .unwrap_or("")
                .replace('|', "\\|");
            let cut: String = first.chars().take(120).collect();
            format!(
                "refused after {}: {cut} | | | {} | {} |",
                control.steps_used(),
                duration(cpu),
                duration(wall)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_game_pays_every_player_and_is_accepted() {
        for (p, k) in [(2, 3), (4, 3), (3, 6), (4, 11)] {
            let value: serde_json::Value = serde_json::from_str(&request(p, k, 3)).expect("json");
            let payoffs = value["game"]["payoffs"].as_object().expect("payoffs");
            assert_eq!(payoffs.len(), k);
            for j in 0..p {
                assert!(
                    payoffs.values().any(|row| row[j] == 1),
                    "{p} {k}: player {j}"
                );
            }
            let answer = fairdice_api::run_json("seats", &request(p, k, 3), &Control::new());
            assert!(answer.is_ok(), "{p} {k}: {answer:?}");
        }
    }
}
