//! Where groups of one pool start to behave alike, so that a walk can add their
//! unassigned dice into one count from there on.
//!
//! # Design decisions
//! At step `s` a group's unassigned dice can only show the outcomes from `s` on. Two
//! groups whose dice weigh those outcomes alike are interchangeable for the rest of
//! the walk: `r₁` of one kind and `r₂` of the other show an outcome `c` times in
//! `Σ C(r₁, c₁)·C(r₂, c₂)·w^c = C(r₁ + r₂, c)·w^c` ways (Vandermonde), exactly as
//! `r₁ + r₂` dice of one kind. Dice that are truncations of one another (d4, d6 and
//! d8 walked from the top) so become one group as the walk reaches each smaller
//! die's top face, and the buckets keyed by how the dice were split merge.
//! Only groups of one pool join: an evaluator tells pools apart, never groups.

use std::ops::Range;

/// At some step, group `group`'s unassigned dice move into group `into`'s count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Join {
    pub(super) pool: usize,
    pub(super) group: usize,
    pub(super) into: usize,
}

/// For groups given as `(weight per step, dice)` and each pool's range of them: the
/// joins at each step, and for each group the most dice its count may hold.
pub(super) fn joins<W: Eq>(
    groups: &[(&[W], u32)],
    pools: impl Iterator<Item = Range<usize>>,
) -> (Vec<Vec<Join>>, Vec<u32>) {
    let steps = groups.first().map_or(0, |(w, _)| w.len());
    let mut joins: Vec<Vec<Join>> = vec![Vec::new(); steps];
    let mut holds: Vec<u32> = groups.iter().map(|&(_, n)| n).collect();
    for (pool, range) in pools.enumerate() {
        if range.len() < 2 {
            continue;
        }
        let kinds = range.len();
        let weights = |g: usize| groups[range.start + g].0;
        // `alike_from[g][h]`: the first step from which `g` and `h` weigh alike.
        let alike_from: Vec<Vec<usize>> = (0..kinds)
            .map(|g| {
                (0..kinds)
                    .map(|h| {
                        let (a, b) = (weights(g), weights(h));
                        (0..steps)
                            .rev()
                            .find(|&s| a[s] != b[s])
                            .map_or(0, |s| s + 1)
                    })
                    .collect()
            })
            .collect();
        let mut events: Vec<usize> = alike_from.iter().flatten().copied().collect();
        events.push(0);
        events.sort_unstable();
        events.dedup();
        // A group counts for itself until it joins the first group of its class.
        let mut own = vec![true; kinds];
        for &s in events.iter().filter(|&&s| s < steps) {
            let into = |g: usize| (0..kinds).find(|&h| alike_from[g][h] <= s).unwrap_or(g);
            for (g, owned) in own.iter_mut().enumerate() {
                let first = into(g);
                if *owned && first != g {
                    *owned = false;
                    joins[s].push(Join {
                        pool,
                        group: range.start + g,
                        into: range.start + first,
                    });
                }
            }
            for g in (0..kinds).filter(|&g| own[g]) {
                let class: u32 = (0..kinds)
                    .filter(|&h| into(h) == g)
                    .map(|h| groups[range.start + h].1)
                    .sum();
                let held = &mut holds[range.start + g];
                *held = (*held).max(class);
            }
        }
    }
    (joins, holds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_dice_join_at_the_smaller_top_face() {
        // d8, d4 and d6 of one pool walked from the top: 8 7 6 5 4 3 2 1.
        let d8 = [1u32, 1, 1, 1, 1, 1, 1, 1];
        let d4 = [0u32, 0, 0, 0, 1, 1, 1, 1];
        let d6 = [0u32, 0, 1, 1, 1, 1, 1, 1];
        let groups = [(&d8[..], 3), (&d4[..], 2), (&d6[..], 5)];
        let (joins, holds) = super::joins(&groups, std::iter::once(0..3));
        let at = |s: usize| joins[s].clone();
        assert_eq!(
            at(2),
            [Join {
                pool: 0,
                group: 2,
                into: 0
            }]
        );
        assert_eq!(
            at(4),
            [Join {
                pool: 0,
                group: 1,
                into: 0
            }]
        );
        assert_eq!(joins.iter().map(Vec::len).sum::<usize>(), 2);
        assert_eq!(holds, [10, 2, 5]);
    }

    #[test]
    fn groups_of_different_pools_or_unlike_tails_never_join() {
        // From the bottom, a d4 and a d6 differ at every later step; across pools
        // even identical dice stay apart.
        let d4 = [1u32, 1, 1, 1, 0, 0];
        let d6 = [1u32, 1, 1, 1, 1, 1];
        let groups = [(&d4[..], 2), (&d6[..], 2), (&d6[..], 1)];
        let (joins, holds) = super::joins(&groups, [0..2, 2..3].into_iter());
        assert!(joins.iter().all(Vec::is_empty));
        assert_eq!(holds, [2, 2, 1]);
    }
}
