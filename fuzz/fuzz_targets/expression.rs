//! Dice expressions as a player types them: parsed, priced, evaluated exactly under
//! a small budget, estimated by a few seeded Monte Carlo runs and rolled once,
//! through the use-case layer (the path of `fairdice dist` and `fairdice roll`).
//! A panic, a run past libFuzzer's `-timeout` or past `-rss_limit_mb` is a finding.
#![no_main]

use fairdice_api::run_json;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

/// A few hundredths of a second of work and 64 MiB of planned memory a request.
mod budget;

fuzz_target!(|text: &str| {
    if text.len() > 256 {
        return;
    }
    let requests = [
        ("dist", json!({ "expression": text })),
        (
            "dist",
            json!({ "expression": text, "runs": 200, "seed": 7 }),
        ),
        ("roll", json!({ "expression": text, "seed": 7 })),
    ];
    for (use_case, request) in requests {
        let control = budget::control();
        let _ = run_json(use_case, &request.to_string(), &control);
    }
});
