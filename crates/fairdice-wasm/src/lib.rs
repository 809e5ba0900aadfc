//! # fairdice-wasm
//!
//! The use cases of [`fairdice_api`] and the charts of [`fairdice_charts`] for
//! JavaScript.

use wasm_bindgen::prelude::*;

/// Runs a use case on its JSON request.
#[wasm_bindgen]
pub fn run(use_case: &str, request: &str) -> String {
    let control = fairdice::Control::new();
    match fairdice_api::run_json(use_case, request, &control) {
        Ok(report) => report,
        Err(error) => serde_json::json!({ "error": error }).to_string(),
    }
}
