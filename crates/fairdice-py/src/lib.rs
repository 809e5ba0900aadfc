//! # fairdice-py
//!
//! The extension module `fairdice._native` of the Python package `fairdice`
//! (`python/fairdice/`): the `Die` type with exact counts and
//! `Fraction` probabilities, dice arithmetic, the `Randomizer`
//! iterator, and every use case of `fairdice-api` by name. The Python modules around
//! it add the typed report classes, notebook HTML, the errors and icepool
//! conversion.
//!
//! # Design decisions
//! - A front-end like the command line and the web app: requests are the use-case
//!   layer's, so limits, exact against Monte Carlo and error kinds are decided
//!   there, once. Only what a Python user holds and combines (a die, a randomizer
//!   being drawn from) is a native object over the library's own types.
//! - Long computations run with the GIL released on a worker while the caller
//!   polls for Ctrl-C and pulls the `Control`'s cancel switch (`compute.rs`).
//! - One wheel per platform for CPython 3.11 and newer, on the stable ABI.
#![deny(missing_docs)]
// A fairdice error carries its message, rendering and suggestion by value.
#![allow(clippy::result_large_err)]

mod charts;
mod compute;
mod die;
mod die_convert;
mod die_methods;
mod die_ops;
mod error;
mod numbers;
mod randomizer;
mod use_cases;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    compute::warm_up();
    module.add_class::<die::PyDie>()?;
    module.add_class::<randomizer::PyRandomizer>()?;
    module.add_class::<use_cases::NativeReport>()?;
    module.add_function(wrap_pyfunction!(use_cases::dist, module)?)?;
    module.add_function(wrap_pyfunction!(use_cases::run, module)?)?;
    module.add_function(wrap_pyfunction!(use_cases::use_cases, module)?)?;
    module.add_function(wrap_pyfunction!(die_convert::_restore_die, module)?)?;
    module.add_function(wrap_pyfunction!(die_convert::_standard, module)?)?;
    module.add("DEFAULT_SEED", fairdice_api::DEFAULT_SEED)?;
    module.add(
        "DEFAULT_EXPLODE_DEPTH",
        fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH,
    )?;
    Ok(())
}
