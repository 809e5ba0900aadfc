//! A sum tree: weights at the leaves, every inner node the sum of its two children;
//! a flat list with a running total when there are few leaves.
//!
//! # Design decisions
//! Draws from a changing weight table (deck cards, dynamic dice) need cheap
//! updates and lookups. A Fenwick tree would do, but it adds differences to its
//! nodes, so with floating-point weights its sums depend on the order of past
//! updates. Here every inner node is recomputed as `left + right` from the leaves,
//! so the tree is a pure function of its leaves: a randomizer restored from saved
//! counts rebuilds a bit-identical tree and continues with exactly the same draws.
//! Up to [`LINEAR_MAX`] leaves a flat scan beats the tree (no dependent chain of
//! stores and loads); its total is kept exactly for integers and re-summed in leaf
//! order for floats, so it too is a pure function of the leaves.

use std::ops::{Add, Sub};

/// Up to this many leaves, a flat list with a running total.
pub(crate) const LINEAR_MAX: usize = 16;

/// A weight a sum tree can hold: `u64` card counts or `f64` probabilities.
pub(crate) trait Weight:
    Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self>
{
    /// The additive identity.
    const ZERO: Self;
    /// True when `total - old + new` is exact (integers).
    const EXACT: bool;
}

impl Weight for u64 {
    const ZERO: Self = 0;
    const EXACT: bool = true;
}

impl Weight for f64 {
    const ZERO: Self = 0.0;
    const EXACT: bool = false;
}

/// Leaf weights: either flat (`offset = 0`, total kept aside) or a complete binary
/// tree stored as an array (node 1 is the root, node `i` has children `2i` and
/// `2i + 1`, leaves start at `offset = width`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SumTree<T> {
    nodes: Vec<T>,
    /// Index of the first leaf (0 when flat); also the tree's width.
    offset: usize,
    len: usize,
    total: T,
}

impl<T: Weight> SumTree<T> {
    /// A tree over the given leaves (at least one).
    pub(crate) fn new(leaves: &[T]) -> Self {
        let len = leaves.len();
        let offset = if len <= LINEAR_MAX {
            0
        } else {
            len.next_power_of_two()
        };
        let mut tree = SumTree {
            nodes: vec![T::ZERO; offset + if offset == 0 { len } else { offset }],
            offset,
            len,
            total: T::ZERO,
        };
        tree.rebuild(leaves);
        tree
    }

    fn flat(&self) -> bool {
        self.offset == 0
    }

    /// Replaces every leaf (same number of leaves) and recomputes the sums.
    pub(crate) fn rebuild(&mut self, leaves: &[T]) {
        debug_assert_eq!(leaves.len(), self.len);
        self.update_all(|index, _| leaves[index]);
    }

    /// Replaces every leaf in place with `f(index, old)` and recomputes the sums,
    /// without allocating.
    pub(crate) fn update_all(&mut self, mut f: impl FnMut(usize, T) -> T) {
        for (index, leaf) in self.nodes[self.offset..self.offset + self.len]
            .iter_mut()
            .enumerate()
        {
            *leaf = f(index, *leaf);
        }
        self.resum();
    }

    fn resum(&mut self) {
        if self.flat() {
            self.total = self.nodes.iter().fold(T::ZERO, |a, &b| a + b);
        } else {
            for node in (1..self.offset).rev() {
                self.nodes[node] = self.nodes[2 * node] + self.nodes[2 * node + 1];
            }
            self.total = self.nodes[1];
        }
    }

    /// The weight of leaf `index`.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> T {
        self.nodes[self.offset + index]
    }

    /// The sum of all leaves.
    #[inline]
    pub(crate) fn total(&self) -> T {
        self.total
    }

    /// The leaves in order.
    pub(crate) fn leaves(&self) -> &[T] {
        &self.nodes[self.offset..self.offset + self.len]
    }

    /// Sets leaf `index` and updates the sums.
    #[inline(always)]
    pub(crate) fn set(&mut self, index: usize, value: T) {
        let mut node = self.offset + index;
        let old = self.nodes[node];
        self.nodes[node] = value;
        if self.flat() {
            if T::EXACT {
                self.total = self.total - old + value;
            } else {
                self.resum();
            }
            return;
        }
        while node > 1 {
            node /= 2;
            self.nodes[node] = self.nodes[2 * node] + self.nodes[2 * node + 1];
        }
        self.total = self.nodes[1];
    }

    /// The leaf whose cumulative range holds `target` (`0 <= target < total`): the
    /// first leaf `i` with `target < w_0 + … + w_i`. Never returns a leaf of weight
    /// zero while the total is positive, even when rounding pushes `target` to or
    /// past the total.
    #[inline(always)]
    pub(crate) fn find(&self, mut target: T) -> usize {
        // Branch-free: where the target lands is random, so a branch would be
        // mispredicted often.
        if self.flat() {
            let mut sum = T::ZERO;
            let mut index = 0;
            for &w in &self.nodes {
                sum = sum + w;
                index += usize::from(sum <= target);
            }
            if index >= self.len {
                // Rounding put the target at the total: take the last non-empty leaf.
                index = self.nodes.iter().rposition(|&w| w != T::ZERO).unwrap_or(0);
            }
            return index;
        }
        let mut node = 1;
        while node < self.offset {
            let left = self.nodes[2 * node];
            let right = self.nodes[2 * node + 1];
            let go_right = (target >= left) & (right != T::ZERO);
            target = if go_right { target - left } else { target };
            node = 2 * node + usize::from(go_right);
        }
        node - self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leaves long enough for the tree layout.
    fn long<T: Copy>(head: &[T], fill: T) -> Vec<T> {
        let mut leaves = head.to_vec();
        leaves.resize(LINEAR_MAX + 3, fill);
        leaves
    }

    #[test]
    fn finds_the_leaf_holding_each_target() {
        for leaves in [vec![2u64, 0, 3, 1, 0], long(&[2u64, 0, 3, 1], 0)] {
            let tree = SumTree::new(&leaves);
            let found: Vec<usize> = (0..6).map(|t| tree.find(t)).collect();
            assert_eq!(found, [0, 0, 2, 2, 2, 3]);
            assert_eq!(tree.total(), 6);
            assert_eq!(tree.leaves(), leaves);
        }
    }

    #[test]
    fn updates_keep_sums_and_skip_empty_leaves() {
        for leaves in [vec![1.0f64, 1.0, 1.0], long(&[1.0f64, 1.0, 1.0], 0.0)] {
            let mut tree = SumTree::new(&leaves);
            tree.set(2, 0.0);
            assert_eq!(tree.total(), 2.0);
            // A target at (or past) the total lands on the last non-empty leaf.
            assert_eq!(tree.find(2.0), 1);
            assert_eq!(tree.find(5.0), 1);
            assert_eq!(tree.get(2), 0.0);
        }
    }

    #[test]
    fn rebuilt_tree_equals_updated_tree() {
        for leaves in [
            vec![0.1f64, 0.2, 0.3, 0.4, 0.5],
            long(&[0.1f64, 0.2, 0.3, 0.4, 0.5], 0.7),
        ] {
            let mut updated = SumTree::new(&leaves);
            for (i, w) in [(3, 0.04), (0, 0.01), (4, 0.05), (3, 0.004)] {
                updated.set(i, w);
            }
            let rebuilt = SumTree::new(updated.leaves());
            assert_eq!(updated, rebuilt);
            let mut doubled = rebuilt.clone();
            doubled.update_all(|_, w| w * 2.0);
            assert_eq!(doubled.total(), 2.0 * rebuilt.total());
        }
    }

    #[test]
    fn integer_totals_stay_exact() {
        let mut tree = SumTree::new(&[5u64, 7, 9]);
        tree.set(1, 2);
        tree.set(0, 0);
        assert_eq!(tree.total(), 11);
        assert_eq!(tree.find(0), 1);
        assert_eq!(tree.find(2), 2);
    }
}
