//! `fairdice state`: inspect a saved randomizer session; and the distribution
//! table that `next` shares.

use crate::output::outln;
use std::path::PathBuf;

use fairdice::Control;
use fairdice::randomizer::report::NextOutcome;
use fairdice_api::UseCase;
use fairdice_api::randomizer::StateRequest;

use crate::failure::UserError;
use crate::session_file::read;

/// Flags of `fairdice state`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "A session file is written by `fairdice sample SPEC --save FILE` and \
continued by `fairdice sample --resume FILE`; it holds the spec, the randomizer's state and \
its generator and a CRC-32 check of them (format `fairdice-randomizer`, version 2; version 1 \
files, without the check, are still read). A file changed after it was saved is refused."
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// The session file (`fairdice state FILE` is `fairdice state show FILE`).
    pub file: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
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
    let action = match (args.action, args.file) {
        (Some(action), _) => action,
        (None, Some(file)) => Action::Show {
            file,
            json: args.json,
        },
        (None, None) => {
            return Err(UserError::input(
                "give a session file: `fairdice state FILE` (written by `fairdice sample SPEC --save FILE`)",
            ));
        }
    };
    match action {
        Action::Show { file, json } => {
            let request = StateRequest {
                session: read(&file)?,
            };
            let report = request
                .run(&Control::new())
                .map_err(|e| UserError::from_api(e.in_context(&format!("{}:", file.display()))))?;
            if json {
                outln!("{}", crate::output::json(&report)?.trim_end());
            } else {
                outln!("spec:  {}", report.spec);
                outln!("draws: {}", report.draws);
                outln!("state: {:?}", report.state);
                outln!();
                print_distribution(&report.next)?;
            }
            Ok(())
        }
    }
}

/// A table of a next-sample distribution.
pub fn print_distribution(outcomes: &[NextOutcome]) -> anyhow::Result<()> {
    let name = |o: &NextOutcome| o.label.clone().unwrap_or_else(|| o.outcome.to_string());
    let width = outcomes
        .iter()
        .map(|o| name(o).len())
        .max()
        .unwrap_or(1)
        .max("outcome".len());
    outln!("{:>width$}  probability", "outcome");
    let peak = outcomes.iter().map(|o| o.probability).fold(0.0, f64::max);
    for o in outcomes {
        let bar = crate::output::bar(o.probability / peak, 40);
        outln!("{:>width$}  {:.6}  {bar}", name(o), o.probability);
    }
    Ok(())
}
