//! What a seat analysis reports: per player, the distribution of their total,
//! their fair share and longest drought; across players, the spread between the
//! best and the worst and the chance that someone is starved; and how each
//! player's total grows over the match, at up to [`MAX_CHECKPOINTS`] rolls.

use crate::analysis::Method;

/// The most rolls at which a player's total is followed through the match: every
/// roll up to this many, else this many evenly spaced (a chart is a few hundred
/// pixels wide, and the document stays small for long matches).
pub const MAX_CHECKPOINTS: usize = 200;

/// The rolls after which totals are followed: `1..=samples` up to
/// [`MAX_CHECKPOINTS`] rolls, else `k·samples / MAX_CHECKPOINTS` for `k` in
/// `1..=MAX_CHECKPOINTS` (strictly increasing, the last being `samples`).
pub fn checkpoints(samples: usize) -> Vec<usize> {
    if samples <= MAX_CHECKPOINTS {
        (1..=samples).collect()
    } else {
        (1..=MAX_CHECKPOINTS)
            .map(|k| k * samples / MAX_CHECKPOINTS)
            .collect()
    }
}

/// A measured value and, for a Monte Carlo estimate, its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Figure {
    /// The value (exact up to `f64` rounding, or the estimate).
    pub value: f64,
    /// Its standard error (Monte Carlo only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<f64>,
}

impl Figure {
    /// An exact value.
    pub fn exact(value: f64) -> Figure {
        Figure { value, error: None }
    }
}

/// Which rolls a set of figures counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Scope {
    /// Every roll of the match.
    AllRolls,
    /// Each player's own turns only (a player's total is what the rolls they
    /// took paid them; their droughts count their own turns).
    OwnTurns,
}

impl Scope {
    /// Whether roll `step` counts for `player` (`roller` is whose turn it is).
    #[inline]
    pub(crate) fn counts(self, roller: Option<usize>, player: usize) -> bool {
        match self {
            Scope::AllRolls => true,
            Scope::OwnTurns => roller == Some(player),
        }
    }
}

/// One player's figures.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerFigures {
    /// The player's name.
    pub player: String,
    /// What the base distribution promises: the expected total if every counted
    /// roll followed the randomizer's base
    /// ([`base_probabilities`](crate::analysis::base_probabilities): the base of
    /// dice, decks, dynamic dice and the fair roller, PRD's nominal chance).
    pub fair_share: f64,
    /// The expected total under the randomizer.
    pub expected_total: Figure,
    /// `totals[k]` = P(total = k), up to the largest total reached.
    pub totals: Vec<f64>,
    /// Standard errors of `totals` (Monte Carlo only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub totals_errors: Option<Vec<f64>>,
    /// The expected longest run of counted rolls that paid the player nothing
    /// (the whole match if nothing ever did), when droughts were asked for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub longest_drought: Option<Figure>,
    /// The fair share of the rolls up to each of the scope's
    /// [`rolls`](SeatFigures::rolls).
    #[cfg_attr(feature = "serde", serde(default))]
    pub fair_share_by_roll: Vec<f64>,
    /// The expected total after each of the scope's [`rolls`](SeatFigures::rolls).
    #[cfg_attr(feature = "serde", serde(default))]
    pub expected_by_roll: Vec<f64>,
    /// Standard errors of `expected_by_roll` (Monte Carlo only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub expected_by_roll_errors: Option<Vec<f64>>,
    /// The standard deviation of the total after each of the scope's
    /// [`rolls`](SeatFigures::rolls) (over the runs, for a Monte Carlo estimate).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sd_by_roll: Vec<f64>,
}

/// The chance that some player receives at most `share` of their fair share.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Starved {
    /// The fraction of the fair share, e.g. `0.5`.
    pub share: f64,
    /// P(some player with a positive fair share ends with total ≤ share × fair
    /// share).
    pub probability: Figure,
}

/// The figures of one [`Scope`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatFigures {
    /// Which rolls count.
    pub scope: Scope,
    /// The rolls (counted from 1) at which each player's `*_by_roll` figures
    /// are given: see [`checkpoints`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub rolls: Vec<usize>,
    /// One entry per player, in turn order.
    pub players: Vec<PlayerFigures>,
    /// E[best player's total − worst player's total].
    pub spread: Figure,
    /// The same spread after each of the scope's [`rolls`](SeatFigures::rolls):
    /// how the gap between the players grows over the match (the last entry is
    /// `spread`, up to rounding).
    #[cfg_attr(feature = "serde", serde(default))]
    pub spread_by_roll: Vec<f64>,
    /// Standard errors of `spread_by_roll` (Monte Carlo only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub spread_by_roll_errors: Option<Vec<f64>>,
    /// One entry per share asked for.
    pub starved: Vec<Starved>,
}

/// A game's seats measured over a match.
///
/// With the `serde` feature it serializes to `{"spec", "samples", "method",
/// "peak_states" | "runs", "seed", "all_rolls", "own_turns"?}`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SeatAnalysis {
    /// The randomizer's spec.
    pub spec: String,
    /// Rolls in the match.
    pub samples: usize,
    /// How the figures were obtained.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Method,
    /// Over every roll.
    pub all_rolls: SeatFigures,
    /// Over each player's own turns, when the game has turns.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub own_turns: Option<SeatFigures>,
}
