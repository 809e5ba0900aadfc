//! [`Deck`]: the generalized deck (size factor, refill constant, refill mode).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::args::{Args, SpecError};
use super::base::Base;
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::pile::Pile;
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::entropy::ln_count;
use crate::rng::Rng;

/// The most cards a deck may hold after a refill (keeps every sum inside a `u64`).
pub const MAX_CARDS: u64 = 1 << 60;

/// Why a deck could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// `copies=0`.
    #[error("copies must be at least 1 (cards of each outcome per refill), got 0")]
    NoCopies,
    /// `refill_below=0`.
    #[error("refill_below must be at least 1 (1 = refill only when empty), got 0")]
    NoRefillThreshold,
    /// The base's weights do not fit exact card counts.
    #[error(
        "the base's weights are too large to count as cards; use dice, dynamic or fair for this base"
    )]
    WeightsTooLarge,
    /// More cards than [`MAX_CARDS`].
    #[error(
        "a deck of {copies} copies of {per_set} cards plus a refill threshold of {refill_below} exceeds {max} cards"
    )]
    TooManyCards {
        /// Copies per refill.
        copies: u64,
        /// Cards in one set (the base's total weight).
        per_set: u64,
        /// The refill threshold.
        refill_below: u64,
        /// The limit.
        max: u64,
    },
}

/// What a refill does when fewer than `refill_below` cards remain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RefillMode {
    /// Add a full set of copies to the cards that remain (the article's rule).
    #[default]
    TopUp,
    /// Put every card back: the deck starts over as a full set (Catan's event deck).
    Reshuffle,
}

impl RefillMode {
    /// The spelling in specs: `top-up` or `reshuffle`.
    pub fn as_str(self) -> &'static str {
        match self {
            RefillMode::TopUp => "top-up",
            RefillMode::Reshuffle => "reshuffle",
        }
    }
}

impl fmt::Display for RefillMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RefillMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "top-up" | "topup" => Ok(RefillMode::TopUp),
            "reshuffle" => Ok(RefillMode::Reshuffle),
            _ => Err(format!(
                "refill={s} is not a refill mode; accepted: top-up, reshuffle"
            )),
        }
    }
}

/// Deals every outcome exactly `copies` times per `copies · n` draws when
/// `refill_below = 1` (n the number of cards in one set); in general, draws without
/// replacement and, after each draw, once, refills if fewer than `refill_below`
/// cards remain.
///
/// The deck starts with `copies` cards of each outcome (with a weighted base,
/// `copies × count`: `base=2d6` holds 36 cards per copy, six of them 7s). After
/// every draw: `if cards < refill_below { refill }`, where a refill either adds a
/// full set to what remains ([`RefillMode::TopUp`], the generalized deck of
/// "Making Randomness Fair") or puts every card back ([`RefillMode::Reshuffle`]).
/// The article's "refill when 3 values remain" is `refill_below = 4`.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Base, Deck, Randomizer, RefillMode};
/// use fairdice::rng;
///
/// let mut deck = Deck::new(Base::values(6)?, 2, 1, RefillMode::TopUp)?;
/// let mut generator = rng::seeded(1);
/// let mut counts = [0; 6];
/// for _ in 0..12 {
///     counts[deck.draw(&mut generator)] += 1;
/// }
/// assert_eq!(counts, [2; 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Design decisions
/// The cards live in a pile: listed one by one when the deck can never hold
/// more than 65,536 cards, so a draw is one bounded integer and a swap (`O(1)`, as
/// fast as a die), with the drawn cards kept behind the held ones so a refill of
/// an empty or reshuffled deck copies nothing; counted per outcome otherwise, so
/// a deck of `base=10d10` (10¹⁰ cards) still works, in `O(log n)` per draw. The
/// state key is the count of cards per outcome; a saved state also records the
/// listed order and the drawn cards, which decide a seeded run's future.
#[derive(Debug, Clone, PartialEq)]
pub struct Deck {
    base: Base,
    copies: u64,
    refill_below: u64,
    refill: RefillMode,
    /// Cards of each outcome one refill adds: `copies × count`.
    set: Vec<u64>,
    /// The same set as a list of cards in outcome order (empty for a counted pile).
    set_list: Vec<u32>,
    cards: Pile,
}

impl Deck {
    /// A deck over `base` with `copies` cards per outcome count, refilled after a
    /// draw that leaves fewer than `refill_below` cards.
    ///
    /// # Errors
    /// [`DeckError::NoCopies`], [`DeckError::NoRefillThreshold`] for zeros;
    /// [`DeckError::WeightsTooLarge`] / [`DeckError::TooManyCards`] when the cards
    /// cannot be counted in a `u64`.
    pub fn new(
        base: Base,
        copies: u64,
        refill_below: u64,
        refill: RefillMode,
    ) -> Result<Deck, DeckError> {
        if copies == 0 {
            return Err(DeckError::NoCopies);
        }
        if refill_below == 0 {
            return Err(DeckError::NoRefillThreshold);
        }
        let counts = base.counts().ok_or(DeckError::WeightsTooLarge)?;
        let per_set: u64 = counts.iter().sum();
        let too_many = DeckError::TooManyCards {
            copies,
            per_set,
            refill_below,
            max: MAX_CARDS,
        };
        let full = per_set
            .checked_mul(copies)
            .and_then(|c| c.checked_add(refill_below));
        if full.is_none_or(|c| c > MAX_CARDS) {
            return Err(too_many);
        }
        let set: Vec<u64> = counts.iter().map(|&c| c * copies).collect();
        let capacity = per_set * copies + refill_below;
        let cards = Pile::new(&set, capacity);
        let set_list = cards.order().map(<[u32]>::to_vec).unwrap_or_default();
        Ok(Deck {
            base,
            copies,
            refill_below,
            refill,
            set,
            set_list,
            cards,
        })
    }

    /// The base distribution.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// Copies per refill (the size factor `s`).
    pub fn copies(&self) -> u64 {
        self.copies
    }

    /// The refill constant `r`: refill after a draw that leaves fewer cards.
    pub fn refill_below(&self) -> u64 {
        self.refill_below
    }

    /// The refill mode.
    pub fn refill(&self) -> RefillMode {
        self.refill
    }

    /// Cards left of each outcome.
    pub fn cards(&self) -> &[u64] {
        self.cards.counts()
    }

    /// Cards left in all.
    pub fn len(&self) -> u64 {
        self.cards.len()
    }

    /// Always false: a deck refills before it runs out.
    pub fn is_empty(&self) -> bool {
        self.cards.len() == 0
    }

    /// Refills if fewer than `refill_below` cards remain (once, after each draw).
    #[inline(always)]
    fn after_draw(&mut self) {
        if self.cards.len() < self.refill_below {
            self.refill_now();
        }
    }

    #[cold]
    fn refill_now(&mut self) {
        if self.refill == RefillMode::Reshuffle || self.cards.is_empty() {
            self.cards.restock(&self.set, &self.set_list);
        } else {
            self.cards.add_listed(&self.set, &self.set_list);
        }
    }

    /// Checks per-outcome card counts against what this deck can hold.
    fn check_counts(&self, counts: &[u64]) -> Result<(), RestoreError> {
        for (index, &k) in counts.iter().enumerate() {
            let max = self.max_cards(index);
            if k > max {
                return Err(self.inconsistent(format!(
                    "it holds {k} cards of {} but this deck holds between 0 and {max}",
                    self.label(index)
                )));
            }
        }
        // Summed wide: each count is in range, their sum need not be.
        let total: u128 = counts.iter().map(|&k| u128::from(k)).sum();
        let set_total: u64 = self.set.iter().sum();
        // At most a full set plus what a top-up refill found left.
        let max_total = match self.refill {
            RefillMode::TopUp => set_total + (self.refill_below - 1),
            RefillMode::Reshuffle => set_total,
        };
        if total > u128::from(max_total) {
            return Err(self.inconsistent(format!(
                "it holds {total} cards but this deck holds at most {max_total}"
            )));
        }
        // After a draw the deck either kept at least `refill_below` cards or was
        // refilled to at least a full set, in both modes.
        let min_total = self.refill_below.min(set_total);
        if total < u128::from(min_total) {
            return Err(self.inconsistent(format!(
                "it holds {total} cards but this deck always holds at least {min_total} before a draw"
            )));
        }
        Ok(())
    }

    fn inconsistent(&self, reason: String) -> RestoreError {
        RestoreError::Inconsistent {
            spec: self.spec(),
            reason,
        }
    }

    /// The most cards of outcome `index` the deck can hold: a full set plus what
    /// may remain when a top-up refill happens (fewer than `refill_below`).
    fn max_cards(&self, index: usize) -> u64 {
        match self.refill {
            RefillMode::TopUp => self.set[index] + (self.refill_below - 1),
            RefillMode::Reshuffle => self.set[index],
        }
    }

    pub(crate) fn spec_args(&self) -> String {
        format!(
            "copies={}, refill_below={}, refill={}",
            self.copies, self.refill_below, self.refill
        )
    }
}

impl Randomizer for Deck {
    fn spec(&self) -> String {
        format!("deck({}, {})", self.base.spec(), self.spec_args())
    }

    /// From full, draw `k` leaves `N − k` cards and refills if that is fewer than
    /// `refill_below`; a refill after the last draw never shows. So when the
    /// `samples − 1` draws that can show one all leave enough, any threshold and
    /// refill mode draw alike: the deck that refills only when empty. That deck's
    /// two modes are one deck at any length (an empty deck topped up is full).
    fn same_over(&self, samples: usize) -> Option<String> {
        let full: u64 = self.set.iter().sum();
        let shown = samples.saturating_sub(1) as u64;
        let refills = full
            .checked_sub(shown)
            .is_none_or(|left| left < self.refill_below);
        if shown > 0 && refills && self.refill_below > 1 {
            return None;
        }
        let plain = Deck::new(self.base.clone(), self.copies, 1, RefillMode::TopUp).ok()?;
        Some(plain.spec())
    }

    fn outcomes(&self) -> &[Outcome] {
        self.base.outcomes()
    }

    fn base_distribution(&self) -> Vec<f64> {
        self.base().probabilities().to_vec()
    }

    fn next_distribution(&self) -> Vec<f64> {
        let total = self.cards.len() as f64;
        self.cards
            .counts()
            .iter()
            .map(|&c| c as f64 / total)
            .collect()
    }

    /// The cards left, `c_i` of `C`, give `H = ln C − Σ c_i ln c_i / C`: one
    /// logarithm, the counts' from a table.
    fn next_entropy_fraction(&self) -> f64 {
        let counts = self.cards.counts();
        let total = self.cards.len();
        if counts.len() <= 1 || total == 0 {
            return crate::entropy::entropy_fraction(&self.next_distribution());
        }
        let sum: f64 = counts
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| c as f64 * ln_count(c))
            .sum();
        let nats = ln_count(total) - sum / total as f64;
        (nats / ln_count(counts.len() as u64)).clamp(0.0, 1.0)
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let index = self.cards.draw(rng);
        self.after_draw();
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.base.len())?;
        if !self.cards.remove(index) {
            return Err(ObserveError::Impossible {
                outcome: self.label(index),
                reason: format!(
                    "the deck holds no {} (every copy has been drawn since the last refill)",
                    self.label(index)
                ),
            });
        }
        self.after_draw();
        Ok(())
    }

    fn reset(&mut self) {
        self.cards.fill(&self.set, &self.set_list);
    }
}

impl StateSpace for Deck {
    /// Cards left of each outcome.
    fn state_key(&self) -> Vec<i64> {
        self.cards.counts().iter().map(|&c| c as i64).collect()
    }

    /// Sets the cards per outcome (a listed deck lists them in outcome order).
    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.base.len())?;
        if let Some(index) = key.iter().position(|&k| k < 0) {
            return Err(self.inconsistent(format!(
                "it holds {} cards of {}",
                key[index],
                self.label(index)
            )));
        }
        let counts: Vec<u64> = key.iter().map(|&k| k as u64).collect();
        self.check_counts(&counts)?;
        self.cards.set_counts(&counts, &self.set);
        Ok(())
    }

    /// The cards per outcome (the state key), then, for a listed deck, the cards in
    /// listed order (outcome indices), then the cards drawn since the deck last
    /// held a whole set, if they make it up with the held ones: the order decides
    /// which card a seeded draw takes, and the drawn cards the order after a refill.
    fn save_state(&self) -> Vec<i64> {
        let mut saved = self.state_key();
        if let Some(order) = self.cards.order() {
            saved.extend(order.iter().map(|&c| i64::from(c)));
            saved.extend(self.cards.drawn().iter().map(|&c| i64::from(c)));
        }
        saved
    }

    fn load_state(&mut self, saved: &[i64]) -> Result<(), RestoreError> {
        let Some(_) = self.cards.order() else {
            return self.restore(saved);
        };
        let n = self.base.len();
        if saved.len() < n {
            return Err(RestoreError::WrongLength {
                spec: self.spec(),
                expected: n,
                found: saved.len(),
            });
        }
        let (key, listed_cards) = saved.split_at(n);
        if let Some(index) = key.iter().position(|&k| k < 0) {
            return Err(self.inconsistent(format!(
                "it holds {} cards of {}",
                key[index],
                self.label(index)
            )));
        }
        let counts: Vec<u64> = key.iter().map(|&k| k as u64).collect();
        self.check_counts(&counts)?;
        let listed: u64 = counts.iter().sum();
        if (listed_cards.len() as u64) < listed {
            return Err(RestoreError::WrongLength {
                spec: self.spec(),
                expected: n + listed as usize,
                found: saved.len(),
            });
        }
        if let Some(&bad) = listed_cards.iter().find(|&&c| c < 0 || c as usize >= n) {
            return Err(self.inconsistent(format!("card {bad} is not an outcome index 0..{n}")));
        }
        let listed_cards: Vec<u32> = listed_cards.iter().map(|&c| c as u32).collect();
        let (order, drawn) = listed_cards.split_at(listed as usize);
        let tally = |cards: &[u32]| {
            let mut tally = vec![0u64; n];
            for &c in cards {
                tally[c as usize] += 1;
            }
            tally
        };
        if tally(order) != counts {
            return Err(
                self.inconsistent("its card list does not match its counts per outcome".into())
            );
        }
        if !drawn.is_empty() && tally(&listed_cards) != self.set {
            return Err(self.inconsistent(
                "its drawn cards and its held cards do not make up one refill".into(),
            ));
        }
        self.cards.set_order(order, drawn, &self.set);
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        self.base.is_uniform()
    }
}

/// `deck(values=N | base=EXPR, copies=1, refill_below=1, refill=top-up|reshuffle)`.
pub(super) const FAMILY: Family = Family {
    name: "deck",
    summary: "the generalized deck: each outcome `copies` times, refilled below `refill_below` cards",
    usage: "deck(values=N | base=EXPR, copies=1, refill_below=1, refill=top-up|reshuffle)",
    example: "deck(values=6, copies=1, refill_below=6)",
    outcomes: OutcomeKeys::ValuesOrBase,
    params: &[
        Param {
            key: "copies",
            kind: ParamKind::Count,
            default: Some("1"),
            doc: "cards of each outcome added at each refill (the size factor)",
            tune: Some("1..10"),
        },
        Param {
            key: "refill_below",
            kind: ParamKind::Count,
            default: Some("1"),
            doc: "refill when fewer cards than this remain (the refill constant)",
            tune: Some("1..10"),
        },
        Param {
            key: "refill",
            kind: ParamKind::Word(&["top-up", "reshuffle"]),
            default: Some("top-up"),
            doc: "top-up adds `copies` of every outcome; reshuffle puts every card back",
            tune: Some(""),
        },
    ],
    not_tunable: None,
};

/// Builds a `deck` randomizer from its spec's checked arguments.
// The other keys are read before the base, which may take a while to build.
pub(super) fn build(args: &Args<'_>) -> Result<Deck, SpecError> {
    let copies = args.number("copies", 1)?;
    let refill_below = args.number("refill_below", 1)?;
    let refill = args.parsed::<RefillMode>("refill")?.unwrap_or_default();
    Deck::new(args.base()?, copies, refill_below, refill).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests;
