//! The charts of a Risk battle: the heat map of P(attacker wins) over a grid of
//! starting armies (`fairdice risk --plot`, the web app's Risk page), and the
//! armies each side has left when the battle ends.

use fairdice::battle::Rules;
use fairdice::battle::report::BattleReport;

use crate::bar::{BarChart, Series};
use crate::heat::HeatMap;

/// The heat map of P(attacker wins) for `grid[a - 1][d - 1]` (as
/// [`fairdice::battle::win_table`] gives it): attacking armies down the side,
/// defending armies across.
///
/// # Example
/// ```
/// use fairdice::Control;
/// use fairdice::battle::{Rules, win_table};
/// use fairdice_charts::{Chart, win_grid_chart};
///
/// let rules = Rules::default();
/// let svg = win_grid_chart(&win_table(4, &rules, &Control::new())?, &rules).to_svg();
/// assert!(svg.contains("P(attacker wins), simple rule, d6, 3 v 2 dice"));
/// # Ok::<(), fairdice::battle::BattleError>(())
/// ```
pub fn win_grid_chart(grid: &[Vec<f64>], rules: &Rules) -> HeatMap {
    let n = grid.len();
    HeatMap::new(format!(
        "P(attacker wins), {} rule, d{}, {} v {} dice",
        rules.rule, rules.faces, rules.attacker_dice, rules.defender_dice
    ))
    .x_label("defending armies")
    .y_label("attacking armies")
    .legend_title("P(win)")
    .columns((1..=n).map(|d| d.to_string()))
    .rows((1..=n).map(|a| a.to_string()))
    .values(grid.to_vec())
}

/// Bars of the armies left at the end of the battle: one series for the
/// attacker's wins, one for the defender's holds.
///
/// # Example
/// ```
/// use fairdice::battle::Rules;
/// use fairdice::battle::report::{BattleReport, Precision};
/// use fairdice::Control;
/// use fairdice_charts::{Chart, survivors_chart};
///
/// let report =
///     BattleReport::solve(3, 2, &Rules::default(), Precision::Exact, &Control::new())?;
/// let svg = survivors_chart(&report).to_svg();
/// assert!(svg.contains("<title>defender holds with, 2: "));
/// # Ok::<(), fairdice::battle::BattleError>(())
/// ```
pub fn survivors_chart(report: &BattleReport) -> BarChart {
    let points = |rows: &[fairdice::battle::report::Survivors]| -> Vec<(i64, f64)> {
        rows.iter()
            .map(|s| (i64::from(s.armies), s.probability))
            .collect()
    };
    BarChart::new(format!(
        "Armies left: {} attacking v {} defending, {} rule, d{}",
        report.attacker, report.defender, report.rule, report.faces
    ))
    .x_label("armies left")
    .y_label("probability")
    .series(Series::new(
        "attacker wins with",
        points(&report.attacker_survivors),
    ))
    .series(Series::new(
        "defender holds with",
        points(&report.defender_survivors),
    ))
}
