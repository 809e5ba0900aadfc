//! [`Grid`]: the candidates a tuner tries for one system (a randomizer family).
//!
//! ```text
//! grid   = family [ "(" [ key "=" values { "," key "=" values } ] ")" ]
//! values = number                       one value
//!        | a ".." b [ "step" s ]        a, a+s, …, up to b inclusive (s = 1 if omitted,
//!                                       which only integer keys allow)
//!        | v { "|" v }                  a list (numbers or words)
//! ```
//! Keys left out take the family's default grid (`refill` stays `top-up`). Examples: `deck` (copies 1..10 ×
//! refill_below 1..10, the article's grid), `dynamic(decrease=0.30..0.50 step
//! 0.005)`, `deck(copies=1|2|4, refill_below=1..6, refill=top-up|reshuffle)`,
//! `fair(tightness=0..3 step 0.25)`, `bag(sets=1..5)`, `dice`.
//!
//! A machine document (JSON, with the `serde` feature) is a system too: its
//! parameters that name a `"tune"` grid vary, and `(key=values, …)` after the
//! document replaces or adds a parameter's values:
//! `{"parameters": {"step": {"value": "10%", "tune": "5%..30% step 5%"}}, …}(step=0.1|0.2)`.
//! Numbers may be percentages (`5%`).

use std::fmt;

use thiserror::Error;

use crate::randomizer::family::{self, ParamKind};
use crate::randomizer::{Machine, Spec};

/// Why a grid could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// Not `family(key=values, …)`.
    #[error("cannot read grid `{text}`: {message}")]
    Syntax {
        /// The grid text.
        text: String,
        /// What went wrong.
        message: String,
    },
    /// A family the tuner does not know.
    #[error("`{0}` is not a tunable system; accepted: {accepted}", accepted = tunable_list())]
    UnknownFamily(String),
    /// A family with nothing to tune (`prd`: its only parameter is the chance
    /// itself); the message says why.
    #[error("{0}")]
    NotTunable(&'static str),
    /// A machine document that does not read, or names nothing to tune.
    #[error("{0}")]
    Machine(String),
    /// A key the family does not take.
    #[error("{family} has no tunable key `{key}`; accepted: {accepted}")]
    UnknownKey {
        /// The family.
        family: String,
        /// The key given.
        key: String,
        /// Its keys.
        accepted: String,
    },
    /// A value list that does not parse.
    #[error("{key}={value}: {message}")]
    Values {
        /// The key.
        key: String,
        /// The values as written.
        value: String,
        /// What is accepted.
        message: String,
    },
    /// Too many candidates.
    #[error("the grid `{text}` has {count} candidates; at most {max} are tried")]
    TooLarge {
        /// The grid text.
        text: String,
        /// Its candidates.
        count: u128,
        /// The limit.
        max: usize,
    },
}

crate::control::invalid_input!(GridError);

/// The most candidates one grid may have.
pub const MAX_CANDIDATES: usize = 100_000;

/// How a family receives the tuner's outcomes (its spec's outcome keys).
pub use crate::randomizer::family::OutcomeKeys as BaseArgs;

fn tunable_list() -> String {
    family::tunable_names().join(", ")
}

/// One parameter value (serialized as a JSON number or string).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum ParamValue {
    /// An integer parameter (copies, refill_below, sets…).
    Integer(u64),
    /// A real parameter (decrease, tightness).
    Real(f64),
    /// A word (refill mode).
    Word(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Integer(v) => write!(f, "{v}"),
            ParamValue::Real(v) => write!(f, "{v}"),
            ParamValue::Word(w) => f.write_str(w),
        }
    }
}

/// A system (a family, or a machine document) and the values to try for each of
/// its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    system: System,
    /// Keys in the family's (or document's) order, each with its values in trial
    /// order.
    axes: Vec<(String, Vec<ParamValue>)>,
}

/// What a grid's candidates are.
#[derive(Debug, Clone, PartialEq)]
pub enum System {
    /// A family's spec over the search's outcomes.
    Family {
        /// The family's name.
        name: &'static str,
        /// How it receives the outcomes.
        base: BaseArgs,
    },
    /// A machine document with its parameters set; it draws its own outcomes.
    Machine(Machine),
}

/// Rounds grid arithmetic (`0.005 + 35 × 0.01`) to the decimal the user meant.
fn tidy(x: f64) -> f64 {
    format!("{x:.12}").parse().unwrap_or(x)
}

fn parse_values(key: &str, kind: ParamKind, text: &str) -> Result<Vec<ParamValue>, GridError> {
    let bad = |message: &str| GridError::Values {
        key: key.to_string(),
        value: text.to_string(),
        message: message.to_string(),
    };
    let text = text.trim();
    if let ParamKind::Word(words) = kind {
        return text
            .split('|')
            .map(|w| {
                let w = w.trim().to_ascii_lowercase();
                words
                    .iter()
                    .find(|word| **word == w)
                    .map(|word| ParamValue::Word((*word).to_string()))
                    .ok_or_else(|| {
                        bad(&format!(
                            "accepted: {}, or several joined by |",
                            words.join(", ")
                        ))
                    })
            })
            .collect();
    }
    let integer = kind == ParamKind::Count;
    let number = |s: &str| -> Result<f64, GridError> {
        let s = s.trim();
        let (s, scale) = match s.strip_suffix('%') {
            Some(percent) => (percent.trim_end(), 100.0),
            None => (s, 1.0),
        };
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| tidy(v / scale))
            .ok_or_else(|| bad("expected a number, a..b [step s], or a|b|c"))
    };
    let mut values: Vec<f64> = if let Some((low, rest)) = text.split_once("..") {
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        let (high, step) = match rest.split_once("step") {
            Some((high, step)) => (number(high)?, Some(number(step)?)),
            None => (number(rest)?, None),
        };
        let low = number(low)?;
        let step = match step {
            Some(s) if s > 0.0 => s,
            Some(_) => return Err(bad("the step must be positive")),
            None if integer => 1.0,
            None => {
                return Err(bad(
                    "a range of reals needs a step, e.g. 0.30..0.50 step 0.005",
                ));
            }
        };
        if high < low {
            return Err(bad("the range is empty; write the smaller end first"));
        }
        let count = ((high - low) / step + 1e-9).floor() + 1.0;
        if count > MAX_CANDIDATES as f64 {
            return Err(bad(&format!("more than {MAX_CANDIDATES} values")));
        }
        (0..count as usize)
            .map(|i| tidy(low + i as f64 * step))
            .collect()
    } else {
        text.split('|').map(number).collect::<Result<_, _>>()?
    };
    values.sort_by(f64::total_cmp);
    values.dedup();
    if integer {
        values
            .into_iter()
            .map(|v| {
                if v.fract() == 0.0 && v >= 0.0 {
                    Ok(ParamValue::Integer(v as u64))
                } else {
                    Err(bad("expected whole numbers"))
                }
            })
            .collect()
    } else {
        Ok(values.into_iter().map(ParamValue::Real).collect())
    }
}

impl Grid {
    /// The family's default grid (the article's for `deck` and `dynamic`).
    ///
    /// # Errors
    /// [`GridError::UnknownFamily`], [`GridError::NotTunable`].
    pub fn default_for(family: &str) -> Result<Grid, GridError> {
        Grid::parse(family)
    }

    /// Reads a grid (see the module docs).
    ///
    /// # Errors
    /// [`GridError`] naming the part at fault and what is accepted.
    pub fn parse(text: &str) -> Result<Grid, GridError> {
        if text.trim_start().starts_with('{') {
            return Grid::machine(text);
        }
        let spec = Spec::parse(text).map_err(|e| GridError::Syntax {
            text: text.to_string(),
            message: e.to_string(),
        })?;
        let name = spec.name().replace('-', "_");
        let info = family::find(&name).ok_or_else(|| GridError::UnknownFamily(name.clone()))?;
        if let Some(why) = info.not_tunable {
            return Err(GridError::NotTunable(why));
        }
        let accepted = || {
            let keys: Vec<&str> = info.tuned().map(|k| k.key).collect();
            if keys.is_empty() {
                "none (it has no parameters)".to_string()
            } else {
                keys.join(", ")
            }
        };
        for (key, _) in spec.args() {
            if !info.tuned().any(|k| k.key == key) {
                return Err(GridError::UnknownKey {
                    family: info.name.to_string(),
                    key: key.clone(),
                    accepted: accepted(),
                });
            }
        }
        let mut axes = Vec::new();
        for key in info.tuned() {
            let given = spec.args().iter().find(|(k, _)| k == key.key);
            let text = given.map_or(key.tune.unwrap_or_default(), |(_, v)| v.as_str());
            if text.is_empty() {
                continue;
            }
            axes.push((key.key.to_string(), parse_values(key.key, key.kind, text)?));
        }
        let grid = Grid {
            system: System::Family {
                name: info.name,
                base: info.outcomes,
            },
            axes,
        };
        grid.checked_size(text)
    }

    fn checked_size(self, text: &str) -> Result<Grid, GridError> {
        let count = self
            .axes
            .iter()
            .map(|(_, v)| v.len() as u128)
            .product::<u128>();
        if count > MAX_CANDIDATES as u128 {
            return Err(GridError::TooLarge {
                text: text.to_string(),
                count,
                max: MAX_CANDIDATES,
            });
        }
        Ok(self)
    }

    /// A machine document's grid: `DOCUMENT` or `DOCUMENT(key=values, …)`.
    #[cfg(feature = "serde")]
    fn machine(text: &str) -> Result<Grid, GridError> {
        let text = text.trim();
        let mut documents =
            serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
        let end = match documents.next() {
            Some(Ok(_)) => documents.byte_offset(),
            Some(Err(e)) => {
                return Err(GridError::Machine(format!(
                    "the machine document is not valid: {e}"
                )));
            }
            None => 0,
        };
        let (document, rest) = text.split_at(end);
        let machine =
            Machine::from_json(document).map_err(|e| GridError::Machine(e.to_string()))?;
        let name = machine.name().unwrap_or("machine").to_string();
        let given: Vec<(String, String)> = match rest.trim() {
            "" => Vec::new(),
            rest => Spec::parse(&format!("machine{rest}"))
                .map_err(|e| GridError::Syntax {
                    text: rest.to_string(),
                    message: e.to_string(),
                })?
                .args()
                .to_vec(),
        };
        let parameters = machine.parameters();
        for (key, _) in &given {
            if !parameters.iter().any(|p| p.name == *key) {
                let names: Vec<&str> = parameters.iter().map(|p| p.name.as_str()).collect();
                return Err(GridError::UnknownKey {
                    family: name,
                    key: key.clone(),
                    accepted: if names.is_empty() {
                        "none (its document defines no parameters)".to_string()
                    } else {
                        names.join(", ")
                    },
                });
            }
        }
        let mut axes = Vec::new();
        for parameter in &parameters {
            let values = given
                .iter()
                .find(|(k, _)| *k == parameter.name)
                .map(|(_, v)| v.as_str())
                .or(parameter.tune.as_deref());
            let Some(values) = values else { continue };
            // Whole numbers where every value is one (a counter's size), reals
            // otherwise.
            let values = parse_values(&parameter.name, ParamKind::Count, values)
                .or_else(|_| parse_values(&parameter.name, ParamKind::Real, values))?;
            axes.push((parameter.name.clone(), values));
        }
        if axes.is_empty() {
            return Err(GridError::Machine(format!(
                "{name} has no parameter to tune: give a parameter a \"tune\" grid in the document (\"tune\": \"5%..30% step 5%\"), or its values after the document, (name=values)"
            )));
        }
        Grid {
            system: System::Machine(machine),
            axes,
        }
        .checked_size(text)
    }

    #[cfg(not(feature = "serde"))]
    fn machine(_: &str) -> Result<Grid, GridError> {
        Err(GridError::Machine(
            "machine documents need fairdice's serde feature".to_string(),
        ))
    }

    /// For a game of `players` taking turns: the grid with the family's `seats`
    /// key tried both ways, one history for every roll (`1`) and one per player
    /// (`players`), when the family has that key and the grid does not name it.
    /// `None` otherwise (the grid already says, or the family has no per-seat
    /// form).
    pub fn per_seat(&self, players: usize) -> Option<Grid> {
        let info = family::find(self.family()?)?;
        let key = info.tuned().find(|k| k.key == "seats")?;
        if players < 2
            || self.axes.iter().any(|(k, _)| *k == key.key)
            || self.len() * 2 > MAX_CANDIDATES
        {
            return None;
        }
        let values = vec![ParamValue::Integer(1), ParamValue::Integer(players as u64)];
        let mut axes = self.axes.clone();
        // Keys stay in the family's order.
        let position = info
            .tuned()
            .filter(|k| k.key == key.key || self.axes.iter().any(|(a, _)| a == k.key))
            .position(|k| k.key == key.key)
            .unwrap_or(axes.len());
        axes.insert(position, (key.key.to_string(), values));
        Some(Grid {
            axes,
            ..self.clone()
        })
    }

    /// The family name (`deck`, `dynamic`, …); `None` for a machine.
    pub fn family(&self) -> Option<&'static str> {
        match &self.system {
            System::Family { name, .. } => Some(name),
            System::Machine(_) => None,
        }
    }

    /// The system's name in reports: the family's, or the machine's (`machine`
    /// when its document has none).
    pub fn name(&self) -> &str {
        match &self.system {
            System::Family { name, .. } => name,
            System::Machine(machine) => machine.name().unwrap_or("machine"),
        }
    }

    /// What the candidates are.
    pub fn system(&self) -> &System {
        &self.system
    }

    /// The keys and their values, in the order candidates vary (the first key
    /// slowest).
    pub fn axes(&self) -> &[(String, Vec<ParamValue>)] {
        &self.axes
    }

    /// Every candidate's parameters in trial order: lexicographic by the keys'
    /// order, each key's values ascending. This order is the tie-break: among
    /// equally good candidates the first wins (the smallest `copies`, then the
    /// smallest `refill_below`, as in the article).
    pub fn candidates(&self) -> Vec<Vec<(String, ParamValue)>> {
        let mut out: Vec<Vec<(String, ParamValue)>> = vec![Vec::new()];
        for (key, values) in &self.axes {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    values.iter().map(move |v| {
                        let mut c = prefix.clone();
                        c.push((key.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        out
    }

    /// Whether the candidates lie on a line: one numeric key varies, every other
    /// key holds one value (`dynamic`'s decrease, `fair`'s tightness). Along
    /// such a line a search looks for where the entropy crosses its threshold
    /// ([`race`](super::race)).
    pub fn is_line(&self) -> bool {
        let varying: Vec<&Vec<ParamValue>> = self
            .axes
            .iter()
            .map(|(_, values)| values)
            .filter(|values| values.len() > 1)
            .collect();
        matches!(varying.as_slice(), [values]
            if values.iter().all(|v| !matches!(v, ParamValue::Word(_))))
    }

    /// The number of candidates.
    pub fn len(&self) -> usize {
        self.axes.iter().map(|(_, v)| v.len()).product()
    }

    /// True when the grid has no candidate.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_grids() {
        let deck = Grid::default_for("deck").expect("known");
        assert_eq!(deck.len(), 100);
        let first = &deck.candidates()[..2];
        assert_eq!(first[0][0], ("copies".into(), ParamValue::Integer(1)));
        assert_eq!(first[0][1], ("refill_below".into(), ParamValue::Integer(1)));
        assert_eq!(first[1][1], ("refill_below".into(), ParamValue::Integer(2)));
        let dynamic = Grid::default_for("dynamic").expect("known");
        let values: Vec<String> = dynamic
            .candidates()
            .iter()
            .map(|c| c[0].1.to_string())
            .collect();
        assert_eq!(values.len(), 100);
        assert_eq!(values[0], "0.005");
        assert_eq!(values[35], "0.355");
        assert_eq!(values[42], "0.425");
        assert_eq!(values[99], "0.995");
        for (i, v) in values.iter().enumerate() {
            assert_eq!(v.parse::<f64>(), Ok((i as f64 + 0.5) / 100.0));
        }
    }

    #[test]
    fn lines_vary_one_number() {
        let line = |text: &str| Grid::parse(text).expect("valid").is_line();
        assert!(line("dynamic"));
        assert!(line("fair"), "seats stays at its one default");
        assert!(line("deck(copies=4, refill_below=1..6)"));
        assert!(!line("deck"), "two keys vary");
        assert!(!line(
            "deck(copies=4, refill_below=2, refill=top-up|reshuffle)"
        ));
        assert!(!line("dice"));
    }

    #[test]
    fn custom_grids() {
        let g = Grid::parse("dynamic(decrease=0.30..0.50 step 0.005)").expect("valid");
        assert_eq!(g.len(), 41);
        let g = Grid::parse("deck(copies=4|1|2, refill_below=1..3, refill=top-up|reshuffle)")
            .expect("valid");
        assert_eq!(g.len(), 18);
        assert_eq!(g.candidates()[0][0].1, ParamValue::Integer(1));
        assert_eq!(Grid::parse("dice").expect("valid").len(), 1);
    }

    #[test]
    fn errors_name_what_is_accepted() {
        let e = Grid::parse("deck(size=3)").expect_err("unknown key");
        assert!(
            e.to_string().contains("copies, refill_below, refill"),
            "{e}"
        );
        let e = Grid::parse("dynamic(decrease=0.1..0.5)").expect_err("no step");
        assert!(e.to_string().contains("step"), "{e}");
        let e = Grid::parse("deck(copies=1.5)").expect_err("integer");
        assert!(e.to_string().contains("whole"), "{e}");
        let e = Grid::parse("dragon").expect_err("unknown");
        assert!(e.to_string().contains("dynamic"), "{e}");
        assert!(
            matches!(Grid::parse("prd"), Err(GridError::NotTunable(why)) if why.contains("nothing to tune"))
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn machines_vary_the_parameters_their_document_tunes() {
        let document = r#"{"name": "shot",
          "parameters": {"boost": {"value": "10%", "tune": "0%..20% step 5%"},
                         "cap": {"value": 6}, "base": {"value": "1/2"}},
          "layers": [{"name": "misses", "counter": "cap",
            "draw": {"hit": "min(95%, base + boost * n)", "miss": "rest"},
            "next": {"hit": 0, "miss": "min(cap - 1, n + 1)"}}]}"#;
        let grid = Grid::parse(document).expect("valid");
        assert_eq!(grid.name(), "shot");
        assert_eq!(grid.family(), None);
        assert_eq!(
            grid.axes(),
            [(
                "boost".to_string(),
                [0.0, 0.05, 0.1, 0.15, 0.2].map(ParamValue::Real).to_vec()
            )]
        );
        // Values after the document replace or add a parameter's; whole
        // numbers stay whole.
        let grid = Grid::parse(&format!("{document}(cap=3..5, boost=10%|0.3)")).expect("valid");
        assert_eq!(grid.len(), 6);
        assert_eq!(
            grid.axes()[1].1,
            [3, 4, 5].map(ParamValue::Integer).to_vec()
        );
        let e = Grid::parse(&format!("{document}(bost=1)")).expect_err("no such parameter");
        assert!(e.to_string().contains("accepted: boost, cap, base"), "{e}");
        let untuned = document.replace(r#", "tune": "0%..20% step 5%""#, "");
        let e = Grid::parse(&untuned).expect_err("nothing to tune");
        assert!(e.to_string().contains("no parameter to tune"), "{e}");
        let e = Grid::parse("{\"layers\": [").expect_err("not JSON");
        assert!(e.to_string().contains("not valid"), "{e}");
        let e = Grid::parse(&format!("{document}(boost=0.1..0.5)")).expect_err("reals need a step");
        assert!(e.to_string().contains("step"), "{e}");
    }

    #[test]
    fn per_seat_tries_one_history_and_one_per_player_unless_the_grid_says() {
        let fair = Grid::parse("fair(tightness=0|1)").expect("valid");
        let both = fair.per_seat(3).expect("fair has a per-seat form");
        let keys: Vec<&str> = both.axes().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["tightness", "seats"]);
        assert_eq!(both.len(), 4);
        assert_eq!(
            both.axes()[1].1,
            [ParamValue::Integer(1), ParamValue::Integer(3)]
        );
        assert_eq!(fair.per_seat(1), None);
        let named = Grid::parse("fair(tightness=1, seats=2)").expect("valid");
        assert_eq!(named.per_seat(3), None);
        assert_eq!(Grid::parse("deck").expect("valid").per_seat(2), None);
    }
}
