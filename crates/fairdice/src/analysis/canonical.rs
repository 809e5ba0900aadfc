//! Canonical state keys for the exact sweeps: equal states under a relabeling of
//! exchangeable outcomes get one key, and the relabeling is kept so per-outcome
//! quantities can follow their outcomes.

use smallvec::SmallVec;

/// A state key as the sweeps store it (no allocation up to eight entries).
pub(crate) type Key = SmallVec<[i64; 8]>;

/// Turns raw state keys into canonical ones.
///
/// With merging on (an exchangeable randomizer), the per-outcome entries are sorted
/// and `order[pos]` records which outcome went to position `pos`. Entries that tie
/// stay in index order, so the result is deterministic. A *tracked* outcome (the
/// drought sweep follows one outcome) sorts after untracked outcomes with the same
/// entry, and its new position is appended to the key so that it is never merged
/// with an untracked one.
pub(crate) struct Canonical {
    merge: bool,
    /// `order[pos]`: the raw outcome index at canonical position `pos`.
    pub(crate) order: Vec<usize>,
}

impl Canonical {
    /// A canonicalizer for `outcomes` outcomes; `merge` sorts per-outcome entries.
    pub(crate) fn new(outcomes: usize, merge: bool) -> Canonical {
        Canonical {
            merge,
            order: (0..outcomes).collect(),
        }
    }

    /// True when per-outcome entries are sorted (and `order` may not be the
    /// identity).
    pub(crate) fn merges(&self) -> bool {
        self.merge
    }

    /// Writes the canonical form of `raw` into `key` (cleared first), followed by
    /// the tracked outcome's canonical position (if any) and then `extra`; fills
    /// `self.order`. Returns the tracked outcome's canonical position.
    pub(crate) fn apply(
        &mut self,
        raw: &[i64],
        tracked: Option<usize>,
        extra: &[i64],
        key: &mut Key,
    ) -> Option<usize> {
        key.clear();
        let n = self.order.len();
        for (pos, slot) in self.order.iter_mut().enumerate() {
            *slot = pos;
        }
        if !self.merge {
            key.extend_from_slice(raw);
            if let Some(t) = tracked {
                key.push(t as i64);
            }
            key.extend_from_slice(extra);
            return tracked;
        }
        debug_assert_eq!(
            raw.len(),
            n,
            "an exchangeable key has one entry per outcome"
        );
        let rank = |i: usize| (raw[i], tracked == Some(i));
        // Insertion sort: n is small in every sweep worth running exactly, and it is
        // stable, so ties keep index order.
        for i in 1..n {
            let mut j = i;
            while j > 0 && rank(self.order[j - 1]) > rank(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
        key.extend(self.order.iter().map(|&i| raw[i]));
        let position = tracked.and_then(|t| self.order.iter().position(|&i| i == t));
        if let Some(p) = position {
            key.push(p as i64);
        }
        key.extend_from_slice(extra);
        position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_records_the_relabeling() {
        let mut c = Canonical::new(4, true);
        let mut key = Key::new();
        c.apply(&[3, 1, 2, 1], None, &[9], &mut key);
        assert_eq!(key.as_slice(), [1, 1, 2, 3, 9]);
        assert_eq!(c.order, [1, 3, 2, 0]);
    }

    #[test]
    fn a_tracked_outcome_sorts_after_its_ties() {
        let mut c = Canonical::new(3, true);
        let mut key = Key::new();
        let at = c.apply(&[0, 0, 0], Some(0), &[], &mut key);
        assert_eq!(at, Some(2));
        assert_eq!(key.as_slice(), [0, 0, 0, 2]);
        let mut other = Key::new();
        c.apply(&[0, 0, 0], Some(1), &[], &mut other);
        assert_eq!(key, other, "which equal outcome is tracked does not matter");
    }

    #[test]
    fn without_merging_the_key_is_kept() {
        let mut c = Canonical::new(3, false);
        let mut key = Key::new();
        c.apply(&[2, 0, 1], Some(1), &[5], &mut key);
        assert_eq!(key.as_slice(), [2, 0, 1, 1, 5]);
        assert_eq!(c.order, [0, 1, 2]);
    }
}
