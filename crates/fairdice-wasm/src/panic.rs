//! What a panic said: a panic in WebAssembly traps the call that hit it, and the
//! JavaScript side sees only `RuntimeError: unreachable`. The hook keeps the
//! message so the caller can report it before discarding the instance.

use std::cell::RefCell;
use std::sync::Once;

thread_local! {
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the hook (once).
pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = info.to_string();
            LAST.with(|last| {
                if let Ok(mut last) = last.try_borrow_mut() {
                    *last = Some(message);
                }
            });
        }));
    });
}

/// The message of the last panic, if any.
pub(crate) fn last_message() -> Option<String> {
    LAST.with(|last| last.try_borrow().ok().and_then(|m| m.clone()))
}
