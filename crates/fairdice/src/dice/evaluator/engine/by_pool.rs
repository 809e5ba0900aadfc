//! The pool-by-pool step: at each outcome the pools show their dice one after
//! another, and states merge between the pools.
//!
//! # Design decisions
//! The pool order is chosen per bucket, from the dice each pool has shown, so it is
//! worked out once for all the bucket's states. Between two pools of the same
//! outcome a bucket key carries the order it started with, so states that started
//! from different orders never merge half-way; after the last pool the order is
//! dropped and every state with the same unassigned dice merges again.

use smallvec::SmallVec;

use super::plan::Walk;
use super::{Buckets, Scratch};
use crate::control::Meter;
use crate::dice::count::Count;
use crate::dice::die::DieError;
use crate::dice::evaluator::PoolByPool;

/// Every state of `current` sees the outcome at `step`, one pool at a time.
pub(super) fn step<C: Count, E: PoolByPool>(
    evaluator: &E,
    walk: &mut Walk<C>,
    step: usize,
    current: &mut Buckets<E::State, C>,
    next: &mut Buckets<E::State, C>,
    scratch: &mut Scratch<E::State, C>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    let outcome = walk.outcomes[step];
    let pools = walk.pools();
    // A bucket key names the pool order its step started with by index.
    scratch.orders.clear();
    let mut order: SmallVec<[usize; 4]> = SmallVec::new();
    let keeps = evaluator.empty_pool_keeps_state();
    for position in 0..pools {
        let last = position + 1 == pools;
        // Fewest dice left first: a bucket only sends states to buckets with fewer
        // dice left, so the bucket it keeps its states in is still empty.
        scratch.visit.clear();
        scratch.visit.extend(0..current.keys.len());
        let keys = &current.keys;
        if keys.iter().all(|&(code, id)| code < 1 << 56 && id < 1 << 8) {
            // One machine word per key sorts fastest.
            scratch
                .visit
                .sort_unstable_by_key(|&b| ((keys[b].0 as u64) << 8) | u64::from(keys[b].1));
        } else {
            scratch.visit.sort_unstable_by_key(|&b| keys[b]);
        }
        for &bucket in &scratch.visit {
            let (code, stored) = current.keys[bucket];
            let states = &mut current.states[bucket];
            let id = if position == 0 {
                walk.seen(code, &mut scratch.seen);
                order.clear();
                order.extend(0..pools);
                evaluator.pool_order(&scratch.seen, &mut order);
                debug_assert!(is_permutation(&order), "{order:?} is not a pool order");
                let orders = &mut scratch.orders;
                let id = orders.iter().position(|o| *o == order).unwrap_or_else(|| {
                    orders.push(order.clone());
                    orders.len() - 1
                });
                id as u32
            } else {
                stored
            };
            let pool = scratch.orders[id as usize][position];
            let branches = walk.branches(pool, code, meter)?;
            meter.charge((states.len() * branches.len()) as u64)?;
            let targets = &mut scratch.targets;
            targets.clear();
            targets.extend(
                branches
                    .iter()
                    .map(|b| next.index((code - b.assigned, if last { 0 } else { id }))),
            );
            // No dice shown, nothing settled: the states carry over unchanged, and
            // if nothing has reached their bucket yet they move there wholesale.
            let carried = keeps
                .then(|| {
                    branches.iter().zip(targets.iter()).position(|(b, &t)| {
                        b.assigned == 0 && b.weight.is_one() && next.states[t].len() == 0
                    })
                })
                .flatten();
            // Branch by branch, so each target set stays at hand while it fills.
            for (i, (branch, &target)) in branches.iter().zip(targets.iter()).enumerate() {
                if Some(i) == carried {
                    continue;
                }
                let into = &mut next.states[target];
                for (state, weight) in states.entries() {
                    let new_state = evaluator.next_state_for_pool(
                        state,
                        outcome,
                        pool,
                        position,
                        branch.counted,
                    )?;
                    let factor = (!branch.weight.is_one()).then_some(&branch.weight);
                    into.add_product(evaluator, new_state, weight, factor);
                }
            }
            match carried {
                Some(i) => std::mem::swap(states, &mut next.states[targets[i]]),
                None => states.clear(),
            }
        }
        current.clear();
        std::mem::swap(current, next);
    }
    Ok(())
}

fn is_permutation(order: &[usize]) -> bool {
    let mut seen = vec![false; order.len()];
    order
        .iter()
        .all(|&p| p < seen.len() && !std::mem::replace(&mut seen[p], true))
}
