//! The `fairdice` command: thin glue from flags to library calls to printed output.
//!
//! Each subcommand lives in `commands/<name>.rs` as a clap `Args` struct and a `run`
//! function; raw flags are validated into library values there, and results are
//! printed through `output`.

mod commands;
mod failure;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Fair, measurable randomness for games: exact dice distributions, contests, Risk
/// odds, and fair randomizers.
#[derive(Debug, Parser)]
#[command(name = "fairdice", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Exact distribution of a dice expression (e.g. `4d6kh3`, `d20+5 >= 15`).
    Dist(commands::dist::Args),
    /// Roll a dice expression, showing each die.
    Roll(commands::roll::Args),
    /// Two pools rolled against each other, die paired with die (e.g. `5d6 3d6+2d8`).
    Contest(commands::contest::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Dist(args) => commands::dist::run(args),
        Command::Roll(args) => commands::roll::run(args),
        Command::Contest(args) => commands::contest::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => failure::report(&error),
    }
}
