//! Exact numbers across the boundary: counts as Python `int`, probabilities and
//! means as `fractions.Fraction`, and Python numbers as exact fractions.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// `fractions.Fraction`.
fn fraction_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    FRACTION.import(py, "fractions", "Fraction")
}

/// `Fraction(numerator, denominator)`.
pub fn fraction<'py>(
    py: Python<'py>,
    numerator: impl IntoPyObject<'py>,
    denominator: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    fraction_class(py)?.call1((numerator, denominator))
}

/// An exact ratio as a `Fraction`.
pub fn ratio<'py>(py: Python<'py>, value: &BigRational) -> PyResult<Bound<'py, PyAny>> {
    fraction(py, value.numer().clone(), value.denom().clone())
}

/// Any Python real number (`int`, `float`, `Fraction`, `Decimal`) as the exact
/// fraction it holds; a float is the binary fraction it stores.
///
/// # Errors
/// `TypeError` or `ValueError` from `Fraction(value)` (a string, a NaN).
pub fn exact(value: &Bound<'_, PyAny>) -> PyResult<BigRational> {
    let py = value.py();
    let fraction = fraction_class(py)?.call1((value,))?;
    let numerator: BigInt = fraction.getattr("numerator")?.extract()?;
    let denominator: BigInt = fraction.getattr("denominator")?.extract()?;
    Ok(BigRational::new(numerator, denominator))
}

/// A count given from Python: a non-negative `int`.
///
/// # Errors
/// `ValueError` for a negative count, `TypeError` for a non-integer.
pub fn count(value: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let signed: BigInt = value.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "a count must be an int, got {}",
            type_name(value)
        ))
    })?;
    BigUint::try_from(signed).map_err(|e| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "a count must be at least 0, got {}",
            e.into_original()
        ))
    })
}

/// An outcome given from Python: an `int` (or `bool`) in the 64-bit range.
///
/// # Errors
/// `TypeError` for a non-integer, `OverflowError` past 64 bits.
pub fn outcome(value: &Bound<'_, PyAny>) -> PyResult<i64> {
    if value.is_instance_of::<pyo3::types::PyInt>() {
        return value.extract();
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "an outcome must be an int, got {}",
        type_name(value)
    )))
}

/// The name of a value's type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".into())
}
