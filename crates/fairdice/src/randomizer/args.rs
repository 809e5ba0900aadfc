//! What a family's builder reads (the checked arguments of one spec, [`Args`]) and
//! every way a spec can fail ([`SpecError`]). Below the spec parser and the family
//! registry, so a family's file uses these without importing either.

use std::str::FromStr;

use thiserror::Error;

use super::family::kinds::Family;
use super::{Base, BaseError, MachineError};
use crate::control::{Control, Failure, FailureKind, Stop};

/// The longest spec string accepted, in bytes. Every randomizer's own spec
/// ([`Randomizer::spec`](crate::randomizer::Randomizer::spec)) is shorter (its base expression
/// is at most [`MAX_EXPRESSION_BYTES`](crate::randomizer::MAX_EXPRESSION_BYTES), its numbers a
/// few hundred bytes), so a saved session's spec always reads back.
pub const MAX_SPEC_BYTES: usize = 4096;

/// Why a spec string could not be read or built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Nothing but whitespace.
    #[error("empty randomizer spec; accepted: {accepted}")]
    Empty {
        /// Every accepted form.
        accepted: String,
    },
    /// Longer than [`MAX_SPEC_BYTES`].
    #[error("the spec is {found} bytes long; accepted: at most {MAX_SPEC_BYTES} bytes")]
    TooLong {
        /// Its length in bytes.
        found: usize,
    },
    /// The text does not follow the grammar.
    #[error("cannot read spec `{spec}` at byte {position}: {message}")]
    Syntax {
        /// The spec text.
        spec: String,
        /// Byte offset of the problem.
        position: usize,
        /// What was expected.
        message: String,
    },
    /// An unknown randomizer name.
    #[error("unknown randomizer `{name}`; accepted: {accepted}")]
    UnknownName {
        /// The name given.
        name: String,
        /// Every accepted form.
        accepted: String,
    },
    /// A key the randomizer does not take.
    #[error("{name} has no key `{key}`; accepted keys: {accepted} (usage: {usage})")]
    UnknownKey {
        /// The randomizer.
        name: String,
        /// The key given.
        key: String,
        /// Its keys.
        accepted: String,
        /// Its usage line.
        usage: String,
    },
    /// A key given twice.
    #[error("{name} has `{key}` twice")]
    DuplicateKey {
        /// The randomizer.
        name: String,
        /// The repeated key.
        key: String,
    },
    /// A required key is missing, or two keys exclude each other.
    #[error("{name}: {message} (usage: {usage})")]
    Keys {
        /// The randomizer.
        name: String,
        /// What is missing or conflicting.
        message: String,
        /// Its usage line.
        usage: String,
    },
    /// A value that does not parse as its key requires.
    #[error("{key}={value} is not {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: String,
    },
    /// The values parse but the randomizer rejects them (out of range).
    #[error("{name}: {message}")]
    Invalid {
        /// The randomizer.
        name: String,
        /// The randomizer's own error message, naming the accepted range.
        message: String,
    },
    /// The randomizer would hold more memory than the budget allows.
    #[error("{name}: {stop}")]
    Memory {
        /// The randomizer.
        name: String,
        /// The memory it would hold, and the limit.
        stop: Stop,
    },
    /// A machine document (a spec starting with `{`) that does not describe a
    /// randomizer.
    #[error("{0}")]
    Machine(#[from] MachineError),
    /// The base expression is too large for the budget, or was cancelled.
    #[error("{name}: {source}")]
    Base {
        /// The randomizer.
        name: String,
        /// Why the base stopped.
        source: Box<BaseError>,
    },
}

impl Failure for SpecError {
    fn kind(&self) -> FailureKind {
        match self {
            SpecError::Base { source, .. } => source.kind(),
            SpecError::Memory { stop, .. } => stop.kind(),
            _ => FailureKind::Invalid,
        }
    }
}

/// About how many bytes a randomizer keeps per outcome (its base, weights and
/// tables; the largest, dynamic dice and the fair roller, keep a few vectors).
pub const BYTES_PER_OUTCOME: u64 = 96;

/// The checked arguments of one family's spec, read by its constructor
/// (each family's `build`, paired with its [`Family`] in the registry).
pub(crate) struct Args<'a> {
    name: &'static str,
    usage: &'static str,
    args: &'a [(String, String)],
    /// The budget and cancel switch a base expression is evaluated under.
    control: &'a Control,
}

impl<'a> Args<'a> {
    /// Refuses keys the family does not take and keys given twice.
    pub(crate) fn check(
        family: &'static Family,
        args: &'a [(String, String)],
        control: &'a Control,
    ) -> Result<Args<'a>, SpecError> {
        let (name, usage) = (family.name, family.usage);
        let keys: Vec<&str> = family.keys().collect();
        for (i, (key, _)) in args.iter().enumerate() {
            if !keys.contains(&key.as_str()) {
                return Err(SpecError::UnknownKey {
                    name: name.to_string(),
                    key: key.clone(),
                    accepted: if keys.is_empty() {
                        "none".into()
                    } else {
                        keys.join(", ")
                    },
                    usage: usage.to_string(),
                });
            }
            if args[..i].iter().any(|(k, _)| k == key) {
                return Err(SpecError::DuplicateKey {
                    name: name.to_string(),
                    key: key.clone(),
                });
            }
        }
        Ok(Args {
            name,
            usage,
            args,
            control,
        })
    }

    /// The value given for `key`, as written.
    pub(crate) fn get(&self, key: &str) -> Option<&'a str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `key` was given.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// A missing or conflicting key, with the family's usage.
    pub(crate) fn missing(&self, message: &str) -> SpecError {
        SpecError::Keys {
            name: self.name.to_string(),
            message: message.to_string(),
            usage: self.usage.to_string(),
        }
    }

    fn bad(key: &str, value: &str, expected: &str) -> SpecError {
        SpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// The randomizer's own error for values it rejects.
    pub(crate) fn invalid(&self, error: &dyn std::error::Error) -> SpecError {
        SpecError::Invalid {
            name: self.name.to_string(),
            message: error.to_string(),
        }
    }

    /// `values=N` or `base=EXPR`, exactly one.
    pub(crate) fn base(&self) -> Result<Base, SpecError> {
        let invalid = |e: BaseError| match e {
            BaseError::Stopped { .. } => SpecError::Base {
                name: self.name.to_string(),
                source: Box::new(e),
            },
            e => SpecError::Invalid {
                name: self.name.to_string(),
                message: e.to_string(),
            },
        };
        let base = match (self.get("values"), self.get("base")) {
            (Some(_), Some(_)) => Err(self.missing("give values=N or base=EXPR, not both")),
            (None, None) => {
                Err(self.missing("needs values=N (faces 1..N) or base=EXPR (e.g. base=2d6)"))
            }
            (Some(_), None) => Base::values(self.number("values", 0)?).map_err(invalid),
            (None, Some(expression)) => {
                Base::expression_with(expression, self.control).map_err(invalid)
            }
        }?;
        self.reserve((base.len() as u64).saturating_mul(BYTES_PER_OUTCOME))?;
        Ok(base)
    }

    /// Refuses a randomizer that would hold more than `bytes` past the budget's
    /// memory.
    ///
    /// # Errors
    /// [`SpecError::Memory`].
    pub(crate) fn reserve(&self, bytes: u64) -> Result<(), SpecError> {
        self.control
            .reserve(bytes)
            .map_err(|stop| SpecError::Memory {
                name: self.name.to_string(),
                stop,
            })
    }

    /// A whole number, or `default` when absent.
    pub(crate) fn number(&self, key: &str, default: u64) -> Result<u64, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| Args::bad(key, v, "a whole number (0, 1, 2, …)")),
        }
    }

    /// A required real number.
    pub(crate) fn real(&self, key: &str) -> Result<f64, SpecError> {
        let v = self
            .get(key)
            .ok_or_else(|| self.missing(&format!("{key}= is required")))?;
        v.parse()
            .map_err(|_| Args::bad(key, v, "a number such as 0.25"))
    }

    /// An optional value of any parseable type.
    pub(crate) fn parsed<T: FromStr>(&self, key: &str) -> Result<Option<T>, SpecError> {
        self.get(key)
            .map(|v| {
                v.parse().map_err(|_| {
                    let expected = match key {
                        "refill" => "a refill mode: top-up or reshuffle",
                        "preset" => "a TGM preset: tgm1 or tgm2",
                        _ => "a whole number (may be negative)",
                    };
                    Args::bad(key, v, expected)
                })
            })
            .transpose()
    }
}
