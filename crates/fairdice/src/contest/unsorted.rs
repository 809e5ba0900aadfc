//! Unsorted contests: the i-th die of A against the i-th die of B as written, every
//! pair independent of the others, so the net score is a sum of independent pair
//! scores and needs no pool engine.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::wins::PairWins;
use super::{Contest, ContestError, Side, TieRule};
use crate::control::Control;
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::{Die, DieError};

/// One kind of pair and how often it occurs: counts of (A wins, tie, B wins) of a
/// single pair after the tie rule, and the number of such pairs.
struct PairKind {
    a_wins: BigUint,
    ties: BigUint,
    b_wins: BigUint,
    pairs: u32,
}

/// The net score of an unsorted contest.
pub(super) fn net(contest: &Contest, control: &Control) -> Result<Die, ContestError> {
    let mut net = Die::constant(0);
    for kind in kinds(contest)? {
        let one = Die::new([(1, kind.a_wins), (0, kind.ties), (-1, kind.b_wins)])?;
        let all = one.repeat_sum(u64::from(kind.pairs), control)?;
        net = net.combine(&all, BinaryOp::Add, control)?;
    }
    Ok(net)
}

/// The joint distribution of pairs won by A and by B in an unsorted contest.
pub(super) fn pair_wins(contest: &Contest, control: &Control) -> Result<PairWins, ContestError> {
    let mut meter = control.meter();
    // dense[i][j]: count of A winning i pairs and B winning j, over the kinds so far.
    let mut dense: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
    for kind in kinds(contest)? {
        let part = multinomial(&kind);
        let size = dense.len() + part.len() - 1;
        let mut next = vec![vec![BigUint::zero(); size]; size];
        for (i, row) in dense.iter().enumerate() {
            for (j, x) in row.iter().enumerate().filter(|(_, x)| !x.is_zero()) {
                for (k, part_row) in part.iter().enumerate() {
                    meter
                        .charge(part_row.len() as u64)
                        .map_err(DieError::from)?;
                    for (l, y) in part_row.iter().enumerate().filter(|(_, y)| !y.is_zero()) {
                        next[i + k][j + l] += x * y;
                    }
                }
            }
        }
        dense = next;
    }
    let mut entries = Vec::new();
    for (i, row) in dense.into_iter().enumerate() {
        for (j, count) in row.into_iter().enumerate() {
            entries.push(((i as u32, j as u32), count));
        }
    }
    Ok(PairWins::from_entries(contest.pairs(), entries))
}

/// `k` independent pairs of one kind: `out[i][j]` counts A winning `i` and B `j`,
/// `k! / (i! j! (k−i−j)!) · w^i · l^j · t^(k−i−j)`.
fn multinomial(kind: &PairKind) -> Vec<Vec<BigUint>> {
    let k = kind.pairs as usize;
    let powers = |base: &BigUint| {
        let mut v = vec![BigUint::one()];
        for _ in 0..k {
            let next = v.last().expect("starts with one") * base;
            v.push(next);
        }
        v
    };
    let (w, t, l) = (
        powers(&kind.a_wins),
        powers(&kind.ties),
        powers(&kind.b_wins),
    );
    let mut binomial = vec![vec![BigUint::one()]];
    for n in 1..=k {
        let prev = &binomial[n - 1];
        let row = (0..=n)
            .map(|r| {
                let left = if r > 0 {
                    prev[r - 1].clone()
                } else {
                    BigUint::zero()
                };
                let right = prev.get(r).cloned().unwrap_or_default();
                left + right
            })
            .collect();
        binomial.push(row);
    }
    let mut out = vec![vec![BigUint::zero(); k + 1]; k + 1];
    for i in 0..=k {
        for j in 0..=k - i {
            // Choose the i pairs A wins, then the j of the rest B wins.
            out[i][j] = &binomial[k][i] * &binomial[k - i][j] * &w[i] * &l[j] * &t[k - i - j];
        }
    }
    out
}

/// The kinds of pair, walking both sides' dice in the order written up to
/// `min(a, b)` pairs, with identical neighbouring kinds merged.
fn kinds(contest: &Contest) -> Result<Vec<PairKind>, ContestError> {
    let expand = |side: Side| {
        contest
            .dice(side)
            .iter()
            .flat_map(|(die, n)| std::iter::repeat_n(die, *n as usize))
    };
    let mut runs: Vec<(&Die, &Die, u32)> = Vec::new();
    for (a, b) in expand(Side::A).zip(expand(Side::B)) {
        match runs.last_mut() {
            Some((x, y, n)) if *x == a && *y == b => *n += 1,
            _ => runs.push((a, b, 1)),
        }
    }
    runs.into_iter()
        .map(|(a, b, pairs)| one_pair(a, b, contest.tie_rule(), pairs))
        .collect()
}

/// Counts of A winning, tying and losing one pair of `a` against `b`.
fn one_pair(a: &Die, b: &Die, rule: TieRule, pairs: u32) -> Result<PairKind, ContestError> {
    let (mut a_wins, mut ties, mut b_wins) = (BigUint::zero(), BigUint::zero(), BigUint::zero());
    let b_total = b.total();
    let mut b_below = BigUint::zero();
    let mut b_counts = b.iter().peekable();
    for (x, count) in a.iter() {
        while let Some((y, c)) = b_counts.next_if(|(y, _)| *y < x) {
            debug_assert!(y < x);
            b_below += c;
        }
        let b_equal = b.count(x);
        let b_above = &b_total - &b_below - &b_equal;
        a_wins += &count * &b_below;
        ties += &count * &b_equal;
        b_wins += &count * b_above;
    }
    let zero = BigUint::zero;
    let (a_wins, ties, b_wins) = match rule {
        TieRule::Stand => (a_wins, ties, b_wins),
        TieRule::AWins => (a_wins + ties, zero(), b_wins),
        TieRule::BWins => (a_wins, zero(), b_wins + ties),
        TieRule::Reroll if (&a_wins + &b_wins).is_zero() => {
            return Err(DieError::RerollsEverything.into());
        }
        TieRule::Reroll => (a_wins, zero(), b_wins),
    };
    Ok(PairKind {
        a_wins,
        ties,
        b_wins,
        pairs,
    })
}
