//! The joint step: every state sees all pools' counts at an outcome at once, so it
//! branches on every combination of the pools' branches.

use smallvec::SmallVec;

use super::plan::{Branch, Walk};
use super::{Buckets, Remaining};
use crate::dice::budget::Meter;
use crate::dice::count::Count;
use crate::dice::die::DieError;
use crate::dice::evaluator::Evaluator;

/// One joint branch of every pool from a bucket: the counted dice per pool, the
/// bucket it leads to, and its weight (`None` for weight one).
struct Move<C> {
    counts: SmallVec<[u32; 4]>,
    target: usize,
    weight: Option<C>,
}

/// Every state of `buckets` sees the outcome at `step` with all pools at once.
pub(super) fn step<C: Count, E: Evaluator>(
    evaluator: &E,
    walk: &mut Walk<C>,
    step: usize,
    buckets: Buckets<E::State, C>,
    meter: &mut Meter,
) -> Result<Buckets<E::State, C>, DieError> {
    let outcome = walk.outcomes[step];
    let mut next = Buckets::<E::State, C>::default();
    for (remaining, states) in buckets.keys.into_iter().zip(buckets.states) {
        let moves = moves(walk, &remaining, &mut next);
        for (state, weight) in states {
            for m in &moves {
                meter.charge(1)?;
                let new_state = evaluator.next_state(&state, outcome, &m.counts)?;
                let w = match &m.weight {
                    Some(factor) => weight.times(factor),
                    None => weight.clone(),
                };
                next.add(m.target, new_state, w);
            }
        }
    }
    Ok(next)
}

/// Every joint branch from the bucket `remaining` at the current step.
fn moves<S: Eq + std::hash::Hash, C: Count>(
    walk: &mut Walk<C>,
    remaining: &Remaining,
    next: &mut Buckets<S, C>,
) -> Vec<Move<C>> {
    let pools = walk.pools();
    for p in 0..pools {
        walk.prepare(p, remaining);
    }
    let per_pool: Vec<&[Branch<C>]> = (0..pools).map(|p| walk.branches(p, remaining)).collect();
    let mut moves = Vec::new();
    if per_pool.iter().any(|b| b.is_empty()) {
        return moves;
    }
    let mut choice = vec![0usize; pools];
    loop {
        let mut target = remaining.clone();
        let mut counts = SmallVec::new();
        let mut weight: Option<C> = None;
        for (p, branches) in per_pool.iter().enumerate() {
            let branch = &branches[choice[p]];
            counts.push(branch.counted);
            target[walk.pool_groups(p)].copy_from_slice(&branch.remaining);
            if !branch.weight.is_one() {
                weight = Some(match weight {
                    Some(w) => w.times(&branch.weight),
                    None => branch.weight.clone(),
                });
            }
        }
        moves.push(Move {
            counts,
            target: next.index(target),
            weight,
        });
        // Advance the odometer over one branch per pool.
        let mut p = 0;
        loop {
            if p == choice.len() {
                return moves;
            }
            choice[p] += 1;
            if choice[p] < per_pool[p].len() {
                break;
            }
            choice[p] = 0;
            p += 1;
        }
    }
}
