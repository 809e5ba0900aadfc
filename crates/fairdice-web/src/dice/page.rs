//! `GET /dice`: the Dice page — an expression box (and more to compare), the
//! distribution as a chart above a table, mean and spread, and at-least / at-most
//! views. It is a plain GET form, so the URL is the whole state of the page.

use std::fmt::Write as _;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use fairdice::dice::report::{DistributionReport, Measure, Method, percent, short_count};
use fairdice_charts::{Chart, distribution_chart};

use super::{DiceRequest, compute};
use crate::AppState;
use crate::html::{escape, layout, query, thousands};
use crate::limits::OFFERED_RUNS;
use crate::problem::Problem;

/// Counts longer than this many digits are abbreviated in the table, as on the
/// command line.
const MAX_TABLE_DIGITS: usize = 24;
/// Examples offered on the empty page.
const EXAMPLES: &[(&str, &[&str])] = &[
    ("ability score", &["4d6kh3"]),
    ("to hit", &["d20+5 >= 15"]),
    ("advantage vs. plain d20", &["2d20kh1", "d20"]),
    ("success pool", &["10d10cs>=8"]),
    ("exploding", &["d6!"]),
    (
        "crit damage",
        &["[r = d20] r == 20 ? 4d6+3 : r + 5 >= 15 ? 2d6+3 : 0"],
    ),
    ("wild die", &["{d8!, d6!}kh1"]),
];

/// `GET /dice?expr=…&expr=…&mode=…`.
pub(super) async fn show(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let request = match DiceRequest::from_query(raw.as_deref(), &state.limits) {
        Ok(request) => request,
        Err(problem) => {
            let empty = DiceRequest::from_query(None, &state.limits).expect("no query is valid");
            let main = format!(
                "{}{}",
                form(&empty, state.limits.max_expressions),
                problem.to_html(None)
            );
            return (
                StatusCode::BAD_REQUEST,
                Html(layout("Dice", "/dice", &main)),
            )
                .into_response();
        }
    };
    let mut main = form(&request, state.limits.max_expressions);
    let title = if request.expressions.is_empty() {
        main.push_str(&examples());
        "Dice".to_string()
    } else {
        let results = compute(&state, &request).await;
        main.push_str(&results_section(
            &request,
            results,
            state.limits.max_table_rows,
        ));
        format!("Dice: {}", request.expressions.join(" vs "))
    };
    main.push_str(NOTATION_HELP);
    Html(layout(&title, "/dice", &main)).into_response()
}

/// The form: one box per expression plus an empty one to add a comparison, the
/// measure to show, and the Monte Carlo settings when they are in use.
fn form(request: &DiceRequest, max_expressions: usize) -> String {
    let mut boxes: Vec<&str> = request.expressions.iter().map(String::as_str).collect();
    // One empty box to add a comparison, and never fewer than two boxes.
    let wanted = (boxes.len() + 1).max(2).min(max_expressions);
    boxes.resize(wanted.max(boxes.len()), "");
    let mut html = String::from(
        r#"<h1>Dice</h1>
<p class="lede">Type a dice expression to see its exact distribution. Add a second one to compare them on one chart.</p>
<form id="dice-form" class="query" method="get" action="/dice">
<div class="expressions">"#,
    );
    for (i, value) in boxes.iter().enumerate() {
        let label = match i {
            0 => "Expression",
            _ if value.is_empty() => "Compare with (optional)",
            _ => "Compare with",
        };
        let placeholder = if i == 0 { "e.g. 4d6kh3" } else { "e.g. 3d6" };
        let _ = write!(
            html,
            r#"<div class="field"><label for="expr-{n}">{label}</label><input id="expr-{n}" name="expr" type="text" value="{value}" placeholder="{placeholder}" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="500"{autofocus}></div>"#,
            n = i + 1,
            value = escape(value),
            autofocus = if i == 0 && value.is_empty() {
                " autofocus"
            } else {
                ""
            },
        );
    }
    html.push_str(r#"</div><fieldset class="measure"><legend>Show</legend>"#);
    for measure in Measure::ALL {
        let _ = write!(
            html,
            r#"<label><input type="radio" name="mode" id="mode-{name}" value="{name}"{checked}> {words} <span class="formula">{formula}</span></label>"#,
            name = measure.as_str(),
            checked = if measure == request.measure {
                " checked"
            } else {
                ""
            },
            words = measure.words(),
            formula = escape(measure.formula()),
        );
    }
    html.push_str("</fieldset>");
    if let Some(runs) = request.runs {
        let _ = write!(
            html,
            r#"<fieldset class="monte-carlo"><legend>Monte Carlo estimate</legend><div class="field"><label for="runs">Rolls</label><input id="runs" name="runs" type="number" min="1" value="{runs}"></div><div class="field"><label for="seed">Seed</label><input id="seed" name="seed" type="number" min="0" value="{seed}"></div><p class="hint"><a href="/dice?{exact}">Compute exactly instead</a></p></fieldset>"#,
            seed = request.seed,
            exact = escape(&query(
                request.expressions.iter().map(|e| ("expr", e.as_str()))
            )),
        );
    }
    html.push_str(
        r#"<div class="actions"><button type="submit">Show distribution</button></div></form>"#,
    );
    html
}

/// Links to example expressions, for the empty page.
fn examples() -> String {
    let mut html =
        String::from(r#"<section class="examples" aria-label="Examples"><h2>Try</h2><ul>"#);
    for (what, expressions) in EXAMPLES {
        let href = query(expressions.iter().map(|e| ("expr", *e)));
        let _ = write!(
            html,
            r#"<li><a href="/dice?{href}"><code>{code}</code></a> <span class="muted">{what}</span></li>"#,
            href = escape(&href),
            code = escape(&expressions.join(" vs ")),
            what = escape(what),
        );
    }
    html.push_str("</ul></section>");
    html
}

/// The rolls to offer for an estimate instead: the use case's suggestion (sized
/// to finish in seconds) for a computation too large; for one the time limit
/// stopped, the command line's default estimate scaled down the same way.
fn offered_runs(problem: &Problem, request: &DiceRequest) -> Option<u64> {
    if request.runs.is_some() {
        return None;
    }
    match problem {
        Problem::Api(error) => error
            .suggestion
            .as_ref()
            .and_then(|s| s.request.get("runs"))
            .and_then(serde_json::Value::as_u64)
            .or_else(|| (problem.kind() == "timed_out").then_some(OFFERED_RUNS)),
        _ => None,
    }
}

/// Problems first, then the chart, the summary and the table of what was computed.
fn results_section(
    request: &DiceRequest,
    results: Vec<Result<DistributionReport, Problem>>,
    max_rows: usize,
) -> String {
    let mut html = String::from(r#"<section id="results" aria-live="polite">"#);
    let mut reports = Vec::new();
    for (expression, result) in request.expressions.iter().zip(results) {
        match result {
            Ok(report) => reports.push(report),
            Err(problem) => {
                html.push_str(&problem.to_html(Some(expression)));
                if let Some(runs) = offered_runs(&problem, request) {
                    let estimate = DiceRequest {
                        runs: Some(runs),
                        ..request.clone()
                    };
                    let _ = write!(
                        html,
                        r#"<p class="offer"><a class="button" href="/dice?{}">Estimate with {} rolls</a></p>"#,
                        escape(&estimate.query_with(request.measure)),
                        thousands(runs)
                    );
                }
            }
        }
    }
    if !reports.is_empty() {
        html.push_str(&chart(request, &reports));
        html.push_str(&summary(&reports));
        html.push_str(&if reports.len() == 1 {
            single_table(&reports[0], request.measure, max_rows)
        } else {
            comparison_table(&reports, request.measure, max_rows)
        });
    }
    html.push_str("</section>");
    html
}

/// The chart, inline, with links to it as SVG and PNG and to the JSON.
fn chart(request: &DiceRequest, reports: &[DistributionReport]) -> String {
    let svg = distribution_chart(reports, request.measure).to_svg();
    let shown = DiceRequest {
        expressions: reports.iter().map(|r| r.expression.clone()).collect(),
        ..request.clone()
    };
    let q = escape(&shown.query_with(request.measure));
    let mut json_links = String::new();
    for report in reports {
        let mut pairs = vec![("expr", report.expression.clone())];
        if let Some(runs) = request.runs {
            pairs.push(("runs", runs.to_string()));
            pairs.push(("seed", request.seed.to_string()));
        }
        let _ = write!(
            json_links,
            r#" · <a href="/api/dist?{}">JSON for <code>{}</code></a>"#,
            escape(&query(pairs.iter().map(|(k, v)| (*k, v.as_str())))),
            escape(&report.expression)
        );
    }
    format!(
        r#"<figure id="chart" class="chart">{svg}<figcaption>Download the chart as <a href="/chart/dist.svg?{q}" download="fairdice.svg">SVG</a> or <a href="/chart/dist.png?{q}" download="fairdice.png">PNG</a>{json_links}</figcaption></figure>"#
    )
}

/// One row per expression: mean, spread, range, median, and how it was computed.
fn summary(reports: &[DistributionReport]) -> String {
    let mut html = String::from(
        r#"<div class="table-wrap"><table id="summary" class="numbers"><caption>Summary</caption><thead><tr><th scope="col">expression</th><th scope="col">mean</th><th scope="col">exact mean</th><th scope="col">sd</th><th scope="col">min</th><th scope="col">median</th><th scope="col">max</th><th scope="col" class="computed">computed</th></tr></thead><tbody>"#,
    );
    for r in reports {
        let computed = match &r.method {
            Method::Exact => format!(
                r#"exact: <span class="total">{}</span> equally likely rolls"#,
                escape(&short_count(&r.total, MAX_TABLE_DIGITS))
            ),
            Method::MonteCarlo {
                runs,
                seed,
                mean_standard_error,
            } => format!(
                "Monte Carlo: {runs} rolls, seed {seed}; mean ± {:.4} (95%)",
                1.96 * mean_standard_error
            ),
        };
        let _ = write!(
            html,
            r#"<tr><th scope="row"><code>{expr}</code></th><td class="mean">{mean:.4}</td><td class="exact">{exact}</td><td>{sd:.4}</td><td>{min}</td><td>{median}</td><td>{max}</td><td class="computed">{computed}</td></tr>"#,
            expr = escape(&r.expression),
            mean = r.mean,
            exact = escape(&r.mean_fraction().unwrap_or_else(|| "(estimated)".into())),
            sd = r.sd,
            min = r.min,
            median = r.median,
            max = r.max,
        );
    }
    html.push_str("</tbody></table></div>");
    html
}

/// A note when a table is cut.
fn cut_note(rows: usize, max_rows: usize) -> String {
    if rows > max_rows {
        format!(
            r#"<p class="hint">Showing the first {max_rows} of {rows} outcomes; the JSON link above has them all.</p>"#
        )
    } else {
        String::new()
    }
}

/// Every number of one distribution, the shown measure's column highlighted.
fn single_table(report: &DistributionReport, measure: Measure, max_rows: usize) -> String {
    let class = |m: Measure| {
        if m == measure {
            r#" class="selected""#
        } else {
            ""
        }
    };
    let mut html = format!(
        r#"<div class="table-wrap"><table id="distribution" class="numbers"><caption>Distribution of <code>{}</code></caption><thead><tr><th scope="col">outcome</th><th scope="col">count</th><th scope="col"{}>probability</th><th scope="col"{}>at most</th><th scope="col"{}>at least</th></tr></thead><tbody>"#,
        escape(&report.expression),
        class(Measure::Probability),
        class(Measure::AtMost),
        class(Measure::AtLeast),
    );
    for row in report.outcomes.iter().take(max_rows) {
        let count = short_count(&row.count, MAX_TABLE_DIGITS);
        let _ = write!(
            html,
            r#"<tr><th scope="row">{}</th><td title="{}">{}</td><td{}>{}</td><td{}>{}</td><td{}>{}</td></tr>"#,
            row.outcome,
            row.count,
            count,
            class(Measure::Probability),
            percent(row.probability),
            class(Measure::AtMost),
            percent(row.at_most),
            class(Measure::AtLeast),
            percent(row.at_least),
        );
    }
    html.push_str("</tbody></table></div>");
    html.push_str(&cut_note(report.outcomes.len(), max_rows));
    html
}

/// The shown measure for each expression, over the union of their outcomes.
fn comparison_table(reports: &[DistributionReport], measure: Measure, max_rows: usize) -> String {
    let outcomes: std::collections::BTreeSet<i64> = reports
        .iter()
        .flat_map(|r| r.outcomes.iter().map(|row| row.outcome))
        .collect();
    let mut html = format!(
        r#"<div class="table-wrap"><table id="distribution" class="numbers"><caption>{} by outcome</caption><thead><tr><th scope="col">outcome</th>"#,
        escape(&capitalized(measure.words()))
    );
    for r in reports {
        let _ = write!(
            html,
            r#"<th scope="col"><code>{}</code></th>"#,
            escape(&r.expression)
        );
    }
    html.push_str("</tr></thead><tbody>");
    for &x in outcomes.iter().take(max_rows) {
        let _ = write!(html, r#"<tr><th scope="row">{x}</th>"#);
        for r in reports {
            let _ = write!(html, "<td>{}</td>", percent(r.value_at(measure, x)));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div>");
    html.push_str(&cut_note(outcomes.len(), max_rows));
    html
}

fn capitalized(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The notation summary, folded under the form.
const NOTATION_HELP: &str = r#"<details class="help"><summary>Dice notation</summary><table class="notation"><tbody>
<tr><td><code>3d6</code> <code>d20</code> <code>d%</code> <code>dF</code> <code>d{1,1,2,3}</code> <code>d{1..4,6}</code></td><td>dice: standard, percentile, Fudge, custom faces</td></tr>
<tr><td><code>(d4)d6</code></td><td>a random number of dice (roll d4, then that many d6)</td></tr>
<tr><td><code>+ - * /</code>, <code>( )</code></td><td>arithmetic between independent rolls; <code>/</code> rounds down</td></tr>
<tr><td><code>&lt; &lt;= &gt; &gt;= == !=</code></td><td>comparisons give 1 (true) or 0 (false): <code>d20+5 &gt;= 15</code> is the chance to hit</td></tr>
<tr><td><code>4d6kh3</code> <code>2d20kl</code> <code>4d6dl1</code> <code>5d6dh2</code></td><td>keep / drop highest or lowest</td></tr>
<tr><td><code>d6!</code> <code>d10!&gt;=9</code> <code>5d10x</code></td><td>explode on the top face (or a condition): each extra roll is a new die</td></tr>
<tr><td><code>d6!!</code> <code>d6!p</code> <code>6d10xo</code> <code>6d10x5=10</code></td><td>compounding (one die), penetrating, explode once, at most 5 extra rolls per term</td></tr>
<tr><td><code>[r = d20] r == 20 ? 4d6+3 : 2d6+3</code></td><td>a name is one roll used again; <code>c ? a : b</code>, <code>and</code>, <code>or</code>, <code>not</code></td></tr>
<tr><td><code>{d8!, d6!}kh1</code> <code>6#(4d6kh3)kh1</code> <code>max(a, b)</code></td><td>groups and repetitions are pools; functions <code>max</code>, <code>min</code>, <code>abs</code>; <code>%</code></td></tr>
<tr><td><code>4d10min2</code> <code>4d10max8</code> <code>10d20cf&lt;3</code> <code>3d6even</code></td><td>clamp each roll; count failures, even or odd dice</td></tr>
<tr><td><code>2d6r1</code> <code>d20rr&lt;3</code> <code>2d6ro1</code></td><td>reroll until the die no longer matches; reroll once</td></tr>
<tr><td><code>10d10cs&gt;=8</code> <code>10d10cs&gt;=8df=1</code></td><td>count successes (minus failures)</td></tr>
</tbody></table></details>"#;
