//! The Risk page and `/api/risk` driven in-process: the API serves the command
//! line's document, the page shows the exact odds, survivors, one-roll tables and
//! heat map, and battles over the limits are refused.

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{app, get, impatient_app};
use fairdice::Control;
use fairdice::battle::report::{BattleReport, Precision, SimulationReport, per_roll};
use fairdice::battle::{Rule, Rules, simulate, win_table};

/// The document `fairdice risk A D … --json` prints, built the way the command
/// builds it.
fn cli_document(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    per_roll_tables: bool,
    table: Option<u32>,
) -> String {
    let precision = Precision::for_battle(attacker, defender, rules);
    let mut report =
        BattleReport::solve(attacker, defender, rules, precision, &Control::unlimited())
            .expect("valid");
    report.table = table.map(|n| win_table(n, rules, &Control::new()).expect("valid"));
    if per_roll_tables {
        report.per_roll = Some(per_roll(rules, &Control::new()).expect("valid"));
    }
    report.to_json() + "\n"
}

#[tokio::test]
async fn the_api_serves_the_risk_json_document() {
    let app = app();
    let official = Rules {
        rule: Rule::Official,
        faces: 8,
        attacker_dice: 4,
        defender_dice: 3,
    };
    for (uri, attacker, defender, rules, rolls, table) in [
        (
            "/api/risk?attacker=3&defender=2",
            3,
            2,
            Rules::default(),
            false,
            None,
        ),
        (
            "/api/risk?attacker=3&defender=2&per_roll=1&table=4",
            3,
            2,
            Rules::default(),
            true,
            Some(4),
        ),
        (
            "/api/risk?attacker=20&defender=20&rule=official&faces=8&attacker_dice=4&defender_dice=3",
            20,
            20,
            official,
            false,
            None,
        ),
        // Few states but long: floating point, as on the command line.
        (
            "/api/risk?attacker=3000&defender=30",
            3000,
            30,
            Rules::default(),
            false,
            None,
        ),
        (
            "/api/risk?attacker=1000&defender=1000",
            1000,
            1000,
            Rules::default(),
            false,
            None,
        ),
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        assert!(reply.content_type.starts_with("application/json"));
        assert_eq!(
            reply.text(),
            cli_document(attacker, defender, &rules, rolls, table),
            "{uri}"
        );
    }
    let json = get(&app, "/api/risk?attacker=2&defender=1").await.json();
    assert_eq!(json["p_attacker_wins_exact"], "1955/2592");
    assert_eq!(json["method"], "exact");
    let json = get(&app, "/api/risk?attacker=1000&defender=1000")
        .await
        .json();
    assert_eq!(json["method"], "float");
    assert_eq!(json["p_attacker_wins_exact"], serde_json::Value::Null);
    let json = get(&app, "/api/risk?attacker=4&defender=4&float=1")
        .await
        .json();
    assert_eq!(json["method"], "float");
}

#[tokio::test]
async fn bad_and_oversized_battles_are_refused_with_a_reason() {
    let app = app();
    for (query, status, kind) in [
        ("attacker=3", StatusCode::BAD_REQUEST, "bad_request"),
        (
            "attacker=x&defender=2",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "attacker=3&defender=2&rule=house",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "attacker=1&defender=2&rule=official",
            StatusCode::BAD_REQUEST,
            "invalid",
        ),
        (
            "attacker=3&defender=2&faces=1",
            StatusCode::BAD_REQUEST,
            "invalid",
        ),
        (
            "attacker=100000&defender=100000",
            StatusCode::BAD_REQUEST,
            "refused",
        ),
        (
            "attacker=3&defender=2&faces=1000000",
            StatusCode::BAD_REQUEST,
            "refused",
        ),
        (
            "attacker=3&defender=2&defender_dice=100",
            StatusCode::BAD_REQUEST,
            "refused",
        ),
        (
            "attacker=3&defender=2&simulate=0",
            StatusCode::BAD_REQUEST,
            "refused",
        ),
        (
            "attacker=1000&defender=1000&simulate=1000000",
            StatusCode::BAD_REQUEST,
            "refused",
        ),
        (
            "attacker=3&defender=2&simulate=10&seed=-1",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        let reply = get(&app, &format!("/api/risk?{query}")).await;
        assert_eq!(reply.status, status, "{query}");
        assert_eq!(reply.json()["error"]["kind"], kind, "{query}");
    }
    let reply = get(&app, "/api/risk?attacker=100000&defender=100000").await;
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .expect("text")
            .contains("10000000000 states; the web app solves up to 4000000")
    );
}

#[tokio::test]
async fn a_battle_can_be_fought_by_monte_carlo_beside_the_exact_answer() {
    let app = app();
    let reply = get(
        &app,
        "/api/risk?attacker=10&defender=10&simulate=20000&seed=7",
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    // `fairdice risk 10 10 --simulate 20000 --seed 7 --json`
    let rules = Rules::default();
    let mut expected = BattleReport::solve(
        10,
        10,
        &rules,
        Precision::for_battle(10, 10, &rules),
        &Control::unlimited(),
    )
    .expect("valid");
    let fought = simulate(10, 10, &rules, 20_000, 7, &Control::new()).expect("valid");
    expected.simulation = Some(SimulationReport::new(&fought, 7));
    assert_eq!(reply.text(), expected.to_json() + "\n");
    let json = reply.json();
    assert_eq!(json["simulation"]["runs"], 20_000);
    assert_eq!(json["simulation"]["seed"], 7);

    let page = get(&app, "/risk?attacker=10&defender=10&simulate=20000&seed=7")
        .await
        .text();
    assert!(page.contains(r#"<p id="simulation""#), "{page}");
    assert!(page.contains("Monte Carlo: 20000 battles (seed 7)"));
    assert!(
        page.contains(
            r#"id="simulate" name="simulate" type="number" min="1" step="1" value="20000""#
        )
    );
    assert!(page.contains("/api/risk?attacker=10&amp;defender=10"));
    assert!(page.contains("simulate=20000&amp;seed=7"));
    // Without `simulate`, no simulation.
    let page = get(&app, "/risk?attacker=10&defender=10").await.text();
    assert!(!page.contains(r#"id="simulation""#));
}

#[tokio::test]
async fn the_risk_page_shows_odds_survivors_rolls_and_heat_map() {
    let reply = get(&app(), "/risk?attacker=5&defender=5&rule=official&grid=8").await;
    assert_eq!(reply.status, StatusCode::OK);
    let page = reply.text();
    for needle in [
        // As `fairdice risk 5 5 --rule official` prints it.
        r#"<dd id="p-attacker">0.358606</dd>"#,
        r#"<code class="fraction" id="p-attacker-exact">1311121206180325/3656158440062976</code>"#,
        r#"<dd id="p-defender">0.641394</dd>"#,
        "attacker 3.025, defender 2.937",
        "attacker 3.719 when it wins, defender 3.216 when it holds",
        r#"<figure id="survivors-chart""#,
        "<title>attacker wins with, 4: 12.377%</title>",
        "<title>defender holds with, 3: 16.578%</title>",
        r#"<table id="survivors""#,
        r#"<table id="per-roll""#,
        "<td>3</td><td>2</td><td>0</td><td>2</td><td>2890</td><td>7776</td><td>37.166%</td>",
        "<td>3</td><td>2</td><td>1</td><td>1</td><td>2611</td><td>7776</td><td>33.578%</td>",
        "<td>3</td><td>2</td><td>2</td><td>0</td><td>2275</td><td>7776</td><td>29.257%</td>",
        r#"<figure id="heat-map""#,
        "P(attacker wins), official rule, d6, 3 v 2 dice",
        r#"id="rule-official" value="official" checked"#,
        r#"aria-current="page">Risk</a>"#,
        "/chart/risk-grid.svg?rule=official&amp;faces=6&amp;attacker_dice=3&amp;defender_dice=2&amp;grid=8",
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
}

#[tokio::test]
async fn long_fractions_fold_and_large_battles_use_floating_point() {
    let app = app();
    let page = get(&app, "/risk?attacker=100&defender=100").await.text();
    assert!(page.contains(r#"<dd id="p-attacker">0.824363</dd>"#));
    assert!(page.contains("exact fraction of 879 characters</summary>"));
    let page = get(&app, "/risk?attacker=1000&defender=1000&grid=5")
        .await
        .text();
    assert!(page.contains(r#"<dd id="p-attacker">0.998911</dd>"#));
    assert!(
        page.contains("solved in floating point: an exact answer needs more than 90000 states")
    );
    assert!(page.contains("more endings are below 0.01%"));
}

#[tokio::test]
async fn the_empty_page_offers_examples_and_refusals_keep_the_form() {
    let app = app();
    let empty = get(&app, "/risk").await.text();
    assert!(empty.contains("five-sided dice"));
    assert!(!empty.contains(r#"id="results""#));
    let page = get(&app, "/risk?attacker=100000&defender=100000")
        .await
        .text();
    assert!(page.contains(r#"data-kind="refused""#));
    assert!(page.contains("the web app solves up to 4000000"));
    assert!(page.contains(r#"value="100000""#));
    let bad = get(&app, "/risk?attacker=many&defender=2").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.text().contains("attacker must be a whole number"));
}

#[tokio::test]
async fn the_charts_are_served_as_svg_and_png() {
    let app = app();
    let svg = get(&app, "/chart/risk-survivors.svg?attacker=10&defender=10").await;
    assert_eq!(svg.content_type, "image/svg+xml");
    assert!(
        svg.text()
            .contains("Armies left: 10 attacking v 10 defending")
    );
    let grid = get(&app, "/chart/risk-grid.svg?grid=6&faces=5").await;
    assert_eq!(grid.content_type, "image/svg+xml");
    assert!(
        grid.text()
            .contains("P(attacker wins), simple rule, d5, 3 v 2 dice")
    );
    for uri in [
        "/chart/risk-survivors.png?attacker=10&defender=10",
        "/chart/risk-grid.png?grid=6",
    ] {
        let png = get(&app, uri).await;
        assert_eq!(png.content_type, "image/png", "{uri}");
        assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
    }
    assert_eq!(
        get(&app, "/chart/risk-grid.svg?grid=1000").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_time_limit_stops_a_slow_battle_and_the_server_goes_on() {
    let app = impatient_app(Duration::from_millis(200));
    let started = Instant::now();
    // 2000 against 2000 in floating point: well over a second of work.
    let reply = get(&app, "/api/risk?attacker=2000&defender=2000").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    assert!(started.elapsed() < Duration::from_secs(2));
    let reply = get(&app, "/api/risk?attacker=3&defender=2").await;
    assert_eq!(reply.status, StatusCode::OK);
}
