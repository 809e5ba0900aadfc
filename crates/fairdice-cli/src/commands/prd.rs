//! `fairdice prd`: the PRD constant C for a nominal chance, and what it implies.

use crate::output::outln;
use fairdice::randomizer::Prd;
use serde_json::json;

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
    /// Print JSON: `{"p", "c", "expected_attempts", "max_attempts", "attempts": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// The most attempts one call tabulates (p = 0.000001 allows 6.4·10¹¹).
const MAX_LIMIT: u64 = 1_000_000;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.limit > MAX_LIMIT {
        return Err(UserError::input(format!(
            "--limit {} is more than the {MAX_LIMIT} attempts one call shows; accepted: 0..={MAX_LIMIT}",
            args.limit
        )));
    }
    let prd = Prd::new(args.p).map_err(|e| UserError::input(e.to_string()))?;
    let shown = prd.max_attempts().min(args.limit);
    let mut rows = Vec::new();
    let mut survival = 1.0;
    for attempt in 1..=shown {
        let chance = prd.success_probability(attempt);
        let first_success = survival * chance;
        survival -= first_success;
        rows.push((attempt, chance, first_success, 1.0 - survival));
    }
    if args.json {
        let attempts: Vec<serde_json::Value> = rows
            .iter()
            .map(|&(attempt, probability, first_success, cumulative)| {
                json!({
                    "attempt": attempt,
                    "probability": probability,
                    "first_success": first_success,
                    "cumulative": cumulative,
                })
            })
            .collect();
        let report = json!({
            "p": prd.p(),
            "c": prd.c(),
            "expected_attempts": prd.expected_attempts(),
            "max_attempts": prd.max_attempts(),
            "attempts": attempts,
            "truncated": shown < prd.max_attempts(),
        });
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    outln!("p                  {}", prd.p());
    outln!("C                  {:.15}", prd.c());
    outln!("expected attempts  {}", prd.expected_attempts());
    outln!("maximum attempts   {}", prd.max_attempts());
    outln!();
    outln!("attempt  P(success)  P(first success)  P(success by now)");
    for (attempt, chance, first_success, cumulative) in rows {
        let (chance, first_success, cumulative) =
            (small(chance), small(first_success), small(cumulative));
        outln!("{attempt:>7}  {chance:>10}  {first_success:>16}  {cumulative:>17}");
    }
    if shown < prd.max_attempts() {
        outln!(
            "… {} more attempts (raise --limit)",
            prd.max_attempts() - shown
        );
    }
    Ok(())
}

/// Six decimals, or scientific notation for values too small to show that way.
fn small(x: f64) -> String {
    if x != 0.0 && x < 1e-4 {
        format!("{x:.3e}")
    } else {
        format!("{x:.6}")
    }
}
