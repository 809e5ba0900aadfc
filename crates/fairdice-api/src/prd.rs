//! `prd`: the constant C of the pseudo-random distribution for a nominal chance p,
//! and the chance of each attempt since the last success.

use fairdice::Control;
use fairdice::randomizer::Prd;
use serde::{Deserialize, Serialize};

use crate::{Error, UseCase};

/// The most attempts one request tabulates (`p = 0.000001` allows 6.4·10¹¹).
pub const MAX_LIMIT: u64 = 1_000_000;

/// About how many bytes one tabulated attempt takes until it is reported: its row
/// and its JSON (measured: 1,000,000 attempts, a 246 MiB heap peak).
pub const BYTES_PER_ATTEMPT: u64 = 256;

/// Budget steps one tabulated attempt costs: its row and four numbers written in
/// JSON (measured: 1,000,000 attempts, 0.66 s).
pub const STEPS_PER_ATTEMPT: u64 = 512;

/// The PRD of a nominal chance.
///
/// As JSON: `{"p": 0.25, "limit": 100}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrdRequest {
    /// The nominal chance of success, in [0.000001, 1].
    pub p: f64,
    /// Tabulate at most this many attempts.
    #[serde(default = "hundred")]
    pub limit: u64,
}

fn hundred() -> u64 {
    100
}

/// The constant, the expected and the longest number of attempts, and the table:
/// the `fairdice prd --json` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrdReport {
    /// The nominal chance.
    pub p: f64,
    /// The constant: the N-th attempt since the last success succeeds with
    /// min(1, C·N).
    pub c: f64,
    /// Attempts per success on average: 1/p.
    pub expected_attempts: f64,
    /// No run of failures outlasts this many attempts: ceil(1/C).
    pub max_attempts: u64,
    /// The attempts tabulated.
    pub attempts: Vec<Attempt>,
    /// Whether attempts past the limit were left out.
    pub truncated: bool,
}

/// One attempt since the last success.
pub use fairdice::analysis::goal::AttemptRow as Attempt;

impl UseCase for PrdRequest {
    const NAME: &'static str = "prd";
    type Report = PrdReport;

    fn run(&self, control: &Control) -> Result<PrdReport, Error> {
        if self.limit > MAX_LIMIT {
            return Err(Error::invalid_input(format!(
                "{} attempts is more than the {MAX_LIMIT} one request shows; accepted: 0..={MAX_LIMIT}",
                self.limit
            )));
        }
        let prd = Prd::new(self.p).map_err(|e| Error::from_failure(&e))?;
        control.check().map_err(|stop| Error::from_failure(&stop))?;
        let shown = prd.max_attempts().min(self.limit);
        let bytes = shown.saturating_mul(BYTES_PER_ATTEMPT);
        let steps = shown.saturating_mul(STEPS_PER_ATTEMPT);
        if control.afford(steps as f64).is_err() || control.reserve(bytes).is_err() {
            return Err(Error::too_big(format!(
                "a table of {shown} attempts (about {}) is more than the budget allows; ask for fewer",
                fairdice::control::bytes(bytes)
            )));
        }
        let mut attempts = Vec::with_capacity(shown as usize);
        let mut survival = 1.0;
        for attempt in 1..=shown {
            let probability = prd.success_probability(attempt);
            let first_success = survival * probability;
            survival -= first_success;
            attempts.push(Attempt {
                attempt,
                probability,
                first_success,
                cumulative: 1.0 - survival,
            });
        }
        Ok(PrdReport {
            p: prd.p(),
            c: prd.c(),
            expected_attempts: prd.expected_attempts(),
            max_attempts: prd.max_attempts(),
            attempts,
            truncated: shown < prd.max_attempts(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constant_for_a_quarter_and_a_table_that_sums_to_one() {
        let report = PrdRequest {
            p: 0.25,
            limit: 100,
        }
        .run(&Control::new())
        .unwrap();
        assert_eq!(format!("{:.15}", report.c), "0.084744091852317");
        assert!(!report.truncated);
        let last = report.attempts.last().unwrap();
        assert!((last.cumulative - 1.0).abs() < 1e-12);
        let mean: f64 = report
            .attempts
            .iter()
            .map(|a| a.attempt as f64 * a.first_success)
            .sum();
        assert!((mean - 4.0).abs() < 1e-9, "{mean}");
    }

    #[test]
    fn bad_chances_and_huge_tables_are_refused() {
        for request in [
            PrdRequest { p: 0.0, limit: 10 },
            PrdRequest { p: 1.5, limit: 10 },
            PrdRequest {
                p: 0.000001,
                limit: MAX_LIMIT + 1,
            },
        ] {
            let error = request.run(&Control::new()).unwrap_err();
            assert_eq!(error.exit_status(), 2, "{request:?}");
        }
    }
}
