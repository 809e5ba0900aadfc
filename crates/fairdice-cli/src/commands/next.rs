//! `fairdice next`: the next-sample distribution of a randomizer after a history.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_api::randomizer::{NextRequest, Source};

use super::state::print_distribution;
use crate::failure::UserError;
use crate::session_file::read;

/// Flags of `fairdice next`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: `fairdice next 'fair(base=2d6, tightness=1)' --history 2,4,7,7` \
gives P(7) = 0.059646. A history the randomizer cannot have produced (a seventh 3 from \
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
    let source = match (&args.resume, &args.spec) {
        (Some(path), _) => Source::Session(read(path)?),
        (None, Some(spec)) => Source::Spec(spec.clone()),
        (None, None) => return Err(UserError::input("give a randomizer spec or --resume FILE")),
    };
    let request = NextRequest {
        source,
        history: args.history,
    };
    let report = request.run(&Control::new()).map_err(|e| {
        let error = match &args.resume {
            Some(path) => e.in_context(&format!("{}:", path.display())),
            None => e,
        };
        UserError::from_api(error)
    })?;
    if args.json {
        outln!("{}", report.to_json());
    } else {
        print_distribution(&report.outcomes)?;
    }
    Ok(())
}
