//! `fairdice prd`: the PRD constant C for a nominal chance, and what it implies.

use std::fmt::Write as _;

use crate::output::outln;
use fairdice::Control;
use fairdice_api::UseCase;
use fairdice_api::prd::{Attempt, PrdRequest};

use crate::failure::UserError;

/// Flags of `fairdice prd`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The N-th attempt since the last success succeeds with min(1, C·N); C is \
solved (to 1e-12) so that the long-run rate is exactly p. Expected attempts per success: 1/p; \
no run of failures outlasts ceil(1/C) attempts."
)]
pub struct Args {
    /// The nominal chance of success, in [0.000001, 1] (e.g. 0.25).
    #[arg(allow_negative_numbers = true)]
    pub p: f64,
    /// Show at most this many attempts in the table (at most 1000000).
    #[arg(long, default_value_t = 100)]
    pub limit: u64,
    #[command(flatten)]
    pub format: super::Format,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = PrdRequest {
        p: args.p,
        limit: args.limit,
    };
    let report = request.run(&Control::new()).map_err(UserError::from_api)?;
    if let Some(text) = args.format.document(&report, "attempts")? {
        outln!("{}", text.trim_end());
        return Ok(());
    }
    outln!("p                  {}", report.p);
    outln!("C                  {:.15}", report.c);
    outln!("expected attempts  {}", report.expected_attempts);
    outln!("maximum attempts   {}", report.max_attempts);
    outln!();
    outln!("{}", attempts_table(&report.attempts).trim_end());
    if report.truncated {
        outln!(
            "… {} more attempts (raise --limit)",
            report.max_attempts - report.attempts.len() as u64
        );
    }
    Ok(())
}

/// The table of attempts until a success, one line an attempt: the chance of
/// each after failures, of the first success there, of a success by then.
pub fn attempts_table(rows: &[Attempt]) -> String {
    let mut out = String::from("attempt  P(success)  P(first success)  P(success by now)\n");
    for a in rows {
        let (chance, first_success, cumulative) = (
            small(a.probability),
            small(a.first_success),
            small(a.cumulative),
        );
        let _ = writeln!(
            out,
            "{:>7}  {chance:>10}  {first_success:>16}  {cumulative:>17}",
            a.attempt
        );
    }
    out
}

/// Six decimals, or scientific notation for values too small to show that way.
fn small(x: f64) -> String {
    if x != 0.0 && x < 1e-4 {
        format!("{x:.3e}")
    } else {
        format!("{x:.6}")
    }
}
