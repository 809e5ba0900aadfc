//! Tests of the generalized deck: its guarantee, the article's refill rule, saved states.

use super::*;
use crate::randomizer::testing::{assert_distribution_invariants, draws, tally};
use crate::rng;

fn deck(values: u64, copies: u64, refill_below: u64, refill: RefillMode) -> Deck {
    Deck::new(
        Base::values(values).expect("valid"),
        copies,
        refill_below,
        refill,
    )
    .expect("valid")
}

#[test]
fn guarantee_each_outcome_exactly_copies_times_per_cycle() {
    for (values, copies) in [(6, 1), (4, 8), (10, 3)] {
        let mut d = deck(values, copies, 1, RefillMode::TopUp);
        let cycle = (values * copies) as usize;
        let drawn = draws(&mut d, values + copies, cycle * 5);
        for chunk in drawn.chunks(cycle) {
            assert_eq!(
                tally(chunk, values as usize),
                vec![copies as usize; values as usize]
            );
        }
    }
}

#[test]
fn guarantee_plain_deck_no_outcome_leads_by_more_than_one() {
    let mut d = deck(6, 1, 1, RefillMode::TopUp);
    let mut counts = [0i64; 6];
    let mut rng = rng::seeded(11);
    for _ in 0..600 {
        counts[d.draw(&mut rng)] += 1;
        let (min, max) = (counts.iter().min(), counts.iter().max());
        assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "{counts:?}");
    }
}

#[test]
fn top_up_follows_the_articles_rule() {
    // s = 1, r = 4: after the third draw three cards remain, so a set is added.
    let mut d = deck(6, 1, 4, RefillMode::TopUp);
    for index in [0, 1, 2] {
        d.observe(index).expect("present");
    }
    assert_eq!(d.cards(), [1, 1, 1, 2, 2, 2]);
    assert_eq!(d.len(), 9);
}

#[test]
fn reshuffle_puts_every_card_back() {
    let mut d = deck(6, 1, 4, RefillMode::Reshuffle);
    for index in [0, 1, 2] {
        d.observe(index).expect("present");
    }
    assert_eq!(d.cards(), [1; 6]);
    assert!(d.restore(&[2, 1, 1, 1, 1, 1]).is_err());
    assert!(
        d.restore(&[0, 0, 0, 1, 1, 1]).is_err(),
        "3 cards never remain before a draw"
    );
}

#[test]
fn weighted_base_scales_copies() {
    let d = Deck::new(
        Base::expression("2d6").expect("valid"),
        2,
        1,
        RefillMode::TopUp,
    )
    .expect("valid");
    assert_eq!(d.len(), 72);
    assert_eq!(d.cards()[5], 12);
    assert_eq!(
        d.spec(),
        "deck(base=2d6, copies=2, refill_below=1, refill=top-up)"
    );
}

#[test]
fn observing_a_missing_card_is_an_error() {
    let mut d = deck(6, 1, 1, RefillMode::TopUp);
    d.observe(2).expect("present");
    let before = d.clone();
    let error = d.observe(2).expect_err("no second 3");
    assert!(error.to_string().contains("holds no 3"), "{error}");
    assert_eq!(d, before);
}

#[test]
fn restore_rejects_impossible_decks() {
    let mut d = deck(6, 1, 1, RefillMode::TopUp);
    assert!(d.restore(&[1, 1, 1, 1, 1]).is_err());
    assert!(d.restore(&[2, 1, 1, 1, 1, 1]).is_err());
    assert!(d.restore(&[0; 6]).is_err());
    assert!(d.restore(&[-1, 1, 1, 1, 1, 1]).is_err());
    d.restore(&[0, 0, 1, 0, 0, 0]).expect("reachable");
    assert_eq!(d.next_distribution()[2], 1.0);
}

#[test]
fn invalid_parameters() {
    let base = || Base::values(6).expect("valid");
    assert_eq!(
        Deck::new(base(), 0, 1, RefillMode::TopUp),
        Err(DeckError::NoCopies)
    );
    assert_eq!(
        Deck::new(base(), 1, 0, RefillMode::TopUp),
        Err(DeckError::NoRefillThreshold)
    );
    assert!(matches!(
        Deck::new(base(), u64::MAX, 1, RefillMode::TopUp),
        Err(DeckError::TooManyCards { .. })
    ));
    assert_eq!("Reshuffle".parse(), Ok(RefillMode::Reshuffle));
    assert!("shuffle".parse::<RefillMode>().is_err());
}

#[test]
fn distribution_invariants() {
    for (copies, refill_below, refill) in [
        (1, 1, RefillMode::TopUp),
        (1, 6, RefillMode::TopUp),
        (2, 3, RefillMode::Reshuffle),
        (1, 10, RefillMode::TopUp),
    ] {
        assert_distribution_invariants(&mut deck(6, copies, refill_below, refill), 40, 3);
    }
    let mut weighted = Deck::new(
        Base::expression("2d6").expect("valid"),
        1,
        4,
        RefillMode::TopUp,
    )
    .expect("valid");
    assert_distribution_invariants(&mut weighted, 80, 4);
}

#[test]
fn decks_too_large_to_list_are_counted_and_keep_the_guarantee() {
    // 70,000 cards per set: counted per outcome rather than listed.
    let mut big = deck(7, 10_000, 1, RefillMode::TopUp);
    assert_eq!(big.save_state(), big.state_key());
    let drawn = draws(&mut big, 1, 140_000);
    for chunk in drawn.chunks(70_000) {
        assert_eq!(tally(chunk, 7), [10_000; 7]);
    }
    assert_distribution_invariants(&mut deck(3, 30_000, 2, RefillMode::TopUp), 20, 2);
}

#[test]
fn saved_order_must_match_the_counts() {
    let mut d = deck(3, 1, 1, RefillMode::TopUp);
    assert_eq!(d.save_state(), [1, 1, 1, 0, 1, 2]);
    let drawn = d.draw(&mut rng::seeded(1));
    let saved = d.save_state();
    assert_eq!(saved.len(), 3 + 3, "two held cards, then the drawn one");
    assert_eq!(saved[5], drawn as i64);
    d.load_state(&[1, 0, 1, 2, 0]).expect("consistent");
    assert_eq!(d.cards(), [1, 0, 1]);
    assert!(
        d.load_state(&[1, 0, 1, 2, 2]).is_err(),
        "order lists two 3s"
    );
    assert!(d.load_state(&[1, 0, 1, 2]).is_err(), "one card short");
    assert!(d.load_state(&[1, 0, 1, 2, 7]).is_err(), "no outcome 7");
    assert!(d.load_state(&[1, 0]).is_err());
    // The cards drawn since the last refill may follow, when they complete the set.
    d.load_state(&[1, 0, 1, 2, 0, 1])
        .expect("the drawn 2 completes the set");
    assert_eq!(d.save_state(), [1, 0, 1, 2, 0, 1]);
    assert!(
        d.load_state(&[1, 0, 1, 2, 0, 2]).is_err(),
        "a drawn 3 does not complete the set"
    );
}

#[test]
fn value_stability() {
    let mut d = deck(6, 1, 1, RefillMode::TopUp);
    assert_eq!(draws(&mut d, 3, 12), [0, 3, 4, 2, 1, 5, 1, 4, 2, 5, 0, 3]);
    let mut d = deck(6, 1, 6, RefillMode::TopUp);
    assert_eq!(draws(&mut d, 3, 12), [0, 2, 3, 5, 0, 5, 1, 1, 0, 1, 4, 4]);
}

#[test]
fn restore_bounds_the_total_before_summing() {
    // Each count is within what one outcome may hold, but together they overflow
    // a u64 (32 × 2⁶⁰): refused, not summed.
    let big = MAX_CARDS - 64;
    let mut d = deck(32, 1, big, RefillMode::TopUp);
    let error = d
        .restore(&[big as i64; 32])
        .expect_err("more than the deck holds");
    assert!(error.to_string().contains("holds at most"), "{error}");
    let mut within = vec![1i64; 32];
    within[0] = big as i64;
    d.restore(&within).expect("within the total");
    let mut reshuffle = deck(6, 1, 1, RefillMode::Reshuffle);
    assert!(reshuffle.restore(&[1; 6]).is_ok());
    assert!(
        reshuffle
            .load_state(&[i64::MAX, i64::MAX, 0, 0, 0, 0])
            .is_err()
    );
}

#[test]
fn decks_that_draw_alike_over_a_match_name_the_deck_refilled_only_when_empty() {
    // A deck that cannot refill within the match, and a deck refilled only when
    // empty in either mode, draw as the deck refilled only when empty (topped up).
    use crate::analysis::exact::{ExactOptions, curves};
    use crate::control::Control;
    let sweep = |spec: &str, samples: usize| {
        let randomizer = crate::randomizer::Spec::build(spec).expect("a spec");
        curves(
            &randomizer,
            samples,
            &ExactOptions::default(),
            &Control::new(),
        )
        .expect("small")
        .curves
    };
    let mut named = 0;
    for (values, copies) in [(3, 1), (3, 3), (4, 2)] {
        let full = (values * copies) as usize;
        for refill_below in 1..=full as u64 + 1 {
            for refill in [RefillMode::TopUp, RefillMode::Reshuffle] {
                let d = deck(values, copies, refill_below, refill);
                for samples in 1..=full + 2 {
                    // The deck refills after draw k (of the samples − 1 that can show
                    // it) when fewer than refill_below of its cards are left.
                    let refills = (1..samples).any(|k| full - k.min(full) < refill_below as usize);
                    let same = d.same_over(samples);
                    // Refilling only when empty, the two modes are one deck.
                    let alike = !refills || refill_below == 1;
                    assert_eq!(same.is_some(), alike, "{} over {samples}", d.spec());
                    if let Some(plain) = same {
                        named += 1;
                        let (a, b) = (sweep(&d.spec(), samples), sweep(&plain, samples));
                        for (x, y) in a.entropy.iter().zip(&b.entropy) {
                            assert!((x - y).abs() < 1e-12, "{} against {plain}", d.spec());
                        }
                        for (x, y) in a.outcome_variance.iter().zip(&b.outcome_variance) {
                            assert!((x - y).abs() < 1e-12, "{} against {plain}", d.spec());
                        }
                        for (x, y) in a.repeat.iter().zip(&b.repeat) {
                            assert!((x - y).abs() < 1e-12, "{} against {plain}", d.spec());
                        }
                    }
                }
            }
        }
    }
    assert!(named > 50, "{named}");
}
