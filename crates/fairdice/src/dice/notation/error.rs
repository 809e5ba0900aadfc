//! [`ParseError`]: why a dice expression could not be parsed, and where.
//!
//! An error carries the byte span of the offending input, what was found there,
//! what the grammar would have accepted, and — for mistakes with a better
//! explanation than "unexpected …" — a specific [`Problem`]. [`ParseError::render`]
//! draws it under the source text with carets; it never prints and uses no colours,
//! so the command line and the web page can show it as they like.
//!
//! # Design decisions
//! Expected items are a small closed enum ([`Expected`]) rather than strings so that
//! callers can test for them, and so that their order is fixed: they are sorted by
//! what a reader scans for first (operands, then symbols, then modifiers, operators,
//! closing brackets and the end of input), which keeps messages stable whatever order
//! the parser happened to try the alternatives in.

use std::fmt;

use thiserror::Error;

use super::ast::Span;

/// Why a dice expression could not be parsed.
///
/// # Example
/// ```
/// use fairdice::dice::notation::{parse, Found};
///
/// let error = parse("4d6kh3y").unwrap_err();
/// assert_eq!(error.span(), 6..7);
/// assert_eq!(error.found(), Found::Char('y'));
/// assert_eq!(
///     error.render("4d6kh3y"),
///     "4d6kh3y\n      ^ unexpected `y`; expected a modifier, an operator or end of input"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", self.message())]
pub struct ParseError {
    span: Span,
    found: Found,
    expected: Vec<Expected>,
    /// Boxed: a problem is rare, and errors travel inside larger error types.
    problem: Option<Box<Problem>>,
}

impl ParseError {
    /// An error at `span`, where `found` was seen but one of `expected` was needed;
    /// `expected` is sorted and deduplicated here.
    pub fn new(
        span: Span,
        found: Found,
        expected: impl IntoIterator<Item = Expected>,
        problem: Option<Problem>,
    ) -> ParseError {
        let mut expected: Vec<Expected> = expected.into_iter().collect();
        expected.sort();
        expected.dedup();
        ParseError {
            span,
            found,
            expected,
            problem: problem.map(Box::new),
        }
    }

    /// An error with a specific explanation at `span` of `source`.
    pub(crate) fn with_problem(source: &str, span: Span, problem: Problem) -> ParseError {
        let found = Found::at(source, span.start);
        ParseError::new(span, found, [], Some(problem))
    }

    /// Byte offsets of the offending input (empty at the end of the input).
    pub fn span(&self) -> Span {
        self.span.clone()
    }

    /// What was found at the start of the span.
    pub fn found(&self) -> Found {
        self.found
    }

    /// What the grammar would have accepted there, in a fixed order without repeats
    /// (empty when a [`Problem`] explains the error instead).
    pub fn expected(&self) -> &[Expected] {
        &self.expected
    }

    /// The specific explanation, when there is one.
    pub fn problem(&self) -> Option<&Problem> {
        self.problem.as_deref()
    }

    /// The one-line message: the specific explanation if there is one, otherwise
    /// "unexpected … ; expected …".
    pub fn message(&self) -> String {
        if let Some(problem) = &self.problem {
            return problem.to_string();
        }
        let mut message = format!("unexpected {}", self.found);
        if !self.expected.is_empty() {
            message.push_str("; expected ");
            message.push_str(&join_alternatives(&self.expected));
        }
        message
    }

    /// The source line with carets under the offending span, followed by the message:
    ///
    /// ```text
    /// 4d6kh3y
    ///       ^ unexpected `y`; expected a modifier, an operator or end of input
    /// ```
    ///
    /// Columns count characters, so carets line up under multi-byte text; tabs and
    /// other control characters are shown as spaces; only the line holding the start of
    /// the span is shown, and a very long line is cut to a window around the span.
    /// There is always at least one caret (after the last character at the end of the
    /// input). `source` should be the text that was parsed; anything else is drawn
    /// without panicking but the carets will point at the wrong place.
    pub fn render(&self, source: &str) -> String {
        underline(source, &self.span, &self.message())
    }
}

/// The source line holding `span`, a line of carets under the span, and `message`
/// after the carets: the layout of every notation error (see [`ParseError::render`]).
pub fn underline(source: &str, span: &Span, message: &str) -> String {
    let line = SourceLine::around(source, span.clone());
    format!(
        "{}\n{}{} {}",
        line.text,
        " ".repeat(line.caret_column),
        "^".repeat(line.caret_width),
        message
    )
}

/// Joins `a`, `a or b`, `a, b or c`.
fn join_alternatives(items: &[Expected]) -> String {
    let words: Vec<String> = items.iter().map(ToString::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Lines longer than this many characters are cut to a window around the span.
const RENDER_WIDTH: usize = 80;
/// How many characters of context a cut line keeps before the span.
const RENDER_CONTEXT: usize = 20;

/// One displayable line of source and where the carets go on it.
struct SourceLine {
    text: String,
    caret_column: usize,
    caret_width: usize,
}

impl SourceLine {
    fn around(source: &str, span: Span) -> SourceLine {
        let start = floor_boundary(source, span.start);
        let end = floor_boundary(source, span.end.max(start));
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let chars: Vec<char> = source[line_start..line_end]
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let caret_column = source[line_start..start].chars().count();
        let caret_width = source[start..end.min(line_end)].chars().count().max(1);
        SourceLine::windowed(&chars, caret_column, caret_width)
    }

    /// Cuts a long line to about [`RENDER_WIDTH`] characters that show the span's start.
    fn windowed(chars: &[char], caret_column: usize, caret_width: usize) -> SourceLine {
        if chars.len() <= RENDER_WIDTH {
            return SourceLine {
                text: chars.iter().collect(),
                caret_column,
                caret_width,
            };
        }
        let from = caret_column
            .saturating_sub(RENDER_CONTEXT)
            .min(chars.len().saturating_sub(RENDER_WIDTH));
        let to = (from + RENDER_WIDTH).min(chars.len());
        let mut text = String::new();
        let mut column = caret_column - from;
        if from > 0 {
            text.push('…');
            column += 1;
        }
        text.extend(&chars[from..to]);
        if to < chars.len() {
            text.push('…');
        }
        let room = to.saturating_sub(caret_column).max(1);
        SourceLine {
            text,
            caret_column: column,
            caret_width: caret_width.min(room),
        }
    }
}

/// The largest char boundary of `source` at or before `at`.
fn floor_boundary(source: &str, at: usize) -> usize {
    let mut at = at.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// What the parser found where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Found {
    /// A character.
    Char(char),
    /// The end of the input.
    EndOfInput,
}

impl Found {
    /// The character of `source` that starts at byte `at`, or the end of input.
    pub(crate) fn at(source: &str, at: usize) -> Found {
        source
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .map_or(Found::EndOfInput, Found::Char)
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Char(' ') => f.write_str("space"),
            Found::Char('\t') => f.write_str("tab"),
            Found::Char('\n' | '\r') => f.write_str("line break"),
            Found::Char(c) if c.is_whitespace() || c.is_control() => {
                write!(f, "`{}`", c.escape_unicode())
            }
            Found::Char('`') => f.write_str("backtick"),
            Found::Char(c) => write!(f, "`{c}`"),
            Found::EndOfInput => f.write_str("end of input"),
        }
    }
}

/// Something the grammar would have accepted where parsing stopped.
///
/// Messages list them in the variant order below; symbols in the order `d ( - % F {`
/// then the rest by code point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// A whole expression (only for empty input).
    Expression,
    /// An integer.
    Number,
    /// A symbol or letter that opens something: `d`, `(`, `-`, `%`, `F`, `{`, `h`, `l`.
    Symbol(char),
    /// A die condition: `<3`, `>=5`, `=1` or a bare number.
    Condition,
    /// A die or pool modifier: `!`, `r`, `ro`, `kh`, `kl`, `dh`, `dl`, `cs`, `df`.
    Modifier,
    /// A name (of a bound roll or a function).
    Name,
    /// An arithmetic or comparison operator.
    Operator,
    /// `..` in a custom die's face range.
    RangeDots,
    /// A range of outcomes to label: `7..9`, `..6`, `10..`, `>=10` or `12`.
    Range,
    /// A label: a word or a quoted text.
    Label,
    /// A symbol that continues or closes a construct: `,`, `}`, `)`, `]`, `:`.
    Closing(char),
    /// The end of the input.
    EndOfInput,
}

impl Expected {
    /// The sort key: variant order, then a reading order for symbols.
    fn rank(self) -> (u8, u32) {
        const OPENERS: &str = "d(-%F{";
        let symbol = |c: char| {
            OPENERS
                .find(c)
                .map_or(OPENERS.len() as u32 + u32::from(c), |i| i as u32)
        };
        match self {
            Expected::Expression => (0, 0),
            Expected::Number => (1, 0),
            Expected::Symbol(c) => (2, symbol(c)),
            Expected::Condition => (3, 0),
            Expected::Modifier => (4, 0),
            Expected::Name => (5, 0),
            Expected::Operator => (6, 0),
            Expected::RangeDots => (7, 0),
            Expected::Range => (8, 0),
            Expected::Label => (9, 0),
            Expected::Closing(c) => (10, u32::from(c)),
            Expected::EndOfInput => (11, 0),
        }
    }
}

impl PartialOrd for Expected {
    fn partial_cmp(&self, other: &Expected) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Expected {
    fn cmp(&self, other: &Expected) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Expression => f.write_str("a dice expression"),
            Expected::Number => f.write_str("a number"),
            Expected::Symbol(c) | Expected::Closing(c) => write!(f, "`{c}`"),
            Expected::Condition => f.write_str("a condition such as `>=5`"),
            Expected::Modifier => f.write_str("a modifier"),
            Expected::Name => f.write_str("a name"),
            Expected::Operator => f.write_str("an operator"),
            Expected::RangeDots => f.write_str("`..`"),
            Expected::Range => f.write_str("a range such as `7..9`, `..6` or `>=10`"),
            Expected::Label => f.write_str("a label"),
            Expected::EndOfInput => f.write_str("end of input"),
        }
    }
}

/// A specific explanation for a parse error, where "unexpected …" would not say
/// enough.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum Problem {
    /// The input is empty or only whitespace.
    #[error("expected a dice expression")]
    Empty,
    /// The input is longer than the parser accepts.
    #[error("the expression is {len} bytes long; at most {max} are accepted")]
    TooLong {
        /// The input's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Brackets, calls, bindings or conditionals nest deeper than the parser accepts.
    #[error("brackets, calls and conditionals nest more than {max} levels deep")]
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// The expression tree (unary minus, operator chains) is deeper than accepted.
    #[error("the expression nests more than {max} levels deep")]
    TooComplex {
        /// The limit.
        max: usize,
    },
    /// `a < b < c`.
    #[error("comparisons cannot be chained; use parentheses")]
    ChainedComparison,
    /// An integer that does not fit.
    #[error("number too large for a 64-bit integer")]
    NumberTooLarge,
    /// A dice tool's reading (`--dialect`) that fairdice cannot write, the
    /// difference named.
    #[error("{0}")]
    Dialect(String),
    /// `d{}`.
    #[error("a custom die needs at least one face")]
    NoFaces,
    /// `d{5..1}`.
    #[error("the face range `{low}..{high}` is empty; write the smaller end first")]
    EmptyRange {
        /// Where the range starts.
        low: i64,
        /// Where it ends.
        high: i64,
    },
    /// A custom die whose ranges expand to too many faces.
    #[error("a custom die may have at most {max} faces; use `dN` for large standard dice")]
    TooManyFaces {
        /// The limit.
        max: usize,
    },
    /// `4d6d1`: Roll20's bare `d` for dropping dice.
    #[error(
        "`d` after dice is not a modifier; write `dl` to drop the lowest or `dh` to drop the highest"
    )]
    BareDrop,
    /// `d6!!` when compounding explosions were not supported (no longer reported:
    /// `!!` compounds).
    #[error("compounding explosion `!!` is not supported; use `!` to explode")]
    CompoundingExplosion,
    /// A name used where no binding gives it a value.
    #[error("unknown name `{name}`; bind a roll to it first, as in `[{name} = d20] {name} + 5`")]
    UnknownName {
        /// The name.
        name: String,
    },
    /// A name bound again where it is already bound.
    #[error("`{name}` is already bound here; choose another name")]
    NameTaken {
        /// The name.
        name: String,
    },
    /// A name that reads as something else (a die, a keyword, a function).
    #[error("`{name}` cannot be a name: it reads as {reads_as}")]
    ReservedName {
        /// The name.
        name: String,
        /// What it reads as.
        reads_as: &'static str,
    },
    /// A function called with the wrong number of arguments.
    #[error("`{function}` takes {expected}")]
    Arguments {
        /// The function's name.
        function: &'static str,
        /// How many arguments it takes, in words.
        expected: &'static str,
    },
    /// A function name that does not exist.
    #[error(
        "unknown function `{name}`; the functions are {}",
        crate::dice::notation::ast::Function::ALL.map(|f| format!("`{}`", f.name())).join(", ")
    )]
    UnknownFunction {
        /// The name.
        name: String,
    },
    /// Two explosions on one die that cannot be combined (`d6!!!`, `d6!xo`).
    #[error(
        "a die explodes one way only: `{first}` and `{second}` cannot both apply; keep one (conditions of the same kind combine: `!5!6`)"
    )]
    TwoExplosions {
        /// The first explosion as written.
        first: String,
        /// The second.
        second: String,
    },
    /// Unique dice with a per-die modifier, twice, or with a rolled keep count.
    #[error("{0}")]
    Unique(String),
    /// Unique dice written after another pool modifier (`4d6kh3u`).
    #[error(
        "`u` rolls repeats again before the pool is kept or counted: write it right after the faces (`4d6ukh3`)"
    )]
    UniqueLate,
    /// Two ways of counting a pool that contradict each other (`cs>5cf<2`).
    #[error(
        "`{first}` and `{second}` count different things; count successes with `cs` and deduct failures with `df`"
    )]
    ConflictingCounts {
        /// The first counting modifier as written.
        first: String,
        /// The second.
        second: String,
    },
    /// Clamps that leave one value (`min5max3`).
    #[error("`{min}` is above `{max}`: every roll would count as one value")]
    ConflictingClamps {
        /// The minimum as written.
        min: String,
        /// The maximum as written.
        max: String,
    },
    /// A count of dice to keep or drop that is negative.
    #[error("a number of dice to keep or drop cannot be negative ({0})")]
    NegativeKeep(i64),
    /// A `)` with no `(` before it.
    #[error("unmatched `)`")]
    UnmatchedParen,
    /// `3d6 = 10`: a single `=` where an operator belongs.
    #[error("`=` is not an operator; compare with `==`")]
    SingleEquals,
    /// A deck or deal that cannot be made (no card, hands larger than the deck).
    #[error("{0}")]
    Cards(String),
    /// A hand size that is not a number written out.
    #[error("a hand's size is a number written out, 0 or more (`deal(deck{{1..13:4}}, 5)`)")]
    HandSize,
    /// Names bound to a deal of a different number of hands.
    #[error(
        "{names} {} bound to a deal of {hands} {}; write one name a hand",
        if *names == 1 { "name is" } else { "names are" },
        if *hands == 1 { "hand" } else { "hands" }
    )]
    HandNames {
        /// Names written.
        names: usize,
        /// Hands dealt.
        hands: usize,
    },
    /// Several names bound to something other than a deal.
    #[error(
        "only a deal binds several names at once, one a hand (`[a, b = deal(deck{{1..13:4}}, 5, 5)]`)"
    )]
    SeveralNames,
    /// A hand pooled with other dice or values.
    #[error(
        "a hand is read alone or through its name, not pooled with other dice (`[h = deal(…)] largest_set(h)`)"
    )]
    HandInPool,
    /// A deal of several hands not bound to names.
    #[error(
        "a deal of {hands} hands is read through names, one a hand: `[a, b = deal(…)] count(a, 1) > count(b, 1)`"
    )]
    UnnamedHands {
        /// Hands dealt.
        hands: usize,
    },
    /// A deck whose cards hold different numbers of values.
    #[error(
        "every card of a deck holds as many values: `deck{{1..13:4}}`, or `deck{{(1..13, 1..4)}}` for a rank and a suit"
    )]
    CardShapes,
    /// A hand of cards of several attributes not read through a name each.
    #[error(
        "a hand of cards with {attributes} values each is read through a name a value: `[(rank, suit) = deal(deck{{(1..13, 1..4)}}, 5)] largest_set(suit)`"
    )]
    CardAttributes {
        /// The values each card holds.
        attributes: usize,
    },
    /// Names of a card's values bound to a hand of cards with another number.
    #[error(
        "{names} {} bound to each hand of cards with {attributes} {} each; write `{}`",
        if *names == 1 { "name is" } else { "names are" },
        if *attributes == 1 { "value" } else { "values" },
        if *attributes == 1 { "[h = deal(…)]".to_string() } else { format!("[({}) = deal(…)]", (1..=*attributes).map(|i| format!("v{i}")).collect::<Vec<_>>().join(", ")) }
    )]
    AttributeNames {
        /// Names written for each hand.
        names: usize,
        /// Values each card holds.
        attributes: usize,
    },
    /// A function's body that uses a name other than its parameters.
    #[error("`{name}` is not a parameter of `{function}`: a function sees only its parameters")]
    FunctionSeesOnlyParameters {
        /// The function.
        function: String,
        /// The name used.
        name: String,
    },
    /// A call of a user's function with the wrong number of arguments.
    #[error("`{function}` takes {parameters} {}, got {given}", if *parameters == 1 { "argument" } else { "arguments" })]
    FunctionArguments {
        /// The function.
        function: String,
        /// Its parameters.
        parameters: usize,
        /// The arguments given.
        given: usize,
    },
    /// A function that calls itself.
    #[error(
        "`{name}` calls itself: an exact answer cannot cut a recursion short, so functions do not recurse (for explosions, write `!`: `d6!`)"
    )]
    CallsItself {
        /// The function.
        name: String,
    },
    /// Calls that write out too large an expression.
    #[error(
        "the calls of functions write out more than {max} nodes; call fewer, or call functions of functions less deeply"
    )]
    FunctionsTooLarge {
        /// The most nodes.
        max: usize,
    },
    /// A tuple of more values than one may hold.
    #[error("a tuple holds at most {max} values")]
    TupleSize {
        /// The most values.
        max: usize,
    },
    /// `sqrt` anywhere but as the argument of `floor`, `ceil` or `round`.
    #[error(
        "a square root is an integer only rounded: write `floor(sqrt(…))`, `ceil(sqrt(…))` or `round(sqrt(…))`"
    )]
    RootUnrounded,
    /// A tuple anywhere but as the whole expression.
    #[error(
        "a tuple is the whole result, written last: `[p = 12d6] (count(p, 5, 6), count(p, 1))`"
    )]
    TupleInside,
    /// Two ranges of labels that share an outcome.
    #[error("this range overlaps an earlier one: each outcome gets one label")]
    LabelsOverlap,
    /// More ranges of labels than a list may hold, or a label too long.
    #[error("labels are at most {max_labels} ranges of at most {max_len} characters each")]
    TooManyLabels {
        /// The most ranges.
        max_labels: usize,
        /// The longest label.
        max_len: usize,
    },
}
