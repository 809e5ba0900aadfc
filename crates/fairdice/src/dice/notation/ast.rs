//! The syntax tree of a dice expression, with the source span of every node.
//!
//! The parser builds it; the exact evaluator, the cost estimate and the roller all
//! walk it, so they agree on what an expression means. The modifiers of dice and
//! pools (and their conditions) are in `modifier`.

mod labels;
mod modifier;

use std::ops::Range;

pub use self::labels::{Band, Labels};
pub(crate) use self::modifier::clamp;
pub use self::modifier::{
    Comparison, Condition, DieModifier, ExplodeKind, ExplodeLimit, Keep, KeepKind, PoolModifier,
};
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
    /// A roll of dice: `3d6`, `4d6kh3`, `(d4)d6`, `10d10cs>=8`, `d6!`, `3d(d6)`.
    Dice(Dice),
    /// `-x`.
    Negate(Box<Expr>),
    /// `a op b`: arithmetic (`+ - * / %`), a comparison giving 0/1
    /// (`< <= > >= == !=`) or a logical `and` / `or` giving 0/1.
    Binary {
        /// The operator (never `Max`/`Min`, which are written as functions).
        op: BinaryOp,
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
    },
    /// `not x`: 1 when `x` is 0, else 0.
    Not(Box<Expr>),
    /// A name bound by an enclosing [`ExprKind::Bind`]: the same roll wherever it
    /// is used.
    Name(String),
    /// `[name = value] body`: `value` is rolled once and `body` sees that one roll
    /// wherever it says `name`. Exactly, a mixture of `body` over the outcomes of
    /// `value`.
    Bind {
        /// The name.
        name: String,
        /// Where the name is written in the binding.
        name_span: Span,
        /// What is rolled.
        value: Box<Expr>,
        /// Where the name may be used.
        body: Box<Expr>,
    },
    /// `condition ? then : otherwise`: `then` when the condition is not 0.
    Conditional {
        /// Decides the branch.
        condition: Box<Expr>,
        /// The value when the condition is not 0.
        then: Box<Expr>,
        /// The value when it is 0.
        otherwise: Box<Expr>,
    },
    /// `max(a, b, …)`, `min(a, b, …)`, `abs(x)`.
    Call {
        /// Which function.
        function: Function,
        /// Its arguments, at least one.
        arguments: Vec<Expr>,
    },
    /// `{a, b, c}kh1`: several values rolled as one pool.
    Group(Group),
    /// `6#(4d6kh3)kh1`: one expression rolled several times as one pool.
    Repeat(Repeat),
    /// `deal(deck{1..13:4}, 5)`: hands dealt from one shuffle of a deck. Pool
    /// functions read a hand's cards as they read dice; alone, a deal of one hand
    /// is the sum of its cards.
    Deal(crate::dice::deck::Deal),
    /// `[a, b = deal(deck{1:13, 0:39}, 5, 5)] body`: each name one hand of the
    /// same deal, which `body` reads through pool functions (`count(a, 1)`) or
    /// alone (its sum). Exactly, a mixture of `body` over the hands' joint
    /// outcomes.
    BindHands {
        /// The names, one a hand, with where each is written; for cards of
        /// several values (`[(rank, suit) = deal(…)]`), one a value of each
        /// hand, hand by hand.
        names: Vec<(String, Span)>,
        /// The deal ([`ExprKind::Deal`]).
        deal: Box<Expr>,
        /// Where the names may be used.
        body: Box<Expr>,
    },
    /// `(count(p, 5, 6), count(p, 1))`: several results of one roll, their
    /// joint distribution. Only the whole expression (after its bindings) is a
    /// tuple; exactly, its outcomes are packed ([`crate::dice::tuple::TupleCode`]).
    Tuple(Vec<Expr>),
    /// `2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}`: the labels of
    /// the whole expression's outcomes, numbered from 0 in outcome order.
    Labelled {
        /// What is labelled.
        body: Box<Expr>,
        /// The ranges and their labels.
        labels: Labels,
    },
}

/// A function of the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Function {
    /// `max(a, b, …)`: the largest argument.
    Max,
    /// `min(a, b, …)`: the smallest argument.
    Min,
    /// `abs(x)`: the absolute value.
    Abs,
    /// `largest_set(5d6)`: how many dice show the most common face.
    LargestSet,
    /// `sets(10d10, 2)`: how many different faces at least that many dice show.
    Sets,
    /// `longest_straight(5d6)`: the longest run of consecutive faces shown.
    LongestStraight,
    /// `height(10d10)`: the face of the largest matching set (the highest such).
    Height,
    /// `count(12d6, 5, 6)`: how many dice show one of the faces listed.
    Count,
    /// `floor(a / b)`: the quotient rounded down (what `/` gives).
    Floor,
    /// `ceil(a / b)`: the quotient rounded up.
    Ceil,
    /// `round(a / b)`: the quotient rounded to the nearest integer, halves up.
    Round,
    /// `sqrt(x)`, only as the argument of `floor`, `ceil` or `round`: the square
    /// root rounded (`floor(sqrt(d100))`).
    Sqrt,
}

impl Function {
    /// Every function, in the order the help lists them.
    pub const ALL: [Function; 12] = [
        Function::Max,
        Function::Min,
        Function::Abs,
        Function::Floor,
        Function::Ceil,
        Function::Round,
        Function::Sqrt,
        Function::LargestSet,
        Function::Sets,
        Function::LongestStraight,
        Function::Height,
        Function::Count,
    ];

    /// The function's name as written.
    pub fn name(self) -> &'static str {
        match self {
            Function::Max => "max",
            Function::Min => "min",
            Function::Abs => "abs",
            Function::LargestSet => "largest_set",
            Function::Sets => "sets",
            Function::LongestStraight => "longest_straight",
            Function::Height => "height",
            Function::Count => "count",
            Function::Floor => "floor",
            Function::Ceil => "ceil",
            Function::Round => "round",
            Function::Sqrt => "sqrt",
        }
    }

    /// The function written `name`, if there is one.
    pub fn named(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// What the function reads of a pool, for the functions whose first argument
    /// is a pool of dice rather than a value, from its other `arguments` (written
    /// out numbers, as the parser checks).
    pub fn pattern(self, arguments: &[Expr]) -> Option<crate::dice::evaluator::Pattern> {
        use crate::dice::evaluator::Pattern;
        let number = |i: usize| arguments.get(i).and_then(Expr::constant).unwrap_or(1);
        match self {
            Function::LargestSet => Some(Pattern::LargestSet),
            Function::Sets => Some(Pattern::Sets(
                u32::try_from(number(1).max(1)).unwrap_or(u32::MAX),
            )),
            Function::LongestStraight => Some(Pattern::LongestStraight),
            Function::Height => Some(Pattern::Height),
            Function::Count => Some(Pattern::Count(
                arguments
                    .iter()
                    .skip(1)
                    .filter_map(Expr::constant)
                    .collect(),
            )),
            Function::Max
            | Function::Min
            | Function::Abs
            | Function::Floor
            | Function::Ceil
            | Function::Round
            | Function::Sqrt => None,
        }
    }

    /// How a rounding function rounds a quotient `a / b`; `None` for the others.
    pub fn rounding(self) -> Option<Rounding> {
        match self {
            Function::Floor => Some(Rounding::Down),
            Function::Ceil => Some(Rounding::Up),
            Function::Round => Some(Rounding::Nearest),
            _ => None,
        }
    }

    /// Whether its first argument is a pool of dice.
    pub fn reads_pool(self) -> bool {
        matches!(
            self,
            Function::LargestSet
                | Function::Sets
                | Function::LongestStraight
                | Function::Height
                | Function::Count
        )
    }

    /// Whether it takes `n` arguments.
    pub fn takes(self, n: usize) -> bool {
        match self {
            Function::Max | Function::Min => n >= 1,
            Function::Abs
            | Function::LargestSet
            | Function::LongestStraight
            | Function::Height
            | Function::Floor
            | Function::Ceil
            | Function::Round
            | Function::Sqrt => n == 1,
            Function::Sets => n == 2,
            Function::Count => n >= 2,
        }
    }

    /// The arguments it takes, with an example, for an error that says so.
    pub fn usage(self) -> &'static str {
        match self {
            Function::Max | Function::Min => "one argument or more: `max(d8!, d6!)`",
            Function::Abs => "one argument: `abs(d20 - 10)`",
            Function::LargestSet => {
                "one pool of dice, every die read (no keep or count): `largest_set(5d6)`"
            }
            Function::Sets => {
                "a pool of dice and a set size of 1 or more: `sets(10d10, 2)` (faces shown at least twice)"
            }
            Function::LongestStraight => {
                "one pool of dice, every die read (no keep or count): `longest_straight(5d6)`"
            }
            Function::Height => {
                "one pool of dice, every die read (no keep or count): `height(10d10)`"
            }
            Function::Count => {
                "a pool of dice and the faces to count, written out: `count(12d6, 5, 6)`"
            }
            Function::Floor => "one argument, a division: `floor(d20 / 3)`",
            Function::Ceil => "one argument, a division: `ceil(d20 / 3)`",
            Function::Round => "one argument, a division: `round(d20 / 3)`",
            Function::Sqrt => {
                "one argument, rounded by floor, ceil or round around it: `floor(sqrt(d100))`"
            }
        }
    }
}

/// How [`Function::Floor`], [`Function::Ceil`] and [`Function::Round`] round a
/// quotient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Down, as `/` does: `floor(7 / 2)` is 3, `floor(-7 / 2)` is −4.
    Down,
    /// Up: `ceil(7 / 2)` is 4, `ceil(-7 / 2)` is −3.
    Up,
    /// To the nearest, halves up: `round(7 / 2)` is 4, `round(-7 / 2)` is −3,
    /// `round(5 / 3)` is 2.
    Nearest,
}

impl Rounding {
    /// `a / b` rounded.
    ///
    /// # Errors
    /// [`DieError::DivisionByZero`](crate::dice::die::DieError::DivisionByZero),
    /// [`DieError::Overflow`](crate::dice::die::DieError::Overflow).
    pub fn divide(self, a: Outcome, b: Outcome) -> Result<Outcome, crate::dice::die::DieError> {
        use crate::dice::die::DieError;
        if b == 0 {
            return Err(DieError::DivisionByZero);
        }
        // In i128, where no quotient of two i64 overflows.
        let (a, b) = (i128::from(a), i128::from(b));
        let floor = |n: i128, d: i128| n.div_euclid(d) - i128::from(d < 0 && n.rem_euclid(d) != 0);
        let q = match self {
            Rounding::Down => floor(a, b),
            Rounding::Up => -floor(-a, b),
            // a/b + 1/2 = (2a + b) / 2b.
            Rounding::Nearest => floor(2 * a + b, 2 * b),
        };
        Outcome::try_from(q).map_err(|_| DieError::Overflow)
    }

    /// The square root of `x` rounded: the integer `k` with `k² ≤ x < (k+1)²`
    /// rounded down, and up unless `x` is a square; to the nearest, up once `x`
    /// passes `k² + k` (`(k + ½)²` is never an integer, so no half is met).
    ///
    /// # Errors
    /// [`DieError::NegativeRoot`](crate::dice::die::DieError::NegativeRoot) for
    /// `x < 0`.
    pub fn sqrt(self, x: Outcome) -> Result<Outcome, crate::dice::die::DieError> {
        if x < 0 {
            return Err(crate::dice::die::DieError::NegativeRoot(x));
        }
        let x = x.unsigned_abs();
        let k = x.isqrt();
        let up = match self {
            Rounding::Down => false,
            Rounding::Up => k * k < x,
            Rounding::Nearest => x > k * k + k,
        };
        // k ≤ 2^32, so k + 1 fits an i64.
        Ok((k + u64::from(up)) as Outcome)
    }
}

/// `[count]d<faces><modifiers>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// How many dice: `None` for a bare `dN` (one die); a literal, or a parenthesized
    /// expression for a computed or random number of dice (`(d4)d6`, `(1+2)d6`).
    pub count: Option<Box<Expr>>,
    /// The faces of each die.
    pub faces: Faces,
    /// Span of the faces part (after the `d`).
    pub faces_span: Span,
    /// Modifiers applied to every die before pooling (explode, reroll, clamp), in
    /// the order written.
    pub die_modifiers: Vec<DieModifier>,
    /// Modifiers applied to the pool as a whole (keep/drop, success counting), in the
    /// order written.
    pub pool_modifiers: Vec<PoolModifier>,
}

/// The faces of a die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Faces {
    /// `dN`: faces `1..=N` (also `d(2*3)`, folded when the parser reads it).
    Standard(u64),
    /// `d%`: faces `1..=100`.
    Percent,
    /// `dF`: faces −1, 0, +1.
    Fudge,
    /// `d{1,1,2,3}` (ranges `a..b` expand inclusively): each listed face once.
    Custom(Vec<Outcome>),
    /// `d(d6)`: as many sides as a roll shows (faces `1..=n`).
    Rolled(Box<Expr>),
}

impl Faces {
    /// The faces written out, `None` when they cannot be listed (rolled, or a
    /// standard die of more than 65,536 sides).
    pub(crate) fn listed(&self) -> Option<Vec<Outcome>> {
        match self {
            Faces::Standard(n) if *n <= 1 << 16 => Some((1..=*n as Outcome).collect()),
            Faces::Percent => Some((1..=100).collect()),
            Faces::Fudge => Some(vec![-1, 0, 1]),
            Faces::Custom(faces) => Some(faces.clone()),
            _ => None,
        }
    }
}

/// `{a, b, c}` with pool modifiers: each member is one value of the pool.
///
/// A group of one member, `{4d6+3d8}kh4`, pools the member's dice instead: the
/// dice of its dice terms, of its repetitions and groups, joined by `+`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The members, at least one.
    pub members: Vec<Expr>,
    /// Modifiers applied to the pool, in the order written.
    pub pool_modifiers: Vec<PoolModifier>,
}

/// `count#body` with pool modifiers: `body` rolled `count` times, each roll one
/// value of the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeat {
    /// How many times: a literal, a name or a parenthesized expression.
    pub count: Box<Expr>,
    /// What is rolled each time.
    pub body: Box<Expr>,
    /// Modifiers applied to the pool, in the order written.
    pub pool_modifiers: Vec<PoolModifier>,
}

impl Expr {
    /// The children of this node, in the order they are written (the count of a
    /// dice term, its rolled sides and rolled keep counts included).
    pub fn children(&self) -> Vec<&Expr> {
        fn pool(modifiers: &[PoolModifier]) -> impl Iterator<Item = &Expr> {
            modifiers.iter().filter_map(|m| match m {
                PoolModifier::KeepRolled { count, .. } => Some(&**count),
                _ => None,
            })
        }
        match &self.kind {
            ExprKind::Number(_) | ExprKind::Name(_) | ExprKind::Deal(_) => Vec::new(),
            ExprKind::BindHands { deal, body, .. } => vec![deal, body],
            ExprKind::Dice(dice) => {
                let mut children: Vec<&Expr> = dice.count.as_deref().into_iter().collect();
                if let Faces::Rolled(sides) = &dice.faces {
                    children.push(sides);
                }
                children.extend(pool(&dice.pool_modifiers));
                children
            }
            ExprKind::Negate(inner) | ExprKind::Not(inner) => vec![inner],
            ExprKind::Labelled { body, .. } => vec![body],
            ExprKind::Binary { left, right, .. } => vec![left, right],
            ExprKind::Bind { value, body, .. } => vec![value, body],
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => vec![condition, then, otherwise],
            ExprKind::Call { arguments, .. } | ExprKind::Tuple(arguments) => {
                arguments.iter().collect()
            }
            ExprKind::Group(group) => {
                let mut children: Vec<&Expr> = group.members.iter().collect();
                children.extend(pool(&group.pool_modifiers));
                children
            }
            ExprKind::Repeat(repeat) => {
                let mut children = vec![&*repeat.count, &*repeat.body];
                children.extend(pool(&repeat.pool_modifiers));
                children
            }
        }
    }

    /// The children of this node, to change them (the same as
    /// [`Expr::children`]).
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        fn pool(modifiers: &mut [PoolModifier]) -> impl Iterator<Item = &mut Expr> {
            modifiers.iter_mut().filter_map(|m| match m {
                PoolModifier::KeepRolled { count, .. } => Some(&mut **count),
                _ => None,
            })
        }
        match &mut self.kind {
            ExprKind::Number(_) | ExprKind::Name(_) | ExprKind::Deal(_) => Vec::new(),
            ExprKind::BindHands { deal, body, .. } => vec![deal, body],
            ExprKind::Dice(dice) => {
                let mut children: Vec<&mut Expr> = dice.count.as_deref_mut().into_iter().collect();
                if let Faces::Rolled(sides) = &mut dice.faces {
                    children.push(sides);
                }
                children.extend(pool(&mut dice.pool_modifiers));
                children
            }
            ExprKind::Negate(inner) | ExprKind::Not(inner) => vec![inner],
            ExprKind::Labelled { body, .. } => vec![body],
            ExprKind::Binary { left, right, .. } => vec![left, right],
            ExprKind::Bind { value, body, .. } => vec![value, body],
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => vec![condition, then, otherwise],
            ExprKind::Call { arguments, .. } | ExprKind::Tuple(arguments) => {
                arguments.iter_mut().collect()
            }
            ExprKind::Group(group) => {
                let mut children: Vec<&mut Expr> = group.members.iter_mut().collect();
                children.extend(pool(&mut group.pool_modifiers));
                children
            }
            ExprKind::Repeat(repeat) => {
                let mut children = vec![&mut *repeat.count, &mut *repeat.body];
                children.extend(pool(&mut repeat.pool_modifiers));
                children
            }
        }
    }

    /// Whether an explosion in this node or below it is cut at the evaluation's
    /// explode depth (`!`, `!!`, `!p` without a limit of their own), so that
    /// an exact distribution of it is exact only up to that depth. `xo` and
    /// `x5=10` are exact as written.
    pub fn explodes_to_depth(&self) -> bool {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if let ExprKind::Dice(dice) = &node.kind
                && dice.die_modifiers.iter().any(|m| {
                    matches!(
                        m,
                        DieModifier::Explode {
                            limit: ExplodeLimit::Depth,
                            ..
                        }
                    )
                })
            {
                return true;
            }
            stack.extend(node.children());
        }
        false
    }

    /// Whether this node or any below it uses a name bound outside it.
    ///
    /// The parser refuses to bind a name again where it is already bound, so a
    /// name is free here exactly when no binding inside the node binds it.
    pub fn uses_names(&self) -> bool {
        let (mut used, mut bound) = (Vec::new(), Vec::new());
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match &node.kind {
                ExprKind::Name(name) => used.push(name.as_str()),
                ExprKind::Bind { name, .. } => bound.push(name.as_str()),
                _ => {}
            }
            stack.extend(node.children());
        }
        used.iter().any(|name| !bound.contains(name))
    }
}

/// What a lone member of a group puts in the group's pool (Roll20's reading:
/// `{4d6+3d8}kh4` keeps four of seven dice). The exact evaluator, the roller and
/// the cost estimate all read a lone member through [`Expr::pool_part`], so they
/// agree on which dice are pooled.
#[derive(Debug, Clone, Copy)]
pub enum PoolPart<'a> {
    /// `left + right`: the parts of both, in order.
    Sum {
        /// The sum itself.
        sum: &'a Expr,
        /// Its left operand.
        left: &'a Expr,
        /// Its right operand.
        right: &'a Expr,
    },
    /// A dice term without pool modifiers: each of its dice.
    Dice(&'a Dice),
    /// A repetition without pool modifiers: each of its rolls.
    Repeat(&'a Repeat),
    /// A group of several members without pool modifiers: each member one value.
    Members(&'a [Expr]),
    /// Anything else: one value.
    Value(&'a Expr),
}

impl Expr {
    /// What this node puts in a pool as the lone member of a group (a group of
    /// one member without modifiers passes its member's part through).
    pub fn pool_part(&self) -> PoolPart<'_> {
        let mut node = self;
        while let ExprKind::Group(group) = &node.kind
            && group.pool_modifiers.is_empty()
            && let [only] = group.members.as_slice()
        {
            node = only;
        }
        match &node.kind {
            ExprKind::Binary {
                op: BinaryOp::Add,
                left,
                right,
            } => PoolPart::Sum {
                sum: node,
                left,
                right,
            },
            ExprKind::Dice(dice) if dice.pool_modifiers.is_empty() => PoolPart::Dice(dice),
            ExprKind::Repeat(repeat) if repeat.pool_modifiers.is_empty() => {
                PoolPart::Repeat(repeat)
            }
            ExprKind::Group(group) if group.pool_modifiers.is_empty() => {
                PoolPart::Members(&group.members)
            }
            _ => PoolPart::Value(node),
        }
    }

    /// What a body reads of the pool bound to `name`: the patterns of the pool
    /// functions whose first argument is `name` (each once, in the order written),
    /// and whether it also says `name` alone (its sum).
    pub fn pool_uses(&self, name: &str) -> (Vec<crate::dice::evaluator::Pattern>, bool) {
        let (mut patterns, mut plain) = (Vec::new(), false);
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match &node.kind {
                ExprKind::Call {
                    function,
                    arguments,
                } if function.reads_pool()
                    && matches!(&arguments[0].kind, ExprKind::Name(n) if n == name) =>
                {
                    let pattern = function.pattern(arguments).expect("a pool function");
                    if !patterns.contains(&pattern) {
                        patterns.push(pattern);
                    }
                    stack.extend(arguments[1..].iter().rev());
                    continue;
                }
                ExprKind::Name(n) if n == name => plain = true,
                _ => {}
            }
            stack.extend(node.children().into_iter().rev());
        }
        (patterns, plain)
    }

    /// What a body reads of each hand bound to `names` (one a hand, in order):
    /// the hand's index, its patterns (its sum last where the body says its name
    /// alone) and whether it does. Hands the body never reads are left out.
    pub fn hand_uses(
        &self,
        names: &[(String, Span)],
    ) -> Vec<(usize, Vec<crate::dice::evaluator::Pattern>, bool)> {
        names
            .iter()
            .enumerate()
            .filter_map(|(hand, (name, _))| {
                let (mut patterns, plain) = self.pool_uses(name);
                if plain {
                    patterns.push(crate::dice::evaluator::Pattern::Sum);
                }
                (!patterns.is_empty()).then_some((hand, patterns, plain))
            })
            .collect()
    }

    /// What the equally likely cases of this expression's exact distribution
    /// are: rolls of its dice, deals of its cards, or both.
    pub fn counted(&self) -> crate::dice::report::Counted {
        use crate::dice::report::Counted;
        let (mut dice, mut deals) = (false, false);
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match &node.kind {
                ExprKind::Dice(_) => dice = true,
                ExprKind::Deal(_) => deals = true,
                _ => {}
            }
            stack.extend(node.children());
        }
        match (dice, deals) {
            (_, false) => Counted::Rolls,
            (false, true) => Counted::Deals,
            (true, true) => Counted::RollsAndDeals,
        }
    }

    /// Whether this pools a deal's hand with other dice or values (`deal(…) +
    /// d4` read as one pool): a hand is read alone or through its name.
    pub fn joins_a_deal(&self) -> bool {
        fn leaves(expr: &Expr) -> bool {
            match expr.pool_part() {
                PoolPart::Sum { left, right, .. } => leaves(left) || leaves(right),
                PoolPart::Value(value) => matches!(value.kind, ExprKind::Deal(_)),
                _ => false,
            }
        }
        !matches!(self.kind, ExprKind::Deal(_)) && leaves(self)
    }

    /// Whether this is a pool that keeps, drops or counts its dice (`5d6kh3`,
    /// `{a, b}kh1`, `3#d6cs>=5`): one value, not the dice a pool function reads.
    pub fn selects_from_pool(&self) -> bool {
        match &self.kind {
            ExprKind::Dice(dice) => !dice.pool_modifiers.is_empty(),
            ExprKind::Group(group) => !group.pool_modifiers.is_empty(),
            ExprKind::Repeat(repeat) => !repeat.pool_modifiers.is_empty(),
            _ => false,
        }
    }

    /// The argument of `sqrt(x)`, when this expression is one.
    pub fn root(&self) -> Option<&Expr> {
        match &self.kind {
            ExprKind::Call {
                function: Function::Sqrt,
                arguments,
            } => arguments.first(),
            _ => None,
        }
    }

    /// The value of an expression without dice or names (`1+2`, `-3`,
    /// `max(2, 4)`), if it has one; `None` for anything rolled, named or
    /// undefined (a division by zero, an overflow).
    pub fn constant(&self) -> Option<Outcome> {
        match &self.kind {
            ExprKind::Number(n) => Some(*n),
            ExprKind::Negate(inner) => inner.constant()?.checked_neg(),
            ExprKind::Not(inner) => Some(Outcome::from(inner.constant()? == 0)),
            ExprKind::Binary { op, left, right } => {
                op.apply(left.constant()?, right.constant()?).ok()
            }
            ExprKind::Call {
                function,
                arguments,
            } => {
                if let Some(rounding) = function.rounding() {
                    return match &arguments.first()?.kind {
                        ExprKind::Binary {
                            op: BinaryOp::Div,
                            left,
                            right,
                        } => rounding.divide(left.constant()?, right.constant()?).ok(),
                        _ => match arguments[0].root() {
                            Some(x) => rounding.sqrt(x.constant()?).ok(),
                            None => arguments[0].constant(),
                        },
                    };
                }
                let values = arguments
                    .iter()
                    .map(Expr::constant)
                    .collect::<Option<Vec<_>>>()?;
                match function {
                    Function::Max => values.into_iter().max(),
                    Function::Min => values.into_iter().min(),
                    Function::Abs => values.first()?.checked_abs(),
                    Function::Floor | Function::Ceil | Function::Round | Function::Sqrt => None,
                    // A pool of values (`1+2` pools two): left to the evaluation.
                    Function::LargestSet
                    | Function::Sets
                    | Function::LongestStraight
                    | Function::Height
                    | Function::Count => None,
                }
            }
            _ => None,
        }
    }
}

impl Expr {
    /// The values of the tuple this expression gives, after its bindings, if it
    /// gives one.
    pub fn tuple(&self) -> Option<&[Expr]> {
        match &self.kind {
            ExprKind::Tuple(values) => Some(values),
            ExprKind::Bind { body, .. } | ExprKind::BindHands { body, .. } => body.tuple(),
            _ => None,
        }
    }

    /// The packing of the tuple this expression gives, if it gives one.
    pub fn tuple_code(&self) -> Option<crate::dice::tuple::TupleCode> {
        self.tuple()
            .map(|values| crate::dice::tuple::TupleCode::new(values.len()))
    }

    /// The labels of the whole expression's outcomes, in outcome order, if it
    /// has labels.
    pub fn label_names(&self) -> Option<Vec<String>> {
        match &self.kind {
            ExprKind::Labelled { labels, .. } => Some(labels.names().to_vec()),
            _ => None,
        }
    }
}

/// The evaluator of a deal of cards of several values (packed by `code`) that
/// reads what [`Expr::hand_uses`] lists, the names being one a value of each
/// hand, hand by hand.
pub fn attribute_reads(
    code: crate::dice::tuple::TupleCode,
    reads: &[(usize, Vec<crate::dice::evaluator::Pattern>, bool)],
) -> crate::dice::deck::AttributeReads {
    let values = code.size();
    crate::dice::deck::AttributeReads::new(
        code,
        reads
            .iter()
            .flat_map(|(name, patterns, _)| {
                patterns
                    .iter()
                    .map(move |p| crate::dice::deck::AttributeRead {
                        hand: name / values,
                        attribute: name % values,
                        pattern: p.clone(),
                    })
            })
            .collect(),
    )
}

/// The evaluator of a deal that reads what [`Expr::hand_uses`] lists: each
/// hand's patterns, in order.
pub fn hands_evaluator(
    reads: &[(usize, Vec<crate::dice::evaluator::Pattern>, bool)],
) -> crate::dice::evaluator::PerPool {
    crate::dice::evaluator::PerPool(
        reads
            .iter()
            .flat_map(|(hand, patterns, _)| patterns.iter().map(|p| (*hand, p.clone())))
            .collect(),
    )
}
