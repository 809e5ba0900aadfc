"""Type stubs of the extension module ``fairdice._native`` (written in Rust)."""

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Literal, final, overload

__all__ = [
    "DEFAULT_EXPLODE_DEPTH",
    "DEFAULT_SEED",
    "Die",
    "Randomizer",
    "Report",
    "dist",
    "run",
    "use_cases",
    "_restore_die",
    "_standard",
]

DEFAULT_SEED: int
DEFAULT_EXPLODE_DEPTH: int

_Measure = Literal["probability", "at_least", "at_most"]
_Number = int | float | Fraction
_Which = Iterable[int] | Callable[[int], bool]

@final
class Die:
    """An exact distribution over integer outcomes: a read-only mapping from
    outcome to count, with exact statistics and icepool-style arithmetic."""

    def __new__(cls, outcomes: Mapping[int, int] | Iterable[int] | Die) -> Die:
        """``Die({1: 1, 2: 1})``, ``Die([1, 1, 2, 3])`` (faces) or ``Die(icepool_die)``."""
    @property
    def labels(self) -> dict[int, str] | None:
        """``{outcome: label}`` for an expression with labels (``as {…}``), else ``None``."""
    @property
    def expression(self) -> str | None:
        """The expression this die was computed from, or ``None``."""
    @property
    def exact(self) -> bool:
        """False when the counts are a Monte Carlo estimate's."""
    @property
    def estimate(self) -> dict[str, Any] | None:
        """``{"runs", "seed", "mean_standard_error"}`` for an estimate, else ``None``."""
    @property
    def total(self) -> int:
        """How many equally likely rolls the counts add up to."""
    def outcomes(self) -> list[int]:
        """The outcomes, ascending."""
    def counts(self) -> list[int]:
        """The counts, in outcome order (exact ints)."""
    def quantities(self) -> list[int]:
        """The counts, in outcome order (icepool's name)."""
    def denominator(self) -> int:
        """The total of the counts (icepool's name)."""
    def count(self, outcome: int) -> int:
        """The count of ``outcome`` (0 when it cannot occur)."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[int]: ...
    def __contains__(self, outcome: object, /) -> bool: ...
    def __getitem__(self, outcome: int, /) -> int: ...
    @overload
    def get(self, outcome: int) -> int | None: ...
    @overload
    def get(self, outcome: int, default: Any) -> Any: ...
    def keys(self) -> list[int]: ...
    def values(self) -> list[int]: ...
    def items(self) -> list[tuple[int, int]]: ...
    @overload
    def to_dict(self, *, probabilities: Literal[False] = False) -> dict[int, int]: ...
    @overload
    def to_dict(self, *, probabilities: Literal[True]) -> dict[int, Fraction]: ...
    def probability(self, outcome: int) -> Fraction:
        """The exact probability of ``outcome``."""
    def probabilities(self) -> list[Fraction]:
        """The exact probability of every outcome, in outcome order."""
    def at_least(self, outcome: int) -> Fraction:
        """Exact ``P(X >= outcome)``."""
    def at_most(self, outcome: int) -> Fraction:
        """Exact ``P(X <= outcome)``."""
    def mean(self) -> Fraction:
        """The exact mean."""
    def variance(self) -> Fraction:
        """The exact (population) variance."""
    def sd(self) -> float:
        """The standard deviation."""
    def standard_deviation(self) -> float:
        """The standard deviation (icepool's name)."""
    def quantile(self, q: _Number) -> int:
        """The smallest outcome ``x`` with ``P(X <= x) >= q``, compared exactly."""
    def median(self) -> int:
        """The smallest outcome ``x`` with ``P(X <= x) >= 1/2``."""
    def mode(self) -> list[int]:
        """The most likely outcomes, ascending."""
    def min_outcome(self) -> int: ...
    def max_outcome(self) -> int: ...
    def reduced(self) -> Die:
        """The same distribution, counts divided by their greatest common divisor."""
    def equals(self, other: Die | Mapping[int, int] | Iterable[int]) -> bool:
        """True when ``other`` is the same distribution."""
    def __hash__(self) -> int: ...
    def __bool__(self) -> bool:
        """Only for the result of ``==`` or ``!=``: whether the dice are the same distribution."""
    def chart_svg(self, measure: _Measure = "probability") -> str:
        """The bar chart of this distribution as an SVG document."""
    def to_icepool(self) -> Any:
        """The same distribution as an ``icepool.Die`` (needs icepool)."""
    @staticmethod
    def from_icepool(die: Any) -> Die:
        """A die from an ``icepool.Die`` with integer outcomes."""
    def _repr_html_(self) -> str: ...
    def __add__(self, other: Die | int, /) -> Die: ...
    def __radd__(self, other: Die | int, /) -> Die: ...
    def __sub__(self, other: Die | int, /) -> Die: ...
    def __rsub__(self, other: Die | int, /) -> Die: ...
    def __mul__(self, other: Die | int, /) -> Die: ...
    def __rmul__(self, other: Die | int, /) -> Die: ...
    def __floordiv__(self, other: Die | int, /) -> Die: ...
    def __rfloordiv__(self, other: Die | int, /) -> Die: ...
    def __neg__(self) -> Die: ...
    def __pos__(self) -> Die: ...
    def __abs__(self) -> Die: ...
    def __matmul__(self, other: Die | int, /) -> Die:
        """``count @ die``: roll this die, then sum that many rolls of ``other``."""
    def __rmatmul__(self, other: int | Die, /) -> Die:
        """``n @ die``: the sum of ``n`` rolls of this die."""
    def __lt__(self, other: Die | int, /) -> Die: ...
    def __le__(self, other: Die | int, /) -> Die: ...
    def __gt__(self, other: Die | int, /) -> Die: ...
    def __ge__(self, other: Die | int, /) -> Die: ...
    def __eq__(self, other: object, /) -> Die: ...  # type: ignore[override]
    def __ne__(self, other: object, /) -> Die: ...  # type: ignore[override]
    def max(self, other: Die | int) -> Die:
        """The larger of two independent rolls."""
    def min(self, other: Die | int) -> Die:
        """The smaller of two independent rolls."""
    def highest(self, rolls: int, keep: int = 1) -> Die:
        """Roll ``rolls`` times and sum the ``keep`` highest (``4d6kh3``)."""
    def lowest(self, rolls: int, keep: int = 1) -> Die:
        """Roll ``rolls`` times and sum the ``keep`` lowest."""
    def map(self, f: Callable[[int], int]) -> Die:
        """The distribution of ``f(x)``."""
    def reroll(self, which: _Which, *, once: bool = False) -> Die:
        """Reroll the outcomes in ``which`` until another shows (or once)."""
    def explode(self, which: _Which | None = None, *, depth: int = ...) -> Die:
        """Roll again and add on ``which`` (default: the top face), at most ``depth`` times."""

def dist(
    expression: str,
    *,
    runs: int | None = None,
    seed: int = ...,
    explode_depth: int = ...,
    max_steps: int | None = None,
    dialect: str = "fairdice",
) -> Die:
    """The exact distribution of a dice expression (``"4d6kh3"``, ``"d20+5 >= 15"``),
    or with ``runs`` a seeded Monte Carlo estimate. With ``dialect`` (``"roll20"``,
    ``"foundry"``, ``"rpg-dice-roller"``, ``"anydice"``) the string is read as that
    tool reads it (``Die.expression`` is then its fairdice spelling). Raises :class:`fairdice.ParseError`,
    :class:`fairdice.TooLargeError` (with a suggested estimate) and the like."""

@final
class Randomizer(Iterator[int]):
    """A fair randomizer and its seeded generator: iterate it to draw outcomes."""

    def __new__(cls, spec: str, seed: int | None = None) -> Randomizer: ...
    @staticmethod
    def from_json(document: str) -> Randomizer:
        """Continues a saved session (``to_json()`` or ``fairdice sample --save``)."""
    def to_json(self) -> str:
        """The session as its saved JSON document."""
    @property
    def spec(self) -> str: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def draws(self) -> int: ...
    @property
    def state(self) -> list[int]: ...
    @property
    def outcomes(self) -> list[int]: ...
    @property
    def labels(self) -> list[str] | None: ...
    def next_distribution(self) -> dict[int, float]:
        """The probability of each outcome at the next draw."""
    def __iter__(self) -> Randomizer: ...
    def __next__(self) -> int: ...
    def take(self, count: int) -> list[int]:
        """The next ``count`` outcomes."""
    def copy(self) -> Randomizer:
        """An independent copy that draws the same sequence from here on."""
    def __copy__(self) -> Randomizer: ...

@final
class Report:
    """A use case's report as returned by :func:`run`."""

    @property
    def json(self) -> str: ...
    def chart_svg(self) -> str | None: ...
    def charts(self) -> list[tuple[str, str]]: ...

def run(name: str, request: str, *, max_steps: int | None = None) -> Report:
    """Runs the use case ``name`` on its JSON request."""

def use_cases() -> list[str]:
    """The names of every use case :func:`run` answers."""

def _restore_die(
    counts: Mapping[int, int], name: str | None, estimate: tuple[int, int, float] | None
) -> Die: ...

def _standard(sides: int) -> Die:
    """A fair die with faces ``1..sides`` (``sides >= 1``), refused past the memory limit."""
