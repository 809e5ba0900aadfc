//! [`Die`]: an exact probability distribution over integer outcomes.
//!
//! # Design decisions
//! A die is an immutable, sorted list of distinct outcomes, each with a positive
//! integer count; probabilities are always derived as `count / total`, never stored.
//! Outcomes with count zero are dropped, so two dice are equal exactly when their
//! outcome lists and counts are equal. Counts are not reduced by their common factor:
//! `3d6` has total 216 because that is what users count; only operations that
//! condition (rerolls) shrink totals.

use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::{BigRational, Ratio};
use num_traits::{One, ToPrimitive, Zero};
use thiserror::Error;

use super::count::{Count, CountType, Counts};
use crate::control::{Failure, FailureKind, Stop};

/// An outcome of a die: a signed integer.
pub type Outcome = i64;

/// Why a die could not be built or an operation on dice is undefined.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DieError {
    /// No outcome has a positive count.
    #[error("a die needs at least one outcome with a positive count")]
    Empty,
    /// A standard die was asked for with no sides.
    #[error("a die needs at least 1 side, got {0}")]
    NoSides(u64),
    /// An outcome fell outside the 64-bit signed range.
    #[error("an outcome overflows the 64-bit integer range (|x| > 9223372036854775807)")]
    Overflow,
    /// A division whose divisor can be zero.
    #[error("division by zero: the divisor can roll 0")]
    DivisionByZero,
    /// A reroll condition that matches every outcome, so rolling never ends.
    #[error("the reroll condition matches every outcome, so the die would be rerolled forever")]
    RerollsEverything,
    /// Unique dice (`u`) on more dice than the faces they may all differ on.
    #[error(
        "{dice} dice cannot all differ on {faces} faces: a repeat would be rolled again forever (`uo` rolls it again once)"
    )]
    UniqueImpossible {
        /// The dice of the term.
        dice: u64,
        /// The different faces a repeat may be rolled again to.
        faces: u64,
    },
    /// The square root of a negative outcome.
    #[error("the square root of {0}: sqrt takes an argument of 0 or more")]
    NegativeRoot(i64),
    /// A pool or repetition with a negative number of dice.
    #[error("a pool cannot have a negative number of dice ({0})")]
    NegativeDiceCount(i64),
    /// The computation went past its budget or was cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
    /// An evaluation over more different kinds of dice than the engine can track.
    #[error(
        "an evaluation can track at most about a hundred different kinds of dice at once, got {kinds}"
    )]
    TooManyKinds {
        /// Groups of identical dice across all pools.
        kinds: usize,
    },
    /// A repetition or pool larger than the engine allows.
    #[error("{count} dice is more than the {max} a pool may hold")]
    TooManyDice {
        /// Requested number of dice.
        count: u64,
        /// The limit.
        max: u64,
    },
    /// A deck with no card.
    #[error("a deck needs at least one card")]
    EmptyDeck,
    /// Hands that need more cards than the deck holds.
    #[error("the hands need {cards} cards, more than the {deck} the deck holds")]
    DealTooLarge {
        /// The cards of every hand together.
        cards: u64,
        /// The cards of the deck.
        deck: u64,
    },
    /// A deal of no hand, or of more hands than a deal may hand out.
    #[error("a deal hands out 1 to {max} hands, got {hands}")]
    TooManyHands {
        /// The hands asked for.
        hands: usize,
        /// The limit.
        max: usize,
    },
    /// A value of a tuple beyond what its packing holds.
    #[error("a value of a tuple must lie within ±{max}, got {value}")]
    TupleValue {
        /// The value.
        value: Outcome,
        /// The largest magnitude held.
        max: Outcome,
    },
    /// An outcome that no range of the labels holds.
    #[error("the outcome {outcome} has no label: add a range that holds it")]
    Unlabelled {
        /// The outcome.
        outcome: Outcome,
    },
    /// A label no outcome of its expression falls under.
    #[error("no outcome gets the label \"{label}\": the expression gives {low} to {high}")]
    LabelNeverShown {
        /// The label.
        label: String,
        /// The expression's smallest outcome.
        low: Outcome,
        /// Its largest.
        high: Outcome,
    },
}

impl Failure for DieError {
    fn kind(&self) -> FailureKind {
        match self {
            DieError::Stopped(stop) => stop.kind(),
            DieError::TooManyKinds { .. } | DieError::TooManyDice { .. } => FailureKind::TooLarge,
            _ => FailureKind::Invalid,
        }
    }
}

/// The largest number of dice one pool or repeated sum may hold. Anything near it is
/// refused by the cost estimate long before; this bound keeps sizes in `u32`.
pub const MAX_DICE: u64 = 1 << 20;

/// An exact distribution over integer outcomes with exact integer counts.
///
/// # Example
/// ```
/// use fairdice::Control;
/// use fairdice::Die;
///
/// let d6 = Die::standard(6)?;
/// let two = d6.repeat_sum(2, &Control::new())?;
/// assert_eq!(two.total().to_string(), "36");
/// assert_eq!(two.count(7).to_string(), "6");
/// assert_eq!(two.mean().to_string(), "7");
/// # Ok::<(), fairdice::DieError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Die {
    outcomes: Vec<Outcome>,
    counts: Counts,
}

impl Die {
    /// A die from `(outcome, count)` pairs; repeated outcomes add up, zero counts are
    /// dropped.
    ///
    /// # Errors
    /// [`DieError::Empty`] if no count is positive.
    pub fn new<I, C>(pairs: I) -> Result<Die, DieError>
    where
        I: IntoIterator<Item = (Outcome, C)>,
        C: Into<BigUint>,
    {
        let pairs: Vec<(Outcome, BigUint)> =
            pairs.into_iter().map(|(o, c)| (o, c.into())).collect();
        Die::from_big_pairs(pairs)
    }

    /// A fair die with faces `1..=sides` (`d6`, `d20`, `d100`).
    ///
    /// # Errors
    /// [`DieError::NoSides`] if `sides` is zero.
    pub fn standard(sides: u64) -> Result<Die, DieError> {
        if sides == 0 {
            return Err(DieError::NoSides(0));
        }
        let top = i64::try_from(sides).map_err(|_| DieError::Overflow)?;
        Ok(Die::range(1, top))
    }

    /// A fair die over the consecutive outcomes `low..=high` (empty ranges give the
    /// single outcome `low`).
    pub fn range(low: Outcome, high: Outcome) -> Die {
        let high = high.max(low);
        let outcomes: Vec<Outcome> = (low..=high).collect();
        let counts = Counts::Small(vec![1; outcomes.len()]);
        Die { outcomes, counts }
    }

    /// A die whose faces are the given values, each face one count (`d{1,1,2,3}`).
    ///
    /// # Errors
    /// [`DieError::Empty`] if there are no faces.
    pub fn from_faces(faces: &[Outcome]) -> Result<Die, DieError> {
        Die::new(faces.iter().map(|&f| (f, 1u32)))
    }

    /// The Fudge/Fate die: faces −1, 0, +1.
    pub fn fudge() -> Die {
        Die::range(-1, 1)
    }

    /// A die that always shows `value`.
    pub fn constant(value: Outcome) -> Die {
        Die {
            outcomes: vec![value],
            counts: Counts::Small(vec![1]),
        }
    }

    pub(crate) fn from_big_pairs(mut pairs: Vec<(Outcome, BigUint)>) -> Result<Die, DieError> {
        pairs.sort_by_key(|&(o, _)| o);
        let mut outcomes = Vec::with_capacity(pairs.len());
        let mut counts: Vec<BigUint> = Vec::with_capacity(pairs.len());
        for (o, c) in pairs {
            if c.is_zero() {
                continue;
            }
            if outcomes.last() == Some(&o) {
                *counts.last_mut().expect("parallel vectors") += c;
            } else {
                outcomes.push(o);
                counts.push(c);
            }
        }
        if outcomes.is_empty() {
            return Err(DieError::Empty);
        }
        Ok(Die {
            outcomes,
            counts: Counts::from_big(counts),
        })
    }

    /// Builds a die from counts computed in a generic count type. `pairs` must be
    /// sorted by outcome with no repeats; zeros are dropped here.
    pub(crate) fn from_sorted_generic<C: Count>(
        pairs: impl IntoIterator<Item = (Outcome, C)>,
    ) -> Result<Die, DieError> {
        let pairs = pairs.into_iter();
        let mut outcomes = Vec::with_capacity(pairs.size_hint().0);
        let mut counts = Vec::with_capacity(pairs.size_hint().0);
        let mut total = C::zero();
        for (o, c) in pairs {
            if c.is_zero() {
                continue;
            }
            debug_assert!(outcomes.last().is_none_or(|&last| last < o));
            total.add_assign(&c);
            outcomes.push(o);
            counts.push(c);
        }
        if outcomes.is_empty() {
            return Err(DieError::Empty);
        }
        let bits = total.bit_len();
        Ok(Die {
            outcomes,
            counts: Counts::from_generic(counts, bits),
        })
    }

    /// Builds a die from dense counts: `counts[i]` is the count of `low + i`, zeros
    /// where the outcome cannot occur. The caller checked that the outcomes fit.
    pub(crate) fn from_dense<C: Count>(low: Outcome, counts: Vec<C>) -> Result<Die, DieError> {
        let nonzero = counts.iter().filter(|c| !c.is_zero()).count();
        let mut outcomes = Vec::with_capacity(nonzero);
        let mut kept = Vec::with_capacity(nonzero);
        let mut total = C::zero();
        for (i, c) in counts.into_iter().enumerate() {
            if !c.is_zero() {
                total.add_assign(&c);
                outcomes.push(low + i as Outcome);
                kept.push(c);
            }
        }
        if outcomes.is_empty() {
            return Err(DieError::Empty);
        }
        Ok(Die {
            outcomes,
            counts: Counts::from_generic(kept, total.bit_len()),
        })
    }

    /// Builds a die from unsorted pairs in a generic count type, merging repeats.
    pub(crate) fn from_unsorted_generic<C: Count>(
        mut pairs: Vec<(Outcome, C)>,
    ) -> Result<Die, DieError> {
        pairs.sort_unstable_by_key(|&(o, _)| o);
        let mut merged: Vec<(Outcome, C)> = Vec::with_capacity(pairs.len());
        for (o, c) in pairs {
            match merged.last_mut() {
                Some((last, acc)) if *last == o => acc.add_assign(&c),
                _ => merged.push((o, c)),
            }
        }
        Die::from_sorted_generic(merged)
    }

    /// The outcomes, ascending.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Always false: a die has at least one outcome. Present for API symmetry with
    /// [`len`](Self::len).
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The count of `outcome` (zero if it cannot occur).
    pub fn count(&self, outcome: Outcome) -> BigUint {
        match self.outcomes.binary_search(&outcome) {
            Ok(i) => self.counts.get_big(i),
            Err(_) => BigUint::zero(),
        }
    }

    /// `(outcome, count)` pairs, ascending by outcome.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Outcome, BigUint)> + '_ {
        self.outcomes
            .iter()
            .enumerate()
            .map(|(i, &o)| (o, self.counts.get_big(i)))
    }

    /// The counts as machine words, if the total fits a `u64` (the common case).
    pub fn counts_u64(&self) -> Option<&[u64]> {
        match &self.counts {
            Counts::Small(v) => Some(v),
            Counts::Big(_) => None,
        }
    }

    /// The sum of all counts.
    pub fn total(&self) -> BigUint {
        self.counts.total()
    }

    /// The counts in computation type `C` (the caller checked that the total fits).
    pub(crate) fn generic_counts<C: Count>(&self) -> Vec<C> {
        self.counts.to_generic()
    }

    /// Calls `f(index, count)` for every outcome's count in computation type `C`,
    /// without collecting them first.
    pub(crate) fn for_each_generic<C: Count>(&self, f: impl FnMut(usize, C)) {
        self.counts.for_each_generic(f);
    }

    /// The computation type that holds this die's total.
    pub(crate) fn total_bits(&self) -> u64 {
        self.counts.total_bits()
    }

    /// The smallest outcome.
    pub fn min_outcome(&self) -> Outcome {
        self.outcomes[0]
    }

    /// The largest outcome.
    pub fn max_outcome(&self) -> Outcome {
        self.outcomes[self.outcomes.len() - 1]
    }

    /// The exact probability of `outcome`.
    pub fn probability(&self, outcome: Outcome) -> BigRational {
        ratio(self.count(outcome), self.total())
    }

    /// The probability of every outcome as `f64`, in outcome order.
    pub fn probabilities(&self) -> Vec<f64> {
        let exact_total = self.total();
        let total = Count::to_f64(&exact_total);
        if total.is_finite() {
            return (0..self.len())
                .map(|i| self.counts.get_f64(i) / total)
                .collect();
        }
        // A total past f64's range: each count divided by it without reducing the
        // fraction first (a total and a gcd per outcome took minutes over half a
        // million outcomes of 6,800-bit counts).
        (0..self.len())
            .map(|i| quotient(&self.counts.get_big(i), &exact_total))
            .collect()
    }

    /// Exact `P(X <= outcome)`.
    pub fn at_most(&self, outcome: Outcome) -> BigRational {
        let upto = self.outcomes.partition_point(|&o| o <= outcome);
        ratio(self.sum_counts(0..upto), self.total())
    }

    /// Exact `P(X >= outcome)`.
    pub fn at_least(&self, outcome: Outcome) -> BigRational {
        let from = self.outcomes.partition_point(|&o| o < outcome);
        ratio(self.sum_counts(from..self.len()), self.total())
    }

    /// The cumulative distribution function, `P(X <= outcome)`.
    pub fn cdf(&self, outcome: Outcome) -> BigRational {
        self.at_most(outcome)
    }

    /// The survival function, `P(X > outcome)`.
    pub fn survival(&self, outcome: Outcome) -> BigRational {
        let from = self.outcomes.partition_point(|&o| o <= outcome);
        ratio(self.sum_counts(from..self.len()), self.total())
    }

    /// Cumulative counts: for each outcome, the count of outcomes at most it.
    pub fn cumulative_counts(&self) -> Vec<BigUint> {
        let mut acc = BigUint::zero();
        (0..self.len())
            .map(|i| {
                acc += self.counts.get_big(i);
                acc.clone()
            })
            .collect()
    }

    /// `P(X <= x)` for every outcome `x`, in outcome order, each the nearest `f64` to
    /// the exact value.
    pub fn at_most_all(&self) -> Vec<f64> {
        let total = self.total();
        self.cumulative_counts()
            .into_iter()
            .map(|c| ratio_to_f64(&ratio(c, total.clone())))
            .collect()
    }

    /// `P(X >= x)` for every outcome `x`, in outcome order, each the nearest `f64` to
    /// the exact value.
    pub fn at_least_all(&self) -> Vec<f64> {
        let total = self.total();
        let mut above = BigUint::zero();
        let mut out: Vec<f64> = (0..self.len())
            .rev()
            .map(|i| {
                above += self.counts.get_big(i);
                ratio_to_f64(&ratio(above.clone(), total.clone()))
            })
            .collect();
        out.reverse();
        out
    }

    fn sum_counts(&self, range: std::ops::Range<usize>) -> BigUint {
        range.map(|i| self.counts.get_big(i)).sum()
    }

    /// The exact mean.
    pub fn mean(&self) -> BigRational {
        let numerator: BigInt = self
            .iter()
            .map(|(o, c)| BigInt::from(o) * BigInt::from(c))
            .sum();
        BigRational::new(numerator, BigInt::from(self.total()))
    }

    /// The exact (population) variance.
    pub fn variance(&self) -> BigRational {
        let total = BigInt::from(self.total());
        let (mut s1, mut s2) = (BigInt::zero(), BigInt::zero());
        for (o, c) in self.iter() {
            let c = BigInt::from(c);
            let o = BigInt::from(o);
            s1 += &o * &c;
            s2 += &o * &o * c;
        }
        // Var = (T·Σo²c − (Σoc)²) / T², computed in integers so it stays exact.
        BigRational::new(&total * s2 - &s1 * &s1, &total * &total)
    }

    /// The standard deviation, `sqrt(variance)`.
    pub fn standard_deviation(&self) -> f64 {
        ratio_to_f64(&self.variance()).sqrt()
    }

    /// The most likely outcomes (all of them, when several tie), ascending.
    pub fn mode(&self) -> Vec<Outcome> {
        let best = (0..self.len()).map(|i| self.counts.get_big(i)).max();
        self.iter()
            .filter(|(_, c)| Some(c) == best.as_ref())
            .map(|(o, _)| o)
            .collect()
    }

    /// The smallest outcome `x` with `P(X <= x) >= q`, for `q` in `[0, 1]`
    /// (the median is `quantile(0.5)`); `None` if `q` is outside `[0, 1]` or NaN.
    pub fn quantile(&self, q: f64) -> Option<Outcome> {
        if !(0.0..=1.0).contains(&q) {
            return None;
        }
        let q = BigRational::from_float(q)?;
        let total = BigRational::from_integer(BigInt::from(self.total()));
        let target = q * total;
        let mut acc = BigUint::zero();
        for (o, c) in self.iter() {
            acc += c;
            if BigRational::from_integer(BigInt::from(acc.clone())) >= target {
                return Some(o);
            }
        }
        Some(self.max_outcome())
    }

    /// The count type wide enough for the product of these dice's totals.
    pub(crate) fn product_count_type(dice: &[&Die]) -> CountType {
        CountType::for_bits(dice.iter().map(|d| d.total_bits()).sum())
    }

    /// Divides every count by their greatest common divisor, keeping probabilities.
    pub fn reduced(&self) -> Die {
        let mut gcd = BigUint::zero();
        for (_, count) in self.iter() {
            gcd = gcd.gcd(&count);
            if gcd.is_one() {
                // Already reduced: the rest of the divisor is not worth finishing (a
                // gcd with 1 still walks every bit of the other count).
                break;
            }
        }
        let pairs = if gcd.is_one() {
            self.iter().collect()
        } else {
            self.iter().map(|(o, c)| (o, c / &gcd)).collect()
        };
        Die::from_big_pairs(pairs).expect("reduction keeps every outcome")
    }
}

/// `numerator / denominator` as a reduced fraction.
pub(crate) fn ratio(numerator: BigUint, denominator: BigUint) -> BigRational {
    Ratio::new(BigInt::from(numerator), BigInt::from(denominator))
}

/// `numerator / denominator` as the nearest `f64`, without reducing the fraction.
pub(crate) fn quotient(numerator: &BigUint, denominator: &BigUint) -> f64 {
    ratio_to_f64(&BigRational::new_raw(
        BigInt::from(numerator.clone()),
        BigInt::from(denominator.clone()),
    ))
}

/// The nearest `f64` to an exact fraction, exact even when numerator and denominator
/// overflow `f64` separately.
pub fn ratio_to_f64(r: &BigRational) -> f64 {
    if let Some(x) = r.to_f64().filter(|x| x.is_finite()) {
        return x;
    }
    // Shift both sides so the quotient keeps 64 significant bits.
    let (n, d) = (r.numer(), r.denom());
    let shift = n.bits() as i64 - d.bits() as i64 - 64;
    let (n, d) = if shift > 0 {
        (n.clone(), d << shift as u64)
    } else {
        (n << (-shift) as u64, d.clone())
    };
    let q = (n / d).to_f64().unwrap_or(f64::NAN);
    q * 2f64.powi(shift as i32)
}

impl fmt::Debug for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl fmt::Display for Die {
    /// `{1: 1, 2: 1, 3: 1}`: outcomes with their counts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, (o, c)) in self.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{o}: {c}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::big;

    #[test]
    fn probabilities_of_totals_past_f64_are_the_exact_fractions_rounded() {
        let huge = BigUint::one() << 1100u32;
        let die = Die::from_big_pairs(vec![
            (1, BigUint::one()),
            (2, &huge * 2u32),
            (3, &huge * 3u32 + 7u32),
            (4, (&huge >> 60u32) * 5u32),
        ])
        .unwrap();
        let shown = die.probabilities();
        for (i, (_, count)) in die.iter().enumerate() {
            let exact = ratio_to_f64(&ratio(count, die.total()));
            let error = (shown[i] - exact).abs();
            assert!(
                error <= exact * 1e-15,
                "outcome {i}: {} against {exact}",
                shown[i]
            );
        }
        assert!(shown[1] > 0.39 && shown[2] > 0.59);
    }

    #[test]
    fn a_reduced_die_keeps_its_probabilities_and_equals_a_reduction_by_hand() {
        let die = Die::new([(1, 6u32), (2, 10), (3, 4)]).unwrap();
        assert_eq!(
            die.reduced(),
            Die::new([(1, 3u32), (2, 5), (3, 2)]).unwrap()
        );
        let coprime = Die::new([(1, 1u32), (2, 10), (3, 4)]).unwrap();
        assert_eq!(coprime.reduced(), coprime);
    }

    #[test]
    fn construction_merges_and_drops_zeros() {
        let d = Die::new([(3, 1u32), (1, 2), (3, 2), (5, 0)]).unwrap();
        assert_eq!(d.outcomes(), &[1, 3]);
        assert_eq!(d.count(3), big(3));
        assert_eq!(d.count(5), big(0));
        assert_eq!(Die::new(Vec::<(i64, u32)>::new()), Err(DieError::Empty));
        assert_eq!(Die::new([(1, 0u32)]), Err(DieError::Empty));
        assert_eq!(Die::standard(0), Err(DieError::NoSides(0)));
    }

    #[test]
    fn statistics_of_a_d6() {
        let d6 = Die::standard(6).unwrap();
        assert_eq!(d6.mean(), BigRational::new(7.into(), 2.into()));
        assert_eq!(d6.variance(), BigRational::new(35.into(), 12.into()));
        assert_eq!(d6.at_most(2), BigRational::new(1.into(), 3.into()));
        assert_eq!(d6.at_least(2), BigRational::new(5.into(), 6.into()));
        assert_eq!(d6.survival(6), BigRational::zero());
        // Probe just past the support on both sides.
        assert_eq!(d6.at_most(0), BigRational::zero());
        assert_eq!(d6.at_least(7), BigRational::zero());
        assert_eq!(d6.at_most(7), BigRational::from_integer(1.into()));
        assert_eq!(d6.quantile(0.5), Some(3));
        assert_eq!(d6.quantile(0.0), Some(1));
        assert_eq!(d6.quantile(1.0), Some(6));
        assert_eq!(d6.quantile(1.5), None);
        assert_eq!(d6.mode(), vec![1, 2, 3, 4, 5, 6]);
        assert!((d6.standard_deviation() - (35.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn cumulative_vectors_match_exact_values() {
        let d = Die::new([(-2, 3u32), (0, 1), (4, 5)]).unwrap();
        let most = d.at_most_all();
        let least = d.at_least_all();
        for (i, &o) in d.outcomes().iter().enumerate() {
            assert_eq!(most[i], ratio_to_f64(&d.at_most(o)));
            assert_eq!(least[i], ratio_to_f64(&d.at_least(o)));
        }
    }

    #[test]
    fn cdf_is_the_cumulative_pmf() {
        let d = Die::new([(-2, 3u32), (0, 1), (4, 5)]).unwrap();
        let mut acc = BigRational::zero();
        for o in -3..=5 {
            acc += d.probability(o);
            assert_eq!(d.cdf(o), acc, "at {o}");
            assert_eq!(
                d.survival(o),
                BigRational::from_integer(1.into()) - acc.clone()
            );
        }
    }

    #[test]
    fn reduction_keeps_probabilities() {
        let d = Die::new([(1, 4u32), (2, 6)]).unwrap().reduced();
        assert_eq!(d.count(1), big(2));
        assert_eq!(d.total(), big(5));
    }

    #[test]
    fn ratio_to_f64_handles_huge_fractions() {
        let n = BigInt::from(7u32) * num_traits::pow(BigInt::from(10u32), 400);
        let d = num_traits::pow(BigInt::from(10u32), 401);
        let x = ratio_to_f64(&BigRational::new(n, d));
        assert!((x - 0.7).abs() < 1e-15);
    }
}
