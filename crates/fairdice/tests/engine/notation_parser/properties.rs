//! Properties: no input makes the parser panic, and every well-formed expression
//! parses to the tree it was written from, with spans that re-parse to their node.

use fairdice::dice::notation::ast::{DieModifier, Expr, ExprKind, Faces, PoolModifier};
use fairdice::dice::notation::parse;
use proptest::prelude::*;

use super::expected::{expected, strip};
use super::tree::tree;
use super::writer::write;

/// Every node's text parses to the node; every span is trimmed and well placed.
fn check_spans(text: &str, expr: &Expr) -> Result<(), TestCaseError> {
    let slice = &text[expr.span.clone()];
    prop_assert_eq!(slice.trim(), slice);
    let reparsed = parse(slice).map_err(|e| TestCaseError::fail(e.render(slice)))?;
    prop_assert_eq!(strip(&reparsed), strip(expr), "node text {:?}", slice);
    for child in expr.children() {
        check_spans(text, child)?;
    }
    let pool_ok = |text: &str, modifiers: &[PoolModifier]| {
        modifiers.iter().all(|m| {
            let prefixes: &[&str] = match m {
                PoolModifier::Keep { .. } | PoolModifier::KeepRolled { .. } => &["k", "dh", "dl"],
                PoolModifier::CountSuccesses { .. } => &["cs", "even", "odd"],
                PoolModifier::DeductFailures { .. } => &["df"],
                PoolModifier::CountFailures { .. } => &["cf"],
                PoolModifier::Unique { .. } => &["u"],
            };
            let written = &text[m.span().clone()];
            prefixes.iter().any(|p| written.starts_with(p)) && written.trim() == written
        })
    };
    match &expr.kind {
        ExprKind::Dice(dice) => {
            let faces = &text[dice.faces_span.clone()];
            let faces_ok = match &dice.faces {
                Faces::Standard(n) => faces.parse::<u64>() == Ok(*n),
                Faces::Percent => faces == "%",
                Faces::Fudge => faces.eq_ignore_ascii_case("f"),
                Faces::Custom(_) => faces.starts_with('{') && faces.ends_with('}'),
                Faces::Rolled(_) => faces.starts_with('(') && faces.ends_with(')'),
            };
            prop_assert!(faces_ok, "faces {:?} of {:?}", faces, dice.faces);
            for m in &dice.die_modifiers {
                let prefixes: &[&str] = match m {
                    DieModifier::Explode { .. } => &["!", "x"],
                    DieModifier::Reroll { .. } => &["r"],
                    DieModifier::RerollOnce { .. } => &["ro"],
                    DieModifier::Minimum { .. } => &["min"],
                    DieModifier::Maximum { .. } => &["max"],
                };
                let written = &text[m.span().clone()];
                prop_assert!(
                    prefixes.iter().any(|p| written.starts_with(p)) && written.trim() == written,
                    "{}",
                    written
                );
            }
            prop_assert!(pool_ok(text, &dice.pool_modifiers));
        }
        ExprKind::Group(group) => prop_assert!(pool_ok(text, &group.pool_modifiers)),
        ExprKind::Repeat(repeat) => prop_assert!(pool_ok(text, &repeat.pool_modifiers)),
        _ => {}
    }
    Ok(())
}

/// Whatever the input, parsing returns, and an error is well formed.
fn check_total(text: &str) -> Result<(), TestCaseError> {
    match parse(text) {
        Ok(expr) => check_spans(text, &expr)?,
        Err(error) => {
            let span = error.span();
            prop_assert!(span.start <= span.end && span.end <= text.len());
            prop_assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
            let message = error.to_string();
            prop_assert!(!message.is_empty() && !message.contains('\n'));
            let rendered = error.render(text);
            prop_assert_eq!(rendered.lines().count(), 2, "{}", rendered);
            prop_assert!(rendered.ends_with(&message));
            prop_assert!(rendered.contains('^'));
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn well_formed_expressions_parse_to_what_was_written(tree in tree(), seed in any::<u64>()) {
        let text = write(&tree, seed);
        let expr = parse(&text).map_err(|e| TestCaseError::fail(e.render(&text)))?;
        prop_assert_eq!(strip(&expr), expected(&tree), "{:?}", text);
        check_spans(&text, &expr)?;
        prop_assert_eq!(parse(&text), Ok(expr));
    }

    #[test]
    fn notation_like_junk_never_panics(
        text in "[0-9dDfF%{}()\\[\\].,<>=!+*/ \t\nrokhlcsxpmina#?:&|_\u{e9}\u{3000}-]{0,40}"
    ) {
        check_total(&text)?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check_total(&text)?;
    }

    #[test]
    fn a_damaged_expression_never_panics(
        tree in tree(),
        seed in any::<u64>(),
        cut in any::<proptest::sample::Index>(),
        insert in "\\PC{0,3}",
    ) {
        let mut text = write(&tree, seed);
        let mut at = cut.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, &insert);
        check_total(&text)?;
        text.truncate(at);
        check_total(&text)?;
    }

    #[test]
    fn render_never_panics_on_a_foreign_source(
        text in "[0-9d(){}<=!x -]{0,12}",
        other in any::<String>(),
    ) {
        if let Err(error) = parse(&text) {
            let rendered = error.render(&other);
            prop_assert!(rendered.contains('^'));
        }
    }
}
