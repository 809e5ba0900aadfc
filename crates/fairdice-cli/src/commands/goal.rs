//! `fairdice goal`: attempts until a randomizer gives what the player waits for.

use std::path::PathBuf;

use crate::output::{outln, write_plot};
use crate::session_file::{failure, source};
use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_api::goal::{GoalMethod, GoalReport, GoalRequest};
use fairdice_charts::attempts_chart;

/// Flags of `fairdice goal`.
#[derive(Debug, clap::Args)]
#[command(after_help = format!(
    "Examples:\n  fairdice goal 'pity(p=0.006, soft=74, rise=0.06, cap=90)' --until hit\n  \
fairdice goal @docs/machines/banner.json --until featured --times 2 --budget 180\n  \
fairdice goal 'deck(base=2d6)' --every\n  \
fairdice goal @docs/machines/banner.json --until featured --history '3-star*73'\n\n\
Exact: a dynamic program over every state the randomizer can reach, so the mean and \
percentiles are those of the whole distribution.\n\n{}",
    super::spec_help()
))]
pub struct Args {
    /// The randomizer spec, or @FILE for a machine document.
    #[arg(required_unless_present = "resume", conflicts_with = "resume", value_parser = super::randomizer_spec)]
    pub spec: Option<String>,
    /// The outcomes that count, by value or name (`hit`, `featured`, `6,5`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub until: Vec<String>,
    /// How many draws of them the goal waits for.
    #[arg(long, short = 'k', default_value_t = 1)]
    pub times: u32,
    /// Wait for every outcome of --until (every outcome without it) at least once.
    #[arg(long, conflicts_with = "times")]
    pub every: bool,
    /// The attempts the player has: print the chance within them.
    #[arg(long, value_name = "ATTEMPTS")]
    pub budget: Option<u64>,
    /// Outcomes drawn before counting starts, oldest first (`3-star*73` for 73 of them).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub history: Vec<String>,
    /// Start from a saved session (`sample --save`) instead of a fresh randomizer.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Exact, or an error (no Monte Carlo fallback).
    #[arg(long, conflicts_with = "runs")]
    pub exact: bool,
    /// Estimate by Monte Carlo with this many runs (the fallback when the states
    /// are too many uses 100000).
    #[arg(long)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tabulate at most this many attempts (at most 1000000).
    #[arg(long, default_value_t = 1000)]
    pub limit: u64,
    #[command(flatten)]
    pub format: super::Format,
    /// Also draw the chance within each number of attempts: FILE.svg or FILE.png.
    #[arg(long, visible_alias = "chart", value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = GoalRequest {
        source: source(args.resume.as_deref(), args.spec.as_deref())?,
        history: args.history,
        until: args.until,
        times: args.times,
        every: args.every,
        budget: args.budget,
        limit: args.limit,
        exact: args.exact,
        runs: args.runs,
        seed: args.seed,
    };
    let report = request
        .run(&Control::new())
        .map_err(|e| failure(args.resume.as_deref(), e))?;
    if let Some(path) = &args.plot {
        write_plot(path, &attempts_chart(&report.goal, &report.cumulative()))?;
    }
    if let Some(text) = args.format.document(&report, "attempts")? {
        outln!("{}", text.trim_end());
    } else {
        print(&report, args.resume.is_some())?;
    }
    Ok(())
}

/// The summary, then the table with a bar for the chance within each attempt
/// (every attempt up to 40, else about 30 rows and each percentile's).
fn print(report: &GoalReport, resumed: bool) -> anyhow::Result<()> {
    let mut start = match (resumed, report.history.len()) {
        (false, 0) => "from the start".to_string(),
        (true, 0) => "from the saved session".to_string(),
        (false, n) => format!("after {n} outcomes"),
        (true, n) => format!("after the saved session and {n} outcomes"),
    };
    if (resumed || !report.history.is_empty()) && !report.start.is_empty() {
        start = format!("{start}: {}", report.start.join(", "));
    }
    let method = match report.method {
        GoalMethod::Exact { states } => format!("exact over {states} states"),
        GoalMethod::MonteCarlo { runs, seed } => format!("Monte Carlo, {runs} runs, seed {seed}"),
    };
    outln!(
        "{}: attempts until {} ({start}; {method})",
        report.title(),
        report.goal,
    );
    match (report.mean, report.sd) {
        (Some(mean), Some(sd)) => match report.mean_error {
            Some(e) => outln!("mean        {mean:.4} ± {e:.4} attempts (sd {sd:.4})"),
            None => outln!("mean        {mean:.4} attempts (sd {sd:.4})"),
        },
        _ => outln!(
            "mean        none: the goal is met with chance {} only",
            percent(report.ever)
        ),
    }
    if let Some(certain) = report.certain_by {
        outln!("certain by  attempt {certain}");
    }
    let quantiles: Vec<String> = report
        .percentiles
        .iter()
        .map(|p| match p.attempts {
            Some(t) => format!("{} by {t}", percent(p.chance)),
            None => format!("{} never", percent(p.chance)),
        })
        .collect();
    outln!("percentiles {}", quantiles.join(", "));
    if let Some(budget) = &report.budget {
        outln!(
            "with a budget of {} attempts: {}",
            budget.attempts,
            percent(budget.chance)
        );
        if let Some(hits) = budget.expected_hits {
            outln!(
                "expected draws of {} within them: {hits:.4}",
                report.until.join(" or ")
            );
        }
    }
    outln!();
    outln!("attempt  P(at this attempt)  P(within)");
    let rows = &report.attempts;
    let step = rows.len().div_ceil(30).max(1);
    let marked: Vec<u64> = report
        .percentiles
        .iter()
        .filter_map(|p| p.attempts)
        .chain(report.budget.as_ref().map(|b| b.attempts))
        .collect();
    for row in rows {
        let shown = rows.len() <= 40
            || row.attempt as usize % step == 0
            || row.attempt == 1
            || marked.contains(&row.attempt);
        if !shown {
            continue;
        }
        let bar = "█".repeat((row.cumulative * 30.0).round() as usize);
        outln!(
            "{:>7}  {:>18}  {:>9}  {bar}",
            row.attempt,
            format!("{:.6}", row.chance),
            format!("{:.6}", row.cumulative)
        );
    }
    if report.truncated {
        outln!("… more attempts (raise --limit)");
    }
    Ok(())
}

/// A chance as a percentage with up to four decimals.
fn percent(p: f64) -> String {
    let text = format!("{:.4}", p * 100.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}%")
}
