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
//! Each family's entry and builder live in the file of its randomizer (`deck.rs`
//! holds `deck::FAMILY` and `deck::build`, which returns a `Deck`), and
//! [`AnyRandomizer`](super::AnyRandomizer)'s one list in `any.rs` names the enum
//! variant, its families and their builders: adding a family touches its own file
//! and that one line. A family's file imports the vocabulary below the registry
//! (`family/kinds.rs`, `args.rs`), never the registry, so the layers do not
//! loop.

pub(crate) mod kinds;

pub use kinds::{Family, OutcomeKeys, Param, ParamKind};

/// Every family, in the order they are listed to users.
pub fn all() -> &'static [Family] {
    super::any::FAMILIES
}

/// The family named `name` (lowercase).
pub fn find(name: &str) -> Option<&'static Family> {
    super::any::registered(name).map(|(family, _)| family)
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
