//! [`PieceHistory`]: the last tetrominoes dealt, as the TGM randomizers remember
//! them to reroll a recent piece.

/// The most pieces a history remembers (4 bits each in a `u64`).
pub(crate) const MAX_HISTORY: u64 = 16;

/// The last `len` pieces dealt, oldest first; each piece dealt pushes out the
/// oldest.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PieceHistory {
    /// The pieces, 4 bits each, oldest in the lowest bits.
    packed: u64,
    /// Pieces remembered.
    len: u32,
    /// How many times each piece is in the history.
    in_history: [u8; 7],
    /// Bit `p` set when piece `p` is in the history.
    seen: u8,
}

impl PieceHistory {
    /// A history holding `pieces` (oldest first): 1..=[`MAX_HISTORY`] piece
    /// indices below 7, which the callers check.
    pub(crate) fn new(pieces: &[u8]) -> PieceHistory {
        debug_assert!((1..=MAX_HISTORY as usize).contains(&pieces.len()));
        let packed = pieces
            .iter()
            .rev()
            .fold(0, |packed, &p| packed << 4 | u64::from(p));
        let mut in_history = [0; 7];
        for &p in pieces {
            in_history[usize::from(p)] += 1;
        }
        let seen = pieces.iter().fold(0, |seen, &p| seen | (1 << p));
        PieceHistory {
            packed,
            len: pieces.len() as u32,
            in_history,
            seen,
        }
    }

    /// The history from a state key's entries, each checked to be a piece.
    ///
    /// # Errors
    /// The first entry that is not a piece index `0..=6`, as a sentence.
    pub(crate) fn from_key(entries: &[i64]) -> Result<PieceHistory, String> {
        if let Some(bad) = entries.iter().find(|p| !(0..7).contains(*p)) {
            return Err(format!("history piece {bad} is not a piece 0..=6"));
        }
        let pieces: Vec<u8> = entries.iter().map(|&p| p as u8).collect();
        Ok(PieceHistory::new(&pieces))
    }

    /// The pieces remembered, oldest first.
    pub(crate) fn pieces(&self) -> Vec<u8> {
        (0..self.len)
            .map(|i| (self.packed >> (4 * i) & 0xF) as u8)
            .collect()
    }

    /// How many pieces it remembers.
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Bit `p` set when piece `p` is in the history.
    #[inline]
    pub(crate) fn seen(&self) -> u8 {
        self.seen
    }

    /// Whether `piece` is in the history.
    #[inline]
    pub(crate) fn contains(&self, piece: u8) -> bool {
        self.seen & (1 << piece) != 0
    }

    /// The TGM reroll: calls `roll` up to `tries` times and returns the first
    /// piece not in the history, or the last one rolled.
    #[inline]
    pub(crate) fn reroll(&self, tries: u32, mut roll: impl FnMut() -> u8) -> u8 {
        let mut piece = 0;
        for _ in 0..tries {
            piece = roll();
            if !self.contains(piece) {
                break;
            }
        }
        piece
    }

    /// Remembers `piece`, forgetting the oldest.
    #[inline]
    pub(crate) fn push(&mut self, piece: u8) {
        let oldest = (self.packed & 0xF) as usize;
        self.packed = self.packed >> 4 | u64::from(piece) << (4 * (self.len - 1));
        self.in_history[oldest] -= 1;
        if self.in_history[oldest] == 0 {
            self.seen &= !(1 << oldest);
        }
        self.in_history[usize::from(piece)] += 1;
        self.seen |= 1 << piece;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushing_forgets_the_oldest_piece() {
        let mut history = PieceHistory::new(&[3, 4, 3, 4]);
        assert_eq!(history.seen(), 1 << 3 | 1 << 4);
        history.push(0);
        assert_eq!(history.pieces(), [4, 3, 4, 0]);
        history.push(2);
        history.push(2);
        assert_eq!(history.pieces(), [4, 0, 2, 2]);
        assert!(history.contains(4) && !history.contains(3));
        history.push(1);
        assert!(!history.contains(4));
        assert_eq!(history, PieceHistory::new(&[0, 2, 2, 1]));
        assert!(PieceHistory::from_key(&[0, 7]).is_err());
        let mut rolls = [2, 1, 6, 5].into_iter();
        assert_eq!(history.reroll(4, || rolls.next().unwrap_or(9)), 6);
        assert_eq!(history.reroll(2, || 2), 2, "the last roll stands");
        assert_eq!(PieceHistory::from_key(&[6]).map(|h| h.len()), Ok(1));
    }
}
