"""fairdice against icepool 2.2.2 on a few hundred random expressions of the
common notation (NdX, constants, + - *, keep/drop highest/lowest, comparisons):
every probability must be equal as a Fraction.

icepool needs Python 3.12; scripts/test-python.sh runs this file in a Python 3.12
environment with icepool installed. Elsewhere it is skipped, saying why.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction

import pytest

import fairdice

icepool = pytest.importorskip(
    "icepool",
    reason=f"icepool 2.2.2 is not installed in this Python {sys.version_info.major}.{sys.version_info.minor} "
    "(it needs 3.12; scripts/test-python.sh makes a 3.12 environment with it)",
)

EXPRESSIONS = 300
SIDES = [2, 3, 4, 6, 8, 10, 12, 20]


def dice_term(rng: random.Random) -> tuple[str, str]:
    """One dice term in fairdice notation and in icepool."""
    sides = rng.choice(SIDES)
    n = rng.randint(1, 5)
    kind = rng.choice(["sum", "sum", "single", "kh", "kl", "dh", "dl"])
    if kind == "single":
        return f"d{sides}", f"d({sides})"
    if kind == "sum" or n == 1:
        return f"{n}d{sides}", f"({n} @ d({sides}))"
    if kind in ("kh", "kl"):
        keep = rng.randint(1, n)
        method = "highest" if kind == "kh" else "lowest"
        return f"{n}d{sides}{kind}{keep}", f"d({sides}).{method}({n}, {keep})"
    dropped = rng.randint(1, n - 1)
    method = "lowest" if kind == "dh" else "highest"  # drop highest = keep lowest
    return f"{n}d{sides}{kind}{dropped}", f"d({sides}).{method}({n}, {n - dropped})"


def term(rng: random.Random) -> tuple[str, str]:
    roll = rng.random()
    if roll < 0.15:
        c = rng.randint(1, 6)
        return str(c), str(c)
    if roll < 0.25:
        c = rng.randint(2, 3)
        text, code = dice_term(rng)
        return f"{c}*{text}", f"({c} * {code})"
    return dice_term(rng)


def expression(rng: random.Random) -> tuple[str, str]:
    text, code = dice_term(rng)
    for _ in range(rng.randint(0, 2)):
        op = rng.choice(["+", "-"])
        t, c = term(rng)
        text, code = f"{text} {op} {t}", f"({code} {op} {c})"
    if rng.random() < 0.3:
        op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if rng.random() < 0.5:
            t, c = dice_term(rng)
        else:
            value = rng.randint(1, 15)
            t, c = str(value), str(value)
        text, code = f"{text} {op} {t}", f"({code} {op} {c})"
    return text, code


def icepool_probabilities(code: str) -> dict[int, Fraction]:
    die = eval(code, {"d": icepool.d, "icepool": icepool})
    denominator = die.denominator()
    return {int(o): Fraction(q, denominator) for o, q in die.items() if q}


def test_every_probability_equals_icepools():
    rng = random.Random(20261125)
    checked = set()
    while len(checked) < EXPRESSIONS:
        text, code = expression(rng)
        if text in checked:
            continue
        checked.add(text)
        ours = fairdice.dist(text).to_dict(probabilities=True)
        assert ours == icepool_probabilities(code), f"{text}  (icepool: {code})"


def test_the_generator_covers_the_notation():
    rng = random.Random(20261125)
    texts = " ".join(expression(rng)[0] for _ in range(EXPRESSIONS))
    for token in ["kh", "kl", "dh", "dl", "+", " - ", "*", ">=", "<", "==", "!="]:
        assert token in texts, token


def test_converted_dice_are_icepools():
    for text, code in [("4d6kh3", "d(6).highest(4, 3)"), ("2d20kl1 + 5", "d(20).lowest(2, 1) + 5")]:
        assert fairdice.dist(text).to_icepool() == eval(code, {"d": icepool.d})


DEALS = 120


def deal_question(rng: random.Random) -> tuple[str, str]:
    """A question over one hand dealt from a random small deck, in fairdice's
    notation and as icepool's Deck, deal and multiset evaluators."""
    low = rng.randint(-2, 3)
    copies = {low + i: rng.randint(1, 4) for i in range(rng.randint(2, 7))}
    size = sum(copies.values())
    hand = rng.randint(1, min(size, 8))
    deck = ", ".join(f"{v}:{c}" for v, c in copies.items())
    dealt = f"deal(deck{{{deck}}}, {hand})"
    held = f"icepool.Deck({copies!r}).deal({hand})"
    listed = sorted(rng.sample(sorted(copies), rng.randint(1, len(copies))))
    kind = rng.choice(["largest", "pairs", "straight", "count", "sum", "height"])
    text, code = {
        "largest": (f"largest_set({dealt})", f"{held}.largest_count()"),
        "pairs": (f"sets({dealt}, 2)", f"{held}.keep_counts('>=', 2).unique().size()"),
        "straight": (f"longest_straight({dealt})", f"{held}.largest_straight()"),
        "count": (
            f"count({dealt}, {', '.join(map(str, listed))})",
            f"{held}.keep_outcomes({listed!r}).size()",
        ),
        "sum": (dealt, f"{held}.sum()"),
        "height": (f"height({dealt})", f"{held}.largest_count_and_outcome().marginals[1]"),
    }[kind]
    if rng.random() < 0.3:
        value = rng.randint(0, 4)
        text, code = f"{text} >= {value}", f"({code} >= {value})"
    return text, code


def test_every_deal_probability_equals_icepools():
    rng = random.Random(20261128)
    checked = set()
    while len(checked) < DEALS:
        text, code = deal_question(rng)
        if text in checked:
            continue
        checked.add(text)
        ours = fairdice.dist(text).to_dict(probabilities=True)
        assert ours == icepool_probabilities(code), f"{text}  (icepool: {code})"


SEVERAL_HANDS = 60


class _Hands(icepool.MultisetEvaluator):
    """Each hand's largest count, its count of the listed values and its sum, read
    from icepool's deal of several hands (a tuple of counts at each value)."""

    def __init__(self, listed: frozenset[int]) -> None:
        self.listed = listed

    def initial_state(self, order, outcomes, *sizes):  # type: ignore[no-untyped-def]
        return None

    def next_state(self, state, order, outcome, counts):  # type: ignore[no-untyped-def]
        if state is None:
            state = tuple((0, 0, 0) for _ in counts)
        return tuple(
            (max(largest, c), listed + (c if outcome in self.listed else 0), total + c * outcome)
            for (largest, listed, total), c in zip(state, counts)
        )

    def final_outcome(self, state, order, outcomes, *sizes):  # type: ignore[no-untyped-def]
        return state

    def next_state_key(self):  # type: ignore[no-untyped-def]
        return (type(self), self.listed)


def several_hands(rng: random.Random) -> tuple[str, dict[int, Fraction]]:
    """A question over two or three hands of one shuffle, in fairdice's notation,
    and icepool's answer to it."""
    low = rng.randint(-1, 2)
    copies = {low + i: rng.randint(1, 3) for i in range(rng.randint(2, 5))}
    size = sum(copies.values())
    hands = [rng.randint(0, 3) for _ in range(rng.randint(2, 3))]
    while sum(hands) > size:
        hands[hands.index(max(hands))] -= 1
    listed = rng.choice(sorted(copies))
    names = "abc"[: len(hands)]
    reads = [rng.choice(["largest", "count", "sum"]) for _ in hands]
    weights = [rng.choice([-2, -1, 1, 2, 10]) for _ in hands]
    spelled = {"largest": "largest_set({})", "count": f"count({{}}, {listed})", "sum": "{}"}
    terms = " + ".join(f"{w} * {spelled[r].format(n)}" for w, r, n in zip(weights, reads, names))
    deck = ", ".join(f"{v}:{c}" for v, c in copies.items())
    sizes = ", ".join(map(str, hands))
    text = f"[{', '.join(names)} = deal(deck{{{deck}}}, {sizes})] {terms}"
    index = {"largest": 0, "count": 1, "sum": 2}
    die = _Hands(frozenset([listed])).evaluate(icepool.Deck(copies).deal(tuple(hands)))

    def value(state):  # type: ignore[no-untyped-def]
        return sum(w * state[i][index[r]] for i, (w, r) in enumerate(zip(weights, reads)))

    return text, _chances(die, value)


def _chances(die, value) -> dict[int, Fraction]:  # type: ignore[no-untyped-def]
    """The chance of each value icepool's ``die`` of states gives through ``value``."""
    theirs: dict[int, Fraction] = {}
    for state, quantity in die.items():
        v = value(state)
        theirs[v] = theirs.get(v, Fraction(0)) + Fraction(quantity, die.denominator())
    return {v: p for v, p in sorted(theirs.items()) if p}


def _agree(seed: int, questions: int, question) -> None:  # type: ignore[no-untyped-def]
    """``questions`` different questions drawn by ``question``, each answered by
    fairdice exactly as icepool answers it."""
    rng = random.Random(seed)
    checked = set()
    while len(checked) < questions:
        text, theirs = question(rng)
        if text in checked:
            continue
        checked.add(text)
        assert fairdice.dist(text).to_dict(probabilities=True) == theirs, text


def test_several_hands_of_one_shuffle_equal_icepools():
    _agree(20261129, SEVERAL_HANDS, several_hands)


CARDS_OF_TWO_VALUES = 40


class _Hand(icepool.MultisetEvaluator):
    """The cards of one hand, each with its copies held, as icepool deals them."""

    def initial_state(self, order, outcomes, *sizes):  # type: ignore[no-untyped-def]
        return ()

    def next_state(self, state, order, outcome, count):  # type: ignore[no-untyped-def]
        return state + ((tuple(outcome), count),) if count else state

    def final_outcome(self, state, order, outcomes, *sizes):  # type: ignore[no-untyped-def]
        return state

    def next_state_key(self):  # type: ignore[no-untyped-def]
        return type(self)


def _largest(values: list[int]) -> int:
    return max((values.count(v) for v in values), default=0)


def _straight(values: list[int]) -> int:
    held, best = set(values), 0
    for v in held:
        if v - 1 not in held:
            run = 1
            while v + run in held:
                run += 1
            best = max(best, run)
    return best


def cards_of_two_values(rng: random.Random) -> tuple[str, dict[int, Fraction]]:
    """A question over the ranks and the suits of one hand of (rank, suit) cards,
    in fairdice's notation, and icepool's answer to it from its deal of the same
    cards."""
    ranks = range(rng.randint(0, 2), rng.randint(3, 6))
    suits = range(1, rng.randint(2, 4))
    copies = {(r, s): rng.randint(1, 2) for r in ranks for s in suits if rng.random() < 0.8}
    if not copies:
        copies = {(ranks[0], 1): 1}
    size = rng.randint(1, min(5, sum(copies.values())))
    listed = rng.choice(list(ranks))
    reads = rng.sample(["largest_set(s)", "longest_straight(r)", f"count(r, {listed})", "sets(s, 2)", "r", "s"], 3)
    weights = [1, 10, 100]
    compute = {
        "largest_set(s)": lambda r, s: _largest(s),
        "longest_straight(r)": lambda r, s: _straight(r),
        f"count(r, {listed})": lambda r, s: r.count(listed),
        "sets(s, 2)": lambda r, s: len({v for v in s if s.count(v) >= 2}),
        "r": lambda r, s: sum(r),
        "s": lambda r, s: sum(s),
    }
    deck = ", ".join(f"({r}, {s}):{c}" for (r, s), c in copies.items())
    terms = " + ".join(f"{w} * {read}" for w, read in zip(weights, reads))
    text = f"[(r, s) = deal(deck{{{deck}}}, {size})] {terms}"
    # icepool's deal of the cards as tuples; each hand read back card by card.
    die = _Hand().evaluate(icepool.Deck(copies).deal(size))

    def value(hand):  # type: ignore[no-untyped-def]
        cards = [card for card, count in hand for _ in range(count)]
        r_values, s_values = [c[0] for c in cards], [c[1] for c in cards]
        return sum(w * compute[read](r_values, s_values) for w, read in zip(weights, reads))

    return text, _chances(die, value)


def test_cards_of_two_values_equal_icepools():
    _agree(20261130, CARDS_OF_TWO_VALUES, cards_of_two_values)
