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
//!
//! Modifiers written after the explosion apply to every die it makes, the first
//! roll and each extra one: clamps, and rerolls, which roll the die again as the
//! modifiers before the explosion shape it (no explosion, no penetration), then
//! the modifiers after the explosion up to the reroll. So one roll showing `x`
//! ends as a distribution, not a value: a [`Settle`]. Every roll's distribution
//! is weighed over one total `W` (the product of the rerolls' redraw totals),
//! so a chain of `k` rolls counts over `(T·W)^k` and the recurrence stays in
//! integers; without a reroll `W` is 1 and a roll is one value, as before.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::any_matches;
use super::pools::Shapes;
use crate::control::Meter;
use crate::dice::count::{Count, CountType};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::notation::ast::DieModifier;
use crate::with_count_type;

/// What the modifiers written after an explosion make of each roll.
pub(super) struct Settle<'m> {
    after: &'m [DieModifier],
    /// The die a reroll at `after[j]` rolls (`None` for a clamp): the roll as
    /// the modifiers before the explosion and `after[..j]` shape it, and for
    /// `r` conditioned on not matching.
    redraws: Vec<Option<Die>>,
    /// What every roll's weights add up to.
    total: BigUint,
}

impl<'m> Settle<'m> {
    /// Nothing after the explosion: every roll stands as it lands.
    pub fn none() -> Settle<'static> {
        Settle {
            after: &[],
            redraws: Vec::new(),
            total: BigUint::one(),
        }
    }

    /// The modifiers `after` an explosion of `roll` (one roll as shaped before it).
    ///
    /// # Errors
    /// [`DieError::RerollsEverything`] when a reroll would match every roll.
    pub fn new(roll: &Die, after: &'m [DieModifier]) -> Result<Settle<'m>, DieError> {
        let mut shaped = roll.clone();
        let mut redraws = Vec::with_capacity(after.len());
        let mut total = BigUint::one();
        for modifier in after {
            let redraw = match modifier {
                DieModifier::Minimum { value, .. } => {
                    shaped = shaped.map(|o| o.max(*value));
                    None
                }
                DieModifier::Maximum { value, .. } => {
                    shaped = shaped.map(|o| o.min(*value));
                    None
                }
                DieModifier::Reroll { conditions, .. } => {
                    let redraw = shaped.reroll(|o| any_matches(conditions, o))?;
                    shaped = redraw.clone();
                    Some(redraw)
                }
                DieModifier::RerollOnce { conditions, .. } => {
                    let redraw = shaped.clone();
                    shaped = shaped.reroll_once(|o| any_matches(conditions, o));
                    Some(redraw)
                }
                // The parser allows one explosion a die.
                DieModifier::Explode { .. } => None,
            };
            if let Some(redraw) = &redraw {
                total *= redraw.total();
            }
            redraws.push(redraw);
        }
        Ok(Settle {
            after,
            redraws,
            total,
        })
    }

    /// What a roll's outcomes weigh in all.
    pub fn total(&self) -> &BigUint {
        &self.total
    }

    /// What rolls distributed as `rolls` end as: each count times the weights
    /// of what its roll ends as (adding up to [`Settle::total`] per roll). The
    /// map is linear, so a whole group of faces is settled at once.
    pub fn apply(&self, rolls: BTreeMap<Outcome, BigUint>) -> BTreeMap<Outcome, BigUint> {
        let mut now = rolls;
        for (modifier, redraw) in self.after.iter().zip(&self.redraws) {
            let mut next: BTreeMap<Outcome, BigUint> = BTreeMap::new();
            match (modifier, redraw) {
                (
                    DieModifier::Reroll { conditions, .. }
                    | DieModifier::RerollOnce { conditions, .. },
                    Some(redraw),
                ) => {
                    let redraw_total = redraw.total();
                    let mut matching = BigUint::zero();
                    for (v, w) in now {
                        if any_matches(conditions, v) {
                            matching += w;
                        } else {
                            *next.entry(v).or_default() += w * &redraw_total;
                        }
                    }
                    if !matching.is_zero() {
                        for (u, r) in redraw.iter() {
                            *next.entry(u).or_default() += &matching * r;
                        }
                    }
                }
                _ => {
                    for (v, w) in now {
                        *next
                            .entry(super::clamp(std::slice::from_ref(modifier), v))
                            .or_default() += w;
                    }
                }
            }
            now = next;
        }
        now
    }
}

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
    /// rolled, later ones offset, each then settled) added up.
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`.
    #[cold]
    pub fn sum(
        &self,
        settle: &Settle<'_>,
        value: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let step = self.roll.total() * settle.total();
        let bits = step.bits().max(1) * (u64::from(self.depth) + 1);
        with_count_type!(CountType::for_bits(bits + 1), C => self.sum_in::<C>(settle, value, meter))
    }

    /// One roll with `offset` added, settled and valued, split by whether the
    /// face rolled explodes: (exploding, not), counts over `T·W`.
    fn rolls<C: Count>(
        &self,
        offset: Outcome,
        settle: &Settle<'_>,
        value: &dyn Fn(Outcome) -> Outcome,
    ) -> Result<[Vec<(Outcome, C)>; 2], DieError> {
        let mut split: [BTreeMap<Outcome, BigUint>; 2] = Default::default();
        for (face, count) in self.roll.iter() {
            let part = usize::from(!(self.explodes)(face));
            *split[part].entry(checked_add(face, offset)?).or_default() += count;
        }
        Ok(split.map(|rolls| {
            let mut valued: BTreeMap<Outcome, C> = BTreeMap::new();
            for (v, w) in settle.apply(rolls) {
                valued
                    .entry(value(v))
                    .or_insert_with(C::zero)
                    .add_assign(&C::from_big(&w));
            }
            valued.into_iter().collect()
        }))
    }

    /// [`Chain::sum`] with counts in `C`, which holds `(T·W)^(depth + 1)`.
    fn sum_in<C: Count>(
        &self,
        settle: &Settle<'_>,
        value: &dyn Fn(Outcome) -> Outcome,
        meter: &mut Meter,
    ) -> Result<Die, DieError> {
        let first = self.rolls::<C>(0, settle, value)?;
        let extra = self.rolls::<C>(self.extra_offset, settle, value)?;
        let total = C::from_big(&(self.roll.total() * settle.total()));
        // From the last roll back: `rest` counts the value of the rolls after one,
        // over (T·W)^(rolls left); a chain that stops early is padded to that total.
        let mut rest: Option<BTreeMap<Outcome, C>> = None;
        let mut pad = C::one();
        for step in (0..=self.depth).rev() {
            let [exploding, other] = if step == 0 { &first } else { &extra };
            let mut here: BTreeMap<Outcome, C> = BTreeMap::new();
            let stops: &[(Outcome, C)] = match &rest {
                Some(rest) => {
                    for (v, count) in exploding {
                        meter.charge(rest.len() as u64)?;
                        for (o, r) in rest {
                            here.entry(checked_add(*o, *v)?)
                                .or_insert_with(C::zero)
                                .add_mul(count, r);
                        }
                    }
                    other
                }
                // The last roll stands as it lands, exploding face or not.
                None => {
                    for (v, count) in exploding.iter().chain(other) {
                        here.entry(*v).or_insert_with(C::zero).add_mul(count, &pad);
                    }
                    &[]
                }
            };
            for (v, count) in stops {
                here.entry(*v).or_insert_with(C::zero).add_mul(count, &pad);
            }
            pad = pad.times(&total);
            rest = Some(here);
        }
        Die::from_sorted_generic(rest.expect("at least one roll"))
    }

    /// The pools of `n` such dice when every roll is a die of its own: each die
    /// settled by the modifiers written after the explosion.
    ///
    /// # Errors
    /// [`DieError::Overflow`]; [`DieError::Stopped`] through `meter`.
    #[cold]
    pub fn shapes(
        &self,
        n: u64,
        settle: &Settle<'_>,
        meter: &mut Meter,
    ) -> Result<Shapes, DieError> {
        let kinds = Kinds::new(self, settle)?;
        // A roll weighs T·W in all (its kind's die counts faces times settled weights).
        let total = self.roll.total() * settle.total();
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
        settle: &Settle<'_>,
        meter: &mut Meter,
    ) -> Result<Shapes, DieError> {
        let kinds = Kinds::new(self, settle)?;
        let total = self.roll.total() * settle.total();
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
///
/// Each die is held with its counts divided by their greatest common divisor,
/// so that kinds with the same distribution are one group of the pool (a
/// reroll that turns an exploding face into any other, `d6!r6`, makes every
/// roll alike); the divisor goes into the make-up's weight, once per die.
struct Kinds {
    dice: [Option<Die>; 4],
    /// What each kind's counts were divided by.
    scale: [BigUint; 4],
}

impl Kinds {
    fn new(chain: &Chain<'_>, settle: &Settle<'_>) -> Result<Kinds, DieError> {
        let part = |matching: bool, offset: Outcome| -> Result<Option<Die>, DieError> {
            let mut rolls: BTreeMap<Outcome, BigUint> = BTreeMap::new();
            for (face, count) in chain.roll.iter() {
                if (chain.explodes)(face) == matching {
                    *rolls.entry(checked_add(face, offset)?).or_default() += count;
                }
            }
            Ok(Die::new(settle.apply(rolls)).ok())
        };
        let parts = [
            part(false, 0)?,
            part(true, 0)?,
            part(false, chain.extra_offset)?,
            part(true, chain.extra_offset)?,
        ];
        let mut scale: [BigUint; 4] = Default::default();
        let dice = parts.clone().map(|die| die.map(|die| die.reduced()));
        for k in 0..4 {
            scale[k] = match (&parts[k], &dice[k]) {
                (Some(full), Some(reduced)) => full.total() / reduced.total(),
                _ => BigUint::one(),
            };
        }
        Ok(Kinds { dice, scale })
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
            let mut weight = weight;
            for (k, &n) in sizes.iter().enumerate() {
                if n > 0 && !self.scale[k].is_one() {
                    weight *= self.scale[k].pow(n);
                }
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use num_rational::BigRational;
    use num_traits::{One, Zero};

    use crate::control::Control;
    use crate::dice::die::Outcome;
    use crate::dice::notation::{Options, evaluate_with};

    type Dist = BTreeMap<Outcome, BigRational>;

    /// A modifier written after the explosion, as the enumeration reads it.
    #[derive(Clone, Copy)]
    enum After {
        Min(Outcome),
        Max(Outcome),
        Reroll(fn(Outcome) -> bool),
        Once(fn(Outcome) -> bool),
    }

    /// Every sequence of rolls of `n` dice of `faces`, each die's chain rolled
    /// out in turn, each roll settled by `after`, weighed in rationals.
    struct Rolling {
        faces: Vec<Outcome>,
        n: usize,
        explodes: fn(Outcome) -> bool,
        offset: Outcome,
        depth: u32,
        after: Vec<After>,
    }

    fn add(dist: &mut Dist, o: Outcome, p: BigRational) {
        *dist.entry(o).or_insert_with(BigRational::zero) += p;
    }

    impl Rolling {
        fn chance(&self) -> BigRational {
            BigRational::new(1.into(), self.faces.len().into())
        }

        /// A fresh roll of the bare die through `after[..upto]`.
        fn redraw(&self, upto: usize) -> Dist {
            let mut dist = Dist::new();
            for &face in &self.faces {
                for (o, p) in self.settle(face, upto) {
                    add(&mut dist, o, p * self.chance());
                }
            }
            dist
        }

        /// What a roll showing `x` ends as under `after[..upto]`.
        fn settle(&self, x: Outcome, upto: usize) -> Dist {
            let mut now = Dist::from([(x, BigRational::one())]);
            for (j, modifier) in self.after[..upto].iter().enumerate() {
                let mut next = Dist::new();
                for (v, p) in now {
                    match *modifier {
                        After::Min(m) => add(&mut next, v.max(m), p),
                        After::Max(m) => add(&mut next, v.min(m), p),
                        After::Reroll(matches) if matches(v) => {
                            // Rolled again until it does not match.
                            let redraw = self.redraw(j);
                            let left: BigRational = redraw
                                .iter()
                                .filter(|(o, _)| !matches(**o))
                                .map(|(_, q)| q.clone())
                                .sum();
                            for (o, q) in redraw.into_iter().filter(|(o, _)| !matches(*o)) {
                                add(&mut next, o, &p * q / &left);
                            }
                        }
                        After::Once(matches) if matches(v) => {
                            for (o, q) in self.redraw(j) {
                                add(&mut next, o, &p * q);
                            }
                        }
                        _ => add(&mut next, v, p),
                    }
                }
                now = next;
            }
            now
        }

        /// `due`: the extra rolls the die being rolled has made, when its last
        /// roll exploded and another is due; `started`: the dice first rolled.
        fn go(
            &self,
            values: &mut Vec<Outcome>,
            started: usize,
            due: Option<u32>,
            p: BigRational,
            value: &dyn Fn(&mut Vec<Outcome>) -> Outcome,
            out: &mut Dist,
        ) {
            if due.is_none() && started == self.n {
                add(out, value(&mut values.clone()), p);
                return;
            }
            let (made, offset, started) = match due {
                Some(k) => (k + 1, self.offset, started),
                None => (0, 0, started + 1),
            };
            for &face in &self.faces {
                for (v, q) in self.settle(face + offset, self.after.len()) {
                    values.push(v);
                    let next = ((self.explodes)(face) && made < self.depth).then_some(made);
                    self.go(values, started, next, &p * q * self.chance(), value, out);
                    values.pop();
                }
            }
        }

        fn dist(&self, value: &dyn Fn(&mut Vec<Outcome>) -> Outcome) -> Dist {
            let mut out = Dist::new();
            self.go(
                &mut Vec::new(),
                0,
                None,
                BigRational::one(),
                value,
                &mut out,
            );
            out
        }
    }

    fn exact(text: &str, depth: u32) -> Dist {
        let options = Options {
            explode_depth: depth,
            ..Options::default()
        };
        let die = evaluate_with(text, &options, &Control::new())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        die.iter().map(|(o, _)| (o, die.probability(o))).collect()
    }

    #[test]
    fn rerolls_after_an_explosion_agree_with_every_sequence_rolled() {
        let sum = |v: &mut Vec<Outcome>| v.iter().sum::<Outcome>();
        let kh1 = |v: &mut Vec<Outcome>| v.iter().copied().max().unwrap_or(0);
        let dl1 = |v: &mut Vec<Outcome>| {
            v.sort_unstable();
            v.iter().skip(1).sum::<Outcome>()
        };
        let hits = |v: &mut Vec<Outcome>| v.iter().filter(|&&x| x >= 3).count() as Outcome;
        let rolling = |sides: Outcome, n: usize, explodes: fn(Outcome) -> bool, offset, depth| {
            move |after: Vec<After>| Rolling {
                faces: (1..=sides).collect(),
                n,
                explodes,
                offset,
                depth,
                after,
            }
        };
        let top4 = |o: Outcome| o == 4;
        let top3 = |o: Outcome| o == 3;
        let one = |o: Outcome| o == 1;
        let low = |o: Outcome| o <= 2;
        let four = |o: Outcome| o == 4;
        let three = |o: Outcome| o == 3;
        let d4 = rolling(4, 1, top4, 0, 2);
        let d4p = rolling(4, 1, top4, -1, 2);
        let d4high = rolling(4, 1, |o| o >= 3, 0, 2);
        let two_d3 = rolling(3, 2, top3, 0, 1);
        let cases: Vec<(&str, u32, Dist)> = vec![
            ("d4!r1", 2, d4(vec![After::Reroll(one)]).dist(&sum)),
            ("d4!ro1", 2, d4(vec![After::Once(one)]).dist(&sum)),
            ("d4!r<=2", 2, d4(vec![After::Reroll(low)]).dist(&sum)),
            ("d4!pr1", 2, d4p(vec![After::Reroll(one)]).dist(&sum)),
            ("d4!pro<=2", 2, d4p(vec![After::Once(low)]).dist(&sum)),
            ("d4!>=3r4", 2, d4high(vec![After::Reroll(four)]).dist(&sum)),
            ("d4!>=3ro4", 2, d4high(vec![After::Once(four)]).dist(&sum)),
            (
                "d4!max3r3",
                2,
                d4(vec![After::Max(3), After::Reroll(three)]).dist(&sum),
            ),
            (
                "d4!r1min2",
                2,
                d4(vec![After::Reroll(one), After::Min(2)]).dist(&sum),
            ),
            (
                "d4!ro1r2",
                2,
                d4(vec![After::Once(one), After::Reroll(|o| o == 2)]).dist(&sum),
            ),
            ("2d3!r1", 1, two_d3(vec![After::Reroll(one)]).dist(&sum)),
            ("2d3!kh1", 1, two_d3(vec![]).dist(&kh1)),
            ("2d3!max2kh1", 1, two_d3(vec![After::Max(2)]).dist(&kh1)),
            ("2d3!ro1kh1", 1, two_d3(vec![After::Once(one)]).dist(&kh1)),
            ("2d3!r1dl1", 1, two_d3(vec![After::Reroll(one)]).dist(&dl1)),
            (
                "2d3!ro1cs>=3",
                1,
                two_d3(vec![After::Once(one)]).dist(&hits),
            ),
        ];
        for (text, depth, expected) in cases {
            assert_eq!(exact(text, depth), expected, "{text}");
        }
    }

    #[test]
    fn a_reroll_after_an_explosion_that_matches_every_roll_is_refused() {
        let options = Options::default();
        let error = evaluate_with("d6!r<=6", &options, &Control::new()).unwrap_err();
        assert!(error.to_string().contains("rerolled forever"), "{error}");
        // Without a reroll the chain is as before: clamps after it only.
        assert_eq!(exact("d4!max3", 2), exact("d4!max3", 2));
        assert_eq!(exact("d4!r5", 2), exact("d4!", 2));
    }
}
