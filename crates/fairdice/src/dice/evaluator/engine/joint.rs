//! The joint step: every state sees all pools' counts at an outcome at once, so it
//! branches on every combination of the pools' branches.

use smallvec::SmallVec;

use super::plan::{Code, Walk};
use super::{Buckets, Scratch};
use crate::control::Meter;
use crate::dice::count::Count;
use crate::dice::die::DieError;
use crate::dice::evaluator::Evaluator;

/// One joint branch of every pool from a bucket: the counted dice per pool, the
/// bucket it leads to, its weight (`None` for weight one), and how far it moves the
/// states' numbers ([`Evaluator::shift`]).
pub(super) struct Move<C> {
    counts: SmallVec<[u32; 4]>,
    target: usize,
    weight: Option<C>,
    shift: Option<isize>,
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
        moves(
            walk,
            key.0,
            next,
            &mut scratch.moves,
            &mut scratch.branches,
            meter,
        )?;
        meter.charge((states.len() * scratch.moves.len()) as u64)?;
        for m in &mut scratch.moves {
            m.shift = evaluator.shift(outcome, &m.counts);
        }
        states.drain_into(&mut scratch.states);
        // The states' numbers, and their least and greatest when every state has one.
        scratch.indices.clear();
        let mut span = Some((usize::MAX, 0));
        for (state, _) in &scratch.states {
            match evaluator.state_index(state) {
                Some(i) => {
                    scratch.indices.push(i);
                    span = span.map(|(lo, hi)| (lo.min(i), hi.max(i)));
                }
                None => span = None,
            }
        }
        // Move by move: a move's target set, weight and shift stay at hand while
        // every state of the bucket takes it.
        for m in &scratch.moves {
            let into = &mut next.states[m.target];
            let factor = m.weight.as_ref();
            let make = |state: &E::State| evaluator.next_state(state, outcome, &m.counts);
            if let (Some(span), Some(shift)) = (span, m.shift) {
                // States that move alike merge by their moved numbers, made only if new.
                if into.add_shifted(&scratch.states, &scratch.indices, span, shift, factor, make)? {
                    continue;
                }
            }
            for (state, weight) in &scratch.states {
                into.add_product(evaluator, make(state)?, weight, factor);
            }
        }
        scratch.states.clear();
    }
    current.clear();
    std::mem::swap(current, next);
    Ok(())
}

/// Every joint branch from the bucket `code` at the current step, into `moves`;
/// `branches` is scratch space for the pools' branches, one pool after another.
fn moves<S: Clone + Eq + std::hash::Hash, C: Count>(
    walk: &mut Walk<C>,
    code: Code,
    next: &mut Buckets<S, C>,
    moves: &mut Vec<Move<C>>,
    branches: &mut Vec<(u32, Code, C)>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    moves.clear();
    branches.clear();
    if walk.pools() == 1 {
        // One pool: its branches are the moves, without the scratch copy.
        for b in walk.branches(0, code, meter)? {
            moves.push(Move {
                counts: SmallVec::from_slice(&[b.counted]),
                target: next.index((code - b.assigned, 0)),
                weight: (!b.weight.is_one()).then(|| b.weight.clone()),
                shift: None,
            });
        }
        return Ok(());
    }
    // Pool `p`'s branches are `branches[ends[p - 1]..ends[p]]` (from 0 for the first).
    let mut ends: SmallVec<[usize; 4]> = SmallVec::new();
    for p in 0..walk.pools() {
        let pool = walk.branches(p, code, meter)?;
        if pool.is_empty() {
            return Ok(());
        }
        branches.extend(
            pool.iter()
                .map(|b| (b.counted, b.assigned, b.weight.clone())),
        );
        ends.push(branches.len());
    }
    let start = |p: usize| if p == 0 { 0 } else { ends[p - 1] };
    // One branch per pool, as positions into `branches`, advanced like an odometer.
    let mut choice: SmallVec<[usize; 4]> = (0..ends.len()).map(start).collect();
    loop {
        let mut target = code;
        let mut counts = SmallVec::new();
        let mut weight: Option<C> = None;
        for &at in &choice {
            let (counted, assigned, w) = &branches[at];
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
            shift: None,
        });
        let mut p = 0;
        loop {
            if p == choice.len() {
                return Ok(());
            }
            choice[p] += 1;
            if choice[p] < ends[p] {
                break;
            }
            choice[p] = start(p);
            p += 1;
        }
    }
}
