//! `risk`: a whole Risk battle solved — exactly while its states and fractions stay
//! small, in floating point beyond — with, on request, the one-roll tables, the
//! grid of P(attacker wins) and a seeded Monte Carlo cross-check, as a
//! [`RiskReport`].

use crate::charts::{Drawn, View};
use fairdice::battle::report::{
    EXACT_DENOMINATOR_BITS, EXACT_STATES, Precision, SimulationReport, per_roll,
};
use fairdice::battle::{Rule, Rules, most_dice, simulate, win_table};
use fairdice::control::{METER_SLACK, step_count};
use fairdice::{Control, FailureKind};
use serde::{Deserialize, Serialize};

pub use fairdice::battle::report::BattleReport;

use crate::{DEFAULT_SEED, Error, UseCase};

/// A battle's report as every front-end shows it: the engine's
/// [`BattleReport`], its setup in words, and why it was solved in floating point
/// when it was.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskReport {
    /// The battle solved, with the tables asked for.
    #[serde(flatten)]
    pub battle: BattleReport,
    /// The setup in words: `5 attacking v 5 defending, official rule, d6, …`.
    pub setup: String,
    /// Why the battle was solved in floating point (absent when exact).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub float_reason: Option<String>,
}

impl RiskReport {
    /// `battle` with its words.
    pub fn new(battle: BattleReport) -> RiskReport {
        let float_reason = battle.p_attacker_wins_exact.is_none().then(|| {
            let exact = Precision::for_battle(battle.attacker, battle.defender, &battle.rules());
            if exact == Precision::Exact {
                "solved in floating point, as asked".to_string()
            } else {
                format!(
                    "solved in floating point: an exact answer needs more than {EXACT_STATES} states or fractions of more than {EXACT_DENOMINATOR_BITS} bits"
                )
            }
        });
        RiskReport {
            setup: battle.setup(),
            float_reason,
            battle,
        }
    }
}

/// The most one-roll tables a request lists (attacker dice × defender dice).
pub const MAX_PER_ROLL_TABLES: u32 = 100;

/// Budget steps a die a simulated battle rolls costs: a roll of at most five
/// dice sorts them in place (measured: a million battles of 100 against 100
/// armies with five-sided dice roll about 4.7·10⁸ dice in 3.2 s of CPU, 7 ns a
/// die, under two steps of about 5 ns).
pub const STEPS_PER_BATTLE_DIE: u64 = 2;

/// The largest grid of P(attacker wins) a request computes (A, D = 1..=N).
pub const MAX_TABLE: u32 = 2000;

/// A battle and what to report of it.
///
/// As JSON: `{"attacker": 10, "defender": 8, "rule": "official", "faces": 6,
/// "attacker_dice": 3, "defender_dice": 2, "per_roll": false, "table": null,
/// "float": false, "runs": null, "seed": 1}` (only the armies are required).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiskRequest {
    /// Attacking armies (under the official rule, every army on the territory).
    pub attacker: u32,
    /// Defending armies.
    pub defender: u32,
    /// How the attacker's armies are counted.
    #[serde(default = "default_rule")]
    pub rule: Rule,
    /// Faces of each die.
    #[serde(default = "default_faces")]
    pub faces: u64,
    /// Most dice the attacker rolls at once.
    #[serde(default = "default_attacker_dice")]
    pub attacker_dice: u32,
    /// Most dice the defender rolls at once.
    #[serde(default = "default_defender_dice")]
    pub defender_dice: u32,
    /// Include the one-roll tables for every number of dice.
    #[serde(default)]
    pub per_roll: bool,
    /// Include the grid of P(attacker wins) for A, D = 1..=N.
    #[serde(default)]
    pub table: Option<u32>,
    /// Solve in floating point even when an exact answer is affordable.
    #[serde(default)]
    pub float: bool,
    /// Also fight this many battles by seeded Monte Carlo (`simulate` is read
    /// too, its earlier name).
    #[serde(default, alias = "simulate")]
    pub runs: Option<u64>,
    /// The simulation's seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_rule() -> Rule {
    Rules::default().rule
}

fn default_faces() -> u64 {
    Rules::default().faces
}

fn default_attacker_dice() -> u32 {
    Rules::default().attacker_dice
}

fn default_defender_dice() -> u32 {
    Rules::default().defender_dice
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

impl RiskRequest {
    /// The battle of `attacker` against `defender` armies under the default rules.
    pub fn new(attacker: u32, defender: u32) -> RiskRequest {
        let rules = Rules::default();
        RiskRequest {
            attacker,
            defender,
            rule: rules.rule,
            faces: rules.faces,
            attacker_dice: rules.attacker_dice,
            defender_dice: rules.defender_dice,
            per_roll: false,
            table: None,
            float: false,
            runs: None,
            seed: DEFAULT_SEED,
        }
    }

    /// The same battle under `rules`.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> RiskRequest {
        self.rule = rules.rule;
        self.faces = rules.faces;
        self.attacker_dice = rules.attacker_dice;
        self.defender_dice = rules.defender_dice;
        self
    }

    /// The rule, die and dice caps.
    pub fn rules(&self) -> Rules {
        Rules {
            rule: self.rule,
            faces: self.faces,
            attacker_dice: self.attacker_dice,
            defender_dice: self.defender_dice,
        }
    }

    /// How the battle is solved: exactly while its states and fractions stay small
    /// (or in floating point when asked).
    pub fn precision(&self) -> Precision {
        if self.float {
            Precision::Float
        } else {
            Precision::for_battle(self.attacker, self.defender, &self.rules())
        }
    }

    /// The request as a `fairdice risk` command line (defaults left out).
    pub fn command(&self) -> String {
        let defaults = Rules::default();
        let mut command = format!("fairdice risk {} {}", self.attacker, self.defender);
        if self.rule != defaults.rule {
            command.push_str(&format!(" --rule {}", self.rule));
        }
        if self.faces != defaults.faces {
            command.push_str(&format!(" --faces {}", self.faces));
        }
        if self.attacker_dice != defaults.attacker_dice {
            command.push_str(&format!(" --attacker-dice {}", self.attacker_dice));
        }
        if self.defender_dice != defaults.defender_dice {
            command.push_str(&format!(" --defender-dice {}", self.defender_dice));
        }
        if self.float {
            command.push_str(" --float");
        }
        if self.per_roll {
            command.push_str(" --per-roll");
        }
        if let Some(n) = self.table {
            command.push_str(&format!(" --table {n}"));
        }
        if let Some(runs) = self.runs {
            command.push_str(&format!(" --runs {runs}"));
            if self.seed != DEFAULT_SEED {
                command.push_str(&format!(" --seed {}", self.seed));
            }
        }
        command
    }

    /// Refuses what cannot be asked before any work.
    fn check(&self, control: &Control) -> Result<(), Error> {
        let rules = self.rules();
        rules
            .check(self.attacker, self.defender)
            .map_err(|e| Error::from_failure(&e))?;
        if self.per_roll && rules.attacker_dice * rules.defender_dice > MAX_PER_ROLL_TABLES {
            return Err(Error::invalid_input(format!(
                "the one-roll tables list every pair of dice counts, at most {MAX_PER_ROLL_TABLES}; {} × {} dice would be {}",
                rules.attacker_dice,
                rules.defender_dice,
                rules.attacker_dice * rules.defender_dice
            )));
        }
        if let Some(n) = self.table
            && (n == 0 || n > MAX_TABLE)
        {
            return Err(Error::invalid_input(format!(
                "the grid of P(attacker wins) covers 1 to N armies a side, N from 1 to {MAX_TABLE}; got {n}"
            )));
        }
        if self.runs == Some(0) {
            return Err(Error::invalid_input(
                "simulate at least 1 battle (the number of battles to fight)",
            ));
        }
        // Before the battle is solved, only the longest battles bound the dice
        // (each roll costs at least one army): refused only past the budget's
        // slack, as the simulation's meter would stop them.
        if let Some(runs) = self.runs {
            let dice = most_dice(self.attacker, self.defender, &rules, runs);
            self.price_simulation(runs, dice, METER_SLACK as f64, "could roll", control)?;
        }
        Ok(())
    }

    /// Refuses `runs` battles rolling `dice` dice (`how`: "could roll", "roll
    /// on average") whose steps pass `slack` times the budget.
    fn price_simulation(
        &self,
        runs: u64,
        dice: f64,
        slack: f64,
        how: &str,
        control: &Control,
    ) -> Result<(), Error> {
        let steps = dice * STEPS_PER_BATTLE_DIE as f64;
        if steps > slack * control.max_steps() as f64 {
            return Err(Error::too_big(format!(
                "{runs} battles of {} against {} armies {how} {dice:.2e} dice, more than the budget allows (about {} steps, the limit is {}); simulate fewer battles",
                self.attacker,
                self.defender,
                step_count(steps),
                step_count(control.max_steps() as f64)
            )));
        }
        Ok(())
    }
}

impl UseCase for RiskRequest {
    const NAME: &'static str = "risk";
    type Report = RiskReport;

    /// The armies left when the battle ends, and the heat map of P(attacker wins)
    /// when the report has its table; the heat map is square-ish, as tall as it is
    /// wide on a phone.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        use fairdice_charts::Chart as _;
        let (width, height) = crate::charts::size(view);
        let mut drawn = Vec::new();
        if let Some(report) = reports.first().map(|r| &r.battle) {
            drawn.push(Drawn {
                name: "survivors",
                svg: fairdice_charts::survivors_chart(report)
                    .size(width, height)
                    .to_svg(),
            });
            if let Some(table) = &report.table {
                let side = height.max(width.min(fairdice_charts::DEFAULT_HEIGHT as u32));
                drawn.push(Drawn {
                    name: "heat_map",
                    svg: fairdice_charts::win_grid_chart(table, &report.rules())
                        .size(width, side)
                        .to_svg(),
                });
            }
        }
        Ok(drawn)
    }

    fn run(&self, control: &Control) -> Result<RiskReport, Error> {
        self.check(control)?;
        let rules = self.rules();
        let battle = |e: fairdice::battle::BattleError| {
            let error = Error::from_failure(&e);
            if error.kind == FailureKind::TooLarge {
                error.with_hint(
                    "fewer armies, fewer dice per roll, a smaller die, or fewer simulated battles are cheaper",
                )
            } else {
                error
            }
        };
        let mut report = BattleReport::solve(
            self.attacker,
            self.defender,
            &rules,
            self.precision(),
            control,
        )
        .map_err(battle)?;
        if let Some(n) = self.table {
            report.table = Some(win_table(n, &rules, control).map_err(battle)?);
        }
        if self.per_roll {
            report.per_roll = Some(per_roll(&rules, control).map_err(|e| Error::from_failure(&e))?);
        }
        if let Some(runs) = self.runs {
            // Solved, the battle says how long it lasts on average: a roll costs
            // at least one army, so the rolls are at most the expected losses.
            let losses = report.expected_losses.attacker + report.expected_losses.defender;
            let per_roll = f64::from(
                self.attacker.min(rules.attacker_dice) + self.defender.min(rules.defender_dice),
            );
            let dice = runs as f64 * losses.max(1.0) * per_roll;
            self.price_simulation(runs, dice, 1.0, "roll on average", control)?;
            let fought = simulate(
                self.attacker,
                self.defender,
                &rules,
                runs,
                self.seed,
                control,
            )
            .map_err(battle)?;
            report.simulation = Some(SimulationReport::new(&fought, self.seed));
        }
        Ok(RiskReport::new(report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_battle_is_exact_with_its_tables() {
        let request = RiskRequest {
            per_roll: true,
            table: Some(3),
            ..RiskRequest::new(3, 2)
        };
        let report = request.run(&Control::new()).unwrap();
        assert_eq!(report.battle.method, Precision::Exact);
        assert_eq!(
            report
                .battle
                .p_attacker_wins_exact
                .as_ref()
                .map(ToString::to_string),
            Some("6610505/10077696".to_string())
        );
        assert_eq!(report.battle.table.as_ref().map(Vec::len), Some(3));
        assert_eq!(report.battle.per_roll.as_ref().map(Vec::len), Some(6));
    }

    #[test]
    fn large_battles_are_solved_in_floating_point() {
        assert_eq!(RiskRequest::new(400, 400).precision(), Precision::Float);
        let forced = RiskRequest {
            float: true,
            ..RiskRequest::new(4, 4)
        };
        assert_eq!(forced.precision(), Precision::Float);
    }

    #[test]
    fn invalid_battles_and_runaway_requests_are_refused() {
        let official = RiskRequest::new(1, 3).with_rules(Rules {
            rule: Rule::Official,
            ..Rules::default()
        });
        let error = official.run(&Control::new()).unwrap_err();
        assert_eq!(error.exit_status(), 2);
        assert!(
            error.message.contains("at least 2 armies"),
            "{}",
            error.message
        );
        for request in [
            RiskRequest {
                table: Some(0),
                ..RiskRequest::new(3, 2)
            },
            RiskRequest {
                runs: Some(0),
                ..RiskRequest::new(3, 2)
            },
            RiskRequest {
                per_roll: true,
                attacker_dice: 20,
                defender_dice: 20,
                ..RiskRequest::new(3, 2)
            },
        ] {
            let error = request.run(&Control::new()).unwrap_err();
            assert_eq!(error.exit_status(), 2, "{request:?}");
        }
        let runaway = RiskRequest {
            runs: Some(1_000_000_000_000),
            ..RiskRequest::new(100, 100)
        };
        assert_eq!(runaway.run(&Control::new()).unwrap_err().exit_status(), 3);
        // The state count of the largest armies does not wrap.
        let huge = RiskRequest::new(u32::MAX, u32::MAX);
        assert_eq!(huge.run(&Control::new()).unwrap_err().exit_status(), 3);
    }

    #[test]
    fn a_simulation_is_seeded() {
        let request = RiskRequest {
            runs: Some(2_000),
            seed: 7,
            ..RiskRequest::new(5, 5)
        };
        let a = request.run(&Control::new()).unwrap();
        let b = request.run(&Control::new()).unwrap();
        assert_eq!(a.battle.simulation, b.battle.simulation);
        assert_eq!(a.battle.simulation.expect("simulated").runs, 2_000);
    }

    #[test]
    fn requests_read_from_json_with_defaults() {
        let request: RiskRequest =
            serde_json::from_str(r#"{"attacker": 10, "defender": 8, "rule": "official"}"#).unwrap();
        assert_eq!(request.rule, Rule::Official);
        assert_eq!(request.rules().faces, 6);
        assert_eq!(request.command(), "fairdice risk 10 8 --rule official");
        assert!(serde_json::from_str::<RiskRequest>(r#"{"attacker": 1}"#).is_err());
    }
}
