"""Every question fairdice answers, as a typed Python function.

Each function maps its keyword arguments onto the use case's JSON request — the
same request the command line, the web app and the WebAssembly module send — and
runs it in the extension with the GIL released (Ctrl-C stops it). Defaults are the
request's own, so leaving an argument out means what leaving the flag out means.
``max_steps`` is the command line's ``--max-steps`` budget.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypeVar

from . import _native
from .reports import (
    REPORTS,
    AnalysisReport,
    ContestReport,
    DroughtsReport,
    AuditReport,
    GoalReport,
    NextReport,
    PrdReport,
    Report,
    RiskReport,
    RollReport,
    SampleReport,
    SeatsReport,
    TuneReport,
)

__all__ = [
    "run",
    "use_cases",
    "roll",
    "sample",
    "next_distribution",
    "prd",
    "goal",
    "audit",
    "contest",
    "risk",
    "analyze",
    "droughts",
    "tune",
    "seats",
]

R = TypeVar("R", bound=Report)

Pairing = Literal["sorted", "unsorted"]
Ties = Literal["stand", "a-wins", "b-wins", "reroll"]
Rule = Literal["simple", "official"]


def use_cases() -> list[str]:
    """The names of every use case :func:`run` answers."""
    return list(_native.use_cases())


def run(name: str, request: dict[str, Any], *, max_steps: int | None = None) -> Report:
    """Runs the use case ``name`` on its JSON request (a ``dict``) and returns its
    report, typed when fairdice knows the use case (:data:`fairdice.reports.REPORTS`)."""
    native = _native.run(name, json.dumps(request), max_steps=max_steps)
    cls = REPORTS.get(name, Report)
    return cls(json.loads(native.json), native)


def _typed(cls: type[R], request: dict[str, Any], max_steps: int | None) -> R:
    native = _native.run(cls.use_case, json.dumps(request), max_steps=max_steps)
    return cls(json.loads(native.json), native)


Spec = str | dict[str, Any]
"""A randomizer spec (``"deck(values=6)"``), or a machine document: its JSON
text or the document as a ``dict`` (docs/machines.md)."""


def _spec(spec: Spec) -> str:
    return json.dumps(spec) if isinstance(spec, dict) else spec


def _source(spec: Spec | None, session: str | None) -> dict[str, str]:
    if (spec is None) == (session is None):
        raise TypeError("give a spec or a saved session (session=...), not both")
    return {"spec": _spec(spec)} if spec is not None else {"session": session}  # type: ignore[dict-item]


def roll(
    expression: str,
    times: int = 1,
    *,
    seed: int | None = None,
    explode_depth: int = _native.DEFAULT_EXPLODE_DEPTH,
    dialect: str = "fairdice",
) -> RollReport:
    """Rolls ``expression`` ``times`` times, every die shown. Without a seed one is
    picked at random and kept in the report (``report.seed``) to repeat the rolls.
    With ``dialect`` the string is read as that dice tool reads it."""
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    request = {
        "expression": expression,
        "times": times,
        "seed": seed,
        "explode_depth": explode_depth,
        "dialect": dialect,
    }
    return _typed(RollReport, request, None)


def sample(
    spec: str | None = None,
    count: int = 10,
    *,
    seed: int = _native.DEFAULT_SEED,
    session: str | None = None,
    save: bool = False,
) -> SampleReport:
    """Draws ``count`` outcomes from a fresh randomizer (``spec``, ``seed``) or a
    saved ``session``: what ``fairdice sample`` prints. With ``save=True`` the
    report carries the session after the draws (``report.session``)."""
    request = {"source": _source(spec, session), "count": count, "seed": seed, "save": save}
    return _typed(SampleReport, request, None)


def next_distribution(
    spec: str | None = None,
    history: Iterable[int | str] = (),
    *,
    session: str | None = None,
) -> NextReport:
    """The next-sample distribution of a randomizer after ``history`` (values such
    as ``7`` or names such as ``"T"``): what ``fairdice next`` prints."""
    request = {"source": _source(spec, session), "history": [str(h) for h in history]}
    return _typed(NextReport, request, None)


def prd(p: float, limit: int = 100) -> PrdReport:
    """The pseudo-random distribution of nominal chance ``p``: its constant C and
    the chance of each attempt since the last success, up to ``limit`` attempts."""
    return _typed(PrdReport, {"p": p, "limit": limit}, None)


def goal(
    spec: Spec | None = None,
    until: Iterable[int | str] = (),
    *,
    times: int = 1,
    every: bool = False,
    budget: int | None = None,
    history: Iterable[int | str] = (),
    session: str | None = None,
    limit: int = 1000,
    exact: bool = False,
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    max_steps: int | None = None,
) -> GoalReport:
    """The attempts until the randomizer gives ``times`` draws of ``until`` (values
    or names), or with ``every=True`` each of them (every outcome) at least once:
    the mean, percentiles, the chance within ``budget`` and the table, exact over
    its states (from the start, after ``history`` — ``"3-star*73"`` repeats — or
    from a saved ``session``). ``runs`` estimates it by Monte Carlo instead."""
    request = {
        "source": _source(spec, session),
        "history": [str(h) for h in history],
        "until": [str(u) for u in until],
        "times": times,
        "every": every,
        "budget": budget,
        "limit": limit,
        "exact": exact,
        "runs": runs,
        "seed": seed,
    }
    return _typed(GoalReport, request, max_steps)


def audit(
    log: Iterable[int | str] | str,
    spec: Spec,
    *,
    candidates: Sequence[Spec] = (),
    runs: int = 2000,
    seed: int = _native.DEFAULT_SEED,
    max_steps: int | None = None,
) -> AuditReport:
    """A recorded log (outcomes, or a file's text: one a line, CSV or JSON)
    against the randomizer ``spec``: its exact log-likelihood, its counts, longest
    drought and repeats tested against ``runs`` logs simulated from ``spec``, and
    ``candidates`` (default: ``spec``'s usual alternatives) ranked by likelihood.
    Usable in a game's test suite: ``assert audit(rolls, "dice(values=6)").p_values["fit"] > 0.001``."""
    request = {
        "spec": _spec(spec),
        "log": log if isinstance(log, str) else [e if isinstance(e, int) else str(e) for e in log],
        "candidates": [_spec(c) for c in candidates],
        "simulations": runs,
        "seed": seed,
    }
    return _typed(AuditReport, request, max_steps)


def contest(
    a: str,
    b: str,
    *,
    pairing: Pairing = "sorted",
    ties: Ties = "stand",
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    max_steps: int | None = None,
    dialect: str = "fairdice",
) -> ContestReport:
    """Two pools (``"5d6"``, ``"4d6+1d8"``) rolled against each other, die paired
    with die: P(A wins), P(tie), P(B wins) exactly, win bias, tie % and closeness,
    and the net score. ``runs`` estimates it by seeded Monte Carlo instead. With
    ``dialect`` both pools are read as that dice tool reads them."""
    request = {
        "a": a,
        "b": b,
        "pairing": pairing,
        "ties": ties,
        "runs": runs,
        "seed": seed,
        "dialect": dialect,
    }
    return _typed(ContestReport, request, max_steps)


def risk(
    attacker: int,
    defender: int,
    *,
    rule: Rule = "simple",
    faces: int = 6,
    attacker_dice: int = 3,
    defender_dice: int = 2,
    per_roll: bool = False,
    table: int | None = None,
    float: bool = False,
    simulate: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    max_steps: int | None = None,
) -> RiskReport:
    """A whole Risk battle solved exactly (or in floating point when huge, or with
    ``float=True``): P(attacker wins), the armies left, expected losses; on request
    the one-roll tables (``per_roll``), the grid of odds for A, D = 1..``table`` and
    a seeded Monte Carlo check (``simulate`` battles)."""
    request = {
        "attacker": attacker,
        "defender": defender,
        "rule": rule,
        "faces": faces,
        "attacker_dice": attacker_dice,
        "defender_dice": defender_dice,
        "per_roll": per_roll,
        "table": table,
        "float": float,
        "simulate": simulate,
        "seed": seed,
    }
    return _typed(RiskReport, request, max_steps)


def analyze(
    spec: Spec,
    samples: int = 25,
    *,
    exact: bool = False,
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    budget: int | None = None,
    droughts: bool = True,
    max_steps: int | None = None,
) -> AnalysisReport:
    """A randomizer over a match of ``samples`` draws: mean entropy and outcome
    variance per step, repeats and droughts, by an exact sweep of its states (or
    seeded Monte Carlo past ``budget`` states, or with ``runs``)."""
    request = {
        "spec": _spec(spec),
        "samples": samples,
        "exact": exact,
        "runs": runs,
        "seed": seed,
        "budget": budget,
        "droughts": droughts,
    }
    return _typed(AnalysisReport, request, max_steps)


def droughts(
    spec: str,
    samples: int = 25,
    *,
    exact: bool = False,
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    budget: int | None = None,
    max_steps: int | None = None,
) -> DroughtsReport:
    """The droughts of a randomizer over a match alone: the longest run of samples
    without each outcome, and P(gap > k)."""
    request = {"spec": spec, "samples": samples, "exact": exact, "runs": runs, "seed": seed, "budget": budget}
    return _typed(DroughtsReport, request, max_steps)


def tune(
    values: int | None = 6,
    *,
    base: str | None = None,
    samples: int | str = 25,
    min_entropy: float = 0.9,
    fairness: str | None = None,
    game: dict[str, Any] | None = None,
    systems: Sequence[str] = ("deck", "dynamic"),
    grids: Sequence[str] = (),
    machine: str | None = None,
    exact: bool = False,
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    budget: int | None = None,
    all: bool = False,
    max_steps: int | None = None,
) -> TuneReport:
    """The fairest parameters of each system above an entropy threshold, for a
    match of ``samples`` draws (``25``, ``"20..40"``, ``"20:1,30:2,40:1"``).
    ``fairness`` is the measure minimised: ``"outcome_variance"`` (the default
    with ``values``), ``"base_deviation"`` (the default with a ``base``) or
    ``"seat_spread"`` (the default with a ``game``, a dict in the ``seats`` file
    format: the fairest split of a match between its players).

    ``machine`` is a machine document (its JSON text, as ``fairdice tune --grid
    @FILE`` reads it, optionally followed by ``(name=values)``): its parameters
    with a ``"tune"`` list are searched, alone, over the machine's own outcomes
    (``values``, ``base`` and ``systems`` are then left out)."""
    if machine is not None:
        values, base, systems, grids = None, None, (), [machine, *grids]
    request = {
        "values": values,
        "base": base,
        "samples": str(samples),
        "min_entropy": min_entropy,
        "fairness": fairness,
        "game": game,
        "systems": list(systems),
        "grids": list(grids),
        "exact": exact,
        "runs": runs,
        "seed": seed,
        "budget": budget,
        "all": all,
    }
    return _typed(TuneReport, request, max_steps)


def seats(
    game: dict[str, Any] | str,
    spec: str,
    samples: int,
    *,
    exact: bool = False,
    runs: int | None = None,
    seed: int = _native.DEFAULT_SEED,
    max_states: int | None = None,
    shares: Sequence[float] = (0.5, 0.75),
    droughts: bool = True,
    max_steps: int | None = None,
) -> SeatsReport:
    """How ``spec`` splits a match of ``samples`` rolls between the players of
    ``game`` (a game file's ``dict``, or its JSON text; see docs/seats.md): each
    player's fair share, total, longest drought and expected total after each
    roll, the spread between the best and the worst, and P(someone ends with at
    most each of ``shares`` of their fair share) — what ``fairdice seats GAME.json
    --json`` prints. Exact where the sweep fits, else seeded Monte Carlo (or with
    ``runs``)."""
    request = {
        "game": json.loads(game) if isinstance(game, str) else game,
        "spec": spec,
        "samples": samples,
        "exact": exact,
        "runs": runs,
        "seed": seed,
        "max_states": max_states,
        "shares": list(shares),
        "droughts": droughts,
    }
    return _typed(SeatsReport, request, max_steps)
