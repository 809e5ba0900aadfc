//! A game's seats: the players, what each outcome pays each of them, and whether
//! rolls are taken in turns.
//!
//! As a file (JSON, with the `serde` feature), e.g. a 1v1 game where the player who
//! rolls a 7 moves the robber:
//!
//! ```json
//! {
//!   "name": "who gets the 7s",
//!   "players": ["first", "second"],
//!   "turns": true,
//!   "columns": "roller",
//!   "payoffs": { "7": [1, 0] }
//! }
//! ```
//!
//! - `players`: the seats' names, in turn order (1 to [`MAX_PLAYERS`]).
//! - `payoffs`: outcome value → one amount per column (whole numbers up to
//!   [`MAX_AMOUNT`]); outcomes left out pay nothing. In Catan a player's amount on
//!   a number is the resources its settlements touching that number's hexes collect
//!   (a city counts twice).
//! - `turns` (default `false`): `true` when roll `t` (from 0) is taken by player
//!   `t mod players`; the measures are then also given over each player's own turns.
//! - `columns` (default `"players"`): the payoff columns are the players, in order;
//!   `"roller"` (turns only) makes column 0 the player whose turn it is, column 1
//!   the next player, and so on.

use thiserror::Error;

use crate::control::{Failure, FailureKind};
use crate::dice::die::Outcome;
use crate::randomizer::Randomizer;

/// The most players a game seats.
pub const MAX_PLAYERS: usize = 16;

/// The largest amount one outcome pays one player.
pub const MAX_AMOUNT: u32 = 1000;

/// What the payoff columns are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Columns {
    /// Column `p` is player `p`.
    #[default]
    Players,
    /// Column `k` is the player `k` seats after the one whose turn it is.
    Roller,
}

/// A game's seats and payoffs. Build with [`Game::new`] or, with the `serde`
/// feature, from its JSON file (`Game::from_json`).
///
/// # Example
/// ```
/// use fairdice::analysis::seats::{Columns, Game};
///
/// // Two players; red's settlements touch a 6 and an 8, blue's a 5 and a 9.
/// let game = Game::new(
///     vec!["red".into(), "blue".into()],
///     vec![(5, vec![0, 1]), (6, vec![1, 0]), (8, vec![1, 0]), (9, vec![0, 1])],
///     false,
///     Columns::Players,
/// )?;
/// assert_eq!(game.players().len(), 2);
/// # Ok::<(), fairdice::analysis::seats::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "GameFile", into = "GameFile"))]
pub struct Game {
    name: Option<String>,
    players: Vec<String>,
    /// Sorted by outcome, one entry per outcome, `players.len()` amounts each.
    payoffs: Vec<(Outcome, Vec<u32>)>,
    /// Rows named by an outcome's label (`"hit"`, a Tetris piece), sorted by
    /// label: matched to the randomizer's labels when the game meets it.
    labelled: Vec<(String, Vec<u32>)>,
    turns: bool,
    columns: Columns,
}

/// Why a game description was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The file is not the JSON of a game.
    #[error("not a game file: {0}")]
    Json(String),
    /// No players, or too many.
    #[error("a game seats 1 to {max} players, got {0}", max = MAX_PLAYERS)]
    Players(usize),
    /// A payoff row with the wrong number of amounts.
    #[error(
        "the payoffs of outcome {outcome} have {found} amounts; give one per player ({players})"
    )]
    Row {
        /// The outcome.
        outcome: Outcome,
        /// Amounts given.
        found: usize,
        /// Players.
        players: usize,
    },
    /// An amount over [`MAX_AMOUNT`].
    #[error("outcome {outcome} pays {amount}; amounts are whole numbers up to {max}", max = MAX_AMOUNT)]
    Amount {
        /// The outcome.
        outcome: Outcome,
        /// The amount.
        amount: u32,
    },
    /// A payoff key that is empty.
    #[error(
        "payoff key `{0}` names no outcome: give a value such as \"7\" or a label such as \"hit\""
    )]
    Key(String),
    /// A labelled row with the wrong number of amounts or an amount too large.
    #[error("the payoffs of `{label}`: {problem}")]
    LabelRow {
        /// The label.
        label: String,
        /// What is wrong.
        problem: String,
    },
    /// A label the randomizer does not have.
    #[error("`{label}` in the payoffs is not an outcome of {spec}; its outcomes are {accepted}")]
    UnknownLabel {
        /// The label.
        label: String,
        /// The randomizer.
        spec: String,
        /// Its outcomes, by label.
        accepted: String,
    },
    /// The same outcome twice.
    #[error("outcome {0} has two payoff rows")]
    Duplicate(Outcome),
    /// Roller-relative columns without turns.
    #[error("\"columns\": \"roller\" needs \"turns\": true (without turns no one is the roller)")]
    RollerWithoutTurns,
    /// An outcome the randomizer never draws.
    #[error(
        "outcome {outcome} in the payoffs is not an outcome of {spec}; its outcomes are {accepted}"
    )]
    UnknownOutcome {
        /// The outcome.
        outcome: Outcome,
        /// The randomizer.
        spec: String,
        /// Its outcomes.
        accepted: String,
    },
}

impl Failure for GameError {
    fn kind(&self) -> FailureKind {
        FailureKind::Invalid
    }
}

impl Game {
    /// A game of `players` with `payoffs` (outcome, one amount per column).
    ///
    /// # Errors
    /// [`GameError`] for no or too many players, a row of the wrong length, an
    /// amount over [`MAX_AMOUNT`], an outcome given twice, or roller columns
    /// without turns.
    pub fn new(
        players: Vec<String>,
        mut payoffs: Vec<(Outcome, Vec<u32>)>,
        turns: bool,
        columns: Columns,
    ) -> Result<Game, GameError> {
        if players.is_empty() || players.len() > MAX_PLAYERS {
            return Err(GameError::Players(players.len()));
        }
        if columns == Columns::Roller && !turns {
            return Err(GameError::RollerWithoutTurns);
        }
        payoffs.sort_by_key(|(outcome, _)| *outcome);
        for (k, (outcome, row)) in payoffs.iter().enumerate() {
            if k > 0 && payoffs[k - 1].0 == *outcome {
                return Err(GameError::Duplicate(*outcome));
            }
            if row.len() != players.len() {
                return Err(GameError::Row {
                    outcome: *outcome,
                    found: row.len(),
                    players: players.len(),
                });
            }
            if let Some(&amount) = row.iter().find(|&&a| a > MAX_AMOUNT) {
                return Err(GameError::Amount {
                    outcome: *outcome,
                    amount,
                });
            }
        }
        Ok(Game {
            name: None,
            players,
            payoffs,
            labelled: Vec::new(),
            turns,
            columns,
        })
    }

    /// The same game with rows named by outcome labels (`"hit"`, `"I"`),
    /// matched to the randomizer's labels by [`table`](Self::table).
    ///
    /// # Errors
    /// [`GameError::LabelRow`] for a row of the wrong length or an amount over
    /// [`MAX_AMOUNT`]; [`GameError::Key`] for an empty label.
    pub fn with_labelled(mut self, mut rows: Vec<(String, Vec<u32>)>) -> Result<Game, GameError> {
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        for (label, row) in &rows {
            if label.trim().is_empty() {
                return Err(GameError::Key(label.clone()));
            }
            let problem = if row.len() != self.players.len() {
                format!(
                    "{} amounts; give one per player ({})",
                    row.len(),
                    self.players.len()
                )
            } else if let Some(amount) = row.iter().find(|&&a| a > MAX_AMOUNT) {
                format!("{amount}; amounts are whole numbers up to {MAX_AMOUNT}")
            } else {
                continue;
            };
            return Err(GameError::LabelRow {
                label: label.clone(),
                problem,
            });
        }
        self.labelled = rows;
        Ok(self)
    }

    /// The same game, named.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Game {
        self.name = Some(name.into());
        self
    }

    /// The game's JSON file, read (see the module documentation for the format).
    ///
    /// # Errors
    /// [`GameError::Json`] for text that is not a game's JSON, naming the line;
    /// the errors of [`Game::new`] for a game that is not valid.
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<Game, GameError> {
        let file: GameFile =
            serde_json::from_str(text).map_err(|e| GameError::Json(e.to_string()))?;
        Game::try_from(file)
    }

    /// The game's name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The players' names, in turn order.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Whether rolls are taken in turns.
    pub fn turns(&self) -> bool {
        self.turns
    }

    /// What the payoff columns are.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// The payoff rows, by outcome.
    pub fn payoffs(&self) -> &[(Outcome, Vec<u32>)] {
        &self.payoffs
    }

    /// The game's payoffs by `randomizer`'s outcome indices.
    ///
    /// # Errors
    /// [`GameError::UnknownOutcome`] for a payoff outcome the randomizer does not
    /// have.
    pub fn table<R: Randomizer + ?Sized>(&self, randomizer: &R) -> Result<Table, GameError> {
        let outcomes = randomizer.outcomes();
        let players = self.players.len();
        let mut amounts = vec![0u32; outcomes.len() * players];
        for (outcome, row) in &self.payoffs {
            let Ok(index) = outcomes.binary_search(outcome) else {
                let mut accepted: Vec<String> =
                    outcomes.iter().take(20).map(ToString::to_string).collect();
                if outcomes.len() > 20 {
                    accepted.push("…".into());
                }
                return Err(GameError::UnknownOutcome {
                    outcome: *outcome,
                    spec: randomizer.spec(),
                    accepted: accepted.join(", "),
                });
            };
            amounts[index * players..(index + 1) * players].copy_from_slice(row);
        }
        let mut named = vec![false; outcomes.len()];
        for (outcome, _) in &self.payoffs {
            if let Ok(index) = outcomes.binary_search(outcome) {
                named[index] = true;
            }
        }
        for (label, row) in &self.labelled {
            let wanted = label.trim();
            let Some(index) = (0..outcomes.len()).find(|&i| randomizer.label(i) == wanted) else {
                let mut accepted: Vec<String> = (0..outcomes.len().min(20))
                    .map(|i| randomizer.label(i))
                    .collect();
                if outcomes.len() > 20 {
                    accepted.push("…".into());
                }
                return Err(GameError::UnknownLabel {
                    label: label.clone(),
                    spec: randomizer.spec(),
                    accepted: accepted.join(", "),
                });
            };
            if named[index] {
                return Err(GameError::Duplicate(outcomes[index]));
            }
            named[index] = true;
            amounts[index * players..(index + 1) * players].copy_from_slice(row);
        }
        Ok(Table {
            players,
            outcomes: outcomes.len(),
            amounts,
            turns: self.turns,
            columns: self.columns,
        })
    }
}

/// A game's payoffs by outcome index: what roll `t` pays each player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    players: usize,
    outcomes: usize,
    /// `amounts[outcome · players + column]`.
    amounts: Vec<u32>,
    turns: bool,
    columns: Columns,
}

impl Table {
    /// Players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Outcomes of the randomizer.
    pub fn outcomes(&self) -> usize {
        self.outcomes
    }

    /// Whether rolls are taken in turns.
    pub fn turns(&self) -> bool {
        self.turns
    }

    /// The player whose turn roll `step` (from 0) is, when rolls are taken in
    /// turns.
    pub fn roller(&self, step: usize) -> Option<usize> {
        self.turns.then(|| step % self.players)
    }

    /// Rolls after which the payoffs repeat: the players with turns, else 1.
    pub fn period(&self) -> usize {
        if self.turns { self.players } else { 1 }
    }

    /// What roll `step` with outcome index `outcome` pays `player`.
    #[inline]
    pub fn amount(&self, step: usize, outcome: usize, player: usize) -> u32 {
        let column = match self.columns {
            Columns::Players => player,
            Columns::Roller => (player + self.players - step % self.players) % self.players,
        };
        self.amounts[outcome * self.players + column]
    }

    /// The most any roll pays `player`.
    pub fn most(&self, player: usize) -> u32 {
        (0..self.period())
            .flat_map(|step| (0..self.outcomes).map(move |o| (step, o)))
            .map(|(step, o)| self.amount(step, o, player))
            .max()
            .unwrap_or(0)
    }
}

/// The JSON form of a [`Game`].
#[cfg(feature = "serde")]
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    players: Vec<String>,
    #[serde(default)]
    turns: bool,
    #[serde(default)]
    columns: Columns,
    payoffs: std::collections::BTreeMap<String, Vec<u32>>,
}

#[cfg(feature = "serde")]
impl TryFrom<GameFile> for Game {
    type Error = GameError;

    fn try_from(file: GameFile) -> Result<Game, GameError> {
        let (mut payoffs, mut labelled) = (Vec::new(), Vec::new());
        for (key, row) in file.payoffs {
            match key.trim().parse::<Outcome>() {
                Ok(outcome) => payoffs.push((outcome, row)),
                Err(_) => labelled.push((key, row)),
            }
        }
        let game =
            Game::new(file.players, payoffs, file.turns, file.columns)?.with_labelled(labelled)?;
        Ok(match file.name {
            Some(name) => game.named(name),
            None => game,
        })
    }
}

#[cfg(feature = "serde")]
impl From<Game> for GameFile {
    fn from(game: Game) -> GameFile {
        GameFile {
            name: game.name,
            players: game.players,
            turns: game.turns,
            columns: game.columns,
            payoffs: game
                .payoffs
                .into_iter()
                .map(|(outcome, row)| (outcome.to_string(), row))
                .chain(game.labelled)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    fn roller_columns_follow_the_turn() {
        let game = Game::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec![(7, vec![5, 1, 0])],
            true,
            Columns::Roller,
        )
        .expect("valid");
        let table = game
            .table(&Spec::build("dice(base=2d6)").expect("valid"))
            .expect("7 is an outcome");
        let seven = 5; // 2..=12
        assert_eq!([0, 1, 2].map(|p| table.amount(0, seven, p)), [5, 1, 0]);
        assert_eq!([0, 1, 2].map(|p| table.amount(1, seven, p)), [0, 5, 1]);
        assert_eq!([0, 1, 2].map(|p| table.amount(5, seven, p)), [1, 0, 5]);
        assert_eq!(table.roller(4), Some(1));
    }

    #[test]
    fn bad_games_are_refused_with_what_is_accepted() {
        let two = || vec!["a".to_string(), "b".to_string()];
        assert_eq!(
            Game::new(vec![], vec![], false, Columns::Players),
            Err(GameError::Players(0))
        );
        assert!(matches!(
            Game::new(two(), vec![(3, vec![1])], false, Columns::Players),
            Err(GameError::Row { found: 1, .. })
        ));
        assert_eq!(
            Game::new(
                two(),
                vec![(3, vec![1, 0]), (3, vec![0, 1])],
                false,
                Columns::Players
            ),
            Err(GameError::Duplicate(3))
        );
        assert_eq!(
            Game::new(two(), vec![], false, Columns::Roller),
            Err(GameError::RollerWithoutTurns)
        );
        let game =
            Game::new(two(), vec![(13, vec![1, 0])], false, Columns::Players).expect("valid");
        let error = game
            .table(&Spec::build("dice(base=2d6)").expect("valid"))
            .expect_err("no 13");
        assert!(error.to_string().contains("2, 3, 4"), "{error}");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn reads_and_writes_its_json_file() {
        let text = r#"{"name": "sevens", "players": ["a", "b"], "turns": true,
                       "columns": "roller", "payoffs": {"7": [1, 0]}}"#;
        let game = Game::from_json(text).expect("valid");
        assert_eq!(game.name(), Some("sevens"));
        assert_eq!(game.payoffs(), &[(7, vec![1, 0])]);
        let again: Game =
            serde_json::from_str(&serde_json::to_string(&game).expect("writes")).expect("reads");
        assert_eq!(again, game);
        for (bad, says) in [
            ("{", "not a game file"),
            (
                r#"{"players": ["a"], "payoffs": {" ": [1]}}"#,
                "payoff key ` `",
            ),
            (
                r#"{"players": ["a"], "payoffs": {"hit": [1, 2]}}"#,
                "the payoffs of `hit`: 2 amounts",
            ),
            (
                r#"{"players": ["a"], "payoffs": {"2": [1, 2]}}"#,
                "one per player",
            ),
            (
                r#"{"players": ["a"], "payoffs": {}, "colour": 1}"#,
                "unknown field",
            ),
        ] {
            let error = Game::from_json(bad).expect_err(bad);
            assert!(error.to_string().contains(says), "{bad}: {error}");
        }
        // A label is read, and met against the randomizer's labels.
        let labelled = Game::from_json(r#"{"players": ["a"], "payoffs": {"success": [1]}}"#)
            .expect("a labelled row");
        let prd = Spec::build("prd(p=0.25)").expect("valid");
        let table = labelled.table(&prd).expect("PRD names a success");
        assert_eq!((table.amount(0, 0, 0), table.amount(0, 1, 0)), (0, 1));
        let dice = Spec::build("dice(values=6)").expect("valid");
        let error = labelled.table(&dice).expect_err("dice name no success");
        assert!(
            error.to_string().contains("`success` in the payoffs"),
            "{error}"
        );
    }
}
