//! What a family declares about itself: its name, usage, outcome keys and
//! parameters ([`Family`], [`Param`]). Each family's file holds its entry; the
//! registry (`any.rs`) pairs it with the family's builder.

use std::fmt;

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
