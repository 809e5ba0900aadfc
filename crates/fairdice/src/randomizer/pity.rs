//! [`Pity`]: bad-luck protection as gacha and loot systems use it — a base chance
//! per attempt, soft pity that raises it after some misses, and a hard cap that
//! guarantees a hit.

use thiserror::Error;

use super::args::{Args, SpecError};
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// The largest hard cap accepted (attempts until a guaranteed hit).
pub const MAX_CAP: u64 = 1_000_000;

/// Why a pity system could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum PityError {
    /// The base chance is outside `(0, 1]`.
    #[error("p must be in (0, 1] (the base chance of a hit), got {0}")]
    Probability(f64),
    /// The hard cap is outside `1..=MAX_CAP`.
    #[error("cap must be 1 to {max} attempts (a hit is certain at attempt `cap`), got {0}", max = MAX_CAP)]
    Cap(u64),
    /// Soft pity starts after the cap.
    #[error("soft must be 1 to cap ({cap}) (the first attempt whose chance rises), got {soft}")]
    Soft {
        /// The soft pity start.
        soft: u64,
        /// The hard cap.
        cap: u64,
    },
    /// The rise is negative or not a number.
    #[error("rise must be 0 to 1 (added to the chance per attempt from `soft` on), got {0}")]
    Rise(f64),
}

/// Guarantees a hit by attempt `cap` since the last one: attempt `n` (counted from
/// 1 after each hit) hits with `p` before `soft`, with `min(1, p + rise·(n − soft
/// + 1))` from `soft` on, and with certainty at `cap`.
///
/// Outcomes are `0` (`miss`) and `1` (`hit`). Without soft pity (`soft = cap`,
/// the default) the expected attempts per hit are `Σ_{k<cap} (1 − p)^k`.
///
/// # Example
/// A limited banner's five-star: 0.6% a pull, rising 6 points a pull from pull 74,
/// certain at pull 90.
/// ```
/// use fairdice::randomizer::{Pity, Randomizer};
///
/// let banner = Pity::new(0.006, 74, 0.06, 90)?;
/// assert!((banner.expected_attempts() - 62.297).abs() < 1e-3);
/// assert!((banner.effective_rate() - 0.01605).abs() < 1e-5);
/// assert!((banner.more_than(73) - 0.6445).abs() < 1e-4); // no hit before soft pity
/// assert_eq!(banner.more_than(90), 0.0); // certain by pull 90
/// # Ok::<(), fairdice::randomizer::PityError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Pity {
    p: f64,
    soft: u64,
    rise: f64,
    cap: u64,
    /// Misses since the last hit.
    misses: u64,
}

impl Pity {
    /// A pity system with base chance `p`, soft pity from attempt `soft` rising by
    /// `rise` a attempt, and a hit certain at attempt `cap`.
    ///
    /// # Errors
    /// [`PityError`] naming the parameter out of range.
    pub fn new(p: f64, soft: u64, rise: f64, cap: u64) -> Result<Pity, PityError> {
        if !(p > 0.0 && p <= 1.0) {
            return Err(PityError::Probability(p));
        }
        if cap == 0 || cap > MAX_CAP {
            return Err(PityError::Cap(cap));
        }
        if soft == 0 || soft > cap {
            return Err(PityError::Soft { soft, cap });
        }
        if !(0.0..=1.0).contains(&rise) {
            return Err(PityError::Rise(rise));
        }
        Ok(Pity {
            p,
            soft,
            rise,
            cap,
            misses: 0,
        })
    }

    /// The base chance of a hit.
    pub fn p(&self) -> f64 {
        self.p
    }

    /// The attempt by which a hit is certain.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// The chance that attempt `n` (1-based, counted since the last hit) hits.
    pub fn hit_probability(&self, attempt: u64) -> f64 {
        if attempt >= self.cap {
            1.0
        } else if attempt >= self.soft {
            (self.p + self.rise * (attempt - self.soft + 1) as f64).min(1.0)
        } else {
            self.p
        }
    }

    /// P(more than `n` attempts are needed for a hit): `Π_{j≤n} (1 − q_j)`.
    pub fn more_than(&self, attempts: u64) -> f64 {
        (1..=attempts.min(self.cap))
            .fold(1.0, |survive, j| survive * (1.0 - self.hit_probability(j)))
    }

    /// The expected attempts per hit, `Σ_{k<cap} P(more than k attempts)`.
    pub fn expected_attempts(&self) -> f64 {
        let mut survive = 1.0;
        let mut sum = 0.0;
        for k in 0..self.cap {
            sum += survive;
            survive *= 1.0 - self.hit_probability(k + 1);
            if survive == 0.0 {
                break;
            }
        }
        sum
    }

    /// The long-run hits per attempt, `1 / expected_attempts`.
    pub fn effective_rate(&self) -> f64 {
        1.0 / self.expected_attempts()
    }

    fn chance_now(&self) -> f64 {
        self.hit_probability(self.misses + 1)
    }
}

impl Randomizer for Pity {
    fn spec(&self) -> String {
        format!(
            "pity(p={}, soft={}, rise={}, cap={})",
            self.p, self.soft, self.rise, self.cap
        )
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
            0 => "miss".into(),
            1 => "hit".into(),
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

    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let hit = rng::unit_f64(rng) < self.chance_now();
        self.misses = if hit { 0 } else { self.misses + 1 };
        usize::from(hit)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, 2)?;
        if index == 1 {
            self.misses = 0;
        } else if self.chance_now() >= 1.0 {
            return Err(ObserveError::Impossible {
                outcome: "miss".into(),
                reason: format!(
                    "after {} misses in a row attempt {} always hits",
                    self.misses,
                    self.misses + 1
                ),
            });
        } else {
            self.misses += 1;
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.misses = 0;
    }
}

impl StateSpace for Pity {
    /// `[misses since the last hit]`.
    fn state_key(&self) -> Vec<i64> {
        vec![self.misses as i64]
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, 1)?;
        let most = (1..=self.cap)
            .find(|&n| self.hit_probability(n) >= 1.0)
            .unwrap_or(self.cap)
            - 1;
        if key[0] < 0 || key[0] as u64 > most {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!("{} misses in a row, but at most {most} can happen", key[0]),
            });
        }
        self.misses = key[0] as u64;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

/// `pity(p=P, soft=S, rise=R, cap=N)`.
pub(super) const FAMILY: Family = Family {
    name: "pity",
    summary: "bad-luck protection: a hit with chance `p`, rising by `rise` an attempt from attempt `soft`, certain at attempt `cap`",
    usage: "pity(p=P in (0, 1], soft=S, rise=R in [0, 1], cap=N in 1..=1000000)",
    example: "pity(p=0.006, soft=74, rise=0.06, cap=90)",
    outcomes: OutcomeKeys::Chance,
    params: &[
        Param {
            key: "soft",
            kind: ParamKind::Count,
            default: None,
            doc: "the first attempt whose chance rises (default: cap, no soft pity)",
            tune: None,
        },
        Param {
            key: "rise",
            kind: ParamKind::Real,
            default: Some("0"),
            doc: "added to the chance each attempt from `soft` on",
            tune: None,
        },
        Param {
            key: "cap",
            kind: ParamKind::Count,
            default: None,
            doc: "the attempt by which a hit is certain (hard pity)",
            tune: None,
        },
    ],
    not_tunable: Some(
        "pity has nothing to tune for fairness: its parameters are the game's drop design (analyze it with `fairdice analyze 'pity(…)'`)",
    ),
};

/// Builds a `pity` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<Pity, SpecError> {
    let cap = args.number("cap", 0)?;
    if !args.has("cap") {
        return Err(args.missing("cap= is required (the attempt by which a hit is certain)"));
    }
    let soft = args.number("soft", cap)?;
    let rise = args.parsed::<f64>("rise")?.unwrap_or(0.0);
    Pity::new(args.real("p")?, soft, rise, cap).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    #[test]
    fn guarantee_expected_attempts_without_soft_pity() {
        // Derived independently: Σ_{k=0}^{N−1} (1−p)^k = (1 − (1−p)^N) / p.
        for (p, cap) in [(0.1, 10), (0.006, 90), (0.5, 1), (0.25, 7), (1.0, 5)] {
            let pity = Pity::new(p, cap, 0.0, cap).expect("valid");
            let closed = (1.0 - (1.0f64 - p).powi(cap as i32)) / p;
            assert!(
                (pity.expected_attempts() - closed).abs() < 1e-12,
                "p={p} N={cap}"
            );
            for k in 0..cap {
                let want = (1.0f64 - p).powi(k as i32);
                assert!((pity.more_than(k) - want).abs() < 1e-15, "P(> {k})");
            }
            assert_eq!(pity.more_than(cap), 0.0);
        }
    }

    #[test]
    fn guarantee_no_drought_reaches_the_cap() {
        let mut pity = Pity::new(0.05, 15, 0.1, 20).expect("valid");
        let mut rng = rng::seeded(3);
        let (mut run, mut longest, mut hits) = (0u64, 0, 0u64);
        let draws = 200_000u64;
        for _ in 0..draws {
            if pity.draw(&mut rng) == 1 {
                hits += 1;
                run = 0;
            } else {
                run += 1;
                longest = longest.max(run);
            }
        }
        assert!(longest < 20, "{longest} misses in a row");
        let rate = hits as f64 / draws as f64;
        assert!((rate - pity.effective_rate()).abs() < 0.003, "{rate}");
    }

    #[test]
    fn soft_pity_matches_the_chain_of_its_next_distributions() {
        // E[attempts] from the randomizer's own next-sample distributions.
        let pity = Pity::new(0.006, 74, 0.06, 90).expect("valid");
        let mut state = pity.clone();
        let (mut survive, mut sum) = (1.0, 0.0);
        for misses in 0..90 {
            if state.restore(&[misses]).is_err() {
                break;
            }
            sum += survive;
            survive *= state.next_distribution()[0];
        }
        assert!((pity.expected_attempts() - sum).abs() < 1e-12);
        assert_eq!(pity.hit_probability(74), 0.066);
        assert!(Pity::new(0.006, 74, 0.06, 90).expect("valid").more_than(89) > 0.0);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert_eq!(Pity::new(0.0, 1, 0.0, 5), Err(PityError::Probability(0.0)));
        assert_eq!(Pity::new(0.1, 1, 0.0, 0), Err(PityError::Cap(0)));
        assert_eq!(
            Pity::new(0.1, 6, 0.0, 5),
            Err(PityError::Soft { soft: 6, cap: 5 })
        );
        assert_eq!(Pity::new(0.1, 2, -0.5, 5), Err(PityError::Rise(-0.5)));
        assert!(Pity::new(f64::NAN, 1, 0.0, 5).is_err());
    }

    #[test]
    fn built_from_its_spec() {
        let built = crate::randomizer::Spec::build("pity(p=0.1, cap=10)").expect("valid");
        assert_eq!(built.spec(), "pity(p=0.1, soft=10, rise=0, cap=10)");
        assert!(crate::randomizer::Spec::build("pity(p=0.1)").is_err());
        assert!(crate::randomizer::Spec::build("pity(p=0.1, cap=5, soft=9)").is_err());
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut Pity::new(0.3, 3, 0.2, 6).expect("valid"), 60, 1);
        assert_distribution_invariants(&mut Pity::new(1.0, 1, 0.0, 1).expect("valid"), 5, 1);
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut Pity::new(0.25, 3, 0.25, 5).expect("valid"), 3, 16),
            [1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0]
        );
    }
}
