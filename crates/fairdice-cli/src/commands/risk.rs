//! `fairdice risk`: exact odds of a Risk battle, its survivors, one-roll tables, a
//! win-probability grid, and a Monte Carlo cross-check.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::battle::{self, BattleError, FloatOutcome, Rule, Rules};
use serde_json::json;

use crate::failure::UserError;
use fairdice::dice::report::{fraction, percent};
use fairdice_charts::HeatMap;

use crate::output::{Table, bar, progress, write_plot};

/// Battles up to this many states (A·D) are solved exactly unless `--float`.
const EXACT_STATES: u64 = 90_000;

/// Flags of `fairdice risk`.
#[derive(Debug, clap::Args)]
#[command(after_help = RULES_HELP)]
pub struct Args {
    /// Attacking armies.
    pub attacker: u32,
    /// Defending armies.
    pub defender: u32,
    /// How attacking armies are counted (see below).
    #[arg(long, default_value = "simple", value_parser = ["simple", "official"])]
    pub rule: String,
    /// Faces of each die.
    #[arg(long, default_value_t = 6)]
    pub faces: u64,
    /// Most dice the attacker rolls at once.
    #[arg(long, default_value_t = 3)]
    pub attacker_dice: u32,
    /// Most dice the defender rolls at once.
    #[arg(long, default_value_t = 2)]
    pub defender_dice: u32,
    /// Print the one-roll tables for every number of dice.
    #[arg(long)]
    pub per_roll: bool,
    /// Print the grid of P(attacker wins) for A, D = 1..N.
    #[arg(long, value_name = "N")]
    pub table: Option<u32>,
    /// Draw the grid of --table N (default 20) as a heat map: FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Also fight RUNS battles by Monte Carlo and compare.
    #[arg(long, value_name = "RUNS")]
    pub simulate: Option<u64>,
    /// Seed for --simulate.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solve in floating point even when an exact answer is affordable.
    #[arg(long)]
    pub float: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

const RULES_HELP: &str = "\
Rules:
  simple    A counts attacking armies: the attacker rolls min(3, A) dice and is beaten at A = 0
            (the rule of the well-known 100-against-100 simulation)
  official  A counts every army on the territory: the attacker rolls min(3, A - 1) dice and
            must stop at A = 1
Each roll sorts both sides' dice from highest to lowest and compares them in pairs;
ties go to the defender.";

/// The most one-roll tables `--per-roll` prints (attacker dice × defender dice).
const MAX_PER_ROLL_TABLES: u32 = 100;
/// The grid a `--plot` draws when `--table` does not say.
const DEFAULT_PLOT_GRID: u32 = 20;
/// The largest grid `--table` computes.
const MAX_GRID: u32 = 2000;

/// The heat map of P(attacker wins): attackers up the side, defenders across.
fn heat_map(grid: &[Vec<f64>], rules: &Rules) -> HeatMap {
    let n = grid.len();
    HeatMap::new(format!(
        "P(attacker wins), {} rule, d{}, {} v {} dice",
        rules.rule, rules.faces, rules.attacker_dice, rules.defender_dice
    ))
    .x_label("defending armies")
    .y_label("attacking armies")
    .legend_title("P(win)")
    .columns((1..=n).map(|d| d.to_string()))
    .rows((1..=n).map(|a| a.to_string()))
    .values(grid.to_vec())
}

/// Longest exact fraction printed in the report (JSON always has it whole).
const MAX_FRACTION_CHARS: usize = 60;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rule: Rule = args
        .rule
        .parse()
        .map_err(|e| UserError::input(format!("{e}")))?;
    let rules = Rules {
        rule,
        faces: args.faces,
        attacker_dice: args.attacker_dice,
        defender_dice: args.defender_dice,
    };
    rules
        .check(args.attacker, args.defender)
        .map_err(|e| UserError::input(e.to_string()))?;
    let exact = !args.float && u64::from(args.attacker) * u64::from(args.defender) <= EXACT_STATES;
    let (outcome, exact_fraction) = if exact {
        let e = battle::solve_exact(args.attacker, args.defender, &rules).map_err(failure)?;
        (e.to_float(), Some(fraction(&e.p_attacker_wins())))
    } else {
        (
            battle::solve_float(args.attacker, args.defender, &rules).map_err(failure)?,
            None,
        )
    };
    let simulation = match args.simulate {
        Some(runs) => {
            let bar = progress(runs, "fighting");
            let sim = battle::simulate(
                args.attacker,
                args.defender,
                &rules,
                runs,
                args.seed,
                &|n| bar.inc(n),
            )
            .map_err(failure)?;
            bar.finish_and_clear();
            Some(sim)
        }
        None => None,
    };
    if args.per_roll && rules.attacker_dice * rules.defender_dice > MAX_PER_ROLL_TABLES {
        return Err(UserError::input(format!(
            "--per-roll prints a table for every pair of dice counts, at most {MAX_PER_ROLL_TABLES}; {} × {} dice would be {}",
            rules.attacker_dice,
            rules.defender_dice,
            rules.attacker_dice * rules.defender_dice
        )));
    }
    let grid_size = args.table.or(args.plot.as_ref().map(|_| DEFAULT_PLOT_GRID));
    let table = match grid_size {
        Some(n) if n > MAX_GRID => {
            return Err(UserError::input(format!(
                "--table {n} is larger than the {MAX_GRID} rows a grid may have"
            )));
        }
        Some(n) => Some(battle::win_table(n, &rules).map_err(failure)?),
        None => None,
    };
    if let (Some(path), Some(grid)) = (&args.plot, &table) {
        write_plot(path, &heat_map(grid, &rules))?;
    }
    let table = table.filter(|_| args.table.is_some());
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut value = report_json(&args, &rules, &outcome, exact_fraction.as_deref());
        if let Some(sim) = &simulation {
            let (low, high) = sim.interval95();
            value["simulation"] = json!({
                "runs": sim.runs, "seed": args.seed, "attacker_wins": sim.attacker_wins,
                "p_attacker_wins": sim.p_attacker_wins(), "interval95": [low, high],
            });
        }
        if let Some(t) = &table {
            value["table"] = json!(t);
        }
        if args.per_roll {
            value["per_roll"] = per_roll_json(&rules)?;
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)
            .context("could not write the output")?;
        return Ok(());
    }
    let mut text = report(&args, &rules, &outcome, exact_fraction.as_deref());
    if let Some(sim) = &simulation {
        let (low, high) = sim.interval95();
        let p = outcome.attacker_win_probability();
        text.push_str(&format!(
            "\nMonte Carlo: {} battles (seed {}): attacker won {} = {:.6}, 95% interval {:.6}..{:.6} — {} the computed {:.6}\n",
            sim.runs,
            args.seed,
            sim.attacker_wins,
            sim.p_attacker_wins(),
            low,
            high,
            if (low..=high).contains(&p) { "contains" } else { "misses" },
            p
        ));
    }
    if args.per_roll {
        text.push_str(&per_roll_text(&rules)?);
    }
    if let Some(t) = &table {
        text.push_str(&table_text(t, &rules));
    }
    write!(out, "{text}").context("could not write the output")
}

/// A battle that cannot be solved: bad input (status 2) or too large (status 3).
fn failure(error: BattleError) -> anyhow::Error {
    if error.is_too_large() {
        UserError::too_big(format!(
            "{error}\nhint: fewer armies, fewer dice per roll, a smaller die, or fewer --simulate runs"
        ))
    } else {
        UserError::input(error.to_string())
    }
}

fn describe_rules(args: &Args, rules: &Rules) -> String {
    format!(
        "{} attacking v {} defending, {} rule, d{}, attacker rolls up to {}, defender up to {}",
        args.attacker,
        args.defender,
        rules.rule,
        rules.faces,
        rules.attacker_dice,
        rules.defender_dice
    )
}

fn report(args: &Args, rules: &Rules, outcome: &FloatOutcome, exact: Option<&str>) -> String {
    let p = outcome.attacker_win_probability();
    let mut text = format!("Risk battle: {}\n\n", describe_rules(args, rules));
    let exact_note = match exact {
        Some(f) if f.len() <= MAX_FRACTION_CHARS => format!(" = {f} exactly"),
        Some(f) => format!(
            " (exact fraction of {} characters; --json prints it)",
            f.len()
        ),
        None => " (floating point)".to_string(),
    };
    text.push_str(&format!("P(attacker wins) = {p:.6}{exact_note}\n"));
    text.push_str(&format!("P(defender holds) = {:.6}\n", 1.0 - p));
    let (lost_a, lost_d) = outcome.expected_losses();
    text.push_str(&format!(
        "Expected losses: attacker {lost_a:.3}, defender {lost_d:.3}\n"
    ));
    text.push_str(&format!(
        "Armies left: attacker {:.3} on average when it wins, defender {:.3} when it holds\n",
        outcome.attacker_survivors_if_win(),
        outcome.defender_survivors_if_win()
    ));
    text.push_str(&survivor_table(
        "Attacker wins with",
        &outcome.attacker_wins,
    ));
    text.push_str(&survivor_table(
        "Defender holds with",
        &outcome.defender_wins,
    ));
    text
}

/// Survivor rows less likely than this are summarized in the report (JSON has all).
const SHOWN_PROBABILITY: f64 = 1e-4;

/// A table of the survivor probabilities worth showing.
fn survivor_table(title: &str, p: &[f64]) -> String {
    let peak = p.iter().copied().fold(0.0, f64::max);
    let mut table = Table::new(&["armies", "probability", ""], &[true, true, false]);
    let mut hidden = 0;
    for (armies, &q) in p.iter().enumerate() {
        if q >= SHOWN_PROBABILITY {
            table.row(vec![armies.to_string(), percent(q), bar(q / peak, 30)]);
        } else if q > 0.0 {
            hidden += 1;
        }
    }
    let mut text = format!("\n{title}:\n{}", table.render());
    if hidden > 0 {
        text.push_str(&format!(
            "({hidden} more outcomes below 0.01%; --json lists them all)\n"
        ));
    }
    text
}

fn report_json(
    args: &Args,
    rules: &Rules,
    outcome: &FloatOutcome,
    exact: Option<&str>,
) -> serde_json::Value {
    let survivors = |p: &[f64]| -> Vec<serde_json::Value> {
        p.iter()
            .enumerate()
            .filter(|(_, q)| **q > 0.0)
            .map(|(armies, q)| json!({"armies": armies, "probability": q}))
            .collect()
    };
    let (lost_a, lost_d) = outcome.expected_losses();
    json!({
        "attacker": args.attacker,
        "defender": args.defender,
        "rule": rules.rule.to_string(),
        "faces": rules.faces,
        "attacker_dice": rules.attacker_dice,
        "defender_dice": rules.defender_dice,
        "method": if exact.is_some() { "exact" } else { "float" },
        "p_attacker_wins": outcome.attacker_win_probability(),
        "p_attacker_wins_exact": exact,
        "attacker_survivors_if_win": outcome.attacker_survivors_if_win(),
        "defender_survivors_if_win": outcome.defender_survivors_if_win(),
        "expected_losses": {"attacker": lost_a, "defender": lost_d},
        "attacker_survivors": survivors(&outcome.attacker_wins),
        "defender_survivors": survivors(&outcome.defender_wins),
    })
}

/// Every one-roll table up to the dice caps.
fn per_roll_text(rules: &Rules) -> anyhow::Result<String> {
    let mut text = format!("\nOne roll, d{} (ties to the defender):\n", rules.faces);
    let mut table = Table::new(
        &[
            "attacker dice",
            "defender dice",
            "attacker loses",
            "defender loses",
            "count",
            "of",
            "probability",
        ],
        &[true, true, true, true, true, true, true],
    );
    for a in 1..=rules.attacker_dice {
        for d in 1..=rules.defender_dice {
            let roll = battle::roll_losses(a, d, rules.faces)?;
            let total = roll.total();
            let probabilities = roll.probabilities();
            for (k, count) in roll.counts.iter().enumerate() {
                let p = probabilities[k];
                table.row(vec![
                    a.to_string(),
                    d.to_string(),
                    k.to_string(),
                    (roll.pairs() as usize - k).to_string(),
                    count.to_string(),
                    total.to_string(),
                    percent(p),
                ]);
            }
        }
    }
    text.push_str(&table.render());
    Ok(text)
}

fn per_roll_json(rules: &Rules) -> anyhow::Result<serde_json::Value> {
    let mut rolls = Vec::new();
    for a in 1..=rules.attacker_dice {
        for d in 1..=rules.defender_dice {
            let roll = battle::roll_losses(a, d, rules.faces)?;
            let outcomes: Vec<serde_json::Value> = roll
                .counts
                .iter()
                .enumerate()
                .map(|(k, c)| json!({"attacker_loses": k, "defender_loses": roll.pairs() as usize - k, "count": c.to_string()}))
                .collect();
            rolls.push(json!({"attacker_dice": a, "defender_dice": d, "total": roll.total().to_string(), "outcomes": outcomes}));
        }
    }
    Ok(json!(rolls))
}

/// The grid of P(attacker wins) in percent, attackers down, defenders across.
fn table_text(table: &[Vec<f64>], rules: &Rules) -> String {
    let n = table.len();
    let mut headers: Vec<String> = vec!["A \\ D".to_string()];
    headers.extend((1..=n).map(|d| d.to_string()));
    let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut grid = Table::new(&header_refs, &vec![true; n + 1]);
    for (a, row) in table.iter().enumerate() {
        let mut cells = vec![(a + 1).to_string()];
        cells.extend(row.iter().map(|p| format!("{:.1}", p * 100.0)));
        grid.row(cells);
    }
    format!(
        "\nP(attacker wins) in %, {} rule, d{} (rows: attacking armies, columns: defending armies):\n{}",
        rules.rule,
        rules.faces,
        grid.render()
    )
}
