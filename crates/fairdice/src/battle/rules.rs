//! [`Rules`]: how many dice each side rolls and when the attacker is beaten.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The two ways players count the attacker's armies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Rule {
    /// The attacker counts only attacking armies: rolls `min(3, A)` dice and is
    /// beaten at `A = 0` (the rule of the classic "100 against 100" simulation).
    Simple,
    /// The attacker counts every army on the territory, one of which must stay:
    /// rolls `min(3, A − 1)` dice and is beaten at `A = 1` (the board game's rule).
    Official,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Simple => "simple",
            Rule::Official => "official",
        })
    }
}

impl FromStr for Rule {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "simple" => Ok(Rule::Simple),
            "official" => Ok(Rule::Official),
            _ => Err(RulesError::UnknownRule(s.to_string())),
        }
    }
}

/// Why battle rules or armies are invalid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A rule name other than `simple` or `official`.
    #[error("unknown rule `{0}`; accepted: simple, official")]
    UnknownRule(String),
    /// A die with fewer than two faces.
    #[error("dice need at least 2 faces, got {0}")]
    TooFewFaces(u64),
    /// A die with more faces than a battle is solved for.
    #[error("dice may have at most {max} faces, got {faces}")]
    TooManyFaces {
        /// Faces asked for.
        faces: u64,
        /// [`MAX_FACES`].
        max: u64,
    },
    /// A dice cap above [`MAX_DICE`].
    #[error(
        "each side may roll at most {max} dice at a time (attacker {attacker}, defender {defender})"
    )]
    TooManyDice {
        /// Attacker's dice cap.
        attacker: u32,
        /// Defender's dice cap.
        defender: u32,
        /// [`MAX_DICE`].
        max: u32,
    },
    /// A side allowed no dice.
    #[error("each side must be allowed at least 1 die (attacker {attacker}, defender {defender})")]
    NoDice {
        /// Attacker's dice cap.
        attacker: u32,
        /// Defender's dice cap.
        defender: u32,
    },
    /// A side that cannot fight from the start.
    #[error("the {side} needs at least {least} armies under the {rule} rule, got {armies}")]
    TooFewArmies {
        /// `attacker` or `defender`.
        side: &'static str,
        /// The minimum.
        least: u32,
        /// The rule in force.
        rule: Rule,
        /// Armies given.
        armies: u32,
    },
}

crate::control::invalid_input!(RulesError);

/// The most faces a battle's dice may have: one roll walks every face.
pub const MAX_FACES: u64 = 100_000;
/// The most dice a side may roll at once.
pub const MAX_DICE: u32 = 1_000;

/// The rules of a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// How attacking armies are counted.
    pub rule: Rule,
    /// Faces of every die (6 in the board game).
    pub faces: u64,
    /// Most dice the attacker may roll (3).
    pub attacker_dice: u32,
    /// Most dice the defender may roll (2).
    pub defender_dice: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            rule: Rule::Simple,
            faces: 6,
            attacker_dice: 3,
            defender_dice: 2,
        }
    }
}

impl Rules {
    /// Checks the rules and the starting armies.
    ///
    /// # Errors
    /// [`RulesError`] naming what is wrong.
    pub fn check(&self, attacker: u32, defender: u32) -> Result<(), RulesError> {
        if self.faces < 2 {
            return Err(RulesError::TooFewFaces(self.faces));
        }
        if self.faces > MAX_FACES {
            return Err(RulesError::TooManyFaces {
                faces: self.faces,
                max: MAX_FACES,
            });
        }
        if self.attacker_dice > MAX_DICE || self.defender_dice > MAX_DICE {
            return Err(RulesError::TooManyDice {
                attacker: self.attacker_dice,
                defender: self.defender_dice,
                max: MAX_DICE,
            });
        }
        if self.attacker_dice == 0 || self.defender_dice == 0 {
            return Err(RulesError::NoDice {
                attacker: self.attacker_dice,
                defender: self.defender_dice,
            });
        }
        let least = self.beaten_at() + 1;
        if attacker < least {
            return Err(RulesError::TooFewArmies {
                side: "attacker",
                least,
                rule: self.rule,
                armies: attacker,
            });
        }
        if defender < 1 {
            return Err(RulesError::TooFewArmies {
                side: "defender",
                least: 1,
                rule: self.rule,
                armies: defender,
            });
        }
        Ok(())
    }

    /// The attacker's armies at which it is beaten (0 or 1).
    pub fn beaten_at(&self) -> u32 {
        match self.rule {
            Rule::Simple => 0,
            Rule::Official => 1,
        }
    }

    /// The dice each side rolls with `attacker` and `defender` armies, or `None` when
    /// the battle is over.
    pub fn dice(&self, attacker: u32, defender: u32) -> Option<(u32, u32)> {
        if defender == 0 || attacker <= self.beaten_at() {
            return None;
        }
        let fighting = attacker - self.beaten_at();
        Some((
            fighting.min(self.attacker_dice),
            defender.min(self.defender_dice),
        ))
    }
}
