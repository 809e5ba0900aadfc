//! # fairdice-wasm
//!
//! The use cases of [`fairdice_api`] and the charts it draws of their reports, for
//! JavaScript, compiled to WebAssembly with wasm-bindgen: the browser app's Web
//! Worker and the npm package call these exports.
//!
//! - [`run`]: one request of one use case, answered with its report (the
//!   command line's `--json` document) or `{"error": …}` (the use-case layer's
//!   error document).
//! - [`compute`]: the same for one or several requests of a use case, with the
//!   charts the native app draws for their reports, as SVG, and progress reported
//!   to a JavaScript callback.
//! - [`Randomizer`]: a randomizer kept in the module and drawn one outcome at a
//!   time, saved as the session text `fairdice sample --save` writes.
//! - [`use_cases`], [`version`] and [`panic_message`] (what a trapped call died of).
//!
//! # Design decisions
//! - Everything crosses the boundary as JSON text: the request documents are the
//!   use-case layer's own (`{"expression": "4d6kh3"}`), so the JavaScript side
//!   maps inputs and renders, and never decides limits, methods or error kinds.
//! - A chart needs the typed report, which exists only inside the call that
//!   computed it, so [`compute`] draws the charts there and returns them beside
//!   the reports rather than offering a chart call that would parse a report back.
//! - There is no time limit: the browser cancels by terminating its worker, and a
//!   request is priced against the command line's budget, so a request too large
//!   here is too large there, with the same suggestion.

// The use-case layer's `Error` is passed by value, as that crate does: it is built
// once per failed request and written out as its document.
#![allow(clippy::result_large_err)]

mod compute;
mod panic;
mod progress;
mod randomizer;

use wasm_bindgen::prelude::*;

pub use compute::{PAGE_DOCUMENT_BYTES, compute_json, run_json};
pub use fairdice_api::charts::View;
pub use randomizer::Randomizer;

/// Runs a use case on its JSON request and returns its JSON report, or
/// `{"error": {"kind", "category", "message", "rendered", "span", "expression",
/// "hint", "suggestion"}}`.
#[wasm_bindgen]
pub fn run(use_case: &str, request: &str) -> String {
    panic::install();
    run_json(use_case, request)
}

/// Runs a use case on each of `requests` (JSON documents) and draws the charts of
/// their reports as `view` (JSON: `{"measures": ["at_least"], "width": 360}`) asks.
/// `progress`, when given, is called with `{"index", "stage", "done", "total"}`
/// at most every 100 ms.
///
/// Returns `{"results": [{"report": …} | {"error": …}, …], "charts": [{"name",
/// "svg"}, …]}`; a `view` that does not parse is an `{"error": …}` document.
#[wasm_bindgen]
pub fn compute(
    use_case: &str,
    requests: Vec<String>,
    view: &str,
    progress: Option<js_sys::Function>,
) -> String {
    panic::install();
    let _listening = progress.map(progress::listen);
    compute_json(use_case, &requests, view)
}

/// The names of every use case [`run`] and [`compute`] answer, as a JSON array.
#[wasm_bindgen]
pub fn use_cases() -> String {
    serde_json::to_string(fairdice_api::USE_CASES).unwrap_or_else(|_| "[]".to_string())
}

/// The version of fairdice this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The message of the panic that trapped the last call, if one did: a fault of
/// fairdice itself, which the caller reports before it discards this instance.
#[wasm_bindgen]
pub fn panic_message() -> Option<String> {
    panic::last_message()
}
