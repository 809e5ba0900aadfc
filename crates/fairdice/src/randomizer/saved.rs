//! The saved form of a [`Session`]: the versioned document, its check, and the
//! one validation that [`Session::from_json`] and `Deserialize` both run.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::state::{
    CHECK_ALGORITHM, FORMAT, GENERATOR_ALGORITHM, MAX_DRAWS, Session, StateError, VERSION,
};
use super::{MAX_OUTCOMES, Randomizer, Spec, StateSpace};
use crate::control::Control;
use crate::rng::Generator;

/// A saved session as written: every field, checked only when turned into a
/// [`Session`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    format: String,
    version: u64,
    spec: String,
    state: Vec<i64>,
    generator: SavedGenerator,
    #[serde(default)]
    draws: u64,
    /// `crc32:` and 8 hex digits; absent in version 1.
    #[serde(default)]
    check: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedGenerator {
    algorithm: String,
    state: Vec<String>,
}

/// The fields the check covers, in the order they are hashed.
#[derive(Serialize)]
struct Canonical<'a> {
    format: &'a str,
    version: u64,
    spec: &'a str,
    state: &'a [i64],
    generator: &'a SavedGenerator,
    draws: u64,
}

impl Document {
    fn of(session: &Session) -> Document {
        let mut document = Document {
            format: FORMAT.into(),
            version: VERSION,
            spec: session.randomizer.spec(),
            state: session.randomizer.save_state(),
            generator: SavedGenerator {
                algorithm: GENERATOR_ALGORITHM.into(),
                state: words(&session.generator)
                    .iter()
                    .map(|w| format!("{w:016x}"))
                    .collect(),
            },
            draws: session.draws,
            check: None,
        };
        document.check = Some(document.computed_check());
        document
    }

    /// The check of the content as it stands.
    fn computed_check(&self) -> String {
        let canonical = Canonical {
            format: &self.format,
            version: self.version,
            spec: &self.spec,
            state: &self.state,
            generator: &self.generator,
            draws: self.draws,
        };
        let bytes = serde_json::to_vec(&canonical).expect("plain data serializes");
        format!("{CHECK_ALGORITHM}:{:08x}", crc32fast::hash(&bytes))
    }

    /// Every check the loader runs, cheapest first; nothing is sized from a field
    /// before its range is checked.
    fn into_session(self, control: &Control) -> Result<Session, StateError> {
        if self.format != FORMAT {
            return Err(StateError::WrongFormat { found: self.format });
        }
        match (self.version, &self.check) {
            (1, None) => {}
            (1, Some(_)) => {
                return Err(StateError::Malformed(
                    "a version 1 session has no `check` field (version 2 added it)".into(),
                ));
            }
            (VERSION, None) => {
                return Err(StateError::Malformed(format!(
                    "missing field `check` (\"{CHECK_ALGORITHM}:\" and 8 hex digits) in a version {VERSION} session"
                )));
            }
            (VERSION, Some(recorded)) => {
                let computed = self.computed_check();
                if *recorded != computed {
                    return Err(StateError::Checksum {
                        recorded: recorded.clone(),
                        computed,
                    });
                }
            }
            (found, _) => return Err(StateError::Version { found }),
        }
        if self.draws > MAX_DRAWS {
            return Err(StateError::OutOfRange {
                field: "draws",
                found: self.draws.to_string(),
                accepted: format!("0..={MAX_DRAWS}"),
            });
        }
        if self.state.len() > MAX_OUTCOMES {
            return Err(StateError::OutOfRange {
                field: "state",
                found: format!("a list of {} entries", self.state.len()),
                accepted: format!("at most {MAX_OUTCOMES} entries"),
            });
        }
        let generator = generator(&self.generator)?;
        let mut randomizer = Spec::build_with(&self.spec, control)?;
        randomizer.load_state(&self.state)?;
        Ok(Session {
            randomizer,
            generator,
            draws: self.draws,
        })
    }
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
        let parsed = (word.len() == 16 && word.bytes().all(|b| b.is_ascii_hexdigit()))
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
    /// The session as JSON (format [`FORMAT`], version [`VERSION`], with its check).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&Document::of(self)).expect("plain data serializes")
    }

    /// A session from [`to_json`](Self::to_json)'s output (version 2, or version 1
    /// without a check).
    ///
    /// # Errors
    /// [`StateError`]: malformed JSON, another format or version, a check that
    /// does not match the content, a number out of range, a spec that does not
    /// build, a state the spec cannot be in, an unusable generator.
    pub fn from_json(text: &str) -> Result<Session, StateError> {
        Session::from_json_with(text, &Control::new())
    }

    /// [`Session::from_json`] with the spec's `base=EXPR` evaluated under
    /// `control` (its budget and cancel switch).
    ///
    /// # Errors
    /// As [`Session::from_json`]; a base too large for the budget, or cancelled.
    pub fn from_json_with(text: &str, control: &Control) -> Result<Session, StateError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| StateError::Malformed(e.to_string()))?;
        let Some(object) = value.as_object() else {
            return Err(StateError::Malformed("expected a JSON object".into()));
        };
        // Format and version first: another version may have other fields, and
        // saying so beats naming the first field this one does not know.
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
            Some(1 | VERSION) => {}
            Some(found) => return Err(StateError::Version { found }),
            None => {
                return Err(StateError::Malformed(
                    "missing or non-integer field `version`".into(),
                ));
            }
        }
        let document: Document =
            serde_json::from_value(value).map_err(|e| StateError::Malformed(e.to_string()))?;
        document.into_session(control)
    }
}

/// The saved document of [`Session::to_json`], in any serde format.
impl Serialize for Session {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Document::of(self).serialize(serializer)
    }
}

/// The saved document, with every check [`Session::from_json`] runs.
impl<'de> Deserialize<'de> for Session {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Session, D::Error> {
        Document::deserialize(deserializer)?
            .into_session(&Control::new())
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests;
