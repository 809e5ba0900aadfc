//! Well-formed expressions as a writer would produce them: trees of the whole
//! grammar with modifiers in written order, and the strategies that make them.

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{
    Comparison, Condition, ExplodeKind, ExplodeLimit, Function, Keep,
};
use proptest::prelude::*;

/// An expression as a writer would produce it, modifiers in written order.
#[derive(Debug, Clone)]
pub enum Tree {
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
pub enum WrittenFaces {
    Standard(u64),
    Percent,
    Fudge,
    Ranges(Vec<(i64, i64)>),
}

#[derive(Debug, Clone)]
pub enum Written {
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
    pub fn is_pool(&self) -> bool {
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

pub fn tree() -> impl Strategy<Value = Tree> {
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
