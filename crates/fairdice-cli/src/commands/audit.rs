//! `fairdice audit`: a recorded log against a randomizer.

use std::io::Read;
use std::path::PathBuf;

use crate::failure::UserError;
use crate::output::outln;
use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_api::audit::{AuditReport, AuditRequest, Log};
use fairdice_api::randomizer::spec_title;

/// The longest log file read: a million entries of a few characters each.
const MAX_LOG_BYTES: u64 = 64 * 1024 * 1024;

/// Flags of `fairdice audit`.
#[derive(Debug, clap::Args)]
#[command(after_help = format!(
    "The log: one outcome a line (blank lines and # comments skipped), CSV (the `outcome` \
column, else the first) or JSON (a list, or the document of `fairdice sample --json`).\n\n\
Examples:\n  fairdice audit rolls.txt --randomizer 'dice(base=2d6)'\n  \
fairdice audit rolls.txt --randomizer 'dice(base=2d6)' --candidates 'deck(base=2d6)' --candidates 'fair(base=2d6, tightness=1)'\n\n{}",
    super::spec_help()
))]
pub struct Args {
    /// The log file (`-` reads standard input).
    pub log: PathBuf,
    /// The randomizer the log should come from (a spec, or @FILE for a machine).
    #[arg(long, short = 'r', value_name = "SPEC", value_parser = super::randomizer_spec)]
    pub randomizer: String,
    /// Randomizers to rank by likelihood (repeat the flag); default: the
    /// randomizer and its family's usual alternatives over the same outcomes.
    #[arg(long, value_name = "SPEC", value_parser = super::randomizer_spec)]
    pub candidates: Vec<String>,
    /// Logs simulated from the randomizer for the tests' p-values (0: no tests).
    #[arg(long, default_value_t = 2000)]
    pub runs: u64,
    /// The simulations' seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub format: super::Format,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = AuditRequest {
        spec: args.randomizer,
        log: Log::Text(read(&args.log)?),
        candidates: args.candidates,
        simulations: args.runs,
        seed: args.seed,
    };
    let report = request
        .run(&Control::new())
        .map_err(|e| UserError::from_api(e.in_context(&format!("{}:", args.log.display()))))?;
    if let Some(text) = args.format.document(&report, "candidates")? {
        outln!("{}", text.trim_end());
    } else {
        print(&report)?;
    }
    Ok(())
}

/// The log file's text (at most [`MAX_LOG_BYTES`]).
fn read(path: &PathBuf) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    let limit = MAX_LOG_BYTES + 1;
    let result = if path.as_os_str() == "-" {
        std::io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    result.map_err(|e| UserError::input(format!("cannot read {}: {e}", path.display())))?;
    if bytes.len() as u64 > MAX_LOG_BYTES {
        return Err(UserError::input(format!(
            "{} is longer than {MAX_LOG_BYTES} bytes, more than a log of a million entries",
            path.display()
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| UserError::input(format!("{} is not UTF-8 text", path.display())))
}

fn print(report: &AuditReport) -> anyhow::Result<()> {
    outln!(
        "{} entries against {}",
        report.entries,
        spec_title(&report.spec)
    );
    match (report.log_likelihood, &report.impossible) {
        (Some(l), _) => outln!(
            "log-likelihood  {l:.4}  ({:.4} an entry)",
            report.per_entry.unwrap_or(f64::NAN)
        ),
        (None, Some(i)) => outln!(
            "log-likelihood  -inf: entry {} ({}) cannot come from it: {}",
            i.entry,
            i.outcome,
            i.reason
        ),
        (None, None) => outln!("log-likelihood  -inf"),
    }
    outln!();
    outln!("outcome  count  expected");
    for row in &report.counts {
        outln!(
            "{:>7}  {:>5}  {:>8.2}",
            row.outcome,
            row.count,
            row.expected
        );
    }
    if !report.tests.is_empty() {
        outln!();
        outln!("{}:", report.method);
        for test in &report.tests {
            outln!(
                "  {:<8} {:>10.3}  p = {:.4}  ({})",
                test.test,
                test.statistic,
                test.p_value,
                test.measures
            );
        }
    }
    outln!();
    outln!("candidates, likeliest first:");
    for c in &report.candidates {
        match (c.log_likelihood, c.behind, c.impossible_entry) {
            (Some(l), Some(behind), _) => {
                outln!(
                    "  {:>12.4}  {:>10.4} behind  {}",
                    l,
                    behind,
                    spec_title(&c.spec)
                )
            }
            (_, _, Some(entry)) => outln!(
                "  {:>12}  {:>17}  {} (entry {entry} is impossible)",
                "-inf",
                "",
                spec_title(&c.spec)
            ),
            _ => outln!("  {:>12}  {:>17}  {}", "-inf", "", spec_title(&c.spec)),
        }
    }
    Ok(())
}
