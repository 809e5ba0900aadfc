//! [`Shapes`]: a pool whose make-up may be random — a weighted mixture of fixed
//! pools (groups of identical dice) — and its value under keep/drop and counting.
//!
//! # Design decisions
//! A dice term, a group `{a, b}`, a repetition `6#x` and an exploding term whose
//! extra rolls are dice all become one of these before their pool modifiers
//! apply, so keep/drop and success counting are written once. A weight multiplies
//! the counts of its pool's rolls: the mixture's counts are `Σ weight × count`,
//! and its total is the natural one when the weights pad every pool to the same
//! number of rolls (see `chains.rs`). Each fixed pool goes to the pool engine
//! ([`evaluator::kept_sum`]) as it stands, so a faster engine for mixed pools speeds
//! these up unchanged; an engine that took the whole mixture (starting its walk
//! from several pool sizes at once) would replace [`Shapes::evaluate`] alone.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

use crate::BinaryOp;
use crate::control::{Control, Meter};
use crate::dice::count::Count;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::{self, Pattern};
use crate::dice::notation::ast::Keep;
use crate::dice::pool::Pool;

/// One fixed pool: groups of identical dice and how many of each.
pub(crate) type Groups = Vec<(Die, u64)>;

/// One factor of a [`Shapes`]: its make-ups, each with its weight.
type Factor = Vec<(BigUint, Groups)>;

/// A weighted mixture of fixed pools, kept as a product: the pools are every choice
/// of one make-up from each factor, their dice joined and their weights multiplied.
/// Pools rolled together (`a + b` in a group) add a factor instead of listing every
/// pair of make-ups, so their memory is the sum of the factors' sizes, not the product.
#[derive(Debug, Clone)]
pub(crate) struct Shapes {
    factors: Vec<Factor>,
}

impl Shapes {
    pub(crate) fn new(shapes: Vec<(BigUint, Groups)>) -> Shapes {
        Shapes {
            factors: vec![shapes],
        }
    }

    /// A pool of one make-up.
    pub(crate) fn fixed(groups: Groups) -> Shapes {
        Shapes::new(vec![(BigUint::one(), groups)])
    }

    /// How many make-ups the product lists (saturating).
    fn len(&self) -> u64 {
        makeups(&self.factors)
    }

    /// The total of every pool's rolls, weighted: the total of the result.
    fn total(&self) -> BigUint {
        self.factors
            .iter()
            .map(|factor| {
                factor
                    .iter()
                    .map(|(weight, groups)| weight * pool_total(groups))
                    .sum::<BigUint>()
            })
            .product()
    }

    /// Both pools rolled together: every pair of make-ups, as one more factor.
    pub(crate) fn join(mut self, other: Shapes) -> Shapes {
        self.factors.extend(other.factors);
        self
    }

    /// Every make-up with its weight, one after another, without listing them all.
    fn for_each(
        &self,
        visit: impl FnMut(&BigUint, &Groups) -> Result<(), DieError>,
    ) -> Result<(), DieError> {
        for_each_makeup(&self.factors, visit)
    }

    /// Pools chosen at random: part `i` with probability `weights[i] / Σ weights`.
    /// Every part is scaled to the least common multiple of their totals. A part
    /// rolled from several pools is listed make-up by make-up, each charged.
    ///
    /// # Errors
    /// [`DieError::Stopped`] when listing a part passes the budget.
    #[cold]
    pub(crate) fn choose(
        parts: Vec<(BigUint, Shapes)>,
        meter: &mut Meter,
    ) -> Result<Shapes, DieError> {
        let totals: Vec<BigUint> = parts.iter().map(|(_, s)| s.total()).collect();
        let common = totals
            .iter()
            .fold(BigUint::one(), |acc, total| acc.lcm(total));
        let mut shapes = Vec::new();
        for ((weight, part), total) in parts.into_iter().zip(totals) {
            let factor = &weight * (&common / &total);
            for (w, groups) in part.into_list(meter)? {
                shapes.push((&w * &factor, groups));
            }
        }
        Ok(Shapes::new(shapes))
    }

    /// Every make-up with its weight, as one list: the only factor as it is, or the
    /// product listed (each make-up charged to `meter`).
    fn into_list(mut self, meter: &mut Meter) -> Result<Vec<(BigUint, Groups)>, DieError> {
        if self.factors.len() == 1 {
            return Ok(self.factors.pop().expect("one factor"));
        }
        meter.charge(self.len())?;
        let mut list = Vec::new();
        self.for_each(|w, groups| {
            list.push((w.clone(), groups.clone()));
            Ok(())
        })?;
        Ok(list)
    }

    /// The value of the pool: `value` of each die counted after the keep/drop
    /// selections, added up (the identity when `value` is `None`).
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`;
    /// [`DieError::TooManyDice`] past the engine's limit.
    #[cold]
    pub(crate) fn evaluate(
        &self,
        keeps: &[Keep],
        value: Option<&dyn Fn(Outcome) -> Outcome>,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        if keeps.is_empty() && self.factors.len() > 1 {
            // Added up, the factors are independent: their sums add.
            let control = meter.control().clone();
            let mut total = Die::constant(0);
            for factor in &self.factors {
                let part = evaluate_factors(std::slice::from_ref(factor), keeps, value, meter)?;
                total = total.combine(&part, BinaryOp::Add, &control)?;
            }
            return Ok(total);
        }
        if let Some(die) = self.evaluate_apart(keeps, value, meter)? {
            return Ok(die);
        }
        match self.trim_factors(keeps, meter)? {
            Some(trimmed) => evaluate_factors(&trimmed.factors, keeps, value, meter),
            None => evaluate_factors(&self.factors, keeps, value, meter),
        }
    }

    /// What every die of the pool shows together ([`Pattern`]): each make-up's
    /// pattern from the pool engine, mixed by the make-ups' weights.
    ///
    /// # Errors
    /// [`DieError::Stopped`] through `meter`; [`DieError::TooManyDice`] past the
    /// engine's limit.
    pub(crate) fn pattern(&self, pattern: &Pattern, meter: &mut Meter) -> Result<Die, DieError> {
        let control = meter.control().clone();
        let mut weighed = Weighed::new(&self.factors);
        for_each_makeup(&self.factors, |weight, groups| {
            let pool = Pool::mixed(groups.iter().cloned())?;
            let die = evaluator::pattern(pattern, &pool, &control)?;
            weighed.add(weight, die, meter)
        })?;
        weighed.finish()
    }

    /// Several patterns of the same roll ([`evaluator::joint`]), each make-up's
    /// joint outcomes weighed by the make-up's weight.
    ///
    /// # Errors
    /// As [`pattern`](Self::pattern); [`DieError::Overflow`] for a sum past `i64`.
    pub(crate) fn joint(
        &self,
        patterns: &[Pattern],
        meter: &mut Meter,
    ) -> Result<BTreeMap<Vec<Outcome>, BigUint>, DieError> {
        let control = meter.control().clone();
        let mut joint: BTreeMap<Vec<Outcome>, BigUint> = BTreeMap::new();
        for_each_makeup(&self.factors, |weight, groups| {
            let pool = Pool::mixed(groups.iter().cloned())?;
            let part = evaluator::joint(patterns, &pool, &control)?;
            meter.charge(part.len() as u64 * (weight.bits() / 64 + patterns.len() as u64))?;
            for (values, count) in part {
                *joint.entry(values).or_default() += count * weight;
            }
            Ok(())
        })?;
        Ok(joint)
    }

    /// A mixture dropping its `d` lowest (highest) dice, with the dice no roll
    /// drops set apart; `None` for other keeps, or when no factor lists several
    /// make-ups. A die with `d` sure dice of its own make-up at or below it (above)
    /// is kept in every pool that make-up joins: its value is added, outside the
    /// pool engine. Each factor's make-ups become the dice that may be dropped,
    /// with the weighted sums of the rest mixed into one die, merged where the
    /// dice left alike (`10d8!` dropping the lowest: the 8s are all kept, and its
    /// 506 make-ups become 11, one per count of the other faces).
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`;
    /// [`DieError::TooManyDice`] past the engine's limit.
    fn evaluate_apart(
        &self,
        keeps: &[Keep],
        value: Option<&dyn Fn(Outcome) -> Outcome>,
        meter: &mut Meter,
    ) -> Result<Option<Die>, DieError> {
        if !matches!(keeps, [Keep::DropLowest(_) | Keep::DropHighest(_)])
            || self.factors.iter().all(|f| f.len() < 2)
        {
            return Ok(None);
        }
        let control = meter.control().clone();
        let identity = |o: Outcome| o;
        let value_of: &dyn Fn(Outcome) -> Outcome = value.unwrap_or(&identity);
        // Each factor: the dice that may be dropped, and the mixed sums set apart
        // (their counts carry the make-ups' weights).
        let mut factors: Vec<Vec<(Groups, Die)>> = Vec::with_capacity(self.factors.len());
        // The sums set apart repeat across make-ups (the same dice, other counts).
        let mut sums: HashMap<(Die, u64), Die> = HashMap::default();
        for factor in &self.factors {
            let mut merged: Vec<(Groups, BTreeMap<Outcome, BigUint>)> = Vec::new();
            let mut at: HashMap<Groups, usize> = HashMap::default();
            for (weight, groups) in factor {
                meter.charge(TRIM_STEPS * groups.len() as u64)?;
                let (rest, sure) =
                    set_apart(groups, keeps).unwrap_or_else(|| (groups.clone(), Groups::new()));
                let mut added = Die::constant(0);
                for (die, n) in &sure {
                    let key = (die.clone(), *n);
                    let part = match sums.get(&key) {
                        Some(part) => part,
                        None => {
                            let part = die.map(value_of).repeat_sum(*n, &control)?;
                            sums.entry(key).or_insert(part)
                        }
                    };
                    added = added.combine(part, BinaryOp::Add, &control)?;
                }
                let i = match at.get(&rest) {
                    Some(&i) => i,
                    None => {
                        at.insert(rest.clone(), merged.len());
                        merged.push((rest, BTreeMap::new()));
                        merged.len() - 1
                    }
                };
                meter.charge(added.len() as u64 * (weight.bits() / 64 + 1))?;
                for (outcome, count) in added.iter() {
                    *merged[i].1.entry(outcome).or_default() += count * weight;
                }
            }
            let mut apart = Vec::with_capacity(merged.len());
            for (rest, counts) in merged {
                apart.push((rest, Die::new(counts)?));
            }
            factors.push(apart);
        }
        // Every choice of one entry a factor: the kept sum of the dice left (each
        // pool evaluated once), plus every factor's sums set apart.
        let mut seen = Remembered::default();
        let mut sum: BTreeMap<Outcome, BigUint> = BTreeMap::new();
        let mut groups = Groups::new();
        each_choice(&factors, |at| {
            groups.clear();
            for (factor, &i) in factors.iter().zip(at) {
                groups.extend(factor[i].0.iter().cloned());
            }
            meter.charge(TRIM_STEPS * groups.len() as u64)?;
            let mut die = seen.kept_sum(&groups, keeps, value, &control)?;
            for (factor, &i) in factors.iter().zip(at) {
                // A product of counts a pair, a step a 64-bit limb.
                let added = &factor[i].1;
                let words = (die.total().bits() + added.total().bits()) / 64 + 1;
                meter.charge(die.len() as u64 * added.len() as u64 * words)?;
                die = die.combine(added, BinaryOp::Add, &control)?;
            }
            meter.charge(die.len() as u64 * (die.total().bits() / 64 + 1))?;
            for (outcome, count) in die.iter() {
                *sum.entry(outcome).or_default() += count;
            }
            Ok(())
        })?;
        Die::new(sum).map(Some)
    }

    /// Each factor's make-ups trimmed of the dice no roll keeps, and merged where
    /// they trim alike; `None` when no factor lists several make-ups or the keeps
    /// do not trim. A die beaten by `k` sure dice of its own make-up is beaten in
    /// every pool that make-up joins, so trimming a factor alone is sound, and it
    /// shrinks the product before it is visited: the make-ups of `10d8!` keeping
    /// three mostly hold three or more 8s, and become one.
    ///
    /// # Errors
    /// [`DieError::Stopped`] through `meter` (each make-up is charged).
    fn trim_factors(&self, keeps: &[Keep], meter: &mut Meter) -> Result<Option<Shapes>, DieError> {
        if !trims(keeps) || self.factors.iter().all(|f| f.len() < 2) {
            return Ok(None);
        }
        let mut factors = Vec::with_capacity(self.factors.len());
        for factor in &self.factors {
            if factor.len() < 2 {
                factors.push(factor.clone());
                continue;
            }
            let mut merged: Vec<(BigUint, Groups)> = Vec::new();
            let mut at: HashMap<Groups, usize> = HashMap::default();
            for (weight, groups) in factor {
                meter.charge(TRIM_STEPS * groups.len() as u64)?;
                let (needed, weight) = match trim(groups, keeps) {
                    Some((needed, dropped)) => (needed, weight * dropped),
                    None => (groups.clone(), weight.clone()),
                };
                match at.get(&needed) {
                    Some(&i) => merged[i].0 += weight,
                    None => {
                        at.insert(needed.clone(), merged.len());
                        merged.push((weight, needed));
                    }
                }
            }
            factors.push(merged);
        }
        Ok(Some(Shapes { factors }))
    }
}

/// A pool dropping its `d` lowest dice split into the dice that may be dropped and
/// those no roll drops; `None` when every die may be dropped, or for other keeps.
///
/// A die with `d` dice at or below it in every roll is left out of some `d`
/// lowest (a tie drops an equal value), so it is always kept, and the pool
/// without it drops the same values: these are the dice [`beaten`] finds with
/// the faces turned over (its anchors, the `d` dice with the lowest highest
/// faces, stay in the pool). Dropping the highest is the mirror image.
fn set_apart(groups: &Groups, keeps: &[Keep]) -> Option<(Groups, Groups)> {
    let (d, lowest) = match keeps {
        [Keep::DropLowest(d)] => (*d, true),
        [Keep::DropHighest(d)] => (*d, false),
        _ => return None,
    };
    let counts = beaten(groups, d, !lowest)?;
    let (mut rest, mut sure): (Groups, Groups) = (Vec::new(), Vec::new());
    for ((die, n), beaten) in groups.iter().zip(counts) {
        if beaten > 0 {
            sure.push((die.clone(), beaten));
        }
        if n - beaten > 0 {
            rest.push((die.clone(), n - beaten));
        }
    }
    Some((rest, sure))
}

/// How many dice of each group `k` sure dice beat (or match) in every roll: the
/// anchors are the `k` dice with the highest lowest faces (among equals, those
/// with the highest highest face), and another die is beaten when its highest
/// face is at most the anchors' smallest lowest face. `high` false turns the
/// faces over (beaten from below). `None` when no die is beaten.
fn beaten(groups: &Groups, k: u64, high: bool) -> Option<Vec<u64>> {
    let dice: u64 = groups.iter().map(|(_, n)| n).sum();
    if k == 0 || dice <= k {
        return None;
    }
    let face = |o: Outcome| if high { o } else { o.saturating_neg() };
    let ends = |die: &Die| {
        let (a, b) = (face(die.min_outcome()), face(die.max_outcome()));
        (a.min(b), a.max(b))
    };
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| {
        let (low, high) = ends(&groups[g].0);
        (std::cmp::Reverse(low), std::cmp::Reverse(high))
    });
    let mut anchors = vec![0u64; groups.len()];
    let (mut left, mut floor) = (k, Outcome::MAX);
    for &g in &order {
        let take = groups[g].1.min(left);
        anchors[g] = take;
        left -= take;
        floor = ends(&groups[g].0).0;
        if left == 0 {
            break;
        }
    }
    let counts: Vec<u64> = groups
        .iter()
        .zip(&anchors)
        .map(|((die, n), anchored)| match ends(die).1 <= floor {
            true => n - anchored,
            false => 0,
        })
        .collect();
    counts.iter().any(|&c| c > 0).then_some(counts)
}

/// [`Shapes::evaluate`] over `factors`, once they are trimmed.
fn evaluate_factors(
    factors: &[Factor],
    keeps: &[Keep],
    value: Option<&dyn Fn(Outcome) -> Outcome>,
    meter: &mut Meter,
) -> Result<Die, DieError> {
    let control = meter.control().clone();
    let mut weighed = Weighed::new(factors);
    let only = weighed.only;
    // A mixture's make-ups that keep alike, trimmed of the dice no roll keeps,
    // are one pool evaluated once (an exploding pool's make-ups mostly differ
    // in dice that a few sure high ones push out).
    let mut seen = Remembered::default();
    for_each_makeup(factors, |weight, groups| {
        // A trimmed make-up's weight, times the totals of the dice it dropped.
        let mut scaled: Option<BigUint> = None;
        let extreme = match keeps {
            [Keep::Highest(1)] => Some(BinaryOp::Max),
            [Keep::Lowest(1)] => Some(BinaryOp::Min),
            _ => None,
        };
        let dice: u64 = groups.iter().map(|(_, n)| n).sum();
        let die = if let (Some(op), true) = (extreme, dice > 0) {
            // The one die kept is the pool's maximum (minimum): folded from the
            // cumulative counts, without the pool engine.
            let mut best: Option<Die> = None;
            for (die, n) in groups {
                let part = extreme_of(die, *n, op, &control)?;
                best = Some(match best {
                    None => part,
                    Some(best) => best.combine(&part, op, &control)?,
                });
            }
            let best = best.expect("a pool with dice");
            match value {
                Some(value) => best.map(value),
                None => best,
            }
        } else if keeps.is_empty() {
            let mut total = Die::constant(0);
            for (die, n) in groups {
                let mapped = match value {
                    Some(value) => die.map(value),
                    None => die.clone(),
                };
                let part = mapped.repeat_sum(*n, &control)?;
                total = total.combine(&part, BinaryOp::Add, &control)?;
            }
            total
        } else {
            // A mixture's make-ups are trimmed and looked up (a few allocations
            // and a hash per group); one fixed pool goes to the engine whole.
            let trimmed = if only || !trims(keeps) {
                None
            } else {
                meter.charge(TRIM_STEPS * groups.len() as u64)?;
                trim(groups, keeps)
            };
            match trimmed {
                Some((needed, dropped)) => {
                    // Every roll of a dropped die leaves the kept ones as they are.
                    scaled = Some(weight * dropped);
                    seen.kept_sum(&needed, keeps, value, &control)?
                }
                None => kept_sum(groups, keeps, value, &control)?,
            }
        };
        let weight = scaled.as_ref().unwrap_or(weight);
        weighed.add(weight, die, meter)
    })?;
    weighed.finish()
}

/// The make-ups' dice of a mixture, weighed and added up as they come: one
/// make-up of weight one is its die as it stands.
struct Weighed {
    sum: BTreeMap<Outcome, BigUint>,
    single: Option<Die>,
    only: bool,
}

impl Weighed {
    fn new(factors: &[Factor]) -> Weighed {
        Weighed {
            sum: BTreeMap::new(),
            single: None,
            only: makeups(factors) == 1,
        }
    }

    fn add(&mut self, weight: &BigUint, die: Die, meter: &mut Meter) -> Result<(), DieError> {
        if self.only && weight.is_one() {
            self.single = Some(die);
            return Ok(());
        }
        meter.charge(die.len() as u64 * (weight.bits() / 64 + 1))?;
        for (outcome, count) in die.iter() {
            *self.sum.entry(outcome).or_default() += count * weight;
        }
        Ok(())
    }

    fn finish(self) -> Result<Die, DieError> {
        match self.single {
            Some(die) => Ok(die),
            None => Die::new(self.sum),
        }
    }
}

/// Every make-up of the product of `factors` with its weight, one after another,
/// without listing them all.
fn for_each_makeup(
    factors: &[Factor],
    mut visit: impl FnMut(&BigUint, &Groups) -> Result<(), DieError>,
) -> Result<(), DieError> {
    if let [only] = factors {
        return only.iter().try_for_each(|(w, g)| visit(w, g));
    }
    let (mut weight, mut groups) = (BigUint::one(), Groups::new());
    each_choice(factors, |at| {
        weight.set_one();
        groups.clear();
        for (factor, &i) in factors.iter().zip(at) {
            let (w, g) = &factor[i];
            weight *= w;
            groups.extend(g.iter().cloned());
        }
        visit(&weight, &groups)
    })
}

/// How many make-ups the product of `factors` lists (saturating).
fn makeups(factors: &[Factor]) -> u64 {
    factors
        .iter()
        .fold(1u64, |n, f| n.saturating_mul(f.len() as u64))
}

/// Every choice of one entry from each factor, the last factor turning fastest:
/// `visit` gets the chosen index of each. No choice when a factor is empty.
fn each_choice<T>(
    factors: &[Vec<T>],
    mut visit: impl FnMut(&[usize]) -> Result<(), DieError>,
) -> Result<(), DieError> {
    if factors.iter().any(Vec::is_empty) {
        return Ok(());
    }
    let mut at = vec![0usize; factors.len()];
    loop {
        visit(&at)?;
        let mut k = at.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            at[k] += 1;
            if at[k] < factors[k].len() {
                break;
            }
            at[k] = 0;
        }
    }
}

/// Kept sums of the pools a mixture met, each evaluated once (up to
/// [`MAX_TRIMMED`] of them remembered).
#[derive(Default)]
struct Remembered(HashMap<Groups, Die>);

impl Remembered {
    fn kept_sum(
        &mut self,
        groups: &Groups,
        keeps: &[Keep],
        value: Option<&dyn Fn(Outcome) -> Outcome>,
        control: &Control,
    ) -> Result<Die, DieError> {
        if let Some(die) = self.0.get(groups) {
            return Ok(die.clone());
        }
        let die = kept_sum(groups, keeps, value, control)?;
        if self.0.len() < MAX_TRIMMED {
            self.0.insert(groups.clone(), die.clone());
        }
        Ok(die)
    }
}

/// The most trimmed make-ups [`Shapes::evaluate`] remembers.
const MAX_TRIMMED: usize = 4096;

/// What trimming one group of a make-up is charged: `{10d8!+10d6!}kh3` visits
/// 256,036 make-ups in about 0.2 s, a few hundred nanoseconds a group.
pub(crate) const TRIM_STEPS: u64 = 128;

/// The sum of the kept dice of the fixed pool `groups`, by the pool engine.
fn kept_sum(
    groups: &Groups,
    keeps: &[Keep],
    value: Option<&dyn Fn(Outcome) -> Outcome>,
    control: &Control,
) -> Result<Die, DieError> {
    let pool = super::selected(Pool::mixed(groups.iter().cloned())?, keeps);
    let identity = |o: Outcome| o;
    let value: &dyn Fn(Outcome) -> Outcome = value.unwrap_or(&identity);
    evaluator::kept_sum(&pool, value, control)
}

/// Whether [`trim`] may drop dice under `keeps`: the first keeps the `k` highest
/// or lowest (later keeps choose among those `k`, which trimming leaves alone).
fn trims(keeps: &[Keep]) -> bool {
    matches!(keeps.first(), Some(Keep::Highest(_) | Keep::Lowest(_)))
}

/// A pool keeping its `k` highest dice first without the dice no roll keeps, and
/// the product of their totals; `None` when every die may be kept, or for other
/// keeps. A die [`beaten`] by `k` sure dice never beats all of them: dropping it
/// leaves the kept values as they are (a tie keeps an equal value), so each of
/// its rolls counts the same. Keeping the lowest is the mirror image.
fn trim(groups: &Groups, keeps: &[Keep]) -> Option<(Groups, BigUint)> {
    let (k, highest) = match keeps.first()? {
        Keep::Highest(k) => (*k, true),
        Keep::Lowest(k) => (*k, false),
        _ => return None,
    };
    let counts = beaten(groups, k, highest)?;
    let mut dropped = BigUint::one();
    let mut needed: Groups = Vec::with_capacity(groups.len());
    for ((die, n), beaten) in groups.iter().zip(counts) {
        if beaten > 0 {
            dropped *= Count::pow(&die.total(), beaten as u32);
        }
        if n - beaten > 0 {
            needed.push((die.clone(), n - beaten));
        }
    }
    Some((needed, dropped))
}

/// The maximum (or minimum, by `op`) of `n` copies of `die`, by squaring.
fn extreme_of(die: &Die, n: u64, op: BinaryOp, control: &Control) -> Result<Die, DieError> {
    let mut result: Option<Die> = None;
    let mut base = die.clone();
    let mut remaining = n;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(result) => result.combine(&base, op, control)?,
            });
        }
        remaining >>= 1;
        if remaining > 0 {
            base = base.combine(&base, op, control)?;
        }
    }
    Ok(result.expect("n > 0"))
}

/// The number of rolls of a fixed pool: the product of its dice's totals.
fn pool_total(groups: &Groups) -> BigUint {
    groups
        .iter()
        .map(|(die, n)| die.total().pow(*n as u32))
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::d;

    /// The kinds the small-pool tests combine: two constants (`low` the lower),
    /// plain dice, uneven counts and negative faces.
    fn kinds(low: Outcome) -> [Die; 6] {
        [
            Die::constant(8),
            Die::constant(low),
            d(4),
            d(6),
            Die::new([(2, 1u32), (5, 2), (6, 1)]).unwrap(),
            Die::new([(-1, 1u32), (0, 1)]).unwrap(),
        ]
    }

    /// The counts of `die` times `factor`.
    fn times(die: &Die, factor: &BigUint) -> Vec<(Outcome, BigUint)> {
        die.iter().map(|(o, c)| (o, c * factor)).collect()
    }

    #[test]
    fn trimming_a_pool_keeps_every_kept_sum_and_count() {
        let kinds = kinds(3);
        let mut trimmed = 0;
        // Every pool of up to three kinds, one to three of each, every keep.
        for a in 0..kinds.len() {
            for b in a..kinds.len() {
                for c in b..kinds.len() {
                    for (na, nb, nc) in [(1, 1, 1), (3, 1, 2), (2, 3, 1), (1, 2, 3)] {
                        let mut groups: Groups = vec![(kinds[a].clone(), na)];
                        for (kind, n) in [(b, nb), (c, nc)] {
                            match groups.iter_mut().find(|(die, _)| *die == kinds[kind]) {
                                Some(group) => group.1 += n,
                                None => groups.push((kinds[kind].clone(), n)),
                            }
                        }
                        let dice: u64 = groups.iter().map(|(_, n)| n).sum();
                        for k in 1..=dice {
                            let sequences = [
                                vec![Keep::Highest(k)],
                                vec![Keep::Lowest(k)],
                                vec![Keep::Highest(k), Keep::DropLowest(1)],
                                vec![Keep::Lowest(k), Keep::DropHighest(1)],
                            ];
                            for keeps in sequences {
                                let Some((needed, dropped)) = trim(&groups, &keeps) else {
                                    continue;
                                };
                                trimmed += 1;
                                let control = Control::new();
                                let whole = kept_sum(&groups, &keeps, None, &control).unwrap();
                                let part = kept_sum(&needed, &keeps, None, &control).unwrap();
                                assert_eq!(
                                    times(&part, &dropped),
                                    times(&whole, &BigUint::one()),
                                    "{groups:?} {keeps:?} trimmed to {needed:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(trimmed > 100, "{trimmed}");
    }

    #[test]
    fn dice_set_apart_are_kept_in_every_roll() {
        let kinds = kinds(1);
        let control = Control::new();
        let mut split = 0;
        for a in 0..kinds.len() {
            for b in a..kinds.len() {
                for (na, nb) in [(1, 1), (3, 1), (1, 3), (2, 2)] {
                    let groups: Groups = if a == b {
                        vec![(kinds[a].clone(), na + nb)]
                    } else {
                        vec![(kinds[a].clone(), na), (kinds[b].clone(), nb)]
                    };
                    for dropped in 1..=na + nb {
                        for keeps in [[Keep::DropLowest(dropped)], [Keep::DropHighest(dropped)]] {
                            let Some((rest, sure)) = set_apart(&groups, &keeps) else {
                                continue;
                            };
                            split += 1;
                            let mut part = kept_sum(&rest, &keeps, None, &control).unwrap();
                            for (die, n) in &sure {
                                let added = die.repeat_sum(*n, &control).unwrap();
                                part = part.combine(&added, BinaryOp::Add, &control).unwrap();
                            }
                            let whole = kept_sum(&groups, &keeps, None, &control).unwrap();
                            assert_eq!(part, whole, "{groups:?} {keeps:?} set apart {sure:?}");
                        }
                    }
                }
            }
        }
        assert!(split > 40, "{split}");
    }

    /// Every make-up of the product visited and evaluated whole, as the mixture
    /// means: the reference for the trimmed and factored evaluation.
    fn untrimmed(
        shapes: &Shapes,
        keeps: &[Keep],
        value: Option<&dyn Fn(Outcome) -> Outcome>,
    ) -> Die {
        let control = Control::new();
        let mut sum: BTreeMap<Outcome, BigUint> = BTreeMap::new();
        shapes
            .for_each(|weight, groups| {
                let die = if keeps.is_empty() {
                    let mut total = Die::constant(0);
                    for (die, n) in groups {
                        let die = value.map_or_else(|| die.clone(), |f| die.map(f));
                        let part = die.repeat_sum(*n, &control)?;
                        total = total.combine(&part, BinaryOp::Add, &control)?;
                    }
                    total
                } else {
                    kept_sum(groups, keeps, value, &control)?
                };
                for (outcome, count) in die.iter() {
                    *sum.entry(outcome).or_default() += count * weight;
                }
                Ok(())
            })
            .unwrap();
        Die::new(sum).unwrap()
    }

    #[test]
    fn a_mixture_trimmed_factor_by_factor_counts_as_every_make_up_whole() {
        let eight = Die::constant(8);
        let six = Die::constant(6);
        let low8 = Die::new((1..=7).map(|o| (o, 1u32))).unwrap();
        let low6 = d(5);
        let uneven = Die::new([(2, 1u32), (5, 2), (9, 1)]).unwrap();
        let w = |n: u32| BigUint::from(n);
        // Make-ups shaped like exploding terms': sure high dice and the rest.
        let first = vec![
            (w(7), vec![(low8.clone(), 2)]),
            (w(3), vec![(low8.clone(), 1), (eight.clone(), 1)]),
            (w(2), vec![(low8.clone(), 1), (eight.clone(), 2)]),
            (w(1), vec![(eight.clone(), 3)]),
            (w(5), vec![(eight.clone(), 4)]),
        ];
        let second = vec![
            (w(4), vec![(low6.clone(), 2)]),
            (w(1), vec![(six.clone(), 2), (low6.clone(), 1)]),
            (w(2), vec![(six.clone(), 3)]),
        ];
        let third = vec![(w(1), vec![(uneven.clone(), 1), (d(4), 2)])];
        let shapes = Shapes::new(first)
            .join(Shapes::new(second))
            .join(Shapes::new(third));
        let successes = |o: Outcome| Outcome::from(o >= 5);
        let mut checked = 0;
        for k in 0..=6 {
            let mut sequences = vec![
                vec![Keep::Highest(k)],
                vec![Keep::Lowest(k)],
                vec![Keep::Highest(k), Keep::DropLowest(1)],
                vec![Keep::Lowest(k), Keep::DropHighest(1)],
                vec![Keep::DropLowest(k)],
                vec![Keep::DropHighest(k)],
            ];
            if k == 0 {
                sequences.push(vec![]);
            }
            for keeps in sequences {
                for value in [None, Some(&successes as &dyn Fn(Outcome) -> Outcome)] {
                    let control = Control::new();
                    let mut meter = control.meter();
                    let got = shapes.evaluate(&keeps, value, &mut meter).unwrap();
                    assert_eq!(got, untrimmed(&shapes, &keeps, value), "{keeps:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 2 * (6 * 7 + 1));
    }
}
