//! `fairdice next`: the next-sample distribution of a randomizer after a history.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::randomizer::{NextReport, Randomizer, observe_history};

use super::state::{build, print_distribution};
use crate::failure::UserError;
use crate::session_file::load;

/// Flags of `fairdice next`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: `fairdice next 'fair(base=2d6, tightness=1)' --history 2,4,7,7` \
gives P(7) = 0.059650. A history the randomizer cannot have produced (a seventh 3 from \
`deck(values=6)`) is an error."
)]
pub struct Args {
    /// The randomizer spec, e.g. `deck(values=6)`.
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    pub spec: Option<String>,
    /// Outcomes drawn so far, oldest first: values (`2,4,7,7`) or names (`T,I,Z`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub history: Vec<String>,
    /// Start from a saved session (`sample --save`) instead of a fresh randomizer.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Print JSON: `{"spec", "history", "outcomes": [{"outcome", "probability"}]}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut randomizer = match (&args.resume, &args.spec) {
        (Some(path), _) => load(path)?.randomizer().clone(),
        (None, Some(spec)) => build(spec)?,
        (None, None) => return Err(UserError::input("give a randomizer spec or --resume FILE")),
    };
    let history: Vec<&str> = args
        .history
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    observe_history(&mut randomizer, &history).map_err(|e| {
        UserError::input(format!("--history does not fit {}: {e}", randomizer.spec()))
    })?;
    if args.json {
        outln!("{}", NextReport::new(&randomizer, &history).to_json());
    } else {
        print_distribution(&randomizer)?;
    }
    Ok(())
}
