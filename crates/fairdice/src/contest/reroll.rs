//! Rerolled ties in a sorted contest: the tied dice of each side are rolled again as
//! a smaller sorted contest, and again while any pair ties.
//!
//! # Design decisions
//! Let `R(t)` be the resolved outcome of `t` tied pairs. Rolling them again gives
//! some decided pairs and `t'` new ties, which continue as `R(t')`. When all `t`
//! pairs tie again (`t' = t`) the situation is exactly the one we started from, so
//! that outcome is conditioned away instead of recursed into; every remaining branch
//! has `t' < t` and the recursion is exact after at most `t` levels. (A depth cap
//! equal to the pool size, as in the paper's notebook, gives the same answer.)
//! Only tied pairs among the `min(a, b)` paired dice are rerolled; unpaired dice
//! play no part.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{CheckedAdd, CheckedMul, One, ToPrimitive};

use super::pairing::{PairCounts, SortedPairs};
use super::wins::PairWins;
use super::{Contest, ContestError, Side, TieRule};
use crate::control::Control;
use crate::dice::die::{Die, DieError};
use crate::dice::evaluator::engine::evaluate_by_pool;
use crate::dice::pool::Pool;

/// What a resolved distribution is kept over.
trait Tally: Copy + Ord {
    /// The tally of the decided pairs of an outcome.
    fn of(counts: &PairCounts) -> Self;
    /// Two tallies together.
    fn plus(self, other: Self) -> Self;
    /// Nothing decided.
    const ZERO: Self;
}

/// The net score: cheaper to mix than the wins of each side, and all that the
/// contest metrics need.
impl Tally for i64 {
    fn of(counts: &PairCounts) -> Self {
        i64::from(counts.a_wins) - i64::from(counts.b_wins)
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    const ZERO: Self = 0;
}

/// Pairs won by A and by B.
impl Tally for (u32, u32) {
    fn of(counts: &PairCounts) -> Self {
        (counts.a_wins, counts.b_wins)
    }
    fn plus(self, other: Self) -> Self {
        (self.0 + other.0, self.1 + other.1)
    }
    const ZERO: Self = (0, 0);
}

/// The resolved net score of a sorted contest whose tied pairs are rerolled. The
/// caller checked that each side is one kind of die.
pub(super) fn net(contest: &Contest, control: &Control) -> Result<Die, ContestError> {
    Ok(Die::new(resolve::<i64>(contest, control)?)?)
}

/// The resolved pair wins of a sorted contest whose tied pairs are rerolled.
pub(super) fn pair_wins(contest: &Contest, control: &Control) -> Result<PairWins, ContestError> {
    Ok(PairWins::from_entries(
        contest.pairs(),
        resolve::<(u32, u32)>(contest, control)?,
    ))
}

fn resolve<K: Tally>(
    contest: &Contest,
    control: &Control,
) -> Result<Vec<(K, BigUint)>, ContestError> {
    let (die_a, size_a) = &contest.dice(Side::A)[0];
    let (die_b, size_b) = &contest.dice(Side::B)[0];
    let top = sorted(die_a, *size_a, die_b, *size_b, control)?;
    let most_ties = top.iter().map(|(p, _)| p.ties).max().unwrap_or(0);
    // resolved[t]: the outcome of t tied pairs once every tie is settled.
    let mut resolved = vec![vec![(K::ZERO, BigUint::one())]];
    for t in 1..=most_ties {
        let again = if *size_a == t && *size_b == t {
            top.clone()
        } else {
            sorted(die_a, t, die_b, t, control)?
        };
        // All t pairs tying again is where we started: condition it away.
        let progress: Vec<(PairCounts, BigUint)> =
            again.into_iter().filter(|(p, _)| p.ties < t).collect();
        if progress.is_empty() {
            return Err(DieError::RerollsEverything.into());
        }
        resolved.push(settle(progress, &resolved));
    }
    Ok(settle(top, &resolved))
}

/// A sorted contest of `n_a` dice `a` against `n_b` dice `b`, counting ties.
fn sorted(
    a: &Die,
    n_a: u32,
    b: &Die,
    n_b: u32,
    control: &Control,
) -> Result<Vec<(PairCounts, BigUint)>, ContestError> {
    let pool_a = Pool::new(a, u64::from(n_a))?;
    let pool_b = Pool::new(b, u64::from(n_b))?;
    let evaluator = SortedPairs::<PairCounts>::new(TieRule::Reroll);
    Ok(evaluate_by_pool(&evaluator, &[&pool_a, &pool_b], control)?)
}

/// Continues every outcome of `counts` with its `t` ties as `resolved[t]`, bringing
/// every continuation to a common total so the counts stay exact integers; the
/// result is sorted, merged and reduced by the common factor of its counts. Runs in
/// machine words while the numbers fit, in big integers beyond.
fn settle<K: Tally>(
    counts: Vec<(PairCounts, BigUint)>,
    resolved: &[Vec<(K, BigUint)>],
) -> Vec<(K, BigUint)> {
    let small = |v: &BigUint| v.to_u128();
    let narrow_counts: Option<Vec<(PairCounts, u128)>> =
        counts.iter().map(|(p, c)| Some((*p, small(c)?))).collect();
    let narrow_resolved: Option<Vec<Vec<(K, u128)>>> = resolved
        .iter()
        .map(|r| r.iter().map(|(k, c)| Some((*k, small(c)?))).collect())
        .collect();
    if let (Some(counts), Some(resolved)) = (narrow_counts, narrow_resolved) {
        if let Some(merged) = settle_in(&counts, &resolved) {
            return merged
                .into_iter()
                .map(|(k, c)| (k, BigUint::from(c)))
                .collect();
        }
    }
    settle_in(&counts, resolved).expect("big integers do not overflow")
}

/// [`settle`] in the integer type `N`; `None` if it overflows.
fn settle_in<K: Tally, N>(
    counts: &[(PairCounts, N)],
    resolved: &[Vec<(K, N)>],
) -> Option<Vec<(K, N)>>
where
    N: Integer + Clone + CheckedAdd + CheckedMul,
{
    let mut totals: Vec<N> = Vec::with_capacity(resolved.len());
    for r in resolved {
        let mut total = N::zero();
        for (_, c) in r {
            total = total.checked_add(c)?;
        }
        totals.push(total);
    }
    let mut common = N::one();
    for (p, _) in counts {
        let total = &totals[p.ties as usize];
        // lcm(a, b) = a / gcd(a, b) · b, checked.
        common = (common.clone() / common.gcd(total)).checked_mul(total)?;
    }
    let mut entries = Vec::new();
    for (p, count) in counts {
        let t = p.ties as usize;
        let decided = K::of(p);
        let scale = count.checked_mul(&(common.clone() / totals[t].clone()))?;
        for (k, c) in &resolved[t] {
            entries.push((decided.plus(*k), c.checked_mul(&scale)?));
        }
    }
    entries.sort_by_key(|(k, _)| *k);
    let mut merged: Vec<(K, N)> = Vec::with_capacity(entries.len());
    for (k, c) in entries {
        match merged.last_mut() {
            Some((last, acc)) if *last == k => *acc = acc.checked_add(&c)?,
            _ => merged.push((k, c)),
        }
    }
    let gcd = merged.iter().fold(N::zero(), |g, (_, c)| g.gcd(c));
    Some(
        merged
            .into_iter()
            .map(|(k, c)| (k, c / gcd.clone()))
            .collect(),
    )
}
