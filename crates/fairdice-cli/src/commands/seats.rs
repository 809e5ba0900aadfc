//! `fairdice seats`: how a randomizer splits a match between the players of a game
//! (a JSON game file): each player's total and longest drought, the spread between
//! the best and the worst, the chance someone is starved.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::analysis::seats::{Game, PlayerFigures, Scope, SeatFigures};
use fairdice::analysis::{Method, seats::DEFAULT_SHARES};
use fairdice_api::UseCase;
use fairdice_api::seats::{SeatsReport, SeatsRequest};
use fairdice_charts::seats_chart;
use serde_json::Value;

use crate::csv_table::{self, CsvTable};
use crate::failure::UserError;
use crate::output::{Table, spinner, write_plot};

/// The most bytes a game file may hold.
const MAX_GAME_BYTES: u64 = 1 << 20;

/// Flags of `fairdice seats`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The game file (JSON) names the players and what each outcome pays each of them:
  {\"players\": [\"red\", \"blue\"], \"payoffs\": {\"6\": [1, 0], \"8\": [2, 1]}}
(an outcome by value, or by label for a randomizer that names them: \"hit\", \"I\"),
with \"turns\": true when roll t is taken by player t mod players, and \"columns\": \"roller\"
when column 0 is the player whose turn it is (see docs/seats.md).

Measures, over a match of T rolls:
  fair share      what the base distribution promises the player
  total           the player's expected total, and its 5%..95% range
  longest drought the expected longest run of rolls that paid the player nothing
  spread          E[best player's total - worst player's total]
  starved         P(some player ends with at most x of their fair share)
and, with turns, the same over each player's own turns.

Exact by default (a sweep over (randomizer state, every player's total)); past --max-states
pairs per step it falls back to Monte Carlo.
Example: fairdice seats docs/games/catan-beginner.json --randomizer 'dice(base=2d6)' --samples 60")]
pub struct Args {
    /// The game file (JSON).
    pub game: PathBuf,
    /// The randomizer spec, e.g. `fair(base=2d6, tightness=1)`.
    #[arg(long, short = 'r', value_name = "SPEC", value_parser = super::randomizer_spec)]
    pub randomizer: String,
    /// Rolls in the match (T).
    #[arg(long, short = 'T', value_name = "T")]
    pub samples: usize,
    #[command(flatten)]
    pub method: super::Method,
    /// The fractions of the fair share a starved player is asked about (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "X,..", default_values_t = DEFAULT_SHARES)]
    pub shares: Vec<f64>,
    /// Skip the droughts (a sweep per player).
    #[arg(long)]
    pub no_droughts: bool,
    #[command(flatten)]
    pub format: super::Format,
    /// Also draw each player's total over the match against their fair share: FILE.svg
    /// or FILE.png.
    #[arg(long, visible_alias = "chart", value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// The request the arguments ask for, the game read from its file.
///
/// # Errors
/// A game file that cannot be read or is not a game.
pub fn request(args: &Args) -> anyhow::Result<SeatsRequest> {
    Ok(SeatsRequest {
        game: read_game(&args.game)?,
        spec: args.randomizer.clone(),
        samples: args.samples,
        exact: args.method.exact,
        runs: args.method.runs,
        seed: args.method.seed,
        max_states: args.method.max_states,
        shares: args.shares.clone(),
        droughts: !args.no_droughts,
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = request(&args)?;
    let bar = spinner("measuring seats");
    let shown = bar.clone();
    let control = Control::new()
        .with_max_steps(args.method.max_steps)
        .with_progress(move |p| {
            shown.set_message(p.stage);
            if p.total > 0 {
                shown.set_length(p.total);
            }
            shown.set_position(p.done);
        });
    let report = request.run(&control);
    bar.finish_and_clear();
    let report = report.map_err(UserError::from_api)?;
    if let Some(path) = &args.plot {
        write_plot(path, &seats_chart(&report.analysis))?;
    }
    let text = if args.format.json {
        crate::output::json(&report)?
    } else if args.format.csv {
        csv(&report)?
    } else {
        render(&report)
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not write the output")
}

pub(crate) fn read_game(path: &PathBuf) -> anyhow::Result<Game> {
    let bad = |why: String| UserError::input(format!("{}: {why}", path.display()));
    let size = std::fs::metadata(path)
        .map_err(|e| bad(format!("cannot read the game file ({e})")))?
        .len();
    if size > MAX_GAME_BYTES {
        return Err(bad(format!(
            "a game file is at most {MAX_GAME_BYTES} bytes, this one has {size}"
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(format!("cannot read the game file ({e})")))?;
    Game::from_json(&text).map_err(|e| bad(e.to_string()))
}

/// One row per (scope, player): the scope, the spread and the starved chances of
/// the scope, then the player's figures (its distribution is left to `--json`).
fn csv(report: &SeatsReport) -> anyhow::Result<String> {
    let document = csv_table::document(report)?;
    let mut table = CsvTable::default();
    for key in ["all_rolls", "own_turns"] {
        let scope = &document[key];
        if scope.is_null() {
            continue;
        }
        let mut lead: Vec<(String, Value)> = vec![
            ("scope".into(), scope["scope"].clone()),
            ("spread".into(), scope["spread"]["value"].clone()),
        ];
        if let Some(error) = scope["spread"].get("error") {
            lead.push(("spread_error".into(), error.clone()));
        }
        for starved in scope["starved"].as_array().into_iter().flatten() {
            lead.push((
                format!("starved_at_{}", starved["share"]),
                starved["probability"]["value"].clone(),
            ));
        }
        let lead: Vec<(&str, Value)> = lead.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        table.extend(&scope["players"], &lead);
    }
    table.to_csv()
}

/// `exact (at most N pairs per step)` or `Monte Carlo (N runs, seed S)`.
fn describe(method: &Method) -> String {
    match method {
        Method::Exact { peak_states } => {
            format!("exact (at most {peak_states} (state, totals) pairs per step)")
        }
        Method::MonteCarlo { runs, seed } => format!("Monte Carlo ({runs} runs, seed {seed})"),
    }
}

/// `1.234` or `1.234 ± 0.005`.
fn figure(value: f64, error: Option<f64>, digits: usize) -> String {
    match error {
        Some(e) => format!("{value:.digits$} ± {e:.digits$}"),
        None => format!("{value:.digits$}"),
    }
}

/// The smallest total `k` with P(total ≤ k) ≥ `q`.
fn quantile(totals: &[f64], q: f64) -> usize {
    let mut sum = 0.0;
    for (k, p) in totals.iter().enumerate() {
        sum += p;
        if sum >= q - 1e-12 {
            return k;
        }
    }
    totals.len().saturating_sub(1)
}

fn render_scope(out: &mut String, figures: &SeatFigures, samples: usize) {
    let _ = writeln!(
        out,
        "\n{}",
        match figures.scope {
            Scope::AllRolls => format!("over all {samples} rolls:"),
            Scope::OwnTurns => "over each player's own turns:".to_string(),
        }
    );
    let mut table = Table::new(
        &[
            "player",
            "fair share",
            "total",
            "5%..95%",
            "longest drought",
        ],
        &[false, true, true, true, true],
    );
    for PlayerFigures {
        player,
        fair_share,
        expected_total,
        totals,
        longest_drought,
        ..
    } in &figures.players
    {
        table.row(vec![
            player.clone(),
            format!("{fair_share:.3}"),
            figure(expected_total.value, expected_total.error, 3),
            format!("{}..{}", quantile(totals, 0.05), quantile(totals, 0.95)),
            longest_drought.map_or_else(|| "-".into(), |d| figure(d.value, d.error, 2)),
        ]);
    }
    out.push_str(&table.render());
    let _ = writeln!(
        out,
        "spread (best total - worst total)  {}",
        figure(figures.spread.value, figures.spread.error, 3)
    );
    for starved in &figures.starved {
        let _ = writeln!(
            out,
            "P(someone gets at most {:.0}% of their fair share)  {}",
            starved.share * 100.0,
            figure(starved.probability.value, starved.probability.error, 4)
        );
    }
}

fn render(report: &SeatsReport) -> String {
    let mut out = String::new();
    let analysis = &report.analysis;
    if let Some(name) = report.game.name() {
        let _ = writeln!(out, "{name}");
    }
    let _ = writeln!(
        out,
        "{}, {} rolls, {} players; method: {}",
        fairdice_api::randomizer::spec_title(&analysis.spec),
        analysis.samples,
        report.game.players().len(),
        describe(&analysis.method)
    );
    render_scope(&mut out, &analysis.all_rolls, analysis.samples);
    if let Some(own) = &analysis.own_turns {
        render_scope(&mut out, own, analysis.samples);
    }
    out
}
