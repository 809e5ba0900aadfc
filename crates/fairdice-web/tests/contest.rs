//! The Contest page and `/api/contest` driven in-process: the API serves the
//! command line's document, the page shows Isaksen's measures and Risk's one roll,
//! and bad pools and huge contests get the command line's errors.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::{app, app_with, enc, get, impatient_app};
use fairdice::Control;
use fairdice::contest::report::ContestReport;
use fairdice::contest::written::parse_pool;
use fairdice::contest::{Contest, Pairing, TieRule};
use fairdice::dice::notation::Options;
use fairdice_web::Limits;

/// The document `fairdice contest A B --pairing P --ties T --json` prints, built
/// the way the command builds it.
fn cli_document(a: &str, b: &str, pairing: Pairing, ties: TieRule) -> String {
    let options = Options::default();
    let pool = |text| parse_pool(text, &options, &Control::new()).expect("a pool");
    let contest = Contest::from_dice(pool(a), pool(b))
        .expect("dice")
        .pairing(pairing)
        .ties(ties);
    let result = contest.evaluate(&Control::new()).expect("small");
    ContestReport::new(a, b, &contest, &result).to_json() + "\n"
}

#[tokio::test]
async fn the_api_serves_the_contest_json_document() {
    let app = app();
    for (a, b, pairing, ties) in [
        ("3d6", "2d6", Pairing::Sorted, TieRule::BWins),
        ("5d6", "3d6+1d8+1d10", Pairing::Unsorted, TieRule::AWins),
        ("2d6", "2d6", Pairing::Sorted, TieRule::Reroll),
    ] {
        let uri = format!(
            "/api/contest?a={}&b={}&pairing={pairing}&ties={ties}",
            enc(a),
            enc(b)
        );
        let reply = get(&app, &uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}");
        assert!(reply.content_type.starts_with("application/json"));
        assert_eq!(reply.text(), cli_document(a, b, pairing, ties), "{uri}");
    }
    let json = get(&app, "/api/contest?a=3d6&b=2d6&ties=b-wins")
        .await
        .json();
    assert_eq!(json["p_a_wins_exact"], "1445/3888");
    assert_eq!(json["p_tie_exact"], "2611/7776");
    assert_eq!(json["p_b_wins_exact"], "2275/7776");
    assert_eq!(json["pairing"], "sorted");
}

#[tokio::test]
async fn api_errors_carry_the_command_lines_caret() {
    let app = app();
    let reply = get(&app, "/api/contest?a=5d6&b=4d6kh3").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let error = &reply.json()["error"];
    assert_eq!(error["kind"], "not_a_pool");
    assert!(
        error["rendered"]
            .as_str()
            .expect("text")
            .starts_with("in pool B:\n4d6kh3\n   ^^^ keeping, dropping or counting dice")
    );
    assert_eq!(error["span"]["start"], 3);
    assert_eq!(error["expression"], "4d6kh3");

    let reply = get(&app, "/api/contest?a=300d6&b=300d6").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "too_big");
    assert!(reply.text().contains("steps (the limit is 2.0e9)"));

    for (query, kind) in [
        ("a=3d6%2B1d8&b=5d6&ties=reroll", "invalid"),
        ("a=0d6&b=5d6", "invalid"),
        ("a=3d6", "bad_request"),
        ("a=3d6&b=3d6&pairing=zigzag", "bad_request"),
    ] {
        let reply = get(&app, &format!("/api/contest?{query}")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(reply.json()["error"]["kind"], kind, "{query}");
    }
}

#[tokio::test]
async fn the_contest_page_shows_isaksens_measures_chart_and_table() {
    // Isaksen et al. 5.1: 5d6 against 5d6, sorted, A wins ties.
    let reply = get(&app(), "/contest?a=5d6&b=5d6&pairing=sorted&ties=a-wins").await;
    assert_eq!(reply.status, StatusCode::OK);
    let page = reply.text();
    for needle in [
        r#"<dd id="win-bias">38.21</dd>"#,
        r#"<dd id="tie-percent">0.00</dd>"#,
        r#"<dd id="closeness">0.282</dd>"#,
        "sorted pairing, A wins ties; 5 dice against 5 dice, 5 pairs per roll",
        r#"<figure id="chart""#,
        "<svg",
        r#"<table id="net""#,
        "exact: 60466176 equally likely rolls",
        r#"value="5d6""#,
        r#"id="ties-a-wins" value="a-wins" checked"#,
        r#"aria-current="page">Contest</a>"#,
        "/api/contest?a=5d6&amp;b=5d6&amp;pairing=sorted&amp;ties=a-wins",
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
}

#[tokio::test]
async fn the_contest_page_shows_risks_one_roll_exactly() {
    let page = get(&app(), "/contest?a=3d6&b=2d6&ties=b-wins").await.text();
    assert!(page.contains(r#"<code class="fraction" id="p-a-wins">1445/3888</code>"#));
    assert!(page.contains(r#"<code class="fraction" id="p-tie">2611/7776</code>"#));
    assert!(page.contains(r#"<code class="fraction" id="p-b-wins">2275/7776</code>"#));
    assert!(page.contains("<title>3d6 vs 2d6, 2: 37.166%</title>"));
}

#[tokio::test]
async fn the_empty_page_offers_examples_and_errors_keep_the_form() {
    let app = app();
    let empty = get(&app, "/contest").await.text();
    assert!(empty.contains("Isaksen"));
    assert!(empty.contains("/contest?a=3d6&amp;b=2d6&amp;pairing=sorted&amp;ties=b-wins"));
    assert!(!empty.contains(r#"id="results""#));

    let page = get(&app, "/contest?a=3d6%2B&b=2d6").await.text();
    assert!(page.contains(r#"data-kind="parse""#));
    assert!(page.contains("Could not read pool A"));
    assert!(page.contains("in pool A:\n3d6+\n    ^ unexpected end of input"));
    assert!(page.contains(r#"value="3d6+""#));

    let page = get(&app, "/contest?a=300d6&b=300d6").await.text();
    assert!(page.contains(r#"data-kind="too_big""#));
    assert!(page.contains("too large to compute exactly"));
    assert!(page.contains("(for a sorted contest) unsorted pairing are cheaper"));

    let bad = get(&app, "/contest?a=d6&b=d6&ties=sometimes").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.text().contains("unknown tie rule `sometimes`"));

    let page = get(&app, "/contest?a=%3Cscript%3E&b=d6").await.text();
    assert!(!page.contains("<script>"));
    assert!(page.contains("&lt;script&gt;"));
}

#[tokio::test]
async fn the_net_score_chart_is_served_as_svg_and_png() {
    let app = app();
    let svg = get(&app, "/chart/contest.svg?a=3d6&b=3d6").await;
    assert_eq!(svg.content_type, "image/svg+xml");
    assert!(svg.text().starts_with("<svg"));
    assert!(
        svg.text()
            .contains("Net score: 3d6 vs 3d6 (sorted pairing, ties stand)")
    );
    let png = get(&app, "/chart/contest.png?a=3d6&b=3d6").await;
    assert_eq!(png.content_type, "image/png");
    assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(
        get(&app, "/chart/contest.svg?a=3d6&b=d").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_time_limit_stops_a_slow_contest_and_the_server_goes_on() {
    let app = impatient_app(Duration::from_millis(300));
    // Within the budget, but seconds of work for the pool engine.
    let reply = get(&app, "/api/contest?a=40d20&b=40d20").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    let reply = get(&app, "/api/contest?a=3d6&b=3d6").await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn long_net_score_tables_are_cut_and_say_so() {
    let app = app_with(Limits {
        max_table_rows: 5,
        ..Limits::default()
    });
    let page = get(&app, "/contest?a=5d6&b=5d6").await.text();
    assert!(page.contains("Showing the first 5 of 11 net scores"));
    let table = &page[page.find(r#"<table id="net""#).expect("the table")..];
    let table = &table[..table.find("</table>").expect("its end")];
    assert_eq!(table.matches("<tr>").count(), 1 + 5);
}
