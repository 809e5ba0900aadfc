//! Properties: no input makes the parser panic, and every well-formed expression
//! parses to the tree it was written from, with spans that re-parse to their node.

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{
    Comparison, Condition, Dice, DieModifier, Expr, ExprKind, Faces, Keep, PoolModifier,
};
use fairdice::dice::notation::parse;
use proptest::prelude::*;

/// An expression as a writer would produce it, modifiers in written order.
#[derive(Debug, Clone)]
enum Tree {
    Number(i64),
    Dice {
        count: Option<Box<Tree>>,
        faces: WrittenFaces,
        modifiers: Vec<Written>,
    },
    Negate(Box<Tree>),
    Binary(BinaryOp, Box<Tree>, Box<Tree>),
}

#[derive(Debug, Clone)]
enum WrittenFaces {
    Standard(u64),
    Percent,
    Fudge,
    Ranges(Vec<(i64, i64)>),
}

#[derive(Debug, Clone)]
enum Written {
    Explode(Option<Condition>),
    Reroll(Condition),
    RerollOnce(Condition),
    Keep(Keep),
    CountSuccesses(Condition),
    DeductFailures(Condition),
}

fn value() -> impl Strategy<Value = i64> {
    prop_oneof![4 => -20i64..20, 1 => any::<i64>()]
}

fn comparison() -> impl Strategy<Value = Comparison> {
    use Comparison::*;
    prop_oneof![Just(Lt), Just(Le), Just(Gt), Just(Ge), Just(Eq), Just(Ne)]
}

fn condition() -> impl Strategy<Value = Condition> {
    (comparison(), value()).prop_map(|(comparison, value)| Condition { comparison, value })
}

/// Explosion conditions cannot use `=`/`!=`, and a bare number is non-negative.
fn explode_condition() -> impl Strategy<Value = Condition> {
    use Comparison::*;
    prop_oneof![
        (prop_oneof![Just(Lt), Just(Le), Just(Gt), Just(Ge)], value()),
        (Just(Eq), value().prop_map(|v| v & i64::MAX)),
    ]
    .prop_map(|(comparison, value)| Condition { comparison, value })
}

fn written() -> impl Strategy<Value = Written> {
    let count = prop_oneof![4 => 0u64..6, 1 => any::<u64>()];
    let keep = (0..4u8, count).prop_map(|(kind, n)| match kind {
        0 => Keep::Highest(n),
        1 => Keep::Lowest(n),
        2 => Keep::DropHighest(n),
        _ => Keep::DropLowest(n),
    });
    prop_oneof![
        proptest::option::of(explode_condition()).prop_map(Written::Explode),
        condition().prop_map(Written::Reroll),
        condition().prop_map(Written::RerollOnce),
        keep.prop_map(Written::Keep),
        condition().prop_map(Written::CountSuccesses),
        condition().prop_map(Written::DeductFailures),
    ]
}

fn faces() -> impl Strategy<Value = WrittenFaces> {
    let range = (-50i64..50, 0i64..4).prop_map(|(low, width)| (low, low + width));
    prop_oneof![
        4 => (0u64..30).prop_map(WrittenFaces::Standard),
        1 => any::<u64>().prop_map(WrittenFaces::Standard),
        1 => Just(WrittenFaces::Percent),
        1 => Just(WrittenFaces::Fudge),
        1 => proptest::collection::vec(range, 1..4).prop_map(WrittenFaces::Ranges),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    let number = prop_oneof![4 => 0i64..100, 1 => any::<i64>().prop_map(|n| n & i64::MAX)];
    let modifiers = || proptest::collection::vec(written(), 0..5);
    let leaf = prop_oneof![
        number.clone().prop_map(Tree::Number),
        (
            proptest::option::of(number.prop_map(|n| Box::new(Tree::Number(n)))),
            faces(),
            modifiers()
        )
            .prop_map(|(count, faces, modifiers)| Tree::Dice {
                count,
                faces,
                modifiers
            }),
    ];
    let op = {
        use BinaryOp::*;
        prop_oneof![
            Just(Add),
            Just(Sub),
            Just(Mul),
            Just(Div),
            Just(Lt),
            Just(Le),
            Just(Gt),
            Just(Ge),
            Just(Eq),
            Just(Ne)
        ]
    };
    leaf.prop_recursive(5, 32, 2, move |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Tree::Negate(Box::new(t))),
            (op.clone(), inner.clone(), inner.clone()).prop_map(|(op, l, r)| Tree::Binary(
                op,
                Box::new(l),
                Box::new(r)
            )),
            (inner, faces(), modifiers()).prop_map(|(count, faces, modifiers)| Tree::Dice {
                count: Some(Box::new(count)),
                faces,
                modifiers
            }),
        ]
    })
}

fn precedence(tree: &Tree) -> u8 {
    match tree {
        Tree::Binary(op, ..) => op_precedence(*op),
        Tree::Negate(_) => 3,
        Tree::Number(_) | Tree::Dice { .. } => 4,
    }
}

fn op_precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Add | BinaryOp::Sub => 1,
        BinaryOp::Mul | BinaryOp::Div => 2,
        _ => 0,
    }
}

/// Writes a tree as notation, varying whitespace and equivalent spellings with
/// a seeded choice.
struct Writer {
    out: String,
    state: u64,
}

impl Writer {
    fn pick(&mut self, n: u64) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }

    fn space(&mut self) {
        let spaces = ["", "", "", " ", "  ", "\t", "\n"];
        let i = self.pick(spaces.len() as u64) as usize;
        self.out.push_str(spaces[i]);
    }

    fn tree(&mut self, tree: &Tree, min_precedence: u8) {
        let parenthesized = precedence(tree) < min_precedence;
        if parenthesized {
            self.out.push('(');
            self.space();
        }
        match tree {
            Tree::Number(n) => self.out.push_str(&n.to_string()),
            Tree::Negate(inner) => {
                self.out.push('-');
                self.space();
                self.tree(inner, 3);
            }
            Tree::Binary(op, left, right) => {
                let p = op_precedence(*op);
                self.tree(left, if p == 0 { 1 } else { p });
                // `d6!` then `>=5` would read as an explosion condition.
                if self.out.ends_with('!') {
                    self.out.push(' ');
                }
                self.space();
                self.out.push_str(op.symbol());
                self.space();
                self.tree(right, p + 1);
            }
            Tree::Dice {
                count,
                faces,
                modifiers,
            } => self.dice(count.as_deref(), faces, modifiers),
        }
        if parenthesized {
            self.space();
            self.out.push(')');
        }
    }

    fn dice(&mut self, count: Option<&Tree>, faces: &WrittenFaces, modifiers: &[Written]) {
        match count {
            None => {}
            Some(Tree::Number(n)) => self.out.push_str(&n.to_string()),
            Some(count) => {
                self.out.push('(');
                self.space();
                self.tree(count, 0);
                self.space();
                self.out.push(')');
            }
        }
        let letter = if self.pick(4) == 0 { 'D' } else { 'd' };
        self.out.push(letter);
        match faces {
            WrittenFaces::Standard(n) => self.out.push_str(&n.to_string()),
            WrittenFaces::Percent => self.out.push('%'),
            WrittenFaces::Fudge => {
                let letter = if self.pick(2) == 0 { 'F' } else { 'f' };
                self.out.push(letter);
            }
            WrittenFaces::Ranges(ranges) => {
                self.out.push('{');
                for (i, &(low, high)) in ranges.iter().enumerate() {
                    if i > 0 {
                        self.space();
                        self.out.push(',');
                    }
                    self.space();
                    if low == high && self.pick(2) == 0 {
                        self.out.push_str(&low.to_string());
                    } else {
                        self.out.push_str(&low.to_string());
                        self.space();
                        self.out.push_str("..");
                        self.space();
                        self.out.push_str(&high.to_string());
                    }
                }
                self.space();
                self.out.push('}');
            }
        }
        for modifier in modifiers {
            self.space();
            let text = self.modifier(modifier);
            // `!` then `!5` would read as `!!`.
            if self.out.ends_with('!') && text.starts_with('!') {
                self.out.push(' ');
            }
            self.out.push_str(&text);
        }
    }

    fn modifier(&mut self, modifier: &Written) -> String {
        match modifier {
            Written::Explode(None) => "!".to_string(),
            Written::Explode(Some(c)) if c.comparison == Comparison::Eq => {
                format!("!{}", c.value)
            }
            Written::Explode(Some(c)) => format!("!{c}"),
            Written::Reroll(c) => format!("r{}", self.condition(c)),
            Written::RerollOnce(c) => format!("ro{}", self.condition(c)),
            Written::CountSuccesses(c) => format!("cs{}", self.condition(c)),
            Written::DeductFailures(c) => format!("df{}", self.condition(c)),
            Written::Keep(keep) => {
                let (letters, n) = match *keep {
                    Keep::Highest(n) => (["kh", "k"][self.pick(2) as usize], n),
                    Keep::Lowest(n) => ("kl", n),
                    Keep::DropHighest(n) => ("dh", n),
                    Keep::DropLowest(n) => ("dl", n),
                };
                if n == 1 && self.pick(2) == 0 {
                    letters.to_string()
                } else {
                    format!("{letters}{n}")
                }
            }
        }
    }

    fn condition(&mut self, condition: &Condition) -> String {
        match condition.comparison {
            Comparison::Eq => {
                let prefix = ["", "=", "=="][self.pick(3) as usize];
                format!("{prefix}{}", condition.value)
            }
            _ => condition.to_string(),
        }
    }
}

fn write(tree: &Tree, seed: u64) -> String {
    let mut writer = Writer {
        out: String::new(),
        state: seed,
    };
    writer.space();
    writer.tree(tree, 0);
    writer.space();
    writer.out
}

/// The tree the parser should build from `tree`, with every span empty.
fn expected(tree: &Tree) -> Expr {
    let kind = match tree {
        Tree::Number(n) => ExprKind::Number(*n),
        Tree::Negate(inner) => ExprKind::Negate(Box::new(expected(inner))),
        Tree::Binary(op, left, right) => ExprKind::Binary {
            op: *op,
            left: Box::new(expected(left)),
            right: Box::new(expected(right)),
        },
        Tree::Dice {
            count,
            faces,
            modifiers,
        } => ExprKind::Dice(expected_dice(count.as_deref(), faces, modifiers)),
    };
    Expr { kind, span: 0..0 }
}

fn expected_dice(count: Option<&Tree>, faces: &WrittenFaces, modifiers: &[Written]) -> Dice {
    let faces = match faces {
        WrittenFaces::Standard(n) => Faces::Standard(*n),
        WrittenFaces::Percent => Faces::Percent,
        WrittenFaces::Fudge => Faces::Fudge,
        WrittenFaces::Ranges(ranges) => {
            Faces::Custom(ranges.iter().flat_map(|&(l, h)| l..=h).collect())
        }
    };
    let mut die_modifiers: Vec<DieModifier> = Vec::new();
    let mut pool_modifiers = Vec::new();
    let mut previous: Option<&Written> = None;
    for modifier in modifiers {
        let (conditions, kind) = match modifier {
            Written::Explode(c) => (c.iter().copied().collect::<Vec<_>>(), 0),
            Written::Reroll(c) => (vec![*c], 1),
            Written::RerollOnce(c) => (vec![*c], 2),
            Written::Keep(keep) => {
                pool_modifiers.push(PoolModifier::Keep {
                    keep: *keep,
                    span: 0..0,
                });
                previous = Some(modifier);
                continue;
            }
            Written::CountSuccesses(condition) | Written::DeductFailures(condition) => {
                let condition = *condition;
                pool_modifiers.push(match modifier {
                    Written::CountSuccesses(_) => PoolModifier::CountSuccesses {
                        condition,
                        span: 0..0,
                    },
                    _ => PoolModifier::DeductFailures {
                        condition,
                        span: 0..0,
                    },
                });
                previous = Some(modifier);
                continue;
            }
        };
        let same_kind = matches!(
            (previous, modifier),
            (Some(Written::Explode(Some(_))), Written::Explode(Some(_)))
                | (Some(Written::Reroll(_)), Written::Reroll(_))
                | (Some(Written::RerollOnce(_)), Written::RerollOnce(_))
        );
        previous = Some(modifier);
        if same_kind {
            match die_modifiers.last_mut() {
                Some(
                    DieModifier::Explode { conditions: c, .. }
                    | DieModifier::Reroll { conditions: c, .. }
                    | DieModifier::RerollOnce { conditions: c, .. },
                ) => c.extend(conditions),
                None => unreachable!(),
            }
            continue;
        }
        die_modifiers.push(match kind {
            0 => DieModifier::Explode {
                conditions,
                span: 0..0,
            },
            1 => DieModifier::Reroll {
                conditions,
                span: 0..0,
            },
            _ => DieModifier::RerollOnce {
                conditions,
                span: 0..0,
            },
        });
    }
    Dice {
        count: count.map(|c| Box::new(expected(c))),
        faces,
        faces_span: 0..0,
        die_modifiers,
        pool_modifiers,
    }
}

/// `expr` with every span emptied.
fn strip(expr: &Expr) -> Expr {
    let kind = match &expr.kind {
        ExprKind::Number(n) => ExprKind::Number(*n),
        ExprKind::Negate(inner) => ExprKind::Negate(Box::new(strip(inner))),
        ExprKind::Binary { op, left, right } => ExprKind::Binary {
            op: *op,
            left: Box::new(strip(left)),
            right: Box::new(strip(right)),
        },
        ExprKind::Dice(dice) => {
            let mut dice = dice.clone();
            dice.count = dice.count.map(|c| Box::new(strip(&c)));
            dice.faces_span = 0..0;
            for m in &mut dice.die_modifiers {
                match m {
                    DieModifier::Explode { span, .. }
                    | DieModifier::Reroll { span, .. }
                    | DieModifier::RerollOnce { span, .. } => *span = 0..0,
                }
            }
            for m in &mut dice.pool_modifiers {
                match m {
                    PoolModifier::Keep { span, .. }
                    | PoolModifier::CountSuccesses { span, .. }
                    | PoolModifier::DeductFailures { span, .. } => *span = 0..0,
                }
            }
            ExprKind::Dice(dice)
        }
    };
    Expr { kind, span: 0..0 }
}

/// Every node's text parses to the node; every span is trimmed and well placed.
fn check_spans(text: &str, expr: &Expr) -> Result<(), TestCaseError> {
    let slice = &text[expr.span.clone()];
    prop_assert_eq!(slice.trim(), slice);
    let reparsed = parse(slice).map_err(|e| TestCaseError::fail(e.render(slice)))?;
    prop_assert_eq!(strip(&reparsed), strip(expr), "node text {:?}", slice);
    match &expr.kind {
        ExprKind::Number(_) => {}
        ExprKind::Negate(inner) => check_spans(text, inner)?,
        ExprKind::Binary { left, right, .. } => {
            check_spans(text, left)?;
            check_spans(text, right)?;
        }
        ExprKind::Dice(dice) => {
            if let Some(count) = &dice.count {
                check_spans(text, count)?;
            }
            let faces = &text[dice.faces_span.clone()];
            let faces_ok = match &dice.faces {
                Faces::Standard(n) => faces.parse::<u64>() == Ok(*n),
                Faces::Percent => faces == "%",
                Faces::Fudge => faces.eq_ignore_ascii_case("f"),
                Faces::Custom(_) => faces.starts_with('{') && faces.ends_with('}'),
            };
            prop_assert!(faces_ok, "faces {:?} of {:?}", faces, dice.faces);
            for m in &dice.die_modifiers {
                let (span, prefix) = match m {
                    DieModifier::Explode { span, .. } => (span, "!"),
                    DieModifier::Reroll { span, .. } => (span, "r"),
                    DieModifier::RerollOnce { span, .. } => (span, "ro"),
                };
                let written = &text[span.clone()];
                prop_assert!(written.starts_with(prefix) && written.trim() == written);
            }
            for m in &dice.pool_modifiers {
                let (span, prefixes): (_, &[&str]) = match m {
                    PoolModifier::Keep { span, .. } => (span, &["k", "dh", "dl"]),
                    PoolModifier::CountSuccesses { span, .. } => (span, &["cs"]),
                    PoolModifier::DeductFailures { span, .. } => (span, &["df"]),
                };
                let written = &text[span.clone()];
                prop_assert!(
                    prefixes.iter().any(|p| written.starts_with(p)),
                    "{}",
                    written
                );
                prop_assert_eq!(written.trim(), written);
            }
        }
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
        text in "[0-9dDfF%{}()\\[\\].,<>=!+*/ \t\nrokhlcsx\u{e9}\u{3000}-]{0,40}"
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
