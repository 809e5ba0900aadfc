//! The app's static files, compiled into the binary: nothing is fetched from
//! anywhere else, and the app works offline.
//!
//! URLs carry a hash of the file (`/assets/style.css?v=…`), so browsers may cache
//! a file for a long time and still see a new version at once.

use std::sync::OnceLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// One embedded file.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/style.css"),
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/app.js"),
    },
    Asset {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        bytes: include_bytes!("../assets/favicon.svg"),
    },
];

/// The routes under `/assets/`.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/assets/{name}", get(serve))
}

async fn serve(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(asset) => (
            [
                (header::CONTENT_TYPE, asset.content_type),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            asset.bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such asset\n").into_response(),
    }
}

/// The URL of asset `name`, with its content hash.
pub(crate) fn url(name: &str) -> String {
    static HASHES: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    let hashes = HASHES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| (a.name, format!("{:08x}", fnv1a(a.bytes) as u32)))
            .collect()
    });
    match hashes.iter().find(|(n, _)| *n == name) {
        Some((_, hash)) => format!("/assets/{name}?v={hash}"),
        None => format!("/assets/{name}"),
    }
}

/// The 64-bit FNV-1a hash: enough to tell versions of a file apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
