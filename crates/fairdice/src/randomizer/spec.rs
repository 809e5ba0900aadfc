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

use super::AnyRandomizer;
#[cfg(feature = "serde")]
use super::Machine;
#[cfg(not(feature = "serde"))]
use super::MachineError;
use crate::control::Control;

use super::args::Args;
pub use super::args::{MAX_SPEC_BYTES, SpecError};

use super::any;
use super::family::usage_list;

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
        let Some((family, build)) = any::registered(&self.name) else {
            return Err(SpecError::UnknownName {
                name: self.name.clone(),
                accepted: usage_list(),
            });
        };
        build(&Args::check(family, &self.args, control)?)
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
