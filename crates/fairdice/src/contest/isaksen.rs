//! The nine tables of Isaksen et al., "Characterising score distributions in dice
//! games" (Game and Puzzle Design 2.1, 2016), computed exactly.
//!
//! Shared by `examples/isaksen.rs`, which prints them, and by the test that checks
//! all 78 rows to the printed digits, so the test checks what the example prints.
//! Several games appear in more than one table (5d6 against 5d6 with A winning ties
//! is in three); each distinct contest is computed once.

use std::collections::HashMap;

use super::{Contest, ContestError, ContestResult, Pairing, TieRule};
use crate::control::Control;
use crate::dice::die::{Die, DieError};

/// The table header, two markdown lines.
pub const HEADER: [&str; 2] = [
    "|     Game     | win bias | tie % | closeness |",
    "|:------------:|---------:|------:|----------:|",
];

/// One section of the paper: its number, a short title and its tables.
#[derive(Debug, Clone)]
pub struct Section {
    /// The section number in the paper, e.g. `"7.1"`.
    pub number: &'static str,
    /// What the section measures.
    pub title: &'static str,
    /// The tables, each a list of rows.
    pub tables: Vec<Vec<Row>>,
}

/// One game of a table.
#[derive(Debug, Clone)]
pub struct Row {
    /// The game's name as the paper writes it (`5d6`, `2d6 v 5d6`, `3d6/1d8/1d10`).
    pub game: String,
    /// Its exact result.
    pub result: ContestResult,
}

impl Row {
    /// The markdown line: win bias and tie % to two decimals, closeness to three.
    pub fn line(&self) -> String {
        format!(
            "| {:<12} |   {:6.2} | {:5.2} |     {:5.3} |",
            self.game,
            self.result.win_bias(),
            self.result.tie_percent(),
            self.result.closeness()
        )
    }
}

impl Section {
    /// The section as markdown: a heading, then each table under the header.
    pub fn render(&self) -> String {
        let mut out = format!("## {} {}\n", self.number, self.title);
        for table in &self.tables {
            out.push('\n');
            for line in HEADER {
                out.push_str(line);
                out.push('\n');
            }
            for row in table {
                out.push_str(&row.line());
                out.push('\n');
            }
        }
        out
    }
}

/// Every section, in the paper's order.
///
/// # Errors
/// None in practice: every contest here is small and well defined.
pub fn sections() -> Result<Vec<Section>, ContestError> {
    use Pairing::{Sorted, Unsorted};
    use TieRule::{AWins, Reroll, Stand};
    let mut games = Games::default();
    let g = &mut games;
    Ok(vec![
        both("3.1", "Sorted pairs, ties stand", g, Sorted, Stand)?,
        both("3.2", "Unsorted pairs, ties stand", g, Unsorted, Stand)?,
        Section {
            number: "5.1",
            title: "Sorted pairs, A wins ties",
            tables: vec![by_size(g, Sorted, AWins)?],
        },
        Section {
            number: "5.2",
            title: "Unsorted pairs, A wins ties",
            tables: vec![by_size(g, Unsorted, AWins)?],
        },
        fewer_dice(g)?,
        mixed("7.1", "Mixed dice, sorted pairs, A wins ties", g, Sorted)?,
        mixed(
            "7.2",
            "Mixed dice, unsorted pairs, A wins ties",
            g,
            Unsorted,
        )?,
        both("8.1", "Sorted pairs, tied dice rerolled", g, Sorted, Reroll)?,
        both(
            "8.2",
            "Unsorted pairs, tied pairs rerolled",
            g,
            Unsorted,
            Reroll,
        )?,
    ])
}

/// A contest as the tables name it: each side's dice as written, pairing, ties.
type Game = (Vec<(Die, u64)>, Vec<(Die, u64)>, Pairing, TieRule);

/// The contests computed so far, so that a game in several tables is computed once.
#[derive(Default)]
struct Games(HashMap<Game, ContestResult>);

impl Games {
    /// A row of the table: the game's name and its result.
    fn row(&mut self, name: String, game: Game) -> Result<Row, ContestError> {
        let result = match self.0.get(&game) {
            Some(result) => result.clone(),
            None => {
                let (a, b, pairing, ties) = game.clone();
                let result = Contest::from_dice(a, b)?
                    .pairing(pairing)
                    .ties(ties)
                    .evaluate(&Control::new())?;
                self.0.insert(game, result.clone());
                result
            }
        };
        Ok(Row { game: name, result })
    }
}

/// `n` dice of `sides` sides.
fn dice(sides: u64, n: u64) -> Result<(Die, u64), DieError> {
    Ok((Die::standard(sides)?, n))
}

/// Five dice against five, for d2, d4, d6, d8 and d10.
fn by_size(g: &mut Games, pairing: Pairing, ties: TieRule) -> Result<Vec<Row>, ContestError> {
    [2, 4, 6, 8, 10]
        .into_iter()
        .map(|sides| {
            let side = vec![dice(sides, 5)?];
            g.row(format!("5d{sides}"), (side.clone(), side, pairing, ties))
        })
        .collect()
}

/// One to five d6 against as many.
fn by_count(g: &mut Games, pairing: Pairing, ties: TieRule) -> Result<Vec<Row>, ContestError> {
    (1..=5)
        .map(|n| {
            let side = vec![dice(6, n)?];
            g.row(format!("{n}d6"), (side.clone(), side, pairing, ties))
        })
        .collect()
}

/// A section with both tables: by die size, then by number of dice.
fn both(
    number: &'static str,
    title: &'static str,
    g: &mut Games,
    pairing: Pairing,
    ties: TieRule,
) -> Result<Section, ContestError> {
    Ok(Section {
        number,
        title,
        tables: vec![by_size(g, pairing, ties)?, by_count(g, pairing, ties)?],
    })
}

/// Section 6: the side that wins ties rolls fewer dice.
fn fewer_dice(g: &mut Games) -> Result<Section, ContestError> {
    let mut game = |a: u64, b: u64| -> Result<Row, ContestError> {
        let (sorted, ties) = (Pairing::Sorted, TieRule::AWins);
        g.row(
            format!("{a}d6 v {b}d6"),
            (vec![dice(6, a)?], vec![dice(6, b)?], sorted, ties),
        )
    };
    let against_five = (2..=5).map(|a| game(a, 5)).collect::<Result<_, _>>()?;
    let one_fewer = (1..=4).map(|a| game(a, a + 1)).collect::<Result<_, _>>()?;
    Ok(Section {
        number: "6",
        title: "Fewer dice for the side that wins ties",
        tables: vec![against_five, one_fewer],
    })
}

/// Section 7: five d6 that win ties against five mixed d6, d8 and d10.
fn mixed(
    number: &'static str,
    title: &'static str,
    g: &mut Games,
    pairing: Pairing,
) -> Result<Section, ContestError> {
    let mut game = |name: String, b: &[(u64, u64)]| -> Result<Row, ContestError> {
        let b = b
            .iter()
            .filter(|&&(_, n)| n > 0)
            .map(|&(sides, n)| dice(sides, n))
            .collect::<Result<_, _>>()?;
        g.row(name, (vec![dice(6, 5)?], b, pairing, TieRule::AWins))
    };
    let swap = (0..=5)
        .map(|d8| game(format!("{}d6/{d8}d8", 5 - d8), &[(6, 5 - d8), (8, d8)]))
        .collect::<Result<_, _>>()?;
    let named: &[(&str, &[(u64, u64)])] = match pairing {
        Pairing::Sorted => &[
            ("3d6/1d8/1d10", &[(6, 3), (8, 1), (10, 1)]),
            ("2d6/3d8", &[(6, 2), (8, 3)]),
            ("3d6/2d10", &[(6, 3), (10, 2)]),
        ],
        Pairing::Unsorted => &[
            ("3d6/2d8", &[(6, 3), (8, 2)]),
            ("3d6/1d8/1d10", &[(6, 3), (8, 1), (10, 1)]),
            ("2d6/3d8", &[(6, 2), (8, 3)]),
            ("3d6/2d10", &[(6, 3), (10, 2)]),
            ("2d6/2d8/1d10", &[(6, 2), (8, 2), (10, 1)]),
        ],
    };
    let named = named
        .iter()
        .map(|(name, b)| game(name.to_string(), b))
        .collect::<Result<_, _>>()?;
    Ok(Section {
        number,
        title,
        tables: vec![swap, named],
    })
}
