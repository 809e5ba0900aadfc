//! The notation at a glance: every form of the language with examples and what it
//! means, the one list that the command line's `--help` and the web app's help
//! both show (the site's copy, `web/js/notation.js`, is generated from it and
//! checked against it by a test). The whole language is in docs/notation.md.
//!
//! A meaning is plain text; a span between backticks is notation. Every example
//! is a whole expression: a test parses and evaluates each one.

/// One form of the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Form {
    /// Expressions that use it, each complete.
    pub examples: &'static [&'static str],
    /// What it means, notation between backticks.
    pub meaning: &'static str,
}

const fn form(examples: &'static [&'static str], meaning: &'static str) -> Form {
    Form { examples, meaning }
}

/// Every form, in the order a reader meets them.
pub const FORMS: &[Form] = &[
    form(
        &["3d6", "d20", "d%", "dF", "d{1,1,2,3}", "d{1..4,6}"],
        "dice: standard, percentile, Fudge, custom faces",
    ),
    form(
        &["(d4)d6", "3d(d6)"],
        "a rolled number of dice (roll d4, then that many d6); rolled sides",
    ),
    form(
        &["d20+5", "2d6*2", "d20/3", "d20%5", "-d6", "(d6+1)*2"],
        "arithmetic between independent rolls; `/` rounds down, `%` is the remainder",
    ),
    form(
        &[
            "d20+5 >= 15",
            "d6 != d6",
            "d20 > 10 and d20 > 10",
            "not d6 == 1",
        ],
        "comparisons and logic give 1 (true) or 0 (false): `d20+5 >= 15` is the chance to hit",
    ),
    form(
        &["[r = d20] r == 20 ? 4d6+3 : 2d6"],
        "a name is one roll used again; `c ? a : b` takes `a` where `c` is true",
    ),
    form(
        &["max(d8, d6)", "min(d20, d20)", "abs(d6-d6)"],
        "functions of whole rolls",
    ),
    form(
        &["4d6kh3", "4d6k3", "2d20kl", "4d6dl1", "5d6dh2"],
        "keep or drop the highest or lowest dice (the number defaults to 1)",
    ),
    form(
        &["{d8!, d6!}kh1", "6#(4d6kh3)kh1"],
        "groups and repetitions are pools: keep, drop and count act on their members",
    ),
    form(
        &["d6!", "d10!>=9", "5d10x"],
        "explode on the top face (or a condition): each extra roll is a new die",
    ),
    form(
        &["d6!!", "d6!p", "6d10xo", "6d10x5=10"],
        "explode compounding (one die), penetrating (each extra roll less 1), once, or at most 5 extra rolls a term",
    ),
    form(
        &["2d6r1", "d20rr<3", "2d6ro1"],
        "reroll until the die no longer matches; `ro` rerolls once",
    ),
    form(
        &["4d10min2", "4d10max8"],
        "clamp each roll to at least 2, at most 8",
    ),
    form(
        &["d6!r1", "4d6!ro1kh3"],
        "a reroll written after an explosion rolls each die it made again, without exploding",
    ),
    form(
        &["4d6u", "5d10uo", "8d6u=6", "4d6ukh3"],
        "unique dice: a die showing what an earlier one shows is rolled again until it differs (`u`), or once (`uo`); with a condition, only such repeats",
    ),
    form(
        &["10d10cs>=8", "10d10cs>=8df=1", "10d20cf<3"],
        "count successes (minus failures), or failures",
    ),
    form(&["3d6even", "3d6odd"], "count the even or the odd dice"),
    form(
        &[
            "largest_set(5d6)",
            "sets(10d10, 2)",
            "longest_straight(5d6)",
            "height(10d10)",
            "count(12d6, 5, 6)",
        ],
        "what a pool's dice show together: the largest matching set, faces shown at least twice, the longest run, the face of the largest set (the tallest among equals: the One-Roll Engine's height), dice showing 5 or 6",
    ),
    form(
        &["[h = 5d6] sets(h, 2) == 2 and largest_set(h) == 3"],
        "a named pool is one roll that several functions read (a full house)",
    ),
    form(
        &[
            "floor(d20 / 3)",
            "ceil(d20 / 3)",
            "round(d20 / 3)",
            "floor(sqrt(d100))",
        ],
        "a division or a square root rounded down, up or to the nearest (`sqrt` is written inside one of them: outcomes are integers)",
    ),
    form(
        &[
            "count(deal(deck{1..13:4}, 5), 1)",
            "largest_set(deal(deck{1..4:13}, 5)) == 5",
        ],
        "cards: a hand dealt without replacement from a deck (each value, then `:` its copies), read by the same functions (aces in a poker hand, a flush)",
    ),
    form(
        &["[a, b = deal(deck{1:13, 0:39}, 5, 5)] count(a, 1) > count(b, 1)"],
        "several hands from one shuffle, one name each (more hearts than the other player)",
    ),
    form(
        &[
            "[(rank, suit) = deal(deck{(1..13, 1..4)}, 5)] largest_set(suit) == 5 and longest_straight(rank) == 5",
        ],
        "cards of several values: `(1..13, 1..4)` is every card of a rank and a suit, a name each value of the hand (a straight flush)",
    ),
    form(
        &["[crit(x) = x == 20 ? 2 : x >= 15] crit(d20) + crit(d20)"],
        "a function: a binding with parameters; each call rolls its arguments afresh (AnyDice's `function:`; no recursion)",
    ),
    form(
        &["[p = 12d6] (count(p, 5, 6), count(p, 1))"],
        "a tuple: several results of one roll and their joint chances (the whole expression, written last)",
    ),
    form(
        &["2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}"],
        "labels: each range of outcomes shown by a name, in the table and the chart; every outcome needs one",
    ),
];

/// The width the command line's help wraps meanings at.
const TEXT_WIDTH: usize = 92;

/// The forms as the command line's `--help` shows them: each form's examples on
/// a line, its meaning indented below, wrapped at word boundaries.
pub fn text() -> String {
    const INDENT: &str = "      ";
    let mut out = String::from("Dice notation (the whole language: docs/notation.md):\n");
    for form in FORMS {
        out.push_str("  ");
        out.push_str(&form.examples.join("   "));
        out.push('\n');
        // The meaning's words, a line at a time, each line as long as fits.
        let mut line = String::new();
        for word in form.meaning.split(' ') {
            if !line.is_empty() && INDENT.len() + line.len() + 1 + word.len() > TEXT_WIDTH {
                out.push_str(&format!("{INDENT}{line}\n"));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push_str(&format!("{INDENT}{line}\n"));
    }
    out.push_str("Several expressions are shown side by side: fairdice dist 3d6 4d6kh3");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::notation::evaluate;

    #[test]
    fn every_example_is_a_whole_expression_that_evaluates() {
        for form in FORMS {
            assert!(!form.examples.is_empty() && !form.meaning.is_empty());
            assert_eq!(form.meaning.matches('`').count() % 2, 0, "{}", form.meaning);
            for example in form.examples {
                if let Err(error) = evaluate(example) {
                    panic!("{example}: {error}");
                }
            }
        }
    }
}
