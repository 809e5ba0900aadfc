//! [`Family`]: the catalogue of randomizer families, each declared once — its name,
//! a one-line summary, its usage, its parameters with their kinds, one-line docs
//! and the tuner's default values, and its constructor. Spec strings, `--help`
//! texts, error messages listing what is accepted, the web app's forms and the
//! tuner's grids are all read from it.
//!
//! ```
//! use fairdice::randomizer::family;
//!
//! let deck = family::find("deck").expect("a family");
//! assert_eq!(deck.summary, "the generalized deck: each outcome `copies` times, refilled below `refill_below` cards");
//! assert_eq!(deck.tuned().map(|p| p.key).collect::<Vec<_>>(), ["copies", "refill_below", "refill"]);
//! assert!(family::all().iter().any(|f| f.name == "tgm2"));
//! ```
//!
//! # Design decisions
//! Each family's entry lives in the file of its randomizer (`deck.rs` holds
//! `deck::FAMILY`), and [`AnyRandomizer`]'s one list in
//! `any.rs` names both the enum variant and its families: adding a family touches
//! its own file and that one line.

use std::fmt;

use super::AnyRandomizer;
use super::spec::{Args, SpecError};

/// How a family receives its outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutcomeKeys {
    /// `values=N` (faces 1..N) or `base=EXPR` (the outcomes of a dice expression).
    ValuesOrBase,
    /// `min=A, max=B`: a uniform range.
    MinMax,
    /// The seven tetrominoes, fixed.
    Tetrominoes,
    /// Success or failure with a nominal chance `p`.
    Chance,
}

impl OutcomeKeys {
    /// The keys that give the outcomes.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            OutcomeKeys::ValuesOrBase => &["values", "base"],
            OutcomeKeys::MinMax => &["min", "max"],
            OutcomeKeys::Tetrominoes => &[],
            OutcomeKeys::Chance => &["p"],
        }
    }
}

/// What a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number 0, 1, 2, ….
    Count,
    /// A real number.
    Real,
    /// One of these words.
    Word(&'static [&'static str]),
}

/// One parameter of a family (besides the keys giving its outcomes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Its key in a spec, e.g. `refill_below`.
    pub key: &'static str,
    /// What it takes.
    pub kind: ParamKind,
    /// Its value when left out, as written in a spec; `None` when required.
    pub default: Option<&'static str>,
    /// What it does, in one line.
    pub doc: &'static str,
    /// The values the tuner tries by default, as grid text (`1..10`,
    /// `0.005..0.995 step 0.01`); `Some("")` when tunable but left at its default
    /// unless a grid names it; `None` when not tunable.
    pub tune: Option<&'static str>,
}

/// One randomizer family.
#[derive(Clone, Copy)]
pub struct Family {
    /// Its name in a spec, e.g. `deck`.
    pub name: &'static str,
    /// What it is, in one line.
    pub summary: &'static str,
    /// Its spec with every key, e.g. `prd(p=P in [0.000001, 1])`.
    pub usage: &'static str,
    /// A spec to show as an example.
    pub example: &'static str,
    /// How it receives its outcomes.
    pub outcomes: OutcomeKeys,
    /// Its other parameters, in spec order.
    pub params: &'static [Param],
    /// Why the tuner cannot tune it, if it cannot.
    pub not_tunable: Option<&'static str>,
    /// Builds it from checked arguments.
    pub(crate) build: fn(&Args<'_>) -> Result<AnyRandomizer, SpecError>,
}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Family")
            .field("name", &self.name)
            .field("usage", &self.usage)
            .finish_non_exhaustive()
    }
}

impl Family {
    /// Every key a spec of this family may give: its outcome keys, then its
    /// parameters.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.outcomes
            .keys()
            .iter()
            .copied()
            .chain(self.params.iter().map(|p| p.key))
    }

    /// The parameter named `key`.
    pub fn param(&self, key: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.key == key)
    }

    /// The parameters the tuner may vary, in spec order.
    pub fn tuned(&self) -> impl Iterator<Item = &'static Param> + '_ {
        self.params.iter().filter(|p| p.tune.is_some())
    }

    /// Whether the tuner can search this family.
    pub fn is_tunable(&self) -> bool {
        self.not_tunable.is_none()
    }
}

/// Every family, in the order they are listed to users.
pub fn all() -> &'static [Family] {
    super::any::FAMILIES
}

/// The family named `name` (lowercase).
pub fn find(name: &str) -> Option<&'static Family> {
    all().iter().find(|f| f.name == name)
}

/// Every family's usage, for messages listing what is accepted.
pub fn usage_list() -> String {
    all().iter().map(|f| f.usage).collect::<Vec<_>>().join(", ")
}

/// The names of the families the tuner can search.
pub fn tunable_names() -> Vec<&'static str> {
    all()
        .iter()
        .filter(|f| f.is_tunable())
        .map(|f| f.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_builds_its_example_and_names_itself() {
        for family in all() {
            let built = super::super::Spec::build(family.example)
                .unwrap_or_else(|e| panic!("{}: {e}", family.example));
            let spec = super::super::Randomizer::spec(&built);
            let name = spec.split('(').next().unwrap_or_default();
            // A preset names the family it is a preset of.
            assert!(
                name == family.name || family.example == family.name,
                "{}: {spec}",
                family.name
            );
            assert!(family.usage.starts_with(family.name), "{}", family.usage);
        }
    }

    #[test]
    fn names_are_unique_and_keys_are_unique_within_a_family() {
        let mut names: Vec<_> = all().iter().map(|f| f.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all().len());
        for family in all() {
            let mut keys: Vec<_> = family.keys().collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), family.keys().count(), "{}", family.name);
        }
    }

    #[test]
    fn only_prd_and_pity_cannot_be_tuned() {
        let untunable: Vec<_> = all()
            .iter()
            .filter(|f| !f.is_tunable())
            .map(|f| f.name)
            .collect();
        assert_eq!(untunable, ["prd", "pity"]);
    }
}
