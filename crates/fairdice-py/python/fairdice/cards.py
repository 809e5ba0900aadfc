"""Decks and deals, exact: cards drawn without replacement.

A :class:`Deck` is a multiset of card values; :meth:`Deck.deal` hands out one or
more hands from one shuffle of it. The evaluators keep icepool's names where they
fit (``largest_count``, ``largest_straight``, ``sum``) and each answers with an exact
:class:`fairdice.Die` of the deals, computed by the same engine and the same
notation as ``fairdice dist`` (``deal(deck{1..13:4}, 5)``), so every front-end gives
the same numbers::

    >>> from fairdice import Deck
    >>> ranks = Deck.standard_ranks()
    >>> ranks.deal(5).count(1).at_least(1)        # at least one ace
    Fraction(18472, 54145)
    >>> ranks.deal(5).where("largest_set(h) == 3 and sets(h, 2) == 2").probability(1)
    Fraction(6, 4165)
    >>> hearts = Deck({1: 13, 0: 39})             # 1: a heart
    >>> hearts.deal(5, 5).where("count(a, 1) > count(b, 1)").probability(1)
    Fraction(24134279, 67339720)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from ._native import Die, dist

_NAMES = "abcdefgh"


class Deck(Mapping[int, int]):
    """A multiset of card values: a mapping of value to copies, or the values
    listed one card each (``Deck([1, 1, 2])``)."""

    __slots__ = ("_cards",)

    def __init__(self, cards: Mapping[int, int] | Iterable[int]) -> None:
        counted: dict[int, int] = {}
        pairs = cards.items() if isinstance(cards, Mapping) else ((value, 1) for value in cards)
        for value, copies in pairs:
            if not isinstance(value, int) or not isinstance(copies, int) or isinstance(copies, bool):
                raise TypeError("a deck maps int card values to int copies")
            if copies < 0:
                raise ValueError(f"a card value cannot have {copies} copies")
            if copies:
                counted[value] = counted.get(value, 0) + copies
        if not counted:
            raise ValueError("a deck needs at least one card")
        self._cards = dict(sorted(counted.items()))

    @staticmethod
    def standard_ranks() -> Deck:
        """The ranks of a standard 52-card deck: 1 (ace) to 13 (king), four of each."""
        return Deck({rank: 4 for rank in range(1, 14)})

    @staticmethod
    def standard_suits() -> Deck:
        """The suits of a standard 52-card deck: 1 to 4, thirteen of each."""
        return Deck({suit: 13 for suit in range(1, 5)})

    def __getitem__(self, value: int) -> int:
        return self._cards[value]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(self._cards.values())

    def notation(self) -> str:
        """The deck in the dice language: runs of values with the same copies
        written as ranges (``deck{1..13:4}``)."""
        parts: list[str] = []
        items = list(self._cards.items())
        i = 0
        while i < len(items):
            j = i
            while (
                j + 1 < len(items)
                and items[j + 1][0] == items[j][0] + 1
                and items[j + 1][1] == items[i][1]
            ):
                j += 1
            low, copies = items[i]
            values = str(low) if j == i else f"{low}..{items[j][0]}"
            parts.append(values if copies == 1 else f"{values}:{copies}")
            i = j + 1
        return "deck{" + ", ".join(parts) + "}"

    def deal(self, *hand_sizes: int) -> Deal:
        """Hands of these sizes from one shuffle of the deck (``deal(5)``, two
        players ``deal(5, 5)``)."""
        return Deal(self, hand_sizes)

    def __repr__(self) -> str:
        return f"Deck({self._cards!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        return hash(tuple(self._cards.items()))


class Deal:
    """Hands dealt from one shuffle of a :class:`Deck`. Each evaluator reads one
    hand (``hand=0`` unless told) and returns the exact :class:`fairdice.Die` of
    every deal; :meth:`where` reads any expression of the hands, named ``h`` for
    one hand and ``a``, ``b``, … for several."""

    __slots__ = ("deck", "hand_sizes")

    def __init__(self, deck: Deck, hand_sizes: Iterable[int]) -> None:
        sizes = tuple(hand_sizes)
        if not sizes:
            raise ValueError("deal at least one hand: deck.deal(5)")
        for size in sizes:
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                raise ValueError(f"a hand's size is an int, 0 or more, not {size!r}")
        self.deck = deck
        self.hand_sizes = sizes

    def notation(self) -> str:
        """The deal in the dice language (``deal(deck{1..13:4}, 5)``)."""
        sizes = ", ".join(str(size) for size in self.hand_sizes)
        return f"deal({self.deck.notation()}, {sizes})"

    def names(self) -> list[str]:
        """The names :meth:`where` gives the hands: ``h`` for one, ``a``, ``b``, … for several."""
        return ["h"] if len(self.hand_sizes) == 1 else list(_NAMES[: len(self.hand_sizes)])

    def where(self, body: str, **options: object) -> Die:
        """The exact distribution of ``body``, an expression of the dice language
        over the hands by their :meth:`names` (``"count(a, 1) > count(b, 1)"``).
        Keyword options are :func:`fairdice.dist`'s."""
        names = ", ".join(self.names())
        return dist(f"[{names} = {self.notation()}] {body}", **options)  # type: ignore[arg-type]

    def _read(self, function: str, hand: int, *arguments: int) -> Die:
        if not 0 <= hand < len(self.hand_sizes):
            raise ValueError(f"this deal has hands 0 to {len(self.hand_sizes) - 1}, not {hand}")
        name = self.names()[hand]
        listed = "".join(f", {a}" for a in arguments)
        return self.where(f"{function}({name}{listed})" if function else name)

    def sum(self, hand: int = 0) -> Die:
        """The sum of the hand's cards."""
        return self._read("", hand)

    def largest_count(self, hand: int = 0) -> Die:
        """How many cards of the hand share its most common value."""
        return self._read("largest_set", hand)

    def largest_straight(self, hand: int = 0) -> Die:
        """The longest run of consecutive values the hand holds."""
        return self._read("longest_straight", hand)

    def height(self, hand: int = 0) -> Die:
        """The value the hand holds most often, the highest such (icepool's
        ``largest_count_and_outcome().marginals[1]``; the One-Roll Engine's height)."""
        return self._read("height", hand)

    def count(self, *values: int, hand: int = 0) -> Die:
        """How many cards of the hand show one of these values (icepool's
        ``keep_outcomes(values).size()``)."""
        if not values:
            raise ValueError("name the values to count: deal.count(1)")
        return self._read("count", hand, *values)

    def sets(self, size: int = 2, hand: int = 0) -> Die:
        """How many different values the hand holds at least ``size`` times (pairs
        by default; icepool's ``keep_counts('>=', size).unique().size()``)."""
        return self._read("sets", hand, size)

    def __repr__(self) -> str:
        return f"Deal({self.deck!r}, {self.hand_sizes!r})"
