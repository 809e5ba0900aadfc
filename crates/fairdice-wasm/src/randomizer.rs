//! [`Randomizer`]: a randomizer kept inside the module and drawn one outcome at
//! a time, for game loops (the npm package's `randomizer()`). Its state never
//! crosses the boundary as JSON except when saved.

use fairdice::Control;
use fairdice::randomizer::report::NextReport;
use fairdice::randomizer::{Randomizer as _, Session};
use fairdice_api::randomizer::{Source, open_session};
use wasm_bindgen::prelude::*;

/// A randomizer and its generator, drawn from without leaving the module.
#[wasm_bindgen]
pub struct Randomizer {
    session: Session,
}

#[wasm_bindgen]
impl Randomizer {
    /// Opens a randomizer: `source` is `{"spec": "…"}` (seeded by `seed`) or
    /// `{"session": "…"}` (a saved session, continued). Throws the use-case
    /// layer's error document, as JSON text, when the source does not open.
    pub fn open(source: &str, seed: u64) -> Result<Randomizer, String> {
        crate::panic::install();
        let source: Source = serde_json::from_str(source).map_err(|e| {
            fairdice_api::page::error_document(&fairdice_api::Error::bad_request(format!(
                "not a randomizer source: {e}"
            )))
        })?;
        open_session(&source, seed, &Control::new())
            .map(|session| Randomizer { session })
            .map_err(|error| fairdice_api::page::error_document(&error))
    }

    /// Draws the next outcome: its index in [`Randomizer::values`].
    pub fn next_index(&mut self) -> usize {
        self.session.draw()
    }

    /// Draws `count` outcomes: their indices.
    pub fn take_indices(&mut self, count: usize) -> Vec<u32> {
        (0..count)
            .map(|_| u32::try_from(self.session.draw()).unwrap_or(u32::MAX))
            .collect()
    }

    /// The outcomes' values, in index order.
    pub fn values(&self) -> Vec<f64> {
        // Outcome values are small integers; a double holds them exactly.
        #[allow(clippy::cast_precision_loss)]
        self.session
            .randomizer()
            .outcomes()
            .iter()
            .map(|&v| v as f64)
            .collect()
    }

    /// The outcomes' names, in index order (a value's name is its digits).
    pub fn labels(&self) -> Vec<String> {
        let randomizer = self.session.randomizer();
        (0..randomizer.outcomes().len())
            .map(|i| randomizer.label(i))
            .collect()
    }

    /// Whether the outcomes have names of their own (pieces, fail/success).
    pub fn labelled(&self) -> bool {
        fairdice::randomizer::report::has_labels(self.session.randomizer())
    }

    /// The randomizer's spec, in its canonical form.
    pub fn spec(&self) -> String {
        self.session.randomizer().spec()
    }

    /// How many outcomes this session has drawn (across saves).
    pub fn draws(&self) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let draws = self.session.draws() as f64;
        draws
    }

    /// The session as the text `fairdice sample --save` writes.
    pub fn save(&self) -> String {
        self.session.to_json()
    }

    /// The distribution of the next outcome: the `fairdice next --json` document.
    pub fn next_distribution(&self) -> String {
        NextReport::new(self.session.randomizer(), &[] as &[&str]).to_json()
    }
}
