//! Arithmetic and comparisons between dice, as icepool users expect: `d6 + d6`,
//! `2 * d6`, `3 @ d6` (three d6 summed), `d4 @ d6` (a d4's worth of d6), `-d6`,
//! `d20 >= 15` (a die of 0 and 1), keep-highest pools, rerolls and explosions.
//!
//! Every operation between two independent dice goes through the library's
//! `combine` under a [`Control`](fairdice::Control); one that may take long runs on
//! a worker with the GIL released and stops at Ctrl-C (see `compute.rs`).

use std::sync::Arc;

use fairdice::dice::evaluator::{SumOf, evaluate_die};
use fairdice::{BinaryOp, Die, DieError, Pool};
use fairdice_api::Error;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::compute;
use crate::die::{PyDie, same_distribution};
use crate::error;
use crate::numbers;

/// Work (pairs of outcomes combined, or the pool estimate below) up to which an
/// operation runs on the calling thread: under a millisecond, where a hand-off to
/// a worker would cost tens of microseconds and Ctrl-C has nothing to interrupt.
const INLINE_PAIRS: usize = 200_000;

/// The other operand of a binary operation: a die or an `int` (a constant die);
/// `None` for anything else, so Python can try the reflected operation.
pub fn operand(other: &Bound<'_, PyAny>) -> PyResult<Option<Arc<Die>>> {
    if let Ok(die) = other.cast::<PyDie>() {
        return Ok(Some(die.get().die.clone()));
    }
    if other.is_instance_of::<PyInt>() {
        return Ok(Some(Arc::new(Die::constant(numbers::outcome(other)?))));
    }
    Ok(None)
}

/// A name for the result of `a op b`, when both sides have one.
fn joined(a: &Bound<'_, PyAny>, symbol: &str, b: &Bound<'_, PyAny>) -> Option<String> {
    let name = |side: &Bound<'_, PyAny>| -> Option<String> {
        match side.cast::<PyDie>() {
            Ok(die) => die.get().name.clone(),
            Err(_) => side.extract::<i64>().ok().map(|v| v.to_string()),
        }
    };
    Some(format!("{} {symbol} {}", name(a)?, name(b)?))
}

/// Runs `job` here when it is small, else on a worker.
fn run_sized(
    py: Python<'_>,
    pairs: usize,
    job: impl FnOnce(&fairdice::Control) -> Result<Die, Error> + Send + 'static,
) -> PyResult<Die> {
    let control = compute::control(None);
    if pairs <= INLINE_PAIRS {
        compute::run_here(py, &control, job)
    } else {
        compute::run(py, &control, job)
    }
}

fn failure(error: &DieError) -> Error {
    Error::from_failure(error)
}

/// `a op b` as a Python object (`a` or `b` is a die): a die, or `NotImplemented`.
pub fn binary<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    op: BinaryOp,
) -> PyResult<Bound<'py, PyAny>> {
    let py = a.py();
    let (Some(left), Some(right)) = (operand(a)?, operand(b)?) else {
        return Ok(py.NotImplemented().into_bound(py));
    };
    let pairs = left.len().saturating_mul(right.len());
    let die = run_sized(py, pairs, move |control| {
        left.combine(&right, op, control).map_err(|e| failure(&e))
    })?;
    let name = joined(a, op.symbol(), b);
    Ok(Bound::new(py, PyDie::named(die, name))?.into_any())
}

/// A die computed from this one by `job`, on a worker when the die is large.
fn unary(
    slf: &Bound<'_, PyDie>,
    job: impl FnOnce(&Die, &fairdice::Control) -> Result<Die, DieError> + Send + 'static,
    pairs: usize,
) -> PyResult<PyDie> {
    let die = slf.get().die.clone();
    let result = run_sized(slf.py(), pairs, move |control| {
        job(&die, control).map_err(|e| failure(&e))
    })?;
    Ok(PyDie::plain(result))
}

/// Outcomes to reroll or explode: an iterable of outcomes or a predicate.
enum Which {
    Outcomes(Vec<i64>),
    Predicate(Vec<bool>),
}

impl Which {
    fn read(die: &Die, which: &Bound<'_, PyAny>) -> PyResult<Which> {
        if which.is_callable() {
            let flags = die
                .outcomes()
                .iter()
                .map(|&o| which.call1((o,))?.is_truthy())
                .collect::<PyResult<Vec<bool>>>()?;
            return Ok(Which::Predicate(flags));
        }
        let outcomes = which
            .try_iter()?
            .map(|o| numbers::outcome(&o?))
            .collect::<PyResult<Vec<i64>>>()?;
        Ok(Which::Outcomes(outcomes))
    }

    /// The condition over `die`'s outcomes.
    fn condition(self, die: &Die) -> impl Fn(i64) -> bool + Send + 'static {
        let matched: Vec<i64> = match self {
            Which::Outcomes(outcomes) => outcomes,
            Which::Predicate(flags) => die
                .outcomes()
                .iter()
                .zip(flags)
                .filter(|(_, f)| *f)
                .map(|(&o, _)| o)
                .collect(),
        };
        move |o| matched.contains(&o)
    }
}

pub fn neg(slf: &Bound<'_, PyDie>) -> PyResult<PyDie> {
    let pairs = slf.get().die.len();
    unary(slf, |die, _| die.negate(), pairs)
}

pub fn pos(slf: &Bound<'_, PyDie>) -> PyDie {
    let this = slf.get();
    PyDie::named(this.die.as_ref().clone(), this.name.clone())
}

pub fn abs(slf: &Bound<'_, PyDie>) -> PyResult<PyDie> {
    let pairs = slf.get().die.len();
    unary(
        slf,
        |die, _| die.try_map(|o| o.checked_abs().ok_or(DieError::Overflow)),
        pairs,
    )
}

/// `n @ die`: the sum of `n` rolls of this die.
pub fn rmatmul<'py>(
    slf: &Bound<'py, PyDie>,
    other: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    if let Ok(count) = other.cast::<PyDie>() {
        return matmul(count, slf.as_any());
    }
    if !other.is_instance_of::<PyInt>() {
        return Ok(py.NotImplemented().into_bound(py));
    }
    let n: i64 = other.extract()?;
    let Ok(n) = u64::try_from(n) else {
        return Err(error::failure(py, &DieError::NegativeDiceCount(n)));
    };
    let die = slf.get().die.clone();
    let pairs = (n as usize)
        .saturating_mul(die.len())
        .saturating_mul(die.len());
    let sum = run_sized(py, pairs, move |control| {
        die.repeat_sum(n, control).map_err(|e| failure(&e))
    })?;
    let name = slf
        .get()
        .name
        .as_ref()
        .map(|name| format!("{n} @ ({name})"));
    Ok(Bound::new(py, PyDie::named(sum, name))?.into_any())
}

/// `count @ die`: roll `count` (this die), then sum that many rolls of `die`
/// (AnyDice's and the notation's `(d4)d6`).
pub fn matmul<'py>(
    slf: &Bound<'py, PyDie>,
    other: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let Some(summed) = operand(other)? else {
        return Ok(py.NotImplemented().into_bound(py));
    };
    let count = slf.get().die.clone();
    let pairs = (count.max_outcome().max(0) as usize)
        .saturating_mul(summed.len())
        .saturating_mul(summed.len());
    let die = run_sized(py, pairs, move |control| {
        summed
            .repeat_sum_random(&count, control)
            .map_err(|e| failure(&e))
    })?;
    let name = joined(slf.as_any(), "@", other);
    Ok(Bound::new(py, PyDie::named(die, name))?.into_any())
}

/// `<`, `<=`, `>`, `>=`: a die of 1 (true) and 0 (false). `==` and `!=`: the
/// same, whose truth value says whether the two dice are the same
/// distribution.
pub fn richcmp<'py>(
    slf: &Bound<'py, PyDie>,
    other: &Bound<'py, PyAny>,
    op: CompareOp,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let Some(right) = operand(other)? else {
        return Ok(py.NotImplemented().into_bound(py));
    };
    let binary_op = match op {
        CompareOp::Lt => BinaryOp::Lt,
        CompareOp::Le => BinaryOp::Le,
        CompareOp::Gt => BinaryOp::Gt,
        CompareOp::Ge => BinaryOp::Ge,
        CompareOp::Eq => BinaryOp::Eq,
        CompareOp::Ne => BinaryOp::Ne,
    };
    let left = slf.get().die.clone();
    let truth = match op {
        CompareOp::Eq => Some(same_distribution(&left, &right)),
        CompareOp::Ne => Some(!same_distribution(&left, &right)),
        _ => None,
    };
    let pairs = left.len().saturating_mul(right.len());
    let die = run_sized(py, pairs, move |control| {
        left.combine(&right, binary_op, control)
            .map_err(|e| failure(&e))
    })?;
    let mut result = PyDie::named(die, joined(slf.as_any(), binary_op.symbol(), other));
    result.truth = truth;
    Ok(Bound::new(py, result)?.into_any())
}

/// The distribution of `f(x)`: `f` takes an outcome and returns an `int`.
pub fn map(slf: &Bound<'_, PyDie>, f: &Bound<'_, PyAny>) -> PyResult<PyDie> {
    let die = &slf.get().die;
    let images = die
        .outcomes()
        .iter()
        .map(|&o| numbers::outcome(&f.call1((o,))?))
        .collect::<PyResult<Vec<i64>>>()?;
    let pairs = images.into_iter().zip(die.iter().map(|(_, c)| c));
    Ok(PyDie::plain(
        Die::new(pairs).map_err(|e| error::failure(slf.py(), &e))?,
    ))
}

/// Reroll the outcomes in `which` (an iterable of outcomes or a predicate)
/// until the die shows another; with `once=True`, reroll once and keep the
/// second roll.
pub fn reroll(slf: &Bound<'_, PyDie>, which: &Bound<'_, PyAny>, once: bool) -> PyResult<PyDie> {
    let die = &slf.get().die;
    let condition = Which::read(die, which)?.condition(die);
    let rerolled = if once {
        Ok(die.reroll_once(condition))
    } else {
        die.reroll(condition)
    };
    Ok(PyDie::plain(
        rerolled.map_err(|e| error::failure(slf.py(), &e))?,
    ))
}

/// Explode: when a roll shows an outcome in `which` (default: the highest),
/// roll again and add, at most `depth` extra rolls.
pub fn explode(
    slf: &Bound<'_, PyDie>,
    which: Option<&Bound<'_, PyAny>>,
    depth: u32,
) -> PyResult<PyDie> {
    let die = slf.get().die.clone();
    let condition = match which {
        Some(which) => Which::read(&die, which)?.condition(&die),
        None => Which::Outcomes(vec![die.max_outcome()]).condition(&die),
    };
    let pairs = (depth as usize)
        .saturating_mul(die.len())
        .saturating_mul(die.len())
        .saturating_mul(depth as usize);
    unary(
        slf,
        move |die, control| die.explode(condition, depth, control),
        pairs,
    )
}

/// The sum of the `keep` highest (or lowest) of `rolls` rolls.
pub fn pool_sum(slf: &Bound<'_, PyDie>, rolls: u64, keep: u64, highest: bool) -> PyResult<PyDie> {
    let py = slf.py();
    if keep > rolls {
        return Err(PyValueError::new_err(format!(
            "cannot keep {keep} of {rolls} rolls"
        )));
    }
    let die = slf.get().die.clone();
    let pairs = (rolls as usize)
        .saturating_mul(die.len())
        .saturating_mul(keep.max(1) as usize)
        .saturating_mul(64);
    let summed = run_sized(py, pairs, move |control| {
        let pool = Pool::new(&die, rolls).map_err(|e| failure(&e))?;
        let pool = if highest {
            pool.keep_highest(keep)
        } else {
            pool.keep_lowest(keep)
        };
        evaluate_die(&SumOf::identity(), &[&pool], control).map_err(|e| failure(&e))
    })?;
    let side = if highest { "highest" } else { "lowest" };
    let name = slf
        .get()
        .name
        .as_ref()
        .map(|n| format!("({n}).{side}({rolls}, {keep})"));
    Ok(PyDie::named(summed, name))
}
