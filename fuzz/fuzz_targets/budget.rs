//! The budget every target runs under: small, so that an input is refused by its
//! estimate long before libFuzzer's memory limit, and what passes that limit is a
//! real runaway.

/// Estimated work steps allowed.
pub const MAX_STEPS: u64 = 20_000_000;
/// Planned memory allowed, in bytes.
pub const MAX_MEMORY: u64 = 64 << 20;

/// A control with this budget (the `ffi` target sets the same budget through the
/// C entry point instead).
#[allow(dead_code)]
pub fn control() -> fairdice::Control {
    fairdice::Control::new()
        .with_max_steps(MAX_STEPS)
        .with_max_memory(MAX_MEMORY)
}
