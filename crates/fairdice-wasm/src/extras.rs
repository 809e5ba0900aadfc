//! The numbers a page shows beside a report that its JSON document leaves out —
//! the median and each outcome's cumulative chances of a distribution — computed
//! by the report itself, exactly as the native app shows them, so no front-end
//! sums probabilities of its own.

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
