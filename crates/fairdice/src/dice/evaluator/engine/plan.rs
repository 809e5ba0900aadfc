//! The walk shared by both stepping modes: groups of identical dice with their
//! weights in walk order, each pool's keep pattern, and the branches of a pool's
//! unassigned dice at one outcome.
//!
//! # Design decisions
//! The unassigned dice of every group are packed into one integer, a *code*: each
//! pool owns a field of bits holding its groups in mixed radix (`Σ r_g · stride_g`).
//! Buckets are keyed by it, a branch that assigns dice subtracts a precomputed
//! amount from it, and a pool's part is a shift and a mask, so moving between
//! buckets costs a few integer operations instead of hashing vectors.
//!
//! Groups of one pool whose dice behave alike from some outcome on (a d8 and a d6
//! walked from the top, once the walk reaches 6) *join* there: the later group's
//! unassigned dice move into the earlier one's count ([`joins`](super::joins)), so
//! buckets that differ only in how those dice were split merge, and a mixed pool of
//! truncated dice costs about what one kind does.

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use crate::control::Meter;
use crate::dice::count::Count;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::Order;
use crate::dice::pool::Pool;

use super::joins::{Join, joins};

/// Unassigned dice of every group, packed into one integer.
pub(super) type Code = u128;

/// The groups of one pool with unassigned dice: `(group, dice, stride)`.
pub(super) type Active = SmallVec<[(usize, u32, Code); 4]>;

/// Everything about the pools that does not depend on the evaluator: the outcomes in
/// walk order, the groups of identical dice and each pool's keep pattern.
pub(super) struct Walk<C> {
    /// The outcomes, in the order they are visited.
    pub(super) outcomes: Vec<Outcome>,
    groups: Vec<Group<C>>,
    /// `strides[g]`: the weight of group `g`'s unassigned dice in its pool's field.
    strides: Vec<Code>,
    /// `radices[g]`: one more than the most unassigned dice group `g` may hold
    /// (its own, and those of the groups that join it).
    radices: Vec<u64>,
    /// `joins[s]`: the groups whose dice join another group's at step `s`.
    joins: Vec<Vec<Join>>,
    /// Per pool: where its field starts in a code, and the field's mask.
    fields: Vec<(u32, Code)>,
    plans: Vec<PoolPlan>,
    /// Per pool: its branches at the current step, by the pool's part of the code.
    cache: Vec<BranchCache<C>>,
    step: usize,
}

impl<C: Count> Walk<C> {
    /// # Errors
    /// [`DieError::TooManyKinds`] when the unassigned dice of every group do not fit
    /// one code (well over a hundred different kinds of dice).
    pub(super) fn new(pools: &[&Pool], order: Order) -> Result<Self, DieError> {
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
        let too_many = DieError::TooManyKinds {
            kinds: groups.len(),
        };
        let weights: Vec<(&[C], u32)> = groups.iter().map(|g| (&g.weights[..], g.size)).collect();
        let (joins, holds) = joins(&weights, plans.iter().map(|p| p.groups.clone()));
        let radices: Vec<u64> = holds.iter().map(|&n| u64::from(n) + 1).collect();
        let mut strides = Vec::with_capacity(groups.len());
        let mut fields = Vec::with_capacity(plans.len());
        let mut offset = 0u32;
        for plan in &plans {
            let mut stride: Code = 1;
            for g in plan.groups.clone() {
                strides.push(stride);
                stride = stride
                    .checked_mul(Code::from(radices[g]))
                    .ok_or(too_many.clone())?;
            }
            // The field holds every code below `stride`.
            let bits = Code::BITS - (stride - 1).leading_zeros();
            let mask = if bits == 0 {
                0
            } else {
                Code::MAX >> (Code::BITS - bits)
            };
            fields.push((offset, mask));
            offset += bits;
            if offset > Code::BITS {
                return Err(too_many);
            }
        }
        Ok(Walk {
            outcomes,
            groups,
            strides,
            radices,
            joins,
            fields,
            cache: plans.iter().map(|_| BranchCache::default()).collect(),
            plans,
            step: 0,
        })
    }

    /// The number of pools.
    pub(super) fn pools(&self) -> usize {
        self.plans.len()
    }

    /// The code before the first outcome and the weight already settled: a pool
    /// that counts none of its dice settles at once.
    pub(super) fn start(&self) -> (Code, C) {
        let mut weight = C::one();
        let mut code: Code = 0;
        for (plan, &(offset, _)) in self.plans.iter().zip(&self.fields) {
            for g in plan.groups.clone() {
                let group = &self.groups[g];
                if plan.settles_after == 0 {
                    weight = weight.times(&group.total.pow(group.size));
                } else {
                    code += (Code::from(group.size) * self.strides[g]) << offset;
                }
            }
        }
        (self.join(0, code), weight)
    }

    /// Whether groups join at `step` (after the first): every bucket's code then
    /// changes by [`join`](Self::join).
    pub(super) fn joins_at(&self, step: usize) -> bool {
        step > 0 && self.joins.get(step).is_some_and(|j| !j.is_empty())
    }

    /// `code` with the dice of the groups that join at `step` moved into the groups
    /// they join.
    pub(super) fn join(&self, step: usize, mut code: Code) -> Code {
        // A walk over no dice has no steps.
        for join in self.joins.get(step).into_iter().flatten() {
            let offset = self.fields[join.pool].0;
            let key = self.pool_code(join.pool, code);
            let r = Code::from(self.remaining(join.group, key));
            code -= (r * self.strides[join.group]) << offset;
            code += (r * self.strides[join.into]) << offset;
        }
        code
    }

    /// Moves to the outcome at `step`, forgetting the previous step's branches.
    pub(super) fn start_step(&mut self, step: usize) {
        self.step = step;
        for group in &mut self.groups {
            group.start_step();
        }
        for cache in &mut self.cache {
            cache.forget();
        }
    }

    /// Pool `pool`'s part of `code`: enough to tell its branches apart.
    #[inline]
    fn pool_code(&self, pool: usize, code: Code) -> Code {
        let (offset, mask) = self.fields[pool];
        code.checked_shr(offset).unwrap_or(0) & mask
    }

    /// The branches of pool `pool` from the bucket `code` at the current step.
    ///
    /// # Errors
    /// [`DieError::Stopped`] when `meter` stops the making of new branches: each
    /// is a product of binomials and powers of counts, charged as a weight update.
    pub(super) fn branches(
        &mut self,
        pool: usize,
        code: Code,
        meter: &mut Meter,
    ) -> Result<&[Branch<C>], DieError> {
        let key = self.pool_code(pool, code);
        let range = match self.cache[pool].find(key) {
            Some(range) => range,
            None => {
                let plan = &self.plans[pool];
                let active: Active = plan
                    .groups
                    .clone()
                    .map(|g| (g, self.remaining(g, key), self.strides[g]))
                    .filter(|&(_, r, _)| r > 0)
                    .collect();
                meter.charge(plan.branch_work(&self.groups, self.step, &active))?;
                let (steps, bytes) = plan.power_work(&self.groups, self.step, &active);
                meter.charge_steps(steps)?;
                meter.control().reserve(bytes)?;
                let offset = self.fields[pool].0;
                let cache = &mut self.cache[pool];
                let start = cache.arena.len();
                plan.branches(
                    &mut self.groups,
                    &active,
                    offset,
                    self.step,
                    &mut cache.arena,
                );
                let range = (start as u32, cache.arena.len() as u32);
                cache.remember(key, range);
                range
            }
        };
        Ok(&self.cache[pool].arena[range.0 as usize..range.1 as usize])
    }

    /// How many counted dice each pool has shown in the bucket `code`.
    pub(super) fn seen(&self, code: Code, seen: &mut Vec<u32>) {
        seen.clear();
        for (pool, plan) in self.plans.iter().enumerate() {
            let key = self.pool_code(pool, code);
            let left: u32 = if plan.groups.len() == 1 {
                // One group: its part of the code is its count.
                key as u32
            } else {
                plan.groups.clone().map(|g| self.remaining(g, key)).sum()
            };
            seen.push(plan.kept_before[(plan.size - left) as usize]);
        }
    }

    /// The unassigned dice of group `g` in its pool's part of a code.
    fn remaining(&self, g: usize, code: Code) -> u32 {
        let radix = self.radices[g];
        // Machine-word division when it fits: 128-bit division is a library call.
        match (u64::try_from(code), u64::try_from(self.strides[g])) {
            (Ok(code), Ok(stride)) => ((code / stride) % radix) as u32,
            _ => ((code / self.strides[g]) % Code::from(radix)) as u32,
        }
    }
}

/// One pool's branches at the current step, by its part of the code: a direct table
/// for small codes (stamped with the step, so nothing needs clearing), a map beyond.
struct BranchCache<C> {
    arena: Vec<Branch<C>>,
    /// `(step stamp, start, end)` by pool code.
    table: Vec<(u32, u32, u32)>,
    map: HashMap<Code, (u32, u32)>,
    /// Marks the table slots filled at the current step.
    stamp: u32,
}

impl<C> Default for BranchCache<C> {
    fn default() -> Self {
        BranchCache {
            arena: Vec::new(),
            table: Vec::new(),
            map: HashMap::default(),
            // Stamps start at 1: table slots start at 0, so they read as unused.
            stamp: 1,
        }
    }
}

/// Pool codes below this use the direct table.
const TABLE_CODES: Code = 1 << 12;

impl<C> BranchCache<C> {
    /// Forgets every branch, keeping the storage.
    fn forget(&mut self) {
        self.arena.clear();
        self.map.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.table.clear();
            self.stamp = 1;
        }
    }

    fn find(&self, key: Code) -> Option<(u32, u32)> {
        if key < TABLE_CODES {
            let &(stamp, start, end) = self.table.get(key as usize)?;
            (stamp == self.stamp).then_some((start, end))
        } else {
            self.map.get(&key).copied()
        }
    }

    fn remember(&mut self, key: Code, range: (u32, u32)) {
        if key < TABLE_CODES {
            let key = key as usize;
            if key >= self.table.len() {
                self.table.resize(key + 1, (0, 0, 0));
            }
            self.table[key] = (self.stamp, range.0, range.1);
        } else {
            self.map.insert(key, range);
        }
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
    total: C,
    /// `w^c` for the current step's weight `w`, as far as a branch has needed.
    pub(super) shown_powers: Vec<C>,
    /// `tail^j` for the current step's tail, as far as a branch has needed.
    pub(super) tail_powers: Vec<C>,
    /// `(w + tail)^j`, the weight of `j` dice on this outcome or later ones, as far as
    /// a settled branch has needed.
    pub(super) open_powers: Vec<C>,
    /// Rows of Pascal's triangle by `r`, filled on first use.
    pub(super) binomial_rows: Vec<Vec<C>>,
}

/// A pool's keep pattern in walk order.
pub(super) struct PoolPlan {
    groups: std::ops::Range<usize>,
    pub(super) size: u32,
    /// `kept_before[i]`: how many of the first `i` ranks in walk order count.
    pub(super) kept_before: Vec<u32>,
    /// Ranks consumed after which no further die counts.
    pub(super) settles_after: u32,
}

/// One way a pool's unassigned dice can show the current outcome.
pub(super) struct Branch<C> {
    /// How much the bucket code drops: the dice this branch assigns (or settles).
    pub(super) assigned: Code,
    /// How many of the dice showing the outcome count.
    pub(super) counted: u32,
    /// `Π C(r, c)·w^c` over the groups, times any settled tail.
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
            open_powers: Vec::new(),
            binomial_rows: Vec::new(),
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
}
