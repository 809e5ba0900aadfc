//! Unique dice exactly: `4d6u`, `5d10uo`, `8d6u=6`.
//!
//! # Design decisions
//! In the order rolled, a die showing what an earlier die shows (and matching the
//! condition, when there is one) is rolled again, until it differs (`u`) or once
//! (`uo`). What the next die shows depends only on which faces the dice before it
//! show, so the term is a walk over the multisets rolled so far: each multiset
//! holds its weight, and every die extends each one by every face. A multiset's
//! value (kept, dropped, counted) is read at the end, once per multiset. A
//! multiset is held as how many dice show each face.
//!
//! Weights stay exact integers over one denominator a step, in the narrowest
//! count type that holds the last step's total: `uo` always spreads a die over
//! `W²` (the first roll, and a repeat's second roll), `u` over the faces left,
//! `W − w(repeats)`, scaled to their least common multiple across the step.
//! The number of multisets is what the estimate prices (`C(F + n − 1, n)` at most
//! for `n` dice of `F` faces; sets only, `C(F, n)`, for `u`).
//!
//! A plain `u` (no condition) on a literal count of different faces, added up or
//! counted, never reaches the walk: its dice are a deal from a deck of one card
//! per face, whose walk goes face by face instead of set by set (`6d100u` is
//! `C(100, 6)` sets, 1.2·10^9, but a hundred faces).

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};
use rustc_hash::FxHashMap as HashMap;

use super::{Count as DiceCount, Exact, pool_value};
use crate::dice::count::{Count, CountType};
use crate::dice::deck::{Deal, Deck};
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::SumOf;
use crate::dice::mixture::Mixture;
use crate::dice::notation::ast::{
    Condition, Dice, Expr, ExprKind, Faces, Keep, PoolModifier, Span,
};
use crate::dice::notation::failure::NotationError;
use crate::with_count_type;

/// How a term's repeats are rolled again.
#[derive(Clone, Copy)]
pub(crate) struct Unique {
    /// Only once (`uo`).
    pub once: bool,
    /// Which repeats; none means all.
    pub condition: Option<Condition>,
}

impl Unique {
    /// The unique rule of a term whose first pool modifier is `u`/`uo`.
    pub fn of(dice: &Dice) -> Option<Unique> {
        match dice.pool_modifiers.first() {
            Some(PoolModifier::Unique {
                once, condition, ..
            }) => Some(Unique {
                once: *once,
                condition: *condition,
            }),
            _ => None,
        }
    }

    /// Whether a die showing `value` is rolled again when an earlier die shows it.
    pub fn applies(self, value: Outcome) -> bool {
        self.condition.is_none_or(|c| c.matches(value))
    }

    /// The error of `n` dice that cannot all differ on `faces`, if they cannot:
    /// `u` on more dice than faces when every face is rolled again.
    pub fn impossible(self, n: u64, faces: &[Outcome]) -> Option<DieError> {
        let all = faces.iter().all(|&v| self.applies(v));
        (!self.once && all && n > faces.len() as u64).then_some(DieError::UniqueImpossible {
            dice: n,
            faces: faces.len() as u64,
        })
    }
}

/// What extending one multiset by one face costs, in steps: hashing the grown
/// multiset into a table that outgrows the caches, a few hundred nanoseconds
/// (measured over `10d10uo` to `30d6uo` and `10d20u`: 400 to 700 ns).
pub(crate) const UNIQUE_PAIR_STEPS: u64 = 256;

/// The multisets rolled so far, each as how many dice show each face (in the
/// order of the faces), with its weight.
type Walk<C> = HashMap<Box<[u16]>, C>;

impl<'a> Exact<'a> {
    /// A dice term whose first pool modifier is `u`/`uo`; `rest` are the pool
    /// modifiers after it (keeps and counting).
    pub(super) fn unique(
        &mut self,
        dice: &'a Dice,
        base: Die,
        unique: Unique,
        rest: &'a [PoolModifier],
        span: &Span,
    ) -> Result<Die, NotationError> {
        let at = NotationError::at(span);
        if let Some(deal) = unique_deal(dice) {
            let counting = pool_value(rest);
            let sum = SumOf::new(|o| counting.as_ref().map_or(o, |f| f(o)));
            return deal.evaluate_die(&sum, self.control).map_err(at);
        }
        let values: Vec<Outcome> = base.iter().map(|(v, _)| v).collect();
        let counts: Vec<(u64, BigUint)> = match self.count(dice)? {
            DiceCount::Fixed(n) => vec![(n, BigUint::one())],
            DiceCount::Rolled(counts) => counts.iter().map(|(n, w)| (n as u64, w)).collect(),
        };
        let most = counts.iter().map(|&(n, _)| n).max().unwrap_or(0);
        if let Some(error) = unique.impossible(most, &values) {
            return Err(NotationError::at(dice.pool_modifiers[0].span())(error));
        }
        if most > u64::from(u16::MAX) {
            return Err(at(DieError::TooManyDice {
                count: most,
                max: u64::from(u16::MAX),
            }));
        }
        // Every weight is at most the last step's total: `W^(2n)` for `uo`, the
        // product of the steps' scales (each at most `step_bound`) for `u`.
        let total = base.total();
        let bits = if unique.once {
            2 * total.bits() * most + 1
        } else {
            step_bits(&base, unique, most)
                .saturating_mul(most)
                .saturating_add(1)
        };
        let parts = with_count_type!(CountType::for_bits(bits), C => {
            self.walk::<C>(&base, unique, &counts, rest)
        })
        .map_err(&at)?;
        if let [(_, die)] = parts.as_slice() {
            return Ok(die.clone());
        }
        let mut mixture = Mixture::new();
        for (weight, part) in &parts {
            mixture.add(weight, part, self.control).map_err(&at)?;
        }
        mixture.finish().map_err(at)
    }

    /// The value of the term for each count of dice, with the count's weight.
    fn walk<C: Count>(
        &mut self,
        base: &Die,
        unique: Unique,
        counts: &[(u64, BigUint)],
        rest: &[PoolModifier],
    ) -> Result<Vec<(BigUint, Die)>, DieError> {
        let faces: Vec<(Outcome, C)> = base.iter().map(|(v, w)| (v, C::from_big(&w))).collect();
        let values: Vec<Outcome> = faces.iter().map(|&(v, _)| v).collect();
        let most = counts.iter().map(|&(n, _)| n).max().unwrap_or(0);
        let total = base.total();
        let mut walk: Walk<C> = HashMap::default();
        walk.insert(vec![0; faces.len()].into_boxed_slice(), C::one());
        let mut parts = Vec::with_capacity(counts.len());
        for k in 0..=most {
            if let Some((_, weight)) = counts.iter().find(|&&(n, _)| n == k) {
                parts.push((weight.clone(), self.value_of(&walk, &values, rest)?));
            }
            if k < most {
                walk = self.step(&walk, &faces, &total, unique)?;
            }
        }
        Ok(parts)
    }

    /// Every multiset of `walk` extended by one more die.
    fn step<C: Count>(
        &mut self,
        walk: &Walk<C>,
        faces: &[(Outcome, C)],
        total: &BigUint,
        unique: Unique,
    ) -> Result<Walk<C>, DieError> {
        let applies: Vec<bool> = faces.iter().map(|&(v, _)| unique.applies(v)).collect();
        // The weight of the faces a die of each multiset is rolled again on.
        let repeats = |rolled: &[u16]| -> C {
            let mut sum = C::zero();
            for (((_, w), &n), &a) in faces.iter().zip(rolled).zip(&applies) {
                if a && n > 0 {
                    sum.add_assign(w);
                }
            }
            sum
        };
        let scale = if unique.once {
            BigUint::one()
        } else {
            walk.keys()
                .map(|rolled| total - repeats(rolled).to_big())
                .fold(BigUint::one(), |l, d| l.lcm(&d))
        };
        let total = C::from_big(total);
        let mut next: Walk<C> = HashMap::default();
        next.reserve(walk.len() * 2);
        for (rolled, weight) in walk {
            self.meter.charge(faces.len() as u64 * UNIQUE_PAIR_STEPS)?;
            let again = repeats(rolled);
            let factor = if unique.once {
                weight.clone()
            } else {
                let mut left = total.clone();
                left.sub_assign(&again);
                weight.times(&C::from_big(&(&scale / left.to_big())))
            };
            let mut first = total.clone();
            first.add_assign(&again);
            for (i, (_, w)) in faces.iter().enumerate() {
                let repeat = applies[i] && rolled[i] > 0;
                // `uo`: this face at the first roll (unless a repeat), or at a
                // repeat's second roll.
                let share = match (unique.once, repeat) {
                    (true, false) => w.times(&first),
                    (true, true) => w.times(&again),
                    (false, false) => w.clone(),
                    (false, true) => continue,
                };
                if share.is_zero() {
                    continue;
                }
                let mut grown = rolled.clone();
                grown[i] += 1;
                next.entry(grown)
                    .or_insert_with(C::zero)
                    .add_mul(&factor, &share);
            }
        }
        Ok(next)
    }

    /// The distribution of the multisets' values under the pool modifiers after
    /// `u` (`values` the faces, in order).
    fn value_of<C: Count>(
        &mut self,
        walk: &Walk<C>,
        values: &[Outcome],
        rest: &[PoolModifier],
    ) -> Result<Die, DieError> {
        let counting = pool_value(rest);
        let mut sums: HashMap<Outcome, C> = HashMap::default();
        for (rolled, weight) in walk {
            self.meter.charge(values.len() as u64)?;
            let n: u64 = rolled.iter().map(|&c| u64::from(c)).sum();
            // The ranks counted, lowest first: `low..high`.
            let (mut low, mut high) = (0u64, n);
            for modifier in rest {
                if let PoolModifier::Keep { keep, .. } = modifier {
                    let left = high - low;
                    match *keep {
                        Keep::Highest(k) => low = high - k.min(left),
                        Keep::Lowest(k) => high = low + k.min(left),
                        Keep::DropHighest(k) => high -= k.min(left),
                        Keep::DropLowest(k) => low += k.min(left),
                    }
                }
            }
            let mut value: Outcome = 0;
            let mut rank = 0u64;
            for (&v, &c) in values.iter().zip(rolled.iter()) {
                let (from, to) = (rank.max(low), (rank + u64::from(c)).min(high));
                rank += u64::from(c);
                if to <= from {
                    continue;
                }
                let each = counting.as_ref().map_or(v, |f| f(v));
                let part = each
                    .checked_mul((to - from) as Outcome)
                    .ok_or(DieError::Overflow)?;
                value = value.checked_add(part).ok_or(DieError::Overflow)?;
            }
            sums.entry(value).or_insert_with(C::zero).add_assign(weight);
        }
        Die::from_unsorted_generic(sums.into_iter().collect())
    }
}

/// The most faces a plain `u` is read as a deal for (a deck of one card each).
const DEAL_FACES: u64 = 100_000;

/// A plain `u` (no condition, not `uo`) on a literal number of dice whose faces
/// are different values, added up or counted: the dice all differ and every set
/// of faces is as likely, so they are cards dealt from a deck holding one of
/// each face, which the deal's walk computes without listing the sets
/// (`6d100u` is `deal(deck{1..100}, 6)`). `None` for anything else.
pub(crate) fn unique_deal(dice: &Dice) -> Option<Deal> {
    let unique = Unique::of(dice)?;
    if unique.once
        || unique.condition.is_some()
        || dice.pool_modifiers.iter().any(PoolModifier::selects)
    {
        return None;
    }
    let n = match dice.count.as_deref() {
        None => 1,
        Some(Expr {
            kind: ExprKind::Number(n),
            ..
        }) => u64::try_from(*n).ok()?,
        Some(_) => return None,
    };
    let faces: Vec<Outcome> = match &dice.faces {
        Faces::Standard(f) if *f <= DEAL_FACES => (1..=*f as Outcome).collect(),
        Faces::Percent => (1..=100).collect(),
        Faces::Fudge => vec![-1, 0, 1],
        Faces::Custom(listed) if listed.len() as u64 <= DEAL_FACES => {
            let mut sorted = listed.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return None;
            }
            sorted
        }
        _ => return None,
    };
    if n > faces.len() as u64 {
        return None;
    }
    let deck = Deck::new(faces.into_iter().map(|v| (v, 1))).ok()?;
    Deal::new(deck, &[n]).ok()
}

/// At most what a step of `u` scales the weights by, as bits: the least common
/// multiple of `W − t` over the weights `t` the repeats of `n` dice can have.
/// Faces weighing one each (`dN`, `dF`, most listed faces) repeat `t ≤ n − 1`
/// of them; otherwise `t` is some sum below `W`, bounded by `lcm(1..=W)` for
/// small totals and by nothing otherwise (big integers then).
fn step_bits(base: &Die, unique: Unique, n: u64) -> u64 {
    let total = base.total();
    let unit = base.iter().all(|(_, w)| w.is_one());
    let lcm_of =
        |from: u64, to: u64| (from..=to).fold(BigUint::one(), |l, d| l.lcm(&BigUint::from(d)));
    match total.to_u64() {
        Some(w) if unit => {
            let matching = base.iter().filter(|&(v, _)| unique.applies(v)).count() as u64;
            let most = matching.min(n.saturating_sub(1)).min(w - 1);
            lcm_of(w - most, w).bits()
        }
        Some(w) if w <= 4096 => lcm_of(1, w).bits(),
        _ => u64::MAX / 4,
    }
}

#[cfg(test)]
mod tests {
    use num_rational::BigRational;
    use num_traits::{One, Zero};
    use std::collections::BTreeMap;

    use crate::dice::die::Outcome;
    use crate::dice::notation::evaluate;

    type Dist = BTreeMap<Outcome, BigRational>;

    /// The dice in the order rolled, each die drawn by rolling again as the
    /// modifier says: every sequence weighed by its probability (rationals), the
    /// value of each finished sequence by `value`.
    fn by_sequences(
        faces: &[Outcome],
        n: usize,
        once: bool,
        applies: &dyn Fn(Outcome) -> bool,
        value: &dyn Fn(&mut Vec<Outcome>) -> Outcome,
    ) -> Dist {
        struct Rolling<'r> {
            faces: &'r [Outcome],
            n: usize,
            once: bool,
            applies: &'r dyn Fn(Outcome) -> bool,
            value: &'r dyn Fn(&mut Vec<Outcome>) -> Outcome,
        }
        impl Rolling<'_> {
            fn go(&self, rolled: &mut Vec<Outcome>, p: BigRational, out: &mut Dist) {
                if rolled.len() == self.n {
                    let v = (self.value)(&mut rolled.clone());
                    *out.entry(v).or_insert_with(BigRational::zero) += p;
                    return;
                }
                let f = BigRational::from_integer(self.faces.len().into());
                let repeat = |v: Outcome| (self.applies)(v) && rolled.contains(&v);
                // The chance of each final face of this die.
                let mut chance: BTreeMap<Outcome, BigRational> = BTreeMap::new();
                for &first in self.faces {
                    if !repeat(first) {
                        *chance.entry(first).or_insert_with(BigRational::zero) += f.recip();
                    } else if self.once {
                        for &second in self.faces {
                            *chance.entry(second).or_insert_with(BigRational::zero) +=
                                (&f * &f).recip();
                        }
                    } else {
                        // Rolled again until it is not a repeat: the faces left, alike.
                        let left: Vec<Outcome> =
                            self.faces.iter().copied().filter(|&v| !repeat(v)).collect();
                        let k = BigRational::from_integer(left.len().into());
                        for v in left {
                            *chance.entry(v).or_insert_with(BigRational::zero) += f.recip() / &k;
                        }
                    }
                }
                for (v, c) in chance {
                    rolled.push(v);
                    self.go(rolled, &p * c, out);
                    rolled.pop();
                }
            }
        }
        let mut out = Dist::new();
        let rolling = Rolling {
            faces,
            n,
            once,
            applies,
            value,
        };
        rolling.go(&mut Vec::new(), BigRational::one(), &mut out);
        out
    }

    fn exact(text: &str) -> Dist {
        let die = evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        die.iter().map(|(o, _)| (o, die.probability(o))).collect()
    }

    #[test]
    fn unique_dice_agree_with_every_sequence_rolled() {
        let sum = |v: &mut Vec<Outcome>| v.iter().sum::<Outcome>();
        let kh2 = |v: &mut Vec<Outcome>| {
            v.sort_unstable();
            v.iter().rev().take(2).sum::<Outcome>()
        };
        let dl1 = |v: &mut Vec<Outcome>| {
            v.sort_unstable();
            v.iter().skip(1).sum::<Outcome>()
        };
        let hits = |v: &mut Vec<Outcome>| v.iter().filter(|&&x| x >= 4).count() as Outcome;
        let d4: Vec<Outcome> = (1..=4).collect();
        let d5: Vec<Outcome> = (1..=5).collect();
        let custom: Vec<Outcome> = vec![1, 1, 2, 3];
        let all = |_: Outcome| true;
        let five = |v: Outcome| v == 5;
        let low = |v: Outcome| v <= 2;
        let cases: Vec<(&str, Dist)> = vec![
            ("3d4u", by_sequences(&d4, 3, false, &all, &sum)),
            ("4d4u", by_sequences(&d4, 4, false, &all, &sum)),
            ("4d4uo", by_sequences(&d4, 4, true, &all, &sum)),
            ("5d4uo", by_sequences(&d4, 5, true, &all, &sum)),
            ("4d5ukh2", by_sequences(&d5, 4, false, &all, &kh2)),
            ("4d5uokh2", by_sequences(&d5, 4, true, &all, &kh2)),
            ("4d5u=5", by_sequences(&d5, 4, false, &five, &sum)),
            ("4d5uo<=2dl1", by_sequences(&d5, 4, true, &low, &dl1)),
            ("5d5u<=2cs>=4", by_sequences(&d5, 5, false, &low, &hits)),
            ("3d{1,1,2,3}u", by_sequences(&custom, 3, false, &all, &sum)),
            ("3d{1,1,2,3}uo", by_sequences(&custom, 3, true, &all, &sum)),
        ];
        for (text, expected) in cases {
            assert_eq!(exact(text), expected, "{text}");
        }
    }

    #[test]
    fn unique_dice_refuse_what_cannot_differ_and_read_the_rest() {
        let message = |text: &str| evaluate(text).unwrap_err().to_string();
        assert!(message("4d3u").contains("4 dice cannot all differ on 3 faces"));
        assert!(message("3d{1,1,2}u").contains("3 dice cannot all differ on 2 faces"));
        assert!(message("4d6kh3u").contains("write it right after the faces"));
        assert!(message("4d6uu").contains("a second `u`"));
        assert!(message("4d6!u").contains("per-die modifiers"));
        assert!(message("4d6ukh(d3)").contains("rolled keep count"));
        // Repeats of one face only, or `uo`: any number of dice.
        assert!(evaluate("10d3u=3").is_ok());
        assert!(evaluate("10d3uo").is_ok());
        // A plain `u` is a deal from one card of each face; with a condition
        // every face meets, the walk over multisets gives the same.
        assert_eq!(exact("4d6u"), exact("deal(deck{1..6}, 4)"));
        assert_eq!(exact("4d6u<=6"), exact("4d6u"));
        assert_eq!(exact("5d8u>=1cs>=5"), exact("5d8ucs>=5"));
        assert_eq!(exact("4d{2,4,6,8,10}u"), exact("deal(deck{2,4,6,8,10}, 4)"));
        let mixed = exact("(d3)d4u");
        let parts: Vec<Dist> = (1..=3).map(|n| exact(&format!("{n}d4u"))).collect();
        let third = BigRational::new(1.into(), 3.into());
        let mut expected = Dist::new();
        for part in parts {
            for (o, p) in part {
                *expected.entry(o).or_insert_with(BigRational::zero) += p * &third;
            }
        }
        assert_eq!(mixed, expected);
    }
}
