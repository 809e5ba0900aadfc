//! Case tables: which expressions every engine runs, kept in one tab-separated file per family.
//!
//! A table's header names its columns: `case`, one column per engine (`fairdice` first, the
//! baseline), and `goals`. Each engine column holds that engine's spelling of the same
//! distribution, or nothing where the engine cannot express it. `goals` lists the ratios
//! `peer time / fairdice time` that the cold comparison must reach, as `peer>=ratio`.
//! Lines starting with `#` and blank lines are ignored.
//!
//! Design decision: the expressions live in data, not code, so that the Rust benchmarks, the
//! Python peer scripts and the comparison runner read the very same rows, and another family
//! of cases (contests, randomizers) plugs in by adding a file.

use std::fmt;

/// The exact dice cases of issue 2 (sums and keep-highest).
pub const DICE: &str = include_str!("cases/dice.tsv");

/// The dice-language cases of issue 13 (bindings, repetitions, groups, explosions as dice).
pub const LANGUAGE: &str = include_str!("cases/language.tsv");

/// The mixed pools of issue 19 (several kinds of dice, groups of exploding dice).
pub const MIXED: &str = include_str!("cases/mixed.tsv");

/// Pools of issue 19 that drop a few dice from one end (`30d6dl1`, `{10d4+10d6+10d8}dl1`).
pub const DROPS: &str = include_str!("cases/drops.tsv");

/// Other pool shapes of issue 19: drops from both ends, compounding explosions
/// (`30d10dh2dl2`, `30d6!!dh2dl2`).
pub const SHAPES: &str = include_str!("cases/shapes.tsv");

/// Decks, deals and matching sets of issue 40, and the growth of a deal with its
/// hand and its deck (`largest_set(deal(deck{1..13:4}, 13))`).
pub const CARDS: &str = include_str!("cases/cards.tsv");

/// The engine every ratio is taken against.
pub const BASELINE: &str = "fairdice";

/// A parsed case table.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseTable {
    /// The engines, in column order; the first is [`BASELINE`].
    pub engines: Vec<String>,
    /// The rows.
    pub cases: Vec<Case>,
}

/// One row: the same distribution in each engine's spelling.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// A short name, unique in its table (used for criterion ids too).
    pub name: String,
    /// For each engine of the table, in order, its expression (if it has one).
    pub expressions: Vec<Option<String>>,
    /// What the cold comparison must show for this case.
    pub goals: Vec<Goal>,
}

/// "`peer` must take at least `min_ratio` times as long as fairdice".
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// The peer engine.
    pub peer: String,
    /// The least acceptable ratio `peer time / fairdice time`.
    pub min_ratio: f64,
}

/// Why a case table could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseError {
    /// The 1-based line at fault.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for CaseError {}

impl Case {
    /// This case's expression for `engine`, if the table has that engine and the cell is filled.
    pub fn expression<'a>(&'a self, table: &CaseTable, engine: &str) -> Option<&'a str> {
        let column = table.engines.iter().position(|e| e == engine)?;
        self.expressions[column].as_deref()
    }
}

impl CaseTable {
    /// Parses a table in the format described in the module documentation.
    ///
    /// # Errors
    /// A missing or malformed header, a row with the wrong number of cells, a duplicate case
    /// name, or a goal that is not `engine>=number` naming an engine of the table.
    pub fn parse(text: &str) -> Result<CaseTable, CaseError> {
        let mut rows = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'));
        let (header_line, header) = rows.next().ok_or(CaseError {
            line: 1,
            message: "no header row".into(),
        })?;
        let columns: Vec<&str> = header.split('\t').collect();
        let fail = |line, message: String| CaseError { line, message };
        if columns.len() < 3
            || columns[0] != "case"
            || columns[1] != BASELINE
            || columns[columns.len() - 1] != "goals"
        {
            return Err(fail(
                header_line,
                format!("the header must be `case\t{BASELINE}\t…\tgoals`, got `{header}`"),
            ));
        }
        let engines: Vec<String> = columns[1..columns.len() - 1]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut cases: Vec<Case> = Vec::new();
        for (line, row) in rows {
            let cells: Vec<&str> = row.split('\t').collect();
            if cells.len() != columns.len() {
                return Err(fail(
                    line,
                    format!("{} cells, expected {}", cells.len(), columns.len()),
                ));
            }
            let name = cells[0].trim().to_string();
            if cases.iter().any(|c| c.name == name) {
                return Err(fail(line, format!("case `{name}` appears twice")));
            }
            let expressions = cells[1..cells.len() - 1]
                .iter()
                .map(|cell| Some(cell.trim().to_string()).filter(|s| !s.is_empty()))
                .collect();
            let goals = cells[cells.len() - 1]
                .split_whitespace()
                .map(|goal| parse_goal(goal, &engines).map_err(|m| fail(line, m)))
                .collect::<Result<_, _>>()?;
            cases.push(Case {
                name,
                expressions,
                goals,
            });
        }
        Ok(CaseTable { engines, cases })
    }
}

fn parse_goal(goal: &str, engines: &[String]) -> Result<Goal, String> {
    let (peer, ratio) = goal
        .split_once(">=")
        .ok_or_else(|| format!("goal `{goal}` is not `engine>=ratio`"))?;
    if !engines.iter().any(|e| e == peer) || peer == BASELINE {
        return Err(format!("goal `{goal}` names no peer engine of this table"));
    }
    let min_ratio = ratio
        .parse::<f64>()
        .map_err(|_| format!("goal `{goal}`: `{ratio}` is not a number"))?;
    Ok(Goal {
        peer: peer.to_string(),
        min_ratio,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dice_table_has_every_case_of_issue_2() {
        let table = CaseTable::parse(DICE).unwrap();
        assert_eq!(table.engines, ["fairdice", "xdy", "icepool"]);
        let names: Vec<&str> = table.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "3d6",
                "10d10",
                "100d6",
                "4d6kh3",
                "10d10kh3",
                "20d20kh5",
                "100d10kh10"
            ]
        );
        for case in &table.cases {
            assert!(
                case.expressions.iter().all(Option::is_some),
                "{}",
                case.name
            );
            assert_eq!(case.goals[0].peer, "icepool");
            assert_eq!(case.goals[0].min_ratio, 20.0);
        }
        let kh = &table.cases[6];
        assert_eq!(kh.expression(&table, "xdy"), Some("100D10 drop lowest 90"));
        assert_eq!(kh.goals[1].peer, "xdy");
    }

    #[test]
    fn malformed_tables_are_refused_with_their_line() {
        let header = "case\tfairdice\txdy\tgoals\n";
        let short = format!("{header}a\t3d6\n");
        assert_eq!(CaseTable::parse(&short).unwrap_err().line, 2);
        let twice = format!("{header}a\t3d6\t3D6\t\na\t3d6\t3D6\t\n");
        assert_eq!(CaseTable::parse(&twice).unwrap_err().line, 3);
        let bad_goal = format!("# comment\n{header}a\t3d6\t3D6\ticepool>=2\n");
        assert_eq!(CaseTable::parse(&bad_goal).unwrap_err().line, 3);
        let no_baseline = "case\txdy\tgoals\n";
        assert!(CaseTable::parse(no_baseline).is_err());
    }

    #[test]
    fn an_empty_cell_means_the_engine_cannot_express_the_case() {
        let text = "case\tfairdice\txdy\tgoals\nopposed\t5d6 > 5d6\t\t\n";
        let table = CaseTable::parse(text).unwrap();
        assert_eq!(table.cases[0].expression(&table, "xdy"), None);
        assert_eq!(
            table.cases[0].expression(&table, "fairdice"),
            Some("5d6 > 5d6")
        );
        assert!(table.cases[0].goals.is_empty());
    }
}
