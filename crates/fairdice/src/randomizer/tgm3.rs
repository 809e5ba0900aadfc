//! [`Tgm3`]: the 35-piece bag of Tetris: The Grand Master 3 (the "Ti randomizer").
//!
//! # Design decisions
//! - The pool is kept as seven counts (pieces of each kind among its 35 slots):
//!   a uniform slot is a piece with probability count/35 whatever the slots'
//!   order, so counts are the whole state the distribution depends on. A seeded
//!   draw reads slot `k` with the slots sorted by piece (I, O, T, S, Z, J, L).
//! - The drought order is a permutation of the seven pieces, the one dealt longest
//!   ago first. Pieces the game has not dealt yet count as dealt before every
//!   other, in piece order; the starting history counts as dealt (S, Z, S, Z
//!   leaves Z the most recent and S before it), so the order starts
//!   I, O, T, J, L, S, Z.
//! - Only the dealt piece's slot changes hands, so the state after a draw depends
//!   on the piece dealt alone, as [`Randomizer::observe`] and the exact sweep need.
//!   (Accounts of the arcade game also hand the slots of rerolled pieces to the most
//!   droughted piece; that would make the next state depend on rolls the player
//!   never sees, and is not modelled.) The first piece is chosen apart from the
//!   pool (one of I, T, J, L), so it enters the history and the drought order but
//!   takes no slot.
//! - Weights are exact integers over `35^tries` ([`Tgm3::next_weights`]); the
//!   floats of [`Randomizer::next_distribution`] are derived from them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::args::{Args, SpecError};
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::piece_history::{MAX_HISTORY, PieceHistory};
use super::tetris::{FIRST_PIECES, PIECE_OUTCOMES, S, Z, piece_label};
use super::tgm::{HISTORY, first_allowed, first_piece_flag};
use super::{
    AnyRandomizer, ObserveError, Randomizer, RestoreError, STEPS_PER_DRAWN_OUTCOME, Spec,
    StateSpace, check_index, check_key_len,
};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// Pieces in the pool: five of each tetromino at the start, always 35.
pub const POOL_SIZE: u32 = 35;

/// Copies of each piece in the starting pool.
const START_COPIES: u8 = (POOL_SIZE / 7) as u8;

/// The most tries: `35^tries` must fit the exact `u128` weights.
pub const MAX_TRIES: u64 = 24;

/// Why a TGM3 randomizer could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Tgm3Error {
    /// History length outside `1..=16`.
    #[error("history must be in 1..=16 (pieces remembered), got {0}")]
    HistoryOutOfRange(u64),
    /// Tries outside `1..=24`.
    #[error(
        "tries must be in 1..=24 (draws from the pool to find a piece not in the history), got {0}"
    )]
    TriesOutOfRange(u64),
}

/// Keeps 35 pieces in its pool at every step and hands each dealt piece's slot
/// to the piece dealt longest ago, so a missing piece gains a slot per piece
/// dealt until it comes; like TGM2 it rerolls (up to `tries` draws in all) a
/// piece among the last `history`, and never deals S, Z or O first.
///
/// The pool starts with 5 of each piece and the history (`history` = 4) with
/// S, Z, S, Z. With `h` the pool's slots holding a piece of the history and `c_p`
/// those holding `p`, a piece not in the history comes with probability
/// `c_p · (35^t − h^t) / ((35 − h) · 35^t)`, one in it with `c_p · h^(t−1) / 35^t`.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, Tgm3};
/// use fairdice::rng;
///
/// let mut tgm3 = Tgm3::standard();
/// let first = tgm3.draw(&mut rng::seeded(3));
/// assert!(["I", "T", "J", "L"].contains(&tgm3.label(first).as_str()));
/// tgm3.draw(&mut rng::seeded(4));
/// assert_eq!(tgm3.pool().iter().sum::<u32>(), 35);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tgm3 {
    tries: u32,
    initial: Vec<u8>,
    history: PieceHistory,
    /// Slots of the pool holding each piece; they sum to [`POOL_SIZE`].
    pool: [u8; 7],
    /// The pieces, the one dealt longest ago first, the last dealt last.
    order: [u8; 7],
    /// True until the first piece is dealt.
    first_pending: bool,
}

impl Tgm3 {
    /// The game's settings: history 4 (starting S, Z, S, Z) and 6 tries.
    pub fn standard() -> Tgm3 {
        Tgm3::build(4, 6)
    }

    /// A TGM3 randomizer remembering `history` pieces (starting S, Z, S, Z, …)
    /// with up to `tries` draws from the pool per piece.
    ///
    /// # Errors
    /// [`Tgm3Error`] if `history` is outside `1..=16` or `tries` outside `1..=24`.
    pub fn new(history: u64, tries: u64) -> Result<Tgm3, Tgm3Error> {
        if !(1..=MAX_HISTORY).contains(&history) {
            return Err(Tgm3Error::HistoryOutOfRange(history));
        }
        if !(1..=MAX_TRIES).contains(&tries) {
            return Err(Tgm3Error::TriesOutOfRange(tries));
        }
        Ok(Tgm3::build(history as usize, tries as u32))
    }

    fn build(history: usize, tries: u32) -> Tgm3 {
        let initial: Vec<u8> = [S, Z].into_iter().cycle().take(history).collect();
        Tgm3 {
            tries,
            history: PieceHistory::new(&initial),
            order: dealt_order(&initial),
            initial,
            pool: [START_COPIES; 7],
            first_pending: true,
        }
    }

    /// The pieces remembered, oldest first.
    pub fn history(&self) -> Vec<u8> {
        self.history.pieces()
    }

    /// Draws from the pool per piece before a repeat is accepted.
    pub fn tries(&self) -> u32 {
        self.tries
    }

    /// How many of the pool's 35 slots hold each piece, in piece order.
    pub fn pool(&self) -> [u32; 7] {
        self.pool.map(u32::from)
    }

    /// The pieces from the one dealt longest ago (the next to gain a slot) to the
    /// last dealt.
    pub fn drought_order(&self) -> [u8; 7] {
        self.order
    }

    /// The exact next-sample distribution: each piece's weight and their total
    /// (4 for the first piece, else `35^tries`).
    pub fn next_weights(&self) -> ([u128; 7], u128) {
        if self.first_pending {
            let weights = std::array::from_fn(|p| u128::from(first_allowed(p as u8)));
            return (weights, FIRST_PIECES.len() as u128);
        }
        let size = u128::from(POOL_SIZE);
        let held: u128 = (0..7u8)
            .filter(|&p| self.history.contains(p))
            .map(|p| u128::from(self.pool[usize::from(p)]))
            .sum();
        // A fresh piece may come at any try: Σ_{k<t} h^k · 35^(t−1−k) per slot.
        let fresh: u128 = (0..self.tries)
            .map(|k| held.pow(k) * size.pow(self.tries - 1 - k))
            .sum();
        // A recent piece comes only at the last try, after t − 1 recent ones.
        let stale = held.pow(self.tries - 1);
        let weights = std::array::from_fn(|p| {
            let slots = u128::from(self.pool[p]);
            if self.history.contains(p as u8) {
                slots * stale
            } else {
                slots * fresh
            }
        });
        (weights, size.pow(self.tries))
    }

    /// The piece in slot `slot` (`0..35`) of the pool, slots sorted by piece: the
    /// number of pieces whose slots all come before it (counted without branches;
    /// an empty piece's slots end where the previous piece's do, so it is skipped).
    #[inline]
    fn piece_in_slot(&self, slot: u32) -> u8 {
        let mut end = 0;
        let mut piece = 0;
        for &count in &self.pool[..6] {
            end += u32::from(count);
            piece += u8::from(slot >= end);
        }
        piece
    }

    /// Deals `piece`: it enters the history and becomes the last dealt; when it
    /// came from the pool, its slot goes to the piece dealt longest ago.
    #[inline]
    fn deal(&mut self, piece: u8) {
        self.history.push(piece);
        if let Some(at) = self.order.iter().position(|&p| p == piece) {
            self.order[at..].rotate_left(1);
        }
        if !self.first_pending {
            self.pool[usize::from(piece)] -= 1;
            self.pool[usize::from(self.order[0])] += 1;
        }
        self.first_pending = false;
    }

    fn initial_state(&self) -> bool {
        self.history.pieces() == self.initial
            && self.pool == [START_COPIES; 7]
            && self.order == dealt_order(&self.initial)
    }
}

/// The drought order after dealing `pieces` (oldest first) from a start where
/// no piece was dealt: undealt pieces first in piece order, then the dealt ones
/// from the longest ago.
fn dealt_order(pieces: &[u8]) -> [u8; 7] {
    let mut order = [0, 1, 2, 3, 4, 5, 6];
    for &piece in pieces {
        if let Some(at) = order.iter().position(|&p| p == piece) {
            order[at..].rotate_left(1);
        }
    }
    order
}

impl fmt::Display for Tgm3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tgm3(history={}, tries={})",
            self.history.len(),
            self.tries
        )
    }
}

/// Reads a `tgm3` spec (`tgm3`, `tgm3(history=4, tries=6)`), as [`Spec`] does.
impl FromStr for Tgm3 {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Tgm3, SpecError> {
        let spec = Spec::parse(s)?;
        let not_tgm3 = || SpecError::UnknownName {
            name: spec.name().to_string(),
            accepted: FAMILY.usage.to_string(),
        };
        if spec.name() != FAMILY.name {
            return Err(not_tgm3());
        }
        match spec.to_randomizer()? {
            AnyRandomizer::Tgm3(tgm3) => Ok(tgm3),
            _ => Err(not_tgm3()),
        }
    }
}

impl Randomizer for Tgm3 {
    fn spec(&self) -> String {
        self.to_string()
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
        let (weights, total) = self.next_weights();
        weights.iter().map(|&w| w as f64 / total as f64).collect()
    }

    /// Twice the default: the next distribution sums exact weights over every
    /// try of the pool, and a draw rerolls up to `tries` times (measured at the
    /// default price: 10 ns a step, against 5 for `tgm` and the other families).
    fn sample_steps(&self) -> u64 {
        2 * PIECE_OUTCOMES.len() as u64 * STEPS_PER_DRAWN_OUTCOME
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let piece = if self.first_pending {
            FIRST_PIECES[rng::below(rng, 4) as usize]
        } else {
            self.history.reroll(self.tries, || {
                self.piece_in_slot(rng::below(rng, u64::from(POOL_SIZE)) as u32)
            })
        };
        self.deal(piece);
        usize::from(piece)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, 7)?;
        let impossible = |reason: String| ObserveError::Impossible {
            outcome: piece_label(index),
            reason,
        };
        if self.first_pending && !first_allowed(index as u8) {
            return Err(impossible(
                "the first piece of TGM3 is never S, Z or O".into(),
            ));
        }
        if !self.first_pending && self.pool[index] == 0 {
            return Err(impossible(format!(
                "the pool holds no {} now (its slots went to more droughted pieces)",
                piece_label(index)
            )));
        }
        self.deal(index as u8);
        Ok(())
    }

    fn reset(&mut self) {
        self.history = PieceHistory::new(&self.initial);
        self.pool = [START_COPIES; 7];
        self.order = dealt_order(&self.initial);
        self.first_pending = true;
    }
}

impl StateSpace for Tgm3 {
    /// The history (oldest first), the pool's count of each piece, the drought
    /// order (dealt longest ago first), then 1 while the first piece is to come.
    fn state_key(&self) -> Vec<i64> {
        let history = self.history.pieces().into_iter();
        let pool = self.pool.into_iter();
        history
            .chain(pool)
            .chain(self.order)
            .map(i64::from)
            .chain([i64::from(self.first_pending)])
            .collect()
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        let length = self.history.len();
        check_key_len(|| self.spec(), key, length + 15)?;
        let inconsistent = |reason: String| RestoreError::Inconsistent {
            spec: self.spec(),
            reason,
        };
        let history = PieceHistory::from_key(&key[..length]).map_err(inconsistent)?;
        let pool = &key[length..length + 7];
        if pool.iter().any(|c| !(0..=i64::from(POOL_SIZE)).contains(c))
            || pool.iter().sum::<i64>() != i64::from(POOL_SIZE)
        {
            return Err(inconsistent(format!(
                "the pool {pool:?} must hold {POOL_SIZE} pieces"
            )));
        }
        let order = &key[length + 7..length + 14];
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        if sorted != [0, 1, 2, 3, 4, 5, 6] {
            return Err(inconsistent(format!(
                "the drought order {order:?} must list each piece 0..=6 once"
            )));
        }
        // The history's pieces, from the last dealt, are the order's last ones.
        let mut recent: Vec<i64> = Vec::new();
        for &p in key[..length].iter().rev() {
            if !recent.contains(&p) {
                recent.push(p);
            }
        }
        if !recent.iter().eq(order.iter().rev().take(recent.len())) {
            return Err(inconsistent(format!(
                "the drought order {order:?} must end with the history's pieces, the last dealt last"
            )));
        }
        let mut restored = self.clone();
        restored.history = history;
        restored.pool = std::array::from_fn(|p| pool[p] as u8);
        restored.order = std::array::from_fn(|p| order[p] as u8);
        let initial = restored.initial_state();
        restored.first_pending = first_piece_flag(key[length + 14], initial, "the initial state")
            .map_err(inconsistent)?;
        *self = restored;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

/// `tgm3` or `tgm3(history=4, tries=6)`.
pub(super) const FAMILY: Family = Family {
    name: "tgm3",
    summary: "Tetris: The Grand Master 3's 35-piece bag: a dealt piece's slot goes to the piece dealt longest ago; history 4, 6 tries",
    usage: "tgm3 or tgm3(history=4, tries=6)",
    example: "tgm3",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[
        HISTORY,
        Param {
            key: "tries",
            kind: ParamKind::Count,
            default: Some("6"),
            doc: "draws from the pool made before a repeat is accepted",
            tune: Some("1..8"),
        },
    ],
    not_tunable: None,
};

/// Builds a `tgm3` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<Tgm3, SpecError> {
    Tgm3::new(args.number("history", 4)?, args.number("tries", 6)?).map_err(|e| args.invalid(&e))
}

#[cfg(test)]
mod tests;
