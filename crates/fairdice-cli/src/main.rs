//! The `fairdice` command: thin glue from flags to library calls to printed output.
//!
//! Each subcommand lives in `commands/<name>.rs` as a clap `Args` struct and a `run`
//! function; raw flags are validated into library values there, and results are
//! printed through `output`.

mod commands;
mod csv_table;
mod failure;
mod output;
mod plot;
mod session_file;

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
    /// Exact odds of a Risk battle for any armies, rules and die size.
    Risk(commands::risk::Args),
    /// Draw a sequence from a randomizer spec (e.g. `deck(values=6)`); save and resume it.
    Sample(commands::sample::Args),
    /// The next-sample distribution of a randomizer after a history of outcomes.
    Next(commands::next::Args),
    /// The PRD constant C for a nominal chance p, with per-attempt chances.
    Prd(commands::prd::Args),
    /// Attempts until a randomizer gives what the player waits for (k hits, every outcome), exact.
    Goal(commands::goal::Args),
    /// A recorded log against a randomizer: its likelihood, tests, and the likeliest randomizers.
    Audit(commands::audit::Args),
    /// Inspect a saved randomizer session (written by `sample --save`).
    State(commands::state::Args),
    /// Serve the web app on this machine (http://127.0.0.1:8077/ by default).
    Serve(commands::serve::Args),
    /// Expected entropy, outcome variance, repeats and droughts of a randomizer over a match.
    Analyze(commands::analyze::Args),
    /// The fairest parameters of each randomizer system above an entropy threshold.
    Tune(commands::tune::Args),
    /// How a randomizer splits a match between the players of a game (a JSON game file).
    Seats(commands::seats::Args),
    /// Two pools rolled against each other, die paired with die (e.g. `5d6 3d6+2d8`).
    Contest(commands::contest::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Dist(args) => commands::dist::run(args),
        Command::Roll(args) => commands::roll::run(args),
        Command::Risk(args) => commands::risk::run(args),
        Command::Sample(args) => commands::sample::run(args),
        Command::Next(args) => commands::next::run(args),
        Command::Prd(args) => commands::prd::run(args),
        Command::Goal(args) => commands::goal::run(args),
        Command::Audit(args) => commands::audit::run(args),
        Command::State(args) => commands::state::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Seats(args) => commands::seats::run(args),
        Command::Contest(args) => commands::contest::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => failure::report(&error),
    }
}
