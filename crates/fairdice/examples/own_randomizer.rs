//! A game's own randomizers, written in Rust, measured by fairdice.
//!
//! - A loot drop whose chance rises after every empty chest names its states
//!   ([`StateSpace`]), so it is measured exactly: "how many chests until two
//!   drops?" and the match measures of `analyze`, each checked against seeded
//!   Monte Carlo of the game's own draw.
//! - A shot whose chance follows a running average of recent misses has no
//!   finite set of states; it implements [`Randomizer`] alone and is measured by
//!   seeded Monte Carlo (`simulate`, `simulate_attempts`).
//!
//! `cargo run -p fairdice --example own_randomizer`
//! (it also runs under `cargo test`, and exits non-zero if a check fails).

use std::error::Error;
use std::process::ExitCode;

use fairdice::Control;
use fairdice::analysis::goal::{Goal, attempts_until, simulate_attempts};
use fairdice::analysis::{AnalysisOptions, analyze, simulate};
use fairdice::randomizer::{ObserveError, Randomizer, RestoreError, StateSpace};
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
}

impl StateSpace for RisingDrop {
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

/// Hits with 25% plus half the running average of misses (each shot moves the
/// average 30% of the way to 1 on a miss, to 0 on a hit). The average is a real
/// number: the shot has no finite set of states to sweep, so it implements
/// [`Randomizer`] only. Outcome 0 is "miss", 1 is "hit".
#[derive(Debug, Clone)]
struct HotHand {
    misses: f64,
}

impl HotHand {
    fn chance(&self) -> f64 {
        0.25 + 0.5 * self.misses
    }
}

impl Randomizer for HotHand {
    fn spec(&self) -> String {
        "hot hand (25% + half the running average of misses)".to_string()
    }

    fn outcomes(&self) -> &[i64] {
        &[0, 1]
    }

    fn next_distribution(&self) -> Vec<f64> {
        vec![1.0 - self.chance(), self.chance()]
    }

    fn base_distribution(&self) -> Vec<f64> {
        vec![0.5, 0.5]
    }

    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        // 2^53 steps: the chance to double precision.
        let hit = (rng::below(rng, 1 << 53) as f64) < self.chance() * (1u64 << 53) as f64;
        let index = usize::from(hit);
        self.observe(index)
            .expect("both outcomes are always possible");
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        let missed = match index {
            0 => 1.0,
            1 => 0.0,
            _ => return Err(ObserveError::OutOfRange { index, len: 2 }),
        };
        self.misses = 0.7 * self.misses + 0.3 * missed;
        Ok(())
    }

    fn reset(&mut self) {
        self.misses = 0.5;
    }
}

/// `what` within `sigmas` standard errors of `exact`.
fn agrees(what: &str, exact: f64, estimate: f64, error: f64) -> Result<(), Box<dyn Error>> {
    println!("{what}: {exact:.4} exact, {estimate:.4} ± {error:.4} by Monte Carlo");
    if (estimate - exact).abs() > 4.0 * error + 1e-12 {
        return Err(format!("{what}: the estimate {estimate} ± {error} misses {exact}").into());
    }
    Ok(())
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

    // The match measures over 30 chests: the exact sweep, then the game's own
    // draw simulated 20,000 times.
    let swept = analyze(&drop, &AnalysisOptions::new(30), &control)?;
    let drawn = simulate(&drop, 30, 20_000, 7, true, &control)?;
    let errors = drawn.errors.ok_or("Monte Carlo has standard errors")?;
    println!(
        "over 30 chests ({}, then {}):",
        swept.method.name(),
        drawn.method.name()
    );
    agrees(
        "  mean entropy",
        swept.mean_entropy,
        drawn.mean_entropy,
        errors[0],
    )?;
    agrees(
        "  outcome variance",
        swept.outcome_variance,
        drawn.outcome_variance,
        errors[1],
    )?;
    agrees(
        "  repeat rate",
        swept.repeat_rate,
        drawn.repeat_rate,
        errors[2],
    )?;

    // A randomizer with no states to sweep: Monte Carlo alone.
    let hot = HotHand { misses: 0.5 };
    let measured = simulate(&hot, 30, 20_000, 7, true, &control)?;
    let longest_misses = measured
        .droughts
        .as_ref()
        .and_then(|d| d.outcomes.get(1))
        .map(|hits| hits.longest_gap)
        .ok_or("droughts were asked for")?;
    println!(
        "hot hand over 30 shots: outcome variance {:.3}, repeat rate {:.3}, longest run without a hit {:.2}",
        measured.outcome_variance, measured.repeat_rate, longest_misses
    );
    // A fair coin's counts over 30 tosses have variance 30 / 4: the rubber band
    // evens them out.
    let error = measured.errors.ok_or("Monte Carlo has standard errors")?[1];
    if measured.outcome_variance + 4.0 * error >= 30.0 / 4.0 {
        return Err("the hot hand should even the counts out more than a coin".into());
    }
    let three_hits = simulate_attempts(&hot, &Goal::hits(vec![1], 3), 20_000, 7, 100, &control)?;
    println!(
        "three hits take {:.3} shots on average",
        three_hits.mean.ok_or("every run met the goal")?
    );
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
