//! The cost estimate made before any exact computation.
//!
//! # Design decisions
//! The estimate walks the syntax tree with the same decisions the evaluator makes
//! (convolution, the power recurrence, the pool engine) and bounds, for every node,
//! its outcome range, the number of distinct outcomes, the size of its counts in
//! bits and the work to build it. Everything is `f64` so that absurd inputs
//! (`1000000d1000000`) give an absurd estimate instead of an overflow. It is an
//! order of magnitude, not a promise: the engine's meter is the backstop.
//!
//! Being an order of magnitude, it takes logarithms from the float's exponent
//! (`log2` here) and integer powers by multiplication (`power`) rather than calling
//! the C library's `log2` and `pow` or a compiler intrinsic: their code lies far
//! from ours and is mapped into the process on first use, and for a small
//! expression those page faults cost more than the whole evaluation.

use super::ast::{Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier};
use super::options::Options;
use crate::dice::arithmetic::BinaryOp;

/// An estimated cost of an exact computation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Work steps (about one 64-bit multiply-add each).
    pub steps: f64,
    /// The most distinct outcomes any intermediate distribution holds.
    pub outcomes: f64,
}

/// What the estimate knows about a node's distribution.
#[derive(Debug, Clone, Copy)]
struct Shape {
    low: f64,
    high: f64,
    /// Distinct outcomes (at most `high − low + 1`).
    support: f64,
    /// Bits of the total count.
    bits: f64,
    /// Work to build it, including its children.
    steps: f64,
    /// The largest support met while building it.
    peak: f64,
}

impl Shape {
    fn constant(value: f64) -> Shape {
        Shape {
            low: value,
            high: value,
            support: 1.0,
            bits: 0.0,
            steps: 1.0,
            peak: 1.0,
        }
    }

    fn span(&self) -> f64 {
        self.high - self.low + 1.0
    }

    fn with_support(mut self, support: f64) -> Shape {
        self.support = support.min(self.span()).max(1.0);
        self.peak = self.peak.max(self.support);
        self
    }
}

/// 64-bit limbs needed for counts of `bits` bits.
fn limbs(bits: f64) -> f64 {
    if bits <= 64.0 {
        1.0
    } else {
        (bits / 64.0).ceil() + 1.0
    }
}

/// `log2(x)` for `x >= 1`, within 0.09: the exponent of `x` plus its mantissa's
/// fraction (the chord of `log2` between powers of two), infinite for infinite `x`.
fn log2(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as f64 - 1023.0;
    let mantissa = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    exponent + (mantissa - 1.0)
}

/// `base` to the power `exponent`, by multiplication (see the module's design notes).
fn power(base: f64, exponent: u32) -> f64 {
    (0..exponent).fold(1.0, |acc, _| acc * base)
}

/// Estimates the cost of evaluating `expr` exactly.
pub fn estimate(expr: &Expr, options: &Options) -> Cost {
    let shape = shape(expr, options);
    Cost {
        steps: shape.steps,
        outcomes: shape.peak,
    }
}

fn shape(expr: &Expr, options: &Options) -> Shape {
    match &expr.kind {
        ExprKind::Number(n) => Shape::constant(*n as f64),
        ExprKind::Negate(inner) => {
            let s = shape(inner, options);
            Shape {
                low: -s.high,
                high: -s.low,
                steps: s.steps + s.support,
                ..s
            }
        }
        ExprKind::Binary { op, left, right } => {
            binary(*op, shape(left, options), shape(right, options))
        }
        ExprKind::Dice(dice) => dice_shape(dice, options),
    }
}

fn binary(op: BinaryOp, a: Shape, b: Shape) -> Shape {
    let pairs = a.support * b.support;
    let corners = [
        a.low * b.low,
        a.low * b.high,
        a.high * b.low,
        a.high * b.high,
    ];
    let (low, high) = match op {
        BinaryOp::Add => (a.low + b.low, a.high + b.high),
        BinaryOp::Sub => (a.low - b.high, a.high - b.low),
        BinaryOp::Mul | BinaryOp::Div => (
            corners
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
                .min(0.0),
            corners
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max)
                .max(0.0),
        ),
        BinaryOp::Max | BinaryOp::Min => (a.low.min(b.low), a.high.max(b.high)),
        _ => (0.0, 1.0),
    };
    let bits = a.bits + b.bits;
    let work = match op {
        // Dense convolution touches every pair of slots; sparse ones every pair.
        BinaryOp::Add => pairs.min(a.span() * b.span()) + (high - low + 1.0).min(pairs),
        _ => pairs * log2(pairs.max(2.0)),
    };
    let shape = Shape {
        low,
        high,
        support: pairs,
        bits,
        steps: a.steps + b.steps + work * limbs(bits),
        peak: a.peak.max(b.peak),
    };
    shape.with_support(pairs)
}

fn dice_shape(dice: &Dice, options: &Options) -> Shape {
    let die = single_die(dice, options);
    let pool_cost = |count: f64| pool_shape(dice, die, count);
    match dice.count.as_deref() {
        None => pool_cost(1.0),
        Some(Expr {
            kind: ExprKind::Number(n),
            ..
        }) => pool_cost((*n).max(0) as f64),
        Some(count) => {
            let k = shape(count, options);
            let largest = pool_cost(k.high.max(0.0));
            // One pool per possible count (a plain sum extends the previous one, so
            // all of them cost about two of the largest; a pool with modifiers is
            // built afresh each time), each folded into the mixture with counts of
            // the combined size.
            let pools = if dice.pool_modifiers.is_empty() {
                largest.steps * k.support.min(2.0)
            } else {
                largest.steps * k.support
            };
            let bits = largest.bits + k.bits;
            let mut mixed = Shape {
                low: largest.low.min(0.0),
                high: largest.high.max(0.0),
                bits,
                steps: k.steps + pools + largest.support * k.support * limbs(bits),
                ..largest
            };
            mixed.peak = mixed.peak.max(k.peak);
            mixed
        }
    }
}

/// One die after its per-die modifiers.
fn single_die(dice: &Dice, options: &Options) -> Shape {
    let (low, high, support) = match &dice.faces {
        Faces::Standard(n) => (1.0, *n as f64, *n as f64),
        Faces::Percent => (1.0, 100.0, 100.0),
        Faces::Fudge => (-1.0, 1.0, 3.0),
        Faces::Custom(faces) => {
            let low = faces.iter().copied().min().unwrap_or(0) as f64;
            let high = faces.iter().copied().max().unwrap_or(0) as f64;
            (low, high, faces.len() as f64)
        }
    };
    let mut s = Shape {
        low,
        high,
        support,
        bits: log2(support.max(2.0)),
        steps: support,
        peak: support,
    };
    for modifier in &dice.die_modifiers {
        match modifier {
            DieModifier::Explode { .. } => {
                let depth = f64::from(options.explode_depth);
                let faces = s.support;
                s.high += s.high.max(0.0) * depth;
                s.low = s.low.min(s.low * (depth + 1.0));
                s.bits *= depth + 1.0;
                s.steps += depth * faces * faces * (depth + 1.0) * limbs(s.bits);
                s = s.with_support(faces * (depth + 1.0));
            }
            DieModifier::Reroll { .. } => s.steps += s.support,
            DieModifier::RerollOnce { .. } => {
                s.bits *= 2.0;
                s.steps += s.support * limbs(s.bits);
            }
        }
    }
    s
}

/// `count` dice of shape `die` with the pool modifiers of `dice`.
fn pool_shape(dice: &Dice, die: Shape, count: f64) -> Shape {
    let counting = dice
        .pool_modifiers
        .iter()
        .any(|m| !matches!(m, PoolModifier::Keep { .. }));
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
    let kept = kept_ranks(dice, count);
    let bits = per_die.bits * count;
    let span = per_die.high - per_die.low;
    if kept.is_none() {
        // Plain sum: squaring while totals fit 128 bits, else the power recurrence.
        let result_span = count * span + 1.0;
        let dense = result_span * result_span;
        let sparse = power(per_die.support, count.min(64.0) as u32) * per_die.support;
        let work = if bits > 128.0 && span <= 4096.0 {
            result_span * span.max(1.0)
        } else {
            dense.min(sparse)
        };
        let shape = Shape {
            low: per_die.low * count,
            high: per_die.high * count,
            support: result_span,
            bits,
            steps: per_die.steps + work * limbs(bits),
            peak: per_die.peak,
        };
        return shape.with_support(result_span.min(sparse));
    }
    let (counted, consumed) = kept.unwrap_or((count, count));
    // Engine states: ranks consumed so far × partial sums of the counted dice.
    let sums = counted * span + 1.0;
    let states = (consumed + 1.0) * sums;
    let branches = consumed + 1.0;
    let work = per_die.support * states * branches + per_die.support * consumed * count;
    let shape = Shape {
        low: per_die.low.min(0.0) * counted,
        high: per_die.high.max(0.0) * counted,
        support: sums,
        bits: bits + count,
        steps: per_die.steps + work * limbs(bits + count),
        peak: per_die.peak.max(states),
    };
    shape.with_support(sums)
}

/// For a pool with keep/drop: how many dice count, and how many ranks the engine
/// consumes (from the cheaper end) before no further die counts.
fn kept_ranks(dice: &Dice, count: f64) -> Option<(f64, f64)> {
    let mut any = false;
    // Track the counted ranks as an interval [top, bottom) from the highest.
    let (mut top, mut bottom) = (0.0f64, count);
    for modifier in &dice.pool_modifiers {
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
    any.then(|| (bottom - top, bottom.min(count - top)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::notation::parser::parse;

    fn cost(text: &str) -> Cost {
        estimate(&parse(text).unwrap(), &Options::default())
    }

    #[test]
    fn everyday_expressions_are_cheap() {
        for text in [
            "3d6",
            "4d6kh3",
            "d20+5 >= 15",
            "100d6",
            "100d10kh10",
            "10d10cs>=8",
            "(d4)d6",
            "d6!",
        ] {
            let c = cost(text);
            assert!(c.steps < 1e8, "{text}: {c:?}");
        }
    }

    #[test]
    fn absurd_expressions_are_refused() {
        let max = crate::control::DEFAULT_MAX_STEPS as f64;
        for text in [
            "1000000d1000000",
            "100000d100000kh50000",
            "d1000000000",
            "d100000*d100000*d100000",
            "(1000d6)d6",
            "(d100)d100kh50",
        ] {
            let c = cost(text);
            assert!(
                c.steps > max || c.outcomes > Options::default().max_outcomes as f64,
                "{text}: {c:?}"
            );
        }
    }

    #[test]
    fn logarithms_are_within_a_tenth_of_a_bit() {
        for x in [1.0, 1.5, 2.0, 3.0, 6.0, 1e3, 1e12, 123456789.0, 1e300] {
            let exact = f64::log2(x);
            assert!(
                (log2(x) - exact).abs() < 0.09,
                "{x}: {} vs {exact}",
                log2(x)
            );
        }
        assert_eq!(log2(1024.0), 10.0);
        assert_eq!(power(6.0, 3), 216.0);
        assert_eq!(power(6.0, 0), 1.0);
        assert_eq!(log2(f64::INFINITY), f64::INFINITY);
    }

    #[test]
    fn estimates_grow_with_size() {
        assert!(cost("20d6").steps < cost("200d6").steps);
        assert!(cost("10d10kh3").steps < cost("100d10kh30").steps);
    }
}
