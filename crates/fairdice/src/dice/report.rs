//! [`DistributionReport`]: the numbers shown for a distribution — per-outcome counts,
//! probabilities and cumulative chances, mean, spread — computed in one place so
//! the command's table, its `--json` document and the web app always agree.
//!
//! With the `serde` feature the report serializes to the `fairdice dist --json`
//! document: `{"expression", "total", "outcomes": [{"outcome", "count",
//! "probability"}], "mean", "mean_exact", "sd", "variance_exact", "min", "max",
//! "method", …}`, counts and totals as exact decimal strings and exact values as
//! reduced fractions `"p/q"` (`null` for a Monte Carlo estimate, whose mean is
//! not exact).
//!
//! # Example
//! ```
//! use fairdice::dice::notation::evaluate;
//! use fairdice::dice::report::{DistributionReport, Measure};
//!
//! let report = DistributionReport::exact("4d6kh3", &evaluate("4d6kh3")?);
//! assert_eq!(report.total.to_string(), "1296");
//! assert_eq!(format!("{:.4}", report.mean), "12.2446");
//! assert_eq!(report.value_at(Measure::AtLeast, 18), 21.0 / 1296.0);
//! # Ok::<(), fairdice::dice::notation::NotationError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::dice::die::{Die, Outcome, quotient, ratio_to_f64};
use crate::dice::notation::{Estimate, OtherReading};
use crate::dice::tuple::TupleCode;

/// The numbers of one distribution, ready to print, serve or chart.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DistributionReport {
    /// The expression as the user wrote it.
    pub expression: String,
    /// How many equally likely rolls the counts add up to.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub total: BigUint,
    /// One row per possible outcome, ascending.
    pub outcomes: Vec<OutcomeRow>,
    /// The mean, as the nearest `f64`.
    pub mean: f64,
    /// The exact mean (`None` for an estimate).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_optional_fraction"))]
    pub mean_exact: Option<BigRational>,
    /// The standard deviation.
    pub sd: f64,
    /// The exact variance (`None` for an estimate).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_optional_fraction"))]
    pub variance_exact: Option<BigRational>,
    /// The smallest outcome.
    pub min: Outcome,
    /// The largest outcome.
    pub max: Outcome,
    /// The smallest outcome with `P(X ≤ x) ≥ 1/2`.
    pub median: Outcome,
    /// Whether the numbers are exact or estimated.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub method: Method,
    /// For an expression that explodes without a limit of its own, the extra
    /// rolls per die it was computed up to (the last roll stands as it lands):
    /// exact counts of the dice cut there, not of dice that explode forever.
    /// Absent when nothing is cut.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub explode_depth: Option<u32>,
    /// What the exact total counts: rolls of dice (absent in JSON), deals of
    /// cards, or both.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Counted::is_rolls"))]
    pub counted: Counted,
    /// For a tuple (`(count(p, 5, 6), count(p, 1))`), each of its values alone:
    /// its expression, mean, spread and range. The report's own mean, sd, min,
    /// max and median are then its first value's, and each row's outcome is
    /// the tuple.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub values: Option<Vec<ValueSummary>>,
    /// Parts of the expression other dice tools read differently (absent when
    /// none does): what they make of it, and how to write that here.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub other_readings: Vec<OtherReading>,
    /// The expression as written and how a dice tool's dialect read it
    /// (absent for fairdice's own reading); `expression` is then that reading.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub dialect: Option<crate::dice::notation::Translation>,
}

/// A pair's chances as a grid: its first value down, its second across.
#[derive(Debug, Clone, PartialEq)]
pub struct PairGrid {
    /// The first value's expression.
    pub first: String,
    /// The second value's expression.
    pub second: String,
    /// The first value's outcomes, ascending.
    pub rows: Vec<Outcome>,
    /// The second value's outcomes, ascending.
    pub columns: Vec<Outcome>,
    /// `P(first = rows[r], second = columns[c])` at `[r][c]`; `None` for a pair
    /// no roll gives.
    pub cells: Vec<Vec<Option<f64>>>,
}

/// One value of a tuple, alone.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueSummary {
    /// The value's expression as written.
    pub expression: String,
    /// Its mean.
    pub mean: f64,
    /// Its exact mean (`None` for an estimate).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_optional_fraction"))]
    pub mean_exact: Option<BigRational>,
    /// Its standard deviation.
    pub sd: f64,
    /// Its exact variance (`None` for an estimate).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_optional_fraction"))]
    pub variance_exact: Option<BigRational>,
    /// Its smallest outcome.
    pub min: Outcome,
    /// Its largest outcome.
    pub max: Outcome,
}

/// What an exact distribution's equally likely cases are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "snake_case")
)]
pub enum Counted {
    /// Rolls of dice (and expressions without any).
    #[default]
    Rolls,
    /// Deals of cards.
    Deals,
    /// Rolls of dice together with deals of cards.
    RollsAndDeals,
}

impl Counted {
    /// The cases in words: "rolls", "deals", "rolls and deals".
    pub fn noun(self) -> &'static str {
        match self {
            Counted::Rolls => "rolls",
            Counted::Deals => "deals",
            Counted::RollsAndDeals => "rolls and deals",
        }
    }

    /// Whether the cases are rolls of dice alone.
    pub fn is_rolls(&self) -> bool {
        *self == Counted::Rolls
    }
}

/// One outcome's row.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OutcomeRow {
    /// The outcome (for a tuple, its packing: [`OutcomeRow::tuple`] holds its
    /// values, and JSON writes them as the outcome).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub outcome: Outcome,
    /// The outcome as JSON writes it: the number, or a tuple's values.
    #[cfg_attr(feature = "serde", serde(rename = "outcome"))]
    written: Written,
    /// How many of the equally likely rolls give it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub count: BigUint,
    /// `P(X = outcome)`.
    pub probability: f64,
    /// `P(X ≤ outcome)`.
    pub at_most: f64,
    /// `P(X ≥ outcome)`.
    pub at_least: f64,
    /// The outcome's label, for an expression with labels (`as {…}`): its
    /// outcomes number the labels from 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub label: Option<String>,
}

/// An outcome as JSON writes it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
enum Written {
    /// A number.
    Number(Outcome),
    /// The values of a tuple.
    Tuple(Vec<Outcome>),
}

impl OutcomeRow {
    /// The outcome as shown: its label, its tuple `(3, 1)`, or its number.
    pub fn shown(&self) -> String {
        if let Some(label) = &self.label {
            return label.clone();
        }
        match &self.written {
            Written::Number(n) => n.to_string(),
            Written::Tuple(values) => {
                let values: Vec<String> = values.iter().map(Outcome::to_string).collect();
                format!("({})", values.join(", "))
            }
        }
    }

    /// The values of a tuple's outcome, if the outcome is a tuple.
    pub fn tuple(&self) -> Option<&[Outcome]> {
        match &self.written {
            Written::Tuple(values) => Some(values),
            Written::Number(_) => None,
        }
    }
}

/// How a distribution was obtained.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "method", rename_all = "snake_case")
)]
pub enum Method {
    /// Computed exactly.
    Exact,
    /// Estimated from seeded rolls.
    MonteCarlo {
        /// How many rolls.
        runs: u64,
        /// The generator seed.
        seed: u64,
        /// The standard error of the sample mean.
        mean_standard_error: f64,
    },
}

impl DistributionReport {
    /// The report of an exactly computed distribution.
    pub fn exact(expression: &str, die: &Die) -> DistributionReport {
        DistributionReport::new(expression, die, Method::Exact)
    }

    /// This report, saying that its explosions were cut at `depth` extra rolls
    /// per die.
    #[must_use]
    pub fn cut_at_explode_depth(mut self, depth: u32) -> DistributionReport {
        self.explode_depth = Some(depth);
        self
    }

    /// This report, saying what its equally likely cases are.
    #[must_use]
    pub fn counting(mut self, counted: Counted) -> DistributionReport {
        self.counted = counted;
        self
    }

    /// This report with its outcomes labelled: outcome `i` is `names[i]`.
    #[must_use]
    pub fn labelled(mut self, names: &[String]) -> DistributionReport {
        for row in &mut self.outcomes {
            row.label = usize::try_from(row.outcome)
                .ok()
                .and_then(|i| names.get(i))
                .cloned();
        }
        self
    }

    /// This report of a tuple packed by `code`, whose values are written
    /// `texts`: each row's outcome is its tuple, each value is summed up alone,
    /// and the report's own mean, sd, min, max and median are its first value's.
    #[must_use]
    pub fn tupled(mut self, code: TupleCode, texts: &[String]) -> DistributionReport {
        let exact = self.method == Method::Exact;
        let mut values = Vec::with_capacity(code.size());
        let mut first = None;
        for (i, text) in texts.iter().enumerate() {
            let pairs = self
                .outcomes
                .iter()
                .map(|row| (code.unpack(row.outcome)[i], row.count.clone()));
            let Ok(alone) = Die::new(pairs) else {
                continue;
            };
            let (mean, variance) = (alone.mean(), alone.variance());
            values.push(ValueSummary {
                expression: text.clone(),
                mean: ratio_to_f64(&mean),
                sd: ratio_to_f64(&variance).sqrt(),
                mean_exact: exact.then(|| mean.clone()),
                variance_exact: exact.then(|| variance.clone()),
                min: alone.min_outcome(),
                max: alone.max_outcome(),
            });
            if i == 0 {
                first = Some(alone);
            }
        }
        if let Some(first) = first {
            let whole = DistributionReport::new(&self.expression, &first, self.method.clone());
            self.mean = whole.mean;
            self.sd = whole.sd;
            self.mean_exact = whole.mean_exact;
            self.variance_exact = whole.variance_exact;
            self.min = whole.min;
            self.max = whole.max;
            self.median = whole.median;
        }
        for row in &mut self.outcomes {
            row.written = Written::Tuple(code.unpack(row.outcome));
        }
        self.values = Some(values);
        self
    }

    /// The grid of a pair's chances; `None` for anything but a pair.
    pub fn pair_grid(&self) -> Option<PairGrid> {
        let [first, second] = self.values.as_deref()? else {
            return None;
        };
        let pairs: Vec<(Outcome, Outcome, f64)> = self
            .outcomes
            .iter()
            .filter_map(|row| match row.tuple()? {
                [a, b] => Some((*a, *b, row.probability)),
                _ => None,
            })
            .collect();
        let mut rows: Vec<Outcome> = pairs.iter().map(|p| p.0).collect();
        let mut columns: Vec<Outcome> = pairs.iter().map(|p| p.1).collect();
        for values in [&mut rows, &mut columns] {
            values.sort_unstable();
            values.dedup();
        }
        let mut cells = vec![vec![None; columns.len()]; rows.len()];
        for (a, b, p) in pairs {
            if let (Ok(r), Ok(c)) = (rows.binary_search(&a), columns.binary_search(&b)) {
                cells[r][c] = Some(p);
            }
        }
        Some(PairGrid {
            first: first.expression.clone(),
            second: second.expression.clone(),
            rows,
            columns,
            cells,
        })
    }

    /// The likeliest outcome's row (the first of equally likely ones).
    pub fn likeliest(&self) -> Option<&OutcomeRow> {
        self.outcomes
            .iter()
            .rev()
            .max_by(|a, b| a.probability.total_cmp(&b.probability))
    }

    /// Whether the outcomes are shown by name: labels, or tuples.
    pub fn is_labelled(&self) -> bool {
        self.outcomes
            .iter()
            .any(|row| row.label.is_some() || row.tuple().is_some())
    }

    /// Outcome `x` as shown: its label, its tuple, or its number.
    pub fn shown(&self, x: Outcome) -> String {
        self.outcomes
            .binary_search_by_key(&x, |row| row.outcome)
            .map_or_else(|_| x.to_string(), |i| self.outcomes[i].shown())
    }

    /// The report of a Monte Carlo estimate made with `seed`.
    pub fn monte_carlo(expression: &str, estimate: &Estimate, seed: u64) -> DistributionReport {
        let (_, error) = estimate.mean_and_error();
        let method = Method::MonteCarlo {
            runs: estimate.runs,
            seed,
            mean_standard_error: error,
        };
        DistributionReport::new(expression, &estimate.to_die(), method)
    }

    fn new(expression: &str, die: &Die, method: Method) -> DistributionReport {
        let total = die.total();
        let counts: Vec<BigUint> = die.iter().map(|(_, c)| c).collect();
        // Machine-word totals take the die's own fast path; huge ones divide without
        // reducing each fraction first (a gcd per outcome made a 20,000-outcome
        // report of 2,000-bit counts take seconds).
        let probabilities = if total.bits() <= F64_SAFE_BITS {
            die.probabilities()
        } else {
            counts.iter().map(|c| quotient(c, &total)).collect()
        };
        let mut below = BigUint::zero();
        let mut outcomes = Vec::with_capacity(counts.len());
        let mut median = None;
        for ((outcome, count), probability) in die.outcomes().iter().zip(counts).zip(probabilities)
        {
            let at_least = quotient(&(&total - &below), &total);
            below += &count;
            if median.is_none() && &below * 2u32 >= total {
                median = Some(*outcome);
            }
            outcomes.push(OutcomeRow {
                outcome: *outcome,
                written: Written::Number(*outcome),
                at_most: quotient(&below, &total),
                at_least,
                count,
                probability,
                label: None,
            });
        }
        let mean_exact = die.mean();
        let variance_exact = die.variance();
        let exact = method == Method::Exact;
        DistributionReport {
            expression: expression.to_string(),
            total,
            outcomes,
            mean: ratio_to_f64(&mean_exact),
            sd: ratio_to_f64(&variance_exact).sqrt(),
            mean_exact: exact.then_some(mean_exact),
            variance_exact: exact.then_some(variance_exact),
            min: die.min_outcome(),
            max: die.max_outcome(),
            median: median.unwrap_or(die.max_outcome()),
            method,
            explode_depth: None,
            counted: Counted::Rolls,
            values: None,
            other_readings: Vec::new(),
            dialect: None,
        }
    }

    /// `P(X = x)`, `P(X ≥ x)` or `P(X ≤ x)` for any `x`, in or outside the support
    /// (so several distributions can be charted over the union of their outcomes).
    pub fn value_at(&self, measure: Measure, x: Outcome) -> f64 {
        let rows = &self.outcomes;
        match measure {
            Measure::Probability => rows
                .binary_search_by_key(&x, |r| r.outcome)
                .map_or(0.0, |i| rows[i].probability),
            Measure::AtLeast => {
                let from = rows.partition_point(|r| r.outcome < x);
                rows.get(from).map_or(0.0, |r| r.at_least)
            }
            Measure::AtMost => {
                let upto = rows.partition_point(|r| r.outcome <= x);
                upto.checked_sub(1).map_or(0.0, |i| rows[i].at_most)
            }
        }
    }

    /// The exact mean as a reduced fraction `p/q`, or an integer when it is one;
    /// `None` for an estimate.
    pub fn mean_fraction(&self) -> Option<String> {
        self.mean_exact.as_ref().map(|mean| {
            if mean.is_integer() {
                mean.numer().to_string()
            } else {
                fraction(mean)
            }
        })
    }

    /// [`mean_fraction`](Self::mean_fraction) for prose: the fraction itself when it
    /// takes at most [`SHORT_FRACTION_CHARS`] characters, else its size ("a fraction
    /// of 412 digits over 410"), since hundreds of digits say nothing a reader can
    /// use (`10d10!!kh3`); the JSON document keeps every digit.
    pub fn mean_fraction_words(&self) -> Option<String> {
        self.mean_fraction().map(|exact| {
            if exact.len() <= SHORT_FRACTION_CHARS {
                return exact;
            }
            match exact.split_once('/') {
                Some((numerator, denominator)) => format!(
                    "a fraction of {} digits over {}",
                    numerator.len(),
                    denominator.len()
                ),
                None => format!("an integer of {} digits", exact.len()),
            }
        })
    }

    /// The report as the pretty-printed `fairdice dist --json` document.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}

/// The longest exact mean [`DistributionReport::mean_fraction_words`] spells out.
pub const SHORT_FRACTION_CHARS: usize = 40;

/// Totals up to this many bits convert to `f64` finitely: [`Die::probabilities`]
/// takes its machine-float path for them.
const F64_SAFE_BITS: u64 = 1000;

/// Which probability of an outcome a chart or column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Measure {
    /// `P(X = x)`.
    #[default]
    Probability,
    /// `P(X ≥ x)`.
    AtLeast,
    /// `P(X ≤ x)`.
    AtMost,
}

impl Measure {
    /// Every measure, in the order a page offers them.
    pub const ALL: [Measure; 3] = [Measure::Probability, Measure::AtLeast, Measure::AtMost];

    /// The name used in URLs and flags: `probability`, `at_least`, `at_most`.
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Probability => "probability",
            Measure::AtLeast => "at_least",
            Measure::AtMost => "at_most",
        }
    }

    /// The words a person reads: `probability`, `at least`, `at most`.
    pub fn words(self) -> &'static str {
        match self {
            Measure::Probability => "probability",
            Measure::AtLeast => "at least",
            Measure::AtMost => "at most",
        }
    }

    /// The formula, for an axis title: `P(X = x)`, `P(X ≥ x)`, `P(X ≤ x)`.
    pub fn formula(self) -> &'static str {
        match self {
            Measure::Probability => "P(X = x)",
            Measure::AtLeast => "P(X ≥ x)",
            Measure::AtMost => "P(X ≤ x)",
        }
    }

    /// This measure's value in a row.
    pub fn of(self, row: &OutcomeRow) -> f64 {
        match self {
            Measure::Probability => row.probability,
            Measure::AtLeast => row.at_least,
            Measure::AtMost => row.at_most,
        }
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a [`Measure`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown measure `{0}`; expected probability, at_least or at_most")]
pub struct UnknownMeasure(pub String);

impl FromStr for Measure {
    type Err = UnknownMeasure;

    fn from_str(s: &str) -> Result<Measure, UnknownMeasure> {
        match s.replace('-', "_").as_str() {
            "probability" | "" => Ok(Measure::Probability),
            "at_least" => Ok(Measure::AtLeast),
            "at_most" => Ok(Measure::AtMost),
            _ => Err(UnknownMeasure(s.to_string())),
        }
    }
}

/// A probability as a percentage with four significant digits below 1%, so small
/// values stay apart: `12.886%`, `0.07716%`, `1.531e-76%`, `0%`.
pub fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if p == 0.0 {
        "0%".to_string()
    } else if pct >= 1.0 {
        format!("{pct:.3}%")
    } else if pct >= 1e-4 {
        let decimals = (3.0 - pct.log10().floor()) as usize;
        format!("{pct:.decimals$}%")
    } else {
        format!("{pct:.3e}%")
    }
}

/// A count in decimal, or — past `max_digits` digits — abbreviated as `1.234e56`
/// (tables stay readable; JSON and CSV carry the exact digits).
///
/// A count of thousands of digits is abbreviated from its leading 64 bits and its
/// length, never written out in full: converting every count of `65535d2` to
/// decimal took half a minute.
pub fn short_count(count: &BigUint, max_digits: usize) -> String {
    let max_digits = max_digits.max(4);
    // 64 bits more than the longest decimal shown in full cannot be shown in full.
    if count.bits() <= (max_digits as u64) * 10 / 3 + 64 {
        let digits = count.to_string();
        if digits.len() <= max_digits {
            return digits;
        }
        return format!("{}.{}e{}", &digits[..1], &digits[1..4], digits.len() - 1);
    }
    let shift = count.bits() - 64;
    let top = (count >> shift).to_u64().unwrap_or(u64::MAX) as f64;
    let log10 = top.log10() + shift as f64 * std::f64::consts::LOG10_2;
    let mut exponent = log10.floor();
    let mut mantissa = 10f64.powf(log10 - exponent);
    // Rounding to four digits may carry into the next power of ten.
    if (mantissa * 1000.0).round() >= 10_000.0 {
        mantissa /= 10.0;
        exponent += 1.0;
    }
    format!("{mantissa:.3}e{exponent}")
}

/// About how many decimal digits `n` has (exact or one more), from its bits.
pub fn decimal_digits(n: &BigUint) -> u64 {
    (n.bits() as f64 * std::f64::consts::LOG10_2).floor() as u64 + 1
}

/// A fraction as `p/q`, always with a denominator, so machines parse it one way.
pub fn fraction(r: &BigRational) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

#[cfg(feature = "serde")]
pub(crate) fn as_decimal<S: serde::Serializer>(n: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(n)
}

#[cfg(feature = "serde")]
pub(crate) fn as_optional_fraction<S: serde::Serializer>(
    r: &Option<BigRational>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => as_fraction(r, s),
        None => s.serialize_none(),
    }
}

#[cfg(feature = "serde")]
pub(crate) fn as_fraction<S: serde::Serializer>(r: &BigRational, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&fraction(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::notation::evaluate;

    fn report(text: &str) -> DistributionReport {
        DistributionReport::exact(text, &evaluate(text).expect("valid"))
    }

    #[test]
    fn four_d6_keep_three() {
        let r = report("4d6kh3");
        assert_eq!(r.total.to_string(), "1296");
        assert_eq!(fraction(r.mean_exact.as_ref().unwrap()), "15869/1296");
        assert_eq!((r.min, r.max, r.median), (3, 18, 12));
        assert_eq!(r.outcomes.len(), 16);
        assert_eq!(r.outcomes[0].count.to_string(), "1");
        assert_eq!(r.outcomes[15].at_least, 21.0 / 1296.0);
        assert_eq!(r.outcomes[15].at_most, 1.0);
        assert_eq!(r.method, Method::Exact);
    }

    #[test]
    fn the_fast_report_matches_the_dies_exact_methods() {
        for text in [
            "4d6kh3",
            "3d6",
            "d20+5 >= 15",
            "10d10cs>=8",
            "d{1,1,2,100}",
            "200d6",
            "500d8",
        ] {
            let die = evaluate(text).expect("valid");
            let r = DistributionReport::exact(text, &die);
            let at_most = die.at_most_all();
            let at_least = die.at_least_all();
            let probabilities = die.probabilities();
            for (i, row) in r.outcomes.iter().enumerate() {
                assert_eq!(row.at_most, at_most[i], "{text}");
                assert_eq!(row.at_least, at_least[i], "{text}");
                assert_eq!(row.probability, probabilities[i], "{text}");
            }
            assert_eq!(r.median, die.quantile(0.5).expect("median"), "{text}");
            assert_eq!(r.sd, die.standard_deviation(), "{text}");
        }
    }

    #[test]
    fn values_outside_the_support_extend_the_cumulative_chances() {
        let r = report("d4");
        assert_eq!(r.value_at(Measure::Probability, 0), 0.0);
        assert_eq!(r.value_at(Measure::Probability, 2), 0.25);
        assert_eq!(r.value_at(Measure::AtLeast, -5), 1.0);
        assert_eq!(r.value_at(Measure::AtLeast, 5), 0.0);
        assert_eq!(r.value_at(Measure::AtMost, 0), 0.0);
        assert_eq!(r.value_at(Measure::AtMost, 9), 1.0);
        assert_eq!(r.value_at(Measure::AtMost, 3), 0.75);
    }

    #[test]
    fn measures_parse_from_urls_and_flags() {
        for m in Measure::ALL {
            assert_eq!(m.as_str().parse::<Measure>(), Ok(m));
        }
        assert_eq!("at-least".parse::<Measure>(), Ok(Measure::AtLeast));
        assert!("most".parse::<Measure>().is_err());
    }

    #[test]
    fn percentages() {
        assert_eq!(percent(0.5), "50.000%");
        assert_eq!(percent(1e-7), "1.000e-5%");
        assert_eq!(percent(1.0 / 1296.0), "0.07716%");
        assert_eq!(percent(0.5), "50.000%");
        assert_eq!(percent(0.001234), "0.1234%");
        assert_eq!(percent(0.0), "0%");
    }

    #[test]
    fn long_counts_are_abbreviated() {
        assert_eq!(short_count(&BigUint::from(1296u32), 24), "1296");
        let big = BigUint::from(6u32).pow(100);
        assert_eq!(short_count(&big, 24), "6.533e77");
    }

    #[test]
    fn huge_counts_are_abbreviated_from_their_leading_bits_like_from_their_digits() {
        // Against the full decimal expansion, around the threshold and far past it.
        for bits in [60u32, 90, 100, 200, 1000, 5000] {
            for n in [
                BigUint::from(2u32).pow(bits),
                BigUint::from(3u32).pow(bits),
                BigUint::from(10u32).pow(bits / 3) - 1u32,
            ] {
                let digits = n.to_string();
                let slow = if digits.len() <= 24 {
                    digits.clone()
                } else {
                    format!("{}.{}e{}", &digits[..1], &digits[1..4], digits.len() - 1)
                };
                let fast = short_count(&n, 24);
                // The same number to four significant digits (the fast path
                // rounds, the slow one truncates: they may differ in the last).
                let value = |text: &str| -> (f64, i64) {
                    let (m, e) = text.split_once('e').unwrap_or((text, "0"));
                    (m.parse().unwrap(), e.parse().unwrap())
                };
                let ((fm, fe), (sm, se)) = (value(&fast), value(&slow));
                let ratio = fm / sm * 10f64.powi((fe - se) as i32);
                assert!((ratio - 1.0).abs() <= 1.5e-3, "{fast} vs {slow}");
                assert!(decimal_digits(&n).abs_diff(digits.len() as u64) <= 1);
            }
        }
    }

    #[test]
    fn integer_means_have_no_denominator_in_text() {
        assert_eq!(report("2d6").mean_fraction().as_deref(), Some("7"));
        assert_eq!(report("d4").mean_fraction().as_deref(), Some("5/2"));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_has_the_documented_shape() {
        let value: serde_json::Value = serde_json::from_str(&report("d4").to_json()).expect("json");
        assert_eq!(value["expression"], "d4");
        assert_eq!(value["total"], "4");
        assert_eq!(value["mean_exact"], "5/2");
        assert_eq!(value["variance_exact"], "5/4");
        assert_eq!(value["method"], "exact");
        assert_eq!(value["outcomes"][0]["count"], "1");
        assert_eq!(value["outcomes"][0]["probability"], 0.25);
        assert_eq!(value["outcomes"][0]["at_most"], 0.25);
        assert_eq!(value["outcomes"][0]["at_least"], 1.0);
        assert_eq!(value["median"], 2);
    }
}
