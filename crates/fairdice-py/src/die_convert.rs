//! Dice to and from Python values: a die from a mapping of outcome to count, an
//! iterable of faces or an icepool die; counts as Python `int`s; pickling.

use fairdice::Die;
use num_bigint::BigUint;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::die::{EstimateInfo, PyDie};
use crate::error;
use crate::numbers;

/// Builds a Rust die from what Python gives: a `Die`, a mapping of outcome to
/// count (an `icepool.Die` is one), or an iterable of faces.
pub fn die_from_python(value: &Bound<'_, PyAny>) -> PyResult<Die> {
    let py = value.py();
    if let Ok(die) = value.cast::<PyDie>() {
        return Ok(die.get().die.as_ref().clone());
    }
    let pairs: Vec<(i64, BigUint)> = if value.hasattr("items")? {
        value
            .call_method0("items")?
            .try_iter()?
            .map(|item| {
                let (outcome, count): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
                Ok((numbers::outcome(&outcome)?, numbers::count(&count)?))
            })
            .collect::<PyResult<_>>()?
    } else if let Ok(iter) = value.try_iter() {
        iter.map(|face| Ok((numbers::outcome(&face?)?, BigUint::from(1u8))))
            .collect::<PyResult<_>>()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "a Die is built from a mapping of outcome to count or an iterable of faces, got {}",
            numbers::type_name(value)
        )));
    };
    Die::new(pairs).map_err(|e| error::failure(py, &e))
}

/// The count of every outcome of `die` as a Python `int`, in outcome order
/// (machine words when the total fits one).
pub fn counts_to_python<'py>(die: &Die, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    match die.counts_u64() {
        Some(counts) => counts
            .iter()
            .map(|&c| Ok(c.into_pyobject(py)?.into_any()))
            .collect(),
        None => die
            .iter()
            .map(|(_, c)| Ok(c.into_pyobject(py)?.into_any()))
            .collect(),
    }
}

/// Rebuilds a pickled die.
#[pyfunction]
#[pyo3(signature = (counts, name, estimate))]
pub fn _restore_die(
    counts: &Bound<'_, PyAny>,
    name: Option<String>,
    estimate: Option<(u64, u64, f64)>,
) -> PyResult<PyDie> {
    let mut die = PyDie::named(die_from_python(counts)?, name);
    die.estimate = estimate.map(|(runs, seed, mean_standard_error)| EstimateInfo {
        runs,
        seed,
        mean_standard_error,
    });
    Ok(die)
}
