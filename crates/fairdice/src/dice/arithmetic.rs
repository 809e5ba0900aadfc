//! Arithmetic on dice: sums by convolution, repeated sums, and any binary operation
//! between independent dice.
//!
//! # Design decisions
//! Sums are the hot path, so they convolve dense arrays when the outcomes are close
//! together and fall back to sorting pairs otherwise. A dense convolution of long
//! rows of wide counts is done by number-theoretic transforms modulo word-sized
//! primes, its counts rebuilt by Chinese remainders (`ntt.rs`): `3500d2+3500d2`
//! took 20 s by rows. Pairs and arrays are priced (steps and memory) before they
//! are allocated. A repeated sum `n·X` squares
//! while the total fits in 128 bits (all machine arithmetic); beyond that it uses the
//! power recurrence for polynomials, which needs `O(n·m²)` big-integer steps for a die
//! spanning `m + 1` outcomes instead of the `O(n²·m²)` of squaring. Both are checked
//! against naive repeated addition in the tests.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

use super::count::{Count, CountType};
use super::die::{Die, DieError, MAX_DICE, Outcome};
use crate::control::{Control, Meter};
use crate::with_count_type;

/// A binary operation between two dice outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `floor(a / b)`; fails if `b` can be zero.
    Div,
    /// `a - b·floor(a / b)`, the remainder with the divisor's sign (so that
    /// `a == (a / b)·b + a % b`); fails if `b` can be zero.
    Mod,
    /// `max(a, b)`
    Max,
    /// `min(a, b)`
    Min,
    /// `1` if `a < b` else `0`
    Lt,
    /// `1` if `a <= b` else `0`
    Le,
    /// `1` if `a > b` else `0`
    Gt,
    /// `1` if `a >= b` else `0`
    Ge,
    /// `1` if `a == b` else `0`
    Eq,
    /// `1` if `a != b` else `0`
    Ne,
    /// `1` if both `a` and `b` are not `0`, else `0`
    And,
    /// `1` if `a` or `b` is not `0`, else `0`
    Or,
}

impl BinaryOp {
    /// Applies the operation to two outcomes.
    ///
    /// # Errors
    /// [`DieError::Overflow`] past the `i64` range, [`DieError::DivisionByZero`].
    pub fn apply(self, a: Outcome, b: Outcome) -> Result<Outcome, DieError> {
        let flag = |x: bool| Ok(Outcome::from(x));
        match self {
            BinaryOp::Add => a.checked_add(b).ok_or(DieError::Overflow),
            BinaryOp::Sub => a.checked_sub(b).ok_or(DieError::Overflow),
            BinaryOp::Mul => a.checked_mul(b).ok_or(DieError::Overflow),
            BinaryOp::Div => {
                if b == 0 {
                    Err(DieError::DivisionByZero)
                } else if a == Outcome::MIN && b == -1 {
                    Err(DieError::Overflow)
                } else {
                    Ok(Integer::div_floor(&a, &b))
                }
            }
            BinaryOp::Mod => {
                if b == 0 {
                    Err(DieError::DivisionByZero)
                } else if b == -1 {
                    Ok(0)
                } else {
                    Ok(Integer::mod_floor(&a, &b))
                }
            }
            BinaryOp::Max => Ok(a.max(b)),
            BinaryOp::Min => Ok(a.min(b)),
            BinaryOp::Lt => flag(a < b),
            BinaryOp::Le => flag(a <= b),
            BinaryOp::Gt => flag(a > b),
            BinaryOp::Ge => flag(a >= b),
            BinaryOp::Eq => flag(a == b),
            BinaryOp::Ne => flag(a != b),
            BinaryOp::And => flag(a != 0 && b != 0),
            BinaryOp::Or => flag(a != 0 || b != 0),
        }
    }

    /// The operator's symbol in dice notation.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
            BinaryOp::Max => "max",
            BinaryOp::Min => "min",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}

/// Outcome spans up to this size convolve as dense arrays.
const DENSE_SPAN_LIMIT: u64 = 1 << 24;

impl Die {
    /// The distribution of `op(X, Y)` for independent `X` (this die) and `Y`, its
    /// work metered against `control`.
    ///
    /// # Errors
    /// As [`BinaryOp::apply`], if any pair of outcomes fails;
    /// [`DieError::Stopped`] past the control's budget or once it is cancelled.
    pub fn combine(&self, other: &Die, op: BinaryOp, control: &Control) -> Result<Die, DieError> {
        let meter = &mut control.meter();
        // Stored outcomes all have positive counts.
        if matches!(op, BinaryOp::Div | BinaryOp::Mod) && other.outcomes().binary_search(&0).is_ok()
        {
            return Err(DieError::DivisionByZero);
        }
        let ty = Die::product_count_type(&[self, other]);
        if op == BinaryOp::Add {
            if let Some(die) = with_count_type!(ty, C => self.dense_sum::<C>(other, meter)) {
                return die;
            }
        }
        if matches!(op, BinaryOp::Max | BinaryOp::Min) {
            return with_count_type!(ty, C => self.extreme::<C>(other, op == BinaryOp::Max, meter));
        }
        with_count_type!(ty, C => self.pairwise::<C>(other, op, meter))
    }

    /// `X + Y` for independent dice.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a sum leaves the `i64` range.
    pub fn add(&self, other: &Die) -> Result<Die, DieError> {
        self.combine(other, BinaryOp::Add, &Control::unlimited())
    }

    /// `X − Y` for independent dice.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a difference leaves the `i64` range.
    pub fn sub(&self, other: &Die) -> Result<Die, DieError> {
        self.combine(other, BinaryOp::Sub, &Control::unlimited())
    }

    /// `X · Y` for independent dice.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a product leaves the `i64` range.
    pub fn mul(&self, other: &Die) -> Result<Die, DieError> {
        self.combine(other, BinaryOp::Mul, &Control::unlimited())
    }

    /// `floor(X / Y)` for independent dice.
    ///
    /// # Errors
    /// [`DieError::DivisionByZero`] if `Y` can be zero.
    pub fn div(&self, other: &Die) -> Result<Die, DieError> {
        self.combine(other, BinaryOp::Div, &Control::unlimited())
    }

    /// `op(X, c)` for a constant `c`, keeping counts unchanged.
    ///
    /// # Errors
    /// As [`BinaryOp::apply`].
    pub fn combine_constant(&self, constant: Outcome, op: BinaryOp) -> Result<Die, DieError> {
        self.try_map(|o| op.apply(o, constant))
    }

    /// `−X`.
    ///
    /// # Errors
    /// [`DieError::Overflow`] for the outcome `i64::MIN`.
    pub fn negate(&self) -> Result<Die, DieError> {
        self.try_map(|o| o.checked_neg().ok_or(DieError::Overflow))
    }

    /// The sum of `n` independent copies of this die (`n = 0` gives the constant 0),
    /// its work metered against `control`.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a sum leaves the `i64` range;
    /// [`DieError::TooManyDice`] past [`MAX_DICE`]; [`DieError::Stopped`] past the
    /// control's budget or once it is cancelled.
    pub fn repeat_sum(&self, n: u64, control: &Control) -> Result<Die, DieError> {
        let meter = &mut control.meter();
        if n > MAX_DICE {
            return Err(DieError::TooManyDice {
                count: n,
                max: MAX_DICE,
            });
        }
        if n == 0 {
            return Ok(Die::constant(0));
        }
        if n == 1 {
            // One die is itself (the recurrence below would redo its counts).
            return Ok(self.clone());
        }
        // Every outcome of the result lies in [n·min, n·max]; check it fits first.
        let n_i = n as i64;
        self.min_outcome()
            .checked_mul(n_i)
            .ok_or(DieError::Overflow)?;
        self.max_outcome()
            .checked_mul(n_i)
            .ok_or(DieError::Overflow)?;
        let bits = self.total_bits() * n;
        let span = (self.max_outcome() as i128 - self.min_outcome() as i128) as u64;
        if self.sums_by_recurrence(n) {
            return self.power_by_recurrence(n, meter);
        }
        // Outcomes close together stay close together in every partial sum.
        let close = span < 4 * self.len() as u64;
        if close && span.saturating_mul(n) <= DENSE_SPAN_LIMIT {
            let ty = CountType::for_bits(bits);
            return with_count_type!(ty, C => self.dense_power::<C>(n, meter));
        }
        let mut result: Option<Die> = None;
        let mut base = self.clone();
        let mut remaining = n;
        loop {
            if remaining & 1 == 1 {
                result = Some(match result {
                    None => base.clone(),
                    Some(result) => result.combine(&base, BinaryOp::Add, meter.control())?,
                });
            }
            remaining >>= 1;
            if remaining == 0 {
                return Ok(result.unwrap_or_else(|| Die::constant(0)));
            }
            base = base.combine(&base, BinaryOp::Add, meter.control())?;
        }
    }

    /// Whether [`repeat_sum`](Self::repeat_sum) of `n` copies takes the recurrence
    /// over the outcomes of `n·X` (big counts, a narrow die): its work grows about
    /// linearly with `n`, so a sum of `n` copies is cheaper made anew than by
    /// convolving two big partial sums.
    pub(crate) fn sums_by_recurrence(&self, n: u64) -> bool {
        let bits = self.total_bits().saturating_mul(n);
        let span = (self.max_outcome() as i128 - self.min_outcome() as i128) as u64;
        bits > 128 && span <= 4096 && span.saturating_mul(n) <= DENSE_SPAN_LIMIT
    }

    /// `n·X` by squaring on dense arrays, every step in the count type `C` chosen
    /// once for the whole computation (it must hold the result's total). The caller
    /// checked that the outcomes lie close together and that the result fits `i64`.
    fn dense_power<C: Count>(&self, n: u64, meter: &mut Meter) -> Result<Die, DieError> {
        let span = span(self).expect("checked by the caller");
        let mut base = dense::<C>(self, span);
        let mut result: Option<Vec<C>> = None;
        let mut remaining = n;
        loop {
            if remaining & 1 == 1 {
                result = Some(match result {
                    None => base.clone(),
                    Some(result) => convolve(&result, &base, meter)?,
                });
            }
            remaining >>= 1;
            if remaining == 0 {
                break;
            }
            base = convolve(&base, &base, meter)?;
        }
        let counts = result.expect("n > 0");
        Die::from_dense(self.min_outcome() * n as i64, counts)
    }

    /// Dense convolution when both dice span few outcomes; `None` when the spans are
    /// too wide for an array (the caller then sorts pairs instead).
    fn dense_sum<C: Count>(&self, other: &Die, meter: &mut Meter) -> Option<Result<Die, DieError>> {
        let span_a = span(self)?;
        let span_b = span(other)?;
        let pairs = (self.len() as u64).saturating_mul(other.len() as u64);
        if !worth_dense(span_a.saturating_mul(span_b), pairs) {
            return None;
        }
        let low = self.min_outcome().checked_add(other.min_outcome());
        let high = self.max_outcome().checked_add(other.max_outcome());
        let (Some(low), Some(_)) = (low, high) else {
            return Some(Err(DieError::Overflow));
        };
        let bits = self.total_bits() + other.total_bits();
        // Both arrays, the result and the die made from it.
        let entries = 2 * (span_a + span_b);
        if let Err(refused) = plan::<C>(pairs, entries, bits, meter.control()) {
            return Some(Err(refused));
        }
        let a = dense::<C>(self, span_a);
        let b = dense::<C>(other, span_b);
        Some(convolve(&a, &b, meter).and_then(|counts| Die::from_dense(low, counts)))
    }

    /// `max(X, Y)` (or `min`) from the cumulative counts, one pass over both dice:
    /// `#{max <= x} = #{X <= x} · #{Y <= x}`, and `min` the same from above.
    fn extreme<C: Count>(
        &self,
        other: &Die,
        highest: bool,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        meter.charge((self.len() + other.len()) as u64)?;
        let (a, b): (Vec<C>, Vec<C>) = (self.generic_counts(), other.generic_counts());
        // Walk the union of outcomes from the end whose cumulative count grows.
        let mut points: Vec<Outcome> = self
            .outcomes()
            .iter()
            .chain(other.outcomes())
            .copied()
            .collect();
        points.sort_unstable();
        points.dedup();
        if !highest {
            points.reverse();
        }
        let cumulate = |die: &Die, counts: &[C]| -> Vec<C> {
            let mut sums = Vec::with_capacity(points.len());
            let mut acc = C::zero();
            let (outcomes, mut i) = (die.outcomes(), 0usize);
            let ordered = |k: usize| if highest { k } else { outcomes.len() - 1 - k };
            for &x in &points {
                while i < outcomes.len() {
                    let k = ordered(i);
                    let reached = if highest {
                        outcomes[k] <= x
                    } else {
                        outcomes[k] >= x
                    };
                    if !reached {
                        break;
                    }
                    acc.add_assign(&counts[k]);
                    i += 1;
                }
                sums.push(acc.clone());
            }
            sums
        };
        let (sa, sb) = (cumulate(self, &a), cumulate(other, &b));
        let mut previous = C::zero();
        let mut pairs: Vec<(Outcome, C)> = Vec::with_capacity(points.len());
        for (k, &x) in points.iter().enumerate() {
            let reached = sa[k].times(&sb[k]);
            let mut count = reached.clone();
            count.sub_assign(&previous);
            pairs.push((x, count));
            previous = reached;
        }
        if !highest {
            pairs.reverse();
        }
        Die::from_sorted_generic(pairs)
    }

    /// Any binary operation by enumerating pairs of outcomes.
    fn pairwise<C: Count>(
        &self,
        other: &Die,
        op: BinaryOp,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let a: Vec<C> = self.generic_counts();
        let b: Vec<C> = other.generic_counts();
        let (pairs, bits) = (
            (self.len() as u64).saturating_mul(other.len() as u64),
            self.total_bits() + other.total_bits(),
        );
        plan::<C>(pairs, pairs, bits, meter.control())?;
        let mut pairs = Vec::with_capacity(self.len() * other.len());
        for (x, cx) in self.outcomes().iter().zip(&a) {
            meter.charge(b.len() as u64)?;
            for (y, cy) in other.outcomes().iter().zip(&b) {
                pairs.push((op.apply(*x, *y)?, cx.times(cy)));
            }
        }
        Die::from_unsorted_generic(pairs)
    }

    /// `n·X` by the recurrence for powers of a polynomial: with `P(z) = Σ p_j z^j` and
    /// `P^n = Σ a_k z^k`, differentiating `P^n` gives
    /// `a_k = Σ_{j=1..m} ((n+1)·j − k)·p_j·a_{k−j} / (k·p_0)`, an exact division.
    fn power_by_recurrence(&self, n: u64, meter: &mut Meter) -> Result<Die, DieError> {
        let m = span(self).expect("checked by the caller") as usize - 1;
        let p: Vec<BigUint> = dense::<BigUint>(self, m as u64 + 1);
        let len = m * n as usize + 1;
        if p.iter().all(|w| *w == p[0]) {
            return self.uniform_power(&p[0], m, n, meter);
        }
        let mut a: Vec<BigUint> = Vec::with_capacity(len);
        a.push(Count::pow(&p[0], n as u32));
        let (mut positive, mut negative) = (BigUint::zero(), BigUint::zero());
        for k in 1..len {
            meter.charge(m.min(k) as u64)?;
            positive.set_zero();
            negative.set_zero();
            for j in 1..=m.min(k) {
                if p[j].is_zero() || a[k - j].is_zero() {
                    continue;
                }
                let factor = (n as i128 + 1) * j as i128 - k as i128;
                let term = &p[j] * &a[k - j] * BigUint::from(factor.unsigned_abs());
                if factor > 0 {
                    positive += term;
                } else {
                    negative += term;
                }
            }
            let numerator = &positive - &negative;
            a.push(numerator / (&p[0] * BigUint::from(k as u64)));
        }
        let low = self.min_outcome() * n as i64;
        Die::from_sorted_generic(a.into_iter().enumerate().map(|(i, c)| (low + i as i64, c)))
    }

    /// `n·X` for a die whose `m + 1` consecutive outcomes all weigh `w`: the power
    /// recurrence with every `p_j` equal reads `k·a_k = (n+1)·W_k − k·S_k` with
    /// `S_k = Σ_{j=1..m} a_{k−j}` and `W_k = Σ_{j=1..m} j·a_{k−j}`, and both sums slide
    /// along `k` in a few big-integer operations (`S_{k+1} = S_k + a_k − a_{k−m}`,
    /// `W_{k+1} = W_k + S_{k+1} − m·a_{k−m}`), so a count costs the same for a d6 as
    /// for a d100.
    fn uniform_power(
        &self,
        w: &BigUint,
        m: usize,
        n: u64,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let len = m * n as usize + 1;
        let mut a: Vec<BigUint> = Vec::with_capacity(len);
        a.push(Count::pow(w, n as u32));
        let (mut sums, mut weighted) = (BigUint::zero(), BigUint::zero());
        let (mut numerator, mut scratch) = (BigUint::zero(), BigUint::zero());
        for k in 1..len {
            meter.charge(UNIFORM_STEP_CHARGE)?;
            // Slide both windows from k − 1 to k: a_{k−1} enters, a_{k−1−m} leaves.
            sums += &a[k - 1];
            if let Some(leaving) = (k - 1).checked_sub(m).map(|i| &a[i]) {
                sums -= leaving;
                scratch.clone_from(leaving);
                scratch *= m as u64;
                weighted -= &scratch;
            }
            weighted += &sums;
            numerator.clone_from(&weighted);
            numerator *= n + 1;
            scratch.clone_from(&sums);
            scratch *= k as u64;
            numerator -= &scratch;
            numerator /= k as u64;
            a.push(numerator.clone());
        }
        let low = self.min_outcome() * n as i64;
        Die::from_sorted_generic(a.into_iter().enumerate().map(|(i, c)| (low + i as i64, c)))
    }
}

/// What one count of [`Die::uniform_power`] is charged: its handful of big-integer
/// operations, against `m` multiplications a count for unequal weights.
pub(crate) const UNIFORM_STEP_CHARGE: u64 = 6;

/// Prices an operation before it allocates: `steps` against the budget and the
/// memory of `entries` outcomes with counts of up to `bits` bits against the
/// memory limit, so a product of large dice is refused with its size instead of
/// failing to allocate.
///
/// # Errors
/// [`DieError::Stopped`] with the budget or the memory it would pass.
fn plan<C: Count>(steps: u64, entries: u64, bits: u64, control: &Control) -> Result<(), DieError> {
    control.afford(steps as f64)?;
    let per_entry = std::mem::size_of::<(Outcome, C)>() as u64 + C::heap_bytes(bits);
    control.reserve(entries.saturating_mul(per_entry))?;
    Ok(())
}

/// The number of integer slots from the smallest to the largest outcome, if small.
fn span(die: &Die) -> Option<u64> {
    let width = die.max_outcome() as i128 - die.min_outcome() as i128 + 1;
    u64::try_from(width).ok().filter(|&w| w <= DENSE_SPAN_LIMIT)
}

/// Whether arrays over `slots` slots are worth it for `entries` outcomes (or pairs
/// of outcomes): dense work pays for every slot, so not when they are sparse.
fn worth_dense(slots: u64, entries: u64) -> bool {
    slots <= entries.saturating_mul(4).max(1024)
}

/// The counts laid out densely from the smallest outcome, zeros in the gaps.
fn dense<C: Count>(die: &Die, span: u64) -> Vec<C> {
    let mut out = vec![C::zero(); span as usize];
    let low = die.min_outcome();
    die.for_each_generic::<C>(|i, c| out[(die.outcomes()[i] - low) as usize] = c);
    out
}

/// The counts of the sum of two dice from their dense counts: one row of
/// multiply-adds per count of `a`, or, when that would be slow (long rows of
/// wide counts: `3500d2+3500d2` took 20 s), one product of two big integers.
fn convolve<C: Count>(a: &[C], b: &[C], meter: &mut Meter) -> Result<Vec<C>, DieError> {
    let widest = |counts: &[C]| counts.iter().map(Count::bit_len).max().unwrap_or(0);
    let (bits_a, bits_b) = (widest(a), widest(b));
    let (len_a, len_b) = (a.len() as f64, b.len() as f64);
    if transform_pays(len_a, len_b, bits_a as f64, bits_b as f64) {
        let bits = convolution_bits(len_a, len_b, bits_a as f64, bits_b as f64) as u64;
        meter.charge(transform_steps(len_a, len_b, bits_a as f64, bits_b as f64) as u64)?;
        return Ok(super::ntt::convolve(a, b, bits, meter.control())?);
    }
    let row = row_steps(1.0, len_b, bits_a as f64, bits_b as f64) as u64;
    let mut out = vec![C::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        meter.charge(row)?;
        for (slot, y) in out[i..].iter_mut().zip(b) {
            slot.add_mul(x, y);
        }
    }
    Ok(out)
}

/// Steps of the dense sum of two dice of `len_a` and `len_b` slots with counts
/// of up to `bits_a` and `bits_b` bits, by the cheaper way [`convolve`] takes:
/// rows of multiply-adds, or number-theoretic transforms.
pub(crate) fn sum_steps(len_a: f64, len_b: f64, bits_a: f64, bits_b: f64) -> f64 {
    transform_steps(len_a, len_b, bits_a, bits_b).min(row_steps(len_a, len_b, bits_a, bits_b))
}

/// Whether [`convolve`] takes the transforms instead of rows.
fn transform_pays(len_a: f64, len_b: f64, bits_a: f64, bits_b: f64) -> bool {
    transform_steps(len_a, len_b, bits_a, bits_b) < row_steps(len_a, len_b, bits_a, bits_b)
}

/// Steps of a convolution by rows: a step a pair of counts, and wide counts a
/// step for every [`WORD_PRODUCTS_PER_STEP`] products of their words.
fn row_steps(len_a: f64, len_b: f64, bits_a: f64, bits_b: f64) -> f64 {
    len_a * len_b * (words(bits_a) * words(bits_b) / WORD_PRODUCTS_PER_STEP).max(1.0)
}

/// Products of 64-bit words a step of the budget (about a nanosecond, as
/// everywhere) holds: a multiply-add of wide counts runs at about half a
/// nanosecond a product (measured: `3500d2+3500d2`, 3.7·10¹⁰ products of words in
/// rows, 20 s). The transforms' steps ([`ntt::steps`](super::ntt)) are counted in
/// the same unit, so the cheaper way is chosen by comparing them.
const WORD_PRODUCTS_PER_STEP: f64 = 2.0;

/// Steps of a convolution by number-theoretic transforms (`ntt.rs`).
fn transform_steps(len_a: f64, len_b: f64, bits_a: f64, bits_b: f64) -> f64 {
    let bits = convolution_bits(len_a, len_b, bits_a, bits_b);
    super::ntt::steps(len_a, len_b, words(bits_a), words(bits_b), bits)
}

/// Bits every count of the convolution of rows of `len_a` and `len_b` counts of
/// up to `bits_a` and `bits_b` bits fits in: a sum of at most `min(len_a, len_b)`
/// products.
fn convolution_bits(len_a: f64, len_b: f64, bits_a: f64, bits_b: f64) -> f64 {
    bits_a + bits_b + len_a.min(len_b).max(1.0).log2().floor() + 1.0
}

/// 64-bit words of a count of `bits` bits (at least one).
fn words(bits: f64) -> f64 {
    (bits / 64.0).ceil().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stop;
    use crate::dice::testing::{brute_force, d};

    #[test]
    fn binary_ops_match_brute_force() {
        let x = Die::new([(-2, 1u32), (0, 2), (3, 1), (7, 3)]).unwrap();
        let y = Die::new([(-1, 2u32), (2, 1), (5, 1)]).unwrap();
        for op in [
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::Max,
            BinaryOp::Min,
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
            BinaryOp::Eq,
            BinaryOp::Ne,
            BinaryOp::Mod,
            BinaryOp::And,
            BinaryOp::Or,
        ] {
            let expected = brute_force(&[&x, &y], |v| op.apply(v[0], v[1]).unwrap());
            assert_eq!(
                x.combine(&y, op, &Control::new()).unwrap(),
                expected,
                "{op:?}"
            );
        }
    }

    #[test]
    fn floor_division_rounds_down() {
        for (a, b, q) in [
            (7, 2, 3),
            (-7, 2, -4),
            (7, -2, -4),
            (-7, -2, 3),
            (6, -3, -2),
        ] {
            assert_eq!(BinaryOp::Div.apply(a, b), Ok(q), "{a} / {b}");
        }
        assert_eq!(d(6).div(&Die::range(0, 2)), Err(DieError::DivisionByZero));
        for (a, b, r) in [(7, 3, 1), (-7, 3, 2), (7, -3, -2), (-7, -3, -1), (6, 3, 0)] {
            assert_eq!(BinaryOp::Mod.apply(a, b), Ok(r), "{a} % {b}");
            let q = BinaryOp::Div.apply(a, b).unwrap();
            assert_eq!(q * b + r, a);
        }
        assert_eq!(BinaryOp::Mod.apply(i64::MIN, -1), Ok(0));
        assert_eq!(
            d(6).combine(&Die::range(0, 2), BinaryOp::Mod, &Control::new()),
            Err(DieError::DivisionByZero)
        );
    }

    #[test]
    fn repeated_sums_match_repeated_addition() {
        let odd = Die::new([(0, 2u32), (1, 1), (4, 5)]).unwrap();
        for die in [
            d(6),
            odd,
            Die::fudge(),
            Die::from_faces(&[1, 1, 2, 3]).unwrap(),
        ] {
            let mut naive = Die::constant(0);
            for n in 0..12u64 {
                assert_eq!(
                    die.repeat_sum(n, &Control::new()).unwrap(),
                    naive,
                    "{n} of {die}"
                );
                naive = naive.add(&die).unwrap();
            }
        }
    }

    /// `n` copies of `die` summed by squaring, pair by pair in big integers: the
    /// reference the recurrences are checked against.
    fn squared(die: &Die, n: u64) -> Die {
        let mut result = Die::constant(0);
        let mut base = die.clone();
        let mut e = n;
        while e > 0 {
            if e & 1 == 1 {
                result = result.add(&base).unwrap();
            }
            base = base.add(&base).unwrap();
            e >>= 1;
        }
        result
    }

    #[test]
    fn power_recurrence_matches_squaring() {
        // Totals over 128 bits take the recurrence; compare with squaring in big ints.
        let die = Die::new([(-1, 3u32), (0, 1), (2, 7)]).unwrap();
        let n = 60;
        assert!(die.total_bits() * n > 128);
        assert_eq!(
            die.repeat_sum(n, &Control::new()).unwrap(),
            squared(&die, n)
        );
    }

    #[test]
    fn uniform_power_recurrence_matches_squaring() {
        // Equal weights take the sliding sums; a constant die, a coin, a d6 with every
        // face weighing 3 and a d100 moved to start at −7.
        let shifted = Die::new((-7..93).map(|o| (o, 1u32))).unwrap();
        let heavy = Die::new((1..=6).map(|o| (o, 3u32))).unwrap();
        let coin = Die::new([(0, 1u32), (1, 1)]).unwrap();
        let constant = Die::new([(5, 1u32 << 20)]).unwrap();
        for (die, n) in [(shifted, 30), (heavy, 70), (coin, 200), (constant, 9)] {
            assert!(die.total_bits() * n > 128, "{n} copies take the recurrence");
            assert_eq!(
                die.repeat_sum(n, &Control::new()).unwrap(),
                squared(&die, n)
            );
        }
    }

    #[test]
    fn hundred_d6_is_exact() {
        let die = d(6).repeat_sum(100, &Control::new()).unwrap();
        assert_eq!(
            die.total().to_string(),
            "653318623500070906096690267158057820537143710472954871543071966369497141477376"
        );
        assert_eq!(die.count(100), BigUint::from(1u32));
        assert_eq!(die.count(101), BigUint::from(100u32));
        assert_eq!(
            die.mean(),
            num_rational::BigRational::from_integer(350.into())
        );
    }

    #[test]
    fn overflow_is_an_error() {
        let huge = Die::constant(i64::MAX);
        assert_eq!(huge.add(&Die::constant(1)), Err(DieError::Overflow));
        assert_eq!(huge.repeat_sum(2, &Control::new()), Err(DieError::Overflow));
        assert_eq!(Die::constant(i64::MIN).negate(), Err(DieError::Overflow));
        assert!(matches!(
            d(6).repeat_sum(MAX_DICE + 1, &Control::new()),
            Err(DieError::TooManyDice { .. })
        ));
    }

    #[test]
    fn products_are_priced_before_their_pairs_are_made() {
        // d1000·d1000 has a million pairs: 16 MiB of pairs in one word each.
        let d1000 = d(1000);
        let small = Control::new().with_max_memory(1 << 20);
        assert!(matches!(
            d1000.combine(&d1000, BinaryOp::Mul, &small),
            Err(DieError::Stopped(Stop::OverMemory { needed, .. })) if needed >= 16_000_000
        ));
        let few_steps = Control::new().with_max_steps(100_000);
        assert!(matches!(
            d1000.combine(&d1000, BinaryOp::Mul, &few_steps),
            Err(DieError::Stopped(Stop::OverEstimate {
                estimate: 1_000_000,
                limit: 100_000
            }))
        ));
        // Nothing was metered: the refusal came before the work.
        assert_eq!(few_steps.steps_used(), 0);
        // What fits is computed as before.
        let product = d1000.combine(&d(10), BinaryOp::Mul, &few_steps).unwrap();
        assert_eq!(product.total(), BigUint::from(10_000u32));
    }

    /// The convolution by rows, for the tests of the transforms.
    fn by_rows<C: Count>(a: &[C], b: &[C]) -> Vec<C> {
        let mut out = vec![C::zero(); a.len() + b.len() - 1];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                out[i + j].add_mul(x, y);
            }
        }
        out
    }

    /// The bits of the largest count of the convolution of `a` and `b`.
    fn bound<C: Count>(a: &[C], b: &[C]) -> u64 {
        let widest = |v: &[C]| v.iter().map(Count::bit_len).max().unwrap_or(0);
        let shorter = a.len().min(b.len()) as u64;
        widest(a) + widest(b) + u64::from(u64::BITS - shorter.leading_zeros())
    }

    #[test]
    fn the_transforms_convolve_exactly() {
        use super::super::ntt;
        use crate::dice::count::Long;
        // Counts of every width, zeros and uneven lengths among them; words
        // full to the top bit, so that a prime too few would show.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let control = Control::new();
        for (len_a, len_b, words) in [
            (1, 1, 1),
            (3, 70, 1),
            (64, 64, 2),
            (17, 5, 9),
            (40, 90, 70),
            (300, 2, 3),
        ] {
            let big = |len: usize, next: &mut dyn FnMut() -> u64| -> Vec<BigUint> {
                (0..len)
                    .map(|i| match i % 5 {
                        0 => BigUint::zero(),
                        1 => BigUint::from_slice(&vec![u32::MAX; 2 * words]),
                        _ => {
                            let digits: Vec<u32> = (0..2 * words).map(|_| next() as u32).collect();
                            BigUint::new(digits)
                        }
                    })
                    .collect()
            };
            let (a, b) = (big(len_a, &mut next), big(len_b, &mut next));
            assert_eq!(
                ntt::convolve(&a, &b, bound(&a, &b), &control).unwrap(),
                by_rows(&a, &b),
                "{len_a}x{len_b} of {words} words"
            );
            if words == 1 {
                let small = |v: &[BigUint]| -> Vec<u128> {
                    v.iter().map(|c| c.try_into().unwrap()).collect()
                };
                let (a, b) = (small(&a), small(&b));
                assert_eq!(
                    ntt::convolve(&a, &b, bound(&a, &b), &control).unwrap(),
                    by_rows(&a, &b)
                );
            }
            if words <= 9 {
                let long = |v: &[BigUint]| -> Vec<Long> { v.iter().map(Long::from_big).collect() };
                let (a, b) = (long(&a), long(&b));
                assert_eq!(
                    ntt::convolve(&a, &b, bound(&a, &b), &control).unwrap(),
                    by_rows(&a, &b)
                );
            }
        }
    }

    #[test]
    fn large_sums_take_the_transforms_and_agree_with_every_pair() {
        // 400d6 + 300d8: the transforms pay (counts of about 1,000 and 900 bits,
        // 2,000 slots), and every pair of outcomes added one by one agrees.
        let control = Control::new();
        let (a, b) = (
            d(6).repeat_sum(400, &control).unwrap(),
            d(8).repeat_sum(300, &control).unwrap(),
        );
        assert!(transform_pays(
            span(&a).unwrap() as f64,
            span(&b).unwrap() as f64,
            a.total_bits() as f64,
            b.total_bits() as f64
        ));
        let sum = a.combine(&b, BinaryOp::Add, &control).unwrap();
        let pairs = a
            .pairwise::<BigUint>(&b, BinaryOp::Add, &mut control.meter())
            .unwrap();
        assert_eq!(sum, pairs);
        assert_eq!(sum.total(), a.total() * b.total());
    }

    #[test]
    fn sparse_sums_use_pairs() {
        let sparse = Die::from_faces(&[0, 1_000_000_000]).unwrap();
        let two = sparse.repeat_sum(2, &Control::new()).unwrap();
        assert_eq!(two.outcomes(), &[0, 1_000_000_000, 2_000_000_000]);
        assert_eq!(two.count(1_000_000_000), BigUint::from(2u32));
    }
}
