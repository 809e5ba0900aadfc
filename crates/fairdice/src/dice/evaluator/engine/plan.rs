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

use num_bigint::BigUint;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use crate::control::Meter;
use crate::dice::count::Count;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::Order;
use crate::dice::pool::Pool;

/// Unassigned dice of every group, packed into one integer.
pub(super) type Code = u128;

/// Unassigned dice per group of one pool.
type PoolRemaining = SmallVec<[u32; 2]>;

/// Everything about the pools that does not depend on the evaluator: the outcomes in
/// walk order, the groups of identical dice and each pool's keep pattern.
pub(super) struct Walk<C> {
    /// The outcomes, in the order they are visited.
    pub(super) outcomes: Vec<Outcome>,
    groups: Vec<Group<C>>,
    /// `strides[g]`: the weight of group `g`'s unassigned dice in its pool's field.
    strides: Vec<Code>,
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
        let mut strides = Vec::with_capacity(groups.len());
        let mut fields = Vec::with_capacity(plans.len());
        let mut offset = 0u32;
        for plan in &plans {
            let mut stride: Code = 1;
            for group in &groups[plan.groups.clone()] {
                strides.push(stride);
                stride = stride
                    .checked_mul(Code::from(group.size) + 1)
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
        (code, weight)
    }

    /// Moves to the outcome at `step`, forgetting the previous step's branches.
    pub(super) fn start_step(&mut self, step: usize) {
        self.step = step;
        for group in &mut self.groups {
            group.start_step(step);
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
                let remaining: PoolRemaining = plan
                    .groups
                    .clone()
                    .map(|g| self.remaining(g, key))
                    .collect();
                let made = remaining
                    .iter()
                    .fold(1u64, |n, &r| n.saturating_mul(u64::from(r) + 1));
                meter.charge(made)?;
                let strides = &self.strides[plan.groups.clone()];
                let offset = self.fields[pool].0;
                let cache = &mut self.cache[pool];
                let start = cache.arena.len();
                plan.branches(
                    &mut self.groups,
                    strides,
                    offset,
                    self.step,
                    &remaining,
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
        let radix = u64::from(self.groups[g].size) + 1;
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
struct Group<C> {
    size: u32,
    /// Weight of each outcome (zero where the die cannot show it).
    weights: Vec<C>,
    /// `tails[t]`: total weight of the outcomes after step `t`.
    tails: Vec<C>,
    /// The group's total weight (for a pool that counts none of its dice).
    total: C,
    /// `w^c` for the current step's weight `w`, as far as a branch has needed.
    shown_powers: Vec<C>,
    /// `tail^j` for the current step's tail, as far as a branch has needed.
    tail_powers: Vec<C>,
    /// Rows of Pascal's triangle by `r`, filled on first use.
    binomial_rows: Vec<Vec<C>>,
}

/// A pool's keep pattern in walk order.
struct PoolPlan {
    groups: std::ops::Range<usize>,
    size: u32,
    /// `kept_before[i]`: how many of the first `i` ranks in walk order count.
    kept_before: Vec<u32>,
    /// Ranks consumed after which no further die counts.
    settles_after: u32,
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
    fn new(die: &Die, size: u32, outcomes: &[Outcome]) -> Self {
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
            binomial_rows: Vec::new(),
        }
    }
}

impl PoolPlan {
    fn new(pool: &Pool, order: Order, groups: std::ops::Range<usize>) -> Self {
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
    fn branches<C: Count>(
        &self,
        groups: &mut [Group<C>],
        strides: &[Code],
        offset: u32,
        step: usize,
        remaining: &[u32],
        out: &mut Vec<Branch<C>>,
    ) {
        let consumed = self.size - remaining.iter().sum::<u32>();
        if let [r] = *remaining {
            self.single_group_branches(&mut groups[self.groups.start], offset, step, r, out);
            return;
        }
        let first = out.len();
        // Per group: (c, C(r, c)·w^c) for each feasible c.
        let per_group: Vec<Vec<(u32, C)>> = groups[self.groups.clone()]
            .iter_mut()
            .zip(remaining)
            .map(|(g, &r)| {
                g.extend_powers(step, r);
                g.choices(step, r)
            })
            .collect();
        let group_slice = &groups[self.groups.clone()];
        let mut choice = vec![0usize; per_group.len()];
        if per_group.iter().any(Vec::is_empty) {
            return;
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
                let assigned: Code = remaining
                    .iter()
                    .zip(&left)
                    .zip(strides)
                    .map(|((r, l), s)| Code::from(r - l) * s)
                    .sum::<Code>()
                    << offset;
                match out[first..]
                    .iter_mut()
                    .find(|b| b.counted == counted && b.assigned == assigned)
                {
                    Some(b) => b.weight.add_assign(&weight),
                    None => out.push(Branch {
                        assigned,
                        counted,
                        weight,
                    }),
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    return;
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

impl PoolPlan {
    /// [`branches`](Self::branches) for a pool of one kind of die, the common case,
    /// without intermediate vectors.
    fn single_group_branches<C: Count>(
        &self,
        group: &mut Group<C>,
        offset: u32,
        step: usize,
        r: u32,
        out: &mut Vec<Branch<C>>,
    ) {
        let consumed = self.size - r;
        let can_show = r > 0 && !group.weights[step].is_zero();
        let last = if can_show { r } else { 0 };
        let more_to_come = !group.tails[step].is_zero();
        group.extend_powers(step, r);
        if can_show {
            group.binomials(r);
        }
        // Every way that reaches a rank after which nothing counts settles all the
        // dice and counts the same ranks: one branch, whose weight is their sum.
        let mut settled: Option<Branch<C>> = None;
        for c in 0..=last {
            let mut weight = if can_show {
                group.binomial_rows[r as usize][c as usize].times(&group.shown_powers[c as usize])
            } else {
                C::one()
            };
            let after = consumed + c;
            let counted = self.kept_before[after as usize] - self.kept_before[consumed as usize];
            let left = r - c;
            if after >= self.settles_after {
                // No later rank counts: settle the rest on the outcomes still to come.
                if left > 0 {
                    weight = weight.times(&group.tail_powers[left as usize]);
                }
                if weight.is_zero() {
                    continue;
                }
                match &mut settled {
                    Some(branch) => branch.weight.add_assign(&weight),
                    None => {
                        settled = Some(Branch {
                            assigned: Code::from(r) << offset,
                            counted,
                            weight,
                        });
                    }
                }
                continue;
            }
            if left > 0 && !more_to_come {
                continue;
            }
            if !weight.is_zero() {
                out.push(Branch {
                    assigned: Code::from(c) << offset,
                    counted,
                    weight,
                });
            }
        }
        out.extend(settled);
    }
}

impl<C: Count> Group<C> {
    /// Forgets the previous step's powers.
    ///
    /// Powers are built on demand, up to the most dice a branch assigns: a pool that
    /// settles early, or keeps none of its dice, never needs `w^size`, and building
    /// every power up to the pool's size costs memory quadratic in it (a million
    /// dice of big counts would take gigabytes).
    fn start_step(&mut self, _step: usize) {
        self.shown_powers.clear();
        self.tail_powers.clear();
    }

    /// Makes `w^c` and `tail^c` available for `c = 0..=r` at `step`.
    fn extend_powers(&mut self, step: usize, r: u32) {
        let extend = |v: &mut Vec<C>, base: &C| {
            if v.is_empty() {
                v.push(C::one());
            }
            while v.len() <= r as usize {
                let next = v[v.len() - 1].times(base);
                v.push(next);
            }
        };
        extend(&mut self.shown_powers, &self.weights[step]);
        extend(&mut self.tail_powers, &self.tails[step]);
    }

    /// `C(r, c)` for `c = 0..=r`, computed once per `r`.
    fn binomials(&mut self, r: u32) -> &[C] {
        if self.binomial_rows.len() <= r as usize {
            self.binomial_rows.resize(r as usize + 1, Vec::new());
        }
        let row = &mut self.binomial_rows[r as usize];
        if row.is_empty() {
            if r <= 62 {
                // C(r, c) < 2^62 and C(r, c)·(r − c) < 2^128: exact in machine words.
                let mut b: u128 = 1;
                for c in 0..=r {
                    row.push(C::from_u64(b as u64));
                    b = b * u128::from(r - c) / u128::from(c + 1);
                }
            } else {
                let mut b = BigUint::from(1u32);
                for c in 0..=r {
                    row.push(C::from_big(&b));
                    b = b * (r - c) / (c + 1);
                }
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
