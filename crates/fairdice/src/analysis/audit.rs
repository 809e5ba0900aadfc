//! Auditing a recorded log: how likely the log is under a randomizer (each draw
//! conditioned on the ones before it), and whether its counts, its longest
//! drought and its repeats look like the randomizer's — for a player asking
//! whether the dice are rigged, or a test suite checking a dice bag.
//!
//! ```
//! use fairdice::Control;
//! use fairdice::analysis::audit::{audit, AuditOptions};
//! use fairdice::randomizer::Spec;
//!
//! let deck = Spec::build("deck(values=6)")?;
//! let log = [0, 3, 5, 1, 2, 4, 2, 2]; // outcome indices: 1 4 6 2 3 5 3 3
//! let audit = audit(&deck, &log, &AuditOptions::default(), &Control::new())?;
//! // The eighth entry is a second 3 from a deck that holds one 3 each pass.
//! assert_eq!(audit.likelihood.impossible, Some(7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design decisions
//! The log-likelihood is exact up to floating-point rounding: the sum of the
//! natural logarithms of each entry's chance given the entries before it, read
//! from the randomizer's own next-sample distribution. The three tests compare
//! a statistic of the log with the same statistic over logs simulated from the
//! randomizer (seeded, of the same length): a deck or a fair roller makes counts
//! far tighter than independent dice, so a textbook chi-square table would
//! mislead; the simulated distribution does not. Each test says its method.

use thiserror::Error;

use super::base_deviation::base_probabilities;
use super::chain::Chain;
use super::exact_tests::{self, Statistic};
use crate::control::{Control, Failure, FailureKind, Stop};
use crate::randomizer::{Randomizer, StateSpace};

/// The most entries a log may hold.
pub const MAX_LOG_ENTRIES: usize = 1_000_000;

/// Simulated logs a test compares with by default.
pub const DEFAULT_SIMULATIONS: u64 = 2000;

/// The seed of the simulations by default.
pub const DEFAULT_SEED: u64 = 1;

/// Budget steps one simulated draw costs (drawing and counting).
pub const STEPS_PER_SIMULATED_DRAW: u64 = 8;

/// How an audit is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditOptions {
    /// Logs simulated from the randomizer for the tests (0: no tests).
    pub simulations: u64,
    /// Their seed.
    pub seed: u64,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            simulations: DEFAULT_SIMULATIONS,
            seed: DEFAULT_SEED,
        }
    }
}

/// Why a log could not be audited.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AuditError {
    /// Empty, too long, or an index out of range.
    #[error("{0}")]
    Invalid(String),
    /// Over the budget, or cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

impl Failure for AuditError {
    fn kind(&self) -> FailureKind {
        match self {
            AuditError::Invalid(_) => FailureKind::Invalid,
            AuditError::Stopped(stop) => stop.kind(),
        }
    }
}

/// A log's likelihood under a randomizer.
#[derive(Debug, Clone, PartialEq)]
pub struct Likelihood {
    /// `Σ ln P(entry | the entries before it)`; minus infinity when an entry is
    /// impossible.
    pub log_likelihood: f64,
    /// The first entry (0-based) the randomizer could not have drawn.
    pub impossible: Option<usize>,
    /// Why, in the randomizer's words.
    pub reason: Option<String>,
}

/// One test of the log against the randomizer's logs of the same length.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// The log's value of the statistic.
    pub statistic: f64,
    /// Two-sided: twice the smaller chance of a log at least as large or at
    /// most as large, at most 1. Small when the log strays too far *or* keeps
    /// too close: a log of dice far too even is as suspect as a lopsided one.
    pub p_value: f64,
    /// How the chances were found.
    pub method: TestMethod,
}

/// How a test's p-value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestMethod {
    /// From the statistic's exact distribution over every log of that length
    /// (a walk of at most `pairs` (state, summary) pairs a step).
    Exact {
        /// The most pairs a step held.
        pairs: usize,
    },
    /// From the shares of `logs` simulated logs at least or at most as large,
    /// the log counted among them: `(1 + k) / (1 + logs)`.
    Simulated {
        /// Logs simulated.
        logs: u64,
        /// Their seed.
        seed: u64,
    },
}

impl TestMethod {
    /// `exact` or `simulated (2000 logs, seed 1)`.
    pub fn describe(&self) -> String {
        match self {
            TestMethod::Exact { .. } => "exact".to_string(),
            TestMethod::Simulated { logs, seed } => format!("simulated ({logs} logs, seed {seed})"),
        }
    }
}

/// An audit of a log.
#[derive(Debug, Clone, PartialEq)]
pub struct Audit {
    /// The likelihood.
    pub likelihood: Likelihood,
    /// How often each outcome appears in the log.
    pub counts: Vec<u64>,
    /// The base distribution the counts are compared with.
    pub base: Vec<f64>,
    /// The counts against the base: `Σ (c_i − p_i·T)² / (p_i·T)`, large when the
    /// log strays from the base, small when it keeps too close.
    pub fit: Option<Test>,
    /// The longest run of entries without some outcome.
    pub drought: Option<Test>,
    /// Entries equal to the one before.
    pub repeats: Option<Test>,
}

/// The likelihood of `log` (outcome indices) under `randomizer` from its
/// current state.
pub fn log_likelihood<R: Randomizer + Clone>(randomizer: &R, log: &[usize]) -> Likelihood {
    let mut r = randomizer.clone();
    let mut total = 0.0;
    for (entry, &outcome) in log.iter().enumerate() {
        let p = r.next_distribution().get(outcome).copied().unwrap_or(0.0);
        let observed = if p > 0.0 {
            r.observe(outcome)
        } else {
            // The randomizer's own words for why, when it has them.
            Err(r
                .clone()
                .observe(outcome)
                .err()
                .unwrap_or_else(|| impossible(&r, outcome)))
        };
        if let Err(reason) = observed {
            return Likelihood {
                log_likelihood: f64::NEG_INFINITY,
                impossible: Some(entry),
                reason: Some(reason.to_string()),
            };
        }
        total += p.ln();
    }
    Likelihood {
        log_likelihood: total,
        impossible: None,
        reason: None,
    }
}

/// The error observing `outcome` gives, or one saying its chance is 0.
fn impossible<R: Randomizer>(r: &R, outcome: usize) -> crate::randomizer::ObserveError {
    crate::randomizer::ObserveError::Impossible {
        outcome: r.label(outcome),
        reason: "its chance is 0 here".to_string(),
    }
}

/// The statistics of one log: the fit to `base`, the longest drought of any
/// outcome and the repeats.
pub(crate) fn statistics(
    log: &[usize],
    base: &[f64],
    counts: &mut [u64],
    last: &mut [usize],
) -> (f64, f64, f64) {
    counts.iter_mut().for_each(|c| *c = 0);
    last.iter_mut().for_each(|l| *l = 0);
    let mut longest = 0;
    let mut repeats = 0u64;
    for (t, &x) in log.iter().enumerate() {
        counts[x] += 1;
        longest = longest.max(t - last[x]);
        last[x] = t + 1;
        if t > 0 && log[t - 1] == x {
            repeats += 1;
        }
    }
    let n = log.len();
    for (x, &l) in last.iter().enumerate() {
        if base[x] > 0.0 {
            longest = longest.max(n - l);
        }
    }
    let t = n as f64;
    let fit = base
        .iter()
        .zip(counts.iter())
        .filter(|(p, _)| **p > 0.0)
        .map(|(&p, &c)| (c as f64 - p * t).powi(2) / (p * t))
        .sum();
    (fit, longest as f64, repeats as f64)
}

/// A statistic's exact P(≥ the log's), P(≤ the log's), and the most pairs a
/// step of its walk held.
type Tails = (f64, f64, usize);

/// Budget steps the exact tests may spend before the audit simulates instead.
pub const EXACT_TEST_STEPS: u64 = 200_000_000;

/// Audits `log` (outcome indices) against `randomizer` from its current state.
/// Each test's p-value comes from the statistic's exact distribution when the
/// randomizer's states and the statistic's summaries are few enough (see
/// [`EXACT_TEST_STEPS`]), else from `options.simulations` simulated logs.
///
/// # Errors
/// [`AuditError::Invalid`] for an empty log, one over [`MAX_LOG_ENTRIES`] or an
/// index out of range; [`AuditError::Stopped`] when the simulations pass the
/// budget or are cancelled.
pub fn audit<R: StateSpace + Clone + Sync>(
    randomizer: &R,
    log: &[usize],
    options: &AuditOptions,
    control: &Control,
) -> Result<Audit, AuditError> {
    run(randomizer, log, options, control, |base, observed| {
        exact_tests(randomizer, log.len(), base, observed, control)
    })
}

/// [`audit`] for a randomizer that does not name its states: every test by
/// simulation.
///
/// # Errors
/// As [`audit`].
pub fn audit_simulated<R: Randomizer + Clone + Sync>(
    randomizer: &R,
    log: &[usize],
    options: &AuditOptions,
    control: &Control,
) -> Result<Audit, AuditError> {
    run(randomizer, log, options, control, |_, _| Ok([None; 3]))
}

fn check_log<R: Randomizer>(randomizer: &R, log: &[usize]) -> Result<(), AuditError> {
    let n = randomizer.outcomes().len();
    if log.is_empty() {
        return Err(AuditError::Invalid("the log is empty".into()));
    }
    if log.len() > MAX_LOG_ENTRIES {
        return Err(AuditError::Invalid(format!(
            "the log has {} entries; accepted: at most {MAX_LOG_ENTRIES}",
            log.len()
        )));
    }
    if let Some(&x) = log.iter().find(|&&x| x >= n) {
        return Err(AuditError::Invalid(format!(
            "outcome index {x} is out of range (0..{n})"
        )));
    }
    Ok(())
}

/// The slack within which a simulated or exact value counts as equal to the
/// log's: rounding of the fit's sum, none for the counts.
fn slack(which: usize, observed: f64) -> f64 {
    if which == 0 {
        1e-9 * observed.abs().max(1.0)
    } else {
        0.0
    }
}

/// The exact tails (P(≥ log's), P(≤ log's), pairs) of each statistic that
/// fits the exact tests' share of the budget.
fn exact_tests<R: StateSpace + Clone>(
    randomizer: &R,
    entries: usize,
    base: &[f64],
    observed: [f64; 3],
    control: &Control,
) -> Result<[Option<Tails>; 3], AuditError> {
    let mut found = [None; 3];
    let share = control.share(EXACT_TEST_STEPS.min(control.max_steps() / 2));
    // A walk of at most MAX_PAIRS pairs a step has no use for more states.
    let Ok(chain) = Chain::explore_within(randomizer, exact_tests::MAX_PAIRS, &share) else {
        control.check()?;
        return Ok(found);
    };
    for (which, slot) in found.iter_mut().enumerate() {
        let value = observed[which];
        let cap = value as u32;
        let statistic = match which {
            0 => Statistic::Fit { base },
            1 => Statistic::Drought { base, cap },
            _ => Statistic::Repeats { cap },
        };
        match exact_tests::tails(
            &chain,
            entries,
            statistic,
            value,
            slack(which, value),
            &share,
        ) {
            Ok(Some(tails)) => *slot = Some(tails),
            Ok(None) => {}
            Err(_) => control.check()?,
        }
    }
    Ok(found)
}

/// The audit, its exact tails (if any) found by `exact` from the base and the
/// log's three statistics, the rest simulated.
fn run<R: Randomizer + Clone + Sync>(
    randomizer: &R,
    log: &[usize],
    options: &AuditOptions,
    control: &Control,
    exact: impl FnOnce(&[f64], [f64; 3]) -> Result<[Option<Tails>; 3], AuditError>,
) -> Result<Audit, AuditError> {
    check_log(randomizer, log)?;
    let n = randomizer.outcomes().len();
    let base = base_probabilities(randomizer);
    let (mut counts, mut last) = (vec![0u64; n], vec![0usize; n]);
    let (fit, drought, repeats) = statistics(log, &base, &mut counts, &mut last);
    let observed = [fit, drought, repeats];
    let log_counts = counts.clone();
    let exact = exact(&base, observed)?;
    let likelihood = log_likelihood(randomizer, log);
    let mut tests: [Option<Test>; 3] = [None, None, None];
    for (which, tails) in exact.iter().enumerate() {
        if let Some((at_least, at_most, pairs)) = *tails {
            tests[which] = Some(Test {
                statistic: observed[which],
                p_value: (2.0 * at_least.min(at_most)).min(1.0),
                method: TestMethod::Exact { pairs },
            });
        }
    }
    if options.simulations > 0 && tests.iter().any(Option::is_none) {
        let cost = (randomizer.sample_steps().max(1) + STEPS_PER_SIMULATED_DRAW) as f64;
        control.afford(cost * log.len() as f64 * options.simulations as f64)?;
        let mut meter = control.meter();
        // For each statistic, the simulated logs at least and at most as large.
        let mut tails = [[0u64; 2]; 3];
        let mut simulated = vec![0usize; log.len()];
        for run in 0..options.simulations {
            let mut rng = crate::rng::stream(options.seed, run);
            let mut r = randomizer.clone();
            for x in simulated.iter_mut() {
                *x = r.draw(&mut rng);
            }
            meter.charge(cost as u64 * log.len() as u64)?;
            let (f, d, k) = statistics(&simulated, &base, &mut counts, &mut last);
            for (which, (tail, value)) in tails.iter_mut().zip([f, d, k]).enumerate() {
                let slack = slack(which, observed[which]);
                tail[0] += u64::from(value >= observed[which] - slack);
                tail[1] += u64::from(value <= observed[which] + slack);
            }
        }
        let share = |k: u64| (1 + k) as f64 / (1 + options.simulations) as f64;
        for (which, [above, below]) in tails.into_iter().enumerate() {
            if tests[which].is_none() {
                tests[which] = Some(Test {
                    statistic: observed[which],
                    p_value: (2.0 * share(above.min(below))).min(1.0),
                    method: TestMethod::Simulated {
                        logs: options.simulations,
                        seed: options.seed,
                    },
                });
            }
        }
    }
    let [fit, drought, repeats] = tests;
    Ok(Audit {
        likelihood,
        counts: log_counts,
        base,
        fit,
        drought,
        repeats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    fn the_likelihood_is_the_product_of_conditional_chances() {
        let deck = Spec::build("deck(values=3)").expect("valid");
        // 1 2 3 (1/3 · 1/2 · 1), then a fresh deck: 2 (1/3).
        let l = log_likelihood(&deck, &[0, 1, 2, 1]);
        let expected = (1.0f64 / 3.0).ln() + 0.5f64.ln() + (1.0f64 / 3.0).ln();
        assert!((l.log_likelihood - expected).abs() < 1e-12);
        let dice = Spec::build("dice(base=2d6)").expect("valid");
        let l = log_likelihood(&dice, &[5, 0, 10]);
        let expected = (6.0f64 / 36.0).ln() + 2.0 * (1.0f64 / 36.0).ln();
        assert!((l.log_likelihood - expected).abs() < 1e-12);
        let l = log_likelihood(&deck, &[0, 0]);
        assert_eq!(
            (l.log_likelihood, l.impossible),
            (f64::NEG_INFINITY, Some(1))
        );
        assert!(l.reason.expect("why").contains('1'));
    }

    #[test]
    fn small_logs_are_tested_exactly() {
        // Twenty heads of a fair coin: each statistic at its most extreme, with
        // chance 2 · 2^-20 (all heads or all tails) for the fit and the drought
        // and 2^-19 for 19 repeats; two-sided, twice that.
        let coin = Spec::build("dice(values=2)").expect("valid");
        let options = AuditOptions {
            simulations: 0,
            seed: 1,
        };
        let result = audit(&coin, &[1; 20], &options, &Control::new()).expect("small");
        for (test, statistic) in [
            (&result.fit, 20.0),
            (&result.drought, 20.0),
            (&result.repeats, 19.0),
        ] {
            let test = test.as_ref().expect("exact without simulations");
            assert_eq!(test.statistic, statistic);
            assert!(matches!(test.method, TestMethod::Exact { .. }));
            assert!((test.p_value - 2f64.powi(-18)).abs() < 1e-18, "{test:?}");
        }
        // Without states to walk, every test is simulated.
        let simulated = audit_simulated(&coin, &[1; 20], &AuditOptions::default(), &Control::new())
            .expect("small");
        let fit = simulated.fit.expect("simulated");
        assert_eq!(
            fit.method,
            TestMethod::Simulated {
                logs: 2000,
                seed: 1
            }
        );
        assert_eq!(fit.p_value, 2.0 / 2001.0);
    }

    #[test]
    fn a_deck_log_is_too_even_for_dice_and_fits_the_deck() {
        // Six passes through a deck of six: every count exactly 6.
        let deck = Spec::build("deck(values=6)").expect("valid");
        let mut generator = crate::rng::seeded(3);
        let mut d = deck.clone();
        let log: Vec<usize> = (0..36).map(|_| d.draw(&mut generator)).collect();
        let dice = Spec::build("dice(values=6)").expect("valid");
        let options = AuditOptions {
            simulations: 500,
            seed: 2,
        };
        let as_dice = audit(&dice, &log, &options, &Control::new()).expect("small");
        let fit = as_dice.fit.expect("tested");
        assert_eq!(fit.statistic, 0.0);
        // No simulated dice log keeps as close: the two-sided p-value is 2/501.
        assert_eq!(fit.p_value, 2.0 / 501.0);
        let as_deck = audit(&deck, &log, &options, &Control::new()).expect("small");
        assert!(as_deck.likelihood.log_likelihood > as_dice.likelihood.log_likelihood);
        assert_eq!(as_deck.counts, [6; 6]);
        // The longest run without a face is at most 10 in a deck of six.
        assert!(as_deck.drought.expect("tested").statistic <= 10.0);
    }

    #[test]
    fn loaded_dice_are_caught() {
        // A die that shows 6 half the time.
        let dice = Spec::build("dice(values=6)").expect("valid");
        let log: Vec<usize> = (0..300)
            .map(|t| if t % 2 == 0 { 5 } else { t % 5 })
            .collect();
        let result = audit(
            &dice,
            &log,
            &AuditOptions {
                simulations: 999,
                seed: 1,
            },
            &Control::new(),
        )
        .expect("small");
        assert_eq!(result.fit.expect("tested").p_value, 2.0 / 1000.0);
        assert!(audit(&dice, &[], &AuditOptions::default(), &Control::new()).is_err());
        assert!(audit(&dice, &[6], &AuditOptions::default(), &Control::new()).is_err());
    }
}
