//! The pool-by-pool step: at each outcome a state sees the pools one after another,
//! in an order it chooses, and states merge between the pools.
//!
//! # Design decisions
//! Between two pools of the same outcome, a state's bucket key is its unassigned
//! dice followed by the pool order it chose, so states that chose different orders
//! never merge half-way. After the last pool the order is dropped and every state
//! with the same unassigned dice merges again.

use smallvec::SmallVec;

use super::plan::Walk;
use super::{Buckets, Remaining};
use crate::dice::budget::Meter;
use crate::dice::count::Count;
use crate::dice::die::DieError;
use crate::dice::evaluator::PoolByPool;

/// A pool order: pool indices, first seen first.
type PoolOrder = SmallVec<[usize; 4]>;

/// Every state of `buckets` sees the outcome at `step`, one pool at a time.
pub(super) fn step<C: Count, E: PoolByPool>(
    evaluator: &E,
    walk: &mut Walk<C>,
    step: usize,
    buckets: Buckets<E::State, C>,
    meter: &mut Meter,
) -> Result<Buckets<E::State, C>, DieError> {
    let outcome = walk.outcomes[step];
    let pools = walk.pools();
    let entries = buckets.keys.first().map_or(0, |k| k.len());
    let mut current = buckets;
    for position in 0..pools {
        let last = position + 1 == pools;
        let mut next = Buckets::<E::State, C>::default();
        for (key, states) in current.keys.into_iter().zip(current.states) {
            let remaining = &key[..entries];
            let stored: Option<PoolOrder> =
                (position > 0).then(|| key[entries..].iter().map(|&p| p as usize).collect());
            match &stored {
                Some(order) => walk.prepare(order[position], remaining),
                None => (0..pools).for_each(|p| walk.prepare(p, remaining)),
            }
            // The target buckets of each order seen in this bucket, by branch.
            let mut targets: SmallVec<[(PoolOrder, Vec<usize>); 2]> = SmallVec::new();
            for (state, weight) in states {
                let order = match &stored {
                    Some(order) => order.clone(),
                    None => {
                        let mut order: PoolOrder = (0..pools).collect();
                        evaluator.pool_order(&state, &mut order);
                        debug_assert!(is_permutation(&order), "{order:?} is not a pool order");
                        order
                    }
                };
                let pool = order[position];
                let branches = walk.branches(pool, remaining);
                let slot = match targets.iter().position(|(o, _)| *o == order) {
                    Some(slot) => slot,
                    None => {
                        let groups = walk.pool_groups(pool);
                        let ids = branches
                            .iter()
                            .map(|branch| {
                                let mut target: Remaining = remaining.iter().copied().collect();
                                target[groups.clone()].copy_from_slice(&branch.remaining);
                                if !last {
                                    target.extend(order.iter().map(|&p| p as u32));
                                }
                                next.index(target)
                            })
                            .collect();
                        targets.push((order.clone(), ids));
                        targets.len() - 1
                    }
                };
                meter.charge(branches.len() as u64)?;
                for (branch, &target) in branches.iter().zip(&targets[slot].1) {
                    let new_state = evaluator.next_state_for_pool(
                        &state,
                        outcome,
                        pool,
                        position,
                        branch.counted,
                    )?;
                    let w = if branch.weight.is_one() {
                        weight.clone()
                    } else {
                        weight.times(&branch.weight)
                    };
                    next.add(target, new_state, w);
                }
            }
        }
        current = next;
    }
    Ok(current)
}

fn is_permutation(order: &[usize]) -> bool {
    let mut seen = vec![false; order.len()];
    order
        .iter()
        .all(|&p| p < seen.len() && !std::mem::replace(&mut seen[p], true))
}
