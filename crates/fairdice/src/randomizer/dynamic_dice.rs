//! [`DynamicDice`]: dice whose drawn outcome becomes less likely by a decrease factor.

use thiserror::Error;

use super::args::{Args, SpecError};
use super::base::Base;
use super::dice::Dice;
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::sum_tree::SumTree;
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::entropy::ln_count;
use crate::rng::{self, Rng};

/// The most proposals a draw expects before it walks the sum tree instead.
const PROPOSALS_PER_DRAW: u128 = 16;

/// The most outcomes whose weights a draw scans one by one.
const MAX_SCANNED: usize = 16;

/// The largest total base count a scan takes: every weight is at most
/// `count · 2^53`, so the weights of a scanned table sum inside a `u64`.
const MAX_SCANNED_COUNT: u64 = 1 << 10;

/// The most draws an outcome may lead the least drawn outcome by. A lead stops
/// there (a draw or observation beyond it leaves it at the limit), and a restored
/// state with a larger lead is refused: the table of `d^lead` is built up to the
/// largest lead (16 bytes each, 16 MiB at the limit). With `d < 1` a lead that
/// large has weight `d^(2^20)`, nil for any `d` below 0.9993; a plain-dice factor
/// (`d = 1`) reaches it after about 10¹¹ draws.
pub const MAX_LEAD: u64 = 1 << 20;

/// Why dynamic dice could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum DynamicDiceError {
    /// The decrease factor is outside `(0, 1]`.
    #[error("decrease must be in (0, 1] (1 = plain dice, smaller = fairer), got {0}")]
    DecreaseOutOfRange(f64),
}

/// Never gives up on any outcome, yet makes each one less likely every time it is
/// drawn: `P(i) ∝ base_i · d^count_i`, with `d` the decrease factor.
///
/// The dynamic dice of "Making Randomness Fair": after a draw the chosen outcome's
/// probability is multiplied by `d` and all are rescaled to sum to 1. `d = 1` is
/// plain dice; the smaller `d`, the closer to a deck, but no outcome ever becomes
/// impossible. With a uniform base this equals the fair die roller with
/// tightness `−log2 d`.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Base, DynamicDice, Randomizer};
///
/// let mut dice = DynamicDice::new(Base::values(2)?, 0.5)?;
/// dice.observe(0)?;
/// let next = dice.next_distribution();
/// assert!((next[0] - 1.0 / 3.0).abs() < 1e-15); // weights 0.5 : 1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Design decisions
/// A draw costs `O(1)` expected time however many outcomes there are, so long runs
/// and large tables stay cheap. Only the counts above the smallest count matter
/// (`d^c` is rescaled away), so the state is the *lead* `count − min count`, and a
/// weight is `base_i · d^lead` from a table of powers built by repeated
/// multiplication: nothing underflows on long runs, and weights are recomputed,
/// never accumulated, so a restored state continues bit for bit.
///
/// A table of at most 16 outcomes (with integer base counts summing to at most
/// 1,024) keeps the exact integer weights `count_i · ⌈d^lead_i · 2^53⌉`, whose
/// ratios are the probabilities the proposals below draw with: a draw is one
/// bounded integer located among their running sums, without a branch to
/// mispredict. Larger tables draw as follows.
///
/// While a proposal is accepted at least 1 time in 16 (judged from the outcomes
/// at leads 0 and 1), a draw proposes from the base and accepts outcome `i` with
/// probability `d^lead_i` (always at lead 0): exact, at most 16 proposals
/// expected (about 2 in practice), and no tree to update. Otherwise it walks a sum tree of the
/// weights (`O(log n)`), rebuilt from the leads when it went stale. When every
/// outcome has been drawn once more, all leads drop by one (`O(n)`, about once
/// per `n` draws).
#[derive(Debug, Clone)]
pub struct DynamicDice {
    base: Base,
    decrease: f64,
    /// `ln decrease`, for the closed-form entropy.
    ln_decrease: f64,
    /// Times each outcome was drawn, minus the smallest such count.
    leads: Vec<u64>,
    /// How many outcomes have lead 0, and lead 1.
    at_floor: usize,
    at_one: usize,
    /// The integer base weight of the outcomes at lead 0, and of all outcomes
    /// (`0` and `u64::MAX` when the base has no integer weights).
    floor_weight: u64,
    base_weight: u64,
    /// `decrease^k` for `k` up to the largest lead seen.
    powers: Vec<f64>,
    /// `ceil(decrease^k · 2^53)`: a 53-bit random integer below it accepts a
    /// proposal at lead `k` exactly when a uniform `[0, 1)` float below `d^k` would.
    accept: Vec<u64>,
    /// Draws proposals from the base.
    proposal: Dice,
    /// Weights for draws when proposals would be rejected too often.
    tree: SumTree<f64>,
    /// True when `tree` matches `leads`.
    tree_fresh: bool,
    /// Integer weights for small tables.
    scan: Option<Scan>,
}

/// `counts_i · accept[lead_i]` for every outcome, and their sum.
#[derive(Debug, Clone)]
struct Scan {
    counts: Vec<u64>,
    weights: Vec<u64>,
    total: u64,
}

impl Scan {
    /// The first outcome whose running sum of weights exceeds a uniform
    /// integer below the total: the number of running sums at or below it.
    #[inline]
    fn pick<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let target = rng::below(rng, self.total);
        let mut sum = 0;
        let mut index = 0;
        for &weight in &self.weights {
            sum += weight;
            index += usize::from(sum <= target);
        }
        index
    }

    #[inline]
    fn set(&mut self, index: usize, accept: u64) {
        let weight = self.counts[index] * accept;
        self.total = self.total - self.weights[index] + weight;
        self.weights[index] = weight;
    }

    fn set_all(&mut self, leads: &[u64], accept: &[u64]) {
        for ((weight, &count), &lead) in self.weights.iter_mut().zip(&self.counts).zip(leads) {
            *weight = count * accept[lead as usize];
        }
        self.total = self.weights.iter().sum();
    }
}

impl DynamicDice {
    /// Checks a decrease, as [`DynamicDice::new`] does, before any base is built.
    fn check(decrease: f64) -> Result<(), DynamicDiceError> {
        if !(decrease > 0.0 && decrease <= 1.0) {
            return Err(DynamicDiceError::DecreaseOutOfRange(decrease));
        }
        Ok(())
    }

    /// Dynamic dice over `base` with decrease factor `decrease` in `(0, 1]`.
    ///
    /// # Errors
    /// [`DynamicDiceError::DecreaseOutOfRange`] otherwise (NaN included).
    pub fn new(base: Base, decrease: f64) -> Result<DynamicDice, DynamicDiceError> {
        DynamicDice::check(decrease)?;
        let n = base.len();
        let tree = SumTree::new(base.probabilities());
        let scan = base
            .counts()
            .filter(|counts| counts.len() <= MAX_SCANNED)
            .filter(|counts| counts.iter().sum::<u64>() <= MAX_SCANNED_COUNT)
            .map(|counts| Scan {
                counts: counts.to_vec(),
                weights: vec![0; n],
                total: 0,
            });
        let mut dice = DynamicDice {
            proposal: Dice::new(base.clone()),
            base_weight: base.counts().map_or(u64::MAX, |c| c.iter().sum()),
            base,
            decrease,
            ln_decrease: decrease.ln(),
            leads: vec![0; n],
            at_floor: n,
            at_one: 0,
            floor_weight: 0,
            powers: vec![1.0],
            accept: vec![1 << 53],
            tree,
            tree_fresh: true,
            scan,
        };
        dice.lower_leads();
        Ok(dice)
    }

    /// The base distribution.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// The decrease factor `d`.
    pub fn decrease(&self) -> f64 {
        self.decrease
    }

    /// `decrease^lead`, extending the table of powers as needed.
    #[inline]
    fn power(&mut self, lead: u64) -> f64 {
        let lead = lead as usize;
        while self.powers.len() <= lead {
            let power = self.powers[self.powers.len() - 1] * self.decrease;
            self.powers.push(power);
            self.accept
                .push((power * (1u64 << 53) as f64).ceil() as u64);
        }
        self.powers[lead]
    }

    /// True when outcomes at lead 0 hold at least 1/[`PROPOSALS_PER_DRAW`] of the
    /// base weight, so a proposal is accepted at least that often.
    #[inline]
    fn proposals_pay(&self) -> bool {
        if self.base.is_uniform() {
            let n = self.leads.len();
            if self.at_floor as u128 * PROPOSALS_PER_DRAW >= n as u128 {
                return true;
            }
            // Leads 0 and 1 alone accept at least (at_floor + d · at_one) / n.
            let mass = self.at_floor as f64 + self.decrease * self.at_one as f64;
            return mass * PROPOSALS_PER_DRAW as f64 >= n as f64;
        }
        u128::from(self.floor_weight) * PROPOSALS_PER_DRAW >= u128::from(self.base_weight)
    }

    #[inline]
    fn bump(&mut self, index: usize) {
        let lead = self.leads[index];
        // A lead stops at MAX_LEAD, which keeps the table of powers bounded; a
        // lead that stays changes no count below.
        let next = lead + u64::from(lead < MAX_LEAD);
        self.leads[index] = next;
        let power = self.power(next);

        if let Some(scan) = &mut self.scan {
            scan.set(index, self.accept[next as usize]);
        }
        // Whether the outcome left the floor, counted without a branch: it is
        // as random as the draw.
        let left_floor = usize::from(lead == 0);
        self.at_one = self.at_one + left_floor - usize::from(lead == 1);
        self.at_floor -= left_floor;
        if !self.base.is_uniform() {
            let count = self.base.counts().map_or(0, |c| c[index]);
            self.floor_weight -= count * left_floor as u64;
        }
        if self.at_floor == 0 {
            self.drop_floor();
            return;
        }
        if self.tree_fresh {
            self.tree
                .set(index, self.base.probabilities()[index] * power);
        }
    }

    /// Every lead is at least 1: subtracts 1 from all (one pass; the table of
    /// powers already covers every lead). The tree goes stale.
    fn drop_floor(&mut self) {
        let (mut at_floor, mut at_one) = (0, 0);
        for lead in &mut self.leads {
            *lead -= 1;
            at_floor += usize::from(*lead == 0);
            at_one += usize::from(*lead == 1);
        }
        self.at_floor = at_floor;
        self.at_one = at_one;
        self.floor_weight = match self.base.counts() {
            Some(_) if self.base.is_uniform() => at_floor as u64,
            Some(counts) => self
                .leads
                .iter()
                .zip(counts)
                .filter(|(l, _)| **l == 0)
                .map(|(_, c)| c)
                .sum(),
            None => 0,
        };
        self.tree_fresh = false;
        if let Some(scan) = &mut self.scan {
            scan.set_all(&self.leads, &self.accept);
        }
    }

    /// Subtracts the smallest lead from all; the tree goes stale.
    #[cold]
    fn lower_leads(&mut self) {
        let floor = self.leads.iter().copied().min().unwrap_or(0);
        let counts = self.base.counts();
        let (mut at_floor, mut floor_weight) = (0, 0);
        for (i, lead) in self.leads.iter_mut().enumerate() {
            *lead -= floor;
            if *lead == 0 {
                at_floor += 1;
                floor_weight += counts.map_or(0, |c| c[i]);
            }
        }
        self.at_floor = at_floor;
        self.at_one = self.leads.iter().filter(|&&lead| lead == 1).count();
        self.floor_weight = floor_weight;
        self.tree_fresh = false;
        let top = self.leads.iter().copied().max().unwrap_or(0);
        self.power(top);
        if let Some(scan) = &mut self.scan {
            scan.set_all(&self.leads, &self.accept);
        }
    }

    /// The weight of each outcome, `base_i · d^lead_i`.
    fn weights(&self) -> impl Iterator<Item = f64> + '_ {
        self.leads
            .iter()
            .zip(self.base.probabilities())
            .map(|(&lead, &p)| p * self.powers[lead as usize])
    }

    fn refresh_tree(&mut self) {
        let top = self.leads.iter().copied().max().unwrap_or(0);
        self.power(top);
        let (leads, powers, base) = (&self.leads, &self.powers, self.base.probabilities());
        self.tree
            .update_all(|i, _| base[i] * powers[leads[i] as usize]);
        self.tree_fresh = true;
    }
}

/// Equal when the parameters and the leads are equal (caches aside).
impl PartialEq for DynamicDice {
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base && self.decrease == other.decrease && self.leads == other.leads
    }
}

impl Randomizer for DynamicDice {
    fn spec(&self) -> String {
        format!("dynamic({}, decrease={})", self.base.spec(), self.decrease)
    }

    fn outcomes(&self) -> &[Outcome] {
        self.base.outcomes()
    }

    fn base_distribution(&self) -> Vec<f64> {
        self.base().probabilities().to_vec()
    }

    fn next_distribution(&self) -> Vec<f64> {
        let total: f64 = self.weights().sum();
        self.weights().map(|w| w / total).collect()
    }

    /// With a uniform base the weights are `d^lead_i` over `W = Σ d^lead_j`, so
    /// `H = ln W − ln d · Σ q_i · lead_i`: two logarithms instead of one per
    /// outcome. A weighted base's weights `w_i = p_i · d^lead_i` give
    /// `H = ln W − Σ w_i (ln p_i + lead_i ln d) / W`, with the `ln p_i` kept by
    /// the base.
    fn next_entropy_fraction(&self) -> f64 {
        let n = self.leads.len();
        if n <= 1 || self.decrease <= 0.0 {
            return crate::entropy::entropy_fraction(&self.next_distribution());
        }
        if !self.base.is_uniform() {
            let ln_d = self.ln_decrease;
            let (mut total, mut sum) = (0.0, 0.0);
            let logs = self.base.log_probabilities();
            for ((&lead, &p), &ln_p) in self.leads.iter().zip(self.base.probabilities()).zip(logs) {
                let w = p * self.powers[lead as usize];
                if w > 0.0 {
                    total += w;
                    sum += w * (ln_p + lead as f64 * ln_d);
                }
            }
            let nats = total.ln() - sum / total;
            return (nats / ln_count(n as u64)).clamp(0.0, 1.0);
        }
        let (mut total, mut weighted_leads) = (0.0, 0.0);
        for &lead in &self.leads {
            let w = self.powers[lead as usize];
            total += w;
            weighted_leads += w * lead as f64;
        }
        let nats = total.ln() - self.ln_decrease * weighted_leads / total;
        (nats / ln_count(n as u64)).clamp(0.0, 1.0)
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let index = if let Some(scan) = &self.scan {
            scan.pick(rng)
        } else if self.proposals_pay() {
            self.tree_fresh = false;
            loop {
                let index = if self.base.is_uniform() {
                    rng::below(rng, self.leads.len() as u64) as usize
                } else {
                    self.proposal.draw(rng)
                };
                let lead = self.leads[index] as usize;
                if lead == 0 || rng.next_u64() >> 11 < self.accept[lead] {
                    break index;
                }
            }
        } else {
            if !self.tree_fresh {
                self.refresh_tree();
            }
            self.tree.find(rng::unit_f64(rng) * self.tree.total())
        };
        self.bump(index);
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.base.len())?;
        self.bump(index);
        Ok(())
    }

    fn reset(&mut self) {
        self.leads.fill(0);
        self.lower_leads();
    }
}

impl StateSpace for DynamicDice {
    /// How many more times each outcome was drawn than the least drawn outcome.
    fn state_key(&self) -> Vec<i64> {
        self.leads.iter().map(|&l| l as i64).collect()
    }

    /// Accepts non-negative counts whose differences are at most [`MAX_LEAD`]
    /// (only the differences matter).
    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.base.len())?;
        if let Some(position) = key.iter().position(|&k| k < 0) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "times drawn cannot be negative, but entry {position} is {}",
                    key[position]
                ),
            });
        }
        let floor = key.iter().copied().min().unwrap_or(0);
        if let Some(position) = key.iter().position(|&k| (k - floor) as u64 > MAX_LEAD) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "entry {position} ({}) leads the least drawn outcome by {} draws; accepted: a lead of 0..={MAX_LEAD}",
                    self.label(position),
                    key[position] - floor
                ),
            });
        }
        self.leads = key.iter().map(|&k| k as u64).collect();
        self.lower_leads();
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        self.base.is_uniform()
    }
}

/// `dynamic(values=N | base=EXPR, decrease=D in (0, 1])`.
pub(super) const FAMILY: Family = Family {
    name: "dynamic",
    summary: "dynamic dice: a drawn outcome's chance is multiplied by `decrease`",
    usage: "dynamic(values=N | base=EXPR, decrease=D in (0, 1])",
    example: "dynamic(values=6, decrease=0.355)",
    outcomes: OutcomeKeys::ValuesOrBase,
    params: &[Param {
        key: "decrease",
        kind: ParamKind::Real,
        default: None,
        doc: "the factor a drawn outcome's chance is multiplied by",
        tune: Some("0.005..0.995 step 0.01"),
    }],
    not_tunable: None,
};

/// Builds a `dynamic` randomizer from its spec's checked arguments.
// The decrease is checked before the base, which may take a while to build.
pub(super) fn build(args: &Args<'_>) -> Result<DynamicDice, SpecError> {
    let decrease = args.real("decrease")?;
    DynamicDice::check(decrease).map_err(|e| args.invalid(&e))?;
    DynamicDice::new(args.base()?, decrease).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    fn dynamic(values: u64, decrease: f64) -> DynamicDice {
        DynamicDice::new(Base::values(values).expect("valid"), decrease).expect("valid")
    }

    #[test]
    fn guarantee_probability_is_base_times_decrease_to_the_count() {
        let mut dice =
            DynamicDice::new(Base::expression("2d6").expect("valid"), 0.355).expect("valid");
        let history = [5, 5, 0, 7, 5, 10];
        for &index in &history {
            dice.observe(index).expect("always possible");
        }
        let base = dice.base().probabilities().to_vec();
        let weights: Vec<f64> = (0..11)
            .map(|i| base[i] * 0.355f64.powi(history.iter().filter(|&&h| h == i).count() as i32))
            .collect();
        let total: f64 = weights.iter().sum();
        for (got, w) in dice.next_distribution().iter().zip(&weights) {
            assert!((got - w / total).abs() < 1e-14);
        }
    }

    #[test]
    fn long_run_with_a_small_factor_stays_exact() {
        let mut dice = dynamic(6, 0.01);
        let mut rng = rng::seeded(2024);
        let mut counts = [0i64; 6];
        for _ in 0..1_000_000 {
            counts[dice.draw(&mut rng)] += 1;
        }
        let (min, max) = (counts.iter().min().copied(), counts.iter().max().copied());
        // With d = 0.01 a second lead is 100 times less likely than catching up.
        assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 3), "{counts:?}");
        let expected: Vec<f64> = counts
            .iter()
            .map(|&c| 0.01f64.powi((c - min.unwrap_or(0)) as i32))
            .collect();
        let total: f64 = expected.iter().sum();
        for (got, w) in dice.next_distribution().iter().zip(&expected) {
            assert!((got - w / total).abs() < 1e-12, "{got} vs {}", w / total);
        }
        assert!(dice.state_key().iter().all(|&k| k <= 3));
    }

    #[test]
    fn every_draw_path_follows_the_distribution() {
        use crate::randomizer::testing::assert_draws_follow_distribution;
        // Small tables scan their integer weights.
        let mut small = dynamic(6, 0.3);
        assert!(small.scan.is_some());
        small.restore(&[0, 2, 1, 3, 0, 1]).expect("non-negative");
        let scan = small.scan.as_ref().expect("scanned");
        for (&weight, p) in scan.weights.iter().zip(small.next_distribution()) {
            let drawn = weight as f64 / scan.total as f64;
            assert!((drawn - p).abs() < 1e-15, "{drawn} vs {p}");
        }
        assert_draws_follow_distribution(&small, 4000);
        let mut two_d6 =
            DynamicDice::new(Base::expression("2d6").expect("valid"), 0.5).expect("valid");
        assert!(two_d6.scan.is_some());
        two_d6
            .restore(&[0, 1, 0, 2, 1, 0, 3, 0, 1, 0, 0])
            .expect("non-negative");
        assert_draws_follow_distribution(&two_d6, 4000);
        // Larger ones propose, or walk the tree.
        let mut dice = dynamic(40, 0.3);
        assert!(dice.scan.is_none());
        // One outcome at the floor, the rest far ahead: proposals would mostly
        // fail, so the sum tree draws.
        let mut leads = vec![3; 40];
        leads[7] = 0;
        leads[8] = 2;
        dice.restore(&leads).expect("non-negative");
        assert!(!dice.proposals_pay());
        assert_draws_follow_distribution(&dice, 4000);
        dice.restore(&[0; 40]).expect("non-negative");
        assert!(dice.proposals_pay());
        assert_draws_follow_distribution(&dice, 4000);
    }

    #[test]
    fn factor_one_is_plain_dice() {
        let mut dice = dynamic(4, 1.0);
        for index in [0, 0, 0, 2] {
            dice.observe(index).expect("possible");
        }
        assert_eq!(dice.next_distribution(), [0.25; 4]);
    }

    #[test]
    fn invalid_factors() {
        for bad in [0.0, -0.5, 1.5, f64::NAN] {
            assert!(DynamicDice::new(Base::values(6).expect("valid"), bad).is_err());
        }
        let error = DynamicDice::new(Base::values(6).expect("valid"), 0.0).expect_err("invalid");
        assert!(error.to_string().contains("(0, 1]"));
    }

    #[test]
    fn restore_normalizes_and_rejects_negatives() {
        let mut dice = dynamic(3, 0.5);
        dice.restore(&[3, 4, 5]).expect("non-negative");
        assert_eq!(dice.state_key(), [0, 1, 2]);
        assert!(dice.restore(&[0, -1, 0]).is_err());
        assert!(dice.restore(&[0, 0]).is_err());
        assert_eq!(dice.spec(), "dynamic(values=3, decrease=0.5)");
    }

    #[test]
    fn leads_are_bounded() {
        let mut dice = dynamic(3, 0.999_999);
        let error = dice
            .restore(&[5, 5 + MAX_LEAD as i64 + 1, 5])
            .expect_err("too far ahead");
        let message = error.to_string();
        assert!(message.contains("entry 1 (2)"), "{message}");
        assert!(message.contains("0..=1048576"), "{message}");
        assert!(dice.restore(&[0, i64::MAX, 0]).is_err());
        assert_eq!(
            dice.state_key(),
            [0, 0, 0],
            "a refused state changes nothing"
        );
        dice.restore(&[7, 7 + MAX_LEAD as i64, 7])
            .expect("at the limit");
        assert_eq!(dice.state_key(), [0, MAX_LEAD as i64, 0]);
        // The lead stops at the limit, and the other counts still move.
        dice.observe(1).expect("always possible");
        dice.draw(&mut rng::seeded(1));
        assert_eq!(dice.state_key()[1], MAX_LEAD as i64);
        assert_distribution_invariants(&mut dice, 5, 4);
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut dynamic(6, 0.355), 60, 1);
        let mut weighted =
            DynamicDice::new(Base::expression("2d6").expect("valid"), 0.2).expect("valid");
        assert_distribution_invariants(&mut weighted, 60, 2);
        assert_distribution_invariants(&mut dynamic(1, 0.5), 5, 3);
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut dynamic(6, 0.355), 3, 12),
            [0, 4, 5, 4, 3, 0, 1, 2, 3, 0, 3, 1]
        );
        assert_eq!(
            draws(&mut dynamic(100, 0.5), 3, 8),
            [5, 64, 86, 84, 62, 11, 18, 2]
        );
    }
}
