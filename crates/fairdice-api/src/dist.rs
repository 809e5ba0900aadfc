//! `dist`: the distribution of a dice expression — exact, or estimated by seeded
//! Monte Carlo when asked (`runs`) — as a [`DistributionReport`].
//!
//! An exact computation too large for the budget is refused with its estimate and
//! a [`Suggestion`]: the same request with a number of rolls sized to finish in
//! seconds. A Monte Carlo request is priced too (rolls × dice per roll) before it
//! starts.

use crate::charts::{Drawn, View};
use fairdice::Control;
use fairdice::control::step_count;
use fairdice::dice::notation::{self, Dialect, NotationError, Options, Translation, ast::Expr};
use fairdice::dice::report::decimal_digits;
use fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH;
use serde::{Deserialize, Serialize};

pub use fairdice::dice::report::DistributionReport;

use crate::error::{Suggestion, nice_runs, shell_quote};
use crate::{DEFAULT_SEED, Error, UseCase};

/// Budget steps one rolled die costs a Monte Carlo estimate: about 10 ns in a
/// plain sum, 90 ns in a million-die pool that keeps half of them (it is sorted;
/// measured: `1000000d1000000kh500000` by 20 rolls, 1.8 s), a step about 1 to 6 ns.
pub const STEPS_PER_ROLLED_DIE: u64 = 16;

/// The dice a suggested estimate rolls in all: a few seconds on one core (a die
/// costs 40 ns in a plain sum and up to 200 ns in a million-die pool that keeps
/// half its dice, which must be sorted).
pub const SUGGESTED_DICE: u64 = 20_000_000;

/// The fewest rolls worth suggesting as an estimate.
pub const MIN_SUGGESTED_RUNS: u64 = 10;

/// The largest document with every count written out (`--json`, `--csv`, the web
/// API) a front-end writes: 256 MiB. `65535d2` would be 900 MB.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// About how many bytes the report's exact document takes: every count written
/// out, plus the fixed fields of each row. Priced from the counts' bits, without
/// writing them.
pub fn document_bytes(report: &DistributionReport) -> u64 {
    let rows: u64 = report
        .outcomes
        .iter()
        .map(|row| decimal_digits(&row.count) + 190)
        .sum();
    rows + 2 * decimal_digits(&report.total) + 1000
}

/// Estimated steps up to which a request counts as quick
/// ([`UseCase::is_quick`]): about a millisecond at most, where handing it to a
/// worker would add two thread wake-ups (tens of microseconds on a virtual
/// machine) and cancelling has nothing to interrupt.
pub const QUICK_STEPS: f64 = 300_000.0;

/// Refuses to write a document of every exact count past `max_bytes`.
///
/// # Errors
/// [`Error`] with code `too_big`, naming the size and what can show it instead.
pub fn check_document(report: &DistributionReport, max_bytes: u64) -> Result<(), Error> {
    let bytes = document_bytes(report);
    if bytes <= max_bytes {
        return Ok(());
    }
    Err(Error::too_big(format!(
        "the exact counts of {} would fill about {} (the limit is {}); the table shows them abbreviated",
        report.expression,
        fairdice::control::bytes(bytes),
        fairdice::control::bytes(max_bytes)
    )))
}

/// The distribution of one dice expression.
///
/// As JSON: `{"expression": "4d6kh3", "runs": null, "seed": 1, "explode_depth": 9}`
/// (only `expression` is required).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistRequest {
    /// The expression, e.g. `4d6kh3` or `d20+5 >= 15`.
    pub expression: String,
    /// Estimate from this many seeded rolls instead of computing exactly.
    #[serde(default)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// How many extra rolls an exploding die may make.
    #[serde(default = "default_explode_depth")]
    pub explode_depth: u32,
    /// Read the expression as this dice tool reads it (`roll20`, `foundry`,
    /// `rpg-dice-roller`, `anydice`; `fairdice` by default).
    #[serde(default, skip_serializing_if = "is_fairdice")]
    pub dialect: Dialect,
}

/// Whether `dialect` is fairdice's own reading (left out of a request's JSON).
pub(crate) fn is_fairdice(dialect: &Dialect) -> bool {
    *dialect == Dialect::Fairdice
}

/// `expression` as `dialect` reads it, in fairdice's language, or the error of
/// a string that dialect cannot read (its caret in the text it points into).
///
/// # Errors
/// A parse error, or the difference the language cannot write.
pub fn translated(expression: &str, dialect: Dialect) -> Result<Translation, Error> {
    notation::translate(expression, dialect).map_err(|refused| {
        let mut error = Error::notation(&NotationError::Parse(refused.error), &refused.text);
        if dialect != Dialect::Fairdice {
            error = error.in_context(&format!("read as {}:", dialect.tool()));
        }
        error
    })
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

fn default_explode_depth() -> u32 {
    DEFAULT_EXPLODE_DEPTH
}

impl DistRequest {
    /// The exact distribution of `expression`, default options.
    pub fn new(expression: impl Into<String>) -> DistRequest {
        DistRequest {
            expression: expression.into(),
            runs: None,
            seed: DEFAULT_SEED,
            explode_depth: DEFAULT_EXPLODE_DEPTH,
            dialect: Dialect::Fairdice,
        }
    }

    /// The same request estimated from `runs` rolls with `seed`.
    #[must_use]
    pub fn estimated(mut self, runs: u64, seed: u64) -> DistRequest {
        self.runs = Some(runs);
        self.seed = seed;
        self
    }

    /// The evaluation options the request asks for.
    pub fn options(&self) -> Options {
        Options {
            explode_depth: self.explode_depth,
            ..Options::default()
        }
    }

    /// The request as a `fairdice dist` command line.
    pub fn command(&self) -> String {
        let mut command = format!("fairdice dist {}", shell_quote(&self.expression));
        if self.explode_depth != DEFAULT_EXPLODE_DEPTH {
            command.push_str(&format!(" --explode-depth {}", self.explode_depth));
        }
        if self.dialect != Dialect::Fairdice {
            command.push_str(&format!(" --dialect {}", self.dialect));
        }
        if let Some(runs) = self.runs {
            command.push_str(&format!(" --runs {runs}"));
            if self.seed != DEFAULT_SEED {
                command.push_str(&format!(" --seed {}", self.seed));
            }
        }
        command
    }

    /// Parses the expression; the parser refuses what is too long or nested
    /// too deeply, naming the limit.
    ///
    /// # Errors
    /// A parse error with its caret.
    pub fn parse(&self) -> Result<Expr, Error> {
        notation::parse(&self.expression).map_err(|e| self.notation_error(e.into()))
    }

    fn notation_error(&self, error: NotationError) -> Error {
        Error::notation(&error, &self.expression)
    }

    /// The same request as an estimate that finishes in seconds, if one can.
    fn suggestion(&self, expr: &Expr, control: &Control) -> Option<Suggestion> {
        // A roll of more dice than this leaves fewer than the fewest runs worth
        // suggesting: no need to roll further.
        let most = SUGGESTED_DICE / MIN_SUGGESTED_RUNS;
        let dice = dice_per_roll(expr, &self.options(), self.seed, most, control).ok()?;
        let runs = nice_runs(SUGGESTED_DICE / dice.max(1));
        if runs < MIN_SUGGESTED_RUNS {
            return None;
        }
        let request = self.clone().estimated(runs, self.seed);
        Some(Suggestion {
            use_case: Self::NAME,
            command: request.command(),
            request: serde_json::to_value(&request).ok()?,
        })
    }

    fn estimate(
        &self,
        expr: &Expr,
        runs: u64,
        control: &Control,
    ) -> Result<DistributionReport, Error> {
        if runs == 0 {
            return Err(Error::invalid_input(
                "runs must be at least 1 (the number of rolls to estimate from)",
            ));
        }
        let options = self.options();
        // Past this many dice a roll is refused anyway: by the steps of `runs`
        // rolls, or by the memory of the dice one roll holds.
        let most = (control.max_steps() / STEPS_PER_ROLLED_DIE / runs)
            .min(control.max_memory() / BYTES_PER_HELD_DIE);
        let dice = dice_per_roll(expr, &options, self.seed, most, control)
            .map_err(|e| self.notation_error(e))?;
        let steps = runs
            .saturating_mul(dice)
            .saturating_mul(STEPS_PER_ROLLED_DIE);
        if steps > control.max_steps() {
            let fits = control.max_steps() / STEPS_PER_ROLLED_DIE / dice.max(1);
            // A roll cut short at `most` dice holds more than that.
            let (size, about, fits) = if most == 0 {
                ("at least one die".to_string(), "at least", String::new())
            } else if dice > most {
                (format!("more than {most} dice"), "over", String::new())
            } else {
                let fits = format!("; at most about {fits} rolls fit");
                (format!("about {dice} dice"), "about", fits)
            };
            let mut error = Error::too_big(format!(
                "{runs} rolls of {size} each is more than the budget allows \
                 ({about} {} steps, the limit is {}){fits}",
                step_count(steps as f64),
                step_count(control.max_steps() as f64)
            ));
            if let Some(suggestion) = self.suggestion(expr, control) {
                error = error.with_suggestion(suggestion);
            }
            return Err(error);
        }
        // Every thread holds the dice of the roll it is making.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        let held = dice
            .saturating_mul(BYTES_PER_HELD_DIE)
            .saturating_mul(threads);
        if control.reserve(held).is_err() {
            return Err(Error::too_big(format!(
                "one roll holds more than {dice} dice (about {} of memory), more than the budget allows",
                fairdice::control::bytes(held)
            )));
        }
        let estimate = notation::monte_carlo(expr, &options, runs, self.seed, control)
            .map_err(|e| self.notation_error(e))?;
        Ok(annotated(
            DistributionReport::monte_carlo(&self.expression, &estimate, self.seed),
            expr,
        ))
    }
}

impl DistRequest {
    /// A report of `size` (its rows and digits) refused for `stop`, with an
    /// estimate that finishes.
    fn report_refusal(
        &self,
        stop: &fairdice::Stop,
        size: &str,
        expr: &Expr,
        control: &Control,
    ) -> Error {
        let mut refusal = Error::from_failure(stop)
            .in_context(&format!("the report of {} ({size})", self.expression));
        if let Some(suggestion) = self.suggestion(expr, control) {
            refusal = refusal.with_suggestion(suggestion);
        }
        refusal
    }
}

impl UseCase for DistRequest {
    const NAME: &'static str = "dist";
    type Report = DistributionReport;

    /// An exact distribution estimated at up to 300,000 steps (`100d6` is 12,531
    /// steps and 0.5 ms, its counts being 260-bit integers; `20d20kh5` 213,380
    /// steps and 0.3 ms), or an expression that does not parse.
    fn is_quick(&self) -> bool {
        self.runs.is_none()
            && self.parse().map_or(true, |expr| {
                fairdice::dice::notation::estimate(&expr, &self.options()).steps <= QUICK_STEPS
            })
    }

    fn check_document(report: &DistributionReport, max_bytes: u64) -> Result<(), Error> {
        check_document(report, max_bytes)
    }

    /// Every report on one axis, one chart per measure the view asks for, named by
    /// the measure (`probability`, `at_least`, `at_most`); an unknown measure is an
    /// error.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        use fairdice_charts::Chart as _;
        let (width, height) = crate::charts::size(view);
        Ok(view
            .measures()?
            .into_iter()
            .map(|measure| Drawn {
                name: measure.as_str(),
                svg: fairdice_charts::distribution_chart(reports, measure)
                    .size(width, height)
                    .to_svg(),
            })
            .collect())
    }

    fn run(&self, control: &Control) -> Result<DistributionReport, Error> {
        if self.dialect != Dialect::Fairdice {
            // The dialect's reading, written in fairdice, is what is computed
            // (and what a refusal's suggestion names).
            let translation = translated(&self.expression, self.dialect)?;
            let request = DistRequest {
                expression: translation.expression.clone(),
                dialect: Dialect::Fairdice,
                ..self.clone()
            };
            let mut report = request.run(control)?;
            // The reading was chosen: what other tools make of its spelling
            // here is not news.
            report.other_readings.clear();
            report.dialect = Some(translation);
            return Ok(report);
        }
        let expr = self.parse()?;
        if let Some(runs) = self.runs {
            return self.estimate(&expr, runs, control);
        }
        // The report is priced before the distribution is computed, from the
        // estimate of its rows and digits, and again once they are known. A
        // computation past the budget itself is refused for that first, by the
        // evaluation.
        let options = self.options();
        let cost = notation::estimate(&expr, &options);
        let computable = cost.steps <= control.max_steps() as f64
            && cost.outcomes <= options.max_outcomes as f64;
        let digits = (cost.bits * std::f64::consts::LOG10_2).floor() + 1.0;
        if let (true, Err(stop)) = (computable, price_rows(cost.support, cost.bits, control)) {
            let size = format!(
                "about {:.0} outcomes, counts of up to about {digits:.0} digits",
                cost.support
            );
            return Err(self.report_refusal(&stop, &size, &expr, control));
        }
        match notation::evaluate_expr(&expr, &options, control) {
            Ok(die) => {
                if let Err(stop) = price_report(&die, control) {
                    let size = format!(
                        "{} outcomes, counts of up to {} digits",
                        die.len(),
                        decimal_digits(&die.total())
                    );
                    return Err(self.report_refusal(&stop, &size, &expr, control));
                }
                let report = annotated(
                    DistributionReport::exact(&self.expression, &die).counting(expr.counted()),
                    &expr,
                );
                Ok(if expr.explodes_to_depth() {
                    report.cut_at_explode_depth(self.explode_depth)
                } else {
                    report
                })
            }
            Err(error) => {
                let mut refusal = self.notation_error(error);
                if refusal.kind == fairdice::FailureKind::TooLarge {
                    if let Some(suggestion) = self.suggestion(&expr, control) {
                        refusal = refusal.with_suggestion(suggestion);
                    }
                }
                Err(refusal)
            }
        }
    }
}

/// The report with the labels or the tuple the expression gives its outcomes,
/// if any, and the parts other dice tools read differently.
fn annotated(mut report: DistributionReport, expr: &Expr) -> DistributionReport {
    report.other_readings = notation::other_readings(&report.expression, expr);
    if let (Some(code), Some(values)) = (expr.tuple_code(), expr.tuple()) {
        let texts: Vec<String> = values
            .iter()
            .map(|value| expr_text(&report.expression, value))
            .collect();
        return report.tupled(code, &texts);
    }
    match expr.label_names() {
        Some(names) => report.labelled(&names),
        None => report,
    }
}

/// The text of `value` in `expression`.
fn expr_text(expression: &str, value: &Expr) -> String {
    expression
        .get(value.span.clone())
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// About how many bytes a row of a report takes (outcome, exact count,
/// probabilities; measured: `dist d1000000 --csv` peaks at 107 MB).
pub const BYTES_PER_REPORT_ROW: u64 = 96;

/// Prices the report of an exact distribution before it is built: each row
/// turns its count into decimal digits and divides out its probability, about a
/// step for every pair of 64-bit words of the total (20000d2: 20,001 rows of
/// 20,000-bit counts took 1.4 s), and holds its row, its count and their digits.
///
/// # Errors
/// [`fairdice::Stop`] past the budget's steps or memory.
pub fn price_report(die: &fairdice::Die, control: &Control) -> Result<(), fairdice::Stop> {
    price_rows(die.len() as f64, die.total().bits() as f64, control)
}

/// Budget steps a report row costs besides its count's digits (a square of its
/// words): its fraction reduced, its probability and percentages written, its
/// JSON. Measured 0.75 µs a row for one-word counts (`d{1..1000}*d{1..1000}`,
/// 248,000 rows), and about a nanosecond a squared word beyond (20000d2's counts
/// of 313 words: 98 µs a row).
const STEPS_PER_REPORT_ROW: f64 = 512.0;

/// Prices a report of `rows` rows whose total has `bits` bits, as
/// [`price_report`] does once the distribution is known.
///
/// # Errors
/// [`fairdice::Stop`] past the budget's steps or memory.
pub fn price_rows(rows: f64, bits: f64, control: &Control) -> Result<(), fairdice::Stop> {
    let words = (bits / 64.0).floor() + 1.0;
    let digits = (bits * std::f64::consts::LOG10_2).floor() + 1.0;
    control.afford(rows * (words * words + STEPS_PER_REPORT_ROW))?;
    let per_row_bytes = BYTES_PER_REPORT_ROW as f64 + 8.0 * words + 2.0 * digits;
    control.reserve((rows * per_row_bytes).min(u64::MAX as f64) as u64)
}

/// About how many bytes a die takes while a roll holds it (its value, its
/// rolls, whether it counts; measured 40 bytes for a die rolled once).
pub const BYTES_PER_HELD_DIE: u64 = 48;

/// How many dice one roll of `expr` rolls, rerolls and explosions included: the
/// most of a few trial rolls (at least 1), or `most + 1` once a roll passes
/// `most` (it stops there: ask no more than a request could afford). Nothing is
/// recorded; `control` can cancel the trials.
///
/// # Errors
/// As [`notation::roll()`]; cancelled through `control`.
pub fn dice_per_roll(
    expr: &Expr,
    options: &Options,
    seed: u64,
    most: u64,
    control: &Control,
) -> Result<u64, NotationError> {
    notation::dice_per_roll(expr, options, 4, seed, most, control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_by_default_and_estimated_on_request() {
        let exact = DistRequest::new("3d6").run(&Control::new()).unwrap();
        assert_eq!(exact.total.to_string(), "216");
        let estimate = DistRequest::new("3d6")
            .estimated(10_000, 7)
            .run(&Control::new())
            .unwrap();
        assert!((estimate.mean - 10.5).abs() < 0.2, "{}", estimate.mean);
    }

    #[test]
    fn too_large_suggests_an_estimate_that_fits_the_budget() {
        let error = DistRequest::new("1000000d1000000kh500000")
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.exit_status(), 3);
        // A million dice a roll: 20 rolls.
        let suggestion = error.suggestion.expect("an estimate can answer");
        assert_eq!(
            suggestion.command,
            "fairdice dist 1000000d1000000kh500000 --runs 20"
        );
        let error = DistRequest::new("100d10kh10")
            .run(&Control::new().with_max_steps(1000))
            .unwrap_err();
        assert_eq!(
            error.suggestion.expect("suggested").command,
            "fairdice dist 100d10kh10 --runs 200000"
        );
    }

    #[test]
    fn monte_carlo_is_priced_before_it_rolls() {
        let error = DistRequest::new("3d6")
            .estimated(1_000_000_000_000, 1)
            .run(&Control::new())
            .unwrap_err();
        assert_eq!(error.code, "too_big");
        assert!(error.suggestion.is_some());
        let zero = DistRequest::new("3d6").estimated(0, 1).run(&Control::new());
        assert_eq!(zero.unwrap_err().exit_status(), 2);
    }

    #[test]
    fn repeated_values_are_priced_like_dice() {
        // 644,444 repetitions of a constant roll no dice, but each is a value to
        // hold and rank: 200 such rolls took 9 s under a budget of 2e7 steps.
        let control = Control::new().with_max_steps(20_000_000);
        let error = DistRequest::new("644444#4kh*4")
            .estimated(200, 7)
            .run(&control)
            .unwrap_err();
        assert_eq!(error.code, "too_big");
        assert!(
            error.message.contains("rolls of more than"),
            "{}",
            error.message
        );
        assert!(error.suggestion.is_some());
    }

    #[test]
    fn documents_are_priced_before_they_are_written() {
        let small = DistRequest::new("3d6").run(&Control::new()).unwrap();
        let written = small.to_json().len() as u64;
        assert!(
            document_bytes(&small) >= written,
            "{} < {written}",
            document_bytes(&small)
        );
        assert!(check_document(&small, MAX_DOCUMENT_BYTES).is_ok());
        let wide = DistRequest::new("3000d2").run(&Control::new()).unwrap();
        let written = wide.to_json().len() as u64;
        let priced = document_bytes(&wide);
        assert!(
            priced >= written && priced < 2 * written,
            "{priced} vs {written}"
        );
        let refused = check_document(&wide, written / 2).unwrap_err();
        assert_eq!(refused.exit_status(), 3);
    }

    #[test]
    fn a_report_too_large_is_refused_before_its_distribution_is_computed() {
        // 10255d10!cs>=8 once took 13.8 s and 5.3 GB before its report was
        // refused; its rows and digits are now priced from the estimate.
        for expression in ["10255d10!cs>=8", "65563d6even"] {
            let control = Control::new();
            let error = DistRequest::new(expression).run(&control).unwrap_err();
            assert_eq!(error.code, "too_big", "{expression}");
            assert!(
                error.full_text().contains("(about "),
                "{}",
                error.full_text()
            );
            assert!(error.suggestion.is_some());
            assert_eq!(control.steps_used(), 0, "{expression} was computed");
        }
    }

    #[test]
    fn deep_nesting_is_refused_by_the_parser_with_its_caret() {
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        let error = DistRequest::new(deep).run(&Control::new()).unwrap_err();
        assert_eq!(error.code, "parse");
        assert!(
            error.rendered.contains("nest more than 64 levels deep"),
            "{}",
            error.rendered
        );
        assert!(DistRequest::new("((d6)d6)+-3").run(&Control::new()).is_ok());
    }

    #[test]
    fn a_cancelled_control_stops_exact_and_estimated_runs() {
        let control = Control::new();
        control.cancel();
        for request in [
            DistRequest::new("300d100"),
            DistRequest::new("3d6").estimated(100_000, 1),
        ] {
            let error = request.run(&control).unwrap_err();
            assert_eq!(error.kind, fairdice::FailureKind::Cancelled, "{request:?}");
        }
    }

    #[test]
    fn requests_read_from_json_with_defaults() {
        let request: DistRequest = serde_json::from_str(r#"{"expression": "d20"}"#).unwrap();
        assert_eq!(request, DistRequest::new("d20"));
        assert!(serde_json::from_str::<DistRequest>(r#"{"expr": "d20"}"#).is_err());
    }
}
