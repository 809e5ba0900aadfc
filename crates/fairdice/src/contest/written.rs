//! Contest pools written in dice notation: `5d6`, `3d6+1d8+1d10`, `4dF`, `2d6+d8!`.
//!
//! In a contest a `+` joins dice into one pool instead of adding their values; the
//! dice keep the order written, which is the order an unsorted contest pairs them
//! in. A pool holds only dice: a fixed count of any die (`d6`, `3d%`, `2d{1,1,2}`,
//! with per-die modifiers such as `!` or `r1`), joined by `+`. An exploding die is
//! one die of the pool, its rolls added up (as `!!` would). Constants, other
//! operators, keep/drop, success counting and random counts are refused with the
//! span at fault.

use thiserror::Error;

use crate::control::{Control, Failure, FailureKind};
use crate::dice::arithmetic::BinaryOp;
use crate::dice::die::Die;
use crate::dice::notation::ast::{Dice, Expr, ExprKind, Span};
use crate::dice::notation::error::underline;
use crate::dice::notation::{NotationError, Options, evaluate_expr, parse};

/// Why text is not a contest pool.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PoolTextError {
    /// The text is not valid dice notation, or a die in it is invalid.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// Valid notation, but not something a contest can pair.
    #[error("{reason}")]
    NotAPool {
        /// The part at fault.
        span: Span,
        /// Why it cannot be part of a pool, and what can.
        reason: String,
    },
}

impl PoolTextError {
    /// The message with the text and a caret line under the part at fault.
    pub fn render(&self, source: &str) -> String {
        match self {
            PoolTextError::Notation(e) => e.render(source),
            PoolTextError::NotAPool { span, reason } => underline(source, span, reason),
        }
    }

    /// The part of the text at fault, if one part is.
    pub fn span(&self) -> Option<Span> {
        match self {
            PoolTextError::Notation(e) => e.span(),
            PoolTextError::NotAPool { span, .. } => Some(span.clone()),
        }
    }
}

impl Failure for PoolTextError {
    fn kind(&self) -> FailureKind {
        match self {
            PoolTextError::Notation(error) => error.kind(),
            PoolTextError::NotAPool { .. } => FailureKind::Invalid,
        }
    }
}

/// What a pool may hold, appended to every refusal.
const ACCEPTED: &str = "a contest pool is dice joined by `+`, such as `5d6` or `3d6+1d8+1d10`";

/// Parses a contest pool into runs `(die, how many)` in the order written.
///
/// # Example
/// ```
/// use fairdice::Control;
/// use fairdice::contest::written::parse_pool;
/// use fairdice::dice::notation::Options;
///
/// let runs = parse_pool("3d6+1d8+1d10", &Options::default(), &Control::new())?;
/// let sizes: Vec<(i64, u64)> = runs.iter().map(|(d, n)| (d.max_outcome(), *n)).collect();
/// assert_eq!(sizes, [(6, 3), (8, 1), (10, 1)]);
/// assert!(parse_pool("3d6+2", &Options::default(), &Control::new()).is_err());
/// # Ok::<(), fairdice::contest::written::PoolTextError>(())
/// ```
///
/// # Errors
/// [`PoolTextError::Notation`] for text that does not parse or a die that is
/// invalid; [`PoolTextError::NotAPool`] for anything but dice joined by `+`.
pub fn parse_pool(
    text: &str,
    options: &Options,
    control: &Control,
) -> Result<Vec<(Die, u64)>, PoolTextError> {
    let expr = parse(text).map_err(NotationError::from)?;
    let mut terms = Vec::new();
    collect_terms(&expr, &mut terms)?;
    terms
        .into_iter()
        .map(|(dice, span)| term(dice, span, options, control))
        .collect()
}

/// The dice terms of a sum, left to right.
fn collect_terms<'a>(
    expr: &'a Expr,
    terms: &mut Vec<(&'a Dice, Span)>,
) -> Result<(), PoolTextError> {
    let refuse = |what: &str| PoolTextError::NotAPool {
        span: expr.span.clone(),
        reason: format!("{what} cannot be part of a contest pool; {ACCEPTED}"),
    };
    match &expr.kind {
        ExprKind::Binary {
            op: BinaryOp::Add,
            left,
            right,
        } => {
            collect_terms(left, terms)?;
            collect_terms(right, terms)
        }
        ExprKind::Dice(dice) => {
            terms.push((dice, expr.span.clone()));
            Ok(())
        }
        ExprKind::Number(_) => Err(refuse("a constant")),
        ExprKind::Negate(_) => Err(refuse("a negated term")),
        ExprKind::Binary { op, .. } => Err(refuse(&format!("`{}`", op.symbol()))),
        ExprKind::Not(_) => Err(refuse("`not`")),
        ExprKind::Name(_) | ExprKind::Bind { .. } => Err(refuse("a named roll")),
        ExprKind::Conditional { .. } => Err(refuse("a conditional")),
        ExprKind::Call { function, .. } => Err(refuse(&format!("`{}`", function.name()))),
        ExprKind::Group(_) => Err(refuse("a group")),
        ExprKind::Repeat(_) => Err(refuse("a repetition")),
        ExprKind::Deal(_) | ExprKind::BindHands { .. } => Err(refuse("a deal of cards")),
        ExprKind::Labelled { .. } => Err(refuse("a labelled expression")),
        ExprKind::Tuple(_) => Err(refuse("a tuple")),
    }
}

/// One term: its die (modifiers applied) and how many of it.
fn term(
    dice: &Dice,
    span: Span,
    options: &Options,
    control: &Control,
) -> Result<(Die, u64), PoolTextError> {
    if let Some(modifier) = dice.pool_modifiers.first() {
        let span = modifier.span();
        return Err(PoolTextError::NotAPool {
            span: span.clone(),
            reason: format!(
                "keeping, dropping or counting dice is not allowed here, because a contest pairs every die rolled; {ACCEPTED}"
            ),
        });
    }
    if let crate::dice::notation::ast::Faces::Rolled(sides) = &dice.faces {
        return Err(PoolTextError::NotAPool {
            span: sides.span.clone(),
            reason: format!(
                "a contest pool needs dice whose faces are known (the sides are rolled once for the whole term); {ACCEPTED}"
            ),
        });
    }
    let count = match dice.count.as_deref() {
        None => 1,
        Some(Expr {
            kind: ExprKind::Number(n),
            span,
        }) => u64::try_from(*n).map_err(|_| PoolTextError::NotAPool {
            span: span.clone(),
            reason: format!("a pool cannot hold a negative number of dice; {ACCEPTED}"),
        })?,
        Some(count) => {
            return Err(PoolTextError::NotAPool {
                span: count.span.clone(),
                reason: format!("a contest pool needs a fixed number of dice; {ACCEPTED}"),
            });
        }
    };
    let one = Expr {
        kind: ExprKind::Dice(Dice {
            count: None,
            ..dice.clone()
        }),
        span,
    };
    Ok((evaluate_expr(&one, options, control)?, count))
}
