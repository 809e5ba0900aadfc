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
    die = eval(code, {"d": icepool.d})
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
