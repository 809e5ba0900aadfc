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

Cards of several values are tuples, a rank and a suit say; each evaluator reads one
value of the cards (``value=0`` the first), and :meth:`Deal.where` names each value
of a hand (``h1``, ``h2``; for several hands ``a1``, ``a2``, ``b1``, …)::

    >>> cards = Deck.standard()                   # (rank, suit), 52 cards
    >>> cards.notation()
    'deck{(1..13, 1..4)}'
    >>> cards.deal(5).largest_count(value=1).probability(5)   # a flush
    Fraction(33, 16660)
    >>> cards.deal(5).where("longest_straight(h1) == 5 and largest_set(h2) == 5").probability(1)
    Fraction(3, 216580)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from ._native import Die, dist

# The names of several hands; not `d`, which reads as a die.
_NAMES = "abcefgij"

Card = int | tuple[int, ...]
"""A card: one int value, or a tuple of 2 to 6 (a rank and a suit)."""


def _values(card: object) -> int:
    """How many values ``card`` holds (1 for an int), or a TypeError."""
    if isinstance(card, int) and not isinstance(card, bool):
        return 1
    if (
        isinstance(card, tuple)
        and 2 <= len(card) <= 6
        and all(isinstance(v, int) and not isinstance(v, bool) for v in card)
    ):
        return len(card)
    raise TypeError(f"a card is an int or a tuple of 2 to 6 ints, not {card!r}")


class Deck(Mapping[Card, int]):
    """A multiset of cards: a mapping of card to copies, or the cards listed one
    each (``Deck([1, 1, 2])``). A card is an int, or a tuple of ints for cards of
    several values (``(rank, suit)``); every card of a deck holds as many."""

    __slots__ = ("_cards", "_values")

    def __init__(self, cards: Mapping[Card, int] | Iterable[Card]) -> None:
        counted: dict[Card, int] = {}
        pairs = cards.items() if isinstance(cards, Mapping) else ((card, 1) for card in cards)
        values = None
        for card, copies in pairs:
            if not isinstance(copies, int) or isinstance(copies, bool):
                raise TypeError("a deck maps cards to int copies")
            shape = _values(card)
            if values is not None and shape != values:
                raise ValueError("every card of a deck holds as many values")
            values = shape
            if copies < 0:
                raise ValueError(f"a card value cannot have {copies} copies")
            if copies:
                counted[card] = counted.get(card, 0) + copies
        if not counted or values is None:
            raise ValueError("a deck needs at least one card")
        self._values = values
        self._cards = dict(sorted(counted.items()))

    @staticmethod
    def standard() -> Deck:
        """A standard 52-card deck as ``(rank, suit)`` cards: ranks 1 (ace) to 13
        (king), suits 1 to 4."""
        return Deck([(rank, suit) for rank in range(1, 14) for suit in range(1, 5)])

    def values_per_card(self) -> int:
        """How many values each card holds: 1, or its tuple's length."""
        return self._values

    @staticmethod
    def standard_ranks() -> Deck:
        """The ranks of a standard 52-card deck: 1 (ace) to 13 (king), four of each."""
        return Deck({rank: 4 for rank in range(1, 14)})

    @staticmethod
    def standard_suits() -> Deck:
        """The suits of a standard 52-card deck: 1 to 4, thirteen of each."""
        return Deck({suit: 13 for suit in range(1, 5)})

    def __getitem__(self, card: Card) -> int:
        return self._cards[card]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(self._cards.values())

    def notation(self) -> str:
        """The deck in the dice language: runs of values with the same copies
        written as ranges (``deck{1..13:4}``); cards of several values as the
        product of ranges where they are one (``deck{(1..13, 1..4)}``), else one
        by one (``deck{(1, 1), (2, 1):2}``)."""
        if self._values > 1:
            return self._tuple_notation()
        parts: list[str] = []
        items: list[tuple[int, int]] = list(self._cards.items())  # type: ignore[arg-type]
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

    def _tuple_notation(self) -> str:
        cards: list[tuple[int, ...]] = list(self._cards)  # type: ignore[arg-type]
        copies = set(self._cards.values())
        axes = [sorted({card[i] for card in cards}) for i in range(self._values)]
        product = 1
        for axis in axes:
            product *= len(axis)
        if len(copies) == 1 and product == len(cards) and all(a[-1] - a[0] + 1 == len(a) for a in axes):
            ranges = ", ".join(str(a[0]) if len(a) == 1 else f"{a[0]}..{a[-1]}" for a in axes)
            (count,) = copies
            return "deck{(" + ranges + ")" + ("" if count == 1 else f":{count}") + "}"
        parts = []
        for card, count in self._cards.items():
            written = "(" + ", ".join(str(v) for v in card) + ")"  # type: ignore[union-attr]
            parts.append(written if count == 1 else f"{written}:{count}")
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
        """The names :meth:`where` gives the hands: ``h`` for one, ``a``, ``b``, ``c``,
        ``e``, … for several (``d`` reads as a die); for cards of several values, a name each value (``h1``, ``h2``, or
        ``a1``, ``a2``, ``b1``, …), hand by hand."""
        hands = ["h"] if len(self.hand_sizes) == 1 else list(_NAMES[: len(self.hand_sizes)])
        values = self.deck.values_per_card()
        if values == 1:
            return hands
        return [f"{hand}{i}" for hand in hands for i in range(1, values + 1)]

    def where(self, body: str, **options: object) -> Die:
        """The exact distribution of ``body``, an expression of the dice language
        over the hands by their :meth:`names` (``"count(a, 1) > count(b, 1)"``).
        Keyword options are :func:`fairdice.dist`'s."""
        names = self.names()
        values = self.deck.values_per_card()
        if values > 1:
            groups = [names[i : i + values] for i in range(0, len(names), values)]
            names = ["(" + ", ".join(group) + ")" for group in groups]
        bound = ", ".join(names)
        return dist(f"[{bound} = {self.notation()}] {body}", **options)  # type: ignore[arg-type]

    def _read(self, function: str, hand: int, value: int, *arguments: int) -> Die:
        if not 0 <= hand < len(self.hand_sizes):
            raise ValueError(f"this deal has hands 0 to {len(self.hand_sizes) - 1}, not {hand}")
        values = self.deck.values_per_card()
        if not 0 <= value < values:
            raise ValueError(f"this deck's cards hold values 0 to {values - 1}, not {value}")
        name = self.names()[hand * values + value]
        listed = "".join(f", {a}" for a in arguments)
        return self.where(f"{function}({name}{listed})" if function else name)

    def sum(self, hand: int = 0, value: int = 0) -> Die:
        """The sum of the hand's cards (of their value ``value``, for cards of several)."""
        return self._read("", hand, value)

    def largest_count(self, hand: int = 0, value: int = 0) -> Die:
        """How many cards of the hand share its most common value."""
        return self._read("largest_set", hand, value)

    def largest_straight(self, hand: int = 0, value: int = 0) -> Die:
        """The longest run of consecutive values the hand holds."""
        return self._read("longest_straight", hand, value)

    def height(self, hand: int = 0, value: int = 0) -> Die:
        """The value the hand holds most often, the highest such (icepool's
        ``largest_count_and_outcome().marginals[1]``; the One-Roll Engine's height)."""
        return self._read("height", hand, value)

    def count(self, *values: int, hand: int = 0, value: int = 0) -> Die:
        """How many cards of the hand show one of these values (icepool's
        ``keep_outcomes(values).size()``)."""
        if not values:
            raise ValueError("name the values to count: deal.count(1)")
        return self._read("count", hand, value, *values)

    def sets(self, size: int = 2, hand: int = 0, value: int = 0) -> Die:
        """How many different values the hand holds at least ``size`` times (pairs
        by default; icepool's ``keep_counts('>=', size).unique().size()``)."""
        return self._read("sets", hand, value, size)

    def __repr__(self) -> str:
        return f"Deal({self.deck!r}, {self.hand_sizes!r})"
