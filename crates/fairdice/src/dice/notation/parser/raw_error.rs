//! The parser's internal error while chumsky runs, and its conversion into the
//! public [`ParseError`].
//!
//! Chumsky merges the errors of alternatives that fail at the same place; labelling
//! parsers with [`Expected`] items makes that merged set read as human words, and
//! [`Label::Hidden`] keeps noise (whitespace, another digit of a number just read)
//! out of it.

use chumsky::DefaultExpected;
use chumsky::error::{Error as ChumskyError, LabelError};
use chumsky::prelude::*;
use chumsky::util::MaybeRef;

use crate::dice::notation::ast::Span;
use crate::dice::notation::error::{Expected, Found, ParseError, Problem};

/// Picks the error that starts first (a specific problem wins a tie) and turns it
/// into a [`ParseError`].
pub(super) fn report(text: &str, errors: Vec<RawError>) -> ParseError {
    let Some(raw) = errors
        .into_iter()
        .min_by_key(|e| (e.span.start, e.problem.is_none()))
    else {
        // Unreachable in practice: chumsky reports at least one error on failure.
        return ParseError::new(0..0, Found::at(text, 0), [Expected::Expression], None);
    };
    let expected: Vec<Expected> = raw.expected.iter().filter_map(|l| l.shown()).collect();
    let found = match (&raw.problem, raw.found) {
        (None, Some(c)) => Found::Char(c),
        (None, None) => Found::EndOfInput,
        (Some(_), _) => Found::at(text, raw.span.start),
    };
    let problem = raw
        .problem
        .or_else(|| hint(text, &raw.span, found, &expected));
    ParseError::new(raw.span, found, expected, problem)
}

/// A specific explanation for a common slip that the grammar reports generically.
fn hint(text: &str, span: &Span, found: Found, expected: &[Expected]) -> Option<Problem> {
    match found {
        Found::Char(')') if !expected.contains(&Expected::Closing(')')) => {
            let before = text.get(..span.start)?;
            let opened = before.matches('(').count();
            (before.matches(')').count() >= opened).then_some(Problem::UnmatchedParen)
        }
        _ => None,
    }
}

/// What a failed alternative would have accepted: a public [`Expected`] item, or
/// something not worth listing (whitespace, another digit of a number just read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Label {
    Shown(Expected),
    Hidden,
}

impl Label {
    fn shown(self) -> Option<Expected> {
        match self {
            Label::Shown(e) => Some(e),
            Label::Hidden => None,
        }
    }
}

impl From<DefaultExpected<'_, char>> for Label {
    fn from(expected: DefaultExpected<'_, char>) -> Label {
        match expected {
            DefaultExpected::Token(c) => match *c {
                c @ (')' | '}' | ',') => Label::Shown(Expected::Closing(c)),
                c => Label::Shown(Expected::Symbol(c)),
            },
            DefaultExpected::EndOfInput => Label::Shown(Expected::EndOfInput),
            _ => Label::Hidden,
        }
    }
}

/// The parser's error while it runs; [`report`] turns the chosen one into a
/// [`ParseError`].
#[derive(Debug, Clone)]
pub(super) struct RawError {
    span: Span,
    found: Option<char>,
    expected: Vec<Label>,
    problem: Option<Problem>,
}

impl RawError {
    pub(super) fn problem(span: SimpleSpan, problem: Problem) -> RawError {
        RawError {
            span: span.into_range(),
            found: None,
            expected: Vec::new(),
            problem: Some(problem),
        }
    }
}

impl<'src> ChumskyError<'src, &'src str> for RawError {
    fn merge(mut self, other: RawError) -> RawError {
        match (&self.problem, &other.problem) {
            (Some(_), _) => self,
            (None, Some(_)) => other,
            (None, None) => {
                self.expected.extend(other.expected);
                self
            }
        }
    }
}

impl<'src, L: Into<Label>> LabelError<'src, &'src str, L> for RawError {
    fn expected_found<E: IntoIterator<Item = L>>(
        expected: E,
        found: Option<MaybeRef<'src, char>>,
        span: SimpleSpan,
    ) -> RawError {
        RawError {
            span: span.into_range(),
            found: found.as_deref().copied(),
            expected: expected.into_iter().map(Into::into).collect(),
            problem: None,
        }
    }

    fn label_with(&mut self, label: L) {
        if self.problem.is_none() {
            self.expected = vec![label.into()];
        }
    }
}

impl From<Expected> for Label {
    fn from(expected: Expected) -> Label {
        Label::Shown(expected)
    }
}

pub(super) type Extra = extra::Err<RawError>;
