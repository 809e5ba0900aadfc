//! `GET /tune`: the Tuner page — outcomes, match length (fixed, a range or
//! weights), the entropy threshold and the systems to search; each system's
//! fairest parameters in a table, and the winners' curves as `fairdice tune
//! --plot` draws them. A plain GET form: the URL is the whole state of the page.

use std::fmt::Write as _;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use fairdice::analysis::Method;
use fairdice::tune::TuneReport;
use fairdice::tune::report::SamplesReport;
use fairdice_charts::Chart;

use super::{Searched, TuneRequest, compute};
use crate::AppState;
use crate::html::{escape, layout};
use crate::limits::Limits;
use crate::problem::Problem;
use crate::randomizers::MethodWish;

/// The systems offered as checkboxes, with what they are.
const SYSTEMS: &[(&str, &str)] = &[
    ("deck", "generalized deck: copies × refill_below"),
    ("dynamic", "dynamic dice: decrease"),
    ("fair", "fair die roller: tightness"),
    ("bag", "dice bag: sets"),
    ("dice", "plain dice"),
    ("tgm", "TGM-style history (7 values)"),
    ("nes", "NES Tetris (7 values)"),
    ("bag7", "7-bag (7 values)"),
];

/// Searches offered on the empty page.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "values=6&samples=25&min_entropy=0.9",
        "the article: 6 outcomes, 25 samples, entropy ≥ 0.9",
    ),
    (
        "values=4&samples=30&min_entropy=0.9",
        "4 outcomes, 30 samples: the deck wins",
    ),
    (
        "values=4&samples=20..40&min_entropy=0.9",
        "4 outcomes, a match of 20 to 40 samples: dynamic dice win",
    ),
    (
        "values=6&samples=20%3A1%2C30%3A2%2C40%3A1&min_entropy=0.9",
        "weighted match lengths 20:1, 30:2, 40:1",
    ),
    (
        "base=2d6&samples=20&min_entropy=0.9&systems=fair&systems=dynamic",
        "the sums of 2d6: fair die roller against dynamic dice",
    ),
];

/// `GET /tune?values=…&samples=…`.
pub(super) async fn show(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let request = match TuneRequest::from_query(raw.as_deref(), &state.limits) {
        Ok(request) => request,
        Err(problem) => {
            let empty = TuneRequest::from_query(None, &state.limits).expect("no query is valid");
            let main = format!("{}{}", form(&empty, &state.limits), problem.to_html(None));
            return (
                StatusCode::BAD_REQUEST,
                Html(layout("Tuner", "/tune", &main)),
            )
                .into_response();
        }
    };
    let mut main = form(&request, &state.limits);
    let title = if request.is_empty() {
        main.push_str(&examples());
        "Tuner".to_string()
    } else {
        let result = match request.tuning(&state.limits) {
            Ok(_) => compute(&state, &request).await,
            Err(problem) => Err(problem),
        };
        main.push_str(&results_section(&request, result));
        "Tuner: the fairest parameters".to_string()
    };
    main.push_str(HELP);
    Html(layout(&title, "/tune", &main)).into_response()
}

/// The form: outcomes, match length, threshold, systems, optional custom grids,
/// and how candidates are measured.
fn form(request: &TuneRequest, limits: &Limits) -> String {
    let chosen = request.systems_or_default();
    let mut systems = String::new();
    for (name, what) in SYSTEMS {
        let _ = write!(
            systems,
            r#"<label title="{what}"><input type="checkbox" name="systems" id="system-{name}" value="{name}"{checked}> {name}</label>"#,
            what = escape(what),
            checked = if chosen.iter().any(|c| c == name) {
                " checked"
            } else {
                ""
            },
        );
    }
    let mut methods = String::new();
    for method in MethodWish::ALL {
        let _ = write!(
            methods,
            r#"<option value="{}"{}>{}</option>"#,
            method.as_str(),
            if method == request.method {
                " selected"
            } else {
                ""
            },
            method.words()
        );
    }
    let grid = request.grids.join(" ");
    format!(
        r#"<h1>Tuner</h1>
<p class="lede">Search each system's parameters for the fairest one — the lowest outcome variance at the end of a match — that keeps the draws unpredictable enough (mean entropy at or above the threshold). The search of "Making Randomness Fair", computed exactly.</p>
<form id="tune-form" class="query" method="get" action="/tune">
<div class="expressions">
<div class="field"><label for="values">Outcomes (faces 1..N)</label><input id="values" name="values" type="number" min="1" value="{values}" placeholder="6"></div>
<div class="field"><label for="base">or weighted by dice (optional)</label><input id="base" name="base" type="text" value="{base}" placeholder="e.g. 2d6" autocomplete="off" spellcheck="false" maxlength="{max_spec}"></div>
<div class="field"><label for="samples">Samples in a match</label><input id="samples" name="samples" type="text" value="{samples}" placeholder="25, 20..40 or 20:1,30:2,40:1" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="min-entropy">Minimum mean entropy</label><input id="min-entropy" name="min_entropy" type="number" min="0" max="1" step="0.01" value="{min_entropy}"></div>
</div>
<fieldset class="systems"><legend>Systems</legend>{systems}</fieldset>
<div class="expressions">
<div class="field"><label for="grid">Custom grid (optional)</label><input id="grid" name="grid" type="text" value="{grid}" placeholder="e.g. dynamic(decrease=0.30..0.50 step 0.005)" autocomplete="off" spellcheck="false" maxlength="{max_spec}"></div>
<div class="field"><label for="method">Method</label><select id="method" name="method">{methods}</select></div>
<div class="field"><label for="runs">Monte Carlo runs (optional)</label><input id="runs" name="runs" type="number" min="2" value="{runs}"></div>
<div class="field"><label for="seed">Seed</label><input id="seed" name="seed" type="number" min="0" value="{seed}"></div>
</div>
<div class="actions"><button type="submit">Find the fairest</button></div></form>"#,
        values = request.values.map(|v| v.to_string()).unwrap_or_default(),
        base = escape(request.base.as_deref().unwrap_or("")),
        max_spec = limits.max_spec_bytes,
        samples = escape(&request.samples),
        min_entropy = request.min_entropy,
        grid = escape(&grid),
        runs = request.runs.map(|r| r.to_string()).unwrap_or_default(),
        seed = request.seed,
    )
}

/// Links to example searches, for the empty page.
fn examples() -> String {
    let mut html =
        String::from(r#"<section class="examples" aria-label="Examples"><h2>Try</h2><ul>"#);
    for (query, what) in EXAMPLES {
        let _ = write!(
            html,
            r#"<li><a href="/tune?{}">{}</a></li>"#,
            escape(query),
            escape(what)
        );
    }
    html.push_str("</ul></section>");
    html
}

/// The problem, or the results table, the verdict and the winners' curves.
fn results_section(request: &TuneRequest, result: Result<Searched, Problem>) -> String {
    let mut html = String::from(r#"<section id="results" aria-live="polite">"#);
    match result {
        Err(problem) => html.push_str(&problem.to_html(request.base.as_deref())),
        Ok(found) => {
            html.push_str(&table(&found.report));
            html.push_str(&verdict(&found.report));
            let q = escape(&request.query());
            let _ = write!(
                html,
                r#"<figure id="chart" class="chart">{svg}<figcaption>Download the chart as <a href="/chart/tune.svg?{q}" download="fairdice-tune.svg">SVG</a> or <a href="/chart/tune.png?{q}" download="fairdice-tune.png">PNG</a> · <a href="/api/tune?{q}">JSON</a> · <a href="/api/tune?{q}&amp;all=1">JSON with every candidate</a></figcaption></figure>"#,
                svg = found.figure.to_chart().to_svg(),
            );
        }
    }
    html.push_str("</section>");
    html
}

/// `exact` or `Monte Carlo (N runs)`, short, for a table cell.
fn method_cell(method: Option<&Method>) -> String {
    match method {
        Some(Method::Exact { .. }) => "exact".to_string(),
        Some(Method::MonteCarlo { runs, .. }) => format!("Monte Carlo ({runs} runs)"),
        None => "-".to_string(),
    }
}

/// One row per system: its winner and how many candidates qualified.
fn table(report: &TuneReport) -> String {
    let samples = match &report.samples {
        SamplesReport::Fixed(t) => format!("{t} samples"),
        SamplesReport::Distribution { distribution, .. } => {
            format!("{distribution} samples (expected over the match lengths)")
        }
    };
    let outcomes = match (&report.values, &report.base) {
        (Some(n), _) => format!("{n} outcomes"),
        (None, Some(base)) => format!("outcomes of {base}"),
        (None, None) => String::new(),
    };
    let mut html = format!(
        r#"<div class="table-wrap"><table id="tune-results" class="numbers"><caption>{}, {}, mean entropy ≥ {}</caption><thead><tr><th scope="col">system</th><th scope="col" class="params">best parameters</th><th scope="col">mean entropy</th><th scope="col">outcome variance</th><th scope="col">qualified</th><th scope="col" class="computed">method</th></tr></thead><tbody>"#,
        escape(&outcomes),
        escape(&samples),
        report.min_entropy
    );
    for s in &report.systems {
        let (params, entropy, variance) = match (&s.params, s.mean_entropy, s.outcome_variance) {
            (Some(p), Some(e), Some(v)) => (p.to_string(), format!("{e:.4}"), format!("{v:.4}")),
            _ => ("none qualifies".to_string(), "-".into(), "-".into()),
        };
        let fairest = if report.fairest == Some(s.system) {
            r#" class="fairest""#
        } else {
            ""
        };
        let _ = write!(
            html,
            r#"<tr{fairest} data-system="{system}"><th scope="row">{system}</th><td class="params">{params}</td><td class="mean-entropy">{entropy}</td><td class="outcome-variance">{variance}</td><td>{qualified}/{tried}</td><td class="computed">{method}</td></tr>"#,
            system = escape(s.system),
            params = escape(&params),
            qualified = s.qualified,
            tried = s.candidates_tried,
            method = escape(&method_cell(s.method.as_ref())),
        );
    }
    html.push_str("</tbody></table></div>");
    html
}

/// The fairest system against plain dice, or why nothing qualified.
fn verdict(report: &TuneReport) -> String {
    match report.fairest_system() {
        Some(s) => format!(
            r#"<p id="fairest" class="verdict">Fairest: <strong>{system}</strong> ({params}), outcome variance {variance:.2} — plain dice: {plain:.2}. Spec: <code>{spec}</code> · <a href="/randomizers?{analyze}">analyze it</a></p>"#,
            system = escape(s.system),
            params = escape(
                &s.params
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            ),
            variance = s.outcome_variance.unwrap_or(f64::NAN),
            plain = report.plain_dice_outcome_variance,
            spec = escape(s.spec.as_deref().unwrap_or("")),
            analyze = escape(&crate::html::query([
                ("spec", s.spec.as_deref().unwrap_or("")),
                ("samples", &longest_match(report).to_string()),
            ])),
        ),
        None => format!(
            r#"<p id="fairest" class="verdict">No candidate keeps a mean entropy of {}; lower the threshold.</p>"#,
            report.min_entropy
        ),
    }
}

/// The longest match the search measured.
fn longest_match(report: &TuneReport) -> usize {
    match &report.samples {
        SamplesReport::Fixed(t) => *t,
        SamplesReport::Distribution { lengths, .. } => {
            lengths.iter().map(|l| l.samples).max().unwrap_or(1)
        }
    }
}

/// How to read the page, folded under the form.
const HELP: &str = r#"<details class="help"><summary>Match lengths, grids and ties</summary><table class="notation"><tbody>
<tr><td><code>25</code></td><td>every match has 25 samples</td></tr>
<tr><td><code>20..40</code></td><td>any length from 20 to 40, equally likely: the search minimizes the expected outcome variance at the match's end</td></tr>
<tr><td><code>20:1,30:2,40:1</code></td><td>lengths with weights</td></tr>
<tr><td><code>deck(copies=1|2|4, refill_below=1..6)</code></td><td>a custom grid: values <code>a..b</code>, <code>a..b step s</code> or <code>a|b|c</code>; keys left out keep the default grid</td></tr>
<tr><td>ties</td><td>variances within 1e-9 (relative) tie and go to the smaller parameters, in the grid's key order</td></tr>
</tbody></table></details>"#;
