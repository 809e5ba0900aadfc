//! The syntax tree of a dice expression, with the source span of every node.
//!
//! The parser builds it; the exact evaluator, the cost estimate and the roller all
//! walk it, so they agree on what an expression means.

use std::fmt;
use std::ops::Range;

use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::Outcome;

/// Byte offsets into the expression text.
pub type Span = Range<usize>;

/// An expression node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Where it is in the source (parentheses included for a parenthesized node).
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal.
    Number(Outcome),
    /// A roll of dice: `3d6`, `4d6kh3`, `(d4)d6`, `10d10cs>=8`, `d6!`.
    Dice(Dice),
    /// `-x`.
    Negate(Box<Expr>),
    /// `a op b`: arithmetic (`+ - * /`) or a comparison giving 0/1 (`< <= > >= == !=`).
    Binary {
        /// The operator (never `Max`/`Min`, which have no infix form).
        op: BinaryOp,
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
    },
}

/// `[count]d<faces><modifiers>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// How many dice: `None` for a bare `dN` (one die); a literal, or a parenthesized
    /// expression for a random number of dice (`(d4)d6`).
    pub count: Option<Box<Expr>>,
    /// The faces of each die.
    pub faces: Faces,
    /// Span of the faces part (after the `d`).
    pub faces_span: Span,
    /// Modifiers applied to every die before pooling (explode, reroll), in the order
    /// written.
    pub die_modifiers: Vec<DieModifier>,
    /// Modifiers applied to the pool as a whole (keep/drop, success counting), in the
    /// order written.
    pub pool_modifiers: Vec<PoolModifier>,
}

/// The faces of a die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Faces {
    /// `dN`: faces `1..=N`.
    Standard(u64),
    /// `d%`: faces `1..=100`.
    Percent,
    /// `dF`: faces −1, 0, +1.
    Fudge,
    /// `d{1,1,2,3}` (ranges `a..b` expand inclusively): each listed face once.
    Custom(Vec<Outcome>),
}

/// A test applied to one die's outcome: `<3`, `>=5`, `=1` (a bare number means `=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Condition {
    /// How the outcome is compared.
    pub comparison: Comparison,
    /// What it is compared with.
    pub value: Outcome,
}

/// The comparison in a [`Condition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `=` (also written `==` or as a bare number)
    Eq,
    /// `!=`
    Ne,
}

impl Condition {
    /// Whether `outcome` passes the test.
    pub fn matches(self, outcome: Outcome) -> bool {
        match self.comparison {
            Comparison::Lt => outcome < self.value,
            Comparison::Le => outcome <= self.value,
            Comparison::Gt => outcome > self.value,
            Comparison::Ge => outcome >= self.value,
            Comparison::Eq => outcome == self.value,
            Comparison::Ne => outcome != self.value,
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.comparison {
            Comparison::Lt => "<",
            Comparison::Le => "<=",
            Comparison::Gt => ">",
            Comparison::Ge => ">=",
            Comparison::Eq => "=",
            Comparison::Ne => "!=",
        };
        write!(f, "{op}{}", self.value)
    }
}

/// A modifier applied to each die of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DieModifier {
    /// `!`, `!>=5`: roll again and add while the roll matches; with no condition, on
    /// the die's top face. Depth is an evaluation option.
    Explode {
        /// Which rolls explode (any of them); empty means the top face.
        conditions: Vec<Condition>,
        /// Where the modifier is written.
        span: Span,
    },
    /// `r1`, `r<3`: reroll until the die no longer matches (exact conditioning).
    Reroll {
        /// Which rolls are rerolled (any of them).
        conditions: Vec<Condition>,
        /// Where the modifier is written.
        span: Span,
    },
    /// `ro1`, `ro<3`: reroll a matching die once and keep the second roll.
    RerollOnce {
        /// Which rolls are rerolled (any of them).
        conditions: Vec<Condition>,
        /// Where the modifier is written.
        span: Span,
    },
}

/// Which dice of a sorted pool a keep/drop modifier selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keep {
    /// `khN` (also `kN`): keep the N highest.
    Highest(u64),
    /// `klN`: keep the N lowest.
    Lowest(u64),
    /// `dhN`: drop the N highest.
    DropHighest(u64),
    /// `dlN`: drop the N lowest.
    DropLowest(u64),
}

/// A modifier applied to the pool as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolModifier {
    /// Keep or drop some dice by rank before adding up.
    Keep {
        /// Which dice.
        keep: Keep,
        /// Where the modifier is written.
        span: Span,
    },
    /// `cs>=8`: the pool's value is the number of dice matching instead of the sum.
    CountSuccesses {
        /// What counts as a success.
        condition: Condition,
        /// Where the modifier is written.
        span: Span,
    },
    /// `df=1`: each die matching subtracts one from the success count.
    DeductFailures {
        /// What counts as a failure.
        condition: Condition,
        /// Where the modifier is written.
        span: Span,
    },
}
