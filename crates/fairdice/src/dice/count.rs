//! Exact counts: the integer weights of a distribution, with machine-integer fast paths.
//!
//! # Design decisions
//! A computation first bounds the total it can produce (the product of the totals of
//! everything it combines). If that bound fits a `u64` or a `u128`, the whole
//! computation runs in that primitive type; up to 960 bits it runs in a fixed-width
//! [`Wide`] that works only on the words a count uses; up to 4096 bits in a [`Long`]
//! on the heap that multiplies into a count in place; only beyond does it use
//! [`BigUint`]. Every count of a result is at most its total, so a computation whose
//! total fits never overflows. The choice is made once per computation, through
//! [`with_count_type!`](crate::with_count_type), so inner loops carry no branches on
//! the representation.

use std::fmt::Debug;
use std::hash::Hash;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use smallvec::SmallVec;

/// A count's 64-bit words, least significant first, inline up to the widest fixed type.
pub type Words = SmallVec<[u64; 16]>;

/// An exact non-negative integer weight used inside a computation.
///
/// Implemented for `u64` and `u128` (the fast paths) and [`BigUint`]. Callers pick
/// the narrowest type whose range holds the computation's total, so the
/// operations here never overflow.
pub trait Count: Clone + Eq + Ord + Hash + Debug + Send + Sync + Zero + One + 'static {
    /// Bytes a count of up to `bits` bits holds beyond its own value (the words
    /// of a heap-allocated integer); fixed-width counts hold none.
    fn heap_bytes(bits: u64) -> u64 {
        let _ = bits;
        0
    }
    /// Converts from a primitive.
    fn from_u64(value: u64) -> Self;
    /// Converts from a big integer that the caller knows fits.
    fn from_big(value: &BigUint) -> Self;
    /// Converts to a big integer.
    fn to_big(&self) -> BigUint;
    /// The nearest `f64` (infinite only beyond `f64::MAX`).
    fn to_f64(&self) -> f64;
    /// The number of significant bits (0 for zero).
    fn bit_len(&self) -> u64;
    /// The value as a machine word, if it fits.
    fn try_u64(&self) -> Option<u64>;
    /// `self += other`.
    fn add_assign(&mut self, other: &Self);
    /// `self -= other`; the caller guarantees `other <= self`.
    fn sub_assign(&mut self, other: &Self);
    /// `self * other`.
    fn times(&self, other: &Self) -> Self;
    /// `self += a * b`, the inner step of every convolution.
    fn add_mul(&mut self, a: &Self, b: &Self);
    /// `self * k` for a small factor.
    fn mul_u64(&self, k: u64) -> Self;
    /// `self += a · k` for a factor of one word, the commonest product of a walk
    /// (a binomial coefficient), without building `k` as a count.
    #[inline]
    fn add_mul_u64(&mut self, a: &Self, k: u64) {
        self.add_mul(a, &Self::from_u64(k));
    }
    /// The value's 64-bit words, least significant first, none of them zero at the top.
    fn to_words(&self) -> Words;
    /// The value of `words` (least significant first), which the caller knows fits.
    fn from_words(words: &[u64]) -> Self;
    /// The same value in another count type, which the caller knows holds it.
    #[inline]
    fn convert<D: Count>(&self) -> D {
        self.converted::<D>().into_owned()
    }
    /// [`convert`](Self::convert), borrowing `self` when the types are the same.
    #[inline]
    fn converted<D: Count>(&self) -> std::borrow::Cow<'_, D> {
        match (self as &dyn std::any::Any).downcast_ref::<D>() {
            Some(same) => std::borrow::Cow::Borrowed(same),
            None => std::borrow::Cow::Owned(D::from_words(&self.to_words())),
        }
    }
    /// `self` raised to `exponent`.
    fn pow(&self, exponent: u32) -> Self {
        let mut result = Self::one();
        let mut base = self.clone();
        let mut e = exponent;
        while e > 0 {
            if e & 1 == 1 {
                result = result.times(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.times(&base);
            }
        }
        result
    }
}

macro_rules! impl_count_for_primitive {
    ($t:ty) => {
        impl Count for $t {
            #[inline]
            fn from_u64(value: u64) -> Self {
                value as $t
            }
            #[inline]
            fn from_big(value: &BigUint) -> Self {
                // The caller chose this type because the value fits; saturating keeps a
                // logic error visible in tests instead of wrapping silently.
                value.try_into().unwrap_or(<$t>::MAX)
            }
            #[inline]
            fn to_big(&self) -> BigUint {
                BigUint::from(*self)
            }
            #[inline]
            fn to_f64(&self) -> f64 {
                *self as f64
            }
            #[inline]
            fn bit_len(&self) -> u64 {
                u64::from(<$t>::BITS - self.leading_zeros())
            }
            #[inline]
            fn try_u64(&self) -> Option<u64> {
                u64::try_from(*self).ok()
            }
            #[inline]
            fn add_assign(&mut self, other: &Self) {
                *self += *other;
            }
            #[inline]
            fn sub_assign(&mut self, other: &Self) {
                *self -= *other;
            }
            #[inline]
            fn times(&self, other: &Self) -> Self {
                *self * *other
            }
            #[inline]
            fn add_mul(&mut self, a: &Self, b: &Self) {
                *self += *a * *b;
            }
            #[inline]
            fn mul_u64(&self, k: u64) -> Self {
                *self * k as $t
            }
            #[inline]
            fn add_mul_u64(&mut self, a: &Self, k: u64) {
                *self += *a * k as $t;
            }
            #[inline]
            fn to_words(&self) -> Words {
                let mut words = Words::new();
                let mut rest = *self;
                while rest != 0 {
                    words.push(rest as u64);
                    rest = rest.checked_shr(64).unwrap_or(0);
                }
                words
            }
            #[inline]
            fn from_words(words: &[u64]) -> Self {
                debug_assert!(
                    words.len() <= (<$t>::BITS / 64) as usize,
                    "{words:?} does not fit"
                );
                words
                    .iter()
                    .rev()
                    .fold(0, |acc: $t, &w| acc.checked_shl(64).unwrap_or(0) | w as $t)
            }
        }
    };
}

impl_count_for_primitive!(u64);
impl_count_for_primitive!(u128);

/// `acc[at..] += x · b`, carrying as far as `acc` goes (a carry past it is
/// dropped); `acc` holds `at + b.len()` words at least.
#[inline]
fn mac_row(acc: &mut [u64], at: usize, x: u64, b: &[u64]) {
    let mut carry = 0u64;
    for (slot, &y) in acc[at..at + b.len()].iter_mut().zip(b) {
        let t = u128::from(x) * u128::from(y) + u128::from(*slot) + u128::from(carry);
        *slot = t as u64;
        carry = (t >> 64) as u64;
    }
    for slot in &mut acc[at + b.len()..] {
        if carry == 0 {
            break;
        }
        let (sum, overflow) = slot.overflowing_add(carry);
        *slot = sum;
        carry = u64::from(overflow);
    }
}

/// `acc = x · b` (`acc` as long as `b`), returning the word carried out of it.
#[inline]
fn mul_row(acc: &mut [u64], x: u64, b: &[u64]) -> u64 {
    let mut carry = 0u64;
    for (slot, &y) in acc.iter_mut().zip(b) {
        let t = u128::from(x) * u128::from(y) + u128::from(carry);
        *slot = t as u64;
        carry = (t >> 64) as u64;
    }
    carry
}

/// `acc += b` over the first `b.len()` words of `acc`, returning the carry out of them.
#[inline]
fn add_words(acc: &mut [u64], b: &[u64]) -> bool {
    let mut carry = false;
    for (slot, &y) in acc.iter_mut().zip(b) {
        let (sum, c1) = slot.overflowing_add(y);
        let (sum, c2) = sum.overflowing_add(u64::from(carry));
        *slot = sum;
        carry = c1 | c2;
    }
    carry
}

/// The two factors of a product, shorter first: schoolbook rows then run along the
/// longer one (fewer rows, each a longer loop).
#[inline]
fn shorter_first<'a>(a: &'a [u64], b: &'a [u64]) -> (&'a [u64], &'a [u64]) {
    if a.len() <= b.len() { (a, b) } else { (b, a) }
}

/// How many of the first `upto` words of `limbs` are up to its highest nonzero one.
#[inline]
fn used_words(limbs: &[u64], upto: usize) -> u32 {
    limbs[..upto]
        .iter()
        .rposition(|&limb| limb != 0)
        .map_or(0, |i| i + 1) as u32
}

/// A fixed-width integer of `BITS` bits (`LIMBS` 64-bit words) that knows how many
/// of its words are in use: no allocation, so mid-sized totals (`100d10` has 333
/// bits) stay fast, and arithmetic touches only the words in use.
///
/// A type is chosen for the largest count of a computation, but most values it
/// holds (a binomial coefficient, a die's weight, an early partial count) use one or
/// a few of its 4 to 32 words; adding or multiplying all of them, as a plain
/// fixed-width integer does, made the widest pools pay for words that are zero.
/// Storage and conversions are [`ruint`]'s.
///
/// Invariant: `used` is the number of words up to the highest nonzero one, and the
/// words above it are zero, so equal values are equal structurally.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const BITS: usize, const LIMBS: usize> {
    limbs: [u64; LIMBS],
    used: u32,
}

impl<const BITS: usize, const LIMBS: usize> Wide<BITS, LIMBS> {
    /// The value of `limbs`, whose words from `upto` on are zero.
    #[inline]
    fn new(limbs: [u64; LIMBS], upto: usize) -> Self {
        Wide {
            used: used_words(&limbs, upto),
            limbs,
        }
    }

    #[inline]
    fn uint(&self) -> ruint::Uint<BITS, LIMBS> {
        ruint::Uint::from_limbs(self.limbs)
    }

    #[inline]
    fn words(&self) -> &[u64] {
        &self.limbs[..self.used as usize]
    }

    /// `self += x · b` for a nonzero word `x`: one row, and the sum's length from
    /// the longer term's, without a scan. Up to [`FULL_ROW_LIMBS`] words the row runs
    /// over every word, unrolled and without branches: multiplying a few zero words
    /// costs less than a loop that stops at the last one in use.
    #[inline(always)]
    fn add_mul_words(&mut self, x: u64, b: &Self) {
        if LIMBS <= FULL_ROW_LIMBS {
            let mut carry = 0u64;
            for (slot, &y) in self.limbs.iter_mut().zip(&b.limbs) {
                let t = u128::from(x) * u128::from(y) + u128::from(*slot) + u128::from(carry);
                *slot = t as u64;
                carry = (t >> 64) as u64;
            }
        } else {
            mac_row(&mut self.limbs, 0, x, b.words());
        }
        // The sum is at least either term and, as `x·b` is below
        // `2^(64·(b.used + 1))`, at most one word longer than the longer.
        let n = self.used.max(b.used) as usize;
        self.used = if n < LIMBS {
            (n + usize::from(self.limbs[n] != 0)) as u32
        } else {
            // Past the type's width the sum wraps; the caller rules that out.
            used_words(&self.limbs, LIMBS)
        };
    }
}

impl<const BITS: usize, const LIMBS: usize> Ord for Wide<BITS, LIMBS> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.used
            .cmp(&other.used)
            .then_with(|| self.words().iter().rev().cmp(other.words().iter().rev()))
    }
}

impl<const BITS: usize, const LIMBS: usize> PartialOrd for Wide<BITS, LIMBS> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const BITS: usize, const LIMBS: usize> Zero for Wide<BITS, LIMBS> {
    #[inline]
    fn zero() -> Self {
        Wide {
            limbs: [0; LIMBS],
            used: 0,
        }
    }
    #[inline]
    fn is_zero(&self) -> bool {
        self.used == 0
    }
}

impl<const BITS: usize, const LIMBS: usize> One for Wide<BITS, LIMBS> {
    #[inline]
    fn one() -> Self {
        Self::from_u64(1)
    }
    /// Without building a one and comparing every word.
    #[inline]
    fn is_one(&self) -> bool {
        self.used == 1 && self.limbs[0] == 1
    }
}

impl<const BITS: usize, const LIMBS: usize> std::ops::Add for Wide<BITS, LIMBS> {
    type Output = Self;
    fn add(mut self, other: Self) -> Self {
        Count::add_assign(&mut self, &other);
        self
    }
}

impl<const BITS: usize, const LIMBS: usize> std::ops::Mul for Wide<BITS, LIMBS> {
    type Output = Self;
    fn mul(self, other: Self) -> Self {
        self.times(&other)
    }
}

impl<const BITS: usize, const LIMBS: usize> Count for Wide<BITS, LIMBS> {
    #[inline]
    fn from_u64(value: u64) -> Self {
        let mut limbs = [0u64; LIMBS];
        limbs[0] = value;
        Self::new(limbs, 1)
    }
    fn from_big(value: &BigUint) -> Self {
        let uint = ruint::Uint::<BITS, LIMBS>::checked_from_limbs_slice(&value.to_u64_digits())
            .unwrap_or(ruint::Uint::MAX);
        Self::new(*uint.as_limbs(), LIMBS)
    }
    fn to_big(&self) -> BigUint {
        BigUint::from_bytes_le(&self.uint().to_le_bytes_vec())
    }
    fn to_f64(&self) -> f64 {
        f64::from(self.uint())
    }
    fn bit_len(&self) -> u64 {
        match self.words().last() {
            Some(top) => 64 * u64::from(self.used) - u64::from(top.leading_zeros()),
            None => 0,
        }
    }
    fn try_u64(&self) -> Option<u64> {
        match self.used {
            0 => Some(0),
            1 => Some(self.limbs[0]),
            _ => None,
        }
    }
    #[inline]
    fn add_assign(&mut self, other: &Self) {
        let n = self.used.max(other.used) as usize;
        if LIMBS <= FULL_ADD_LIMBS {
            // Adding every word, unrolled and without branches, is faster here
            // than a loop over the words in use. A carry out of the top word is
            // an overflow, which the caller rules out.
            add_words(&mut self.limbs, &other.limbs);
            self.used = (n + usize::from(n < LIMBS && self.limbs[n.min(LIMBS - 1)] != 0)) as u32;
            return;
        }
        let carry = add_words(&mut self.limbs[..n], &other.limbs[..n]);
        self.used = n as u32;
        // A carry out of the top word is an overflow, which the caller rules out.
        if carry && n < LIMBS {
            self.limbs[n] = 1;
            self.used += 1;
        }
    }
    #[inline]
    fn sub_assign(&mut self, other: &Self) {
        let n = self.used as usize;
        let mut borrow = false;
        for (slot, &y) in self.limbs[..n].iter_mut().zip(&other.limbs[..n]) {
            let (diff, b1) = slot.overflowing_sub(y);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 | b2;
        }
        *self = Self::new(self.limbs, n);
    }
    #[inline]
    fn times(&self, other: &Self) -> Self {
        let (a, b) = shorter_first(self.words(), other.words());
        match a {
            [] => return Self::zero(),
            // One word (a binomial, a die's weight or total): one row.
            &[x] => {
                let mut out = [0u64; LIMBS];
                let n = b.len();
                let carry = mul_row(&mut out[..n], x, b);
                if n < LIMBS {
                    out[n] = carry;
                    // `x` and `b`'s top word are nonzero: `n` words, or one more.
                    let used = n + usize::from(carry != 0);
                    return Wide {
                        limbs: out,
                        used: used as u32,
                    };
                }
                // Past the type's width the product wraps; the caller rules that out.
                return Self::new(out, LIMBS);
            }
            _ => {}
        }
        let mut out = [0u64; LIMBS];
        for (i, &x) in a.iter().enumerate() {
            mac_row(&mut out, i, x, &b[..b.len().min(LIMBS - i)]);
        }
        let upto = a.len() + b.len();
        if upto > LIMBS {
            // Past the type's width the product wraps; the caller rules that out.
            return Self::new(out, LIMBS);
        }
        // The product of nonzero numbers of `a` and `b` words has `a + b` words or
        // one fewer.
        Wide {
            limbs: out,
            used: (upto - usize::from(out[upto - 1] == 0)) as u32,
        }
    }
    /// Multiplies into `self` row by row, without forming the product apart.
    #[inline(always)]
    fn add_mul(&mut self, a: &Self, b: &Self) {
        let (a, b) = if a.used <= b.used { (a, b) } else { (b, a) };
        match a.used {
            0 => return,
            1 => return self.add_mul_words(a.limbs[0], b),
            _ => {}
        }
        let (a, b) = (a.words(), b.words());
        // Past the type's width the sum wraps; the caller rules that out.
        for (i, &x) in a.iter().enumerate().take(LIMBS) {
            mac_row(&mut self.limbs, i, x, &b[..b.len().min(LIMBS - i)]);
        }
        // The sum has at most one word more than the wider of its terms.
        let upto = (self.used as usize).max(a.len() + b.len()) + 1;
        self.used = used_words(&self.limbs, upto.min(LIMBS));
    }
    #[inline]
    fn mul_u64(&self, k: u64) -> Self {
        self.times(&Self::from_u64(k))
    }
    #[inline(always)]
    fn add_mul_u64(&mut self, a: &Self, k: u64) {
        if k != 0 {
            self.add_mul_words(k, a);
        }
    }
    #[inline]
    fn to_words(&self) -> Words {
        Words::from_slice(self.words())
    }
    #[inline]
    fn from_words(words: &[u64]) -> Self {
        debug_assert!(words.len() <= LIMBS, "{words:?} does not fit");
        let n = words.len().min(LIMBS);
        let mut limbs = [0u64; LIMBS];
        limbs[..n].copy_from_slice(&words[..n]);
        Self::new(limbs, n)
    }
}

/// The widest totals computed in [`Long`].
const LONG_BITS: u64 = 4096;

/// The widest type whose sums add every word (see [`Wide::add_assign`]).
const FULL_ADD_LIMBS: usize = 8;

/// The widest type whose one-word multiply-adds run over every word (see
/// [`Wide::add_mul_words`]).
const FULL_ROW_LIMBS: usize = 4;

/// 256-bit counts.
pub type U256 = Wide<256, 4>;
/// 384-bit counts: six words, half way between [`U256`] and [`U512`], whose
/// doubling would double the cost of every weight just past 256 bits.
pub type U384 = Wide<384, 6>;
/// 512-bit counts.
pub type U512 = Wide<512, 8>;
/// 960-bit counts: fifteen words, so that with their word count they take 128
/// bytes, which a copy moves inline. At sixteen words (136 bytes) every copy was a
/// call to `memmove`, 15% of `{100d4+100d6+100d8}kh50`; fifteen made it 9% faster.
pub type U960 = Wide<960, 15>;

/// A count of any width on the heap, for totals a little past the inline widths
/// (up to 4096 bits): merging a product into a count held already multiplies in
/// place ([`Count::add_mul`]), so a walk allocates only for the states it creates,
/// where a [`BigUint`] allocates a product for every merge.
///
/// Products are schoolbook, which is as fast as anything at these widths; wider
/// totals use [`BigUint`], whose products are faster there.
///
/// Invariant: no zero words at the top, so equal values are equal structurally.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Long {
    limbs: Vec<u64>,
}

impl Long {
    fn trimmed(limbs: Vec<u64>) -> Self {
        let mut long = Long { limbs };
        long.trim();
        long
    }

    /// Drops zero words from the top (the invariant).
    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }
}

impl Ord for Long {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Long {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Zero for Long {
    fn zero() -> Self {
        Long { limbs: Vec::new() }
    }
    fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }
}

impl One for Long {
    fn one() -> Self {
        Long { limbs: vec![1] }
    }
    #[inline]
    fn is_one(&self) -> bool {
        self.limbs == [1]
    }
}

impl std::ops::Add for Long {
    type Output = Self;
    fn add(mut self, other: Self) -> Self {
        Count::add_assign(&mut self, &other);
        self
    }
}

impl std::ops::Mul for Long {
    type Output = Self;
    fn mul(self, other: Self) -> Self {
        self.times(&other)
    }
}

impl Count for Long {
    fn heap_bytes(bits: u64) -> u64 {
        bits.div_ceil(64) * 8
    }

    fn from_u64(value: u64) -> Self {
        Long::trimmed(vec![value])
    }
    fn from_big(value: &BigUint) -> Self {
        Long::trimmed(value.to_u64_digits())
    }
    fn to_big(&self) -> BigUint {
        BigUint::from_slice(
            &self
                .limbs
                .iter()
                .flat_map(|&limb| [limb as u32, (limb >> 32) as u32])
                .collect::<Vec<u32>>(),
        )
    }
    fn to_f64(&self) -> f64 {
        Count::to_f64(&self.to_big())
    }
    fn bit_len(&self) -> u64 {
        match self.limbs.last() {
            Some(top) => 64 * self.limbs.len() as u64 - u64::from(top.leading_zeros()),
            None => 0,
        }
    }
    fn try_u64(&self) -> Option<u64> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [value] => Some(*value),
            _ => None,
        }
    }
    fn add_assign(&mut self, other: &Self) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = add_words(&mut self.limbs, &other.limbs);
        for slot in &mut self.limbs[other.limbs.len()..] {
            if !carry {
                break;
            }
            let (sum, overflow) = slot.overflowing_add(1);
            *slot = sum;
            carry = overflow;
        }
        if carry {
            self.limbs.push(1);
        }
    }
    fn sub_assign(&mut self, other: &Self) {
        let mut borrow = false;
        for (i, slot) in self.limbs.iter_mut().enumerate() {
            let y = other.limbs.get(i).copied().unwrap_or(0);
            if i >= other.limbs.len() && !borrow {
                break;
            }
            let (diff, b1) = slot.overflowing_sub(y);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 | b2;
        }
        self.trim();
    }
    fn times(&self, other: &Self) -> Self {
        if self.is_zero() || other.is_zero() {
            return Self::zero();
        }
        let (short, long) = shorter_first(&self.limbs, &other.limbs);
        let mut out = vec![0u64; short.len() + long.len()];
        for (i, &x) in short.iter().enumerate() {
            mac_row(&mut out, i, x, long);
        }
        Long::trimmed(out)
    }
    fn add_mul(&mut self, a: &Self, b: &Self) {
        if a.is_zero() || b.is_zero() {
            return;
        }
        let (short, long) = shorter_first(&a.limbs, &b.limbs);
        let len = self.limbs.len().max(short.len() + long.len()) + 1;
        self.limbs.resize(len, 0);
        for (i, &x) in short.iter().enumerate() {
            mac_row(&mut self.limbs, i, x, long);
        }
        self.trim();
    }
    fn mul_u64(&self, k: u64) -> Self {
        self.times(&Self::from_u64(k))
    }
    fn to_words(&self) -> Words {
        Words::from_slice(&self.limbs)
    }
    fn from_words(words: &[u64]) -> Self {
        Long::trimmed(words.to_vec())
    }
}

impl Count for BigUint {
    fn heap_bytes(bits: u64) -> u64 {
        bits.div_ceil(64) * 8
    }

    fn from_u64(value: u64) -> Self {
        BigUint::from(value)
    }
    fn from_big(value: &BigUint) -> Self {
        value.clone()
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::INFINITY)
    }
    fn bit_len(&self) -> u64 {
        self.bits()
    }
    fn try_u64(&self) -> Option<u64> {
        ToPrimitive::to_u64(self)
    }
    fn add_assign(&mut self, other: &Self) {
        *self += other;
    }
    fn sub_assign(&mut self, other: &Self) {
        *self -= other;
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn add_mul(&mut self, a: &Self, b: &Self) {
        if !a.is_zero() && !b.is_zero() {
            *self += a * b;
        }
    }
    fn mul_u64(&self, k: u64) -> Self {
        self * k
    }
    fn to_words(&self) -> Words {
        self.to_u64_digits().into()
    }
    fn from_words(words: &[u64]) -> Self {
        let halves: Vec<u32> = words
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        BigUint::from_slice(&halves)
    }
    fn pow(&self, exponent: u32) -> Self {
        num_traits::Pow::pow(self, exponent)
    }
}

/// The integer type a computation runs in, chosen from a bound on its total;
/// ordered from the narrowest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CountType {
    /// Totals below 2^64.
    U64,
    /// Totals below 2^128.
    U128,
    /// Totals below 2^256.
    U256,
    /// Totals below 2^384.
    U384,
    /// Totals below 2^512.
    U512,
    /// Totals below 2^960.
    U960,
    /// Totals below 2^4096.
    Long,
    /// Anything larger.
    Big,
}

impl CountType {
    /// The narrowest type that holds every integer of at most `bits` bits.
    pub fn for_bits(bits: u64) -> Self {
        if bits <= 64 {
            CountType::U64
        } else if bits <= 128 {
            CountType::U128
        } else if bits <= 256 {
            CountType::U256
        } else if bits <= 384 {
            CountType::U384
        } else if bits <= 512 {
            CountType::U512
        } else if bits <= 960 {
            CountType::U960
        } else if bits <= LONG_BITS {
            CountType::Long
        } else {
            CountType::Big
        }
    }

    /// The narrowest type that holds `bound`.
    pub fn for_bound(bound: &BigUint) -> Self {
        Self::for_bits(bound.bits())
    }
}

/// Runs a generic block with `$C` bound to the count type chosen at run time.
///
/// ```ignore
/// with_count_type!(CountType::for_bound(&total), C => compute::<C>(...))
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! with_count_type {
    ($ty:expr, $C:ident => $body:expr) => {
        match $ty {
            $crate::dice::count::CountType::U64 => {
                type $C = u64;
                $body
            }
            $crate::dice::count::CountType::U128 => {
                type $C = u128;
                $body
            }
            $crate::dice::count::CountType::U256 => {
                type $C = $crate::dice::count::U256;
                $body
            }
            $crate::dice::count::CountType::U384 => {
                type $C = $crate::dice::count::U384;
                $body
            }
            $crate::dice::count::CountType::U512 => {
                type $C = $crate::dice::count::U512;
                $body
            }
            $crate::dice::count::CountType::U960 => {
                type $C = $crate::dice::count::U960;
                $body
            }
            $crate::dice::count::CountType::Long => {
                type $C = $crate::dice::count::Long;
                $body
            }
            $crate::dice::count::CountType::Big => {
                type $C = ::num_bigint::BigUint;
                $body
            }
        }
    };
}

/// The counts stored in a [`Die`](crate::Die): machine words while the total fits a
/// `u64`, big integers beyond. Exactly one representation per value, so equality is
/// structural.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Counts {
    Small(Vec<u64>),
    Big(Vec<BigUint>),
}

impl Counts {
    /// Stores counts computed in any count type, in the canonical representation.
    pub(crate) fn from_generic<C: Count>(counts: Vec<C>, total_bits: u64) -> Self {
        if total_bits <= 64 {
            Counts::Small(
                counts
                    .iter()
                    .map(|c| c.try_u64().unwrap_or(u64::MAX))
                    .collect(),
            )
        } else {
            Counts::Big(counts.iter().map(Count::to_big).collect())
        }
    }

    /// Stores big counts canonically.
    pub(crate) fn from_big(counts: Vec<BigUint>) -> Self {
        let total: BigUint = counts.iter().sum();
        if total.bits() <= 64 {
            Counts::Small(counts.iter().map(|c| c.to_u64().unwrap_or(0)).collect())
        } else {
            Counts::Big(counts)
        }
    }

    /// The counts converted into the computation type `C`.
    pub(crate) fn to_generic<C: Count>(&self) -> Vec<C> {
        match self {
            Counts::Small(v) => v.iter().map(|&c| C::from_u64(c)).collect(),
            Counts::Big(v) => v.iter().map(C::from_big).collect(),
        }
    }

    /// Calls `f(index, count)` for every count, converted into the computation type.
    pub(crate) fn for_each_generic<C: Count>(&self, mut f: impl FnMut(usize, C)) {
        match self {
            Counts::Small(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, &c)| f(i, C::from_u64(c))),
            Counts::Big(v) => v.iter().enumerate().for_each(|(i, c)| f(i, C::from_big(c))),
        }
    }

    pub(crate) fn get_big(&self, index: usize) -> BigUint {
        match self {
            Counts::Small(v) => BigUint::from(v[index]),
            Counts::Big(v) => v[index].clone(),
        }
    }

    pub(crate) fn get_f64(&self, index: usize) -> f64 {
        match self {
            Counts::Small(v) => v[index] as f64,
            Counts::Big(v) => Count::to_f64(&v[index]),
        }
    }

    /// The bits of the total, without building a big integer for small counts.
    pub(crate) fn total_bits(&self) -> u64 {
        match self {
            Counts::Small(v) => v.iter().map(|&c| u128::from(c)).sum::<u128>().bit_len(),
            Counts::Big(v) => v.iter().sum::<BigUint>().bits(),
        }
    }

    pub(crate) fn total(&self) -> BigUint {
        match self {
            Counts::Small(v) => BigUint::from(v.iter().map(|&c| c as u128).sum::<u128>()),
            Counts::Big(v) => v.iter().sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_type_is_chosen_by_bits() {
        assert_eq!(CountType::for_bits(64), CountType::U64);
        assert_eq!(CountType::for_bits(65), CountType::U128);
        assert_eq!(CountType::for_bits(129), CountType::U256);
        assert_eq!(CountType::for_bits(257), CountType::U384);
        assert_eq!(CountType::for_bits(384), CountType::U384);
        assert_eq!(CountType::for_bits(385), CountType::U512);
        assert_eq!(CountType::for_bits(960), CountType::U960);
        assert_eq!(CountType::for_bits(961), CountType::Long);
        assert_eq!(CountType::for_bits(4097), CountType::Big);
        assert_eq!(
            CountType::for_bound(&BigUint::from(u64::MAX)),
            CountType::U64
        );
    }

    #[test]
    fn pow_agrees_across_types() {
        assert_eq!(Count::pow(&6u64, 20), 6u64.pow(20));
        assert_eq!(Count::pow(&6u128, 40), 6u128.pow(40));
        assert_eq!(
            Count::pow(&BigUint::from(6u32), 100).to_string(),
            "653318623500070906096690267158057820537143710472954871543071966369497141477376"
        );
    }

    /// Values of every width a 512-bit count holds, with runs of zero and full words.
    fn sample_values() -> Vec<BigUint> {
        let mut values = vec![
            BigUint::from(0u32),
            BigUint::from(1u32),
            BigUint::from(u64::MAX),
            BigUint::from(u64::MAX) + 1u32,
            BigUint::from(u64::MAX) + 2u32,
            Count::pow(&BigUint::from(10u32), 30),
            Count::pow(&BigUint::from(6u32), 70),
            Count::pow(&BigUint::from(2u32), 255) - 1u32,
            Count::pow(&BigUint::from(2u32), 320),
            Count::pow(&BigUint::from(2u32), 511) + 12345u32,
        ];
        // A fixed pseudo-random sequence, so the test is deterministic.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for words in 1..=8u32 {
            let mut value = BigUint::from(0u32);
            for _ in 0..words {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                value = (value << 64u32) + x;
            }
            values.push(value);
        }
        values
    }

    /// `count`, made from `value`, gives it back and measures it alike.
    fn converts_like<C: Count>(count: &C, value: &BigUint) {
        assert_eq!(count.to_big(), *value);
        assert_eq!(count.bit_len(), value.bits(), "{value}");
        assert_eq!(count.try_u64(), value.to_u64(), "{value}");
        assert_eq!(count.to_f64(), Count::to_f64(value), "{value}");
        assert_eq!(count.is_zero(), value.is_zero());
        assert_eq!(count.is_one(), value.is_one(), "{value}");
    }

    #[test]
    fn fixed_width_arithmetic_agrees_with_big_integers() {
        let values = sample_values();
        let modulus_512 = BigUint::from(1u32) << 512u32;
        let modulus_256 = BigUint::from(1u32) << 256u32;
        let modulus_960 = BigUint::from(1u32) << 960u32;
        let modulus_384 = BigUint::from(1u32) << 384u32;
        for a in &values {
            let wide = U512::from_big(a);
            converts_like(&wide, a);
            for b in &values {
                let other = U512::from_big(b);
                // Products and sums past the type's width wrap.
                assert_eq!(
                    wide.times(&other).to_big(),
                    (a * b) % &modulus_512,
                    "{a} × {b}"
                );
                // Equal values are equal structurally, however they were made.
                assert_eq!(
                    wide.times(&other),
                    U512::from_big(&((a * b) % &modulus_512))
                );
                let mut sum = wide;
                Count::add_assign(&mut sum, &other);
                assert_eq!(sum.to_big(), (a + b) % &modulus_512, "{a} + {b}");
                let mut acc = wide;
                acc.add_mul(&other, &wide);
                assert_eq!(acc.to_big(), (a + b * a) % &modulus_512, "{a} + {b} × {a}");
                assert_eq!(acc, U512::from_big(&((a + b * a) % &modulus_512)));
                // A factor of one word, by its own path, in every type.
                let word = b.to_u64_digits().first().copied().unwrap_or(0);
                let mut acc = wide;
                acc.add_mul_u64(&wide, word);
                let expected = (a + a * word) % &modulus_512;
                assert_eq!(acc, U512::from_big(&expected), "{a} + {a} × {word}");
                let mut acc = U256::from_big(&(b % &modulus_256));
                acc.add_mul_u64(&U256::from_big(&(a % &modulus_256)), word);
                let expected = (b + a * word) % &modulus_256;
                assert_eq!(acc, U256::from_big(&expected), "in 256 bits");
                // The same through the general product, the word either side.
                let (narrow_a, narrow_b) = (
                    U256::from_big(&(a % &modulus_256)),
                    U256::from_big(&(b % &modulus_256)),
                );
                for (x, y) in [
                    (U256::from_u64(word), narrow_a),
                    (narrow_a, U256::from_u64(word)),
                ] {
                    let mut acc = narrow_b;
                    acc.add_mul(&x, &y);
                    assert_eq!(acc, U256::from_big(&expected), "add_mul in 256 bits");
                }
                let mut acc = a.clone();
                acc.add_mul_u64(b, word);
                assert_eq!(acc, a + b * word, "in big integers");
                let small = a.to_u64_digits().first().map_or(0, |&v| u128::from(v));
                let mut acc = small;
                acc.add_mul_u64(&small, word & 0xffff_ffff);
                assert_eq!(acc, small + small * u128::from(word & 0xffff_ffff));
                assert_eq!(wide.cmp(&other), a.cmp(b), "{a} against {b}");
                if a >= b {
                    let mut difference = wide;
                    Count::sub_assign(&mut difference, &other);
                    assert_eq!(difference.to_big(), a - b, "{a} − {b}");
                    // Equal values are equal whatever way they were reached.
                    assert_eq!(difference, U512::from_big(&(a - b)));
                }
                let narrow = U256::from_big(&(a % &modulus_256));
                let narrow_other = U256::from_big(&(b % &modulus_256));
                assert_eq!(
                    narrow.times(&narrow_other),
                    U256::from_big(&((a * b) % &modulus_256)),
                    "{a} × {b} in 256 bits"
                );
                // Six words, wrapping included.
                let (six, six_other) = (
                    U384::from_big(&(a % &modulus_384)),
                    U384::from_big(&(b % &modulus_384)),
                );
                assert_eq!(
                    six.times(&six_other).to_big(),
                    (a * b) % &modulus_384,
                    "in 384 bits"
                );
                let mut acc = six_other;
                acc.add_mul(&six, &six_other);
                assert_eq!(
                    acc.to_big(),
                    (b + a * b) % &modulus_384,
                    "{b} + {a} × {b} in 384 bits"
                );
                assert_eq!(acc, U384::from_big(&((b + a * b) % &modulus_384)));
                assert_eq!(
                    six.times(&six_other),
                    U384::from_big(&((a * b) % &modulus_384))
                );
                let mut sum = six;
                Count::add_assign(&mut sum, &six_other);
                assert_eq!(
                    sum.to_big(),
                    (a + b) % &modulus_384,
                    "{a} + {b} in 384 bits"
                );
                // Fifteen words: products of two of these values pass 960 bits.
                let (wide, other) = (U960::from_big(a), U960::from_big(b));
                assert_eq!(wide.times(&other).to_big(), (a * b) % &modulus_960);
                let mut acc = other;
                acc.add_mul(&wide, &other);
                assert_eq!(acc.to_big(), (b + a * b) % &modulus_960, "in 960 bits");
            }
        }
    }

    /// `value` in count type `C` converts to every type that holds it, and back.
    fn converts_between<C: Count>(value: &BigUint) {
        let count = C::from_big(value);
        let bits = value.bits();
        let words = count.to_words();
        assert_eq!(
            words.as_slice(),
            value.to_u64_digits().as_slice(),
            "{value}"
        );
        if bits <= 64 {
            assert_eq!(count.convert::<u64>().to_big(), *value);
        }
        if bits <= 128 {
            assert_eq!(count.convert::<u128>().to_big(), *value);
        }
        if bits <= 256 {
            let narrow: U256 = count.convert();
            assert_eq!(narrow, U256::from_big(value), "{value}");
            assert_eq!(narrow.convert::<C>(), count, "{value} and back");
        }
        if bits <= 384 {
            assert_eq!(count.convert::<U384>(), U384::from_big(value));
        }
        assert_eq!(count.convert::<U512>(), U512::from_big(value));
        assert_eq!(count.convert::<U960>(), U960::from_big(value));
        assert_eq!(count.convert::<Long>(), Long::from_big(value));
        assert_eq!(count.convert::<BigUint>(), *value);
    }

    #[test]
    fn counts_convert_between_types_word_for_word() {
        for value in sample_values() {
            converts_between::<U512>(&value);
            converts_between::<U960>(&value);
            converts_between::<Long>(&value);
            converts_between::<BigUint>(&value);
            if value.bits() <= 128 {
                converts_between::<u128>(&value);
            }
            if value.bits() <= 64 {
                converts_between::<u64>(&value);
            }
        }
    }

    #[test]
    fn heap_counts_agree_with_big_integers() {
        let mut values = sample_values();
        values.push(Count::pow(&BigUint::from(6u32), 600));
        values.push(Count::pow(&BigUint::from(2u32), 1500) - 1u32);
        for a in &values {
            let long = Long::from_big(a);
            converts_like(&long, a);
            for b in &values {
                let other = Long::from_big(b);
                assert_eq!(long.times(&other).to_big(), a * b, "{a} × {b}");
                let mut sum = long.clone();
                Count::add_assign(&mut sum, &other);
                assert_eq!(sum, Long::from_big(&(a + b)), "{a} + {b}");
                let mut acc = other.clone();
                acc.add_mul(&long, &other);
                // Equal values are equal whatever way they were reached.
                assert_eq!(acc, Long::from_big(&(b + a * b)), "{b} + {a} × {b}");
                assert_eq!(long.cmp(&other), a.cmp(b), "{a} against {b}");
                if a >= b {
                    let mut difference = long.clone();
                    Count::sub_assign(&mut difference, &other);
                    assert_eq!(difference, Long::from_big(&(a - b)), "{a} − {b}");
                }
            }
        }
    }

    #[test]
    fn fixed_width_counts_convert_exactly() {
        let big = Count::pow(&BigUint::from(6u32), 100);
        let wide = U512::from_big(&big);
        assert_eq!(wide.to_big(), big);
        assert_eq!(Count::pow(&U512::from_u64(6), 100), wide);
        assert!((Count::to_f64(&wide) / Count::to_f64(&big) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn storage_is_canonical() {
        let small = Counts::from_big(vec![BigUint::from(3u32), BigUint::from(4u32)]);
        assert_eq!(small, Counts::Small(vec![3, 4]));
        let big = Counts::from_generic(vec![u128::MAX], 128);
        assert!(matches!(big, Counts::Big(_)));
    }
}
