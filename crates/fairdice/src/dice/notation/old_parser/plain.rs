//! The everyday dice term, `3d6`, `d20` or `4d6kh3`, read without the grammar.
//!
//! Most expressions people type are a single plain term. Reading one takes a few
//! dozen instructions by hand, while the first run of the full parser in a process
//! maps tens of kilobytes of combinator code, which costs more than evaluating
//! `3d6` itself. [`plain_dice`] accepts only the exact shape
//! `[count]d<faces>[kh|kl|k|dh|dl[n]]`, with ASCII digits, no whitespace and numbers
//! that fit, and builds the tree the full parser builds, spans included; anything
//! else (including every input with an error) returns `None` and goes to the full
//! parser. The tests check the two agree on every input the shortcut accepts.

use crate::dice::notation::ast::{Dice, Expr, ExprKind, Faces, Keep, KeepKind, PoolModifier};

/// The tree of `text` if it is one plain dice term, else `None`.
pub(super) fn plain_dice(text: &str) -> Option<Expr> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let count_digits = run_of_digits(bytes, at);
    let count = if count_digits == 0 {
        None
    } else {
        let value = text[..count_digits].parse().ok()?;
        Some(Box::new(Expr {
            kind: ExprKind::Number(value),
            span: 0..count_digits,
        }))
    };
    at += count_digits;
    if !matches!(bytes.get(at), Some(b'd' | b'D')) {
        return None;
    }
    at += 1;
    let faces_start = at;
    let faces_len = run_of_digits(bytes, at);
    if faces_len == 0 {
        return None;
    }
    at += faces_len;
    let faces = Faces::Standard(text[faces_start..at].parse().ok()?);
    let faces_span = faces_start..at;
    let mut pool_modifiers = Vec::new();
    if at < bytes.len() {
        let start = at;
        let (kind, letters) = match &bytes[at..] {
            [b'k', b'h', ..] => (KeepKind::Highest, 2),
            [b'k', b'l', ..] => (KeepKind::Lowest, 2),
            [b'k', ..] => (KeepKind::Highest, 1),
            [b'd', b'h', ..] => (KeepKind::DropHighest, 2),
            [b'd', b'l', ..] => (KeepKind::DropLowest, 2),
            _ => return None,
        };
        at += letters;
        let n_len = run_of_digits(bytes, at);
        let n = if n_len == 0 {
            1
        } else {
            text[at..at + n_len].parse().ok()?
        };
        at += n_len;
        pool_modifiers.push(PoolModifier::Keep {
            keep: Keep::new(kind, n),
            span: start..at,
        });
    }
    if at != bytes.len() {
        return None;
    }
    Some(Expr {
        kind: ExprKind::Dice(Dice {
            count,
            faces,
            faces_span,
            die_modifiers: Vec::new(),
            pool_modifiers,
        }),
        span: 0..at,
    })
}

/// How many ASCII digits start at `at`.
fn run_of_digits(bytes: &[u8], at: usize) -> usize {
    bytes.get(at..).map_or(0, |rest| {
        rest.iter().take_while(|b| b.is_ascii_digit()).count()
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::parse_sized;
    use super::plain_dice;

    /// The shortcut must build exactly what the grammar builds.
    fn agrees(text: &str) -> Result<bool, TestCaseError> {
        let Some(plain) = plain_dice(text) else {
            return Ok(false);
        };
        let full = parse_sized(text);
        prop_assert_eq!(Ok(plain), full, "{:?}", text);
        Ok(true)
    }

    #[test]
    fn everyday_terms_take_the_shortcut_and_agree() {
        for text in [
            "3d6",
            "d20",
            "D8",
            "100d6",
            "4d6kh3",
            "2d20kl1",
            "4d6k",
            "4d6kh",
            "5d10dl2",
            "5d10dh",
            "0d6",
            "d0",
            "007d06kh01",
        ] {
            assert!(matches!(agrees(text), Ok(true)), "{text}");
        }
    }

    #[test]
    fn anything_else_goes_to_the_grammar() {
        for text in [
            "",
            "3",
            "d",
            "3d",
            "3d6 ",
            " 3d6",
            "3d6+1",
            "3d6d1",
            "3d6kh3kl1",
            "d%",
            "dF",
            "d{1,2}",
            "3d6!",
            "4d6 kh3",
            "4d6kx",
            "99999999999999999999d6",
            "3d99999999999999999999",
            "4d6kh99999999999999999999",
            "-3d6",
            "3d-6",
            "٣d6",
        ] {
            assert!(plain_dice(text).is_none(), "{text}");
        }
    }

    proptest! {
        #[test]
        fn the_shortcut_agrees_with_the_grammar(text in "[0-9]{0,3}[dDk]?[0-9]{0,3}[dkhl]{0,2}[0-9]{0,2}[dkh+ ]?") {
            agrees(&text)?;
        }
    }
}
