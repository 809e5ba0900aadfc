//! Times one use-case request natively, as the WebAssembly build's `run` does it:
//! `fairdice_api::run_json` — parse, price, evaluate, build the report and write its
//! JSON document — so `benches/wasm/` compares the same work on both builds.
//!
//! `use_case USE_CASE REQUEST_JSON [--repeat N]` prints one line: `first=…` (the
//! wall time of the first call in this process), `first_cpu=…`, `warm=…` (the median
//! of N more calls, default 20, made after 0.5 s more of the same call, untimed, as
//! the WebAssembly timer waits for V8's optimizing compiler), `bytes=…` (the
//! document's length) and, for `dist`, the
//! [`Fingerprint`] of its outcomes.

// The use-case layer's `Error` is returned by value (see fairdice-api).
#![allow(clippy::result_large_err)]

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;
use fairdice::Control;
use fairdice_bench::fingerprint::Fingerprint;
use num_bigint::BigUint;

/// How long the same call runs untimed before the warm calls are timed.
const SETTLE: Duration = Duration::from_millis(500);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (use_case, request, repeat) = match args.as_slice() {
        [use_case, request] => (use_case, request, 20),
        [use_case, request, flag, n] if flag == "--repeat" => match n.parse() {
            Ok(n) => (use_case, request, n),
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    let call = || fairdice_api::run_json(use_case, request, &Control::new());
    let (start, cpu_start) = (Instant::now(), ProcessTime::now());
    let first = call();
    let (first_seconds, first_cpu) = (start.elapsed(), cpu_start.elapsed());
    let document = match first {
        Ok(document) => document,
        Err(error) => {
            eprintln!("use_case: {error}");
            return ExitCode::FAILURE;
        }
    };
    let settled = Instant::now() + SETTLE;
    while Instant::now() < settled {
        let _ = std::hint::black_box(call());
    }
    let mut times: Vec<f64> = (0..repeat)
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(call());
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let warm = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    println!(
        "first={:e} first_cpu={:e} warm={warm:e} bytes={} {}",
        first_seconds.as_secs_f64(),
        first_cpu.as_secs_f64(),
        document.len(),
        fingerprint(&document)
            .map(|f| f.to_string())
            .unwrap_or_default()
    );
    ExitCode::SUCCESS
}

/// The fingerprint of a distribution document's outcomes.
fn fingerprint(document: &str) -> Option<Fingerprint> {
    let value: serde_json::Value = serde_json::from_str(document).ok()?;
    let pairs = value["outcomes"]
        .as_array()?
        .iter()
        .map(|row| {
            Some((
                row["outcome"].as_i64()?,
                row["count"].as_str()?.parse::<BigUint>().ok()?,
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Fingerprint::of(pairs))
}

fn usage() -> ExitCode {
    eprintln!("usage: use_case USE_CASE REQUEST_JSON [--repeat N]");
    ExitCode::from(2)
}
