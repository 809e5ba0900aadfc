//! Runs every engine of a case table side by side, process for process, and prints the tables.
//!
//! For each case and each engine that can express it, `--runs` fresh processes each time the
//! first evaluation (fairdice and xdy through the `cold` binary, icepool through its Python
//! script), in wall time and in the process's CPU time; two tables show the medians of each and
//! the ratios `peer / fairdice`, and check the goals of the case table. Every process also prints the fingerprint of its result, and the runner
//! refuses to report a case whose engines disagree. Runs are interleaved (one process of each
//! engine in turn), so a change in the machine's load falls on every engine alike.
//!
//! It then reads criterion's warm, in-process medians for the same cases (if `cargo bench
//! --bench <family>` has run), beside icepool's in one process with its caches emptied before
//! each call, and times whole processes: the `fairdice` command against a
//! Python process that imports icepool, evaluates and prints.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Parser;
use fairdice_bench::cases::{BASELINE, Case, CaseTable};
use fairdice_bench::engines::RUST_ENGINES;
use fairdice_bench::fingerprint::Fingerprint;
use fairdice_bench::report::{duration, markdown, median, ratio};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// Compare fairdice with its peers on a case table, process for process.
#[derive(Parser)]
struct Args {
    /// The case table (its file stem names the criterion groups, e.g. `dice_3d6`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/cases/dice.tsv"))]
    cases: PathBuf,
    /// Only these cases (repeatable); all by default.
    #[arg(long = "case")]
    only: Vec<String>,
    /// Fresh processes per engine and case for the cold timing.
    #[arg(long, default_value_t = 7)]
    runs: usize,
    /// Processes per case for the whole-process timing (0: skip it).
    #[arg(long, default_value_t = 5)]
    wall_runs: usize,
    /// The Python that has icepool installed.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/python"))]
    python: PathBuf,
    /// The script that times one icepool expression.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/icepool_dice.py"))]
    icepool_script: PathBuf,
    /// Map the Rust engines' code into each process before its clock starts, as `import` has
    /// done for icepool (`cold --map-code`); off by default: the plain first call.
    #[arg(long)]
    map_code: bool,
    /// icepool's in-process evaluations per case for the warm table, each after emptying
    /// its caches (`icepool_dice.py --warm N`; 0: leave icepool out of the warm table).
    #[arg(long, default_value_t = 5)]
    warm_runs: usize,
    /// Where criterion keeps its results (default: `$CRITERION_HOME`, else the target
    /// directory's `criterion`).
    #[arg(long)]
    criterion: Option<PathBuf>,
}

/// One process's answer: how long the first evaluation took, and what it computed.
struct Sample {
    seconds: f64,
    cpu: f64,
    fingerprint: Fingerprint,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("compare: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Prints every table; `Ok(false)` if the engines disagreed on some case.
fn run(args: &Args) -> Result<bool> {
    let text = std::fs::read_to_string(&args.cases)
        .with_context(|| format!("reading {}", args.cases.display()))?;
    let table = CaseTable::parse(&text).with_context(|| args.cases.display().to_string())?;
    let family = args
        .cases
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the case table needs a file name")?
        .to_string();
    let cases: Vec<&Case> = table
        .cases
        .iter()
        .filter(|c| args.only.is_empty() || args.only.contains(&c.name))
        .collect();
    if cases.is_empty() {
        bail!("no case of {} is selected", args.cases.display());
    }
    let bin_dir = std::env::current_exe()?
        .parent()
        .context("the runner's own directory")?
        .to_path_buf();

    println!("load average before: {}", load_average());
    let mut agreed = true;
    let mut measured: Vec<(&Case, Vec<Medians>)> = Vec::new();
    for case in &cases {
        let engines: Vec<(&str, &str)> = table
            .engines
            .iter()
            .filter_map(|e| Some((e.as_str(), case.expression(&table, e)?)))
            .collect();
        let mut samples: Vec<Vec<Sample>> = engines.iter().map(|_| Vec::new()).collect();
        for _ in 0..args.runs {
            for ((engine, expression), samples) in engines.iter().zip(&mut samples) {
                samples.push(cold(args, &bin_dir, engine, expression)?);
            }
        }
        let reference = &samples[0][0].fingerprint;
        if let Some(((engine, _), _)) = engines
            .iter()
            .zip(&samples)
            .find(|(_, s)| s.iter().any(|s| &s.fingerprint != reference))
        {
            eprintln!(
                "{}: {engine} computed a different distribution from {}",
                case.name, engines[0].0
            );
            agreed = false;
            continue;
        }
        let medians = engines
            .iter()
            .zip(&samples)
            .map(|((engine, _), s)| {
                let of = |f: fn(&Sample) -> f64| {
                    median(&s.iter().map(f).collect::<Vec<_>>()).expect("at least one run")
                };
                Medians {
                    engine: engine.to_string(),
                    wall: of(|s| s.seconds),
                    cpu: of(|s| s.cpu),
                }
            })
            .collect();
        measured.push((case, medians));
    }
    println!("load average after:  {}\n", load_average());

    let mapped = if args.map_code {
        ", Rust code mapped before the clock starts (--map-code)"
    } else {
        ""
    };
    println!(
        "Cold, wall clock: median over {} fresh processes of the first evaluation's time{mapped}\n",
        args.runs
    );
    cold_table(&table, &measured, |m| m.wall);
    println!(
        "Cold, CPU time: the same processes, the process's CPU time during the first evaluation \
         (what a busy machine stretches less)\n"
    );
    cold_table(&table, &measured, |m| m.cpu);

    warm_table(args, &table, &cases, &family)?;
    if args.wall_runs > 0 {
        wall_table(args, &table, &cases, &bin_dir)?;
    }
    Ok(agreed)
}

/// One engine's medians on one case, in seconds.
struct Medians {
    engine: String,
    wall: f64,
    cpu: f64,
}

/// Prints the cold table of one measure, then the goals it misses.
fn cold_table(table: &CaseTable, measured: &[(&Case, Vec<Medians>)], measure: fn(&Medians) -> f64) {
    // Ratios from the furthest peer column inwards: `icepool/fairdice | xdy/fairdice`.
    let peers: Vec<&String> = table.engines.iter().skip(1).rev().collect();
    let mut headers: Vec<String> = vec!["case".into()];
    headers.extend(table.engines.iter().cloned());
    headers.extend(peers.iter().map(|p| format!("{p}/{BASELINE}")));
    headers.push("goals".into());
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();

    let mut rows = Vec::new();
    let mut unmet = Vec::new();
    for (case, medians) in measured {
        let time_of = |engine: &str| medians.iter().find(|m| m.engine == engine).map(measure);
        let ratio_of = |peer: &str| time_of(peer).zip(time_of(BASELINE)).map(|(p, b)| p / b);
        let mut row = vec![case.name.clone()];
        for engine in &table.engines {
            row.push(time_of(engine).map_or("–".into(), duration));
        }
        for peer in &peers {
            row.push(ratio_of(peer).map_or("–".into(), ratio));
        }
        let mut goals = Vec::new();
        for goal in &case.goals {
            let r = ratio_of(&goal.peer);
            let met = r.is_some_and(|r| r >= goal.min_ratio);
            let verdict = if met { "met" } else { "NOT met" };
            goals.push(format!("{}≥{}: {verdict}", goal.peer, goal.min_ratio));
            if !met {
                let shown = r.map_or("not measured".into(), ratio);
                unmet.push(format!(
                    "{} {}/{BASELINE} {shown} < ×{}",
                    case.name, goal.peer, goal.min_ratio
                ));
            }
        }
        row.push(goals.join(", "));
        rows.push(row);
    }
    println!("{}", markdown(&headers, &rows));
    if unmet.is_empty() {
        println!("Every goal is met.\n");
    } else {
        println!("Goals NOT met: {}.\n", unmet.join("; "));
    }
}

/// Starts one process that times the first evaluation of `expression` by `engine`.
fn cold(args: &Args, bin_dir: &Path, engine: &str, expression: &str) -> Result<Sample> {
    let mut command = if RUST_ENGINES.contains(&engine) {
        let mut command = Command::new(bin_dir.join("cold"));
        if args.map_code {
            command.arg("--map-code");
        }
        command.arg(engine);
        command
    } else if engine == "icepool" {
        let mut command = Command::new(&args.python);
        command.arg(&args.icepool_script);
        command
    } else {
        bail!("no runner for engine `{engine}`");
    };
    command.arg(expression);
    let line = stdout_of(&mut command, &format!("{engine} `{expression}`"))?;
    let field = |key: &str| field(&line, key);
    match (field("seconds"), field("cpu"), Fingerprint::parse(&line)) {
        (Some(seconds), Some(cpu), Some(fingerprint)) => Ok(Sample {
            seconds,
            cpu,
            fingerprint,
        }),
        _ => bail!("{engine} `{expression}` printed `{}`", line.trim()),
    }
}

/// Criterion's warm medians, per call, of the Rust engines on these cases (if it has run),
/// beside icepool's median in one process with its caches emptied before each call.
fn warm_table(args: &Args, table: &CaseTable, cases: &[&Case], family: &str) -> Result<()> {
    let dir = args.criterion.clone().unwrap_or_else(|| {
        std::env::var_os("CRITERION_HOME").map_or_else(
            || {
                let target = std::env::var_os("CARGO_TARGET_DIR")
                    .map_or_else(|| Path::new(MANIFEST_DIR).join("../target"), PathBuf::from);
                target.join("criterion")
            },
            PathBuf::from,
        )
    });
    let functions = ["fairdice", "fairdice_core", "xdy"];
    let mut rows = Vec::new();
    for case in cases {
        let estimate = |function: &str| {
            let path = dir.join(format!(
                "{family}_{}/{function}/new/estimates.json",
                case.name
            ));
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
            Some(json["median"]["point_estimate"].as_f64()? * 1e-9)
        };
        let mut times: Vec<Option<f64>> = functions.iter().map(|f| estimate(f)).collect();
        if times.iter().all(Option::is_none) {
            continue;
        }
        let icepool = match case.expression(table, "icepool") {
            Some(expression) if args.warm_runs > 0 => Some(icepool_warm(args, expression)?),
            _ => None,
        };
        times.push(icepool);
        let mut row = vec![case.name.clone()];
        row.extend(times.iter().map(|t| t.map_or("–".into(), duration)));
        for peer in [times[3], times[2]] {
            let r = peer.zip(times[0]).map(|(x, f)| x / f);
            row.push(r.map_or("–".into(), ratio));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        println!(
            "Warm: no criterion results in {} (run `cargo bench -p fairdice-bench --bench {family}`)\n",
            dir.display()
        );
        return Ok(());
    }
    println!(
        "Warm: criterion median per call, in process; icepool: median of {} calls in one \
         process after its first, each after emptying its caches\n",
        args.warm_runs
    );
    let headers = [
        "case",
        "fairdice",
        "fairdice core",
        "xdy",
        "icepool",
        "icepool/fairdice",
        "xdy/fairdice",
    ];
    println!("{}", markdown(&headers, &rows));
    Ok(())
}

/// icepool's warm median on `expression`, in seconds (`icepool_dice.py --warm`).
fn icepool_warm(args: &Args, expression: &str) -> Result<f64> {
    let mut command = Command::new(&args.python);
    command
        .arg(&args.icepool_script)
        .args(["--warm", &args.warm_runs.to_string(), expression]);
    let what = format!("icepool --warm `{expression}`");
    let line = stdout_of(&mut command, &what)?;
    field(&line, "seconds").with_context(|| format!("{what} printed `{}`", line.trim()))
}

/// What `command` printed, its errors passed through; an error if it failed.
fn stdout_of(command: &mut Command, what: &str) -> Result<String> {
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("starting {command:?}"))?;
    if !output.status.success() {
        bail!("{what} failed: {}", output.status);
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The number after `key=` in a line of `key=value` fields.
fn field(line: &str, key: &str) -> Option<f64> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(key)?.strip_prefix('='))?
        .parse()
        .ok()
}

/// Whole processes: `fairdice dist EXPR --json` against Python importing icepool, evaluating
/// and printing the same distribution.
fn wall_table(args: &Args, table: &CaseTable, cases: &[&Case], bin_dir: &Path) -> Result<()> {
    let cli = bin_dir.join("fairdice");
    if !cli.exists() {
        println!("Whole process: skipped, {} is not built\n", cli.display());
        return Ok(());
    }
    let mut rows = Vec::new();
    for case in cases {
        let (Some(ours), Some(theirs)) = (
            case.expression(table, BASELINE),
            case.expression(table, "icepool"),
        ) else {
            continue;
        };
        let (mut fairdice, mut icepool) = (Vec::new(), Vec::new());
        for _ in 0..args.wall_runs {
            let mut command = Command::new(&cli);
            command.args(["dist", ours, "--json"]);
            fairdice.push(wall(command)?);
            let mut command = Command::new(&args.python);
            command.arg(&args.icepool_script).args(["--print", theirs]);
            icepool.push(wall(command)?);
        }
        let (f, i) = (median(&fairdice), median(&icepool));
        let (f, i) = (f.context("no run")?, i.context("no run")?);
        rows.push(vec![
            case.name.clone(),
            duration(f),
            duration(i),
            ratio(i / f),
        ]);
    }
    println!(
        "Whole process: median wall time over {} runs, start to exit, output discarded\n",
        args.wall_runs
    );
    let headers = [
        "case",
        "fairdice dist --json",
        "python + import icepool + evaluate + print",
        "ratio",
    ];
    println!("{}", markdown(&headers, &rows));
    Ok(())
}

/// Runs `command` to completion with its output discarded; its wall time in seconds.
fn wall(mut command: Command) -> Result<f64> {
    let start = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .status()
        .with_context(|| format!("starting {command:?}"))?;
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(seconds)
}

/// The 1, 5 and 15 minute load averages, as Linux reports them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or("unknown".into(), |s| {
        s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    })
}
