//! `GET /risk`: the Risk page — armies, rule, die and dice caps; P(attacker wins)
//! exactly (a long fraction folded, one click from whole) and as a decimal, the
//! armies each side has left, expected losses, the one-roll tables, the heat
//! map of P(attacker wins) over starting armies, and, when asked, a seeded Monte
//! Carlo simulation beside the exact answer. A plain GET form: the URL is the
//! whole state of the page.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use fairdice::battle::Rule;
use fairdice::battle::report::{BattleReport, RollTable};
use fairdice::dice::report::percent;
use fairdice_charts::{Chart, survivors_chart, win_grid_chart};

use super::{RiskRequest, compute, float_reason};
use crate::AppState;
use crate::compute::Stopped;
use crate::fraction::fraction_html;
use crate::html::{escape, layout};
use crate::problem::{BATTLE_HINT, Problem};

/// Exact probabilities longer than this are folded (the command line's limit).
const MAX_FRACTION_CHARS: usize = 60;
/// Survivor rows less likely than this are summarized, as on the command line.
const SHOWN_PROBABILITY: f64 = 1e-4;
/// Examples offered on the empty page: what they show, attacker, defender, rule,
/// faces.
const EXAMPLES: &[(&str, u32, u32, Rule, u64)] = &[
    (
        "the classic: three dice against two, fought to the end",
        3,
        2,
        Rule::Simple,
        6,
    ),
    ("ten against ten", 10, 10, Rule::Simple, 6),
    (
        "the board game's rule: five armies on the territory, one must stay",
        5,
        5,
        Rule::Official,
        6,
    ),
    (
        "the famous 100-against-100 simulation, which rolled five-sided dice",
        100,
        100,
        Rule::Simple,
        5,
    ),
    (
        "1000 against 1000, solved in floating point",
        1000,
        1000,
        Rule::Simple,
        6,
    ),
];

/// `GET /risk?attacker=…&defender=…&rule=…&faces=…&attacker_dice=…&defender_dice=…&grid=…`.
pub(super) async fn show(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Response {
    let request = match RiskRequest::from_query(raw.as_deref()) {
        Ok(request) => request,
        Err(problem) => {
            let empty = RiskRequest::from_query(None).expect("no query is valid");
            let main = format!("{}{}", form(&empty), problem.to_html(None));
            return (
                StatusCode::BAD_REQUEST,
                Html(layout("Risk", "/risk", &main)),
            )
                .into_response();
        }
    };
    let mut main = form(&request);
    let title = if request.is_empty() {
        main.push_str(&examples());
        "Risk".to_string()
    } else {
        let computed = RiskRequest {
            per_roll: true,
            table: Some(request.grid),
            ..request.clone()
        };
        let html = match compute(&state, &computed).await {
            Ok(report) => results(&request, &report),
            Err(problem) => problem_html(&problem),
        };
        let _ = write!(
            main,
            r#"<section id="results" aria-live="polite">{html}</section>"#
        );
        match (request.attacker, request.defender) {
            (Some(a), Some(d)) => format!("Risk: {a} v {d}"),
            _ => "Risk".to_string(),
        }
    };
    main.push_str(HELP);
    Html(layout(&title, "/risk", &main)).into_response()
}

/// The form: armies, rule, die, dice caps and the heat map's size.
fn form(request: &RiskRequest) -> String {
    let mut html = String::from(
        r#"<h1>Risk</h1>
<p class="lede">How likely is an attack to take the territory, and with what left? Every roll sorts both sides' dice and compares them in pairs, ties to the defender; the battle goes on until one side is beaten. Solved exactly; fight it by Monte Carlo too to compare.</p>
<form id="risk-form" class="query" method="get" action="/risk">
<div class="numbers-grid">"#,
    );
    let number = |html: &mut String, name: &str, label: &str, value: String, min: u32| {
        let _ = write!(
            html,
            r#"<div class="field"><label for="{name}">{label}</label><input id="{name}" name="{name}" type="number" min="{min}" step="1" value="{value}" inputmode="numeric"></div>"#,
        );
    };
    let armies = |n: Option<u32>| n.map(|n| n.to_string()).unwrap_or_default();
    number(
        &mut html,
        "attacker",
        "Attacking armies",
        armies(request.attacker),
        1,
    );
    number(
        &mut html,
        "defender",
        "Defending armies",
        armies(request.defender),
        1,
    );
    html.push_str(r#"</div><fieldset class="choice"><legend>Rule</legend>"#);
    for (rule, words) in [
        (Rule::Simple, "armies attacking; beaten at 0"),
        (Rule::Official, "armies on the territory; one stays"),
    ] {
        let _ = write!(
            html,
            r#"<label><input type="radio" name="rule" id="rule-{rule}" value="{rule}"{checked}> {rule} <span class="formula">{words}</span></label>"#,
            checked = if rule == request.rules.rule {
                " checked"
            } else {
                ""
            },
        );
    }
    html.push_str(r#"</fieldset><div class="numbers-grid">"#);
    let rules = &request.rules;
    number(
        &mut html,
        "faces",
        "Faces per die",
        rules.faces.to_string(),
        2,
    );
    number(
        &mut html,
        "attacker_dice",
        "Attacker's dice, at most",
        rules.attacker_dice.to_string(),
        1,
    );
    number(
        &mut html,
        "defender_dice",
        "Defender's dice, at most",
        rules.defender_dice.to_string(),
        1,
    );
    number(
        &mut html,
        "grid",
        "Heat map up to",
        request.grid.to_string(),
        1,
    );
    number(
        &mut html,
        "simulate",
        "Simulate battles (optional)",
        request.simulate.map(|n| n.to_string()).unwrap_or_default(),
        1,
    );
    let _ = write!(
        html,
        r#"<div class="field"><label for="seed">Seed</label><input id="seed" name="seed" type="number" min="0" step="1" value="{}" inputmode="numeric"></div>"#,
        request.seed
    );
    html.push_str(
        r#"</div><div class="actions"><button type="submit">Fight</button></div></form>"#,
    );
    html
}

/// Links to example battles, for the empty page.
fn examples() -> String {
    let mut html =
        String::from(r#"<section class="examples" aria-label="Examples"><h2>Try</h2><ul>"#);
    for &(what, attacker, defender, rule, faces) in EXAMPLES {
        let mut request = RiskRequest::from_query(None).expect("no query is valid");
        request.attacker = Some(attacker);
        request.defender = Some(defender);
        request.rules.rule = rule;
        request.rules.faces = faces;
        let _ = write!(
            html,
            r#"<li><a href="/risk?{href}">{attacker} v {defender}, {rule} rule, d{faces}</a> <span class="muted">{what}</span></li>"#,
            href = escape(&request.battle_query()),
            what = escape(what),
        );
    }
    html.push_str("</ul></section>");
    html
}

/// Why the battle has no result, with advice for this page.
fn problem_html(problem: &Problem) -> String {
    let hint = match problem {
        Problem::Stopped(Stopped::TimedOut(_)) => Some(BATTLE_HINT),
        _ => problem.hint(),
    };
    problem.to_html_with("Could not fight this battle", hint)
}

/// The odds, the charts of the survivors and of the odds over starting armies,
/// then the tables.
fn results(request: &RiskRequest, report: &BattleReport) -> String {
    let p = report.p_attacker_wins;
    let mut html = format!(r#"<p class="setup">{}</p>"#, escape(&report.setup()));
    let exact = match &report.p_attacker_wins_exact {
        Some(exact) => format!(
            "exactly {}",
            fraction_html(exact, MAX_FRACTION_CHARS, Some("p-attacker-exact"))
        ),
        None => escape(&float_reason(request)),
    };
    let lost = report.expected_losses;
    let _ = write!(
        html,
        r#"<dl id="odds" class="metrics"><div><dt>P(attacker wins)</dt><dd id="p-attacker">{p:.6}</dd><dd class="formula">{exact}</dd></div><div><dt>P(defender holds)</dt><dd id="p-defender">{q:.6}</dd></div><div><dt>expected losses</dt><dd id="losses">attacker {la:.3}, defender {ld:.3}</dd></div><div><dt>armies left on average</dt><dd id="left">attacker {sa:.3} when it wins, defender {sd:.3} when it holds</dd></div></dl>"#,
        q = 1.0 - p,
        la = lost.attacker,
        ld = lost.defender,
        sa = report.attacker_survivors_if_win,
        sd = report.defender_survivors_if_win,
    );
    if let Some(sim) = &report.simulation {
        let [low, high] = sim.interval95;
        let verdict = if (low..=high).contains(&p) {
            "contains"
        } else {
            "misses"
        };
        let _ = write!(
            html,
            r#"<p id="simulation" class="setup">Monte Carlo: {runs} battles (seed {seed}), the attacker won {wins} = <strong>{share:.6}</strong>; the 95% interval {low:.6} to {high:.6} {verdict} the computed {p:.6}.</p>"#,
            runs = sim.runs,
            seed = sim.seed,
            wins = sim.attacker_wins,
            share = sim.p_attacker_wins,
        );
    }
    let battle = escape(&request.battle_query());
    let api = escape(&request.api_query());
    let _ = write!(
        html,
        r#"<figure id="survivors-chart" class="chart">{svg}<figcaption>Download the chart as <a href="/chart/risk-survivors.svg?{battle}" download="fairdice-risk.svg">SVG</a> or <a href="/chart/risk-survivors.png?{battle}" download="fairdice-risk.png">PNG</a> · <a href="/api/risk?{api}">JSON</a>, as <code>fairdice risk --json</code> prints it</figcaption></figure>"#,
        svg = survivors_chart(report).to_svg(),
    );
    if let Some(grid) = &report.table {
        let q = escape(&request.grid_query());
        let _ = write!(
            html,
            r#"<figure id="heat-map" class="chart">{svg}<figcaption>P(attacker wins) for every start from 1 to {n} armies a side, under these rules. Download as <a href="/chart/risk-grid.svg?{q}" download="fairdice-risk-grid.svg">SVG</a> or <a href="/chart/risk-grid.png?{q}" download="fairdice-risk-grid.png">PNG</a>, as <code>fairdice risk --plot</code> draws it</figcaption></figure>"#,
            svg = win_grid_chart(grid, &report.rules()).to_svg(),
            n = grid.len(),
        );
    }
    html.push_str(&survivors_table(report));
    if let Some(tables) = &report.per_roll {
        html.push_str(&per_roll_table(tables, report.faces));
    }
    html
}

/// The armies each side ends with, side by side; rows below 0.01% summarized.
fn survivors_table(report: &BattleReport) -> String {
    let mut rows: BTreeMap<u32, (Option<f64>, Option<f64>)> = BTreeMap::new();
    for s in &report.attacker_survivors {
        rows.entry(s.armies).or_default().0 = Some(s.probability);
    }
    for s in &report.defender_survivors {
        rows.entry(s.armies).or_default().1 = Some(s.probability);
    }
    let mut html = String::from(
        r#"<div class="table-wrap"><table id="survivors" class="numbers"><caption>Armies left when the battle ends</caption><thead><tr><th scope="col">armies</th><th scope="col">attacker wins with</th><th scope="col">defender holds with</th></tr></thead><tbody>"#,
    );
    let cell = |p: Option<f64>| p.map_or(String::new(), percent);
    let mut hidden = 0;
    for (armies, (attacker, defender)) in rows {
        let shown = |p: Option<f64>| p.is_some_and(|p| p >= SHOWN_PROBABILITY);
        if !shown(attacker) && !shown(defender) {
            hidden += 1;
            continue;
        }
        let _ = write!(
            html,
            r#"<tr><th scope="row">{armies}</th><td>{}</td><td>{}</td></tr>"#,
            cell(attacker),
            cell(defender)
        );
    }
    html.push_str("</tbody></table></div>");
    if hidden > 0 {
        let _ = write!(
            html,
            r#"<p class="hint">{hidden} more endings are below 0.01%; the JSON lists them all.</p>"#
        );
    }
    html
}

/// Every one-roll table up to the dice caps, as `fairdice risk --per-roll` prints.
fn per_roll_table(tables: &[RollTable], faces: u64) -> String {
    let mut html = format!(
        r#"<div class="table-wrap"><table id="per-roll" class="numbers"><caption>One roll, d{faces}: both sides sorted, compared in pairs, ties to the defender</caption><thead><tr><th scope="col">attacker dice</th><th scope="col">defender dice</th><th scope="col">attacker loses</th><th scope="col">defender loses</th><th scope="col">count</th><th scope="col">of</th><th scope="col">probability</th></tr></thead><tbody>"#
    );
    for roll in tables {
        for outcome in &roll.outcomes {
            let _ = write!(
                html,
                r#"<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
                roll.attacker_dice,
                roll.defender_dice,
                outcome.attacker_loses,
                outcome.defender_loses,
                outcome.count,
                roll.total,
                percent(outcome.probability),
            );
        }
    }
    html.push_str("</tbody></table></div>");
    html
}

/// The rules, folded under the form.
const HELP: &str = r#"<details class="help"><summary>How a battle is fought</summary><table class="notation"><tbody>
<tr><td>one roll</td><td>the attacker rolls up to 3 dice, the defender up to 2; both sort their dice from highest to lowest and compare them in pairs; a tie goes to the defender; the loser of each pair loses one army</td></tr>
<tr><td>simple rule</td><td>the attacking armies are counted alone: the attacker rolls <code>min(3, A)</code> dice and is beaten at <code>A = 0</code> (the rule of the well-known 100-against-100 simulation)</td></tr>
<tr><td>official rule</td><td><code>A</code> counts every army on the territory: the attacker rolls <code>min(3, A − 1)</code> dice and must stop at <code>A = 1</code></td></tr>
<tr><td>exact</td><td>battles of up to 90,000 states (attacking × defending armies) whose fractions stay within 8,000 bits are solved in exact fractions — 300 against 300 with six-sided dice is the largest even one; larger battles in floating point</td></tr>
</tbody></table></details>"#;
