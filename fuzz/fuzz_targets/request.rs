//! Any request of any use case, as the web app's `/api/*` and the packages'
//! `run(name, request)` receive it: the first byte picks the use case, the rest is
//! its JSON request (the dictionary `dictionaries/request.dict` gives libFuzzer the
//! field names and spec words). Run under a small budget, as the generated-request
//! test does; a panic, a hang or runaway memory is a finding.
#![no_main]

use fairdice_api::{USE_CASES, run_json};
use libfuzzer_sys::fuzz_target;

mod budget;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(request) = std::str::from_utf8(rest) else {
        return;
    };
    if request.len() > 1024 {
        return;
    }
    let use_case = USE_CASES[usize::from(pick) % USE_CASES.len()];
    let control = budget::control();
    let _ = run_json(use_case, request, &control);
});
