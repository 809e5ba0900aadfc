//! [`Session`]: a randomizer with its own generator, saved to and restored from
//! JSON (with the `serde` feature) so a game continues exactly where it stopped.
//!
//! A saved session looks like this (format version 2):
//! ```json
//! {
//!   "format": "fairdice-randomizer",
//!   "version": 2,
//!   "spec": "deck(values=6, copies=1, refill_below=1, refill=top-up)",
//!   "state": [1, 0, 1, 1, 0, 1, …],
//!   "generator": { "algorithm": "xoshiro256++", "state": ["8f2c…", "…", "…", "…"] },
//!   "draws": 2,
//!   "check": "crc32:5d0e31a7"
//! }
//! ```
//! `state` is the randomizer's [`save_state`](super::StateSpace::save_state); the
//! generator's four 64-bit words are written as 16 hex digits each, because
//! JavaScript (the web UI) reads JSON numbers as doubles and would round them.
//! `check` is the CRC-32 of the document's canonical form (see [`CHECK_ALGORITHM`]).
//! A session is also `Serialize` and `Deserialize`, so a game embeds it in its own
//! save struct, in any serde format; deserializing runs every check below.
//!
//! # Design decisions
//! - The spec is stored rather than the randomizer's fields: on load it is parsed
//!   and built again with every check a user's spec gets, and then the state is
//!   restored with the randomizer's own consistency and range checks. A file from
//!   a newer or older format, for another randomizer, or edited into an
//!   impossible state is rejected with a message saying which.
//! - Consistency checks cannot see an edit that leaves a *possible* session (a
//!   generator digit changed, a compatible spec swapped, a deck's drawn cards
//!   cut): the check catches those. It is CRC-32, computed over the values (not
//!   the text), so reformatting a file or embedding the session in another serde
//!   format keeps it valid, while any change of up to 32 bits in a row of the
//!   canonical form is always detected and any other with odds 1 in 4·10⁹ of
//!   passing. It guards against corruption and hand edits, not against someone
//!   who recomputes it: a forged session is still only ever a *valid* one.
//! - Version 1 files (no check) are still read, with every other check, so games
//!   saved before the check are not lost; saving writes version 2.
//! - Every number is checked against its range before it is used to size
//!   anything: counts, leads, the draws counter, the spec's length; and a whole
//!   saved session is at most [`MAX_SESSION_BYTES`], so a reader may refuse
//!   anything longer unread.

use thiserror::Error;

use super::{
    AnyRandomizer, MAX_MACHINE_BYTES, MAX_OUTCOMES, MAX_SPEC_BYTES, Randomizer, RestoreError, Spec,
    SpecError,
};
use crate::rng::Generator;

/// The `format` tag of a saved session.
pub const FORMAT: &str = "fairdice-randomizer";

/// The format version this release writes; it also reads version 1 (no check).
pub const VERSION: u64 = 2;

/// The generator algorithm named in saved sessions.
pub const GENERATOR_ALGORITHM: &str = "xoshiro256++";

/// The algorithm of a saved session's `check`: `crc32:` and the CRC-32 (IEEE, as
/// in PNG and gzip) of the canonical form, 8 lowercase hex digits. The canonical
/// form is the compact JSON of the other fields in the order shown above, the
/// generator words as 16 lowercase hex digits.
pub const CHECK_ALGORITHM: &str = "crc32";

/// The most draws a session counts: 2⁵³ − 1, the largest integer JavaScript reads
/// exactly (the web UI reads session files). The counter stops there.
pub const MAX_DRAWS: u64 = (1 << 53) - 1;

/// The most entries a saved state has: one per outcome of the largest randomizer
/// ([`MAX_OUTCOMES`]); a listed deck (at most 2¹⁶ cards) saves at most 2¹⁷.
const MAX_STATE_ENTRIES: usize = MAX_OUTCOMES;

/// The most bytes a state entry takes in a saved file: four spaces of indent,
/// an `i64` (20 characters at most), a comma and a newline.
const STATE_ENTRY_BYTES: usize = 4 + 20 + 2;

/// Every byte of a saved session but the spec and the state, with room to spare
/// (the fields, the generator's 64 hex digits, the draws, the check: about 330).
const FIXED_BYTES: usize = 1024;

/// The longest a saved session can be (about 26 MiB): the largest state
/// ([`MAX_OUTCOMES`] entries of up to 20 characters, one per line), the longest
/// spec with every byte escaped (6 bytes each), and the fixed fields. A reader
/// may refuse a longer file unread, as the command line does.
pub const MAX_SESSION_BYTES: usize =
    MAX_STATE_ENTRIES * STATE_ENTRY_BYTES + 6 * LONGEST_SPEC + FIXED_BYTES;

/// The longest spec a session holds: a spec string or a machine document.
const LONGEST_SPEC: usize = if MAX_SPEC_BYTES > MAX_MACHINE_BYTES {
    MAX_SPEC_BYTES
} else {
    MAX_MACHINE_BYTES
};

/// Why a saved session could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    /// Not JSON, or JSON missing a field or holding a wrong type.
    #[error("not a saved fairdice randomizer: {0}")]
    Malformed(String),
    /// A JSON document of another kind.
    #[error("the file's format is `{found}`, expected `{FORMAT}`")]
    WrongFormat {
        /// The format tag found.
        found: String,
    },
    /// Another format version.
    #[error("the file is format version {found}, written by {} fairdice; this one reads versions 1 and {VERSION}", if *.found > VERSION { "a newer" } else { "an older" })]
    Version {
        /// The version found.
        found: u64,
    },
    /// The content does not match its check: corrupted or edited by hand.
    #[error(
        "the session was changed after it was saved (checksum mismatch: it records {recorded}, its content gives {computed})"
    )]
    Checksum {
        /// The check written in the session.
        recorded: String,
        /// The check of the content as read.
        computed: String,
    },
    /// A field holds a number (or text) outside its accepted range.
    #[error("`{field}` is {found}; accepted: {accepted}")]
    OutOfRange {
        /// The field, e.g. `draws`.
        field: &'static str,
        /// What it holds.
        found: String,
        /// The accepted range.
        accepted: String,
    },
    /// The spec does not build.
    #[error("the saved spec is invalid: {0}")]
    Spec(#[from] SpecError),
    /// The state does not fit the spec.
    #[error("the saved state does not fit its spec: {0}")]
    State(#[from] RestoreError),
    /// The generator's state is unusable.
    #[error("the saved generator is invalid: {0}")]
    Generator(String),
}

impl crate::control::Failure for StateError {
    fn kind(&self) -> crate::control::FailureKind {
        match self {
            StateError::Spec(error) => error.kind(),
            _ => crate::control::FailureKind::Invalid,
        }
    }
}

/// A randomizer together with the generator it draws with: everything needed to
/// continue a seeded game.
///
/// # Example
/// ```
/// use fairdice::randomizer::Session;
///
/// let mut uninterrupted = Session::seeded("dynamic(values=6, decrease=0.355)", 42)?;
/// let mut first = Session::seeded("dynamic(values=6, decrease=0.355)", 42)?;
/// let mut drawn: Vec<usize> = (0..5).map(|_| first.draw()).collect();
/// # #[cfg(feature = "serde")] {
/// let mut resumed = Session::from_json(&first.to_json())?;
/// drawn.extend((0..5).map(|_| resumed.draw()));
/// let expected: Vec<usize> = (0..10).map(|_| uninterrupted.draw()).collect();
/// assert_eq!(drawn, expected);
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub(super) randomizer: AnyRandomizer,
    pub(super) generator: Generator,
    pub(super) draws: u64,
}

impl Session {
    /// A session drawing from `randomizer` with `generator`.
    pub fn new(randomizer: AnyRandomizer, generator: Generator) -> Session {
        Session {
            randomizer,
            generator,
            draws: 0,
        }
    }

    /// The randomizer of `spec` with the generator `rng::seeded(seed)`.
    ///
    /// # Errors
    /// [`SpecError`] if the spec does not build.
    pub fn seeded(spec: &str, seed: u64) -> Result<Session, SpecError> {
        Ok(Session::new(Spec::build(spec)?, crate::rng::seeded(seed)))
    }

    /// Draws the next outcome index.
    #[inline]
    pub fn draw(&mut self) -> usize {
        self.count_draw();
        self.randomizer.draw(&mut self.generator)
    }

    /// Draws the next outcome and returns its value.
    #[inline(always)]
    pub fn draw_outcome(&mut self) -> crate::dice::die::Outcome {
        self.count_draw();
        self.randomizer.draw_outcome(&mut self.generator)
    }

    /// Fills `out` with draws, as many [`draw_outcome`](Self::draw_outcome) calls
    /// would, choosing the family once for the batch.
    pub fn fill_outcomes(&mut self, out: &mut [crate::dice::die::Outcome]) {
        self.draws = self.draws.saturating_add(out.len() as u64).min(MAX_DRAWS);
        self.randomizer.fill_outcomes(&mut self.generator, out);
    }

    /// Counts one more draw, up to [`MAX_DRAWS`].
    #[inline]
    fn count_draw(&mut self) {
        self.draws = (self.draws + 1).min(MAX_DRAWS);
    }

    /// The randomizer.
    pub fn randomizer(&self) -> &AnyRandomizer {
        &self.randomizer
    }

    /// Outcomes drawn in this session so far (across saves), up to [`MAX_DRAWS`].
    pub fn draws(&self) -> u64 {
        self.draws
    }
}
