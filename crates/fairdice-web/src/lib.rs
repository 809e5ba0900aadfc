//! # fairdice-web
//!
//! The local web app of fairdice, served by `fairdice serve`: pages for people who
//! would rather not open a terminal, and a JSON API under `/api/` that serves the
//! command line's `--json` documents.
//!
//! - [`router`]: every route, for embedding or testing with `tower::ServiceExt`;
//! - [`Server`]: binds an address (127.0.0.1 by default) and serves until Ctrl-C.
//!
//! Pages are server-rendered HTML forms read from the URL (so a result is a link),
//! with charts inlined as the SVG of [`fairdice_charts`] — the same charts the
//! command line writes. Every asset is compiled in; nothing is fetched from the
//! network. Computations run on blocking threads under the command line's budget, a
//! few at a time and within a time limit ([`Limits`]), so one huge expression gets
//! an error message while the server goes on serving everyone else.
//!
//! # Adding a page
//! A module with a `routes()` function (see [`dice`](crate::dice)), one entry in the
//! navigation list of `html.rs`, and one `.merge(…)` in [`router`].
#![deny(missing_docs)]

mod assets;
mod compute;
mod contest;
mod dice;
mod fraction;
mod html;
mod limits;
mod problem;
mod randomizers;
mod respond;
mod risk;
mod server;
mod tune;

use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect};
use axum::routing::get;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use limits::Limits;
pub use server::{ServeError, Server, open_browser, serve};

use compute::Computer;

/// How the app is configured.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// What one request may ask of the server.
    pub limits: Limits,
    /// When set, only requests whose `Host` is one of these names are answered
    /// (the server sets this to the local names when bound to a loopback address).
    pub allowed_hosts: Option<Vec<String>>,
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub(crate) struct AppState {
    limits: Arc<Limits>,
    computer: Computer,
}

/// The Content-Security-Policy of every response: this origin only, no inline
/// scripts or styles, no frames.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// Every route of the app, with the size limits and security headers applied.
pub fn router(config: Config) -> Router {
    let state = AppState {
        computer: Computer::new(&config.limits),
        limits: Arc::new(config.limits.clone()),
    };
    let mut app = Router::new()
        .route("/", get(|| async { Redirect::to("/dice") }))
        .route("/api/health", get(|| async { "ok\n" }))
        .merge(dice::routes())
        .merge(contest::routes())
        .merge(risk::routes())
        .merge(randomizers::routes())
        .merge(tune::routes())
        .merge(assets::routes())
        .fallback(not_found)
        .with_state(state)
        .layer(RequestBodyLimitLayer::new(config.limits.max_body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            config.limits.max_query_bytes,
            limits::reject_long_queries,
        ));
    if let Some(hosts) = config.allowed_hosts {
        app = app.layer(axum::middleware::from_fn_with_state(
            Arc::new(hosts),
            limits::check_host,
        ));
    }
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        app = app.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ));
    }
    app
}

async fn not_found() -> impl IntoResponse {
    let main = r#"<h1>Not found</h1><p>There is no page here. Try <a href="/dice">Dice</a>.</p>"#;
    (
        StatusCode::NOT_FOUND,
        Html(html::layout("Not found", "", main)),
    )
}
