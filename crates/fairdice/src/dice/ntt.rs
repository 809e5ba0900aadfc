//! Exact convolution of long rows of wide counts by number-theoretic transforms:
//! every count is reduced modulo several word-sized primes, each row of residues
//! is convolved by a transform in `O(n log n)`, and every count of the result is
//! rebuilt from its residues by the Chinese remainder theorem.
//!
//! # Design decisions
//! - A sum of two dice of thousands of outcomes with counts of thousands of bits
//!   (`3500d2+3500d2`) is a convolution of rows of big integers: 1.2·10⁷ products
//!   of 55-word numbers by rows (20 s), or one product of two integers of 385,000
//!   words packed end to end (num-bigint's Toom-3: 1.6 s). Reduced modulo 115
//!   primes of 61 bits, it is 115 transforms of 8,192 words and a reconstruction
//!   of 13,000 word products a count, a fraction of either.
//! - No crate does this for us: num-bigint multiplies by Toom-3 at most, the
//!   crates with transform products are LGPL (malachite, rug's GMP), and the
//!   transform crates of cryptography work modulo one prime on fixed sizes. The
//!   arithmetic here is the textbook one, small enough to check by brute force
//!   (the tests compare it with rows of multiply-adds for every count width).
//! - Primes `c·2²⁶ + 1` just below 2⁶², found once by Miller–Rabin and kept
//!   for the process: each has roots of unity of every order up to 2²⁶, more than
//!   the longest dense row (2²⁴ slots a side).
//! - Residues in Montgomery form (`R = 2⁶⁴`): a product is two multiplications
//!   and a shift, no division; a count's words enter without being reduced
//!   first, since Montgomery's reduction takes any word times a residue.
//! - The reconstruction is the explicit one: with `Mᵢ = M/pᵢ` and
//!   `tᵢ = rᵢ·Mᵢ⁻¹ mod pᵢ`, the count is `Σ tᵢ·Mᵢ − q·M` where `q` is the integer
//!   part of `Σ tᵢ/pᵢ`. The primes are chosen so that every count is below
//!   `M/2¹⁰`, which puts that sum within 2⁻¹⁰ above an integer: its floating
//!   value rounds to `q` with room to spare.

use std::sync::{Mutex, MutexGuard};

use crate::parallel::*;
use num_bigint::BigUint;

use super::count::Count;
use crate::control::Control;
use crate::control::Stop;

/// Transforms are of at most `2^MAX_LOG` slots.
const MAX_LOG: u32 = 26;

/// Bits of headroom between the largest count and the product of the primes.
const HEADROOM_BITS: u64 = 10;

/// The least bits a prime of the list has (every one is above `2^61`).
const PRIME_BITS: u64 = 61;

/// A prime `p < 2⁶²` with `2^MAX_LOG | p − 1`, and its Montgomery constants.
#[derive(Debug, Clone, Copy)]
struct Prime {
    p: u64,
    /// `−p⁻¹ mod 2⁶⁴`.
    neg_inv: u64,
    /// `R² mod p`: multiplying by it enters Montgomery form.
    r2: u64,
    /// `R mod p`: one, in Montgomery form.
    one: u64,
    /// A root of unity of order `2^MAX_LOG`, in Montgomery form.
    root: u64,
}

impl Prime {
    fn new(p: u64) -> Prime {
        let mut inv = p; // p·p ≡ 1 mod 8: three bits right; each step doubles them.
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = (u128::from(r) * u128::from(r) % u128::from(p)) as u64;
        let mut prime = Prime {
            p,
            neg_inv: inv.wrapping_neg(),
            r2,
            one: r,
            root: 0,
        };
        // x^((p−1)/2^MAX_LOG) has order dividing 2^MAX_LOG; exactly that order
        // when its 2^(MAX_LOG−1)-th power is −1.
        let cofactor = (p - 1) >> MAX_LOG;
        let minus_one = prime.enter(p - 1);
        for x in 2.. {
            let candidate = prime.pow(prime.enter(x), cofactor);
            if prime.pow(candidate, 1 << (MAX_LOG - 1)) == minus_one {
                prime.root = candidate;
                break;
            }
        }
        prime
    }

    /// `a·b·R⁻¹ mod p` for `b < p` and any word `a`.
    #[inline(always)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        let t = u128::from(a) * u128::from(b);
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p { u - self.p } else { u }
    }

    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p { s - self.p } else { s }
    }

    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.p - b }
    }

    /// `x` (any word) in Montgomery form.
    fn enter(&self, x: u64) -> u64 {
        self.mul(x, self.r2)
    }

    /// `x` out of Montgomery form.
    fn leave(&self, x: u64) -> u64 {
        self.mul(x, 1)
    }

    /// `base^exponent`, both in and out in Montgomery form.
    fn pow(&self, mut base: u64, mut exponent: u64) -> u64 {
        let mut result = self.one;
        while exponent > 0 {
            if exponent & 1 == 1 {
                result = self.mul(result, base);
            }
            base = self.mul(base, base);
            exponent >>= 1;
        }
        result
    }

    /// `x⁻¹` in Montgomery form, by Fermat.
    fn inverse(&self, x: u64) -> u64 {
        self.pow(x, self.p - 2)
    }

    /// The cyclic transform of `a` (length a power of two, at most
    /// `2^MAX_LOG`), in place, in Montgomery form; the inverse one divides by
    /// the length.
    fn transform(&self, a: &mut [u64], inverse: bool) {
        let n = a.len();
        let bits = n.trailing_zeros();
        for i in 0..n.saturating_sub(1) {
            let j = i
                .reverse_bits()
                .checked_shr(usize::BITS - bits)
                .unwrap_or(0);
            if i < j {
                a.swap(i, j);
            }
        }
        let root = if inverse {
            self.inverse(self.root)
        } else {
            self.root
        };
        let mut twiddles = Vec::with_capacity(n / 2);
        let mut len = 2;
        while len <= n {
            let step = self.pow(root, (1u64 << MAX_LOG) / len as u64);
            twiddles.clear();
            let mut w = self.one;
            for _ in 0..len / 2 {
                twiddles.push(w);
                w = self.mul(w, step);
            }
            for block in a.chunks_exact_mut(len) {
                let (low, high) = block.split_at_mut(len / 2);
                for ((u, v), &w) in low.iter_mut().zip(high.iter_mut()).zip(&twiddles) {
                    let t = self.mul(*v, w);
                    *v = self.sub(*u, t);
                    *u = self.add(*u, t);
                }
            }
            len <<= 1;
        }
        if inverse {
            let scale = self.inverse(self.enter(n as u64));
            a.iter_mut().for_each(|x| *x = self.mul(*x, scale));
        }
    }
}

/// The primes found so far, in the order they are used.
static PRIMES: Mutex<Vec<Prime>> = Mutex::new(Vec::new());

/// The first `count` primes of the list, found on first use.
fn primes(count: usize) -> Vec<Prime> {
    let mut found: MutexGuard<'_, Vec<Prime>> = PRIMES.lock().unwrap_or_else(|e| e.into_inner());
    let mut c = match found.last() {
        Some(last) => last.p >> MAX_LOG,
        None => (1u64 << 62) >> MAX_LOG,
    };
    while found.len() < count {
        c -= 1;
        let p = (c << MAX_LOG) + 1;
        if is_prime(p) {
            found.push(Prime::new(p));
        }
    }
    found[..count].to_vec()
}

/// Miller–Rabin with the first twelve primes as bases: exact for every `u64`.
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for b in BASES {
        if n % b == 0 {
            return n == b;
        }
    }
    let mul = |a: u64, b: u64| (u128::from(a) * u128::from(b) % u128::from(n)) as u64;
    let pow = |mut base: u64, mut e: u64| {
        let mut r = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                r = mul(r, base);
            }
            base = mul(base, base);
            e >>= 1;
        }
        r
    };
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'bases: for b in BASES {
        let mut x = pow(b, d);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul(x, x);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// How many primes rebuild counts of up to `bits` bits with the headroom.
fn primes_for(bits: u64) -> usize {
    (bits + HEADROOM_BITS).div_ceil(PRIME_BITS) as usize
}

/// The transform's length for rows of `len_a` and `len_b` counts.
fn transform_len(len_a: usize, len_b: usize) -> usize {
    (len_a + len_b - 1).next_power_of_two()
}

/// Budget steps (about a nanosecond each) of [`convolve`] of rows of `len_a` and `len_b` counts
/// of up to `words_a` and `words_b` words into counts of up to `bits` bits:
/// per prime, the reduction of every word and three transforms; per count of
/// the result, a reconstruction of `K²` word products for `K` primes.
pub(crate) fn steps(len_a: f64, len_b: f64, words_a: f64, words_b: f64, bits: f64) -> f64 {
    let primes = ((bits + HEADROOM_BITS as f64) / PRIME_BITS as f64)
        .ceil()
        .max(1.0);
    let n = (len_a + len_b - 1.0).max(1.0).log2().ceil().exp2();
    let per_prime = len_a * words_a + len_b * words_b + 3.0 * n * n.log2().max(1.0) / 2.0 + n;
    let rebuild = (len_a + len_b) * primes * (primes + 2.0);
    (primes * per_prime + rebuild) * 2.0
}

/// The convolution of the rows `a` and `b` (`out[k] = Σ a[i]·b[k − i]`) whose
/// counts are known to stay below `2^bits`, stopped between primes when
/// `control` is cancelled.
///
/// # Errors
/// [`Stop::Cancelled`].
pub(crate) fn convolve<C: Count>(
    a: &[C],
    b: &[C],
    bits: u64,
    control: &Control,
) -> Result<Vec<C>, Stop> {
    let len = a.len() + b.len() - 1;
    let n = transform_len(a.len(), b.len());
    assert!(
        n <= 1 << MAX_LOG,
        "rows of {len} slots are longer than a transform"
    );
    let primes = primes(primes_for(bits));
    let (words_a, words_b): (Vec<_>, Vec<_>) = (
        a.iter().map(Count::to_words).collect(),
        b.iter().map(Count::to_words).collect(),
    );
    // Each prime's residues of the result, row after row.
    let residues: Vec<Vec<u64>> = primes
        .par_iter()
        .map(|prime| {
            control.check()?;
            let reduce = |words: &[super::count::Words], into: &mut Vec<u64>| {
                // 2^(64·j)·R² mod p: a word times it is that word's part of the
                // count, in Montgomery form.
                let longest = words.iter().map(|w| w.len()).max().unwrap_or(0);
                let mut place = Vec::with_capacity(longest);
                let mut power = prime.r2;
                for _ in 0..longest {
                    place.push(power);
                    // Times R = 2^64: a Montgomery product by R².
                    power = prime.mul(power, prime.r2);
                }
                into.clear();
                into.extend(words.iter().map(|count| {
                    count
                        .iter()
                        .zip(&place)
                        .fold(0, |sum, (&word, &at)| prime.add(sum, prime.mul(word, at)))
                }));
                into.resize(n, 0);
            };
            let (mut fa, mut fb) = (Vec::with_capacity(n), Vec::with_capacity(n));
            reduce(&words_a, &mut fa);
            reduce(&words_b, &mut fb);
            prime.transform(&mut fa, false);
            prime.transform(&mut fb, false);
            fa.iter_mut()
                .zip(&fb)
                .for_each(|(x, &y)| *x = prime.mul(*x, y));
            prime.transform(&mut fa, true);
            fa.truncate(len);
            fa.iter_mut().for_each(|x| *x = prime.leave(*x));
            Ok(fa)
        })
        .collect::<Result<_, Stop>>()?;
    control.check()?;
    Ok(rebuild(&primes, &residues, len))
}

/// Every count of the result from its residues (explicit Chinese remainders).
fn rebuild<C: Count>(primes: &[Prime], residues: &[Vec<u64>], len: usize) -> Vec<C> {
    let modulus: BigUint = primes.iter().map(|p| BigUint::from(p.p)).product();
    let words = modulus.iter_u64_digits().len() + 1;
    let digits = |x: &BigUint| -> Vec<u64> {
        let mut d: Vec<u64> = x.iter_u64_digits().collect();
        d.resize(words, 0);
        d
    };
    // Mᵢ = M/pᵢ and (Mᵢ⁻¹ mod pᵢ) in Montgomery form, so that a residue times
    // it leaves Montgomery form as tᵢ.
    let (cofactors, inverses): (Vec<Vec<u64>>, Vec<u64>) = primes
        .iter()
        .map(|prime| {
            let cofactor = &modulus / prime.p;
            let residue = (&cofactor % prime.p).iter_u64_digits().next().unwrap_or(0);
            (digits(&cofactor), prime.inverse(prime.enter(residue)))
        })
        .unzip();
    let modulus = digits(&modulus);
    let mut out = Vec::with_capacity(len);
    let mut sum = vec![0u64; words];
    for k in 0..len {
        sum.iter_mut().for_each(|w| *w = 0);
        let mut whole = 0.0f64;
        for ((prime, row), (cofactor, &inverse)) in primes
            .iter()
            .zip(residues)
            .zip(cofactors.iter().zip(&inverses))
        {
            let t = prime.mul(row[k], inverse);
            whole += t as f64 / prime.p as f64;
            add_mul_word(&mut sum, cofactor, t);
        }
        // Σ tᵢ/pᵢ is q plus the count over M, which is below 2⁻¹⁰.
        let q = (whole + 0.25).floor() as u64;
        sub_mul_word(&mut sum, &modulus, q);
        let used = sum.iter().rposition(|&w| w != 0).map_or(0, |top| top + 1);
        out.push(C::from_words(&sum[..used]));
    }
    out
}

/// `sum += x·k`.
fn add_mul_word(sum: &mut [u64], x: &[u64], k: u64) {
    let mut carry = 0u128;
    for (s, &w) in sum.iter_mut().zip(x) {
        let t = u128::from(*s) + u128::from(w) * u128::from(k) + carry;
        *s = t as u64;
        carry = t >> 64;
    }
}

/// `sum −= x·k`, which the caller knows is not negative.
fn sub_mul_word(sum: &mut [u64], x: &[u64], k: u64) {
    let mut borrow = 0u128;
    for (s, &w) in sum.iter_mut().zip(x) {
        let take = u128::from(w) * u128::from(k) + borrow;
        let (low, high) = (take as u64, (take >> 64) as u64);
        let (value, under) = s.overflowing_sub(low);
        *s = value;
        borrow = u128::from(high) + u128::from(under);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primes_are_prime_and_have_their_roots() {
        for prime in primes(40) {
            assert!(is_prime(prime.p));
            assert!(prime.p < 1 << 62 && prime.p > 1 << PRIME_BITS);
            assert_eq!((prime.p - 1) % (1 << MAX_LOG), 0);
            // The root's order is exactly 2^MAX_LOG.
            let half = prime.pow(prime.root, 1 << (MAX_LOG - 1));
            assert_eq!(prime.leave(half), prime.p - 1);
            assert_eq!(prime.leave(prime.mul(half, half)), 1);
        }
        assert!(!is_prime(3_215_031_751) && is_prime(2_305_843_009_213_693_951));
    }

    #[test]
    fn montgomery_products_agree_with_plain_ones() {
        let prime = primes(1)[0];
        for (a, b) in [
            (0, 5),
            (1, 1),
            (u64::MAX, prime.p - 1),
            (123_456_789_012_345, 987_654_321),
        ] {
            let expected = (u128::from(a) * u128::from(b) % u128::from(prime.p)) as u64;
            assert_eq!(
                prime.leave(prime.mul(prime.enter(a), prime.enter(b))),
                expected
            );
        }
    }
}
