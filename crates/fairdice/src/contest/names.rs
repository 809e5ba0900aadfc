//! The names of [`Pairing`]s and [`TieRule`]s as the command line, URLs and JSON
//! write them — `sorted`, `unsorted`; `stand`, `a-wins`, `b-wins`, `reroll` — and
//! the words a report prints for them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{Pairing, TieRule};

/// A name that is not one of the accepted choices.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} `{given}`; expected {accepted}")]
pub struct UnknownName {
    /// What was being named: `pairing` or `tie rule`.
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The accepted names, joined for a sentence.
    pub accepted: &'static str,
}

impl Pairing {
    /// Every pairing, in the order a form offers them.
    pub const ALL: [Pairing; 2] = [Pairing::Sorted, Pairing::Unsorted];

    /// The name used in flags, URLs and JSON: `sorted` or `unsorted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pairing::Sorted => "sorted",
            Pairing::Unsorted => "unsorted",
        }
    }

    /// What it does, in a few words.
    pub fn words(self) -> &'static str {
        match self {
            Pairing::Sorted => "highest meets highest",
            Pairing::Unsorted => "in the order written",
        }
    }
}

impl TieRule {
    /// Every tie rule, in the order a form offers them.
    pub const ALL: [TieRule; 4] = [
        TieRule::Stand,
        TieRule::AWins,
        TieRule::BWins,
        TieRule::Reroll,
    ];

    /// The name used in flags, URLs and JSON: `stand`, `a-wins`, `b-wins` or
    /// `reroll`.
    pub fn as_str(self) -> &'static str {
        match self {
            TieRule::Stand => "stand",
            TieRule::AWins => "a-wins",
            TieRule::BWins => "b-wins",
            TieRule::Reroll => "reroll",
        }
    }

    /// What it does, as a report's heading says it: `ties stand`, `A wins ties`,
    /// `B wins ties`, `tied dice rerolled`.
    pub fn words(self) -> &'static str {
        match self {
            TieRule::Stand => "ties stand",
            TieRule::AWins => "A wins ties",
            TieRule::BWins => "B wins ties",
            TieRule::Reroll => "tied dice rerolled",
        }
    }
}

impl fmt::Display for Pairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for TieRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pairing {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Pairing, UnknownName> {
        Pairing::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownName {
                what: "pairing",
                given: s.to_string(),
                accepted: "sorted or unsorted",
            })
    }
}

impl FromStr for TieRule {
    type Err = UnknownName;

    /// Accepts `a_wins` for `a-wins` too, as URLs often write it.
    fn from_str(s: &str) -> Result<TieRule, UnknownName> {
        let name = s.replace('_', "-");
        TieRule::ALL
            .into_iter()
            .find(|t| t.as_str() == name)
            .ok_or_else(|| UnknownName {
                what: "tie rule",
                given: s.to_string(),
                accepted: "stand, a-wins, b-wins or reroll",
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for p in Pairing::ALL {
            assert_eq!(p.as_str().parse::<Pairing>(), Ok(p));
        }
        for t in TieRule::ALL {
            assert_eq!(t.as_str().parse::<TieRule>(), Ok(t));
        }
        assert_eq!("b_wins".parse::<TieRule>(), Ok(TieRule::BWins));
    }

    #[test]
    fn unknown_names_say_what_is_accepted() {
        let error = "highest".parse::<Pairing>().expect_err("not a pairing");
        assert_eq!(
            error.to_string(),
            "unknown pairing `highest`; expected sorted or unsorted"
        );
        assert!("draw".parse::<TieRule>().is_err());
        assert!("Sorted".parse::<Pairing>().is_err());
    }
}
