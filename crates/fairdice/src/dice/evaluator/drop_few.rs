//! The sum of a pool that drops a few dice from one end (`300d6dl1`, `{20d4+20d6}dh2`)
//! without walking its ranks.
//!
//! The engine walks a pool rank by rank while the counted ranks last, carrying the
//! partial sum of the counted dice. Dropping the lowest `d` of `n` dice counts
//! almost every rank, so it carries every partial sum of almost every die: about
//! `faces · n³ · span` branch updates (`500d6dl1` ran 27 s).
//!
//! Here the pool is split instead by the value `v` of its `d`-th lowest die. Say
//! `j < d` dice roll below `v` and `k ≥ d − j` roll `v`; the kept total is the sum of
//! the dice at or above `v`, less the `d − j` copies of `v` that are dropped. So for
//! each `v` and `j` the count of every kept total is read off powers of the dice cut
//! to their faces at or above `v`:
//!
//! ```text
//! [yʲ] Π_g (L_g·y + D_g,≥v)^n_g  −  Σ_{k < d−j} [yʲ zᵏ] Π_g (L_g·y + w_g·xᵛ·z + D_g,>v)^n_g
//! ```
//!
//! shifted down by `(d − j)·v`, where kind `g` has `n_g` dice, `L_g` is its weight
//! below `v`, `w_g` its weight at `v`, and `D_g,≥v`, `D_g,>v` its faces from `v` up
//! (as generating polynomials of the counted values). The first term counts every
//! roll with `j` dice below `v` and the rest at or above it; the second takes away
//! those with fewer than `d − j` at `v`, where the `d`-th lowest is not `v`. That is
//! one power of `n` cut dice per face and a few products, the same work as a plain
//! sum of the pool repeated a face at a time.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{CheckedSub, One, Zero};

use crate::control::Control;
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;

/// The most dice dropped from one end that this path takes: its work grows with
/// the ways to share `d` dice among the kinds.
pub(crate) const MAX_DROPPED: u32 = 4;

/// The fewest counted dice for which this path is taken: below it the engine, which
/// settles a pool once its counted ranks are filled, is as cheap.
pub(crate) const MIN_COUNTED: u32 = 6;

/// Which end a pool drops its dice from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    Lowest,
    Highest,
}

/// Whether a pool of `size` dice counting the ranks `[top, bottom)` from the highest
/// is summed by this path, and from which end it drops how many dice.
pub(crate) fn drops_few(size: u32, top: u32, bottom: u32) -> Option<(End, u32)> {
    let counted = bottom.saturating_sub(top);
    let (end, dropped) = match (top, size.saturating_sub(bottom)) {
        (0, low) if low > 0 => (End::Lowest, low),
        (high, 0) if high > 0 => (End::Highest, high),
        _ => return None,
    };
    (dropped <= MAX_DROPPED && counted >= MIN_COUNTED && counted >= 4 * dropped)
        .then_some((end, dropped))
}

/// The counted ranks of a keep pattern (from the highest down) when they are one
/// run: `[top, bottom)`.
fn counted_run(pattern: &[bool]) -> Option<(u32, u32)> {
    let top = pattern.iter().position(|&k| k)?;
    let bottom = top + pattern[top..].iter().take_while(|&&k| k).count();
    pattern[bottom..]
        .iter()
        .all(|&k| !k)
        .then_some((top as u32, bottom as u32))
}

/// The sum of `value` over the counted dice of `pool` when it drops a few dice from
/// one end ([`drops_few`]); `None` for any other pool.
///
/// # Errors
/// [`DieError::Overflow`] if a sum leaves the `i64` range; [`DieError::Stopped`]
/// past the control's budget or once it is cancelled.
pub(crate) fn sum(
    pool: &Pool,
    value: &dyn Fn(Outcome) -> Outcome,
    control: &Control,
) -> Option<Result<Die, DieError>> {
    let (top, bottom) = counted_run(&pool.keep_pattern())?;
    let (end, dropped) = drops_few(pool.size(), top, bottom)?;
    dropping(pool.groups(), end, dropped, value, control).transpose()
}

/// The sum of `value` over the dice of `kinds` (die, how many) but the `d` at `end`;
/// `None` if the counts disagree with themselves (a roll taken away that was not
/// counted), which would be a fault of this path: the engine answers then.
fn dropping(
    kinds: &[(Die, u32)],
    end: End,
    d: u32,
    value: &dyn Fn(Outcome) -> Outcome,
    control: &Control,
) -> Result<Option<Die>, DieError> {
    match end {
        End::Lowest => drop_lowest(kinds, d, &|outcome| Ok(value(outcome)), control),
        // Dropping the highest is dropping the lowest of the negated dice.
        End::Highest => {
            let negated = kinds
                .iter()
                .map(|(die, n)| Ok((die.negate()?, *n)))
                .collect::<Result<Vec<_>, DieError>>()?;
            let value =
                |outcome: Outcome| outcome.checked_neg().map(value).ok_or(DieError::Overflow);
            drop_lowest(&negated, d, &value, control)
        }
    }
}

/// One kind of die cut at a face: its weight below the face, at it, and the powers
/// of its faces from the face up that a threshold needs.
struct Cut {
    below: BigUint,
    at: BigUint,
    /// `powers[e − lowest]` = the sum of `e` dice of the faces at or above the cut,
    /// for the exponents `lowest..=n`; `None` where there are no such faces.
    powers: Vec<Option<Die>>,
    lowest: u32,
}

impl Cut {
    fn power(&self, e: u32) -> Option<&Die> {
        self.powers[(e - self.lowest) as usize].as_ref()
    }
}

/// The sum of the counted values of `kinds` (die, how many) dropping the `d` lowest
/// (`None` as in [`dropping`]).
fn drop_lowest(
    kinds: &[(Die, u32)],
    d: u32,
    value: &dyn Fn(Outcome) -> Result<Outcome, DieError>,
    control: &Control,
) -> Result<Option<Die>, DieError> {
    let mut faces: Vec<Outcome> = kinds
        .iter()
        .flat_map(|(die, _)| die.outcomes().iter().copied())
        .collect();
    faces.sort_unstable();
    faces.dedup();
    // The ways to share the dice below (and at) a cut among the kinds, the same at
    // every face: `counted[j]` puts `j` below, `fewer[j][k]` also `k < d − j` at it.
    let counted: Vec<Vec<Vec<Share>>> = (0..d).map(|j| shares(kinds, j, None)).collect();
    let fewer: Vec<Vec<Vec<Vec<Share>>>> = (0..d)
        .map(|j| (0..d - j).map(|k| shares(kinds, j, Some(k))).collect())
        .collect();
    let mut totals: BTreeMap<Outcome, BigUint> = BTreeMap::new();
    // From the highest face down, so each cut's faces above `v` are the cut before.
    let mut above: Option<Vec<Cut>> = None;
    for &v in faces.iter().rev() {
        let cuts = kinds
            .iter()
            .map(|(die, n)| cut(die, *n, d, v, value, control))
            .collect::<Result<Vec<Cut>, DieError>>()?;
        let at_v = value(v)?;
        for j in 0..d {
            let shift = at_v
                .checked_mul(i64::from(d - j))
                .ok_or(DieError::Overflow)?;
            // Rolls with `j` dice below `v`, the rest at or above it.
            let mut part = BTreeMap::new();
            for shares in &counted[j as usize] {
                add_term(&mut part, &cuts, shares, None, 0, control)?;
            }
            // Less those with fewer than `d − j` of them at `v`. (At the highest face
            // there are none: the other `n − j − k > 0` dice would lie above it.)
            let mut taken = BTreeMap::new();
            if let Some(above) = &above {
                for (k, ways) in (0..).zip(&fewer[j as usize]) {
                    let extra = at_v.checked_mul(k).ok_or(DieError::Overflow)?;
                    for shares in ways {
                        add_term(&mut taken, &cuts, shares, Some(above), extra, control)?;
                    }
                }
            }
            control.meter().charge(part.len() as u64 * ENTRY_STEPS)?;
            for (total, count) in part {
                let left = match taken.remove(&total) {
                    Some(less) => match count.checked_sub(&less) {
                        Some(left) => left,
                        None => return Ok(inconsistent()),
                    },
                    None => count,
                };
                if !left.is_zero() {
                    let kept = total.checked_sub(shift).ok_or(DieError::Overflow)?;
                    *totals.entry(kept).or_default() += left;
                }
            }
            if !taken.is_empty() {
                // Every roll taken away was counted in `part`.
                return Ok(inconsistent());
            }
        }
        above = Some(cuts);
    }
    Die::from_big_pairs(totals.into_iter().collect()).map(Some)
}

/// What [`drop_lowest`] returns when its counts disagree: nothing (the engine
/// answers instead), and a failed test in a debug build.
fn inconsistent() -> Option<Die> {
    debug_assert!(false, "a roll taken away was not counted");
    None
}

/// `die` cut at `v`: its weights below and at `v`, and the sums of `e` dice of its
/// faces at or above `v` (values mapped) for `e` from `n − d + 1` to `n`.
fn cut(
    die: &Die,
    n: u32,
    d: u32,
    v: Outcome,
    value: &dyn Fn(Outcome) -> Result<Outcome, DieError>,
    control: &Control,
) -> Result<Cut, DieError> {
    let (mut below, mut at) = (BigUint::zero(), BigUint::zero());
    let mut upper = Vec::new();
    for (outcome, count) in die.iter() {
        if outcome < v {
            below += count;
        } else {
            if outcome == v {
                at.clone_from(&count);
            }
            upper.push((value(outcome)?, count));
        }
    }
    let lowest = n.saturating_sub(d - 1);
    let powers = if upper.is_empty() {
        (lowest..=n)
            .map(|e| (e == 0).then(|| Die::constant(0)))
            .collect()
    } else {
        let upper = Die::from_big_pairs(upper)?;
        let mut power = upper.repeat_sum(u64::from(lowest), control)?;
        let mut powers = Vec::with_capacity((n - lowest + 1) as usize);
        let mut meter = control.meter();
        for _ in lowest..n {
            meter.charge(product_steps(&power, &upper))?;
            let next = power.combine(&upper, BinaryOp::Add, control)?;
            powers.push(Some(std::mem::replace(&mut power, next)));
        }
        powers.push(Some(power));
        powers
    };
    Ok(Cut {
        below,
        at,
        powers,
        lowest,
    })
}

/// One kind's share of a term: dice below the cut, and (for the rolls taken away)
/// dice at it.
#[derive(Debug, Clone, Copy)]
struct Share {
    below: u32,
    at: u32,
}

/// Every way to share `j` dice below the cut (and, with `at = Some(k)`, `k` dice at
/// it) among the kinds, each kind taking at most its own dice.
fn shares(kinds: &[(Die, u32)], j: u32, at: Option<u32>) -> Vec<Vec<Share>> {
    fn fill(
        kinds: &[(Die, u32)],
        below: u32,
        at: u32,
        current: &mut Vec<Share>,
        out: &mut Vec<Vec<Share>>,
    ) {
        let Some(((_, n), rest)) = kinds.split_first() else {
            if below == 0 && at == 0 {
                out.push(current.clone());
            }
            return;
        };
        for b in 0..=below.min(*n) {
            for a in 0..=at.min(n - b) {
                current.push(Share { below: b, at: a });
                fill(rest, below - b, at - a, current, out);
                current.pop();
            }
        }
    }
    let mut out = Vec::new();
    fill(kinds, j, at.unwrap_or(0), &mut Vec::new(), &mut out);
    out
}

/// Adds one term to `into`: for each kind, `C(n; below, at)·L^below·w^at` times the
/// sum of its other dice, from the cut's faces at or above `v` (`above: None`) or
/// above it (`Some`: the next cut's), shifted up by `extra` for the dice at `v`.
fn add_term(
    into: &mut BTreeMap<Outcome, BigUint>,
    cuts: &[Cut],
    shares: &[Share],
    above: Option<&[Cut]>,
    extra: Outcome,
    control: &Control,
) -> Result<(), DieError> {
    let mut scalar = BigUint::one();
    let mut product: Option<Die> = None;
    for (g, (cut, share)) in cuts.iter().zip(shares).enumerate() {
        let n = cut.lowest + cut.powers.len() as u32 - 1;
        if share.below > 0 {
            scalar *= cut.below.pow(share.below);
        }
        if share.at > 0 {
            scalar *= cut.at.pow(share.at);
        }
        if scalar.is_zero() {
            return Ok(());
        }
        scalar *= multinomial(n, share.below, share.at);
        let rest = n - share.below - share.at;
        let power = match above {
            None => cut.power(rest),
            Some(above) => above[g].power(rest),
        };
        let Some(power) = power else {
            return Ok(());
        };
        product = Some(match product {
            None => power.clone(),
            Some(p) => {
                control.meter().charge(product_steps(&p, power))?;
                p.combine(power, BinaryOp::Add, control)?
            }
        });
    }
    if let Some(product) = product {
        let words = words(product.total_bits() + scalar.bits());
        control
            .meter()
            .charge(product.len() as u64 * (words + ENTRY_STEPS))?;
        for (outcome, count) in product.iter() {
            let total = outcome.checked_add(extra).ok_or(DieError::Overflow)?;
            *into.entry(total).or_default() += count * &scalar;
        }
    }
    Ok(())
}

/// What adding an entry to a total's map costs beyond its arithmetic (a look-up
/// and an allocation), in steps.
const ENTRY_STEPS: u64 = 8;

/// 64-bit words of a count of `bits` bits.
fn words(bits: u64) -> u64 {
    bits / 64 + 1
}

/// Steps a product of the sums `a` and `b` costs: a multiplication of their counts'
/// words per pair of outcomes (the convolution itself charges a step a pair).
fn product_steps(a: &Die, b: &Die) -> u64 {
    (a.len() as u64)
        .saturating_mul(b.len() as u64)
        .saturating_mul(words(a.total_bits()) * words(b.total_bits()))
}

/// `n! / (a! · b! · (n − a − b)!)`.
fn multinomial(n: u32, a: u32, b: u32) -> BigUint {
    binomial(n, a) * binomial(n - a, b)
}

fn binomial(n: u32, k: u32) -> BigUint {
    let k = k.min(n - k);
    (0..k).fold(BigUint::one(), |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::evaluator::{SumOf, evaluate_die};
    use crate::dice::testing::d;

    /// The engine's answer, which the brute-force tests of the engine vouch for.
    fn by_engine(
        kinds: &[(Die, u32)],
        end: End,
        dropped: u32,
        value: &dyn Fn(Outcome) -> Outcome,
    ) -> Die {
        let mut pool =
            Pool::mixed(kinds.iter().map(|(die, n)| (die.clone(), u64::from(*n)))).unwrap();
        pool = match end {
            End::Lowest => pool.drop_lowest(u64::from(dropped)),
            End::Highest => pool.drop_highest(u64::from(dropped)),
        };
        evaluate_die(&SumOf::new(value), &[&pool], &Control::unlimited()).unwrap()
    }

    #[test]
    fn matches_the_engine_on_every_small_pool() {
        let dice = [
            d(4),
            d(6),
            Die::from_faces(&[1, 1, 2, 5]).unwrap(),
            Die::from_faces(&[-2, 0, 3]).unwrap(),
            Die::constant(2),
        ];
        let identity = |o: Outcome| o;
        let successes = |o: Outcome| i64::from(o >= 3) - i64::from(o <= 0);
        let values: [&dyn Fn(Outcome) -> Outcome; 2] = [&identity, &successes];
        let mut checked = 0;
        for a in 0..dice.len() {
            for b in a..dice.len() {
                for (na, nb) in [(1, 0), (2, 0), (5, 0), (1, 1), (2, 3), (4, 2)] {
                    let kinds: Vec<(Die, u32)> = [(dice[a].clone(), na), (dice[b].clone(), nb)]
                        .into_iter()
                        .filter(|(_, n)| *n > 0)
                        .collect();
                    let size = na + nb;
                    for dropped in 1..size.min(MAX_DROPPED + 1) {
                        for end in [End::Lowest, End::Highest] {
                            for value in values {
                                let fast =
                                    dropping(&kinds, end, dropped, value, &Control::unlimited())
                                        .unwrap()
                                        .expect("consistent counts");
                                assert_eq!(
                                    fast,
                                    by_engine(&kinds, end, dropped, value),
                                    "{kinds:?} {end:?} {dropped}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn big_pools_dropping_few_take_this_path() {
        assert_eq!(drops_few(300, 0, 299), Some((End::Lowest, 1)));
        assert_eq!(drops_few(60, 2, 60), Some((End::Highest, 2)));
        // Keeping few, both ends, or many dropped: the engine.
        assert_eq!(drops_few(4, 0, 3), None);
        assert_eq!(drops_few(60, 1, 59), None);
        assert_eq!(drops_few(60, 0, 50), None);
        let pool = Pool::new(&d(6), 40).unwrap().drop_lowest(2);
        let fast = sum(&pool, &|o| o, &Control::unlimited()).unwrap().unwrap();
        assert_eq!(
            fast,
            evaluate_die(&SumOf::identity(), &[&pool], &Control::unlimited()).unwrap()
        );
        assert_eq!(fast.total(), d(6).total().pow(40));
    }
}
