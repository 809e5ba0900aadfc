//! The cost estimate made before a contest is computed, in the same units as the
//! notation's ([`Cost`]): refuse what is clearly too big, with the estimate named.
//!
//! # Design decisions
//! A sorted contest walks every distinct outcome; its states are bucketed by the
//! unassigned dice of each group (`Π (n + 1)` buckets per side) and, inside a
//! bucket, by score (`2m + 1` net scores, or `(m + 1)(m + 2)/2` win counts); each
//! state branches on how many dice of each side show the outcome. The estimate
//! multiplies these bounds, so it overshoots by a small factor on purpose: the
//! engine's meter is the backstop for what it misses. An unsorted contest is a
//! convolution of pair scores whose counts are all wide, so its steps are priced
//! at the cost of a wide multiplication rather than of a wide addition.

use super::{Contest, Pairing, Side, TieRule};
use crate::dice::die::Die;
use crate::dice::notation::Cost;

/// 64-bit limbs needed for counts of `bits` bits.
fn limbs(bits: f64) -> f64 {
    if bits <= 64.0 {
        1.0
    } else {
        (bits / 64.0).ceil() + 1.0
    }
}

/// Estimates the cost of [`Contest::evaluate`] (`joint = false`) or
/// [`Contest::pair_wins`] (`joint = true`).
pub(super) fn estimate(contest: &Contest, joint: bool) -> Cost {
    let bits: f64 = [Side::A, Side::B]
        .iter()
        .flat_map(|&s| contest.dice(s))
        .map(|(die, n)| f64::from(*n) * (die.total().bits().max(1) as f64))
        .sum();
    let pairs = f64::from(contest.pairs());
    let cost = match (contest.pairing_rule(), contest.tie_rule()) {
        (Pairing::Unsorted, _) => unsorted(contest, joint, pairs),
        (Pairing::Sorted, TieRule::Reroll) => {
            let mut total = sorted(contest.dice(Side::A), contest.dice(Side::B), true);
            let kind = |s: Side| contest.dice(s).first().map(|(d, _)| d.clone());
            if let (Some(a), Some(b)) = (kind(Side::A), kind(Side::B)) {
                for t in 1..contest.pairs() {
                    let sub = sorted(&[(a.clone(), t)], &[(b.clone(), t)], true);
                    total.steps += sub.steps;
                    total.outcomes = total.outcomes.max(sub.outcomes);
                }
            }
            // Settling the ties mixes win counts for each tie count.
            total.steps += pairs.powi(4) / 4.0;
            total
        }
        (Pairing::Sorted, _) => sorted(contest.dice(Side::A), contest.dice(Side::B), joint),
    };
    let width = limbs(bits + 1.0);
    // The pool engine multiplies wide counts by small ones (linear in the width);
    // an unsorted contest convolves wide counts with wide counts, which num-bigint
    // multiplies by Karatsuba, about `width^1.585` (measured: 1000d6 against 1000d6,
    // 1.4e9 steps, 0.6 s; 1000d6+1000d8 against 1000d8+1000d6, 2.7e10 steps, 36 s).
    let per_step = match contest.pairing_rule() {
        Pairing::Unsorted if width > 1.0 => width.powf(KARATSUBA),
        _ => width,
    };
    Cost {
        steps: cost.steps * per_step,
        outcomes: cost.outcomes,
        support: cost.support,
        bits,
    }
}

/// The exponent of Karatsuba multiplication, `log2 3`.
const KARATSUBA: f64 = 1.585;

/// A sorted contest on the pool engine, stepped pool by pool.
fn sorted(a: &[(Die, u32)], b: &[(Die, u32)], joint: bool) -> Cost {
    let mut outcomes: Vec<i64> = a
        .iter()
        .chain(b)
        .flat_map(|(die, _)| die.outcomes().iter().copied())
        .collect();
    outcomes.sort_unstable();
    outcomes.dedup();
    let size = |side: &[(Die, u32)]| side.iter().map(|(_, n)| f64::from(*n)).sum::<f64>();
    let pairs = size(a).min(size(b));
    // Buckets: unassigned dice per group; branches: dice showing the outcome. Kinds
    // that are truncations of one another from the top join into one count as the
    // walk reaches them (a sorted contest walks down), and cost as one kind.
    let buckets = |side: &[(Die, u32)]| {
        if join_from_the_top(side) {
            size(side) + 1.0
        } else {
            side.iter()
                .map(|(_, n)| f64::from(*n) + 1.0)
                .product::<f64>()
        }
    };
    let branches = |side: &[(Die, u32)]| {
        if join_from_the_top(side) {
            size(side) / 2.0 + 1.0
        } else {
            side.iter()
                .map(|(_, n)| f64::from(*n) / 2.0 + 1.0)
                .product::<f64>()
        }
    };
    let (buckets_a, buckets_b): (f64, f64) = (buckets(a), buckets(b));
    // Scores per bucket, on average over the buckets.
    let scores = if joint {
        (pairs + 1.0) * (pairs + 2.0) / 4.0
    } else {
        pairs + 1.0
    };
    let states = buckets_a * buckets_b * scores;
    let per_state: f64 = branches(a) + branches(b);
    // The first outcome starts from one state; at the last every die left must
    // show it, one branch per pool; in between every bucket may be reached.
    let between = (outcomes.len() as f64 - 2.0).max(0.0);
    Cost {
        steps: buckets_a + buckets_b + between * states * per_state + 2.0 * states,
        outcomes: states,
        support: 2.0 * pairs + 1.0,
        bits: 0.0,
    }
}

/// Whether every two kinds of a side weigh alike every outcome up to the smaller
/// one's highest: walked from the top, they then join into one count.
fn join_from_the_top(side: &[(Die, u32)]) -> bool {
    side.iter().enumerate().all(|(i, (a, _))| {
        side[..i].iter().all(|(b, _)| {
            let top = a.max_outcome().min(b.max_outcome());
            let below = |d: &Die| -> Vec<(i64, num_bigint::BigUint)> {
                d.iter().filter(|&(o, _)| o <= top).collect()
            };
            below(a) == below(b)
        })
    })
}

/// An unsorted contest: one comparison per kind of pair, then a convolution.
fn unsorted(contest: &Contest, joint: bool, pairs: f64) -> Cost {
    let faces = |s: Side| {
        contest
            .dice(s)
            .iter()
            .map(|(d, _)| d.len() as f64)
            .sum::<f64>()
    };
    let kinds = contest.dice(Side::A).len().max(contest.dice(Side::B).len()) as f64;
    let compare = faces(Side::A) * faces(Side::B) * kinds;
    let (steps, outcomes) = if joint {
        // Triangles of win counts, convolved kind by kind.
        let triangle = (pairs + 1.0) * (pairs + 2.0) / 2.0;
        (triangle * (1.0 + (kinds - 1.0) * triangle), triangle)
    } else {
        (pairs * pairs * kinds, 2.0 * pairs + 1.0)
    };
    Cost {
        steps: compare + steps,
        outcomes,
        support: 2.0 * pairs + 1.0,
        bits: 0.0,
    }
}
