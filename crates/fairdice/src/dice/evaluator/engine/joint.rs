//! The joint step: every state sees all pools' counts at an outcome at once, so it
//! branches on every combination of the pools' branches.

use smallvec::SmallVec;

use super::plan::{Code, Walk};
use super::{Buckets, Scratch};
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

/// Every state of `current` sees the outcome at `step` with all pools at once.
pub(super) fn step<C: Count, E: Evaluator>(
    evaluator: &E,
    walk: &mut Walk<C>,
    step: usize,
    current: &mut Buckets<E::State, C>,
    next: &mut Buckets<E::State, C>,
    scratch: &mut Scratch<E::State, C>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    let outcome = walk.outcomes[step];
    for (key, states) in current.keys.iter().zip(&mut current.states) {
        let moves = moves(walk, key.0, next);
        states.drain_into(&mut scratch.states);
        for (state, weight) in scratch.states.drain(..) {
            for m in &moves {
                meter.charge(1)?;
                let new_state = evaluator.next_state(&state, outcome, &m.counts)?;
                let w = match &m.weight {
                    Some(factor) => weight.times(factor),
                    None => weight.clone(),
                };
                next.add(evaluator, m.target, new_state, w);
            }
        }
    }
    current.clear();
    std::mem::swap(current, next);
    Ok(())
}

/// Every joint branch from the bucket `code` at the current step.
fn moves<S: Clone + Eq + std::hash::Hash, C: Count>(
    walk: &mut Walk<C>,
    code: Code,
    next: &mut Buckets<S, C>,
) -> Vec<Move<C>> {
    let pools = walk.pools();
    // (counted, assigned, weight) per branch of each pool.
    let per_pool: Vec<Vec<(u32, Code, C)>> = (0..pools)
        .map(|p| {
            walk.branches(p, code)
                .iter()
                .map(|b| (b.counted, b.assigned, b.weight.clone()))
                .collect()
        })
        .collect();
    let mut moves = Vec::new();
    if per_pool.iter().any(|b| b.is_empty()) {
        return moves;
    }
    let mut choice = vec![0usize; pools];
    loop {
        let mut target = code;
        let mut counts = SmallVec::new();
        let mut weight: Option<C> = None;
        for (p, branches) in per_pool.iter().enumerate() {
            let (counted, assigned, w) = &branches[choice[p]];
            counts.push(*counted);
            target -= assigned;
            if !w.is_one() {
                weight = Some(match weight {
                    Some(acc) => acc.times(w),
                    None => w.clone(),
                });
            }
        }
        moves.push(Move {
            counts,
            target: next.index((target, 0)),
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
