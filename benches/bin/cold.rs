//! Times the first exact evaluation of one expression in a fresh process, for fairdice or xdy.
//!
//! `cold ENGINE EXPRESSION` prints one line, `seconds=… cpu=… total=… sum=… sumsq=…`: the wall
//! time and the process's CPU time of the first call only (process start, argument parsing and
//! the fingerprint are outside it), then the
//! [`Fingerprint`](fairdice_bench::fingerprint::Fingerprint) of the result. The comparison
//! runner starts it once per measurement, so every measurement is a first call, as it must be
//! for icepool, which caches what it has computed.
//!
//! `cold --phases EXPRESSION` splits fairdice's first call instead, in CPU time: the first
//! parse, the first evaluation of the parsed expression, then a second whole call in the same
//! process; it shows how much of a first call is the first touch of the code and data, and
//! prints the minor page faults each phase took.
//!
//! `cold --calls N EXPRESSION` makes N whole calls of fairdice in one process, untimed, and
//! prints the fingerprint: for counting instructions under a tool, where the count of two
//! calls less that of one is a warm call (`benches/instructions.sh`).
//!
//! `--map-code` first (any form) maps the executable's code into the process before any
//! clock starts, by reading it through `/proc/self/mem`. Without it, Linux maps each page of
//! code when it first runs, so a first call pays page faults for the code it runs; Python has
//! loaded icepool's code during `import`, which the peer script does not time. The option shows
//! how much of fairdice's first call is that loading; the default is the plain first call.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;
use fairdice::Control;
use fairdice::dice::notation::{Options, evaluate, evaluate_expr, parse};
use fairdice_bench::engines::{self, EngineError, Evaluated, RUST_ENGINES};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--map-code") {
        args.remove(0);
        if let Err(error) = map_code() {
            eprintln!("cold: --map-code: {error}");
            return ExitCode::FAILURE;
        }
    }
    let result = match args.as_slice() {
        [flag, expression] if flag == "--phases" => phases(expression),
        [flag, calls, expression] if flag == "--calls" => match calls.parse() {
            Ok(calls) if calls > 0 => repeated(calls, expression),
            _ => Err(format!("--calls takes a count of calls, not {calls:?}").into()),
        },
        [engine, expression] => first_call(engine, expression),
        _ => {
            eprintln!(
                "usage: cold [--map-code] ENGINE EXPRESSION   (ENGINE: one of {RUST_ENGINES:?})\n       \
                 cold [--map-code] --phases EXPRESSION\n       \
                 cold [--map-code] --calls N EXPRESSION"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cold: {args:?}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The first call of `engine` on `expression`: wall time, CPU time and fingerprint.
fn first_call(engine: &str, expression: &str) -> Result<String, EngineError> {
    let (start, cpu_start) = (Instant::now(), ProcessTime::now());
    let evaluated = engines::run(engine, expression)?;
    let (seconds, cpu) = (start.elapsed(), cpu_start.elapsed());
    Ok(format!(
        "seconds={:e} cpu={:e} {}",
        seconds.as_secs_f64(),
        cpu.as_secs_f64(),
        evaluated.fingerprint()
    ))
}

/// fairdice's first parse, first evaluation and second whole call, in CPU time, each with
/// the page faults it took (read from `/proc/self/stat` outside the timed region).
fn phases(expression: &str) -> Result<String, EngineError> {
    fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, u64) {
        let faults = minor_faults();
        let start = ProcessTime::now();
        let value = f();
        let elapsed = start.elapsed();
        (value, elapsed, minor_faults().saturating_sub(faults))
    }
    let (parsed, first_parse, parse_faults) = timed(|| parse(expression));
    let (die, first_evaluation, evaluation_faults) =
        timed(|| evaluate_expr(&parsed?, &Options::default(), &Control::new()));
    let (again, second_call, second_faults) = timed(|| evaluate(expression));
    if die? != again? {
        return Err("the second call computed another distribution".into());
    }
    Ok(format!(
        "first_parse={:e} first_evaluation={:e} second_call={:e} \
         parse_faults={parse_faults} evaluation_faults={evaluation_faults} \
         second_faults={second_faults}",
        first_parse.as_secs_f64(),
        first_evaluation.as_secs_f64(),
        second_call.as_secs_f64(),
    ))
}

/// `calls` whole calls of fairdice on `expression`, untimed: the fingerprint of the first, once
/// every later call has given the same distribution. Besides the calls, a later call costs one
/// comparison of two distributions.
fn repeated(calls: u32, expression: &str) -> Result<String, EngineError> {
    let first = engines::fairdice(expression)?;
    for _ in 1..calls {
        if engines::fairdice(expression)? != first {
            return Err("a later call computed another distribution".into());
        }
    }
    Ok(Evaluated::Fairdice(first).fingerprint().to_string())
}

/// The minor page faults of this process so far (0 where `/proc` cannot tell).
fn minor_faults() -> u64 {
    // `pid (comm) state ppid pgrp session tty_nr tpgid flags minflt …`; comm may hold spaces.
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            let (_, fields) = stat.rsplit_once(')')?;
            fields.split_whitespace().nth(7)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Reads every executable mapping of this program through `/proc/self/mem`, which makes the
/// kernel map those pages into the process as if the code had run; returns the bytes read.
fn map_code() -> std::io::Result<usize> {
    let exe = std::fs::read_link("/proc/self/exe")?;
    let maps = std::fs::read_to_string("/proc/self/maps")?;
    let mut memory = std::fs::File::open("/proc/self/mem")?;
    let mut buffer = vec![0u8; 1 << 16];
    let mut mapped = 0;
    for line in maps.lines() {
        // `start-end perms offset dev inode path`
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [range, perms, _, _, _, path] = fields[..] else {
            continue;
        };
        if !perms.contains('x') || Path::new(path) != exe {
            continue;
        }
        let bounds = range.split_once('-').and_then(|(start, end)| {
            Some((
                u64::from_str_radix(start, 16).ok()?,
                u64::from_str_radix(end, 16).ok()?,
            ))
        });
        let Some((mut at, end)) = bounds else {
            continue;
        };
        while at < end {
            let length = buffer
                .len()
                .min(usize::try_from(end - at).unwrap_or(usize::MAX));
            memory.seek(SeekFrom::Start(at))?;
            memory.read_exact(&mut buffer[..length])?;
            at += length as u64;
            mapped += length;
        }
    }
    Ok(mapped)
}
