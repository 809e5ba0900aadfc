"""Every use case from Python: the report is the command line's --json document,
with exact values typed. Use cases the API does not offer yet are skipped, named."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import REPO, run_cli

import fairdice


def needs(name: str) -> None:
    if name not in fairdice.use_cases():
        pytest.skip(f"fairdice-api has no `{name}` use case in this build")


def test_reports_are_the_command_lines_json(cli):
    cases = [
        (fairdice.run("dist", {"expression": "4d6kh3"}), ["dist", "4d6kh3", "--json"]),
        (fairdice.roll("4d6kh3+2", 3, seed=9), ["roll", "4d6kh3+2", "--times", "3", "--seed", "9", "--json"]),
        (fairdice.prd(0.25), ["prd", "0.25", "--json"]),
        (fairdice.sample("tgm2", 12, seed=4), ["sample", "tgm2", "--count", "12", "--seed", "4", "--json"]),
    ]
    for report, args in cases:
        assert report.document == json.loads(run_cli(cli, *args)), args


def test_rolls_repeat_with_their_seed():
    report = fairdice.roll("4d6kh3", 5)
    assert isinstance(report.seed, int)
    again = fairdice.roll("4d6kh3", 5, seed=report.seed)
    assert again.values == report.values
    assert all(3 <= v <= 18 for v in report.values)
    die = report.rolls[0]["terms"][0]["dice"]
    assert len(die) == 4 and sum(x["counted"] for x in die) == 3


def test_prd_and_next():
    assert fairdice.prd(0.25).c == pytest.approx(0.084744091852317, abs=1e-12)
    saved = fairdice.sample("deck(values=3)", 2, seed=1, save=True).session
    after = fairdice.next_distribution(session=saved)
    assert sorted(after.probabilities.values()) == [0.0, 0.0, 1.0]
    state = fairdice.run("state", {"session": saved})
    assert state["draws"] == 2


def test_dist_report_and_its_die():
    report = fairdice.run("dist", {"expression": "3d6"})
    assert isinstance(report, fairdice.DistReport)
    assert report.die == fairdice.dist("3d6")
    assert report.total == "216" and report.mean_exact == "21/2"
    assert "<svg" in report.chart_svg()


def test_contest():
    needs("contest")
    report = fairdice.contest("5d6", "4d6+1d8", ties="a-wins")
    assert report.p_a_wins == Fraction(1392509, 2239488)
    assert report.p_tie == 0 and report.p_a_wins + report.p_b_wins == 1
    assert report.net.total == report.total
    assert round(report.win_bias, 2) == 24.36
    estimate = fairdice.contest("5d6", "5d6", runs=2000, seed=3)
    assert not estimate.exact and estimate.document["runs"] == 2000


def test_risk():
    needs("risk")
    assert fairdice.risk(2, 1).p_attacker_wins == Fraction(1955, 2592)
    one_roll = fairdice.risk(3, 2, per_roll=True).per_roll
    three_two = next(t for t in one_roll if (t["attacker_dice"], t["defender_dice"]) == (3, 2))
    counts = sorted(int(o["count"]) for o in three_two["outcomes"])
    assert counts == [2275, 2611, 2890] and three_two["total"] == "7776"
    floating = fairdice.risk(30, 30, float=True)
    assert not floating.exact and 0 < floating.p_attacker_wins < 1


def test_analyze():
    needs("analyze")
    report = fairdice.analyze("dice(values=6)", 10, exact=True)
    # Plain dice: E[outcome variance] = T·(1/n)·(1 − 1/n).
    assert report.outcome_variance == pytest.approx(10 * (1 / 6) * (5 / 6), rel=1e-9)
    assert report.mean_entropy == pytest.approx(1.0, rel=1e-9)


def test_droughts():
    needs("droughts")
    report = fairdice.droughts("deck(values=3)", 9, exact=True)
    assert report.document == fairdice.run("droughts", {"spec": "deck(values=3)", "samples": 9, "exact": True}).document


def test_tune(cli):
    needs("tune")
    report = fairdice.tune(6, samples=25, min_entropy=0.9)
    printed = json.loads(run_cli(cli, "tune", "--values", "6", "--samples", "25", "--min-entropy", "0.9", "--json"))
    assert report.document == printed
    assert "0.355" in json.dumps(report.document)
    assert report.chart_svg().startswith("<svg")


def test_tune_by_either_measure_of_fairness(cli):
    needs("tune")
    args = ("tune", "--base", "2d4", "--samples", "12", "--systems", "fair,dynamic")
    for fairness, fairest in ((None, "fair"), ("outcome_variance", "dynamic")):
        report = fairdice.tune(None, base="2d4", samples=12, systems=("fair", "dynamic"), fairness=fairness)
        extra = ("--fairness", fairness) if fairness else ()
        assert report.document == json.loads(run_cli(cli, *args, *extra, "--json"))
        assert report.document["fairness"] == (fairness or "base_deviation")
        assert report.document["fairest"] == fairest


def test_tune_a_machines_parameter(cli):
    needs("tune")
    path = REPO / "docs" / "machines" / "aim-assist.json"
    report = fairdice.tune(machine=path.read_text(), samples=20)
    printed = json.loads(run_cli(cli, "tune", "--grid", f"@{path}", "--samples", "20", "--json"))
    assert report.document == printed
    assert report.document["machine"] == "aim assist"
    assert report.document["baseline"] == "as written"
    assert report.document["systems"][0]["params"] == {"boost": 0.2}


def test_reports_draw_their_charts():
    needs("contest")
    for report in (
        fairdice.contest("3d6", "2d6"),
        fairdice.risk(5, 5, table=4),
        fairdice.analyze("deck(values=4)", 8),
    ):
        svg = report.chart_svg()
        assert svg.startswith("<svg") and svg in report._repr_html_()
    # Every chart the web app draws, by name: the battle's heat map too.
    battle = fairdice.risk(5, 5, table=4).charts()
    assert list(battle) == ["survivors", "heat_map"]
    assert battle["heat_map"] in fairdice.risk(5, 5, table=4)._repr_html_()
    assert list(fairdice.goal("dice(base=d6)", [6]).charts()) == ["attempts"]
    assert fairdice.prd(0.25).chart_svg() is None and fairdice.prd(0.25).charts() == {}


def test_a_report_shows_itself_in_a_notebook():
    report = fairdice.prd(0.25)
    html = report._repr_html_()
    assert "<table" in html and "expected_attempts" in html


def test_seats_are_the_command_lines_json(cli, tmp_path):
    needs("seats")
    game = {"name": "sixes and eights", "players": ["six", "eight"], "turns": True,
            "payoffs": {"6": [1, 0], "8": [0, 2]}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    report = fairdice.seats(game, "dice(base=2d6)", 20)
    assert isinstance(report, fairdice.SeatsReport)
    printed = run_cli(cli, "seats", str(path), "--randomizer", "dice(base=2d6)", "--samples", "20", "--json")
    assert report.document == json.loads(printed)
    six = report.all_rolls["players"][0]
    assert six["expected_by_roll"][-1] == pytest.approx(20 * 5 / 36)
    assert report.own_turns["scope"] == "own_turns"
    assert "<svg" in report.chart_svg()
    deck = "deck(base=2d6, copies=1, refill_below=6, refill=reshuffle)"
    estimate = fairdice.seats(json.dumps(game), deck, 30, runs=3000, seed=5, shares=[0.5], droughts=False)
    printed = run_cli(cli, "seats", str(path), "--randomizer", deck, "--samples", "30", "--runs", "3000",
                      "--seed", "5", "--shares", "0.5", "--no-droughts", "--json")
    assert estimate.document == json.loads(printed)
    with pytest.raises(fairdice.InvalidInputError, match="outcome 13 in the payoffs"):
        fairdice.seats({"players": ["a"], "payoffs": {"13": [1]}}, "dice(base=2d6)", 10)


MOVE = "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}"


def test_labels_travel_with_the_die_and_the_rolls():
    die = fairdice.dist(MOVE)
    assert die.labels == {0: "miss", 1: "weak hit", 2: "strong hit"}
    assert dict(die) == {0: 10, 1: 16, 2: 10}
    assert fairdice.dist("3d6").labels is None
    assert ">weak hit</text>" in die.chart_svg()
    rolls = fairdice.roll(MOVE, 30, seed=5)
    sums = [roll["terms"][0]["value"] + 1 for roll in rolls["rolls"]]
    expected = ["miss" if s <= 6 else "weak hit" if s <= 9 else "strong hit" for s in sums]
    assert rolls.labels == expected
    assert fairdice.roll("3d6", seed=1).labels is None
    with pytest.raises(fairdice.InvalidInputError, match="the outcome 7 has no label"):
        fairdice.dist("2d6 as {..6: miss, 8..: hit}")


def test_a_tuple_is_a_report_of_joint_outcomes():
    text = "[p = 3d6] (count(p, 5, 6), count(p, 1))"
    report = fairdice.run("dist", {"expression": text})
    joint: dict[tuple[int, int], int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                roll = (a, b, c)
                key = (sum(x >= 5 for x in roll), sum(x == 1 for x in roll))
                joint[key] = joint.get(key, 0) + 1
    assert report.tuples == joint
    assert [v["expression"] for v in report["values"]] == ["count(p, 5, 6)", "count(p, 1)"]
    assert fairdice.run("dist", {"expression": "3d6"}).tuples is None
    with pytest.raises(fairdice.InvalidInputError, match="gives a tuple"):
        fairdice.dist(text)
    with pytest.raises(TypeError, match="gives a tuple"):
        report.die


def test_another_tools_reading_is_a_warning_and_a_field():
    with pytest.warns(UserWarning, match=r"read `2d6>=8` as how many dice of `2d6` show 8 or more"):
        die = fairdice.dist("2d6>=8")
    assert dict(die) == {0: 21, 1: 15}
    report = fairdice.run("dist", {"expression": "d6!=3"})
    assert [r["spelling"] for r in report["other_readings"]] == ["d6!3"]
    assert "other_readings" not in fairdice.run("dist", {"expression": "2d6 >= 8"})


def test_a_dialect_reads_the_string_as_its_tool_does():
    # Roll20's `3d6>3` counts the dice showing 3 or more: C(3,k)·4^k·2^(3-k).
    die = fairdice.dist("3d6>3", dialect="roll20")
    assert dict(die) == {0: 8, 1: 48, 2: 96, 3: 64}
    assert die.expression == "3d6cs>=3"
    report = fairdice.run("dist", {"expression": "10d10cf<3", "dialect": "rpg-dice-roller"})
    assert report["expression"] == "10d10"
    assert report["dialect"]["changes"][0]["written"] == "cf<3"
    rolls = fairdice.roll("1d20r1", seed=3, dialect="foundry")
    assert rolls.expression == "1d20ro1"
    with pytest.raises(fairdice.ParseError, match="Roll20 divides exactly"):
        fairdice.dist("d20/2", dialect="roll20")
    with pytest.raises(ValueError, match="the dialects are fairdice, roll20"):
        fairdice.dist("d6", dialect="roll21")
    labelled = fairdice.contest("3d6 [attack]", "2d6", dialect="roll20")
    assert labelled.p_a_wins == fairdice.contest("3d6", "2d6").p_a_wins
