//! A brute-force oracle: every roll of a small expression, enumerated one random
//! choice at a time with exact probabilities, written from the notation's rules
//! and sharing no code with the library's evaluator (only its syntax tree).
//!
//! A distribution is a map from values to exact probabilities; a pool is a
//! sorted list of die values (keep/drop and counting do not care about order).

use std::collections::BTreeMap;

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{
    Condition, Dice, DieModifier, ExplodeLimit, Expr, ExprKind, Faces, Function, Keep, PoolModifier,
};
use num_rational::BigRational;
use num_traits::{One, Zero};

pub type Dist<T> = BTreeMap<T, BigRational>;

fn point<T: Ord>(value: T) -> Dist<T> {
    BTreeMap::from([(value, BigRational::one())])
}

fn uniform(values: &[i64]) -> Dist<i64> {
    let p = BigRational::new(1.into(), (values.len() as i64).into());
    let mut d = Dist::new();
    for &v in values {
        *d.entry(v).or_insert_with(BigRational::zero) += &p;
    }
    d
}

/// `Σ p(a) · f(a)`.
fn bind<A: Ord, B: Ord>(d: &Dist<A>, mut f: impl FnMut(&A) -> Dist<B>) -> Dist<B> {
    let mut out = Dist::new();
    for (a, p) in d {
        for (b, q) in f(a) {
            *out.entry(b).or_insert_with(BigRational::zero) += p * q;
        }
    }
    out
}

fn map<A: Ord, B: Ord>(d: &Dist<A>, f: impl Fn(&A) -> B) -> Dist<B> {
    bind(d, |a| point(f(a)))
}

/// Conditions `d` on `keep`, renormalized.
fn condition(d: &Dist<i64>, keep: impl Fn(i64) -> bool) -> Dist<i64> {
    let mass: BigRational = d.iter().filter(|(v, _)| keep(**v)).map(|(_, p)| p).sum();
    d.iter()
        .filter(|(v, _)| keep(**v))
        .map(|(v, p)| (*v, p / &mass))
        .collect()
}

fn any(conditions: &[Condition], x: i64) -> bool {
    conditions.iter().any(|c| c.matches(x))
}

fn joined(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut v = [a, b].concat();
    v.sort_unstable();
    v
}

pub struct Oracle {
    pub depth: u32,
    names: Vec<(String, i64)>,
    /// Every name's roll as the dice its value pools (a value that is not a pool
    /// is one die), sorted: pool functions of the name read them.
    pools: Vec<(String, Vec<i64>)>,
}

impl Oracle {
    pub fn new(depth: u32) -> Oracle {
        Oracle {
            depth,
            names: Vec::new(),
            pools: Vec::new(),
        }
    }

    pub fn value(&mut self, expr: &Expr) -> Dist<i64> {
        match &expr.kind {
            ExprKind::Number(n) => point(*n),
            ExprKind::Name(name) => {
                point(self.names.iter().rev().find(|(n, _)| n == name).unwrap().1)
            }
            ExprKind::Tuple(values) => {
                // Every combination of the values, each in a field of 63/k bits
                // offset to be non-negative, the first value highest.
                let bits = 63 / values.len() as u32;
                let offset = 1i64 << (bits - 1);
                let mut joint = point(0i64);
                for (i, value) in values.iter().enumerate() {
                    let shift = bits * (values.len() - 1 - i) as u32;
                    let field = map(&self.value(value), |&v| (v + offset) << shift);
                    joint = bind(&joint, |&a| map(&field, |&b| a + b));
                }
                joint
            }
            ExprKind::Labelled { body, labels } => {
                // Each label numbered by where it first appears among the
                // ranges, lowest range first; an outcome no range holds panics
                // (the cases here label every outcome).
                let mut ranges: Vec<(i64, i64, &str)> = labels
                    .bands
                    .iter()
                    .map(|b| {
                        (
                            b.low.unwrap_or(i64::MIN),
                            b.high.unwrap_or(i64::MAX),
                            b.label.as_str(),
                        )
                    })
                    .collect();
                ranges.sort_unstable();
                let mut order: Vec<&str> = Vec::new();
                for &(_, _, label) in &ranges {
                    if !order.contains(&label) {
                        order.push(label);
                    }
                }
                map(&self.value(body), |&x| {
                    let (_, _, label) = ranges
                        .iter()
                        .find(|&&(low, high, _)| low <= x && x <= high)
                        .unwrap_or_else(|| panic!("no label holds {x}"));
                    order.iter().position(|l| l == label).unwrap() as i64
                })
            }
            ExprKind::Negate(inner) => map(&self.value(inner), |x| -x),
            ExprKind::Not(inner) => map(&self.value(inner), |x| i64::from(*x == 0)),
            ExprKind::Binary { op, left, right } => {
                let (a, b) = (self.value(left), self.value(right));
                bind(&a, |x| map(&b, |y| apply(*op, *x, *y)))
            }
            ExprKind::Bind {
                name, value, body, ..
            } => {
                // The roll of every die the value pools; the name alone is their sum.
                let v = self.pooled(value);
                bind(&v, |dice| {
                    self.names.push((name.clone(), dice.iter().sum()));
                    self.pools.push((name.clone(), dice.clone()));
                    let d = self.value(body);
                    self.pools.pop();
                    self.names.pop();
                    d
                })
            }
            ExprKind::Call {
                function: function @ (Function::Floor | Function::Ceil | Function::Round),
                arguments,
            } => match &arguments[0].kind {
                ExprKind::Binary {
                    op: BinaryOp::Div,
                    left,
                    right,
                } => {
                    let (a, b) = (self.value(left), self.value(right));
                    bind(&a, |&x| map(&b, |&y| rounded(*function, x, y)))
                }
                ExprKind::Call {
                    function: Function::Sqrt,
                    arguments: root,
                } => map(&self.value(&root[0]), |&x| rounded_root(*function, x)),
                _ => self.value(&arguments[0]),
            },
            ExprKind::Call {
                function,
                arguments,
            } if matches!(
                function,
                Function::LargestSet
                    | Function::Sets
                    | Function::LongestStraight
                    | Function::Height
                    | Function::Count
            ) =>
            {
                let pool = match &arguments[0].kind {
                    ExprKind::Name(name) => {
                        let dice = &self.pools.iter().rev().find(|(n, _)| n == name).unwrap().1;
                        point(dice.clone())
                    }
                    _ => self.pooled(&arguments[0]),
                };
                let numbers: Vec<i64> = arguments[1..]
                    .iter()
                    .map(|a| *self.value(a).keys().next().unwrap())
                    .collect();
                map(&pool, |dice| shows(*function, dice, &numbers))
            }
            ExprKind::Conditional {
                condition,
                then,
                otherwise,
            } => {
                // A branch is worked out only when the condition can take it: an
                // untaken branch may divide by a name that is zero here.
                let c = self.value(condition);
                let mut branch = |taken: bool, expr: &Expr| {
                    if c.keys().any(|x| (*x != 0) == taken) {
                        self.value(expr)
                    } else {
                        Dist::new()
                    }
                };
                let (a, b) = (branch(true, then), branch(false, otherwise));
                bind(&c, |x| if *x != 0 { a.clone() } else { b.clone() })
            }
            ExprKind::Call {
                function,
                arguments,
            } => {
                let mut lists: Dist<Vec<i64>> = point(Vec::new());
                for argument in arguments {
                    let d = self.value(argument);
                    lists = bind(&lists, |l| map(&d, |x| [l.clone(), vec![*x]].concat()));
                }
                map(&lists, |l| match function {
                    Function::Max => *l.iter().max().unwrap(),
                    Function::Min => *l.iter().min().unwrap(),
                    Function::Abs => l[0].abs(),
                    _ => unreachable!("pool functions are read above"),
                })
            }
            ExprKind::Dice(dice) => {
                let pool = self.dice(dice);
                self.finish(&pool, &dice.pool_modifiers)
            }
            ExprKind::Group(group) => {
                let pool = match group.members.as_slice() {
                    [only] => self.pooled(only),
                    members => self.values(members),
                };
                self.finish(&pool, &group.pool_modifiers)
            }
            ExprKind::Repeat(repeat) => {
                let pool = self.repetition(&repeat.count, &repeat.body);
                self.finish(&pool, &repeat.pool_modifiers)
            }
            ExprKind::Deal(cards) => map(&dealt(cards), |hands| hands[0].iter().sum()),
            ExprKind::BindHands { names, deal, body } => {
                let ExprKind::Deal(cards) = &deal.kind else {
                    unreachable!("names are bound to a deal")
                };
                // Cards of several values: a name a value of each hand.
                let deck = cards.deck();
                let values = deck.attributes();
                bind(&dealt(cards), |hands| {
                    let views = hands.iter().flat_map(|hand| {
                        (0..values).map(move |j| {
                            let mut view: Vec<i64> = hand
                                .iter()
                                .map(|&card| match deck.code() {
                                    Some(code) => code.unpack(card)[j],
                                    None => card,
                                })
                                .collect();
                            view.sort_unstable();
                            view
                        })
                    });
                    for ((name, _), hand) in names.iter().zip(views) {
                        self.names.push((name.clone(), hand.iter().sum()));
                        self.pools.push((name.clone(), hand));
                    }
                    let d = self.value(body);
                    for _ in names {
                        self.pools.pop();
                        self.names.pop();
                    }
                    d
                })
            }
        }
    }

    fn values(&mut self, members: &[Expr]) -> Dist<Vec<i64>> {
        let mut pool: Dist<Vec<i64>> = point(Vec::new());
        for member in members {
            let d = self.value(member);
            pool = bind(&pool, |l| map(&d, |x| joined(l, &[*x])));
        }
        pool
    }

    fn repetition(&mut self, count: &Expr, body: &Expr) -> Dist<Vec<i64>> {
        let n = self.value(count);
        let d = self.value(body);
        bind(&n, |&n| {
            let mut pool: Dist<Vec<i64>> = point(Vec::new());
            for _ in 0..n {
                pool = bind(&pool, |l| map(&d, |x| joined(l, &[*x])));
            }
            pool
        })
    }

    /// A lone group member's dice: dice terms, repetitions and groups joined by
    /// `+`; anything else one value.
    fn pooled(&mut self, expr: &Expr) -> Dist<Vec<i64>> {
        match &expr.kind {
            ExprKind::Binary {
                op: BinaryOp::Add,
                left,
                right,
            } => {
                let (a, b) = (self.pooled(left), self.pooled(right));
                bind(&a, |x| map(&b, |y| joined(x, y)))
            }
            ExprKind::Dice(dice) if dice.pool_modifiers.is_empty() => self.dice(dice),
            ExprKind::Deal(cards) => map(&dealt(cards), |hands| hands[0].clone()),
            ExprKind::Repeat(r) if r.pool_modifiers.is_empty() => {
                self.repetition(&r.count, &r.body)
            }
            ExprKind::Group(g) if g.pool_modifiers.is_empty() => match g.members.as_slice() {
                [only] => self.pooled(only),
                members => self.values(members),
            },
            _ => map(&self.value(expr), |x| vec![*x]),
        }
    }

    /// Keep/drop (rank from the highest), then counting, then the sum.
    fn finish(&mut self, pool: &Dist<Vec<i64>>, modifiers: &[PoolModifier]) -> Dist<i64> {
        // Each selection as (which, how many), rolled counts enumerated.
        let code = |keep: Keep| -> (u8, u64) {
            match keep {
                Keep::Highest(k) => (0, k),
                Keep::Lowest(k) => (1, k),
                Keep::DropHighest(k) => (2, k),
                Keep::DropLowest(k) => (3, k),
            }
        };
        let mut keeps: Dist<Vec<(u8, u64)>> = point(Vec::new());
        for m in modifiers {
            match m {
                PoolModifier::Keep { keep, .. } => {
                    keeps = map(&keeps, |k| [k.clone(), vec![code(*keep)]].concat());
                }
                PoolModifier::KeepRolled { kind, count, .. } => {
                    let n = self.value(count);
                    keeps = bind(&keeps, |k| {
                        map(&n, |n| {
                            [k.clone(), vec![code(Keep::new(*kind, *n as u64))]].concat()
                        })
                    });
                }
                _ => {}
            }
        }
        let successes: Vec<Condition> = conditions(modifiers, |m| match m {
            PoolModifier::CountSuccesses { condition, .. }
            | PoolModifier::CountFailures { condition, .. } => Some(*condition),
            _ => None,
        });
        let failures: Vec<Condition> = conditions(modifiers, |m| match m {
            PoolModifier::DeductFailures { condition, .. } => Some(*condition),
            _ => None,
        });
        let counting = !successes.is_empty() || !failures.is_empty();
        bind(&keeps, |keeps| {
            map(pool, |dice| {
                // Highest first; selections act on the dice still kept.
                let mut kept: Vec<i64> = dice.iter().rev().copied().collect();
                for &(which, k) in keeps {
                    let n = kept.len() as u64;
                    kept = kept
                        .iter()
                        .enumerate()
                        .filter(|&(rank, _)| {
                            let rank = rank as u64;
                            match which {
                                0 => rank < k,
                                1 => n - rank <= k,
                                2 => rank >= k,
                                _ => n - rank > k,
                            }
                        })
                        .map(|(_, v)| *v)
                        .collect();
                }
                kept.iter()
                    .map(|&x| {
                        if counting {
                            i64::from(any(&successes, x)) - i64::from(any(&failures, x))
                        } else {
                            x
                        }
                    })
                    .sum()
            })
        })
    }

    /// The dice a term rolls, explosions' extra dice included.
    fn dice(&mut self, dice: &Dice) -> Dist<Vec<i64>> {
        let counts = match &dice.count {
            None => point(1),
            Some(c) => self.value(c),
        };
        let faces: Dist<Vec<i64>> = match &dice.faces {
            Faces::Standard(n) => point((1..=*n as i64).collect()),
            Faces::Percent => point((1..=100).collect()),
            Faces::Fudge => point(vec![-1, 0, 1]),
            Faces::Custom(f) => point(f.clone()),
            Faces::Rolled(sides) => map(&self.value(sides), |&s| (1..=s).collect()),
        };
        bind(&counts, |&n| {
            bind(&faces, |faces| {
                let top = *faces.iter().max().unwrap();
                self.term(n as u64, &uniform(faces), top, &dice.die_modifiers)
            })
        })
    }

    fn term(
        &self,
        n: u64,
        bare: &Dist<i64>,
        top: i64,
        modifiers: &[DieModifier],
    ) -> Dist<Vec<i64>> {
        let mut roll = bare.clone();
        for (i, m) in modifiers.iter().enumerate() {
            match m {
                DieModifier::Explode {
                    conditions,
                    kind,
                    limit,
                    ..
                } if !kind.compounds() => {
                    let explodes = |x: i64| {
                        if conditions.is_empty() {
                            x == top
                        } else {
                            any(conditions, x)
                        }
                    };
                    let after = &modifiers[i + 1..];
                    let post = |x: i64| clamp(after, x);
                    let offset = kind.extra_offset();
                    return match limit {
                        ExplodeLimit::PerTerm(cap) => capped(n, *cap, &roll, &explodes, &post),
                        _ => {
                            let depth = if *limit == ExplodeLimit::Once {
                                1
                            } else {
                                self.depth
                            };
                            let one = chain(&roll, &explodes, &post, offset, depth, true);
                            let mut pool: Dist<Vec<i64>> = point(Vec::new());
                            for _ in 0..n {
                                pool = bind(&pool, |l| map(&one, |c| joined(l, c)));
                            }
                            pool
                        }
                    };
                }
                DieModifier::Explode {
                    conditions, kind, ..
                } => {
                    let explodes = |x: i64| {
                        if conditions.is_empty() {
                            x == top
                        } else {
                            any(conditions, x)
                        }
                    };
                    let offset = kind.extra_offset();
                    let one = chain(&roll, &explodes, &|x| x, offset, self.depth, true);
                    roll = map(&one, |c| c.iter().sum());
                }
                DieModifier::Reroll { conditions, .. } => {
                    roll = condition(&roll, |x| !any(conditions, x));
                }
                DieModifier::RerollOnce { conditions, .. } => {
                    let again = roll.clone();
                    roll = bind(&roll, |&x| {
                        if any(conditions, x) {
                            again.clone()
                        } else {
                            point(x)
                        }
                    });
                }
                DieModifier::Minimum { value, .. } => roll = map(&roll, |x| (*x).max(*value)),
                DieModifier::Maximum { value, .. } => roll = map(&roll, |x| (*x).min(*value)),
            }
        }
        let mut pool: Dist<Vec<i64>> = point(Vec::new());
        for _ in 0..n {
            pool = bind(&pool, |l| map(&roll, |x| joined(l, &[*x])));
        }
        pool
    }
}

fn conditions(
    modifiers: &[PoolModifier],
    f: impl Fn(&PoolModifier) -> Option<Condition>,
) -> Vec<Condition> {
    modifiers.iter().filter_map(f).collect()
}

fn clamp(modifiers: &[DieModifier], x: i64) -> i64 {
    modifiers.iter().fold(x, |x, m| match m {
        DieModifier::Minimum { value, .. } => x.max(*value),
        DieModifier::Maximum { value, .. } => x.min(*value),
        _ => x,
    })
}

/// One die's rolls: a roll, and another while it explodes and `depth` allows;
/// rolls after the first are offset; each becomes a die through `post`.
fn chain(
    roll: &Dist<i64>,
    explodes: &dyn Fn(i64) -> bool,
    post: &dyn Fn(i64) -> i64,
    offset: i64,
    depth: u32,
    first: bool,
) -> Dist<Vec<i64>> {
    bind(roll, |&x| {
        let value = post(if first { x } else { x + offset });
        if explodes(x) && depth > 0 {
            let rest = chain(roll, explodes, post, offset, depth - 1, false);
            map(&rest, |r| joined(&[value], r))
        } else {
            point(vec![value])
        }
    })
}

/// Foundry's cap: `n` rolls, then the rolls in order, each match adding one more
/// roll while fewer than `cap` have been added.
fn capped(
    n: u64,
    cap: u64,
    roll: &Dist<i64>,
    explodes: &dyn Fn(i64) -> bool,
    post: &dyn Fn(i64) -> i64,
) -> Dist<Vec<i64>> {
    // State: the naturals rolled so far (in order) and how many were processed.
    let mut start: Dist<Vec<i64>> = point(Vec::new());
    for _ in 0..n {
        start = bind(&start, |l| map(roll, |x| [l.clone(), vec![*x]].concat()));
    }
    fn go(
        rolled: &[i64],
        at: usize,
        left: u64,
        roll: &Dist<i64>,
        explodes: &dyn Fn(i64) -> bool,
    ) -> Dist<Vec<i64>> {
        if at == rolled.len() || left == 0 {
            return point(rolled.to_vec());
        }
        if explodes(rolled[at]) {
            bind(roll, |&x| {
                let more = [rolled, &[x]].concat();
                go(&more, at + 1, left - 1, roll, explodes)
            })
        } else {
            go(rolled, at + 1, left, roll, explodes)
        }
    }
    let finished = bind(&start, |l| go(l, 0, cap, roll, explodes));
    map(&finished, |l| {
        let mut v: Vec<i64> = l.iter().map(|&x| post(x)).collect();
        v.sort_unstable();
        v
    })
}

fn apply(op: BinaryOp, a: i64, b: i64) -> i64 {
    match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        BinaryOp::Div => a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0),
        BinaryOp::Mod => a - b * (apply(BinaryOp::Div, a, b)),
        BinaryOp::Max => a.max(b),
        BinaryOp::Min => a.min(b),
        BinaryOp::Lt => i64::from(a < b),
        BinaryOp::Le => i64::from(a <= b),
        BinaryOp::Gt => i64::from(a > b),
        BinaryOp::Ge => i64::from(a >= b),
        BinaryOp::Eq => i64::from(a == b),
        BinaryOp::Ne => i64::from(a != b),
        BinaryOp::And => i64::from(a != 0 && b != 0),
        BinaryOp::Or => i64::from(a != 0 || b != 0),
    }
}

/// Every deal of `cards`, one card at a time: each card drawn is any card left
/// in the deck, equally likely; each hand sorted.
fn dealt(cards: &fairdice::dice::deck::Deal) -> Dist<Vec<Vec<i64>>> {
    let deck: Vec<(i64, u64)> = cards
        .deck()
        .cards()
        .iter()
        .map(|&(v, c)| (v, u64::from(c)))
        .collect();
    let left: Vec<u64> = deck.iter().map(|&(_, c)| c).collect();
    let mut states: Dist<(Vec<Vec<i64>>, Vec<u64>)> = point((Vec::new(), left));
    for &size in cards.hands() {
        states = map(&states, |(hands, left)| {
            let mut hands = hands.clone();
            hands.push(Vec::new());
            (hands, left.clone())
        });
        for _ in 0..size {
            states = bind(&states, |(hands, left)| {
                let in_deck: u64 = left.iter().sum();
                let mut next = Dist::new();
                for (i, &copies) in left.iter().enumerate() {
                    if copies == 0 {
                        continue;
                    }
                    let mut hands = hands.clone();
                    let hand = hands.last_mut().unwrap();
                    hand.push(deck[i].0);
                    hand.sort_unstable();
                    let mut left = left.clone();
                    left[i] -= 1;
                    let p = BigRational::new(
                        i64::try_from(copies).unwrap().into(),
                        i64::try_from(in_deck).unwrap().into(),
                    );
                    *next.entry((hands, left)).or_insert_with(BigRational::zero) += p;
                }
                next
            });
        }
    }
    map(&states, |(hands, _)| hands.clone())
}

/// What `dice` show to a pool function: counted face by face.
fn shows(function: Function, dice: &[i64], numbers: &[i64]) -> i64 {
    let how_many = |face: i64| dice.iter().filter(|&&d| d == face).count() as i64;
    let faces: std::collections::BTreeSet<i64> = dice.iter().copied().collect();
    match function {
        Function::LargestSet => faces.iter().map(|&f| how_many(f)).max().unwrap_or(0),
        Function::Sets => faces.iter().filter(|&&f| how_many(f) >= numbers[0]).count() as i64,
        Function::LongestStraight => faces
            .iter()
            .map(|&f| (f..).take_while(|g| faces.contains(g)).count() as i64)
            .max()
            .unwrap_or(0),
        Function::Count => dice.iter().filter(|d| numbers.contains(d)).count() as i64,
        // The highest face among those shown most often.
        Function::Height => {
            let most = faces.iter().map(|&f| how_many(f)).max().unwrap_or(0);
            faces
                .iter()
                .rev()
                .find(|&&f| how_many(f) == most)
                .copied()
                .unwrap_or(0)
        }
        _ => unreachable!("not a pool function"),
    }
}

/// The square root of `x` rounded as `function` says: the largest `k` with
/// `k·k ≤ x` counted up to, then up when `x` is not `k·k` (ceil) or when `4x`
/// passes `(2k + 1)²`, the square of twice `k + ½` (round).
fn rounded_root(function: Function, x: i64) -> i64 {
    assert!(x >= 0, "a root of {x}");
    let mut k = 0i64;
    while (k + 1) * (k + 1) <= x {
        k += 1;
    }
    match function {
        Function::Floor => k,
        Function::Ceil => k + i64::from(k * k < x),
        _ => k + i64::from(4 * x > (2 * k + 1) * (2 * k + 1)),
    }
}

/// `x / y` as a fraction, rounded as `function` says (halves up), by comparing
/// with the integers around it.
fn rounded(function: Function, x: i64, y: i64) -> i64 {
    let q = num_rational::Ratio::new(i128::from(x), i128::from(y));
    let down = q.floor().to_integer();
    let up = q.ceil().to_integer();
    let value = match function {
        Function::Floor => down,
        Function::Ceil => up,
        // The nearest; a half (q − down = 1/2) goes up.
        _ => {
            if (q - num_rational::Ratio::from_integer(down)) * 2
                >= num_rational::Ratio::from_integer(1)
            {
                up.max(down + 1)
            } else {
                down
            }
        }
    };
    value as i64
}
