//! The numbers a page shows beside a report that its JSON document leaves out —
//! a distribution's median and cumulative chances, the dice of a contest, a
//! battle's setup and one-roll probabilities, the drought gaps worth a column —
//! computed by the report and the library, exactly as the native app shows them,
//! so no front-end sums probabilities or picks limits of its own.

use fairdice::analysis::report::DroughtsReport;
use fairdice::analysis::{AnalysisReport, shown_gaps};
use fairdice::battle::report::{BattleReport, EXACT_DENOMINATOR_BITS, EXACT_STATES, Precision};
use fairdice::contest::report::ContestReport;
use fairdice::dice::report::DistributionReport;
use serde_json::{Value, json};

/// A distribution's median and, per outcome in the report's order, `[P(X ≤ x),
/// P(X ≥ x)]`.
pub fn distribution(report: &DistributionReport) -> Option<Value> {
    let cumulative: Vec<[f64; 2]> = report
        .outcomes
        .iter()
        .map(|row| [row.at_most, row.at_least])
        .collect();
    Some(json!({ "median": report.median, "cumulative": cumulative }))
}

/// The dice each side of a contest rolls.
pub fn contest(report: &ContestReport) -> Option<Value> {
    Some(json!({ "a_dice": report.a_dice, "b_dice": report.b_dice }))
}

/// A battle's setup in words, each one-roll table's probabilities in the report's
/// order, and, for a battle solved in floating point, why.
pub fn battle(report: &BattleReport) -> Option<Value> {
    let per_roll: Option<Vec<Vec<f64>>> = report.per_roll.as_ref().map(|tables| {
        tables
            .iter()
            .map(|t| t.outcomes.iter().map(|o| o.probability).collect())
            .collect()
    });
    let float_reason = report.p_attacker_wins_exact.is_none().then(|| {
        let exact = Precision::for_battle(report.attacker, report.defender, &report.rules());
        if exact == Precision::Exact {
            "solved in floating point, as asked".to_string()
        } else {
            format!(
                "solved in floating point: an exact answer needs more than {EXACT_STATES} states or fractions of more than {EXACT_DENOMINATOR_BITS} bits"
            )
        }
    });
    Some(json!({ "setup": report.setup(), "per_roll": per_roll, "float_reason": float_reason }))
}

/// The gaps `k` whose P(gap > k) an analysis's droughts table shows.
pub fn analysis(report: &AnalysisReport) -> Option<Value> {
    droughts(report.droughts.as_ref()?)
}

/// The gaps `k` whose P(gap > k) a droughts table shows: spaced by whole sets of
/// outcomes to span the expected longest gap, as the command line picks them.
pub fn droughts(report: &DroughtsReport) -> Option<Value> {
    let longest = report
        .outcomes
        .iter()
        .map(|o| o.longest_gap)
        .fold(0.0, f64::max);
    // `gap_exceeds` has one entry per gap 0..=T.
    let samples = report.outcomes.first()?.gap_exceeds.len().saturating_sub(1);
    Some(json!({ "shown_gaps": shown_gaps(longest, report.outcomes.len(), samples) }))
}
