//! # fairdice-c
//!
//! fairdice for C, C++ and every language that loads a C library (C# through
//! P/Invoke in Unity, Godot and Mono; GDExtension; Unreal): randomizers a game
//! keeps and draws from, and every use case's JSON document. The header,
//! `include/fairdice.h`, is written from this file by cbindgen and checked against
//! it by the tests.
//!
//! # The contract
//! - **Errors.** A function that fails returns NULL (pointers), `FAIRDICE_ERROR`
//!   (values) or -1 (counts and indices), and `fairdice_last_error()` says why, on
//!   the thread that called it. No Rust panic crosses the boundary: one becomes an
//!   error too.
//! - **Pointers.** Every pointer argument may be NULL (an error, or nothing for the
//!   `_free` functions). Strings given in are NUL-terminated UTF-8; strings given out
//!   are UTF-8, owned by the caller and released with `fairdice_string_free()`,
//!   which refuses a pointer it did not give out or already took back.
//! - **Randomizers** are handles, not addresses: a freed handle, or one the library
//!   never gave out, is refused with an error instead of reading freed memory.
//! - **Threads.** One randomizer is used by one thread at a time (a game's own
//!   thread, typically); different randomizers may be used on different threads at
//!   once; every other function may be called from any thread.
//!
//! The draws of a randomizer opened with `fairdice_randomizer_new(spec, seed)` are
//! those of `fairdice sample SPEC --seed SEED`, and `fairdice_randomizer_save()`
//! writes the session text `fairdice sample --save` writes: a game saved through
//! this library continues on the command line, in the browser, npm or Python.

// The use-case layer's `Error` is carried by value, as in that crate: it is built
// only on a failed call, far from the draws.
#![allow(clippy::result_large_err)]

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::ffi::{CStr, CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::{Mutex, PoisonError};

use fairdice::Control;
use fairdice::control::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS};
use fairdice::randomizer::report::{NextReport, has_labels};
use fairdice::randomizer::{Randomizer as _, Session};
use fairdice_api::Error;
use fairdice_api::randomizer::{Source, open_session};

mod handles;

use handles::HandleError;

/// A randomizer and its generator, opened by `fairdice_randomizer_new()` or
/// `fairdice_randomizer_restore()` and released by `fairdice_randomizer_free()`.
/// Opaque: its pointer is a handle, never dereferenced.
pub struct FairdiceRandomizer {
    _opaque: [u8; 0],
}

/// What `fairdice_randomizer_next()` and `fairdice_randomizer_value()` return on an
/// error (no randomizer has this outcome: one that would is refused when opened).
pub const FAIRDICE_ERROR: i64 = i64::MIN;

/// The library's version, as `fairdice --version` prints it (a static string:
/// never freed).
#[unsafe(no_mangle)]
pub extern "C" fn fairdice_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Sets the budget of the later calls on this thread that compute:
/// `fairdice_randomizer_new()`, `fairdice_randomizer_restore()` and
/// `fairdice_run_json()`. A computation estimated above `max_steps` work steps (the
/// command line's `--max-steps`) or planning more than `max_memory` bytes is
/// refused before it starts, its error saying the estimate. 0 for either keeps its
/// default: 2,000,000,000 steps and 2 GiB, the command
/// line's. A game that opens specs its players or modders write keeps a load from
/// stalling a frame or exhausting memory this way; drawing from a randomizer is
/// never limited.
#[unsafe(no_mangle)]
pub extern "C" fn fairdice_set_limits(max_steps: u64, max_memory: u64) {
    let or_default = |value: u64, default: u64| if value == 0 { default } else { value };
    // A thread being torn down keeps no settings: nothing to set.
    let _ = LIMITS.try_with(|limits| {
        limits.set((
            or_default(max_steps, DEFAULT_MAX_STEPS),
            or_default(max_memory, DEFAULT_MAX_MEMORY),
        ));
    });
}

/// Opens the randomizer of `spec` (`"deck(values=6)"`, `"tgm3"`, a machine document),
/// its generator seeded by `seed`. Its draws are `fairdice sample SPEC --seed SEED`'s.
/// NULL on an error: a spec that does not parse or build, NULL, not UTF-8.
///
/// # Safety
/// `spec` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_new(
    spec: *const c_char,
    seed: u64,
) -> *mut FairdiceRandomizer {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        let spec = unsafe { text(spec, "the spec") }?;
        open(&Source::Spec(spec.to_string()), seed)
    })
}

/// Opens a saved session (the text `fairdice_randomizer_save()` or
/// `fairdice sample --save` writes), to continue where it stopped. NULL on an
/// error: a session that is corrupt, of another program or too long, NULL, not
/// UTF-8.
///
/// # Safety
/// `session` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_restore(
    session: *const c_char,
) -> *mut FairdiceRandomizer {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        let session = unsafe { text(session, "the session") }?;
        open(&Source::Session(session.to_string()), 0)
    })
}

/// Draws the next outcome and returns its value (a die's face; a piece's number
/// for labelled families, whose names `fairdice_randomizer_label()` gives).
/// `FAIRDICE_ERROR` when `randomizer` is NULL, freed or not a randomizer.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_next(randomizer: *mut FairdiceRandomizer) -> i64 {
    guard(FAIRDICE_ERROR, || {
        // SAFETY: the caller's promise.
        unsafe { session(randomizer, Session::draw_outcome) }
    })
}

/// Draws the next outcome and returns its index (0 to
/// `fairdice_randomizer_outcome_count(randomizer) - 1`), or -1 on an error.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_next_index(
    randomizer: *mut FairdiceRandomizer,
) -> i64 {
    guard(-1, || {
        // SAFETY: the caller's promise.
        unsafe { session(randomizer, |s| s.draw() as i64) }
    })
}

/// Draws `count` outcomes into `out` (their values) and returns `count`, or -1 on
/// an error (nothing is drawn then).
///
/// # Safety
/// No other thread uses `randomizer` during the call; `out` is NULL or valid for
/// writing `count` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_take(
    randomizer: *mut FairdiceRandomizer,
    out: *mut i64,
    count: usize,
) -> i64 {
    guard(-1, || {
        if out.is_null() && count > 0 {
            return Err(Error::bad_request("the output array is NULL"));
        }
        let count_i64 = i64::try_from(count)
            .map_err(|_| Error::bad_request("the count is larger than an int64_t"))?;
        let out: &mut [i64] = if count == 0 {
            &mut []
        } else {
            // SAFETY: `out` is non-NULL and valid for `count` writes of aligned
            // `int64_t`, used by nothing else during the call (the caller's promise).
            unsafe { std::slice::from_raw_parts_mut(out, count) }
        };
        let draw = |s: &mut Session| {
            s.fill_outcomes(out);
            count_i64
        };
        // SAFETY: the caller's promise.
        Ok(unsafe { session(randomizer, draw) }?)
    })
}

/// How many outcomes the randomizer has, or -1 on an error.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_outcome_count(
    randomizer: *const FairdiceRandomizer,
) -> i64 {
    guard(-1, || {
        // SAFETY: the caller's promise.
        unsafe { session(randomizer, |s| s.randomizer().outcomes().len() as i64) }
    })
}

/// The value of outcome `index`, or `FAIRDICE_ERROR` on an error (an index out of
/// range among them).
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_value(
    randomizer: *const FairdiceRandomizer,
    index: usize,
) -> i64 {
    guard(FAIRDICE_ERROR, || {
        // SAFETY: the caller's promise.
        let outcome = unsafe {
            session(randomizer, |s| {
                s.randomizer().outcomes().get(index).copied()
            })
        }?;
        outcome.ok_or_else(|| out_of_range(index))
    })
}

/// The name of outcome `index` (a piece's letter, "success"; a value's digits when
/// the outcomes have no names), or NULL on an error. Free it with
/// `fairdice_string_free()`.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_label(
    randomizer: *const FairdiceRandomizer,
    index: usize,
) -> *mut c_char {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        let label = unsafe {
            session(randomizer, |s| {
                (index < s.randomizer().outcomes().len()).then(|| s.randomizer().label(index))
            })
        }?;
        give(label.ok_or_else(|| out_of_range(index))?)
    })
}

/// 1 when the outcomes have names of their own (pieces, fail/success), 0 when
/// they are numbers, -1 on an error.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_labelled(
    randomizer: *const FairdiceRandomizer,
) -> c_int {
    guard(-1, || {
        // SAFETY: the caller's promise.
        unsafe { session(randomizer, |s| c_int::from(has_labels(s.randomizer()))) }
    })
}

/// How many outcomes this session has drawn, across saves, or -1 on an error.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_draws(randomizer: *const FairdiceRandomizer) -> i64 {
    guard(-1, || {
        // SAFETY: the caller's promise.
        unsafe { session(randomizer, |s| s.draws() as i64) }
    })
}

/// The randomizer's spec in its canonical form, or NULL on an error. Free it with
/// `fairdice_string_free()`.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_spec(
    randomizer: *const FairdiceRandomizer,
) -> *mut c_char {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        give(unsafe { session(randomizer, |s| s.randomizer().spec()) }?)
    })
}

/// The session as the text `fairdice sample --save` writes (JSON), for
/// `fairdice_randomizer_restore()` or any other front-end to continue; NULL on an
/// error. Free it with `fairdice_string_free()`.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_save(
    randomizer: *const FairdiceRandomizer,
) -> *mut c_char {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        give(unsafe { session(randomizer, |s| s.to_json()) }?)
    })
}

/// The distribution of the next outcome, as the JSON document
/// `fairdice next --json` prints; NULL on an error. Free it with
/// `fairdice_string_free()`.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_next_distribution(
    randomizer: *const FairdiceRandomizer,
) -> *mut c_char {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        let document = unsafe {
            session(randomizer, |s| {
                NextReport::new(s.randomizer(), &[] as &[&str]).to_json()
            })
        }?;
        give(document)
    })
}

/// Releases a randomizer. NULL is ignored; a handle already freed, or not of this
/// library, is refused (an error, and nothing is released).
///
/// # Safety
/// No other thread uses `randomizer` during or after the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_randomizer_free(randomizer: *mut FairdiceRandomizer) {
    guard((), || {
        if randomizer.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's promise.
        unsafe { handles::close(randomizer as usize) }
    });
}

/// Runs the use case `use_case` (`"dist"`, `"risk"`, `"analyze"`, … every name
/// `fairdice` has a command for) on its JSON request and returns its JSON report,
/// the document `fairdice … --json` prints (written compactly); NULL on an error,
/// whose JSON error document `fairdice_last_error_json()` gives. It runs under the
/// command line's default budget, on the calling thread. Free the result with
/// `fairdice_string_free()`.
///
/// # Safety
/// `use_case` and `request_json` are NULL or NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_run_json(
    use_case: *const c_char,
    request_json: *const c_char,
) -> *mut c_char {
    guard(ptr::null_mut(), || {
        // SAFETY: the caller's promise.
        let use_case = unsafe { text(use_case, "the use case") }?;
        // SAFETY: the caller's promise.
        let request = unsafe { text(request_json, "the request") }?;
        give(fairdice_api::run_json(use_case, request, &control())?)
    })
}

/// Why the last call that failed on this thread failed: the message as the command
/// line prints it (with a caret under the part of an expression at fault, and a
/// hint when there is one); NULL when no call has failed on this thread. Valid
/// until the next failing call on this thread; never freed by the caller.
#[unsafe(no_mangle)]
pub extern "C" fn fairdice_last_error() -> *const c_char {
    last_error(|(message, _)| message)
}

/// The last error on this thread as the JSON error document of the web API and
/// `run_json` (`{"error": {"kind", "category", "message", …, "suggestion"}}`), or
/// NULL when no call has failed on this thread. Valid and owned as
/// `fairdice_last_error()`.
#[unsafe(no_mangle)]
pub extern "C" fn fairdice_last_error_json() -> *const c_char {
    last_error(|(_, document)| document)
}

/// Releases a string this library returned. NULL is ignored; a pointer the library
/// did not return, or already took back, is refused (an error, and nothing is
/// released).
///
/// # Safety
/// `string` is not used after the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairdice_string_free(string: *mut c_char) {
    guard((), || {
        if string.is_null() {
            return Ok(());
        }
        let known = GIVEN
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(string as usize));
        if !known {
            return Err(Error::bad_request(
                "not a string of this library, or freed already (fairdice_string_free)",
            ));
        }
        // SAFETY: the pointer came from `CString::into_raw` in `give` (it was in
        // GIVEN) and is removed from GIVEN, so it is taken back exactly once.
        drop(unsafe { CString::from_raw(string) });
        Ok(())
    });
}

thread_local! {
    /// The last error on this thread: its message and its JSON document.
    static LAST_ERROR: RefCell<Option<(CString, CString)>> = const { RefCell::new(None) };
    /// The budget `fairdice_set_limits()` set on this thread: steps and bytes.
    static LIMITS: Cell<(u64, u64)> = const { Cell::new((DEFAULT_MAX_STEPS, DEFAULT_MAX_MEMORY)) };
}

/// A control with this thread's budget.
fn control() -> Control {
    let (steps, memory) = LIMITS
        .try_with(Cell::get)
        .unwrap_or((DEFAULT_MAX_STEPS, DEFAULT_MAX_MEMORY));
    Control::new().with_max_steps(steps).with_max_memory(memory)
}

/// The part `pick` chooses of the thread's last error, or NULL.
fn last_error(pick: fn(&(CString, CString)) -> &CString) -> *const c_char {
    LAST_ERROR
        .try_with(|last| {
            last.borrow()
                .as_ref()
                .map_or(ptr::null(), |error| pick(error).as_ptr())
        })
        .unwrap_or(ptr::null())
}

/// The strings given out and not yet freed (their addresses).
static GIVEN: Mutex<BTreeSet<usize>> = Mutex::new(BTreeSet::new());

/// Runs `body`, turning its error or panic into the thread's last error and
/// `fallback`. The error type is the body's own, so a draw, whose only error is a
/// bad handle, moves a word through the unwinding guard, not a whole [`Error`].
fn guard<T, E: Into<Error>>(fallback: T, body: impl FnOnce() -> Result<T, E>) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(error)) => {
            fail(error.into());
            fallback
        }
        Err(panic) => {
            fail(panicked(&*panic));
            fallback
        }
    }
}

/// The error a panic becomes.
#[cold]
#[inline(never)]
fn panicked(panic: &(dyn std::any::Any + Send)) -> Error {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    Error::internal(format!("fairdice failed inside (a panic: {message})"))
}

/// Keeps `error` as the thread's last error.
#[cold]
#[inline(never)]
fn fail(error: Error) {
    let mut message = error.rendered.clone();
    if let Some(hint) = &error.hint {
        message.push_str("\nhint: ");
        message.push_str(hint);
    }
    let document = fairdice_api::page::error_document(&error);
    let c = |text: String| CString::new(text.replace('\0', "\\0")).unwrap_or_default();
    // A thread being torn down has no last error to keep; nothing is lost then.
    let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = Some((c(message), c(document))));
}

/// A string argument as UTF-8 text.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string.
unsafe fn text<'a>(text: *const c_char, what: &str) -> Result<&'a str, Error> {
    if text.is_null() {
        return Err(Error::bad_request(format!("{what} is NULL")));
    }
    // SAFETY: not NULL, and NUL-terminated by the caller's promise.
    let bytes = unsafe { CStr::from_ptr(text) }.to_bytes();
    std::str::from_utf8(bytes).map_err(|e| {
        Error::bad_request(format!(
            "{what} is not UTF-8 (the byte at offset {} is not)",
            e.valid_up_to()
        ))
    })
}

/// Hands `text` to the caller as a string to free with `fairdice_string_free()`.
fn give(text: String) -> Result<*mut c_char, Error> {
    let text = CString::new(text)
        .map_err(|_| Error::internal("a result held a NUL byte, which C cannot hold"))?;
    let raw = text.into_raw();
    GIVEN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(raw as usize);
    Ok(raw)
}

/// Opens `source` and keeps it under a new handle.
fn open(source: &Source, seed: u64) -> Result<*mut FairdiceRandomizer, Error> {
    let session = open_session(source, seed, &control())?;
    if session.randomizer().outcomes().contains(&FAIRDICE_ERROR) {
        return Err(Error::invalid_input(
            "an outcome of -9223372036854775808 cannot be told from FAIRDICE_ERROR; \
             shift the outcomes",
        ));
    }
    let handle = handles::open(session)?;
    Ok(handle as *mut FairdiceRandomizer)
}

/// Calls `f` on the session of `randomizer`.
///
/// # Safety
/// No other thread uses `randomizer` during the call.
unsafe fn session<R>(
    randomizer: *const FairdiceRandomizer,
    f: impl FnOnce(&mut Session) -> R,
) -> Result<R, HandleError> {
    // SAFETY: the caller's promise.
    unsafe { handles::with(randomizer as usize, f) }
}

impl From<HandleError> for Error {
    fn from(error: HandleError) -> Error {
        Error::bad_request(error.message())
    }
}

fn out_of_range(index: usize) -> Error {
    Error::bad_request(format!("no outcome has the index {index}"))
}

#[cfg(test)]
mod tests;
