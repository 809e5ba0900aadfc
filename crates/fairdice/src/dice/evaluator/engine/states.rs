//! [`StateSet`]: the states of one bucket with their weights — found through the
//! evaluator's own numbering when it has one, through a hash map otherwise.
//!
//! # Design decisions
//! Merging equal states is the innermost operation of every walk. A hash map pays
//! for hashing and probing on every merge; an evaluator whose states are small
//! numbers (a bounded score, a count of wins) can say so through
//! [`Evaluator::state_index`], and its states then merge through a table from number
//! to position. The states themselves stay packed in a vector in both cases, so a
//! step reads them in order. A set falls back to a map for good as soon as one
//! number is missing or too large, so a numbering only has to be right, never
//! complete.

use rustc_hash::FxHashMap as HashMap;

use crate::dice::count::Count;
use crate::dice::die::DieError;
use crate::dice::evaluator::Evaluator;

/// Numbers at or above this fall back to a map (a table that large would be mostly
/// empty).
const MAX_INDEX: usize = 1 << 12;

/// States a new set has room for.
const FIRST_ROOM: usize = 16;

/// A weight arriving at a state: owned, or a product still to be formed.
enum Weight<'a, C> {
    Owned(C),
    Product(&'a C, Option<&'a C>),
}

impl<C: Count> Weight<'_, C> {
    #[inline(always)]
    fn add_to(self, into: &mut C) {
        match self {
            Weight::Owned(w) => into.add_assign(&w),
            Weight::Product(w, Some(factor)) => into.add_mul(w, factor),
            Weight::Product(w, None) => into.add_assign(w),
        }
    }

    #[inline]
    fn into_count(self) -> C {
        match self {
            Weight::Owned(w) => w,
            Weight::Product(w, Some(factor)) => w.times(factor),
            Weight::Product(w, None) => w.clone(),
        }
    }
}

/// The states of one bucket and their weights.
pub(super) struct StateSet<S, C> {
    /// The states with their weights, in the order they arrived.
    entries: Vec<(S, C)>,
    /// How an arriving state finds its entry.
    find: Find<S>,
}

/// How a state finds its entry in a [`StateSet`].
enum Find<S> {
    /// By hashing.
    Hashed(HashMap<S, u32>),
    /// By the evaluator's number: `position[number]` is `(stamp, position)`, which
    /// counts only if the stamp is the set's current one, so forgetting every
    /// position is a new stamp.
    Indexed {
        position: Vec<(u32, u32)>,
        stamp: u32,
    },
}

impl<S: Clone + Eq + std::hash::Hash, C: Count> StateSet<S, C> {
    /// An empty set, indexed if the evaluator numbers its states.
    pub(super) fn new(indexed: bool) -> Self {
        // Room for typical buckets from the start: growing costs more than space.
        let find = if indexed {
            Find::Indexed {
                position: vec![(0, 0); 2 * FIRST_ROOM],
                stamp: 1,
            }
        } else {
            Find::Hashed(HashMap::default())
        };
        StateSet {
            entries: Vec::with_capacity(FIRST_ROOM),
            find,
        }
    }

    /// Adds `weight` to `state`.
    #[inline]
    pub(super) fn add<E: Evaluator<State = S>>(&mut self, evaluator: &E, state: S, weight: C) {
        self.merge(evaluator, state, Weight::Owned(weight));
    }

    /// Adds `weight · factor` (`weight` for `None`) to `state`: into a state already
    /// held with one fused multiply-add, so the product is never built apart.
    #[inline]
    pub(super) fn add_product<E: Evaluator<State = S>>(
        &mut self,
        evaluator: &E,
        state: S,
        weight: &C,
        factor: Option<&C>,
    ) {
        self.merge(evaluator, state, Weight::Product(weight, factor));
    }

    /// Adds every state of `from` (weights in `D`), moved by `make`, times `factor`:
    /// merged by their numbers moved `shift` when `numbers` gives them (the states'
    /// numbers, and their least and greatest) and the evaluator promises a shift;
    /// one by one otherwise.
    ///
    /// # Errors
    /// Whatever `make` returns.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_moved<E: Evaluator<State = S>, D: Count>(
        &mut self,
        evaluator: &E,
        from: &[(S, D)],
        numbers: Option<(&[usize], (usize, usize))>,
        shift: Option<isize>,
        factor: Option<&C>,
        make: impl Fn(&S) -> Result<S, DieError>,
    ) -> Result<(), DieError> {
        if let (Some((indices, span)), Some(shift)) = (numbers, shift)
            && self.add_shifted(from, indices, span, shift, factor, &make)?
        {
            return Ok(());
        }
        for (state, weight) in from {
            self.add_product(evaluator, make(state)?, &weight.converted::<C>(), factor);
        }
        Ok(())
    }

    /// Adds every state of `from` (numbered `indices`, from `span.0` to `span.1`,
    /// their weights in `D`) times `factor` to the state numbered `shift` more ([`Evaluator::shift`]);
    /// `make` makes the states the set has not met. `Ok(false)`, adding nothing, if
    /// the set finds states by hashing or a moved number falls outside its table:
    /// the caller then adds them one by one. One check for the whole bucket, so the
    /// loop is only look-ups and fused multiply-adds.
    ///
    /// # Errors
    /// Whatever `make` returns.
    fn add_shifted<D: Count>(
        &mut self,
        from: &[(S, D)],
        indices: &[usize],
        span: (usize, usize),
        shift: isize,
        factor: Option<&C>,
        make: impl Fn(&S) -> Result<S, DieError>,
    ) -> Result<bool, DieError> {
        let Find::Indexed { position, stamp } = &mut self.find else {
            return Ok(false);
        };
        let moved = |i: usize| i.checked_add_signed(shift).filter(|&to| to < MAX_INDEX);
        let (Some(_), Some(top)) = (moved(span.0), moved(span.1)) else {
            return Ok(false);
        };
        if top >= position.len() {
            position.resize((top + 1).next_power_of_two(), (0, 0));
        }
        let (entries, stamp) = (&mut self.entries, *stamp);
        let at = (&mut position[..], stamp, indices, shift, factor);
        // The factor's shape is the same for every state: one word (a binomial, as
        // most moves carry) takes one row of multiply-adds without a test.
        match factor.map(|f| (f, f.try_u64())) {
            None => merge_shifted(entries, from, at, &make, |into, w| into.add_assign(w))?,
            Some((_, Some(word))) => merge_shifted(entries, from, at, &make, |into, w| {
                into.add_mul_u64(w, word)
            })?,
            Some((f, None)) => {
                merge_shifted(entries, from, at, &make, |into, w| into.add_mul(w, f))?
            }
        }
        Ok(true)
    }

    #[inline]
    fn merge<E: Evaluator<State = S>>(&mut self, evaluator: &E, state: S, weight: Weight<'_, C>) {
        match &mut self.find {
            Find::Indexed { position, stamp } => {
                match evaluator.state_index(&state).filter(|&i| i < MAX_INDEX) {
                    Some(i) => {
                        if i >= position.len() {
                            position.resize((i + 1).next_power_of_two(), (0, 0));
                        }
                        match position[i] {
                            (s, at) if s == *stamp => {
                                weight.add_to(&mut self.entries[at as usize].1)
                            }
                            _ => {
                                position[i] = (*stamp, self.entries.len() as u32);
                                self.entries.push((state, weight.into_count()));
                            }
                        }
                    }
                    None => {
                        self.switch_to_hashing();
                        self.merge(evaluator, state, weight);
                    }
                }
            }
            Find::Hashed(map) => match map.entry(state) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    weight.add_to(&mut self.entries[*e.get() as usize].1);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    let state = e.key().clone();
                    e.insert(self.entries.len() as u32);
                    self.entries.push((state, weight.into_count()));
                }
            },
        }
    }

    /// Whether states are found by the evaluator's numbers (every state has one).
    pub(super) fn is_indexed(&self) -> bool {
        matches!(self.find, Find::Indexed { .. })
    }

    /// Replaces every state by `step(state)`, keeping its weight and position: for a
    /// step that keeps every state's number ([`Evaluator::shift`] of zero), so no two
    /// states merge.
    ///
    /// # Errors
    /// Whatever `step` returns; the set is then left empty.
    pub(super) fn map_in_place(
        &mut self,
        step: impl Fn(&S) -> Result<S, DieError>,
    ) -> Result<(), DieError> {
        for (state, _) in &mut self.entries {
            match step(state) {
                Ok(next) => *state = next,
                Err(e) => {
                    self.clear();
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Storage held, in bytes, estimated from capacities.
    pub(super) fn bytes(&self) -> usize {
        use std::mem::size_of;
        let find = match &self.find {
            Find::Hashed(map) => map.capacity() * (size_of::<(S, u32)>() + 1),
            Find::Indexed { position, .. } => position.capacity() * size_of::<(u32, u32)>(),
        };
        self.entries.capacity() * size_of::<(S, C)>() + find
    }

    /// The number of states.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every state with its weight.
    pub(super) fn entries(&self) -> &[(S, C)] {
        &self.entries
    }

    /// Moves every state into `out`, leaving the set empty.
    pub(super) fn drain_into(&mut self, out: &mut Vec<(S, C)>) {
        self.forget_positions();
        out.append(&mut self.entries);
    }

    /// Forgets every state, keeping the storage.
    pub(super) fn clear(&mut self) {
        self.forget_positions();
        self.entries.clear();
    }

    fn forget_positions(&mut self) {
        match &mut self.find {
            Find::Hashed(map) => map.clear(),
            Find::Indexed { position, stamp } => {
                *stamp = stamp.wrapping_add(1);
                if *stamp == 0 {
                    position.fill((0, 0));
                    *stamp = 1;
                }
            }
        }
    }

    /// Finds states by hashing from now on (once a number is missing or too large).
    fn switch_to_hashing(&mut self) {
        let map = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, (s, _))| (s.clone(), i as u32))
            .collect();
        self.find = Find::Hashed(map);
    }
}

/// Where [`merge_shifted`] moves states: the set's `position` table (current with
/// `stamp`), the states' numbers, the shift, and the factor of a state not held.
type Shifted<'a, C> = (&'a mut [(u32, u32)], u32, &'a [usize], isize, Option<&'a C>);

/// [`StateSet::add_shifted`]'s loop, made once per shape of the factor: every state
/// of `from` (weights in `D`) to the state numbered `shift` more, where `add`
/// merges its weight into a state held, and a state not held is made by `make`
/// with its weight times the factor.
#[inline(always)]
fn merge_shifted<S, C: Count, D: Count>(
    entries: &mut Vec<(S, C)>,
    from: &[(S, D)],
    (position, stamp, indices, shift, factor): Shifted<'_, C>,
    make: &impl Fn(&S) -> Result<S, DieError>,
    add: impl Fn(&mut C, &C),
) -> Result<(), DieError> {
    for ((state, weight), &index) in from.iter().zip(indices) {
        let to = index.wrapping_add_signed(shift);
        // Settled states count wider than the buckets they leave.
        let weight = weight.converted::<C>();
        match position[to] {
            (s, at) if s == stamp => add(&mut entries[at as usize].1, &weight),
            _ => {
                position[to] = (stamp, entries.len() as u32);
                let weight = Weight::Product(&*weight, factor).into_count();
                entries.push((make(state)?, weight));
            }
        }
    }
    Ok(())
}
