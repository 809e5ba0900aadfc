//! [`BattleReport`]: everything shown about one Risk battle — P(attacker wins) as a
//! float and (when solved exactly) a fraction, survivors, expected losses, and on
//! request the one-roll tables, the win grid and a Monte Carlo check — built in
//! one place so `fairdice risk`, its `--json` document and the web app agree.
//!
//! With the `serde` feature the report serializes to the `fairdice risk --json`
//! document: `{"attacker", "defender", "rule", "faces", "attacker_dice",
//! "defender_dice", "method", "p_attacker_wins", "p_attacker_wins_exact",
//! "attacker_survivors_if_win", "defender_survivors_if_win", "expected_losses":
//! {"attacker", "defender"}, "attacker_survivors": [{"armies", "probability"}],
//! "defender_survivors": […]}`, then `"simulation"`, `"table"` and `"per_roll"`
//! when they were asked for. `p_attacker_wins_exact` is a fraction `"p/q"`, or
//! `null` for a battle solved in floating point; survivor lists hold only the
//! possible endings.
//!
//! # Example
//! ```
//! use fairdice::battle::Rules;
//! use fairdice::battle::report::{BattleReport, Precision};
//! use fairdice::Control;
//!
//! let rules = Rules::default();
//! let precision = Precision::for_battle(2, 1, &rules);
//! let report = BattleReport::solve(2, 1, &rules, precision, &Control::new())?;
//! assert_eq!(report.p_attacker_wins_exact.map(|p| p.to_string()), Some("1955/2592".into()));
//! # Ok::<(), fairdice::battle::BattleError>(())
//! ```

use num_bigint::BigUint;
use num_rational::BigRational;

use super::error::BattleError;
use super::roll::roll_losses;
use super::rules::{Rule, Rules};
use super::simulate::Simulation;
use super::solve::{FloatOutcome, solve_exact, solve_float};
use crate::contest::ContestError;
use crate::control::Control;
#[cfg(feature = "serde")]
use crate::dice::report::as_decimal;

/// Battles with up to this many states (attacking × defending armies) may be
/// solved exactly.
pub const EXACT_STATES: u64 = 90_000;

/// … and only while the longest battle's denominator, `faces^dice rolled`, stays
/// within this many bits. Exact fractions grow with every roll: past this size,
/// reducing them takes seconds to minutes (3000 against 30 took most of a minute), and 90,000
/// against 1 would hold gigabytes of them. 300 against 300 with d6 dice — at most
/// 600 rolls of 5 dice, 7,755 bits — is the largest balanced battle within both
/// limits, a few tenths of a second.
pub const EXACT_DENOMINATOR_BITS: f64 = 8_000.0;

/// How a battle was solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "snake_case")
)]
pub enum Precision {
    /// In exact fractions.
    Exact,
    /// In `f64`, for battles of thousands of armies.
    Float,
}

impl Precision {
    /// Exact within [`EXACT_STATES`] states and [`EXACT_DENOMINATOR_BITS`],
    /// floating point beyond. A battle has at most `attacker + defender` rolls (each
    /// takes at least one army), each of at most `attacker_dice + defender_dice`
    /// dice.
    pub fn for_battle(attacker: u32, defender: u32, rules: &Rules) -> Precision {
        let states = u64::from(attacker) * u64::from(defender);
        let rolls = f64::from(attacker) + f64::from(defender);
        let dice = f64::from(rules.attacker_dice) + f64::from(rules.defender_dice);
        let bits = rolls * dice * (rules.faces as f64).log2();
        if states <= EXACT_STATES && bits <= EXACT_DENOMINATOR_BITS {
            Precision::Exact
        } else {
            Precision::Float
        }
    }
}

/// The numbers of one battle, ready to print, serve or chart.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BattleReport {
    /// Attacking armies at the start.
    pub attacker: u32,
    /// Defending armies at the start.
    pub defender: u32,
    /// How attacking armies are counted.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_name"))]
    pub rule: Rule,
    /// Faces of every die.
    pub faces: u64,
    /// Most dice the attacker rolls at once.
    pub attacker_dice: u32,
    /// Most dice the defender rolls at once.
    pub defender_dice: u32,
    /// How it was solved.
    pub method: Precision,
    /// P(attacker wins).
    pub p_attacker_wins: f64,
    /// P(attacker wins) exactly, when solved exactly.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_optional_fraction"))]
    pub p_attacker_wins_exact: Option<BigRational>,
    /// The attacker's mean armies left when it wins.
    pub attacker_survivors_if_win: f64,
    /// The defender's mean armies left when it holds.
    pub defender_survivors_if_win: f64,
    /// Armies each side loses on average.
    pub expected_losses: Losses,
    /// P(the attacker wins with `armies` left), for every possible `armies`.
    pub attacker_survivors: Vec<Survivors>,
    /// P(the defender holds with `armies` left), for every possible `armies`.
    pub defender_survivors: Vec<Survivors>,
    /// A Monte Carlo of the same battle, when one was fought.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub simulation: Option<SimulationReport>,
    /// P(attacker wins) for `A, D = 1..=N`, `table[A - 1][D - 1]`, when asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub table: Option<Vec<Vec<f64>>>,
    /// The one-roll tables for every number of dice up to the caps, when asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub per_roll: Option<Vec<RollTable>>,
}

/// Armies lost on average by each side.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Losses {
    /// By the attacker.
    pub attacker: f64,
    /// By the defender.
    pub defender: f64,
}

/// One way a side can end the battle on top.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Survivors {
    /// Armies left.
    pub armies: u32,
    /// The probability of ending so.
    pub probability: f64,
}

/// A Monte Carlo of the battle beside the computed answer.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SimulationReport {
    /// Battles fought.
    pub runs: u64,
    /// The generator seed.
    pub seed: u64,
    /// Battles the attacker won.
    pub attacker_wins: u64,
    /// Their share.
    pub p_attacker_wins: f64,
    /// The 95% (Wilson) interval around it.
    pub interval95: [f64; 2],
}

/// One roll of `attacker_dice` against `defender_dice`: the count of each result.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RollTable {
    /// Dice rolled by the attacker.
    pub attacker_dice: u32,
    /// Dice rolled by the defender.
    pub defender_dice: u32,
    /// The equally likely rolls, `faces^(attacker_dice + defender_dice)`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub total: BigUint,
    /// One row per split of the compared pairs' losses.
    pub outcomes: Vec<RollResult>,
}

/// One result of a roll.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RollResult {
    /// Armies the attacker loses.
    pub attacker_loses: u32,
    /// Armies the defender loses.
    pub defender_loses: u32,
    /// Rolls giving it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_decimal"))]
    pub count: BigUint,
    /// `count / total`.
    pub probability: f64,
}

impl BattleReport {
    /// Solves the battle with `precision` under `control` and reports it.
    ///
    /// # Errors
    /// As [`solve_exact`].
    pub fn solve(
        attacker: u32,
        defender: u32,
        rules: &Rules,
        precision: Precision,
        control: &Control,
    ) -> Result<BattleReport, BattleError> {
        Ok(match precision {
            Precision::Exact => {
                let exact = solve_exact(attacker, defender, rules, control)?;
                BattleReport::new(&exact.to_float(), Some(exact.p_attacker_wins()))
            }
            Precision::Float => {
                BattleReport::new(&solve_float(attacker, defender, rules, control)?, None)
            }
        })
    }

    /// The report of a solved battle; `exact` is P(attacker wins) when it was
    /// solved exactly.
    pub fn new(outcome: &FloatOutcome, exact: Option<BigRational>) -> BattleReport {
        let survivors = |p: &[f64]| -> Vec<Survivors> {
            (0u32..)
                .zip(p)
                .filter(|(_, q)| **q > 0.0)
                .map(|(armies, &probability)| Survivors {
                    armies,
                    probability,
                })
                .collect()
        };
        let (attacker, defender) = outcome.expected_losses();
        let rules = outcome.rules;
        BattleReport {
            attacker: outcome.attacker,
            defender: outcome.defender,
            rule: rules.rule,
            faces: rules.faces,
            attacker_dice: rules.attacker_dice,
            defender_dice: rules.defender_dice,
            method: if exact.is_some() {
                Precision::Exact
            } else {
                Precision::Float
            },
            p_attacker_wins: outcome.attacker_win_probability(),
            p_attacker_wins_exact: exact,
            attacker_survivors_if_win: outcome.attacker_survivors_if_win(),
            defender_survivors_if_win: outcome.defender_survivors_if_win(),
            expected_losses: Losses { attacker, defender },
            attacker_survivors: survivors(&outcome.attacker_wins),
            defender_survivors: survivors(&outcome.defender_wins),
            simulation: None,
            table: None,
            per_roll: None,
        }
    }

    /// The battle in words: armies, rule, die and dice caps.
    pub fn setup(&self) -> String {
        format!(
            "{} attacking v {} defending, {} rule, d{}, attacker rolls up to {}, defender up to {}",
            self.attacker,
            self.defender,
            self.rule,
            self.faces,
            self.attacker_dice,
            self.defender_dice
        )
    }

    /// The rules the battle was fought under.
    pub fn rules(&self) -> Rules {
        Rules {
            rule: self.rule,
            faces: self.faces,
            attacker_dice: self.attacker_dice,
            defender_dice: self.defender_dice,
        }
    }

    /// The report as the pretty-printed `fairdice risk --json` document.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report holds only strings and numbers")
    }
}

impl SimulationReport {
    /// The report of `simulation`, fought with `seed`.
    pub fn new(simulation: &Simulation, seed: u64) -> SimulationReport {
        let (low, high) = simulation.interval95();
        SimulationReport {
            runs: simulation.runs,
            seed,
            attacker_wins: simulation.attacker_wins,
            p_attacker_wins: simulation.p_attacker_wins(),
            interval95: [low, high],
        }
    }
}

/// Every one-roll table up to the dice caps of `rules`: attacker dice 1, 2, …,
/// each against defender dice 1, 2, ….
///
/// # Errors
/// [`ContestError`] for rules without dice or faces, or if `control` stops it.
pub fn per_roll(rules: &Rules, control: &Control) -> Result<Vec<RollTable>, ContestError> {
    let mut tables = Vec::new();
    for a in 1..=rules.attacker_dice {
        for d in 1..=rules.defender_dice {
            let roll = roll_losses(a, d, rules.faces, control)?;
            let pairs = roll.pairs();
            let outcomes = (0u32..)
                .zip(roll.counts.iter().zip(roll.probabilities()))
                .map(|(k, (count, probability))| RollResult {
                    attacker_loses: k,
                    defender_loses: pairs - k,
                    count: count.clone(),
                    probability,
                })
                .collect();
            tables.push(RollTable {
                attacker_dice: a,
                defender_dice: d,
                total: roll.total(),
                outcomes,
            });
        }
    }
    Ok(tables)
}

#[cfg(feature = "serde")]
fn as_name<S: serde::Serializer>(rule: &Rule, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(rule)
}

#[cfg(feature = "serde")]
fn as_optional_fraction<S: serde::Serializer>(
    r: &Option<BigRational>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => crate::dice::report::as_fraction(r, s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::solve_exact;
    use crate::dice::die::ratio_to_f64;

    fn report(attacker: u32, defender: u32, precision: Precision) -> BattleReport {
        let rules = Rules::default();
        BattleReport::solve(attacker, defender, &rules, precision, &Control::new()).expect("valid")
    }

    #[test]
    fn exact_and_float_reports_agree() {
        let exact = report(10, 10, Precision::Exact);
        let float = report(10, 10, Precision::Float);
        assert_eq!(exact.method, Precision::Exact);
        assert_eq!(float.method, Precision::Float);
        assert_eq!(float.p_attacker_wins_exact, None);
        let p = solve_exact(10, 10, &Rules::default(), &Control::new())
            .unwrap()
            .p_attacker_wins();
        assert_eq!(exact.p_attacker_wins_exact, Some(p.clone()));
        assert!((exact.p_attacker_wins - ratio_to_f64(&p)).abs() < 1e-15);
        assert!((float.p_attacker_wins - exact.p_attacker_wins).abs() < 1e-12);
        assert_eq!(exact.rules(), Rules::default());
    }

    #[test]
    fn survivors_list_only_possible_endings() {
        // Simple rule: the attacker wins with 1 to 3 armies left, never 0; the
        // defender holds with 1 or 2.
        let r = report(3, 2, Precision::Exact);
        let armies = |s: &[Survivors]| s.iter().map(|s| s.armies).collect::<Vec<_>>();
        assert_eq!(armies(&r.attacker_survivors), [1, 2, 3]);
        assert_eq!(armies(&r.defender_survivors), [1, 2]);
        let total: f64 = r
            .attacker_survivors
            .iter()
            .chain(&r.defender_survivors)
            .map(|s| s.probability)
            .sum();
        assert!((total - 1.0).abs() < 1e-12);
        let lost = r.expected_losses;
        assert!(lost.attacker > 0.0 && lost.attacker <= 3.0);
        assert!(lost.defender > 0.0 && lost.defender <= 2.0);
    }

    #[test]
    fn the_one_roll_tables_include_the_classic_three_against_two() {
        let tables = per_roll(&Rules::default(), &Control::new()).unwrap();
        assert_eq!(tables.len(), 6);
        let three_two = &tables[5];
        assert_eq!((three_two.attacker_dice, three_two.defender_dice), (3, 2));
        assert_eq!(three_two.total, BigUint::from(7776u32));
        let rows: Vec<(u32, u32, String)> = three_two
            .outcomes
            .iter()
            .map(|o| (o.attacker_loses, o.defender_loses, o.count.to_string()))
            .collect();
        let expected = [(0, 2, "2890"), (1, 1, "2611"), (2, 0, "2275")];
        assert_eq!(rows, expected.map(|(a, d, c)| (a, d, c.to_string())));
    }

    #[test]
    fn precision_follows_the_size_of_the_battle_and_of_its_fractions() {
        let d6 = Rules::default();
        assert_eq!(Precision::for_battle(300, 300, &d6), Precision::Exact);
        assert_eq!(Precision::for_battle(301, 300, &d6), Precision::Float);
        // Few states, but up to 3030 rolls: fractions of 39,000 bits.
        assert_eq!(Precision::for_battle(3000, 30, &d6), Precision::Float);
        assert_eq!(Precision::for_battle(90_000, 1, &d6), Precision::Float);
        assert_eq!(Precision::for_battle(590, 10, &d6), Precision::Exact);
        let d1000 = Rules { faces: 1000, ..d6 };
        assert_eq!(Precision::for_battle(100, 100, &d1000), Precision::Float);
        assert_eq!(Precision::for_battle(80, 80, &d1000), Precision::Exact);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_has_the_documented_shape_in_order() {
        let mut r = report(3, 2, Precision::Float);
        let keys = |r: &BattleReport| -> Vec<String> {
            let value: serde_json::Value = serde_json::from_str(&r.to_json()).expect("json");
            value.as_object().expect("object").keys().cloned().collect()
        };
        assert_eq!(
            keys(&r),
            [
                "attacker",
                "defender",
                "rule",
                "faces",
                "attacker_dice",
                "defender_dice",
                "method",
                "p_attacker_wins",
                "p_attacker_wins_exact",
                "attacker_survivors_if_win",
                "defender_survivors_if_win",
                "expected_losses",
                "attacker_survivors",
                "defender_survivors"
            ]
        );
        assert!(r.to_json().contains("\"p_attacker_wins_exact\": null"));
        assert!(r.to_json().contains("\"method\": \"float\""));
        r.table = Some(vec![vec![0.5]]);
        r.per_roll = Some(per_roll(&r.rules(), &Control::new()).unwrap());
        let keys = keys(&r);
        assert_eq!(keys[keys.len() - 2..], ["table", "per_roll"]);
    }
}
