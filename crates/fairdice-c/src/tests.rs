//! The C entry points called from Rust: draws equal the use-case layer's, saved
//! sessions continue, and every bad argument is an error with a message.

use std::ffi::{CStr, CString, c_char};
use std::path::Path;

use super::*;

fn c(text: &str) -> CString {
    CString::new(text).unwrap()
}

/// The thread's last error message.
fn last_error() -> String {
    let message = fairdice_last_error();
    assert!(!message.is_null(), "no error was set");
    // SAFETY: a non-NULL last error is a NUL-terminated string of this thread.
    unsafe { CStr::from_ptr(message) }
        .to_str()
        .unwrap()
        .to_string()
}

/// A string the library returned, read and freed.
fn take(string: *mut c_char) -> String {
    assert!(!string.is_null(), "an error: {}", last_error());
    // SAFETY: a string the library returned, freed once after reading.
    unsafe {
        let text = CStr::from_ptr(string).to_str().unwrap().to_string();
        fairdice_string_free(string);
        text
    }
}

#[test]
fn draws_are_the_sample_use_cases_and_a_saved_session_continues() {
    let spec = c("tgm3");
    // SAFETY: every handle here is used on this thread and freed once.
    unsafe {
        let randomizer = fairdice_randomizer_new(spec.as_ptr(), 7);
        let mut expected = Session::seeded("tgm3", 7).unwrap();
        let first: Vec<i64> = (0..20)
            .map(|_| fairdice_randomizer_next(randomizer))
            .collect();
        let wanted: Vec<i64> = (0..20).map(|_| expected.draw_outcome()).collect();
        assert_eq!(first, wanted);
        assert_eq!(fairdice_randomizer_draws(randomizer), 20);
        assert_eq!(fairdice_randomizer_labelled(randomizer), 1);
        assert_eq!(fairdice_randomizer_outcome_count(randomizer), 7);
        assert_eq!(
            take(fairdice_randomizer_label(randomizer, 0)),
            expected.randomizer().label(0)
        );

        let saved = take(fairdice_randomizer_save(randomizer));
        assert_eq!(saved, expected.to_json());
        let restored = fairdice_randomizer_restore(c(&saved).as_ptr());
        let mut out = [0i64; 30];
        assert_eq!(fairdice_randomizer_take(restored, out.as_mut_ptr(), 30), 30);
        let wanted: Vec<i64> = (0..30).map(|_| expected.draw_outcome()).collect();
        assert_eq!(out.to_vec(), wanted);
        // The original goes on where it was, independently.
        let next: Vec<i64> = (0..30)
            .map(|_| fairdice_randomizer_next(randomizer))
            .collect();
        assert_eq!(next, wanted);
        fairdice_randomizer_free(randomizer);
        fairdice_randomizer_free(restored);
    }
}

#[test]
fn the_next_distribution_is_the_next_use_cases_document() {
    // SAFETY: the handle is used on this thread and freed once.
    unsafe {
        let randomizer = fairdice_randomizer_new(c("deck(values=3)").as_ptr(), 1);
        let drawn = fairdice_randomizer_next_index(randomizer);
        assert!((0..3).contains(&drawn));
        let document = take(fairdice_randomizer_next_distribution(randomizer));
        let mut session = Session::seeded("deck(values=3)", 1).unwrap();
        session.draw();
        assert_eq!(
            document,
            NextReport::new(session.randomizer(), &[] as &[&str]).to_json()
        );
        assert_eq!(
            take(fairdice_randomizer_spec(randomizer)),
            session.randomizer().spec()
        );
        fairdice_randomizer_free(randomizer);
    }
}

#[test]
fn run_json_answers_every_use_case_as_the_api_does() {
    let request = c(r#"{"expression": "3d6"}"#);
    // SAFETY: NUL-terminated strings; the result is freed once.
    let document = take(unsafe { fairdice_run_json(c("dist").as_ptr(), request.as_ptr()) });
    let expected =
        fairdice_api::run_json("dist", r#"{"expression": "3d6"}"#, &Control::new()).unwrap();
    assert_eq!(document, expected);

    // SAFETY: as above.
    let refused =
        unsafe { fairdice_run_json(c("dist").as_ptr(), c(r#"{"expression": "3d"}"#).as_ptr()) };
    assert!(refused.is_null());
    assert!(last_error().contains('^'), "{}", last_error());
    // SAFETY: the thread's last error document, NUL-terminated.
    let document = unsafe { CStr::from_ptr(fairdice_last_error_json()) }
        .to_str()
        .unwrap();
    let document: serde_json::Value = serde_json::from_str(document).unwrap();
    assert_eq!(document["error"]["kind"], "parse");

    // SAFETY: as above.
    let unknown = unsafe { fairdice_run_json(c("nonsense").as_ptr(), c("{}").as_ptr()) };
    assert!(unknown.is_null());
    assert!(last_error().contains("nonsense"), "{}", last_error());
}

#[test]
fn bad_arguments_are_errors_with_messages_never_crashes() {
    // SAFETY: every pointer is NULL, a NUL-terminated string, or a handle the
    // library checks before any use.
    unsafe {
        assert!(fairdice_randomizer_new(ptr::null(), 1).is_null());
        assert_eq!(last_error(), "the spec is NULL");
        assert!(fairdice_randomizer_new(c("deck(values=)").as_ptr(), 1).is_null());
        assert!(last_error().contains("deck"), "{}", last_error());
        let invalid = [b'd', 0xff, b'6', 0];
        assert!(fairdice_randomizer_new(invalid.as_ptr().cast(), 1).is_null());
        assert!(last_error().contains("not UTF-8"), "{}", last_error());
        assert!(fairdice_randomizer_restore(c("{\"format\": \"other\"}").as_ptr()).is_null());
        assert!(fairdice_randomizer_restore(c("not json").as_ptr()).is_null());
        assert!(fairdice_randomizer_restore(ptr::null()).is_null());

        assert_eq!(fairdice_randomizer_next(ptr::null_mut()), FAIRDICE_ERROR);
        assert_eq!(last_error(), "the randomizer is NULL");
        let forged = 0x1000 as *mut FairdiceRandomizer;
        assert_eq!(fairdice_randomizer_next(forged), FAIRDICE_ERROR);
        assert!(
            last_error().contains("not a randomizer"),
            "{}",
            last_error()
        );

        let randomizer = fairdice_randomizer_new(c("dice(values=6)").as_ptr(), 1);
        assert_eq!(fairdice_randomizer_value(randomizer, 6), FAIRDICE_ERROR);
        assert!(fairdice_randomizer_label(randomizer, 99).is_null());
        assert_eq!(fairdice_randomizer_take(randomizer, ptr::null_mut(), 3), -1);
        assert_eq!(fairdice_randomizer_take(randomizer, ptr::null_mut(), 0), 0);
        fairdice_randomizer_free(randomizer);
        assert_eq!(fairdice_randomizer_next(randomizer), FAIRDICE_ERROR);
        assert!(last_error().contains("freed"), "{}", last_error());
        assert!(fairdice_randomizer_save(randomizer).is_null());
        fairdice_randomizer_free(randomizer);
        assert!(last_error().contains("freed"), "{}", last_error());
        fairdice_randomizer_free(ptr::null_mut());

        let spec = fairdice_randomizer_spec(fairdice_randomizer_new(c("bag7").as_ptr(), 1));
        fairdice_string_free(spec);
        fairdice_string_free(spec);
        assert!(last_error().contains("freed already"), "{}", last_error());
        let mine = c("mine");
        fairdice_string_free(mine.as_ptr().cast_mut());
        assert!(
            last_error().contains("not a string of this library"),
            "{}",
            last_error()
        );
        fairdice_string_free(ptr::null_mut());
    }
}

#[test]
fn the_last_error_belongs_to_its_thread() {
    // SAFETY: a NULL spec is refused before any use.
    unsafe { fairdice_randomizer_new(ptr::null(), 1) };
    let other = std::thread::spawn(|| fairdice_last_error().is_null())
        .join()
        .unwrap();
    assert!(other, "a new thread has no last error");
    assert_eq!(last_error(), "the spec is NULL");
}

#[test]
fn limits_refuse_what_is_too_big_on_their_thread_and_zero_restores_the_default() {
    let spec = c("dice(base=300d300)");
    let dist = (c("dist"), c(r#"{"expression": "300d300"}"#));
    // SAFETY: NUL-terminated strings of this function; handles used on this
    // thread and freed once.
    unsafe {
        fairdice_set_limits(0, 1 << 20);
        assert!(fairdice_randomizer_new(spec.as_ptr(), 1).is_null());
        let message = last_error();
        assert!(
            message.contains("MiB"),
            "the memory it would plan: {message}"
        );
        fairdice_set_limits(1_000, 0);
        assert!(fairdice_run_json(dist.0.as_ptr(), dist.1.as_ptr()).is_null());
        let message = last_error();
        assert!(
            message.contains("steps"),
            "the steps it would take: {message}"
        );

        let elsewhere = std::thread::spawn(|| {
            let spec = c("dice(base=300d300)");
            let randomizer = fairdice_randomizer_new(spec.as_ptr(), 1);
            fairdice_randomizer_free(randomizer);
            !randomizer.is_null()
        });
        assert!(
            elsewhere.join().unwrap(),
            "another thread keeps the default"
        );

        fairdice_set_limits(0, 0);
        let randomizer = fairdice_randomizer_new(spec.as_ptr(), 1);
        assert_eq!(fairdice_randomizer_outcome_count(randomizer), 89_701);
        fairdice_randomizer_free(randomizer);
    }
}

#[test]
fn the_version_is_the_crates() {
    // SAFETY: a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(fairdice_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_header_is_the_one_cbindgen_writes() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut written = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut written);
    let written = String::from_utf8(written).unwrap();
    let path = crate_dir.join("include/fairdice.h");
    if std::env::var_os("FAIRDICE_WRITE_GENERATED").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == written,
        "include/fairdice.h is not what cbindgen writes from src/lib.rs; after changing \
         the entry points run FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-c -- header"
    );
}
