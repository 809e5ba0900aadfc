//! [`RandomizerRequest`]: what the Randomizers page and its API ask for, read from
//! the URL and checked against the server's limits; and the method it chooses,
//! as `fairdice analyze` chooses one from the same flags.

use fairdice::analysis::{self, DEFAULT_STATE_BUDGET, MethodChoice};

use crate::limits::Limits;
use crate::problem::Problem;

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
}
