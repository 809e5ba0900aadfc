"""fairdice: exact dice distributions, opposed-pool contests, Risk battles, fair
randomizers, their analysis and a tuner — the Rust engine of the ``fairdice``
command, for Python and notebooks.

    >>> import fairdice
    >>> stat = fairdice.dist("4d6kh3")
    >>> stat.mean()
    Fraction(15869, 1296)
    >>> stat.probability(18)
    Fraction(7, 432)
    >>> d6 = fairdice.d(6)
    >>> (d6.highest(4, 3)).equals(stat)
    True

Counts are exact ``int``s and probabilities exact ``Fraction``s. Long
computations release the GIL and stop at Ctrl-C. Errors are
:class:`FairdiceError` subclasses with the command line's message, caret and
suggestion.
"""

import warnings as _warnings
from collections.abc import Mapping as _Mapping

from ._native import DEFAULT_EXPLODE_DEPTH, DEFAULT_SEED, Die, Randomizer, _standard, dist
from .cards import Deal, Deck
from .errors import (
    CancelledError,
    FairdiceError,
    InternalError,
    InvalidInputError,
    ParseError,
    Suggestion,
    TooLargeError,
)
from . import reports as _reports
from . import use_cases as _use_cases

# Every use case's function and report class, as those modules list them
# (`__all__`): a new use case is added there, not here.
from .reports import *  # noqa: F403
from .use_cases import *  # noqa: F403

# A Die is a read-only mapping of outcome to count.
_Mapping.register(Die)

# One small expression with every kind of term of the notation (a sum of dice, a
# keep-highest pool, a reroll, an explosion, arithmetic, a comparison) runs once at
# import, through the same call a user makes: the engine's code and the call's
# machinery are then in memory before the first call, as a pure-Python package's
# code is after its import. It costs about 0.2 ms, once; a first `dist("3d6")`
# then takes 13 µs instead of 57 (benches/python/README.md). What it notes (other
# tools read `r1` otherwise) is the warm-up's, not the user's: an import says nothing.
with _warnings.catch_warnings():
    _warnings.simplefilter("ignore")
    dist("(3d6 + 4d6kh3 - d4r1) * 2 + d6! >= 12")


def d(sides: int) -> Die:
    """A fair die with faces ``1..sides`` (``d(6)`` is a d6)."""
    if sides < 1:
        raise InvalidInputError(
            f"a die needs at least 1 side, got {sides}", category="invalid", code="invalid", exit_status=2
        )
    return _standard(sides)


__all__ = [
    "DEFAULT_EXPLODE_DEPTH",
    "DEFAULT_SEED",
    "Deal",
    "Deck",
    "Die",
    "Randomizer",
    "d",
    "dist",
    "FairdiceError",
    "InvalidInputError",
    "ParseError",
    "TooLargeError",
    "CancelledError",
    "InternalError",
    "Suggestion",
]
__all__ += _use_cases.__all__
__all__ += _reports.__all__
