"""Decks and deals from Python: the same numbers as the notation, closed forms of
the hypergeometric counts, and clear errors."""

from __future__ import annotations

import doctest
from fractions import Fraction
from math import comb

import pytest

import fairdice
from fairdice import Deal, Deck


def test_the_module_examples_run():
    failures, _ = doctest.testmod(fairdice.cards)
    assert failures == 0


def test_a_deck_writes_itself_in_the_notation():
    assert Deck.standard_ranks().notation() == "deck{1..13:4}"
    assert Deck({1: 24, 0: 36}).notation() == "deck{0:36, 1:24}"
    assert Deck([3, 1, 2, 2, 5]).notation() == "deck{1, 2:2, 3, 5}"
    assert Deck.standard_suits().size() == 52
    assert Deck({2: 1, 1: 2}) == Deck([1, 2, 1])
    assert dict(Deck({5: 0, 4: 2})) == {4: 2}
    assert Deck({1: 2}).notation() == "deck{1:2}"


def test_hands_count_as_the_hypergeometric_formulas():
    hand = Deck({1: 24, 0: 36}).deal(7)
    lands = hand.count(1)
    assert lands.total == comb(60, 7)
    for k in range(8):
        assert lands[k] == comb(24, k) * comb(36, 7 - k)
    assert Deck.standard_suits().deal(5).largest_count().probability(5) == Fraction(4 * comb(13, 5), comb(52, 5))
    assert Deck.standard_ranks().deal(5).sets().probability(2) == Fraction(123552 + 3744, comb(52, 5))
    straights = Deck.standard_ranks().deal(5).largest_straight()
    assert straights.probability(5) == Fraction(9 * 4**5, comb(52, 5))
    assert Deck([1, 2, 3]).deal(2).sum().to_dict() == {3: 1, 4: 1, 5: 1}


def test_several_hands_come_from_one_shuffle():
    deal = Deck({1: 13, 0: 39}).deal(5, 5)
    assert deal.names() == ["a", "b"]
    # The second hand alone is any 5 cards of the deck.
    second = deal.count(1, hand=1)
    assert second.probability(5) == Fraction(comb(13, 5), comb(52, 5))
    # Two hands of three from four cards: never both the two aces.
    both = Deck({1: 2, 0: 2}).deal(2, 2).where("count(a, 1) + count(b, 1)")
    assert both.to_dict() == {2: 6}


def test_four_hands_and_more_are_named_without_a_die():
    deal = Deck(range(1, 9)).deal(2, 2, 2, 2)
    assert deal.names() == ["a", "b", "c", "e"]
    # Each hand alone is any 2 cards of the 8.
    assert deal.sum(hand=3).equals(Deck(range(1, 9)).deal(2).sum())
    assert Deck.standard().deal(1, 1, 1, 1).names()[6:] == ["e1", "e2"]


def test_each_evaluator_is_the_notations():
    deal = Deck.standard_ranks().deal(13)
    assert deal.largest_count().equals(fairdice.dist("largest_set(deal(deck{1..13:4}, 13))"))
    assert deal.count(1, 13).equals(fairdice.dist("count(deal(deck{1..13:4}, 13), 1, 13)"))


def test_cards_of_a_rank_and_a_suit_are_read_one_value_at_a_time_and_together():
    cards = Deck.standard()
    assert cards.values_per_card() == 2 and cards.size() == 52
    assert cards.notation() == "deck{(1..13, 1..4)}"
    assert Deck({(1, 1): 2, (2, 1): 1}).notation() == "deck{(1, 1):2, (2, 1)}"
    assert Deck([(r, s) for r in range(1, 4) for s in range(1, 3)] * 2).notation() == "deck{(1..3, 1..2):2}"
    hand = cards.deal(5)
    assert hand.names() == ["h1", "h2"]
    # The ranks alone are the ranks' deck, the suits alone the suits'.
    assert hand.largest_count().equals(Deck.standard_ranks().deal(5).largest_count())
    assert hand.largest_count(value=1).equals(Deck.standard_suits().deal(5).largest_count())
    # Both of the same five cards: 9 runs (ace low) of one suit, 4 suits.
    straight_flush = hand.where("longest_straight(h1) == 5 and largest_set(h2) == 5")
    assert straight_flush.probability(1) == Fraction(9 * 4, comb(52, 5))
    two = cards.deal(2, 2)
    assert two.names() == ["a1", "a2", "b1", "b2"]
    assert two.count(1, hand=1, value=1).equals(Deck.standard_suits().deal(2).count(1))


def test_bad_decks_and_deals_are_refused_clearly():
    with pytest.raises(ValueError, match="copies"):
        Deck({1: -1})
    with pytest.raises(TypeError):
        Deck({"ace": 4})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="as many values"):
        Deck([(1, 1), 2])
    with pytest.raises(TypeError, match="2 to 6 ints"):
        Deck([(1,)])
    with pytest.raises(ValueError, match="values 0 to 1, not 2"):
        Deck.standard().deal(5).sum(value=2)
    with pytest.raises(ValueError, match="at least one hand"):
        Deck([1]).deal()
    with pytest.raises(ValueError, match="hands 0 to 0"):
        Deck([1, 2]).deal(1).sum(hand=1)
    with pytest.raises(fairdice.ParseError, match="more than the 3 the deck holds"):
        Deck([1, 2, 3]).deal(4).sum()
    with pytest.raises(ValueError, match="a deck needs at least one card"):
        Deck({})
    with pytest.raises(fairdice.ParseError, match="a deck needs at least one card"):
        fairdice.dist("deal(deck{1:0}, 1)")
    with pytest.raises(fairdice.TooLargeError):
        Deck({v: 4 for v in range(1, 301)}).deal(30).sum()
