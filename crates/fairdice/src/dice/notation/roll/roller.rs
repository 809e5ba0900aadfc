//! [`Roller`]: one roll of an expression, die by die, recording every die.

use rand_core::Rng;
use rustc_hash::FxHashMap;

use super::{BoundRoll, FaceList, PoolKind, PoolRoll, RolledDie, face_list};
use crate::control::{Control, Stop};

/// Dice between two reads of a cancel switch (a few hundred microseconds).
const CHECK_EVERY: u64 = 1 << 14;
use crate::dice::arithmetic::BinaryOp;
use crate::dice::deck::Deal;
use crate::dice::die::{DieError, MAX_DICE, Outcome};
use crate::dice::evaluator::Pattern;
use crate::dice::notation::ast::{
    Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Function, Keep, PoolModifier,
    PoolPart, Span,
};
use crate::dice::notation::eval::{Unique, any_matches, clamp, explode_test, pool_value};
use crate::dice::notation::failure::NotationError;
use crate::dice::notation::options::Options;
use crate::rng;

/// How many rerolls of one die the roller tries before giving up (only reachable for
/// conditions that match almost every face of a huge die).
const MAX_REROLLS: u32 = 1_000_000;

pub(super) struct Roller<'a, 'r, R: ?Sized> {
    options: &'a Options,
    rng: &'r mut R,
    record: bool,
    pub(super) pools: Vec<PoolRoll>,
    pub(super) bindings: Vec<BoundRoll>,
    names: Vec<(&'a str, Outcome)>,
    /// The names bound to a pool that pool functions read, with its dice.
    pool_names: Vec<(&'a str, Vec<RolledDie>)>,
    /// Whether a binding's body reads its value's dice, by the body's address.
    pooled_bodies: FxHashMap<usize, bool>,
    /// Dice rolled so far, rerolls and explosions included.
    pub(super) dice_rolled: u64,
    /// Past this many dice a roll stops with [`Stop::OverBudget`].
    pub(super) most_dice: u64,
    /// Whose cancel switch a long roll reads, if any.
    pub(super) control: Option<&'a Control>,
}

impl<'a, 'r, R: Rng + ?Sized> Roller<'a, 'r, R> {
    pub(super) fn new(options: &'a Options, rng: &'r mut R, record: bool) -> Self {
        Roller {
            options,
            rng,
            record,
            pools: Vec::new(),
            bindings: Vec::new(),
            names: Vec::new(),
            pool_names: Vec::new(),
            pooled_bodies: FxHashMap::default(),
            dice_rolled: 0,
            most_dice: u64::MAX,
            control: None,
        }
    }

    pub(super) fn expr(&mut self, expr: &'a Expr) -> Result<Outcome, NotationError> {
        let at = NotationError::at(&expr.span);
        match &expr.kind {
            ExprKind::Number(n) => Ok(*n),
            ExprKind::Negate(inner) => self
                .expr(inner)?
                .checked_neg()
                .ok_or(DieError::Overflow)
                .map_err(at),
            ExprKind::Not(inner) => Ok(Outcome::from(self.expr(inner)? == 0)),
            ExprKind::Tuple(values) => {
                let code = crate::dice::tuple::TupleCode::new(values.len());
                let mut packed: Outcome = 0;
                for (i, value) in values.iter().enumerate() {
                    packed += code
                        .pack(i, self.expr(value)?)
                        .map_err(NotationError::at(&value.span))?;
                }
                Ok(packed)
            }
            ExprKind::Labelled { body, labels } => labels
                .outcome_of(self.expr(body)?)
                .map_err(NotationError::at(&body.span)),
            ExprKind::Binary { op, left, right } => {
                let a = self.expr(left)?;
                let b = self.expr(right)?;
                op.apply(a, b).map_err(|e| match e {
                    DieError::DivisionByZero => NotationError::at(&right.span)(e),
                    e => at(e),
                })
            }
            ExprKind::Name(name) => self
                .names
                .iter()
                .rev()
                .find(|(bound, _)| bound == name)
                .map(|&(_, value)| value)
                .ok_or_else(|| at(DieError::Empty)),
            ExprKind::Bind {
                name,
                name_span,
                value,
                body,
            } => {
                // Whether the body reads the value's dice: asked once per binding, not
                // on every roll of a Monte Carlo run.
                let key = std::ptr::from_ref::<Expr>(body) as usize;
                let pooled = *self
                    .pooled_bodies
                    .entry(key)
                    .or_insert_with(|| !body.pool_uses(name).0.is_empty());
                let rolled = if pooled {
                    let dice = self.pooled(value)?;
                    let values: Vec<Outcome> = dice.iter().map(|d| d.value).collect();
                    let sum = pattern_of(&Pattern::Sum, &values).map_err(&at)?;
                    if self.record {
                        self.pools.push(PoolRoll {
                            span: value.span.clone(),
                            kind: PoolKind::Group,
                            dice: dice.clone(),
                            value: sum,
                        });
                    }
                    self.pool_names.push((name, dice));
                    sum
                } else {
                    self.expr(value)?
                };
                if self.record {
                    self.bindings.push(BoundRoll {
                        name: name.clone(),
                        span: name_span.start..value.span.end,
                        value: rolled,
                    });
                }
                self.names.push((name, rolled));
                let result = self.expr(body);
                self.names.pop();
                if pooled {
                    self.pool_names.pop();
                }
                result
            }
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => {
                if self.expr(condition)? != 0 {
                    self.expr(then)
                } else {
                    self.expr(otherwise)
                }
            }
            ExprKind::Call {
                function,
                arguments,
            } if function.reads_pool() => {
                let pattern = function.pattern(arguments).expect("a pool function");
                let named = match &arguments[0].kind {
                    ExprKind::Name(n) => self
                        .pool_names
                        .iter()
                        .rev()
                        .find(|(bound, _)| bound == n)
                        .map(|(_, dice)| dice.clone()),
                    _ => None,
                };
                let dice = match (named, &arguments[0].kind) {
                    (Some(dice), _) => dice,
                    (None, ExprKind::Deal(deal)) => self.deal(deal)?.swap_remove(0),
                    (None, _) => self.pooled(&arguments[0])?,
                };
                let values: Vec<Outcome> = dice.iter().map(|d| d.value).collect();
                let value = pattern_of(&pattern, &values).map_err(at)?;
                if self.record {
                    self.pools.push(PoolRoll {
                        span: expr.span.clone(),
                        kind: PoolKind::Function,
                        dice,
                        value,
                    });
                }
                Ok(value)
            }
            ExprKind::Call {
                function,
                arguments,
            } if function.rounding().is_some() => match &arguments[0].kind {
                ExprKind::Binary {
                    op: BinaryOp::Div,
                    left,
                    right,
                } => {
                    let (a, b) = (self.expr(left)?, self.expr(right)?);
                    let rounding = function.rounding().expect("a rounding function");
                    rounding.divide(a, b).map_err(at)
                }
                _ => match arguments[0].root() {
                    Some(x) => {
                        let rounding = function.rounding().expect("a rounding function");
                        let x = self.expr(x)?;
                        rounding.sqrt(x).map_err(at)
                    }
                    None => self.expr(&arguments[0]),
                },
            },
            ExprKind::Call {
                function,
                arguments,
            } => {
                let mut values = Vec::with_capacity(arguments.len());
                for argument in arguments {
                    values.push(self.expr(argument)?);
                }
                match function {
                    Function::Max => Ok(values.into_iter().max().unwrap_or(0)),
                    Function::Min => Ok(values.into_iter().min().unwrap_or(0)),
                    Function::Abs => values[0]
                        .checked_abs()
                        .ok_or(DieError::Overflow)
                        .map_err(at),
                    other => unreachable!(
                        "`{}`: pool and rounding functions are rolled above",
                        other.name()
                    ),
                }
            }
            ExprKind::Dice(dice) => {
                if let Some(value) = self.unrecorded_sum(dice, &expr.span)? {
                    return Ok(value);
                }
                let rolled = self.dice(dice)?;
                self.pool(rolled, &dice.pool_modifiers, PoolKind::Dice, &expr.span)
            }
            ExprKind::Group(group) => {
                let rolled = match group.members.as_slice() {
                    [only] => self.pooled(only)?,
                    members => self.members(members)?,
                };
                self.pool(rolled, &group.pool_modifiers, PoolKind::Group, &expr.span)
            }
            ExprKind::Repeat(repeat) => {
                let rolled = self.repetition(&repeat.count, &repeat.body)?;
                self.pool(rolled, &repeat.pool_modifiers, PoolKind::Repeat, &expr.span)
            }
            ExprKind::Deal(deal) => {
                let hand = self.deal(deal)?.swap_remove(0);
                self.pool(hand, &[], PoolKind::Hand, &expr.span)
            }
            ExprKind::BindHands { names, deal, body } => {
                let ExprKind::Deal(cards) = &deal.kind else {
                    unreachable!("the parser binds names to the hands of a deal only");
                };
                let hands = self.deal(cards)?;
                // Cards of several values: a name a value of each hand.
                let attributes = cards.deck().attributes();
                let views = hands.iter().flat_map(|hand| {
                    (0..attributes).map(move |attribute| {
                        hand.iter()
                            .map(|card| value_die(cards.deck().value_of(card.value, attribute)))
                            .collect::<Vec<RolledDie>>()
                    })
                });
                for ((name, name_span), hand) in names.iter().zip(views) {
                    let sum = hand
                        .iter()
                        .try_fold(0 as Outcome, |sum, card| sum.checked_add(card.value))
                        .ok_or(DieError::Overflow)
                        .map_err(&at)?;
                    if self.record {
                        self.pools.push(PoolRoll {
                            span: name_span.clone(),
                            kind: PoolKind::Hand,
                            dice: hand.clone(),
                            value: sum,
                        });
                        self.bindings.push(BoundRoll {
                            name: name.clone(),
                            span: name_span.clone(),
                            value: sum,
                        });
                    }
                    self.names.push((name, sum));
                    self.pool_names.push((name, hand));
                }
                let result = self.expr(body);
                for _ in names {
                    self.names.pop();
                    self.pool_names.pop();
                }
                result
            }
        }
    }

    /// One shuffle of a deal's deck: each hand's cards, in the order dealt.
    fn deal(&mut self, deal: &Deal) -> Result<Vec<Vec<RolledDie>>, NotationError> {
        let cards = deal.deck().cards();
        let mut left: Vec<u64> = cards.iter().map(|&(_, c)| u64::from(c)).collect();
        let mut in_deck = deal.deck().len();
        let mut hands = Vec::with_capacity(deal.hands().len());
        for &size in deal.hands() {
            let mut hand = Vec::with_capacity(size as usize);
            for _ in 0..size {
                self.count_die()?;
                // A card uniform among those left: walk the values' copies.
                let mut at = rng::below(self.rng, in_deck);
                let mut index = 0;
                while at >= left[index] {
                    at -= left[index];
                    index += 1;
                }
                left[index] -= 1;
                in_deck -= 1;
                hand.push(value_die(cards[index].0));
            }
            hands.push(hand);
        }
        Ok(hands)
    }

    /// The dice a lone group member pools (see the exact evaluator's `pool_of`).
    fn pooled(&mut self, expr: &'a Expr) -> Result<Vec<RolledDie>, NotationError> {
        match expr.pool_part() {
            PoolPart::Sum { left, right, .. } => {
                let mut dice = self.pooled(left)?;
                dice.extend(self.pooled(right)?);
                Ok(dice)
            }
            PoolPart::Dice(dice) => self.dice(dice),
            PoolPart::Repeat(repeat) => self.repetition(&repeat.count, &repeat.body),
            PoolPart::Members(members) => self.members(members),
            PoolPart::Value(value) => Ok(vec![value_die(self.expr(value)?)]),
        }
    }

    /// The members of a group, each one value of its pool.
    fn members(&mut self, members: &'a [Expr]) -> Result<Vec<RolledDie>, NotationError> {
        let mut values = Vec::with_capacity(members.len());
        for member in members {
            values.push(value_die(self.expr(member)?));
        }
        Ok(values)
    }

    fn repetition(
        &mut self,
        count: &'a Expr,
        body: &'a Expr,
    ) -> Result<Vec<RolledDie>, NotationError> {
        let n = self.count(count)?;
        let mut values = Vec::with_capacity(n as usize);
        for _ in 0..n {
            // Each roll of the body is a die of the pool, even when the body rolls
            // none (`644444#4kh`: 644,444 values to rank, no dice).
            self.count_die()?;
            values.push(value_die(self.expr(body)?));
        }
        Ok(values)
    }

    /// Counts one more die (or pooled value) of this roll: past `most_dice` the
    /// roll stops, and every few thousand it reads the cancel switch.
    fn count_die(&mut self) -> Result<(), NotationError> {
        self.dice_rolled += 1;
        if self.dice_rolled > self.most_dice {
            return Err(NotationError::Stopped(Stop::OverBudget {
                limit: self.most_dice,
            }));
        }
        if self.dice_rolled % CHECK_EVERY == 0
            && let Some(control) = self.control
        {
            control.check().map_err(NotationError::Stopped)?;
        }
        Ok(())
    }

    /// A count of dice or repetitions, checked.
    fn count(&mut self, count: &'a Expr) -> Result<u64, NotationError> {
        let n = self.expr(count)?;
        let at = NotationError::at(&count.span);
        if n < 0 {
            return Err(at(DieError::NegativeDiceCount(n)));
        }
        if n as u64 > MAX_DICE {
            return Err(at(DieError::TooManyDice {
                count: n as u64,
                max: MAX_DICE,
            }));
        }
        Ok(n as u64)
    }

    /// Keep/drop and counting on rolled dice, recording the pool.
    fn pool(
        &mut self,
        mut dice: Vec<RolledDie>,
        modifiers: &'a [PoolModifier],
        kind: PoolKind,
        span: &Span,
    ) -> Result<Outcome, NotationError> {
        for modifier in modifiers {
            let keep = match modifier {
                PoolModifier::Keep { keep, .. } => *keep,
                PoolModifier::KeepRolled { kind, count, .. } => {
                    Keep::new(*kind, self.count(count)?)
                }
                _ => continue,
            };
            apply_keep(&mut dice, keep);
        }
        let value_of = pool_value(modifiers);
        let mut value: Outcome = 0;
        for die in dice.iter().filter(|d| d.counted) {
            let v = match &value_of {
                Some(f) => f(die.value),
                None => die.value,
            };
            value = value
                .checked_add(v)
                .ok_or_else(|| NotationError::at(span)(DieError::Overflow))?;
        }
        if self.record {
            self.pools.push(PoolRoll {
                span: span.clone(),
                kind,
                dice,
                value,
            });
        }
        Ok(value)
    }

    /// A term with nothing to show and nothing to rank (not recording, no
    /// keep/drop, no explosion adding dice): its dice added up as they fall,
    /// without holding them. `None` for any other term.
    fn unrecorded_sum(
        &mut self,
        dice: &'a Dice,
        span: &Span,
    ) -> Result<Option<Outcome>, NotationError> {
        let adds_dice = dice
            .die_modifiers
            .iter()
            .any(|m| matches!(m, DieModifier::Explode { kind, .. } if !kind.compounds()));
        let rolled_faces = matches!(dice.faces, crate::dice::notation::ast::Faces::Rolled(_));
        if self.record
            || adds_dice
            || rolled_faces
            || dice.pool_modifiers.iter().any(|m| m.selects())
            || Unique::of(dice).is_some()
        {
            return Ok(None);
        }
        let n = match dice.count.as_deref() {
            None => 1,
            Some(count) => self.count(count)?,
        };
        let faces = face_list(dice)?;
        let top = faces.top();
        let value_of = pool_value(&dice.pool_modifiers);
        let mut value: Outcome = 0;
        for _ in 0..n {
            let v = self.die(&faces, top, &dice.die_modifiers, &mut Vec::new())?;
            let v = value_of.as_ref().map_or(v, |f| f(v));
            value = value
                .checked_add(v)
                .ok_or_else(|| NotationError::at(span)(DieError::Overflow))?;
        }
        Ok(Some(value))
    }

    /// The dice of a term, extra dice of explosions included.
    fn dice(&mut self, dice: &'a Dice) -> Result<Vec<RolledDie>, NotationError> {
        let n = match dice.count.as_deref() {
            None => 1,
            Some(count) => self.count(count)?,
        };
        let faces = match &dice.faces {
            crate::dice::notation::ast::Faces::Rolled(sides) => {
                let s = self.expr(sides)?;
                if s < 1 {
                    let shown = u64::try_from(s).unwrap_or(0);
                    return Err(NotationError::at(&dice.faces_span)(DieError::NoSides(
                        shown,
                    )));
                }
                FaceList::Range(1, s)
            }
            _ => face_list(dice)?,
        };
        let top = faces.top();
        let split = dice
            .die_modifiers
            .iter()
            .position(|m| matches!(m, DieModifier::Explode { kind, .. } if !kind.compounds()));
        let Some(at) = split else {
            let mut rolled = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let mut rolls = Vec::new();
                let value = self.die(&faces, top, &dice.die_modifiers, &mut rolls)?;
                rolled.push(RolledDie {
                    value,
                    rolls,
                    counted: true,
                    extra: false,
                });
            }
            if let Some(unique) = Unique::of(dice) {
                self.unique(
                    &mut rolled,
                    &faces,
                    top,
                    unique,
                    dice.pool_modifiers[0].span(),
                )?;
            }
            return Ok(rolled);
        };
        let DieModifier::Explode {
            conditions,
            kind,
            limit,
            ..
        } = &dice.die_modifiers[at]
        else {
            unreachable!("the position of an explosion");
        };
        let (before, after) = (&dice.die_modifiers[..at], &dice.die_modifiers[at + 1..]);
        let explodes = explode_test(conditions, top);
        let offset = kind.extra_offset();
        let mut rolled: Vec<RolledDie> = Vec::new();
        // One roll of the die: its natural value, and the die it makes.
        let one = |roller: &mut Self, extra: bool| -> Result<(Outcome, RolledDie), NotationError> {
            let mut rolls = Vec::new();
            let natural = roller.die(&faces, top, before, &mut rolls)?;
            let shifted = if extra {
                natural.saturating_add(offset)
            } else {
                natural
            };
            let value = roller.settle(&faces, top, before, after, shifted, &mut rolls)?;
            let die = RolledDie {
                value,
                rolls,
                counted: true,
                extra,
            };
            Ok((natural, die))
        };
        match limit {
            ExplodeLimit::PerTerm(cap) => {
                // Dice in the order rolled; each match adds one, while the cap lasts.
                let mut naturals = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let (natural, die) = one(self, false)?;
                    naturals.push(natural);
                    rolled.push(die);
                }
                let (mut left, mut i) = (*cap, 0);
                while i < naturals.len() && left > 0 {
                    if explodes(naturals[i]) {
                        let (natural, die) = one(self, true)?;
                        naturals.push(natural);
                        rolled.push(die);
                        left -= 1;
                    }
                    i += 1;
                }
            }
            ExplodeLimit::Depth | ExplodeLimit::Once => {
                let depth = match limit {
                    ExplodeLimit::Once => 1,
                    _ => self.options.explode_depth,
                };
                for _ in 0..n {
                    let (mut natural, die) = one(self, false)?;
                    rolled.push(die);
                    let mut extra = 0;
                    while explodes(natural) && extra < depth {
                        let (next, die) = one(self, true)?;
                        natural = next;
                        rolled.push(die);
                        extra += 1;
                    }
                }
            }
        }
        Ok(rolled)
    }

    /// A die an explosion made, showing `value`, through the modifiers written
    /// after the explosion: clamps, and rerolls that roll the die again as
    /// `before` and the modifiers after the explosion up to the reroll shape it.
    fn settle(
        &mut self,
        faces: &FaceList<'_>,
        top: Outcome,
        before: &[DieModifier],
        after: &[DieModifier],
        mut value: Outcome,
        rolls: &mut Vec<Outcome>,
    ) -> Result<Outcome, NotationError> {
        for (j, modifier) in after.iter().enumerate() {
            let redraw = |roller: &mut Self, rolls: &mut Vec<Outcome>| {
                let v = roller.die(faces, top, before, rolls)?;
                roller.settle(faces, top, before, &after[..j], v, rolls)
            };
            value = match modifier {
                DieModifier::Reroll { conditions, span } => {
                    let mut tries = 0;
                    while any_matches(conditions, value) {
                        if tries == MAX_REROLLS {
                            return Err(NotationError::at(span)(DieError::RerollsEverything));
                        }
                        value = redraw(self, rolls)?;
                        tries += 1;
                    }
                    value
                }
                DieModifier::RerollOnce { conditions, .. } if any_matches(conditions, value) => {
                    redraw(self, rolls)?
                }
                other => clamp(std::slice::from_ref(other), value),
            };
        }
        Ok(value)
    }

    /// `u`/`uo` on rolled dice, in the order rolled: a die showing what an
    /// earlier one shows is rolled again (its rolls recorded).
    fn unique(
        &mut self,
        rolled: &mut [RolledDie],
        faces: &FaceList<'_>,
        top: Outcome,
        unique: Unique,
        span: &Span,
    ) -> Result<(), NotationError> {
        let n = rolled.len() as u64;
        let distinct: Option<Vec<Outcome>> = match faces {
            FaceList::Range(low, high) if n > high.abs_diff(*low) + 1 => {
                Some((*low..=*high).collect())
            }
            FaceList::Range(..) => None,
            FaceList::Listed(listed) => {
                let mut values = listed.to_vec();
                values.sort_unstable();
                values.dedup();
                Some(values)
            }
        };
        if let Some(error) = distinct.and_then(|values| unique.impossible(n, &values)) {
            return Err(NotationError::at(span)(error));
        }
        for i in 1..rolled.len() {
            for _ in 0..MAX_REROLLS {
                let v = rolled[i].value;
                if !(unique.applies(v) && rolled[..i].iter().any(|d| d.value == v)) {
                    break;
                }
                let mut rolls = std::mem::take(&mut rolled[i].rolls);
                rolled[i].value = self.die(faces, top, &[], &mut rolls)?;
                rolled[i].rolls = rolls;
                if unique.once {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Rolls one die through its modifiers, the last modifier outermost.
    fn die(
        &mut self,
        faces: &FaceList<'_>,
        top: Outcome,
        modifiers: &[DieModifier],
        rolls: &mut Vec<Outcome>,
    ) -> Result<Outcome, NotationError> {
        let Some((last, inner)) = modifiers.split_last() else {
            self.count_die()?;
            let value = match faces {
                FaceList::Range(low, high) => {
                    low + rng::below(self.rng, (high - low) as u64 + 1) as i64
                }
                FaceList::Listed(f) => f[rng::below(self.rng, f.len() as u64) as usize],
            };
            if self.record {
                rolls.push(value);
            }
            return Ok(value);
        };
        match last {
            DieModifier::Reroll { conditions, span } => {
                for _ in 0..MAX_REROLLS {
                    let v = self.die(faces, top, inner, rolls)?;
                    if !any_matches(conditions, v) {
                        return Ok(v);
                    }
                }
                Err(NotationError::at(span)(DieError::RerollsEverything))
            }
            DieModifier::RerollOnce { conditions, .. } => {
                let v = self.die(faces, top, inner, rolls)?;
                if any_matches(conditions, v) {
                    self.die(faces, top, inner, rolls)
                } else {
                    Ok(v)
                }
            }
            DieModifier::Minimum { value, .. } => {
                Ok(self.die(faces, top, inner, rolls)?.max(*value))
            }
            DieModifier::Maximum { value, .. } => {
                Ok(self.die(faces, top, inner, rolls)?.min(*value))
            }
            DieModifier::Explode {
                conditions,
                kind,
                span,
                ..
            } => {
                // Only compounding explosions reach here: the chain is one die.
                let offset = if *kind == ExplodeKind::CompoundPenetrate {
                    -1
                } else {
                    0
                };
                let explodes = explode_test(conditions, top);
                let mut v = self.die(faces, top, inner, rolls)?;
                let mut total = v;
                let mut depth = 0;
                while explodes(v) && depth < self.options.explode_depth {
                    v = self.die(faces, top, inner, rolls)?;
                    total = total
                        .checked_add(v)
                        .and_then(|t| t.checked_add(offset))
                        .ok_or_else(|| NotationError::at(span)(DieError::Overflow))?;
                    depth += 1;
                }
                Ok(total)
            }
        }
    }
}

/// A value of a group or a repetition, shown as a die.
fn value_die(value: Outcome) -> RolledDie {
    RolledDie {
        value,
        rolls: vec![value],
        counted: true,
        extra: false,
    }
}

/// Marks the dice that a keep/drop modifier leaves uncounted, among the dice still
/// counted, ranking by value (ties broken by roll order).
///
/// The kept dice are those on one side of a rank, so they are found by selection,
/// in time linear in the dice, not by sorting them all (`288889d64k`: a sort was
/// most of a roll, and of the trial rolls that price a request).
fn apply_keep(dice: &mut [RolledDie], keep: Keep) {
    let mut ranked: Vec<usize> = (0..dice.len()).filter(|&i| dice[i].counted).collect();
    let n = ranked.len() as u64;
    // The dice ranked before `split` (highest first) are counted when `first` is.
    let (split, first) = match keep {
        Keep::Highest(k) => (k.min(n), true),
        Keep::Lowest(k) => (n - k.min(n), false),
        Keep::DropHighest(k) => (k.min(n), false),
        Keep::DropLowest(k) => (n - k.min(n), true),
    };
    let split = split as usize;
    if split > 0 && split < ranked.len() {
        let by_rank = |&a: &usize, &b: &usize| dice[b].value.cmp(&dice[a].value).then(a.cmp(&b));
        ranked.select_nth_unstable_by(split, by_rank);
    }
    for (rank, &i) in ranked.iter().enumerate() {
        dice[i].counted = (rank < split) == first;
    }
}

/// What the dice `values` show together: the one roll's [`Pattern`].
fn pattern_of(pattern: &Pattern, values: &[Outcome]) -> Result<Outcome, DieError> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    // Runs of equal values, and of consecutive distinct ones.
    let (mut best, mut same, mut straight) = (0usize, 0usize, 0usize);
    // The face of the largest set: a later (higher) face as large takes it.
    let mut height: Outcome = 0;
    let (mut sets, mut distinct_run) = (0usize, 0usize);
    let at_least = match pattern {
        Pattern::Sets(k) => *k as usize,
        _ => 1,
    };
    for (i, &v) in sorted.iter().enumerate() {
        let previous = i.checked_sub(1).map(|j| sorted[j]);
        if previous == Some(v) {
            same += 1;
        } else {
            same = 1;
            distinct_run = if previous.and_then(|p| p.checked_add(1)) == Some(v) {
                distinct_run + 1
            } else {
                1
            };
            straight = straight.max(distinct_run);
        }
        if same == at_least {
            sets += 1;
        }
        if same >= best {
            height = v;
        }
        best = best.max(same);
    }
    Ok(match pattern {
        Pattern::LargestSet => best as Outcome,
        Pattern::Sets(_) => sets as Outcome,
        Pattern::LongestStraight => straight as Outcome,
        Pattern::Height => height,
        Pattern::Count(faces) => values.iter().filter(|v| faces.contains(v)).count() as Outcome,
        Pattern::Sum => values
            .iter()
            .try_fold(0 as Outcome, |a, &v| a.checked_add(v))
            .ok_or(DieError::Overflow)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dice a keep counts, found by sorting every counted die by rank.
    fn kept_by_sorting(dice: &[RolledDie], keep: Keep) -> Vec<bool> {
        let mut ranked: Vec<usize> = (0..dice.len()).filter(|&i| dice[i].counted).collect();
        ranked.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value).then(a.cmp(&b)));
        let n = ranked.len() as u64;
        let mut counted = vec![false; dice.len()];
        for (rank, &i) in ranked.iter().enumerate() {
            let rank = rank as u64;
            counted[i] = match keep {
                Keep::Highest(k) => rank < k,
                Keep::Lowest(k) => n - rank <= k,
                Keep::DropHighest(k) => rank >= k,
                Keep::DropLowest(k) => n - rank > k,
            };
        }
        counted
    }

    #[test]
    fn keeps_by_selection_count_the_dice_a_full_ranking_counts() {
        // Values with many ties, some dice already dropped by an earlier keep.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for size in 0..40usize {
            let dice: Vec<RolledDie> = (0..size)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    RolledDie {
                        value: (x % 5) as Outcome - 1,
                        rolls: Vec::new(),
                        counted: x % 7 != 0,
                        extra: false,
                    }
                })
                .collect();
            for k in 0..=size as u64 + 1 {
                for keep in [
                    Keep::Highest(k),
                    Keep::Lowest(k),
                    Keep::DropHighest(k),
                    Keep::DropLowest(k),
                ] {
                    let mut selected = dice.clone();
                    apply_keep(&mut selected, keep);
                    let counted: Vec<bool> = selected.iter().map(|d| d.counted).collect();
                    assert_eq!(counted, kept_by_sorting(&dice, keep), "{keep:?} of {size}");
                }
            }
        }
    }
}
