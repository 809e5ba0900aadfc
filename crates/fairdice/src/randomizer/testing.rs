//! Shared invariant checks for the randomizer tests.

use super::{DISTRIBUTION_TOLERANCE, Randomizer, StateSpace};
use crate::rng;

/// The first `count` outcome indices drawn with `rng::seeded(seed)`, through the
/// object-safe path (`every_draw_path_draws_the_same_values` ties it to the
/// generic one).
pub(crate) fn draws<R: Randomizer + ?Sized>(
    randomizer: &mut R,
    seed: u64,
    count: usize,
) -> Vec<usize> {
    let mut generator = rng::seeded(seed);
    (0..count)
        .map(|_| randomizer.draw_dyn(&mut generator))
        .collect()
}

/// Walks `steps` draws and checks at every state: the next-sample distribution
/// sums to 1, has no negative entry, and is zero exactly where `observe` refuses;
/// the drawn outcome had positive probability; the state key restores the state.
pub(crate) fn assert_distribution_invariants<R: StateSpace + Clone>(
    randomizer: &mut R,
    steps: usize,
    seed: u64,
) {
    let mut generator = rng::seeded(seed);
    for step in 0..steps {
        let distribution = randomizer.next_distribution();
        assert_eq!(distribution.len(), randomizer.outcomes().len());
        let sum: f64 = distribution.iter().sum();
        assert!(
            (sum - 1.0).abs() < DISTRIBUTION_TOLERANCE,
            "step {step}: sum {sum}"
        );
        for (index, &p) in distribution.iter().enumerate() {
            assert!(p >= 0.0 && p.is_finite(), "step {step}: p[{index}] = {p}");
            let observed = randomizer.clone().observe(index);
            assert_eq!(
                p > 0.0,
                observed.is_ok(),
                "step {step}: p[{index}] = {p}, observe: {observed:?}"
            );
        }
        let key = randomizer.state_key();
        let mut restored = randomizer.clone();
        restored.reset();
        restored.restore(&key).expect("a reached state restores");
        assert_eq!(
            restored.next_distribution(),
            distribution,
            "step {step}: restored state differs"
        );
        assert_eq!(restored.state_key(), key);
        let mut loaded = randomizer.clone();
        loaded.reset();
        loaded
            .load_state(&randomizer.save_state())
            .expect("a saved state loads");
        let mut original = randomizer.clone();
        let (mut a, mut b) = (rng::seeded(step as u64), rng::seeded(step as u64));
        for _ in 0..5 {
            assert_eq!(
                original.draw(&mut a),
                loaded.draw(&mut b),
                "step {step}: loaded state continues differently"
            );
        }
        let drawn = randomizer.draw(&mut generator);
        assert!(
            distribution[drawn] > 0.0,
            "step {step}: drew {drawn} with probability 0"
        );
    }
}

/// Counts how often each outcome index occurs.
pub(crate) fn tally(indices: &[usize], len: usize) -> Vec<usize> {
    let mut counts = vec![0; len];
    for &i in indices {
        counts[i] += 1;
    }
    counts
}

/// From the randomizer's current state, draws once with each of `trials` seeds and
/// checks the frequencies against the next-sample distribution (within five
/// standard deviations per outcome).
pub(crate) fn assert_draws_follow_distribution<R: Randomizer + Clone>(randomizer: &R, trials: u32) {
    let distribution = randomizer.next_distribution();
    let mut counts = vec![0u32; distribution.len()];
    for seed in 0..trials {
        let mut copy = randomizer.clone();
        counts[copy.draw(&mut rng::stream(99, u64::from(seed)))] += 1;
    }
    let n = f64::from(trials);
    for (index, (&count, &p)) in counts.iter().zip(&distribution).enumerate() {
        let sigma = (n * p * (1.0 - p)).sqrt();
        let gap = (f64::from(count) - n * p).abs();
        assert!(
            gap <= 5.0 * sigma + 1e-9,
            "outcome {index}: {count} of {trials}, expected p = {p}"
        );
    }
}
