//! # fairdice-web
//!
//! The web app of fairdice, served by `fairdice serve`: the static site's pages
//! (which compute in the browser, in WebAssembly) and, for scripts, every use case
//! as JSON under `/api/` and every chart under `/chart/` — the documents and charts
//! the command line prints and draws for the same request.
//!
//! - [`router`]: every route, for embedding or testing with `tower::ServiceExt`;
//! - [`Server`]: binds an address (127.0.0.1 by default) and serves until Ctrl-C.
//!
//! Computations of the API run on blocking threads under the command line's budget,
//! in two lanes and within a time limit ([`Limits`]), so one huge request gets an
//! error while the server goes on serving everyone else.
#![deny(missing_docs)]
// An `ApiError` carries the use-case layer's error document by value; it is built
// once per failed request, far from any hot path.
#![allow(clippy::result_large_err)]

mod api;
mod charts;
mod chrome;
mod compute;
mod error;
mod limits;
mod query;
mod server;
mod site;

use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::routing::{get, post};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use limits::Limits;
pub use server::{ServeError, Server, open_browser, serve};
pub use site::write_site;

use compute::Computer;
use site::Site;

/// How the app is configured.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// What one request may ask of the server.
    pub limits: Limits,
    /// When set, only requests whose `Host` is one of these names are answered
    /// (the server sets this to the local names when bound to a loopback address).
    pub allowed_hosts: Option<Vec<String>>,
    /// A folder of the site's files to serve (`target/site`, from
    /// `scripts/build-site.sh`); without it, the pages compiled into the binary.
    pub site: Option<PathBuf>,
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub(crate) struct AppState {
    limits: Arc<Limits>,
    computer: Computer,
    site: Arc<Site>,
}

/// The Content-Security-Policy of every response: this origin only, WebAssembly
/// compiled from this origin's module, no inline scripts or styles, no frames.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
     script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; img-src 'self' data: blob:; \
     style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Every route of the app, with the size limits and security headers applied.
pub fn router(config: Config) -> Router {
    app(config).0
}

/// The routes, and the computer their computations run on (which a server stops
/// when it shuts down).
pub(crate) fn app(config: Config) -> (Router, Computer) {
    let computer = Computer::new(&config.limits);
    let state = AppState {
        computer: computer.clone(),
        limits: Arc::new(config.limits.clone()),
        site: Arc::new(Site::new(config.site.clone())),
    };
    let mut app = Router::new()
        .route("/api/health", get(|| async { "ok\n" }))
        .route("/api/{use_case}", get(api::get).post(api::post))
        .route("/api/page/{use_case}", post(api::page))
        .route("/chart/{file}", get(charts::chart))
        .fallback(get(site::serve))
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
    (app, computer)
}
