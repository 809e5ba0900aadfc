//! The Randomizers page and its API: what they ask for ([`RandomizerRequest`],
//! read from the URL so every result is a shareable link), and how it is computed
//! — an analysis, a seeded sample and a next-sample distribution, each the
//! document the command line prints.
//!
//! - `GET /randomizers?spec=…&samples=25[&method=auto|exact|monte_carlo&runs=N&seed=S]`
//!   `[&sample=1][&history=2,4,7,7]`: the page;
//! - `GET /api/analyze?spec=…&samples=T[…]`: `fairdice analyze SPEC --samples T --json`;
//! - `GET /api/sample?spec=…&count=N&seed=S`: `fairdice sample SPEC --count N --seed S --json`;
//! - `GET /api/next?spec=…&history=…`: `fairdice next SPEC --history … --json`;
//! - `GET /chart/analyze.svg?…`, `GET /chart/analyze.png?…`: the page's curves.

mod api;
mod page;

use axum::Router;
use axum::routing::get;
use fairdice::analysis::report::DroughtsReport;
use fairdice::analysis::{
    self, AnalysisError, AnalysisOptions, AnalysisReport, DEFAULT_STATE_BUDGET, MethodChoice,
};
use fairdice::dice::notation::{self, NotationError, Options};
use fairdice::randomizer::{
    AnyRandomizer, NextReport, Randomizer, SampleReport, Spec, observe_history,
};

use crate::AppState;
use crate::compute::Stopped;
use crate::limits::Limits;
use crate::problem::Problem;

/// The routes of the Randomizers page and its API.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/randomizers", get(page::show))
        .route("/api/analyze", get(api::analyze))
        .route("/api/sample", get(api::sample))
        .route("/api/next", get(api::next))
        .route("/chart/analyze.svg", get(api::chart_svg))
        .route("/chart/analyze.png", get(api::chart_png))
}

/// What to do when a computation is too slow or too big: advice for randomizers.
pub(crate) const SLOW_HINT: &str = "Try fewer samples, or estimate by Monte Carlo with fewer \
runs (Method: Monte Carlo), or run the same command on the command line, which has no time limit.";

/// How the analysis is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MethodWish {
    /// Exact when it fits the command line's budget, else Monte Carlo.
    Auto,
    /// Exact, or an error.
    Exact,
    /// Monte Carlo.
    MonteCarlo,
}

impl MethodWish {
    /// Every method, in the form's order.
    pub const ALL: [MethodWish; 3] = [MethodWish::Auto, MethodWish::Exact, MethodWish::MonteCarlo];

    /// Its name in a URL.
    pub fn as_str(self) -> &'static str {
        match self {
            MethodWish::Auto => "auto",
            MethodWish::Exact => "exact",
            MethodWish::MonteCarlo => "monte_carlo",
        }
    }

    /// Its name in the form.
    pub fn words(self) -> &'static str {
        match self {
            MethodWish::Auto => "exact if it fits",
            MethodWish::Exact => "exact only",
            MethodWish::MonteCarlo => "Monte Carlo",
        }
    }

    /// Reads `auto`, `exact` or `monte_carlo`.
    pub fn parse(value: &str) -> Result<MethodWish, Problem> {
        MethodWish::ALL
            .into_iter()
            .find(|m| m.as_str() == value)
            .ok_or_else(|| {
                Problem::BadRequest(format!(
                    "method must be auto, exact or monte_carlo, not `{value}`"
                ))
            })
    }
}

/// What a Randomizers request asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RandomizerRequest {
    /// The randomizer spec as typed (empty: the page shows examples).
    pub spec: String,
    /// Samples in the match (`T`); also how many the sample button draws.
    pub samples: usize,
    /// How to analyze.
    pub method: MethodWish,
    /// Monte Carlo runs (given: Monte Carlo, as `--runs` on the command line).
    pub runs: Option<u64>,
    /// The seed of Monte Carlo and of the sample.
    pub seed: u64,
    /// Also compute droughts.
    pub droughts: bool,
    /// Draw a seeded sequence of `samples` outcomes on the page.
    pub sample: bool,
    /// How many outcomes `/api/sample` draws (the command line's default is 10).
    pub count: u64,
    /// Outcomes seen so far, for the next-sample distribution (values or names).
    pub history: Option<Vec<String>>,
}

/// Samples in a match when none are given (the article's).
pub(crate) const DEFAULT_SAMPLES: usize = 25;

impl RandomizerRequest {
    /// Reads a request from a query string: `spec`, `samples`, `method`, `runs`,
    /// `seed`, `droughts` (`off` skips them), `sample`, `count`, `history`.
    /// Unknown parameters are ignored.
    ///
    /// # Errors
    /// [`Problem::BadRequest`] for a malformed or out-of-limits value;
    /// [`Problem::Refused`] for a spec longer than the limit.
    pub fn from_query(query: Option<&str>, limits: &Limits) -> Result<RandomizerRequest, Problem> {
        let mut request = RandomizerRequest {
            spec: String::new(),
            samples: DEFAULT_SAMPLES,
            method: MethodWish::Auto,
            runs: None,
            seed: analysis::DEFAULT_SEED,
            droughts: true,
            sample: false,
            count: 10,
            history: None,
        };
        for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            let value = value.trim();
            match key.as_ref() {
                "spec" => request.spec = value.to_string(),
                "samples" if !value.is_empty() => {
                    request.samples =
                        whole(value, "samples", 1, limits.max_samples as u64)? as usize;
                }
                "method" if !value.is_empty() => request.method = MethodWish::parse(value)?,
                "runs" if !value.is_empty() => {
                    request.runs = Some(whole(value, "runs", 2, limits.max_analysis_runs)?);
                }
                "seed" if !value.is_empty() => request.seed = seed(value)?,
                "droughts" => request.droughts = !matches!(value, "off" | "0" | "false"),
                "sample" => request.sample = !matches!(value, "" | "off" | "0" | "false"),
                "count" if !value.is_empty() => {
                    request.count = whole(value, "count", 1, limits.max_draws)?;
                }
                "history" => request.history = Some(history(value, limits)?),
                _ => {}
            }
        }
        if request.spec.len() > limits.max_spec_bytes {
            return Err(Problem::Refused(format!(
                "the spec is {} bytes long; the web app accepts up to {}",
                request.spec.len(),
                limits.max_spec_bytes
            )));
        }
        if request.sample && request.samples as u64 > limits.max_draws {
            return Err(Problem::BadRequest(format!(
                "the sample button draws up to {} outcomes, not {}",
                limits.max_draws, request.samples
            )));
        }
        if let Some(runs) = request.monte_carlo_runs() {
            let draws = runs.saturating_mul(request.samples as u64);
            if draws > limits.max_analysis_draws {
                return Err(Problem::BadRequest(format!(
                    "{runs} runs of {} samples is {draws} draws; the web app draws up to {} for one analysis (ask for fewer runs or samples)",
                    request.samples, limits.max_analysis_draws
                )));
            }
        }
        Ok(request)
    }

    /// The runs of a Monte Carlo analysis, when one is asked for.
    fn monte_carlo_runs(&self) -> Option<u64> {
        match (self.method, self.runs) {
            (_, Some(runs)) => Some(runs),
            (MethodWish::MonteCarlo, None) => Some(analysis::DEFAULT_RUNS),
            _ => None,
        }
    }

    /// The method as the command line chooses it from the same flags: runs given
    /// mean Monte Carlo; a forced exact sweep is capped by the server's limit.
    pub fn method_choice(&self, limits: &Limits) -> MethodChoice {
        match (self.monte_carlo_runs(), self.method) {
            (Some(runs), _) => MethodChoice::MonteCarlo {
                runs,
                seed: self.seed,
            },
            (None, MethodWish::Exact) => MethodChoice::Exact {
                cap: limits.max_analysis_states,
            },
            _ => MethodChoice::Auto {
                budget: DEFAULT_STATE_BUDGET.min(limits.max_analysis_states),
                runs: analysis::DEFAULT_RUNS,
                seed: self.seed,
            },
        }
    }

    /// The query string that asks for this request again, with `sample` on or off.
    pub fn query(&self, sample: bool) -> String {
        let mut pairs: Vec<(&str, String)> = vec![
            ("spec", self.spec.clone()),
            ("samples", self.samples.to_string()),
        ];
        if self.method != MethodWish::Auto {
            pairs.push(("method", self.method.as_str().to_string()));
        }
        if let Some(runs) = self.runs {
            pairs.push(("runs", runs.to_string()));
        }
        if self.seed != analysis::DEFAULT_SEED || sample || self.monte_carlo_runs().is_some() {
            pairs.push(("seed", self.seed.to_string()));
        }
        if !self.droughts {
            pairs.push(("droughts", "off".to_string()));
        }
        if sample {
            pairs.push(("sample", "1".to_string()));
        }
        if let Some(history) = &self.history {
            pairs.push(("history", history.join(",")));
        }
        crate::html::query(pairs.iter().map(|(k, v)| (*k, v.as_str())))
    }
}

/// A whole number in `low..=high`, or a bad request naming `what`.
pub(crate) fn whole(value: &str, what: &str, low: u64, high: u64) -> Result<u64, Problem> {
    let n: u64 = value.parse().map_err(|_| {
        Problem::BadRequest(format!("{what} must be a whole number, not `{value}`"))
    })?;
    if n < low || n > high {
        return Err(Problem::BadRequest(format!(
            "{what} must be between {low} and {high} on this server, not {n}"
        )));
    }
    Ok(n)
}

/// A seed: any 64-bit whole number.
pub(crate) fn seed(value: &str) -> Result<u64, Problem> {
    value.parse().map_err(|_| {
        Problem::BadRequest(format!(
            "seed must be a whole number from 0 to 2^64−1, not `{value}`"
        ))
    })
}

/// A comma-separated history of outcomes (values or names).
fn history(value: &str, limits: &Limits) -> Result<Vec<String>, Problem> {
    let entries: Vec<String> = value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if entries.len() > limits.max_history {
        return Err(Problem::BadRequest(format!(
            "the history lists {} outcomes; the web app takes up to {}",
            entries.len(),
            limits.max_history
        )));
    }
    Ok(entries)
}

/// Builds the randomizer of `spec`. A `base=EXPR` is evaluated first under
/// `options` (the time limit's cancel flag, the command line's budget), so a
/// huge base stops with the clock instead of holding a thread.
///
/// # Errors
/// [`Problem::Input`] with the library's message (it lists what is accepted);
/// [`Problem::Refused`] for a base nested too deeply; the time limit's problem.
pub(crate) fn build_randomizer(
    spec: &str,
    options: &Options,
    limits: &Limits,
) -> Result<AnyRandomizer, Problem> {
    if let Ok(parsed) = Spec::parse(spec)
        && let Some((_, base)) = parsed.args().iter().find(|(key, _)| key == "base")
    {
        check_base(base, options, limits)?;
    }
    let randomizer = Spec::build(spec).map_err(|e| Problem::Input(e.to_string()))?;
    check_outcomes(randomizer.outcomes().len(), limits)?;
    Ok(randomizer)
}

/// Refuses more outcomes than the server measures.
pub(crate) fn check_outcomes(outcomes: usize, limits: &Limits) -> Result<(), Problem> {
    if outcomes > limits.max_randomizer_outcomes {
        return Err(Problem::Refused(format!(
            "the randomizer has {outcomes} outcomes; the web app measures up to {} (the command line has no such limit)",
            limits.max_randomizer_outcomes
        )));
    }
    Ok(())
}

/// Evaluates a base expression under `options` only to see that it finishes in
/// time; its other errors are left to the spec's own message.
pub(crate) fn check_base(base: &str, options: &Options, limits: &Limits) -> Result<(), Problem> {
    crate::dice::precheck(base, limits)?;
    match notation::evaluate_with(base, options) {
        Err(NotationError::Cancelled) => Err(cancelled(limits)),
        Ok(die) => check_outcomes(die.len(), limits),
        Err(_) => Ok(()),
    }
}

/// The time limit's problem, with randomizer advice.
pub(crate) fn cancelled(limits: &Limits) -> Problem {
    Problem::Stopped(Stopped::TimedOut(limits.time_limit)).with_hint(SLOW_HINT)
}

/// A problem from [`Computer::run_each`](crate::compute::Computer::run_each), with
/// randomizer advice when the clock ran out.
pub(crate) fn stopped(stopped: Stopped) -> Problem {
    let problem = Problem::Stopped(stopped);
    if problem.kind() == "timed_out" {
        problem.with_hint(SLOW_HINT)
    } else {
        problem
    }
}

/// An analysis error as a problem.
fn analysis_problem(error: AnalysisError, limits: &Limits) -> Problem {
    match error {
        AnalysisError::Cancelled => cancelled(limits),
        AnalysisError::Exact(e) => Problem::TooBig(e.to_string()).with_hint(SLOW_HINT),
        other => Problem::Input(other.to_string()),
    }
}

/// Analyzes the request's randomizer under `options`' cancel flag, with its
/// droughts if `droughts`.
pub(crate) fn analyze(
    request: &RandomizerRequest,
    droughts: bool,
    options: &Options,
    limits: &Limits,
) -> Result<AnalysisReport, Problem> {
    let randomizer = build_randomizer(&request.spec, options, limits)?;
    let analysis_options = AnalysisOptions {
        samples: request.samples,
        method: request.method_choice(limits),
        droughts,
        cancel: options.cancel.clone(),
    };
    let analysis = analysis::analyze(&randomizer, &analysis_options, &|_| {})
        .map_err(|e| analysis_problem(e, limits))?;
    Ok(AnalysisReport::new(&randomizer, &analysis))
}

/// The droughts of the request's randomizer alone, as [`analyze`] would report
/// them.
pub(crate) fn droughts(
    request: &RandomizerRequest,
    options: &Options,
    limits: &Limits,
) -> Result<DroughtsReport, Problem> {
    let randomizer = build_randomizer(&request.spec, options, limits)?;
    let method = request.method_choice(limits);
    let droughts = analysis::droughts(
        &randomizer,
        request.samples,
        &method,
        options.cancel.as_ref(),
        &|_| {},
    )
    .map_err(|e| analysis_problem(e, limits))?;
    Ok(DroughtsReport::new(&randomizer, &droughts))
}

/// Draws `count` outcomes with the request's seed.
pub(crate) fn sample(
    request: &RandomizerRequest,
    count: u64,
    options: &Options,
    limits: &Limits,
) -> Result<SampleReport, Problem> {
    let randomizer = build_randomizer(&request.spec, options, limits)?;
    Ok(SampleReport::draw(randomizer, count, request.seed))
}

/// The next-sample distribution after the request's history.
pub(crate) fn next(
    request: &RandomizerRequest,
    options: &Options,
    limits: &Limits,
) -> Result<NextReport, Problem> {
    let mut randomizer = build_randomizer(&request.spec, options, limits)?;
    let history = request.history.clone().unwrap_or_default();
    observe_history(&mut randomizer, &history).map_err(|e| {
        Problem::Input(format!(
            "the history does not fit {}: {e}",
            randomizer.spec()
        ))
    })?;
    Ok(NextReport::new(&randomizer, &history))
}

/// One computation of a Randomizers request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Job {
    /// The seeded sequence of `T` outcomes (the page's sample button).
    PageSample,
    /// The seeded sequence of `count` outcomes (`/api/sample`).
    Sample,
    /// The next-sample distribution.
    Next,
    /// The analysis, droughts included as the request asks (`/api/analyze`).
    Analyze,
    /// The summaries and curves only (the page, which shows them before the
    /// costlier droughts).
    Curves,
    /// The droughts only.
    Droughts,
}

/// What a [`Job`] produced.
#[derive(Debug, Clone)]
pub(crate) enum Output {
    /// A seeded sequence.
    Sample(SampleReport),
    /// A next-sample distribution.
    Next(NextReport),
    /// An analysis.
    Analysis(Box<AnalysisReport>),
    /// Droughts.
    Droughts(DroughtsReport),
}

/// Runs `jobs` of `request` in order on one blocking thread (quick ones first, so
/// they show even when the analysis runs out of time), under the server's limits.
pub(crate) async fn compute(
    state: &AppState,
    request: &RandomizerRequest,
    jobs: Vec<Job>,
) -> Vec<Result<Output, Problem>> {
    let limits = state.limits.clone();
    let shared = request.clone();
    state
        .computer
        .run_each(jobs, move |job, options| match job {
            Job::PageSample => {
                sample(&shared, shared.samples as u64, options, &limits).map(Output::Sample)
            }
            Job::Sample => sample(&shared, shared.count, options, &limits).map(Output::Sample),
            Job::Next => next(&shared, options, &limits).map(Output::Next),
            Job::Analyze => analyze(&shared, shared.droughts, options, &limits)
                .map(|r| Output::Analysis(Box::new(r))),
            Job::Curves => {
                analyze(&shared, false, options, &limits).map(|r| Output::Analysis(Box::new(r)))
            }
            Job::Droughts => droughts(&shared, options, &limits).map(Output::Droughts),
        })
        .await
        .into_iter()
        .map(|r| r.unwrap_or_else(|s| Err(stopped(s))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_the_spec_samples_and_method() {
        let limits = Limits::default();
        let r = RandomizerRequest::from_query(
            Some("spec=prd%28p%3D0.25%29&samples=40&method=exact&sample=1&history=1,0"),
            &limits,
        )
        .expect("valid");
        assert_eq!(r.spec, "prd(p=0.25)");
        assert_eq!(r.samples, 40);
        assert_eq!(
            r.method_choice(&limits),
            MethodChoice::Exact { cap: 2_000_000 }
        );
        assert!(r.sample);
        assert_eq!(r.history, Some(vec!["1".to_string(), "0".to_string()]));
        assert_eq!(
            r.query(true),
            "spec=prd%28p%3D0.25%29&samples=40&method=exact&seed=1&sample=1&history=1%2C0"
        );
    }

    #[test]
    fn runs_mean_monte_carlo_as_on_the_command_line() {
        let limits = Limits::default();
        let r = RandomizerRequest::from_query(Some("spec=tgm2&runs=500&seed=9"), &limits)
            .expect("valid");
        assert_eq!(
            r.method_choice(&limits),
            MethodChoice::MonteCarlo { runs: 500, seed: 9 }
        );
        let auto = RandomizerRequest::from_query(Some("spec=tgm2"), &limits).expect("valid");
        assert!(matches!(
            auto.method_choice(&limits),
            MethodChoice::Auto { .. }
        ));
    }

    #[test]
    fn out_of_limit_values_are_bad_requests() {
        let limits = Limits::default();
        for query in [
            "spec=tgm2&samples=0",
            "spec=tgm2&samples=1001",
            "spec=tgm2&samples=x",
            "spec=tgm2&method=guess",
            "spec=tgm2&runs=1",
            "spec=tgm2&runs=1000000&samples=1000",
            "spec=tgm2&count=10001",
            "spec=tgm2&seed=-3",
        ] {
            let error = RandomizerRequest::from_query(Some(query), &limits).expect_err(query);
            assert_eq!(error.kind(), "bad_request", "{query}");
        }
        let long = format!("spec={}", "d".repeat(301));
        let error = RandomizerRequest::from_query(Some(&long), &limits).expect_err("long");
        assert_eq!(error.kind(), "refused");
    }

    #[test]
    fn spec_errors_carry_the_librarys_list_of_what_is_accepted() {
        let limits = Limits::default();
        let error = build_randomizer("dek(values=6)", &Options::default(), &limits)
            .expect_err("unknown name");
        assert_eq!(error.kind(), "invalid_input");
        assert!(error.message().contains("accepted"), "{}", error.message());
        let deep = format!("dice(base={}d6{})", "(".repeat(40), ")".repeat(40));
        let error = build_randomizer(&deep, &Options::default(), &limits).expect_err("deep");
        assert_eq!(error.kind(), "refused");
        for huge in ["fair(values=20000, tightness=1)", "dice(base=5000d6)"] {
            let error = build_randomizer(huge, &Options::default(), &limits).expect_err(huge);
            assert_eq!(error.kind(), "refused", "{huge}");
            assert!(
                error.message().contains("up to 10000"),
                "{}",
                error.message()
            );
        }
    }

    #[test]
    fn a_history_the_randomizer_cannot_have_drawn_is_an_input_error() {
        let limits = Limits::default();
        let request =
            RandomizerRequest::from_query(Some("spec=deck%28values%3D2%29&history=1,1"), &limits)
                .expect("valid");
        let error = next(&request, &Options::default(), &limits).expect_err("impossible");
        assert_eq!(error.kind(), "invalid_input");
        assert!(error.message().contains("history"), "{}", error.message());
    }
}
