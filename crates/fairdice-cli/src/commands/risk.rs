//! `fairdice risk`: exact odds of a Risk battle, its survivors, one-roll tables, a
//! win-probability grid, and a Monte Carlo cross-check.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::battle::report::{BattleReport, RollTable, Survivors};
use fairdice::battle::{Rule, Rules};
use fairdice::dice::report::{fraction, percent};
use fairdice_api::UseCase;
use fairdice_api::risk::RiskRequest;
use fairdice_charts::win_grid_chart;

use crate::csv_table::{self, CsvTable};
use crate::failure::UserError;
use crate::output::{Table, bar, progress, shown_on, write_plot};

/// Flags of `fairdice risk`.
#[derive(Debug, clap::Args)]
#[command(after_help = RULES_HELP)]
pub struct Args {
    /// Attacking armies (not needed for --table, --per-roll or --plot alone).
    #[arg(required_unless_present_any = ["table", "per_roll", "plot"])]
    pub attacker: Option<u32>,
    /// Defending armies.
    #[arg(required_unless_present_any = ["table", "per_roll", "plot"])]
    pub defender: Option<u32>,
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
    /// Also fight RUNS battles by Monte Carlo and compare (`--simulate` is read too).
    #[arg(long, alias = "simulate", value_name = "RUNS")]
    pub runs: Option<u64>,
    /// Seed for --runs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solve in floating point even when an exact answer is affordable.
    #[arg(long)]
    pub float: bool,
    /// Refuse or stop work past this many steps.
    #[arg(long, default_value_t = fairdice::control::DEFAULT_MAX_STEPS, value_name = "STEPS", value_parser = super::parse_steps)]
    pub max_steps: u64,
    #[command(flatten)]
    pub format: super::Format,
}

const RULES_HELP: &str = "\
Rules:
  simple    A counts attacking armies: the attacker rolls min(3, A) dice and is beaten at A = 0
            (the rule of the well-known 100-against-100 simulation)
  official  A counts every army on the territory: the attacker rolls min(3, A - 1) dice and
            must stop at A = 1
Each roll sorts both sides' dice from highest to lowest and compares them in pairs;
ties go to the defender.
simple is the default: A and D are the armies that fight, the question the well-known
study and most calculators answer. A board's territory of 11 armies attacking 8 is
`risk 10 8` or, the same battle, `risk 11 8 --rule official`. Every report names its rule.";

/// The grid a `--plot` draws when `--table` does not say.
const DEFAULT_PLOT_GRID: u32 = 20;

/// Longest exact fraction printed in the report (JSON always has it whole).
const MAX_FRACTION_CHARS: usize = 60;

/// The request the arguments ask for.
///
/// # Errors
/// A [`UserError`] for an unknown rule.
pub fn request(args: &Args) -> anyhow::Result<RiskRequest> {
    let rule: Rule = args
        .rule
        .parse()
        .map_err(|e| UserError::input(format!("{e}")))?;
    // A plot without --table draws the default grid, which the report then omits.
    let grid = args.table.or(args.plot.as_ref().map(|_| DEFAULT_PLOT_GRID));
    // Without armies only the tables asked for are shown; the request still
    // names a battle, the grid's corner (or one army each).
    let (attacker, defender) = args.attacker.zip(args.defender).unwrap_or_else(|| {
        let corner = grid.unwrap_or(1).max(1);
        (corner, corner)
    });
    Ok(RiskRequest {
        per_roll: args.per_roll,
        table: grid,
        float: args.float,
        runs: args.runs,
        seed: args.seed,
        ..RiskRequest::new(attacker, defender).with_rules(Rules {
            rule,
            faces: args.faces,
            attacker_dice: args.attacker_dice,
            defender_dice: args.defender_dice,
        })
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = request(&args)?;
    let battle = args.attacker.zip(args.defender);
    let rules = request.rules();
    let control = Control::new().with_max_steps(args.max_steps);
    let mut risk = match args.runs {
        None => request.run(&control),
        Some(runs) => {
            let bar = progress(runs, "fighting");
            let report = request.run(&shown_on(control, &bar));
            bar.finish_and_clear();
            report
        }
    }
    .map_err(UserError::from_api)?;
    if let (Some(path), Some(grid)) = (&args.plot, &risk.battle.table) {
        write_plot(path, &win_grid_chart(grid, &rules))?;
    }
    if args.table.is_none() {
        risk.battle.table = None;
    }
    let mut out = std::io::stdout().lock();
    if args.format.json {
        write!(out, "{}", crate::output::json(&risk)?).context("could not write the output")?;
        return Ok(());
    }
    let report = &risk.battle;
    if args.format.csv {
        write!(out, "{}", battle_csv(report)?).context("could not write the output")?;
        return Ok(());
    }
    let mut text = if battle.is_some() {
        report_text(report)
    } else {
        String::new()
    };
    if let Some(sim) = &report.simulation {
        let [low, high] = sim.interval95;
        let p = report.p_attacker_wins;
        text.push_str(&format!(
            "\nMonte Carlo: {} battles (seed {}): attacker won {} = {:.6}, 95% interval {:.6}..{:.6} — {} the computed {:.6}\n",
            sim.runs,
            sim.seed,
            sim.attacker_wins,
            sim.p_attacker_wins,
            low,
            high,
            if (low..=high).contains(&p) { "contains" } else { "misses" },
            p
        ));
    }
    if let Some(tables) = &report.per_roll {
        text.push_str(&per_roll_text(tables, rules.faces));
    }
    if let Some(t) = &report.table {
        text.push_str(&table_text(t, &rules));
    }
    write!(out, "{text}").context("could not write the output")
}

/// The report's main table as CSV: the grid when one was asked for, else the
/// one-roll tables, else the endings of both sides.
fn battle_csv(report: &BattleReport) -> anyhow::Result<String> {
    let document = csv_table::document(report)?;
    let table = if let Some(grid) = &report.table {
        let labels: Vec<String> = (1..=grid.len()).map(|n| n.to_string()).collect();
        CsvTable::grid(
            &document["table"],
            "attackers \\ defenders",
            &labels,
            &labels,
        )
    } else if let Some(rolls) = document["per_roll"].as_array() {
        let mut table = CsvTable::default();
        for roll in rolls {
            let lead =
                ["attacker_dice", "defender_dice", "total"].map(|name| (name, roll[name].clone()));
            table.extend(&roll["outcomes"], &lead);
        }
        table
    } else {
        let mut table = CsvTable::of(
            &document["attacker_survivors"],
            &[("side", "attacker".into())],
        );
        table.extend(
            &document["defender_survivors"],
            &[("side", "defender".into())],
        );
        table
    };
    table.to_csv()
}

/// What the armies count under `rule`, said so a board-game player sees which
/// question was answered.
fn rule_in_words(rule: Rule, attacker: u32) -> String {
    match rule {
        Rule::Simple => format!(
            "(simple rule: all {attacker} attacking armies fight; on a board that is {} armies on \
             the territory, one staying behind; --rule official counts that one)",
            u64::from(attacker) + 1
        ),
        Rule::Official => format!(
            "(official rule: {attacker} armies on the territory, one of which stays behind, so {} \
             can fight)",
            attacker.saturating_sub(1)
        ),
    }
}

fn report_text(report: &BattleReport) -> String {
    let p = report.p_attacker_wins;
    let mut text = format!(
        "Risk battle: {}\n{}\n\n",
        report.setup(),
        rule_in_words(report.rule, report.attacker)
    );
    let exact_note = match report.p_attacker_wins_exact.as_ref().map(fraction) {
        Some(f) if f.len() <= MAX_FRACTION_CHARS => format!(" = {f} exactly"),
        Some(f) => format!(
            " (exact fraction of {} characters; --json prints it)",
            f.len()
        ),
        None => " (floating point)".to_string(),
    };
    text.push_str(&format!("P(attacker wins) = {p:.6}{exact_note}\n"));
    text.push_str(&format!("P(defender holds) = {:.6}\n", 1.0 - p));
    let lost = report.expected_losses;
    text.push_str(&format!(
        "Expected losses: attacker {:.3}, defender {:.3}\n",
        lost.attacker, lost.defender
    ));
    text.push_str(&format!(
        "Armies left: attacker {:.3} on average when it wins, defender {:.3} when it holds\n",
        report.attacker_survivors_if_win, report.defender_survivors_if_win
    ));
    text.push_str(&survivor_table(
        "Attacker wins with",
        &report.attacker_survivors,
    ));
    text.push_str(&survivor_table(
        "Defender holds with",
        &report.defender_survivors,
    ));
    text
}

/// Survivor rows less likely than this are summarized in the report (JSON has all).
const SHOWN_PROBABILITY: f64 = 1e-4;

/// A table of the survivor probabilities worth showing.
fn survivor_table(title: &str, rows: &[Survivors]) -> String {
    let peak = rows.iter().map(|s| s.probability).fold(0.0, f64::max);
    let mut table = Table::new(&["armies", "probability", ""], &[true, true, false]);
    let mut hidden = 0;
    for s in rows {
        if s.probability >= SHOWN_PROBABILITY {
            table.row(vec![
                s.armies.to_string(),
                percent(s.probability),
                bar(s.probability / peak, 30),
            ]);
        } else {
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

/// Every one-roll table up to the dice caps.
fn per_roll_text(tables: &[RollTable], faces: u64) -> String {
    let mut text = format!("\nOne roll, d{faces} (ties to the defender):\n");
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
    for roll in tables {
        for outcome in &roll.outcomes {
            table.row(vec![
                roll.attacker_dice.to_string(),
                roll.defender_dice.to_string(),
                outcome.attacker_loses.to_string(),
                outcome.defender_loses.to_string(),
                outcome.count.to_string(),
                roll.total.to_string(),
                percent(outcome.probability),
            ]);
        }
    }
    text.push_str(&table.render());
    text
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
