"""The reports of fairdice's use cases as Python objects.

A report *is* the JSON document the command line prints with ``--json`` and the
web API answers: :attr:`Report.document` holds it as parsed JSON, every key is
also an attribute (``report.win_bias``), and the typed classes below add exact
values (``Fraction``, ``int``, :class:`fairdice.Die`) where the document carries
them as strings. In a notebook a report shows itself as a table and its chart.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, ClassVar

from . import _html
from ._native import Die

__all__ = [
    "Report",
    "DistReport",
    "RollReport",
    "SampleReport",
    "NextReport",
    "PrdReport",
    "GoalReport",
    "AuditReport",
    "ContestReport",
    "RiskReport",
    "AnalysisReport",
    "DroughtsReport",
    "TuneReport",
    "SeatsReport",
    "exact_fraction",
]


def exact_fraction(text: str | None) -> Fraction | None:
    """A document's exact value (``"15869/1296"``, ``"0"``) as a ``Fraction``."""
    if text is None:
        return None
    return Fraction(text)


class Report:
    """A use case's report: its JSON document, attribute access to its keys, and a
    notebook view (a table, and the report's chart where it has one)."""

    use_case: ClassVar[str] = ""
    title: ClassVar[str] = "report"

    def __init__(self, document: dict[str, Any], native: Any = None) -> None:
        self.document = document
        self._native = native

    def __getattr__(self, name: str) -> Any:
        document = self.__dict__.get("document", {})
        if name in document:
            return document[name]
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __getitem__(self, key: str) -> Any:
        return self.document[key]

    def __contains__(self, key: object) -> bool:
        return key in self.document

    def keys(self) -> list[str]:
        """The document's keys."""
        return list(self.document)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document, as a fresh ``dict``."""
        fresh: dict[str, Any] = json.loads(json.dumps(self.document))
        return fresh

    def to_json(self) -> str:
        """The JSON document (the command line's ``--json`` output)."""
        if self._native is not None:
            return str(self._native.json)
        return json.dumps(self.document)

    def chart_svg(self) -> str | None:
        """The report's first chart as an SVG document, or ``None`` when it has none."""
        return None if self._native is None else self._native.chart_svg()

    def charts(self) -> dict[str, str]:
        """Every chart of the report, by name (``survivors``, ``heat_map``, …), as
        SVG documents: the charts the web app draws for it."""
        return {} if self._native is None else dict(self._native.charts())

    def _heading(self) -> str:
        return self.title

    def _repr_html_(self) -> str:
        charts = "".join(self.charts().values())
        return _html.report_html(self._heading(), self.document, charts or None)

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{k}={v!r}" for k, v in self.document.items() if not isinstance(v, (list, dict))
        )
        return f"<{type(self).__name__} {fields}>"


class DistReport(Report):
    """``fairdice dist --json``: a distribution's rows and moments."""

    use_case = "dist"
    title = "distribution"

    @property
    def die(self) -> Die:
        """The distribution as a :class:`Die` (not of a tuple: see :attr:`tuples`)."""
        if "values" in self.document:
            raise TypeError(f"{self.document['expression']} gives a tuple: see .tuples")
        return Die({row["outcome"]: int(row["count"]) for row in self.document["outcomes"]})

    @property
    def tuples(self) -> dict[tuple[int, ...], int] | None:
        """For a tuple (``(count(p, 5, 6), count(p, 1))``), ``{values: count}``
        over every joint outcome; else ``None``."""
        if "values" not in self.document:
            return None
        return {tuple(row["outcome"]): int(row["count"]) for row in self.document["outcomes"]}


class RollReport(Report):
    """``fairdice roll --json``: rolls with every die shown."""

    use_case = "roll"
    title = "rolls"

    @property
    def values(self) -> list[int]:
        """The value of each roll."""
        return [roll["value"] for roll in self.document["rolls"]]

    @property
    def labels(self) -> list[str] | None:
        """The label of each roll, for an expression with labels (``as {…}``), else ``None``."""
        rolls = self.document["rolls"]
        if not any("label" in roll for roll in rolls):
            return None
        return [roll["label"] for roll in rolls]


class SampleReport(Report):
    """``fairdice sample --json``: draws from a randomizer."""

    use_case = "sample"
    title = "samples"

    @property
    def samples(self) -> list[int]:
        """The outcomes drawn, in order."""
        return list(self.document["samples"])

    @property
    def session(self) -> str | None:
        """The session after the draws, when asked for (``save=True``)."""
        return self.document.get("session")


class NextReport(Report):
    """``fairdice next --json``: the next-sample distribution after a history."""

    use_case = "next"
    title = "next sample"

    @property
    def probabilities(self) -> dict[int, float]:
        """``{outcome: probability}`` at the next draw."""
        return {o["outcome"]: o["probability"] for o in self.document["outcomes"]}


class PrdReport(Report):
    """``fairdice prd --json``: the constant C of a pseudo-random distribution."""

    use_case = "prd"
    title = "pseudo-random distribution"


class GoalReport(Report):
    """``fairdice goal --json``: the attempts until a randomizer gives what the
    player waits for, exact (or a Monte Carlo estimate past a million states)."""

    use_case = "goal"
    title = "goal"

    def _heading(self) -> str:
        return f"attempts until {self.document.get('goal')}"

    @property
    def exact(self) -> bool:
        """False for a Monte Carlo estimate."""
        return bool(self.document["method"]["method"] == "exact")

    @property
    def mean(self) -> Fraction | float | None:
        """The expected attempts: an exact :class:`~fractions.Fraction` for a
        machine whose goal is certain by some attempt, else a float (``None`` when
        the goal may never be met)."""
        exact = self.document.get("mean_exact")
        return Fraction(exact) if exact is not None else self.document.get("mean")

    @property
    def chance_within_budget(self) -> Fraction | float | None:
        """P(the goal is met within the budget asked), exact where it can be."""
        budget = self.document.get("budget")
        if budget is None:
            return None
        exact = budget.get("chance_exact")
        return Fraction(exact) if exact is not None else budget["chance"]

    @property
    def percentiles(self) -> dict[float, int | None]:
        """``{chance: fewest attempts reaching it}`` for 25%, 50%, 75%, 90%, 99%."""
        return {p["chance"]: p["attempts"] for p in self.document["percentiles"]}

    @property
    def within(self) -> dict[int, float]:
        """``{attempts: P(the goal is met within them)}``, from 1."""
        return {row["attempt"]: row["cumulative"] for row in self.document["attempts"]}


class AuditReport(Report):
    """``fairdice audit --json``: a recorded log against a randomizer."""

    use_case = "audit"
    title = "audit"

    def _heading(self) -> str:
        return f"{self.document.get('entries')} entries"

    @property
    def log_likelihood(self) -> float:
        """The log's natural log-likelihood, each entry given the ones before it
        (``-inf`` when an entry is impossible)."""
        value = self.document.get("log_likelihood")
        return float("-inf") if value is None else float(value)

    @property
    def p_values(self) -> dict[str, float]:
        """``{"fit": p, "drought": p, "repeats": p}``: each test's p-value."""
        return {t["test"]: t["p_value"] for t in self.document["tests"]}

    @property
    def ranking(self) -> list[tuple[str, float]]:
        """The candidates, likeliest first: ``(spec, log-likelihood)``."""
        return [
            (c["spec"], float("-inf") if c["log_likelihood"] is None else c["log_likelihood"])
            for c in self.document["candidates"]
        ]


class ContestReport(Report):
    """``fairdice contest --json``: two pools paired die against die."""

    use_case = "contest"
    title = "contest"

    def _heading(self) -> str:
        return f"{self.document.get('a')} vs {self.document.get('b')}"

    @property
    def exact(self) -> bool:
        """False for a Monte Carlo estimate."""
        return self.document.get("method") == "exact"

    @property
    def p_a_wins(self) -> Fraction:
        """P(A wins), exactly (an estimate's observed frequency)."""
        return Fraction(self.document["p_a_wins_exact"])

    @property
    def p_tie(self) -> Fraction:
        """P(tie), exactly."""
        return Fraction(self.document["p_tie_exact"])

    @property
    def p_b_wins(self) -> Fraction:
        """P(B wins), exactly."""
        return Fraction(self.document["p_b_wins_exact"])

    @property
    def mean_square(self) -> Fraction:
        """E[net²], exactly."""
        return Fraction(self.document["mean_square_exact"])

    @property
    def total(self) -> int:
        """What the net score counts add up to."""
        return int(self.document["total"])

    @property
    def net(self) -> Die:
        """The net score (A's pairs won minus B's) as a :class:`Die`."""
        return Die({row["score"]: int(row["count"]) for row in self.document["net"]})


class RiskReport(Report):
    """``fairdice risk --json``: a whole Risk battle."""

    use_case = "risk"
    title = "Risk battle"

    def _heading(self) -> str:
        return f"{self.document.get('attacker')} attacking {self.document.get('defender')}"

    @property
    def exact(self) -> bool:
        """True when solved in exact fractions."""
        return self.document.get("p_attacker_wins_exact") is not None

    @property
    def p_attacker_wins(self) -> Fraction | float:
        """P(attacker wins): a ``Fraction`` when solved exactly, else a float."""
        exact = exact_fraction(self.document.get("p_attacker_wins_exact"))
        return exact if exact is not None else self.document["p_attacker_wins"]


class AnalysisReport(Report):
    """``fairdice analyze --json``: entropy, outcome variance and droughts of a
    randomizer over a match; for PRD and pity also ``attempts``, the attempts
    until a success from the start (``fairdice prd``'s table)."""

    use_case = "analyze"
    title = "randomizer analysis"


class DroughtsReport(Report):
    """The droughts of a randomizer over a match (the web app's droughts table)."""

    use_case = "droughts"
    title = "droughts"


class TuneReport(Report):
    """``fairdice tune --json``: the fairest parameters of each system."""

    use_case = "tune"
    title = "tuning"


class SeatsReport(Report):
    """``fairdice seats GAME.json --json``: how a randomizer splits a match between
    the players of a game — each player's fair share, total, longest drought and
    growth over the match (``all_rolls``, and ``own_turns`` with turns), the
    spread and the starved chances."""

    use_case = "seats"
    title = "seats"

    def _heading(self) -> str:
        name = self.document.get("game", {}).get("name")
        return f"{name}: {self.document.get('spec')}" if name else str(self.document.get("spec"))


REPORTS: dict[str, type[Report]] = {
    cls.use_case: cls
    for cls in (
        DistReport,
        RollReport,
        SampleReport,
        NextReport,
        PrdReport,
        GoalReport,
        AuditReport,
        ContestReport,
        RiskReport,
        AnalysisReport,
        DroughtsReport,
        TuneReport,
        SeatsReport,
    )
}
"""The report class of each use case; others are plain :class:`Report`."""
