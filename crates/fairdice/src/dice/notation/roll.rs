//! Rolling an expression die by die, and estimating its distribution by Monte Carlo
//! when the exact computation is too big.
//!
//! The roller follows the exact evaluator's semantics: the same explode test (the
//! listed conditions, or the die's highest face), the same depth limit, the same
//! order of per-die modifiers, keep/drop before success counting.

use std::collections::BTreeMap;

use rand_core::Rng;
use rayon::prelude::*;

use super::ast::{Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier, Span};
use super::eval::{any_matches, explode_test, pool_value};
use super::failure::NotationError;
use super::options::Options;
use crate::control::{Control, Stop};
use crate::dice::die::{Die, DieError, MAX_DICE, Outcome};
use crate::rng;

/// How many rerolls of one die the roller tries before giving up (only reachable for
/// conditions that match almost every face of a huge die).
const MAX_REROLLS: u32 = 1_000_000;

/// Runs per Monte Carlo chunk; each chunk has its own generator stream, so results do
/// not depend on the number of threads.
const CHUNK: u64 = 1 << 14;

/// One roll of a whole expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    /// The value of the expression.
    pub value: Outcome,
    /// Every dice term rolled, in the order rolled.
    pub pools: Vec<PoolRoll>,
}

/// The dice of one dice term (`4d6kh3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRoll {
    /// Where the term is written.
    pub span: Span,
    /// Each die rolled.
    pub dice: Vec<RolledDie>,
    /// The term's value (sum of counted dice, or successes).
    pub value: Outcome,
}

/// One die of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolledDie {
    /// Its final value (explosions added up).
    pub value: Outcome,
    /// Every roll made for it, rerolled ones included, in order.
    pub rolls: Vec<Outcome>,
    /// Whether it counts after keep/drop.
    pub counted: bool,
}

/// Rolls `expr` once.
///
/// # Errors
/// An invalid die (`d0`, a reroll matching every face), a negative or huge number of
/// dice, an overflow, or a division by a zero that was actually rolled.
pub fn roll<R: Rng + ?Sized>(
    expr: &Expr,
    options: &Options,
    rng: &mut R,
) -> Result<Roll, NotationError> {
    validate(expr)?;
    let mut roller = Roller {
        options,
        rng,
        record: true,
        pools: Vec::new(),
        dice_rolled: 0,
        most_dice: u64::MAX,
    };
    let value = roller.expr(expr)?;
    Ok(Roll {
        value,
        pools: roller.pools,
    })
}

/// How many dice one roll of `expr` rolls, rerolls and explosions included: the
/// most of `trials` seeded rolls (at least 1), or `most + 1` as soon as a roll
/// passes `most` (a roll that would go on for billions of explosions is cut
/// short). Nothing is recorded, so a roll of a million dice holds no more than
/// their values.
///
/// # Errors
/// As [`roll`].
pub fn dice_per_roll(
    expr: &Expr,
    options: &Options,
    trials: u32,
    seed: u64,
    most: u64,
) -> Result<u64, NotationError> {
    validate(expr)?;
    let mut generator = rng::seeded(seed);
    let mut roller = Roller {
        options,
        rng: &mut generator,
        record: false,
        pools: Vec::new(),
        dice_rolled: 0,
        most_dice: most,
    };
    let mut found = 1;
    for _ in 0..trials.max(1) {
        roller.dice_rolled = 0;
        match roller.expr(expr) {
            Ok(_) => found = found.max(roller.dice_rolled),
            Err(NotationError::Stopped(Stop::OverBudget { .. })) => return Ok(most + 1),
            Err(error) => return Err(error),
        }
    }
    Ok(found)
}

/// A distribution estimated by rolling many times.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// How many rolls were made.
    pub runs: u64,
    /// How many rolls gave each value.
    pub tally: BTreeMap<Outcome, u64>,
}

impl Estimate {
    /// The sample as a die whose counts are the observed frequencies.
    pub fn to_die(&self) -> Die {
        Die::new(self.tally.iter().map(|(&o, &c)| (o, c)))
            .expect("an estimate has at least one run")
    }

    /// The sample mean and its standard error.
    pub fn mean_and_error(&self) -> (f64, f64) {
        let n = self.runs as f64;
        let mean = self
            .tally
            .iter()
            .map(|(&o, &c)| o as f64 * c as f64)
            .sum::<f64>()
            / n;
        let var = self
            .tally
            .iter()
            .map(|(&o, &c)| (o as f64 - mean).powi(2) * c as f64)
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        (mean, (var / n).sqrt())
    }
}

/// Estimates the distribution of `expr` from `runs` seeded rolls, in parallel,
/// reporting the rolls finished to `control` (stage `rolling`).
///
/// # Errors
/// As [`roll`]; [`NotationError::Stopped`] once `control` is cancelled (looked at
/// between chunks of rolls).
pub fn monte_carlo(
    expr: &Expr,
    options: &Options,
    runs: u64,
    seed: u64,
    control: &Control,
) -> Result<Estimate, NotationError> {
    validate(expr)?;
    let runs = runs.max(1);
    let chunks = runs.div_ceil(CHUNK);
    control.stage("rolling", runs);
    let tallies: Vec<BTreeMap<Outcome, u64>> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            control.check().map_err(NotationError::Stopped)?;
            let mut generator = rng::stream(seed, chunk);
            let mut roller = Roller {
                options,
                rng: &mut generator,
                record: false,
                pools: Vec::new(),
                dice_rolled: 0,
                most_dice: u64::MAX,
            };
            let n = CHUNK.min(runs - chunk * CHUNK);
            let mut tally = BTreeMap::new();
            for done in 0..n {
                // A roll of a large pool takes milliseconds: look before each one,
                // and report every 256 rolls.
                control.check().map_err(NotationError::Stopped)?;
                *tally.entry(roller.expr(expr)?).or_insert(0) += 1;
                if done % 256 == 255 {
                    control.advance(256);
                }
            }
            control.advance(n % 256);
            Ok(tally)
        })
        .collect::<Result<_, NotationError>>()?;
    let mut tally = BTreeMap::new();
    for t in tallies {
        for (o, c) in t {
            *tally.entry(o).or_insert(0) += c;
        }
    }
    Ok(Estimate { runs, tally })
}

/// Rejects what would make rolling fail forever or mean nothing, before any roll:
/// a die without faces, or a reroll that matches every face.
fn validate(expr: &Expr) -> Result<(), NotationError> {
    match &expr.kind {
        ExprKind::Number(_) => Ok(()),
        ExprKind::Negate(inner) => validate(inner),
        ExprKind::Binary { left, right, .. } => {
            validate(left)?;
            validate(right)
        }
        ExprKind::Dice(dice) => {
            if let Some(count) = &dice.count {
                validate(count)?;
            }
            let faces = face_list(dice)?;
            let values: Vec<Outcome> = dice
                .die_modifiers
                .iter()
                .flat_map(|m| match m {
                    DieModifier::Reroll { conditions, .. } => conditions.as_slice(),
                    _ => &[],
                })
                .map(|c| c.value)
                .collect();
            let mut possible = faces.candidates(&values);
            for modifier in &dice.die_modifiers {
                match modifier {
                    // After an explosion the die shows sums the faces do not list;
                    // the exact evaluator decides those cases, the loop guard here.
                    DieModifier::Explode { .. } => return Ok(()),
                    DieModifier::Reroll { conditions, span } => {
                        possible.retain(|&o| !any_matches(conditions, o));
                        if possible.is_empty() {
                            return Err(NotationError::at(span)(DieError::RerollsEverything));
                        }
                    }
                    DieModifier::RerollOnce { .. } => {}
                }
            }
            Ok(())
        }
    }
}

/// The faces of a die without materializing huge standard dice.
enum FaceList<'a> {
    Range(Outcome, Outcome),
    Listed(&'a [Outcome]),
}

fn face_list(dice: &Dice) -> Result<FaceList<'_>, NotationError> {
    Ok(match &dice.faces {
        Faces::Standard(0) => {
            return Err(NotationError::at(&dice.faces_span)(DieError::NoSides(0)));
        }
        Faces::Standard(n) => FaceList::Range(1, i64::try_from(*n).unwrap_or(i64::MAX)),
        Faces::Percent => FaceList::Range(1, 100),
        Faces::Fudge => FaceList::Range(-1, 1),
        Faces::Custom(faces) => FaceList::Listed(faces),
    })
}

impl FaceList<'_> {
    /// Faces enough to decide whether comparisons with `values` match all of them:
    /// every listed face, or for a range its ends and the faces next to each value
    /// (the faces a set of comparisons leaves out form intervals that end there).
    fn candidates(&self, values: &[Outcome]) -> Vec<Outcome> {
        match self {
            FaceList::Listed(faces) => faces.to_vec(),
            FaceList::Range(low, high) => {
                let mut v = vec![*low, *high];
                for &x in values {
                    for c in [x.saturating_sub(1), x, x.saturating_add(1)] {
                        if (*low..=*high).contains(&c) {
                            v.push(c);
                        }
                    }
                }
                v
            }
        }
    }
}

struct Roller<'a, R: ?Sized> {
    options: &'a Options,
    rng: &'a mut R,
    record: bool,
    pools: Vec<PoolRoll>,
    /// Dice rolled so far, rerolls and explosions included.
    dice_rolled: u64,
    /// Past this many dice a roll stops with [`Stop::OverBudget`].
    most_dice: u64,
}

impl<R: Rng + ?Sized> Roller<'_, R> {
    fn expr(&mut self, expr: &Expr) -> Result<Outcome, NotationError> {
        let at = NotationError::at(&expr.span);
        match &expr.kind {
            ExprKind::Number(n) => Ok(*n),
            ExprKind::Negate(inner) => self
                .expr(inner)?
                .checked_neg()
                .ok_or(DieError::Overflow)
                .map_err(at),
            ExprKind::Binary { op, left, right } => {
                let a = self.expr(left)?;
                let b = self.expr(right)?;
                op.apply(a, b).map_err(at)
            }
            ExprKind::Dice(dice) => self.dice(dice, &expr.span),
        }
    }

    fn dice(&mut self, dice: &Dice, span: &Span) -> Result<Outcome, NotationError> {
        let n = match dice.count.as_deref() {
            None => 1,
            Some(count) => {
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
                n as u64
            }
        };
        let faces = face_list(dice)?;
        let top = match &faces {
            FaceList::Range(_, high) => *high,
            FaceList::Listed(f) => f.iter().copied().max().unwrap_or(0),
        };
        let value_of = pool_value(&dice.pool_modifiers);
        if !self.record
            && !dice
                .pool_modifiers
                .iter()
                .any(|m| matches!(m, PoolModifier::Keep { .. }))
        {
            // Nothing to show and nothing to rank: add the dice up as they fall.
            let mut value: Outcome = 0;
            for _ in 0..n {
                let v = self.die(&faces, top, &dice.die_modifiers, &mut Vec::new())?;
                let v = match &value_of {
                    Some(f) => f(v),
                    None => v,
                };
                value = value
                    .checked_add(v)
                    .ok_or_else(|| NotationError::at(span)(DieError::Overflow))?;
            }
            return Ok(value);
        }
        let mut rolled: Vec<RolledDie> = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let mut rolls = Vec::new();
            let value = self.die(&faces, top, &dice.die_modifiers, &mut rolls)?;
            rolled.push(RolledDie {
                value,
                rolls,
                counted: true,
            });
        }
        apply_keeps(&mut rolled, &dice.pool_modifiers);
        let mut value: Outcome = 0;
        for die in rolled.iter().filter(|d| d.counted) {
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
                dice: rolled,
                value,
            });
        }
        Ok(value)
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
            self.dice_rolled += 1;
            if self.dice_rolled > self.most_dice {
                return Err(NotationError::Stopped(Stop::OverBudget {
                    limit: self.most_dice,
                }));
            }
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
            DieModifier::Explode { conditions, span } => {
                let explodes = explode_test(conditions, top);
                let mut v = self.die(faces, top, inner, rolls)?;
                let mut total = v;
                let mut depth = 0;
                while explodes(v) && depth < self.options.explode_depth {
                    v = self.die(faces, top, inner, rolls)?;
                    total = total
                        .checked_add(v)
                        .ok_or_else(|| NotationError::at(span)(DieError::Overflow))?;
                    depth += 1;
                }
                Ok(total)
            }
        }
    }
}

/// Marks the dice that keep/drop modifiers leave uncounted, applied in order on the
/// dice still counted, ranking by value (ties broken by roll order).
fn apply_keeps(dice: &mut [RolledDie], modifiers: &[PoolModifier]) {
    for modifier in modifiers {
        let PoolModifier::Keep { keep, .. } = modifier else {
            continue;
        };
        let mut ranked: Vec<usize> = (0..dice.len()).filter(|&i| dice[i].counted).collect();
        ranked.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value).then(a.cmp(&b)));
        let n = ranked.len() as u64;
        for (rank, &i) in ranked.iter().enumerate() {
            let rank = rank as u64;
            dice[i].counted = match *keep {
                Keep::Highest(k) => rank < k,
                Keep::Lowest(k) => n - rank <= k,
                Keep::DropHighest(k) => rank >= k,
                Keep::DropLowest(k) => n - rank > k,
            };
        }
    }
}
