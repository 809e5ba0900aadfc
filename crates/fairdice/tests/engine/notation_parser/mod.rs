//! The dice-notation parser, as a specification: what each form parses to and
//! where every node is (here), what each typical mistake reports (`errors`), and
//! that no input makes it panic (`properties`).

mod errors;
mod expected;
mod properties;
mod tree;
mod writer;

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{
    Comparison, Condition, Dice, DieModifier, ExplodeKind, ExplodeLimit, Expr, ExprKind, Faces,
    Keep, PoolModifier,
};
use fairdice::dice::notation::parse;

// ---------------------------------------------------------------------------
// A compact, span-free form of the tree: `(+ 1 (* 2 3))`, `4d6[r=1 !][kh3]`.

fn show(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::Number(n) => n.to_string(),
        ExprKind::Name(name) => name.clone(),
        ExprKind::Negate(inner) => format!("(- {})", show(inner)),
        ExprKind::Not(inner) => format!("(not {})", show(inner)),
        ExprKind::Binary { op, left, right } => {
            format!("({} {} {})", op.symbol(), show(left), show(right))
        }
        ExprKind::Bind {
            name, value, body, ..
        } => format!("(let {name} {} {})", show(value), show(body)),
        ExprKind::Conditional {
            condition,
            then,
            otherwise,
        } => format!("(? {} {} {})", show(condition), show(then), show(otherwise)),
        ExprKind::Call {
            function,
            arguments,
        } => {
            let arguments: Vec<String> = arguments.iter().map(show).collect();
            format!("({} {})", function.name(), arguments.join(" "))
        }
        ExprKind::Group(group) => {
            let members: Vec<String> = group.members.iter().map(show).collect();
            format!(
                "{{{}}}{}",
                members.join(", "),
                show_pool(&group.pool_modifiers)
            )
        }
        ExprKind::Repeat(repeat) => format!(
            "({}#{}){}",
            show(&repeat.count),
            show(&repeat.body),
            show_pool(&repeat.pool_modifiers)
        ),
        ExprKind::Dice(dice) => show_dice(dice),
        ExprKind::Deal(deal) => {
            let cards: Vec<String> = deal
                .deck()
                .cards()
                .iter()
                .map(|(v, c)| format!("{v}:{c}"))
                .collect();
            let hands: Vec<String> = deal.hands().iter().map(u32::to_string).collect();
            format!("(deal {{{}}} {})", cards.join(" "), hands.join(" "))
        }
        ExprKind::BindHands { names, deal, body } => {
            let names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
            format!("(let {} {} {})", names.join(","), show(deal), show(body))
        }
        ExprKind::Tuple(values) => {
            let values: Vec<String> = values.iter().map(show).collect();
            format!("(tuple {})", values.join(" "))
        }
        ExprKind::Labelled { body, labels } => {
            let end = |b: Option<i64>| b.map_or(String::new(), |b| b.to_string());
            let bands: Vec<String> = labels
                .bands
                .iter()
                .map(|b| format!("{}..{}={}", end(b.low), end(b.high), b.label))
                .collect();
            format!("(as {} {})", show(body), bands.join(" "))
        }
    }
}

fn show_pool(modifiers: &[PoolModifier]) -> String {
    if modifiers.is_empty() {
        return String::new();
    }
    let pool: Vec<String> = modifiers.iter().map(show_pool_modifier).collect();
    format!("[{}]", pool.join(" "))
}

fn show_pool_modifier(m: &PoolModifier) -> String {
    match m {
        PoolModifier::Keep { keep, .. } => match keep {
            Keep::Highest(n) => format!("kh{n}"),
            Keep::Lowest(n) => format!("kl{n}"),
            Keep::DropHighest(n) => format!("dh{n}"),
            Keep::DropLowest(n) => format!("dl{n}"),
        },
        PoolModifier::KeepRolled { kind, count, .. } => format!("{kind:?}({})", show(count)),
        PoolModifier::CountSuccesses { condition, .. } => format!("cs{condition}"),
        PoolModifier::DeductFailures { condition, .. } => format!("df{condition}"),
        PoolModifier::CountFailures { condition, .. } => format!("cf{condition}"),
        PoolModifier::Unique {
            once, condition, ..
        } => {
            let condition = condition.map(|c| c.to_string()).unwrap_or_default();
            format!("u{}{condition}", if *once { "o" } else { "" })
        }
    }
}

fn show_dice(dice: &Dice) -> String {
    let count = match dice.count.as_deref() {
        None => String::new(),
        Some(Expr {
            kind: ExprKind::Number(n),
            ..
        }) => n.to_string(),
        Some(count) => format!("({})", show(count)),
    };
    let faces = match &dice.faces {
        Faces::Standard(n) => n.to_string(),
        Faces::Percent => "%".to_string(),
        Faces::Fudge => "F".to_string(),
        Faces::Custom(faces) => format!("{{{}}}", join(faces, ",")),
        Faces::Rolled(sides) => format!("({})", show(sides)),
    };
    let mut text = format!("{count}d{faces}");
    if dice.die_modifiers.is_empty() && dice.pool_modifiers.is_empty() {
        return text;
    }
    let die: Vec<String> = dice
        .die_modifiers
        .iter()
        .map(|m| match m {
            DieModifier::Explode {
                conditions,
                kind,
                limit,
                ..
            } => {
                let letters = match (kind, limit) {
                    (_, ExplodeLimit::Once) => "xo".to_string(),
                    (_, ExplodeLimit::PerTerm(cap)) => format!("x{cap}"),
                    (ExplodeKind::Dice, _) => "!".to_string(),
                    (ExplodeKind::Compound, _) => "!!".to_string(),
                    (ExplodeKind::Penetrate, _) => "!p".to_string(),
                    (ExplodeKind::CompoundPenetrate, _) => "!!p".to_string(),
                };
                format!("{letters}{}", join(conditions, "|"))
            }
            DieModifier::Reroll { conditions, .. } => format!("r{}", join(conditions, "|")),
            DieModifier::RerollOnce { conditions, .. } => format!("ro{}", join(conditions, "|")),
            DieModifier::Minimum { value, .. } => format!("min{value}"),
            DieModifier::Maximum { value, .. } => format!("max{value}"),
        })
        .collect();
    let pool: Vec<String> = dice.pool_modifiers.iter().map(show_pool_modifier).collect();
    text.push_str(&format!("[{}][{}]", die.join(" "), pool.join(" ")));
    text
}

fn join<T: ToString>(items: &[T], separator: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

#[track_caller]
fn assert_parses(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for &(text, want) in cases {
        match parse(text) {
            Ok(expr) if show(&expr) == want => {}
            Ok(expr) => failures.push(format!("{text:?}\n  want {want}\n  got  {}", show(&expr))),
            Err(e) => failures.push(format!("{text:?}\n  want {want}\n{}", e.render(text))),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// What each form means.

#[test]
fn numbers_and_arithmetic_follow_precedence() {
    assert_parses(&[
        ("0", "0"),
        ("42", "42"),
        ("007", "7"),
        ("9223372036854775807", "9223372036854775807"),
        ("1+2*3", "(+ 1 (* 2 3))"),
        ("(1+2)*3", "(* (+ 1 2) 3)"),
        ("1-2-3", "(- (- 1 2) 3)"),
        ("8/4/2", "(/ (/ 8 4) 2)"),
        ("1-2*3/4+5", "(+ (- 1 (/ (* 2 3) 4)) 5)"),
        ("-3", "(- 3)"),
        ("--3", "(- (- 3))"),
        ("1--2", "(- 1 (- 2))"),
        ("-2*3", "(* (- 2) 3)"),
        ("((7))", "7"),
    ]);
}

#[test]
fn comparisons_bind_loosest() {
    assert_parses(&[
        ("3d6>=10", "(>= 3d6 10)"),
        ("3d6 >= 10", "(>= 3d6 10)"),
        ("d20+5 >= 15", "(>= (+ d20 5) 15)"),
        ("1<2", "(< 1 2)"),
        ("1<=2", "(<= 1 2)"),
        ("1>2", "(> 1 2)"),
        ("1==2", "(== 1 2)"),
        ("1!=2", "(!= 1 2)"),
        ("(1 < 2) < 3", "(< (< 1 2) 3)"),
        ("1 < (2 < 3)", "(< 1 (< 2 3))"),
        ("2*3 > 1+4", "(> (* 2 3) (+ 1 4))"),
    ]);
}

#[test]
fn dice_counts_and_faces() {
    assert_parses(&[
        ("d6", "d6"),
        ("D6", "d6"),
        ("3d6", "3d6"),
        ("3D20", "3d20"),
        ("d0", "d0"),
        ("0d6", "0d6"),
        ("d%", "d%"),
        ("2d%", "2d%"),
        ("dF", "dF"),
        ("4df", "4dF"),
        ("d{1,1,2,3}", "d{1,1,2,3}"),
        ("d{-1,0,1}", "d{-1,0,1}"),
        ("d{1..3,5}", "d{1,2,3,5}"),
        ("d{ -2 .. 0 , 7 }", "d{-2,-1,0,7}"),
        ("d{4..4}", "d{4}"),
        ("d18446744073709551615", "d18446744073709551615"),
        ("(d4)d6", "(d4)d6"),
        ("(1+1)d6", "((+ 1 1))d6"),
        ("((2))d6", "2d6"),
        ("-3d6", "(- 3d6)"),
        ("2*-d6", "(* 2 (- d6))"),
        ("2d6+1d4-1", "(- (+ 2d6 1d4) 1)"),
    ]);
}

#[test]
fn die_modifiers_keep_written_order_and_merge_repeats() {
    assert_parses(&[
        ("d6!", "d6[!][]"),
        ("d6!5", "d6[!=5][]"),
        ("d6!>=5", "d6[!>=5][]"),
        ("d6!>5", "d6[!>5][]"),
        ("d6!<2", "d6[!<2][]"),
        ("d6!<=-1", "d6[!<=-1][]"),
        ("d6!5!6", "d6[!=5|=6][]"),
        ("d6!5 !>5", "d6[!=5|>5][]"),
        ("d6!!", "d6[!!][]"),
        ("d6!!>=5", "d6[!!>=5][]"),
        ("d6!p", "d6[!p][]"),
        ("d6!!p", "d6[!!p][]"),
        ("d6!p<3", "d6[!p<3][]"),
        ("d6!!5!!6", "d6[!!=5|=6][]"),
        ("5d10x", "5d10[!][]"),
        ("5d10x10", "5d10[!=10][]"),
        ("5d10x=10", "5d10[!=10][]"),
        ("5d10x>=9", "5d10[!>=9][]"),
        ("6d10xo10", "6d10[xo=10][]"),
        ("6d10xo", "6d10[xo][]"),
        ("6d10x5=10", "6d10[x5=10][]"),
        ("6d10x2>=9", "6d10[x2>=9][]"),
        // The cap's condition is any condition, `==` and `!=` included, as the
        // grammar says: not a comparison after `x3`.
        ("2d10x3==10", "2d10[x3=10][]"),
        ("2d10x3!=1", "2d10[x3!=1][]"),
        ("5d10x10cs>=8", "5d10[!=10][cs>=8]"),
        ("4d10min2", "4d10[min2][]"),
        ("4d10max8", "4d10[max8][]"),
        ("4d10min2max8", "4d10[min2 max8][]"),
        ("d6min-1", "d6[min-1][]"),
        ("2d20rr<3", "2d20[r<3][]"),
        ("2d20rr1r2", "2d20[r=1|=2][]"),
        ("2d6r1", "2d6[r=1][]"),
        ("2d6r1r2", "2d6[r=1|=2][]"),
        ("2d6r<3", "2d6[r<3][]"),
        ("d6r=1", "d6[r=1][]"),
        ("d6r==1", "d6[r=1][]"),
        ("d6r!=6", "d6[r!=6][]"),
        ("d{-1,0,1}r-1", "d{-1,0,1}[r=-1][]"),
        ("d6r>=-9223372036854775808", "d6[r>=-9223372036854775808][]"),
        ("2d6ro1", "2d6[ro=1][]"),
        ("2d6ro1ro2", "2d6[ro=1 ro=2][]"),
        ("2d6r1ro2r3", "2d6[r=1 ro=2 r=3][]"),
        ("4d6r1!kh3", "4d6[r=1 !][kh3]"),
        ("4d6!!r1kh3", "4d6[!! r=1][kh3]"),
        ("4d6r1kh3r2", "4d6[r=1 r=2][kh3]"),
        ("d6r1-1", "(- d6[r=1][] 1)"),
        ("d6!-1", "(- d6[!][] 1)"),
    ]);
}

#[test]
fn pool_modifiers_default_to_one_die() {
    assert_parses(&[
        ("4d6kh3", "4d6[][kh3]"),
        ("4d6k3", "4d6[][kh3]"),
        ("2d20kh", "2d20[][kh1]"),
        ("2d20k", "2d20[][kh1]"),
        ("2d20kl", "2d20[][kl1]"),
        ("4d6kl2", "4d6[][kl2]"),
        ("4d6dl", "4d6[][dl1]"),
        ("4d6dl1", "4d6[][dl1]"),
        ("5d6dh2", "5d6[][dh2]"),
        ("4d6kh0", "4d6[][kh0]"),
        ("10d10cs>=8", "10d10[][cs>=8]"),
        ("10d10cs8", "10d10[][cs=8]"),
        ("10d10cs>=8df=1", "10d10[][cs>=8 df=1]"),
        ("10d10df1cs>7", "10d10[][df=1 cs>7]"),
        ("6d6kh4dl1", "6d6[][kh4 dl1]"),
        ("4dFcs>0", "4dF[][cs>0]"),
        ("4d6kh3!", "4d6[!][kh3]"),
        ("2d20kl+5", "(+ 2d20[][kl1] 5)"),
        ("4d6kh<2", "(< 4d6[][kh1] 2)"),
        ("10d10cf<3", "10d10[][cf<3]"),
        ("3d6even", "3d6[][cseven]"),
        ("3d6 odd", "3d6[][csodd]"),
        ("3d6cs6cs1", "3d6[][cs=6 cs=1]"),
        ("4d6kh(1+2)", "4d6[][kh3]"),
        ("4d6dl(2*1)", "4d6[][dl2]"),
        ("4d6kh(d3)", "4d6[][Highest(d3)]"),
        ("4d6kl(max(1,d2))", "4d6[][Lowest((max 1 d2))]"),
    ]);
}

#[test]
fn deals_name_each_hand() {
    assert_parses(&[
        ("deal(deck{1..3:2}, 2)", "(deal {1:2 2:2 3:2} 2)"),
        (
            "deal( deck{ 1 , 2..3 : 2 , 1 } , 1 + 1 )",
            "(deal {1:2 2:2 3:2} 2)",
        ),
        (
            "largest_set(deal(deck{-1..1:4}, 5))",
            "(largest_set (deal {-1:4 0:4 1:4} 5))",
        ),
        (
            "[a, b = deal(deck{1:13, 0:39}, 5, 5)] count(a, 1) > count(b, 1)",
            "(let a,b (deal {0:39 1:13} 5 5) (> (count a 1) (count b 1)))",
        ),
        (
            "[h = deal(deck{1..13:4}, 5), r = d6] h + r",
            "(let h (deal {1:4 2:4 3:4 4:4 5:4 6:4 7:4 8:4 9:4 10:4 11:4 12:4 13:4} 5) (let r d6 (+ h r)))",
        ),
    ]);
}

#[test]
fn labels_name_ranges_of_the_whole_expression() {
    assert_parses(&[
        (
            "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}",
            "(as (+ 2d6 1) ..6=miss 7..9=weak hit 10..=strong hit)",
        ),
        (
            "2d6 as {>=10: \"strong, and then some\", <7: miss, 7..9: weak}",
            "(as 2d6 ..6=miss 7..9=weak 10..=strong, and then some)",
        ),
        (
            "d6 as{1:botch,6:botch,2..5:fine}",
            "(as d6 1..1=botch 2..5=fine 6..6=botch)",
        ),
        ("d6as {>3: high, <= 3: low}", "(as d6 ..3=low 4..=high)"),
        (
            "[h = 5d6] largest_set(h) as {1: nothing, 2..: a set}",
            "(as (let h 5d6 (largest_set h)) 1..1=nothing 2..=a set)",
        ),
        (
            "dF as {-1: minus, 0: blank, 1: plus}",
            "(as dF -1..-1=minus 0..0=blank 1..1=plus)",
        ),
    ]);
}

#[test]
fn calls_of_functions_are_written_out_as_bindings() {
    assert_parses(&[
        ("[f(x) = x * 2] f(d6)", "(let f.x d6 (* f.x 2))"),
        (
            "[f(a, b) = a - b, g(x) = f(x, 1)] g(d4) + 1",
            "(+ (let g.x d4 (let g.f.a g.x (let g.f.b 1 (- g.f.a g.f.b)))) 1)",
        ),
        (
            "[pairs(h) = sets(h, 2)] pairs(5d6)",
            "(let pairs.h 5d6 (sets pairs.h 2))",
        ),
    ]);
}

#[test]
fn tuples_are_the_whole_result() {
    assert_parses(&[
        ("(d6, d4)", "(tuple d6 d4)"),
        (
            "[p = 12d6] (count(p, 5, 6), count(p, 1))",
            "(let p 12d6 (tuple (count p 5 6) (count p 1)))",
        ),
        ("( 1 , 2d6 + 1 , d4 )", "(tuple 1 (+ 2d6 1) d4)"),
    ]);
}

#[test]
fn names_bind_one_roll() {
    assert_parses(&[
        ("[r = d20] r + 5", "(let r d20 (+ r 5))"),
        ("[r=d20]r", "(let r d20 r)"),
        (
            "[r = d20] r == 20 ? 4d6+3 : r + 5 >= 15 ? 2d6+3 : 0",
            "(let r d20 (? (== r 20) (+ 4d6 3) (? (>= (+ r 5) 15) (+ 2d6 3) 0)))",
        ),
        ("[a = d6, b = d8] a * b", "(let a d6 (let b d8 (* a b)))"),
        ("[a = d6] [b = a + d4] b", "(let a d6 (let b (+ a d4) b))"),
        (
            "[hit_roll2 = d20] hit_roll2",
            "(let hit_roll2 d20 hit_roll2)",
        ),
        ("1 + ([x = d6] x * x)", "(+ 1 (let x d6 (* x x)))"),
        ("[n = d4] (n)d6", "(let n d4 (n)d6)"),
        ("[n = d4] n#d6", "(let n d4 (n#d6))"),
        ("[dmg = 2d6] dmg", "(let dmg 2d6 dmg)"),
    ]);
}

#[test]
fn logic_and_conditionals() {
    assert_parses(&[
        ("1 ? 2 : 3", "(? 1 2 3)"),
        ("1?2:3?4:5", "(? 1 2 (? 3 4 5))"),
        ("1 ? 2 ? 3 : 4 : 5", "(? 1 (? 2 3 4) 5)"),
        ("d20 >= 10 ? d6 : 0", "(? (>= d20 10) d6 0)"),
        ("1 and 0", "(and 1 0)"),
        ("1 or 0 and 1", "(or 1 (and 0 1))"),
        ("not 1", "(not 1)"),
        ("not not 0", "(not (not 0))"),
        ("not d20 == 1", "(not (== d20 1))"),
        ("d6 > 3 and d6 < 3", "(and (> d6 3) (< d6 3))"),
        ("d6 or d8", "(or d6 d8)"),
        ("(1)and(0)", "(and 1 0)"),
        ("1 or 2 ? 3 : 4", "(? (or 1 2) 3 4)"),
    ]);
}

#[test]
fn functions_modulo_and_computed_dice() {
    assert_parses(&[
        ("7 % 3", "(% 7 3)"),
        ("d20 % 2 + 1", "(+ (% d20 2) 1)"),
        ("2 * 3 % 4", "(% (* 2 3) 4)"),
        ("max(d8!, d6!)", "(max d8[!][] d6[!][])"),
        ("min(1, 2, 3)", "(min 1 2 3)"),
        ("abs(d6 - d6)", "(abs (- d6 d6))"),
        ("max( 1 , 2 )", "(max 1 2)"),
        ("3d(d6)", "3d(d6)"),
        ("d(2*3)", "d6"),
        ("3d(4)!", "3d4[!][]"),
        ("(1+2)d6", "((+ 1 2))d6"),
        ("d%%2", "(% d% 2)"),
    ]);
}

#[test]
fn groups_and_repetitions_are_pools() {
    assert_parses(&[
        ("{d8!, d6!}kh1", "{d8[!][], d6[!][]}[kh1]"),
        ("{ 4d6 + 3d8 }k4", "{(+ 4d6 3d8)}[kh4]"),
        ("{1, 2, 3}", "{1, 2, 3}"),
        ("{3d6, 3d6}cs>10", "{3d6, 3d6}[cs>10]"),
        ("{d20, d20} kl", "{d20, d20}[kl1]"),
        ("6#(4d6kh3)", "(6#4d6[][kh3])"),
        ("6#4d6kh3", "(6#4d6[][kh3])"),
        ("6#(4d6kh3)kh1", "(6#4d6[][kh3])[kh1]"),
        ("6#(4d6kh3) kh1 + 2", "(+ (6#4d6[][kh3])[kh1] 2)"),
        ("(d4)#(2d6)", "(d4#2d6)"),
        ("3#{d6, d8}kh1", "(3#{d6, d8}[kh1])"),
        ("3#({d6, d8})kh1", "(3#{d6, d8})[kh1]"),
        ("2#max(d6, d6)even", "(2#(max d6 d6))[cseven]"),
        ("2 * 3#d6", "(* 2 (3#d6))"),
    ]);
}

#[test]
fn not_equal_is_never_an_explosion() {
    assert_parses(&[
        ("d6!=5", "(!= d6 5)"),
        ("d6!!=5", "(!= d6[!][] 5)"),
        ("d6!! != 5", "(!= d6[!!][] 5)"),
        ("d6! != 5", "(!= d6[!][] 5)"),
        ("d6!>=5", "d6[!>=5][]"),
        ("d6! >= 5", "(>= d6[!][] 5)"),
        ("d6r!=1", "d6[r!=1][]"),
    ]);
}

#[test]
fn whitespace_is_allowed_between_tokens() {
    assert_parses(&[
        ("  4d6  kh3  ", "4d6[][kh3]"),
        ("4d6 r1 ! kh3", "4d6[r=1 !][kh3]"),
        ("4d6\tkh3\n+ 1", "(+ 4d6[][kh3] 1)"),
        ("( 1 + 2 ) * 3", "(* (+ 1 2) 3)"),
        ("( d4 )d6", "(d4)d6"),
        ("- 3", "(- 3)"),
        ("1 - - 3", "(- 1 (- 3))"),
        ("3d6\u{a0}>=\u{3000}10", "(>= 3d6 10)"),
        ("d{ 1 , 2 }", "d{1,2}"),
    ]);
}

// ---------------------------------------------------------------------------
// Where everything is.

fn number(n: i64, span: std::ops::Range<usize>) -> Expr {
    Expr {
        kind: ExprKind::Number(n),
        span,
    }
}

fn dice_of(expr: &Expr) -> &Dice {
    match &expr.kind {
        ExprKind::Dice(dice) => dice,
        other => panic!("not dice: {other:?}"),
    }
}

#[test]
fn spans_cover_each_node_exactly() {
    let expr = parse(" 4d6 r1 r2 kh3 + 2 ").unwrap();
    assert_eq!(expr.span, 1..18);
    let ExprKind::Binary { op, left, right } = &expr.kind else {
        panic!("{expr:?}");
    };
    assert_eq!(*op, BinaryOp::Add);
    assert_eq!(**right, number(2, 17..18));
    assert_eq!(
        **left,
        Expr {
            kind: ExprKind::Dice(Dice {
                count: Some(Box::new(number(4, 1..2))),
                faces: Faces::Standard(6),
                faces_span: 3..4,
                die_modifiers: vec![DieModifier::Reroll {
                    conditions: vec![
                        Condition {
                            comparison: Comparison::Eq,
                            value: 1
                        },
                        Condition {
                            comparison: Comparison::Eq,
                            value: 2
                        },
                    ],
                    span: 5..10,
                }],
                pool_modifiers: vec![PoolModifier::Keep {
                    keep: Keep::Highest(3),
                    span: 11..14,
                }],
            }),
            span: 1..14,
        }
    );
}

#[test]
fn parenthesized_spans_include_the_parentheses() {
    let expr = parse("(1 + 2) * d6").unwrap();
    let ExprKind::Binary { left, right, .. } = &expr.kind else {
        panic!("{expr:?}");
    };
    assert_eq!(
        (expr.span.clone(), left.span.clone(), right.span.clone()),
        (0..12, 0..7, 10..12)
    );

    let expr = parse("(d4)d6").unwrap();
    let dice = dice_of(&expr);
    assert_eq!(expr.span, 0..6);
    assert_eq!(dice.count.as_ref().unwrap().span, 0..4);
    assert_eq!(dice.faces_span, 5..6);

    let expr = parse("-  (3)").unwrap();
    let ExprKind::Negate(inner) = &expr.kind else {
        panic!("{expr:?}");
    };
    assert_eq!((expr.span.clone(), inner.span.clone()), (0..6, 3..6));
}

#[test]
fn faces_and_modifier_spans() {
    let expr = parse("10d10cs>=8df=1").unwrap();
    let dice = dice_of(&expr);
    assert_eq!(dice.faces_span, 3..5);
    let spans: Vec<_> = dice
        .pool_modifiers
        .iter()
        .map(|m| m.span().clone())
        .collect();
    assert_eq!(spans, [5..10, 10..14]);

    assert_eq!(dice_of(&parse("d{1..3, 5}").unwrap()).faces_span, 1..10);
    assert_eq!(dice_of(&parse("d%").unwrap()).faces_span, 1..2);
    assert_eq!(dice_of(&parse("4dF").unwrap()).faces_span, 2..3);
    let dice = parse("d6!>=5!1").unwrap();
    assert_eq!(
        dice_of(&dice).die_modifiers,
        [DieModifier::Explode {
            conditions: vec![
                Condition {
                    comparison: Comparison::Ge,
                    value: 5
                },
                Condition {
                    comparison: Comparison::Eq,
                    value: 1
                },
            ],
            kind: ExplodeKind::Dice,
            limit: ExplodeLimit::Depth,
            span: 2..8,
        }]
    );
}

#[test]
fn spans_of_multibyte_input_are_byte_offsets() {
    let expr = parse("d6\u{3000}+\u{3000}1").unwrap();
    assert_eq!(expr.span, 0..10);
    let ExprKind::Binary { right, .. } = &expr.kind else {
        panic!("{expr:?}");
    };
    assert_eq!(right.span, 9..10);
}
