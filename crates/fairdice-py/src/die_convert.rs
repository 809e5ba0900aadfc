//! Dice to and from Python values: a die from a mapping of outcome to count, an
//! iterable of faces or an icepool die; counts as Python `int`s; pickling.

use fairdice::Die;
use num_bigint::BigUint;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;

use crate::compute;
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
    // A sized input is priced before it is read (`range(10**9)`, or one too long
    // for `len`); any other is counted as it is read, which Ctrl-C also stops.
    if value.hasattr("__len__")? {
        match value.len() {
            Ok(len) => plan_outcomes(py, len as u64)?,
            Err(error) if error.is_instance_of::<PyOverflowError>(py) => {
                plan_outcomes(py, u64::MAX)?
            }
            Err(error) => return Err(error),
        }
    }
    let mut read = 0u64;
    let mut counted = |py: Python<'_>| -> PyResult<()> {
        read += 1;
        if read % CHECK_EVERY == 0 {
            py.check_signals()?;
            plan_outcomes(py, read)?;
        }
        Ok(())
    };
    let pairs: Vec<(i64, BigUint)> = if value.hasattr("items")? {
        value
            .call_method0("items")?
            .try_iter()?
            .map(|item| {
                counted(py)?;
                let (outcome, count): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
                Ok((numbers::outcome(&outcome)?, numbers::count(&count)?))
            })
            .collect::<PyResult<_>>()?
    } else if let Ok(iter) = value.try_iter() {
        iter.map(|face| {
            counted(py)?;
            Ok((numbers::outcome(&face?)?, BigUint::from(1u8)))
        })
        .collect::<PyResult<_>>()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "a Die is built from a mapping of outcome to count or an iterable of faces, got {}",
            numbers::type_name(value)
        )));
    };
    Die::new(pairs).map_err(|e| error::failure(py, &e))
}

/// Faces read from an unsized iterable between looks at Ctrl-C and the size.
const CHECK_EVERY: u64 = 1 << 16;

/// Memory planned for each outcome read from Python while the die is built: the
/// pair read (an outcome and a big count) and the die made from it.
const BYTES_PER_READ_OUTCOME: u64 = 64;

/// Refuses a die of `outcomes` outcomes past the default memory limit, as
/// `TooLargeError` with the memory it would hold.
fn plan_outcomes(py: Python<'_>, outcomes: u64) -> PyResult<()> {
    compute::control(None)
        .reserve(outcomes.saturating_mul(BYTES_PER_READ_OUTCOME))
        .map_err(|stop| error::failure(py, &stop))
}

/// Memory of each face of a fair die: its outcome and its one-word count.
const BYTES_PER_FAIR_FACE: u64 = 16;

/// `d(sides)` for `sides >= 1` (the package checks the sign): a fair die with
/// faces `1..=sides`, priced before it is built, so `d(10**9)` is refused with
/// the memory it would hold instead of being allocated.
#[pyfunction]
pub fn _standard(py: Python<'_>, sides: BigUint) -> PyResult<PyDie> {
    let sides = u64::try_from(&sides).unwrap_or(u64::MAX);
    compute::control(None)
        .reserve(sides.saturating_mul(BYTES_PER_FAIR_FACE))
        .map_err(|stop| error::failure(py, &stop))?;
    let die = Die::standard(sides).map_err(|e| error::failure(py, &e))?;
    Ok(PyDie::plain(die))
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
