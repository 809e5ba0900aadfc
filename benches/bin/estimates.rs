//! Estimates against what answering costs. For each request of a case table
//! (default `benches/cases/estimates.tsv`: `case`, `use_case`, `request` JSON), the
//! use-case layer is asked under growing budgets (doubling from 2^10 steps, and
//! from 1 MiB of memory) until it answers; the least step budget that answers is
//! the request's price within a factor of two. The answer under that budget is
//! timed (process CPU, every thread) and its heap peak counted.
//!
//! A budget is a promise both ways: an answered request should take about a
//! nanosecond of CPU a step of its price, neither more than ten times that (it
//! ran past its estimate: **over**) nor less than a tenth (it is priced so high
//! that cheap requests are refused: **high**), and hold no more heap than ten
//! times its memory price. Requests under a millisecond are not judged against
//! their price (a process's fixed costs dominate them), nor prices under 2^24
//! steps for being high (under 1% of the default budget, none is refused). A request the default budget
//! refuses as too large is tried again under a hundred times that budget, for
//! at most 20 seconds: if it then answers within a second it was a cheap request
//! refused (**cheap, refused**).
//!
//! `estimates [CASES.tsv] [--markdown]`

// The use-case layer's `Error` is returned by value (see fairdice-api).
#![allow(clippy::result_large_err)]

use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;
use fairdice::control::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS};
use fairdice::{Control, FailureKind};
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// The least budgets tried.
const FIRST_STEPS: u64 = 1 << 10;
const FIRST_MEMORY: u64 = 1 << 20;

/// Halvings of the interval between the doubled budget that answers and the
/// one before it.
const BISECTIONS: u32 = 3;

/// Past these ratios a row is marked: the budget let through far more than it
/// promised.
const MOST_NS_PER_STEP: f64 = 10.0;
const MOST_HEAP_PER_BYTE: f64 = 10.0;

/// Below this a budget let through far less than it promised: the price is high.
const LEAST_NS_PER_STEP: f64 = 0.1;

/// Answers faster than this are not judged against their price.
const LEAST_JUDGED_SECONDS: f64 = 1e-3;

/// Prices below this are not judged high: under 1% of the default budget, no
/// budget refuses them.
const LEAST_JUDGED_PRICE: u64 = 1 << 24;

/// A refused request is tried again under this many times the default budget...
const RETRY_FACTOR: u64 = 100;
/// ...for at most this long.
const RETRY_WALL: Duration = Duration::from_secs(20);
/// A request refused by default that answers in less CPU than this was cheap.
const CHEAP_SECONDS: f64 = 1.0;

/// One request of the table.
struct Case {
    name: String,
    use_case: String,
    request: String,
}

/// What answering a case under its least budgets cost.
enum Outcome {
    Answered {
        steps: u64,
        memory: u64,
        cpu_seconds: f64,
        wall_seconds: f64,
        peak_heap: u64,
    },
    Refused {
        code: &'static str,
        message: String,
        /// CPU seconds it took under [`RETRY_FACTOR`] times the default budget,
        /// when it answered then.
        retried: Option<f64>,
    },
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let markdown = args.iter().any(|a| a == "--markdown");
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or("benches/cases/estimates.tsv", String::as_str);
    let cases = match read_cases(path) {
        Ok(cases) => cases,
        Err(message) => {
            eprintln!("estimates: {message}");
            return ExitCode::FAILURE;
        }
    };
    let (mut over, mut high, mut cheap) = (0, 0, 0);
    println!(
        "| case | use case | least step budget | CPU | ns a step | least memory budget | heap peak | heap / budget |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for case in &cases {
        let outcome = measure(case);
        let row = match &outcome {
            Outcome::Answered {
                steps,
                memory,
                cpu_seconds,
                wall_seconds,
                peak_heap,
            } => {
                let ns_per_step = cpu_seconds * 1e9 / *steps as f64;
                let heap_ratio = *peak_heap as f64 / *memory as f64;
                let judged = *cpu_seconds >= LEAST_JUDGED_SECONDS;
                let mark = if heap_ratio > MOST_HEAP_PER_BYTE
                    || judged && ns_per_step > MOST_NS_PER_STEP
                {
                    over += 1;
                    " **over**"
                } else if *steps >= LEAST_JUDGED_PRICE && ns_per_step < LEAST_NS_PER_STEP {
                    high += 1;
                    " **high**"
                } else {
                    ""
                };
                format!(
                    "| {}{mark} | {} | {} | {} (wall {}) | {ns_per_step:.2} | {} | {} | {heap_ratio:.2} |",
                    cell(&case.name, markdown),
                    case.use_case,
                    steps,
                    seconds(*cpu_seconds),
                    seconds(*wall_seconds),
                    fairdice::control::bytes(*memory),
                    fairdice::control::bytes(*peak_heap),
                )
            }
            Outcome::Refused {
                code,
                message,
                retried,
            } => {
                let mark = match retried {
                    Some(cpu) if *cpu < CHEAP_SECONDS => {
                        cheap += 1;
                        " **cheap, refused**"
                    }
                    _ => "",
                };
                let retry = match retried {
                    Some(cpu) => format!("{} under {RETRY_FACTOR}× the budget", seconds(*cpu)),
                    None => String::new(),
                };
                format!(
                    "| {}{mark} | {} | refused (`{code}`): {} | {retry} | | | | |",
                    cell(&case.name, markdown),
                    case.use_case,
                    cell(&shorten(message), markdown)
                )
            }
        };
        println!("{row}");
    }
    println!(
        "\n{} cases: {over} past {MOST_NS_PER_STEP} ns a step or {MOST_HEAP_PER_BYTE}x their memory budget, \
         {high} under {LEAST_NS_PER_STEP} ns a step, {cheap} refused though they answer within {CHEAP_SECONDS} s",
        cases.len()
    );
    if over + high + cheap == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn read_cases(path: &str) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = text.lines();
    if lines.next() != Some("case\tuse_case\trequest") {
        return Err(format!(
            "{path}: the header must be `case\\tuse_case\\trequest`"
        ));
    }
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| match line.splitn(3, '\t').collect::<Vec<_>>()[..] {
            [name, use_case, request] => Ok(Case {
                name: name.to_string(),
                use_case: use_case.to_string(),
                request: request.to_string(),
            }),
            _ => Err(format!(
                "{path}: a row needs three tab-separated cells: {line}"
            )),
        })
        .collect()
}

/// The least budgets that answer `case`, and what answering under them cost.
fn measure(case: &Case) -> Outcome {
    let run = |steps: u64, memory: u64| {
        let control = Control::new().with_max_steps(steps).with_max_memory(memory);
        fairdice_api::run_json(&case.use_case, &case.request, &control)
    };
    let mut steps = FIRST_STEPS;
    loop {
        match run(steps, DEFAULT_MAX_MEMORY) {
            Ok(_) => break,
            Err(error) if error.kind == FailureKind::TooLarge && steps < DEFAULT_MAX_STEPS => {
                steps = (steps * 2).min(DEFAULT_MAX_STEPS);
            }
            Err(error) => {
                let retried = (error.code == "too_big").then(|| retry(case)).flatten();
                return Outcome::Refused {
                    code: error.code,
                    message: error.message,
                    retried,
                };
            }
        }
    }
    // Halving the interval between the last refusal and the answer: the price
    // within an eighth, not a factor of two.
    if steps > FIRST_STEPS {
        let mut refused = steps / 2;
        for _ in 0..BISECTIONS {
            let middle = refused + (steps - refused) / 2;
            match run(middle, DEFAULT_MAX_MEMORY) {
                Ok(_) => steps = middle,
                Err(_) => refused = middle,
            }
        }
    }
    let mut memory = FIRST_MEMORY;
    while memory < DEFAULT_MAX_MEMORY && run(steps, memory).is_err() {
        memory = (memory * 2).min(DEFAULT_MAX_MEMORY);
    }
    let before = ALLOCATOR.current_usage() as u64;
    ALLOCATOR.reset_peak_usage();
    let (start, cpu) = (Instant::now(), ProcessTime::now());
    let answer = run(steps, memory);
    let (wall_seconds, cpu_seconds) = (start.elapsed().as_secs_f64(), cpu.elapsed().as_secs_f64());
    let peak_heap = (ALLOCATOR.peak_usage() as u64).saturating_sub(before);
    drop(answer);
    Outcome::Answered {
        steps,
        memory,
        cpu_seconds,
        wall_seconds,
        peak_heap,
    }
}

/// The CPU seconds `case` takes under [`RETRY_FACTOR`] times the default budget,
/// if it answers within [`RETRY_WALL`].
fn retry(case: &Case) -> Option<f64> {
    let control = Control::new().with_max_steps(DEFAULT_MAX_STEPS * RETRY_FACTOR);
    let (done, waited) = mpsc::channel::<()>();
    let watch = control.clone();
    let timer = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = waited.recv_timeout(RETRY_WALL) {
            watch.cancel();
        }
    });
    let cpu = ProcessTime::now();
    let answer = fairdice_api::run_json(&case.use_case, &case.request, &control);
    let took = cpu.elapsed().as_secs_f64();
    drop(done);
    let _ = timer.join();
    answer.ok().map(|_| took)
}

fn seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

fn shorten(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    match first.char_indices().nth(110) {
        Some((at, _)) => format!("{}…", &first[..at]),
        None => first.to_string(),
    }
}

/// A table cell: code in Markdown, pipes escaped.
fn cell(text: &str, markdown: bool) -> String {
    let escaped = text.replace('|', "\\|");
    if markdown {
        format!("`{escaped}`")
    } else {
        escaped
    }
}
