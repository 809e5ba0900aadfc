//! fairdice's [`Error`] as a Python exception: the classes live in
//! `fairdice/errors.py`; this module hands them the error document (the web API's
//! `{"kind", "category", "message", "rendered", "span", …}`), the command line's
//! full text and its exit status, so every front-end shows the same words.

use fairdice_api::Error;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyAny;

/// The Python exception of `error`, an instance of a `fairdice.FairdiceError`
/// subclass picked by its kind and code.
pub fn raise(py: Python<'_>, error: &Error) -> PyErr {
    static FROM_NATIVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let document = serde_json::to_string(error).unwrap_or_else(|e| {
        // An error document holds strings, numbers and a JSON request only.
        format!(r#"{{"kind": "internal", "category": "internal", "message": "{e}"}}"#)
    });
    let made = FROM_NATIVE
        .get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            let class = py.import("fairdice.errors")?.getattr("FairdiceError")?;
            Ok(class.getattr("_from_native")?.unbind())
        })
        .and_then(|from_native| {
            from_native
                .bind(py)
                .call1((document, error.full_text(), error.exit_status()))
        });
    match made {
        Ok(exception) => PyErr::from_value(exception),
        // The package's own module is missing: still say what went wrong.
        Err(import_failure) => import_failure,
    }
}

/// A library failure (a die that cannot be built, a sum that overflows) as
/// fairdice's exception, classified as the use-case layer classifies it.
pub fn failure(py: Python<'_>, failure: &(impl fairdice::Failure + ?Sized)) -> PyErr {
    raise(py, &Error::from_failure(failure))
}
