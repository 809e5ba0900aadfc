//! The exact evaluator: a syntax tree to its [`Die`].
//!
//! Expressions combine as independent rolls; a name is one roll used several
//! times, so `[r = d20] body` is the mixture over the outcomes `v` of `d20` of
//! `body` with `r = v` (AnyDice's "die passed as a number", icepool's `map`).
//! Dice terms, groups and repetitions are pools (`pools::Shapes`) that keep/drop
//! and success counting act on (`dice.rs`); exploding dice are worked out in
//! `chains.rs`.
//!
//! # Design decisions
//! Inside a binding the body is evaluated once per outcome of the bound roll, so
//! every part of the body that does not use a bound name is evaluated once and
//! remembered (by node), and outcomes that lead to the same distribution are
//! weighed together before they are mixed. A conditional whose condition is
//! settled (a constant, as it is when it tests a bound name) evaluates only the
//! branch taken.

mod chains;
mod dice;
mod unique;

pub(crate) use self::unique::{UNIQUE_PAIR_STEPS, Unique, unique_deal};
pub(crate) use super::ast::clamp;
pub(crate) mod pools;

use rustc_hash::FxHashMap as HashMap;

use num_bigint::BigUint;
use num_traits::Zero;

use self::pools::{Groups, Shapes};
use super::ast::{
    Condition, Expr, ExprKind, Function, Keep, PoolModifier, PoolPart, Rounding, Span,
    attribute_reads, hands_evaluator,
};
use super::cost::estimate;
use super::failure::{NotationError, TooBig};
use super::options::Options;
use crate::control::{Control, Meter};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::evaluator::Pattern;
use crate::dice::mixture::Mixture;
use crate::dice::pool::Pool;

/// A term's count once read.
pub(crate) enum Count {
    Fixed(u64),
    Rolled(Die),
}

/// Memory an exact evaluation plans at least for each outcome of its widest
/// distribution: the outcome and its count, twice (a step builds a distribution
/// from another); wider counts plan their words ([`Cost::bytes_per_outcome`](super::cost::Cost::bytes_per_outcome)).
/// Measured: `d1000000` holds about 30 MB while it is evaluated.
pub const BYTES_PER_OUTCOME: u64 = 32;

/// Evaluates a syntax tree exactly, after checking its estimated cost against the
/// budget of `control`, which also meters the work.
///
/// # Errors
/// [`NotationError::TooBig`] when the estimate exceeds the budget;
/// [`NotationError::Stopped`] if metering stops it; otherwise the first invalid
/// operation, with its span.
#[inline]
pub fn evaluate_expr(
    expr: &Expr,
    options: &Options,
    control: &Control,
) -> Result<Die, NotationError> {
    let cost = estimate(expr, options);
    if cost.steps > control.max_steps() as f64 || cost.outcomes > options.max_outcomes as f64 {
        return Err(NotationError::TooBig(TooBig {
            estimate: cost,
            max_steps: control.max_steps(),
            max_outcomes: options.max_outcomes,
        }));
    }
    // The widest distribution it builds, with the one it is built from, each
    // with counts as wide as the result's total.
    let per_outcome = (BYTES_PER_OUTCOME as f64).max(2.0 * cost.bytes_per_outcome());
    control
        .reserve((cost.outcomes * per_outcome) as u64)
        .map_err(NotationError::Stopped)?;
    let mut evaluator = Exact {
        options,
        control,
        meter: control.meter(),
        names: Vec::new(),
        pools: Vec::new(),
        remembered: HashMap::default(),
        named: HashMap::default(),
    };
    evaluator.expr(expr)
}

struct Exact<'a> {
    options: &'a Options,
    control: &'a Control,
    meter: Meter,
    /// The bound names in scope and the outcome each stands for now.
    names: Vec<(&'a str, Outcome)>,
    /// The names bound to a pool whose body reads it with pool functions, and
    /// what the current roll of the pool shows to each of them.
    pools: Vec<(&'a str, Vec<(Pattern, Outcome)>)>,
    /// Distributions of nodes that use no bound name, by node address, once a
    /// binding's body is evaluated several times.
    remembered: HashMap<usize, Die>,
    /// Whether a node uses a bound name, by node address (asked once per node).
    named: HashMap<usize, bool>,
}

impl<'a> Exact<'a> {
    fn expr(&mut self, expr: &'a Expr) -> Result<Die, NotationError> {
        let at = NotationError::at(&expr.span);
        self.meter.charge(1).map_err(DieError::from).map_err(&at)?;
        let key = expr as *const Expr as usize;
        let worth_remembering = !self.names.is_empty()
            && !matches!(expr.kind, ExprKind::Number(_) | ExprKind::Name(_))
            && !*self.named.entry(key).or_insert_with(|| expr.uses_names());
        if worth_remembering {
            if let Some(die) = self.remembered.get(&key) {
                return Ok(die.clone());
            }
        }
        let die = self.compute(expr)?;
        if worth_remembering {
            self.remembered.insert(key, die.clone());
        }
        Ok(die)
    }

    fn compute(&mut self, expr: &'a Expr) -> Result<Die, NotationError> {
        let at = NotationError::at(&expr.span);
        match &expr.kind {
            ExprKind::Number(n) => Ok(Die::constant(*n)),
            ExprKind::Negate(inner) => self.expr(inner)?.negate().map_err(at),
            ExprKind::Not(inner) => Ok(self.expr(inner)?.map(|o| Outcome::from(o == 0))),
            ExprKind::Tuple(values) => {
                // Given the names, the values are independent: the joint
                // distribution is the sum of each value in its own field.
                let code = crate::dice::tuple::TupleCode::new(values.len());
                let mut joint = Die::constant(0);
                for (i, value) in values.iter().enumerate() {
                    let field = self
                        .expr(value)?
                        .try_map(|v| code.pack(i, v))
                        .map_err(NotationError::at(&value.span))?;
                    joint = joint
                        .combine(&field, BinaryOp::Add, self.control)
                        .map_err(&at)?;
                }
                Ok(joint)
            }
            ExprKind::Labelled { body, labels } => {
                let die = self.expr(body)?;
                labels.apply(&die).map_err(|(error, band)| {
                    NotationError::at(band.as_ref().unwrap_or(&body.span))(error)
                })
            }
            ExprKind::Binary { op, left, right } => {
                // A divisor that can be 0 is refused before the dividend, which
                // may be the expensive side, is computed.
                let divides = matches!(op, BinaryOp::Div | BinaryOp::Mod);
                let b = if divides {
                    let b = self.expr(right)?;
                    if b.outcomes().binary_search(&0).is_ok() {
                        return Err(NotationError::at(&right.span)(DieError::DivisionByZero));
                    }
                    Some(b)
                } else {
                    None
                };
                let a = self.expr(left)?;
                let b = match b {
                    Some(b) => b,
                    None => self.expr(right)?,
                };
                if let ([x], [y]) = (a.outcomes(), b.outcomes()) {
                    // Two settled values (a bound name and a number): no convolution.
                    let v = op.apply(*x, *y).map_err(|e| match e {
                        DieError::DivisionByZero => NotationError::at(&right.span)(e),
                        e => at(e),
                    })?;
                    return Die::new([(v, a.total() * b.total())]).map_err(at);
                }
                a.combine(&b, *op, self.control).map_err(|e| match e {
                    // Point at the divisor, which is what can be zero.
                    DieError::DivisionByZero => NotationError::at(&right.span)(e),
                    e => at(e),
                })
            }
            ExprKind::Name(name) => {
                let value = self
                    .names
                    .iter()
                    .rev()
                    .find(|(bound, _)| bound == name)
                    .map(|&(_, value)| value);
                // The parser checks that every name is bound.
                value.map(Die::constant).ok_or_else(|| at(DieError::Empty))
            }
            ExprKind::Bind {
                name, value, body, ..
            } => self.bind(name, value, body, &expr.span),
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => self.conditional(condition, then, otherwise, &expr.span),
            ExprKind::Call {
                function,
                arguments,
            } => self.call(*function, arguments, &expr.span),
            ExprKind::Dice(dice) => self.dice(dice, &expr.span),
            // Only added up, a group is the sum of its members, whose dice need not
            // be pooled (`{40d10!>=9}`'s make-ups took 4 s, the term alone 40 ms).
            ExprKind::Group(group) if group.pool_modifiers.is_empty() => {
                let at = NotationError::at(&expr.span);
                let mut total = Die::constant(0);
                for member in &group.members {
                    let value = self.expr(member)?;
                    total = total
                        .combine(&value, BinaryOp::Add, self.control)
                        .map_err(&at)?;
                }
                Ok(total)
            }
            ExprKind::Group(group) => {
                let shapes = match group.members.as_slice() {
                    [only] => self.pool_of(only)?,
                    members => self.members(members)?,
                };
                self.finish_pool(&shapes, &group.pool_modifiers, &expr.span)
            }
            ExprKind::Repeat(repeat) => {
                let shapes = self.repetition(&repeat.count, &repeat.body)?;
                self.finish_pool(&shapes, &repeat.pool_modifiers, &expr.span)
            }
            // Alone, a deal of one hand (the parser refuses more) is its sum.
            ExprKind::Deal(deal) => deal
                .evaluate_die(&Pattern::Sum, self.control)
                .map_err(NotationError::at(&expr.span)),
            ExprKind::BindHands { names, deal, body } => self.bind_hands(names, deal, body),
        }
    }

    /// `[a, b = deal(…)] body`: the deal walked once for every pattern the body
    /// reads of each hand (and a hand's sum, where the body says its name
    /// alone), and `body` mixed over their joint outcomes.
    #[cold]
    fn bind_hands(
        &mut self,
        names: &'a [(String, Span)],
        deal: &'a Expr,
        body: &'a Expr,
    ) -> Result<Die, NotationError> {
        let ExprKind::Deal(cards) = &deal.kind else {
            unreachable!("the parser binds names to the hands of a deal only");
        };
        let at = NotationError::at(&deal.span);
        let reads = body.hand_uses(names);
        let joint = match cards.deck().code() {
            None => cards.evaluate(&hands_evaluator(&reads), self.control),
            Some(code) => cards.evaluate(&attribute_reads(code, &reads), self.control),
        }
        .map_err(&at)?;
        let total: BigUint = joint.iter().map(|(_, count)| count).sum();
        let named: Vec<(&'a str, &[Pattern], bool)> = reads
            .iter()
            .map(|(hand, patterns, plain)| (names[*hand].0.as_str(), patterns.as_slice(), *plain))
            .collect();
        let parts = self.mix_over(body, &named, joint)?;
        parts.finish(&total, self.control).map_err(at)
    }

    /// `body` evaluated for each joint outcome of what it reads of named pools
    /// (or hands), each weighed by its count: `reads` names each pool with its
    /// patterns (its sum last where `body` says the name alone), and an outcome
    /// lists their values in that order.
    fn mix_over(
        &mut self,
        body: &'a Expr,
        reads: &[(&'a str, &[Pattern], bool)],
        joint: impl IntoIterator<Item = (Vec<Outcome>, BigUint)>,
    ) -> Result<Parts, NotationError> {
        let mut parts = Parts::default();
        for (values, count) in joint {
            let mut values = values.into_iter();
            for &(name, patterns, plain) in reads {
                let read: Vec<(Pattern, Outcome)> =
                    patterns.iter().cloned().zip(values.by_ref()).collect();
                let sum = if plain { read[read.len() - 1].1 } else { 0 };
                self.names.push((name, sum));
                self.pools.push((name, read));
            }
            let part = self.expr(body);
            for _ in reads {
                self.pools.pop();
                self.names.pop();
            }
            parts.add(count, part?);
        }
        Ok(parts)
    }

    /// `[name = value] body`: the mixture of `body` over the outcomes of `value`.
    #[cold]
    fn bind(
        &mut self,
        name: &'a str,
        value: &'a Expr,
        body: &'a Expr,
        span: &Span,
    ) -> Result<Die, NotationError> {
        let (patterns, plain) = body.pool_uses(name);
        if !patterns.is_empty() {
            return self.bind_pool(name, value, body, (patterns, plain), span);
        }
        let rolled = self.expr(value)?;
        let at = NotationError::at(span);
        let mut parts = Parts::default();
        for (outcome, count) in rolled.iter() {
            self.names.push((name, outcome));
            let part = self.expr(body);
            self.names.pop();
            parts.add(count, part?);
        }
        parts.finish(&rolled.total(), self.control).map_err(at)
    }

    /// `[name = pool] body` where `body` reads the pool's dice (`largest_set(name)`,
    /// `count(name, 1)`): the pool is walked once for every pattern the body reads
    /// (and its sum, when the body also says `name` alone), and `body` is mixed
    /// over their joint outcomes, so each sees the same roll.
    #[cold]
    fn bind_pool(
        &mut self,
        name: &'a str,
        value: &'a Expr,
        body: &'a Expr,
        (mut patterns, plain): (Vec<Pattern>, bool),
        span: &Span,
    ) -> Result<Die, NotationError> {
        let at = NotationError::at(span);
        if plain {
            patterns.push(Pattern::Sum);
        }
        let shapes = self.pool_of(value)?;
        let joint = shapes.joint(&patterns, &mut self.meter).map_err(&at)?;
        let total: BigUint = joint.values().sum();
        let parts = self.mix_over(body, &[(name, &patterns, plain)], joint)?;
        parts.finish(&total, self.control).map_err(at)
    }

    /// `floor(a / b)`, `ceil(a / b)`, `round(a / b)`: every pair of a roll of `a`
    /// and one of `b`, their quotient rounded; any argument that is not a
    /// division is an integer already, and stands.
    #[cold]
    fn rounded(
        &mut self,
        rounding: Rounding,
        argument: &'a Expr,
        span: &Span,
    ) -> Result<Die, NotationError> {
        if let Some(x) = argument.root() {
            let x = self.expr(x)?;
            return x
                .try_map(|o| rounding.sqrt(o))
                .map_err(NotationError::at(&argument.span));
        }
        let ExprKind::Binary {
            op: BinaryOp::Div,
            left,
            right,
        } = &argument.kind
        else {
            return self.expr(argument);
        };
        let (a, b) = (self.expr(left)?, self.expr(right)?);
        let at = NotationError::at(span);
        let mut counts: std::collections::BTreeMap<Outcome, BigUint> = Default::default();
        for (x, cx) in a.iter() {
            self.meter
                .charge(b.len() as u64)
                .map_err(DieError::from)
                .map_err(&at)?;
            for (y, cy) in b.iter() {
                let q = rounding
                    .divide(x, y)
                    .map_err(NotationError::at(&right.span))?;
                *counts.entry(q).or_default() += &cx * cy;
            }
        }
        Die::new(counts).map_err(at)
    }

    /// What the current roll of the pool bound to `name` shows to `pattern`, when
    /// `name` is bound to a pool read by pool functions.
    fn pool_value(&self, name: &str, pattern: &Pattern) -> Option<Outcome> {
        let (_, values) = self.pools.iter().rev().find(|(bound, _)| *bound == name)?;
        values.iter().find(|(p, _)| p == pattern).map(|&(_, v)| v)
    }

    /// `condition ? then : otherwise`, evaluating only the branches that can be
    /// taken.
    #[cold]
    fn conditional(
        &mut self,
        condition: &'a Expr,
        then: &'a Expr,
        otherwise: &'a Expr,
        span: &Span,
    ) -> Result<Die, NotationError> {
        let decided = self.expr(condition)?;
        let at = NotationError::at(span);
        let no = decided.count(0);
        let yes = decided.total() - &no;
        if no.is_zero() {
            return self.expr(then);
        }
        if yes.is_zero() {
            return self.expr(otherwise);
        }
        let a = self.expr(then)?;
        let b = self.expr(otherwise)?;
        let mut mixture = Mixture::new();
        mixture.add(&yes, &a, self.control).map_err(&at)?;
        mixture.add(&no, &b, self.control).map_err(&at)?;
        mixture.finish().map_err(at)
    }

    /// `max(…)`, `min(…)`, `abs(x)`, and the patterns of a pool (`largest_set(5d6)`).
    #[cold]
    fn call(
        &mut self,
        function: Function,
        arguments: &'a [Expr],
        span: &Span,
    ) -> Result<Die, NotationError> {
        let at = NotationError::at(span);
        if let Some(pattern) = function.pattern(arguments) {
            if let ExprKind::Name(name) = &arguments[0].kind
                && let Some(value) = self.pool_value(name, &pattern)
            {
                return Ok(Die::constant(value));
            }
            if let ExprKind::Deal(deal) = &arguments[0].kind {
                return deal.evaluate_die(&pattern, self.control).map_err(at);
            }
            let shapes = self.pool_of(&arguments[0])?;
            return shapes.pattern(&pattern, &mut self.meter).map_err(at);
        }
        if let Some(rounding) = function.rounding() {
            return self.rounded(rounding, &arguments[0], span);
        }
        let op = match function {
            Function::Abs => {
                let x = self.expr(&arguments[0])?;
                return x
                    .try_map(|o| o.checked_abs().ok_or(DieError::Overflow))
                    .map_err(at);
            }
            Function::Max => BinaryOp::Max,
            Function::Min => BinaryOp::Min,
            other => unreachable!(
                "`{}`: pool and rounding functions are evaluated above",
                other.name()
            ),
        };
        let mut result = self.expr(&arguments[0])?;
        for argument in &arguments[1..] {
            let next = self.expr(argument)?;
            result = result.combine(&next, op, self.control).map_err(&at)?;
        }
        Ok(result)
    }

    /// `count#body` as a pool: `body` rolled `count` times.
    #[cold]
    fn repetition(&mut self, count: &'a Expr, body: &'a Expr) -> Result<Shapes, NotationError> {
        let at_count = NotationError::at(&count.span);
        let counts = self.expr(count)?;
        if counts.min_outcome() < 0 {
            return Err(at_count(DieError::NegativeDiceCount(counts.min_outcome())));
        }
        let die = self.expr(body)?;
        if counts.len() == 1 {
            return Ok(Shapes::fixed(vec![(die, counts.min_outcome() as u64)]));
        }
        let parts = counts
            .iter()
            .map(|(n, weight)| (weight, Shapes::fixed(vec![(die.clone(), n as u64)])))
            .collect();
        Shapes::choose(parts, &mut self.meter).map_err(at_count)
    }

    /// What a lone member of a group pools: the dice of its dice terms, of its
    /// repetitions and groups, joined by `+`; anything else is one value.
    #[cold]
    fn pool_of(&mut self, expr: &'a Expr) -> Result<Shapes, NotationError> {
        match expr.pool_part() {
            PoolPart::Sum { left, right, .. } => {
                let a = self.pool_of(left)?;
                let b = self.pool_of(right)?;
                Ok(a.join(b))
            }
            PoolPart::Dice(dice) => self.dice_pool(dice),
            PoolPart::Repeat(repeat) => self.repetition(&repeat.count, &repeat.body),
            PoolPart::Members(members) => self.members(members),
            PoolPart::Value(value) => Ok(Shapes::fixed(vec![(self.expr(value)?, 1)])),
        }
    }

    /// The members of a group, each one value of its pool.
    fn members(&mut self, members: &'a [Expr]) -> Result<Shapes, NotationError> {
        let mut groups: Groups = Vec::with_capacity(members.len());
        for member in members {
            groups.push((self.expr(member)?, 1));
        }
        Ok(Shapes::fixed(groups))
    }

    /// The value of a pool under its modifiers: keep/drop (rolled counts mixed
    /// over their outcomes), then success counting.
    #[cold]
    fn finish_pool(
        &mut self,
        shapes: &Shapes,
        modifiers: &'a [PoolModifier],
        span: &Span,
    ) -> Result<Die, NotationError> {
        let at = NotationError::at(span);
        let mut keeps: Vec<Keep> = Vec::new();
        let mut rolled: Vec<(usize, &'a PoolModifier)> = Vec::new();
        for modifier in modifiers {
            match modifier {
                PoolModifier::Keep { keep, .. } => keeps.push(*keep),
                PoolModifier::KeepRolled { kind, .. } => {
                    rolled.push((keeps.len(), modifier));
                    keeps.push(Keep::new(*kind, 0));
                }
                _ => {}
            }
        }
        let value = pool_value(modifiers);
        let value = value.as_ref().map(|f| f as &dyn Fn(Outcome) -> Outcome);
        if rolled.is_empty() {
            return shapes.evaluate(&keeps, value, &mut self.meter).map_err(at);
        }
        // Every combination of the rolled counts, each a part of a mixture.
        let mut counts: Vec<Die> = Vec::with_capacity(rolled.len());
        for (_, modifier) in &rolled {
            let PoolModifier::KeepRolled { count, .. } = modifier else {
                unreachable!("only rolled counts are listed");
            };
            let die = self.expr(count)?;
            if die.min_outcome() < 0 {
                let at_count = NotationError::at(&count.span);
                return Err(at_count(DieError::NegativeDiceCount(die.min_outcome())));
            }
            counts.push(die);
        }
        let mut mixture = Mixture::new();
        let mut choice = vec![0usize; counts.len()];
        loop {
            let mut weight = BigUint::from(1u32);
            for (i, die) in counts.iter().enumerate() {
                let (n, count) = (
                    die.outcomes()[choice[i]],
                    die.count(die.outcomes()[choice[i]]),
                );
                weight *= count;
                let slot = rolled[i].0;
                keeps[slot] = Keep::new(keeps[slot].kind(), n as u64);
            }
            let part = shapes
                .evaluate(&keeps, value, &mut self.meter)
                .map_err(&at)?;
            mixture.add(&weight, &part, self.control).map_err(&at)?;
            // The next combination, like an odometer.
            let mut i = 0;
            loop {
                if i == counts.len() {
                    return mixture.finish().map_err(at);
                }
                choice[i] += 1;
                if choice[i] < counts[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

/// A binding's body over the rolls of its value: the rolls leading to the same
/// distribution weighed together.
#[derive(Default)]
struct Parts {
    parts: Vec<(BigUint, Die)>,
    index: HashMap<Die, usize>,
}

impl Parts {
    fn add(&mut self, count: BigUint, part: Die) {
        match self.index.get(&part) {
            Some(&i) => self.parts[i].0 += count,
            None => {
                self.index.insert(part.clone(), self.parts.len());
                self.parts.push((count, part));
            }
        }
    }

    /// The mixture of the parts; one distribution whatever the roll keeps the
    /// roll's `total` in it.
    fn finish(self, total: &BigUint, control: &Control) -> Result<Die, DieError> {
        if let [(_, only)] = self.parts.as_slice() {
            return scale_counts(only, total);
        }
        let mut mixture = Mixture::new();
        for (weight, part) in &self.parts {
            mixture.add(weight, part, control)?;
        }
        mixture.finish()
    }
}

/// `die` with every count multiplied by `scale`.
fn scale_counts(die: &Die, scale: &BigUint) -> Result<Die, DieError> {
    Die::new(die.iter().map(|(o, c)| (o, c * scale)))
}

/// Whether any of the conditions matches.
pub(crate) fn any_matches(conditions: &[Condition], outcome: Outcome) -> bool {
    conditions.iter().any(|c| c.matches(outcome))
}

/// The explode test: the listed conditions, or the die's highest face.
pub(crate) fn explode_test(
    conditions: &[Condition],
    top: Outcome,
) -> impl Fn(Outcome) -> bool + '_ {
    move |o| {
        if conditions.is_empty() {
            o == top
        } else {
            any_matches(conditions, o)
        }
    }
}

/// `pool` with the notation's keeps and drops applied in order.
#[inline]
fn selected(pool: Pool, keeps: &[Keep]) -> Pool {
    keeps.iter().fold(pool, |pool, keep| match *keep {
        Keep::Highest(k) => pool.keep_highest(k),
        Keep::Lowest(k) => pool.keep_lowest(k),
        Keep::DropHighest(k) => pool.drop_highest(k),
        Keep::DropLowest(k) => pool.drop_lowest(k),
    })
}

/// The value of one counted die under success counting: +1 per success (any `cs`,
/// `even`, `odd` matching), −1 per failure (any `df` matching), or +1 per counted
/// failure (any `cf` matching); `None` when the pool simply adds its dice.
pub(crate) fn pool_value(
    modifiers: &[PoolModifier],
) -> Option<impl Fn(Outcome) -> Outcome + Clone + '_> {
    let of = |wanted: fn(&PoolModifier) -> Option<&Condition>| -> Vec<Condition> {
        modifiers.iter().filter_map(wanted).copied().collect()
    };
    let successes = of(|m| match m {
        PoolModifier::CountSuccesses { condition, .. } => Some(condition),
        _ => None,
    });
    let deducted = of(|m| match m {
        PoolModifier::DeductFailures { condition, .. } => Some(condition),
        _ => None,
    });
    let failures = of(|m| match m {
        PoolModifier::CountFailures { condition, .. } => Some(condition),
        _ => None,
    });
    if successes.is_empty() && deducted.is_empty() && failures.is_empty() {
        return None;
    }
    Some(move |o: Outcome| {
        let s = any_matches(&successes, o) || any_matches(&failures, o);
        let f = any_matches(&deducted, o);
        i64::from(s) - i64::from(f)
    })
}
