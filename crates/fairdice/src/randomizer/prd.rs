//! [`Prd`]: the pseudo-random distribution of Warcraft III and Dota 2 for a
//! binary event (a critical hit, a bash).

use thiserror::Error;

use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;

use super::args::{Args, SpecError};
use super::family::kinds::{Family, OutcomeKeys};
use crate::rng::{self, Rng};

/// The smallest nominal chance accepted. Solving for `C` walks about `7/p`
/// attempts per step, and below this the cost grows past a second.
pub const MIN_PROBABILITY: f64 = 1e-6;

/// PRDs needing at most this many attempts decide draws from a table.
const MAX_TABULATED: u64 = 4096;

/// How closely [`prd_constant`] solves for `C` (absolute).
pub const C_TOLERANCE: f64 = 1e-12;

/// Why a PRD could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum PrdError {
    /// The nominal chance is outside `[1e-6, 1]`.
    #[error("p must be in [0.000001, 1] (the nominal chance of success), got {0}")]
    ProbabilityOutOfRange(f64),
}

crate::control::invalid_input!(PrdError);

/// The constant `C` for which a PRD with nominal chance `p` succeeds at the long-run
/// rate `p` exactly: the N-th attempt since the last success succeeds with
/// `min(1, C·N)`, so the expected number of attempts per success is `1/p`.
///
/// # Errors
/// [`PrdError::ProbabilityOutOfRange`] unless `1e-6 <= p <= 1`.
///
/// # Example
/// ```
/// let c = fairdice::randomizer::prd_constant(0.25)?;
/// assert!((c - 0.084744091852317).abs() < 1e-12);
/// # Ok::<(), fairdice::randomizer::PrdError>(())
/// ```
pub fn prd_constant(p: f64) -> Result<f64, PrdError> {
    if !(MIN_PROBABILITY..=1.0).contains(&p) {
        return Err(PrdError::ProbabilityOutOfRange(p));
    }
    if p == 1.0 {
        return Ok(1.0);
    }
    // The rate 1/E[attempts] grows with C; C = p overshoots (every attempt succeeds
    // with at least p), and a small enough C undershoots.
    let gap = |c: f64| 1.0 / expected_attempts(c) - p;
    let (mut low, mut high) = (p * p / 8.0, p);
    while gap(low) > 0.0 {
        low /= 2.0;
    }
    let (mut f_low, mut f_high) = (gap(low), gap(high));
    // Illinois (regula falsi with halving of a stuck end): superlinear, and it
    // never leaves the bracket.
    let mut side = 0;
    for _ in 0..200 {
        if high - low <= C_TOLERANCE * 1e-3 {
            break;
        }
        let c = (low * f_high - high * f_low) / (f_high - f_low);
        let c = if c > low && c < high {
            c
        } else {
            0.5 * (low + high)
        };
        let f = gap(c);
        if f == 0.0 {
            return Ok(c);
        }
        if f < 0.0 {
            low = c;
            f_low = f;
            if side == -1 {
                f_high *= 0.5;
            }
            side = -1;
        } else {
            high = c;
            f_high = f;
            if side == 1 {
                f_low *= 0.5;
            }
            side = 1;
        }
        if (f / p).abs() < 1e-15 {
            return Ok(c);
        }
    }
    Ok(0.5 * (low + high))
}

/// `E[attempts per success] = Σ_{N≥0} P(no success in the first N attempts)`.
fn expected_attempts(c: f64) -> f64 {
    let mut survival = 1.0;
    let mut sum = 0.0;
    let mut attempt = 1.0;
    while survival > 0.0 {
        sum += survival;
        survival *= 1.0 - (c * attempt).min(1.0);
        attempt += 1.0;
        if survival < sum * 1e-18 {
            break;
        }
    }
    sum
}

/// Succeeds at exactly the long-run rate `p`, with far shorter droughts and streaks
/// than independent rolls: the N-th attempt since the last success succeeds with
/// `min(1, C·N)`, and no drought lasts longer than `ceil(1/C)` attempts.
///
/// Outcomes are `0` (`fail`) and `1` (`success`). `C` is solved so that the
/// expected number of attempts per success is `1/p` (see [`prd_constant`]).
///
/// # Example
/// ```
/// use fairdice::randomizer::{Prd, Randomizer};
///
/// let mut crit = Prd::new(0.25)?;
/// assert_eq!(crit.max_attempts(), 12);
/// for _ in 0..3 {
///     crit.observe(0)?; // three misses in a row
/// }
/// assert!((crit.next_distribution()[1] - 4.0 * crit.c()).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Prd {
    p: f64,
    c: f64,
    max_attempts: u64,
    /// For each attempt `N`, the number of 53-bit words `k` with `k·2^−53 < min(1, C·N)`
    /// (so a draw compares integers and decides exactly as the float test would);
    /// empty when `max_attempts` is too large to tabulate.
    thresholds: Vec<u64>,
    /// Failures since the last success.
    failures: u64,
}

impl Prd {
    /// A PRD with nominal chance `p`.
    ///
    /// # Errors
    /// [`PrdError::ProbabilityOutOfRange`] unless `1e-6 <= p <= 1`.
    pub fn new(p: f64) -> Result<Prd, PrdError> {
        let c = prd_constant(p)?;
        // The first attempt count at which C·N reaches 1, as the draw computes it.
        let mut max_attempts = (1.0 / c).ceil().max(1.0) as u64;
        while max_attempts > 1 && c * (max_attempts - 1) as f64 >= 1.0 {
            max_attempts -= 1;
        }
        while c * (max_attempts as f64) < 1.0 {
            max_attempts += 1;
        }
        let mut prd = Prd {
            p,
            c,
            max_attempts,
            thresholds: Vec::new(),
            failures: 0,
        };
        if max_attempts <= MAX_TABULATED {
            // q·2^53 is exact (a power-of-two scaling), and for an integer k,
            // k < x exactly when k < ceil(x).
            let scale = (1u64 << 53) as f64;
            prd.thresholds = (1..=max_attempts)
                .map(|attempt| (prd.success_probability(attempt) * scale).ceil() as u64)
                .collect();
        }
        Ok(prd)
    }

    /// The nominal (long-run) chance of success.
    pub fn p(&self) -> f64 {
        self.p
    }

    /// The constant `C`: the first attempt's chance, and the step per failure.
    pub fn c(&self) -> f64 {
        self.c
    }

    /// The attempt by which success is certain, `ceil(1/C)`.
    pub fn max_attempts(&self) -> u64 {
        self.max_attempts
    }

    /// The expected number of attempts per success, `1/p`.
    pub fn expected_attempts(&self) -> f64 {
        1.0 / self.p
    }

    /// The chance that attempt `n` (1-based, counted since the last success)
    /// succeeds: `min(1, C·n)`.
    pub fn success_probability(&self, attempt: u64) -> f64 {
        (self.c * attempt as f64).min(1.0)
    }

    /// Failures since the last success.
    pub fn failures(&self) -> u64 {
        self.failures
    }

    #[inline]
    fn chance_now(&self) -> f64 {
        self.success_probability(self.failures + 1)
    }
}

impl Randomizer for Prd {
    fn spec(&self) -> String {
        format!("prd(p={})", self.p)
    }

    fn outcomes(&self) -> &[Outcome] {
        &[0, 1]
    }

    /// Outcome 1.
    fn success(&self) -> Option<usize> {
        Some(1)
    }

    fn label(&self, index: usize) -> String {
        match index {
            0 => "fail".into(),
            1 => "success".into(),
            _ => format!("#{index}"),
        }
    }

    fn base_distribution(&self) -> Vec<f64> {
        vec![1.0 - self.p(), self.p()]
    }

    fn next_distribution(&self) -> Vec<f64> {
        let q = self.chance_now();
        vec![1.0 - q, q]
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        // Branch-free: success is random, a branch would often be mispredicted.
        let success = match self.thresholds.get(self.failures as usize) {
            Some(&threshold) => rng.next_u64() >> 11 < threshold,
            None => rng::unit_f64(rng) < self.chance_now(),
        };
        self.failures = if success { 0 } else { self.failures + 1 };
        usize::from(success)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, 2)?;
        if index == 1 {
            self.failures = 0;
        } else if self.chance_now() >= 1.0 {
            return Err(ObserveError::Impossible {
                outcome: "fail".into(),
                reason: format!(
                    "after {} failures in a row attempt {} always succeeds (C = {})",
                    self.failures,
                    self.failures + 1,
                    self.c
                ),
            });
        } else {
            self.failures += 1;
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.failures = 0;
    }
}

impl StateSpace for Prd {
    /// `[failures since the last success]`.
    fn state_key(&self) -> Vec<i64> {
        vec![self.failures as i64]
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, 1)?;
        let most = self.max_attempts - 1;
        if key[0] < 0 || key[0] as u64 > most {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "{} failures in a row, but at most {most} can happen",
                    key[0]
                ),
            });
        }
        self.failures = key[0] as u64;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

/// `prd(p=P in [0.000001, 1])`.
pub(super) const FAMILY: Family = Family {
    name: "prd",
    summary: "pseudo-random distribution: a success with nominal chance `p` grows likelier after each failure",
    usage: "prd(p=P in [0.000001, 1])",
    example: "prd(p=0.25)",
    outcomes: OutcomeKeys::Chance,
    params: &[],
    not_tunable: Some(
        "prd has nothing to tune: its only parameter p is the event's chance itself (analyze it with `fairdice analyze 'prd(p=…)'`)",
    ),
};

/// Builds a `prd` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<Prd, SpecError> {
    Prd::new(args.real("p")?).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    #[test]
    fn constants_match_the_published_table() {
        for (p, c) in [
            (0.05, 0.003801658303553139),
            (0.10, 0.014745844781072676),
            (0.25, 0.084744091852317),
            (0.50, 0.302103025348742),
        ] {
            let solved = prd_constant(p).expect("valid");
            assert!((solved - c).abs() < C_TOLERANCE, "p = {p}: {solved} vs {c}");
        }
        assert_eq!(prd_constant(1.0), Ok(1.0));
    }

    /// The exact long-run rate: the stationary distribution over "failures so far"
    /// weighted by each state's chance of success, from the randomizer itself.
    fn stationary_rate(prd: &Prd) -> f64 {
        let mut state = prd.clone();
        let (mut reach, mut weighted, mut total) = (1.0, 0.0, 0.0);
        for failures in 0..prd.max_attempts() {
            state.restore(&[failures as i64]).expect("reachable");
            let [fail, success] = state.next_distribution()[..] else {
                unreachable!("two outcomes")
            };
            total += reach;
            weighted += reach * success;
            reach *= fail;
        }
        weighted / total
    }

    #[test]
    fn guarantee_long_run_rate_is_exactly_p() {
        for p in [0.01, 0.05, 0.17, 0.25, 0.5, 0.77, 0.99, 1.0] {
            let rate = stationary_rate(&Prd::new(p).expect("valid"));
            assert!((rate - p).abs() < 1e-12, "p = {p}: rate {rate}");
        }
        let tiny = Prd::new(MIN_PROBABILITY).expect("valid");
        assert!((1.0 / expected_attempts(tiny.c()) / MIN_PROBABILITY - 1.0).abs() < 1e-9);
    }

    #[test]
    fn guarantee_no_drought_longer_than_max_attempts() {
        let mut prd = Prd::new(0.25).expect("valid");
        assert_eq!(prd.max_attempts(), 12);
        let mut rng = rng::seeded(4);
        let (mut run, mut longest, mut hits) = (0, 0, 0);
        for _ in 0..100_000 {
            if prd.draw(&mut rng) == 1 {
                hits += 1;
                run = 0;
            } else {
                run += 1;
                longest = longest.max(run);
            }
        }
        assert!(longest < 12, "{longest} failures in a row");
        assert!((f64::from(hits) / 100_000.0 - 0.25).abs() < 0.006, "{hits}");
    }

    #[test]
    fn a_failure_past_the_last_attempt_is_impossible() {
        let mut prd = Prd::new(0.5).expect("valid");
        let c = prd.c();
        let most = prd.max_attempts() - 1;
        for _ in 0..most {
            prd.observe(0).expect("possible");
        }
        assert!(prd.observe(0).is_err());
        assert_eq!(prd.next_distribution(), [0.0, 1.0]);
        assert!(prd.restore(&[most as i64 + 1]).is_err());
        assert!(prd.restore(&[-1]).is_err());
        assert!((c - 0.302103025348742).abs() < 1e-12);
        assert_eq!(prd.label(1), "success");
    }

    #[test]
    fn tabulated_draws_equal_computed_draws() {
        let tabulated = Prd::new(0.17).expect("valid");
        assert_eq!(tabulated.thresholds.len() as u64, tabulated.max_attempts());
        let mut computed = tabulated.clone();
        computed.thresholds.clear();
        assert_eq!(
            draws(&mut tabulated.clone(), 8, 5000),
            draws(&mut computed, 8, 5000)
        );
    }

    #[test]
    fn invalid_probabilities() {
        for bad in [0.0, -0.1, 1.1, 1e-7, f64::NAN] {
            assert!(Prd::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut Prd::new(0.3).expect("valid"), 60, 1);
        assert_distribution_invariants(&mut Prd::new(1.0).expect("valid"), 5, 1);
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut Prd::new(0.25).expect("valid"), 3, 16),
            [1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]
        );
    }
}
