//! `fairdice sample`: draw a sequence from a randomizer, optionally saving the
//! session to continue it later.

use crate::csv_table::CsvTable;
use crate::output::outln;
use std::path::PathBuf;

use fairdice::Control;
use fairdice::randomizer::{Randomizer as _, SampleReport};
use fairdice_api::UseCase;
use fairdice_api::randomizer::{SampleRequest, Source};

use crate::session_file::{failure, save, source};

/// How a game is saved and continued, under `--help`.
const SAVE_HELP: &str = "Save and continue a game: `fairdice sample 'deck(values=6)' --seed 1 \
--samples 5 --save game.json`, then `fairdice sample --resume game.json --samples 5 --save game.json` \
draws exactly what an uninterrupted run of 10 would have drawn next.";

/// Flags of `fairdice sample`.
#[derive(Debug, clap::Args)]
#[command(after_help = format!("{}\n{SAVE_HELP}", super::spec_help()))]
pub struct Args {
    /// The randomizer spec, e.g. `deck(values=6, copies=1, refill_below=6)`.
    #[arg(required_unless_present = "resume", conflicts_with = "resume", value_parser = super::randomizer_spec)]
    pub spec: Option<String>,
    /// How many outcomes to draw.
    #[arg(
        long,
        short = 'T',
        alias = "count",
        short_alias = 'n',
        default_value_t = 10
    )]
    pub samples: u64,
    /// Seed of the xoshiro256++ generator (default: from the clock; printed with --json).
    #[arg(long, conflicts_with = "resume")]
    pub seed: Option<u64>,
    /// Continue the session saved in this file (spec, state and generator).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Save the session after drawing (may be the --resume file). The file is
    /// replaced whole or not at all: if the save fails, it keeps the old session.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::Format,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let source = source(args.resume.as_deref(), args.spec.as_deref())?;
    // A fresh randomizer without --seed gets one from the clock, shown so the draws
    // can be repeated; a resumed session continues with its own generator.
    let from_clock = matches!((&source, args.seed), (Source::Spec(_), None));
    let seed = match args.seed {
        None if from_clock => clock_seed(),
        seed => seed.unwrap_or(fairdice_api::DEFAULT_SEED),
    };
    let request = SampleRequest {
        source,
        samples: args.samples,
        seed,
        save: false,
    };
    if !args.format.json && !args.format.csv {
        return write_draws(&request, &args, from_clock);
    }
    let answer = request
        .run(&Control::new())
        .map_err(|e| failure(args.resume.as_deref(), e))?;
    if from_clock {
        seed_note(seed);
    }
    if args.format.json {
        outln!("{}", crate::output::json(&answer.report)?.trim_end());
    } else {
        outln!("{}", draws_csv(&answer.report)?.trim_end());
    }
    if let (Some(path), Some(session)) = (&args.save, &answer.continued) {
        save(path, session)?;
    }
    Ok(())
}

/// The draws as text, one line, written as they are drawn: each outcome's text
/// (its name, or its value) is made once, so no string is built per draw and
/// the memory stays constant however many are drawn.
fn write_draws(request: &SampleRequest, args: &Args, from_clock: bool) -> anyhow::Result<()> {
    use std::io::Write as _;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    // Each outcome's text after a space; the first draw skips the space.
    let mut texts: Option<Vec<String>> = None;
    let mut written: std::io::Result<()> = Ok(());
    let mut skip = 1;
    let drawn = request.draw_each(&Control::new(), |randomizer, index| {
        // An outcome's label is its name, or its value's digits when it has none.
        let texts = texts.get_or_insert_with(|| {
            (0..randomizer.outcomes().len())
                .map(|i| format!(" {}", randomizer.label(i)))
                .collect()
        });
        if written.is_ok() {
            written = out.write_all(&texts[index].as_bytes()[skip..]);
            skip = 0;
        }
    });
    let (session, _) = drawn.map_err(|e| failure(args.resume.as_deref(), e))?;
    written?;
    writeln!(out)?;
    out.flush()?;
    if from_clock {
        seed_note(request.seed);
    }
    if let Some(path) = &args.save {
        save(path, &session)?;
    }
    Ok(())
}

/// Says which seed the clock gave, so the draws can be repeated.
fn seed_note(seed: u64) {
    eprintln!("seed {seed} (repeat these draws with --seed {seed})");
}

/// A seed from the clock and the process id, for runs that give none.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The draws as CSV: `draw` (from 1), `outcome`, and `label` for named outcomes.
fn draws_csv(report: &SampleReport) -> anyhow::Result<String> {
    let rows: Vec<serde_json::Value> = report
        .samples
        .iter()
        .enumerate()
        .map(|(i, outcome)| {
            let mut row = serde_json::json!({ "draw": i + 1, "outcome": outcome });
            if let Some(label) = report.labels.as_ref().and_then(|labels| labels.get(i)) {
                row["label"] = label.clone().into();
            }
            row
        })
        .collect();
    CsvTable::of(&serde_json::Value::Array(rows), &[]).to_csv()
}
