//! [`StateSet`]: the states of one bucket with their weights — in an array indexed
//! by the evaluator's own numbering when it has one, in a hash map otherwise.
//!
//! # Design decisions
//! Merging equal states is the innermost operation of every walk. A hash map pays
//! for hashing and probing on every merge; an evaluator whose states are small
//! numbers (a bounded score, a count of wins) can say so through
//! [`Evaluator::state_index`], and its states then merge by indexing an array. A set
//! falls back to a map for good as soon as one index is missing or too large, so a
//! numbering only has to be right, never complete.

use rustc_hash::FxHashMap as HashMap;

use crate::dice::count::Count;
use crate::dice::evaluator::Evaluator;

/// Indices at or above this fall back to a map (an array that large would be mostly
/// empty).
const MAX_INDEX: usize = 1 << 10;

/// Slots an indexed set starts with.
const FIRST_SLOTS: usize = 32;

/// The states of one bucket and their weights.
pub(super) enum StateSet<S, C> {
    /// States merged by hashing.
    Hashed(HashMap<S, C>),
    /// States merged by their index; `used` lists the filled slots.
    Indexed {
        slots: Vec<Option<(S, C)>>,
        used: Vec<u32>,
    },
}

impl<S: Eq + std::hash::Hash, C: Count> StateSet<S, C> {
    /// An empty set, indexed if the evaluator numbers its states.
    pub(super) fn new(indexed: bool) -> Self {
        if indexed {
            // Room for typical scores from the start: growing costs more than space.
            let mut slots = Vec::with_capacity(FIRST_SLOTS);
            slots.resize_with(FIRST_SLOTS, || None);
            StateSet::Indexed {
                slots,
                used: Vec::with_capacity(FIRST_SLOTS),
            }
        } else {
            StateSet::Hashed(HashMap::default())
        }
    }

    /// Adds `weight` to `state`.
    #[inline]
    pub(super) fn add<E: Evaluator<State = S>>(&mut self, evaluator: &E, state: S, weight: C) {
        match self {
            StateSet::Indexed { slots, used } => {
                match evaluator.state_index(&state).filter(|&i| i < MAX_INDEX) {
                    Some(i) => {
                        if i >= slots.len() {
                            slots.resize_with((i + 1).next_power_of_two(), || None);
                        }
                        match &mut slots[i] {
                            Some((_, acc)) => acc.add_assign(&weight),
                            slot @ None => {
                                *slot = Some((state, weight));
                                used.push(i as u32);
                            }
                        }
                    }
                    None => {
                        self.switch_to_hashing();
                        self.add(evaluator, state, weight);
                    }
                }
            }
            StateSet::Hashed(map) => match map.entry(state) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    e.get_mut().add_assign(&weight);
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(weight);
                }
            },
        }
    }

    /// The number of states.
    pub(super) fn len(&self) -> usize {
        match self {
            StateSet::Hashed(map) => map.len(),
            StateSet::Indexed { used, .. } => used.len(),
        }
    }

    /// Moves every state into `out`, leaving the set empty.
    pub(super) fn drain_into(&mut self, out: &mut Vec<(S, C)>) {
        match self {
            StateSet::Hashed(map) => out.extend(map.drain()),
            StateSet::Indexed { slots, used } => {
                out.extend(used.drain(..).filter_map(|i| slots[i as usize].take()));
            }
        }
    }

    /// Every state with its weight.
    pub(super) fn iter(&self) -> StateIter<'_, S, C> {
        match self {
            StateSet::Hashed(map) => StateIter::Hashed(map.iter()),
            StateSet::Indexed { slots, used } => StateIter::Indexed {
                slots,
                used: used.iter(),
            },
        }
    }

    /// Forgets every state, keeping the storage.
    pub(super) fn clear(&mut self) {
        match self {
            StateSet::Hashed(map) => map.clear(),
            StateSet::Indexed { slots, used } => {
                for i in used.drain(..) {
                    slots[i as usize] = None;
                }
            }
        }
    }

    /// Moves every state into a map (once an index is missing or too large).
    fn switch_to_hashing(&mut self) {
        let mut states = Vec::new();
        self.drain_into(&mut states);
        let mut map = HashMap::default();
        map.extend(states);
        *self = StateSet::Hashed(map);
    }
}

/// The states of a [`StateSet`] with their weights.
pub(super) enum StateIter<'a, S, C> {
    Hashed(std::collections::hash_map::Iter<'a, S, C>),
    Indexed {
        slots: &'a [Option<(S, C)>],
        used: std::slice::Iter<'a, u32>,
    },
}

impl<'a, S, C> Iterator for StateIter<'a, S, C> {
    type Item = (&'a S, &'a C);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            StateIter::Hashed(iter) => iter.next(),
            StateIter::Indexed { slots, used } => {
                let &i = used.next()?;
                slots[i as usize].as_ref().map(|(s, c)| (s, c))
            }
        }
    }
}
