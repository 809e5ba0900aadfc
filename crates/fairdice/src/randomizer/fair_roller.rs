//! [`FairRoller`]: the fair die roller, pulling outcome counts toward their
//! expected counts with a tightness.

use thiserror::Error;

use super::args::{Args, SpecError};
use super::base::Base;
use super::dynamic_dice::DynamicDice;
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::portable_math::exp2;
use super::{
    MAX_DRAWS, ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len,
};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// The largest tightness accepted; beyond it every weight but the most behind
/// outcome's underflows, and the roller is a deck in all but name.
pub const MAX_TIGHTNESS: f64 = 1000.0;

/// The most seats a roller keeps separate histories for (a game's players).
pub const MAX_SEATS: usize = 16;

/// Why a fair die roller could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum FairRollerError {
    /// The tightness is negative, not finite or above [`MAX_TIGHTNESS`].
    #[error("tightness must be in [0, 1000] (0 = plain dice, 1 halves a repeat's odds), got {0}")]
    TightnessOutOfRange(f64),
    /// Seats outside `1..=MAX_SEATS`.
    #[error("seats must be in 1..=16 (players taking turns, each with their own history), got {0}")]
    SeatsOutOfRange(u64),
}

/// Keeps every outcome's count close to what its base probability predicts, even
/// over a few rolls: `P_i ∝ Po_i · 2^(−k · error_i)` with
/// `error_i = count_i − Po_i · rolls` and `k` the tightness.
///
/// The fair die roller: before each roll the base table `Po` is reweighted by how
/// far each outcome is ahead of (or behind) its expected count, then renormalized.
/// `k = 0` is plain dice, large `k` approaches drawing from a hat; with a uniform
/// base it equals [`DynamicDice`] with `d = 2^(−k)`. No outcome ever becomes
/// impossible.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Base, FairRoller, Randomizer};
///
/// let mut roller = FairRoller::new(Base::expression("2d6")?, 1.0)?;
/// for index in [0, 2, 5, 5] {
///     roller.observe(index)?; // rolled 2, 4, 7, 7
/// }
/// let next = roller.next_distribution();
/// assert!((next[5] - 0.05965).abs() < 5e-6); // P(7)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Design decisions
/// With a uniform base the roller *is* dynamic dice with `d = 2^(−k)`, and runs as
/// one (`O(log n)` per roll). With a weighted base every roll changes every error,
/// so each roll recomputes all `n` weights (`O(n)`). With integer base weights
/// `w_i` summing to `T`, `−k · error_i = (k/T) · m_i` for the exact integer
/// `m_i = w_i · rolls − count_i · T`, so each weight is `Po_i · q^(max m − m_i)` with
/// `q = 2^(−k/T)`: powers of one number, built by multiplication from a portable
/// `2^x`. Weights are thus a pure, platform-independent function of the counts:
/// seeded rolls repeat everywhere, and a restored state continues bit for bit.
///
/// **Per seat** ([`FairRoller::per_seat`], `seats=N` in a spec): players who take
/// turns each get their own history, so the roll on turn `t` is held to what
/// *its roller* has received (seat `t mod N`), and no player can be starved of a
/// number the others have had. The state is every seat's counts, then whose
/// turn it is.
#[derive(Debug, Clone, PartialEq)]
pub struct FairRoller {
    base: Base,
    tightness: f64,
    /// One engine per seat.
    engines: Vec<Engine>,
    /// The seat whose turn it is.
    turn: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum Engine {
    /// A uniform base: dynamic dice with `d = 2^(−k)`.
    Uniform(Box<DynamicDice>),
    /// A weighted base: every weight recomputed per roll.
    Weighted(Weighted),
}

#[derive(Debug, Clone, PartialEq)]
struct Weighted {
    counts: Vec<u64>,
    rolls: u64,
    /// The next roll's weights (largest exponent scaled to 0) and their sum.
    weights: Vec<f64>,
    total: f64,
    /// Exact exponents, when the base has integer weights.
    lattice: Option<Lattice>,
}

/// `Po_i · q^(max m − m_i)` bookkeeping (see the type's design decisions).
#[derive(Debug, Clone, PartialEq)]
struct Lattice {
    base_weights: Vec<u64>,
    base_total: u64,
    /// `m_i = w_i · rolls − count_i · T`.
    m: Vec<i128>,
    /// `q^e` for `e < SMALL_POWERS`, by repeated multiplication.
    powers: Vec<f64>,
    /// `q^(2^j)` by repeated squaring, for larger `e`.
    squares: Vec<f64>,
}

const SMALL_POWERS: usize = 1024;

impl Lattice {
    fn new(base_weights: &[u64], tightness: f64) -> Lattice {
        let base_total: u64 = base_weights.iter().sum();
        let q = exp2(-tightness / base_total as f64);
        let mut powers = Vec::with_capacity(SMALL_POWERS);
        let mut square = 1.0;
        for _ in 0..SMALL_POWERS {
            powers.push(square);
            square *= q;
        }
        let mut squares = Vec::with_capacity(128);
        let mut square = q;
        for _ in 0..128 {
            squares.push(square);
            square *= square;
        }
        Lattice {
            base_weights: base_weights.to_vec(),
            base_total,
            m: vec![0; base_weights.len()],
            powers,
            squares,
        }
    }

    /// `q^e`.
    #[inline]
    fn power(&self, e: u128) -> f64 {
        if let Some(&p) = self
            .powers
            .get(e as usize)
            .filter(|_| e < SMALL_POWERS as u128)
        {
            return p;
        }
        let mut result = 1.0;
        for (bit, &square) in self.squares.iter().enumerate() {
            if e >> bit & 1 == 1 {
                result *= square;
            }
        }
        result
    }

    /// Recomputes `m` from counts; false if a product overflows.
    fn set_counts(&mut self, counts: &[u64], rolls: u64) -> bool {
        for (i, m) in self.m.iter_mut().enumerate() {
            let expected = i128::from(self.base_weights[i]).checked_mul(i128::from(rolls));
            let scaled = i128::from(counts[i]).checked_mul(i128::from(self.base_total));
            match expected.zip(scaled) {
                Some((e, s)) => *m = e - s,
                None => return false,
            }
        }
        true
    }
}

impl Weighted {
    fn new(base: &Base, tightness: f64) -> Weighted {
        let n = base.len();
        let mut weighted = Weighted {
            counts: vec![0; n],
            rolls: 0,
            weights: vec![0.0; n],
            total: 0.0,
            lattice: base.counts().map(|c| Lattice::new(c, tightness)),
        };
        weighted.reweigh(base, tightness);
        weighted
    }

    /// Recomputes the weights from `m` (or, without integer base weights, from the
    /// float errors).
    fn reweigh(&mut self, base: &Base, tightness: f64) {
        let probabilities = base.probabilities();
        let mut total = 0.0;
        if let Some(lattice) = &self.lattice {
            let top = lattice.m.iter().copied().max().unwrap_or(0);
            for ((weight, &m), &p) in self.weights.iter_mut().zip(&lattice.m).zip(probabilities) {
                *weight = p * lattice.power((top - m) as u128);
                total += *weight;
            }
        } else {
            let mut top = f64::NEG_INFINITY;
            for (i, weight) in self.weights.iter_mut().enumerate() {
                let error = self.counts[i] as f64 - probabilities[i] * self.rolls as f64;
                *weight = -tightness * error;
                top = top.max(*weight);
            }
            for (weight, &p) in self.weights.iter_mut().zip(probabilities) {
                *weight = p * exp2(*weight - top);
                total += *weight;
            }
        }
        self.total = total;
    }

    /// Back to no rolls, as [`Weighted::new`] leaves it, keeping the lattice's
    /// tables of powers (a Monte Carlo run resets the roller every match).
    fn reset(&mut self, base: &Base, tightness: f64) {
        self.counts.fill(0);
        self.rolls = 0;
        match (&mut self.lattice, base.counts()) {
            (Some(lattice), _) => lattice.m.fill(0),
            // Dropped after astronomically many rolls: built again.
            (None, Some(counts)) => self.lattice = Some(Lattice::new(counts, tightness)),
            (None, None) => {}
        }
        self.reweigh(base, tightness);
    }

    /// The next roll's entropy in nats without a logarithm per outcome: each
    /// weight is `p_i` times a power whose exponent the roller knows
    /// (`w_i = p_i · q^(top − m_i)` on the lattice, `p_i · 2^(e_i − top)` in
    /// floats), so `ln w_i = ln p_i + exponent · ln base` and
    /// `H = ln W − Σ w_i ln w_i / W`.
    fn entropy_nats(&self, base: &Base, tightness: f64) -> f64 {
        let logs = base.log_probabilities();
        let mut sum = 0.0;
        if let Some(lattice) = &self.lattice {
            let top = lattice.m.iter().copied().max().unwrap_or(0);
            let ln_q = -tightness / lattice.base_total as f64 * std::f64::consts::LN_2;
            for ((&w, &m), &ln_p) in self.weights.iter().zip(&lattice.m).zip(logs) {
                if w > 0.0 {
                    sum += w * (ln_p + (top - m) as f64 * ln_q);
                }
            }
        } else {
            let probabilities = base.probabilities();
            let exponent = |i: usize| {
                -tightness * (self.counts[i] as f64 - probabilities[i] * self.rolls as f64)
            };
            let top = (0..self.weights.len())
                .map(exponent)
                .fold(f64::NEG_INFINITY, f64::max);
            for (i, (&w, &ln_p)) in self.weights.iter().zip(logs).enumerate() {
                if w > 0.0 {
                    sum += w * (ln_p + (exponent(i) - top) * std::f64::consts::LN_2);
                }
            }
        }
        self.total.ln() - sum / self.total
    }

    fn record(&mut self, index: usize, base: &Base, tightness: f64) {
        self.counts[index] += 1;
        self.rolls += 1;
        if let Some(lattice) = &mut self.lattice {
            let overflow = lattice
                .m
                .iter_mut()
                .zip(&lattice.base_weights)
                .any(|(m, &w)| m.checked_add(i128::from(w)).map(|v| *m = v).is_none());
            lattice.m[index] -= i128::from(lattice.base_total);
            if overflow {
                self.lattice = None; // astronomically many rolls: fall back to floats
            }
        }
        self.reweigh(base, tightness);
    }

    fn set_counts(&mut self, counts: Vec<u64>, base: &Base, tightness: f64) {
        self.rolls = counts.iter().sum();
        self.counts = counts;
        if let Some(lattice) = &mut self.lattice
            && !lattice.set_counts(&self.counts, self.rolls)
        {
            self.lattice = None;
        }
        self.reweigh(base, tightness);
    }

    #[inline]
    fn pick<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let mut target = rng::unit_f64(rng) * self.total;
        let mut index = 0;
        for (i, &w) in self.weights.iter().enumerate() {
            if w > 0.0 {
                index = i;
                if target < w {
                    break;
                }
                target -= w;
            }
        }
        index
    }
}

impl FairRoller {
    /// A fair die roller over `base` with tightness `k` in `[0, 1000]`.
    ///
    /// # Errors
    /// [`FairRollerError::TightnessOutOfRange`] otherwise (NaN included).
    pub fn new(base: Base, tightness: f64) -> Result<FairRoller, FairRollerError> {
        FairRoller::per_seat(base, tightness, 1)
    }

    /// A fair die roller whose `seats` players, taking turns, each have their own
    /// history (`seats` in `1..=MAX_SEATS`; 1 is [`FairRoller::new`]).
    ///
    /// # Errors
    /// [`FairRollerError`] for a tightness or a number of seats out of range.
    pub fn per_seat(base: Base, tightness: f64, seats: u64) -> Result<FairRoller, FairRollerError> {
        FairRoller::check(tightness, seats)?;
        let engine = Engine::new(&base, tightness)?;
        Ok(FairRoller {
            base,
            tightness,
            engines: vec![engine; seats as usize],
            turn: 0,
        })
    }

    /// Checks a tightness and a number of seats, as [`FairRoller::per_seat`] does,
    /// before any base is built.
    fn check(tightness: f64, seats: u64) -> Result<(), FairRollerError> {
        if !(0.0..=MAX_TIGHTNESS).contains(&tightness) {
            return Err(FairRollerError::TightnessOutOfRange(tightness));
        }
        if !(1..=MAX_SEATS as u64).contains(&seats) {
            return Err(FairRollerError::SeatsOutOfRange(seats));
        }
        Ok(())
    }

    /// The players with separate histories (1: one history for every roll).
    pub fn seats(&self) -> usize {
        self.engines.len()
    }

    fn engine(&self) -> &Engine {
        &self.engines[self.turn]
    }

    /// The next seat's turn.
    fn pass(&mut self) {
        self.turn = (self.turn + 1) % self.engines.len();
    }

    /// The base distribution `Po`.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// The tightness `k`.
    pub fn tightness(&self) -> f64 {
        self.tightness
    }
}

impl Engine {
    fn new(base: &Base, tightness: f64) -> Result<Engine, FairRollerError> {
        Ok(if base.is_uniform() {
            let dynamic = DynamicDice::new(base.clone(), exp2(-tightness))
                .map_err(|_| FairRollerError::TightnessOutOfRange(tightness))?;
            Engine::Uniform(Box::new(dynamic))
        } else {
            Engine::Weighted(Weighted::new(base, tightness))
        })
    }
}

impl Randomizer for FairRoller {
    fn spec(&self) -> String {
        match self.seats() {
            1 => format!("fair({}, tightness={})", self.base.spec(), self.tightness),
            seats => format!(
                "fair({}, tightness={}, seats={seats})",
                self.base.spec(),
                self.tightness
            ),
        }
    }

    fn outcomes(&self) -> &[Outcome] {
        self.base.outcomes()
    }

    fn base_distribution(&self) -> Vec<f64> {
        self.base().probabilities().to_vec()
    }

    fn next_distribution(&self) -> Vec<f64> {
        match self.engine() {
            Engine::Uniform(dynamic) => dynamic.next_distribution(),
            Engine::Weighted(w) => w.weights.iter().map(|&x| x / w.total).collect(),
        }
    }

    fn next_entropy_fraction(&self) -> f64 {
        match self.engine() {
            Engine::Uniform(dynamic) => dynamic.next_entropy_fraction(),
            Engine::Weighted(w) => {
                let n = self.base.len();
                if n <= 1 || w.total <= 0.0 {
                    return crate::entropy::entropy_fraction(&self.next_distribution());
                }
                (w.entropy_nats(&self.base, self.tightness) / (n as f64).ln()).clamp(0.0, 1.0)
            }
        }
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let index = match &mut self.engines[self.turn] {
            Engine::Uniform(dynamic) => dynamic.draw(rng),
            Engine::Weighted(w) => {
                let index = w.pick(rng);
                w.record(index, &self.base, self.tightness);
                index
            }
        };
        self.pass();
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.base.len())?;
        match &mut self.engines[self.turn] {
            Engine::Uniform(dynamic) => dynamic.observe(index)?,
            Engine::Weighted(w) => w.record(index, &self.base, self.tightness),
        }
        self.pass();
        Ok(())
    }

    fn reset(&mut self) {
        for engine in &mut self.engines {
            match engine {
                Engine::Uniform(dynamic) => dynamic.reset(),
                Engine::Weighted(w) => w.reset(&self.base, self.tightness),
            }
        }
        self.turn = 0;
    }
}

impl StateSpace for FairRoller {
    /// Times each outcome was rolled; with a uniform base, minus the least rolled
    /// outcome's count (only differences matter then). Per seat: each seat's
    /// counts in turn, then whose turn it is.
    fn state_key(&self) -> Vec<i64> {
        let mut key = Vec::with_capacity(self.engines.len() * self.base.len() + 1);
        for engine in &self.engines {
            match engine {
                Engine::Uniform(dynamic) => key.extend(dynamic.state_key()),
                Engine::Weighted(w) => key.extend(w.counts.iter().map(|&c| c as i64)),
            }
        }
        if self.engines.len() > 1 {
            key.push(self.turn as i64);
        }
        key
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        let n = self.base.len();
        let seats = self.engines.len();
        if seats == 1 {
            return self.restore_seat(0, key);
        }
        check_key_len(|| self.spec(), key, seats * n + 1)?;
        let turn = key[seats * n];
        if !(0..seats as i64).contains(&turn) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!("the seat whose turn it is must be in 0..{seats}, got {turn}"),
            });
        }
        // Checked whole before anything changes: a bad key leaves the roller as it was.
        let mut restored = self.clone();
        for seat in 0..seats {
            restored.restore_seat(seat, &key[seat * n..(seat + 1) * n])?;
        }
        restored.turn = turn as usize;
        *self = restored;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        // Per seat, a relabeling would have to be one for every seat's history
        // at once; the state sweep's merging relabels one history.
        self.base.is_uniform() && self.engines.len() == 1
    }
}

impl FairRoller {
    /// Restores one seat's counts from its part of a key.
    fn restore_seat(&mut self, seat: usize, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.base.len())?;
        if let Some(position) = key.iter().position(|&k| k < 0) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "times rolled cannot be negative, but entry {position} is {}",
                    key[position]
                ),
            });
        }
        match &mut self.engines[seat] {
            Engine::Uniform(dynamic) => {
                // The spec is written only on failure: exact sweeps restore
                // millions of states.
                if let Err(e) = dynamic.restore(key) {
                    return Err(e.with_spec(self.spec()));
                }
            }
            Engine::Weighted(w) => {
                // The rolls are counted in a u64 and weighed in an i128: bound
                // them where a session's draws are bounded.
                let rolls = key
                    .iter()
                    .try_fold(0u64, |sum, &k| sum.checked_add(k as u64))
                    .filter(|&rolls| rolls <= MAX_DRAWS);
                if rolls.is_none() {
                    return Err(RestoreError::Inconsistent {
                        spec: self.spec(),
                        reason: format!(
                            "the times rolled add up to more than {MAX_DRAWS}; accepted: a total of 0..={MAX_DRAWS}"
                        ),
                    });
                }
                let counts = key.iter().map(|&k| k as u64).collect();
                w.set_counts(counts, &self.base, self.tightness);
            }
        }
        Ok(())
    }
}

/// `fair(values=N | base=EXPR, tightness=K in [0, 1000])`.
pub(super) const FAMILY: Family = Family {
    name: "fair",
    summary: "the fair die roller: outcomes drawn more than their share become rarer",
    usage: "fair(values=N | base=EXPR, tightness=K in [0, 1000], seats=S in 1..16)",
    example: "fair(base=2d6, tightness=1)",
    outcomes: OutcomeKeys::ValuesOrBase,
    params: &[
        Param {
            key: "tightness",
            kind: ParamKind::Real,
            default: None,
            doc: "how strongly an outcome ahead of its share is held back (0: plain dice)",
            tune: Some("0..5 step 0.05"),
        },
        Param {
            key: "seats",
            kind: ParamKind::Count,
            default: Some("1"),
            doc: "players taking turns, each held to their own history (1: one history)",
            tune: Some(""),
        },
    ],
    not_tunable: None,
};

/// Builds a `fair` randomizer from its spec's checked arguments.
// The parameters are checked before the base, which may take a while to build.
pub(super) fn build(args: &Args<'_>) -> Result<FairRoller, SpecError> {
    let (tightness, seats) = (args.real("tightness")?, args.number("seats", 1)?);
    FairRoller::check(tightness, seats).map_err(|e| args.invalid(&e))?;
    FairRoller::per_seat(args.base()?, tightness, seats).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::DynamicDice;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    fn two_d6(tightness: f64) -> FairRoller {
        FairRoller::new(Base::expression("2d6").expect("valid"), tightness).expect("valid")
    }

    #[test]
    fn reset_is_a_fresh_roller_and_the_entropy_needs_no_logarithm_per_outcome() {
        // 2d6 keeps exact lattice exponents; 30d20's weights overflow a u64, so
        // its roller weighs in floats.
        for base in ["2d6", "30d20"] {
            let fresh =
                FairRoller::new(Base::expression(base).expect("valid"), 1.5).expect("valid");
            assert_eq!(
                matches!(&fresh.engines[0], Engine::Weighted(w) if w.lattice.is_some()),
                base == "2d6"
            );
            let mut roller = fresh.clone();
            let mut rng = crate::rng::seeded(7);
            for _ in 0..60 {
                let direct = crate::entropy::entropy_fraction(&roller.next_distribution());
                let own = roller.next_entropy_fraction();
                assert!((own - direct).abs() < 1e-12, "{base}: {own} vs {direct}");
                roller.draw(&mut rng);
            }
            roller.reset();
            assert_eq!(roller, fresh, "{base}");
        }
    }

    #[test]
    fn check_value_2d6_after_2_4_7_7() {
        let mut roller = two_d6(1.0);
        for value in [2, 4, 7, 7] {
            roller.observe(value - 2).expect("possible");
        }
        let p = roller.next_distribution();
        let at = |value: usize| p[value - 2];
        assert!((at(7) - 0.05965).abs() < 5e-6, "P(7) = {}", at(7));
        assert!((at(2) - 0.01353).abs() < 5e-6, "P(2) = {}", at(2));
        assert!((at(6) - 0.18408).abs() < 5e-6, "P(6) = {}", at(6));
        assert!((at(6) - at(8)).abs() < 1e-15);
        // The unnormalized total of the published table, from the formula itself.
        let base = roller.base().probabilities();
        let counts = [1.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let unnormalized: f64 = (0..11)
            .map(|i| base[i] * (-(counts[i] - base[i] * 4.0)).exp2())
            .sum();
        assert!((unnormalized - 1.108906).abs() < 5e-7, "{unnormalized}");
        for (i, &p) in p.iter().enumerate() {
            let formula = base[i] * (-(counts[i] - base[i] * 4.0)).exp2() / unnormalized;
            assert!((p - formula).abs() < 1e-13, "{i}: {p} vs {formula}");
        }
    }

    #[test]
    fn guarantee_counts_stay_near_expected_counts() {
        let mut roller = two_d6(2.0);
        let base = roller.base().probabilities().to_vec();
        let mut rng = rng::seeded(6);
        let mut counts = [0.0; 11];
        let mut worst: f64 = 0.0;
        for rolls in 1..=3600 {
            counts[roller.draw(&mut rng)] += 1.0;
            let errors = (0..11).map(|i| (counts[i] - base[i] * f64::from(rolls)).abs());
            worst = errors.fold(worst, f64::max);
        }
        // Plain dice drift by about sqrt(rolls); the roller stays within a few.
        assert!(worst < 3.0, "largest |count − expected| = {worst}");
    }

    #[test]
    fn uniform_base_equals_dynamic_dice() {
        let mut fair = FairRoller::new(Base::values(6).expect("valid"), 1.5).expect("valid");
        let mut dynamic =
            DynamicDice::new(Base::values(6).expect("valid"), 2f64.powf(-1.5)).expect("valid");
        for index in [0, 3, 3, 5, 1, 0, 0, 2] {
            fair.observe(index).expect("possible");
            dynamic.observe(index).expect("possible");
            for (a, b) in fair
                .next_distribution()
                .iter()
                .zip(dynamic.next_distribution())
            {
                assert!((a - b).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn tightness_zero_is_plain_dice() {
        let mut roller = two_d6(0.0);
        for index in [5, 5, 5] {
            roller.observe(index).expect("possible");
        }
        for (a, b) in roller
            .next_distribution()
            .iter()
            .zip(roller.base().probabilities())
        {
            assert!((a - b).abs() < 1e-15);
        }
    }

    #[test]
    fn invalid_tightness() {
        for bad in [-1.0, 1001.0, f64::NAN, f64::INFINITY] {
            assert!(FairRoller::new(Base::values(6).expect("valid"), bad).is_err());
        }
        assert!(
            two_d6(1.0)
                .restore(&[0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0])
                .is_err()
        );
        assert_eq!(two_d6(0.5).spec(), "fair(base=2d6, tightness=0.5)");
    }

    #[test]
    fn restored_counts_are_bounded() {
        let mut roller = two_d6(1.0);
        let mut key = [0i64; 11];
        key[3] = MAX_DRAWS as i64;
        roller.restore(&key).expect("at the limit");
        key[4] = 1;
        let error = roller.restore(&key).expect_err("past the limit");
        assert!(
            error.to_string().contains("0..=9007199254740991"),
            "{error}"
        );
        let error = roller.restore(&[i64::MAX; 11]).expect_err("overflows");
        assert!(error.to_string().contains("fair(base=2d6"), "{error}");
        // A uniform base names the roller, not the dynamic dice it runs as.
        let mut d6 = FairRoller::new(Base::values(6).expect("valid"), 1.0).expect("valid");
        let error = d6
            .restore(&[0, 0, 1_000_000_000, 0, 0, 0])
            .expect_err("lead");
        assert!(error.to_string().contains("fair(values=6"), "{error}");
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut two_d6(1.0), 60, 1);
        assert_distribution_invariants(
            &mut FairRoller::new(Base::values(6).expect("valid"), 3.0).expect("valid"),
            60,
            2,
        );
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut two_d6(1.0), 3, 12),
            [1, 6, 8, 7, 5, 2, 3, 5, 5, 0, 5, 3]
        );
        let mut d6 = FairRoller::new(Base::values(6).expect("valid"), 1.0).expect("valid");
        assert_eq!(draws(&mut d6, 3, 12), [0, 4, 5, 4, 3, 0, 1, 3, 2, 0, 3, 1]);
    }

    #[test]
    fn per_seat_is_one_roller_per_player_taking_turns() {
        let base = || Base::expression("2d3").expect("valid");
        let mut seated = FairRoller::per_seat(base(), 1.5, 2).expect("valid");
        let (mut first, mut second) = (
            FairRoller::new(base(), 1.5).expect("valid"),
            FairRoller::new(base(), 1.5).expect("valid"),
        );
        for (t, index) in [0, 2, 2, 4, 1, 2, 2, 3].into_iter().enumerate() {
            let own = if t % 2 == 0 { &mut first } else { &mut second };
            assert_eq!(
                seated.next_distribution(),
                own.next_distribution(),
                "roll {t}"
            );
            seated.observe(index).expect("possible");
            own.observe(index).expect("possible");
        }
        assert_eq!(seated.spec(), "fair(base=2d3, tightness=1.5, seats=2)");
        assert!(!seated.exchangeable());
        let one = FairRoller::per_seat(base(), 1.5, 1).expect("valid");
        assert_eq!(one, FairRoller::new(base(), 1.5).expect("valid"));
        assert_eq!(one.spec(), "fair(base=2d3, tightness=1.5)");
    }

    #[test]
    fn per_seat_state_saves_and_bad_keys_change_nothing() {
        let mut roller =
            FairRoller::per_seat(Base::expression("2d3").expect("valid"), 1.0, 3).expect("valid");
        for index in [0, 2, 2, 4, 1] {
            roller.observe(index).expect("possible");
        }
        let key = roller.state_key();
        assert_eq!(key.len(), 3 * 5 + 1);
        assert_eq!(key[15], 2); // five rolls: the third seat rolls next
        let mut copy =
            FairRoller::per_seat(Base::expression("2d3").expect("valid"), 1.0, 3).expect("valid");
        copy.restore(&key).expect("its own key");
        assert_eq!(copy, roller);
        let before = copy.clone();
        let mut bad_turn = key.clone();
        bad_turn[15] = 3;
        assert!(copy.restore(&bad_turn).is_err());
        let mut bad_count = key.clone();
        bad_count[7] = -1;
        assert!(copy.restore(&bad_count).is_err());
        assert!(copy.restore(&key[..15]).is_err());
        assert_eq!(copy, before);
        for seats in [0, 17] {
            assert_eq!(
                FairRoller::per_seat(Base::expression("2d6").expect("valid"), 1.0, seats),
                Err(FairRollerError::SeatsOutOfRange(seats))
            );
        }
    }
}
