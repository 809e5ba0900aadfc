//! Which way to walk the outcomes when the evaluator lets the engine choose.
//!
//! # Design decisions
//! A pool of one kind is cheapest walked from the side of its counted ranks: it
//! settles as soon as they are consumed. A pool of several kinds has a second
//! reason to prefer a side: from the top, dice that are truncations of one another
//! (a d4, a d6 and a d8) join into one group as the walk reaches each smaller die
//! ([`joins`](super::joins)), while from the bottom they stay apart to the end. So
//! for mixed pools the engine counts, for both directions, about how many buckets
//! (codes of unassigned dice) the walk can hold at each step and takes the smaller
//! total; the counted ranks break ties.

use num_bigint::BigUint;

use super::joins::joins;
use crate::dice::die::{Die, Outcome};
use crate::dice::evaluator::Order;
use crate::dice::pool::Pool;

/// Weights looked at, over every group, before the count of buckets is left out
/// (the walk itself is linear in them, so this only bounds the choice's own cost).
const MOST_WEIGHTS: usize = 1 << 20;

/// Counts of buckets are exact up to this many ranks still to consume; beyond, the
/// product of the groups' bounds is used.
const MOST_RANKS: u32 = 4096;

/// Resolves [`Order::Any`] for `pools`.
pub(super) fn walk_order(preferred: Order, pools: &[&Pool]) -> Order {
    if preferred != Order::Any {
        return preferred;
    }
    let by_ranks = counted_side(pools);
    // Kinds can only join from the top if they share a lowest face, and from the
    // bottom if they share a highest one; when the side of the counted ranks is also
    // the only side where kinds may join, there is nothing to weigh. (Mixtures of
    // exploding pools evaluate thousands of small mixed pools: this keeps the choice
    // from costing more than their walks.)
    let shared = |end: fn(&Die) -> Outcome| {
        pools.iter().any(|p| {
            let mut ends: Vec<Outcome> = p.groups().iter().map(|(d, _)| end(d)).collect();
            ends.sort_unstable();
            ends.windows(2).any(|w| w[0] == w[1])
        })
    };
    match (shared(Die::min_outcome), shared(Die::max_outcome)) {
        (false, false) => return by_ranks,
        (true, false) if by_ranks == Order::Descending => return by_ranks,
        (false, true) if by_ranks == Order::Ascending => return by_ranks,
        _ => {}
    }
    match (
        buckets(pools, Order::Ascending),
        buckets(pools, Order::Descending),
    ) {
        (Some(up), Some(down)) if up < down => Order::Ascending,
        (Some(up), Some(down)) if down < up => Order::Descending,
        _ => by_ranks,
    }
}

/// The side where the counted ranks are, so that pools settle early.
fn counted_side(pools: &[&Pool]) -> Order {
    let consumed = |pattern: &[bool]| pattern.iter().rposition(|&k| k).map_or(0, |i| i + 1);
    let (mut from_top, mut from_bottom) = (0, 0);
    for pool in pools {
        let mut pattern = pool.keep_pattern();
        from_top += consumed(&pattern);
        pattern.reverse();
        from_bottom += consumed(&pattern);
    }
    if from_bottom < from_top {
        Order::Ascending
    } else {
        Order::Descending
    }
}

/// About how many buckets a walk in `order` holds, summed over its steps; `None`
/// when the dice have too many outcomes to look at.
fn buckets(pools: &[&Pool], order: Order) -> Option<f64> {
    let mut outcomes: Vec<Outcome> = pools
        .iter()
        .flat_map(|p| p.groups())
        .flat_map(|(die, _)| die.outcomes().iter().copied())
        .collect();
    outcomes.sort_unstable();
    outcomes.dedup();
    if order == Order::Descending {
        outcomes.reverse();
    }
    let kinds: usize = pools.iter().map(|p| p.groups().len()).sum();
    if outcomes.len().saturating_mul(kinds) > MOST_WEIGHTS {
        return None;
    }
    // Only equality and zero matter here: a count past 64 bits stands in by its
    // hash (the walk itself compares exact counts).
    let mut weights: Vec<Vec<u64>> = Vec::with_capacity(kinds);
    let mut sizes: Vec<u32> = Vec::with_capacity(kinds);
    let mut ranges = Vec::with_capacity(pools.len());
    let mut settles = Vec::with_capacity(pools.len());
    for pool in pools {
        let start = weights.len();
        for (die, n) in pool.groups() {
            let keys: Vec<u64> = match die.counts_u64() {
                Some(counts) => counts.to_vec(),
                None => die.iter().map(|(_, c)| hash_of(&c)).collect(),
            };
            let mut row = vec![0u64; outcomes.len()];
            for (outcome, key) in die.outcomes().iter().zip(keys) {
                let found = match order {
                    Order::Descending => outcomes.binary_search_by(|o| outcome.cmp(o)),
                    _ => outcomes.binary_search(outcome),
                };
                if let Ok(at) = found {
                    row[at] = key;
                }
            }
            weights.push(row);
            sizes.push(*n);
        }
        ranges.push(start..weights.len());
        let mut pattern = pool.keep_pattern();
        if order == Order::Ascending {
            pattern.reverse();
        }
        settles.push(pattern.iter().rposition(|&k| k).map_or(0, |i| i + 1) as u32);
    }
    let groups: Vec<(&[u64], u32)> = weights
        .iter()
        .map(|w| &w[..])
        .zip(sizes.iter().copied())
        .collect();
    let (joins, _) = joins(&groups, ranges.iter().cloned());
    // `into[g]`: the group whose count holds group `g`'s dice.
    let mut into: Vec<usize> = (0..kinds).collect();
    let mut started = vec![false; kinds];
    let mut total = 0.0;
    for (s, joined) in joins.iter().enumerate() {
        for join in joined {
            for holder in &mut into {
                if *holder == join.group {
                    *holder = join.into;
                }
            }
        }
        let mut codes = 1.0;
        for (range, &settle) in ranges.iter().zip(&settles) {
            if settle == 0 {
                continue;
            }
            // How far each count can have moved: the dice of its groups that could
            // show an outcome already.
            let bounds: Vec<u32> = range
                .clone()
                .filter(|&g| into[g] == g)
                .map(|g| {
                    range
                        .clone()
                        .filter(|&h| into[h] == g && started[h])
                        .map(|h| sizes[h])
                        .sum()
                })
                .collect();
            codes *= splits_below(&bounds, settle) + 1.0;
        }
        total += codes;
        for (g, row) in weights.iter().enumerate() {
            started[g] |= row[s] != 0;
        }
    }
    Some(total)
}

/// A count's stand-in: its hash, never zero (zero means the die cannot show it).
fn hash_of(count: &BigUint) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(count) | 1
}

/// How many vectors `a` with `0 ≤ a[k] ≤ bounds[k]` add up to less than `limit`.
fn splits_below(bounds: &[u32], limit: u32) -> f64 {
    let all: f64 = bounds.iter().map(|&b| f64::from(b) + 1.0).product();
    let most: u64 = bounds.iter().map(|&b| u64::from(b)).sum();
    if most < u64::from(limit) || limit > MOST_RANKS {
        return all;
    }
    // `ways[t]`: vectors of the bounds so far adding up to `t`, for `t < limit`.
    let limit = limit as usize;
    let mut ways = vec![0.0f64; limit];
    ways[0] = 1.0;
    for &b in bounds {
        let b = b as usize;
        let mut next = vec![0.0f64; limit];
        let mut window = 0.0;
        for t in 0..limit {
            window += ways[t];
            if t > b {
                window -= ways[t - b - 1];
            }
            next[t] = window;
        }
        ways = next;
    }
    ways.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::d;

    #[test]
    fn splits_below_counts_bounded_vectors() {
        // (a, b) in [0,2]×[0,3] with a + b < 3: 3 + 2 + 1 = 6.
        assert_eq!(splits_below(&[2, 3], 3), 6.0);
        assert_eq!(splits_below(&[2, 3], 100), 12.0);
        assert_eq!(splits_below(&[], 1), 1.0);
    }

    #[test]
    fn mixed_truncated_pools_walk_from_the_top_either_way() {
        // From the top the d4s, d6s and d8s join; from the bottom they never do.
        let pool = Pool::mixed([(d(4), 20), (d(6), 20), (d(8), 20)]).unwrap();
        for pool in [pool.clone().keep_highest(10), pool.keep_lowest(10)] {
            assert_eq!(walk_order(Order::Any, &[&pool]), Order::Descending);
        }
        let single = Pool::new(&d(6), 4).unwrap().keep_lowest(1);
        assert_eq!(walk_order(Order::Any, &[&single]), Order::Ascending);
    }
}
