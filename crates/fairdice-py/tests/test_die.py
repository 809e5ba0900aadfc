"""The Die type: exact counts, Fraction probabilities, statistics, the mapping
protocol, arithmetic and comparisons, each checked against brute-force
enumeration or the notation."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from fractions import Fraction

import pytest
from conftest import enumerate_rolls

import fairdice
from fairdice import Die, d, dist

D6 = range(1, 7)


def test_4d6kh3_is_exact_with_int_counts_and_fraction_probabilities():
    stat = dist("4d6kh3")
    expected = enumerate_rolls([D6] * 4, lambda r: sum(sorted(r)[1:]))
    assert stat.to_dict() == expected
    assert stat.total == 1296 and isinstance(stat.total, int)
    assert all(type(c) is int for c in stat.counts())
    assert stat.mean() == Fraction(15869, 1296)
    assert stat.probability(18) == Fraction(21, 1296)
    assert all(isinstance(p, Fraction) for p in stat.probabilities())
    assert sum(stat.probabilities()) == 1
    assert stat.expression == "4d6kh3" and stat.exact


def test_big_counts_are_exact_python_ints():
    hundred = dist("100d6")
    assert hundred.total == 6**100
    assert hundred[100] == 1 and hundred[600] == 1
    assert hundred[101] == 100
    assert sum(hundred.values()) == 6**100
    assert hundred.mean() == 350
    assert hundred.variance() == Fraction(100 * 35, 12)


def test_statistics_match_their_definitions():
    two = dist("2d6")
    outcomes, probabilities = two.outcomes(), two.probabilities()
    mean = sum(o * p for o, p in zip(outcomes, probabilities))
    assert two.mean() == mean == 7
    variance = sum((o - mean) ** 2 * p for o, p in zip(outcomes, probabilities))
    assert two.variance() == variance == Fraction(35, 6)
    assert two.sd() == pytest.approx(float(variance) ** 0.5)
    assert two.standard_deviation() == two.sd()
    assert two.at_least(10) == Fraction(6, 36)
    assert two.at_most(4) == Fraction(6, 36)
    assert two.at_least(13) == 0 and two.at_most(1) == 0 and two.at_least(2) == 1
    assert two.median() == 7 and two.mode() == [7]
    # Quantiles compare exactly: P(X <= 4) is exactly 1/6.
    assert two.quantile(Fraction(1, 6)) == 4
    assert two.quantile(Fraction(1, 6) + Fraction(1, 10**30)) == 5
    assert two.quantile(0) == 2 and two.quantile(1) == 12
    with pytest.raises(ValueError):
        two.quantile(1.5)
    assert two.min_outcome() == 2 and two.max_outcome() == 12


def test_a_die_is_a_read_only_mapping_of_outcome_to_count():
    die = Die({1: 1, 2: 2, 4: 3})
    assert isinstance(die, Mapping)
    assert len(die) == 3 and list(die) == [1, 2, 4]
    assert dict(die) == {1: 1, 2: 2, 4: 3}
    assert die[4] == 3 and die.get(3) is None and die.get(3, 0) == 0
    assert 2 in die and 3 not in die and "x" not in die
    with pytest.raises(KeyError):
        die[3]
    assert die.items() == [(1, 1), (2, 2), (4, 3)]
    assert die.count(3) == 0
    assert die.to_dict(probabilities=True) == {1: Fraction(1, 6), 2: Fraction(1, 3), 4: Fraction(1, 2)}
    assert Die([1, 1, 2, 3]).to_dict() == {1: 2, 2: 1, 3: 1}
    assert d(6).to_dict() == {i: 1 for i in D6}


def test_bad_dice_are_refused_with_clear_errors():
    with pytest.raises(fairdice.InvalidInputError, match="at least one outcome"):
        Die({})
    with pytest.raises(ValueError, match="at least 0"):
        Die({1: -1})
    with pytest.raises(TypeError, match="an outcome must be an int"):
        Die({1.5: 1})
    with pytest.raises(TypeError):
        Die(3)
    with pytest.raises(fairdice.InvalidInputError):
        d(0)


def test_arithmetic_between_dice_matches_enumeration():
    d6, d4 = d(6), d(4)
    cases = [
        (d6 + d4, lambda r: r[0] + r[1]),
        (d6 - d4, lambda r: r[0] - r[1]),
        (d6 * d4, lambda r: r[0] * r[1]),
        (d6 // d4, lambda r: r[0] // r[1]),
        (d6.max(d4), lambda r: max(r)),
        (d6.min(d4), lambda r: min(r)),
        (d6 >= d4, lambda r: int(r[0] >= r[1])),
        (d6 < d4, lambda r: int(r[0] < r[1])),
    ]
    for die, combine in cases:
        assert die.to_dict() == enumerate_rolls([D6, range(1, 5)], combine)
    assert (d6 + 3).to_dict() == {o + 3: 1 for o in D6}
    assert (10 - d6).to_dict() == {10 - o: 1 for o in D6}
    assert (2 * d6).to_dict() == {2 * o: 1 for o in D6}
    assert (-d6).to_dict() == {-o: 1 for o in D6}
    assert abs(d6 - 4).to_dict() == enumerate_rolls([D6], lambda r: abs(r[0] - 4))
    assert (d6 + d6 + d6).equals(3 @ d6)
    assert (3 @ d6).to_dict() == dist("3d6").to_dict()


def test_comparisons_give_dice_of_zero_and_one_as_in_the_notation():
    hit = dist("d20") + 5 >= 15
    assert hit.equals(dist("d20+5 >= 15"))
    assert hit.probability(1) == Fraction(11, 20)
    # == and != answer a die, whose truth is whether the distributions are equal.
    same = dist("2d6") == d(6) + d(6)
    assert isinstance(same, Die) and bool(same)
    assert same.probability(1) == Fraction(146, 1296)
    assert not (d(6) == d(8))
    assert d(6) != d(8)
    assert d(6) == Die({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})  # equal probabilities
    assert hash(d(6)) == hash(Die({o: 5 for o in D6}))
    assert {d(6): "d6"}[dist("d6")] == "d6"
    with pytest.raises(TypeError, match="ambiguous"):
        bool(d(6))


def test_pools_rerolls_explosions_and_random_counts_match_the_notation():
    d6 = d(6)
    assert d6.highest(4, 3) == dist("4d6kh3")
    assert d6.lowest(2) == dist("2d6kl1")
    assert d(20).highest(2) == dist("2d20kh")
    assert d(4) @ d6 == dist("(d4)d6")
    assert d6.explode() == dist("d6!")
    assert d(10).explode([9, 10], depth=2) == dist("d10!>=9", explode_depth=2)
    assert d6.reroll([1]) == dist("d6r1")
    assert d6.reroll(lambda o: o < 3, once=True) == dist("d6ro<3")
    assert d6.map(lambda o: (o + 1) // 2).to_dict() == {1: 2, 2: 2, 3: 2}
    with pytest.raises(ValueError, match="cannot keep 5 of 4"):
        d6.highest(4, 5)
    with pytest.raises(fairdice.InvalidInputError, match="forever"):
        d6.reroll(D6)


def test_monte_carlo_estimates_say_so():
    estimate = dist("3d6", runs=20_000, seed=7)
    assert not estimate.exact
    assert estimate.total == 20_000
    assert estimate.estimate["runs"] == 20_000 and estimate.estimate["seed"] == 7
    assert abs(float(estimate.mean()) - 10.5) < 0.1
    assert dist("3d6", runs=20_000, seed=7) == estimate
    assert dist("3d6", runs=20_000, seed=8).to_dict() != estimate.to_dict()


def test_pickle_and_repr_round_trip():
    stat = dist("4d6kh3")
    back = pickle.loads(pickle.dumps(stat))
    assert back == stat and back.expression == "4d6kh3"
    assert eval(repr(d(6)), {"Die": Die}) == d(6)
    assert "4d6kh3" in repr(stat) and "1296" in repr(stat)


def test_icepool_conversion_is_optional():
    try:
        import icepool
    except ImportError:
        with pytest.raises(ImportError, match="pip install icepool"):
            d(6).to_icepool()
        return
    converted = dist("4d6kh3").to_icepool()
    assert converted == icepool.d6.highest(4, 3)
    assert Die.from_icepool(icepool.d6.highest(4, 3)) == dist("4d6kh3")
    assert Die(icepool.d(8) >= 5).to_dict() == {0: 4, 1: 4}
