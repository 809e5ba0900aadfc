//! Properties: no input makes the parser panic, and every well-formed expression
//! parses to the tree it was written from, with spans that re-parse to their node.

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{
    Comparison, Condition, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces,
    Function, Group, Keep, PoolModifier, Repeat,
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
    Not(Box<Tree>),
    Conditional(Box<Tree>, Box<Tree>, Box<Tree>),
    Call(Function, Vec<Tree>),
    Group(Vec<Tree>, Vec<Written>),
    Repeat(Box<Tree>, Box<Tree>, Vec<Written>),
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
    Explode(ExplodeKind, Option<Condition>),
    /// Foundry's `x`, `xo`, `x5=10`.
    ExplodeX(ExplodeLimit, Option<Condition>),
    Reroll(Condition),
    RerollOnce(Condition),
    Minimum(i64),
    Maximum(i64),
    Keep(Keep),
    CountSuccesses(Condition),
    DeductFailures(Condition),
    CountFailures(Condition),
    Parity(Comparison),
}

impl Written {
    fn is_pool(&self) -> bool {
        matches!(
            self,
            Written::Keep(_)
                | Written::CountSuccesses(_)
                | Written::DeductFailures(_)
                | Written::CountFailures(_)
                | Written::Parity(_)
        )
    }
}

/// Modifiers the parser accepts together: one explosion at most, no reroll after
/// an explosion that adds dice, `min` never above `max`, no `cf` beside `cs`/`df`.
fn compatible(mut modifiers: Vec<Written>) -> Vec<Written> {
    let mut exploded = false;
    let mut adds_dice = false;
    modifiers.retain(|m| match m {
        Written::Explode(kind, _) if !exploded => {
            exploded = true;
            adds_dice = matches!(kind, ExplodeKind::Dice | ExplodeKind::Penetrate);
            true
        }
        Written::ExplodeX(..) if !exploded => {
            exploded = true;
            adds_dice = true;
            true
        }
        Written::Explode(..) | Written::ExplodeX(..) => false,
        Written::Reroll(_) | Written::RerollOnce(_) => !adds_dice,
        _ => true,
    });
    let lowest_max = modifiers
        .iter()
        .filter_map(|m| match m {
            Written::Maximum(v) => Some(*v),
            _ => None,
        })
        .min();
    modifiers.retain(|m| !matches!((m, lowest_max), (Written::Minimum(v), Some(max)) if *v > max));
    let counts = modifiers.iter().any(|m| {
        matches!(
            m,
            Written::CountSuccesses(_) | Written::DeductFailures(_) | Written::Parity(_)
        )
    });
    if counts {
        modifiers.retain(|m| !matches!(m, Written::CountFailures(_)));
    }
    modifiers
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
    let kind = prop_oneof![
        Just(ExplodeKind::Dice),
        Just(ExplodeKind::Compound),
        Just(ExplodeKind::Penetrate),
        Just(ExplodeKind::CompoundPenetrate),
    ];
    let limit = prop_oneof![
        Just(ExplodeLimit::Depth),
        Just(ExplodeLimit::Once),
        (0u64..20).prop_map(ExplodeLimit::PerTerm),
    ];
    prop_oneof![
        (kind, proptest::option::of(explode_condition()))
            .prop_map(|(kind, c)| Written::Explode(kind, c)),
        (limit, proptest::option::of(x_condition())).prop_map(|(limit, c)| match limit {
            // A cap is written with its condition.
            ExplodeLimit::PerTerm(_) => Written::ExplodeX(
                limit,
                Some(c.unwrap_or(Condition {
                    comparison: Comparison::Eq,
                    value: 6,
                }))
            ),
            _ => Written::ExplodeX(limit, c),
        }),
        condition().prop_map(Written::Reroll),
        condition().prop_map(Written::RerollOnce),
        value().prop_map(Written::Minimum),
        value().prop_map(Written::Maximum),
        pool_written(),
    ]
}

/// A pool modifier (after dice, a group or a repetition).
fn pool_written() -> impl Strategy<Value = Written> {
    let count = prop_oneof![4 => 0u64..6, 1 => any::<u64>()];
    let keep = (0..4u8, count).prop_map(|(kind, n)| match kind {
        0 => Keep::Highest(n),
        1 => Keep::Lowest(n),
        2 => Keep::DropHighest(n),
        _ => Keep::DropLowest(n),
    });
    prop_oneof![
        keep.prop_map(Written::Keep),
        condition().prop_map(Written::CountSuccesses),
        condition().prop_map(Written::DeductFailures),
        condition().prop_map(Written::CountFailures),
        prop_oneof![Just(Comparison::Even), Just(Comparison::Odd)].prop_map(Written::Parity),
    ]
}

/// Foundry's explosion conditions: `<N <=N >N >=N =N` or a non-negative `N`.
fn x_condition() -> impl Strategy<Value = Condition> {
    use Comparison::*;
    prop_oneof![
        (
            prop_oneof![Just(Lt), Just(Le), Just(Gt), Just(Ge), Just(Eq)],
            value()
        ),
        (Just(Eq), value().prop_map(|v| v & i64::MAX)),
    ]
    .prop_map(|(comparison, value)| Condition { comparison, value })
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
    let modifiers = || proptest::collection::vec(written(), 0..5).prop_map(compatible);
    let pool_modifiers = || proptest::collection::vec(pool_written(), 0..3).prop_map(compatible);
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
            Just(Ne),
            Just(Mod),
            Just(And),
            Just(Or)
        ]
    };
    let function = prop_oneof![
        Just(Function::Max),
        Just(Function::Min),
        Just(Function::Abs)
    ];
    leaf.prop_recursive(5, 32, 3, move |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Tree::Negate(Box::new(t))),
            inner.clone().prop_map(|t| Tree::Not(Box::new(t))),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| { Tree::Conditional(Box::new(c), Box::new(a), Box::new(b)) }),
            (
                function.clone(),
                proptest::collection::vec(inner.clone(), 1..3)
            )
                .prop_map(|(f, mut args)| {
                    if f == Function::Abs {
                        args.truncate(1);
                    }
                    Tree::Call(f, args)
                }),
            (
                proptest::collection::vec(inner.clone(), 1..3),
                pool_modifiers()
            )
                .prop_map(|(members, m)| Tree::Group(members, m)),
            (inner.clone(), inner.clone(), pool_modifiers()).prop_map(|(n, body, m)| Tree::Repeat(
                Box::new(n),
                Box::new(body),
                m
            )),
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

/// Binding strength, loosest first: conditional 0, `or` 1, `and` 2, `not` 3,
/// comparisons 4, sums 5, products 6, unary minus 7, atoms 8.
fn precedence(tree: &Tree) -> u8 {
    match tree {
        Tree::Conditional(..) => 0,
        Tree::Binary(op, ..) => op_precedence(*op),
        Tree::Not(_) => 3,
        Tree::Negate(_) => 7,
        _ => 8,
    }
}

fn op_precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 1,
        BinaryOp::And => 2,
        BinaryOp::Add | BinaryOp::Sub => 5,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 6,
        _ => 4,
    }
}

const ATOM: u8 = 8;

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
                self.tree(inner, 7);
            }
            Tree::Not(inner) => {
                self.out.push_str("not ");
                self.space();
                self.tree(inner, 3);
            }
            Tree::Binary(op, left, right) => {
                let p = op_precedence(*op);
                // Comparisons do not chain: both sides bind tighter.
                self.tree(left, if p == 4 { 5 } else { p });
                self.separate();
                let word = matches!(op, BinaryOp::And | BinaryOp::Or);
                if word {
                    self.out.push(' ');
                }
                self.out.push_str(op.symbol());
                if word {
                    self.out.push(' ');
                }
                self.space();
                self.tree(right, p + 1);
            }
            Tree::Conditional(condition, then, otherwise) => {
                self.tree(condition, 1);
                self.separate();
                self.out.push('?');
                self.space();
                self.tree(then, 0);
                self.space();
                self.out.push(':');
                self.space();
                self.tree(otherwise, 0);
            }
            Tree::Call(function, arguments) => {
                self.out.push_str(function.name());
                self.out.push('(');
                self.list(arguments);
                self.out.push(')');
            }
            Tree::Group(members, modifiers) => {
                self.out.push('{');
                self.list(members);
                self.out.push('}');
                self.modifiers(modifiers);
            }
            Tree::Repeat(count, body, modifiers) => {
                match count.as_ref() {
                    Tree::Number(n) => self.out.push_str(&n.to_string()),
                    count => {
                        self.out.push('(');
                        self.tree(count, 0);
                        self.out.push(')');
                    }
                }
                self.out.push('#');
                // The modifiers after a dice term belong to it.
                let wrap = matches!(body.as_ref(), Tree::Repeat(..))
                    || (matches!(body.as_ref(), Tree::Dice { .. } | Tree::Group(..))
                        && !modifiers.is_empty());
                if wrap {
                    self.out.push('(');
                    self.tree(body, 0);
                    self.out.push(')');
                } else {
                    self.tree(body, ATOM);
                }
                self.modifiers(modifiers);
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

    /// Space before an operator: a modifier would swallow a `>=5` or `!=5`.
    fn separate(&mut self) {
        if self.out.ends_with(['!', 'x', 'o', 'p']) {
            self.out.push(' ');
        }
        self.space();
    }

    fn list(&mut self, items: &[Tree]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.space();
                self.out.push(',');
            }
            self.space();
            self.tree(item, 0);
            self.space();
        }
    }

    fn modifiers(&mut self, modifiers: &[Written]) {
        for modifier in modifiers {
            self.space();
            let text = self.modifier(modifier);
            // `!` then `!5` would read as `!!`; `!` then `p` as `!p`.
            if self.out.ends_with('!') && (text.starts_with('!') || text.starts_with('p')) {
                self.out.push(' ');
            }
            // After a number or `)`, `df…` would read as Fudge dice (`(2d6)dF`).
            if self.out.ends_with(|c: char| c.is_ascii_digit() || c == ')') && text.starts_with('d')
            {
                self.out.push(' ');
            }
            // `xo` then `odd` would read `o` twice; `x` then `o…` as `xo`.
            if self.out.ends_with(['x', 'o']) && text.starts_with('o') {
                self.out.push(' ');
            }
            self.out.push_str(&text);
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
        self.modifiers(modifiers);
    }

    fn modifier(&mut self, modifier: &Written) -> String {
        match modifier {
            Written::Explode(kind, condition) => {
                let letters = match kind {
                    ExplodeKind::Dice => "!",
                    ExplodeKind::Compound => "!!",
                    ExplodeKind::Penetrate => "!p",
                    ExplodeKind::CompoundPenetrate => "!!p",
                };
                match condition {
                    None => letters.to_string(),
                    Some(c) if c.comparison == Comparison::Eq => format!("{letters}{}", c.value),
                    Some(c) => format!("{letters}{c}"),
                }
            }
            Written::ExplodeX(limit, condition) => {
                let letters = match limit {
                    ExplodeLimit::Depth => "x".to_string(),
                    ExplodeLimit::Once => "xo".to_string(),
                    ExplodeLimit::PerTerm(cap) => format!("x{cap}"),
                };
                match (limit, condition) {
                    (_, None) => letters,
                    (ExplodeLimit::PerTerm(_), Some(c)) => format!("{letters}{c}"),
                    (_, Some(c))
                        if c.comparison == Comparison::Eq && c.value >= 0 && self.pick(2) == 0 =>
                    {
                        format!("{letters}{}", c.value)
                    }
                    (_, Some(c)) => format!("{letters}{c}"),
                }
            }
            Written::Minimum(v) => format!("min{v}"),
            Written::Maximum(v) => format!("max{v}"),
            Written::CountFailures(c) => format!("cf{}", self.condition(c)),
            Written::Parity(c) => if *c == Comparison::Even {
                "even"
            } else {
                "odd"
            }
            .to_string(),
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
        Tree::Not(inner) => ExprKind::Not(Box::new(expected(inner))),
        Tree::Binary(op, left, right) => ExprKind::Binary {
            op: *op,
            left: Box::new(expected(left)),
            right: Box::new(expected(right)),
        },
        Tree::Conditional(c, a, b) => ExprKind::Conditional {
            condition: Box::new(expected(c)),
            then: Box::new(expected(a)),
            otherwise: Box::new(expected(b)),
        },
        Tree::Call(function, arguments) => ExprKind::Call {
            function: *function,
            arguments: arguments.iter().map(expected).collect(),
        },
        Tree::Group(members, modifiers) => ExprKind::Group(Group {
            members: members.iter().map(expected).collect(),
            pool_modifiers: expected_modifiers(modifiers).1,
        }),
        Tree::Repeat(count, body, modifiers) => ExprKind::Repeat(Repeat {
            count: Box::new(expected(count)),
            body: Box::new(expected(body)),
            pool_modifiers: expected_modifiers(modifiers).1,
        }),
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
    let (die_modifiers, pool_modifiers) = expected_modifiers(modifiers);
    Dice {
        count: count.map(|c| Box::new(expected(c))),
        faces,
        faces_span: 0..0,
        die_modifiers,
        pool_modifiers,
    }
}

/// The per-die and per-pool lists the parser makes of written modifiers: repeats
/// of one reroll letter written one after another merge.
fn expected_modifiers(modifiers: &[Written]) -> (Vec<DieModifier>, Vec<PoolModifier>) {
    let mut die_modifiers: Vec<DieModifier> = Vec::new();
    let mut pool_modifiers = Vec::new();
    let mut previous: Option<&Written> = None;
    for modifier in modifiers {
        let span = 0..0;
        if modifier.is_pool() {
            pool_modifiers.push(match modifier {
                Written::Keep(keep) => PoolModifier::Keep { keep: *keep, span },
                Written::CountSuccesses(c) => PoolModifier::CountSuccesses {
                    condition: *c,
                    span,
                },
                Written::Parity(comparison) => PoolModifier::CountSuccesses {
                    condition: Condition {
                        comparison: *comparison,
                        value: 0,
                    },
                    span,
                },
                Written::DeductFailures(c) => PoolModifier::DeductFailures {
                    condition: *c,
                    span,
                },
                Written::CountFailures(c) => PoolModifier::CountFailures {
                    condition: *c,
                    span,
                },
                _ => unreachable!(),
            });
            previous = Some(modifier);
            continue;
        }
        let same_kind = matches!(
            (previous, modifier),
            (Some(Written::Reroll(_)), Written::Reroll(_))
                | (Some(Written::RerollOnce(_)), Written::RerollOnce(_))
        );
        previous = Some(modifier);
        if same_kind {
            if let Some(
                DieModifier::Reroll { conditions, .. } | DieModifier::RerollOnce { conditions, .. },
            ) = die_modifiers.last_mut()
            {
                if let Written::Reroll(c) | Written::RerollOnce(c) = modifier {
                    conditions.push(*c);
                }
            }
            continue;
        }
        die_modifiers.push(match modifier {
            Written::Explode(kind, c) => DieModifier::Explode {
                conditions: c.iter().copied().collect(),
                kind: *kind,
                limit: ExplodeLimit::Depth,
                span,
            },
            Written::ExplodeX(limit, c) => DieModifier::Explode {
                conditions: c.iter().copied().collect(),
                kind: ExplodeKind::Dice,
                limit: *limit,
                span,
            },
            Written::Reroll(c) => DieModifier::Reroll {
                conditions: vec![*c],
                span,
            },
            Written::RerollOnce(c) => DieModifier::RerollOnce {
                conditions: vec![*c],
                span,
            },
            Written::Minimum(value) => DieModifier::Minimum {
                value: *value,
                span,
            },
            Written::Maximum(value) => DieModifier::Maximum {
                value: *value,
                span,
            },
            _ => unreachable!(),
        });
    }
    (die_modifiers, pool_modifiers)
}

/// `expr` with every span emptied.
fn strip(expr: &Expr) -> Expr {
    let strip_pool = |modifiers: &[PoolModifier]| -> Vec<PoolModifier> {
        modifiers
            .iter()
            .map(|m| {
                let mut m = m.clone();
                match &mut m {
                    PoolModifier::Keep { span, .. }
                    | PoolModifier::CountSuccesses { span, .. }
                    | PoolModifier::DeductFailures { span, .. }
                    | PoolModifier::CountFailures { span, .. } => *span = 0..0,
                    PoolModifier::KeepRolled { span, count, .. } => {
                        *span = 0..0;
                        **count = strip(count);
                    }
                }
                m
            })
            .collect()
    };
    let kind = match &expr.kind {
        ExprKind::Number(n) => ExprKind::Number(*n),
        ExprKind::Name(n) => ExprKind::Name(n.clone()),
        ExprKind::Negate(inner) => ExprKind::Negate(Box::new(strip(inner))),
        ExprKind::Not(inner) => ExprKind::Not(Box::new(strip(inner))),
        ExprKind::Binary { op, left, right } => ExprKind::Binary {
            op: *op,
            left: Box::new(strip(left)),
            right: Box::new(strip(right)),
        },
        ExprKind::Bind {
            name, value, body, ..
        } => ExprKind::Bind {
            name: name.clone(),
            name_span: 0..0,
            value: Box::new(strip(value)),
            body: Box::new(strip(body)),
        },
        ExprKind::Conditional {
            condition,
            then,
            otherwise,
        } => ExprKind::Conditional {
            condition: Box::new(strip(condition)),
            then: Box::new(strip(then)),
            otherwise: Box::new(strip(otherwise)),
        },
        ExprKind::Call {
            function,
            arguments,
        } => ExprKind::Call {
            function: *function,
            arguments: arguments.iter().map(strip).collect(),
        },
        ExprKind::Group(group) => ExprKind::Group(Group {
            members: group.members.iter().map(strip).collect(),
            pool_modifiers: strip_pool(&group.pool_modifiers),
        }),
        ExprKind::Repeat(repeat) => ExprKind::Repeat(Repeat {
            count: Box::new(strip(&repeat.count)),
            body: Box::new(strip(&repeat.body)),
            pool_modifiers: strip_pool(&repeat.pool_modifiers),
        }),
        ExprKind::Dice(dice) => {
            let mut dice = dice.clone();
            dice.count = dice.count.map(|c| Box::new(strip(&c)));
            if let Faces::Rolled(sides) = &mut dice.faces {
                **sides = strip(sides);
            }
            dice.faces_span = 0..0;
            for m in &mut dice.die_modifiers {
                match m {
                    DieModifier::Explode { span, .. }
                    | DieModifier::Reroll { span, .. }
                    | DieModifier::RerollOnce { span, .. }
                    | DieModifier::Minimum { span, .. }
                    | DieModifier::Maximum { span, .. } => *span = 0..0,
                }
            }
            dice.pool_modifiers = strip_pool(&dice.pool_modifiers);
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
