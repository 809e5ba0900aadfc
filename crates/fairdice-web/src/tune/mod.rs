//! The Tuner page and its API: what they ask for ([`TuneRequest`], read from the
//! URL), validated into the library's [`Tuning`] the way `fairdice tune` reads its
//! flags, and searched under the server's limits.
//!
//! - `GET /tune?values=6&samples=25&min_entropy=0.9&systems=deck&systems=dynamic`:
//!   the page (`samples` also takes `20..40` or `20:1,30:2,40:1`; `base=2d6`
//!   instead of `values`; `grid=…` repeatable; `method`, `runs`, `seed`);
//! - `GET /api/tune?…[&all=1]`: `fairdice tune … --json [--all]`;
//! - `GET /chart/tune.svg?…`, `GET /chart/tune.png?…`: the winners' curves, as
//!   `fairdice tune … --plot` draws them.

mod api;
mod page;

use axum::Router;
use axum::routing::get;
use fairdice::analysis::{self, MethodChoice};
use fairdice::tune::{self, Grid, MatchLength, Outcomes, TuneError, TuneReport, Tuning};
use fairdice::{Control, Stop};
use fairdice_charts::CurvesFigure;

use crate::AppState;
use crate::limits::Limits;
use crate::problem::Problem;
use crate::randomizers::{MethodWish, SLOW_HINT, cancelled, check_base, seed, stopped, whole};

/// The routes of the Tuner page and its API.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/tune", get(page::show))
        .route("/api/tune", get(api::tune))
        .route("/chart/tune.svg", get(api::chart_svg))
        .route("/chart/tune.png", get(api::chart_png))
}

/// Systems searched when none are chosen (the article's).
pub(crate) const DEFAULT_SYSTEMS: [&str; 2] = ["deck", "dynamic"];

/// What a Tuner request asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TuneRequest {
    /// The faces `1..=N` of a fair die (when no base is given).
    pub values: Option<u64>,
    /// Weighted outcomes from a dice expression instead.
    pub base: Option<String>,
    /// The match length as typed: `25`, `20..40` or `20:1,30:2,40:1`.
    pub samples: String,
    /// The least mean entropy a candidate must keep.
    pub min_entropy: f64,
    /// Systems to search, in order (`deck`, `dynamic`, …).
    pub systems: Vec<String>,
    /// Custom grids, as `fairdice tune --grid` takes them.
    pub grids: Vec<String>,
    /// How candidates are measured.
    pub method: MethodWish,
    /// Monte Carlo runs per candidate (given: Monte Carlo, as `--runs`).
    pub runs: Option<u64>,
    /// The Monte Carlo seed.
    pub seed: u64,
    /// List every candidate in the JSON (`--all`).
    pub all: bool,
}

impl TuneRequest {
    /// Reads a request from a query string. `systems` may repeat and hold
    /// comma-separated names; `grid` may repeat. Unknown parameters are ignored.
    ///
    /// # Errors
    /// [`Problem::BadRequest`] for a malformed value.
    pub fn from_query(query: Option<&str>, limits: &Limits) -> Result<TuneRequest, Problem> {
        let mut request = TuneRequest {
            values: None,
            base: None,
            samples: "25".to_string(),
            min_entropy: 0.9,
            systems: Vec::new(),
            grids: Vec::new(),
            method: MethodWish::Auto,
            runs: None,
            seed: analysis::DEFAULT_SEED,
            all: false,
        };
        let bad = |message: String| Problem::BadRequest(message);
        for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            let value = value.trim();
            match key.as_ref() {
                "values" if !value.is_empty() => {
                    let most = limits.max_randomizer_outcomes as u64;
                    request.values = Some(whole(value, "values", 1, most)?);
                }
                "base" if !value.is_empty() => request.base = Some(value.to_string()),
                "samples" if !value.is_empty() => request.samples = value.to_string(),
                "min_entropy" if !value.is_empty() => {
                    request.min_entropy = value
                        .parse::<f64>()
                        .ok()
                        .filter(|x| (0.0..=1.0).contains(x))
                        .ok_or_else(|| {
                            bad(format!(
                                "min_entropy must be in [0, 1] (a fraction of a fair die's entropy), not `{value}`"
                            ))
                        })?;
                }
                "systems" => request.systems.extend(
                    value
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_ascii_lowercase),
                ),
                "grid" if !value.is_empty() => request.grids.push(value.to_string()),
                "method" if !value.is_empty() => request.method = MethodWish::parse(value)?,
                "runs" if !value.is_empty() => {
                    request.runs = Some(whole(value, "runs", 2, limits.max_analysis_runs)?);
                }
                "seed" if !value.is_empty() => request.seed = seed(value)?,
                "all" => request.all = !matches!(value, "" | "off" | "0" | "false"),
                _ => {}
            }
        }
        let typed = request
            .base
            .iter()
            .chain(&request.grids)
            .chain(&request.systems);
        if let Some(long) = typed.clone().find(|t| t.len() > limits.max_spec_bytes) {
            return Err(Problem::Refused(format!(
                "`{}…` is {} bytes long; the web app accepts up to {}",
                long.chars().take(20).collect::<String>(),
                long.len(),
                limits.max_spec_bytes
            )));
        }
        if request.systems.len() + request.grids.len() > MAX_SYSTEMS {
            return Err(bad(format!(
                "at most {MAX_SYSTEMS} systems can be searched at once"
            )));
        }
        Ok(request)
    }

    /// True when the request names no outcomes: the page shows examples.
    pub fn is_empty(&self) -> bool {
        self.values.is_none() && self.base.is_none()
    }

    /// The systems searched: those chosen, or the article's two.
    pub fn systems_or_default(&self) -> Vec<String> {
        if self.systems.is_empty() && self.grids.is_empty() {
            DEFAULT_SYSTEMS.iter().map(|s| s.to_string()).collect()
        } else {
            self.systems.clone()
        }
    }

    /// The query string that asks for this request again.
    pub fn query(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(n) = self.values {
            pairs.push(("values", n.to_string()));
        }
        if let Some(base) = &self.base {
            pairs.push(("base", base.clone()));
        }
        pairs.push(("samples", self.samples.clone()));
        pairs.push(("min_entropy", self.min_entropy.to_string()));
        for system in self.systems_or_default() {
            pairs.push(("systems", system));
        }
        for grid in &self.grids {
            pairs.push(("grid", grid.clone()));
        }
        if self.method != MethodWish::Auto {
            pairs.push(("method", self.method.as_str().to_string()));
        }
        if let Some(runs) = self.runs {
            pairs.push(("runs", runs.to_string()));
        }
        if self.seed != analysis::DEFAULT_SEED {
            pairs.push(("seed", self.seed.to_string()));
        }
        crate::html::query(pairs.iter().map(|(k, v)| (*k, v.as_str())))
    }

    /// The search this asks for, checked as `fairdice tune` checks its flags and
    /// against the server's limits.
    ///
    /// # Errors
    /// [`Problem::Input`] with the library's message for bad outcomes, match
    /// lengths, systems or grids; [`Problem::BadRequest`] past a limit.
    pub fn tuning(&self, limits: &Limits) -> Result<Tuning, Problem> {
        let input = |what: &str, e: &dyn std::fmt::Display| Problem::Input(format!("{what}: {e}"));
        let outcomes = match (&self.values, &self.base) {
            (Some(_), Some(_)) => {
                return Err(Problem::BadRequest(
                    "give values=N or base=EXPR, not both".into(),
                ));
            }
            (Some(n), None) => Outcomes::Values(*n),
            (None, Some(expr)) => Outcomes::Base(expr.clone()),
            (None, None) => return Err(Problem::BadRequest("give values=N or base=EXPR".into())),
        };
        let samples: MatchLength = self
            .samples
            .parse()
            .map_err(|e| input(&format!("samples {}", self.samples), &e))?;
        if samples.max() > limits.max_tune_samples {
            return Err(Problem::BadRequest(format!(
                "the tuner measures matches of up to {} samples on this server, not {} (the command line has no such limit)",
                limits.max_tune_samples,
                samples.max()
            )));
        }
        let mut grids: Vec<Grid> = Vec::new();
        for name in self.systems_or_default() {
            let grid =
                Grid::default_for(&name).map_err(|e| input(&format!("system {name}"), &e))?;
            if !grids.iter().any(|g| g.family() == grid.family()) {
                grids.push(grid);
            }
        }
        for text in &self.grids {
            let grid = Grid::parse(text).map_err(|e| input(&format!("grid {text}"), &e))?;
            match grids.iter_mut().find(|g| g.family() == grid.family()) {
                Some(slot) => *slot = grid,
                None => grids.push(grid),
            }
        }
        let candidates: usize = grids.iter().map(Grid::len).sum();
        if candidates > limits.max_tune_candidates {
            return Err(Problem::BadRequest(format!(
                "the grids hold {candidates} candidates; the web app measures up to {} in one search",
                limits.max_tune_candidates
            )));
        }
        let method = match (self.runs, self.method) {
            (Some(runs), _) => MethodChoice::MonteCarlo {
                runs,
                seed: self.seed,
            },
            (None, MethodWish::MonteCarlo) => MethodChoice::MonteCarlo {
                runs: tune::FALLBACK_RUNS,
                seed: self.seed,
            },
            (None, MethodWish::Exact) => MethodChoice::Exact {
                cap: limits.max_analysis_states,
            },
            (None, MethodWish::Auto) => MethodChoice::Auto {
                budget: tune::STATE_BUDGET,
                runs: tune::FALLBACK_RUNS,
                seed: self.seed,
            },
        };
        if let MethodChoice::MonteCarlo { runs, .. } = method {
            let draws = runs
                .saturating_mul(samples.max() as u64)
                .saturating_mul(candidates as u64);
            if draws > limits.max_analysis_draws {
                return Err(Problem::BadRequest(format!(
                    "{runs} runs × {} samples × {candidates} candidates is {draws} draws; the web app draws up to {} for one search (ask for fewer runs)",
                    samples.max(),
                    limits.max_analysis_draws
                )));
            }
        }
        Ok(Tuning {
            outcomes,
            samples,
            min_entropy: self.min_entropy,
            grids,
            method,
        })
    }
}

/// The most systems (and custom grids) one search may name.
const MAX_SYSTEMS: usize = 12;

/// A search's document and the curves of its winners.
pub(crate) struct Searched {
    /// The `fairdice tune --json` document.
    pub report: TuneReport,
    /// The winners' curves, as `fairdice tune --plot` draws them.
    pub figure: CurvesFigure,
}

/// Runs the search of `request` under `control`, which the time limit cancels.
fn search(request: &TuneRequest, control: &Control, limits: &Limits) -> Result<Searched, Problem> {
    let tuning = request.tuning(limits)?;
    if let Outcomes::Base(base) = &tuning.outcomes {
        check_base(base, control, limits)?;
    }
    let result = tune::tune(&tuning, control).map_err(|e| match e {
        TuneError::Stopped(Stop::Cancelled) => cancelled(limits),
        TuneError::Analysis {
            source: analysis::AnalysisError::Exact(_),
            ..
        } => Problem::TooBig(e.to_string()).with_hint(SLOW_HINT),
        TuneError::TooBig { .. } => Problem::TooBig(e.to_string()).with_hint(SLOW_HINT),
        other => Problem::Input(other.to_string()),
    })?;
    let baseline = tuning
        .plain_dice_variance()
        .map_err(|e| Problem::Input(e.to_string()))?;
    let report = TuneReport::new(&tuning, &result, baseline, request.all);
    Ok(Searched {
        figure: CurvesFigure::tuning(&report),
        report,
    })
}

/// Runs the search of `request` on a blocking thread under the server's limits.
pub(crate) async fn compute(state: &AppState, request: &TuneRequest) -> Result<Searched, Problem> {
    let limits = state.limits.clone();
    let shared = request.clone();
    state
        .computer
        .run_each(vec![()], move |(), control| {
            search(&shared, control, &limits)
        })
        .await
        .remove(0)
        .unwrap_or_else(|s| Err(stopped(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(query: &str) -> Result<TuneRequest, Problem> {
        TuneRequest::from_query(Some(query), &Limits::default())
    }

    #[test]
    fn the_articles_search_is_the_default() {
        let r = request("values=6&samples=25").expect("valid");
        let tuning = r.tuning(&Limits::default()).expect("valid");
        assert_eq!(tuning.grids.len(), 2);
        assert_eq!(tuning.min_entropy, 0.9);
        assert!(matches!(
            tuning.method,
            MethodChoice::Auto {
                budget: 250_000,
                ..
            }
        ));
        assert_eq!(
            r.query(),
            "values=6&samples=25&min_entropy=0.9&systems=deck&systems=dynamic"
        );
    }

    #[test]
    fn systems_repeat_or_come_comma_separated_and_grids_replace_defaults() {
        let r = request(
            "values=7&samples=20..40&systems=nes,tgm1&systems=deck&grid=deck(copies%3D1|2)",
        )
        .expect("valid");
        let tuning = r.tuning(&Limits::default()).expect("valid");
        let families: Vec<&str> = tuning.grids.iter().map(Grid::family).collect();
        assert_eq!(families, ["nes", "tgm1", "deck"]);
        assert_eq!(tuning.grids[2].len(), 20);
        assert_eq!(tuning.samples.max(), 40);
    }

    #[test]
    fn bad_inputs_name_what_is_accepted() {
        let limits = Limits::default();
        let tuning = |q: &str| request(q).and_then(|r| r.tuning(&limits));
        let unknown = tuning("values=6&systems=decks").expect_err("unknown system");
        assert_eq!(unknown.kind(), "invalid_input");
        assert!(
            unknown.message().contains("accepted"),
            "{}",
            unknown.message()
        );
        assert_eq!(
            tuning("values=6&samples=20..x")
                .expect_err("bad length")
                .kind(),
            "invalid_input"
        );
        for q in [
            "values=6&min_entropy=1.5",
            "values=0",
            "values=6&samples=201",
            "values=6&grid=dynamic(decrease%3D0.001..0.999 step 0.0001)",
            "values=6&runs=1000000",
            "samples=25",
            "values=6&base=2d6",
        ] {
            assert_eq!(tuning(q).expect_err(q).kind(), "bad_request", "{q}");
        }
    }
}
