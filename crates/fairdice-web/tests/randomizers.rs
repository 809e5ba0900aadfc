//! The Randomizers and Tuner pages and their API, driven in-process: the API
//! serves the documents the command line prints (built by the same library
//! report types), the pages show the article's numbers, and every limit holds.

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use fairdice::Control;
use fairdice::analysis::{AnalysisOptions, AnalysisReport, analyze};
use fairdice::randomizer::{NextReport, SampleReport, Spec, observe_history};
use fairdice::tune::{TuneReport, Tuning, tune};
use fairdice_web::Limits;

use common::{app, app_with, enc, get, impatient_app};

const ARTICLE_DECK: &str = "deck(values=6, copies=1, refill_below=6)";

#[tokio::test]
async fn the_analyze_api_serves_the_analyze_json_document() {
    let reply = get(
        &app(),
        &format!("/api/analyze?spec={}&samples=25", enc(ARTICLE_DECK)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.content_type.starts_with("application/json"));
    let deck = Spec::build(ARTICLE_DECK).expect("valid");
    let analysis = analyze(&deck, &AnalysisOptions::new(25), &Control::new()).expect("small");
    let expected = AnalysisReport::new(&deck, &analysis).to_json() + "\n";
    assert_eq!(reply.text(), expected);
    let json = reply.json();
    assert_eq!(json["method"], "exact");
    assert_eq!(
        format!("{:.4}", json["outcome_variance"].as_f64().expect("number")),
        "0.5089"
    );
    assert_eq!(json["steps"].as_array().map(Vec::len), Some(25));
    assert!(json["droughts"]["outcomes"].is_array());
}

#[tokio::test]
async fn monte_carlo_analyses_carry_standard_errors() {
    let uri = "/api/analyze?spec=tgm2&samples=10&runs=2000&seed=3&droughts=off";
    let json = get(&app(), uri).await.json();
    assert_eq!(json["method"], "monte_carlo");
    assert_eq!(json["runs"], 2000);
    assert_eq!(json["seed"], 3);
    assert!(
        json["errors"]["outcome_variance"]
            .as_f64()
            .expect("an error")
            > 0.0
    );
    assert!(json.get("droughts").is_none());
}

#[tokio::test]
async fn the_sample_api_draws_what_the_command_line_draws() {
    let spec = "deck(values=6, copies=1, refill_below=1)";
    let reply = get(
        &app(),
        &format!("/api/sample?spec={}&count=12&seed=7", enc(spec)),
    )
    .await;
    let expected = SampleReport::draw(Spec::build(spec).expect("valid"), 12, 7).to_json() + "\n";
    assert_eq!(reply.text(), expected);
    // `fairdice sample 'deck(values=6, copies=1, refill_below=1)' --count 12 --seed 7`
    assert_eq!(
        reply.json()["samples"],
        serde_json::json!([1, 6, 3, 2, 4, 5, 6, 4, 3, 5, 2, 1])
    );
    let pieces = get(&app(), "/api/sample?spec=tgm2&count=10&seed=1")
        .await
        .json();
    assert_eq!(
        pieces["labels"],
        serde_json::json!(["L", "J", "I", "O", "Z", "L", "S", "I", "T", "O"])
    );
}

#[tokio::test]
async fn the_next_api_gives_the_fair_rollers_check_value() {
    let spec = "fair(base=2d6, tightness=1)";
    let reply = get(
        &app(),
        &format!("/api/next?spec={}&history=2,4,7,7", enc(spec)),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let mut fair = Spec::build(spec).expect("valid");
    observe_history(&mut fair, &["2", "4", "7", "7"]).expect("possible");
    let expected = NextReport::new(&fair, &["2", "4", "7", "7"]).to_json() + "\n";
    assert_eq!(reply.text(), expected);
    let json = reply.json();
    let seven = &json["outcomes"][5];
    assert_eq!(seven["outcome"], 7);
    assert_eq!(
        format!("{:.5}", seven["probability"].as_f64().expect("p")),
        "0.05965"
    );
}

#[tokio::test]
async fn the_tune_api_serves_the_tune_json_document() {
    let reply = get(&app(), "/api/tune?values=6&samples=25&min_entropy=0.9").await;
    assert_eq!(reply.status, StatusCode::OK);
    let tuning = Tuning::article(6, 25).expect("valid");
    let result = tune(&tuning, &Control::new()).expect("runs");
    let baseline = tuning.plain_dice_variance().expect("dice");
    let expected = TuneReport::new(&tuning, &result, baseline, false).to_json() + "\n";
    assert_eq!(reply.text(), expected);
    let json = reply.json();
    assert_eq!(
        json["systems"][0]["params"],
        serde_json::json!({"copies": 1, "refill_below": 6})
    );
    assert_eq!(
        json["systems"][1]["params"],
        serde_json::json!({"decrease": 0.355})
    );
    assert_eq!(json["fairest"], "dynamic");
    let all = get(&app(), "/api/tune?values=4&samples=10&systems=bag&all=1")
        .await
        .json();
    assert_eq!(
        all["systems"][0]["candidates"].as_array().map(Vec::len),
        Some(10)
    );
}

#[tokio::test]
async fn the_randomizers_page_shows_the_summary_curves_and_droughts() {
    let page = get(
        &app(),
        &format!("/randomizers?spec={}&samples=25", enc(ARTICLE_DECK)),
    )
    .await
    .text();
    for needle in [
        r#"data-method="exact""#,
        r#"<td class="outcome-variance">0.5089</td>"#,
        r#"<td class="mean-entropy">0.9020</td>"#,
        r#"<table id="droughts""#,
        "Outcome variance after each sample",
        r#"<a href="/randomizers" title="#,
        r#"aria-current="page">Randomizers</a>"#,
        "/chart/analyze.svg?spec=",
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
    assert_eq!(page.matches("<svg").count(), 3, "one stack of two charts");
}

#[tokio::test]
async fn the_sample_button_shows_the_seeded_sequence_and_the_history_its_next_draw() {
    let uri = format!(
        "/randomizers?spec={}&samples=12&seed=7&sample=1",
        enc("deck(values=6, copies=1, refill_below=1)")
    );
    let page = get(&app(), &uri).await.text();
    assert!(page.contains(
        "<ol class=\"sequence\"><li>1</li><li>6</li><li>3</li><li>2</li><li>4</li><li>5</li><li>6</li>"
    ));
    assert!(page.contains("--count 12 --seed 7"));
    let uri = format!(
        "/randomizers?spec={}&samples=8&history=2,4,7,7",
        enc("fair(base=2d6, tightness=1)")
    );
    let page = get(&app(), &uri).await.text();
    assert!(page.contains(r#"<tr><th scope="row">7</th><td>0.059646</td>"#));
}

#[tokio::test]
async fn the_tuner_page_shows_the_articles_table_and_the_winners_curves() {
    let page = get(&app(), "/tune?values=6&samples=25&min_entropy=0.9")
        .await
        .text();
    for needle in [
        r#"<td class="params">copies=1, refill_below=6</td><td class="mean-entropy">0.9020</td><td class="outcome-variance">0.5089</td><td>87/100</td>"#,
        r#"<td class="params">decrease=0.355</td><td class="mean-entropy">0.9020</td><td class="outcome-variance">0.4590</td><td>65/100</td>"#,
        r#"<tr class="fairest" data-system="dynamic">"#,
        "plain dice: 3.47",
        "deck (copies=1, refill_below=6)",
        r#"aria-current="page">Tuner</a>"#,
    ] {
        assert!(page.contains(needle), "{needle} missing");
    }
    let empty = get(&app(), "/tune").await.text();
    assert!(empty.contains("20..40"), "examples on the empty page");
}

#[tokio::test]
async fn errors_show_the_librarys_message_and_bad_requests_are_refused() {
    let app = app();
    let reply = get(&app, "/api/analyze?spec=dek(values%3D6)&samples=5").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let error = &reply.json()["error"];
    assert_eq!(error["kind"], "invalid_input");
    assert!(
        error["message"]
            .as_str()
            .expect("text")
            .contains("accepted")
    );
    let page = get(&app, "/randomizers?spec=dek(values%3D6)&sample=1")
        .await
        .text();
    assert_eq!(page.matches(r#"data-kind="invalid_input""#).count(), 1);
    assert!(page.contains("unknown randomizer `dek`"));
    for uri in [
        "/api/analyze?spec=tgm2&samples=100000",
        "/api/analyze",
        "/api/sample?spec=tgm2&count=1000000",
        "/api/tune?values=6&samples=1000",
        "/api/tune?samples=25",
        "/randomizers?spec=tgm2&samples=-1",
    ] {
        assert_eq!(
            get(&app, uri).await.status,
            StatusCode::BAD_REQUEST,
            "{uri}"
        );
    }
}

#[tokio::test]
async fn a_forced_exact_sweep_past_the_servers_state_limit_is_too_big() {
    let app = app_with(Limits {
        max_analysis_states: 1_000,
        ..Limits::default()
    });
    let uri = "/api/analyze?spec=dynamic(values%3D6,decrease%3D0.9)&samples=25&method=exact";
    let forced = get(&app, uri).await;
    assert_eq!(forced.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(forced.json()["error"]["kind"], "too_big");
    assert!(
        forced.text().contains("more than 1000 states"),
        "{}",
        forced.text()
    );
    // The automatic method falls back to Monte Carlo instead.
    let auto = get(
        &app,
        "/api/analyze?spec=dynamic(values%3D6,decrease%3D0.9)&samples=25&runs=2000",
    )
    .await;
    assert_eq!(auto.json()["method"], "monte_carlo");
}

#[tokio::test]
async fn charts_are_served_as_svg_and_png() {
    let app = app();
    let svg = get(&app, "/chart/analyze.svg?spec=prd(p%3D0.25)&samples=20").await;
    assert_eq!(svg.content_type, "image/svg+xml");
    assert!(svg.text().contains("prd(p=0.25) over 20 samples"));
    let png = get(&app, "/chart/tune.png?values=4&samples=10").await;
    assert_eq!(png.content_type, "image/png");
    assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
    let svg = get(&app, "/chart/tune.svg?values=4&samples=10")
        .await
        .text();
    assert!(svg.contains("Best systems, 4 outcomes, 10 samples"));
}

#[tokio::test]
async fn the_time_limit_stops_an_analysis_and_a_search_and_the_server_goes_on() {
    let app = impatient_app(Duration::from_millis(300));
    let started = Instant::now();
    // Seconds of exact sweeping, within every size limit.
    let reply = get(&app, "/api/tune?values=6&samples=200").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    let reply = get(
        &app,
        "/api/analyze?spec=dynamic(values%3D6,decrease%3D0.9)&samples=1000",
    )
    .await;
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // The only slot is free again.
    let reply = get(&app, "/api/sample?spec=tgm2&count=3&seed=1").await;
    assert_eq!(reply.status, StatusCode::OK);
    let page = get(&app, "/tune?values=6&samples=200").await.text();
    assert!(page.contains("stopped after the time limit"));
    assert!(page.contains("Try fewer samples"));
    // Droughts that run out of time leave the summary and curves standing.
    let uri = "/randomizers?spec=dice(values%3D6)&samples=1000";
    let page = get(&app, uri).await.text();
    assert!(
        page.contains(r#"<table id="summary""#),
        "the curves came first"
    );
    assert!(page.contains("Droughts not computed"));
    assert!(page.contains("droughts=off"));
}
