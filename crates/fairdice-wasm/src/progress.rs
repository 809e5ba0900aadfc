//! Progress for JavaScript: a [`Control`](fairdice::Control) reports to a plain
//! function, which forwards to the JavaScript callback of the running call at
//! most every [`INTERVAL_MS`] (and at every new stage).
//!
//! The callback is kept in a thread-local for the length of one call: a
//! WebAssembly instance without threads runs one call at a time, and a JavaScript
//! function cannot be captured by the `Send + Sync` closure a control wants.

use std::cell::{Cell, RefCell};

use fairdice::control::Progress;

/// The least time between two reports of the same stage, in milliseconds.
pub const INTERVAL_MS: f64 = 100.0;

thread_local! {
    static CALLBACK: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static INDEX: Cell<usize> = const { Cell::new(0) };
    static LAST: Cell<(f64, &'static str)> = const { Cell::new((f64::NEG_INFINITY, "")) };
}

/// Listening to a callback until dropped.
pub(crate) struct Listening;

impl Drop for Listening {
    fn drop(&mut self) {
        CALLBACK.with(|c| c.borrow_mut().take());
    }
}

/// Sends progress to `callback` until the returned guard is dropped.
pub(crate) fn listen(callback: js_sys::Function) -> Listening {
    CALLBACK.with(|c| *c.borrow_mut() = Some(callback));
    LAST.with(|last| last.set((f64::NEG_INFINITY, "")));
    Listening
}

/// Whether a callback listens.
pub(crate) fn listening() -> bool {
    CALLBACK.with(|c| c.borrow().is_some())
}

/// Which of the call's requests is running (reports carry it).
pub(crate) fn set_index(index: usize) {
    INDEX.with(|i| i.set(index));
    LAST.with(|last| last.set((f64::NEG_INFINITY, "")));
}

/// Forwards `progress` to the callback, unless the last report of the same stage
/// is more recent than [`INTERVAL_MS`].
pub(crate) fn report(progress: Progress) {
    let now = js_sys::Date::now();
    let (then, stage) = LAST.with(Cell::get);
    if stage == progress.stage && now - then < INTERVAL_MS {
        return;
    }
    LAST.with(|last| last.set((now, progress.stage)));
    let event = serde_json::json!({
        "index": INDEX.with(Cell::get),
        "stage": progress.stage,
        "done": progress.done,
        "total": progress.total,
    });
    CALLBACK.with(|c| {
        if let Some(callback) = c.borrow().as_ref() {
            // A callback that throws must not stop the computation.
            let _ = callback.call1(
                &wasm_bindgen::JsValue::NULL,
                &wasm_bindgen::JsValue::from_str(&event.to_string()),
            );
        }
    });
}
