//! [`Spec`]: the randomizer spec strings shared by the command line and the web UI.
//!
//! ```text
//! spec  = name [ "(" [ arg { "," arg } ] ")" ]
//! arg   = key "=" value
//! name  = dice | deck | bag | dynamic | fair | prd | pity | nes | tgm | tgm1 | tgm2 | tgm3 | bag7
//! key   = letters and "_" ("-" is read as "_"), case-insensitive
//! value = text up to the next "," or ")" outside brackets, so a dice
//!         expression may hold its own: base=d{1,1,2}
//! ```
//! A spec that starts with `{` is a machine document ([`Machine`](super::Machine)).
//! Whitespace around tokens is ignored. Examples: `deck(values=6, copies=1,
//! refill_below=6)`, `dynamic(values=6, decrease=0.355)`, `fair(base=2d6,
//! tightness=1)`, `bag(min=1, max=6, sets=1)`, `prd(p=0.25)`, `tgm(history=4,
//! tries=6)`, `tgm2`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

#[cfg(feature = "serde")]
use super::Machine;
use super::{AnyRandomizer, Base, BaseError, MachineError};
use crate::control::{Control, Failure, FailureKind, Stop};

/// The longest spec string accepted, in bytes. Every randomizer's own spec
/// ([`Randomizer::spec`](super::Randomizer::spec)) is shorter (its base expression
/// is at most [`MAX_EXPRESSION_BYTES`](super::MAX_EXPRESSION_BYTES), its numbers a
/// few hundred bytes), so a saved session's spec always reads back.
pub const MAX_SPEC_BYTES: usize = 4096;

use super::family::{self, usage_list};

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

/// A parsed spec: a randomizer name and its `key=value` arguments, not yet checked
/// against the randomizer.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Randomizer, Spec};
///
/// let spec: Spec = "Deck(values=6, refill-below=4)".parse()?;
/// assert_eq!(spec.name(), "deck");
/// let deck = spec.to_randomizer()?;
/// assert_eq!(deck.spec(), "deck(values=6, copies=1, refill_below=4, refill=top-up)");
/// assert!(Spec::build("deck(value=6)").is_err()); // the message lists the keys
/// # Ok::<(), fairdice::randomizer::SpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spec {
    name: String,
    args: Vec<(String, String)>,
}

impl Spec {
    /// Parses and builds in one step.
    ///
    /// # Errors
    /// Any [`SpecError`].
    pub fn build(text: &str) -> Result<AnyRandomizer, SpecError> {
        Spec::build_with(text, &Control::new())
    }

    /// Parses and builds under `control`: a `base=EXPR` is evaluated within its
    /// budget and stops when it is cancelled.
    ///
    /// # Errors
    /// Any [`SpecError`]; [`SpecError::Base`] when the base is too large or
    /// cancelled.
    pub fn build_with(text: &str, control: &Control) -> Result<AnyRandomizer, SpecError> {
        if text.trim_start().starts_with('{') {
            return Spec::machine(text);
        }
        Spec::parse(text)?.to_randomizer_with(control)
    }

    /// A machine document (a spec that starts with `{`).
    fn machine(text: &str) -> Result<AnyRandomizer, SpecError> {
        #[cfg(feature = "serde")]
        return Machine::from_json(text)
            .map(AnyRandomizer::from)
            .map_err(SpecError::Machine);
        #[cfg(not(feature = "serde"))]
        return Err(SpecError::Machine(MachineError::Document(format!(
            "reading a machine document needs fairdice's `serde` feature ({} bytes given)",
            text.len()
        ))));
    }

    /// Reads a spec string (names and keys lowercased, `-` in keys read as `_`).
    ///
    /// # Errors
    /// [`SpecError::TooLong`], [`SpecError::Empty`], [`SpecError::Syntax`].
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        if text.len() > MAX_SPEC_BYTES {
            return Err(SpecError::TooLong { found: text.len() });
        }
        let syntax = |position: usize, message: &str| SpecError::Syntax {
            spec: text.to_string(),
            position,
            message: message.to_string(),
        };
        let trimmed_end = text.trim_end();
        let start = text.len() - text.trim_start().len();
        if trimmed_end.trim_start().is_empty() {
            return Err(SpecError::Empty {
                accepted: usage_list(),
            });
        }
        let open = text.find('(');
        let name_end = open.unwrap_or(trimmed_end.len());
        let name = text[start..name_end].trim().to_ascii_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(syntax(
                start,
                "expected a randomizer name such as deck or prd",
            ));
        }
        let mut args = Vec::new();
        if let Some(open) = open {
            if !trimmed_end.ends_with(')') {
                return Err(syntax(
                    trimmed_end.len(),
                    "expected `)` to close the arguments",
                ));
            }
            let inner_start = open + 1;
            let inner_end = trimmed_end.len() - 1;
            for (arg_start, arg_end) in
                split_top_level(text, inner_start, inner_end).map_err(|(p, m)| syntax(p, m))?
            {
                let arg = &text[arg_start..arg_end];
                if arg.trim().is_empty() {
                    if inner_start == inner_end || text[inner_start..inner_end].trim().is_empty() {
                        break; // `nes()`
                    }
                    return Err(syntax(arg_start, "empty argument; expected key=value"));
                }
                let Some(eq) = arg.find('=') else {
                    return Err(syntax(arg_start, "expected key=value"));
                };
                let key = arg[..eq].trim().to_ascii_lowercase().replace('-', "_");
                let value = arg[eq + 1..].trim().to_string();
                if key.is_empty() {
                    return Err(syntax(arg_start, "missing key before `=`"));
                }
                if value.is_empty() {
                    return Err(syntax(arg_start + eq + 1, "missing value after `=`"));
                }
                args.push((key, value));
            }
        }
        Ok(Spec { name, args })
    }

    /// The randomizer name, lowercased.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments in the order written.
    pub fn args(&self) -> &[(String, String)] {
        &self.args
    }

    /// Builds the randomizer, checking names, keys and values.
    ///
    /// # Errors
    /// [`SpecError::UnknownName`], [`SpecError::UnknownKey`],
    /// [`SpecError::DuplicateKey`], [`SpecError::Keys`], [`SpecError::BadValue`],
    /// [`SpecError::Invalid`]; every message lists what is accepted.
    pub fn to_randomizer(&self) -> Result<AnyRandomizer, SpecError> {
        self.to_randomizer_with(&Control::new())
    }

    /// [`Spec::to_randomizer`] with a `base=EXPR` evaluated under `control`.
    ///
    /// # Errors
    /// As [`Spec::to_randomizer`]; [`SpecError::Base`] when the base is too large
    /// or cancelled.
    pub fn to_randomizer_with(&self, control: &Control) -> Result<AnyRandomizer, SpecError> {
        let Some(family) = family::find(&self.name) else {
            return Err(SpecError::UnknownName {
                name: self.name.clone(),
                accepted: usage_list(),
            });
        };
        (family.build)(&Args::check(family, &self.args, control)?)
    }
}

/// Byte ranges of the comma-separated arguments in `text[start..end]`, splitting
/// only outside brackets.
fn split_top_level(
    text: &str,
    start: usize,
    end: usize,
) -> Result<Vec<(usize, usize)>, (usize, &'static str)> {
    let mut parts = Vec::new();
    let mut depth: Vec<char> = Vec::new();
    let mut part_start = start;
    for (offset, c) in text[start..end].char_indices() {
        let at = start + offset;
        match c {
            '(' | '[' | '{' => depth.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if depth.pop() != Some(open) {
                    return Err((at, "unbalanced bracket"));
                }
            }
            ',' if depth.is_empty() => {
                parts.push((part_start, at));
                part_start = at + 1;
            }
            _ => {}
        }
    }
    if !depth.is_empty() {
        return Err((end, "unclosed bracket"));
    }
    parts.push((part_start, end));
    Ok(parts)
}

/// About how many bytes a randomizer keeps per outcome (its base, weights and
/// tables; the largest, dynamic dice and the fair roller, keep a few vectors).
pub const BYTES_PER_OUTCOME: u64 = 96;

/// The checked arguments of one family's spec, read by its constructor
/// ([`Family::build`](super::family::Family)).
pub(crate) struct Args<'a> {
    name: &'static str,
    usage: &'static str,
    args: &'a [(String, String)],
    /// The budget and cancel switch a base expression is evaluated under.
    control: &'a Control,
}

impl<'a> Args<'a> {
    /// Refuses keys the family does not take and keys given twice.
    fn check(
        family: &'static family::Family,
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

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Spec::parse(s)
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.args.is_empty() {
            let args: Vec<String> = self.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, "({})", args.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
