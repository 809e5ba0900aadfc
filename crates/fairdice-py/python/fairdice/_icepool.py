"""Conversion between :class:`fairdice.Die` and ``icepool.Die``.

icepool is optional: it is imported only when a conversion asks for it.
"""

from __future__ import annotations

import importlib

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._native import Die


def _icepool() -> Any:
    try:
        icepool = importlib.import_module("icepool")
    except ImportError as e:
        raise ImportError(
            "converting to icepool needs the icepool package (pip install icepool); "
            "fairdice itself does not"
        ) from e
    return icepool


def to_icepool(die: Die) -> Any:
    """The same distribution as an ``icepool.Die`` (exact counts carried over)."""
    return _icepool().Die(die.to_dict())


def from_icepool(die: Any) -> Die:
    """A :class:`fairdice.Die` from an ``icepool.Die`` whose outcomes are integers
    (``True``/``False`` become 1/0)."""
    from ._native import Die

    pairs = {}
    for outcome, quantity in die.items():
        if not isinstance(outcome, int):
            raise TypeError(
                f"fairdice dice have integer outcomes; this icepool die has {type(outcome).__name__} outcomes"
            )
        pairs[int(outcome)] = int(quantity)
    return Die(pairs)
