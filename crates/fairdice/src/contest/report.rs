//! [`ContestReport`]: everything shown about one contest — who wins how often, as
//! floats and exact fractions, the measures of Isaksen et al. and the net score
//! distribution — built in one place so `fairdice contest`, its `--json` document
//! and the web app always agree.
//!
//! With the `serde` feature the report serializes to the `fairdice contest --json`
//! document: `{"a", "b", "pairing", "ties", "pairs", "win_bias", "tie_percent",
//! "closeness", "p_a_wins", "p_a_wins_exact", "p_tie", "p_tie_exact", "p_b_wins",
//! "p_b_wins_exact", "mean_square_exact", "net": [{"score", "count",
//! "probability"}], "total", "method"}`, counts as exact decimal strings, exact
//! values as fractions `"p/q"`, and `closeness` `null` when the net score is always
//! 0. A Monte Carlo estimate adds `"runs"`, `"seed"` and the standard errors
//! `"win_bias_standard_error"`, `"tie_percent_standard_error"` and
//! `"closeness_standard_error"`.
//!
//! # Example
//! ```
//! use fairdice::Control;
//! use fairdice::contest::report::ContestReport;
//! use fairdice::contest::{Contest, TieRule};
//! use fairdice::{Die, Pool};
//!
//! let d6 = Die::standard(6)?;
//! let contest = Contest::new(&Pool::new(&d6, 3)?, &Pool::new(&d6, 2)?)?.ties(TieRule::BWins);
//! let report = ContestReport::new("3d6", "2d6", &contest, &contest.evaluate(&Control::new())?);
//! assert_eq!(report.p_a_wins_exact.to_string(), "1445/3888");
//! assert_eq!(report.total.to_string(), "7776");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use num_bigint::BigUint;
use num_rational::BigRational;

use super::{Contest, ContestEstimate, ContestResult, Pairing, Side, TieRule};
use crate::dice::die::ratio_to_f64;
#[cfg(feature = "serde")]
use crate::dice::report::{as_decimal, as_fraction};

/// The numbers of one contest, ready to print, serve or chart.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ContestReport {
    /// Pool A as written.
    pub a: String,
    /// Pool B as written.
    pub b: String,
    /// How the dice were paired.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_name"))]
    pub pairing: Pairing,
    /// What tied pairs did.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_name"))]
    pub ties: TieRule,
    /// Pairs scored per roll, `min(a, b)`.
    pub pairs: u32,
    /// `100·(P(A wins) − P(B wins))`.
    pub win_bias: f64,
    /// `100·P(tie)`.
    pub tie_percent: f64,
    /// `1 / sqrt(E[net²])`; `None` when the net score is always 0 (infinitely close).
    pub closeness: Option<f64>,
    /// P(A wins).
    pub p_a_wins: f64,
    /// P(A wins), exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_fraction"))]
    pub p_a_wins_exact: BigRational,
    /// P(tie).
    pub p_tie: f64,
    /// P(tie), exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_fraction"))]
    pub p_tie_exact: BigRational,
    /// P(B wins).
    pub p_b_wins: f64,
    /// P(B wins), exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_fraction"))]
    pub p_b_wins_exact: BigRational,
    /// `E[net²]`, exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_fraction"))]
    pub mean_square_exact: BigRational,
    /// One row per possible net score, ascending.
    pub net: Vec<NetRow>,
    /// What the counts add up to: equally likely rolls, or — when rerolled ties
    /// condition the rolls — a common denominator.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub total: BigUint,
    /// Whether the numbers are exact or estimated.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: ContestMethod,
    /// Dice rolled by A.
    pub a_dice: u32,
    /// Dice rolled by B.
    pub b_dice: u32,
}

/// How a contest's numbers were obtained.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "method", rename_all = "snake_case")
)]
pub enum ContestMethod {
    /// Computed exactly.
    Exact,
    /// Estimated from seeded rolls ([`Contest::monte_carlo`]): the probabilities
    /// are observed frequencies, the "exact" fractions their ratios of counts, and
    /// the total the number of rolls.
    MonteCarlo {
        /// Rolls made.
        runs: u64,
        /// The generator seed.
        seed: u64,
        /// The standard error of the win bias.
        win_bias_standard_error: f64,
        /// The standard error of the tie percentage.
        tie_percent_standard_error: f64,
        /// The standard error of the closeness.
        closeness_standard_error: f64,
    },
}

/// One net score's row.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NetRow {
    /// A's pairs won minus B's.
    pub score: i64,
    /// How many of the rolls give it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub count: BigUint,
    /// P(net = score).
    pub probability: f64,
}

impl ContestReport {
    /// The report of `contest` (its pools written as `a` and `b`) and its `result`.
    pub fn new(a: &str, b: &str, contest: &Contest, result: &ContestResult) -> ContestReport {
        let net = result.net();
        let net_rows = net
            .iter()
            .zip(net.probabilities())
            .map(|((score, count), probability)| NetRow {
                score,
                count,
                probability,
            })
            .collect();
        let closeness = result.closeness();
        let (p_a_wins, p_tie, p_b_wins) = (result.p_a_wins(), result.p_tie(), result.p_b_wins());
        ContestReport {
            a: a.to_string(),
            b: b.to_string(),
            pairing: contest.pairing_rule(),
            ties: contest.tie_rule(),
            pairs: contest.pairs(),
            win_bias: result.win_bias(),
            tie_percent: result.tie_percent(),
            closeness: closeness.is_finite().then_some(closeness),
            p_a_wins: ratio_to_f64(&p_a_wins),
            p_a_wins_exact: p_a_wins,
            p_tie: ratio_to_f64(&p_tie),
            p_tie_exact: p_tie,
            p_b_wins: ratio_to_f64(&p_b_wins),
            p_b_wins_exact: p_b_wins,
            mean_square_exact: result.mean_square(),
            net: net_rows,
            total: net.total(),
            method: ContestMethod::Exact,
            a_dice: contest.size(Side::A),
            b_dice: contest.size(Side::B),
        }
    }

    /// The report of a Monte Carlo `estimate` of `contest`.
    pub fn estimated(
        a: &str,
        b: &str,
        contest: &Contest,
        estimate: &ContestEstimate,
    ) -> ContestReport {
        ContestReport {
            method: ContestMethod::MonteCarlo {
                runs: estimate.runs,
                seed: estimate.seed,
                win_bias_standard_error: estimate.win_bias_error(),
                tie_percent_standard_error: estimate.tie_percent_error(),
                closeness_standard_error: estimate.closeness_error(),
            },
            ..ContestReport::new(a, b, contest, &estimate.result)
        }
    }

    /// The report as the pretty-printed `fairdice contest --json` document.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}

#[cfg(feature = "serde")]
fn as_name<T: std::fmt::Display, S: serde::Serializer>(name: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Control, Die};

    fn report(a: u64, b: u64, faces: u64, pairing: Pairing, ties: TieRule) -> ContestReport {
        let die = Die::standard(faces).expect("a die");
        let contest = Contest::from_dice([(die.clone(), a)], [(die, b)])
            .expect("dice on both sides")
            .pairing(pairing)
            .ties(ties);
        let result = contest.evaluate(&Control::new()).expect("small");
        ContestReport::new(
            &format!("{a}d{faces}"),
            &format!("{b}d{faces}"),
            &contest,
            &result,
        )
    }

    #[test]
    fn risks_one_roll_is_three_d6_against_two_with_ties_to_b() {
        let r = report(3, 2, 6, Pairing::Sorted, TieRule::BWins);
        // 2890, 2611 and 2275 of 7776.
        assert_eq!(r.p_a_wins_exact.to_string(), "1445/3888");
        assert_eq!(r.p_tie_exact.to_string(), "2611/7776");
        assert_eq!(r.p_b_wins_exact.to_string(), "2275/7776");
        assert_eq!((r.pairs, r.a_dice, r.b_dice), (2, 3, 2));
        let counts: Vec<(i64, String)> = r
            .net
            .iter()
            .map(|row| (row.score, row.count.to_string()))
            .collect();
        let expected = [(-2, "2275"), (0, "2611"), (2, "2890")];
        assert_eq!(counts, expected.map(|(s, c)| (s, c.to_string())));
        assert_eq!(r.total.to_string(), "7776");
    }

    #[test]
    fn the_measures_are_isaksens() {
        let r = report(5, 5, 6, Pairing::Sorted, TieRule::Stand);
        assert_eq!(format!("{:.2}", r.win_bias), "0.00");
        assert_eq!(format!("{:.2}", r.tie_percent), "9.91");
        assert_eq!(r.closeness.map(|c| format!("{c:.3}")), Some("0.340".into()));
        let p: f64 = r.net.iter().map(|row| row.probability).sum();
        assert!((p - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_certain_tie_has_no_finite_closeness() {
        let r = report(2, 2, 1, Pairing::Unsorted, TieRule::Stand);
        assert_eq!(r.closeness, None);
        assert_eq!(r.tie_percent, 100.0);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_has_the_documented_shape_in_order() {
        let r = report(2, 2, 6, Pairing::Sorted, TieRule::Reroll);
        let value: serde_json::Value = serde_json::from_str(&r.to_json()).expect("json");
        let keys: Vec<&str> = value
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "a",
                "b",
                "pairing",
                "ties",
                "pairs",
                "win_bias",
                "tie_percent",
                "closeness",
                "p_a_wins",
                "p_a_wins_exact",
                "p_tie",
                "p_tie_exact",
                "p_b_wins",
                "p_b_wins_exact",
                "mean_square_exact",
                "net",
                "total",
                "method",
                "a_dice",
                "b_dice"
            ]
        );
        assert_eq!(value["method"], "exact");
        assert_eq!(value["pairing"], "sorted");
        assert_eq!(value["ties"], "reroll");
        assert_eq!(value["p_tie_exact"], "14/41");
        assert!(value["net"][0]["count"].is_string());
        let null = report(1, 1, 1, Pairing::Sorted, TieRule::Stand).to_json();
        assert!(null.contains("\"closeness\": null"));
    }
}
