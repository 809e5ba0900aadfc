//! The dice language beyond plain terms — names, conditionals, logic, functions,
//! groups, repetitions, rolled sides and counts, explosions whose extra rolls are
//! dice, clamps and counting — checked exactly against a brute-force oracle, on
//! real games against independent calculations, and on random expressions.

mod games;
mod oracle;
mod properties;

use fairdice::dice::notation::{self, NotationError, Options, evaluate_with};
use fairdice::{Control, Die, DieError};
use num_rational::BigRational;

use oracle::Oracle;

/// Options for small brute-force cases: explosions two extra rolls deep.
fn shallow() -> Options {
    Options {
        explode_depth: 2,
        ..Options::default()
    }
}

/// The exact distribution as probabilities.
fn probabilities(die: &Die) -> Vec<(i64, BigRational)> {
    die.outcomes()
        .iter()
        .map(|&o| (o, die.probability(o)))
        .collect()
}

#[track_caller]
fn agrees_with_brute_force(text: &str) {
    let options = shallow();
    let expr = notation::parse(text).unwrap_or_else(|e| panic!("{}", e.render(text)));
    let exact = evaluate_with(text, &options, &Control::new())
        .unwrap_or_else(|e| panic!("{text}: {}", e.render(text)));
    let mut oracle = Oracle::new(options.explode_depth);
    let expected: Vec<(i64, BigRational)> = oracle.value(&expr).into_iter().collect();
    assert_eq!(probabilities(&exact), expected, "{text}");
}

#[test]
fn names_conditionals_and_logic_match_brute_force() {
    for text in [
        "[r = d6] r + r",
        "[r = d6] r * r - d4",
        "[r = d4] [s = r + d4] s * r",
        "[a = d4, b = d6] max(a, b) - min(a, b)",
        "[r = d20] r == 20 ? 2d4+3 : r + 5 >= 15 ? d4+3 : 0",
        "d6 > 3 ? d4 : -d4",
        "[r = d6] r >= 4 ? r : d6",
        "d4 == 1 and d4 == 1",
        "[r = d6] r > 2 and r < 5",
        "not d4 == 2 or d6 >= 5",
        "[r = 2d4] (r)d4",
        "[n = d3] n#d4kh1",
        "[n = d3] 3d4kh(n)",
        "([a = d4] a * 2) + ([a = d4] a)",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn matching_sets_straights_and_counts_match_brute_force() {
    for text in [
        "largest_set(4d6)",
        "sets(5d4, 2)",
        "sets(4d3, 3) + sets(3d4, 1)",
        "longest_straight(4d6)",
        "longest_straight(d{1,2,4,5} + d{1,2,4,5} + d{1,2,4,5})",
        "count(5d6, 1, 6)",
        "count(4d6, 7)",
        "largest_set({d4, d6, d4})",
        "largest_set(2d4 + 2d6)",
        "largest_set(3#d4)",
        "longest_straight(1 + 2 + d4)",
        "largest_set(2d4!)",
        "sets(3dF, 2)",
        "largest_set((d3)d4)",
        // Names bound to a pool: several things of one roll, and its sum.
        "[h = 4d6] sets(h, 2) == 2 and largest_set(h) == 2",
        "[p = 5d6] count(p, 1) * 10 + count(p, 5, 6)",
        "[p = 3d6] p + largest_set(p)",
        "[p = 3d4] [q = 2d4] largest_set(p) - longest_straight(q) + p",
        "[p = 3d6kh2] largest_set(p) + p",
        "[p = {d4, d6}] longest_straight(p) > 1 ? p : -p",
        "[n = d3] [p = (n)d4] largest_set(p) * n",
        // The One-Roll Engine's width and height of one roll.
        "height(4d6)",
        "height(3dF)",
        "height({d4, d6, d4})",
        "[p = 5d4] (largest_set(p), height(p))",
        "[p = 4d6] largest_set(p) * 10 + height(p)",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn deals_match_brute_force() {
    for text in [
        "deal(deck{1..4:2}, 3)",
        "largest_set(deal(deck{1..4:2}, 4))",
        "sets(deal(deck{1..3:3}, 5), 2)",
        "longest_straight(deal(deck{1..6, 3:2}, 4))",
        "count(deal(deck{1:3, 0:5}, 4), 1)",
        "count(deal(deck{-1..2:2}, 3), -1, 2) + deal(deck{5:2, 7}, 2)",
        "[h = deal(deck{1..4:2}, 4)] largest_set(h) == 2 and sets(h, 2) == 2",
        "[h = deal(deck{1..5:2}, 3)] h + longest_straight(h)",
        "[a, b = deal(deck{1:3, 0:4}, 3, 2)] count(a, 1) > count(b, 1)",
        "[a, b = deal(deck{1..3:2}, 2, 2)] a - b",
        "[a, b, c = deal(deck{1..4:2}, 2, 2, 2)] largest_set(a) + largest_set(c) * 10 + b",
        "[a, b = deal(deck{1..4:2}, 3, 3)] largest_set(b)",
        "height(deal(deck{1..4:2, -1}, 4))",
        "[h = deal(deck{1..5:2}, 4)] (largest_set(h), height(h))",
        "[h = deal(deck{1..3:2}, 3)] [r = d4] r > largest_set(h) ? r : h",
        "d6 + deal(deck{1..6}, 2)",
        // Cards of two and three values, each read alone and together.
        "[(r, s) = deal(deck{(1..4, 1..3)}, 4)] longest_straight(r) >= 3 and largest_set(s) == 3",
        "[(r, s) = deal(deck{(1..5, 1..2)}, 4)] (height(r), sets(s, 2), count(s, 1))",
        "[(r, s) = deal(deck{(1..3, 0..1):2, (4, 1)}, 4)] r * 10 + s",
        "[(a, b), (c, e) = deal(deck{(1..3, 1..2)}, 2, 2)] (count(a, 3) + b, longest_straight(c) - e)",
        "[(x, y, z) = deal(deck{(1..2, 1..2, -1..1)}, 3)] largest_set(x) + sets(y, 2) * 10 + z",
        "[(r, s) = deal(deck{(2, 1), (1..3, 2):2}, 3)] [k = d3] k > largest_set(s) ? k : r",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn labels_match_brute_force() {
    for text in [
        "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}",
        "d6 as {1: botch, 6: botch, 2..5: fine}",
        "[h = 4d4] largest_set(h) as {1: none, 2: pair, 3..: more}",
        "[a, b = deal(deck{1..3:2}, 2, 2)] a - b as {<0: behind, 0: tied, >0: ahead}",
        "3d6 >= 10 as {0: fail, 1: pass}",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn functions_match_brute_force() {
    for text in [
        "[crit(x) = x == 4 ? 2 : x >= 3] crit(d4) + crit(d4)",
        "[f(x, y) = max(x, y) - min(x, y)] f(d4, d6)",
        "[twice(x) = x + x] twice(d4) + d4",
        "[twice(x) = x + x, quad(y) = twice(twice(y))] quad(d3)",
        "[pairs(h) = sets(h, 2)] pairs(4d4) + pairs(3d3)",
        "[x = d4] [f(x) = x * 10] f(x) + x",
        "[best(a, b) = a > b ? a : b] [r = d6] best(r, d6) + r",
        "[f(x) = [y = d4] x + y] f(d3) - f(d3)",
        "[hand(h) = largest_set(h)] hand(deal(deck{1..3:2}, 3))",
    ] {
        agrees_with_brute_force(text);
    }
    // A call means its arguments bound around its body.
    let called = evaluate_with(
        "[f(a, b) = a * b - a] f(2d4, d6)",
        &shallow(),
        &Control::new(),
    );
    let bound = evaluate_with("[a = 2d4, b = d6] a * b - a", &shallow(), &Control::new());
    assert_eq!(called.unwrap(), bound.unwrap());
}

#[test]
fn tuples_match_brute_force() {
    for text in [
        "(d4, d6)",
        "[p = 5d4] (count(p, 4), count(p, 1))",
        "[r = d6] (r, r + d4, r > 3)",
        "[h = 4d3] (largest_set(h), sets(h, 2), longest_straight(h), h)",
        "[a, b = deal(deck{1..3:2}, 2, 2)] (a, b)",
        "(-d4, 2d4 - 5)",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn a_tuple_unpacks_into_its_values() {
    let text = "[p = 3d6] (count(p, 5, 6), count(p, 1))";
    let die = evaluate_with(text, &Options::default(), &Control::new()).unwrap();
    let code = notation::parse(text).unwrap().tuple_code().unwrap();
    let mut joint = std::collections::BTreeMap::new();
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                let hits = [a, b, c].iter().filter(|&&x| x >= 5).count() as i64;
                let ones = [a, b, c].iter().filter(|&&x| x == 1).count() as i64;
                *joint.entry(vec![hits, ones]).or_insert(0u32) += 1;
            }
        }
    }
    let got: std::collections::BTreeMap<Vec<i64>, u32> = die
        .iter()
        .map(|(packed, count)| (code.unpack(packed), u32::try_from(count).unwrap()))
        .collect();
    assert_eq!(got, joint);
    // A value beyond what its field holds is refused, not wrapped.
    let e = evaluate_with(
        "(d6 * 2000000000, d4)",
        &Options::default(),
        &Control::new(),
    )
    .expect_err("too wide");
    assert!(e.to_string().contains("within ±1073741823"), "{e}");
}

#[test]
fn labels_that_miss_an_outcome_or_never_show_are_refused() {
    let error =
        |text: &str| evaluate_with(text, &Options::default(), &Control::new()).expect_err(text);
    let e = error("2d6 as {..6: miss, 7..9: weak, 11..: strong}");
    assert_eq!(
        e.to_string(),
        "the outcome 10 has no label: add a range that holds it"
    );
    assert_eq!(e.span(), Some(0..3));
    let e = error("2d6 as {..6: miss, 7..12: weak, 13..: strong}");
    assert!(matches!(
        e,
        NotationError::Invalid {
            error: DieError::LabelNeverShown { .. },
            ..
        }
    ));
    assert_eq!(e.span(), Some(32..44));
    // A roll that lands outside every range says so too.
    let expr = notation::parse("d6 as {1..5: low}").unwrap();
    let mut rng = fairdice::rng::seeded(1);
    let refused = (0..200).any(|_| {
        matches!(
            notation::roll(&expr, &Options::default(), &mut rng),
            Err(NotationError::Invalid {
                error: DieError::Unlabelled { outcome: 6 },
                ..
            })
        )
    });
    assert!(refused);
}

#[test]
fn rounded_quotients_match_brute_force() {
    for text in [
        "floor(d20 / 3)",
        "ceil(d20 / 3)",
        "round(d20 / 3)",
        "round(d6 / -4)",
        "ceil((d6 - 4) / 3)",
        "round((d6 - 4) / 2)",
        "round(2d6 / d4)",
        "ceil(d8 / -d3)",
        "floor(d6)",
        "ceil(d6 + 1)",
        "[r = d6] round(r / 2) + r",
        "round(7 / 2) + ceil(-7 / 2) * 10",
    ] {
        agrees_with_brute_force(text);
    }
    let control = Control::new();
    let options = Options::default();
    for (text, value) in [
        ("round(7 / 2)", 4),
        ("round(-7 / 2)", -3),
        ("ceil(-7 / 2)", -3),
        ("floor(-7 / 2)", -4),
        ("round(5 / 3)", 2),
        ("floor(sqrt(99))", 9),
        ("ceil(sqrt(81))", 9),
        ("ceil(sqrt(82))", 10),
        ("round(sqrt(90))", 9),
        ("round(sqrt(91))", 10),
        ("floor(sqrt(9223372036854775807))", 3_037_000_499),
    ] {
        let die = evaluate_with(text, &options, &control).unwrap();
        assert_eq!(die.outcomes(), &[value], "{text}");
    }
}

#[test]
fn rounded_roots_match_brute_force_and_are_refused_unrounded() {
    for text in [
        "floor(sqrt(d100))",
        "ceil(sqrt(d100))",
        "round(sqrt(d100))",
        "floor(sqrt(3d6 * 3d6))",
        "[r = d20] round(sqrt(r)) * 100 + r",
        "round(sqrt(4d6kh3)) + floor(sqrt(d8!))",
    ] {
        agrees_with_brute_force(text);
    }
    for text in ["sqrt(d100)", "floor(sqrt(d6) * 2)", "max(sqrt(4), 1)"] {
        let error = notation::parse(text).expect_err(text);
        assert!(
            error.render(text).contains("integer only rounded"),
            "{text}: {}",
            error.render(text)
        );
    }
    let error = evaluate_with("floor(sqrt(d6 - 3))", &Options::default(), &Control::new())
        .expect_err("a negative root");
    assert!(error.to_string().contains("square root of -2"), "{error}");
}

#[test]
fn a_pool_function_reads_every_die_and_says_how_to_call_it() {
    for (text, expected) in [
        ("largest_set(5d6kh3)", "no keep or count"),
        ("sets(5d6, 0)", "set size of 1 or more"),
        ("sets(5d6, d4)", "set size of 1 or more"),
        ("count(5d6)", "the faces to count"),
        ("count(5d6, d6)", "the faces to count"),
        ("longest_straight(3d6, 2)", "one pool of dice"),
    ] {
        let error = notation::parse(text).expect_err(text);
        let shown = error.render(text);
        assert!(shown.contains(expected), "{text}: {shown}");
    }
}

#[test]
fn functions_and_modulo_match_brute_force() {
    for text in [
        "max(d8, d6)",
        "min(d4, d4, d4)",
        "abs(d6 - d6)",
        "d20 % 6",
        "(d6 - 4) % 3",
        "d6 % -4",
        "max(d4!, d6!)",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn groups_and_repetitions_match_brute_force() {
    for text in [
        "{d8!, d6!}kh1",
        "{d6, d4, d4}kl1",
        "{2d4, d6}kh1",
        "{d4, d4, d6}dl1",
        "{d6, d6, d6}cs>=4",
        "{2d3 + d4}kh2",
        "{2d3 + 1}kh2",
        "{2#d4}kh1",
        "3#(2d4kh1)kh1",
        "3#(2d4kh1)",
        "(d3)#d4",
        "(d3)#d4kh1",
        "2#{d4, d4}kh1",
        "3#d4cs>=3",
        "{d4, d6}kh(d2)",
        "{d6, d6, d6}even",
        "{d6!, 2}odd",
        // Pools rolled together whose make-ups are random: a product of mixtures.
        "{2d4! + d3!}kh2",
        "{(d2)d4 + (d2)d3}kh2",
        "{2d3! + (d2)d4}kl1",
        "{d4! + d3! + (d2)d2}kh2",
        "{d3! + d4!}",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn rolled_sides_and_counts_match_brute_force() {
    for text in [
        "2d(d4)",
        "d(d4+1)",
        "(1+1)d4",
        "(d2)d(d3)kh1",
        "2d(d3)!",
        "3d4kh(1+1)",
        "3d4kh(d3)",
        "3d4dl(d2)kh(d2)",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn explosions_as_dice_match_brute_force() {
    for text in [
        "2d4!",
        "3d4!kh2",
        "3d4!kl1",
        "2d4!dh1",
        "2d4!>=3kh2",
        "3d4!cs>=3",
        "3d4!cs4",
        "2d4!pkh1",
        "2d4!p",
        "3d4!p>=3kl2",
        "3d4xkh2",
        "3d4xokh1",
        "3d4xo>=3kh2",
        "3d4x2=4kh2",
        "3d4x3>=3",
        "2d4x1=4cs>=3",
        "3d4!max3kh2",
        "2d4!min2kh1",
        "2d4r1!kh1",
        "d{1,1,4}!kh1",
        "3dF!kh2",
        "{3d4!}kh2",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn compounding_and_per_die_modifiers_match_brute_force() {
    for text in [
        "2d4!!",
        "3d4!!kh2",
        "2d4!!p",
        "2d4!!pkh1",
        "2d4!!r5",
        "2d4!!>=3",
        "3d4min2",
        "3d4max3kh2",
        "2d6min3max4",
        "3d4cf<2",
        "3d4even",
        "3d4odd",
        "3d4cs4cs1",
        "3d4cs>=3df1df2",
        "2d6rr<3",
        "2d6r1ro2",
    ] {
        agrees_with_brute_force(text);
    }
}

#[test]
fn compounding_is_the_old_explosion() {
    // `!!` is what `!` meant before explosions added dice: one die, its chain
    // added up (the library's `Die::explode`).
    let d6 = Die::standard(6).unwrap();
    let chain = d6.explode(|o| o == 6, 9, &Control::new()).unwrap();
    let compounded = evaluate_with("d6!!", &Options::default(), &Control::new()).unwrap();
    assert_eq!(compounded, chain);
    // Added up, the dice of `!` are the same chain: only keep/drop and counting
    // tell them apart.
    assert_eq!(
        evaluate_with("3d6!", &Options::default(), &Control::new()).unwrap(),
        evaluate_with("3d6!!", &Options::default(), &Control::new()).unwrap()
    );
    assert_ne!(
        evaluate_with("3d6!kh2", &shallow(), &Control::new()).unwrap(),
        evaluate_with("3d6!!kh2", &shallow(), &Control::new()).unwrap()
    );
    // The oracle tells the two readings apart too.
    let compounded = evaluate_with("3d4!!kh2", &shallow(), &Control::new()).unwrap();
    let dice = Oracle::new(2).value(&notation::parse("3d4!kh2").unwrap());
    let dice: Vec<(i64, BigRational)> = dice.into_iter().collect();
    assert_ne!(probabilities(&compounded), dice);
}

#[test]
fn evaluation_errors_point_at_the_new_forms() {
    let error =
        |text: &str| evaluate_with(text, &Options::default(), &Control::new()).expect_err(text);
    let e = error("3d(d4 - 2)");
    assert!(matches!(
        e,
        NotationError::Invalid {
            error: DieError::NoSides(0),
            ..
        }
    ));
    assert_eq!(e.span(), Some(2..10));
    let e = error("(d4 - 3)#d6");
    assert!(matches!(
        e,
        NotationError::Invalid {
            error: DieError::NegativeDiceCount(-2),
            ..
        }
    ));
    assert_eq!(e.span(), Some(0..8));
    let e = error("d6 % (d2 - 1)");
    assert_eq!(e.span(), Some(5..13));
    let e = error("4d6kh(d3 - 2)");
    assert_eq!(e.span(), Some(5..13));
    let e = error("[r = d6] d6r<=6 + r");
    assert!(matches!(
        e,
        NotationError::Invalid {
            error: DieError::RerollsEverything,
            ..
        }
    ));
    assert_eq!(e.span(), Some(11..15));
    let e = error("abs(-9223372036854775807 - 1)");
    assert!(matches!(
        e,
        NotationError::Invalid {
            error: DieError::Overflow,
            ..
        }
    ));
}
