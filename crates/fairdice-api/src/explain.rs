//! A distribution in a designer's words (`fairdice dist --explain`): how it was
//! obtained, the average, the middle of the range, and the chance of reaching a
//! few thresholds as "51%, about 1 in 2"; and the bins of an estimate too wide to
//! list outcome by outcome.

use fairdice::dice::report::{DistributionReport, Method, percent};
use serde::Serialize;

/// The likeliest outcomes of a tuple an explanation lists.
const MOST_LIKELY_SHOWN: usize = 8;

/// What a distribution means, sentence by sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// How the numbers were obtained: exact, or an estimate from so many rolls.
    pub method: String,
    /// The average.
    pub average: String,
    /// The middle value and the middle 90% of the rolls.
    pub middle: String,
    /// "X or more: p, about 1 in n" at the quartiles and the top.
    pub thresholds: Vec<String>,
}

impl Explanation {
    /// The explanation of `report`.
    pub fn of(report: &DistributionReport) -> Explanation {
        let method = match &report.method {
            Method::Exact => format!(
                "{}: every one of {} equally likely {} counted",
                match report.explode_depth {
                    Some(depth) => format!("exact up to {depth} extra rolls per exploding die"),
                    None => "exact".into(),
                },
                fairdice::dice::report::short_count(&report.total, 24),
                report.counted.noun()
            ),
            Method::MonteCarlo { runs, seed, .. } => format!(
                "estimated from {runs} seeded rolls (seed {seed}); each chance is within about ±{} (95%)",
                percent(1.96 * (0.25 / *runs as f64).sqrt())
            ),
        };
        if report.is_labelled() {
            return Explanation::labels(report, method);
        }
        if report
            .outcomes
            .iter()
            .all(|r| r.outcome == 0 || r.outcome == 1)
        {
            return Explanation::yes_or_no(report, method);
        }
        let average = match (&report.method, report.mean_fraction_words()) {
            (Method::Exact, Some(exact)) if exact.contains(['/', ' ']) => {
                format!("on average {:.2} (exactly {exact})", report.mean)
            }
            (Method::Exact, _) => format!("on average {:.2}", report.mean),
            (
                Method::MonteCarlo {
                    mean_standard_error,
                    ..
                },
                _,
            ) => format!(
                "on average {:.2} ± {:.2} (95%)",
                report.mean,
                1.96 * mean_standard_error
            ),
        };
        let low = quantile(report, 0.05);
        let high = quantile(report, 0.95);
        let cases = report.counted.noun();
        let middle = format!(
            "half the {cases} give {} or less; 9 {cases} in 10 give {low} to {high}",
            report.median
        );
        let mut points: Vec<i64> = [0.25, 0.5, 0.75]
            .iter()
            .map(|&q| quantile(report, q))
            .chain(std::iter::once(report.max))
            .filter(|&x| x > report.min)
            .collect();
        points.dedup();
        let thresholds = points
            .into_iter()
            .map(|x| {
                let p = report
                    .outcomes
                    .iter()
                    .find(|r| r.outcome >= x)
                    .map_or(0.0, |r| r.at_least);
                format!("{x} or more: {}, {}", percent(p), odds(p))
            })
            .collect();
        Explanation {
            method,
            average,
            middle,
            thresholds,
        }
    }

    /// Labelled outcomes (`as {…}`): the most likely label, each label's
    /// chance, and the chance of each label or one after it.
    fn labels(report: &DistributionReport, method: String) -> Explanation {
        let average = report.likeliest().map_or_else(String::new, |row| {
            format!(
                "most likely {}: {}, {}",
                row.shown(),
                percent(row.probability),
                odds(row.probability)
            )
        });
        // Labels in their order; a tuple's many outcomes, the likeliest first.
        let mut rows: Vec<&fairdice::dice::report::OutcomeRow> = report.outcomes.iter().collect();
        if report.values.is_some() {
            rows.sort_by(|a, b| b.probability.total_cmp(&a.probability));
            rows.truncate(MOST_LIKELY_SHOWN);
        }
        let each: Vec<String> = rows
            .iter()
            .map(|row| format!("{} {}", row.shown(), percent(row.probability)))
            .collect();
        // A tuple's outcomes have no order worth reading as "or after it".
        let ordered = report.values.is_none();
        let thresholds = report
            .outcomes
            .iter()
            .skip(1)
            .filter(|_| ordered)
            .map(|row| {
                format!(
                    "{} or after it: {}, {}",
                    row.shown(),
                    percent(row.at_least),
                    odds(row.at_least)
                )
            })
            .collect();
        Explanation {
            method,
            average,
            middle: if ordered {
                format!("each label: {}", each.join(", "))
            } else {
                format!("the likeliest: {}", each.join(", "))
            },
            thresholds,
        }
    }

    /// A comparison or a test (every outcome 1 or 0): how often it is true and
    /// how often false, not an average and a range.
    fn yes_or_no(report: &DistributionReport, method: String) -> Explanation {
        let yes = report
            .outcomes
            .iter()
            .find(|r| r.outcome == 1)
            .map_or(0.0, |r| r.probability);
        let exactly = match report.mean_fraction_words() {
            Some(exact) if exact.contains(['/', ' ']) => format!(" (exactly {exact})"),
            _ => String::new(),
        };
        let margin = match &report.method {
            Method::MonteCarlo {
                mean_standard_error,
                ..
            } => format!(" ± {} (95%)", percent(1.96 * mean_standard_error)),
            Method::Exact => String::new(),
        };
        Explanation {
            method,
            average: format!(
                "true (1) in {}{margin} of {}, {}{exactly}",
                percent(yes),
                report.counted.noun(),
                odds(yes)
            ),
            middle: format!(
                "false (0) in {} of {}, {}",
                percent(1.0 - yes),
                report.counted.noun(),
                odds(1.0 - yes)
            ),
            thresholds: Vec::new(),
        }
    }

    /// The explanation as lines of text.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![
            self.method.clone(),
            self.average.clone(),
            self.middle.clone(),
        ];
        lines.extend(self.thresholds.iter().cloned());
        lines
    }
}

/// The smallest outcome `x` with `P(X ≤ x) ≥ q`.
fn quantile(report: &DistributionReport, q: f64) -> i64 {
    report
        .outcomes
        .iter()
        .find(|r| r.at_most >= q - 1e-12)
        .map_or(report.max, |r| r.outcome)
}

/// A chance as plain odds: "about 1 in 7", "about 3 in 4", "certain".
pub fn odds(p: f64) -> String {
    if p >= 1.0 - 1e-12 {
        return "certain".into();
    }
    if p <= 0.0 {
        return "never".into();
    }
    if p < 0.5 {
        let n = (1.0 / p).round();
        return if n < 1e6 {
            format!("about 1 in {n:.0}")
        } else {
            format!("about 1 in {n:.1e}")
        };
    }
    // The smallest n (up to 20) whose k in n is within one percentage point, else
    // the closest.
    let mut best = (1, 2, f64::MAX);
    for n in 2..=20u32 {
        let k = (p * f64::from(n)).round() as u32;
        if k == 0 || k >= n {
            continue;
        }
        let e = (p - f64::from(k) / f64::from(n)).abs();
        if e <= 0.01 {
            best = (k, n, e);
            break;
        }
        if e < best.2 - 1e-12 {
            best = (k, n, e);
        }
    }
    format!("about {} in {}", best.0, best.1)
}

/// One bin of an estimate: outcomes `from..=to`, how many rolls fell in it, and
/// its estimated probability with a standard error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// The smallest outcome of the bin.
    pub from: i64,
    /// The largest outcome of the bin.
    pub to: i64,
    /// Rolls that fell in the bin.
    pub rolls: u64,
    /// The estimated probability.
    pub probability: f64,
    /// Its standard error, `sqrt(p(1 − p)/runs)`.
    pub standard_error: f64,
}

/// The bins of a Monte Carlo estimate with more than `max_bins` outcomes (equal
/// widths, at most `max_bins` of them, over its whole range); `None` for an exact
/// distribution or a narrow estimate, which are shown outcome by outcome.
pub fn bins(report: &DistributionReport, max_bins: usize) -> Option<Vec<Bin>> {
    let Method::MonteCarlo { runs, .. } = report.method else {
        return None;
    };
    // Labels and tuples are not ranges of numbers to cut into bins.
    if report.outcomes.len() <= max_bins || max_bins == 0 || report.is_labelled() {
        return None;
    }
    let span = (report.max as i128 - report.min as i128 + 1) as u128;
    let width = span.div_ceil(max_bins as u128).max(1);
    let mut bins: Vec<Bin> = Vec::new();
    for row in &report.outcomes {
        let index = ((row.outcome as i128 - report.min as i128) as u128 / width) as i128;
        let from = (report.min as i128 + index * width as i128) as i64;
        let rolls = u64::try_from(&row.count).unwrap_or(u64::MAX);
        match bins.last_mut() {
            Some(bin) if bin.from == from => bin.rolls += rolls,
            _ => bins.push(Bin {
                from,
                to: (from as i128 + width as i128 - 1).min(report.max as i128) as i64,
                rolls,
                probability: 0.0,
                standard_error: 0.0,
            }),
        }
    }
    for bin in &mut bins {
        let p = bin.rolls as f64 / runs as f64;
        bin.probability = p;
        bin.standard_error = (p * (1.0 - p) / runs as f64).sqrt();
    }
    Some(bins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_is_explained_by_how_often_it_is_true() {
        let report = crate::dist::DistRequest::new("d20+5 >= 15")
            .run(&fairdice::Control::new())
            .unwrap();
        let words = Explanation::of(&report);
        assert_eq!(
            words.average,
            "true (1) in 55.000% of rolls, about 5 in 9 (exactly 11/20)"
        );
        assert_eq!(words.middle, "false (0) in 45.000% of rolls, about 1 in 2");
        assert!(words.thresholds.is_empty());
        let cut = crate::dist::DistRequest::new("d6!")
            .run(&fairdice::Control::new())
            .unwrap();
        assert!(
            Explanation::of(&cut)
                .method
                .starts_with("exact up to 9 extra rolls per exploding die:")
        );
    }
    use crate::UseCase;
    use crate::dist::DistRequest;
    use fairdice::Control;

    #[test]
    fn odds_in_plain_words() {
        assert_eq!(odds(0.51), "about 1 in 2");
        assert_eq!(odds(0.75), "about 3 in 4");
        assert_eq!(odds(0.9), "about 9 in 10");
        assert_eq!(odds(0.55), "about 5 in 9");
        assert_eq!(odds(0.61651), "about 5 in 8");
        assert_eq!(odds(0.143), "about 1 in 7");
        assert_eq!(odds(1.0), "certain");
        assert_eq!(odds(1e-9), "about 1 in 1.0e9");
    }

    #[test]
    fn four_d6_keep_three_explained() {
        let report = DistRequest::new("4d6kh3").run(&Control::new()).unwrap();
        let words = Explanation::of(&report);
        assert_eq!(words.average, "on average 12.24 (exactly 15869/1296)");
        assert!(words.method.contains("1296 equally likely rolls"));
        // A mean of hundreds of digits is named by its size, in words as in the summary.
        let long = DistRequest::new("10d10!!kh3").run(&Control::new()).unwrap();
        let exact = long.mean_fraction().unwrap();
        let (numerator, denominator) = exact.split_once('/').unwrap();
        assert!(numerator.len() > 90, "{exact}");
        assert!(
            Explanation::of(&long).average.ends_with(&format!(
                "(exactly a fraction of {} digits over {})",
                numerator.len(),
                denominator.len()
            )),
            "{}",
            Explanation::of(&long).average
        );
        // P(X <= 6) = 36/1296 < 5% <= P(X <= 7); P(X <= 16) = 1221/1296 < 95%.
        assert_eq!(
            words.middle,
            "half the rolls give 12 or less; 9 rolls in 10 give 7 to 17"
        );
        assert!(
            words
                .thresholds
                .contains(&"18 or more: 1.620%, about 1 in 62".to_string()),
            "{:?}",
            words.thresholds
        );
    }

    #[test]
    fn estimates_are_binned_and_carry_errors() {
        let report = DistRequest::new("1000d6")
            .estimated(20_000, 3)
            .run(&Control::new())
            .unwrap();
        let bins = bins(&report, 40).expect("wide");
        assert!(bins.len() <= 40);
        assert_eq!(bins.iter().map(|b| b.rolls).sum::<u64>(), 20_000);
        assert!(bins.iter().all(|b| b.standard_error > 0.0 || b.rolls == 0));
        let exact = DistRequest::new("3d6").run(&Control::new()).unwrap();
        assert!(super::bins(&exact, 4).is_none());
        let words = Explanation::of(&report);
        assert!(words.average.contains('±'), "{}", words.average);
        assert!(!words.average.contains('/'), "{}", words.average);
    }
}
