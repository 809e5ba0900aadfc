//! `fairdice sample`: draw a sequence from a randomizer, optionally saving the
//! session to continue it later.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::randomizer::{SampleReport, Session};
use fairdice::rng;

use super::state::build;
use crate::failure::UserError;
use crate::session_file::{load, save};

/// Flags of `fairdice sample`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Specs: dice(values=N | base=EXPR), deck(values=N | base=EXPR, copies=1, \
refill_below=1, refill=top-up|reshuffle), bag(min=1, max=N, sets=1), dynamic(values=N | \
base=EXPR, decrease=D), fair(values=N | base=EXPR, tightness=K), prd(p=P), nes, \
tgm(history=4, tries=4), tgm1, tgm2, bag7.

Save and continue a game: `fairdice sample 'deck(values=6)' --seed 1 --count 5 --save game.json`, \
then `fairdice sample --resume game.json --count 5 --save game.json` draws exactly what an \
uninterrupted run of 10 would have drawn next."
)]
pub struct Args {
    /// The randomizer spec, e.g. `deck(values=6, copies=1, refill_below=6)`.
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    pub spec: Option<String>,
    /// How many outcomes to draw.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub count: u64,
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
    /// Print JSON: `{"spec", "seed", "samples": [...], "labels": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// The most outcomes one call draws (they are all printed).
const MAX_COUNT: u64 = 10_000_000;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.count > MAX_COUNT {
        return Err(UserError::input(format!(
            "--count {} is more than the {MAX_COUNT} one call prints",
            args.count
        )));
    }
    let (mut session, seed) = match (&args.resume, &args.spec) {
        (Some(path), _) => (load(path)?, None),
        (None, Some(spec)) => {
            let seed = args.seed.unwrap_or_else(clock_seed);
            (Session::new(build(spec)?, rng::seeded(seed)), Some(seed))
        }
        (None, None) => return Err(UserError::input("give a randomizer spec or --resume FILE")),
    };
    let indices: Vec<usize> = (0..args.count).map(|_| session.draw()).collect();
    let report = SampleReport::new(session.randomizer(), &indices, seed);
    if args.json {
        outln!("{}", report.to_json());
    } else {
        outln!("{}", report.shown().join(" "));
    }
    if let Some(path) = &args.save {
        save(path, &session)?;
    }
    Ok(())
}

/// A seed from the clock and the process id, for runs that give none.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}
