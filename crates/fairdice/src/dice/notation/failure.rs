//! [`NotationError`]: everything that can go wrong between text and distribution,
//! with the span of the expression at fault.

use std::fmt;

use thiserror::Error;

use super::ast::Span;
use super::cost::Cost;
use super::error::{ParseError, underline};
use crate::control::{Failure, FailureKind, Stop, step_count};
use crate::dice::die::DieError;

/// Why a dice expression could not be evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NotationError {
    /// The text is not a dice expression.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The expression parses but means nothing (`d0`, a division by a die that can
    /// show 0, a reroll that matches every face, an overflow).
    #[error("{error}")]
    Invalid {
        /// What is wrong.
        error: DieError,
        /// The part of the expression at fault.
        span: Span,
    },
    /// The exact distribution would cost more than the budget allows.
    #[error("{0}")]
    TooBig(TooBig),
    /// The computation went past its budget or was cancelled.
    #[error(transparent)]
    Stopped(#[from] Stop),
}

/// The estimate that made an exact computation refuse.
#[derive(Debug, Clone, PartialEq)]
pub struct TooBig {
    /// The estimated cost.
    pub estimate: Cost,
    /// The step limit in force.
    pub max_steps: u64,
    /// The outcome limit in force.
    pub max_outcomes: u64,
}

impl fmt::Display for TooBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut reasons = Vec::new();
        if self.estimate.steps > self.max_steps as f64 {
            reasons.push(format!(
                "about {} steps (the limit is {})",
                step_count(self.estimate.steps),
                step_count(self.max_steps as f64)
            ));
        }
        if self.estimate.outcomes > self.max_outcomes as f64 {
            reasons.push(format!(
                "about {} distinct outcomes (the limit is {})",
                step_count(self.estimate.outcomes),
                step_count(self.max_outcomes as f64)
            ));
        }
        write!(
            f,
            "too large to compute exactly: it would take {}",
            reasons.join(" and ")
        )
    }
}

impl NotationError {
    /// The part of the expression at fault, if one part is.
    pub fn span(&self) -> Option<Span> {
        match self {
            NotationError::Parse(e) => Some(e.span()),
            NotationError::Invalid { span, .. } => Some(span.clone()),
            NotationError::TooBig(_) | NotationError::Stopped(_) => None,
        }
    }

    /// The message with the expression and a caret line under the part at fault.
    pub fn render(&self, source: &str) -> String {
        match self {
            NotationError::Parse(e) => e.render(source),
            NotationError::Invalid { span, .. } => underline(source, span, &self.to_string()),
            _ => self.to_string(),
        }
    }

    pub(crate) fn at(span: &Span) -> impl Fn(DieError) -> NotationError + '_ {
        move |error| match error {
            DieError::Stopped(stop) => NotationError::Stopped(stop),
            error => NotationError::Invalid {
                error,
                span: span.clone(),
            },
        }
    }
}

impl Failure for NotationError {
    fn kind(&self) -> FailureKind {
        match self {
            NotationError::Parse(_) => FailureKind::Invalid,
            NotationError::Invalid { error, .. } => error.kind(),
            NotationError::TooBig(_) => FailureKind::TooLarge,
            NotationError::Stopped(stop) => stop.kind(),
        }
    }
}
