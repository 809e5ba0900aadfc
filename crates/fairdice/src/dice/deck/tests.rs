use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::dice::evaluator::{Pattern, PerPool};

/// Every deal of `cards` (one entry per physical card) into hands of `hands`
/// cards, card by card, each tallied by `f` of the hands' values.
fn by_enumeration(
    cards: &[Outcome],
    hands: &[usize],
    f: &dyn Fn(&[Vec<Outcome>]) -> Vec<Outcome>,
) -> BTreeMap<Vec<Outcome>, u64> {
    fn place(
        cards: &[Outcome],
        room: &mut Vec<usize>,
        held: &mut Vec<Vec<Outcome>>,
        f: &dyn Fn(&[Vec<Outcome>]) -> Vec<Outcome>,
        tally: &mut BTreeMap<Vec<Outcome>, u64>,
    ) {
        let Some((&card, rest)) = cards.split_first() else {
            *tally.entry(f(&held[..held.len() - 1])).or_default() += 1;
            return;
        };
        for hand in 0..room.len() {
            if room[hand] > 0 {
                room[hand] -= 1;
                held[hand].push(card);
                place(rest, room, held, f, tally);
                held[hand].pop();
                room[hand] += 1;
            }
        }
    }
    // The last "hand" is the undealt rest of the deck.
    let mut room: Vec<usize> = hands.to_vec();
    room.push(cards.len() - hands.iter().sum::<usize>());
    let mut held = vec![Vec::new(); room.len()];
    let mut tally = BTreeMap::new();
    place(cards, &mut room, &mut held, f, &mut tally);
    tally
}

fn largest_set(hand: &[Outcome]) -> Outcome {
    hand.iter()
        .map(|x| hand.iter().filter(|y| *y == x).count() as Outcome)
        .max()
        .unwrap_or(0)
}

fn sets(hand: &[Outcome], size: usize) -> Outcome {
    let mut values: Vec<Outcome> = hand.to_vec();
    values.sort_unstable();
    values.dedup();
    values
        .iter()
        .filter(|x| hand.iter().filter(|y| y == x).count() >= size)
        .count() as Outcome
}

fn longest_straight(hand: &[Outcome]) -> Outcome {
    hand.iter()
        .map(|&start| (0..).take_while(|i| hand.contains(&(start + i))).count() as Outcome)
        .max()
        .unwrap_or(0)
}

fn measured(hands: &[Vec<Outcome>]) -> Vec<Outcome> {
    hands
        .iter()
        .flat_map(|hand| {
            [
                largest_set(hand),
                sets(hand, 2),
                longest_straight(hand),
                hand.iter().filter(|&&x| x == 1 || x == 3).count() as Outcome,
                hand.iter().sum(),
            ]
        })
        .collect()
}

fn patterns(hands: usize) -> PerPool {
    PerPool(
        (0..hands)
            .flat_map(|h| {
                [
                    (h, Pattern::LargestSet),
                    (h, Pattern::Sets(2)),
                    (h, Pattern::LongestStraight),
                    (h, Pattern::Count(vec![1, 3])),
                    (h, Pattern::Sum),
                ]
            })
            .collect(),
    )
}

fn engine(deck: &[(Outcome, u64)], hands: &[u64]) -> BTreeMap<Vec<Outcome>, u64> {
    let deal = Deal::new(Deck::new(deck.iter().copied()).unwrap(), hands).unwrap();
    let outcomes = deal
        .evaluate(&patterns(hands.len()), &Control::new())
        .unwrap();
    let total: BigUint = outcomes.iter().map(|(_, c)| c).sum();
    assert_eq!(total, deal.total());
    outcomes
        .into_iter()
        .map(|(o, c)| (o, u64::try_from(c).unwrap()))
        .collect()
}

fn expanded(deck: &[(Outcome, u64)]) -> Vec<Outcome> {
    deck.iter()
        .flat_map(|&(v, c)| std::iter::repeat_n(v, c as usize))
        .collect()
}

#[test]
fn a_poker_hand_counts_as_every_hand_of_the_deck() {
    // Ranks of a standard deck: 2,598,960 hands, 3,744 full houses, 54,912
    // three of a kind, 123,552 two pairs, 1,098,240 one pair.
    let ranks = Deck::new((1..=13).map(|r| (r, 4))).unwrap();
    let deal = Deal::new(ranks, &[5]).unwrap();
    assert_eq!(deal.total(), BigUint::from(2_598_960u32));
    let joint = deal
        .evaluate(
            &PerPool(vec![(0, Pattern::LargestSet), (0, Pattern::Sets(2))]),
            &Control::new(),
        )
        .unwrap();
    let count = |largest: Outcome, pairs: Outcome| {
        joint
            .iter()
            .find(|(o, _)| o == &[largest, pairs])
            .map_or(0, |(_, c)| u64::try_from(c).unwrap())
    };
    assert_eq!(count(3, 2), 3_744);
    assert_eq!(count(3, 1), 54_912);
    assert_eq!(count(2, 2), 123_552);
    assert_eq!(count(2, 1), 1_098_240);
    assert_eq!(count(4, 1), 624);
}

#[test]
fn deals_count_as_every_deal_of_their_cards() {
    type Case<'a> = (&'a [(Outcome, u64)], &'a [u64]);
    let cases: &[Case] = &[
        (&[(1, 3), (2, 2), (3, 2)], &[3]),
        (&[(1, 3), (2, 2), (3, 2)], &[2, 2]),
        (&[(0, 4), (1, 3)], &[3, 2, 1]),
        (&[(-1, 1), (1, 2), (2, 1), (4, 3)], &[4]),
        (&[(5, 6)], &[2, 3]),
        (&[(1, 2), (2, 2), (3, 2), (4, 2)], &[0, 4]),
    ];
    for (deck, hands) in cases {
        let sizes: Vec<usize> = hands.iter().map(|&h| h as usize).collect();
        assert_eq!(
            engine(deck, hands),
            by_enumeration(&expanded(deck), &sizes, &measured),
            "{deck:?} dealt {hands:?}"
        );
    }
}

#[test]
fn bad_deals_are_refused() {
    assert_eq!(Deck::new([(1, 0)]), Err(DieError::EmptyDeck));
    let deck = Deck::new([(1, 3)]).unwrap();
    assert_eq!(
        Deal::new(deck.clone(), &[2, 2]),
        Err(DieError::DealTooLarge { cards: 4, deck: 3 })
    );
    assert!(matches!(
        Deal::new(deck.clone(), &[]),
        Err(DieError::TooManyHands { .. })
    ));
    assert!(matches!(
        Deal::new(deck, &[0; MAX_HANDS + 1]),
        Err(DieError::TooManyHands { .. })
    ));
}

#[test]
fn a_budget_stops_a_deal() {
    let deck = Deck::new((1..=13).map(|r| (r, 4))).unwrap();
    let deal = Deal::new(deck, &[13]).unwrap();
    let control = Control::new().with_max_steps(50);
    assert!(matches!(
        deal.evaluate(&Pattern::LargestSet, &control),
        Err(DieError::Stopped(_))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_deals_count_as_every_deal(
        copies in proptest::collection::vec(0u64..3, 1..5),
        low in -2i64..3,
        split in proptest::collection::vec(0u64..4, 1..4),
    ) {
        let deck: Vec<(Outcome, u64)> =
            copies.iter().enumerate().map(|(i, &c)| (low + i as Outcome, c)).collect();
        let n: u64 = copies.iter().sum();
        prop_assume!(n > 0 && n <= 9);
        let mut hands = split.clone();
        while hands.iter().sum::<u64>() > n {
            let biggest = hands.iter_mut().max().unwrap();
            *biggest -= 1;
        }
        let sizes: Vec<usize> = hands.iter().map(|&h| h as usize).collect();
        prop_assert_eq!(
            engine(&deck, &hands),
            by_enumeration(&expanded(&deck), &sizes, &measured)
        );
    }
}
