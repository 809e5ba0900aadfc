//! The state graph of an exact sweep: every reachable state met so far, each
//! expanded once into its entropy and its transitions.

use rustc_hash::FxHashMap;

use super::canonical::{Canonical, Key};
use super::exact::ExactError;
use super::metrics::entropy_fraction;
use crate::randomizer::{AnyRandomizer, Randomizer};

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
pub(crate) struct Graph {
    scratch: AnyRandomizer,
    canonical: Canonical,
    spec: String,
    pub(crate) key: Key,
    index: FxHashMap<Key, u32>,
    keys: Vec<Key>,
    pub(crate) entropy: Vec<f64>,
    /// `edges[start[v]..start[v] + count[v]]`; `start[v] = u32::MAX` until expanded.
    pub(crate) start: Vec<u32>,
    pub(crate) count: Vec<u32>,
    pub(crate) edges: Vec<Edge>,
    /// With merging, `n` entries per edge: the target's canonical position `pos`
    /// holds the source's outcome `orders[e·n + pos]`.
    pub(crate) orders: Vec<u32>,
    /// Heap bytes of the keys held (each is held twice: in `index` and `keys`).
    key_bytes: usize,
}

impl Graph {
    pub(crate) fn new(scratch: AnyRandomizer, canonical: Canonical) -> Graph {
        Graph {
            spec: scratch.spec(),
            scratch,
            canonical,
            key: Key::new(),
            index: FxHashMap::default(),
            keys: Vec::new(),
            entropy: Vec::new(),
            start: Vec::new(),
            count: Vec::new(),
            edges: Vec::new(),
            orders: Vec::new(),
            key_bytes: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The node of `self.key`, added unexpanded if new.
    pub(crate) fn intern(&mut self) -> u32 {
        if let Some(&v) = self.index.get(&self.key) {
            return v;
        }
        let v = self.keys.len() as u32;
        self.key_bytes += 2 * key_bytes(&self.key);
        self.index.insert(self.key.clone(), v);
        self.keys.push(self.key.clone());
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

    /// Computes node `v`'s entropy and transitions, if not done yet.
    pub(crate) fn expand(&mut self, v: u32) -> Result<(), ExactError> {
        let v = v as usize;
        if self.start[v] != u32::MAX {
            return Ok(());
        }
        let state = self.keys[v].clone();
        self.scratch
            .restore(&state)
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
                    .restore(&state)
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
        let keys: Vec<Key> = keep
            .iter()
            .map(|&v| self.keys[v as usize].clone())
            .collect();
        self.index.clear();
        self.keys.clear();
        self.entropy.clear();
        self.start.clear();
        self.count.clear();
        self.edges.clear();
        self.orders.clear();
        self.key_bytes = 0;
        for key in keys {
            self.key = key;
            self.intern();
        }
    }
}

impl Graph {
    /// About how many bytes the graph holds.
    pub(crate) fn bytes(&self) -> usize {
        self.key_bytes
            + self.keys.len() * 40
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
