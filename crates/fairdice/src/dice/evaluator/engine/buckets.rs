//! [`Buckets`]: a layer of the walk — evaluator states grouped by the unassigned dice
//! they share — and the scratch space a step reuses.

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use super::Key;
use super::joint::Move;
use super::plan::Code;
use super::states::StateSet;
use crate::dice::count::Count;
use crate::dice::evaluator::Evaluator;

/// Evaluator states grouped by the unassigned dice they share (and, between the
/// pools of a pool-by-pool step, the order the state sees the pools in).
///
/// A walk keeps two of these and swaps them at every step; emptied maps are kept
/// for reuse, so after the first few steps a walk allocates almost nothing.
///
/// A one-pool walk holds the states whose dice are all assigned apart, in
/// `settled`, with counts of type `W`; the buckets' counts, of type `C`, then only
/// need to hold the weight of dice not yet settled, which is far smaller
/// ([`narrow_bits`](super::narrow_bits)): `{60d4+60d6+60d8}kh30` steps its buckets in
/// 256 bits and only its settled states in 512.
pub(super) struct Buckets<S, C, W = C> {
    pub(super) keys: Vec<Key>,
    pub(super) states: Vec<StateSet<S, C>>,
    /// The states with every die assigned, when they are held apart.
    pub(super) settled: StateSet<S, W>,
    /// Whether the states with every die assigned are held apart, in `settled`.
    apart: bool,
    index: KeyIndex,
    /// Empty sets with their capacity, ready for new buckets.
    spare: Vec<StateSet<S, C>>,
    /// Whether new sets index states by the evaluator's numbering.
    indexed: bool,
}

/// Finds a bucket by its key: a direct table for small keys, stamped so that
/// forgetting every bucket costs nothing, and a map for the rest.
struct KeyIndex {
    /// `(stamp, bucket)` by code, one table per order: most walks see one order,
    /// and a table holds only the codes met, so a small pool touches a page or two.
    tables: [Vec<(u32, u32)>; TABLE_ORDERS as usize],
    /// Codes below this use the tables.
    table_codes: Code,
    map: HashMap<Key, usize>,
    stamp: u32,
}

/// Keys with a code below this (or below the walk's own limit, see
/// [`Buckets::new`]) and an order below [`TABLE_ORDERS`] use the tables.
const TABLE_CODES: Code = 1 << 14;
const TABLE_ORDERS: u32 = 4;

impl KeyIndex {
    fn new(table_codes: Code) -> Self {
        // Stamps start at 1: table slots start at 0, so they read as unused.
        KeyIndex {
            tables: Default::default(),
            table_codes: table_codes.min(TABLE_CODES),
            map: HashMap::default(),
            stamp: 1,
        }
    }
}

impl KeyIndex {
    /// The table and slot of `key`, when it has one.
    #[inline]
    fn slot(&self, key: Key) -> Option<(usize, usize)> {
        (key.0 < self.table_codes && key.1 < TABLE_ORDERS)
            .then_some((key.1 as usize, key.0 as usize))
    }

    #[inline]
    fn get(&self, key: Key) -> Option<usize> {
        match self.slot(key) {
            Some((order, code)) => match self.tables[order].get(code) {
                Some(&(stamp, bucket)) if stamp == self.stamp => Some(bucket as usize),
                _ => None,
            },
            None => self.map.get(&key).copied(),
        }
    }

    fn insert(&mut self, key: Key, bucket: usize) {
        match self.slot(key) {
            Some((order, code)) => {
                let table = &mut self.tables[order];
                if code >= table.len() {
                    table.resize((code + 1).next_power_of_two(), (0, 0));
                }
                table[code] = (self.stamp, bucket as u32);
            }
            None => {
                self.map.insert(key, bucket);
            }
        }
    }

    /// Storage held, in bytes, estimated from capacities.
    fn bytes(&self) -> usize {
        let tables: usize = self.tables.iter().map(Vec::capacity).sum();
        tables * std::mem::size_of::<(u32, u32)>()
            + self.map.capacity() * (std::mem::size_of::<(Key, usize)>() + 1)
    }

    fn clear(&mut self) {
        self.map.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.tables.iter_mut().for_each(Vec::clear);
            self.stamp = 1;
        }
    }
}

impl<S: Clone + Eq + std::hash::Hash, C: Count, W: Count> Buckets<S, C, W> {
    /// Buckets whose codes below `table_codes` are found through a table: a mixed
    /// pool's codes are sparse (their space is the product of its kinds' counts, its
    /// buckets far fewer), and a table over all of them costs more to clear and
    /// fault in than the walk itself (`{10d4+10d6+10d8}kh5`: 130 page faults a call).
    /// With `apart`, the states with every die assigned go to `settled`.
    pub(super) fn new(indexed: bool, table_codes: Code, apart: bool) -> Self {
        Buckets {
            keys: Vec::new(),
            states: Vec::new(),
            settled: StateSet::new(indexed),
            apart,
            index: KeyIndex::new(table_codes),
            spare: Vec::new(),
            indexed,
        }
    }

    /// Where states with the unassigned dice `code` go: their bucket, or `None` for
    /// the settled states when those are held apart.
    #[inline]
    pub(super) fn target(&mut self, code: Code) -> Option<usize> {
        (!self.apart || code != 0).then(|| self.index((code, 0)))
    }

    /// The bucket of `key`, created empty if new.
    #[inline]
    pub(super) fn index(&mut self, key: Key) -> usize {
        if let Some(i) = self.index.get(key) {
            return i;
        }
        let i = self.keys.len();
        self.index.insert(key, i);
        self.keys.push(key);
        let set = self
            .spare
            .pop()
            .unwrap_or_else(|| StateSet::new(self.indexed));
        self.states.push(set);
        i
    }

    /// Adds `weight` to `state` in bucket `bucket`.
    #[inline]
    pub(super) fn add<E: Evaluator<State = S>>(
        &mut self,
        evaluator: &E,
        bucket: usize,
        state: S,
        weight: C,
    ) {
        self.states[bucket].add(evaluator, state, weight);
    }

    /// Sets up emptied buckets ([`forget_all`](Self::forget_all)) for another walk,
    /// as [`new`](Self::new) would, keeping their storage: spare sets that find
    /// their states otherwise than the new walk's are dropped.
    pub(super) fn reset(&mut self, indexed: bool, table_codes: Code, apart: bool) {
        self.apart = apart;
        self.index.table_codes = table_codes.min(TABLE_CODES);
        self.indexed = indexed;
        self.spare.retain(|set| set.is_indexed() == indexed);
        if self.settled.is_indexed() != indexed {
            self.settled = StateSet::new(indexed);
        }
    }

    /// Forgets every bucket and every state, keeping the storage.
    pub(super) fn forget_all(&mut self) {
        for set in &mut self.states {
            set.clear();
        }
        self.settled.clear();
        self.clear();
    }

    /// Storage held, in bytes, estimated from capacities.
    pub(super) fn bytes(&self) -> usize {
        let sets: usize = self
            .states
            .iter()
            .chain(&self.spare)
            .map(StateSet::bytes)
            .sum();
        sets + self.settled.bytes()
            + self.keys.capacity() * std::mem::size_of::<Key>()
            + (self.states.capacity() + self.spare.capacity())
                * std::mem::size_of::<StateSet<S, C>>()
            + self.index.bytes()
    }

    /// The number of states held.
    pub(super) fn len(&self) -> u64 {
        self.states.iter().map(|b| b.len() as u64).sum::<u64>() + self.settled.len() as u64
    }

    /// Forgets every bucket, keeping the storage. The sets must have been drained.
    pub(super) fn clear(&mut self) {
        debug_assert_eq!(self.settled.len(), 0);
        self.keys.clear();
        self.index.clear();
        self.spare.extend(
            self.states
                .drain(..)
                .inspect(|s| debug_assert_eq!(s.len(), 0)),
        );
    }
}

/// Work space reused by every step of a walk, so steps allocate nothing.
pub(super) struct Scratch<S, C, W = C> {
    /// The states of the bucket being stepped.
    pub(super) states: Vec<(S, C)>,
    /// The settled states being stepped.
    pub(super) settled: Vec<(S, W)>,
    /// Their numbers ([`Evaluator::state_index`]), while every one has one.
    pub(super) indices: Vec<usize>,
    /// The target bucket of each branch.
    pub(super) targets: Vec<usize>,
    /// Counted dice shown so far, per pool.
    pub(super) seen: Vec<u32>,
    /// The pool orders chosen at the current step, named by index.
    pub(super) orders: Vec<SmallVec<[usize; 4]>>,
    /// The order in which to visit the buckets of a layer.
    pub(super) visit: Vec<usize>,
    /// The joint branches from the bucket being stepped.
    pub(super) moves: Vec<Move<C, W>>,
    /// Every pool's branches from that bucket, as `(counted, assigned, weight)`.
    pub(super) branches: Vec<(u32, Code, W)>,
}

impl<S, C, W> Scratch<S, C, W> {
    /// Empties every part, keeping the storage.
    pub(super) fn clear(&mut self) {
        self.states.clear();
        self.settled.clear();
        self.indices.clear();
        self.targets.clear();
        self.seen.clear();
        self.orders.clear();
        self.visit.clear();
        self.moves.clear();
        self.branches.clear();
    }

    /// Storage held, in bytes, estimated from capacities.
    pub(super) fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.states.capacity() * size_of::<(S, C)>()
            + self.settled.capacity() * size_of::<(S, W)>()
            + (self.indices.capacity() + self.targets.capacity() + self.visit.capacity())
                * size_of::<usize>()
            + self.seen.capacity() * size_of::<u32>()
            + self.orders.capacity() * size_of::<SmallVec<[usize; 4]>>()
            + self.moves.capacity() * size_of::<Move<C, W>>()
            + self.branches.capacity() * size_of::<(u32, Code, W)>()
    }
}

impl<S, C, W> Default for Scratch<S, C, W> {
    fn default() -> Self {
        Scratch {
            states: Vec::new(),
            settled: Vec::new(),
            indices: Vec::new(),
            targets: Vec::new(),
            seen: Vec::new(),
            orders: Vec::new(),
            visit: Vec::new(),
            moves: Vec::new(),
            branches: Vec::new(),
        }
    }
}
