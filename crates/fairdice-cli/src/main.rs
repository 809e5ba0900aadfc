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
#[cfg(test)]
mod suggestions;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser};

use commands::Command;

/// Fair, measurable randomness for games: exact dice distributions, contests, Risk
/// odds, and fair randomizers.
#[derive(Debug, Parser)]
#[command(name = "fairdice", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands whose operands are dice expressions, which may start with `-`.
const READ_DICE: [&str; 3] = ["dist", "roll", "contest"];

/// The arguments with an expression that starts with `-` (`-d6`,
/// `-(-(d6)/2)`) read as an expression rather than an option: for the commands
/// reading dice, when such an operand is there, the options come first and every
/// operand after `--`, in their order. Anything else is left as written.
fn expressions_last(args: Vec<OsString>) -> Vec<OsString> {
    let at = 1;
    let reads_dice = args
        .get(at)
        .and_then(|a| a.to_str())
        .is_some_and(|a| READ_DICE.contains(&a));
    // Only a word led by one `-` (or by `--` and no letter) can be an
    // expression; without one there is nothing to move, and the command's
    // definition is not built twice at start-up.
    let maybe_expression = |a: &OsString| {
        a.to_str().is_some_and(|t| {
            t.starts_with('-')
                && !t.strip_prefix("--").is_some_and(|long| {
                    long.is_empty() || long.starts_with(|c: char| c.is_ascii_alphabetic())
                })
        })
    };
    if !reads_dice || !args[at + 1..].iter().any(maybe_expression) {
        return args;
    }
    let command = Cli::command();
    let Some(sub) = command.find_subcommand(args[at].to_str().unwrap_or_default()) else {
        return args;
    };
    // Whether an option (its long or short name, or an alias) takes a value.
    let takes_value = |long: Option<&str>, short: Option<char>| {
        sub.get_arguments()
            .find(|a| match (long, short) {
                (Some(long), _) => {
                    a.get_long() == Some(long)
                        || a.get_all_aliases().is_some_and(|all| all.contains(&long))
                }
                (None, Some(short)) => {
                    a.get_short() == Some(short)
                        || a.get_all_short_aliases()
                            .is_some_and(|all| all.contains(&short))
                }
                (None, None) => false,
            })
            .map(|a| a.get_action().takes_values())
    };
    let (mut options, mut operands, mut hyphenated) = (Vec::new(), Vec::new(), false);
    let mut rest = args[at + 1..].iter();
    while let Some(arg) = rest.next() {
        let Some(text) = arg.to_str() else {
            operands.push(arg.clone());
            continue;
        };
        let known = if ["--", "-h", "--help"].contains(&text) {
            return args;
        } else if let Some(long) = text
            .strip_prefix("--")
            .filter(|long| long.starts_with(|c: char| c.is_ascii_alphabetic()))
        {
            // An option this command does not know stays one, for clap to name.
            Some(takes_value(Some(long.split('=').next().unwrap_or(long)), None).unwrap_or(false))
        } else if let Some(short) = text.strip_prefix('-').and_then(|s| s.chars().next()) {
            takes_value(None, Some(short)).filter(|_| short.is_ascii_alphabetic())
        } else {
            operands.push(arg.clone());
            continue;
        };
        match known {
            Some(takes) => {
                options.push(arg.clone());
                // `--seed 3`, `-n 3`: the value follows unless written with the name.
                let joined = text.contains('=') || (!text.starts_with("--") && text.len() > 2);
                if takes && !joined {
                    options.extend(rest.next().cloned());
                }
            }
            None => {
                hyphenated = true;
                operands.push(arg.clone());
            }
        }
    }
    if !hyphenated {
        return args;
    }
    let mut reordered = args[..=at].to_vec();
    reordered.extend(options);
    reordered.push("--".into());
    reordered.extend(operands);
    reordered
}

/// The commands whose `--help` ends with the notation at a glance.
const NOTATION_HELP: [&str; 2] = ["dist", "roll"];

/// The arguments read as `Cli::parse_from` reads them. The notation at a glance
/// (the longest text of the definition, written out from the engine's list of
/// forms) is added only when help is asked for, not at every start.
fn parse(args: Vec<OsString>) -> Cli {
    let mut command = Cli::command();
    let asks_help = args
        .iter()
        .skip(1)
        .any(|a| matches!(a.to_str(), Some("-h" | "--help" | "help")));
    if asks_help {
        let notation = fairdice::dice::notation::help::text();
        for name in NOTATION_HELP {
            command = command.mut_subcommand(name, |c| c.after_help(notation.clone()));
        }
    }
    let mut matches = command.get_matches_from(args);
    Cli::from_arg_matches_mut(&mut matches)
        .unwrap_or_else(|error| error.format(&mut Cli::command()).exit())
}

fn main() -> ExitCode {
    let cli = parse(expressions_last(std::env::args_os().collect()));
    let result = commands::run(cli.command);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => failure::report(&error),
    }
}
