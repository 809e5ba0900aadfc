//! The state graph of an exact sweep: every reachable state met so far, each
//! expanded once into its entropy and its transitions.

use std::hash::{BuildHasher, BuildHasherDefault};

use hashbrown::HashTable;
use rustc_hash::FxHasher;

use super::canonical::{Canonical, Key};
use super::metrics::entropy_fraction;
use super::sweep_options::ExactError;
use crate::randomizer::StateSpace;

/// One transition of the state graph.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    /// The outcome drawn (an index of the source state's canonical labeling).
    pub(crate) outcome: u32,
    /// The state reached.
    pub(crate) target: u32,
    /// Its probability.
    pub(crate) probability: f64,
}

/// The reachable states met so far, each expanded once into its transitions.
///
/// Many states recur at later steps (a deck returns to full, dynamic dice to all
/// leads equal), so a state's next-sample distribution and successors are computed
/// once and reused at every step that reaches it; each step then only moves
/// probability along stored edges.
pub(crate) struct Graph<R> {
    scratch: R,
    /// The randomizer's outcomes: the most transitions a node may have.
    scratch_outcomes: usize,
    canonical: Canonical,
    spec: String,
    pub(crate) key: Key,
    /// Node numbers, found by their keys' hashes.
    index: HashTable<u32>,
    /// Every node's key, end to end: node `v`'s is `arena[ends[v − 1]..ends[v]]`.
    arena: Vec<i64>,
    ends: Vec<usize>,
    /// A node's key while it is expanded.
    state: Key,
    pub(crate) entropy: Vec<f64>,
    /// `edges[start[v]..start[v] + count[v]]`; `start[v] = u32::MAX` until expanded.
    pub(crate) start: Vec<u32>,
    pub(crate) count: Vec<u32>,
    pub(crate) edges: Vec<Edge>,
    /// With merging, `n` entries per edge: the target's canonical position `pos`
    /// holds the source's outcome `orders[e·n + pos]`.
    pub(crate) orders: Vec<u32>,
}

/// Hashes a key the same way whether it is the graph's scratch key or a slice of
/// the arena.
fn hash(key: &[i64]) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(key)
}

/// Node `v`'s key in `arena`.
fn key_of<'a>(arena: &'a [i64], ends: &[usize], v: u32) -> &'a [i64] {
    let v = v as usize;
    let start = if v == 0 { 0 } else { ends[v - 1] };
    &arena[start..ends[v]]
}

impl<R: StateSpace> Graph<R> {
    pub(crate) fn new(scratch: R, canonical: Canonical) -> Graph<R> {
        Graph {
            spec: scratch.spec(),
            scratch_outcomes: scratch.outcomes().len(),
            scratch,
            canonical,
            key: Key::new(),
            index: HashTable::new(),
            arena: Vec::new(),
            ends: Vec::new(),
            state: Key::new(),
            entropy: Vec::new(),
            start: Vec::new(),
            count: Vec::new(),
            edges: Vec::new(),
            orders: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The node of `self.key`, added unexpanded if new.
    pub(crate) fn intern(&mut self) -> u32 {
        let Graph {
            key,
            index,
            arena,
            ends,
            ..
        } = self;
        let h = hash(key);
        if let Some(&v) = index.find(h, |&v| key_of(arena, ends, v) == &key[..]) {
            return v;
        }
        let v = ends.len() as u32;
        arena.extend_from_slice(key);
        ends.push(arena.len());
        index.insert_unique(h, v, |&v| hash(key_of(arena, ends, v)));
        self.entropy.push(0.0);
        self.start.push(u32::MAX);
        self.count.push(0);
        v
    }

    fn inconsistent(&self, e: &dyn std::fmt::Display) -> ExactError {
        ExactError::Inconsistent {
            spec: self.spec.clone(),
            message: e.to_string(),
        }
    }

    /// Computes node `v`'s entropy and transitions, if not done yet, at `step`
    /// of a sweep whose memory may not pass `limit` bytes.
    ///
    /// # Errors
    /// [`ExactError::OutOfMemory`] before an expansion whose new states could
    /// grow the graph past `limit`: its tables grow by doubling, and with
    /// randomizers of many outcomes (a deck of a thousand values) one doubling is
    /// gigabytes, so the check comes before the allocation, not after it.
    pub(crate) fn expand(&mut self, v: u32, step: usize, limit: usize) -> Result<(), ExactError> {
        let v = v as usize;
        if self.start[v] != u32::MAX {
            return Ok(());
        }
        let bytes = self.bytes_after_expanding(self.ends.len());
        if bytes > limit {
            return Err(ExactError::OutOfMemory { step, bytes, limit });
        }
        let mut state = std::mem::take(&mut self.state);
        state.clear();
        state.extend_from_slice(key_of(&self.arena, &self.ends, v as u32));
        let expanded = self.expand_state(v, &state);
        self.state = state;
        expanded
    }

    /// [`expand`](Self::expand) of node `v`, whose key is `state`.
    fn expand_state(&mut self, v: usize, state: &[i64]) -> Result<(), ExactError> {
        self.scratch
            .restore(state)
            .map_err(|e| self.inconsistent(&e))?;
        let distribution = self.scratch.next_distribution();
        self.entropy[v] = entropy_fraction(&distribution);
        let first = self.edges.len();
        let n = distribution.len();
        let merges = self.canonical.merges();
        let mut fresh = true;
        for (i, &p) in distribution.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            // Outcomes with equal entries in a merged (sorted) key are alike: drawing
            // `i` is drawing `i − 1` with the two relabeled, so it reaches the same
            // state, with the relabeling swapped. No need to replay it.
            let previous = self.edges.len();
            if merges
                && i > 0
                && previous > first
                && self.edges[previous - 1].outcome as usize == i - 1
                && state[i] == state[i - 1]
                && distribution[i - 1] == p
            {
                let target = self.edges[previous - 1].target;
                self.edges.push(Edge {
                    outcome: i as u32,
                    target,
                    probability: p,
                });
                let (a, b) = ((i - 1) as u32, i as u32);
                for pos in 0..n {
                    let o = self.orders[(previous - 1) * n + pos];
                    self.orders.push(if o == a {
                        b
                    } else if o == b {
                        a
                    } else {
                        o
                    });
                }
                continue;
            }
            if !fresh {
                self.scratch
                    .restore(state)
                    .map_err(|e| self.inconsistent(&e))?;
            }
            fresh = false;
            self.scratch.observe(i).map_err(|e| self.inconsistent(&e))?;
            let raw = self.scratch.state_key();
            self.canonical.apply(&raw, None, &[], &mut self.key);
            let target = self.intern();
            self.edges.push(Edge {
                outcome: i as u32,
                target,
                probability: p,
            });
            if merges {
                self.orders
                    .extend(self.canonical.order.iter().map(|&o| o as u32));
            }
        }
        self.start[v] = first as u32;
        self.count[v] = (self.edges.len() - first) as u32;
        Ok(())
    }

    /// Forgets every node but `keep` (renumbered `0..keep.len()` in that order).
    pub(crate) fn compact(&mut self, keep: &[u32]) {
        let arena = std::mem::take(&mut self.arena);
        let ends = std::mem::take(&mut self.ends);
        self.index.clear();
        self.entropy.clear();
        self.start.clear();
        self.count.clear();
        self.edges.clear();
        self.orders.clear();
        for &v in keep {
            self.key.clear();
            self.key.extend_from_slice(key_of(&arena, &ends, v));
            self.intern();
        }
    }
}

impl<R: StateSpace> Graph<R> {
    /// About how many bytes the graph holds.
    /// What the graph could hold after one more expansion, if every outcome
    /// reached a new state: each table that would grow past its capacity takes a
    /// new buffer of twice its size (the old one is counted in [`bytes`](Self::bytes)).
    fn bytes_after_expanding(&self, nodes: usize) -> usize {
        let n = self.scratch_outcomes;
        let key_len = self.arena.len().checked_div(nodes).unwrap_or(0);
        let grown = |capacity: usize, len: usize, added: usize, size: usize| {
            if len.saturating_add(added) <= capacity {
                0
            } else {
                capacity
                    .saturating_mul(2)
                    .max(len.saturating_add(added))
                    .saturating_mul(size)
            }
        };
        let orders = if self.canonical.merges() { n * n } else { 0 };
        self.bytes()
            .saturating_add(grown(
                self.arena.capacity(),
                self.arena.len(),
                n * key_len,
                8,
            ))
            .saturating_add(grown(self.ends.capacity(), self.ends.len(), n, 8 + 16))
            .saturating_add(grown(
                self.edges.capacity(),
                self.edges.len(),
                n,
                std::mem::size_of::<Edge>(),
            ))
            .saturating_add(grown(self.orders.capacity(), self.orders.len(), orders, 4))
            .saturating_add(grown(self.index.capacity(), self.index.len(), n, 5))
    }

    pub(crate) fn bytes(&self) -> usize {
        self.arena.capacity() * 8
            + self.ends.capacity() * 8
            + self.index.capacity() * 5
            + self.len() * 16
            + self.edges.len() * std::mem::size_of::<Edge>()
            + self.orders.len() * 4
    }
}

/// Bytes a key takes: its inline size, plus its heap buffer once it spills.
pub(crate) fn key_bytes(key: &Key) -> usize {
    std::mem::size_of::<Key>() + if key.spilled() { key.len() * 8 } else { 0 }
}

/// The most nodes the state graph keeps before it forgets all but the current
/// step's (states that never recur would otherwise pile up).
pub(crate) fn graph_limit(budget: usize) -> usize {
    budget.saturating_mul(2).max(1 << 16)
}
