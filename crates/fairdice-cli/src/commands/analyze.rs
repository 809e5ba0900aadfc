//! `fairdice analyze`: a randomizer's expected entropy and outcome variance per
//! step, its repeat rate and droughts, exactly or by Monte Carlo.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::analysis::Method;
use fairdice::analysis::report::SuccessAttempts;
use fairdice_api::UseCase;
use fairdice_api::analyze::{AnalysisReport, AnalyzeRequest};
use fairdice_charts::CurvesFigure;

use crate::failure::UserError;
use crate::output::{Table, bar, progress, shown_on, spinner};
use crate::plot;

/// Flags of `fairdice analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Measures, over a match of T samples, in expectation over all runs:
  entropy           Shannon entropy of the next-sample distribution before each sample,
                    as a fraction of a fair die's (1 = unpredictable, 0 = certain)
  mean entropy      that, averaged over the T samples
  outcome variance  population variance of the outcome counts after a sample (0 = level)
  repeat rate       fraction of samples equal to the one before
  longest gap       per outcome, the longest run of samples without it, and P(gap > k)

Exact by default (a sweep over the randomizer's states); past --max-states states per step
it falls back to Monte Carlo. Example: fairdice analyze 'dynamic(values=6, decrease=0.355)' --samples 25")]
pub struct Args {
    /// The randomizer spec, e.g. `deck(values=6, copies=1, refill_below=6)`.
    #[arg(value_parser = super::randomizer_spec)]
    pub spec: String,
    /// Samples in the match (T).
    #[arg(long, short = 'T', value_name = "T")]
    pub samples: usize,
    #[command(flatten)]
    pub method: super::Method,
    /// Skip the droughts (they cost the most to compute exactly).
    #[arg(long)]
    pub no_droughts: bool,
    /// Show every k-th step in the table (default: all up to 40 steps, else about 30 rows).
    #[arg(long, value_name = "K")]
    pub every: Option<usize>,
    /// Draw entropy and outcome variance per step (.svg or .png; .csv writes the data).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub format: super::Format,
}

/// The request the arguments ask for.
pub fn request(args: &Args) -> AnalyzeRequest {
    AnalyzeRequest {
        spec: args.spec.clone(),
        samples: args.samples,
        exact: args.method.exact,
        runs: args.method.runs,
        seed: args.method.seed,
        max_states: args.method.max_states,
        droughts: !args.no_droughts,
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = request(&args);
    // A forced Monte Carlo run counts runs; otherwise the work (steps, drought
    // sweeps, perhaps a fallback) is not known in advance.
    let bar = match args.method.runs {
        Some(runs) => progress(runs, "simulating"),
        None => spinner("analyzing"),
    };
    let report = request.run(&shown_on(
        Control::new().with_max_steps(args.method.max_steps),
        &bar,
    ));
    bar.finish_and_clear();
    let report = report.map_err(UserError::from_api)?;
    if let Some(path) = &args.plot {
        plot::write(path, &CurvesFigure::analysis(&report))?;
    }
    let text = match args.format.document(&report, "steps")? {
        Some(text) => text,
        None => render(&report, args.every),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("could not write the output")
}

/// The most attempts the text shows (the JSON has every one).
const SHOWN_ATTEMPTS: usize = 100;

/// The attempts until a success of a randomizer of attempts, as `fairdice prd`
/// shows them.
fn attempts_summary(attempts: &SuccessAttempts) -> String {
    let mut out = format!("attempts until {} (from the start)", attempts.outcome);
    if let Some(mean) = attempts.expected_attempts {
        let _ = write!(out, ": {mean:.4} on average");
    }
    if let Some(most) = attempts.max_attempts {
        let _ = write!(out, ", never more than {most}");
    }
    out.push('\n');
    let shown = &attempts.attempts[..attempts.attempts.len().min(SHOWN_ATTEMPTS)];
    out.push_str(&super::prd::attempts_table(shown));
    let left = attempts.attempts.len() - shown.len();
    if left > 0 || attempts.truncated {
        let _ = writeln!(
            out,
            "… more attempts (--json has {} in all)",
            attempts.attempts.len()
        );
    }
    out
}

/// `exact (at most N states per step)` or `Monte Carlo (N runs, seed S)`.
pub fn describe(method: &Method) -> String {
    match method {
        Method::Exact { peak_states } => {
            format!("exact (at most {peak_states} merged states per step)")
        }
        Method::MonteCarlo { runs, seed } => format!("Monte Carlo ({runs} runs, seed {seed})"),
    }
}

/// `0.5089` or `0.5089 ± 0.0012`.
pub fn with_error(value: f64, error: Option<f64>) -> String {
    match error {
        Some(e) => format!("{value:.4} ± {e:.4}"),
        None => format!("{value:.4}"),
    }
}

fn render(report: &AnalysisReport, every: Option<usize>) -> String {
    let mut out = String::new();
    let n = report.outcomes;
    let t = report.samples;
    let _ = writeln!(
        out,
        "{}",
        fairdice_api::randomizer::spec_title(&report.spec)
    );
    let _ = writeln!(
        out,
        "{t} samples, {n} outcomes; method: {}",
        describe(&report.method)
    );
    let errors = report.errors;
    let _ = writeln!(
        out,
        "mean entropy      {}  (fraction of a fair die's; 1 = unpredictable)",
        with_error(report.mean_entropy, errors.map(|e| e.mean_entropy))
    );
    let _ = writeln!(
        out,
        "outcome variance  {}  (after sample {t}; 0 = every outcome equally often)",
        with_error(report.outcome_variance, errors.map(|e| e.outcome_variance))
    );
    let _ = writeln!(
        out,
        "base deviation    {}  (counts against the base's p·T; 1 = as plain dice, 0 = exactly p·T)",
        with_error(report.base_deviation, report.base_deviation_error)
    );
    let _ = writeln!(
        out,
        "repeat rate       {}  (samples equal to the one before)",
        with_error(report.repeat_rate, errors.map(|e| e.repeat_rate))
    );
    if let Some(droughts) = &report.droughts {
        out.push('\n');
        let ks = &droughts.shown_gaps;
        let mut headers = vec!["outcome".to_string(), "longest gap".to_string()];
        headers.extend(ks.iter().map(|k| format!("P(gap > {k})")));
        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
        let mut right = vec![false];
        right.extend(std::iter::repeat_n(true, headers.len() - 1));
        let mut table = Table::new(&header_refs, &right);
        let same = droughts
            .outcomes
            .windows(2)
            .all(|w| w[0].longest_gap == w[1].longest_gap && w[0].gap_exceeds == w[1].gap_exceeds);
        let shown = if same {
            &droughts.outcomes[..1]
        } else {
            &droughts.outcomes[..]
        };
        for o in shown {
            let mut row = vec![
                if same {
                    "each".to_string()
                } else {
                    o.outcome.to_string()
                },
                format!("{:.3}", o.longest_gap),
            ];
            row.extend(ks.iter().map(|&k| format!("{:.4}", o.gap_exceeds[k])));
            table.row(row);
        }
        let _ = writeln!(
            out,
            "droughts: the longest run of samples without an outcome; method: {}",
            describe(&droughts.method)
        );
        out.push_str(&table.render());
    }
    if let Some(attempts) = &report.attempts {
        out.push('\n');
        out.push_str(&attempts_summary(attempts));
    }
    out.push('\n');
    let every = every
        .unwrap_or(if t <= 40 { 1 } else { t.div_ceil(30) })
        .max(1);
    let mut table = Table::new(
        &["step", "entropy", "outcome variance", ""],
        &[true, true, true, false],
    );
    let top = report
        .steps
        .iter()
        .map(|s| s.outcome_variance)
        .fold(0.0, f64::max)
        .max(1e-12);
    for step in report
        .steps
        .iter()
        .filter(|s| s.step % every == 0 || s.step == 1 || s.step == t)
    {
        let v = step.outcome_variance;
        table.row(vec![
            step.step.to_string(),
            format!("{:.4}", step.entropy),
            format!("{v:.4}"),
            bar(v / top, 30),
        ]);
    }
    out.push_str(&table.render());
    out
}
