//! The tree the parser should build from a written [`Tree`], and trees with their
//! spans emptied, to compare the two.

use fairdice::dice::notation::ast::{
    Condition, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces, Group,
    PoolModifier, Repeat,
};

use super::tree::{Tree, Written, WrittenFaces};

/// The tree the parser should build from `tree`, with every span empty.
pub fn expected(tree: &Tree) -> Expr {
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
        // Rerolls until no match join; rerolls once apply in turn.
        let same_kind = matches!(
            (previous, modifier),
            (Some(Written::Reroll(_)), Written::Reroll(_))
        );
        previous = Some(modifier);
        if same_kind {
            if let Some(DieModifier::Reroll { conditions, .. }) = die_modifiers.last_mut() {
                if let Written::Reroll(c) = modifier {
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
pub fn strip(expr: &Expr) -> Expr {
    let strip_pool = |modifiers: &[PoolModifier]| -> Vec<PoolModifier> {
        modifiers
            .iter()
            .map(|m| {
                let mut m = m.clone();
                match &mut m {
                    PoolModifier::Keep { span, .. }
                    | PoolModifier::CountSuccesses { span, .. }
                    | PoolModifier::DeductFailures { span, .. }
                    | PoolModifier::CountFailures { span, .. }
                    | PoolModifier::Unique { span, .. } => *span = 0..0,
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
        ExprKind::Deal(deal) => ExprKind::Deal(deal.clone()),
        ExprKind::Tuple(values) => ExprKind::Tuple(values.iter().map(strip).collect()),
        ExprKind::Labelled { body, labels } => {
            let mut labels = labels.clone();
            for band in &mut labels.bands {
                band.span = 0..0;
            }
            ExprKind::Labelled {
                body: Box::new(strip(body)),
                labels,
            }
        }
        ExprKind::BindHands { names, deal, body } => ExprKind::BindHands {
            names: names.iter().map(|(n, _)| (n.clone(), 0..0)).collect(),
            deal: Box::new(strip(deal)),
            body: Box::new(strip(body)),
        },
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
