//! The parser's internal error while chumsky runs, and its conversion into the
//! public [`ParseError`].
//!
//! Chumsky merges the errors of alternatives that fail at the same place; labelling
//! parsers with [`Expected`] items makes that merged set read as human words, and
//! [`Label::Hidden`] keeps noise (whitespace, another digit of a number just read)
//! out of it.
//!
//! Every alternative that fails builds one of these errors, even while parsing
//! input that turns out fine, so it must be cheap: the expected items are kept as
//! a small set stored inline (hidden labels are simply not stored), and building
//! or merging errors allocates nothing.

use chumsky::DefaultExpected;
use chumsky::error::{Error as ChumskyError, LabelError};
use chumsky::prelude::*;
use chumsky::util::MaybeRef;
use smallvec::SmallVec;

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
    let expected: Vec<Expected> = raw.expected.to_vec();
    let found = match (&raw.problem, raw.found) {
        (None, Some(c)) => Found::Char(c),
        (None, None) => Found::EndOfInput,
        (Some(_), _) => Found::at(text, raw.span.start),
    };
    let problem = raw
        .problem
        .map(|problem| *problem)
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

/// The expected items of an error, each once, in the order they were met.
type ExpectedSet = SmallVec<[Expected; 8]>;

/// Adds the shown label `label` to `set` unless it is there already.
fn insert(set: &mut ExpectedSet, label: impl Into<Label>) {
    if let Some(expected) = label.into().shown() {
        if !set.contains(&expected) {
            set.push(expected);
        }
    }
}

impl From<DefaultExpected<'_, char>> for Label {
    fn from(expected: DefaultExpected<'_, char>) -> Label {
        match expected {
            DefaultExpected::Token(c) => match *c {
                c @ (')' | '}' | ',' | ']' | ':') => Label::Shown(Expected::Closing(c)),
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
    expected: ExpectedSet,
    problem: Option<Box<Problem>>,
}

impl RawError {
    /// `found` (a character, or the end of the input) where nothing was expected
    /// that deserves a name; a labelled parser around it says what was expected.
    pub(super) fn unexpected(found: Option<char>, span: SimpleSpan) -> RawError {
        RawError {
            span: span.into_range(),
            found,
            expected: ExpectedSet::new(),
            problem: None,
        }
    }

    pub(super) fn problem(span: SimpleSpan, problem: Problem) -> RawError {
        RawError {
            span: span.into_range(),
            found: None,
            expected: ExpectedSet::new(),
            problem: Some(Box::new(problem)),
        }
    }
}

impl<'src> ChumskyError<'src, &'src str> for RawError {
    fn merge(mut self, other: RawError) -> RawError {
        match (&self.problem, &other.problem) {
            (Some(_), _) => self,
            (None, Some(_)) => other,
            (None, None) => {
                for expected in other.expected {
                    insert(&mut self.expected, expected);
                }
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
        let mut set = ExpectedSet::new();
        for label in expected {
            insert(&mut set, label);
        }
        RawError {
            span: span.into_range(),
            found: found.as_deref().copied(),
            expected: set,
            problem: None,
        }
    }

    fn label_with(&mut self, label: L) {
        if self.problem.is_none() {
            self.expected.clear();
            insert(&mut self.expected, label);
        }
    }
}

impl From<Expected> for Label {
    fn from(expected: Expected) -> Label {
        Label::Shown(expected)
    }
}

pub(super) type Extra = extra::Err<RawError>;
