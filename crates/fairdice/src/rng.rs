//! Seeded, portable random numbers: the default generator of every fairdice draw,
//! and the range reduction every draw uses, whatever the generator.
//!
//! A randomizer draws from any `rand_core` generator ([`Rng`], re-exported here): a
//! game passes its own (`rand::rngs::StdRng`, bevy_rand's, a ChaCha stream) or the
//! portable [`Generator`] from [`seeded`], which the command line, the web app and
//! saved [`Session`](crate::randomizer::Session)s use.
//!
//! # Design decisions
//! Reproducibility is a feature users rely on (a saved game replays the same rolls on
//! every platform), so the default generator is named and pinned: xoshiro256++
//! seeded through SplitMix64. Range reduction is done here rather than by a
//! general-purpose crate, because a dependency may change how it maps words to
//! ranges in a minor release, and that would silently change every seeded sequence;
//! so a game's own generator gives its own sequence, but the same one on every
//! platform and release of fairdice too. Changing anything in this module is a
//! breaking change; `value_stability` tests pin it.

pub use rand_core::{Rng, SeedableRng};

/// The generator behind every seeded fairdice draw: xoshiro256++.
pub type Generator = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator seeded from a `u64` (expanded by SplitMix64).
pub fn seeded(seed: u64) -> Generator {
    Generator::seed_from_u64(seed)
}

/// The generator for the `index`-th independent stream of a seeded run, so parallel
/// Monte Carlo gives the same answer whatever the number of threads.
pub fn stream(seed: u64, index: u64) -> Generator {
    seeded(split_mix(
        seed ^ split_mix(index.wrapping_add(0x9E37_79B9_7F4A_7C15)),
    ))
}

/// One SplitMix64 step: a bijective scramble of a 64-bit word.
fn split_mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform integer in `0..n` (`n > 0`), without bias: Lemire's multiply-and-reject
/// method, which usually needs one 64-bit word and no division.
///
/// Returns 0 for `n = 0` rather than panicking.
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut product = u128::from(rng.next_u64()) * u128::from(n);
    let mut low = product as u64;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u128::from(rng.next_u64()) * u128::from(n);
            low = product as u64;
        }
    }
    (product >> 64) as u64
}

/// A uniform integer in `0..n` for 128-bit bounds, by rejection on the smallest
/// covering power of two.
pub fn below_u128<R: Rng + ?Sized>(rng: &mut R, n: u128) -> u128 {
    if n <= u128::from(u64::MAX) {
        return u128::from(below(rng, n as u64));
    }
    let mask = u128::MAX >> (n - 1).leading_zeros();
    loop {
        let x = ((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64())) & mask;
        if x < n {
            return x;
        }
    }
}

/// A uniform `f64` in `[0, 1)` with 53 random bits.
#[inline]
pub fn unit_f64<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_stability() {
        let mut rng = seeded(42);
        let words: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            words,
            [
                15021278609987233951,
                5881210131331364753,
                18149643915985481100
            ]
        );
        let mut rng = seeded(7);
        let rolls: Vec<u64> = (0..10).map(|_| below(&mut rng, 6)).collect();
        assert_eq!(rolls, [0, 1, 4, 2, 5, 2, 4, 1, 5, 0]);
        let mut rng = stream(7, 3);
        assert_eq!(rng.next_u64(), 17953116922611701497);
    }

    #[test]
    fn below_covers_the_range_uniformly() {
        let mut rng = seeded(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        // Each bin expects 10,000; 5 standard deviations is about 456.
        assert!(
            counts.iter().all(|&c| (c as i64 - 10_000).abs() < 460),
            "{counts:?}"
        );
        assert_eq!(below(&mut rng, 1), 0);
        assert_eq!(below(&mut rng, 0), 0);
        assert!(below_u128(&mut rng, u128::MAX / 3) < u128::MAX / 3);
    }

    #[test]
    fn unit_interval() {
        let mut rng = seeded(3);
        for _ in 0..1000 {
            let x = unit_f64(&mut rng);
            assert!((0.0..1.0).contains(&x));
        }
    }
}
