//! The dice-notation parser: text such as `[r = d20] r + 5 >= 15 ? 2d6 : 0` to an
//! [`Expr`]. The whole language, with worked examples, is in `docs/notation.md`.
//!
//! # Grammar
//! Operators, loosest binding first:
//!
//! | level       | forms                                   | notes                                        |
//! |-------------|-----------------------------------------|----------------------------------------------|
//! | binding     | `[r = d20] body`, `[a = d6, b = d8] …`  | `body` sees one roll of `d20` wherever it says `r` |
//! | conditional | `c ? a : b`                             | right-associative; `a` when `c` is not 0      |
//! | or, and     | `a or b`, `a and b`                     | give 0 or 1                                  |
//! | not         | `not a`                                 | 1 when `a` is 0                              |
//! | comparison  | `a < b`, `<=`, `>`, `>=`, `==`, `!=`    | gives 0 or 1; cannot be chained (`1<2<3`)    |
//! | sum         | `a + b`, `a - b`                        | left-associative                             |
//! | product     | `a * b`, `a / b`, `a % b`               | `/` floors, `%` takes the divisor's sign     |
//! | unary       | `-a`                                    |                                              |
//! | atom        | `12`, `(a)`, `r`, `max(a, b)`, `{a, b}kh1`, `6#(4d6kh3)`, dice | a literal must fit in `i64` |
//!
//! Dice are `[count]d<faces><modifiers>`: the count nothing (one die), a literal
//! or a parenthesized expression (`(d4)d6`, `(1+2)d6`); the faces `6`, `%`, `F`,
//! `{1,1,2,3}`, `{-1..1,5}` or a parenthesized expression (`3d(d6)`). Per-die
//! modifiers: explosions `!` (each extra roll a die), `!!` (compounding), `!p`,
//! `!!p` (penetrating), Foundry's `x`, `xo` (once) and `x5=10` (at most 5 extra
//! rolls for the term); rerolls `r`/`rr` (until no match), `ro` (once); clamps
//! `min3`, `max5`. Per-pool modifiers (also after groups and repetitions): `kh kl
//! k dh dl` with a count (a literal, `(expr)` or nothing for 1), `cs`, `cf`, `df`,
//! `even`, `odd`. Conditions are `<N <=N >N >=N =N ==N !=N` or a bare `N`.
//!
//! Modifiers may come in any order; per-die and per-pool modifiers are stored apart,
//! each list in written order. Repeating a per-die letter one after another adds a
//! condition: `r1r2` (or `r1 r2`) is one reroll on 1 or 2; the same holds for `ro`
//! and, when both carry a condition, for an explosion (`!5!6`). Two explosions
//! that do not combine, `min` above `max`, and counting failures with `cf`
//! beside `cs` or `df` are refused.
//!
//! Whitespace may appear between tokens: around operators and parentheses, inside
//! `{…}` and `[…]`, and before each modifier (`4d6 kh3`). A die term (`3d6`,
//! `(d4)d6`), a repetition's `#` and a single modifier (`kh3`, `!>=5`) are tokens
//! and take no inner spaces.
//!
//! # Design decisions
//! - `!=` is always the not-equal operator, never "explode on `=`": `d6!=5` is
//!   `d6 != 5`, and `d6!!=5` is `d6! != 5`. An explosion condition of `!` is
//!   therefore one of `< <= > >=` or a bare non-negative number (`!-1` would read
//!   as `(d6!) - 1`); Foundry's `x` also takes `=N`; the letters that always take
//!   a condition (`r`, `ro`, `cs`, `cf`, `df`) also allow `==` and `!=` and bare
//!   negative numbers: `r-1` rerolls −1.
//! - Because a modifier takes no inner spaces, `d6! >= 5` compares an exploding d6
//!   with 5 while `d6!>=5` explodes on 5 and 6.
//! - Modifiers after a dice term belong to it: `6#4d6kh3` rolls `4d6kh3` six
//!   times, and `6#(4d6kh3)kh1` keeps the best of them.
//! - Names are checked after parsing (`parser/names.rs`): every name is bound by an
//!   enclosing binding, none is bound twice in one scope (so a name always means
//!   one roll), and none reads as a die (`d6`, `df`), a keyword or a function.
//! - Roll20's and Foundry's bare `d` (drop lowest) and a single `=` as an
//!   operator are rejected with a message saying what to write instead, rather than
//!   being guessed at.
//! - Limits keep hostile input cheap and every tree shallow enough for recursive
//!   walkers: [`MAX_INPUT_LEN`] bytes, [`MAX_NESTING`] levels of brackets,
//!   arguments, bindings and conditionals (counted as the parser descends, so it
//!   never recurses deeper), a tree at most [`MAX_DEPTH`] deep, and
//!   [`MAX_CUSTOM_FACES`] faces per custom die. The parser is the only place these
//!   are decided: the command line, the web app, npm and Python all call it on
//!   the caller's own stack, so one text gets one answer everywhere.
//! - The parser is written by hand: a recursive descent over the characters, with
//!   precedence climbing for the binary operators (`parser/expression.rs`), atoms
//!   in `parser/atom.rs`, dice terms in `parser/dice.rs`, modifiers in
//!   `parser/modifiers.rs` and tokens in `parser/lexical.rs`. It reads every
//!   character a bounded number of times (linear time) and recurses only per level
//!   of nesting, through one function (`expression`), which counts the levels
//!   and stops at the first one past [`MAX_NESTING`]; a level takes 3 to 10 KiB
//!   of stack optimized, so the deepest text fits the smallest stack a front-end
//!   has (a browser's WebAssembly stack, 1 MiB) with room for the evaluation
//!   that follows (a test parses and evaluates every kind of nesting at the limit
//!   on a 1 MiB thread). It replaced a `chumsky` grammar whose first run in a
//!   process mapped tens of kilobytes of generic code (40–100 µs of page faults,
//!   more than evaluating a small expression), and which took exponential time on
//!   `d(d(d(…` that did not close (2^n: 14 s at 22 levels).
//! - Errors (`parser/input.rs`): where the text stops making sense, the parser
//!   records what would have fitted; the furthest such place is reported, with
//!   everything that would have fitted there merged, named as the reader knows
//!   them ("a modifier", "an operator", `)`). Mistakes that still let parsing go
//!   on (a number too large, `d{}`, chained comparisons, contradictory modifiers)
//!   are recorded and parsing continues; the error that starts first in the text is
//!   reported.
//! - A single plain term (`3d6`, `d20`, `4d6kh3`: digits, `d`, digits and at most
//!   one keep/drop) is read by a few lines of code (`parser/plain.rs`) that build
//!   the same tree, spans included, before anything else is set up.

mod atom;
mod cards;
mod dice;
mod expression;
mod functions;
mod input;
mod labels;
mod lexical;
mod modifiers;
mod names;
mod plain;

use self::expression::whole;
use self::input::Input;
use self::names::check_names;
use self::plain::plain_dice;
use super::ast::Expr;
use super::error::{Expected, Found, ParseError, Problem};

/// The longest input accepted, in bytes.
pub const MAX_INPUT_LEN: usize = 10_000;
/// How deeply brackets (`(`, `{`, `[`), a call's arguments, a binding's value
/// and a conditional's first branch may nest.
pub const MAX_NESTING: usize = 64;
/// How deep a parsed expression tree may be (a leaf has depth 1).
pub const MAX_DEPTH: usize = 1_000;
/// The most faces a custom die `d{…}` may list after expanding ranges.
pub const MAX_CUSTOM_FACES: usize = 1 << 16;
pub use self::functions::MAX_EXPANDED_NODES;
pub use self::labels::{MAX_LABEL_LEN, MAX_LABELS};

/// Parses a dice expression.
///
/// # Errors
/// A [`ParseError`] pointing at the first mistake, with what was expected there;
/// input that is empty, longer than [`MAX_INPUT_LEN`] or nested beyond
/// [`MAX_NESTING`] / [`MAX_DEPTH`] is refused.
///
/// # Example
/// ```
/// use fairdice::BinaryOp;
/// use fairdice::dice::notation::{ast::ExprKind, parse};
///
/// let expr = parse("4d6kh3 >= 12")?;
/// assert!(matches!(expr.kind, ExprKind::Binary { op: BinaryOp::Ge, .. }));
/// assert_eq!(expr.span, 0..12);
/// # Ok::<(), fairdice::dice::notation::ParseError>(())
/// ```
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    if let Some(expr) = plain_dice(text) {
        return Ok(expr);
    }
    check_size(text)?;
    parse_sized(text)
}

/// Parses text whose size has been checked.
fn parse_sized(text: &str) -> Result<Expr, ParseError> {
    let mut input = Input::new(text);
    let parsed = whole(&mut input);
    if let Some(error) = input.finish(parsed.is_err()) {
        return Err(error);
    }
    let Ok(expr) = parsed else {
        // Unreachable: a failure always records what was wanted.
        return Err(ParseError::new(
            0..0,
            Found::at(text, 0),
            [Expected::Expression],
            None,
        ));
    };
    check_depth(text, &expr)?;
    check_names(text, &expr)?;
    check_tuples(text, &expr)?;
    check_roots(text, &expr)?;
    Ok(expr)
}

/// Refuses `sqrt` anywhere but as the argument of `floor`, `ceil` or `round`:
/// outcomes are integers, so a root is one only rounded, and the rounding is
/// the writer's to name.
fn check_roots(text: &str, expr: &Expr) -> Result<(), ParseError> {
    use super::ast::{ExprKind, Function};
    let mut stack = vec![(expr, false)];
    while let Some((node, rounded)) = stack.pop() {
        if let ExprKind::Call {
            function,
            arguments,
        } = &node.kind
        {
            if *function == Function::Sqrt && !rounded {
                let problem = Problem::RootUnrounded;
                return Err(ParseError::with_problem(text, node.span.clone(), problem));
            }
            if function.rounding().is_some() {
                stack.extend(arguments.iter().map(|a| (a, true)));
                continue;
            }
        }
        stack.extend(node.children().into_iter().map(|c| (c, false)));
    }
    Ok(())
}

/// Refuses a tuple anywhere but as the whole expression after its bindings:
/// a tuple is what is shown, not a value to compute with.
fn check_tuples(text: &str, expr: &Expr) -> Result<(), ParseError> {
    use super::ast::ExprKind;
    let mut stack = vec![(expr, true)];
    while let Some((node, at_end)) = stack.pop() {
        if let ExprKind::Tuple(_) = node.kind
            && !at_end
        {
            let problem = Problem::TupleInside;
            return Err(ParseError::with_problem(text, node.span.clone(), problem));
        }
        match &node.kind {
            ExprKind::Bind { value, body, .. } => {
                stack.push((value, false));
                stack.push((body, at_end));
            }
            ExprKind::BindHands { deal, body, .. } => {
                stack.push((deal, false));
                stack.push((body, at_end));
            }
            ExprKind::Tuple(values) => stack.extend(values.iter().map(|v| (v, false))),
            _ => stack.extend(node.children().into_iter().map(|c| (c, false))),
        }
    }
    Ok(())
}

/// Refuses empty and overlong input before parsing.
fn check_size(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_INPUT_LEN {
        let cut = (0..=MAX_INPUT_LEN)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let problem = Problem::TooLong {
            len: text.len(),
            max: MAX_INPUT_LEN,
        };
        return Err(ParseError::with_problem(text, cut..text.len(), problem));
    }
    if text.chars().all(char::is_whitespace) {
        return Err(ParseError::new(
            0..text.len(),
            Found::EndOfInput,
            [Expected::Expression],
            Some(Problem::Empty),
        ));
    }
    Ok(())
}

/// Refuses a tree deeper than [`MAX_DEPTH`] (long operator chains, many unary
/// minuses), walking it without recursion.
fn check_depth(text: &str, expr: &Expr) -> Result<(), ParseError> {
    let mut stack = vec![(expr, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            let problem = Problem::TooComplex { max: MAX_DEPTH };
            return Err(ParseError::with_problem(text, node.span.clone(), problem));
        }
        stack.extend(node.children().into_iter().map(|c| (c, depth + 1)));
    }
    Ok(())
}
