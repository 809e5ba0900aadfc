//! TEMPORARY: replaced by the real evaluator at merge.
//!
//! Just enough of `evaluate` for the randomizers' `base=EXPR` while the notation
//! parser is written on its own branch: `NdM` and `dM` only.

// TEMPORARY: replaced by the real evaluator at merge

use thiserror::Error;

use crate::dice::die::{Die, DieError};

/// Why a dice expression could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text is not of a supported form.
    #[error("cannot read dice expression `{0}`: expected NdM or dM, e.g. 2d6")]
    Syntax(String),
    /// The expression is well formed but its die cannot be built.
    #[error("dice expression `{text}`: {source}")]
    Die {
        /// The expression.
        text: String,
        /// The underlying error.
        source: DieError,
    },
}

/// The exact distribution of a dice expression (this shim: `NdM` and `dM` only).
///
/// # Errors
/// [`NotationError::Syntax`] for anything else; [`NotationError::Die`] if the die
/// cannot be built (e.g. `d0`).
pub fn evaluate(text: &str) -> Result<Die, NotationError> {
    let trimmed = text.trim();
    let syntax = || NotationError::Syntax(trimmed.to_string());
    let (count, sides) = trimmed
        .to_ascii_lowercase()
        .split_once('d')
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .ok_or_else(syntax)?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(count.is_empty() || digits(&count)) || !digits(&sides) {
        return Err(syntax());
    }
    let count: u64 = if count.is_empty() {
        1
    } else {
        count.parse().map_err(|_| syntax())?
    };
    let sides: u64 = sides.parse().map_err(|_| syntax())?;
    let die_error = |source| NotationError::Die {
        text: trimmed.to_string(),
        source,
    };
    Die::standard(sides)
        .and_then(|d| d.repeat_sum(count))
        .map_err(die_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_of_dice() {
        let die = evaluate("2d6").expect("2d6 is valid");
        assert_eq!(die.outcomes(), &(2..=12).collect::<Vec<_>>()[..]);
        assert_eq!(evaluate("d20").expect("d20 is valid").len(), 20);
        assert!(evaluate("2d").is_err());
        assert!(evaluate("d0").is_err());
        assert!(evaluate("x").is_err());
    }
}
