//! The joint step: every state sees all pools' counts at an outcome at once, so it
//! branches on every combination of the pools' branches.

use smallvec::SmallVec;

use super::plan::{Code, Walk};
use super::states::StateSet;
use super::{Buckets, Scratch};
use crate::control::Meter;
use crate::dice::count::Count;
use crate::dice::die::{DieError, Outcome};
use crate::dice::evaluator::Evaluator;

/// One joint branch of every pool from a bucket: the counted dice per pool, where it
/// leads with what weight, and how far it moves the states' numbers
/// ([`Evaluator::shift`]).
pub(super) struct Move<C, W> {
    counts: SmallVec<[u32; 4]>,
    to: Target<C, W>,
    shift: Option<isize>,
    /// Whether the move assigns none of the bucket's dice, so it leads to the
    /// bucket's own code.
    stays: bool,
}

/// Where a move leads, with its weight there in the counts there (`None` for one).
enum Target<C, W> {
    Bucket(usize, Option<C>),
    /// The settled states, held apart in wider counts.
    Settled(Option<W>),
}

impl<C: Count, W: Count> Move<C, W> {
    /// A move to `target` (`None` for the settled states) of weight `weight` (`None`
    /// for one), assigning no dice when `stays`.
    fn new(
        counts: SmallVec<[u32; 4]>,
        target: Option<usize>,
        weight: Option<W>,
        stays: bool,
    ) -> Self {
        let to = match target {
            Some(bucket) => Target::Bucket(bucket, weight.map(|w| w.convert::<C>())),
            None => Target::Settled(weight),
        };
        Move {
            counts,
            to,
            shift: None,
            stays,
        }
    }

    /// Whether every state of a bucket takes this move unchanged in number and
    /// weight, into its own code: the bucket's states can then become the target's
    /// whole, when nothing has reached the target yet.
    fn hands_over(&self) -> Option<usize> {
        match self.to {
            Target::Bucket(target, None) if self.stays && self.shift == Some(0) => Some(target),
            _ => None,
        }
    }
}

/// Every state of `current` sees the outcome at `step` with all pools at once.
pub(super) fn step<C: Count, W: Count, E: Evaluator>(
    evaluator: &E,
    walk: &mut Walk<W>,
    step: usize,
    current: &mut Buckets<E::State, C, W>,
    next: &mut Buckets<E::State, C, W>,
    scratch: &mut Scratch<E::State, C, W>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    let outcome = walk.outcomes[step];
    let pools = walk.pools();
    step_settled(
        evaluator,
        outcome,
        pools,
        &mut current.settled,
        &mut next.settled,
        scratch,
        meter,
    )?;
    // Buckets in order of their codes, fewest unassigned dice first. A move only
    // lowers the code, so when a bucket is visited nothing has reached its own code
    // in `next` yet, and the move that assigns none of its dice hands its states
    // over whole instead of copying them: one layer of storage, not two.
    scratch.visit.clear();
    scratch.visit.extend(0..current.keys.len());
    let keys = &current.keys;
    scratch.visit.sort_unstable_by_key(|&b| keys[b].0);
    // The branches are worked out first, in the other order: each binomial row is
    // then made from its neighbour's, one die more and already long enough
    // (`Group::binomials`), not in big integers.
    for &bucket in scratch.visit.iter().rev() {
        for pool in 0..walk.pools() {
            walk.branches(pool, keys[bucket].0, meter)?;
        }
    }
    for &bucket in &scratch.visit {
        let code = current.keys[bucket].0;
        let states = &mut current.states[bucket];
        moves(
            walk,
            code,
            next,
            &mut scratch.moves,
            &mut scratch.branches,
            meter,
        )?;
        meter.charge((states.len() * scratch.moves.len()) as u64)?;
        for m in &mut scratch.moves {
            m.shift = evaluator.shift(outcome, &m.counts);
        }
        let entries = states.entries();
        // The states' numbers, and their least and greatest when every state has one.
        scratch.indices.clear();
        let mut span = Some((usize::MAX, 0));
        for (state, _) in entries {
            match evaluator.state_index(state) {
                Some(i) => {
                    scratch.indices.push(i);
                    span = span.map(|(lo, hi)| (lo.min(i), hi.max(i)));
                }
                None => span = None,
            }
        }
        // Handing over renumbers nothing, so the set's look-up by number stays right;
        // a set that hashes its states would have to hash them again.
        let handed = states
            .is_indexed()
            .then(|| {
                scratch.moves.iter().enumerate().find_map(|(i, m)| {
                    m.hands_over()
                        .filter(|&target| next.states[target].len() == 0)
                        .map(|target| (i, target))
                })
            })
            .flatten();
        // Move by move: a move's target set, weight and shift stay at hand while
        // every state of the bucket takes it.
        let numbers = span.map(|span| (&scratch.indices[..], span));
        for (i, m) in scratch.moves.iter().enumerate() {
            if handed.is_some_and(|(h, _)| h == i) {
                continue;
            }
            let make = |state: &E::State| evaluator.next_state(state, outcome, &m.counts);
            match &m.to {
                Target::Bucket(target, weight) => {
                    let into = &mut next.states[*target];
                    into.add_moved(evaluator, entries, numbers, m.shift, weight.as_ref(), make)?;
                }
                Target::Settled(weight) => {
                    let into = &mut next.settled;
                    into.add_moved(evaluator, entries, numbers, m.shift, weight.as_ref(), make)?;
                }
            }
        }
        match handed {
            Some((i, target)) => {
                let counts = &scratch.moves[i].counts;
                std::mem::swap(states, &mut next.states[target]);
                next.states[target]
                    .map_in_place(|state| evaluator.next_state(state, outcome, counts))?;
            }
            None => states.clear(),
        }
    }
    current.clear();
    std::mem::swap(current, next);
    Ok(())
}

/// The settled states see `outcome` with none of their dice (`pools` pools): into
/// `next` (empty), merging as they go, or in place when the evaluator's numbers
/// promise that none merge.
fn step_settled<C, W: Count, E: Evaluator>(
    evaluator: &E,
    outcome: Outcome,
    pools: usize,
    current: &mut StateSet<E::State, W>,
    next: &mut StateSet<E::State, W>,
    scratch: &mut Scratch<E::State, C, W>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    if current.len() == 0 {
        return Ok(());
    }
    meter.charge(current.len() as u64)?;
    let none: SmallVec<[u32; 4]> = SmallVec::from_elem(0, pools);
    // Numbers that stay put keep distinct states distinct: nothing merges.
    debug_assert_eq!(next.len(), 0);
    if evaluator.shift(outcome, &none) == Some(0) && current.is_indexed() {
        current.map_in_place(|state| evaluator.next_state(state, outcome, &none))?;
        std::mem::swap(current, next);
        return Ok(());
    }
    current.drain_into(&mut scratch.settled);
    for (state, weight) in scratch.settled.drain(..) {
        next.add(
            evaluator,
            evaluator.next_state(&state, outcome, &none)?,
            weight,
        );
    }
    Ok(())
}

/// Every joint branch from the bucket `code` at the current step, into `moves`;
/// `branches` is scratch space for the pools' branches, one pool after another.
fn moves<S: Clone + Eq + std::hash::Hash, C: Count, W: Count>(
    walk: &mut Walk<W>,
    code: Code,
    next: &mut Buckets<S, C, W>,
    moves: &mut Vec<Move<C, W>>,
    branches: &mut Vec<(u32, Code, W)>,
    meter: &mut Meter,
) -> Result<(), DieError> {
    moves.clear();
    branches.clear();
    if walk.pools() == 1 {
        // One pool: its branches are the moves, without the scratch copy.
        for b in walk.branches(0, code, meter)? {
            let to = code - b.assigned;
            moves.push(Move::new(
                SmallVec::from_slice(&[b.counted]),
                next.target(to),
                (!b.weight.is_one()).then(|| b.weight.clone()),
                to == code,
            ));
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
        let mut weight: Option<W> = None;
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
        moves.push(Move::new(
            counts,
            next.target(target),
            weight,
            target == code,
        ));
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
