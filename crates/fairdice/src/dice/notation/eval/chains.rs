//! Explosions exactly: the value of one die's chain of rolls, and the pools an
//! exploding term makes when every extra roll is a die of its own.
//!
//! # Design decisions
//! A chain is a first roll and, while rolls match and the limit allows, extra
//! rolls. Its value alone (compounding, or a pool that is only added up or
//! counted) is a short recurrence from the last roll back, as [`Die::explode`],
//! counted in machine words while `T^(depth + 1)` fits them.
//!
//! When extra rolls are dice of their own and keep/drop must rank them, the term
//! is a pool of random size. Only which *kind* of roll each die is matters for
//! its distribution: a first or an extra roll (they differ when penetrating),
//! showing an exploding face or not. So the term is a mixture of fixed pools of
//! at most four groups (a [`Shapes`]), one per vector of group sizes, each
//! evaluated by the pool engine. Weights are counts of orders of kinds, padded so
//! every shape covers the same number of possible rolls: the mixture's total is
//! the term's natural one (`T^(n·(depth+1))` for `n` dice of `T` faces).
//! Per-die limits make the chains independent, so the shapes of `n` dice are the
//! `n`-th power of one chain's; Foundry's cap on the term's extra rolls couples
//! the dice, and its shapes come from counting the orders of matching and other
//! rolls up to where rolling stops.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::pools::Shapes;
use crate::control::Meter;
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::with_count_type;

/// How one term's dice explode.
pub(super) struct Chain<'a> {
    /// One roll, before any explosion.
    pub roll: &'a Die,
    /// Which rolls explode.
    pub explodes: &'a dyn Fn(Outcome) -> bool,
    /// Added to every roll after the first (−1 when penetrating).
    pub extra_offset: Outcome,
    /// How many extra rolls one die may make.
    pub depth: u32,
}

impl Chain<'_> {
    /// The distribution of one chain's value: `value` of every roll (the first as
    /// rolled, later ones offset) added up.
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`.
    #[cold]
    pub fn sum(
        &self,
        value: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let bits = self.roll.total().bits().max(1) * (u64::from(self.depth) + 1);
        with_count_type!(CountType::for_bits(bits + 1), C => self.sum_in::<C>(value, meter))
    }

    /// [`Chain::sum`] with counts in `C`, which holds `T^(depth + 1)`.
    fn sum_in<C: Count>(
        &self,
        value: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let faces: Vec<(Outcome, C)> = self
            .roll
            .iter()
            .map(|(face, count)| (face, C::from_big(&count)))
            .collect();
        let total = C::from_big(&self.roll.total());
        // From the last roll back: `rest` counts the value of the rolls after one,
        // over T^(rolls left); a chain that stops early is padded to that total.
        let mut rest: Option<BTreeMap<Outcome, C>> = None;
        let mut pad = C::one();
        for step in (0..=self.depth).rev() {
            let offset = if step == 0 { 0 } else { self.extra_offset };
            let mut here: BTreeMap<Outcome, C> = BTreeMap::new();
            for (face, count) in &faces {
                let v = value(checked_add(*face, offset)?);
                match &rest {
                    Some(rest) if (self.explodes)(*face) => {
                        meter.charge(rest.len() as u64)?;
                        for (o, r) in rest {
                            here.entry(checked_add(*o, v)?)
                                .or_insert_with(C::zero)
                                .add_mul(count, r);
                        }
                    }
                    _ => here.entry(v).or_insert_with(C::zero).add_mul(count, &pad),
                }
            }
            pad = pad.times(&total);
            rest = Some(here);
        }
        Die::from_sorted_generic(rest.expect("at least one roll"))
    }

    /// The pools of `n` such dice when every roll is a die of its own: each die
    /// after `post` (the clamps written after the explosion).
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`.
    #[cold]
    pub fn shapes(
        &self,
        n: u64,
        post: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Shapes, DieError> {
        let kinds = Kinds::new(self, post)?;
        let total = self.roll.total();
        // One chain: the first roll, then k extra rolls.
        let mut one: Vec<([u32; 4], BigUint)> = Vec::new();
        let depth = self.depth as usize;
        one.push(([1, 0, 0, 0], total.pow(self.depth)));
        for k in 1..=depth {
            let pad = total.pow((depth - k) as u32);
            one.push(([0, 1, 1, k as u32 - 1], pad));
        }
        if depth > 0 {
            one.push(([0, 1, 0, depth as u32], BigUint::one()));
        } else {
            one.push(([0, 1, 0, 0], BigUint::one()));
        }
        let one = kinds.merge(one);
        let power = power(&one, n, meter)?;
        Ok(kinds.shapes(power))
    }

    /// The pools of `n` dice under Foundry's cap: at most `cap` extra rolls for
    /// the whole term, taken in the order rolled. (The depth does not apply.)
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`.
    #[cold]
    pub fn capped_shapes(
        &self,
        n: u64,
        cap: u64,
        post: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Shapes, DieError> {
        let kinds = Kinds::new(self, post)?;
        let total = self.roll.total();
        let most = n + cap;
        // ways[m]: orders of kinds with `drawn` rolls, m of them matching, still
        // rolling; a roll is drawn while drawn < n + min(cap, matches).
        let mut ways: Vec<BigUint> = vec![BigUint::one()];
        let mut finished: Vec<([u32; 4], BigUint)> = Vec::new();
        for drawn in 0..=most {
            meter.charge(ways.len() as u64)?;
            let mut next: Vec<BigUint> = vec![BigUint::zero(); ways.len() + 1];
            for (matches, count) in ways.iter().enumerate() {
                if count.is_zero() {
                    continue;
                }
                let budget = n + cap.min(matches as u64);
                if drawn == budget {
                    let others = (drawn - matches as u64) as u32;
                    let pad = total.pow((most - drawn) as u32);
                    finished.push(([others, matches as u32, 0, 0], count * pad));
                } else {
                    next[matches] += count;
                    next[matches + 1] += count;
                }
            }
            ways = next;
        }
        Ok(kinds.shapes(kinds.merge(finished)))
    }
}

/// The four kinds of roll (first or extra; other or matching face) as dice,
/// `None` where no face is of that kind.
struct Kinds {
    dice: [Option<Die>; 4],
}

impl Kinds {
    fn new(chain: &Chain<'_>, post: &dyn Fn(Outcome) -> Outcome) -> Result<Kinds, DieError> {
        let part = |matching: bool, offset: Outcome| -> Result<Option<Die>, DieError> {
            let pairs: Vec<(Outcome, BigUint)> = chain
                .roll
                .iter()
                .filter(|&(face, _)| (chain.explodes)(face) == matching)
                .map(|(face, count)| Ok((post(checked_add(face, offset)?), count)))
                .collect::<Result<_, DieError>>()?;
            Ok(Die::new(pairs).ok())
        };
        Ok(Kinds {
            dice: [
                part(false, 0)?,
                part(true, 0)?,
                part(false, chain.extra_offset)?,
                part(true, chain.extra_offset)?,
            ],
        })
    }

    /// Sizes by kind with kinds that are the same die added together, and sizes
    /// of kinds without faces (impossible) dropped.
    fn merge(&self, terms: Vec<([u32; 4], BigUint)>) -> Vec<([u32; 4], BigUint)> {
        let mut merged: HashMap<[u32; 4], BigUint> = HashMap::new();
        'terms: for (mut sizes, weight) in terms {
            if sizes
                .iter()
                .zip(&self.dice)
                .any(|(&n, die)| n > 0 && die.is_none())
            {
                continue 'terms;
            }
            for later in 1..4 {
                if let Some(same) = (0..later).find(|&k| self.dice[k] == self.dice[later]) {
                    sizes[same] += sizes[later];
                    sizes[later] = 0;
                }
            }
            *merged.entry(sizes).or_default() += weight;
        }
        let mut terms: Vec<_> = merged.into_iter().collect();
        terms.sort_unstable_by_key(|term| term.0);
        terms
    }

    fn shapes(&self, terms: Vec<([u32; 4], BigUint)>) -> Shapes {
        let shapes = terms
            .into_iter()
            .map(|(sizes, weight)| {
                let groups = (0..4)
                    .filter(|&k| sizes[k] > 0)
                    .filter_map(|k| Some((self.dice[k].clone()?, u64::from(sizes[k]))))
                    .collect();
                (weight, groups)
            })
            .collect();
        Shapes::new(shapes)
    }
}

/// The `n`-th power of a polynomial in the four group sizes, by squaring.
fn power(
    one: &[([u32; 4], BigUint)],
    n: u64,
    meter: &mut Meter,
) -> Result<Vec<([u32; 4], BigUint)>, DieError> {
    let mut result: Vec<([u32; 4], BigUint)> = vec![([0; 4], BigUint::one())];
    let mut base: Vec<([u32; 4], BigUint)> = one.to_vec();
    let mut remaining = n;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = multiply(&result, &base, meter)?;
        }
        remaining >>= 1;
        if remaining > 0 {
            base = multiply(&base, &base, meter)?;
        }
    }
    Ok(result)
}

fn multiply(
    a: &[([u32; 4], BigUint)],
    b: &[([u32; 4], BigUint)],
    meter: &mut Meter,
) -> Result<Vec<([u32; 4], BigUint)>, DieError> {
    let mut product: HashMap<[u32; 4], BigUint> = HashMap::with_capacity(a.len() + b.len());
    // A pair is a product of weights: a step per 64-bit limb of the larger.
    let widest = b.iter().map(|(_, w)| w.bits()).max().unwrap_or(0);
    for (x, wx) in a {
        meter.charge(b.len() as u64 * ((wx.bits() + widest) / 64 + 1))?;
        for (y, wy) in b {
            let sizes = [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
            let entry = product.entry(sizes).or_default();
            entry.add_mul(wx, wy);
        }
    }
    let mut terms: Vec<_> = product.into_iter().collect();
    terms.sort_unstable_by_key(|term| term.0);
    Ok(terms)
}

fn checked_add(a: Outcome, b: Outcome) -> Result<Outcome, DieError> {
    a.checked_add(b).ok_or(DieError::Overflow)
}
