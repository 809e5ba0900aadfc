//! Tetris piece randomizers: [`Nes`] and the [`SevenBag`] (the TGM randomizers
//! are in `tgm.rs` and `tgm3.rs`).
//!
//! Pieces are outcome indices `0..7` in the order of [`PIECES`]: I, O, T, S, Z, J, L.

use super::args::{Args, SpecError};
use super::base::Base;
use super::deck::{Deck, RefillMode};
use super::family::kinds::{Family, OutcomeKeys};
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// The seven tetrominoes, by outcome index.
pub const PIECES: [&str; 7] = ["I", "O", "T", "S", "Z", "J", "L"];

pub(crate) const PIECE_OUTCOMES: [Outcome; 7] = [0, 1, 2, 3, 4, 5, 6];
/// Piece indices the TGM rules name.
pub(crate) const O: u8 = 1;
pub(crate) const S: u8 = 3;
pub(crate) const Z: u8 = 4;
/// The pieces a TGM game may deal first (never S, Z or O): I, T, J, L.
pub(crate) const FIRST_PIECES: [u8; 4] = [0, 2, 5, 6];

pub(crate) fn piece_label(index: usize) -> String {
    PIECES
        .get(index)
        .map_or_else(|| format!("#{index}"), |p| (*p).to_string())
}

/// Makes an immediate repeat of the previous piece rare (1/28 instead of 1/7), as
/// the NES game does: roll one of 8; if it is the 8th or repeats the previous
/// piece, roll one of 7 once more and accept it.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Nes, Randomizer};
///
/// let mut nes = Nes::new();
/// nes.observe(2)?; // a T
/// let next = nes.next_distribution();
/// assert!((next[2] - 1.0 / 28.0).abs() < 1e-15);
/// assert!((next[0] - 9.0 / 56.0).abs() < 1e-15);
/// # Ok::<(), fairdice::randomizer::ObserveError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Nes {
    previous: Option<u8>,
}

impl Nes {
    /// A fresh NES randomizer (no previous piece).
    #[allow(clippy::new_without_default)] // randomizers are never Default
    pub fn new() -> Nes {
        Nes { previous: None }
    }
}

impl Randomizer for Nes {
    fn spec(&self) -> String {
        "nes".into()
    }

    fn outcomes(&self) -> &[Outcome] {
        &PIECE_OUTCOMES
    }

    fn label(&self, index: usize) -> String {
        piece_label(index)
    }

    /// Every outcome alike: the guarantee is about order, not shares.
    fn base_distribution(&self) -> Vec<f64> {
        let n = self.outcomes().len();
        vec![1.0 / n as f64; n]
    }

    fn next_distribution(&self) -> Vec<f64> {
        match self.previous {
            None => vec![1.0 / 7.0; 7],
            Some(previous) => {
                let mut p = vec![9.0 / 56.0; 7];
                p[usize::from(previous)] = 2.0 / 56.0;
                p
            }
        }
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let mut piece = rng::below(rng, 8) as u8;
        if piece == 7 || Some(piece) == self.previous {
            piece = rng::below(rng, 7) as u8;
        }
        self.previous = Some(piece);
        usize::from(piece)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, 7)?;
        self.previous = Some(index as u8);
        Ok(())
    }

    fn reset(&mut self) {
        self.previous = None;
    }
}

impl StateSpace for Nes {
    /// `[previous piece]`, or `[-1]` before the first.
    fn state_key(&self) -> Vec<i64> {
        vec![self.previous.map_or(-1, i64::from)]
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, 1)?;
        self.previous = match key[0] {
            -1 => None,
            p @ 0..=6 => Some(p as u8),
            other => {
                return Err(RestoreError::Inconsistent {
                    spec: self.spec(),
                    reason: format!("previous piece {other} is not -1 (none) or a piece 0..=6"),
                });
            }
        };
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

/// Deals each of the seven pieces exactly once per seven pieces: a deck of one set
/// of tetrominoes, refilled when empty (the "7-bag" of modern Tetris).
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, SevenBag};
/// use fairdice::rng;
///
/// let mut bag = SevenBag::new();
/// let mut generator = rng::seeded(1);
/// let mut pieces: Vec<String> = (0..7).map(|_| {
///     let index = bag.draw(&mut generator);
///     bag.label(index)
/// }).collect();
/// pieces.sort();
/// assert_eq!(pieces, ["I", "J", "L", "O", "S", "T", "Z"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SevenBag {
    deck: Deck,
}

impl SevenBag {
    /// A full bag of the seven pieces.
    #[allow(clippy::new_without_default)] // randomizers are never Default
    pub fn new() -> SevenBag {
        let base = Base::range(0, 6).expect("seven outcomes");
        let deck = Deck::new(base, 1, 1, RefillMode::TopUp).expect("a valid deck");
        SevenBag { deck }
    }
}

impl Randomizer for SevenBag {
    fn spec(&self) -> String {
        "bag7".into()
    }

    fn outcomes(&self) -> &[Outcome] {
        &PIECE_OUTCOMES
    }

    fn label(&self, index: usize) -> String {
        piece_label(index)
    }

    /// Every outcome alike: the guarantee is about order, not shares.
    fn base_distribution(&self) -> Vec<f64> {
        let n = self.outcomes().len();
        vec![1.0 / n as f64; n]
    }

    fn next_distribution(&self) -> Vec<f64> {
        self.deck.next_distribution()
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        self.deck.draw(rng)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        self.deck.observe(index)
    }

    fn reset(&mut self) {
        self.deck.reset();
    }
}

impl StateSpace for SevenBag {
    /// Pieces left in the bag, one entry per piece.
    fn state_key(&self) -> Vec<i64> {
        self.deck.state_key()
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        self.deck.restore(key).map_err(|e| e.with_spec(self.spec()))
    }

    fn save_state(&self) -> Vec<i64> {
        self.deck.save_state()
    }

    fn load_state(&mut self, saved: &[i64]) -> Result<(), RestoreError> {
        self.deck
            .load_state(saved)
            .map_err(|e| e.with_spec(self.spec()))
    }

    fn exchangeable(&self) -> bool {
        true
    }
}

/// `nes`.
pub(super) const NES: Family = Family {
    name: "nes",
    summary: "NES Tetris: a random piece, rerolled once if it repeats the last",
    usage: "nes",
    example: "nes",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[],
    not_tunable: None,
};

/// Builds a `nes` randomizer from its spec's checked arguments.
pub(super) fn build_nes(_args: &Args<'_>) -> Result<Nes, SpecError> {
    Ok(Nes::new())
}

/// `bag7`.
pub(super) const SEVEN_BAG: Family = Family {
    name: "bag7",
    summary: "the 7-bag of modern Tetris: the seven pieces in a shuffled bag",
    usage: "bag7",
    example: "bag7",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[],
    not_tunable: None,
};

/// Builds a `bag7` randomizer from its spec's checked arguments.
pub(super) fn build_seven_bag(_args: &Args<'_>) -> Result<SevenBag, SpecError> {
    Ok(SevenBag::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws, tally};

    #[test]
    fn guarantee_nes_repeats_one_time_in_28() {
        let mut nes = Nes::new();
        let drawn = draws(&mut nes, 5, 280_001);
        let repeats = drawn.windows(2).filter(|w| w[0] == w[1]).count();
        // Expected 10,000; five standard deviations is about 490.
        assert!((repeats as i64 - 10_000).abs() < 500, "{repeats}");
    }

    #[test]
    fn seven_bag_deals_every_piece_once_per_seven() {
        let drawn = draws(&mut SevenBag::new(), 8, 70);
        for chunk in drawn.chunks(7) {
            assert_eq!(tally(chunk, 7), [1; 7]);
        }
    }

    #[test]
    fn nes_restore_rejects_a_non_piece() {
        assert!(Nes::new().restore(&[7]).is_err());
        assert!(Nes::new().restore(&[-1]).is_ok());
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut Nes::new(), 30, 1);
        assert_distribution_invariants(&mut SevenBag::new(), 30, 5);
    }

    #[test]
    fn value_stability() {
        let names = |r: &mut dyn Randomizer| -> String {
            draws(r, 3, 14).iter().map(|&i| PIECES[i]).collect()
        };
        assert_eq!(names(&mut Nes::new()), "IJLZIOZIZOTSIS");
        assert_eq!(names(&mut SevenBag::new()), "ISZJOLTZJTOISL");
    }
}
