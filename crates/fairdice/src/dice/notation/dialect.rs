//! [`Dialect`]: a dice string read as another dice tool reads it, written out in
//! fairdice's own language ([`translate`]).
//!
//! # Design decisions
//! A dialect is a translation, not a second grammar: the string is read in three
//! passes and the result is an ordinary expression of this language, which every
//! front-end parses, prices and evaluates as usual, and shows, so that a user sees
//! how their string was understood.
//! 1. *Forms only the tool has* are rewritten as text before parsing: Roll20's
//!    inline labels and `[[…]]` brackets, the display-only markers of Roll20 and
//!    rpg-dice-roller (`cs`, `cf`, sorting), AnyDice's `output` and
//!    `[highest N of …]`.
//! 2. *Forms this parser refuses with a known problem* are mended where it stops
//!    (a bare `d` that drops, Roll20's failures `f1`, AnyDice's single `=`).
//! 3. *Forms both languages accept but read differently* are found on the parsed
//!    tree and each written out again, children first: compare points after dice,
//!    Roll20's inclusive `>` and `<`, Foundry's `r` (once), rpg-dice-roller's
//!    keeps on the whole pool and fixed modifier order, division and `%`.
//!
//! What this language cannot say exactly (an exact quotient with fractions, a
//! clamp that leaves extra rolls unclamped) is refused at its place, the
//! difference named, never guessed.

use std::fmt;
use std::str::FromStr;

use super::ast::{DieModifier, Expr, ExprKind, Faces, Function, Keep, PoolModifier, Span};
use super::error::{ParseError, Problem};
use super::parser::parse;
use crate::dice::arithmetic::BinaryOp;

/// A dice tool whose strings can be read as it reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// This project's own reading (the default).
    #[default]
    Fairdice,
    /// Roll20's dice roller.
    Roll20,
    /// Foundry VTT's roll formulas.
    Foundry,
    /// The rpg-dice-roller library (npm), used by many bots and sites.
    RpgDiceRoller,
    /// AnyDice's expressions (an `output` line, without functions or loops).
    AnyDice,
}

impl Dialect {
    /// Every dialect, in the order they are listed to users.
    pub const ALL: [Dialect; 5] = [
        Dialect::Fairdice,
        Dialect::Roll20,
        Dialect::Foundry,
        Dialect::RpgDiceRoller,
        Dialect::AnyDice,
    ];

    /// The name written on the command line and in JSON (`roll20`).
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Fairdice => "fairdice",
            Dialect::Roll20 => "roll20",
            Dialect::Foundry => "foundry",
            Dialect::RpgDiceRoller => "rpg-dice-roller",
            Dialect::AnyDice => "anydice",
        }
    }

    /// The tool's name for people (`Roll20`).
    pub fn tool(self) -> &'static str {
        match self {
            Dialect::Fairdice => "fairdice",
            Dialect::Roll20 => "Roll20",
            Dialect::Foundry => "Foundry",
            Dialect::RpgDiceRoller => "rpg-dice-roller",
            Dialect::AnyDice => "AnyDice",
        }
    }

    /// The names of every dialect, joined for a message.
    pub fn names() -> String {
        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        names.join(", ")
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dialect name that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no dialect `{0}`; the dialects are {names}", names = Dialect::names())]
pub struct UnknownDialect(pub String);

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(name: &str) -> Result<Dialect, UnknownDialect> {
        let wanted = name.trim().to_ascii_lowercase();
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == wanted)
            .ok_or_else(|| UnknownDialect(name.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Dialect {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Dialect {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Dialect, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// One part of a string that the dialect reads otherwise than fairdice.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Change {
    /// The part as written.
    pub written: String,
    /// The same reading in fairdice (empty when the part is dropped).
    pub reads_as: String,
    /// What the tool does there.
    pub why: String,
}

/// A string as a dialect reads it, written in fairdice's language.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Translation {
    /// The dialect.
    pub dialect: Dialect,
    /// The string as written.
    pub written: String,
    /// The same reading in fairdice's language: what is computed.
    pub expression: String,
    /// Each part read otherwise, in the order found.
    pub changes: Vec<Change>,
    /// All of it in one line for a person ([`Translation::line`]), as every
    /// front-end shows it.
    pub note: String,
}

impl Translation {
    fn new(
        dialect: Dialect,
        written: &str,
        expression: String,
        changes: Vec<Change>,
    ) -> Translation {
        let mut translation = Translation {
            dialect,
            written: written.to_string(),
            expression,
            changes,
            note: String::new(),
        };
        translation.note = translation.line();
        translation
    }

    /// One line for a person: ``read as Roll20 reads it: `3d6cs>=3` (`3d6>3`: …)``.
    pub fn line(&self) -> String {
        let mut line = format!(
            "read as {} reads it: `{}`",
            self.dialect.tool(),
            self.expression
        );
        if self.changes.is_empty() {
            line.push_str(" (as written)");
        } else {
            let parts: Vec<String> = self
                .changes
                .iter()
                .map(|change| format!("`{}`: {}", change.written, change.why))
                .collect();
            line.push_str(&format!(" ({})", parts.join("; ")));
        }
        line
    }
}

/// A string the dialect cannot read here, with the text the error points into
/// (the string after the rewrites of forms only the tool has, the string itself
/// when there were none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untranslated {
    /// The text `error`'s span points into.
    pub text: String,
    /// What went wrong, where.
    pub error: ParseError,
}

/// The most mends of one string (each mends one place the parser stopped at).
const MAX_MENDS: usize = 64;

/// `text` read as `dialect` reads it, written in fairdice's language.
///
/// # Errors
/// A parse error, or a [`Problem::Dialect`] naming a difference the language
/// cannot say, with the text its span points into.
///
/// # Example
/// ```
/// use fairdice::dice::notation::dialect::{translate, Dialect};
///
/// let read = translate("10d10>7f1", Dialect::Roll20).unwrap();
/// assert_eq!(read.expression, "10d10cs>=7df1");
/// let read = translate("4d6kh3kl2", Dialect::RpgDiceRoller).unwrap();
/// assert_eq!(read.expression, "4d6dl1dh2");
/// ```
pub fn translate(text: &str, dialect: Dialect) -> Result<Translation, Untranslated> {
    let mut changes = Vec::new();
    if dialect == Dialect::Fairdice {
        return Ok(Translation::new(dialect, text, text.to_string(), changes));
    }
    let mut current = rewrite(text, dialect, &mut changes)?;
    let mut mends = 0;
    let expr = loop {
        match parse(&current) {
            Ok(expr) => break expr,
            Err(error) => match mend(&current, &error, dialect) {
                Err(refusal) => {
                    return Err(Untranslated {
                        text: current,
                        error: refusal,
                    });
                }
                Ok(Some((span, with, why))) if mends < MAX_MENDS => {
                    mends += 1;
                    changes.push(Change {
                        written: current[span.clone()].to_string(),
                        reads_as: with.clone(),
                        why,
                    });
                    current.replace_range(span, &with);
                }
                _ => {
                    return Err(Untranslated {
                        text: current,
                        error,
                    });
                }
            },
        }
    };
    let mut writer = Writer {
        text: &current,
        dialect,
        changes: Vec::new(),
    };
    let expression = writer.write(&expr, false).map_err(|error| Untranslated {
        text: current.clone(),
        error,
    })?;
    changes.append(&mut writer.changes);
    Ok(Translation::new(dialect, text, expression, changes))
}

/// A refusal at `span` of `text`.
fn refuse(text: &str, span: &Span, message: String) -> ParseError {
    ParseError::with_problem(text, span.clone(), Problem::Dialect(message))
}

// ----- pass 1: forms only the tool has -----

/// The forms only `dialect`'s tool has, rewritten as text.
fn rewrite(
    text: &str,
    dialect: Dialect,
    changes: &mut Vec<Change>,
) -> Result<String, Untranslated> {
    let mut out = text.to_string();
    let mut change = |written: &str, reads_as: &str, why: &str| {
        changes.push(Change {
            written: written.to_string(),
            reads_as: reads_as.to_string(),
            why: why.to_string(),
        });
    };
    match dialect {
        Dialect::Fairdice => {}
        Dialect::Roll20 => {
            if let (Some(start), Some(end)) = (out.find("[["), out.rfind("]]")) {
                if start < end {
                    out = format!(
                        "{}({}){}",
                        &out[..start],
                        &out[start + 2..end],
                        &out[end + 2..]
                    );
                    change("[[…]]", "(…)", "an inline roll: its brackets only mark it");
                }
            }
            // Inline labels: `d20 [STR] + 5`.
            while let Some(start) = out.find('[') {
                let Some(length) = out[start..].find(']') else {
                    break;
                };
                let label = out[start..=start + length].to_string();
                if label.contains('=') {
                    break;
                }
                out.replace_range(start..=start + length, "");
                change(&label, "", "a label on a roll, shown only");
            }
            strip_markers(&mut out, &mut change);
        }
        Dialect::RpgDiceRoller => strip_markers(&mut out, &mut change),
        Dialect::Foundry => {
            if let Some(at) = out.find('@') {
                let end = out[at + 1..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_'))
                    .map_or(out.len(), |e| at + 1 + e);
                return Err(Untranslated {
                    error: refuse(
                        &out,
                        &(at..end),
                        format!(
                            "Foundry fills `{}` from the actor's data, which a dice string alone does not hold; write the number, or bind it: `[level = 5] (level)d6`",
                            &out[at..end]
                        ),
                    ),
                    text: out,
                });
            }
        }
        Dialect::AnyDice => {
            let trimmed = out.trim_start();
            if let Some(rest) = trimmed.strip_prefix("output") {
                if rest.starts_with(char::is_whitespace) {
                    out = rest.to_string();
                    change("output", "", "AnyDice's statement that shows a result");
                }
            }
            if let Some(at) = out.find(" named ") {
                let name = out[at..].to_string();
                out.truncate(at);
                change(name.trim(), "", "a name for the result, shown only");
            }
            anydice_selections(&mut out, &mut change);
        }
    }
    Ok(out)
}

/// Removes the critical-roll markers (`cs`, `cf`, with a compare point) that
/// Roll20 and rpg-dice-roller only show.
fn strip_markers(out: &mut String, change: &mut impl FnMut(&str, &str, &str)) {
    let mut from = 0;
    while let Some(found) = out[from..].find(['c']).map(|i| from + i) {
        let bytes = out.as_bytes();
        let marker = matches!(bytes.get(found + 1), Some(b's' | b'f'));
        let after_dice = found > 0
            && matches!(
                bytes[found - 1],
                b'0'..=b'9' | b'!' | b'h' | b'l' | b'%' | b'F' | b')' | b'}' | b'p' | b'u' | b'o'
            );
        let next = bytes.get(found + 2).copied();
        let ends = !matches!(next, Some(b'a'..=b'z' | b'A'..=b'Z' | b'_'));
        if marker && after_dice && ends {
            let mut end = found + 2;
            while matches!(out.as_bytes().get(end), Some(b'<' | b'>' | b'=' | b'!')) {
                end += 1;
            }
            while matches!(out.as_bytes().get(end), Some(b'0'..=b'9')) {
                end += 1;
            }
            let written = out[found..end].to_string();
            out.replace_range(found..end, "");
            change(
                &written,
                "",
                "a critical-roll marker, which only highlights the dice",
            );
            from = found;
        } else {
            from = found + 1;
        }
    }
}

/// AnyDice's `[highest N of X]` and `[lowest N of X]` as a pool kept.
fn anydice_selections(out: &mut String, change: &mut impl FnMut(&str, &str, &str)) {
    for (word, keep) in [("highest", "kh"), ("lowest", "kl")] {
        let opening = format!("[{word} ");
        while let Some(start) = out.find(&opening) {
            let Some(length) = out[start..].find(']') else {
                return;
            };
            let inner = &out[start + opening.len()..start + length];
            let Some((count, pool)) = inner.split_once(" of ") else {
                return;
            };
            let (count, pool) = (count.trim(), pool.trim());
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return;
            }
            let pool = pool.replace(" and ", ", ");
            let written = out[start..=start + length].to_string();
            let with = format!("{{{pool}}}{keep}{count}");
            out.replace_range(start..=start + length, &with);
            change(
                &written,
                &with,
                "AnyDice's selection of the highest or lowest dice",
            );
        }
    }
}

// ----- pass 2: forms the parser refuses with a known problem -----

/// A mend: the span of the text to replace, its replacement and why.
type Mend = (Span, String, String);

/// Where `error` stops the parser, the mend `dialect` reads there, if any.
///
/// # Errors
/// A form of the tool that has no spelling here, the difference named.
fn mend(text: &str, error: &ParseError, dialect: Dialect) -> Result<Option<Mend>, ParseError> {
    let span = error.span();
    let Some(rest) = text.get(span.start..) else {
        return Ok(None);
    };
    Ok(match (dialect, error.problem()) {
        (Dialect::Roll20 | Dialect::Foundry | Dialect::RpgDiceRoller, Some(Problem::BareDrop)) => {
            Some((
                span.start..span.start + 1,
                "dl".to_string(),
                "a bare `d` after dice drops the lowest".to_string(),
            ))
        }
        // AnyDice's `=` compares; Roll20's and rpg-dice-roller's is a compare
        // point, which the tree then reads as one (`2d6=5` counts fives).
        (
            Dialect::AnyDice | Dialect::Roll20 | Dialect::RpgDiceRoller,
            Some(Problem::SingleEquals),
        ) => Some((
            span.start..span.start + 1,
            "==".to_string(),
            format!("{}'s `=`", dialect.tool()),
        )),
        (Dialect::Roll20 | Dialect::RpgDiceRoller, None)
            if rest.starts_with(['s']) && !rest.starts_with("sqrt") =>
        {
            // Sorting the dice shown: `s`, `sa`, `sd`.
            let length = if rest.starts_with("sa") || rest.starts_with("sd") {
                2
            } else {
                1
            };
            Some((
                span.start..span.start + length,
                String::new(),
                "sorting the dice shown".to_string(),
            ))
        }
        (Dialect::Roll20, None) if rest.starts_with('f') => roll20_failures(text, span.start),
        (Dialect::RpgDiceRoller, Some(Problem::UniqueLate)) => unique_first(text, &span),
        (Dialect::RpgDiceRoller, None)
            if error
                .expected()
                .contains(&super::error::Expected::Condition)
                && (text[..span.start].ends_with('r') || text[..span.start].ends_with("ro")) =>
        {
            bare_reroll(text, span.start)
        }
        _ => None,
    })
}

/// rpg-dice-roller's `4d6kh3u`: unique dice apply before keeps and counting
/// wherever written, so the `u` (at `at`) moves to right after the faces of its
/// term (`4d6ukh3`). `None` where the faces are not a number, `%` or `F`.
fn unique_first(text: &str, at: &Span) -> Option<Mend> {
    let before = &text[..at.start];
    let start = faces_start(before)?;
    let faces = &before[start..];
    let length = match faces.bytes().next()? {
        b'%' | b'F' | b'f' => 1,
        b'0'..=b'9' => faces.bytes().take_while(u8::is_ascii_digit).count(),
        _ => return None,
    };
    let end = start + length;
    Some((
        end..at.end,
        format!("{}{}", &text[at.clone()], &text[end..at.start]),
        "rpg-dice-roller makes the dice unique before it keeps or counts them, wherever `u` is written".to_string(),
    ))
}

/// Where the faces of the dice term that `before` ends in start: right after
/// its `d`.
fn faces_start(before: &str) -> Option<usize> {
    let term = before
        .rfind(|c: char| " +-*/(),{}[]".contains(c))
        .map_or(0, |i| i + 1);
    Some(term + before[term..].find(['d', 'D'])? + 1)
}

/// rpg-dice-roller's `d10r`: a reroll without a compare point rerolls the
/// die's lowest face (`d10r=1`). `None` where the faces are not a number, `%`
/// or `F`.
fn bare_reroll(text: &str, at: usize) -> Option<Mend> {
    let before = &text[..at];
    let lowest = match before[faces_start(before)?..].bytes().next()? {
        b'F' | b'f' => "-1",
        b'%' | b'0'..=b'9' => "1",
        _ => return None,
    };
    Some((
        at..at,
        format!("={lowest}"),
        "rpg-dice-roller's `r` without a compare point rerolls the lowest face".to_string(),
    ))
}

/// Roll20's `10d10>7f1`: a success target right after the dice and the
/// failures after it, read as `10d10cs>=7df1` (both points inclusive).
fn roll20_failures(text: &str, at: usize) -> Option<(Span, String, String)> {
    let before = &text[..at];
    let digits = before.trim_end_matches(|c: char| c.is_ascii_digit());
    let point = digits.trim_end_matches(['<', '>', '=']);
    if digits.len() == before.len() || point.len() == digits.len() {
        return None;
    }
    let target = inclusive(&before[point.len()..]);
    let after = &text[at + 1..];
    let comparison = after.len() - after.trim_start_matches(['<', '>', '=']).len();
    let number = after[comparison..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if number == 0 {
        return None;
    }
    let failures = inclusive(&after[..comparison + number]);
    Some((
        point.len()..at + 1 + comparison + number,
        format!("cs{target}df{failures}"),
        "Roll20's successes minus failures, both points inclusive".to_string(),
    ))
}

/// A compare point as Roll20 reads it: `>N` is N or more, `<N` is N or less.
fn inclusive(point: &str) -> String {
    let mut out = String::with_capacity(point.len() + 1);
    let mut chars = point.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if matches!(c, '<' | '>') && chars.peek() != Some(&'=') {
            out.push('=');
        }
    }
    out
}

// ----- pass 3: forms read differently, on the tree -----

struct Writer<'a> {
    text: &'a str,
    dialect: Dialect,
    changes: Vec<Change>,
}

impl Writer<'_> {
    fn piece(&self, span: &Span) -> &str {
        self.text.get(span.clone()).unwrap_or_default()
    }

    fn change(&mut self, span: &Span, reads_as: &str, why: String) {
        let written = self.piece(span).to_string();
        if written != reads_as {
            self.changes.push(Change {
                written,
                reads_as: reads_as.to_string(),
                why,
            });
        }
    }

    /// `node` written in fairdice as the dialect reads it.
    fn write(&mut self, node: &Expr, rounded: bool) -> Result<String, ParseError> {
        let tool = self.dialect.tool();
        if let ExprKind::Binary { op, left, right } = &node.kind {
            let touching = self
                .text
                .get(left.span.end..)
                .is_some_and(|rest| rest.starts_with(['<', '>', '=', '!']));
            let dice = matches!(left.kind, ExprKind::Dice(_));
            let counts = matches!(self.dialect, Dialect::Roll20 | Dialect::RpgDiceRoller);
            if let (true, true, true, Some(n)) =
                (dice && touching, counts, compares(*op), right.constant())
            {
                let dice = self.write(left, false)?;
                let written = if *op == BinaryOp::Ne {
                    if self.dialect == Dialect::Roll20 {
                        return Err(refuse(
                            self.text,
                            &node.span,
                            format!("{tool} has no `!=` after dice"),
                        ));
                    }
                    format!("{dice}!{n}")
                } else {
                    let symbol = match (op, self.dialect) {
                        (BinaryOp::Lt, Dialect::Roll20) | (BinaryOp::Le, _) => "<=",
                        (BinaryOp::Gt, Dialect::Roll20) | (BinaryOp::Ge, _) => ">=",
                        (BinaryOp::Lt, _) => "<",
                        (BinaryOp::Gt, _) => ">",
                        _ => "=",
                    };
                    format!("{dice}cs{symbol}{n}")
                };
                let why = if *op == BinaryOp::Ne {
                    format!("{tool} explodes on the compare point after `!`")
                } else {
                    format!(
                        "{tool} counts the dice that pass a compare point written right after them"
                    )
                };
                // The parentheses around the comparison, if any, stay.
                let inner = left.span.start..right.span.end;
                self.change(&inner, &written, why);
                let (open, close) = (
                    self.piece(&(node.span.start..inner.start)),
                    self.piece(&(inner.end..node.span.end)),
                );
                return Ok(format!("{open}{written}{close}"));
            }
            match op {
                BinaryOp::Div if !rounded && self.dialect != Dialect::AnyDice => {
                    return Err(refuse(
                        self.text,
                        &node.span,
                        format!(
                            "{tool} divides exactly, so this has fractional results, and outcomes here are integers: write `floor(…)`, `ceil(…)` or `round(…)` around it for the rounding you want"
                        ),
                    ));
                }
                BinaryOp::Div
                    if self.dialect == Dialect::AnyDice
                        && !(never_negative(left) && never_negative(right)) =>
                {
                    return Err(refuse(
                        self.text,
                        &node.span,
                        "AnyDice rounds a quotient toward zero and fairdice rounds it down, which differ when it is negative: write it so that both sides are never negative".to_string(),
                    ));
                }
                BinaryOp::Mod
                    if matches!(self.dialect, Dialect::Roll20 | Dialect::Foundry)
                        && !(never_negative(left) && never_negative(right)) =>
                {
                    return Err(refuse(
                        self.text,
                        &node.span,
                        format!(
                            "{tool}'s `%` takes the sign of the dividend (`-7 % 4` is -3 there) and fairdice's that of the divisor (1 here), which differ when either side may be negative"
                        ),
                    ));
                }
                _ => {}
            }
        }
        if let ExprKind::Group(group) = &node.kind
            && self.dialect == Dialect::RpgDiceRoller
            && !group.pool_modifiers.is_empty()
            && let [member] = group.members.as_slice()
            && let Some(reading) = super::readings::one_member(self.text, node, member)
        {
            let Some(spelling) = reading.spelling else {
                return Err(refuse(
                    self.text,
                    &node.span,
                    format!(
                        "rpg-dice-roller reads this as {}, which fairdice cannot write",
                        reading.there
                    ),
                ));
            };
            self.change(&node.span, &spelling, reading.there);
            // The spelling adds after the group: a part of a larger expression
            // keeps its place in parentheses.
            let whole = self.text.trim() == self.piece(&node.span);
            return Ok(if whole {
                spelling
            } else {
                format!("({spelling})")
            });
        }
        let rounds = matches!(
            &node.kind,
            ExprKind::Call { function, .. } if function.rounding().is_some()
        );
        let mut pieces: Vec<(Span, String)> = Vec::new();
        for child in node.children() {
            let written = self.write(child, rounds)?;
            pieces.push((child.span.clone(), written));
        }
        if let ExprKind::Dice(dice) = &node.kind {
            pieces.extend(self.modifiers(node, dice)?);
        }
        pieces.sort_by_key(|(span, _)| span.start);
        let mut out = String::new();
        let mut at = node.span.start;
        for (span, written) in pieces {
            // A child written elsewhere (a function's body) is not part of
            // this text: the node is written as it stands.
            if span.start < at || span.end > node.span.end {
                return Ok(self.piece(&node.span).to_string());
            }
            out.push_str(self.piece(&(at..span.start)));
            out.push_str(&written);
            at = span.end;
        }
        out.push_str(self.piece(&(at..node.span.end)));
        Ok(out)
    }

    /// The modifiers of a dice term the dialect reads otherwise, each with what
    /// replaces it.
    fn modifiers(
        &mut self,
        node: &Expr,
        dice: &super::ast::Dice,
    ) -> Result<Vec<(Span, String)>, ParseError> {
        let mut pieces = Vec::new();
        match self.dialect {
            Dialect::Roll20 => {
                let explosion = dice
                    .die_modifiers
                    .iter()
                    .position(|m| matches!(m, DieModifier::Explode { .. }));
                let reroll_after = explosion.is_some_and(|at| {
                    dice.die_modifiers[at..].iter().any(|m| {
                        matches!(
                            m,
                            DieModifier::Reroll { .. } | DieModifier::RerollOnce { .. }
                        )
                    })
                });
                if reroll_after {
                    return Err(refuse(
                        self.text,
                        &node.span,
                        "Roll20 does not document how a reroll written after an explosion applies, so this is not guessed; a reroll written before it (`d6r<=1!`) rerolls every roll".to_string(),
                    ));
                }
                let spans = dice
                    .die_modifiers
                    .iter()
                    .map(DieModifier::span)
                    .chain(dice.pool_modifiers.iter().map(PoolModifier::span));
                for span in spans {
                    let written = inclusive(self.piece(span));
                    if written != self.piece(span) {
                        self.change(
                            span,
                            &written,
                            "Roll20's `>` and `<` in a compare point include the number"
                                .to_string(),
                        );
                        pieces.push((span.clone(), written));
                    }
                }
            }
            Dialect::Foundry => {
                if let Some((there, here)) = super::readings::foundry_die(dice) {
                    return Err(refuse(
                        self.text,
                        &node.span,
                        format!(
                            "Foundry reads this die with {there}; fairdice with {here}, so this has no spelling here"
                        ),
                    ));
                }
                for modifier in &dice.die_modifiers {
                    if let DieModifier::Reroll { span, .. } = modifier {
                        let written = self.piece(span);
                        if written.starts_with('r') && !written.starts_with("rr") {
                            let with = format!("ro{}", &written[1..]);
                            self.change(
                                span,
                                &with,
                                "Foundry's `r` rerolls once (`rr` until no match)".to_string(),
                            );
                            pieces.push((span.clone(), with));
                        }
                    }
                }
            }
            Dialect::RpgDiceRoller => {
                pieces.extend(self.dice_roller_order(node, dice)?);
                pieces.extend(self.dice_roller_keeps(node, dice)?);
            }
            Dialect::Fairdice | Dialect::AnyDice => {}
        }
        Ok(pieces)
    }

    /// rpg-dice-roller applies a die's modifiers in a fixed order (clamps, then
    /// the explosion, then rerolls), whatever order they are written in; here
    /// they apply in the order written.
    fn dice_roller_order(
        &mut self,
        node: &Expr,
        dice: &super::ast::Dice,
    ) -> Result<Vec<(Span, String)>, ParseError> {
        let ranks: Vec<u8> = dice
            .die_modifiers
            .iter()
            .map(super::readings::dice_roller_rank)
            .collect();
        if ranks.is_sorted() {
            return match super::readings::dice_roller_die(dice) {
                None => Ok(Vec::new()),
                Some((there, here)) => Err(refuse(
                    self.text,
                    &node.span,
                    format!(
                        "rpg-dice-roller reads this die as {there}; fairdice as {here}, so this has no spelling here"
                    ),
                )),
            };
        }
        // The one reordering with the same meaning: a clamp of the top below
        // the face an explosion looks at, which then never explodes there.
        if let [
            explode @ DieModifier::Explode { conditions, .. },
            clamp @ DieModifier::Maximum { value: top, .. },
        ] = dice.die_modifiers.as_slice()
            && super::readings::clamp_hides_explosion(conditions, *top, &dice.faces)
            && explode.span().end <= clamp.span().start
        {
            // The clamp written first, then the explosion (what lies between
            // them, if anything, after both).
            let span = explode.span().start..clamp.span().end;
            let with = format!(
                "{}{}{}",
                self.piece(clamp.span()),
                self.piece(explode.span()),
                self.piece(&(explode.span().end..clamp.span().start))
            );
            self.change(
                &span,
                &with,
                "rpg-dice-roller clamps a die's roll before the explosion looks at it".to_string(),
            );
            return Ok(vec![(span, with)]);
        }
        Err(refuse(
            self.text,
            &node.span,
            "rpg-dice-roller applies a die's modifiers in a fixed order (clamps, the explosion, then rerolls) and leaves an explosion's extra rolls unclamped; fairdice applies them in the order written, so this has no spelling here".to_string(),
        ))
    }

    /// rpg-dice-roller applies every keep and drop to the whole pool: the dice
    /// kept are those every one of them keeps, a run of ranks, written here as
    /// drops from both ends.
    fn dice_roller_keeps(
        &mut self,
        node: &Expr,
        dice: &super::ast::Dice,
    ) -> Result<Vec<(Span, String)>, ParseError> {
        let keeps: Vec<(Keep, &Span)> = dice
            .pool_modifiers
            .iter()
            .filter_map(|m| match m {
                PoolModifier::Keep { keep, span } => Some((*keep, span)),
                _ => None,
            })
            .collect();
        let rolled = dice
            .pool_modifiers
            .iter()
            .any(|m| matches!(m, PoolModifier::KeepRolled { .. }));
        if keeps.len() + usize::from(rolled) < 2 {
            return Ok(Vec::new());
        }
        let count = match &dice.count {
            None => Some(1),
            Some(count) => count.constant().and_then(|n| u64::try_from(n).ok()),
        };
        let (Some(n), false) = (count, rolled) else {
            return Err(refuse(
                self.text,
                &node.span,
                "rpg-dice-roller applies each keep or drop to the whole pool; with a rolled number of dice or a rolled keep, that has no spelling here".to_string(),
            ));
        };
        let (mut low, mut high) = (1u64, n);
        for (keep, _) in &keeps {
            match *keep {
                Keep::Highest(k) => low = low.max(n.saturating_sub(k) + 1),
                Keep::Lowest(k) => high = high.min(k),
                Keep::DropHighest(k) => high = high.min(n.saturating_sub(k)),
                Keep::DropLowest(k) => low = low.max(k + 1),
            }
        }
        let with = if low > high {
            format!("dl{n}")
        } else {
            let mut with = String::new();
            if low > 1 {
                with.push_str(&format!("dl{}", low - 1));
            }
            if high < n {
                with.push_str(&format!("dh{}", n - high));
            }
            with
        };
        let first = keeps[0].1.start;
        let last = keeps[keeps.len() - 1].1.end;
        let others = dice.pool_modifiers.iter().any(|m| {
            !matches!(m, PoolModifier::Keep { .. }) && m.span().start > first && m.span().end < last
        });
        if others {
            return Err(refuse(
                self.text,
                &node.span,
                "rpg-dice-roller applies each keep or drop to the whole pool; with other pool modifiers between them, that has no spelling here".to_string(),
            ));
        }
        let span = first..last;
        self.change(
            &span,
            &with,
            "rpg-dice-roller applies each keep or drop to the whole pool".to_string(),
        );
        Ok(vec![(span, with)])
    }
}

/// Whether `op` compares (giving 0 or 1).
fn compares(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
    )
}

/// Whether `expr` never has a negative outcome, seen from its form alone.
fn never_negative(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Number(n) => *n >= 0,
        ExprKind::Dice(dice) => {
            let faces = match &dice.faces {
                Faces::Standard(_) | Faces::Percent => true,
                Faces::Fudge => false,
                Faces::Custom(faces) => faces.iter().all(|f| *f >= 0),
                Faces::Rolled(sides) => never_negative(sides),
            };
            let clamps = dice.die_modifiers.iter().all(|m| match m {
                DieModifier::Minimum { value, .. } | DieModifier::Maximum { value, .. } => {
                    *value >= 0
                }
                _ => true,
            });
            let deducts = dice
                .pool_modifiers
                .iter()
                .any(|m| matches!(m, PoolModifier::DeductFailures { .. }));
            faces && clamps && !deducts
        }
        ExprKind::Binary { op, left, right } => match op {
            BinaryOp::Sub => false,
            op if compares(*op) => true,
            _ => never_negative(left) && never_negative(right),
        },
        ExprKind::Not(_) => true,
        ExprKind::Call {
            function,
            arguments,
        } => match function {
            Function::Max
            | Function::Min
            | Function::Floor
            | Function::Ceil
            | Function::Round
            | Function::Sqrt => arguments.iter().all(never_negative),
            _ => true,
        },
        ExprKind::Group(group) => {
            group.members.iter().all(never_negative)
                && !group
                    .pool_modifiers
                    .iter()
                    .any(|m| matches!(m, PoolModifier::DeductFailures { .. }))
        }
        ExprKind::Repeat(repeat) => {
            never_negative(&repeat.body)
                && !repeat
                    .pool_modifiers
                    .iter()
                    .any(|m| matches!(m, PoolModifier::DeductFailures { .. }))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, dialect: Dialect) -> String {
        match translate(text, dialect) {
            Ok(read) => {
                parse(&read.expression)
                    .unwrap_or_else(|e| panic!("{text} → {}: {e:?}", read.expression));
                read.expression
            }
            Err(refused) => panic!("{text}: {}", refused.error.render(&refused.text)),
        }
    }

    fn refused(text: &str, dialect: Dialect) -> String {
        match translate(text, dialect) {
            Ok(read) => panic!("{text} read as {}", read.expression),
            Err(refused) => refused.error.message(),
        }
    }

    #[test]
    fn every_row_of_the_dialect_tables_in_the_docs_reads_as_it_says() {
        let docs = include_str!("../../../../../docs/notation.md");
        let start = docs.find("\n## Dialects").expect("the Dialects section");
        let end = start
            + docs[start..]
                .find("\n## Conversion table")
                .expect("its end");
        let mut dialect = None;
        let mut rows = 0;
        let code = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        };
        for line in docs[start..end].lines() {
            if let Some(tool) = line.strip_prefix("### ") {
                dialect = Some(match tool {
                    "Roll20" => Dialect::Roll20,
                    "Foundry" => Dialect::Foundry,
                    "rpg-dice-roller" => Dialect::RpgDiceRoller,
                    "AnyDice" => Dialect::AnyDice,
                    other => panic!("a section for {other}"),
                });
                continue;
            }
            let (Some(dialect), Some(row)) = (dialect, line.strip_prefix("| `")) else {
                continue;
            };
            let line = format!("`{row}");
            let cells: Vec<&str> = line.split(" | ").collect();
            let (written, reads) = (code(cells[0]), cells[1].trim());
            for (i, text) in written.iter().enumerate() {
                match reads {
                    // Refused in reading, or when computed (`4d3u`).
                    "refused" => {
                        if let Ok(read) = translate(text, dialect) {
                            let computed = crate::dice::notation::evaluate(&read.expression);
                            assert!(computed.is_err(), "{text} read as {}", read.expression);
                        }
                    }
                    "as written" => assert_eq!(&read(text, dialect), text, "{dialect}"),
                    spellings => {
                        let spellings = code(spellings);
                        assert_eq!(spellings.len(), written.len(), "{line}");
                        assert_eq!(read(text, dialect), spellings[i], "{dialect}: {line}");
                    }
                }
                rows += 1;
            }
        }
        assert!(rows >= 40, "{rows} strings in the tables");
    }

    #[test]
    fn names_parse_and_unknown_ones_list_every_dialect() {
        for dialect in Dialect::ALL {
            assert_eq!(dialect.name().parse::<Dialect>(), Ok(dialect));
        }
        assert_eq!("Roll20".parse::<Dialect>(), Ok(Dialect::Roll20));
        let error = "roll21".parse::<Dialect>().unwrap_err().to_string();
        assert!(
            error.contains("roll21") && error.contains("rpg-dice-roller, anydice"),
            "{error}"
        );
    }

    #[test]
    fn fairdice_reads_every_string_as_written() {
        let read = translate("2d6>=8", Dialect::Fairdice).unwrap();
        assert_eq!(read.expression, "2d6>=8");
        assert!(read.changes.is_empty());
    }

    #[test]
    fn roll20() {
        let r = |t| read(t, Dialect::Roll20);
        assert_eq!(r("3d6>3"), "3d6cs>=3");
        assert_eq!(r("2d6=5"), "2d6cs=5");
        assert_eq!(r("2d6>=8"), "2d6cs>=8");
        assert_eq!(r("5d10<2"), "5d10cs<=2");
        assert_eq!(r("d10!>9"), "d10!>=9");
        assert_eq!(r("2d6r<2"), "2d6r<=2");
        assert_eq!(r("2d6r<2!"), "2d6r<=2!");
        assert!(refused("d6!r1", Dialect::Roll20).contains("does not document"));
        assert_eq!(r("10d10>7f1"), "10d10cs>=7df1");
        assert_eq!(r("10d10>7f<2"), "10d10cs>=7df<=2");
        assert_eq!(r("4d6d1"), "4d6dl1");
        assert_eq!(r("4d6k3"), "4d6k3");
        assert_eq!(r("d20 [STR] + 5"), "d20  + 5");
        assert_eq!(r("[[d20+5]]"), "(d20+5)");
        assert_eq!(r("d20cs>18 + 5"), "d20 + 5");
        assert_eq!(r("4d6sd"), "4d6");
        assert_eq!(r("2d6 >= 8"), "2d6 >= 8");
        assert_eq!(r("floor(d20/2)"), "floor(d20/2)");
        assert_eq!(r("(2d6>3) + 1"), "(2d6cs>=3) + 1");
        assert_eq!(r("d20 % 7"), "d20 % 7");
        assert!(refused("d20/2", Dialect::Roll20).contains("divides exactly"));
        assert!(refused("(d6-3) % 4", Dialect::Roll20).contains("sign of the dividend"));
    }

    #[test]
    fn foundry() {
        let r = |t| read(t, Dialect::Foundry);
        assert_eq!(r("1d20r1"), "1d20ro1");
        assert_eq!(r("1d20rr<3"), "1d20rr<3");
        assert_eq!(r("1d20ro1"), "1d20ro1");
        assert_eq!(r("3d6d"), "3d6dl");
        assert_eq!(r("10d20cs>10"), "10d20cs>10");
        assert_eq!(r("3d6>3"), "3d6>3");
        assert!(refused("(@level)d6", Dialect::Foundry).contains("@level"));
        assert!(refused("1d6/2", Dialect::Foundry).contains("divides exactly"));
        // A reroll after `x` rolls each die it made again, without exploding.
        assert_eq!(r("2d6xr1"), "2d6xro1");
        assert_eq!(r("2d6xmin2"), "2d6xmin2");
        // Clamps change only the total there; a reroll before `x` leaves the
        // extra rolls alone.
        assert!(refused("d6min2x", Dialect::Foundry).contains("as rolled"));
        assert!(refused("6d6max4cs>=4", Dialect::Foundry).contains("as rolled"));
        assert!(refused("5d10r<8x10", Dialect::Foundry).contains("only the dice first rolled"));
    }

    #[test]
    fn rpg_dice_roller() {
        let r = |t| read(t, Dialect::RpgDiceRoller);
        assert_eq!(r("3d6>3"), "3d6cs>3");
        assert_eq!(r("d6!=3"), "d6!3");
        assert_eq!(r("10d10cs>=8"), "10d10");
        assert_eq!(r("10d10cf<3"), "10d10");
        assert_eq!(r("4d6kh3kl2"), "4d6dl1dh2");
        assert_eq!(r("6d6kh3dl1"), "6d6dl3");
        assert_eq!(r("4d6kh3"), "4d6kh3");
        assert_eq!(r("4d6d1"), "4d6dl1");
        assert_eq!(r("d6!max5"), "d6max5!");
        assert_eq!(r("{3d6+2}dl1"), "{3d6}dl1 + 2");
        assert_eq!(r("{3d6+2}dl1 * 2"), "({3d6}dl1 + 2) * 2");
        assert_eq!(r("(2d6>=8) + 4d6kh3kl2"), "(2d6cs>=8) + 4d6dl1dh2");
        assert_eq!(r("-7 % 4"), "-7 % 4");
        // Unique dice read alike; their critical markers are dropped.
        assert_eq!(r("4d6u"), "4d6u");
        assert_eq!(r("2 * d20u + 3d6uo=6"), "2 * d20u + 3d6uo=6");
        assert_eq!(r("4d6ukh3"), "4d6ukh3");
        assert_eq!(r("5d10uocs>=8"), "5d10uo");
        assert_eq!(r("4d6kh3u"), "4d6ukh3");
        assert_eq!(r("2 + 5d10dl1cs>=8uo=1"), "2 + 5d10uo=1dl1");
        assert!(refused("4d6kh3u", Dialect::Roll20).contains("right after the faces"));
        assert!(refused("d10!>=8max9", Dialect::RpgDiceRoller).contains("fixed order"));
        // Rerolls after an explosion read alike; a bare `r` rerolls the lowest face.
        assert_eq!(r("3d6!r=1"), "3d6!r=1");
        assert_eq!(r("4d6!pro<3kh3"), "4d6!pro<3kh3");
        assert_eq!(r("d10r"), "d10r=1");
        assert_eq!(r("4dFro + 1"), "4dFro=-1 + 1");
        assert_eq!(r("d6min2r=1"), "d6min2r=1");
        for (text, difference) in [
            ("d6min2!", "first roll clamped"),
            ("d6!!r=1", "one plain roll"),
            ("d6max4r=4", "bare die"),
        ] {
            assert!(
                refused(text, Dialect::RpgDiceRoller).contains(difference),
                "{text}"
            );
        }
        assert!(refused("{2d6-d4}dl1", Dialect::RpgDiceRoller).contains("cannot write"));
        assert!(refused("d20/3", Dialect::RpgDiceRoller).contains("divides exactly"));
    }

    #[test]
    fn anydice() {
        let r = |t| read(t, Dialect::AnyDice);
        assert_eq!(r("output 3d6"), "3d6");
        assert_eq!(r("output [highest 3 of 4d6] named \"stat\""), "{4d6}kh3");
        assert_eq!(r("[highest 1 of d8 and d6]"), "{d8, d6}kh1");
        assert_eq!(r("3d6 = 10"), "3d6 == 10");
        assert_eq!(r("d20/3"), "d20/3");
        assert!(refused("(d6-4)/2", Dialect::AnyDice).contains("toward zero"));
    }
}
