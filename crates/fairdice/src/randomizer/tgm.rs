//! [`Tgm`]: the Tetris: The Grand Master randomizers (TGM1 and TGM2 presets).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::args::{Args, SpecError};
use super::family::kinds::{Family, OutcomeKeys, Param, ParamKind};
use super::piece_history::{MAX_HISTORY, PieceHistory};
use super::tetris::{FIRST_PIECES, O, PIECE_OUTCOMES, S, Z, piece_label};
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// Why a TGM randomizer could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TgmError {
    /// History length outside `1..=16`.
    #[error("history must be in 1..=16 (pieces remembered), got {0}")]
    HistoryOutOfRange(u64),
    /// Tries outside `1..=64`.
    #[error("tries must be in 1..=64 (rolls to find a piece not in the history), got {0}")]
    TriesOutOfRange(u64),
}

/// The Tetris: The Grand Master presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TgmPreset {
    /// TGM1: history of 4 starting Z, Z, Z, Z; 4 tries.
    Tgm1,
    /// TGM2: history of 4 starting Z, Z, S, S; 6 tries; the first piece is never
    /// S, Z or O.
    Tgm2,
}

impl TgmPreset {
    /// The spelling in specs: `tgm1` or `tgm2`.
    pub fn as_str(self) -> &'static str {
        match self {
            TgmPreset::Tgm1 => "tgm1",
            TgmPreset::Tgm2 => "tgm2",
        }
    }
}

impl fmt::Display for TgmPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TgmPreset {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tgm1" | "tgm" => Ok(TgmPreset::Tgm1),
            "tgm2" | "tap" => Ok(TgmPreset::Tgm2),
            _ => Err(format!(
                "preset={s} is not a TGM preset; accepted: tgm1, tgm2"
            )),
        }
    }
}

/// Rarely deals a piece seen among the last `history` pieces: each draw rolls up
/// to `tries` times for a piece not in the history and keeps the last roll if
/// every try hits it.
///
/// The history is kept oldest first; each piece drawn pushes out the oldest.
/// A piece not in the history (`m` distinct pieces in it) comes with probability
/// `(1 − (m/7)^tries) / (7 − m)`, one in it with `(m/7)^(tries−1) / 7`.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, Tgm, TgmPreset};
/// use fairdice::rng;
///
/// let mut tgm2 = Tgm::preset(TgmPreset::Tgm2);
/// let first = tgm2.draw(&mut rng::seeded(3));
/// assert!(["I", "T", "J", "L"].contains(&tgm2.label(first).as_str()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tgm {
    preset: Option<TgmPreset>,
    tries: u32,
    initial: Vec<u8>,
    history: PieceHistory,
    /// True until the first piece when the first piece may not be S, Z or O.
    first_pending: bool,
    first_rule: bool,
}

impl Tgm {
    /// A TGM randomizer remembering `history` pieces (starting as all Z, as TGM1)
    /// with `tries` rolls per piece.
    ///
    /// # Errors
    /// [`TgmError`] if `history` is outside `1..=16` or `tries` outside `1..=64`.
    pub fn new(history: u64, tries: u64) -> Result<Tgm, TgmError> {
        if !(1..=MAX_HISTORY).contains(&history) {
            return Err(TgmError::HistoryOutOfRange(history));
        }
        if !(1..=64).contains(&tries) {
            return Err(TgmError::TriesOutOfRange(tries));
        }
        Ok(Tgm::build(
            None,
            tries as u32,
            vec![Z; history as usize],
            false,
        ))
    }

    /// The TGM1 or TGM2 randomizer.
    pub fn preset(preset: TgmPreset) -> Tgm {
        match preset {
            TgmPreset::Tgm1 => Tgm::build(Some(preset), 4, vec![Z, Z, Z, Z], false),
            TgmPreset::Tgm2 => Tgm::build(Some(preset), 6, vec![Z, Z, S, S], true),
        }
    }

    fn build(preset: Option<TgmPreset>, tries: u32, initial: Vec<u8>, first_rule: bool) -> Tgm {
        Tgm {
            preset,
            tries,
            history: PieceHistory::new(&initial),
            initial,
            first_pending: first_rule,
            first_rule,
        }
    }

    /// The pieces remembered, oldest first.
    pub fn history(&self) -> Vec<u8> {
        self.history.pieces()
    }

    /// Rolls per piece.
    pub fn tries(&self) -> u32 {
        self.tries
    }

    #[inline]
    fn push(&mut self, piece: u8) {
        self.history.push(piece);
        self.first_pending = false;
    }
}

/// Reads a state key's first-piece flag: 1 (the first piece is still to come)
/// only in a state that may be the `initial` one (`where` names it), or 0.
///
/// # Errors
/// Why the flag is impossible, as a sentence.
pub(crate) fn first_piece_flag(flag: i64, initial: bool, where_: &str) -> Result<bool, String> {
    match flag {
        0 => Ok(false),
        1 if initial => Ok(true),
        1 => Err(format!("the first piece is pending only in {where_}")),
        other => Err(format!("first-piece flag {other} is not 0 or 1")),
    }
}

/// Whether `piece` may be the first of a game with the first-piece rule (never
/// S, Z or O).
pub(crate) fn first_allowed(piece: u8) -> bool {
    !matches!(piece, O | S | Z)
}

impl Randomizer for Tgm {
    fn spec(&self) -> String {
        match self.preset {
            Some(preset) => format!("tgm(preset={preset})"),
            None => format!("tgm(history={}, tries={})", self.history.len(), self.tries),
        }
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
        if self.first_pending {
            return (0..7u8)
                .map(|p| if first_allowed(p) { 0.25 } else { 0.0 })
                .collect();
        }
        let seen = self.history.seen();
        let m = seen.count_ones();
        let hit = f64::from(m) / 7.0;
        let all_hit = hit.powi(self.tries as i32);
        let fresh = if m == 7 {
            0.0
        } else {
            (1.0 - all_hit) / f64::from(7 - m)
        };
        let stale = hit.powi(self.tries as i32 - 1) / 7.0;
        (0..7u8)
            .map(|p| if seen & (1 << p) != 0 { stale } else { fresh })
            .collect()
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        let piece = if self.first_pending {
            FIRST_PIECES[rng::below(rng, 4) as usize]
        } else {
            self.history.reroll(self.tries, || rng::below(rng, 7) as u8)
        };
        self.push(piece);
        usize::from(piece)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, 7)?;
        if self.first_pending && !first_allowed(index as u8) {
            return Err(ObserveError::Impossible {
                outcome: piece_label(index),
                reason: "the first piece of TGM2 is never S, Z or O".into(),
            });
        }
        self.push(index as u8);
        Ok(())
    }

    fn reset(&mut self) {
        self.history = PieceHistory::new(&self.initial);
        self.first_pending = self.first_rule;
    }
}

impl StateSpace for Tgm {
    /// The history (oldest first), then 1 if the first piece is still to come
    /// under TGM2's first-piece rule, else 0.
    fn state_key(&self) -> Vec<i64> {
        let mut key: Vec<i64> = self.history().iter().map(|&p| i64::from(p)).collect();
        key.push(i64::from(self.first_pending));
        key
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.history.len() + 1)?;
        let (history, flag) = key.split_at(self.history.len());
        let inconsistent = |reason: String| RestoreError::Inconsistent {
            spec: self.spec(),
            reason,
        };
        let history = PieceHistory::from_key(history).map_err(inconsistent)?;
        let initial = self.first_rule && history.pieces() == self.initial;
        let first_pending =
            first_piece_flag(flag[0], initial, "TGM2's initial state").map_err(inconsistent)?;
        self.history = history;
        self.first_pending = first_pending;
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        false
    }
}

/// The history length of the TGM families: 4 by default, tuned over 1..6.
pub(super) const HISTORY: Param = Param {
    key: "history",
    kind: ParamKind::Count,
    default: Some("4"),
    doc: "how many recent pieces a new piece should differ from",
    tune: Some("1..6"),
};

/// `tgm(preset=tgm1|tgm2)` or `tgm(history=4, tries=4)`.
pub(super) const FAMILY: Family = Family {
    name: "tgm",
    summary: "TGM-style history: rerolls a piece among the last `history` up to `tries` times",
    usage: "tgm(preset=tgm1|tgm2) or tgm(history=4, tries=4)",
    example: "tgm(history=4, tries=6)",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[
        Param {
            key: "preset",
            kind: ParamKind::Word(&["tgm1", "tgm2"]),
            default: None,
            doc: "a game's settings: tgm1 (history 4, 4 tries) or tgm2 (history 4, 6 tries)",
            tune: None,
        },
        HISTORY,
        Param {
            key: "tries",
            kind: ParamKind::Count,
            default: Some("4"),
            doc: "draws made before a repeat is accepted",
            tune: Some("1..8"),
        },
    ],
    not_tunable: None,
};

/// Builds a `tgm` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<Tgm, SpecError> {
    match args.parsed::<TgmPreset>("preset")? {
        Some(preset) if args.has("history") || args.has("tries") => Err(args.missing(&format!(
            "preset={preset} fixes history and tries; give either a preset or history/tries"
        ))),
        Some(preset) => Ok(Tgm::preset(preset)),
        None => Ok(
            Tgm::new(args.number("history", 4)?, args.number("tries", 4)?)
                .map_err(|e| args.invalid(&e))?,
        ),
    }
}

/// `tgm1`: The Grand Master's randomizer.
pub(super) const TGM1: Family = Family {
    name: "tgm1",
    summary: "Tetris: The Grand Master's randomizer (history 4, 4 tries)",
    usage: "tgm1",
    example: "tgm1",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[],
    not_tunable: None,
};

/// Builds a `tgm1` randomizer from its spec's checked arguments.
pub(super) fn build_tgm1(_args: &Args<'_>) -> Result<Tgm, SpecError> {
    Ok(Tgm::preset(TgmPreset::Tgm1))
}

/// `tgm2`: The Grand Master 2's randomizer.
pub(super) const TGM2: Family = Family {
    name: "tgm2",
    summary: "Tetris: The Grand Master 2's randomizer (history 4, 6 tries)",
    usage: "tgm2",
    example: "tgm2",
    outcomes: OutcomeKeys::Tetrominoes,
    params: &[],
    not_tunable: None,
};

/// Builds a `tgm2` randomizer from its spec's checked arguments.
pub(super) fn build_tgm2(_args: &Args<'_>) -> Result<Tgm, SpecError> {
    Ok(Tgm::preset(TgmPreset::Tgm2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::PIECES;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    #[test]
    fn guarantee_tgm2_first_piece_is_never_s_z_or_o() {
        for seed in 0..200 {
            let mut tgm = Tgm::preset(TgmPreset::Tgm2);
            let first = draws(&mut tgm, seed, 1)[0];
            assert!(
                !["S", "Z", "O"].contains(&PIECES[first]),
                "seed {seed}: {}",
                PIECES[first]
            );
        }
        let mut tgm = Tgm::preset(TgmPreset::Tgm2);
        assert!(tgm.observe(4).is_err());
        tgm.observe(0).expect("an I may come first");
        assert_eq!(tgm.history(), [Z, S, S, 0]);
    }

    #[test]
    fn tgm_distribution_matches_the_try_loop() {
        // TGM1 start: history Z,Z,Z,Z, one distinct piece.
        let tgm = Tgm::preset(TgmPreset::Tgm1);
        let p = tgm.next_distribution();
        let stale = (1.0f64 / 7.0).powi(3) / 7.0;
        assert!((p[usize::from(Z)] - stale).abs() < 1e-15);
        assert!((p[0] - (1.0 - (1.0f64 / 7.0).powi(4)) / 6.0).abs() < 1e-15);
        // Brute force over all 7^tries roll sequences for a mixed history.
        let mut tgm = Tgm::new(4, 3).expect("valid");
        for piece in [0, 2, 2, 5] {
            tgm.observe(piece).expect("possible");
        }
        let mut exact = [0.0; 7];
        for code in 0..343 {
            let rolls = [code % 7, code / 7 % 7, code / 49];
            let kept = rolls
                .iter()
                .find(|&&r| !tgm.history.contains(r as u8))
                .unwrap_or(&rolls[2]);
            exact[*kept as usize] += 1.0 / 343.0;
        }
        for (a, b) in tgm.next_distribution().iter().zip(exact) {
            assert!((a - b).abs() < 1e-15);
        }
    }

    #[test]
    fn invalid_and_impossible() {
        assert_eq!(Tgm::new(0, 4), Err(TgmError::HistoryOutOfRange(0)));
        assert_eq!(Tgm::new(4, 0), Err(TgmError::TriesOutOfRange(0)));
        let mut tgm = Tgm::preset(TgmPreset::Tgm1);
        assert!(
            tgm.restore(&[4, 4, 4, 4, 1]).is_err(),
            "TGM1 has no first-piece rule"
        );
        assert!(tgm.restore(&[4, 4, 4, 9, 0]).is_err());
        assert_eq!("TGM2".parse(), Ok(TgmPreset::Tgm2));
        assert_eq!(
            Tgm::new(4, 6).expect("valid").spec(),
            "tgm(history=4, tries=6)"
        );
        assert_eq!(Tgm::preset(TgmPreset::Tgm2).spec(), "tgm(preset=tgm2)");
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut Tgm::preset(TgmPreset::Tgm1), 30, 2);
        assert_distribution_invariants(&mut Tgm::preset(TgmPreset::Tgm2), 30, 3);
        assert_distribution_invariants(&mut Tgm::new(6, 1).expect("valid"), 30, 4);
    }

    #[test]
    fn value_stability() {
        let names = |r: &mut dyn Randomizer| -> String {
            draws(r, 3, 14).iter().map(|&i| PIECES[i]).collect()
        };
        assert_eq!(names(&mut Tgm::preset(TgmPreset::Tgm1)), "ILJOZSITOJZILO");
        assert_eq!(names(&mut Tgm::preset(TgmPreset::Tgm2)), "ILJZOSITJZOILT");
    }
}
