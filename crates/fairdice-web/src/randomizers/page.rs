//! `GET /randomizers`: the Randomizers page — a spec box and the match length;
//! the method used, mean entropy, outcome variance, repeat rate and droughts; the
//! per-step curves as the command line's chart; a seeded sample and the
//! next-sample distribution after a history. A plain GET form: the URL is the
//! whole state of the page.

use std::fmt::Write as _;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use fairdice::analysis::report::DroughtsReport;
use fairdice::analysis::{AnalysisReport, Method, shown_gaps};
use fairdice::randomizer::{NextReport, SampleReport};
use fairdice_charts::{Chart, CurvesFigure};

use super::{Job, MethodWish, Output, RandomizerRequest, compute};
use crate::AppState;
use crate::html::{escape, layout, query};
use crate::limits::Limits;
use crate::problem::Problem;

/// Examples offered on the empty page: the article's winners and the classics.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "deck(values=6, copies=1, refill_below=6)",
        "the article's fairest deck for 25 samples",
    ),
    (
        "dynamic(values=6, decrease=0.355)",
        "the article's dynamic dice",
    ),
    (
        "fair(base=2d6, tightness=1)",
        "the fair die roller over 2d6",
    ),
    ("prd(p=0.25)", "Warcraft III's pseudo-random distribution"),
    ("tgm2", "Tetris: The Grand Master 2's randomizer"),
    ("dice(values=6)", "plain dice, the baseline"),
];

/// `GET /randomizers?spec=…&samples=…`.
pub(super) async fn show(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let request = match RandomizerRequest::from_query(raw.as_deref(), &state.limits) {
        Ok(request) => request,
        Err(problem) => {
            let empty =
                RandomizerRequest::from_query(None, &state.limits).expect("no query is valid");
            let main = format!("{}{}", form(&empty, &state.limits), problem.to_html(None));
            return (
                StatusCode::BAD_REQUEST,
                Html(layout("Randomizers", "/randomizers", &main)),
            )
                .into_response();
        }
    };
    let mut main = form(&request, &state.limits);
    let title = if request.spec.is_empty() {
        main.push_str(&examples());
        "Randomizers".to_string()
    } else {
        let mut jobs = Vec::new();
        if request.sample {
            jobs.push(Job::PageSample);
        }
        if request.history.is_some() {
            jobs.push(Job::Next);
        }
        jobs.push(Job::Curves);
        if request.droughts {
            jobs.push(Job::Droughts);
        }
        let results = compute(&state, &request, jobs.clone()).await;
        main.push_str(&results_section(&request, jobs.into_iter().zip(results)));
        format!("Randomizers: {}", request.spec)
    };
    main.push_str(SPEC_HELP);
    Html(layout(&title, "/randomizers", &main)).into_response()
}

/// The form: spec, samples, method (with Monte Carlo runs and the seed), a history
/// for the next-sample distribution; Analyze and Sample buttons.
fn form(request: &RandomizerRequest, limits: &Limits) -> String {
    let mut methods = String::new();
    for method in MethodWish::ALL {
        let _ = write!(
            methods,
            r#"<option value="{name}"{selected}>{words}</option>"#,
            name = method.as_str(),
            selected = if method == request.method {
                " selected"
            } else {
                ""
            },
            words = method.words(),
        );
    }
    let runs = request.runs.map(|r| r.to_string()).unwrap_or_default();
    let history = request
        .history
        .as_ref()
        .map(|h| h.join(","))
        .unwrap_or_default();
    format!(
        r#"<h1>Randomizers</h1>
<p class="lede">Type a randomizer spec to measure it over a match: how unpredictable each draw is (entropy), how level the outcome counts stay (outcome variance), repeats and droughts. <strong>Sample</strong> draws a seeded sequence; the same link always shows the same one.</p>
<form id="randomizer-form" class="query" method="get" action="/randomizers">
<div class="expressions">
<div class="field wide"><label for="spec">Randomizer</label><input id="spec" name="spec" type="text" value="{spec}" placeholder="e.g. deck(values=6, copies=1, refill_below=6)" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="{max_spec}"{autofocus}></div>
<div class="field"><label for="samples">Samples in a match (T)</label><input id="samples" name="samples" type="number" min="1" max="{max_samples}" value="{samples}"></div>
</div>
<div class="expressions">
<div class="field"><label for="method">Method</label><select id="method" name="method">{methods}</select></div>
<div class="field"><label for="runs">Monte Carlo runs (optional)</label><input id="runs" name="runs" type="number" min="2" max="{max_runs}" value="{runs}" placeholder="100000"></div>
<div class="field"><label for="seed">Seed</label><input id="seed" name="seed" type="number" min="0" value="{seed}"></div>
<div class="field"><label for="history">History for the next draw (optional)</label><input id="history" name="history" type="text" value="{history}" placeholder="e.g. 2,4,7,7" autocomplete="off" spellcheck="false"></div>
</div>
<div class="actions"><button type="submit" id="analyze-button">Analyze</button><button type="submit" id="sample-button" name="sample" value="1" class="secondary">Sample T outcomes</button></div></form>"#,
        spec = escape(&request.spec),
        max_spec = limits.max_spec_bytes,
        autofocus = if request.spec.is_empty() {
            " autofocus"
        } else {
            ""
        },
        max_samples = limits.max_samples,
        samples = request.samples,
        max_runs = limits.max_analysis_runs,
        seed = request.seed,
        history = escape(&history),
    )
}

/// Links to example specs, for the empty page.
fn examples() -> String {
    let mut html =
        String::from(r#"<section class="examples" aria-label="Examples"><h2>Try</h2><ul>"#);
    for (spec, what) in EXAMPLES {
        let href = query([("spec", *spec), ("samples", "25")]);
        let _ = write!(
            html,
            r#"<li><a href="/randomizers?{href}"><code>{code}</code></a> <span class="muted">{what}</span></li>"#,
            href = escape(&href),
            code = escape(spec),
            what = escape(what),
        );
    }
    html.push_str("</ul></section>");
    html
}

/// Problems first, then the sample, the next-sample distribution, the summary,
/// the curves, the droughts and every step.
fn results_section(
    request: &RandomizerRequest,
    results: impl Iterator<Item = (Job, Result<Output, Problem>)>,
) -> String {
    let mut html = String::from(r#"<section id="results" aria-live="polite">"#);
    let mut analysis = None;
    let mut droughts = None;
    let mut shown: Vec<&'static str> = Vec::new();
    let mut drought_note = String::new();
    for (job, result) in results {
        match result {
            Ok(Output::Sample(report)) => html.push_str(&sample_block(request, &report)),
            Ok(Output::Next(report)) => html.push_str(&next_block(&report)),
            Ok(Output::Analysis(report)) => analysis = Some(report),
            Ok(Output::Droughts(report)) => droughts = Some(report),
            // The curves are complete without them: say so rather than fail.
            Err(problem) if job == Job::Droughts && analysis.is_some() => {
                let _ = write!(
                    drought_note,
                    r#"<div class="problem" role="status" data-kind="{kind}" id="droughts-problem"><h3>Droughts not computed</h3><p>{message}. The summary and curves above are complete; <a href="/randomizers?{skip}">leave droughts out</a>, or run <code>fairdice analyze</code> on the command line.</p></div>"#,
                    kind = problem.kind(),
                    message = escape(&problem.message()),
                    skip = escape(
                        &RandomizerRequest {
                            droughts: false,
                            ..request.clone()
                        }
                        .query(request.sample)
                    ),
                );
            }
            // One spec error would repeat for each job: show each kind once.
            Err(problem) if !shown.contains(&problem.kind()) => {
                shown.push(problem.kind());
                html.push_str(&problem.to_html(Some(&request.spec)));
            }
            Err(_) => {}
        }
    }
    if let Some(report) = analysis {
        html.push_str(&summary(&report));
        html.push_str(&chart(request, &report));
        match &droughts {
            Some(droughts) => html.push_str(&droughts_table(droughts, report.samples)),
            None => html.push_str(&drought_note),
        }
        html.push_str(&steps_table(&report));
    }
    html.push_str("</section>");
    html
}

/// `0.5089` or `0.5089 ± 0.0012` (one standard error).
fn with_error(value: f64, error: Option<f64>) -> String {
    match error {
        Some(e) => format!("{value:.4} ± {e:.4}"),
        None => format!("{value:.4}"),
    }
}

/// How the numbers were computed, in words.
fn method_words(method: &Method) -> String {
    match method {
        Method::Exact { peak_states } => {
            format!("exact sweep (at most {peak_states} merged states per step)")
        }
        Method::MonteCarlo { runs, seed } => {
            format!("Monte Carlo: {runs} runs, seed {seed} (± one standard error)")
        }
    }
}

/// The summary: the method, mean entropy, outcome variance and repeat rate.
fn summary(report: &AnalysisReport) -> String {
    let errors = report.errors;
    format!(
        r#"<div class="table-wrap"><table id="summary" class="numbers"><caption>{spec} over {t} samples</caption><thead><tr><th scope="col">method</th><th scope="col">mean entropy</th><th scope="col">outcome variance</th><th scope="col">repeat rate</th></tr></thead><tbody><tr><th scope="row" class="method" data-method="{name}">{method}</th><td class="mean-entropy">{entropy}</td><td class="outcome-variance">{variance}</td><td class="repeat-rate">{repeat}</td></tr></tbody></table></div>
<p class="hint">Mean entropy: of the next-sample distribution before each sample, as a fraction of a fair die's (1 = unpredictable), averaged over the match. Outcome variance: of the outcome counts after sample {t} (0 = every outcome equally often). Repeat rate: samples equal to the one before.</p>"#,
        spec = escape(&report.spec),
        t = report.samples,
        name = report.method.name(),
        method = escape(&method_words(&report.method)),
        entropy = with_error(report.mean_entropy, errors.map(|e| e.mean_entropy)),
        variance = with_error(report.outcome_variance, errors.map(|e| e.outcome_variance)),
        repeat = with_error(report.repeat_rate, errors.map(|e| e.repeat_rate)),
    )
}

/// The curves, inline, with links to them as SVG and PNG and to the JSON.
fn chart(request: &RandomizerRequest, report: &AnalysisReport) -> String {
    let svg = CurvesFigure::analysis(report).to_chart().to_svg();
    let q = escape(&request.query(false));
    format!(
        r#"<figure id="chart" class="chart">{svg}<figcaption>Download the chart as <a href="/chart/analyze.svg?{q}" download="fairdice-analysis.svg">SVG</a> or <a href="/chart/analyze.png?{q}" download="fairdice-analysis.png">PNG</a> · <a href="/api/analyze?{q}">JSON</a></figcaption></figure>"#
    )
}

/// The drought table: each outcome's expected longest gap and P(gap > k) at a few
/// `k`, spaced by whole sets of outcomes to span the expected longest gap.
fn droughts_table(droughts: &DroughtsReport, samples: usize) -> String {
    let longest = droughts
        .outcomes
        .iter()
        .map(|o| o.longest_gap)
        .fold(0.0, f64::max);
    let ks = shown_gaps(longest, droughts.outcomes.len(), samples);
    let same = droughts
        .outcomes
        .windows(2)
        .all(|w| w[0].longest_gap == w[1].longest_gap && w[0].gap_exceeds == w[1].gap_exceeds);
    let mut html = format!(
        r#"<div class="table-wrap"><table id="droughts" class="numbers"><caption>Droughts: the longest run of samples without an outcome ({})</caption><thead><tr><th scope="col">outcome</th><th scope="col">expected longest gap</th>"#,
        escape(&method_words(&droughts.method))
    );
    for k in &ks {
        let _ = write!(html, r#"<th scope="col">P(gap &gt; {k})</th>"#);
    }
    html.push_str("</tr></thead><tbody>");
    let shown = if same {
        &droughts.outcomes[..droughts.outcomes.len().min(1)]
    } else {
        &droughts.outcomes[..]
    };
    for o in shown {
        let name = if same {
            "each".to_string()
        } else {
            o.outcome.to_string()
        };
        let _ = write!(
            html,
            r#"<tr><th scope="row">{}</th><td>{:.3}</td>"#,
            escape(&name),
            o.longest_gap
        );
        for &k in &ks {
            let _ = write!(
                html,
                "<td>{:.4}</td>",
                o.gap_exceeds.get(k).copied().unwrap_or(0.0)
            );
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div>");
    html
}

/// Every step's expectations, folded.
fn steps_table(report: &AnalysisReport) -> String {
    let mut html = String::from(
        r#"<details class="help steps"><summary>Every step</summary><div class="table-wrap"><table id="steps" class="numbers"><thead><tr><th scope="col">step</th><th scope="col">entropy</th><th scope="col">outcome variance</th><th scope="col">P(repeat)</th></tr></thead><tbody>"#,
    );
    for s in &report.steps {
        let _ = write!(
            html,
            r#"<tr><th scope="row">{}</th><td>{:.4}</td><td>{:.4}</td><td>{:.4}</td></tr>"#,
            s.step, s.entropy, s.outcome_variance, s.repeat
        );
    }
    html.push_str("</tbody></table></div></details>");
    html
}

/// The seeded sequence, with the command that draws the same one.
fn sample_block(request: &RandomizerRequest, report: &SampleReport) -> String {
    let mut items = String::new();
    for shown in report.shown() {
        let _ = write!(items, "<li>{}</li>", escape(&shown));
    }
    let seed = report.seed.unwrap_or(request.seed);
    let another = RandomizerRequest {
        seed: seed.wrapping_add(1),
        ..request.clone()
    };
    let api = query([
        ("spec", request.spec.as_str()),
        ("count", &report.samples.len().to_string()),
        ("seed", &seed.to_string()),
    ]);
    format!(
        r#"<section id="sample" class="panel" aria-label="Sample"><h2>A seeded sample of {count}</h2><ol class="sequence">{items}</ol><p class="hint">The same as <code>fairdice sample '{spec}' --count {count} --seed {seed}</code> · <a href="/randomizers?{another}">Draw another (seed {next})</a> · <a href="/api/sample?{api}">JSON</a></p></section>"#,
        count = report.samples.len(),
        spec = escape(&report.spec),
        another = escape(&another.query(true)),
        next = seed.wrapping_add(1),
        api = escape(&api),
    )
}

/// The next-sample distribution after the history, as a table with bars.
fn next_block(report: &NextReport) -> String {
    let peak = report
        .outcomes
        .iter()
        .map(|o| o.probability)
        .fold(0.0, f64::max)
        .max(1e-300);
    let history = if report.history.is_empty() {
        "no history".to_string()
    } else {
        report.history.join(", ")
    };
    let mut html = format!(
        r#"<div class="table-wrap"><table id="next" class="numbers"><caption>Next-sample distribution after {}</caption><thead><tr><th scope="col">outcome</th><th scope="col">probability</th><th scope="col">relative to the likeliest</th></tr></thead><tbody>"#,
        escape(&history)
    );
    for o in &report.outcomes {
        let name = o.label.clone().unwrap_or_else(|| o.outcome.to_string());
        let _ = write!(
            html,
            r#"<tr><th scope="row">{name}</th><td>{p:.6}</td><td><meter min="0" max="1" value="{w:.4}">{pct:.1}%</meter></td></tr>"#,
            name = escape(&name),
            p = o.probability,
            w = o.probability / peak,
            pct = 100.0 * o.probability / peak,
        );
    }
    html.push_str("</tbody></table></div>");
    html
}

/// The spec summary, folded under the form.
const SPEC_HELP: &str = r#"<details class="help"><summary>Randomizer specs</summary><table class="notation"><tbody>
<tr><td><code>dice(values=6)</code> <code>dice(base=2d6)</code></td><td>independent draws: a fair die, or the sums of any dice expression</td></tr>
<tr><td><code>deck(values=6, copies=1, refill_below=1, refill=top-up)</code></td><td>draw without replacement; when fewer than <code>refill_below</code> cards remain, add <code>copies</code> of every outcome (<code>refill=reshuffle</code>: put every card back)</td></tr>
<tr><td><code>bag(min=1, max=6, sets=1)</code></td><td>a dice bag: <code>sets</code> copies of min..max, refilled when empty</td></tr>
<tr><td><code>dynamic(values=6, decrease=0.355)</code></td><td>dynamic dice: a drawn outcome's chance is multiplied by <code>decrease</code></td></tr>
<tr><td><code>fair(base=2d6, tightness=1)</code></td><td>the fair die roller: outcomes drawn more than their share become rarer</td></tr>
<tr><td><code>prd(p=0.25)</code></td><td>pseudo-random distribution of a success with chance <code>p</code></td></tr>
<tr><td><code>bag7</code> <code>nes</code> <code>tgm1</code> <code>tgm2</code> <code>tgm(history=4, tries=4)</code></td><td>Tetris randomizers</td></tr>
</tbody></table></details>"#;
