//! Rolling an expression die by die, and estimating its distribution by Monte Carlo
//! when the exact computation is too big.
//!
//! The roller follows the exact evaluator's semantics: the same explode test (the
//! listed conditions, or the die's highest face), the same depth limit, the same
//! order of per-die modifiers, keep/drop before success counting. A name is rolled
//! once where it is bound; a conditional rolls its condition and then only the
//! branch it takes. Every die is recorded: the dice of every term, the extra dice
//! of explosions (marked), and the values of groups and repetitions, each a pool
//! of its own after the terms rolled inside it.

mod roller;

use std::collections::BTreeMap;

use crate::parallel::*;
use rand_core::Rng;

use self::roller::Roller;
use super::ast::{Dice, DieModifier, Expr, ExprKind, Faces, Span};
use super::eval::any_matches;
use super::failure::NotationError;
use super::options::Options;
use crate::control::{Control, Stop};
use crate::dice::die::{Die, DieError, Outcome};
use crate::rng;

/// Runs per Monte Carlo chunk; each chunk has its own generator stream, so results do
/// not depend on the number of threads.
const CHUNK: u64 = 1 << 14;

/// One roll of a whole expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    /// The value of the expression.
    pub value: Outcome,
    /// Every pool rolled (dice terms, groups, repetitions), in the order finished:
    /// the terms inside a group or a repetition come before it.
    pub pools: Vec<PoolRoll>,
    /// Every binding rolled, in the order rolled: the value each name stood for.
    pub bindings: Vec<BoundRoll>,
}

/// What a pool of a roll is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PoolKind {
    /// A dice term: its dice (`4d6kh3`, `10d10!`).
    Dice,
    /// A group `{a, b}`: one value per member (or, for a lone member, its dice).
    Group,
    /// A repetition `6#(4d6kh3)`: one value per roll of the body.
    Repeat,
    /// The pool a function reads (`largest_set(5d6)`): its dice, and what they
    /// show together.
    Function,
    /// A hand of a deal (`deal(deck{1..13:4}, 5)`): its cards in the order
    /// dealt, and their sum.
    Hand,
}

/// The dice of one pool: a dice term (`4d6kh3`), a group or a repetition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRoll {
    /// Where the pool is written.
    pub span: Span,
    /// What it is.
    pub kind: PoolKind,
    /// Each die rolled (for groups and repetitions, each value).
    pub dice: Vec<RolledDie>,
    /// The pool's value (sum of counted dice, or successes).
    pub value: Outcome,
}

/// One die of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolledDie {
    /// Its final value (compounded explosions added up, clamps applied).
    pub value: Outcome,
    /// Every roll made for it, rerolled ones included, in order.
    pub rolls: Vec<Outcome>,
    /// Whether it counts after keep/drop.
    pub counted: bool,
    /// Whether an explosion added it (`!`, `!p`, `x`: each extra roll is a die).
    pub extra: bool,
}

/// The value a name stood for in one roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundRoll {
    /// The name.
    pub name: String,
    /// Where the binding is written, from the name to the end of the bound
    /// expression (`r = d20`).
    pub span: Span,
    /// The value rolled for it.
    pub value: Outcome,
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
    let mut roller = Roller::new(options, rng, true);
    let value = roller.expr(expr)?;
    Ok(Roll {
        value,
        pools: roller.pools,
        bindings: roller.bindings,
    })
}

/// How many dice one roll of `expr` rolls, rerolls and explosions included: the
/// most of `trials` seeded rolls (at least 1), or `most + 1` as soon as a roll
/// passes `most` dice (a roll that would go on for billions of explosions is cut
/// short, and holds at most `most` dice). Nothing is recorded; `control`'s
/// cancel switch is read every few thousand dice.
///
/// # Errors
/// As [`roll`]; [`NotationError::Stopped`] if `control` is cancelled.
pub fn dice_per_roll(
    expr: &Expr,
    options: &Options,
    trials: u32,
    seed: u64,
    most: u64,
    control: &Control,
) -> Result<u64, NotationError> {
    validate(expr)?;
    let mut generator = rng::seeded(seed);
    let mut roller = Roller::new(options, &mut generator, false);
    roller.most_dice = most;
    roller.control = Some(control);
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
            let mut roller = Roller::new(options, &mut generator, false);
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
/// a die without faces, or a reroll that matches every face. Walks the tree
/// without recursion.
fn validate(expr: &Expr) -> Result<(), NotationError> {
    let mut stack = vec![expr];
    while let Some(node) = stack.pop() {
        stack.extend(node.children());
        if let ExprKind::Dice(dice) = &node.kind {
            validate_dice(dice)?;
        }
    }
    Ok(())
}

fn validate_dice(dice: &Dice) -> Result<(), NotationError> {
    if matches!(dice.faces, Faces::Rolled(_)) {
        // The sides are known when rolled; the roller's guard stops a reroll
        // that matches every face.
        return Ok(());
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
            // After a compounding explosion the die shows sums the faces do not
            // list; the exact evaluator decides those cases, the loop guard here.
            DieModifier::Explode { kind, .. } if kind.compounds() => return Ok(()),
            // A reroll after `!` rolls the die as shaped before it.
            DieModifier::Explode { .. } => {}
            DieModifier::Reroll { conditions, span } => {
                possible.retain(|&o| !any_matches(conditions, o));
                if possible.is_empty() {
                    return Err(NotationError::at(span)(DieError::RerollsEverything));
                }
            }
            DieModifier::RerollOnce { .. } => {}
            DieModifier::Minimum { value, .. } => {
                possible.iter_mut().for_each(|o| *o = (*o).max(*value));
            }
            DieModifier::Maximum { value, .. } => {
                possible.iter_mut().for_each(|o| *o = (*o).min(*value));
            }
        }
    }
    Ok(())
}

/// The faces of a die without materializing huge standard dice.
pub(super) enum FaceList<'a> {
    Range(Outcome, Outcome),
    Listed(&'a [Outcome]),
}

impl FaceList<'_> {
    /// The highest face (what a bare explosion matches).
    pub(super) fn top(&self) -> Outcome {
        match self {
            FaceList::Range(_, high) => *high,
            FaceList::Listed(faces) => faces.iter().copied().max().unwrap_or(0),
        }
    }
}

pub(super) fn face_list(dice: &Dice) -> Result<FaceList<'_>, NotationError> {
    Ok(match &dice.faces {
        Faces::Standard(0) => {
            return Err(NotationError::at(&dice.faces_span)(DieError::NoSides(0)));
        }
        Faces::Standard(n) => FaceList::Range(1, i64::try_from(*n).unwrap_or(i64::MAX)),
        Faces::Percent => FaceList::Range(1, 100),
        Faces::Fudge => FaceList::Range(-1, 1),
        Faces::Custom(faces) => FaceList::Listed(faces),
        // Read by the roller from the sides rolled; never listed here.
        Faces::Rolled(_) => FaceList::Range(1, 1),
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
