//! The app's router driven in-process: every use case over GET and POST equal to
//! the command line's document, errors with their statuses, the charts, the
//! time limit, the size and host limits, and the static site.

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use fairdice::Control;
use fairdice_api::{Document, run_json_within};
use fairdice_web::{Config, router};
use serde_json::json;

use common::{app, app_with, enc, get, impatient_app, send};

/// The document `fairdice … --json` prints for `request`.
fn printed(use_case: &str, request: &serde_json::Value) -> String {
    let document = Document {
        pretty: true,
        ..Document::default()
    };
    run_json_within(use_case, &request.to_string(), &Control::new(), &document).expect("a report")
        + "\n"
}

async fn post(app: &axum::Router, use_case: &str, body: &str) -> common::Reply {
    let request = Request::post(format!("/api/{use_case}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request");
    send(app, request).await
}

#[tokio::test]
async fn every_use_case_answers_get_and_post_with_the_command_lines_document() {
    let app = app();
    let cases = [
        ("dist", "expr=4d6kh3", json!({"expression": "4d6kh3"})),
        (
            "roll",
            "expr=4d6kh3&times=3&seed=7",
            json!({"expression": "4d6kh3", "times": 3, "seed": 7}),
        ),
        (
            "contest",
            "a=5d6&b=4d6%2B1d8&ties=a-wins",
            json!({"a": "5d6", "b": "4d6+1d8", "ties": "a-wins"}),
        ),
        (
            "risk",
            "attacker=5&defender=5&rule=official&per_roll=1&runs=2000&seed=3",
            json!({"attacker": 5, "defender": 5, "rule": "official", "per_roll": true, "runs": 2000, "seed": 3}),
        ),
        (
            "sample",
            "spec=tgm2&samples=10&seed=1",
            json!({"source": {"spec": "tgm2"}, "samples": 10, "seed": 1}),
        ),
        (
            "next",
            "spec=fair%28base%3D2d6%2C+tightness%3D1%29&history=2,4,7,7",
            json!({"source": {"spec": "fair(base=2d6, tightness=1)"}, "history": ["2", "4", "7", "7"]}),
        ),
        ("prd", "p=0.25&limit=5", json!({"p": 0.25, "limit": 5})),
        (
            "analyze",
            "spec=prd%28p%3D0.25%29&samples=20",
            json!({"spec": "prd(p=0.25)", "samples": 20}),
        ),
        (
            "droughts",
            "spec=prd%28p%3D0.25%29&samples=20",
            json!({"spec": "prd(p=0.25)", "samples": 20}),
        ),
        (
            "tune",
            "values=4&samples=10",
            json!({"values": 4, "samples": "10"}),
        ),
    ];
    for (use_case, query, request) in cases {
        let expected = printed(use_case, &request);
        let reply = get(&app, &format!("/api/{use_case}?{query}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{use_case}: {}", reply.text());
        assert!(reply.content_type.starts_with("application/json"));
        assert_eq!(reply.text(), expected, "GET {use_case}");
        let reply = post(&app, use_case, &request.to_string()).await;
        assert_eq!(reply.text(), expected, "POST {use_case}");
    }
    // A saved session continues over POST.
    let saved = post(
        &app,
        "sample",
        r#"{"source": {"spec": "deck(values=6)"}, "samples": 3, "seed": 2, "save": true}"#,
    )
    .await
    .json();
    let session = saved["session"].as_str().expect("a session");
    let state = post(&app, "state", &json!({ "session": session }).to_string()).await;
    assert_eq!(state.status, StatusCode::OK, "{}", state.text());
    assert_eq!(state.json()["draws"], 3);
}

#[tokio::test]
async fn the_names_links_and_scripts_used_before_still_work() {
    let app = app();
    let old = get(
        &app,
        "/api/risk?attacker=10&defender=10&simulate=1000&seed=7",
    )
    .await;
    let new = get(&app, "/api/risk?attacker=10&defender=10&runs=1000&seed=7").await;
    assert_eq!(old.text(), new.text());
    let old = get(&app, "/api/sample?spec=tgm2&count=5&seed=1").await;
    assert_eq!(old.json()["samples"].as_array().map(Vec::len), Some(5));
    let tune = get(
        &app,
        "/api/tune?values=4&samples=10&method=monte_carlo&runs=200",
    )
    .await;
    assert_eq!(tune.status, StatusCode::OK, "{}", tune.text());
    assert_eq!(tune.json()["systems"][0]["method"], "monte_carlo");
}

#[tokio::test]
async fn errors_carry_their_kind_caret_and_status() {
    let app = app();
    let reply = get(&app, "/api/dist?expr=4d6kh3y").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let error = &reply.json()["error"];
    assert_eq!(error["kind"], "parse");
    assert_eq!(error["category"], "invalid");
    assert!(
        error["rendered"]
            .as_str()
            .unwrap_or_default()
            .starts_with("4d6kh3y\n      ^")
    );
    assert_eq!(error["span"]["start"], 6);

    let reply = get(&app, "/api/dist?expr=1000000d1000000kh500000").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let error = &reply.json()["error"];
    assert_eq!(error["kind"], "too_big");
    // The suggested estimate is a request that answers.
    let suggestion = &error["suggestion"];
    assert_eq!(suggestion["use_case"], "dist");
    let followed = post(&app, "dist", &suggestion["request"].to_string()).await;
    assert_eq!(followed.status, StatusCode::OK);
    assert_eq!(followed.json()["method"], "monte_carlo");

    for (uri, status) in [
        ("/api/dist?exrp=3d6", StatusCode::BAD_REQUEST),
        ("/api/dist", StatusCode::BAD_REQUEST),
        ("/api/dist?expr=3d6&runs=many", StatusCode::BAD_REQUEST),
        ("/api/dice?expr=3d6", StatusCode::NOT_FOUND),
        ("/api/contest?a=3d6%2B2&b=3d6", StatusCode::BAD_REQUEST),
        (
            "/api/risk?attacker=4294967295&defender=4294967295",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, status, "{uri}: {}", reply.text());
        assert!(reply.json()["error"]["message"].is_string(), "{uri}");
    }
    let reply = post(&app, "dist", "{\"expr\": \"3d6\"}").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["kind"], "bad_request");
}

#[tokio::test]
async fn documents_past_the_limit_are_refused_before_they_are_written() {
    let app = app_with(fairdice_web::Limits {
        max_document_bytes: 20_000,
        ..common::test_limits()
    });
    assert_eq!(get(&app, "/api/dist?expr=3d6").await.status, StatusCode::OK);
    let reply = get(&app, "/api/dist?expr=3000d2").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "too_big");
}

#[tokio::test]
async fn a_page_gets_what_the_browsers_module_answers() {
    let app = app();
    let body = json!({
        "requests": [{"expression": "4d6kh3"}, {"expression": "2d6+"}, {"expression": "3d6"}],
        "view": {"measures": ["at_least"], "width": 360},
    });
    let reply = post(&app, "page/dist", &body.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    // The function the wasm module's `compute` calls, with the server's limit.
    let requests: Vec<String> = body["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .map(ToString::to_string)
        .collect();
    let local = fairdice_api::page::compute_json(
        "dist",
        &requests,
        &body["view"].to_string(),
        32 << 20,
        |_| Control::new(),
    );
    assert_eq!(reply.text(), local);
    let answer: serde_json::Value = serde_json::from_str(&local).expect("JSON");
    assert_eq!(answer["results"][1]["error"]["kind"], "parse");
    let report = &answer["results"][0]["report"];
    // (Compared as values read the same way: serde_json reads floats to within an ulp.)
    let printed: serde_json::Value =
        serde_json::from_str(&printed("dist", &json!({"expression": "4d6kh3"}))).expect("JSON");
    assert_eq!(*report, printed);
    assert_eq!(answer["charts"][0]["name"], "at_least");

    let unknown = post(&app, "page/dice", &body.to_string()).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let malformed = post(&app, "page/dist", r#"{"request": []}"#).await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert!(
        malformed.text().contains("not a page's request"),
        "{}",
        malformed.text()
    );
}

#[tokio::test]
async fn charts_are_drawn_from_the_reports() {
    let app = app();
    for uri in [
        "/chart/dist.svg?expr=4d6kh3&expr=3d6&mode=at_least",
        "/chart/contest.svg?a=5d6&b=5d6",
        "/chart/risk-survivors.svg?attacker=5&defender=5",
        "/chart/risk-grid.svg?rule=official&grid=8",
        "/chart/analyze.svg?spec=tgm2&samples=10",
        "/chart/tune.svg?values=4&samples=10",
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
        assert_eq!(reply.content_type, "image/svg+xml", "{uri}");
        assert!(reply.text().starts_with("<svg"), "{uri}");
    }
    let png = get(&app, "/chart/dist.png?expr=2d6").await;
    assert_eq!(png.content_type, "image/png");
    assert_eq!(&png.body[1..4], b"PNG");
    for uri in [
        "/chart/dist.gif?expr=2d6",
        "/chart/pie.svg",
        "/chart/dist.svg?expr=2d6&mode=x",
    ] {
        let reply = get(&app, uri).await;
        assert!(reply.status.is_client_error(), "{uri}");
    }
}

#[tokio::test]
async fn the_time_limit_stops_a_slow_request_and_the_next_is_served() {
    let app = impatient_app(Duration::from_millis(300));
    let started = Instant::now();
    // Seconds of exact work within the default budget (about 6 s, priced 1.8e9
    // steps): the face 1 weighs twice, so the sum takes the general recurrence
    // (equal weights would answer in a fraction of a second).
    let slow = format!("/api/dist?expr={}", enc("18d{1,1..2200}"));
    let reply = get(&app, &slow).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["kind"], "timed_out");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(get(&app, "/api/dist?expr=2d6").await.status, StatusCode::OK);
}

#[tokio::test]
async fn sizes_and_hosts_are_checked_before_any_handler() {
    let long = format!("/api/dist?expr={}", enc(&"d6+".repeat(4000)));
    assert_eq!(get(&app(), &long).await.status, StatusCode::URI_TOO_LONG);
    let big = "x".repeat(100_000);
    assert_eq!(
        post(&app(), "dist", &big).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let local = router(Config {
        limits: common::test_limits(),
        allowed_hosts: Some(vec!["localhost".into()]),
        site: None,
    });
    let with_host = |host: &str| {
        Request::get("/api/health")
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("request")
    };
    assert_eq!(
        send(&local, with_host("localhost:8077")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&local, with_host("evil.example")).await.status,
        StatusCode::MISDIRECTED_REQUEST
    );
    assert_eq!(
        send(&local, with_host("localhost:99999")).await.status,
        StatusCode::BAD_REQUEST
    );
    // A target in absolute form names its host too: a local Host header does
    // not let it through to another.
    let absolute = |target: &str| {
        Request::get(target)
            .header(header::HOST, "localhost")
            .body(Body::empty())
            .expect("request")
    };
    assert_eq!(
        send(&local, absolute("http://evil.example/api/health"))
            .await
            .status,
        StatusCode::MISDIRECTED_REQUEST
    );
    assert_eq!(
        send(&local, absolute("http://localhost:8077/api/health"))
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_site_is_served_from_its_folder_or_compiled_in_and_old_page_links_still_open() {
    let folder = tempfile::tempdir().expect("a folder");
    std::fs::create_dir(folder.path().join("js")).expect("js");
    for (name, text) in [
        ("index.html", "<p>home</p>"),
        ("dice.html", "<p>dice</p>"),
        ("js/page.js", "export {};"),
    ] {
        std::fs::write(folder.path().join(name), text).expect("written");
    }
    let app = router(Config {
        limits: common::test_limits(),
        allowed_hosts: None,
        site: Some(folder.path().to_path_buf()),
    });
    let home = get(&app, "/").await;
    assert_eq!(
        (home.status, home.text().as_str()),
        (StatusCode::OK, "<p>home</p>")
    );
    let dice = get(&app, "/dice?expr=4d6kh3").await;
    assert_eq!(dice.text(), "<p>dice</p>");
    assert!(dice.content_type.starts_with("text/html"));
    let script = get(&app, "/js/page.js").await;
    assert!(
        script.content_type.contains("javascript"),
        "{}",
        script.content_type
    );
    let csp = home.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap_or_default();
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    // Hidden files, links out of the folder and names too long for the file
    // system are not found (a 5,000-byte name was an empty 500).
    std::fs::write(folder.path().join(".env"), "SECRET=1").expect("written");
    std::fs::create_dir(folder.path().join(".git")).expect(".git");
    std::fs::write(folder.path().join(".git/config"), "[core]").expect("written");
    let outside = tempfile::tempdir().expect("another folder");
    std::fs::write(outside.path().join("secret.txt"), "secret").expect("written");
    std::os::unix::fs::symlink(outside.path(), folder.path().join("out")).expect("a link");
    let long = format!("/{}.html", "a".repeat(5000));
    for missing in [
        "/nothing.html",
        "/../Cargo.toml",
        "/js/../../secret",
        "/.env",
        "/.git/config",
        "/out/secret.txt",
        long.as_str(),
    ] {
        let reply = get(&app, missing).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{missing}");
        assert_eq!(reply.text(), "not found\n", "{missing}");
    }
    // Without a folder, the pages compiled in: dressed with the chrome, the
    // example games listed, no WebAssembly module (the pages then ask the server).
    let builtin = app_with(common::test_limits());
    let dice = get(&builtin, "/dice?expr=4d6kh3").await;
    assert_eq!(dice.status, StatusCode::OK);
    assert!(dice.content_type.starts_with("text/html"));
    assert!(
        dice.text()
            .contains(r#"<a href="dice.html" aria-current="page""#)
    );
    let games = get(&builtin, "/games/index.json").await;
    assert!(games.text().contains("sevens-1v1"), "{}", games.text());
    for missing in ["/partials/chrome.html", "/wasm/fairdice_wasm_bg.wasm"] {
        assert_eq!(
            get(&builtin, missing).await.status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
    assert_eq!(
        get(&builtin, "/api/dist?expr=d6").await.status,
        StatusCode::OK
    );
}
