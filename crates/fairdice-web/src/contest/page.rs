//! `GET /contest`: the Contest page — two pools, the pairing and the tie rule; who
//! wins how often (exact fractions and decimals), win bias, tie % and closeness, the
//! net score as a chart and a table. A plain GET form: the URL is the whole state.

use std::fmt::Write as _;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use fairdice::contest::report::{ContestMethod, ContestReport};
use fairdice::contest::{Pairing, TieRule};
use fairdice::dice::report::{percent, short_count};
use fairdice_charts::{Chart, net_score_chart};

use super::{ContestRequest, compute};
use crate::AppState;
use crate::compute::Stopped;
use crate::fraction::fraction_html;
use crate::html::{escape, layout, thousands};
use crate::limits::offered_runs;
use crate::problem::{CONTEST_HINT, Problem};

/// Counts longer than this many digits are abbreviated in the table, as on the
/// command line.
const MAX_TABLE_DIGITS: usize = 24;
/// Exact probabilities longer than this are folded.
const MAX_FRACTION_CHARS: usize = 60;
/// Examples offered on the empty page: what they show, A, B, pairing, ties.
const EXAMPLES: &[(&str, &str, &str, Pairing, TieRule)] = &[
    (
        "Risk's one roll: three dice attack two, the defender wins ties",
        "3d6",
        "2d6",
        Pairing::Sorted,
        TieRule::BWins,
    ),
    (
        "Isaksen et al. 3.1: equal pools, highest meets highest",
        "5d6",
        "5d6",
        Pairing::Sorted,
        TieRule::Stand,
    ),
    (
        "Isaksen 5.1: A wins ties",
        "5d6",
        "5d6",
        Pairing::Sorted,
        TieRule::AWins,
    ),
    (
        "Isaksen 6: fewer dice for the side that wins ties",
        "4d6",
        "5d6",
        Pairing::Sorted,
        TieRule::AWins,
    ),
    (
        "Isaksen 7.2: mixed dice, paired as written",
        "5d6",
        "3d6+1d8+1d10",
        Pairing::Unsorted,
        TieRule::AWins,
    ),
    (
        "Isaksen 8.1: tied dice rerolled",
        "2d6",
        "2d6",
        Pairing::Sorted,
        TieRule::Reroll,
    ),
];

/// `GET /contest?a=…&b=…&pairing=…&ties=…`.
pub(super) async fn show(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let request = match ContestRequest::from_query(raw.as_deref(), &state.limits) {
        Ok(request) => request,
        Err(problem) => {
            let empty = ContestRequest::from_query(None, &state.limits).expect("no query is valid");
            let main = format!("{}{}", form(&empty), problem.to_html(None));
            return (
                StatusCode::BAD_REQUEST,
                Html(layout("Contest", "/contest", &main)),
            )
                .into_response();
        }
    };
    let mut main = form(&request);
    let title = if request.is_empty() {
        main.push_str(&examples());
        "Contest".to_string()
    } else {
        let html = match compute(&state, &request).await {
            Ok(report) => results(&request, &report, state.limits.max_table_rows),
            Err(problem) => {
                let mut html = problem_html(&problem);
                if matches!(problem.kind(), "too_big" | "timed_out") && request.runs.is_none() {
                    let runs = offered_runs(request.dice());
                    let estimate = ContestRequest {
                        runs: Some(runs),
                        ..request.clone()
                    };
                    let _ = write!(
                        html,
                        r#"<p class="offer"><a class="button" href="/contest?{}">Estimate with {} rolls</a></p>"#,
                        escape(&estimate.query()),
                        thousands(runs)
                    );
                }
                html
            }
        };
        let _ = write!(
            main,
            r#"<section id="results" aria-live="polite">{html}</section>"#
        );
        format!("Contest: {} vs {}", request.a, request.b)
    };
    main.push_str(HELP);
    Html(layout(&title, "/contest", &main)).into_response()
}

/// The form: the two pools, the pairing and the tie rule.
fn form(request: &ContestRequest) -> String {
    let mut html = String::from(
        r#"<h1>Contest</h1>
<p class="lede">Two pools of dice rolled against each other, die paired with die: each pair scores a point for the higher die, and the side with more points wins. See how often each side wins, how often it ties, and how close the games are.</p>
<form id="contest-form" class="query" method="get" action="/contest">
<div class="expressions">"#,
    );
    for (name, label, value, placeholder) in [
        ("a", "Pool A", &request.a, "e.g. 5d6"),
        ("b", "Pool B", &request.b, "e.g. 3d6+1d8+1d10"),
    ] {
        let _ = write!(
            html,
            r#"<div class="field"><label for="pool-{name}">{label}</label><input id="pool-{name}" name="{name}" type="text" value="{value}" placeholder="{placeholder}" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="500"{autofocus}></div>"#,
            value = escape(value),
            autofocus = if name == "a" && value.is_empty() {
                " autofocus"
            } else {
                ""
            },
        );
    }
    html.push_str(r#"</div><fieldset class="choice"><legend>Pairing</legend>"#);
    for pairing in Pairing::ALL {
        let _ = write!(
            html,
            r#"<label><input type="radio" name="pairing" id="pairing-{name}" value="{name}"{checked}> {name} <span class="formula">{words}</span></label>"#,
            name = pairing.as_str(),
            checked = checked(pairing == request.pairing),
            words = pairing.words(),
        );
    }
    html.push_str(r#"</fieldset><fieldset class="choice"><legend>Ties</legend>"#);
    for ties in TieRule::ALL {
        let _ = write!(
            html,
            r#"<label><input type="radio" name="ties" id="ties-{name}" value="{name}"{checked}> {words}</label>"#,
            name = ties.as_str(),
            checked = checked(ties == request.ties),
            words = ties.words(),
        );
    }
    html.push_str(
        r#"</fieldset><div class="actions"><button type="submit">Compare pools</button></div></form>"#,
    );
    html
}

fn checked(yes: bool) -> &'static str {
    if yes { " checked" } else { "" }
}

/// Links to example contests, for the empty page.
fn examples() -> String {
    let mut html =
        String::from(r#"<section class="examples" aria-label="Examples"><h2>Try</h2><ul>"#);
    for &(what, a, b, pairing, ties) in EXAMPLES {
        let request = ContestRequest {
            a: a.into(),
            b: b.into(),
            pairing,
            ties,
            runs: None,
            seed: 1,
        };
        let _ = write!(
            html,
            r#"<li><a href="/contest?{href}"><code>{a}</code> vs <code>{b}</code>, {pairing}, {ties}</a> <span class="muted">{what}</span></li>"#,
            href = escape(&request.query()),
            a = escape(a),
            b = escape(b),
            ties = ties.words(),
            what = escape(what),
        );
    }
    html.push_str("</ul></section>");
    html
}

/// Why the contest has no result, with advice for this page.
fn problem_html(problem: &Problem) -> String {
    let heading = match problem {
        Problem::Pool { side, source, .. } => {
            format!(
                "Could not read pool {side}, <code>{}</code>",
                escape(source)
            )
        }
        _ => "Could not compute this contest".to_string(),
    };
    let hint = match problem {
        Problem::Stopped(Stopped::TimedOut(_)) => Some(CONTEST_HINT),
        _ => problem.hint(),
    };
    problem.to_html_with(&heading, hint)
}

/// The measures, the odds, the chart and the net score table.
fn results(request: &ContestRequest, report: &ContestReport, max_rows: usize) -> String {
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut html = format!(
        r#"<p class="setup"><code>{a}</code> vs <code>{b}</code>: {pairing} pairing, {ties}; {a_dice} against {b_dice}, {pairs} per roll</p>"#,
        a = escape(&report.a),
        b = escape(&report.b),
        pairing = report.pairing,
        ties = report.ties.words(),
        a_dice = count(report.a_dice, "die", "dice"),
        b_dice = count(report.b_dice, "die", "dice"),
        pairs = count(report.pairs, "pair", "pairs"),
    );
    // A Monte Carlo estimate shows each measure with its standard error.
    let errors = match report.method {
        ContestMethod::Exact => None,
        ContestMethod::MonteCarlo {
            runs,
            seed,
            win_bias_standard_error,
            tie_percent_standard_error,
            closeness_standard_error,
        } => {
            let _ = write!(
                html,
                r#"<p class="estimate" id="method">Monte Carlo estimate from {} seeded rolls (seed {seed}), not exact; ± is one standard error.</p>"#,
                thousands(runs)
            );
            Some((
                runs,
                win_bias_standard_error,
                tie_percent_standard_error,
                closeness_standard_error,
            ))
        }
    };
    let plus_minus = |error: Option<f64>, digits: usize| {
        error.map_or(String::new(), |e| format!(" ± {e:.digits$}"))
    };
    let closeness = report
        .closeness
        .map_or("infinite".to_string(), |c| format!("{c:.3}"));
    let _ = write!(
        html,
        r#"<dl id="measures" class="metrics"><div><dt>win bias</dt><dd id="win-bias">{bias:.2}{bias_error}</dd><dd class="formula">100·(P(A wins) − P(B wins)); 0 is fair</dd></div><div><dt>tie %</dt><dd id="tie-percent">{tie:.2}{tie_error}</dd><dd class="formula">100·P(net score = 0)</dd></div><div><dt>closeness</dt><dd id="closeness">{closeness}{closeness_error}</dd><dd class="formula">1 / √E[net²]; higher is closer</dd></div></dl>"#,
        bias = report.win_bias,
        tie = report.tie_percent,
        bias_error = plus_minus(errors.map(|e| e.1), 2),
        tie_error = plus_minus(errors.map(|e| e.2), 2),
        closeness_error = plus_minus(errors.map(|e| e.3), 4),
    );
    let last_column = if errors.is_some() {
        "± standard error"
    } else {
        "exact"
    };
    let _ = write!(
        html,
        r#"<div class="table-wrap"><table id="odds" class="numbers"><caption>Who wins</caption><thead><tr><th scope="col">outcome</th><th scope="col">probability</th><th scope="col" class="exact">{last_column}</th></tr></thead><tbody>"#,
    );
    for (name, id, p, exact) in [
        (
            "A wins",
            "p-a-wins",
            report.p_a_wins,
            &report.p_a_wins_exact,
        ),
        ("tie", "p-tie", report.p_tie, &report.p_tie_exact),
        (
            "B wins",
            "p-b-wins",
            report.p_b_wins,
            &report.p_b_wins_exact,
        ),
    ] {
        let _ = write!(
            html,
            r#"<tr><th scope="row">{name}</th><td>{p}</td><td class="exact">{exact}</td></tr>"#,
            p = percent(p),
            exact = match errors {
                None => fraction_html(exact, MAX_FRACTION_CHARS, Some(id)),
                Some((runs, ..)) => percent((p * (1.0 - p) / runs as f64).sqrt()),
            },
        );
    }
    html.push_str("</tbody></table></div>");
    html.push_str(&chart(request, report));
    html.push_str(&net_table(report, max_rows));
    html
}

/// The net score chart, inline, with links to it and to the JSON.
fn chart(request: &ContestRequest, report: &ContestReport) -> String {
    let q = escape(&request.query());
    format!(
        r#"<figure id="chart" class="chart">{svg}<figcaption>Download the chart as <a href="/chart/contest.svg?{q}" download="fairdice-contest.svg">SVG</a> or <a href="/chart/contest.png?{q}" download="fairdice-contest.png">PNG</a> · <a href="/api/contest?{q}">JSON</a>, as <code>fairdice contest --json</code> prints it</figcaption></figure>"#,
        svg = net_score_chart(report).to_svg(),
    )
}

/// One row per net score (the first `max_rows`), and what the counts are out of.
fn net_table(report: &ContestReport, max_rows: usize) -> String {
    let mut html = String::from(
        r#"<div class="table-wrap"><table id="net" class="numbers"><caption>Net score: pairs A wins minus pairs B wins</caption><thead><tr><th scope="col">net score</th><th scope="col">count</th><th scope="col">probability</th></tr></thead><tbody>"#,
    );
    for row in report.net.iter().take(max_rows) {
        let score = if row.score == 0 {
            "0".to_string()
        } else {
            format!("{:+}", row.score)
        };
        let _ = write!(
            html,
            r#"<tr><th scope="row">{score}</th><td title="{count}">{short}</td><td>{p}</td></tr>"#,
            count = row.count,
            short = short_count(&row.count, MAX_TABLE_DIGITS),
            p = percent(row.probability),
        );
    }
    html.push_str("</tbody></table></div>");
    if report.net.len() > max_rows {
        let _ = write!(
            html,
            r#"<p class="hint">Showing the first {max_rows} of {} net scores; the JSON link above has them all.</p>"#,
            report.net.len()
        );
    }
    let total = short_count(&report.total, MAX_TABLE_DIGITS);
    let _ = write!(
        html,
        r#"<p class="hint" id="total">{}</p>"#,
        match (&report.method, report.ties) {
            (ContestMethod::MonteCarlo { runs, .. }, _) =>
                format!("estimated: counts out of {} seeded rolls", thousands(*runs)),
            (ContestMethod::Exact, TieRule::Reroll) =>
                format!("exact: counts out of {total} (rerolled ties condition the rolls)"),
            (ContestMethod::Exact, _) => format!("exact: {total} equally likely rolls"),
        }
    );
    html
}

/// How pools are written and scored, folded under the form.
const HELP: &str = r#"<details class="help"><summary>Pools, pairing and measures</summary><table class="notation"><tbody>
<tr><td><code>5d6</code> <code>3d6+1d8+1d10</code> <code>2d6+d{1,1,2,3}</code> <code>4dF</code></td><td>a pool: dice joined by <code>+</code> (joined, not added up), kept in the order written; no constants, keep/drop or success counting</td></tr>
<tr><td>sorted</td><td>both rolls sorted; highest meets highest, and so on down; pools of different sizes pair their highest <code>min(a, b)</code> dice</td></tr>
<tr><td>unsorted</td><td>the i-th die of A meets the i-th die of B, as written</td></tr>
<tr><td>ties</td><td>a tied pair scores nothing, goes to A or to B, or is rolled again until it differs (sorted: the tied dice of both sides form a smaller contest)</td></tr>
<tr><td>win bias</td><td><code>100·(P(A wins) − P(B wins))</code>: 0 is fair, +100 means A always wins</td></tr>
<tr><td>tie %</td><td><code>100·P(net score = 0)</code></td></tr>
<tr><td>closeness</td><td><code>1 / √E[net²]</code>: higher means closer games (Isaksen et al., 2016)</td></tr>
</tbody></table></details>"#;
