//! The walk shared by both stepping modes: groups of identical dice with their
//! weights in walk order, each pool's keep pattern, and the branches of a pool's
//! unassigned dice at one outcome.

use num_bigint::BigUint;
use smallvec::SmallVec;

use rustc_hash::FxHashMap as HashMap;

use super::{PoolRemaining, Remaining};
use crate::dice::count::Count;
use crate::dice::die::{Die, Outcome};
use crate::dice::evaluator::Order;
use crate::dice::pool::Pool;

/// A pool's branches at one step, by its unassigned dice.
type BranchCache<C> = HashMap<PoolRemaining, Vec<Branch<C>>>;

/// Everything about the pools that does not depend on the evaluator: the outcomes in
/// walk order, the groups of identical dice and each pool's keep pattern.
pub(super) struct Walk<C> {
    /// The outcomes, in the order they are visited.
    pub(super) outcomes: Vec<Outcome>,
    groups: Vec<Group<C>>,
    plans: Vec<PoolPlan>,
    /// Per pool: its branches at the current step, by its unassigned dice.
    cache: Vec<BranchCache<C>>,
    step: usize,
}

impl<C: Count> Walk<C> {
    pub(super) fn new(pools: &[&Pool], order: Order) -> Self {
        let mut outcomes: Vec<Outcome> = pools
            .iter()
            .flat_map(|p| p.groups())
            .flat_map(|(die, _)| die.outcomes().iter().copied())
            .collect();
        outcomes.sort_unstable();
        outcomes.dedup();
        if order == Order::Descending {
            outcomes.reverse();
        }
        let mut groups: Vec<Group<C>> = Vec::new();
        let mut plans: Vec<PoolPlan> = Vec::new();
        for pool in pools {
            let start = groups.len();
            for (die, n) in pool.groups() {
                groups.push(Group::new(die, *n, &outcomes));
            }
            plans.push(PoolPlan::new(pool, order, start..groups.len()));
        }
        Walk {
            outcomes,
            groups,
            cache: plans.iter().map(|_| HashMap::default()).collect(),
            plans,
            step: 0,
        }
    }

    /// The number of pools.
    pub(super) fn pools(&self) -> usize {
        self.plans.len()
    }

    /// The unassigned dice before the first outcome and the weight already settled:
    /// a pool that counts none of its dice settles at once.
    pub(super) fn start(&self) -> (Remaining, C) {
        let mut weight = C::one();
        let mut remaining: Remaining = self.groups.iter().map(|g| g.size).collect();
        for plan in &self.plans {
            if plan.settles_after == 0 {
                for g in plan.groups.clone() {
                    let group = &self.groups[g];
                    weight = weight.times(&group.total.pow(group.size));
                    remaining[g] = 0;
                }
            }
        }
        (remaining, weight)
    }

    /// Moves to the outcome at `step`, forgetting the previous step's branches.
    pub(super) fn start_step(&mut self, step: usize) {
        self.step = step;
        for group in &mut self.groups {
            group.start_step(step);
        }
        for cache in &mut self.cache {
            cache.clear();
        }
    }

    /// The entries of `remaining` that belong to pool `pool`.
    pub(super) fn pool_groups(&self, pool: usize) -> std::ops::Range<usize> {
        self.plans[pool].groups.clone()
    }

    /// Makes sure the branches of pool `pool` from `remaining` (all pools' entries)
    /// at the current step are computed.
    pub(super) fn prepare(&mut self, pool: usize, remaining: &[u32]) {
        let plan = &self.plans[pool];
        let key: PoolRemaining = remaining[plan.groups.clone()].iter().copied().collect();
        if !self.cache[pool].contains_key(&key) {
            let branches = plan.branches(&mut self.groups, self.step, &key);
            self.cache[pool].insert(key, branches);
        }
    }

    /// The branches of pool `pool` from `remaining`, computed by
    /// [`prepare`](Self::prepare).
    pub(super) fn branches(&self, pool: usize, remaining: &[u32]) -> &[Branch<C>] {
        let key: PoolRemaining = remaining[self.plans[pool].groups.clone()]
            .iter()
            .copied()
            .collect();
        &self.cache[pool][&key]
    }
}

/// One group of identical dice, with its weights laid out in walk order.
pub(super) struct Group<C> {
    pub(super) size: u32,
    /// Weight of each outcome (zero where the die cannot show it).
    pub(super) weights: Vec<C>,
    /// `tails[t]`: total weight of the outcomes after step `t`.
    pub(super) tails: Vec<C>,
    /// The group's total weight (for a pool that counts none of its dice).
    pub(super) total: C,
    /// `w^c` for the current step's weight `w`, `c = 0..=size`.
    pub(super) shown_powers: Vec<C>,
    /// `tail^j` for the current step's tail, `j = 0..=size`.
    pub(super) tail_powers: Vec<C>,
    /// Rows of Pascal's triangle, filled on first use.
    pub(super) binomial_rows: Vec<Vec<C>>,
}

/// A pool's keep pattern in walk order.
pub(super) struct PoolPlan {
    pub(super) groups: std::ops::Range<usize>,
    pub(super) size: u32,
    /// `kept_before[i]`: how many of the first `i` ranks in walk order count.
    pub(super) kept_before: Vec<u32>,
    /// Ranks consumed after which no further die counts.
    pub(super) settles_after: u32,
}

/// One way a pool's unassigned dice can show the current outcome.
pub(super) struct Branch<C> {
    pub(super) remaining: PoolRemaining,
    pub(super) counted: u32,
    pub(super) weight: C,
}

impl<C: Count> Group<C> {
    pub(super) fn new(die: &Die, size: u32, outcomes: &[Outcome]) -> Self {
        let counts: Vec<C> = die.generic_counts();
        let weights: Vec<C> = outcomes
            .iter()
            .map(|o| match die.outcomes().binary_search(o) {
                Ok(i) => counts[i].clone(),
                Err(_) => C::zero(),
            })
            .collect();
        let mut tails = vec![C::zero(); weights.len()];
        for t in (0..weights.len().saturating_sub(1)).rev() {
            let mut tail = tails[t + 1].clone();
            tail.add_assign(&weights[t + 1]);
            tails[t] = tail;
        }
        let mut total = C::zero();
        for w in &weights {
            total.add_assign(w);
        }
        Group {
            size,
            weights,
            tails,
            total,
            shown_powers: Vec::new(),
            tail_powers: Vec::new(),
            binomial_rows: vec![Vec::new(); size as usize + 1],
        }
    }
}

impl PoolPlan {
    pub(super) fn new(pool: &Pool, order: Order, groups: std::ops::Range<usize>) -> Self {
        let mut pattern = pool.keep_pattern();
        if order == Order::Ascending {
            pattern.reverse();
        }
        let mut kept_before = Vec::with_capacity(pattern.len() + 1);
        kept_before.push(0);
        for &k in &pattern {
            kept_before.push(kept_before.last().copied().unwrap_or(0) + u32::from(k));
        }
        let settles_after = pattern.iter().rposition(|&k| k).map_or(0, |i| i + 1) as u32;
        PoolPlan {
            groups,
            size: pool.size(),
            kept_before,
            settles_after,
        }
    }

    /// Every way this pool's unassigned dice (`remaining`, one entry per group) can
    /// show the outcome at `step`, merged by result.
    pub(super) fn branches<C: Count>(
        &self,
        groups: &mut [Group<C>],
        step: usize,
        remaining: &[u32],
    ) -> Vec<Branch<C>> {
        let consumed = self.size - remaining.iter().sum::<u32>();
        // Per group: (c, C(r, c)·w^c) for each feasible c.
        let per_group: Vec<Vec<(u32, C)>> = groups[self.groups.clone()]
            .iter_mut()
            .zip(remaining)
            .map(|(g, &r)| g.choices(step, r))
            .collect();
        let group_slice = &groups[self.groups.clone()];
        let mut merged: Vec<Branch<C>> = Vec::new();
        let mut choice = vec![0usize; per_group.len()];
        if per_group.iter().any(Vec::is_empty) {
            return merged;
        }
        loop {
            let mut weight = C::one();
            let mut shown = 0u32;
            let mut left: PoolRemaining = SmallVec::new();
            for (i, options) in per_group.iter().enumerate() {
                let (c, w) = &options[choice[i]];
                weight = weight.times(w);
                shown += c;
                left.push(remaining[i] - c);
            }
            let after = consumed + shown;
            let counted = self.kept_before[after as usize] - self.kept_before[consumed as usize];
            let mut feasible = true;
            if after >= self.settles_after {
                // No later rank counts: settle the rest on the outcomes still to come.
                for (g, r) in group_slice.iter().zip(left.iter_mut()) {
                    if *r > 0 {
                        weight = weight.times(&g.tail_powers[*r as usize]);
                        *r = 0;
                    }
                }
            } else {
                for (g, &r) in group_slice.iter().zip(left.iter()) {
                    if r > 0 && g.tails[step].is_zero() {
                        feasible = false;
                    }
                }
            }
            if feasible && !weight.is_zero() {
                match merged
                    .iter_mut()
                    .find(|b| b.counted == counted && b.remaining == left)
                {
                    Some(b) => b.weight.add_assign(&weight),
                    None => merged.push(Branch {
                        remaining: left,
                        counted,
                        weight,
                    }),
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    return merged;
                }
                choice[i] += 1;
                if choice[i] < per_group[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

impl<C: Count> Group<C> {
    /// Prepares the powers of this step's weights, once per step.
    pub(super) fn start_step(&mut self, step: usize) {
        let powers = |base: &C| {
            let mut v = Vec::with_capacity(self.size as usize + 1);
            let mut p = C::one();
            for _ in 0..=self.size {
                v.push(p.clone());
                p = p.times(base);
            }
            v
        };
        self.shown_powers = powers(&self.weights[step]);
        self.tail_powers = powers(&self.tails[step]);
    }

    /// `C(r, c)` for `c = 0..=r`, computed once per `r`.
    fn binomials(&mut self, r: u32) -> &[C] {
        let row = &mut self.binomial_rows[r as usize];
        if row.is_empty() {
            let mut b = BigUint::from(1u32);
            for c in 0..=r {
                row.push(C::from_big(&b));
                b = b * (r - c) / (c + 1);
            }
        }
        row
    }

    /// `(c, C(r, c)·w^c)` for every count `c` of this group's `r` unassigned dice that
    /// can show the outcome at `step`.
    fn choices(&mut self, step: usize, r: u32) -> Vec<(u32, C)> {
        if r == 0 || self.weights[step].is_zero() {
            return vec![(0, C::one())];
        }
        let binomials = self.binomials(r).to_vec();
        (0..=r)
            .map(|c| {
                (
                    c,
                    binomials[c as usize].times(&self.shown_powers[c as usize]),
                )
            })
            .collect()
    }
}
