//! Times the first exact evaluation of one expression in a fresh process, for fairdice or xdy.
//!
//! `cold ENGINE EXPRESSION` prints one line, `seconds=… cpu=… total=… sum=… sumsq=…`: the wall
//! time and the process's CPU time of the first call only (process start, argument parsing and
//! the fingerprint are outside it), then
//! the [`Fingerprint`](fairdice_bench::fingerprint::Fingerprint) of the result. The comparison
//! runner starts it once per measurement, so every measurement is a first call, as it must be
//! for icepool, which caches what it has computed.

use std::process::ExitCode;
use std::time::Instant;

use cpu_time::ProcessTime;
use fairdice_bench::engines::{self, RUST_ENGINES};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [engine, expression] = args.as_slice() else {
        eprintln!("usage: cold ENGINE EXPRESSION   (ENGINE: one of {RUST_ENGINES:?})");
        return ExitCode::from(2);
    };
    let (start, cpu_start) = (Instant::now(), ProcessTime::now());
    let evaluated = engines::run(engine, expression);
    let (seconds, cpu) = (start.elapsed(), cpu_start.elapsed());
    match evaluated {
        Ok(evaluated) => {
            let (seconds, cpu) = (seconds.as_secs_f64(), cpu.as_secs_f64());
            println!(
                "seconds={seconds:e} cpu={cpu:e} {}",
                evaluated.fingerprint()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cold: {engine} `{expression}`: {error}");
            ExitCode::FAILURE
        }
    }
}
