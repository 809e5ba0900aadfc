//! [`OtherReading`]: where a dice string means something else in another dice
//! tool, so that a string pasted from a virtual tabletop is never silently
//! answered as a different question.
//!
//! # Design decisions
//! Each reading is found on the parsed tree together with the text as written
//! (a compare point right after a die is one token in those tools, while spaces
//! make it a comparison in all of them). The differences reported are those a
//! comparison with rpg-dice-roller measured (its rolls of each string against the
//! exact answer here) and, for Roll20, its documented compare points after dice
//! (`3d6>3` counts successes, as this project's conversion table says) and its
//! exact division. Each says what the other tools do, what fairdice does, and,
//! where the language has one, the spelling of their reading.

use super::ast::{Expr, ExprKind, PoolModifier};
use crate::dice::arithmetic::BinaryOp;

/// A part of an expression that another tool reads differently.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OtherReading {
    /// The part, as written.
    pub text: String,
    /// Where it is in the expression (bytes).
    pub span: (usize, usize),
    /// The tools that read it otherwise.
    pub tools: Vec<&'static str>,
    /// What those tools make of it.
    pub there: String,
    /// What fairdice makes of it.
    pub here: String,
    /// How to write their reading here, if the language can.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub spelling: Option<String>,
    /// All of it in one line for a person ([`OtherReading::line`]), as every
    /// front-end shows it.
    pub note: String,
}

impl OtherReading {
    /// One line for a person: `rpg-dice-roller and Roll20 read `2d6>=8` as …`.
    pub fn line(&self) -> String {
        let tools = self.tools.join(" and ");
        let verb = if self.tools.len() == 1 {
            "reads"
        } else {
            "read"
        };
        let spelling = match &self.spelling {
            Some(spelling) => format!("; for their reading write `{spelling}`"),
            None => String::new(),
        };
        format!(
            "{tools} {verb} `{}` as {} (here: {}){spelling}",
            self.text, self.there, self.here
        )
    }
}

/// The reading of the part of `text` at `span`, its note written out.
fn reading(
    text: &str,
    span: &std::ops::Range<usize>,
    tools: &[&'static str],
    there: String,
    here: String,
    spelling: Option<String>,
) -> OtherReading {
    let mut reading = OtherReading {
        text: text.get(span.clone()).unwrap_or_default().to_string(),
        span: (span.start, span.end),
        tools: tools.to_vec(),
        there,
        here,
        spelling,
        note: String::new(),
    };
    reading.note = reading.line();
    reading
}

const DICE_ROLLER: &str = "rpg-dice-roller";
/// What `/` gives here.
const ROUNDED_DOWN: &str = "the quotient rounded down, outcomes being integers; \
    `floor`, `ceil` or `round` of it name the rounding";
const ROLL20: &str = "Roll20";

/// The parts of `expr` (parsed from `text`) that other dice tools read
/// differently, in the order written.
pub fn other_readings(text: &str, expr: &Expr) -> Vec<OtherReading> {
    let mut found = Vec::new();
    let mut stack = vec![(expr, false)];
    while let Some((node, rounded)) = stack.pop() {
        let written = |span: &std::ops::Range<usize>| text.get(span.clone()).unwrap_or_default();
        match &node.kind {
            ExprKind::Binary { op, left, right } => {
                let dice_term = matches!(left.kind, ExprKind::Dice(_));
                // The operator written right after the dice, as one token.
                let touching = text
                    .get(left.span.end..)
                    .is_some_and(|rest| rest.starts_with(['<', '>', '=', '!']));
                let number = right.constant();
                let dice = written(&left.span);
                match (op, number) {
                    (BinaryOp::Ne, Some(n)) if dice_term && touching => found.push(reading(
                        text,
                        &node.span,
                        &[DICE_ROLLER],
                        format!("`{dice}` exploding on {n}"),
                        format!("whether `{dice}` is not {n}"),
                        Some(format!("{dice}!{n}")),
                    )),
                    (
                        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq,
                        Some(n),
                    ) if dice_term && touching => {
                        let (symbol, words) = match op {
                            BinaryOp::Lt => ("<", format!("less than {n}")),
                            BinaryOp::Le => ("<=", format!("{n} or less")),
                            BinaryOp::Gt => (">", format!("more than {n}")),
                            BinaryOp::Ge => (">=", format!("{n} or more")),
                            _ => ("=", format!("exactly {n}")),
                        };
                        found.push(reading(
                            text,
                            &node.span,
                            &[DICE_ROLLER, ROLL20],
                            format!("how many dice of `{dice}` show {words}"),
                            format!("1 when the sum of `{dice}` is {words}, else 0"),
                            Some(format!("{dice}cs{symbol}{n}")),
                        ));
                    }
                    (BinaryOp::Div, _) if !rounded => found.push(reading(
                        text,
                        &node.span,
                        &[DICE_ROLLER, ROLL20],
                        "an exact quotient, fractions included".to_string(),
                        ROUNDED_DOWN.to_string(),
                        None,
                    )),
                    _ => {}
                }
            }
            ExprKind::Dice(dice) => {
                let counts = dice
                    .pool_modifiers
                    .iter()
                    .any(|m| matches!(m, PoolModifier::CountSuccesses { .. }));
                if counts && written(&node.span).contains("cs") {
                    found.push(reading(
                        text,
                        &node.span,
                        &[DICE_ROLLER],
                        "the sum of the dice, `cs` only marking critical rolls".to_string(),
                        "the number of dice that pass `cs`".to_string(),
                        None,
                    ));
                }
                let keeps = dice
                    .pool_modifiers
                    .iter()
                    .filter(|m| {
                        matches!(
                            m,
                            PoolModifier::Keep { .. } | PoolModifier::KeepRolled { .. }
                        )
                    })
                    .count();
                if keeps > 1 {
                    found.push(reading(
                        text,
                        &node.span,
                        &[DICE_ROLLER],
                        "each keep or drop applied to the whole pool".to_string(),
                        "each keep or drop applied to what the one before it kept".to_string(),
                        None,
                    ));
                }
            }
            _ => {}
        }
        // Inside floor, ceil and round a quotient is rounded as written.
        let rounds = matches!(
            &node.kind,
            ExprKind::Call { function, .. } if function.rounding().is_some()
        );
        for child in node.children().into_iter().rev() {
            stack.push((child, rounds));
        }
    }
    found.sort_by_key(|reading| reading.span);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::notation::parse;

    fn readings(text: &str) -> Vec<OtherReading> {
        other_readings(text, &parse(text).unwrap())
    }

    #[test]
    fn the_measured_differences_are_named_with_a_spelling() {
        let found = readings("2d6>=8");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].spelling.as_deref(), Some("2d6cs>=8"));
        assert_eq!(found[0].tools, [DICE_ROLLER, ROLL20]);
        assert_eq!(readings("d6!=3")[0].spelling.as_deref(), Some("d6!3"));
        assert_eq!(readings("3d6<4")[0].spelling.as_deref(), Some("3d6cs<4"));
        assert_eq!(readings("10d10cs>=8")[0].tools, [DICE_ROLLER]);
        assert_eq!(readings("4d6kh3kl2").len(), 1);
        assert_eq!(readings("d20 / 3")[0].text, "d20 / 3");
        // In order, each once (a parenthesized part with its parentheses).
        let found = readings("(2d6>=8) + d20/3");
        assert_eq!(
            found.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
            ["(2d6>=8)", "d20/3"]
        );
    }

    #[test]
    fn what_every_tool_reads_alike_says_nothing() {
        for text in [
            "2d6 >= 8",
            "3d6",
            "d20 + 5 >= 15",
            "floor(d20 / 3)",
            "round((2d6 + 1) / 2)",
            "4d6kh3",
            "d6 != 3",
            "[r = d20] r>=15",
            "10d10cf<3",
        ] {
            assert!(readings(text).is_empty(), "{text}: {:?}", readings(text));
        }
    }
}
