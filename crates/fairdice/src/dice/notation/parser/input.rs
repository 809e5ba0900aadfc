//! The text being parsed, the position reached, and what went wrong: the mistakes
//! recorded on the way (a number too large, `d{}`, chained comparisons) and the
//! furthest place where the grammar wanted something it did not find.
//!
//! # Design decisions
//! The parser is a predictive recursive descent; where the grammar has optional
//! or repeated parts it tries them and steps back when they do not fit. A failure
//! records what would have fitted at its position; only the furthest position
//! reached counts (the failures there are merged), because that is where the
//! reader's text stopped making sense. A part that fails after reading some text
//! is undone together with the mistakes recorded inside it ([`Input::attempt`]).
//! [`Input::label`] replaces what a whole construct would have accepted at its
//! start by one word ("a modifier") instead of the list of its alternatives.

use smallvec::SmallVec;

use super::MAX_NESTING;
use super::functions::Definition;
use crate::dice::notation::ast::Span;
use crate::dice::notation::error::{Expected, Found, ParseError, Problem};

/// A part of the grammar did not fit; what it wanted is recorded in the [`Input`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fail;

/// The result of parsing one part.
pub(super) type Parsed<T> = Result<T, Fail>;

/// What would have fitted where parsing could not go on.
#[derive(Debug, Clone)]
pub(super) struct Wanted {
    at: usize,
    span: Span,
    found: Option<char>,
    expected: SmallVec<[Expected; 8]>,
}

/// The text, the position and what went wrong so far.
pub(super) struct Input<'a> {
    text: &'a str,
    pos: usize,
    wanted: Option<Wanted>,
    problems: Vec<(Span, Problem)>,
    /// The functions the user has defined so far, in scope.
    pub(super) functions: Vec<Definition>,
    /// The functions whose bodies are being read.
    pub(super) defining: Vec<String>,
    /// Nodes written out by calls so far.
    pub(super) expanded: usize,
    /// How many expressions enclose the position (brackets, arguments, bindings'
    /// values, conditionals' first branches): the parser's recursion.
    nesting: usize,
    /// Where the text first nested deeper than [`MAX_NESTING`]: parsing stops
    /// there, whatever was being tried.
    too_deep: Option<usize>,
}

impl<'a> Input<'a> {
    pub(super) fn new(text: &'a str) -> Input<'a> {
        Input {
            text,
            pos: 0,
            wanted: None,
            problems: Vec::new(),
            functions: Vec::new(),
            defining: Vec::new(),
            expanded: 0,
            nesting: 0,
            too_deep: None,
        }
    }

    /// Parses a nested expression with `part`, one level deeper; past
    /// [`MAX_NESTING`] levels fails at once, here and in everything that
    /// encloses it, so the descent never goes deeper than the limit whatever
    /// the text.
    pub(super) fn nested<T>(&mut self, part: impl FnOnce(&mut Self) -> Parsed<T>) -> Parsed<T> {
        if self.too_deep.is_some() {
            return Err(Fail);
        }
        if self.nesting > MAX_NESTING {
            // The character that opened the level: a bracket, `,`, `=` or `?`.
            self.too_deep = Some(self.pos.saturating_sub(1));
            return Err(Fail);
        }
        self.nesting += 1;
        let parsed = part(self);
        self.nesting -= 1;
        parsed
    }

    /// The whole text.
    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    /// The function in scope named `name`, if the user defined one.
    pub(super) fn function(&self, name: &str) -> Option<&Definition> {
        self.functions.iter().rev().find(|f| f.name() == name)
    }

    /// The byte offset reached.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// The text from `start` to the position reached.
    pub(super) fn since(&self, start: usize) -> &'a str {
        &self.text[start..self.pos]
    }

    /// The text of `span`.
    pub(super) fn slice(&self, span: Span) -> &'a str {
        &self.text[span]
    }

    /// The next character, if any.
    pub(super) fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// The byte `ahead` bytes past the position, if any.
    pub(super) fn byte(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + ahead).copied()
    }

    /// Whether the text goes on with `prefix`.
    pub(super) fn looking_at(&self, prefix: &str) -> bool {
        self.text[self.pos..].starts_with(prefix)
    }

    /// Goes back to `pos`, before only whitespace or text that recorded nothing.
    pub(super) fn reset(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Moves past `bytes` bytes of ASCII.
    pub(super) fn advance(&mut self, bytes: usize) {
        self.pos += bytes;
    }

    /// Skips whitespace.
    pub(super) fn whitespace(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Moves past `c` if it comes next.
    pub(super) fn eat(&mut self, c: u8) -> bool {
        let found = self.byte(0) == Some(c);
        if found {
            self.pos += 1;
        }
        found
    }

    /// Moves past `c`, or records that it was wanted here and fails.
    pub(super) fn expect(&mut self, c: u8) -> Parsed<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.want(&[symbol(char::from(c))]);
            Err(Fail)
        }
    }

    /// Moves past the whole of `word` if it comes next; otherwise records, where
    /// the text first differs from it, the character wanted there.
    pub(super) fn word(&mut self, word: &str) -> bool {
        let rest = &self.text.as_bytes()[self.pos..];
        let same = rest
            .iter()
            .zip(word.as_bytes())
            .take_while(|(a, b)| a == b)
            .count();
        if same == word.len() {
            self.pos += same;
            return true;
        }
        let wanted = char::from(word.as_bytes()[same]);
        let at = self.pos + same;
        self.want_at(at, &[symbol(wanted)]);
        false
    }

    /// The rest of a list whose first item, if it has one, is in `items`: more
    /// items, each after a `,`, then the byte `close` (whitespace may come before
    /// each `,` and before `close`).
    pub(super) fn list_end<T>(
        &mut self,
        items: &mut Vec<T>,
        item: impl Fn(&mut Self) -> Parsed<T>,
        close: u8,
    ) -> Parsed<()> {
        if !items.is_empty() {
            while let Some(next) = self.attempt(|input| {
                input.whitespace();
                input.expect(b',')?;
                item(input)
            }) {
                items.push(next);
            }
        }
        self.whitespace();
        self.expect(close)
    }

    /// Records that one of `expected` would have fitted at the position.
    pub(super) fn want(&mut self, expected: &[Expected]) {
        self.want_at(self.pos, expected);
    }

    /// Records that one of `expected` would have fitted at `at`.
    pub(super) fn want_at(&mut self, at: usize, expected: &[Expected]) {
        let len = self.text[at..].chars().next().map_or(0, char::len_utf8);
        self.want_span(at, at..at + len, expected);
    }

    /// As [`Input::want_at`], the unwanted text being `span`.
    pub(super) fn want_span(&mut self, at: usize, span: Span, expected: &[Expected]) {
        match &mut self.wanted {
            Some(wanted) if wanted.at > at => {}
            Some(wanted) if wanted.at == at => {
                for e in expected {
                    if !wanted.expected.contains(e) {
                        wanted.expected.push(*e);
                    }
                }
            }
            _ => {
                self.wanted = Some(Wanted {
                    at,
                    span,
                    found: self.text[at..].chars().next(),
                    expected: expected.iter().copied().collect(),
                });
            }
        }
    }

    /// Records a mistake that does not stop parsing.
    pub(super) fn problem(&mut self, span: Span, problem: Problem) {
        self.problems.push((span, problem));
    }

    /// Runs `part`; if it fails, steps back to where it started and forgets the
    /// mistakes recorded inside it (what it wanted stays recorded).
    pub(super) fn attempt<T>(&mut self, part: impl FnOnce(&mut Self) -> Parsed<T>) -> Option<T> {
        let (pos, problems) = (self.pos, self.problems.len());
        let (functions, expanded) = (self.functions.len(), self.expanded);
        match part(self) {
            Ok(value) => Some(value),
            Err(Fail) => {
                self.pos = pos;
                self.problems.truncate(problems);
                self.functions.truncate(functions);
                self.expanded = expanded;
                None
            }
        }
    }

    /// Runs `part`, then says that whatever it wanted at its start was `label`
    /// (nothing worth listing for `None`).
    pub(super) fn label<T>(
        &mut self,
        label: Option<Expected>,
        part: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let start = self.pos;
        let outer = self.wanted.take();
        let result = part(self);
        let inner = std::mem::replace(&mut self.wanted, outer);
        if let Some(mut inner) = inner {
            if inner.at == start {
                inner.expected.clear();
                inner.expected.extend(label);
            }
            let Wanted {
                at, span, expected, ..
            } = inner;
            self.want_span(at, span, &expected);
        }
        result
    }

    /// The first mistake in the text, if parsing `failed` or any was recorded.
    pub(super) fn finish(self, failed: bool) -> Option<ParseError> {
        let text = self.text;
        if let Some(at) = self.too_deep {
            let end = at + text[at..].chars().next().map_or(0, char::len_utf8);
            let problem = Problem::TooDeep { max: MAX_NESTING };
            return Some(ParseError::with_problem(text, at..end, problem));
        }
        let wanted = self
            .wanted
            .filter(|_| failed)
            .map(|w| (w.span.clone(), Err(w)));
        let mistakes = self.problems.into_iter().map(|(span, p)| (span, Ok(p)));
        let (span, first) = mistakes
            .chain(wanted)
            .min_by_key(|(span, mistake)| (span.start, mistake.is_err()))?;
        Some(match first {
            Ok(problem) => ParseError::with_problem(text, span, problem),
            Err(wanted) => {
                let found = wanted.found.map_or(Found::EndOfInput, Found::Char);
                let problem = hint(text, &span, found, &wanted.expected);
                ParseError::new(span, found, wanted.expected, problem)
            }
        })
    }
}

/// How the grammar names a single character it wanted: a closing or separating
/// symbol, or one that opens or continues something.
pub(super) fn symbol(c: char) -> Expected {
    match c {
        ')' | '}' | ',' | ']' | ':' => Expected::Closing(c),
        c => Expected::Symbol(c),
    }
}

/// A specific explanation for a common slip that is otherwise reported generically.
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
