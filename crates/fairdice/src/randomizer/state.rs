//! [`Session`]: a randomizer with its own generator, saved to and restored from
//! JSON (with the `serde` feature) so a game continues exactly where it stopped.
//!
//! A saved session looks like this (format version 1):
//! ```json
//! {
//!   "format": "fairdice-randomizer",
//!   "version": 1,
//!   "spec": "deck(values=6, copies=1, refill_below=1, refill=top-up)",
//!   "state": [1, 0, 1, 1, 0, 1],
//!   "generator": { "algorithm": "xoshiro256++", "state": ["8f2c…", "…", "…", "…"] },
//!   "draws": 2
//! }
//! ```
//! `state` is the randomizer's [`save_state`](super::Randomizer::save_state); the
//! generator's four 64-bit words are written as 16 hex digits each, because
//! JavaScript (the web UI) reads JSON numbers as doubles and would round them.
//!
//! # Design decisions
//! The spec is stored rather than the randomizer's fields: on load it is parsed
//! and built again with every check a user's spec gets, and then the state is
//! restored with the randomizer's own consistency checks. A file from a newer or
//! older format, for another randomizer, or edited into an impossible state is
//! rejected with a message saying which; nothing is silently accepted.

use thiserror::Error;

use super::{AnyRandomizer, Randomizer, RestoreError, Spec, SpecError};
use crate::rng::Generator;

/// The `format` tag of a saved session.
pub const FORMAT: &str = "fairdice-randomizer";

/// The format version this release writes and reads.
pub const VERSION: u64 = 1;

/// The generator algorithm named in saved sessions.
pub const GENERATOR_ALGORITHM: &str = "xoshiro256++";

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
    #[error("the file is format version {found}, written by {} fairdice; this one reads version {VERSION}", if *.found > VERSION { "a newer" } else { "an older" })]
    Version {
        /// The version found.
        found: u64,
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
    randomizer: AnyRandomizer,
    generator: Generator,
    draws: u64,
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
    pub fn draw(&mut self) -> usize {
        self.draws += 1;
        self.randomizer.draw(&mut self.generator)
    }

    /// The randomizer.
    pub fn randomizer(&self) -> &AnyRandomizer {
        &self.randomizer
    }

    /// Outcomes drawn in this session so far (across saves).
    pub fn draws(&self) -> u64 {
        self.draws
    }
}

#[cfg(feature = "serde")]
mod json {
    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    use super::*;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Saved {
        format: String,
        version: u64,
        spec: String,
        state: Vec<i64>,
        generator: SavedGenerator,
        #[serde(default)]
        draws: u64,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SavedGenerator {
        algorithm: String,
        state: Vec<String>,
    }

    fn words(generator: &Generator) -> [u64; 4] {
        // rand_xoshiro serializes its state as {"s": [u64; 4]}.
        let value = serde_json::to_value(generator).expect("a generator serializes");
        let mut words = [0u64; 4];
        for (word, v) in words
            .iter_mut()
            .zip(value["s"].as_array().into_iter().flatten())
        {
            *word = v.as_u64().expect("generator words are u64");
        }
        words
    }

    fn generator(saved: &SavedGenerator) -> Result<Generator, StateError> {
        if saved.algorithm != GENERATOR_ALGORITHM {
            return Err(StateError::Generator(format!(
                "algorithm `{}` is not `{GENERATOR_ALGORITHM}`",
                saved.algorithm
            )));
        }
        if saved.state.len() != 4 {
            return Err(StateError::Generator(format!(
                "expected 4 words of state, found {}",
                saved.state.len()
            )));
        }
        let mut seed = [0u8; 32];
        for (chunk, word) in seed.chunks_exact_mut(8).zip(&saved.state) {
            let parsed = (word.len() == 16)
                .then(|| u64::from_str_radix(word, 16).ok())
                .flatten()
                .ok_or_else(|| StateError::Generator(format!("`{word}` is not 16 hex digits")))?;
            chunk.copy_from_slice(&parsed.to_le_bytes());
        }
        if seed.iter().all(|&b| b == 0) {
            return Err(StateError::Generator(
                "an all-zero state never leaves zero".into(),
            ));
        }
        // from_seed reads the four words little-endian, exactly as written.
        Ok(<Generator as rand_core::SeedableRng>::from_seed(seed))
    }

    impl Session {
        /// The session as JSON (format [`FORMAT`], version [`VERSION`]).
        pub fn to_json(&self) -> String {
            let saved = Saved {
                format: FORMAT.into(),
                version: VERSION,
                spec: self.randomizer.spec(),
                state: self.randomizer.save_state(),
                generator: SavedGenerator {
                    algorithm: GENERATOR_ALGORITHM.into(),
                    state: words(&self.generator)
                        .iter()
                        .map(|w| format!("{w:016x}"))
                        .collect(),
                },
                draws: self.draws,
            };
            serde_json::to_string_pretty(&saved).expect("plain data serializes")
        }

        /// A session from [`to_json`](Self::to_json)'s output.
        ///
        /// # Errors
        /// [`StateError`]: malformed JSON, another format or version, a spec that
        /// does not build, a state the spec cannot be in, an unusable generator.
        pub fn from_json(text: &str) -> Result<Session, StateError> {
            let value: Value =
                serde_json::from_str(text).map_err(|e| StateError::Malformed(e.to_string()))?;
            let Some(object) = value.as_object() else {
                return Err(StateError::Malformed("expected a JSON object".into()));
            };
            match object.get("format") {
                Some(Value::String(format)) if format == FORMAT => {}
                Some(Value::String(format)) => {
                    return Err(StateError::WrongFormat {
                        found: format.clone(),
                    });
                }
                _ => {
                    return Err(StateError::Malformed(format!(
                        "missing field `format` (\"{FORMAT}\")"
                    )));
                }
            }
            match object.get("version").and_then(Value::as_u64) {
                Some(VERSION) => {}
                Some(found) => return Err(StateError::Version { found }),
                None => {
                    return Err(StateError::Malformed(
                        "missing or non-integer field `version`".into(),
                    ));
                }
            }
            let saved: Saved =
                serde_json::from_value(value).map_err(|e| StateError::Malformed(e.to_string()))?;
            let mut randomizer = Spec::build(&saved.spec)?;
            randomizer.load_state(&saved.state)?;
            Ok(Session {
                randomizer,
                generator: generator(&saved.generator)?,
                draws: saved.draws,
            })
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn saved_after(spec: &str, draws: usize) -> (Session, String) {
            let mut session = Session::seeded(spec, 9).expect("valid");
            for _ in 0..draws {
                session.draw();
            }
            let json = session.to_json();
            (session, json)
        }

        #[test]
        fn resuming_continues_every_randomizer_exactly() {
            for spec in [
                "dice(base=2d6)",
                "deck(values=6, copies=2, refill_below=4)",
                "bag(min=1, max=8, sets=1)",
                "dynamic(base=2d6, decrease=0.3)",
                "fair(base=2d6, tightness=1)",
                "prd(p=0.2)",
                "nes",
                "tgm2",
                "bag7",
            ] {
                let (mut uninterrupted, json) = saved_after(spec, 13);
                let mut resumed = Session::from_json(&json).expect("loads");
                assert_eq!(resumed, uninterrupted, "{spec}");
                let a: Vec<usize> = (0..50).map(|_| uninterrupted.draw()).collect();
                let b: Vec<usize> = (0..50).map(|_| resumed.draw()).collect();
                assert_eq!(a, b, "{spec}");
                assert_eq!(resumed.draws(), 63);
            }
        }

        fn edited(json: &str, from: &str, to: &str) -> Result<Session, StateError> {
            assert!(json.contains(from), "{from} not in {json}");
            Session::from_json(&json.replacen(from, to, 1))
        }

        #[test]
        fn rejects_what_it_cannot_trust() {
            let (_, json) = saved_after("deck(values=6, copies=1, refill_below=1)", 2);
            assert!(matches!(
                Session::from_json("{not json"),
                Err(StateError::Malformed(_))
            ));
            assert!(matches!(
                Session::from_json("[1, 2]"),
                Err(StateError::Malformed(_))
            ));
            assert!(matches!(
                edited(&json, FORMAT, "fairdice-results"),
                Err(StateError::WrongFormat { .. })
            ));
            let newer = edited(&json, "\"version\": 1", "\"version\": 2").expect_err("newer");
            assert!(newer.to_string().contains("newer fairdice"), "{newer}");
            let older = edited(&json, "\"version\": 1", "\"version\": 0").expect_err("older");
            assert!(older.to_string().contains("older fairdice"), "{older}");
            assert!(matches!(
                edited(&json, "\"draws\"", "\"extra\": 1, \"draws\""),
                Err(StateError::Malformed(_))
            ));
            assert!(matches!(
                edited(&json, "values=6", "values=7"),
                Err(StateError::State(
                    RestoreError::WrongLength { .. } | RestoreError::Inconsistent { .. }
                ))
            ));
            assert!(matches!(
                edited(&json, "deck(", "dek("),
                Err(StateError::Spec(_))
            ));
            // A deck of one set cannot hold two 1s.
            let mut forged: Value = serde_json::from_str(&json).expect("json");
            forged["state"] = serde_json::json!([2, 0, 0, 0, 0, 0, 0, 0]);
            assert!(matches!(
                Session::from_json(&forged.to_string()),
                Err(StateError::State(RestoreError::Inconsistent { .. }))
            ));
            assert!(matches!(
                edited(&json, GENERATOR_ALGORITHM, "pcg64"),
                Err(StateError::Generator(_))
            ));
        }

        #[test]
        fn rejects_a_zero_or_garbled_generator() {
            let (_, json) = saved_after("prd(p=0.5)", 1);
            let value: Value = serde_json::from_str(&json).expect("json");
            let mut zero = value.clone();
            zero["generator"]["state"] = serde_json::json!([
                "0000000000000000",
                "0000000000000000",
                "0000000000000000",
                "0000000000000000"
            ]);
            assert!(matches!(
                Session::from_json(&zero.to_string()),
                Err(StateError::Generator(_))
            ));
            let mut garbled = value;
            garbled["generator"]["state"][0] = serde_json::json!("xyz");
            assert!(matches!(
                Session::from_json(&garbled.to_string()),
                Err(StateError::Generator(_))
            ));
        }
    }
}
