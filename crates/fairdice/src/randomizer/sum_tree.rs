//! A sum tree: weights at the leaves, every inner node the sum of its two children.
//!
//! # Design decisions
//! Draws from a changing weight table (deck cards, dynamic dice) need `O(log n)`
//! updates and lookups. A Fenwick tree would do, but it adds differences to its
//! nodes, so with floating-point weights its sums depend on the order of past
//! updates. Here every inner node is recomputed as `left + right` from the leaves,
//! so the tree is a pure function of its leaves: a randomizer restored from saved
//! counts rebuilds a bit-identical tree and continues with exactly the same draws.

use std::ops::{Add, Sub};

/// A weight a sum tree can hold: `u64` card counts or `f64` probabilities.
pub(crate) trait Weight:
    Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self>
{
    /// The additive identity.
    const ZERO: Self;
}

impl Weight for u64 {
    const ZERO: Self = 0;
}

impl Weight for f64 {
    const ZERO: Self = 0.0;
}

/// Leaf weights in a complete binary tree stored as an array (node 1 is the root,
/// node `i` has children `2i` and `2i + 1`, leaves start at `width`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SumTree<T> {
    nodes: Vec<T>,
    width: usize,
    len: usize,
}

impl<T: Weight> SumTree<T> {
    /// A tree over the given leaves (at least one).
    pub(crate) fn new(leaves: &[T]) -> Self {
        let width = leaves.len().max(1).next_power_of_two();
        let mut tree = SumTree {
            nodes: vec![T::ZERO; 2 * width],
            width,
            len: leaves.len(),
        };
        tree.rebuild(leaves);
        tree
    }

    /// Replaces every leaf (same number of leaves) and recomputes the inner nodes.
    pub(crate) fn rebuild(&mut self, leaves: &[T]) {
        debug_assert_eq!(leaves.len(), self.len);
        self.update_all(|index, _| leaves[index]);
    }

    /// The weight of leaf `index`.
    #[inline]
    pub(crate) fn get(&self, index: usize) -> T {
        self.nodes[self.width + index]
    }

    /// The sum of all leaves.
    #[inline]
    pub(crate) fn total(&self) -> T {
        self.nodes[1]
    }

    /// The leaves in order.
    pub(crate) fn leaves(&self) -> &[T] {
        &self.nodes[self.width..self.width + self.len]
    }

    /// Sets leaf `index` and recomputes its ancestors.
    #[inline]
    pub(crate) fn set(&mut self, index: usize, value: T) {
        let mut node = self.width + index;
        self.nodes[node] = value;
        while node > 1 {
            node /= 2;
            self.nodes[node] = self.nodes[2 * node] + self.nodes[2 * node + 1];
        }
    }

    /// The leaf whose cumulative range holds `target` (`0 <= target < total`): the
    /// first leaf `i` with `target < w_0 + … + w_i`. Never returns a leaf of weight
    /// zero while the total is positive, even when rounding pushes `target` to or
    /// past the total.
    #[inline]
    pub(crate) fn find(&self, mut target: T) -> usize {
        // Branch-free descent: the direction at each level is random, so a branch
        // would be mispredicted half the time.
        let mut node = 1;
        while node < self.width {
            let left = self.nodes[2 * node];
            let right = self.nodes[2 * node + 1];
            let go_right = (target >= left) & (right != T::ZERO);
            target = if go_right { target - left } else { target };
            node = 2 * node + usize::from(go_right);
        }
        node - self.width
    }

    /// Replaces every leaf in place with `f(index, old)` and recomputes the inner
    /// nodes, without allocating.
    pub(crate) fn update_all(&mut self, mut f: impl FnMut(usize, T) -> T) {
        for (index, leaf) in self.nodes[self.width..self.width + self.len]
            .iter_mut()
            .enumerate()
        {
            *leaf = f(index, *leaf);
        }
        for node in (1..self.width).rev() {
            self.nodes[node] = self.nodes[2 * node] + self.nodes[2 * node + 1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_leaf_holding_each_target() {
        let tree = SumTree::new(&[2u64, 0, 3, 1, 0]);
        let found: Vec<usize> = (0..6).map(|t| tree.find(t)).collect();
        assert_eq!(found, [0, 0, 2, 2, 2, 3]);
        assert_eq!(tree.total(), 6);
        assert_eq!(tree.leaves().len(), 5);
    }

    #[test]
    fn updates_keep_sums_and_skip_empty_leaves() {
        let mut tree = SumTree::new(&[1.0f64, 1.0, 1.0]);
        tree.set(2, 0.0);
        assert_eq!(tree.total(), 2.0);
        // A target at (or past) the total lands on the last non-empty leaf.
        assert_eq!(tree.find(2.0), 1);
        assert_eq!(tree.find(5.0), 1);
        assert_eq!(tree.leaves(), [1.0, 1.0, 0.0]);
    }

    #[test]
    fn rebuilt_tree_equals_updated_tree() {
        let mut updated = SumTree::new(&[0.1f64, 0.2, 0.3, 0.4, 0.5]);
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
