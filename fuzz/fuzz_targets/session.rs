//! Saved sessions as a game reads them back: a file that loads must draw, save
//! again to a document that loads to the same session, and a corrupted file must
//! be refused, never panic, hang or allocate without bound.
#![no_main]

use fairdice::randomizer::{Randomizer, Session};
use libfuzzer_sys::fuzz_target;

mod budget;

fuzz_target!(|text: &str| {
    if text.len() > 4096 {
        return;
    }
    let control = budget::control();
    let Ok(mut session) = Session::from_json_with(text, &control) else {
        return;
    };
    let saved = session.to_json();
    let reloaded = Session::from_json(&saved).expect("a saved session loads");
    assert_eq!(
        reloaded, session,
        "a session saved and loaded is the same session"
    );
    let outcomes = session.randomizer().outcomes().len();
    for _ in 0..64 {
        assert!(session.draw() < outcomes, "a draw indexes an outcome");
    }
});
