//! The price of pools: dice terms, groups, repetitions, and explosions whose extra
//! rolls are dice (a mixture of pools, one per make-up).

use std::borrow::Cow;

use super::{Estimator, Shape, limbs, log2, power};
use crate::dice::arithmetic::UNIFORM_STEP_CHARGE;
use crate::dice::die::Outcome;
use crate::dice::evaluator::{self, Pattern};
use crate::dice::notation::ast::{
    Condition, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces, Group, Keep,
    PoolModifier, PoolPart, Repeat,
};
use crate::dice::notation::eval::pools::TRIM_STEPS;
use crate::dice::notation::eval::{UNIQUE_PAIR_STEPS, any_matches, unique_deal};

/// One die of a term after its per-die modifiers.
enum PerDie {
    Single(Shape),
    /// Extra rolls are dice.
    Exploding(Explosion),
}

/// A die whose extra rolls are dice: one roll, and how the chain may grow.
#[derive(Clone, Copy)]
struct Explosion {
    roll: Shape,
    kind: ExplodeKind,
    limit: ExplodeLimit,
    /// Only the top face explodes.
    top: bool,
    /// One roll that explodes, and one that does not: the faces of each.
    exploding: Shape,
    last: Shape,
}

impl Explosion {
    /// `n` such dice as a member of a pool: `rolls` rolls at most, `makeups` of
    /// them listed at `listing`, a typical one holding `typical` dice first rolled.
    fn member(
        &self,
        n: f64,
        rolls: f64,
        makeups: f64,
        typical: f64,
        depth: f64,
        listing: f64,
    ) -> Member {
        let (_, last_rolls, extra) = chain_makeups(typical, depth, self.kind, self.limit, self.top);
        Member {
            shape: self.roll,
            count: rolls,
            makeups,
            typical: last_rolls,
            extra,
            exploding: self.exploding,
            last: self.last,
            dice: n,
            // Rolls that explode or not, first or extra (penetrating).
            groups: if self.kind.extra_offset() == 0 {
                2.0
            } else {
                4.0
            },
            top: self.top,
            listing,
        }
    }
}

/// One kind of die a group pools, and the make-ups its count and explosions roll.
#[derive(Clone, Copy)]
struct Member {
    shape: Shape,
    /// The most dice of the kind.
    count: f64,
    /// How many make-ups the evaluation lists for it (1: a fixed count).
    makeups: f64,
    /// The dice of a typical make-up (an exploding term's: its last rolls, the
    /// ones that did not explode, and one more when they all show the top face).
    typical: f64,
    /// A typical make-up's rolls that exploded and vary (faces other than the
    /// top one explode), and the shapes of a roll that explodes and one that
    /// does not.
    extra: f64,
    exploding: Shape,
    last: Shape,
    /// The dice rolled first (before any explosion), at most.
    dice: f64,
    /// The groups of identical dice a make-up holds at most.
    groups: f64,
    /// What listing its make-ups costs.
    listing: f64,
    /// Whether its dice explode on their top face alone (the rolls that explode
    /// are one value).
    top: bool,
}

impl Member {
    fn one(shape: Shape) -> Member {
        Member {
            shape,
            count: 1.0,
            makeups: 1.0,
            typical: 1.0,
            extra: 0.0,
            exploding: shape,
            last: shape,
            dice: 1.0,
            groups: 1.0,
            top: false,
            listing: 0.0,
        }
    }

    /// Whether its extra rolls vary and all lie beyond its last rolls on the side
    /// kept (`d10!>=9` keeping the high dice, `d6!<=2` the low ones): keeping or
    /// dropping dice from that side reaches the last rolls only past them.
    fn beyond(&self, high: bool) -> bool {
        self.extra > 0.0
            && if high {
                self.exploding.low > self.last.high
            } else {
                self.exploding.high < self.last.low
            }
    }

    /// The pool a typical make-up holds: its last rolls (the faces that do not
    /// explode, when some others do) and the extra rolls that vary.
    fn typical_pool(&self) -> Vec<(Shape, f64)> {
        if self.extra > 0.0 {
            vec![(self.last, self.typical), (self.exploding, self.extra)]
        } else {
            vec![(self.shape, self.typical)]
        }
    }
}

/// The make-ups of `n` dice whose extra rolls are dice (up to `depth` a die, or the
/// term's cap), and the dice of a typical one: its last rolls, and the extra rolls
/// that vary. A chain is one roll that does not explode, or explodes `1..=depth`
/// times; penetrating keeps first and extra rolls apart, so its make-ups also count
/// how many dice exploded at all. When only the top face explodes, every exploding
/// roll shows it: a make-up is its `n` last rolls and one value repeated, however
/// many times the dice exploded; otherwise its extra rolls number up to `n·depth`.
fn chain_makeups(
    n: f64,
    depth: f64,
    kind: ExplodeKind,
    limit: ExplodeLimit,
    top: bool,
) -> (f64, f64, f64) {
    if let ExplodeLimit::PerTerm(cap) = limit {
        let cap = cap as f64;
        return ((n + cap + 1.0) * (cap + 1.0), n + cap / 2.0, 0.0);
    }
    let lists = if kind.extra_offset() == 0 {
        depth * n * (n + 1.0) / 2.0 + n + 1.0
    } else {
        // Σ over the dice that exploded, b = 0..=n, of (depth − 1)·b(b+1)/2 + b + 1.
        let (s1, s2) = (n * (n + 1.0) / 2.0, n * (n + 1.0) * (2.0 * n + 1.0) / 6.0);
        (depth - 1.0).max(0.0) * (s2 + s1) / 2.0 + s1 + n + 1.0
    };
    if top {
        (lists, n + 1.0, 0.0)
    } else {
        (lists, n, n * depth / 2.0)
    }
}

/// How many dice a pool's make-ups are trimmed to keep or set apart by, and
/// whether the dice kept are the high ones: the first keep's count when it keeps
/// the highest or lowest, a lone drop's count; `None` when its selections leave
/// every make-up whole.
fn trimmed_by(modifiers: &[PoolModifier]) -> Option<Trim> {
    let mut selections = modifiers.iter().filter_map(|m| match m {
        PoolModifier::Keep { keep, .. } => Some(*keep),
        _ => None,
    });
    let first = selections.next()?;
    let lone = selections.next().is_none();
    let (k, high, apart) = match first {
        Keep::Highest(k) => (k, true, false),
        Keep::Lowest(k) => (k, false, false),
        Keep::DropHighest(d) if lone => (d, true, true),
        Keep::DropLowest(d) if lone => (d, false, true),
        _ => return None,
    };
    Some(Trim {
        k: k as f64,
        high,
        apart,
    })
}

/// How a mixture's make-ups are trimmed (see [`trimmed_by`]).
#[derive(Clone, Copy)]
struct Trim {
    /// The dice kept (or dropped) that decide what is trimmed.
    k: f64,
    /// Whether the high dice are kept.
    high: bool,
    /// Whether the dice no roll drops are set apart and added (a lone drop),
    /// rather than the dice no roll keeps dropped.
    apart: bool,
}

/// A mixture of make-ups whose selections neither trim them nor set dice apart
/// (`dh1dl1`): every make-up of the product evaluated whole, as a pool of
/// typical size, and its result added to the mixture.
fn whole_makeups(modifiers: &[PoolModifier], members: &[Member]) -> f64 {
    let makeups: f64 = members.iter().map(|m| m.makeups).product();
    // Its kinds as they are (last and extra rolls apart), or, when some explosion's
    // extra rolls vary, each member's rolls as one kind of all its faces.
    let kinds: Vec<(Shape, f64)> = members.iter().flat_map(Member::typical_pool).collect();
    let mut each = mixed_pool(modifiers, &kinds);
    if members.iter().any(|m| m.extra > 0.0) {
        let merged: Vec<(Shape, f64)> = members
            .iter()
            .map(|m| (m.shape, m.typical + m.extra))
            .collect();
        each = cheaper(each, mixed_pool(modifiers, &merged));
    }
    // A penetrating chain's extra rolls are one lower, kinds of their own: a
    // make-up holds twice the kinds, each split of the ranks among them a branch.
    let apart: f64 = members.iter().map(|m| m.groups / 2.0).product();
    makeups * (each.steps * apart + each.support * limbs(each.bits))
}

/// Of two prices of one pool (its kinds apart, or some of them counted as one
/// kind of all their faces), the cheaper: the mixed-pool model prices kinds that
/// overlap by every split of the ranks among them, so both bound the pool.
fn cheaper(a: Shape, b: Shape) -> Shape {
    if a.steps <= b.steps { a } else { b }
}

/// A mixture of make-ups whose selections trim them (see [`trimmed_by`]): each
/// make-up of each member trimmed once, the product of what is left visited and
/// trimmed again, and each pool left evaluated. Explosions on the top face keeping
/// the high dice leave about `k + 1` make-ups of `k` dice (the sure top faces);
/// keeping the low ones, one per count of the other faces, `n + 1`; other
/// explosions about one per count of matching rolls more. Dice set apart are
/// added up make-up by make-up, and their sums added to every pool left.
fn trimmed_mixture(modifiers: &[PoolModifier], members: &[Member], trim: Trim) -> f64 {
    let Trim { k, high, apart } = trim;
    let bits: f64 = members.iter().map(|m| m.count * m.shape.bits).sum();
    let words = limbs(bits);
    // The sums set apart: every roll of a member, at most; dropping the low dice of
    // explosions on the top face, only the top faces are set apart (one sum per
    // count of them); dropping the high dice of explosions on other faces, only
    // the last rolls (every extra roll is above them).
    let added = |m: &Member| match (apart, high, m.top) {
        (false, _, _) => 1.0,
        (true, false, true) => m.count + 1.0,
        (true, true, false) if m.beyond(true) => m.dice * (m.last.high - m.last.low) + 1.0,
        (true, _, _) => m.count * (m.shape.high - m.shape.low) + 1.0,
    };
    let listed: f64 = members
        .iter()
        .filter(|m| m.makeups > 1.0)
        .map(|m| m.makeups * (m.groups * TRIM_STEPS as f64 + 2.0 * added(m) * words))
        .sum();
    let left = |m: &Member| -> (f64, f64) {
        match (high, m.top) {
            (true, true) => (k + 2.0, k),
            // Extra rolls on faces above the last rolls (`d6!>=5` keeping the low
            // dice): a make-up with `k` last rolls or more trims to them, one per
            // count; one with fewer (chains that ran to the cap) keeps every extra
            // roll, one make-up per count of them (`o·depth + 1` for `o` last rolls).
            (false, false) if m.extra > 0.0 && m.exploding.low > m.last.high => {
                let depth = (m.count / m.dice.max(1.0) - 1.0).max(0.0);
                let few = k.min(m.dice + 1.0);
                let whole = depth * few * (few - 1.0) / 2.0 + few;
                ((m.dice - few + 2.0).max(1.0) + whole, k + m.dice)
            }
            (false, _) => (m.dice + 2.0, k + m.dice),
            (true, false) => (m.count + (k + 1.0) * (m.dice + 1.0), k + m.count),
        }
    };
    let visits: f64 = members.iter().map(|m| m.makeups.min(left(m).0)).product();
    let groups: f64 = members.iter().map(|m| m.groups).sum();
    let pools: Vec<(Shape, f64)> = members
        .iter()
        .map(|m| (m.shape, m.count.min(left(m).1)))
        .collect();
    let mut each = mixed_pool(modifiers, &pools);
    // Keeping (or dropping) dice on the side where an explosion's extra rolls lie
    // beyond its last rolls, what is left is the extra rolls, of the exploding faces
    // only, and at most `k` last rolls: priced so too, the cheaper bounding the pool.
    if members.iter().any(|m| m.beyond(high)) {
        let split: Vec<(Shape, f64)> = members
            .iter()
            .zip(&pools)
            .flat_map(|(m, &pool)| {
                if m.beyond(high) {
                    vec![(m.exploding, m.count), (m.last, k)]
                } else {
                    vec![pool]
                }
            })
            .collect();
        each = cheaper(each, mixed_pool(modifiers, &split));
    }
    // Each visit adds every member's sums to the pool's: convolutions.
    let mut support = each.support;
    let mut adding = 0.0;
    for m in members {
        adding += support * added(m);
        support += added(m);
    }
    listed + visits * (groups * TRIM_STEPS as f64 + each.steps + (each.support + adding) * words)
}

impl<'a> Estimator<'a> {
    pub(super) fn dice(&mut self, dice: &'a Dice) -> Shape {
        let (faces, rolled_sides) = match &dice.faces {
            Faces::Rolled(sides) => {
                let s = self.shape(sides);
                (
                    bare_faces(&Faces::Standard(s.high.max(1.0) as u64)),
                    Some(s),
                )
            }
            faces => (bare_faces(faces), None),
        };
        let per_die = self.per_die(dice, faces);
        let (count, k) = match dice.count.as_deref() {
            None => (1.0, None),
            Some(Expr {
                kind: ExprKind::Number(n),
                ..
            }) => ((*n).max(0) as f64, None),
            Some(count) => {
                let k = self.shape(count);
                (k.high.max(0.0), Some(k))
            }
        };
        if let Some(deal) = unique_deal(dice) {
            return self.deal(&deal, &[(0, Pattern::Sum)]);
        }
        let (modifiers, keeps) = self.keep_counts(&dice.pool_modifiers);
        let selects = dice.pool_modifiers.iter().any(PoolModifier::selects);
        let unique = match dice.pool_modifiers.first() {
            Some(PoolModifier::Unique {
                once, condition, ..
            }) => Some((*once, condition.is_some())),
            _ => None,
        };
        let largest = match (&per_die, unique) {
            (PerDie::Single(die), Some((once, conditional))) => {
                unique_shape(&modifiers[1..], *die, count, once, conditional)
            }
            (PerDie::Single(die), None) if equal_weights(dice) => {
                sized_pool(&modifiers, *die, count, Weights::Equal)
            }
            (PerDie::Single(die), None) => pool_shape(&modifiers, *die, count),
            (PerDie::Exploding(explosion), _) => {
                if selects || matches!(explosion.limit, ExplodeLimit::PerTerm(_)) {
                    self.exploding_pool(&modifiers, explosion, count)
                } else {
                    let chain = self.chain(explosion.roll, explosion.limit);
                    pool_shape(&modifiers, chain, count)
                }
            }
        };
        let mut term = match k {
            None => largest,
            Some(k) => {
                // One pool per possible count (a plain sum extends the previous one, so
                // all of them cost about two of the largest; a pool with modifiers is
                // built afresh each time), each folded into the mixture with counts of
                // the combined size.
                let pools = if selects {
                    largest.steps * k.support
                } else {
                    largest.steps * k.support.min(2.0)
                };
                let bits = largest.bits + k.bits;
                let mut mixed = Shape {
                    low: largest.low.min(0.0),
                    high: largest.high.max(0.0),
                    bits,
                    steps: k.steps
                        + pools
                        + largest.support * k.support * (limbs(bits) + MIXTURE_PAIR_OVERHEAD),
                    ..largest
                };
                mixed.peak = mixed.peak.max(k.peak);
                mixed
            }
        };
        keeps.apply(&mut term);
        match rolled_sides {
            None => term,
            Some(s) => mixed_over(s, term),
        }
    }

    #[cold]
    pub(super) fn group(&mut self, group: &'a Group) -> Shape {
        let members: Vec<Member> = match group.members.as_slice() {
            [only] => self.pooled(only),
            members => self.members(members),
        };
        let (modifiers, keeps) = self.keep_counts(&group.pool_modifiers);
        let dice: Vec<(Shape, f64)> = members.iter().map(|m| (m.shape, m.count)).collect();
        let mut shape = mixed_pool(&modifiers, &dice);
        // A pool rolled from several make-ups (rolled counts, explosions as dice):
        // when its first keep trims them or a lone drop sets dice apart, each
        // factor's make-ups shrink to a few; other selections evaluate every
        // make-up of the product as a pool of typical size; counted without
        // selecting, each factor's make-ups are evaluated and mixed apart, and the
        // factors' sums added.
        let makeups: f64 = members.iter().map(|m| m.makeups).product();
        if makeups > 1.0 {
            match trimmed_by(&modifiers) {
                Some(k) => {
                    let own: f64 = members.iter().map(|m| m.shape.steps).sum();
                    shape.steps = own + trimmed_mixture(&modifiers, &members, k);
                }
                None if modifiers.iter().any(PoolModifier::selects) => {
                    shape.steps = shape.steps.max(whole_makeups(&modifiers, &members));
                }
                None => {
                    shape.steps += members
                        .iter()
                        .filter(|m| m.makeups > 1.0)
                        .map(|m| whole_makeups(&modifiers, std::slice::from_ref(m)))
                        .sum::<f64>();
                }
            }
        }
        shape.steps += members.iter().map(|m| m.listing).sum::<f64>();
        keeps.apply(&mut shape);
        shape
    }

    #[cold]
    pub(super) fn repeat(&mut self, repeat: &'a Repeat) -> Shape {
        let k = self.shape(&repeat.count);
        let body = self.shape(&repeat.body);
        let (modifiers, keeps) = self.keep_counts(&repeat.pool_modifiers);
        let mut pool = pool_shape(&modifiers, body, k.high.max(0.0));
        pool.steps = pool.steps * k.support + k.steps;
        pool.peak = pool.peak.max(k.peak);
        keeps.apply(&mut pool);
        pool
    }

    /// What a lone group member pools: its dice terms' dice and its repetitions'
    /// rolls (joined by `+`), or itself as one value.
    #[cold]
    fn pooled(&mut self, expr: &'a Expr) -> Vec<Member> {
        match expr.pool_part() {
            PoolPart::Sum { left, right, .. } => {
                let mut all = self.pooled(left);
                all.extend(self.pooled(right));
                all
            }
            PoolPart::Dice(dice) => {
                let (count, mut makeups, typical) = match dice.count.as_deref() {
                    None => (1.0, 1.0, 1.0),
                    Some(count) => {
                        let k = self.shape(count);
                        let high = k.high.max(0.0);
                        (high, k.support, (k.low.max(0.0) + high) / 2.0)
                    }
                };
                let faces = match &dice.faces {
                    Faces::Rolled(sides) => {
                        let s = self.shape(sides);
                        makeups *= s.support;
                        bare_faces(&Faces::Standard(s.high.max(1.0) as u64))
                    }
                    faces => bare_faces(faces),
                };
                match self.per_die(dice, faces) {
                    PerDie::Single(die) => vec![Member {
                        shape: die,
                        count,
                        makeups,
                        typical,
                        extra: 0.0,
                        exploding: die,
                        last: die,
                        dice: count,
                        groups: 1.0,
                        top: false,
                        listing: 0.0,
                    }],
                    PerDie::Exploding(explosion) => {
                        let Explosion {
                            roll,
                            kind,
                            limit,
                            top,
                            ..
                        } = explosion;
                        let depth = self.depth(limit);
                        let lists = chain_makeups(count, depth, kind, limit, top).0;
                        // Its make-ups are listed by squaring one die's (see
                        // `exploding_pool`).
                        let bits = roll.bits * count * (depth + 1.0);
                        let listing = lists * lists / 16.0 * limbs(bits);
                        let rolls = count * (depth + 1.0);
                        vec![explosion.member(
                            count,
                            rolls,
                            makeups * lists,
                            typical,
                            depth,
                            listing,
                        )]
                    }
                }
            }
            PoolPart::Repeat(repeat) => {
                let k = self.shape(&repeat.count);
                let high = k.high.max(0.0);
                let body = self.shape(&repeat.body);
                vec![Member {
                    shape: body,
                    count: high,
                    makeups: k.support,
                    typical: (k.low.max(0.0) + high) / 2.0,
                    extra: 0.0,
                    exploding: body,
                    last: body,
                    dice: high,
                    groups: 1.0,
                    top: false,
                    listing: 0.0,
                }]
            }
            PoolPart::Members(members) => self.members(members),
            PoolPart::Value(value) => vec![Member::one(self.shape(value))],
        }
    }

    /// The members of a group, each one value of its pool.
    fn members(&mut self, members: &'a [Expr]) -> Vec<Member> {
        members.iter().map(|m| Member::one(self.shape(m))).collect()
    }

    /// The modifiers with rolled keep counts read at their largest, and how many
    /// times the pool is evaluated (once per combination of rolled counts), with
    /// what computing the counts themselves costs.
    fn keep_counts(
        &mut self,
        modifiers: &'a [PoolModifier],
    ) -> (Cow<'a, [PoolModifier]>, RolledKeeps) {
        let mut keeps = RolledKeeps {
            times: 1.0,
            steps: 0.0,
            peak: 0.0,
        };
        if !modifiers
            .iter()
            .any(|m| matches!(m, PoolModifier::KeepRolled { .. }))
        {
            return (Cow::Borrowed(modifiers), keeps);
        }
        let read = modifiers
            .iter()
            .map(|m| match m {
                PoolModifier::KeepRolled { kind, count, span } => {
                    let k = self.shape(count);
                    // The pool is priced at the largest count; a walk's work grows
                    // about as the cube of the ranks it consumes, so the counts
                    // below it cost that cube's mean over the counts' range.
                    let (low, high) = (k.low.max(0.0), k.high.max(1.0));
                    let cubes = if high > low {
                        (power(high, 4) - power(low, 4)) / (4.0 * (high - low) * power(high, 3))
                    } else {
                        1.0
                    };
                    keeps.times *= k.support * cubes.clamp(0.25, 1.0);
                    keeps.steps += k.steps;
                    keeps.peak = keeps.peak.max(k.peak);
                    PoolModifier::Keep {
                        keep: Keep::new(*kind, k.high.max(0.0) as u64),
                        span: span.clone(),
                    }
                }
                m => m.clone(),
            })
            .collect();
        (Cow::Owned(read), keeps)
    }

    fn depth(&self, limit: ExplodeLimit) -> f64 {
        match limit {
            ExplodeLimit::Once => 1.0,
            ExplodeLimit::Depth => f64::from(self.options.explode_depth),
            ExplodeLimit::PerTerm(cap) => cap as f64,
        }
    }

    /// One die after its per-die modifiers, in order.
    fn per_die(&mut self, dice: &Dice, faces: Shape) -> PerDie {
        let mut s = faces;
        for (i, modifier) in dice.die_modifiers.iter().enumerate() {
            match modifier {
                DieModifier::Explode {
                    kind,
                    limit,
                    conditions,
                    ..
                } if !kind.compounds() => {
                    let (mut exploding, mut last) = exploding_faces(&dice.faces, conditions, s);
                    let mut top = exploding.support <= 1.0 && exploding.low >= s.high;
                    // Rerolls after the explosion weigh every roll over the
                    // product of their redraws' totals (a reroll once squares
                    // the die's total for the next), and may turn any roll into
                    // any face.
                    let (mut weight_bits, mut shaped_bits) = (0.0, s.bits);
                    let mut rerolls_exploding = false;
                    let values = [exploding.low, exploding.high, exploding.high - 1.0];
                    for after in &dice.die_modifiers[i + 1..] {
                        let (DieModifier::Reroll { conditions, .. }
                        | DieModifier::RerollOnce { conditions, .. }) = after
                        else {
                            continue;
                        };
                        weight_bits += shaped_bits;
                        if matches!(after, DieModifier::RerollOnce { .. }) {
                            shaped_bits *= 2.0;
                        }
                        rerolls_exploding |= !top
                            || values
                                .iter()
                                .any(|&v| any_matches(conditions, v as Outcome));
                    }
                    let mut roll = s;
                    if weight_bits > 0.0 {
                        roll.bits += weight_bits;
                        last = last.widened(s);
                        if rerolls_exploding {
                            exploding = exploding.widened(s);
                            top = false;
                        }
                    }
                    return PerDie::Exploding(Explosion {
                        roll,
                        kind: *kind,
                        limit: *limit,
                        top,
                        exploding,
                        last,
                    });
                }
                DieModifier::Explode { limit, .. } => s = self.chain(s, *limit),
                DieModifier::Reroll { .. } | DieModifier::Minimum { .. } => {
                    s.steps += s.support;
                }
                DieModifier::Maximum { .. } => s.steps += s.support,
                DieModifier::RerollOnce { .. } => {
                    s.bits *= 2.0;
                    s.steps += s.support * limbs(s.bits);
                }
            }
        }
        PerDie::Single(s)
    }

    /// The value of one chain of rolls: up to `depth` extra rolls added up.
    #[cold]
    fn chain(&self, roll: Shape, limit: ExplodeLimit) -> Shape {
        let depth = self
            .depth(limit)
            .min(f64::from(self.options.explode_depth).max(1.0));
        let faces = roll.support;
        let mut s = roll;
        s.high += s.high.max(0.0) * depth;
        s.low = s.low.min(s.low * (depth + 1.0));
        s.bits *= depth + 1.0;
        s.steps += depth * faces * faces * (depth + 1.0) * limbs(s.bits);
        s.with_support(faces * (depth + 1.0))
    }

    /// `count` exploding dice whose extra rolls are dice: one pool per make-up.
    #[cold]
    fn exploding_pool(
        &self,
        modifiers: &[PoolModifier],
        explosion: &Explosion,
        count: f64,
    ) -> Shape {
        let Explosion {
            roll,
            kind,
            limit,
            top,
            ..
        } = *explosion;
        let (dice, shapes) = match limit {
            ExplodeLimit::PerTerm(cap) => {
                let cap = cap as f64;
                (count + cap, (count + cap + 1.0) * (count + cap + 1.0))
            }
            _ => {
                let depth = self.depth(limit);
                let mut shapes = (count + 1.0) * (count * depth + 1.0);
                if kind.extra_offset() != 0 {
                    shapes *= count + 1.0;
                }
                (count * (depth + 1.0), shapes)
            }
        };
        let per_pool = pool_shape(modifiers, roll, dice);
        let bits = per_pool.bits + log2(shapes.max(2.0));
        // The make-ups come from squaring one die's: the last products pair the
        // make-ups of half the dice, about a quarter of the whole list each.
        let depth = self.depth(limit);
        let makeups = chain_makeups(count, depth, kind, limit, top).0;
        let listed = match limit {
            ExplodeLimit::PerTerm(_) => shapes,
            _ => makeups,
        };
        let power = (listed * listed / 16.0).max(shapes * shapes.sqrt()) * limbs(bits);
        let member = explosion.member(count, dice, makeups, count, depth, 0.0);
        let pools = match trimmed_by(modifiers) {
            Some(k) => trimmed_mixture(modifiers, &[member], k),
            None => whole_makeups(modifiers, &[member]),
        };
        Shape {
            bits,
            steps: roll.steps + power + pools,
            ..per_pool
        }
    }
}

impl<'a> Estimator<'a> {
    /// `largest_set(P)`, `sets(P, k)`, `longest_straight(P)`, `count(P, …)`, and
    /// several of them of one roll (`[p = P] …`, `patterns` walked together): the
    /// pool engine walks the faces with the dice still unassigned (`n + 1`
    /// buckets of up to `n + 1` branches) and the patterns' states, the product of
    /// each one's: a count up to `m = min(n, faces) + 1` (a count of listed faces,
    /// `n + 1`), a straight's run and best (`m(m+1)/2`), a sum's values; several
    /// kinds of dice multiply their buckets and branches. Each pair costs its
    /// count's words (more when they are many) plus [`PAIR_OVERHEAD`], like a
    /// keep's. The shape is the last pattern's; its support, the joint outcomes.
    pub(super) fn pattern(&mut self, patterns: &[Pattern], pool: &'a Expr) -> Shape {
        let mut kinds = Vec::new();
        let (bits, steps) = self.pattern_pool(pool, &mut kinds);
        let dice: f64 = kinds.iter().map(|k| k.0).sum();
        let faces = kinds.iter().map(|k| k.1).fold(1.0, f64::max);
        let m = dice.min(faces) + 1.0;
        let mut states = 1.0;
        // The states held at once: a largest set so far may hold every die, so
        // its table holds up to `dice + 1` sizes (`m` prices the walk's steps:
        // most sizes are out of reach until late).
        let mut held = 1.0;
        let mut joint = 1.0;
        let mut high = 0.0;
        let with_height = patterns.contains(&Pattern::Height);
        for pattern in patterns {
            let (walked, kept) = match pattern {
                // A run no longer than the best so far.
                Pattern::LongestStraight => (m * (m + 1.0) / 2.0, m * (m + 1.0) / 2.0),
                // A height's state holds the largest set's size already.
                Pattern::LargestSet if with_height => (1.0, 1.0),
                Pattern::LargestSet => (m, dice + 1.0),
                Pattern::Sets(_) => (m, m),
                // The largest set's size and its face.
                Pattern::Height => (m * faces, (dice + 1.0) * faces),
                Pattern::Count(_) => (dice + 1.0, dice + 1.0),
                Pattern::Sum => {
                    let sums = (dice * (faces - 1.0) + 1.0).max(1.0);
                    (sums, sums)
                }
            };
            states *= walked;
            held *= kept;
            high = pattern.most(dice as u64, faces as u64) as f64;
            joint *= high + 1.0;
        }
        // Each kind of dice splits its unassigned dice apart: the buckets and
        // branches of several kinds multiply.
        let splits: f64 = kinds
            .iter()
            .map(|&(n, _)| (n + 1.0) * (n + 2.0) / 2.0)
            .product();
        let pairs = faces * splits * states;
        // A state's weight and a branch's binomial are both wide in a big pool
        // (`largest_set(200d6)`: counts of 10 words ran at 9 ns a step charged
        // their words alone).
        let words = limbs(bits);
        Shape {
            low: 0.0,
            high,
            support: joint,
            bits,
            steps: steps + pairs * (words * (1.0 + words / 8.0) + PAIR_OVERHEAD),
            peak: held * (dice + 1.0),
        }
        .with_support(joint)
    }

    /// The kinds of dice a pattern reads in `expr` (how many dice, the faces each
    /// may show) pushed onto `kinds`; the bits of their total and what making them
    /// costs, as the evaluation pools them.
    fn pattern_pool(&mut self, expr: &'a Expr, kinds: &mut Vec<(f64, f64)>) -> (f64, f64) {
        match expr.pool_part() {
            PoolPart::Sum { left, right, .. } => {
                let (ba, sa) = self.pattern_pool(left, kinds);
                let (bb, sb) = self.pattern_pool(right, kinds);
                (ba + bb, sa + sb)
            }
            PoolPart::Dice(dice) => {
                let term = self.dice(dice);
                let count = match dice.count.as_deref() {
                    None => 1.0,
                    Some(count) => self.shape(count).high.max(0.0),
                };
                let faces = match &dice.faces {
                    Faces::Rolled(sides) => self.shape(sides).high.max(1.0),
                    faces => bare_faces(faces).support,
                };
                // An explosion's extra rolls add to a die's faces.
                let depth = if dice.die_modifiers.is_empty() {
                    1.0
                } else {
                    f64::from(self.options.explode_depth) + 1.0
                };
                kinds.push((count, faces * depth));
                (term.bits, term.steps)
            }
            PoolPart::Repeat(repeat) => {
                let count = self.shape(&repeat.count).high.max(0.0);
                let body = self.shape(&repeat.body);
                kinds.push((count, body.support));
                (body.bits * count, body.steps * count)
            }
            PoolPart::Members(members) => members.iter().fold((0.0, 0.0), |acc, m| {
                let s = self.shape(m);
                kinds.push((1.0, s.support));
                (acc.0 + s.bits, acc.1 + s.steps)
            }),
            PoolPart::Value(value) => {
                let s = self.shape(value);
                kinds.push((1.0, s.support));
                (s.bits, s.steps)
            }
        }
    }
}

/// The bare die of written faces.
fn bare_faces(faces: &Faces) -> Shape {
    let (low, high, support) = match faces {
        Faces::Standard(n) => (1.0, *n as f64, *n as f64),
        Faces::Percent => (1.0, 100.0, 100.0),
        Faces::Fudge => (-1.0, 1.0, 3.0),
        Faces::Custom(faces) => {
            let low = faces.iter().copied().min().unwrap_or(0) as f64;
            let high = faces.iter().copied().max().unwrap_or(0) as f64;
            (low, high, faces.len() as f64)
        }
        Faces::Rolled(_) => (1.0, 1.0, 1.0),
    };
    Shape {
        low,
        high,
        support,
        bits: log2(support.max(2.0)),
        steps: support,
        peak: support,
    }
}

/// The faces of a roll that explode and those that do not: the top face alone, or
/// the written faces the conditions match (all of `roll` either way when the faces
/// cannot be listed).
fn exploding_faces(faces: &Faces, conditions: &[Condition], roll: Shape) -> (Shape, Shape) {
    let listed: Vec<Outcome> = match faces.listed() {
        Some(listed) => listed,
        None if conditions.is_empty() => {
            let top = Shape {
                low: roll.high,
                ..roll
            }
            .with_support(1.0);
            return (top, roll);
        }
        _ => return (roll, roll),
    };
    let top = listed.iter().copied().max();
    let (mut matching, mut other): (Vec<Outcome>, Vec<Outcome>) =
        listed.into_iter().partition(|&face| {
            if conditions.is_empty() {
                Some(face) == top
            } else {
                any_matches(conditions, face)
            }
        });
    let shape = |faces: &mut Vec<Outcome>| {
        faces.sort_unstable();
        faces.dedup();
        let (&low, &high) = (faces.first()?, faces.last()?);
        let support = faces.len() as f64;
        Some(Shape {
            low: low as f64,
            high: high as f64,
            support,
            bits: log2(support.max(2.0)),
            steps: support,
            peak: support,
        })
    };
    (
        shape(&mut matching).unwrap_or(roll),
        shape(&mut other).unwrap_or(roll),
    )
}

/// A term evaluated once per outcome of `s` (its rolled sides), mixed.
#[cold]
fn mixed_over(s: Shape, term: Shape) -> Shape {
    let bits = term.bits + s.bits;
    Shape {
        low: term.low.min(0.0),
        bits,
        steps: s.steps + s.support * (term.steps + term.support * limbs(bits)),
        peak: term.peak.max(s.peak),
        ..term
    }
}

/// `count` unique dice (`u`, `uo`) of shape `die`, then `after` (keeps and
/// counting): the walk over the multisets rolled so far, a face at a time, and
/// the value of each multiset at the end. A plain `u` rolls sets only.
fn unique_shape(
    after: &[PoolModifier],
    die: Shape,
    count: f64,
    once: bool,
    conditional: bool,
) -> Shape {
    let faces = die.support;
    let sets_only = !once && !conditional;
    // A step's denominator: `W²` for `uo`, the faces left (their least common
    // multiple across the step) for `u`.
    let step_bits =
        die.bits.max(1.0) * if once { 2.0 } else { 1.0 } + if conditional { 16.0 } else { 0.0 };
    let (mut steps, mut most, mut states) = (0.0f64, 1.0f64, 1.0f64);
    let mut k = 0.0;
    while k < count && steps.is_finite() {
        steps += states * faces * UNIQUE_PAIR_STEPS as f64 * limbs(step_bits * (k + 1.0)).sqrt();
        k += 1.0;
        states = if sets_only {
            sets(faces, k)
        } else {
            multisets(faces, k)
        };
        most = most.max(states);
    }
    let mut shape = pool_shape(after, die, count);
    shape.bits = shape.bits.max(step_bits * count);
    shape.steps += steps + states * (count + limbs(shape.bits));
    // Each multiset holds its outcomes and its count.
    shape.peak = shape
        .peak
        .max(most * (count / 4.0 + limbs(shape.bits) + 4.0));
    shape
}

/// `C(support, counted)`: the sets of `counted` different faces.
fn sets(support: f64, counted: f64) -> f64 {
    if counted > support {
        return 0.0;
    }
    let r = counted.min(support - counted);
    if r > 64.0 {
        return f64::INFINITY;
    }
    (0..r as u32).fold(1.0, |acc, i| {
        acc * (support - f64::from(i)) / (f64::from(i) + 1.0)
    })
}

/// How many different sums `counted` dice of `support` outcomes can show at most:
/// the multisets of that size, `C(support + counted − 1, counted)`.
fn multisets(support: f64, counted: f64) -> f64 {
    let r = counted.min(support - 1.0).max(0.0);
    if r > 64.0 {
        return f64::INFINITY;
    }
    let n = support + counted - 1.0;
    (0..r as u32).fold(1.0, |acc, i| {
        acc * (n - f64::from(i)) / (f64::from(i) + 1.0)
    })
}

/// Whether a die's faces weigh alike: consecutive outcomes, each once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Weights {
    Equal,
    Any,
}

/// Whether the dice of a term are plain dice whose faces are consecutive
/// outcomes listed once each (`d6`, `d%`, `dF`, `d{3..8}`): their sums take the
/// sliding power recurrence, a few operations a count whatever the die's size.
fn equal_weights(dice: &Dice) -> bool {
    dice.die_modifiers.is_empty()
        && match &dice.faces {
            Faces::Standard(_) | Faces::Percent | Faces::Fudge => true,
            Faces::Custom(faces) => {
                let mut sorted = faces.clone();
                sorted.sort_unstable();
                sorted.windows(2).all(|w| w[1].checked_sub(w[0]) == Some(1))
            }
            Faces::Rolled(_) => false,
        }
}

/// `count` dice of shape `die` with the pool modifiers.
pub(super) fn pool_shape(modifiers: &[PoolModifier], die: Shape, count: f64) -> Shape {
    sized_pool(modifiers, die, count, Weights::Any)
}

/// [`pool_shape`] knowing whether the die's faces weigh alike.
fn sized_pool(modifiers: &[PoolModifier], die: Shape, count: f64, weights: Weights) -> Shape {
    let counting = modifiers.iter().any(|m| !m.selects());
    // Success counting maps each die to −1, 0 or 1 first.
    let per_die = if counting {
        Shape {
            low: -1.0,
            high: 1.0,
            support: 3.0,
            steps: die.steps + die.support,
            ..die
        }
    } else {
        die
    };
    let kept = kept_ranks(modifiers, count);
    let bits = per_die.bits * count;
    let span = per_die.high - per_die.low;
    if kept.is_none() {
        // Plain sum: squaring while totals fit 128 bits, else the power recurrence;
        // one die is itself.
        let result_span = count * span + 1.0;
        let dense = result_span * result_span;
        let sparse = power(per_die.support, count.min(64.0) as u32) * per_die.support;
        let work = if count <= 1.0 {
            per_die.support
        } else if bits > 128.0 && span <= 4096.0 {
            // The power recurrence: `span` products a count, or a few sliding
            // operations a count when the faces weigh alike (and no modifier
            // changed them into something else).
            let per_count = match weights {
                Weights::Equal if !counting => UNIFORM_STEP_CHARGE as f64,
                _ => span.max(1.0) * (1.0 + RECURRENCE_TERM_OVERHEAD / limbs(bits)),
            };
            result_span * per_count
        } else {
            dense.min(sparse)
        };
        let support = result_span
            .min(sparse)
            .min(multisets(per_die.support, count));
        let shape = Shape {
            low: per_die.low * count,
            high: per_die.high * count,
            support,
            bits,
            steps: per_die.steps + work * limbs(bits),
            peak: per_die.peak,
        };
        return shape.with_support(support);
    }
    let (counted, consumed) = kept.unwrap_or((count, count));
    if let Some(dropped) = dropping_few(modifiers, count) {
        let plain = sized_pool(&[], per_die, count, weights);
        let (low, high) = (per_die.low * counted, per_die.high * counted);
        return drop_few_shape(per_die, &[(plain, per_die)], dropped, (low, high), bits);
    }
    // Engine states: ranks consumed so far × partial sums of the counted dice
    // (no more sums than multisets of the counted dice).
    let sums = (counted * span + 1.0).min(multisets(per_die.support, counted));
    // The most states a step holds: at the last face that branches, the sums of
    // `c` counted dice on the faces passed, for every `c` (on average half the
    // counted dice's span of them); two faces never hold more than one sum a `c`.
    let faces = per_die.support;
    let passed = span * ((faces - 2.0) / (faces - 1.0).max(1.0)).max(0.0);
    let states = (consumed + 1.0) * sums.min(counted * passed / 2.0 + 1.0);
    let pairs = keep_walk_pairs(per_die.support, span, counted, consumed);
    let work = pairs * (limbs(bits) + PAIR_OVERHEAD) + per_die.support * consumed * count;
    let shape = Shape {
        low: per_die.low.min(0.0) * counted,
        high: per_die.high.max(0.0) * counted,
        support: sums,
        bits: bits + count,
        steps: per_die.steps + work,
        peak: per_die.peak.max(states),
    };
    shape.with_support(sums)
}

/// What a term of the general power recurrence costs besides its counts' words:
/// two products into new big integers and a sum (measured: `5d10!>=9`, 49,000
/// terms of 3 words, 55 ns a term; priced at its words alone, 10 ns a step).
const RECURRENCE_TERM_OVERHEAD: f64 = 16.0;

/// What folding an outcome of one pool of a rolled count into the mixture costs
/// besides its count's words: its count is scaled to the mixture's total in a new
/// big integer (measured: `(d100)d6`, `(d300)d20`, `(d1000)d6` take 120 to 240 ns
/// a pair of 5 to 41 words, 12 ns a step when charged their words alone).
const MIXTURE_PAIR_OVERHEAD: f64 = 64.0;

/// What a (state, branch) pair of the pool engine costs besides its count's
/// words: hashing the state and merging it (measured over `NdFkhK` for N up to
/// 4,000, F up to 1,000 and K up to N: 0.3 to 2 ns a step with this charge).
const PAIR_OVERHEAD: f64 = 8.0;

/// The (state, branch) pairs the pool engine makes walking a pool of one kind of
/// die with `faces` outcomes spanning `span`, consuming `consumed` ranks of which
/// `counted` count (its sums). At the `j`-th face from the walk's end its states
/// are the ranks consumed so far, `c`, with the sums `c` counted dice can show on
/// the faces passed (at most `c` times their span, plus one); each branches on how
/// many more dice show the face, `consumed − c + 1` ways. The first face has one
/// state (nothing consumed) and `K+1` branches; the last branches no more: every
/// die left shows it (`5000d2kh2500` walks one face of 2,501 branches, and was
/// priced as a face of every state, 12× its time). Summed over `c`, the branches
/// of a face between are `(K+1)(K+2)/2` and the branches weighted by `c` are
/// `K(K+1)(K+2)/6`; summed over the faces, the spans passed are `span·(faces−2)/2`.
fn keep_walk_pairs(faces: f64, span: f64, counted: f64, consumed: f64) -> f64 {
    let k = consumed;
    let branches = (k + 1.0) * (k + 2.0) / 2.0;
    let weighted = k * (k + 1.0) * (k + 2.0) / 6.0 * (counted / k.max(1.0)).min(1.0);
    let steps = (faces - 1.0).max(1.0);
    // No step holds more sums than the counted dice can show at all.
    let passed = (span * (faces - 2.0).max(0.0) / 2.0)
        .min(steps * multisets(faces, counted) / counted.max(1.0));
    (k + 1.0) + (steps - 1.0) * branches + weighted * passed
}

/// How many dice a pool of `count` drops from one end when the evaluation sums it
/// a face at a time instead of walking its ranks ([`evaluator::drops_few`]).
fn dropping_few(modifiers: &[PoolModifier], count: f64) -> Option<f64> {
    let (top, bottom) = counted_interval(modifiers, count)?;
    if count > f64::from(u32::MAX) {
        return None;
    }
    evaluator::drops_few(count as u32, top as u32, bottom as u32).map(|(_, d)| f64::from(d))
}

/// What [`evaluator::drops_few`]'s sum of a pool of `kinds` (each kind's plain sum
/// and one die) gives and costs, the faces of the pool being `faces`'s (its steps
/// and peak are the dice's own): at each face's cut, every kind's power of its dice
/// from the cut up and `dropped − 1` more products by one die, then each way of
/// sharing the dice below and at the cut among the kinds multiplies the kinds'
/// powers together, one after another, and adds the product, scaled, into the total.
fn drop_few_shape(
    faces: Shape,
    kinds: &[(Shape, Shape)],
    dropped: f64,
    (low, high): (f64, f64),
    bits: f64,
) -> Shape {
    let groups = kinds.len();
    let shares = pairs_below(groups, dropped) + pairs_below(2 * groups, dropped);
    let (mut powers, mut sums, mut cross) = (0.0, 0.0, 0.0);
    for (plain, die) in kinds {
        let words = limbs(plain.bits);
        powers += plain.steps + (dropped - 1.0) * plain.support * die.support * words;
        cross += sums * plain.support;
        sums += plain.support;
    }
    let words = limbs(kinds.iter().map(|(plain, _)| plain.bits).sum());
    let steps = faces.support * (powers + shares * (cross.max(1.0) + sums) * words);
    Shape {
        low,
        high,
        support: sums,
        bits,
        steps: faces.steps + steps,
        peak: faces.peak.max(sums * 2.0 * (dropped + 1.0) * groups as f64),
    }
    .with_support(sums)
}

/// A pool of several kinds of dice (`members`: each kind's shape and how many).
#[cold]
fn mixed_pool(modifiers: &[PoolModifier], members: &[(Shape, f64)]) -> Shape {
    if members.len() == 1 {
        return pool_shape(modifiers, members[0].0, members[0].1);
    }
    let low = members
        .iter()
        .map(|(s, _)| s.low)
        .fold(f64::INFINITY, f64::min);
    let high = members
        .iter()
        .map(|(s, _)| s.high)
        .fold(f64::NEG_INFINITY, f64::max);
    let support: f64 = members.iter().map(|(s, _)| s.support).sum();
    let count: f64 = members.iter().map(|(_, n)| n).sum();
    let union = Shape {
        low,
        high,
        support: support.min(high - low + 1.0),
        bits: members.iter().map(|(s, n)| s.bits * n).sum::<f64>() / count.max(1.0),
        steps: members.iter().map(|(s, _)| s.steps).sum(),
        peak: members.iter().map(|(s, _)| s.peak).fold(1.0, f64::max),
    };
    // The engine's buckets: one per code of unassigned dice, each branching on the
    // splits of the dice it shows. Kinds that are truncations of one another at the
    // end the walk starts from join into one count, as one kind; kinds that stay
    // apart hold every split of the consumed ranks among them.
    let kept = kept_ranks(modifiers, count);
    if let Some(dropped) = dropping_few(modifiers, count) {
        let kinds: Vec<(Shape, Shape)> = members
            .iter()
            .map(|&(die, n)| (pool_shape(&[], die, n), die))
            .collect();
        let counted = kept.map_or(count, |k| k.0);
        let bounds = (low.min(0.0) * counted, high.max(0.0) * counted);
        return drop_few_shape(union, &kinds, dropped, bounds, union.bits * count);
    }
    let (codes, pairs, joined) = mixed_codes(modifiers, members, count);
    let (counted, consumed) = kept.unwrap_or((count, count));
    // The sums the counted dice make span at most the spans of the widest kinds
    // added up, fewer than the union's span times their number when narrow kinds
    // make up most of the pool (an explosion's extra rolls of two faces).
    let mut widest: Vec<(f64, f64)> = members.iter().map(|(s, n)| (s.high - s.low, *n)).collect();
    widest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut left, mut spans) = (counted, 0.0);
    for (span, n) in widest {
        spans += span * n.min(left);
        left = (left - n).max(0.0);
    }
    let narrowed = Shape {
        high: union.low + (spans / counted.max(1.0)).min(high - low),
        ..union
    };
    let mut shape = pool_shape(modifiers, narrowed, count);
    // The result's bounds are the union's (success counts keep their own).
    if modifiers.iter().all(PoolModifier::selects) {
        (shape.low, shape.high) = match kept {
            Some(_) => (low.min(0.0) * counted, high.max(0.0) * counted),
            None => (low * count, high * count),
        };
    }
    if joined {
        // One count, walked perhaps from the far end: the ranks before the counted
        // ones cost a code and a branch each, without partial sums.
        shape.steps += union.support * pairs * limbs(union.bits * count + count);
    } else {
        let factor = (pairs / pairs_below(2, consumed + 1.0)).max(1.0);
        shape.steps = union.steps + (shape.steps - union.steps) * factor;
    }
    shape.peak = shape.peak.max(shape.support * codes.min(1e18));
    shape
}

/// About how many codes of unassigned dice the pool engine holds at a step for a
/// mixed pool, walked from its cheaper end, and how many (code, branch) pairs a step
/// makes, and whether its kinds join into one count.
fn mixed_codes(
    modifiers: &[PoolModifier],
    members: &[(Shape, f64)],
    count: f64,
) -> (f64, f64, bool) {
    // Identical dice are one kind to the engine.
    let mut kinds: Vec<(Shape, f64)> = Vec::new();
    for &(shape, n) in members {
        let key = |s: &Shape| (s.low, s.high, s.support, s.bits);
        match kinds.iter_mut().find(|k| key(&k.0) == key(&shape)) {
            Some(kind) => kind.1 += n,
            None => kinds.push((shape, n)),
        }
    }
    let (top, bottom) = counted_interval(modifiers, count).unwrap_or((0.0, count));
    let dense = kinds.iter().all(|(s, _)| s.support >= s.high - s.low + 1.0);
    let alike = |end: fn(&Shape) -> f64| kinds.iter().all(|(s, _)| end(s) == end(&kinds[0].0));
    // Kinds whose faces do not overlap (an explosion's last rolls and its extra
    // rolls) are one count to the walk: while it passes one kind's faces, every
    // die of the others is either assigned already or certainly still to come.
    let mut ranges: Vec<(f64, f64)> = kinds.iter().map(|(s, _)| (s.low, s.high)).collect();
    ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let apart = ranges.windows(2).all(|w| w[0].1 < w[1].0);
    // From the top, dice with a common lowest face join; from the bottom, a common
    // highest face. Each end consumes the ranks up to its last counted one.
    let walk = |consumed: f64, joins: bool| {
        let consumed = consumed.min(count);
        if joins {
            (consumed + 1.0, pairs_below(2, consumed + 1.0), true)
        } else {
            let all: f64 = kinds.iter().map(|(_, n)| n + 1.0).product();
            let codes = all.min(pairs_below(kinds.len(), consumed) + 1.0);
            let pairs = (codes * codes).min(pairs_below(2 * kinds.len(), consumed + 1.0));
            (codes, pairs, false)
        }
    };
    let from_top = walk(bottom, apart || dense && alike(|s| s.low));
    let from_bottom = walk(count - top, apart || dense && alike(|s| s.high));
    if from_top.1 <= from_bottom.1 {
        from_top
    } else {
        from_bottom
    }
}

/// Vectors of `dimensions` non-negative integers adding up to less than `limit`
/// (for two, a code and a branch from it, a pair of a step's work):
/// `C(limit − 1 + dimensions, dimensions)`.
fn pairs_below(dimensions: usize, limit: f64) -> f64 {
    if limit < 1.0 {
        return 0.0;
    }
    (0..dimensions).fold(1.0, |acc, i| {
        let i = i as f64;
        acc * (limit - 1.0 + dimensions as f64 - i) / (i + 1.0)
    })
}

/// For a pool with keep/drop: how many dice count, and how many ranks the engine
/// consumes (from the cheaper end) before no further die counts.
fn kept_ranks(modifiers: &[PoolModifier], count: f64) -> Option<(f64, f64)> {
    counted_interval(modifiers, count).map(|(top, bottom)| (bottom - top, bottom.min(count - top)))
}

/// The counted ranks of a pool with keep/drop, as an interval `[top, bottom)` of
/// ranks from the highest.
fn counted_interval(modifiers: &[PoolModifier], count: f64) -> Option<(f64, f64)> {
    let mut any = false;
    // Track the counted ranks as an interval [top, bottom) from the highest.
    let (mut top, mut bottom) = (0.0f64, count);
    for modifier in modifiers {
        let PoolModifier::Keep { keep, .. } = modifier else {
            continue;
        };
        any = true;
        let n = bottom - top;
        match *keep {
            Keep::Highest(k) => bottom = top + (k as f64).min(n),
            Keep::Lowest(k) => top = bottom - (k as f64).min(n),
            Keep::DropHighest(k) => top += (k as f64).min(n),
            Keep::DropLowest(k) => bottom -= (k as f64).min(n),
        }
    }
    any.then_some((top, bottom))
}

/// Rolled keep counts (`kh(1d4)`): how many times the pool is evaluated (once per
/// combination of counts) and what the counts' own expressions cost.
struct RolledKeeps {
    times: f64,
    steps: f64,
    peak: f64,
}

impl RolledKeeps {
    /// The pool's cost `times` over, plus the counts'.
    fn apply(&self, shape: &mut Shape) {
        shape.steps = shape.steps * self.times + self.steps;
        shape.peak = shape.peak.max(self.peak);
    }
}
