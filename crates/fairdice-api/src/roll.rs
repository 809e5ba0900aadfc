//! `roll`: roll a dice expression, every die shown, with a seed that repeats it.

use fairdice::Control;
use fairdice::dice::notation::{self, Dialect, PoolKind, Roll, Translation};
use fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH;
use fairdice::rng;
use serde::{Deserialize, Serialize};

use crate::dist::{DistRequest, dice_per_roll};
use crate::{Error, UseCase};

/// Most rolls one request may ask for (more is almost certainly a typo; a
/// distribution is [`DistRequest`] with `runs`).
pub const MAX_TIMES: u64 = 1_000_000;

/// About how many bytes one shown die takes until it is reported: its roll
/// (value, rolls, whether it counts), its row of the report and its JSON
/// (measured: about 150 bytes for a die rolled once).
pub const BYTES_PER_SHOWN_DIE: u64 = 200;

/// Budget steps one shown die costs: rolled, recorded and written into the
/// report (measured: `10d10!kh3` rolled 1,000 times, 13,000 dice, 2.9 ms;
/// `3d6` rolled 1,000 times, 3,000 dice, 1.9 to 2.4 ms, each roll's own row).
pub const STEPS_PER_SHOWN_DIE: u64 = 128;

/// Rolls of one dice expression.
///
/// As JSON: `{"expression": "4d6kh3", "times": 1, "seed": 7, "explode_depth": 9}`
/// (`expression` and `seed` are required: a front-end picks and shows a seed when
/// the user gives none, so every roll can be repeated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollRequest {
    /// The expression.
    pub expression: String,
    /// How many times to roll it.
    #[serde(default = "one")]
    pub times: u64,
    /// The seed: the same seed gives the same rolls on every platform.
    pub seed: u64,
    /// How many extra rolls an exploding die may make.
    #[serde(default = "default_explode_depth")]
    pub explode_depth: u32,
    /// Read the expression as this dice tool reads it (`fairdice` by default).
    #[serde(default, skip_serializing_if = "crate::dist::is_fairdice")]
    pub dialect: Dialect,
}

fn one() -> u64 {
    1
}

fn default_explode_depth() -> u32 {
    DEFAULT_EXPLODE_DEPTH
}

/// The rolls, as `fairdice roll --json` prints them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollReport {
    /// The expression.
    pub expression: String,
    /// The seed that repeats these rolls.
    pub seed: u64,
    /// Each roll.
    pub rolls: Vec<RollShown>,
    /// Parts of the expression other dice tools read differently (absent when
    /// none does).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_readings: Vec<fairdice::dice::notation::OtherReading>,
    /// The expression as written and how a dice tool's dialect read it
    /// (absent for fairdice's own reading); `expression` is then that reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Translation>,
}

/// One roll: its value, every pool with its dice, and the value of every name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollShown {
    /// The value of the expression.
    pub value: i64,
    /// The value's label, for an expression with labels (`as {…}`), or the
    /// tuple as shown (`(3, 1)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// For a tuple, each of its values (`value` is then the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<i64>>,
    /// Every pool rolled (dice terms, groups, repetitions), in the order finished:
    /// the terms inside a group or a repetition come before it.
    pub terms: Vec<TermShown>,
    /// Every binding rolled (`[r = d20] …`), in the order rolled.
    pub names: Vec<NameShown>,
}

/// One pool of a roll: a dice term, a group or a repetition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermShown {
    /// The term as written, e.g. `4d6kh3`, `{d8!, d6!}kh1`, `6#(4d6kh3)`.
    pub term: String,
    /// `dice`, `group` or `repeat`.
    pub kind: &'static str,
    /// Its value.
    pub value: i64,
    /// Each die (each value, for a group or a repetition): its final value,
    /// every roll made for it, whether it counts, whether an explosion added it.
    pub dice: Vec<DieShown>,
}

/// One die of a term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DieShown {
    /// Its final value (compounded explosions added up, clamps applied).
    pub value: i64,
    /// Every roll made for it, rerolled ones included.
    pub rolls: Vec<i64>,
    /// Whether it counts after keep/drop.
    pub counted: bool,
    /// Whether an explosion added it (`!`, `!p`, `x`: each extra roll is a die).
    pub extra: bool,
}

/// The value a bound name stood for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NameShown {
    /// The name.
    pub name: String,
    /// The binding as written, e.g. `r = d20`.
    pub binding: String,
    /// The value rolled for it.
    pub value: i64,
}

/// How a roll's value is shown: by its label, or as a tuple.
struct Shown {
    labels: Option<Vec<String>>,
    code: Option<fairdice::dice::tuple::TupleCode>,
}

impl RollShown {
    fn new(roll: &Roll, text: &str, shown: &Shown) -> RollShown {
        let values = shown.code.map(|code| code.unpack(roll.value));
        RollShown {
            value: values.as_ref().map_or(roll.value, |values| values[0]),
            label: match (&shown.labels, shown.code) {
                (_, Some(code)) => Some(code.show(roll.value)),
                (Some(names), None) => usize::try_from(roll.value)
                    .ok()
                    .and_then(|i| names.get(i).cloned()),
                (None, None) => None,
            },
            values,
            terms: roll
                .pools
                .iter()
                .map(|p| TermShown {
                    term: text.get(p.span.clone()).unwrap_or_default().to_string(),
                    kind: match p.kind {
                        PoolKind::Dice => "dice",
                        PoolKind::Group => "group",
                        PoolKind::Repeat => "repeat",
                        PoolKind::Function => "function",
                        PoolKind::Hand => "hand",
                    },
                    value: p.value,
                    dice: p
                        .dice
                        .iter()
                        .map(|d| DieShown {
                            value: d.value,
                            rolls: d.rolls.clone(),
                            counted: d.counted,
                            extra: d.extra,
                        })
                        .collect(),
                })
                .collect(),
            names: roll
                .bindings
                .iter()
                .map(|b| NameShown {
                    name: b.name.clone(),
                    binding: text.get(b.span.clone()).unwrap_or_default().to_string(),
                    value: b.value,
                })
                .collect(),
        }
    }
}

impl UseCase for RollRequest {
    const NAME: &'static str = "roll";
    type Report = RollReport;

    fn run(&self, control: &Control) -> Result<RollReport, Error> {
        if self.times > MAX_TIMES {
            return Err(Error::invalid_input(format!(
                "{} rolls is more than the {MAX_TIMES} one request shows; for a distribution ask for `{}`",
                self.times,
                DistRequest::new(self.expression.clone())
                    .estimated(self.times, self.seed)
                    .command()
            )));
        }
        if self.dialect != Dialect::Fairdice {
            let translation = crate::dist::translated(&self.expression, self.dialect)?;
            let request = RollRequest {
                expression: translation.expression.clone(),
                dialect: Dialect::Fairdice,
                ..self.clone()
            };
            let mut report = request.run(control)?;
            report.other_readings.clear();
            report.dialect = Some(translation);
            return Ok(report);
        }
        let dist = DistRequest {
            explode_depth: self.explode_depth,
            ..DistRequest::new(self.expression.clone())
        };
        let expr = dist.parse()?;
        let options = dist.options();
        // Every die of every roll is shown: priced in steps and in memory first.
        let times = self.times.max(1);
        let most = (control.max_steps() / STEPS_PER_SHOWN_DIE / times)
            .min(control.max_memory() / BYTES_PER_SHOWN_DIE / times);
        let dice = dice_per_roll(&expr, &options, self.seed, most, control)
            .map_err(|e| Error::notation(&e, &self.expression))?;
        let shown = dice.saturating_mul(self.times);
        let steps = shown as f64 * STEPS_PER_SHOWN_DIE as f64;
        let bytes = shown.saturating_mul(BYTES_PER_SHOWN_DIE);
        if control.afford(steps).is_err() || control.reserve(bytes).is_err() {
            return Err(Error::too_big(format!(
                "{} rolls of about {dice} dice each would show {shown} dice (about {} of memory), more than the budget allows; ask for fewer rolls, or for the distribution: `{}`",
                self.times,
                fairdice::control::bytes(bytes),
                DistRequest::new(self.expression.clone()).command()
            )));
        }
        let shown = Shown {
            labels: expr.label_names(),
            code: expr.tuple_code(),
        };
        let mut generator = rng::seeded(self.seed);
        let mut rolls = Vec::new();
        control.stage("rolling", self.times);
        for _ in 0..self.times {
            control.check().map_err(|stop| Error::from_failure(&stop))?;
            let roll = notation::roll(&expr, &options, &mut generator)
                .map_err(|e| Error::notation(&e, &self.expression))?;
            rolls.push(RollShown::new(&roll, &self.expression, &shown));
            control.advance(1);
        }
        Ok(RollReport {
            expression: self.expression.clone(),
            seed: self.seed,
            rolls,
            other_readings: notation::other_readings(&self.expression, &expr),
            dialect: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(expression: &str, times: u64, seed: u64) -> Result<RollReport, Error> {
        RollRequest {
            expression: expression.into(),
            times,
            seed,
            explode_depth: DEFAULT_EXPLODE_DEPTH,
            dialect: Dialect::Fairdice,
        }
        .run(&Control::new())
    }

    #[test]
    fn every_die_is_shown_and_the_seed_repeats_the_rolls() {
        let report = roll("4d6kh3+2", 3, 7).unwrap();
        assert_eq!(report.rolls.len(), 3);
        let first = &report.rolls[0];
        assert_eq!(first.terms[0].term, "4d6kh3");
        assert_eq!(first.terms[0].dice.len(), 4);
        assert_eq!(first.terms[0].dice.iter().filter(|d| d.counted).count(), 3);
        assert_eq!(first.value, first.terms[0].value + 2);
        assert_eq!(roll("4d6kh3+2", 3, 7).unwrap(), report);
    }

    #[test]
    fn names_groups_repetitions_and_explosions_show_every_die() {
        let report = roll("[r = d20] r >= 10 ? 2d6 + r : r", 20, 3).unwrap();
        for shown in &report.rolls {
            let r = &shown.names[0];
            assert_eq!((r.name.as_str(), r.binding.as_str()), ("r", "r = d20"));
            assert_eq!(shown.terms[0].term, "d20");
            assert_eq!(shown.terms[0].dice[0].value, r.value);
            if r.value >= 10 {
                // The branch taken is rolled, and only it.
                assert_eq!(shown.terms.len(), 2);
                assert_eq!(shown.value, shown.terms[1].value + r.value);
            } else {
                assert_eq!((shown.terms.len(), shown.value), (1, r.value));
            }
        }
        // Each 10 adds a die, marked, that keep/drop ranks with the others.
        let report = roll("10d10!kh3", 200, 5).unwrap();
        let exploded = report
            .rolls
            .iter()
            .find(|r| r.terms[0].dice.len() > 10)
            .unwrap();
        let term = &exploded.terms[0];
        assert_eq!(term.kind, "dice");
        assert_eq!(
            term.dice.iter().filter(|d| d.extra).count(),
            term.dice.len() - 10
        );
        assert_eq!(term.dice.iter().filter(|d| d.counted).count(), 3);
        // A group shows its members after their own terms; a repetition its rolls.
        let report = roll("{d8!, d6!}kh1", 1, 8).unwrap();
        let kinds: Vec<&str> = report.rolls[0].terms.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, ["dice", "dice", "group"]);
        let group = &report.rolls[0].terms[2];
        assert_eq!(group.dice.len(), 2);
        assert_eq!(group.value, report.rolls[0].value);
        let report = roll("6#(4d6kh3)kh1", 1, 1).unwrap();
        let terms = &report.rolls[0].terms;
        assert_eq!(terms.len(), 7);
        assert_eq!(terms[6].kind, "repeat");
        let best = terms[..6].iter().map(|t| t.value).max().unwrap();
        assert_eq!(report.rolls[0].value, best);
    }

    #[test]
    fn too_many_rolls_point_to_a_distribution() {
        let error = roll("d6", MAX_TIMES + 1, 1).unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(
            error.message.contains("fairdice dist d6 --runs 1000001"),
            "{}",
            error.message
        );
    }
}
