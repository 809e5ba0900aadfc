"""Randomizers as seeded iterators: the same sequences as `fairdice sample`, and
sessions saved to and continued from JSON, in Python and on the command line."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import REPO, run_cli

import fairdice
from fairdice import Randomizer

SPECS = [
    "deck(values=6)",
    "deck(values=6, copies=2, refill_below=4)",
    "dynamic(values=6, decrease=0.355)",
    "fair(base=2d6, tightness=1)",
    "bag(min=1, max=4, sets=2)",
    "prd(p=0.25)",
    "tgm2",
    "tgm3",
    "dice(values=20)",
]



def family_examples() -> list[str]:
    """Each family's example spec, from the list generated from the engine's registry
    (web/js/families.js; a Rust test keeps it equal to the registry)."""
    text = (REPO / "web" / "js" / "families.js").read_text()
    families = json.loads(text.split("export const FAMILIES =", 1)[1].strip().rstrip(";"))
    return [family["example"] for family in families]


@pytest.mark.parametrize("spec", family_examples())
def test_every_family_draws_and_saves_as_the_command_line_does(cli, tmp_path, spec):
    printed = json.loads(run_cli(cli, "sample", spec, "--samples", "40", "--seed", "21", "--json"))
    randomizer = Randomizer(spec, seed=21)
    assert randomizer.take(25) == printed["samples"][:25]
    path = tmp_path / "game.json"
    run_cli(cli, "sample", spec, "--samples", "25", "--seed", "21", "--save", str(path))
    saved = randomizer.to_json()
    assert saved == path.read_text().rstrip("\n")
    assert Randomizer.from_json(saved).take(15) == printed["samples"][25:]


@pytest.mark.parametrize("spec", SPECS)
def test_the_same_seed_gives_the_command_lines_sequence(cli, spec):
    for seed in (1, 7, 2**40 + 3):
        drawn = list(itertools.islice(Randomizer(spec, seed=seed), 50))
        printed = json.loads(run_cli(cli, "sample", spec, "--count", "50", "--seed", str(seed), "--json"))
        assert drawn == printed["samples"], (spec, seed)


@pytest.mark.parametrize("spec", SPECS)
def test_the_sample_use_case_draws_the_same(spec):
    report = fairdice.sample(spec, 40, seed=11)
    assert Randomizer(spec, seed=11).take(40) == report.samples


def test_value_stability():
    # Pinned from `fairdice sample 'deck(values=6)' --count 12 --seed 7`.
    assert Randomizer("deck(values=6)", seed=7).take(12) == [1, 6, 3, 2, 4, 5, 6, 4, 3, 5, 2, 1]


@pytest.mark.parametrize("spec", SPECS)
def test_a_saved_session_continues_exactly(spec):
    whole = Randomizer(spec, seed=5).take(30)
    first = Randomizer(spec, seed=5)
    head = first.take(12)
    saved = first.to_json()
    resumed = Randomizer.from_json(saved)
    assert resumed.seed is None and resumed.draws == 12 and resumed.spec == first.spec
    assert resumed.state == first.state
    assert head + resumed.take(18) == whole
    # The copy draws what the original draws.
    copy = first.copy()
    assert copy.take(5) == first.take(5)


def test_a_python_session_continues_on_the_command_line_and_back(cli, tmp_path):
    spec = "deck(values=6, refill_below=2)"
    whole = Randomizer(spec, seed=3).take(20)
    first = Randomizer(spec, seed=3)
    first.take(8)
    path = tmp_path / "game.json"
    path.write_text(first.to_json())
    later = tmp_path / "later.json"
    printed = json.loads(run_cli(cli, "sample", "--resume", str(path), "--count", "6", "--json", "--save", str(later)))
    assert printed["samples"] == whole[8:14]
    assert Randomizer.from_json(later.read_text()).take(6) == whole[14:]


def test_a_changed_session_is_refused():
    saved = Randomizer("prd(p=0.25)", seed=1)
    saved.take(3)
    text = saved.to_json().replace('"draws": 3', '"draws": 4')
    with pytest.raises(fairdice.InvalidInputError, match="check"):
        Randomizer.from_json(text)
    with pytest.raises(fairdice.InvalidInputError):
        Randomizer.from_json("{}")


def test_named_outcomes_and_the_next_distribution():
    tetris = Randomizer("tgm2", seed=1)
    assert tetris.labels is not None and len(tetris.labels) == 7
    assert Randomizer("dice(values=6)").labels is None
    deck = Randomizer("deck(values=2)", seed=1)
    first = next(deck)
    assert deck.next_distribution() == {first: 0.0, 3 - first: 1.0}
    fair = fairdice.next_distribution("fair(base=2d6, tightness=1)", [2, 4, 7, 7])
    assert fair.probabilities[7] == pytest.approx(0.059646, abs=1e-6)
    assert sum(fair.probabilities.values()) == pytest.approx(1)


def test_a_seed_is_picked_and_shown_when_none_is_given():
    randomizer = Randomizer("dice(values=6)")
    assert isinstance(randomizer.seed, int)
    assert Randomizer("dice(values=6)", seed=randomizer.seed).take(20) == randomizer.take(20)


BANNER = "../../../docs/machines/banner.json"


def test_a_machine_goal_is_exact_and_equals_the_command_line(cli):
    from fractions import Fraction
    from pathlib import Path

    path = Path(__file__).parent / BANNER
    document = json.loads(path.read_text())
    report = fairdice.goal(document, ["featured"], budget=90)
    printed = json.loads(run_cli(cli, "goal", f"@{path}", "--until", "featured", "--budget", "90", "--json"))
    assert report.document == printed
    assert report.exact
    # One or two 5-stars, each 62.297 pulls on average: 1.5 times that.
    assert isinstance(report.mean, Fraction)
    assert abs(float(report.mean) - 1.5 * 62.2973) < 1e-3
    assert report.chance_within_budget == Fraction(printed["budget"]["chance_exact"])
    assert report.within[90] == printed["budget"]["chance"]
    assert report.percentiles[0.5] == 80


def test_goals_of_builtin_randomizers_and_their_refusals():
    pity = fairdice.goal("pity(p=0.006, soft=74, rise=0.06, cap=90)", ["hit"])
    assert round(pity.mean, 3) == 62.297  # the published figure, as a float
    collect = fairdice.goal("dice(base=2d6)", every=True)
    assert abs(collect.mean - 61.2174) < 1e-4
    with pytest.raises(fairdice.InvalidInputError):
        fairdice.goal("dice(values=6)", ["7"])
    with pytest.raises(fairdice.InvalidInputError):
        fairdice.goal({"layers": [{"name": "a", "draw": {"x": "1/2"}}]}, ["x"])


class DiceBag:
    """A game's own dice bag, as a JavaScript game writes one: the faces min..max,
    `sets` of each, drawn without replacement and refilled when empty."""

    def __init__(self, low: int, high: int, sets: int, seed: int) -> None:
        import random

        self.faces = [f for f in range(low, high + 1) for _ in range(sets)]
        self.bag: list[int] = []
        self.random = random.Random(seed)

    def roll(self) -> int:
        if not self.bag:
            self.bag = list(self.faces)
        return self.bag.pop(self.random.randrange(len(self.bag)))


def test_a_game_tests_its_dice_bag_with_an_audit(cli, tmp_path):
    bag = DiceBag(1, 6, 1, seed=3)
    rolls = [bag.roll() for _ in range(600)]
    # As its own bag, the log is likely and unremarkable.
    as_bag = fairdice.audit(rolls, "bag(min=1, max=6, sets=1)", runs=500)
    assert as_bag.log_likelihood > -600 * 1.8
    assert min(as_bag.p_values.values()) > 0.001
    # As plain dice, the counts are far too even: no simulated dice log is as even.
    as_dice = fairdice.audit(rolls, "dice(values=6)", runs=500)
    assert as_dice.p_values["fit"] == 2 / 501
    assert as_dice.ranking[0][0].startswith("deck(values=6, copies=1")
    # The same answer as the command line, from a file.
    path = tmp_path / "rolls.txt"
    path.write_text("\n".join(map(str, rolls)) + "\n")
    printed = json.loads(run_cli(cli, "audit", str(path), "--randomizer", "dice(values=6)", "--runs", "500", "--json"))
    assert as_dice.document == printed
    # A face the bag cannot give now is named.
    broken = fairdice.audit([1, 2, 3, 3], "bag(min=1, max=6, sets=1)", runs=0)
    assert broken.log_likelihood == float("-inf")
    assert broken.document["impossible"]["entry"] == 4
