//! `fairdice state`: inspect a saved randomizer session; and the loading and
//! saving that `sample` and `next` share.

use crate::output::outln;
use std::path::{Path, PathBuf};

use anyhow::Context;
use fairdice::randomizer::report::NextOutcome;
use fairdice::randomizer::{AnyRandomizer, Randomizer, Session, Spec};
use serde_json::json;

use crate::failure::UserError;

/// Flags of `fairdice state`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "A session file is written by `fairdice sample SPEC --save FILE` and \
continued by `fairdice sample --resume FILE`; it holds the spec, the randomizer's state and \
its generator (format `fairdice-randomizer`, version 1)."
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

/// What to do with a session file.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Show a saved session: its spec, draws so far, state and next-sample distribution.
    Show {
        /// The session file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.action {
        Action::Show { file, json } => {
            let session = load(&file)?;
            let randomizer = session.randomizer();
            if json {
                let report = json!({
                    "spec": randomizer.spec(),
                    "draws": session.draws(),
                    "state": randomizer.state_key(),
                    "next": NextOutcome::all(randomizer),
                });
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                outln!("spec:  {}", randomizer.spec());
                outln!("draws: {}", session.draws());
                outln!("state: {:?}", randomizer.state_key());
                outln!();
                print_distribution(randomizer)?;
            }
            Ok(())
        }
    }
}

/// Reads a session file; unreadable or invalid files are the user's to fix.
pub fn load(path: &Path) -> anyhow::Result<Session> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        UserError::input(format!("cannot read session file {}: {e}", path.display()))
    })?;
    Session::from_json(&text).map_err(|e| UserError::input(format!("{}: {e}", path.display())))
}

/// Writes a session file.
pub fn save(path: &Path, session: &Session) -> anyhow::Result<()> {
    std::fs::write(path, session.to_json() + "\n")
        .with_context(|| format!("cannot write session file {}", path.display()))
}

/// Builds a randomizer from a spec string; a bad spec is the user's to fix.
pub fn build(spec: &str) -> anyhow::Result<AnyRandomizer> {
    Spec::build(spec).map_err(|e| UserError::input(e.to_string()))
}

/// A table of the next-sample distribution.
pub fn print_distribution(randomizer: &dyn Randomizer) -> anyhow::Result<()> {
    let width = (0..randomizer.outcomes().len())
        .map(|i| randomizer.label(i).len())
        .max()
        .unwrap_or(1)
        .max("outcome".len());
    outln!("{:>width$}  probability", "outcome");
    let distribution = randomizer.next_distribution();
    let peak = distribution.iter().copied().fold(0.0, f64::max);
    for (i, p) in distribution.iter().enumerate() {
        let bar = crate::output::bar(p / peak, 40);
        outln!("{:>width$}  {p:.6}  {bar}", randomizer.label(i));
    }
    Ok(())
}
