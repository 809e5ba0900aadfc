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
//!
//! A binding costs its bound roll, then its body once per outcome of the roll (a
//! bound name is estimated as a constant somewhere in the roll's range); a
//! conditional costs its condition and both branches; pools (dice terms with
//! keep/drop, groups, repetitions, dice that explode into more dice) are costed
//! in `cost/terms.rs`.

mod cards;
mod terms;

use super::ast::{Expr, ExprKind, Function, hands_evaluator};
use super::options::Options;
use crate::dice::arithmetic::{BinaryOp, sum_steps};
use crate::dice::evaluator::Pattern;

/// An estimated cost of an exact computation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Work steps (about one 64-bit multiply-add each).
    pub steps: f64,
    /// The most distinct outcomes any intermediate distribution holds.
    pub outcomes: f64,
    /// The distinct outcomes of the result.
    pub support: f64,
    /// Bits of the result's total count, which bounds every count it holds.
    pub bits: f64,
}

impl Cost {
    /// Bytes one outcome of a distribution with counts of this cost's bits
    /// takes: a word for the outcome and the count's words (on the heap, with a
    /// header, once they pass the two words counts hold inline).
    pub fn bytes_per_outcome(&self) -> f64 {
        let words = (self.bits / 64.0).ceil().max(1.0);
        if words <= 2.0 {
            8.0 + 8.0 * words
        } else {
            8.0 + 24.0 + 8.0 * words
        }
    }
}

/// What the estimate knows about a node's distribution.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    pub(super) low: f64,
    pub(super) high: f64,
    /// Distinct outcomes (at most `high − low + 1`).
    pub(super) support: f64,
    /// Bits of the total count.
    pub(super) bits: f64,
    /// Work to build it, including its children.
    pub(super) steps: f64,
    /// The largest support met while building it.
    pub(super) peak: f64,
}

impl Shape {
    pub(super) fn constant(value: f64) -> Shape {
        Shape {
            low: value,
            high: value,
            support: 1.0,
            bits: 0.0,
            steps: 1.0,
            peak: 1.0,
        }
    }

    pub(super) fn span(&self) -> f64 {
        self.high - self.low + 1.0
    }

    /// A pattern's shape, whose support counts every value up to its high.
    fn with_support_of_high(self) -> Shape {
        let support = self.high - self.low + 1.0;
        self.with_support(support)
    }

    /// Spread over `other`'s range and support as well (its bits kept).
    pub(super) fn widened(self, other: Shape) -> Shape {
        Shape {
            low: self.low.min(other.low),
            high: self.high.max(other.high),
            support: self.support.max(other.support),
            peak: self.peak.max(other.peak),
            ..self
        }
    }

    pub(super) fn with_support(mut self, support: f64) -> Shape {
        self.support = support.min(self.span()).max(1.0);
        self.peak = self.peak.max(self.support);
        self
    }
}

/// 64-bit limbs needed for counts of `bits` bits.
pub(super) fn limbs(bits: f64) -> f64 {
    if bits <= 64.0 {
        1.0
    } else {
        (bits / 64.0).ceil() + 1.0
    }
}

/// `log2(x)` for `x >= 1`, within 0.09: the exponent of `x` plus its mantissa's
/// fraction (the chord of `log2` between powers of two), infinite for infinite `x`.
pub(super) fn log2(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as f64 - 1023.0;
    let mantissa = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    exponent + (mantissa - 1.0)
}

/// `base` to the power `exponent`, by multiplication (see the module's design notes).
pub(super) fn power(base: f64, exponent: u32) -> f64 {
    (0..exponent).fold(1.0, |acc, _| acc * base)
}

/// Estimates the cost of evaluating `expr` exactly.
pub fn estimate(expr: &Expr, options: &Options) -> Cost {
    let shape = Estimator {
        options,
        names: Vec::new(),
    }
    .shape(expr);
    Cost {
        steps: shape.steps,
        outcomes: shape.peak,
        support: shape.support,
        bits: shape.bits,
    }
}

/// Walks a tree with the bound names in scope.
pub(super) struct Estimator<'a> {
    pub(super) options: &'a Options,
    /// Each bound name with the range of the roll it stands for.
    names: Vec<(&'a str, f64, f64)>,
}

impl<'a> Estimator<'a> {
    /// `[name = value] body` reading `name` as a value: the body priced once per
    /// outcome of the value when it uses the name.
    fn bind(&mut self, name: &'a str, value: &'a Expr, body: &'a Expr) -> Shape {
        let v = self.shape(value);
        self.names.push((name, v.low, v.high));
        let b = self.shape(body);
        self.names.pop();
        let times = if body.uses_names() { v.support } else { 1.0 };
        let support = (b.support * v.support).min(b.span());
        let bits = b.bits + v.bits;
        Shape {
            support,
            bits,
            steps: v.steps + times * (b.steps + BODY_OVERHEAD) + times * b.support * limbs(bits),
            peak: v.peak.max(b.peak).max(support),
            ..b
        }
        .with_support(support)
    }

    pub(super) fn shape(&mut self, expr: &'a Expr) -> Shape {
        match &expr.kind {
            ExprKind::Number(n) => Shape::constant(*n as f64),
            ExprKind::Name(name) => {
                let (low, high) = self
                    .names
                    .iter()
                    .rev()
                    .find(|(bound, ..)| bound == name)
                    .map_or((0.0, 0.0), |&(_, low, high)| (low, high));
                Shape {
                    low,
                    high,
                    ..Shape::constant(low)
                }
            }
            ExprKind::Negate(inner) => {
                let s = self.shape(inner);
                Shape {
                    low: -s.high,
                    high: -s.low,
                    steps: s.steps + s.support,
                    ..s
                }
            }
            ExprKind::Tuple(values) => {
                // The sum of each value in its own field: a sparse sum.
                let code = crate::dice::tuple::TupleCode::new(values.len());
                let offset = code.offset() as f64;
                let mut joint = Shape::constant(0.0);
                for (i, value) in values.iter().enumerate() {
                    let s = self.shape(value);
                    let scale = 2f64.powi(code.shift(i) as i32);
                    let field = Shape {
                        low: (s.low + offset) * scale,
                        high: (s.high + offset) * scale,
                        steps: s.steps + s.support,
                        ..s
                    };
                    joint = binary(BinaryOp::Add, joint, field);
                }
                joint
            }
            ExprKind::Labelled { body, labels } => {
                let s = self.shape(body);
                let last = labels.names().len() as f64 - 1.0;
                Shape {
                    low: 0.0,
                    high: last,
                    steps: s.steps + s.support * labels.bands.len() as f64,
                    ..s
                }
                .with_support(last + 1.0)
            }
            ExprKind::Not(inner) => {
                let s = self.shape(inner);
                Shape {
                    low: 0.0,
                    high: 1.0,
                    steps: s.steps + s.support,
                    ..s
                }
                .with_support(2.0)
            }
            ExprKind::Binary { op, left, right } => {
                let (a, b) = (self.shape(left), self.shape(right));
                binary(*op, a, b)
            }
            ExprKind::Bind {
                name, value, body, ..
            } => {
                let (mut patterns, plain) = body.pool_uses(name);
                if patterns.is_empty() {
                    return self.bind(name, value, body);
                }
                // The pool walked once for every pattern its body reads, and the
                // body evaluated for each joint outcome.
                if plain {
                    patterns.push(crate::dice::evaluator::Pattern::Sum);
                }
                let walk = self.pattern(&patterns, value);
                let sum = self.shape(value);
                self.names.push((name, sum.low, sum.high));
                let b = self.shape(body);
                self.names.pop();
                mixed_over(&walk, b)
            }
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => {
                let c = self.shape(condition);
                let (a, b) = (self.shape(then), self.shape(otherwise));
                let bits = c.bits + a.bits.max(b.bits) + 1.0;
                let support = a.support + b.support;
                Shape {
                    low: a.low.min(b.low),
                    high: a.high.max(b.high),
                    support,
                    bits,
                    steps: c.steps + a.steps + b.steps + support * limbs(bits),
                    peak: c.peak.max(a.peak).max(b.peak),
                }
                .with_support(support)
            }
            ExprKind::Call {
                function,
                arguments,
            } => {
                if function.rounding().is_some() {
                    if let Some(x) = arguments[0].root() {
                        // A root of each outcome: one step each.
                        let inner = self.shape(x);
                        let root = |v: f64| v.max(0.0).sqrt();
                        return Shape {
                            low: root(inner.low).floor(),
                            high: root(inner.high).ceil(),
                            steps: inner.steps + inner.support,
                            ..inner
                        }
                        .with_support(inner.support);
                    }
                    // A quotient rounded another way: priced as the division.
                    return self.shape(&arguments[0]);
                }
                if let Some(pattern) = function.pattern(arguments) {
                    if let ExprKind::Deal(deal) = &arguments[0].kind {
                        return self.deal(deal, &[(0, pattern)]).with_support_of_high();
                    }
                    return self
                        .pattern(&[pattern], &arguments[0])
                        .with_support_of_high();
                }
                let mut shapes = arguments.iter().map(|a| self.shape(a));
                let first = shapes.next().unwrap_or(Shape::constant(0.0));
                match function {
                    Function::Abs => {
                        let high = first.high.abs().max(first.low.abs());
                        let low = if first.low <= 0.0 && first.high >= 0.0 {
                            0.0
                        } else {
                            first.low.abs().min(first.high.abs())
                        };
                        Shape {
                            low,
                            high,
                            steps: first.steps + first.support,
                            ..first
                        }
                        .with_support(first.support)
                    }
                    Function::Max | Function::Min => {
                        let op = if *function == Function::Max {
                            BinaryOp::Max
                        } else {
                            BinaryOp::Min
                        };
                        shapes.fold(first, |acc, next| binary(op, acc, next))
                    }
                    other => unreachable!(
                        "`{}`: pool and rounding functions are priced above",
                        other.name()
                    ),
                }
            }
            ExprKind::Dice(dice) => self.dice(dice),
            // Only added up, a group is the sum of its members (as evaluated).
            ExprKind::Group(group) if group.pool_modifiers.is_empty() => group
                .members
                .iter()
                .map(|member| self.shape(member))
                .fold(Shape::constant(0.0), |acc, next| {
                    binary(BinaryOp::Add, acc, next)
                }),
            ExprKind::Group(group) => self.group(group),
            ExprKind::Repeat(repeat) => self.repeat(repeat),
            ExprKind::Deal(deal) => self.deal(deal, &[(0, Pattern::Sum)]),
            ExprKind::BindHands { names, deal, body } => {
                let ExprKind::Deal(dealt) = &deal.kind else {
                    unreachable!("the parser binds names to the hands of a deal only");
                };
                let reads = hands_evaluator(&body.hand_uses(names));
                let walk = self.deal(dealt, &reads.0);
                for (hand, (name, _)) in names.iter().enumerate() {
                    let (low, high) = cards::hand_sums(dealt, hand);
                    self.names.push((name, low, high));
                }
                let b = self.shape(body);
                for _ in names {
                    self.names.pop();
                }
                mixed_over(&walk, b)
            }
        }
    }
}

/// A body `b` evaluated for each joint outcome of a `walk` (a pool's or a
/// deal's patterns) and mixed over them.
fn mixed_over(walk: &Shape, b: Shape) -> Shape {
    let times = walk.support;
    let bits = b.bits + walk.bits;
    Shape {
        bits,
        steps: walk.steps + times * (b.steps + BODY_OVERHEAD) + times * b.support * limbs(bits),
        peak: walk.peak.max(b.peak),
        ..b
    }
}

/// Steps evaluating a name's body once for one of its values costs besides the
/// body's own price: every node of it makes a distribution afresh (measured:
/// `[a = 10d6][b = 10d6][c = 10d6] a > b ? c : a + b` evaluates its body 132,651
/// times at about 780 ns each, priced at 71 steps).
const BODY_OVERHEAD: f64 = 256.0;

/// Steps an outcome of a maximum or minimum costs besides its product of counts:
/// the union of outcomes walked, the cumulative counts kept.
const EXTREME_OVERHEAD: f64 = 16.0;

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
        BinaryOp::Mod => {
            let m = b.low.abs().max(b.high.abs());
            (-m, m)
        }
        BinaryOp::Max | BinaryOp::Min => (a.low.min(b.low), a.high.max(b.high)),
        _ => (0.0, 1.0),
    };
    let bits = a.bits + b.bits;
    let work = match op {
        // A dense convolution, by rows or one product of big integers; a
        // sparse sum sorts its pairs.
        BinaryOp::Add if a.span() * b.span() <= pairs => {
            sum_steps(a.span(), b.span(), a.bits, b.bits)
                + (high - low + 1.0).min(pairs) * limbs(bits)
        }
        BinaryOp::Add => (pairs + (high - low + 1.0).min(pairs)) * limbs(bits),
        // One pass over both cumulative counts, a product of counts an outcome.
        BinaryOp::Max | BinaryOp::Min => {
            (a.support + b.support) * (limbs(a.bits) * limbs(b.bits) + EXTREME_OVERHEAD)
        }
        _ => pairs * log2(pairs.max(2.0)) * limbs(bits),
    };
    // The outcomes of a maximum or minimum are the operands' own.
    let support = match op {
        BinaryOp::Max | BinaryOp::Min => a.support + b.support,
        _ => pairs,
    };
    let shape = Shape {
        low,
        high,
        support,
        bits,
        steps: a.steps + b.steps + work,
        peak: a.peak.max(b.peak),
    };
    shape.with_support(support)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::notation::parser::parse;

    fn cost(text: &str) -> Cost {
        estimate(&parse(text).unwrap(), &Options::default())
    }

    /// The estimate is a promise: the metered steps stay under it, and it is not
    /// far above them.
    fn assert_kept(text: &str) {
        use crate::control::Control;
        use crate::dice::notation::eval::evaluate_expr;
        let steps = cost(text).steps;
        let control = Control::new();
        evaluate_expr(&parse(text).unwrap(), &Options::default(), &control).expect("fits");
        let used = control.steps_used() as f64;
        assert!(
            used <= steps,
            "{text}: {used} steps used, estimated {steps}"
        );
        assert!(
            steps <= 64.0 * used,
            "{text}: {used} steps used, estimated {steps}"
        );
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
            "d44721",
            "d{1..65536}",
            "3d{0,1000000000}kh2",
            "[r = d20] r == 20 ? 4d6+3 : r + 5 >= 15 ? 2d6+3 : 0",
            "6#(4d6kh3)kh1",
            "{d8!, d6!}kh1",
            "10d10!kh3",
            "3d(d6)",
            "4d6kh(d3)",
        ] {
            let c = cost(text);
            assert!(c.steps < 1e8, "{text}: {c:?}");
            assert!(c.outcomes < 1e7, "{text}: {c:?}");
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
            "[a = d1000] [b = d1000] [c = d1000] a + b + c",
            "1000#(100d10kh50)kh500",
            "{100d1000!, 100d1000!}kh1",
            "1000d10!kh300",
            "100d6x1000000=6kh3",
            // A rolled keep count costs what its own expression costs (found by
            // the fuzzer: it ran for minutes, priced as the 4d7 alone).
            "4d7kh(1000d20x6kh2)",
            "{4d7, 2d8}kh(100d20x6kh2)",
            "3#(1d6)kh(100d20x6kh2)",
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
    fn sums_of_equal_weight_dice_are_priced_by_the_sliding_recurrence() {
        // Each sum against one of the same size whose weights differ (a face
        // listed twice keeps the general recurrence: a product per face a count).
        for (equal, uneven) in [
            ("300d100", "300d{1,1..99}"),
            ("200d%", "200d{1..99,99}"),
            ("400d{3..40}", "400d{3..39,39}"),
            ("600d20", "600d{1..19,19}"),
        ] {
            let (priced, general) = (cost(equal).steps, cost(uneven).steps);
            assert!(
                priced * 2.0 < general,
                "{equal}: {priced} against {general}"
            );
            assert_kept(equal);
            assert_kept(uneven);
        }
    }

    #[test]
    fn mixtures_of_make_ups_are_priced_by_what_they_visit() {
        // Pools rolled from many make-ups (explosions as dice, rolled counts):
        // trimmed by a first kh/kl, split by a lone drop, summed factor by factor,
        // or else visited make-up by make-up.
        for text in [
            "10d10!kh3",
            "10d6!dl1",
            "3d6!dh1",
            "8d10!pdl2",
            "{10d8!+10d6!}kh3",
            "{6d8!+6d6!+6d4!}kh3",
            "{10d8!+10d6!}kl3",
            "{10d8!+10d6!}kh3dl1",
            "{10d8!+10d6!}",
            "{4d6!+4d8!}cs>=6",
            "{3d6!+3d8!}dh1",
            "{10d10!+10d8!}dh2",
            "{2d6!+2d8!+2d10!}dl1",
            "{3d6!p+3d8!p}dh1",
            "{2d6!p+2d8!p}dl1",
            "{3d6!+3d8!}dh1dl1",
            "{(d4)d6!+(d6)d8}dh1",
            "{(d6)d8+(d4)d10}dl2",
            "{20d10!+20d8!+20d6!}kh5",
        ] {
            assert_kept(text);
        }
    }

    #[test]
    fn pools_dropping_few_are_priced_a_face_at_a_time() {
        // A pool that drops a few dice from one end is summed a face at a time, one
        // power of the cut dice each: `55d2dh1` (2,087 steps by the rank walk) was
        // priced at 1.0e6 as that walk, `200d20dl2` at 5.4e10 and refused.
        for text in [
            "55d2dh1",
            "100d3dl2",
            "200d20dl2",
            "40d10dh4",
            "32d{-2,0,3}dh2",
            "{20d4+20d6+20d8}dl1",
            "{12d6+4d{1,1,2,5}}dl3",
            "30d6dl1cs>=5",
            "20d6!>=5dl2",
        ] {
            assert_kept(text);
        }
    }

    #[test]
    fn make_ups_evaluated_whole_are_priced_by_their_typical_pool() {
        // Selections that neither trim nor set dice apart (`dh1dl1`, a drop before
        // a keep) evaluate every make-up whole. When only the top face explodes,
        // a make-up is its last rolls and one value repeated, however many times
        // the dice exploded: `12d6!dh1dl1` (8.8e6 steps used) was priced 5.8e11,
        // as if every make-up held every roll a chain could make, and refused.
        for text in [
            "12d6!dh1dl1",
            "8d6!pdh1dl1",
            "5d8!pdh1dl1",
            "6d10!dh2dl2",
            "3d6!dh1dl1",
            "4d6!dh1kh2",
            "(1d4+2)d6!dh1dl1",
            // Other faces exploding: the rolls that explode vary.
            "{2d6!>=4+2d8!}dh1dl1",
            "{1d6!>=3+1d8!>=5}dh1dl1",
        ] {
            assert_kept(text);
        }
    }

    #[test]
    fn make_ups_with_chains_run_to_the_cap_stay_whole() {
        // Keeping the low dice of explosions on high faces, a make-up trims to its
        // last rolls unless chains ran to the cap and left fewer than `k` of them:
        // those keep every extra roll. `{5d6!>=5+10d6!>=5}kl5dh1` was priced at
        // 1.3e6 steps and used 1.7e7, so a budget between the two admitted it and
        // then stopped it.
        for text in [
            "{5d6!>=5+10d6!>=5}kl5dh1",
            "{3d6!>=5+6d6!>=5}kl3dh1",
            "{3d6!>=5+6d10!>=9}kl3dh1",
            "{10d10!>=9+10d10!>=9}kl3",
            "2d10!>=9dl2",
            "5d6!>=5kl5",
        ] {
            assert_kept(text);
        }
    }

    #[test]
    fn make_ups_only_counted_are_priced_factor_by_factor() {
        // Counting successes without keeps, each factor's make-ups are evaluated
        // and mixed apart: `{(d4+10)d6!}cs>=5` was priced as one pool, 4.1e5 steps
        // against 1.2e6 used.
        for text in [
            "{(d4+10)d6!}cs>=5",
            "{(d4+4)d6!}cs>=5",
            "{(d6)d{3..8}!}cs>=5",
            "{10d6!}cs>=5",
            "{10d10!>=9}cs>=5",
            "{4d6!+4d8!}cs>=6",
        ] {
            assert_kept(text);
        }
    }

    #[test]
    fn explosions_are_priced_by_the_faces_that_explode() {
        // The top face alone, written as a condition: one value repeated.
        assert_kept("9d{1,1,2,6,6}!>=6dh1");
        assert_kept("5d6!>=6dh1dl1");
        // Extra rolls of two faces, all above the last rolls: dropping the highest
        // leaves a pool of those two faces (2.5e5 steps used; it was priced
        // 3.5e9 and refused).
        let text = "5d10!>=9dh1";
        let steps = cost(text).steps;
        assert!(steps < 2e9, "{text}: {steps}");
        let control = crate::control::Control::new();
        crate::dice::notation::eval::evaluate_expr(
            &parse(text).unwrap(),
            &Options::default(),
            &control,
        )
        .unwrap();
        assert!(control.steps_used() as f64 <= steps);
    }

    #[test]
    fn kinds_whose_faces_do_not_overlap_are_one_count() {
        // While the walk passes one kind's faces every die of the other is either
        // assigned or certainly still to come: about one kind's price, not every
        // split of the ranks between two kinds (8.2e9, refused).
        let apart = cost("{30d{1..4}+30d{5..6}}dh1dl1").steps;
        let one_kind = cost("60d6dh1dl1").steps;
        assert!(apart < 2.0 * one_kind, "{apart} against {one_kind}");
        assert_kept("{10d{1..4}+10d{5..6}}kl5");
    }

    #[test]
    fn estimates_grow_with_size() {
        assert!(cost("20d6").steps < cost("200d6").steps);
        assert!(cost("10d10kh3").steps < cost("100d10kh30").steps);
        assert!(cost("[r = d4] r * 3d6").steps < cost("[r = d20] r * 3d6").steps);
        assert!(cost("5d10!kh3").steps < cost("10d10!kh3").steps);
        assert!(cost("3#(4d6kh3)kh1").steps < cost("30#(4d6kh3)kh1").steps);
    }

    #[test]
    fn mixed_pools_are_priced_by_the_kinds_that_stay_apart() {
        // d4, d6 and d8 join from the top: priced about as one kind.
        let joined = cost("{30d4+30d6+30d8}kh15").steps;
        let one_kind = cost("90d8kh15").steps;
        assert!(joined < 2.0 * one_kind, "{joined} against {one_kind}");
        // Shifted dice never join: every split of the kept ranks among the kinds.
        let apart = cost("{30d6+30d{2..7}+30d{3..8}}kh15").steps;
        assert!(apart > 10.0 * joined, "{apart} against {joined}");
        for text in [
            "{60d4+60d6+60d8}kh30",
            "{60d4+60d6+60d8}kl30",
            "{20d4+20d6+20d8}dh5dl5",
        ] {
            assert!(cost(text).steps < 1e9, "{text}: {}", cost(text).steps);
        }
    }
}
