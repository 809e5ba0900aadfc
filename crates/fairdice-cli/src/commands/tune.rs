//! `fairdice tune`: the fairest parameters of each randomizer system that keep the
//! mean entropy above a threshold (the search of "Making Randomness Fair").

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::analysis::{self, MethodChoice};
use fairdice::tune::report::Parameters;
use fairdice::tune::{
    self, CandidateResult, Grid, MatchLength, Outcomes, TuneReport, TuneResult, Tuning,
};
use fairdice_charts::CurvesFigure;

use super::analyze::{describe, method_choice};
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
  bag      sets=1..10                                          a dice bag (uniform values only)
  dice     (no parameters)                                     plain dice, the baseline
  tgm      history=1..6, tries=1..8; nes, tgm1, tgm2, bag7     Tetris randomizers (--values 7)

A grid: family(key=values, ...) with values `a..b` (inclusive, integers), `a..b step s`, or
`a|b|c`; keys left out keep the default, e.g. --grid 'dynamic(decrease=0.30..0.50 step 0.005)'.

--samples takes a fixed length (25), a uniform range (20..40, inclusive) or weights
(20:1,30:2,40:1). Candidates whose exact sweep needs more than --budget states in a step (250,000 by
default) are estimated from 20,000 seeded runs each (or pass --runs N for all). With an uncertain length the search minimizes the expected outcome
variance at the match's end, with the threshold on the expected mean entropy of a match.

Among qualifying candidates the lowest outcome variance wins; variances within 1e-9
(relative) tie and go to the smaller parameters, in the grid's key order.

Example (the article): fairdice tune --values 6 --samples 25 --min-entropy 0.9")]
pub struct Args {
    /// Number of outcomes: the faces 1..=N of a fair die.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "base",
        conflicts_with = "base"
    )]
    pub values: Option<u64>,
    /// Weighted outcomes from a dice expression instead, e.g. `2d6`.
    #[arg(long, value_name = "EXPR")]
    pub base: Option<String>,
    /// Samples per match: `25`, `20..40` (uniform) or `20:1,30:2,40:1` (weighted).
    #[arg(long, short = 'T', value_name = "T")]
    pub samples: String,
    /// The least mean entropy (fraction of a fair die's) a candidate must keep.
    #[arg(long, default_value_t = 0.9, value_name = "FRACTION")]
    pub min_entropy: f64,
    /// Systems to search, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "deck,dynamic")]
    pub systems: Vec<String>,
    /// A custom grid for one system (repeatable); adds the system if not listed.
    #[arg(long, value_name = "GRID")]
    pub grid: Vec<String>,
    /// Measure every candidate exactly, or fail (exit 3) past --budget states.
    #[arg(long, conflicts_with = "runs")]
    pub exact: bool,
    /// Measure every candidate by Monte Carlo with this many runs.
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
    /// Seed for Monte Carlo.
    #[arg(long, default_value_t = analysis::DEFAULT_SEED)]
    pub seed: u64,
    /// Merged states one step of a candidate's exact sweep may hold (default 250,000;
    /// past it the candidate is estimated by Monte Carlo, unless --exact).
    #[arg(long, value_name = "STATES")]
    pub budget: Option<usize>,
    /// List every candidate, not only each system's best.
    #[arg(long)]
    pub all: bool,
    /// Draw the best candidates' entropy and outcome variance per step (.svg or .png;
    /// .csv writes the data).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Print JSON: `{"systems": [{"system", "params", "mean_entropy", "outcome_variance", ...}]}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let tuning = configure(&args)?;
    let total: usize = tuning.grids.iter().map(Grid::len).sum();
    let bar = progress(total as u64, "tuning");
    let result = tune::tune(&tuning, &shown_on(Control::new(), &bar));
    bar.finish_and_clear();
    let result = result.map_err(|e| match e {
        tune::TuneError::Analysis {
            source: analysis::AnalysisError::Exact(_),
            ..
        } => UserError::too_big(format!("{e}\nhint: drop --exact, or pass --runs N")),
        tune::TuneError::TooBig { .. } => UserError::too_big(e.to_string()),
        other => UserError::input(other.to_string()),
    })?;
    let baseline = tuning
        .plain_dice_variance()
        .map_err(|e| UserError::input(format!("--base: {e}")))?;
    if let Some(path) = &args.plot {
        plot::write(path, &CurvesFigure::tuning(&tuning, &result))?;
    }
    let text = if args.json {
        TuneReport::new(&tuning, &result, baseline, args.all).to_json() + "\n"
    } else {
        render(&tuning, &result, baseline, args.all)
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not write the output")
}

/// Validates the flags into a [`Tuning`].
fn configure(args: &Args) -> anyhow::Result<Tuning> {
    let outcomes = match (&args.values, &args.base) {
        (Some(0), _) => return Err(UserError::input("--values must be at least 1")),
        (Some(n), _) => Outcomes::Values(*n),
        (None, Some(expr)) => Outcomes::Base(expr.clone()),
        (None, None) => return Err(UserError::input("give --values N or --base EXPR")),
    };
    let samples: MatchLength = args
        .samples
        .parse()
        .map_err(|e| UserError::input(format!("--samples {}: {e}", args.samples)))?;
    if !(0.0..=1.0).contains(&args.min_entropy) {
        return Err(UserError::input(format!(
            "--min-entropy must be in [0, 1] (a fraction of a fair die's entropy), got {}",
            args.min_entropy
        )));
    }
    let mut grids: Vec<Grid> = Vec::new();
    for name in args
        .systems
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
    {
        let grid = Grid::default_for(name)
            .map_err(|e| UserError::input(format!("--systems {name}: {e}")))?;
        if !grids.iter().any(|g| g.family() == grid.family()) {
            grids.push(grid);
        }
    }
    for text in &args.grid {
        let grid =
            Grid::parse(text).map_err(|e| UserError::input(format!("--grid {text}: {e}")))?;
        match grids.iter_mut().find(|g| g.family() == grid.family()) {
            Some(slot) => *slot = grid,
            None => grids.push(grid),
        }
    }
    let method = match method_choice(args.exact, args.runs, args.seed, args.budget)? {
        MethodChoice::Auto { seed, .. } => MethodChoice::Auto {
            budget: args.budget.unwrap_or(tune::STATE_BUDGET),
            runs: tune::FALLBACK_RUNS,
            seed,
        },
        other => other,
    };
    Ok(Tuning {
        outcomes,
        samples,
        min_entropy: args.min_entropy,
        grids,
        method,
    })
}

fn params_text(c: &CandidateResult) -> String {
    Parameters::of(c).to_string()
}

fn render(tuning: &Tuning, result: &TuneResult, baseline: f64, all: bool) -> String {
    let mut out = String::new();
    let samples = if tuning.samples.is_fixed() {
        format!("{} samples", tuning.samples.max())
    } else {
        format!(
            "{} samples (expected over the match lengths)",
            tuning.samples
        )
    };
    let _ = writeln!(
        out,
        "{}, {samples}, mean entropy ≥ {}\n",
        tuning.outcomes, tuning.min_entropy
    );
    let mut table = Table::new(
        &[
            "system",
            "best parameters",
            "mean entropy",
            "outcome variance",
            "qualified",
        ],
        &[false, false, true, true, true],
    );
    for system in &result.systems {
        let qualified = format!("{}/{}", system.qualified(), system.candidates.len());
        match system.best() {
            Some(best) => table.row(vec![
                system.system.to_string(),
                params_text(best),
                format!("{:.4}", best.mean_entropy),
                format!("{:.4}", best.outcome_variance),
                qualified,
            ]),
            None => table.row(vec![
                system.system.to_string(),
                "none qualifies".to_string(),
                "-".to_string(),
                "-".to_string(),
                qualified,
            ]),
        }
    }
    out.push_str(&table.render());
    out.push('\n');
    let methods: Vec<String> = result
        .systems
        .iter()
        .filter_map(|s| {
            s.best()
                .map(|b| format!("{}: {}", s.system, describe(&b.method)))
        })
        .collect();
    let _ = writeln!(out, "method: {}", methods.join("; "));
    if let Some(fairest) = result
        .fairest()
        .and_then(|s| s.best().map(|b| (s.system, b)))
    {
        let (system, best) = fairest;
        let _ = writeln!(
            out,
            "fairest: {system} ({}), outcome variance {:.2} (plain dice: {baseline:.2})",
            params_text(best),
            best.outcome_variance
        );
        let _ = writeln!(out, "spec: {}", best.spec);
    } else {
        let _ = writeln!(
            out,
            "no candidate keeps a mean entropy of {}; lower --min-entropy",
            tuning.min_entropy
        );
    }
    if all {
        for system in &result.systems {
            let _ = writeln!(out, "\n{}:", system.system);
            let mut table = Table::new(
                &[
                    "parameters",
                    "mean entropy",
                    "outcome variance",
                    "qualifies",
                ],
                &[false, true, true, false],
            );
            for c in &system.candidates {
                table.row(vec![
                    params_text(c),
                    format!("{:.4}", c.mean_entropy),
                    format!("{:.4}", c.outcome_variance),
                    if c.qualifies { "yes" } else { "no" }.to_string(),
                ]);
            }
            out.push_str(&table.render());
        }
    }
    out
}
