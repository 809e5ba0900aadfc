//! `fairdice.Randomizer`: a fair randomizer and its seeded generator as a Python
//! iterator, saved to and restored from the session document the command line
//! writes (`fairdice sample --save`, `--resume`).
//!
//! It opens its [`Session`] as every front-end does
//! ([`fairdice_api::randomizer::open_session`]: the `sample` use case's sources,
//! limits and errors), so it draws what `fairdice sample SPEC --seed S` draws: the
//! same seed gives the same sequence in every front-end and on every platform.

use fairdice::Control;
use fairdice::randomizer::{Randomizer, Session, StateSpace, has_labels};
use fairdice_api::randomizer::{Source, open_session};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::raise;

/// Draws between two looks for Ctrl-C in a long `take`.
const DRAWS_PER_CHECK: u64 = 65_536;

/// A fair randomizer with its seeded generator: iterate it to draw outcomes.
#[pyclass(module = "fairdice", name = "Randomizer")]
pub struct PyRandomizer {
    session: Session,
    seed: Option<u64>,
}

#[pymethods]
impl PyRandomizer {
    /// The randomizer of `spec` (`"deck(values=6)"`, `"fair(base=2d6,
    /// tightness=1)"`, `"tgm2"`, …) drawing with the generator seeded by `seed`;
    /// without a seed one is picked from the clock and kept in `.seed`, so the
    /// draws can be repeated.
    #[new]
    #[pyo3(signature = (spec, seed=None))]
    fn new(py: Python<'_>, spec: &str, seed: Option<u64>) -> PyResult<PyRandomizer> {
        let seed = seed.unwrap_or_else(clock_seed);
        let session = open_session(&Source::Spec(spec.to_string()), seed, &Control::new())
            .map_err(|e| raise(py, &e))?;
        Ok(PyRandomizer {
            session,
            seed: Some(seed),
        })
    }

    /// A randomizer continuing a saved session: the JSON document of
    /// [`to_json`](Self::to_json) or `fairdice sample --save`.
    #[staticmethod]
    fn from_json(py: Python<'_>, document: &str) -> PyResult<PyRandomizer> {
        // The seed is unused: a saved session carries its generator.
        let session = open_session(&Source::Session(document.to_string()), 0, &Control::new())
            .map_err(|e| raise(py, &e))?;
        Ok(PyRandomizer {
            session,
            seed: None,
        })
    }

    /// The session as its saved JSON document (spec, state, generator, draws and
    /// a check), which `from_json` and `fairdice sample --resume` continue.
    fn to_json(&self) -> String {
        self.session.to_json()
    }

    /// The canonical spec.
    #[getter]
    fn spec(&self) -> String {
        self.session.randomizer().spec()
    }

    /// The seed the generator started from (`None` for a restored session).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Outcomes drawn in this session so far, across saves.
    #[getter]
    fn draws(&self) -> u64 {
        self.session.draws()
    }

    /// The randomizer's state (as `fairdice state show` prints it).
    #[getter]
    fn state(&self) -> Vec<i64> {
        self.session.randomizer().state_key()
    }

    /// The outcomes it draws, ascending.
    #[getter]
    fn outcomes(&self) -> Vec<i64> {
        self.session.randomizer().outcomes().to_vec()
    }

    /// The names of the outcomes (`["I", "J", …]`, `["fail", "success"]`) for
    /// randomizers that name them, else `None`.
    #[getter]
    fn labels(&self) -> Option<Vec<String>> {
        let randomizer = self.session.randomizer();
        has_labels(randomizer).then(|| {
            (0..randomizer.outcomes().len())
                .map(|i| randomizer.label(i))
                .collect()
        })
    }

    /// The probability of each outcome at the next draw, `{outcome: float}`.
    fn next_distribution<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let randomizer = self.session.randomizer();
        let dict = PyDict::new(py);
        for (outcome, p) in randomizer
            .outcomes()
            .iter()
            .zip(randomizer.next_distribution())
        {
            dict.set_item(outcome, p)?;
        }
        Ok(dict)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> i64 {
        self.session.draw_outcome()
    }

    /// The next `count` outcomes.
    fn take(&mut self, py: Python<'_>, count: u64) -> PyResult<Vec<i64>> {
        let mut drawn = Vec::with_capacity(count.min(1 << 20) as usize);
        for i in 0..count {
            if i % DRAWS_PER_CHECK == DRAWS_PER_CHECK - 1 {
                py.check_signals()?;
            }
            drawn.push(self.session.draw_outcome());
        }
        Ok(drawn)
    }

    /// An independent copy: the same state and generator, so it draws the same
    /// sequence from here on.
    fn copy(&self) -> PyRandomizer {
        PyRandomizer {
            session: self.session.clone(),
            seed: self.seed,
        }
    }

    fn __copy__(&self) -> PyRandomizer {
        self.copy()
    }

    fn __repr__(&self) -> String {
        let seed = self.seed.map(|s| format!(", seed={s}")).unwrap_or_default();
        format!(
            "Randomizer({:?}{seed}) after {} draws",
            self.spec(),
            self.session.draws()
        )
    }
}

/// A seed from the clock and the process id, as the command line picks one.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}
