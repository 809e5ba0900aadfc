//! The C library's entry points as a game engine calls them, with bytes that need
//! not be UTF-8: the first byte picks a spec (`fairdice_randomizer_new`) or a saved
//! session (`fairdice_randomizer_restore`), the rest is the text, cut at its first
//! NUL as C would read it. A randomizer that opens must draw outcomes it has, name
//! them, save to a session that restores to the same draws, and refuse every use
//! once freed; one that does not open must leave an error message. A panic, a crash
//! or a hang is a finding. Run under a small budget (`fairdice_set_limits`), as the
//! other targets are: under the default one a base such as `30031d5` is allowed
//! its 2 GiB, past the fuzzer's memory limit.
#![no_main]

use std::ffi::{CStr, CString};
use std::ptr;

use fairdice_c::*;
use libfuzzer_sys::fuzz_target;

mod budget;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > 4096 {
        return;
    }
    let text = CString::new(rest.split(|&b| b == 0).next().unwrap_or_default()).unwrap();
    // SAFETY: every pointer is a NUL-terminated string of this function, NULL, or a
    // handle of the library; all of it runs on this one thread.
    unsafe {
        fairdice_set_limits(budget::MAX_STEPS, budget::MAX_MEMORY);
        let randomizer = if pick % 2 == 0 {
            fairdice_randomizer_new(text.as_ptr(), u64::from(pick))
        } else {
            fairdice_randomizer_restore(text.as_ptr())
        };
        if randomizer.is_null() {
            assert!(!fairdice_last_error().is_null(), "a refusal says why");
            assert!(!fairdice_last_error_json().is_null());
            return;
        }
        let outcomes = fairdice_randomizer_outcome_count(randomizer);
        assert!(outcomes > 0, "a randomizer has outcomes");
        for index in 0..(outcomes as usize).min(8) {
            assert_ne!(fairdice_randomizer_value(randomizer, index), FAIRDICE_ERROR);
            let label = fairdice_randomizer_label(randomizer, index);
            assert!(!label.is_null() && !CStr::from_ptr(label).to_bytes().is_empty());
            fairdice_string_free(label);
        }
        let saved = fairdice_randomizer_save(randomizer);
        assert!(!saved.is_null(), "an open randomizer saves");
        let restored = fairdice_randomizer_restore(saved);
        assert!(!restored.is_null(), "a saved session restores");
        fairdice_string_free(saved);
        for _ in 0..32 {
            let drawn = fairdice_randomizer_next(randomizer);
            assert_ne!(drawn, FAIRDICE_ERROR, "an open randomizer draws");
            assert_eq!(
                fairdice_randomizer_next(restored),
                drawn,
                "a restored session draws alike"
            );
        }
        let next = fairdice_randomizer_next_distribution(randomizer);
        assert!(!next.is_null());
        fairdice_string_free(next);
        fairdice_randomizer_free(randomizer);
        fairdice_randomizer_free(restored);
        assert_eq!(
            fairdice_randomizer_next(randomizer),
            FAIRDICE_ERROR,
            "a freed randomizer is refused"
        );
        assert!(fairdice_randomizer_save(restored).is_null());
        fairdice_randomizer_free(randomizer);
        fairdice_randomizer_free(ptr::null_mut());
    }
});
