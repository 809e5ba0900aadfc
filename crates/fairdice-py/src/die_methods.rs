//! The Python methods of `fairdice.Die` ([`PyDie`]): the mapping, its statistics and
//! conversions, with arithmetic and comparisons handed to `die_ops.rs`.

use fairdice::BinaryOp;
use fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Zero;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::die_convert::{counts_to_python, die_from_python};
use crate::die_ops;
use crate::numbers::{self, ratio};

use crate::die::{PyDie, same_distribution};

#[pymethods]
impl PyDie {
    /// `Die({1: 1, 2: 1})`, `Die([1, 1, 2, 3])` or `Die(icepool_die)`.
    #[new]
    fn py_new(outcomes: &Bound<'_, PyAny>) -> PyResult<PyDie> {
        Ok(PyDie::plain(die_from_python(outcomes)?))
    }

    /// The expression this die was computed from, or `None`.
    #[getter]
    fn expression(&self) -> Option<String> {
        self.name.clone()
    }

    /// ``{outcome: label}`` for an expression with labels (``as {…}``), else
    /// ``None``.
    #[getter]
    fn labels(&self) -> Option<std::collections::BTreeMap<i64, String>> {
        self.labels.clone()
    }

    /// False when the counts are a Monte Carlo estimate's.
    #[getter]
    fn exact(&self) -> bool {
        self.estimate.is_none()
    }

    /// `{"runs", "seed", "mean_standard_error"}` for an estimate, else `None`.
    #[getter]
    fn estimate<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(info) = &self.estimate else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("runs", info.runs)?;
        dict.set_item("seed", info.seed)?;
        dict.set_item("mean_standard_error", info.mean_standard_error)?;
        Ok(Some(dict))
    }

    /// The outcomes, ascending.
    fn outcomes(&self) -> Vec<i64> {
        self.die.outcomes().to_vec()
    }

    /// The counts, in outcome order (exact `int`s).
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        counts_to_python(&self.die, py)
    }

    /// The counts, in outcome order (icepool's name).
    fn quantities<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        counts_to_python(&self.die, py)
    }

    /// How many equally likely rolls the counts add up to.
    #[getter]
    fn total(&self) -> BigUint {
        self.die.total()
    }

    /// The total of the counts (icepool's name).
    fn denominator(&self) -> BigUint {
        self.die.total()
    }

    /// The count of `outcome` (0 when it cannot occur).
    fn count(&self, outcome: &Bound<'_, PyAny>) -> PyResult<BigUint> {
        Ok(self.die.count(numbers::outcome(outcome)?))
    }

    fn __len__(&self) -> usize {
        self.die.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, self.die.outcomes())?.try_iter()?.into_any())
    }

    fn __contains__(&self, outcome: &Bound<'_, PyAny>) -> bool {
        numbers::outcome(outcome).is_ok_and(|o| self.die.outcomes().binary_search(&o).is_ok())
    }

    fn __getitem__(&self, outcome: &Bound<'_, PyAny>) -> PyResult<BigUint> {
        let count = numbers::outcome(outcome)
            .ok()
            .map(|o| self.die.count(o))
            .filter(|c| !c.is_zero());
        count.ok_or_else(|| PyKeyError::new_err(outcome.clone().unbind()))
    }

    /// The count of `outcome`, or `default` when it cannot occur.
    #[pyo3(signature = (outcome, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.__getitem__(outcome) {
            Ok(count) => Ok(count.into_pyobject(py)?.into_any()),
            Err(_) => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }

    /// The outcomes, as a mapping's keys.
    fn keys(&self) -> Vec<i64> {
        self.outcomes()
    }

    /// The counts, as a mapping's values.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        counts_to_python(&self.die, py)
    }

    /// `(outcome, count)` pairs, ascending.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<(i64, Bound<'py, PyAny>)>> {
        let counts = counts_to_python(&self.die, py)?;
        Ok(self.die.outcomes().iter().copied().zip(counts).collect())
    }

    /// `{outcome: count}`, or `{outcome: Fraction}` with `probabilities=True`.
    #[pyo3(signature = (*, probabilities=false))]
    fn to_dict<'py>(&self, py: Python<'py>, probabilities: bool) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let values = if probabilities {
            self.probabilities(py)?
        } else {
            counts_to_python(&self.die, py)?
        };
        for (outcome, value) in self.die.outcomes().iter().zip(values) {
            dict.set_item(outcome, value)?;
        }
        Ok(dict)
    }

    /// The exact probability of `outcome`.
    fn probability<'py>(
        &self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        ratio(py, &self.die.probability(numbers::outcome(outcome)?))
    }

    /// The exact probability of every outcome, in outcome order.
    fn probabilities<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let total = self.die.total().into_pyobject(py)?;
        counts_to_python(&self.die, py)?
            .into_iter()
            .map(|count| numbers::fraction(py, count, &total))
            .collect()
    }

    /// Exact `P(X >= outcome)`.
    fn at_least<'py>(
        &self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        ratio(py, &self.die.at_least(numbers::outcome(outcome)?))
    }

    /// Exact `P(X <= outcome)`.
    fn at_most<'py>(
        &self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        ratio(py, &self.die.at_most(numbers::outcome(outcome)?))
    }

    /// The exact mean.
    fn mean<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ratio(py, &self.die.mean())
    }

    /// The exact (population) variance.
    fn variance<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        ratio(py, &self.die.variance())
    }

    /// The standard deviation (the nearest float to the square root of the
    /// variance).
    fn sd(&self) -> f64 {
        self.die.standard_deviation()
    }

    /// The standard deviation (icepool's name).
    fn standard_deviation(&self) -> f64 {
        self.die.standard_deviation()
    }

    /// The smallest outcome `x` with `P(X <= x) >= q`, for `q` in [0, 1]: an
    /// `int`, `float` or `Fraction`, compared exactly.
    fn quantile(&self, q: &Bound<'_, PyAny>) -> PyResult<i64> {
        let q = numbers::exact(q)?;
        let zero = BigRational::zero();
        let one = BigRational::from_integer(BigInt::from(1));
        if q < zero || q > one {
            return Err(PyValueError::new_err(format!(
                "a quantile is in [0, 1], got {q}"
            )));
        }
        // Smallest x with cumulative·denominator >= numerator·total.
        let target = BigInt::from(self.die.total()) * q.numer();
        let mut cumulative = BigInt::zero();
        for (outcome, count) in self.die.iter() {
            cumulative += BigInt::from(count);
            if &cumulative * q.denom() >= target {
                return Ok(outcome);
            }
        }
        Ok(self.die.max_outcome())
    }

    /// The median: the smallest outcome `x` with `P(X <= x) >= 1/2`.
    fn median(&self) -> i64 {
        self.die.quantile(0.5).unwrap_or(self.die.max_outcome())
    }

    /// The most likely outcomes (several when they tie), ascending.
    fn mode(&self) -> Vec<i64> {
        self.die.mode()
    }

    /// The smallest outcome.
    fn min_outcome(&self) -> i64 {
        self.die.min_outcome()
    }

    /// The largest outcome.
    fn max_outcome(&self) -> i64 {
        self.die.max_outcome()
    }

    /// The same distribution with its counts divided by their greatest common
    /// divisor.
    fn reduced(&self) -> PyDie {
        PyDie::named(self.die.reduced(), self.name.clone())
    }

    /// True when `other` is the same distribution (the same probabilities; counts
    /// may differ by a common factor).
    fn equals(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let other = die_from_python(other)?;
        Ok(same_distribution(&self.die, &other))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.die.reduced().hash(&mut hasher);
        hasher.finish()
    }

    fn __bool__(&self) -> PyResult<bool> {
        self.truth.ok_or_else(|| {
            PyTypeError::new_err(
                "the truth value of a Die is ambiguous: compare with .equals(), \
                 or ask for a probability such as (die >= 10).probability(1)",
            )
        })
    }

    fn __repr__(&self) -> String {
        if self.die.len() <= 12 {
            let pairs: Vec<String> = self.die.iter().map(|(o, c)| format!("{o}: {c}")).collect();
            return format!("Die({{{}}})", pairs.join(", "));
        }
        format!(
            "<Die {}: {} outcomes {}..{}, total {}{}>",
            self.label(),
            self.die.len(),
            self.die.min_outcome(),
            self.die.max_outcome(),
            self.die.total(),
            if self.estimate.is_some() {
                ", estimated"
            } else {
                ""
            }
        )
    }

    /// The chart of this distribution as an SVG document: bars of `measure`
    /// (`"probability"`, `"at_least"` or `"at_most"`).
    #[pyo3(signature = (measure="probability"))]
    fn chart_svg(&self, measure: &str) -> PyResult<String> {
        crate::charts::distribution_svg(self, measure)
    }

    /// The same distribution as an `icepool.Die` (needs icepool installed).
    fn to_icepool<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        py.import("fairdice._icepool")?
            .getattr("to_icepool")?
            .call1((slf,))
    }

    /// A die from an `icepool.Die` with integer outcomes.
    #[staticmethod]
    fn from_icepool<'py>(die: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = die.py();
        py.import("fairdice._icepool")?
            .getattr("from_icepool")?
            .call1((die,))
    }

    /// The table and chart shown by Jupyter.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        py.import("fairdice._html")?
            .getattr("die_html")?
            .call1((slf,))?
            .extract()
    }

    /// Pickling: the die's counts, its expression and its estimate.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let restore = py.import("fairdice._native")?.getattr("_restore_die")?;
        let this = slf.get();
        let estimate = this
            .estimate
            .as_ref()
            .map(|e| (e.runs, e.seed, e.mean_standard_error));
        let args = (this.to_dict(py, false)?, this.name.clone(), estimate);
        Ok((restore, args).into_pyobject(py)?.into_any())
    }

    // Arithmetic, comparisons and pools: the work is in `die_ops.rs`.

    fn __add__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Add)
    }

    fn __radd__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(other, slf.as_any(), BinaryOp::Add)
    }

    fn __sub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Sub)
    }

    fn __rsub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(other, slf.as_any(), BinaryOp::Sub)
    }

    fn __mul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Mul)
    }

    fn __rmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(other, slf.as_any(), BinaryOp::Mul)
    }

    fn __floordiv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Div)
    }

    fn __rfloordiv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(other, slf.as_any(), BinaryOp::Div)
    }

    fn __neg__(slf: &Bound<'_, Self>) -> PyResult<PyDie> {
        die_ops::neg(slf)
    }

    fn __pos__(slf: &Bound<'_, Self>) -> PyDie {
        die_ops::pos(slf)
    }

    fn __abs__(slf: &Bound<'_, Self>) -> PyResult<PyDie> {
        die_ops::abs(slf)
    }

    fn __rmatmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::rmatmul(slf, other)
    }

    fn __matmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::matmul(slf, other)
    }

    fn __richcmp__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        die_ops::richcmp(slf, other, op)
    }

    /// The larger of this die and `other` (a die or an int), rolled independently.
    fn max<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Max)
    }

    /// The smaller of this die and `other`, rolled independently.
    fn min<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        die_ops::binary(slf.as_any(), other, BinaryOp::Min)
    }

    /// Roll this die `rolls` times and sum the `keep` highest (`4d6kh3` is
    /// `d6.highest(4, 3)`).
    #[pyo3(signature = (rolls, keep=1))]
    fn highest(slf: &Bound<'_, Self>, rolls: u64, keep: u64) -> PyResult<PyDie> {
        die_ops::pool_sum(slf, rolls, keep, true)
    }

    /// Roll this die `rolls` times and sum the `keep` lowest.
    #[pyo3(signature = (rolls, keep=1))]
    fn lowest(slf: &Bound<'_, Self>, rolls: u64, keep: u64) -> PyResult<PyDie> {
        die_ops::pool_sum(slf, rolls, keep, false)
    }

    /// The distribution of `f(x)`: `f` takes an outcome and returns an `int`.
    fn map(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<PyDie> {
        die_ops::map(slf, f)
    }

    /// Reroll the outcomes in `which` (an iterable of outcomes or a predicate)
    /// until the die shows another; with `once=True`, reroll once and keep the
    /// second roll.
    #[pyo3(signature = (which, *, once=false))]
    fn reroll(slf: &Bound<'_, Self>, which: &Bound<'_, PyAny>, once: bool) -> PyResult<PyDie> {
        die_ops::reroll(slf, which, once)
    }

    /// Explode: when a roll shows an outcome in `which` (default: the highest),
    /// roll again and add, at most `depth` extra rolls.
    #[pyo3(signature = (which=None, *, depth=DEFAULT_EXPLODE_DEPTH))]
    fn explode(
        slf: &Bound<'_, Self>,
        which: Option<&Bound<'_, PyAny>>,
        depth: u32,
    ) -> PyResult<PyDie> {
        die_ops::explode(slf, which, depth)
    }
}
