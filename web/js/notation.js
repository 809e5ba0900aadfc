// The notation at a glance, as the Dice page's help shows it. Generated from the
// engine's list of forms (crates/fairdice/src/dice/notation/help.rs), which the
// command line's --help shows too; a test checks it. Do not edit: after changing
// the list, run FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-cli --test command -- generated
export const FORMS = [
  {
    "examples": [
      "3d6",
      "d20",
      "d%",
      "dF",
      "d{1,1,2,3}",
      "d{1..4,6}"
    ],
    "meaning": "dice: standard, percentile, Fudge, custom faces"
  },
  {
    "examples": [
      "(d4)d6",
      "3d(d6)"
    ],
    "meaning": "a rolled number of dice (roll d4, then that many d6); rolled sides"
  },
  {
    "examples": [
      "d20+5",
      "2d6*2",
      "d20/3",
      "d20%5",
      "-d6",
      "(d6+1)*2"
    ],
    "meaning": "arithmetic between independent rolls; `/` rounds down, `%` is the remainder"
  },
  {
    "examples": [
      "d20+5 >= 15",
      "d6 != d6",
      "d20 > 10 and d20 > 10",
      "not d6 == 1"
    ],
    "meaning": "comparisons and logic give 1 (true) or 0 (false): `d20+5 >= 15` is the chance to hit"
  },
  {
    "examples": [
      "[r = d20] r == 20 ? 4d6+3 : 2d6"
    ],
    "meaning": "a name is one roll used again; `c ? a : b` takes `a` where `c` is true"
  },
  {
    "examples": [
      "max(d8, d6)",
      "min(d20, d20)",
      "abs(d6-d6)"
    ],
    "meaning": "functions of whole rolls"
  },
  {
    "examples": [
      "4d6kh3",
      "4d6k3",
      "2d20kl",
      "4d6dl1",
      "5d6dh2"
    ],
    "meaning": "keep or drop the highest or lowest dice (the number defaults to 1)"
  },
  {
    "examples": [
      "{d8!, d6!}kh1",
      "6#(4d6kh3)kh1"
    ],
    "meaning": "groups and repetitions are pools: keep, drop and count act on their members"
  },
  {
    "examples": [
      "d6!",
      "d10!>=9",
      "5d10x"
    ],
    "meaning": "explode on the top face (or a condition): each extra roll is a new die"
  },
  {
    "examples": [
      "d6!!",
      "d6!p",
      "6d10xo",
      "6d10x5=10"
    ],
    "meaning": "explode compounding (one die), penetrating (each extra roll less 1), once, or at most 5 extra rolls a term"
  },
  {
    "examples": [
      "2d6r1",
      "d20rr<3",
      "2d6ro1"
    ],
    "meaning": "reroll until the die no longer matches; `ro` rerolls once"
  },
  {
    "examples": [
      "4d10min2",
      "4d10max8"
    ],
    "meaning": "clamp each roll to at least 2, at most 8"
  },
  {
    "examples": [
      "d6!r1",
      "4d6!ro1kh3"
    ],
    "meaning": "a reroll written after an explosion rolls each die it made again, without exploding"
  },
  {
    "examples": [
      "4d6u",
      "5d10uo",
      "8d6u=6",
      "4d6ukh3"
    ],
    "meaning": "unique dice: a die showing what an earlier one shows is rolled again until it differs (`u`), or once (`uo`); with a condition, only such repeats"
  },
  {
    "examples": [
      "10d10cs>=8",
      "10d10cs>=8df=1",
      "10d20cf<3"
    ],
    "meaning": "count successes (minus failures), or failures"
  },
  {
    "examples": [
      "3d6even",
      "3d6odd"
    ],
    "meaning": "count the even or the odd dice"
  },
  {
    "examples": [
      "largest_set(5d6)",
      "sets(10d10, 2)",
      "longest_straight(5d6)",
      "height(10d10)",
      "count(12d6, 5, 6)"
    ],
    "meaning": "what a pool's dice show together: the largest matching set, faces shown at least twice, the longest run, the face of the largest set (the tallest among equals: the One-Roll Engine's height), dice showing 5 or 6"
  },
  {
    "examples": [
      "[h = 5d6] sets(h, 2) == 2 and largest_set(h) == 3"
    ],
    "meaning": "a named pool is one roll that several functions read (a full house)"
  },
  {
    "examples": [
      "floor(d20 / 3)",
      "ceil(d20 / 3)",
      "round(d20 / 3)",
      "floor(sqrt(d100))"
    ],
    "meaning": "a division or a square root rounded down, up or to the nearest (`sqrt` is written inside one of them: outcomes are integers)"
  },
  {
    "examples": [
      "count(deal(deck{1..13:4}, 5), 1)",
      "largest_set(deal(deck{1..4:13}, 5)) == 5"
    ],
    "meaning": "cards: a hand dealt without replacement from a deck (each value, then `:` its copies), read by the same functions (aces in a poker hand, a flush)"
  },
  {
    "examples": [
      "[a, b = deal(deck{1:13, 0:39}, 5, 5)] count(a, 1) > count(b, 1)"
    ],
    "meaning": "several hands from one shuffle, one name each (more hearts than the other player)"
  },
  {
    "examples": [
      "[(rank, suit) = deal(deck{(1..13, 1..4)}, 5)] largest_set(suit) == 5 and longest_straight(rank) == 5"
    ],
    "meaning": "cards of several values: `(1..13, 1..4)` is every card of a rank and a suit, a name each value of the hand (a straight flush)"
  },
  {
    "examples": [
      "[crit(x) = x == 20 ? 2 : x >= 15] crit(d20) + crit(d20)"
    ],
    "meaning": "a function: a binding with parameters; each call rolls its arguments afresh (AnyDice's `function:`; no recursion)"
  },
  {
    "examples": [
      "[p = 12d6] (count(p, 5, 6), count(p, 1))"
    ],
    "meaning": "a tuple: several results of one roll and their joint chances (the whole expression, written last)"
  },
  {
    "examples": [
      "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}"
    ],
    "meaning": "labels: each range of outcomes shown by a name, in the table and the chart; every outcome needs one"
  }
];
