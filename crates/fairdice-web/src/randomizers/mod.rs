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
mod request;

use axum::Router;
use axum::routing::get;
use fairdice::analysis::report::DroughtsReport;
use fairdice::analysis::{self, AnalysisError, AnalysisOptions, AnalysisReport};
use fairdice::dice::notation::{self, NotationError, Options};
use fairdice::randomizer::{
    AnyRandomizer, NextReport, Randomizer, SampleReport, Spec, observe_history,
};
use fairdice::{Control, Stop};

use crate::AppState;
use crate::compute::Stopped;
use crate::limits::Limits;
use crate::problem::Problem;

pub(crate) use request::{MethodWish, RandomizerRequest, seed, whole};

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
/// Builds the randomizer of `spec`. A `base=EXPR` is evaluated first under
/// `options` (the time limit's cancel flag, the command line's budget), so a
/// huge base stops with the clock instead of holding a thread.
///
/// # Errors
/// [`Problem::Input`] with the library's message (it lists what is accepted);
/// [`Problem::Refused`] for a base nested too deeply; the time limit's problem.
pub(crate) fn build_randomizer(
    spec: &str,
    control: &Control,
    limits: &Limits,
) -> Result<AnyRandomizer, Problem> {
    if let Ok(parsed) = Spec::parse(spec)
        && let Some((_, base)) = parsed.args().iter().find(|(key, _)| key == "base")
    {
        check_base(base, control, limits)?;
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

/// Evaluates a base expression under `control` only to see that it finishes in
/// time; its other errors are left to the spec's own message.
pub(crate) fn check_base(base: &str, control: &Control, limits: &Limits) -> Result<(), Problem> {
    crate::dice::precheck(base, limits)?;
    match notation::evaluate_with(base, &Options::default(), control) {
        Err(NotationError::Stopped(Stop::Cancelled)) => Err(cancelled(limits)),
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
        AnalysisError::Stopped(Stop::Cancelled) => cancelled(limits),
        AnalysisError::Exact(e) => Problem::TooBig(e.to_string()).with_hint(SLOW_HINT),
        other => Problem::Input(other.to_string()),
    }
}

/// Analyzes the request's randomizer under `options`' cancel flag, with its
/// droughts if `droughts`.
pub(crate) fn analyze(
    request: &RandomizerRequest,
    droughts: bool,
    control: &Control,
    limits: &Limits,
) -> Result<AnalysisReport, Problem> {
    let randomizer = build_randomizer(&request.spec, control, limits)?;
    let analysis_options = AnalysisOptions {
        samples: request.samples,
        method: request.method_choice(limits),
        droughts,
    };
    let analysis = analysis::analyze(&randomizer, &analysis_options, control)
        .map_err(|e| analysis_problem(e, limits))?;
    Ok(AnalysisReport::new(&randomizer, &analysis))
}

/// The droughts of the request's randomizer alone, as [`analyze`] would report
/// them.
pub(crate) fn droughts(
    request: &RandomizerRequest,
    control: &Control,
    limits: &Limits,
) -> Result<DroughtsReport, Problem> {
    let randomizer = build_randomizer(&request.spec, control, limits)?;
    let method = request.method_choice(limits);
    let droughts = analysis::droughts(&randomizer, request.samples, &method, control)
        .map_err(|e| analysis_problem(e, limits))?;
    Ok(DroughtsReport::new(&randomizer, &droughts))
}

/// Draws `count` outcomes with the request's seed.
pub(crate) fn sample(
    request: &RandomizerRequest,
    count: u64,
    control: &Control,
    limits: &Limits,
) -> Result<SampleReport, Problem> {
    let randomizer = build_randomizer(&request.spec, control, limits)?;
    Ok(SampleReport::draw(randomizer, count, request.seed))
}

/// The next-sample distribution after the request's history.
pub(crate) fn next(
    request: &RandomizerRequest,
    control: &Control,
    limits: &Limits,
) -> Result<NextReport, Problem> {
    let mut randomizer = build_randomizer(&request.spec, control, limits)?;
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
        .run_each(jobs, move |job, control| match job {
            Job::PageSample => {
                sample(&shared, shared.samples as u64, control, &limits).map(Output::Sample)
            }
            Job::Sample => sample(&shared, shared.count, control, &limits).map(Output::Sample),
            Job::Next => next(&shared, control, &limits).map(Output::Next),
            Job::Analyze => analyze(&shared, shared.droughts, control, &limits)
                .map(|r| Output::Analysis(Box::new(r))),
            Job::Curves => {
                analyze(&shared, false, control, &limits).map(|r| Output::Analysis(Box::new(r)))
            }
            Job::Droughts => droughts(&shared, control, &limits).map(Output::Droughts),
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
    fn spec_errors_carry_the_librarys_list_of_what_is_accepted() {
        let limits = Limits::default();
        let error =
            build_randomizer("dek(values=6)", &Control::new(), &limits).expect_err("unknown name");
        assert_eq!(error.kind(), "invalid_input");
        assert!(error.message().contains("accepted"), "{}", error.message());
        let deep = format!("dice(base={}d6{})", "(".repeat(40), ")".repeat(40));
        let error = build_randomizer(&deep, &Control::new(), &limits).expect_err("deep");
        assert_eq!(error.kind(), "refused");
        for huge in ["fair(values=20000, tightness=1)", "dice(base=5000d6)"] {
            let error = build_randomizer(huge, &Control::new(), &limits).expect_err(huge);
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
        let error = next(&request, &Control::new(), &limits).expect_err("impossible");
        assert_eq!(error.kind(), "invalid_input");
        assert!(error.message().contains("history"), "{}", error.message());
    }
}
