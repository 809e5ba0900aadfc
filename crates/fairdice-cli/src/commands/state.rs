//! `fairdice state`: inspect a saved randomizer session; and the spec building
//! and distribution table that `sample` and `next` share.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::randomizer::report::NextOutcome;
use fairdice::randomizer::{AnyRandomizer, Randomizer, Spec};
use serde_json::json;

use crate::failure::UserError;
use crate::session_file::load;

/// Flags of `fairdice state`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "A session file is written by `fairdice sample SPEC --save FILE` and \
continued by `fairdice sample --resume FILE`; it holds the spec, the randomizer's state and \
its generator and a CRC-32 check of them (format `fairdice-randomizer`, version 2; version 1 \
files, without the check, are still read). A file changed after it was saved is refused."
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
