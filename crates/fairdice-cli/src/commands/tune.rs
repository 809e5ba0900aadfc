//! `fairdice tune`: the fairest parameters of each randomizer system that keep the
//! mean entropy above a threshold (the search of "Making Randomness Fair").

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::tune::Grid;
use fairdice::tune::report::SamplesReport;
use fairdice_api::UseCase;
use fairdice_api::tune::{TuneReport, TuneRequest};

use fairdice_charts::CurvesFigure;

use super::analyze::{describe, with_error};
use crate::failure::UserError;
use crate::output::{Table, progress, shown_on};
use crate::plot;

/// Flags of `fairdice tune`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Systems and their default grids (override with --grid):
  deck     copies=1..10, refill_below=1..10 (refill=top-up)   the article's generalized deck
  dynamic  decrease=0.005..0.995 step 0.01                     the article's dynamic dice
  fair     tightness=0..5 step 0.05                            the fair die roller
           (seats=N: one history per player; with a --game taken in turns the
           search tries seats=1 and seats=players unless a grid names seats)
  bag      sets=1..10                                          a dice bag (uniform values only)
  dice     (no parameters)                                     plain dice, the baseline
  tgm      history=1..6, tries=1..8; nes, tgm1, tgm2, bag7     Tetris randomizers (--values 7)
  tgm3     history=1..6, tries=1..8                            TGM3's 35-piece bag (--values 7)

A grid: family(key=values, ...) with values `a..b` (inclusive, integers), `a..b step s`, or
`a|b|c`; keys left out keep the default, e.g. --grid 'dynamic(decrease=0.30..0.50 step 0.005)'.

A machine (docs/machines.md) is tuned over the parameters its document gives a `tune` grid:
--grid @FILE.json, or --grid '@FILE.json(name=values, ...)' to choose the values; it draws its
own outcomes (no --values or --base), is searched alone, and is compared with itself as written.

--samples takes a fixed length (25), a uniform range (20..40, inclusive) or weights
(20:1,30:2,40:1). With an uncertain length the search minimizes the expected measure of
fairness at the match's end, with the threshold on the expected mean entropy of a match.

--fairness chooses that measure: outcome_variance (the article's: the variance of the
outcome counts, which expects every outcome equally often; the default with --values) or
base_deviation (how far the counts stray from what the base gives, p_i*T, as a chi-square
scaled so plain dice read 1; the default with --base, where 2d6 sums should not come up
equally often), or seat_spread with --game GAME.json (the expected gap between the best and
the worst player's totals, as `fairdice seats` measures it). The report shows the measures
and says which was minimized.

The search races the candidates: each is swept exactly where that is cheap and estimated by
seeded Monte Carlo (± standard errors) otherwise; only candidates that could still win are
measured again, with more runs or exactly, and each winner is confirmed exactly where the
budget allows. The report says whether each winner is certain. --exact sweeps every candidate
(failing past --max-states states a step, 250,000 by default); --runs N estimates every one.

Among qualifying candidates the lowest measure wins; values within 1e-9 (relative) tie
and go to the smaller parameters, in the grid's key order.

Example (the article): fairdice tune --values 6 --samples 25 --min-entropy 0.9")]
pub struct Args {
    /// Number of outcomes: the faces 1..=N of a fair die.
    #[arg(
        long,
        value_name = "N",
        required_unless_present_any = ["base", "grid"],
        conflicts_with = "base"
    )]
    pub values: Option<u64>,
    /// Weighted outcomes from a dice expression instead, e.g. `2d6`.
    #[arg(long, value_name = "EXPR")]
    pub base: Option<String>,
    /// Samples per match: `25`, `20..40` (uniform) or `20:1,30:2,40:1` (weighted).
    #[arg(long, short = 'T', value_name = "T")]
    pub samples: String,
    /// The least mean entropy a candidate must keep: a fraction of a fair die's
    /// (0.9) or a percentage (90%).
    #[arg(long, default_value = "0.9", value_name = "FRACTION")]
    pub min_entropy: Fraction,
    /// The measure of fairness to minimize: outcome_variance (default with --values),
    /// base_deviation (default with --base) or seat_spread (default with --game).
    #[arg(long, value_name = "MEASURE")]
    pub fairness: Option<String>,
    /// A game file (as for `fairdice seats`): search for the fairest split of a
    /// match between its players (the expected gap between the best and the worst
    /// player's totals).
    #[arg(long, value_name = "GAME.json")]
    pub game: Option<PathBuf>,
    /// Systems to search, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "deck,dynamic")]
    pub systems: Vec<String>,
    /// A custom grid for one system (repeatable); adds the system if not listed.
    #[arg(long, value_name = "GRID")]
    pub grid: Vec<String>,
    #[command(flatten)]
    pub method: super::Method,
    /// List every candidate, not only each system's best.
    #[arg(long)]
    pub all: bool,
    /// Draw the best candidates' entropy and outcome variance per step (.svg or .png;
    /// .csv writes the data).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::Format,
}

/// The request the arguments ask for, a game read from its file.
///
/// # Errors
/// A game file that cannot be read, or a grid that is not a machine grid.
pub fn request(args: &Args) -> anyhow::Result<TuneRequest> {
    Ok(TuneRequest {
        values: args.values,
        base: args.base.clone(),
        samples: args.samples.clone(),
        min_entropy: args.min_entropy.0,
        fairness: args.fairness.clone(),
        game: args
            .game
            .as_ref()
            .map(super::seats::read_game)
            .transpose()?,
        systems: args.systems.clone(),
        grids: args
            .grid
            .iter()
            .map(|g| machine_grid(g))
            .collect::<Result<_, _>>()
            .map_err(|e| UserError::input(format!("--grid: {e}")))?,
        exact: args.method.exact,
        runs: args.method.runs,
        seed: args.method.seed,
        max_states: args.method.max_states,
        all: args.all,
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = request(&args)?;
    let tuning = request.tuning().map_err(UserError::from_api)?;
    let total: usize = tuning.grids.iter().map(Grid::len).sum();
    let bar = progress(total as u64, "tuning");
    let report = request.run(&shown_on(
        Control::new().with_max_steps(args.method.max_steps),
        &bar,
    ));
    bar.finish_and_clear();
    let report = report.map_err(UserError::from_api)?;
    if let Some(path) = &args.plot {
        plot::write(path, &CurvesFigure::tuning(&report))?;
    }
    let text = match args.format.document(&report, "systems")? {
        Some(text) => text,
        None => render(&report),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not write the output")
}

/// A grid as written on the command line: `@FILE.json` or `@FILE.json(key=values, …)`
/// reads the machine document from FILE; anything else is the grid itself.
fn machine_grid(text: &str) -> Result<String, String> {
    if !text.starts_with('@') {
        return Ok(text.to_string());
    }
    let (path, values) = match text.find('(') {
        Some(open) if text.trim_end().ends_with(')') => text.split_at(open),
        _ => (text, ""),
    };
    Ok(format!(
        "{}{values}",
        super::randomizer_spec(path.trim_end())?
    ))
}

/// A least mean entropy: a fraction (`0.9`) or a percentage (`90%`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fraction(pub f64);

impl std::str::FromStr for Fraction {
    type Err = String;

    fn from_str(text: &str) -> Result<Fraction, String> {
        let text = text.trim();
        let (number, scale) = match text.strip_suffix('%') {
            Some(percent) => (percent.trim(), 100.0),
            None => (text, 1.0),
        };
        number
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(|x| Fraction(x / scale))
            .ok_or_else(|| {
                format!("expected a fraction such as 0.9 or a percentage such as 90%, not `{text}`")
            })
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A measure's field name as words: `base deviation`.
fn measure_name(field: &str) -> String {
    field.replace('_', " ")
}

fn render(report: &TuneReport) -> String {
    let mut out = String::new();
    let samples = match &report.samples {
        SamplesReport::Fixed(n) => format!("{n} samples"),
        SamplesReport::Distribution { distribution, .. } => {
            format!("{distribution} samples (expected over the match lengths)")
        }
    };
    let _ = writeln!(
        out,
        "{}, {samples}, mean entropy ≥ {}, fairest by {}\n",
        report.outcomes_text(),
        report.min_entropy,
        measure_name(report.fairness)
    );
    let seats = report.game.is_some();
    let mut headers = vec![
        "system",
        "best parameters",
        "mean entropy",
        "outcome variance",
        "base deviation",
    ];
    if seats {
        headers.push("seat spread");
    }
    headers.push("qualified");
    let mut right = vec![false, false];
    right.resize(headers.len(), true);
    let mut table = Table::new(&headers, &right);
    for system in &report.systems {
        let qualified = format!("{}/{}", system.qualified, system.candidates_tried);
        let mut row = vec![system.system.to_string()];
        match (
            &system.params,
            system.mean_entropy,
            system.outcome_variance,
            system.base_deviation,
        ) {
            (Some(params), Some(entropy), Some(variance), Some(deviation)) => {
                row.push(params.to_string());
                row.push(with_error(entropy, system.mean_entropy_error));
                row.push(with_error(variance, system.outcome_variance_error));
                row.push(with_error(deviation, system.base_deviation_error));
                if let Some(spread) = system.seat_spread {
                    row.push(with_error(spread, system.seat_spread_error));
                }
            }
            _ => {
                row.push("none qualifies".to_string());
                row.resize(headers.len() - 1, "-".to_string());
            }
        }
        row.push(qualified);
        table.row(row);
    }
    out.push_str(&table.render());
    out.push('\n');
    let methods: Vec<String> = report
        .systems
        .iter()
        .filter_map(|s| s.method.map(|m| format!("{}: {}", s.system, describe(&m))))
        .collect();
    if seats {
        // The method named is the entropy's; each seat spread says by its error
        // whether it was estimated.
        let _ = writeln!(
            out,
            "method (entropy): {}; seat spreads exact unless shown ± their standard error",
            methods.join("; ")
        );
    } else {
        let _ = writeln!(out, "method: {}", methods.join("; "));
    }
    let uncertain: Vec<&str> = report
        .systems
        .iter()
        .filter(|s| !s.certain)
        .map(|s| s.system.as_str())
        .collect();
    if !uncertain.is_empty() {
        let _ = writeln!(
            out,
            "not certain: {}: candidates estimated within four standard errors of the winner are left; a larger --max-steps refines them further",
            uncertain.join(", ")
        );
    }
    match report.fairest_system() {
        Some(best) => {
            let (value, plain) = match report.fairness {
                "base_deviation" => (best.base_deviation, report.plain_dice_base_deviation),
                "seat_spread" => (
                    best.seat_spread,
                    report.plain_dice_seat_spread.unwrap_or(f64::NAN),
                ),
                _ => (best.outcome_variance, report.plain_dice_outcome_variance),
            };
            let plain_error = match (report.fairness, report.plain_dice_seat_spread_error) {
                ("seat_spread", Some(error)) => format!(" ± {error:.2}"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "fairest: {} ({}), {} {:.2} ({}: {:.2}{plain_error})",
                best.system,
                best.params
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                measure_name(report.fairness),
                value.unwrap_or(f64::NAN),
                report.baseline,
                plain
            );
            if let Some(spec) = &best.spec {
                let _ = writeln!(out, "spec: {spec}");
            }
        }
        None => {
            let _ = writeln!(
                out,
                "no candidate keeps a mean entropy of {}; lower --min-entropy",
                report.min_entropy
            );
        }
    }
    for system in &report.systems {
        let Some(candidates) = &system.candidates else {
            continue;
        };
        let _ = writeln!(out, "\n{}:", system.system);
        let mut headers = vec![
            "parameters",
            "mean entropy",
            "outcome variance",
            "base deviation",
        ];
        if seats {
            headers.push("seat spread");
        }
        headers.push("qualifies");
        let mut right = vec![false];
        right.resize(headers.len() - 1, true);
        right.push(false);
        let mut table = Table::new(&headers, &right);
        for c in candidates {
            let mut row = vec![
                c.params.to_string(),
                with_error(c.mean_entropy, c.mean_entropy_error),
                with_error(c.outcome_variance, c.outcome_variance_error),
                with_error(c.base_deviation, c.base_deviation_error),
            ];
            if seats {
                row.push(match c.seat_spread {
                    Some(spread) => with_error(spread, c.seat_spread_error),
                    None => "-".to_string(),
                });
            }
            row.push(if c.qualifies { "yes" } else { "no" }.to_string());
            table.row(row);
        }
        out.push_str(&table.render());
    }
    out
}
