//! [`ContestEstimate`]: a contest estimated by rolling it many times, for contests
//! too large to compute exactly (the exact engine refuses them with their size).
//!
//! Each roll follows the exact semantics: dice in the order written, the first
//! `min(a, b)` paired (after sorting both sides from the highest, for a sorted
//! contest), and tied pairs rerolled — a sorted contest's tied dice as a smaller
//! sorted contest, an unsorted contest's tied pair as that pair — until they differ.
//! Runs are split into chunks with their own generator streams, so the result
//! depends on the seed only, not on the number of threads.

use std::collections::BTreeMap;

use crate::parallel::*;
use num_traits::ToPrimitive;

use super::metrics::ContestResult;
use super::{Contest, ContestError, Pairing, Side, TieRule};
use crate::control::Control;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::sampler::DieSampler;
use crate::rng::{self, Generator};

/// Runs per chunk.
const CHUNK: u64 = 1 << 12;
/// The most dice one estimate may roll (before rerolls): minutes of work.
pub const MAX_ROLLED_DICE: f64 = 1e11;
/// Rounds of rerolled ties after which a roll is given up on (unreachable unless
/// the dice almost never differ).
const MAX_REROLL_ROUNDS: u32 = 1_000_000;

/// A contest estimated from seeded rolls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContestEstimate {
    /// Rolls made.
    pub runs: u64,
    /// The seed.
    pub seed: u64,
    /// The observed net scores, counted, with the measures taken from them.
    pub result: ContestResult,
}

impl ContestEstimate {
    /// The standard error of an estimated probability `p`.
    pub fn probability_error(&self, p: f64) -> f64 {
        (p * (1.0 - p) / self.runs as f64).sqrt()
    }

    /// The standard error of the win bias, in percentage points.
    pub fn win_bias_error(&self) -> f64 {
        let (a, b) = (
            self.p(self.result.p_a_wins()),
            self.p(self.result.p_b_wins()),
        );
        // The win bias is 100 × the mean of sign(net), whose variance is a + b − (a − b)².
        100.0 * ((a + b - (a - b).powi(2)).max(0.0) / self.runs as f64).sqrt()
    }

    /// The standard error of the tie percentage.
    pub fn tie_percent_error(&self) -> f64 {
        100.0 * self.probability_error(self.p(self.result.p_tie()))
    }

    /// The standard error of the closeness `E[net²]^(−1/2)` (delta method).
    pub fn closeness_error(&self) -> f64 {
        let net = self.result.net();
        let total = self.runs as f64;
        let moment = |k: i32| -> f64 {
            net.iter()
                .map(|(o, c)| (o as f64).powi(k) * c.to_f64().unwrap_or(f64::INFINITY))
                .sum::<f64>()
                / total
        };
        let (m2, m4) = (moment(2), moment(4));
        if m2 == 0.0 {
            return 0.0;
        }
        let m2_error = ((m4 - m2 * m2).max(0.0) / total).sqrt();
        0.5 * m2.powf(-1.5) * m2_error
    }

    fn p(&self, ratio: num_rational::BigRational) -> f64 {
        crate::dice::die::ratio_to_f64(&ratio)
    }
}

/// One side's dice in the order written, each with its sampler.
struct SideRoller {
    samplers: Vec<DieSampler>,
    /// `kind[i]`: the sampler of the i-th die written.
    kind: Vec<usize>,
}

impl SideRoller {
    fn new(runs: &[(Die, u32)]) -> Result<SideRoller, DieError> {
        let mut samplers = Vec::with_capacity(runs.len());
        let mut kind = Vec::new();
        for (i, (die, n)) in runs.iter().enumerate() {
            samplers.push(DieSampler::new(die)?);
            kind.extend(std::iter::repeat_n(i, *n as usize));
        }
        Ok(SideRoller { samplers, kind })
    }

    fn roll_into(&self, rng: &mut Generator, out: &mut Vec<Outcome>) {
        out.clear();
        out.extend(self.kind.iter().map(|&k| self.samplers[k].sample(rng)));
    }
}

/// Whether a die of `a` and a die of `b` can show different numbers.
fn can_differ(a: &Die, b: &Die) -> bool {
    a.len() > 1 || b.len() > 1 || a.min_outcome() != b.min_outcome()
}

impl Contest {
    /// Estimates the contest from `runs` seeded rolls, in parallel, reporting the
    /// rolls finished to `control` (stage `rolling`), which can stop it between
    /// chunks.
    ///
    /// # Errors
    /// [`ContestError::MixedReroll`] as for [`evaluate`](Self::evaluate);
    /// [`ContestError::TiesForever`] when rerolled pairs can never differ;
    /// [`ContestError::TooManyRolls`] past [`MAX_ROLLED_DICE`];
    /// [`DieError::Stopped`] once `control` is cancelled.
    pub fn monte_carlo(
        &self,
        runs: u64,
        seed: u64,
        control: &Control,
    ) -> Result<ContestEstimate, ContestError> {
        let runs = runs.max(1);
        let dice = runs as f64 * f64::from(self.size(Side::A) + self.size(Side::B));
        if dice > MAX_ROLLED_DICE {
            return Err(ContestError::TooManyRolls {
                runs,
                dice,
                limit: MAX_ROLLED_DICE,
            });
        }
        self.check_rerolls()?;
        let (a, b) = (
            SideRoller::new(self.dice(Side::A))?,
            SideRoller::new(self.dice(Side::B))?,
        );
        let pairs = self.pairs() as usize;
        let chunks = runs.div_ceil(CHUNK);
        control.stage("rolling", runs);
        let tallies: Vec<BTreeMap<i64, u64>> = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                control.check()?;
                let mut generator = rng::stream(seed, chunk);
                let (mut x, mut y) = (Vec::new(), Vec::new());
                let mut tally = BTreeMap::new();
                let n = CHUNK.min(runs - chunk * CHUNK);
                for _ in 0..n {
                    control.check()?;
                    a.roll_into(&mut generator, &mut x);
                    b.roll_into(&mut generator, &mut y);
                    let net = match self.pairing {
                        Pairing::Sorted => {
                            self.sorted_net(&a, &b, &mut x, &mut y, pairs, &mut generator)?
                        }
                        Pairing::Unsorted => {
                            self.unsorted_net(&a, &b, &x, &y, pairs, &mut generator)?
                        }
                    };
                    *tally.entry(net).or_insert(0) += 1;
                }
                control.advance(n);
                Ok(tally)
            })
            .collect::<Result<_, DieError>>()?;
        let mut tally = BTreeMap::new();
        for t in tallies {
            for (net, count) in t {
                *tally.entry(net).or_insert(0u64) += count;
            }
        }
        Ok(ContestEstimate {
            runs,
            seed,
            result: ContestResult::new(Die::new(tally)?, self.pairs()),
        })
    }

    /// Refuses rerolled ties that could never end.
    fn check_rerolls(&self) -> Result<(), ContestError> {
        if self.ties != TieRule::Reroll {
            return Ok(());
        }
        if self.pairing == Pairing::Sorted {
            for side in [Side::A, Side::B] {
                let kinds = self.dice(side).len();
                if kinds > 1 {
                    return Err(ContestError::MixedReroll(side, kinds));
                }
            }
        }
        let expand = |side: Side| {
            self.dice(side)
                .iter()
                .flat_map(|(die, n)| std::iter::repeat_n(die, *n as usize))
        };
        if expand(Side::A)
            .zip(expand(Side::B))
            .any(|(a, b)| !can_differ(a, b))
        {
            return Err(DieError::RerollsEverything.into());
        }
        Ok(())
    }

    /// The score of one pair that did not tie, or of a tie under a rule that
    /// settles it without rolling.
    fn settle(&self, x: Outcome, y: Outcome) -> Option<i64> {
        match x.cmp(&y) {
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Less => Some(-1),
            std::cmp::Ordering::Equal => match self.ties {
                TieRule::Stand => Some(0),
                TieRule::AWins => Some(1),
                TieRule::BWins => Some(-1),
                TieRule::Reroll => None,
            },
        }
    }

    fn sorted_net(
        &self,
        a: &SideRoller,
        b: &SideRoller,
        x: &mut Vec<Outcome>,
        y: &mut Vec<Outcome>,
        pairs: usize,
        rng: &mut Generator,
    ) -> Result<i64, DieError> {
        let mut net = 0;
        let mut tied = pairs;
        let mut first = true;
        for _ in 0..MAX_REROLL_ROUNDS {
            if !first {
                // The tied dice again: one kind per side (checked).
                x.clear();
                x.extend((0..tied).map(|_| a.samplers[0].sample(rng)));
                y.clear();
                y.extend((0..tied).map(|_| b.samplers[0].sample(rng)));
            }
            first = false;
            x.sort_unstable_by(|p, q| q.cmp(p));
            y.sort_unstable_by(|p, q| q.cmp(p));
            let mut ties = 0;
            for i in 0..tied {
                match self.settle(x[i], y[i]) {
                    Some(score) => net += score,
                    None => ties += 1,
                }
            }
            if ties == 0 {
                return Ok(net);
            }
            tied = ties;
        }
        Err(DieError::RerollsEverything)
    }

    fn unsorted_net(
        &self,
        a: &SideRoller,
        b: &SideRoller,
        x: &[Outcome],
        y: &[Outcome],
        pairs: usize,
        rng: &mut Generator,
    ) -> Result<i64, DieError> {
        let mut net = 0;
        for i in 0..pairs {
            let (mut p, mut q) = (x[i], y[i]);
            let mut rounds = 0;
            loop {
                if let Some(score) = self.settle(p, q) {
                    net += score;
                    break;
                }
                rounds += 1;
                if rounds > MAX_REROLL_ROUNDS {
                    return Err(DieError::RerollsEverything);
                }
                p = a.samplers[a.kind[i]].sample(rng);
                q = b.samplers[b.kind[i]].sample(rng);
            }
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::d;

    fn contest(a: &[(u64, u64)], b: &[(u64, u64)]) -> Contest {
        let side = |s: &[(u64, u64)]| s.iter().map(|&(f, n)| (d(f), n)).collect::<Vec<_>>();
        Contest::from_dice(side(a), side(b)).unwrap()
    }

    /// The estimate agrees with the exact answer within a few standard errors, for
    /// every pairing and tie rule.
    #[test]
    fn estimates_agree_with_the_exact_contest() {
        let rules = [
            TieRule::Stand,
            TieRule::AWins,
            TieRule::BWins,
            TieRule::Reroll,
        ];
        for pairing in [Pairing::Sorted, Pairing::Unsorted] {
            for ties in rules {
                let c = contest(&[(6, 3)], &[(6, 2)]).pairing(pairing).ties(ties);
                let exact = c.evaluate(&Control::new()).unwrap();
                let estimate = c.monte_carlo(40_000, 7, &Control::new()).unwrap();
                let within = |got: f64, want: f64, error: f64| {
                    assert!(
                        (got - want).abs() <= 4.0 * error + 1e-9,
                        "{pairing:?} {ties:?}: {got} vs {want} ± {error}"
                    );
                };
                within(
                    estimate.result.win_bias(),
                    exact.win_bias(),
                    estimate.win_bias_error(),
                );
                within(
                    estimate.result.tie_percent(),
                    exact.tie_percent(),
                    estimate.tie_percent_error(),
                );
                within(
                    estimate.result.closeness(),
                    exact.closeness(),
                    estimate.closeness_error(),
                );
            }
        }
    }

    #[test]
    fn mixed_pools_pair_in_the_order_written_when_unsorted() {
        // d4 then d20 against d20 then d4: two lopsided pairs that cancel out.
        let c = contest(&[(4, 1), (20, 1)], &[(20, 1), (4, 1)]).pairing(Pairing::Unsorted);
        let exact = c.evaluate(&Control::new()).unwrap();
        let estimate = c.monte_carlo(40_000, 3, &Control::new()).unwrap();
        assert!(
            (estimate.result.win_bias() - exact.win_bias()).abs() < 4.0 * estimate.win_bias_error()
        );
        assert_eq!(estimate.runs, 40_000);
        assert_eq!(estimate.result.net().total(), 40_000u32.into());
    }

    #[test]
    fn the_same_seed_gives_the_same_estimate() {
        let c = contest(&[(6, 5)], &[(6, 5)]).ties(TieRule::Reroll);
        assert_eq!(
            c.monte_carlo(10_000, 5, &Control::new()).unwrap(),
            c.monte_carlo(10_000, 5, &Control::new()).unwrap()
        );
    }

    #[test]
    fn impossible_or_runaway_requests_are_refused() {
        let one_sided = contest(&[(1, 2)], &[(1, 2)]).ties(TieRule::Reroll);
        assert!(matches!(
            one_sided.monte_carlo(10, 1, &Control::new()),
            Err(ContestError::TiesForever)
        ));
        let mixed = contest(&[(6, 1), (8, 1)], &[(6, 2)]).ties(TieRule::Reroll);
        assert!(matches!(
            mixed.monte_carlo(10, 1, &Control::new()),
            Err(ContestError::MixedReroll(Side::A, 2))
        ));
        assert!(matches!(
            contest(&[(6, 1000)], &[(6, 1000)]).monte_carlo(1 << 40, 1, &Control::new()),
            Err(ContestError::TooManyRolls { .. })
        ));
    }
}
