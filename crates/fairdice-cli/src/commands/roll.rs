//! `fairdice roll`: roll a dice expression, showing every die.

use std::io::Write;

use anyhow::Context;
use fairdice::{Control, rng};
use fairdice_api::UseCase;
use fairdice_api::roll::{RollRequest, RollShown};

use crate::failure::UserError;

/// Flags of `fairdice roll`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dice expression, e.g. `4d6kh3`, `d20+5`, `3d6!`.
    pub expression: String,
    /// How many times to roll.
    #[arg(long, short = 'n', default_value_t = 1, value_name = "N")]
    pub times: u64,
    /// Seed: the same seed gives the same rolls on every platform. Without it a seed
    /// is picked and printed on stderr.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How many extra rolls an exploding die (`!`) may make.
    #[arg(long, default_value_t = fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH, value_name = "N")]
    pub explode_depth: u32,
    /// Read the expression as this dice tool reads it: fairdice, roll20,
    /// foundry, rpg-dice-roller or anydice (docs/notation.md, "Dialects").
    #[arg(long, default_value = "fairdice", value_name = "NAME")]
    pub dialect: fairdice::dice::notation::Dialect,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        let seed = fresh_seed();
        eprintln!("seed {seed} (repeat these rolls with --seed {seed})");
        seed
    });
    let request = RollRequest {
        expression: args.expression.clone(),
        times: args.times,
        seed,
        explode_depth: args.explode_depth,
        dialect: args.dialect,
    };
    let report = request.run(&Control::new()).map_err(UserError::from_api)?;
    crate::output::note_other_readings(&report.other_readings);
    crate::output::note_dialect(report.dialect.as_ref());
    let mut out = std::io::stdout().lock();
    if args.json {
        write!(out, "{}", crate::output::json(&report)?)
    } else {
        report
            .rolls
            .iter()
            .try_for_each(|roll| writeln!(out, "{}", describe(roll)))
    }
    .context("could not write the output")
}

/// A seed from the clock and process id, for unseeded rolls.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut g = rng::stream(nanos, u64::from(std::process::id()));
    rand_core::Rng::next_u64(&mut g) % 1_000_000_000
}

/// `14  ← 4d6kh3 [6 5 3 (1)]`: the value, then each name with its value and each
/// pool with its dice; dropped dice in parentheses, rerolled and compounded dice
/// with every roll, dice added by an explosion marked `!`.
fn describe(roll: &RollShown) -> String {
    let mut parts = Vec::new();
    for name in &roll.names {
        parts.push(format!("{} → {}", name.binding, name.value));
    }
    for term in &roll.terms {
        let dice: Vec<String> = term
            .dice
            .iter()
            .map(|d| {
                let shown = if d.rolls.len() > 1 {
                    let all: Vec<String> = d.rolls.iter().map(|r| r.to_string()).collect();
                    format!("{}{{{}}}", d.value, all.join(","))
                } else {
                    d.value.to_string()
                };
                let shown = if d.extra { format!("{shown}!") } else { shown };
                if d.counted {
                    shown
                } else {
                    format!("({shown})")
                }
            })
            .collect();
        parts.push(format!("{} [{}]", term.term, dice.join(" ")));
    }
    let value = roll.label.clone().unwrap_or_else(|| roll.value.to_string());
    if parts.is_empty() {
        value
    } else {
        format!("{value:>4}  ← {}", parts.join("  "))
    }
}
