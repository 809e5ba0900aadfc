//! `fairdice next`: the next-sample distribution of a randomizer after a history.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_api::randomizer::NextRequest;

use super::state::print_distribution;
use crate::session_file::{failure, source};

/// Flags of `fairdice next`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: `fairdice next 'fair(base=2d6, tightness=1)' --history 2,4,7,7` \
gives P(7) = 0.059646. A history the randomizer cannot have produced (a seventh 3 from \
`deck(values=6)`) is an error."
)]
pub struct Args {
    /// The randomizer spec, e.g. `deck(values=6)`.
    #[arg(required_unless_present = "resume", conflicts_with = "resume", value_parser = super::randomizer_spec)]
    pub spec: Option<String>,
    /// Outcomes drawn so far, oldest first: values (`2,4,7,7`) or names (`T,I,Z`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub history: Vec<String>,
    /// Start from a saved session (`sample --save`) instead of a fresh randomizer.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::Format,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = NextRequest {
        source: source(args.resume.as_deref(), args.spec.as_deref())?,
        history: args.history,
    };
    let report = request
        .run(&Control::new())
        .map_err(|e| failure(args.resume.as_deref(), e))?;
    if let Some(text) = args.format.document(&report, "outcomes")? {
        outln!("{}", text.trim_end());
    } else {
        print_distribution(&report.outcomes)?;
    }
    Ok(())
}
