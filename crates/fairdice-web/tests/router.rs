//! The app's router driven in-process, without a browser or a socket: the API's
//! documents and errors, the pages' numbers, and every limit.

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use fairdice::dice::notation::evaluate;
use fairdice::dice::report::DistributionReport;
use fairdice_web::{Config, router};

use common::{app, enc, get, impatient_app, send};

#[tokio::test]
async fn the_api_serves_the_dist_json_document() {
    let reply = get(&app(), "/api/dist?expr=3d6").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.content_type.starts_with("application/json"));
    let expected = DistributionReport::exact("3d6", &evaluate("3d6").expect("valid")).to_json();
    assert_eq!(reply.text(), expected + "\n");
    let json = reply.json();
    assert_eq!(json["total"], "216");
    assert_eq!(json["mean_exact"], "21/2");
    assert_eq!(json["outcomes"].as_array().map(Vec::len), Some(16));
}

#[tokio::test]
async fn the_api_estimates_by_monte_carlo_when_asked() {
    let json = get(&app(), "/api/dist?expr=3d6&runs=20000&seed=7")
        .await
        .json();
    assert_eq!(json["method"], "monte_carlo");
    assert_eq!(json["runs"], 20000);
    assert_eq!(json["seed"], 7);
    assert!((json["mean"].as_f64().expect("mean") - 10.5).abs() < 0.1);
}

#[tokio::test]
async fn api_errors_carry_the_command_lines_caret_and_span() {
    let app = app();
    let reply = get(&app, "/api/dist?expr=4d6kh3y").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let error = &reply.json()["error"];
    assert_eq!(error["kind"], "parse");
    assert_eq!(
        error["rendered"],
        "4d6kh3y\n      ^ unexpected `y`; expected a modifier, an operator or end of input"
    );
    assert_eq!(error["span"]["start"], 6);

    let reply = get(&app, "/api/dist?expr=1000000d1000000").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "too_big");
    assert!(reply.text().contains("too large"));

    let reply = get(&app, "/api/dist?expr=d0").await;
    assert_eq!(reply.json()["error"]["kind"], "invalid");
    assert_eq!(get(&app, "/api/dist").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        get(&app, "/api/dist?expr=d6&mode=x").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_dice_page_shows_numbers_chart_and_table() {
    let reply = get(&app(), "/dice?expr=4d6kh3").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.content_type.starts_with("text/html"));
    let page = reply.text();
    for needle in [
        "12.2446",
        "15869/1296",
        "1296</span> equally likely rolls",
        "<svg",
        r#"<title>4d6kh3, 12: 12.886%</title>"#,
        r#"<table id="distribution""#,
        r#"value="4d6kh3""#,
        r#"<a href="/dice" title="#,
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
    // P(X >= 12) = 799/1296.
    let page = get(&app(), "/dice?expr=4d6kh3&mode=at_least").await.text();
    assert!(page.contains("<title>4d6kh3, 12: 61.651%</title>"));
    assert!(page.contains(r#"id="mode-at_least" value="at_least" checked"#));
}

#[tokio::test]
async fn the_dice_page_compares_expressions_on_one_chart() {
    let page = get(&app(), "/dice?expr=4d6kh3&expr=3d6&mode=at_most")
        .await
        .text();
    assert!(page.contains("4d6kh3 vs 3d6 (at most)"));
    assert!(page.contains("<title>3d6, 10: 50.000%</title>"));
    assert!(page.contains("At most by outcome"));
}

#[tokio::test]
async fn the_dice_page_shows_errors_and_keeps_the_good_results() {
    let page = get(&app(), "/dice?expr=4d6kh3y&expr=1000000d1000000&expr=3d6")
        .await
        .text();
    assert!(page.contains("4d6kh3y\n      ^ unexpected `y`"));
    assert!(page.contains(r#"data-kind="too_big""#));
    assert!(page.contains("too large to compute exactly"));
    // Sized to finish: a million dice a roll, twenty rolls.
    assert!(page.contains("Estimate with 20 rolls"));
    assert!(page.contains("10.5000"));
}

#[tokio::test]
async fn user_text_is_escaped_everywhere() {
    let page = get(&app(), "/dice?expr=%3Cscript%3Ealert(1)%3C/script%3E")
        .await
        .text();
    assert!(!page.contains("<script>alert"));
    assert!(page.contains("&lt;script&gt;"));
}

#[tokio::test]
async fn charts_are_served_as_svg_and_png() {
    let app = app();
    let svg = get(&app, "/chart/dist.svg?expr=3d6&expr=2d10").await;
    assert_eq!(svg.content_type, "image/svg+xml");
    assert!(svg.text().starts_with("<svg") && svg.text().contains("3d6 vs 2d10"));
    let png = get(&app, "/chart/dist.png?expr=3d6").await;
    assert_eq!(png.content_type, "image/png");
    assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(
        get(&app, "/chart/dist.svg?expr=d").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn size_limits_refuse_long_queries_and_large_bodies() {
    let app = app();
    let long = format!("/api/dist?expr={}", "1".repeat(9000));
    assert_eq!(get(&app, &long).await.status, StatusCode::URI_TOO_LONG);
    let body = Request::post("/api/dist?expr=3d6")
        .header(header::CONTENT_LENGTH, 100_000)
        .body(Body::from(vec![b'x'; 100_000]))
        .expect("request");
    assert_eq!(send(&app, body).await.status, StatusCode::PAYLOAD_TOO_LARGE);
    let seven = ["expr=d6"; 7].join("&");
    assert_eq!(
        get(&app, &format!("/dice?{seven}")).await.status,
        StatusCode::BAD_REQUEST
    );
    let long_expression = format!("/api/dist?expr={}", "1".repeat(600));
    let reply = get(&app, &long_expression).await;
    assert_eq!(reply.json()["error"]["kind"], "refused");
}

#[tokio::test]
async fn deep_inputs_are_refused_or_computed_never_crash() {
    let app = app();
    let deep = format!("{}d6{}", "(".repeat(40), ")".repeat(40));
    let reply = get(&app, &format!("/api/dist?expr={}", enc(&deep))).await;
    assert_eq!(reply.json()["error"]["kind"], "refused");
    // The worst the limits let through still runs on a default-size thread stack.
    for text in [
        format!("{}d6{}", "(".repeat(32), ")".repeat(32)),
        format!("{}3", "-(".repeat(16)) + &")".repeat(16),
        format!("{}1", "1+".repeat(249)),
        format!("{}d2", "(d2)".repeat(16)),
    ] {
        let reply = get(&app, &format!("/api/dist?expr={}", enc(&text))).await;
        assert!(
            reply.status == StatusCode::OK || reply.status.is_client_error(),
            "{text}: {}",
            reply.status
        );
    }
}

#[tokio::test]
async fn the_time_limit_stops_a_slow_computation_and_the_server_goes_on() {
    let app = impatient_app(Duration::from_millis(300));
    let started = Instant::now();
    // Within the budget, but seconds of work for the pool engine, which polls the
    // cancel flag.
    let reply = get(&app, "/api/dist?expr=50d100kh25").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    assert!(started.elapsed() < Duration::from_secs(2));
    // The only slot is free again: the next request succeeds at once.
    let reply = get(&app, "/api/dist?expr=3d6").await;
    assert_eq!(reply.status, StatusCode::OK);
    let page = get(&app, "/dice?expr=50d100kh25&expr=d6").await.text();
    assert!(page.contains("stopped after the time limit"));
}

#[tokio::test]
async fn only_local_host_names_are_answered_when_asked() {
    let config = Config {
        allowed_hosts: Some(vec!["localhost".into(), "127.0.0.1".into()]),
        ..Config::default()
    };
    let app = router(config);
    let request = |host: &str| {
        Request::get("/api/health")
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("request")
    };
    assert_eq!(
        send(&app, request("127.0.0.1:8077")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, request("attacker.example:8077")).await.status,
        StatusCode::MISDIRECTED_REQUEST
    );
}

#[tokio::test]
async fn pages_assets_and_headers() {
    let app = app();
    let home = get(&app, "/").await;
    assert!(home.status.is_redirection());
    let empty = get(&app, "/dice").await;
    assert!(empty.text().contains("4d6kh3"));
    let csp = empty.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ascii");
    assert!(csp.contains("default-src 'self'"));
    assert_eq!(empty.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let css = get(&app, "/assets/style.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.content_type.starts_with("text/css"));
    assert_eq!(
        get(&app, "/assets/nothing.js").await.status,
        StatusCode::NOT_FOUND
    );
    let missing = get(&app, "/nowhere").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text().contains("Not found"));
}
