//! `fairdice roll`: roll a dice expression, showing every die.

use std::io::Write;

use anyhow::Context;
use fairdice::dice::notation::{self, Options, Roll};
use fairdice::rng;
use serde_json::json;

use super::notation_failure;

/// Flags of `fairdice roll`.
#[derive(Debug, clap::Args)]
#[command(after_help = super::dist::NOTATION_HELP)]
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
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Most rolls printed by one command (more is almost certainly a typo).
const MAX_TIMES: u64 = 1_000_000;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.times > MAX_TIMES {
        return Err(crate::failure::UserError::input(format!(
            "--times {} is more than the {MAX_TIMES} rolls `roll` prints; use `fairdice dist --runs {}` for a distribution",
            args.times, args.times
        )));
    }
    let text = args.expression.as_str();
    let expr = notation::parse(text).map_err(|e| notation_failure(e.into(), text))?;
    let options = Options {
        explode_depth: args.explode_depth,
        ..Options::default()
    };
    let seed = args.seed.unwrap_or_else(|| {
        let seed = fresh_seed();
        eprintln!("seed {seed} (repeat these rolls with --seed {seed})");
        seed
    });
    let mut generator = rng::seeded(seed);
    let mut out = std::io::stdout().lock();
    let mut rolls = Vec::new();
    for _ in 0..args.times {
        let roll = notation::roll(&expr, &options, &mut generator)
            .map_err(|e| notation_failure(e, text))?;
        if args.json {
            rolls.push(roll_json(&roll, text));
        } else {
            writeln!(out, "{}", describe(&roll, text)).context("could not write the output")?;
        }
    }
    if args.json {
        let value = json!({"expression": text, "seed": seed, "rolls": rolls});
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)
            .context("could not write the output")?;
    }
    Ok(())
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

/// `14  ← 4d6kh3 [6 5 3 (1)]`: the value, then each dice term with its dice;
/// dropped dice in parentheses, rerolled and exploded dice with every roll.
fn describe(roll: &Roll, text: &str) -> String {
    let mut parts = Vec::new();
    for pool in &roll.pools {
        let dice: Vec<String> = pool
            .dice
            .iter()
            .map(|d| {
                let shown = if d.rolls.len() > 1 {
                    let all: Vec<String> = d.rolls.iter().map(|r| r.to_string()).collect();
                    format!("{}{{{}}}", d.value, all.join(","))
                } else {
                    d.value.to_string()
                };
                if d.counted {
                    shown
                } else {
                    format!("({shown})")
                }
            })
            .collect();
        parts.push(format!("{} [{}]", &text[pool.span.clone()], dice.join(" ")));
    }
    if parts.is_empty() {
        roll.value.to_string()
    } else {
        format!("{:>4}  ← {}", roll.value, parts.join("  "))
    }
}

fn roll_json(roll: &Roll, text: &str) -> serde_json::Value {
    let pools: Vec<serde_json::Value> = roll
        .pools
        .iter()
        .map(|p| {
            let dice: Vec<serde_json::Value> = p
                .dice
                .iter()
                .map(|d| json!({"value": d.value, "rolls": d.rolls, "counted": d.counted}))
                .collect();
            json!({"term": &text[p.span.clone()], "value": p.value, "dice": dice})
        })
        .collect();
    json!({"value": roll.value, "terms": pools})
}
