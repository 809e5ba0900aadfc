//! Mistakes: where each typical one is reported, what is said, and how it is drawn.

use fairdice::dice::notation::parser::{MAX_CUSTOM_FACES, MAX_DEPTH, MAX_INPUT_LEN, MAX_NESTING};
use fairdice::dice::notation::{
    self, Dialect, Expected, Found, Options, ParseError, Problem, parse,
};
use fairdice::{Control, rng};

use super::show;

fn symbol(c: char) -> Expected {
    Expected::Symbol(c)
}

const OPERAND: [Expected; 6] = [
    Expected::Number,
    Expected::Symbol('d'),
    Expected::Symbol('('),
    Expected::Symbol('-'),
    Expected::Symbol('{'),
    Expected::Name,
];
/// At the start of an expression a binding may open too.
const START: [Expected; 7] = [
    Expected::Number,
    Expected::Symbol('d'),
    Expected::Symbol('('),
    Expected::Symbol('-'),
    Expected::Symbol('{'),
    Expected::Symbol('['),
    Expected::Name,
];
const FACES: [Expected; 5] = [
    Expected::Number,
    Expected::Symbol('('),
    Expected::Symbol('%'),
    Expected::Symbol('F'),
    Expected::Symbol('{'),
];

#[track_caller]
fn assert_error(
    text: &str,
    span: std::ops::Range<usize>,
    found: Found,
    expected: &[Expected],
) -> ParseError {
    let error = parse(text).expect_err(text);
    let got = (error.span(), error.found(), error.expected().to_vec());
    assert_eq!(
        got,
        (span, found, expected.to_vec()),
        "{text:?}\n{}",
        error.render(text)
    );
    error
}

#[track_caller]
fn assert_problem(text: &str, span: std::ops::Range<usize>, problem: Problem) {
    let error = parse(text).expect_err(text);
    let got = (error.span(), error.problem().cloned());
    assert_eq!(
        got,
        (span, Some(problem)),
        "{text:?}\n{}",
        error.render(text)
    );
}

#[test]
fn unexpected_input_says_what_would_fit() {
    use Expected::{Closing, Condition, EndOfInput, Modifier, Operator};
    use Found::{Char, EndOfInput as End};
    assert_error(
        "4d6kh3y",
        6..7,
        Char('y'),
        &[Modifier, Operator, EndOfInput],
    );
    assert_error("3d", 2..2, End, &FACES);
    assert_problem(
        "d",
        0..1,
        Problem::ReservedName {
            name: "d".into(),
            reads_as: "a die without its faces (`d6`)",
        },
    );
    assert_error("2d[6]", 2..3, Char('['), &FACES);
    assert_error("(2d6", 4..4, End, &[Modifier, Operator, Closing(')')]);
    assert_error("3d6 >=", 6..6, End, &OPERAND);
    assert_error("1 +", 3..3, End, &OPERAND);
    let mut call = START.to_vec();
    call.push(Closing(')'));
    assert_error("y(", 2..2, End, &call);
    assert_error("()", 1..2, Char(')'), &START);
    assert_error("4 d6", 2..3, Char('d'), &[Operator, EndOfInput]);
    assert_error("1 2", 2..3, Char('2'), &[Operator, EndOfInput]);
    assert_error("d6r", 3..3, End, &[Condition]);
    assert_error("d6ro", 4..4, End, &[Condition]);
    assert_error("d6cs", 4..4, End, &[Condition]);
    assert_error("d6r<", 4..4, End, &[Expected::Number]);
    assert_error("d6r-", 4..4, End, &[Expected::Number]);
    assert_error("d{-", 3..3, End, &[Expected::Number]);
    assert_error("d6r1r", 5..5, End, &[Condition]);
    assert_error(
        "1.5",
        1..2,
        Char('.'),
        &[symbol('d'), symbol('#'), Operator, EndOfInput],
    );
    assert_error("d20 + 5 ≥ 15", 8..11, Char('≥'), &[Operator, EndOfInput]);
    assert_error(
        "d6 !y",
        4..5,
        Char('y'),
        &[Condition, Modifier, Operator, EndOfInput],
    );
    let k = [
        Expected::Number,
        symbol('('),
        symbol('h'),
        symbol('l'),
        Modifier,
        Operator,
        EndOfInput,
    ];
    assert_error("4d6ky", 4..5, Char('y'), &k);
    assert_error("d{1.}", 4..5, Char('}'), &[Expected::RangeDots]);
    assert_error("d{1,", 4..4, End, &[Expected::Number]);
    assert_error(
        "d{1",
        3..3,
        End,
        &[Expected::RangeDots, Closing(','), Closing('}')],
    );
    assert_error("4D6KH3", 3..4, Char('K'), &[Modifier, Operator, EndOfInput]);
}

#[test]
fn common_mistakes_are_explained() {
    assert_problem("1 < 2 < 3", 6..7, Problem::ChainedComparison);
    assert_problem("1<2>=3", 3..5, Problem::ChainedComparison);
    assert_problem("4d6d1", 3..5, Problem::BareDrop);
    assert_problem("4d6d", 3..4, Problem::BareDrop);
    assert_problem("d6 d6", 3..5, Problem::BareDrop);
    assert_problem("d{}", 1..3, Problem::NoFaces);
    assert_problem("d{ }", 1..4, Problem::NoFaces);
    assert_problem("99999999999999999999", 0..20, Problem::NumberTooLarge);
    assert_problem("9223372036854775808", 0..19, Problem::NumberTooLarge);
    assert_problem("d18446744073709551616", 1..21, Problem::NumberTooLarge);
    assert_problem("4d6kh99999999999999999999", 5..25, Problem::NumberTooLarge);
    assert_problem("d6r=-9223372036854775809", 4..24, Problem::NumberTooLarge);
    assert_problem("", 0..0, Problem::Empty);
    assert_problem(" \t\n", 0..3, Problem::Empty);
    assert_problem("2d6)", 3..4, Problem::UnmatchedParen);
    assert_problem("(1))", 3..4, Problem::UnmatchedParen);
    assert_problem("3d6 = 10", 4..5, Problem::SingleEquals);
    assert_problem("d{5..1}", 2..6, Problem::EmptyRange { low: 5, high: 1 });
    let too_many = Problem::TooManyFaces {
        max: MAX_CUSTOM_FACES,
    };
    assert_problem("d{1..100000000}", 1..15, too_many.clone());
    assert_problem(
        "d{-9223372036854775808..9223372036854775807}",
        1..44,
        too_many,
    );
}

#[test]
fn mistakes_of_the_new_forms_are_explained_where_they_are() {
    let two = |first: &str, second: &str| Problem::TwoExplosions {
        first: first.into(),
        second: second.into(),
    };
    assert_problem("d6! !", 4..5, two("!", "!"));
    assert_problem("d6!!xo", 4..6, two("!!", "xo"));
    assert_problem("d6!5!!6", 4..7, two("!", "!!"));
    assert_problem(
        "d6min5max3",
        2..10,
        Problem::ConflictingClamps {
            min: "min5".into(),
            max: "max3".into(),
        },
    );
    assert_problem(
        "5d10cs>5cf<2",
        8..12,
        Problem::ConflictingCounts {
            first: "cs>5".into(),
            second: "cf<2".into(),
        },
    );
    assert_problem(
        "{d6, d8}cf1df2",
        11..14,
        Problem::ConflictingCounts {
            first: "cf=1".into(),
            second: "df=2".into(),
        },
    );
    assert_problem("4d6kh(-1)", 5..9, Problem::NegativeKeep(-1));
    assert_problem("r + 1", 0..1, Problem::UnknownName { name: "r".into() });
    assert_problem(
        "[r = d20] r + s",
        14..15,
        Problem::UnknownName { name: "s".into() },
    );
    assert_problem(
        "([r = d20] r) + r",
        16..17,
        Problem::UnknownName { name: "r".into() },
    );
    assert_problem("[r = r] 1", 5..6, Problem::UnknownName { name: "r".into() });
    assert_problem(
        "[r = d20] [r = d6] r",
        11..12,
        Problem::NameTaken { name: "r".into() },
    );
    assert_problem(
        "[d6 = 3] 1",
        1..3,
        Problem::ReservedName {
            name: "d6".into(),
            reads_as: "a die",
        },
    );
    assert_problem(
        "[max = 3] 1",
        1..4,
        Problem::ReservedName {
            name: "max".into(),
            reads_as: "a function",
        },
    );
    assert_problem(
        "[and = 3] 1",
        1..4,
        Problem::ReservedName {
            name: "and".into(),
            reads_as: "a keyword",
        },
    );
    assert_problem(
        "log(d6)",
        0..3,
        Problem::UnknownFunction { name: "log".into() },
    );
    assert_problem("sqrt(d6)", 0..8, Problem::RootUnrounded);
    assert_problem("floor(2 * sqrt(d6))", 10..18, Problem::RootUnrounded);
    assert_problem(
        "abs(1, 2)",
        0..9,
        Problem::Arguments {
            function: "abs",
            expected: "one argument: `abs(d20 - 10)`",
        },
    );
    assert_problem(
        "max()",
        0..5,
        Problem::Arguments {
            function: "max",
            expected: "one argument or more: `max(d8!, d6!)`",
        },
    );
    // Sibling bindings may reuse a name: each is its own roll.
    assert!(parse("([a = d6] a) + ([a = d4] a)").is_ok());
}

#[test]
fn the_first_mistake_is_reported() {
    assert_problem("99999999999999999999 + x", 0..20, Problem::NumberTooLarge);
    assert_problem("1 < 2 < 3 x", 6..7, Problem::ChainedComparison);
    assert_error("# + 99999999999999999999", 0..1, Found::Char('#'), &START);
}

#[test]
fn oversized_and_deeply_nested_input_is_refused_without_crashing() {
    let too_long = "1".repeat(MAX_INPUT_LEN + 1);
    let problem = Problem::TooLong {
        len: MAX_INPUT_LEN + 1,
        max: MAX_INPUT_LEN,
    };
    assert_problem(&too_long, MAX_INPUT_LEN..MAX_INPUT_LEN + 1, problem);
    assert!(parse(&"(".repeat(100_000)).is_err());
    assert!(parse(&"-".repeat(100_000)).is_err());

    let deep = |n: usize| format!("{}d6{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(show(&parse(&deep(MAX_NESTING)).unwrap()), "d6");
    assert_problem(
        &deep(MAX_NESTING + 1),
        MAX_NESTING..MAX_NESTING + 1,
        Problem::TooDeep { max: MAX_NESTING },
    );
    assert_problem(
        &"(".repeat(5_000),
        MAX_NESTING..MAX_NESTING + 1,
        Problem::TooDeep { max: MAX_NESTING },
    );

    let too_complex = Problem::TooComplex { max: MAX_DEPTH };
    let minuses = format!("{}1", "-".repeat(MAX_INPUT_LEN - 1));
    assert_eq!(parse(&minuses).unwrap_err().problem(), Some(&too_complex));
    let chain = format!("{}1", "1+".repeat(MAX_INPUT_LEN / 2 - 1));
    assert_eq!(parse(&chain).unwrap_err().problem(), Some(&too_complex));
    let chain = format!("{}1", "1+".repeat(MAX_DEPTH / 2));
    assert!(parse(&chain).is_ok());
}

/// The smallest stack a front-end gives the engine: a browser's WebAssembly
/// stack, 1 MiB. Unoptimized code takes several times the stack a level takes
/// optimized, so a debug build is given more.
const SMALLEST_STACK: usize = if cfg!(debug_assertions) {
    16 << 20
} else {
    1 << 20
};

#[test]
fn every_kind_of_nesting_at_the_limit_is_parsed_priced_evaluated_and_rolled_on_the_smallest_stack()
{
    // Every way the parser descends a level, `n` levels deep.
    let forms = |n: usize| {
        [
            format!("{}d6{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "1<(".repeat(n), ")".repeat(n)),
            format!("{}d6{}", "d6kh(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "not (".repeat(n), ")".repeat(n)),
            format!("{}1{}", "{".repeat(n), "}".repeat(n)),
            format!("{}1{}", "d2==1?".repeat(n), ":1".repeat(n)),
            format!("{}d6{}", "max(1,".repeat(n), ")".repeat(n)),
            format!("{}d6{}", "d(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "[a=".repeat(n), "]a".repeat(n)),
            format!("{}d6{}", "1#(".repeat(n), ")".repeat(n)),
            format!("[f(x) = x+1] {}d6{}", "f(".repeat(n), ")".repeat(n)),
        ]
    };
    // The deepest trees: unary minus and operator chains, read without nesting.
    let trees = [
        format!("{}d6", "-".repeat(MAX_DEPTH - 1)),
        format!("{}d2", "d2+".repeat(MAX_DEPTH - 1)),
    ];
    let walk = move || {
        let options = Options::default();
        let mut generator = rng::seeded(3);
        for text in forms(MAX_NESTING).iter().chain(&trees) {
            let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            notation::estimate(&expr, &options);
            notation::evaluate_expr(&expr, &options, &Control::new())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            notation::roll(&expr, &options, &mut generator)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            notation::translate(text, Dialect::Foundry).ok();
            let cut = &text[..text.len() - 1];
            assert!(parse(cut).is_err(), "{cut}");
        }
        // One level more is refused where it opens, whatever the form.
        for text in forms(MAX_NESTING + 1) {
            let error = parse(&text).unwrap_err();
            assert_eq!(
                error.problem(),
                Some(&Problem::TooDeep { max: MAX_NESTING }),
                "{text}"
            );
        }
    };
    std::thread::Builder::new()
        .stack_size(SMALLEST_STACK)
        .spawn(walk)
        .unwrap()
        .join()
        .unwrap();
}

// ---------------------------------------------------------------------------
// Messages and rendering.

#[test]
fn messages_are_one_line() {
    let error = parse("4d6kh3y").unwrap_err();
    assert_eq!(
        error.to_string(),
        "unexpected `y`; expected a modifier, an operator or end of input"
    );
    assert_eq!(
        parse("3d").unwrap_err().to_string(),
        "unexpected end of input; expected a number, `(`, `%`, `F` or `{`"
    );
    assert_eq!(
        parse("1 < 2 < 3").unwrap_err().to_string(),
        "comparisons cannot be chained; use parentheses"
    );
    assert_eq!(
        parse("2d6\n+#").unwrap_err().to_string(),
        "unexpected `#`; expected a number, `d`, `(`, `-`, `{` or a name"
    );
    assert_eq!(
        parse("1 2").unwrap_err().to_string(),
        "unexpected `2`; expected an operator or end of input"
    );
    assert_eq!(parse("1\u{0}").unwrap_err().found(), Found::Char('\0'));
    assert!(!parse("1\u{0}").unwrap_err().to_string().contains('\0'));
}

#[test]
fn render_points_at_the_span() {
    let render = |text: &str| parse(text).unwrap_err().render(text);
    assert_eq!(
        render("4d6kh3y"),
        "4d6kh3y\n      ^ unexpected `y`; expected a modifier, an operator or end of input"
    );
    assert_eq!(
        render("(2d6"),
        "(2d6\n    ^ unexpected end of input; expected a modifier, an operator or `)`"
    );
    assert_eq!(
        render("99999999999999999999 + 1"),
        "99999999999999999999 + 1\n^^^^^^^^^^^^^^^^^^^^ number too large for a 64-bit integer"
    );
    assert_eq!(render(""), "\n^ expected a dice expression");
}

#[test]
fn render_counts_characters_not_bytes() {
    let text = "d6\u{3000}+\u{3000}é";
    let error = parse(text).unwrap_err();
    assert_eq!(error.span(), 9..11);
    assert_eq!(
        error.render(text),
        "d6\u{3000}+\u{3000}é\n     ^ unexpected `é`; expected a number, `d`, `(`, `-`, `{` or a name"
    );
    let error = ParseError::new(2..4, Found::Char('é'), [], None);
    assert_eq!(error.render("éé"), "éé\n ^ unexpected `é`");
    // Spans that do not fit the text are clamped, never sliced mid-character.
    let error = ParseError::new(1..3, Found::Char('é'), [], None);
    assert_eq!(error.render("éé"), "éé\n^ unexpected `é`");
    assert_eq!(error.render("é"), "é\n^ unexpected `é`");
    assert_eq!(error.render(""), "\n^ unexpected `é`");
}

#[test]
fn render_shows_only_the_line_of_the_error_and_cuts_long_lines() {
    let text = "1 +\n\t2 +\n) + 3";
    assert_eq!(
        parse(text).unwrap_err().render(text),
        ") + 3\n^ unmatched `)`"
    );
    let text = "1 +\n\t2 y";
    assert_eq!(
        parse(text).unwrap_err().render(text),
        " 2 y\n   ^ unexpected `y`; expected an operator or end of input"
    );

    let text = format!("{}x{}", "1+".repeat(100), "+1".repeat(100));
    let rendered = parse(&text).unwrap_err().render(&text);
    let (line, carets) = rendered.split_once('\n').unwrap();
    assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
    assert!(line.chars().count() <= 82, "{line}");
    let column = carets.find('^').unwrap();
    assert_eq!(line.chars().nth(column), Some('x'), "{rendered}");
}

#[test]
fn expected_items_are_sorted_and_deduplicated() {
    let error = ParseError::new(
        0..0,
        Found::EndOfInput,
        [
            Expected::EndOfInput,
            Expected::Closing(')'),
            Expected::Operator,
            Expected::Symbol('-'),
            Expected::Symbol('d'),
            Expected::Number,
            Expected::Operator,
        ],
        None,
    );
    assert_eq!(
        error.to_string(),
        "unexpected end of input; expected a number, `d`, `-`, an operator, `)` or end of input"
    );
}

#[test]
fn deals_that_cannot_be_made_are_refused_where_written() {
    assert_problem(
        "deal(deck{1..3}, 5)",
        0..19,
        Problem::Cards("the hands need 5 cards, more than the 3 the deck holds".into()),
    );
    assert_problem(
        "1 + deal(deck{1:0}, 1)",
        9..18,
        Problem::Cards("a deck needs at least one card".into()),
    );
    assert_problem("deal(deck{1..3}, d6)", 17..19, Problem::HandSize);
    assert_problem("deal(deck{1..3}, -1)", 17..19, Problem::HandSize);
    assert_problem(
        "deal(deck{1..13:4}, 5, 5)",
        0..25,
        Problem::UnnamedHands { hands: 2 },
    );
    assert_problem(
        "[a, b = deal(deck{1..13:4}, 5)] a",
        1..30,
        Problem::HandNames { names: 2, hands: 1 },
    );
    assert_problem("[a, b = 2d6] a + b", 1..5, Problem::SeveralNames);
    // Cards of several values.
    assert_problem("[(a, b) = 2d6] a + b", 1..7, Problem::SeveralNames);
    assert_problem("deal(deck{(1..3, 1..2), 4}, 2)", 5..26, Problem::CardShapes);
    assert_problem(
        "deal(deck{(1, 2, 3, 4, 5, 6, 7)}, 1)",
        30..31,
        Problem::TupleSize { max: 6 },
    );
    assert_problem(
        "largest_set(deal(deck{(1..13, 1..4)}, 5))",
        12..40,
        Problem::CardAttributes { attributes: 2 },
    );
    assert_problem(
        "[f(h) = h] f(deal(deck{(1..3, 1..2)}, 2))",
        13..40,
        Problem::CardAttributes { attributes: 2 },
    );
    assert_problem(
        "[h = deal(deck{(1..13, 1..4)}, 5)] h",
        1..2,
        Problem::AttributeNames {
            names: 1,
            attributes: 2,
        },
    );
    assert_problem(
        "[(r, s), t = deal(deck{(1..3, 1..4)}, 2, 2)] t",
        1..10,
        Problem::AttributeNames {
            names: 1,
            attributes: 2,
        },
    );
    assert_problem(
        "[(r, s) = deal(deck{1..3}, 2)] r",
        1..7,
        Problem::AttributeNames {
            names: 2,
            attributes: 1,
        },
    );
    assert_problem(
        "largest_set(deal(deck{1..4:2}, 3) + d4)",
        12..38,
        Problem::HandInPool,
    );
    assert_problem("[h = {deal(deck{1..4}, 2)}] h", 5..26, Problem::HandInPool);
    assert_problem(
        "[a, a = deal(deck{1..13:4}, 5, 5)] a",
        4..5,
        Problem::NameTaken { name: "a".into() },
    );
    assert_problem(
        "[deck = d6] deck",
        1..5,
        Problem::ReservedName {
            name: "deck".into(),
            reads_as: "cards (`deal(deck{1..13:4}, 5)`)",
        },
    );
}

#[test]
fn labels_that_cannot_be_told_apart_are_refused_where_written() {
    assert_problem("d6 as {1..3: a, 3..6: b}", 16..23, Problem::LabelsOverlap);
    assert_problem("d6 as {..3: a, ..6: b}", 15..21, Problem::LabelsOverlap);
    assert_problem(
        "d6 as {5..2: a}",
        7..14,
        Problem::EmptyRange { low: 5, high: 2 },
    );
    let many: Vec<String> = (0..65).map(|i| format!("{i}: x{i}")).collect();
    let text = format!("d6 as {{{}}}", many.join(", "));
    assert_problem(
        &text,
        6..text.len(),
        Problem::TooManyLabels {
            max_labels: 64,
            max_len: 60,
        },
    );
    assert_error("d6 as {1: }", 10..11, Found::Char('}'), &[Expected::Label]);
    assert_error(
        "d6 as {miss: 1}",
        7..8,
        Found::Char('m'),
        &[Expected::Range],
    );
    assert_error(
        "d6 as {1 miss}",
        9..10,
        Found::Char('m'),
        &[Expected::Closing(':')],
    );
    assert_problem(
        "[as = d6] as",
        1..3,
        Problem::ReservedName {
            name: "as".into(),
            reads_as: "a keyword",
        },
    );
}

#[test]
fn a_tuple_anywhere_but_last_is_refused() {
    assert_problem("(d6, d4) + 1", 0..8, Problem::TupleInside);
    assert_problem("[t = (d6, d4)] t", 5..13, Problem::TupleInside);
    assert_problem("max((d6, d4), 2)", 4..12, Problem::TupleInside);
    assert_problem(
        "(d6, d4) as {..3: low, 4..: high}",
        0..8,
        Problem::TupleInside,
    );
    assert_problem(
        "(1, 2, 3, 4, 5, 6, 7)",
        0..21,
        Problem::TupleSize { max: 6 },
    );
}

#[test]
fn functions_that_recurse_or_do_not_fit_are_refused_where_written() {
    assert_problem(
        "[boom(x) = x == 6 ? 6 + boom(d6) : x] boom(d6)",
        24..28,
        Problem::CallsItself {
            name: "boom".into(),
        },
    );
    assert_problem(
        "[r = d20] [f(x) = x + r] f(d6)",
        22..23,
        Problem::FunctionSeesOnlyParameters {
            function: "f".into(),
            name: "r".into(),
        },
    );
    assert_problem(
        "[f(x, y) = x + y] f(d6)",
        18..23,
        Problem::FunctionArguments {
            function: "f".into(),
            parameters: 2,
            given: 1,
        },
    );
    assert_problem(
        "[f(x, x) = x] f(1, 2)",
        6..7,
        Problem::NameTaken { name: "x".into() },
    );
    assert_problem(
        "[max(x) = x] max(d6)",
        1..4,
        Problem::ReservedName {
            name: "max".into(),
            reads_as: "a function",
        },
    );
    // Calls of calls double at each level: written out, too large.
    let mut text = "[f0(x) = x + x".to_string();
    for i in 1..20 {
        text.push_str(&format!(", f{i}(x) = f{}(x) + f{}(x)", i - 1, i - 1));
    }
    text.push_str("] f19(d6)");
    let error = parse(&text).expect_err("too large");
    assert!(
        matches!(error.problem(), Some(Problem::FunctionsTooLarge { .. })),
        "{}",
        error.render(&text)
    );
    // A function is defined for the rest of its expression only.
    assert_problem(
        "([f(x) = x] f(1)) + f(2)",
        20..21,
        Problem::UnknownFunction { name: "f".into() },
    );
}
