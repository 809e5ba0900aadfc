//! A game's own randomizer, written in Rust, measured by fairdice: a loot drop
//! whose chance rises after every empty chest, implemented as the game has it,
//! then asked "how many chests until two drops?" exactly (over every state it
//! can reach) and by seeded Monte Carlo, which agree.
//!
//! `cargo run -p fairdice --example own_randomizer`
//! (it also runs under `cargo test`, and exits non-zero if a check fails).

use std::error::Error;
use std::process::ExitCode;

use fairdice::Control;
use fairdice::analysis::goal::{Goal, attempts_until, simulate_attempts};
use fairdice::randomizer::{ObserveError, Randomizer, RestoreError};
use fairdice::rng::{self, Rng};

/// Drops with chance 10%, 5 points more after each empty chest, certain after
/// 18 empty chests in a row. Outcome 0 is "empty", 1 is "drop".
#[derive(Debug, Clone)]
struct RisingDrop {
    empty: u32,
}

impl RisingDrop {
    /// The chance of a drop now, in percent.
    fn percent(&self) -> u64 {
        (10 + 5 * u64::from(self.empty)).min(100)
    }
}

impl Randomizer for RisingDrop {
    fn spec(&self) -> String {
        "rising drop (10% + 5 points an empty chest)".to_string()
    }

    fn outcomes(&self) -> &[i64] {
        &[0, 1]
    }

    fn label(&self, index: usize) -> String {
        ["empty", "drop"]
            .get(index)
            .map_or_else(|| format!("#{index}"), |l| l.to_string())
    }

    fn next_distribution(&self) -> Vec<f64> {
        let p = self.percent() as f64 / 100.0;
        vec![1.0 - p, p]
    }

    fn base_distribution(&self) -> Vec<f64> {
        vec![0.9, 0.1]
    }

    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let drop = rng::below(rng, 100) < self.percent();
        let index = usize::from(drop);
        self.observe(index).expect("a drawn outcome is possible");
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        match index {
            0 if self.percent() == 100 => Err(ObserveError::Impossible {
                outcome: "empty".into(),
                reason: "a drop is certain now".into(),
            }),
            0 => {
                self.empty += 1;
                Ok(())
            }
            1 => {
                self.empty = 0;
                Ok(())
            }
            _ => Err(ObserveError::OutOfRange { index, len: 2 }),
        }
    }

    fn reset(&mut self) {
        self.empty = 0;
    }

    fn state_key(&self) -> Vec<i64> {
        vec![i64::from(self.empty)]
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        match key {
            [empty @ 0..=18] => {
                self.empty = *empty as u32;
                Ok(())
            }
            _ => Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!("{key:?} is not 0 to 18 empty chests"),
            }),
        }
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let drop = RisingDrop { empty: 0 };
    let two_drops = Goal::hits(vec![1], 2);
    let control = Control::new();

    // Exact: a walk over its 19 states and a dynamic program over the chests.
    let exact = attempts_until(&drop, &two_drops, 0, &control)?;
    let mean = exact.mean.ok_or("two drops are certain")?;
    println!(
        "exact over {} states: {mean:.4} chests on average, certain by chest {:?}",
        exact.states,
        exact.certain_by()
    );
    // No more than 19 chests for a drop (18 empty, then certain): 38 for two.
    if exact.certain_by() != Some(38) {
        return Err(format!("certain by {:?}, not 38", exact.certain_by()).into());
    }

    // Monte Carlo: 20,000 seeded runs of the game's own draw.
    let estimate = simulate_attempts(&drop, &two_drops, 20_000, 7, 1_000, &control)?;
    let (estimated, error) = (
        estimate.mean.ok_or("every run met the goal")?,
        estimate.mean_error.ok_or("a Monte Carlo estimate")?,
    );
    println!("Monte Carlo, 20000 runs: {estimated:.4} ± {error:.4} chests");
    if (estimated - mean).abs() > 4.0 * error {
        return Err(format!("the estimate {estimated} ± {error} misses {mean}").into());
    }
    let within_10 = (exact.done_within(10), estimate.done_within(10));
    println!(
        "two drops within 10 chests: {:.4} exact, {:.4} estimated",
        within_10.0, within_10.1
    );
    if (within_10.0 - within_10.1).abs() > 0.02 {
        return Err("the chances within 10 chests disagree".into());
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("own_randomizer: {e}");
            ExitCode::FAILURE
        }
    }
}
