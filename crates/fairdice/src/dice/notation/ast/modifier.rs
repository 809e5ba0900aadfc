//! Modifiers of dice and pools, and the conditions they test.

use std::fmt;

use super::{Expr, Span};
use crate::dice::die::Outcome;

/// A test applied to one die's outcome: `<3`, `>=5`, `=1` (a bare number means
/// `=`), or a parity (`even`, `odd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Condition {
    /// How the outcome is compared.
    pub comparison: Comparison,
    /// What it is compared with (unused by the parities).
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
    /// An even outcome (the `even` modifier).
    Even,
    /// An odd outcome (the `odd` modifier).
    Odd,
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
            Comparison::Even => outcome % 2 == 0,
            Comparison::Odd => outcome % 2 != 0,
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
            Comparison::Even => return f.write_str("even"),
            Comparison::Odd => return f.write_str("odd"),
        };
        write!(f, "{op}{}", self.value)
    }
}

/// How the rolls of an explosion count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExplodeKind {
    /// `!` (Foundry `x`): every extra roll is a die of its own, which keep/drop and
    /// success counting see.
    Dice,
    /// `!!`: the rolls of a chain add up into one die.
    Compound,
    /// `!p`: like `!`, each extra roll counting one less.
    Penetrate,
    /// `!!p`: like `!!`, each extra roll counting one less.
    CompoundPenetrate,
}

impl ExplodeKind {
    /// Whether a chain of rolls is one die (`!!`, `!!p`) rather than several.
    pub fn compounds(self) -> bool {
        matches!(self, ExplodeKind::Compound | ExplodeKind::CompoundPenetrate)
    }

    /// What each roll after the first of a chain adds to its value (−1 when
    /// penetrating).
    pub fn extra_offset(self) -> Outcome {
        match self {
            ExplodeKind::Penetrate | ExplodeKind::CompoundPenetrate => -1,
            ExplodeKind::Dice | ExplodeKind::Compound => 0,
        }
    }
}

/// How far an explosion may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExplodeLimit {
    /// At most the explode depth of the evaluation options per die (the last roll
    /// stands as it lands).
    Depth,
    /// `xo`: only the first roll of each die may explode.
    Once,
    /// `x5>=9` (Foundry's cap): at most this many extra rolls for the whole dice
    /// term, the dice taken in the order rolled.
    PerTerm(u64),
}

/// A modifier applied to each die of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DieModifier {
    /// `!`, `!!`, `!p`, `!>=5`, `xo`, `x5=10`: roll again while the roll matches;
    /// with no condition, on the die's top face.
    Explode {
        /// Which rolls explode (any of them); empty means the top face.
        conditions: Vec<Condition>,
        /// How the extra rolls count.
        kind: ExplodeKind,
        /// How far the explosion may go.
        limit: ExplodeLimit,
        /// Where the modifier is written.
        span: Span,
    },
    /// `r1`, `rr<3`: reroll until the die no longer matches (exact conditioning).
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
    /// `min3`: a roll below the value counts as the value.
    Minimum {
        /// The least value a roll counts as.
        value: Outcome,
        /// Where the modifier is written.
        span: Span,
    },
    /// `max5`: a roll above the value counts as the value.
    Maximum {
        /// The greatest value a roll counts as.
        value: Outcome,
        /// Where the modifier is written.
        span: Span,
    },
}

impl DieModifier {
    /// Where the modifier is written.
    pub fn span(&self) -> &Span {
        match self {
            DieModifier::Explode { span, .. }
            | DieModifier::Reroll { span, .. }
            | DieModifier::RerollOnce { span, .. }
            | DieModifier::Minimum { span, .. }
            | DieModifier::Maximum { span, .. } => span,
        }
    }
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

/// A [`Keep`] without its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeepKind {
    /// `kh`
    Highest,
    /// `kl`
    Lowest,
    /// `dh`
    DropHighest,
    /// `dl`
    DropLowest,
}

impl Keep {
    /// The selection of `kind` with `n` dice.
    #[inline]
    pub fn new(kind: KeepKind, n: u64) -> Keep {
        match kind {
            KeepKind::Highest => Keep::Highest(n),
            KeepKind::Lowest => Keep::Lowest(n),
            KeepKind::DropHighest => Keep::DropHighest(n),
            KeepKind::DropLowest => Keep::DropLowest(n),
        }
    }

    /// Which kind of selection it is.
    pub fn kind(self) -> KeepKind {
        match self {
            Keep::Highest(_) => KeepKind::Highest,
            Keep::Lowest(_) => KeepKind::Lowest,
            Keep::DropHighest(_) => KeepKind::DropHighest,
            Keep::DropLowest(_) => KeepKind::DropLowest,
        }
    }

    /// How many dice it keeps or drops.
    pub fn count(self) -> u64 {
        match self {
            Keep::Highest(n) | Keep::Lowest(n) | Keep::DropHighest(n) | Keep::DropLowest(n) => n,
        }
    }
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
    /// `kh(d3)`: keep or drop a number of dice that is itself rolled (a count
    /// that is a constant, `kh(1+2)`, is read as [`PoolModifier::Keep`]).
    KeepRolled {
        /// Which dice.
        kind: KeepKind,
        /// How many.
        count: Box<Expr>,
        /// Where the modifier is written.
        span: Span,
    },
    /// `cs>=8`, `even`, `odd`: the pool's value is the number of dice matching
    /// instead of the sum. Several of them count a die matching any.
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
    /// `cf<3`: the pool's value is the number of dice matching (failures).
    CountFailures {
        /// What counts as a failure.
        condition: Condition,
        /// Where the modifier is written.
        span: Span,
    },
    /// `u`, `uo`, `u=5`: in the order rolled, a die showing what an earlier die
    /// shows (and matching the condition, when there is one) is rolled again:
    /// until it differs (`u`), or once (`uo`). Written on a dice term before its
    /// other pool modifiers.
    Unique {
        /// Whether a repeat is rolled again only once.
        once: bool,
        /// Which repeats are rolled again; none means every repeat.
        condition: Option<Condition>,
        /// Where the modifier is written.
        span: Span,
    },
}

impl PoolModifier {
    /// Where the modifier is written.
    pub fn span(&self) -> &Span {
        match self {
            PoolModifier::Keep { span, .. }
            | PoolModifier::KeepRolled { span, .. }
            | PoolModifier::CountSuccesses { span, .. }
            | PoolModifier::DeductFailures { span, .. }
            | PoolModifier::CountFailures { span, .. }
            | PoolModifier::Unique { span, .. } => span,
        }
    }

    /// Whether it keeps or drops dice (rather than counting them).
    pub fn selects(&self) -> bool {
        matches!(
            self,
            PoolModifier::Keep { .. } | PoolModifier::KeepRolled { .. }
        )
    }
}

/// `x` clamped by the clamps in `modifiers`, in order.
pub(crate) fn clamp(modifiers: &[DieModifier], x: Outcome) -> Outcome {
    modifiers.iter().fold(x, |x, m| match m {
        DieModifier::Minimum { value, .. } => x.max(*value),
        DieModifier::Maximum { value, .. } => x.min(*value),
        _ => x,
    })
}
