//! The Risk page and its API: a battle's armies and rules ([`RiskRequest`], read
//! from the URL so every result is a shareable link), solved exactly — or in
//! floating point past [`EXACT_STATES`] states or [`EXACT_DENOMINATOR_BITS`], as
//! the command line does — under the server's limits.
//!
//! - `GET /risk?attacker=10&defender=10&rule=simple&faces=6&attacker_dice=3&defender_dice=2&grid=20`:
//!   the page.
//! - `GET /api/risk?attacker=…&defender=…[&rule=…&faces=…&attacker_dice=…&defender_dice=…&per_roll=1&table=N&float=1&simulate=RUNS&seed=S]`:
//!   `fairdice risk A D [--per-roll] [--table N] [--float] [--simulate RUNS --seed S] --json`.
//! - `GET /chart/risk-survivors.svg|png?…`: the armies left when the battle ends.
//! - `GET /chart/risk-grid.svg|png?rule=…&faces=…&attacker_dice=…&defender_dice=…&grid=N`:
//!   the heat map of P(attacker wins) for A, D = 1..N.

mod api;
mod page;

use axum::Router;
use axum::routing::get;
use fairdice::Control;
use fairdice::battle::report::{
    BattleReport, EXACT_DENOMINATOR_BITS, EXACT_STATES, Precision, SimulationReport, per_roll,
};
use fairdice::battle::{Rule, Rules, most_dice, simulate, win_table};

use crate::AppState;
use crate::compute::Stopped;
use crate::limits::{Limits, read_seed};
use crate::problem::Problem;

/// The routes of the Risk page and its API.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/risk", get(page::show))
        .route("/api/risk", get(api::risk))
        .route("/chart/risk-survivors.svg", get(api::survivors_svg))
        .route("/chart/risk-survivors.png", get(api::survivors_png))
        .route("/chart/risk-grid.svg", get(api::grid_svg))
        .route("/chart/risk-grid.png", get(api::grid_png))
}

/// The heat map's size when the URL does not say (the command line's `--plot`).
const DEFAULT_GRID: u32 = 20;

/// The simulation's seed when the URL does not say (the command line's `--seed`).
const DEFAULT_SEED: u64 = 1;

/// What a Risk request asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RiskRequest {
    /// Attacking armies (under the official rule, every army on the territory).
    pub attacker: Option<u32>,
    /// Defending armies.
    pub defender: Option<u32>,
    /// The rule, die and dice caps.
    pub rules: Rules,
    /// The heat map covers A, D = 1..=grid.
    pub grid: u32,
    /// Include the one-roll tables.
    pub per_roll: bool,
    /// Include the win grid for A, D = 1..=N.
    pub table: Option<u32>,
    /// Solve in floating point even when an exact answer is affordable.
    pub float: bool,
    /// Also fight this many battles by Monte Carlo.
    pub simulate: Option<u64>,
    /// The seed of the simulation (the command line's default, 1).
    pub seed: u64,
}

impl RiskRequest {
    /// Reads a request from a query string: `attacker`, `defender`, `rule`,
    /// `faces`, `attacker_dice`, `defender_dice`, `grid`, `simulate`, `seed`, and
    /// for the API `per_roll`, `table` and `float`. Blank values take their defaults; unknown
    /// parameters are ignored.
    ///
    /// # Errors
    /// [`Problem::BadRequest`] for a value that is not a number, a rule or a yes/no.
    pub fn from_query(query: Option<&str>) -> Result<RiskRequest, Problem> {
        let mut request = RiskRequest {
            attacker: None,
            defender: None,
            rules: Rules::default(),
            grid: DEFAULT_GRID,
            per_roll: false,
            table: None,
            float: false,
            simulate: None,
            seed: DEFAULT_SEED,
        };
        for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            let rules = &mut request.rules;
            match key.as_ref() {
                "attacker" => request.attacker = Some(number(&key, value)?),
                "defender" => request.defender = Some(number(&key, value)?),
                "rule" => {
                    rules.rule = value
                        .parse::<Rule>()
                        .map_err(|e| Problem::BadRequest(e.to_string()))?;
                }
                "faces" => rules.faces = number(&key, value)?,
                "attacker_dice" => rules.attacker_dice = number(&key, value)?,
                "defender_dice" => rules.defender_dice = number(&key, value)?,
                "grid" => request.grid = number(&key, value)?,
                "table" => request.table = Some(number(&key, value)?),
                "per_roll" => request.per_roll = yes_or_no(&key, value)?,
                "float" => request.float = yes_or_no(&key, value)?,
                "simulate" => request.simulate = Some(number(&key, value)?),
                "seed" => request.seed = read_seed(value)?,
                _ => {}
            }
        }
        Ok(request)
    }

    /// Whether no battle was asked for (the page then shows examples).
    pub fn is_empty(&self) -> bool {
        self.attacker.is_none() && self.defender.is_none()
    }

    /// The query string of the rules alone, as the heat map needs them.
    pub fn rules_query(&self) -> Vec<(&'static str, String)> {
        let rules = &self.rules;
        vec![
            ("rule", rules.rule.to_string()),
            ("faces", rules.faces.to_string()),
            ("attacker_dice", rules.attacker_dice.to_string()),
            ("defender_dice", rules.defender_dice.to_string()),
        ]
    }

    /// The query string of the battle (armies, rules, `float`), as the survivors
    /// chart takes it.
    pub fn battle_query(&self) -> String {
        encode(&self.battle_pairs())
    }

    /// The battle's query string with the simulation, as the API takes it.
    pub fn api_query(&self) -> String {
        let mut pairs = self.battle_pairs();
        if let Some(runs) = self.simulate {
            pairs.push(("simulate", runs.to_string()));
            pairs.push(("seed", self.seed.to_string()));
        }
        encode(&pairs)
    }

    fn battle_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(a) = self.attacker {
            pairs.push(("attacker", a.to_string()));
        }
        if let Some(d) = self.defender {
            pairs.push(("defender", d.to_string()));
        }
        pairs.extend(self.rules_query());
        if self.float {
            pairs.push(("float", "1".to_string()));
        }
        pairs
    }

    /// The query string of the heat map (rules and `grid`).
    pub fn grid_query(&self) -> String {
        let mut pairs = self.rules_query();
        pairs.push(("grid", self.grid.to_string()));
        encode(&pairs)
    }

    /// Refuses what is over the web app's limits, before any work.
    fn check_limits(&self, limits: &Limits) -> Result<(), Problem> {
        let refuse = |message: String| Err(Problem::Refused(message));
        let rules = &self.rules;
        if rules.faces > limits.max_battle_faces {
            return refuse(format!(
                "dice of {} faces: the web app rolls dice of up to {} faces",
                rules.faces, limits.max_battle_faces
            ));
        }
        let most = rules.attacker_dice.max(rules.defender_dice);
        if most > limits.max_battle_dice {
            return refuse(format!(
                "{most} dice at once: the web app lets a side roll up to {} dice",
                limits.max_battle_dice
            ));
        }
        for (what, n) in [("the heat map", Some(self.grid)), ("the table", self.table)] {
            match n {
                Some(n) if n == 0 || n > limits.max_battle_grid => {
                    return refuse(format!(
                        "{what} covers 1 to {n} armies a side: the web app draws 1 to {} at most",
                        limits.max_battle_grid
                    ));
                }
                _ => {}
            }
        }
        if let Some(runs) = self.simulate {
            if runs == 0 || runs > limits.max_runs {
                return refuse(format!(
                    "simulate {runs} battles: the web app fights 1 to {} at a time",
                    limits.max_runs
                ));
            }
            if let (Some(a), Some(d)) = (self.attacker, self.defender) {
                let dice = most_dice(a, d, rules, runs);
                if dice > limits.max_rolled_dice as f64 {
                    return refuse(format!(
                        "{runs} battles of {a} against {d} armies could roll {dice:.2e} dice; the web app rolls up to {:.0e} (the command line: fairdice risk {a} {d} --simulate {runs})",
                        limits.max_rolled_dice as f64
                    ));
                }
            }
        }
        if let (Some(a), Some(d)) = (self.attacker, self.defender) {
            let states = u64::from(a) * u64::from(d);
            if states > limits.max_battle_states {
                return refuse(format!(
                    "a battle of {a} against {d} armies has {states} states; the web app solves up to {} (the command line has no such limit: fairdice risk {a} {d})",
                    limits.max_battle_states
                ));
            }
        }
        Ok(())
    }

    /// How the battle is solved: as the command line does, exactly up to
    /// [`EXACT_STATES`] states and [`EXACT_DENOMINATOR_BITS`].
    pub fn precision(&self) -> Precision {
        match (self.attacker, self.defender) {
            (Some(a), Some(d)) if !self.float => Precision::for_battle(a, d, &self.rules),
            _ => Precision::Float,
        }
    }
}

/// A whole number from the URL.
fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, Problem> {
    value.parse().map_err(|_| {
        Problem::BadRequest(format!(
            "{key} must be a whole number (0 or more), not `{value}`"
        ))
    })
}

/// A yes/no flag from the URL: `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`.
fn yes_or_no(key: &str, value: &str) -> Result<bool, Problem> {
    match value {
        "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err(Problem::BadRequest(format!(
            "{key} must be 1 or 0 (true or false), not `{value}`"
        ))),
    }
}

fn encode(pairs: &[(&str, String)]) -> String {
    crate::html::query(pairs.iter().map(|(k, v)| (*k, v.as_str())))
}

/// Solves the battle of `request` (and the tables it asks for) under `control`,
/// which the time limit cancels; runs on a blocking thread.
fn compute_one(
    request: &RiskRequest,
    control: &Control,
    limits: &Limits,
) -> Result<BattleReport, Problem> {
    request.check_limits(limits)?;
    let (Some(attacker), Some(defender)) = (request.attacker, request.defender) else {
        return Err(Problem::BadRequest(
            "give both armies: ?attacker=10&defender=10".into(),
        ));
    };
    let rules = request.rules;
    let mut report = BattleReport::solve(attacker, defender, &rules, request.precision(), control)
        .map_err(Problem::Battle)?;
    if let Some(n) = request.table {
        report.table = Some(grid(n, &rules, control)?);
    }
    if request.per_roll {
        report.per_roll = Some(per_roll(&rules, control).map_err(Problem::Contest)?);
    }
    if let Some(runs) = request.simulate {
        let fought = simulate(attacker, defender, &rules, runs, request.seed, control)
            .map_err(Problem::Battle)?;
        report.simulation = Some(SimulationReport::new(&fought, request.seed));
    }
    Ok(report)
}

/// P(attacker wins) for A, D = 1..=n.
fn grid(n: u32, rules: &Rules, control: &Control) -> Result<Vec<Vec<f64>>, Problem> {
    win_table(n, rules, control).map_err(Problem::Battle)
}

/// Runs `work` through the server's [`Computer`](crate::compute::Computer).
async fn run<T: Send + 'static>(
    state: &AppState,
    request: &RiskRequest,
    work: fn(&RiskRequest, &Control, &Limits) -> Result<T, Problem>,
) -> Result<T, Problem> {
    let limits = state.limits.clone();
    state
        .computer
        .run_each(vec![request.clone()], move |request, control| {
            work(request, control, &limits)
        })
        .await
        .pop()
        .map_or(Err(Problem::Stopped(Stopped::Failed)), |r| {
            r.unwrap_or_else(|stopped| Err(Problem::Stopped(stopped)))
        })
}

/// Solves the battle of `request` under the server's limits.
pub(crate) async fn compute(
    state: &AppState,
    request: &RiskRequest,
) -> Result<BattleReport, Problem> {
    run(state, request, compute_one).await
}

/// The heat map's grid for the rules of `request`, under the server's limits.
pub(crate) async fn compute_grid(
    state: &AppState,
    request: &RiskRequest,
) -> Result<Vec<Vec<f64>>, Problem> {
    run(state, request, |request, control, limits| {
        request.check_limits(limits)?;
        grid(request.grid, &request.rules, control)
    })
    .await
}

/// Why the exact answer is not shown: the battle was solved in floating point.
pub(crate) fn float_reason(request: &RiskRequest) -> String {
    if request.float {
        "solved in floating point, as asked".to_string()
    } else {
        format!(
            "solved in floating point: an exact answer needs more than {EXACT_STATES} states or fractions of more than {EXACT_DENOMINATOR_BITS} bits"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_armies_and_rules_from_the_url() {
        let r = RiskRequest::from_query(Some(
            "attacker=10&defender=7&rule=official&faces=8&attacker_dice=4&defender_dice=&grid=12",
        ))
        .expect("valid");
        assert_eq!((r.attacker, r.defender), (Some(10), Some(7)));
        assert_eq!(
            r.rules,
            Rules {
                rule: Rule::Official,
                faces: 8,
                attacker_dice: 4,
                defender_dice: 2,
            }
        );
        assert_eq!(r.grid, 12);
        assert_eq!(
            r.battle_query(),
            "attacker=10&defender=7&rule=official&faces=8&attacker_dice=4&defender_dice=2"
        );
        assert_eq!(
            r.grid_query(),
            "rule=official&faces=8&attacker_dice=4&defender_dice=2&grid=12"
        );
        assert!(RiskRequest::from_query(None).expect("valid").is_empty());
    }

    #[test]
    fn bad_values_are_bad_requests() {
        for query in [
            "attacker=ten",
            "attacker=-1",
            "rule=house",
            "faces=6.5",
            "per_roll=maybe",
        ] {
            let error = RiskRequest::from_query(Some(query)).expect_err(query);
            assert_eq!(error.kind(), "bad_request", "{query}");
        }
    }

    #[test]
    fn limits_are_checked_before_any_work() {
        let limits = Limits::default();
        let options = Control::new();
        for query in [
            "attacker=3000&defender=3000",
            "attacker=3&defender=2&faces=100000",
            "attacker=3&defender=2&attacker_dice=50",
            "attacker=3&defender=2&table=5000",
            "attacker=3&defender=2&grid=0",
        ] {
            let request = RiskRequest::from_query(Some(query)).expect(query);
            let error = compute_one(&request, &options, &limits).expect_err(query);
            assert_eq!(error.kind(), "refused", "{query}");
        }
        let request = RiskRequest::from_query(Some("attacker=3000&defender=3000")).expect("valid");
        let message = compute_one(&request, &options, &limits)
            .expect_err("too many states")
            .message();
        assert!(message.contains("9000000 states"), "{message}");
    }

    #[test]
    fn battles_are_exact_up_to_the_command_lines_threshold() {
        let limits = Limits::default();
        let request = RiskRequest::from_query(Some("attacker=3&defender=2&per_roll=1&table=3"))
            .expect("valid");
        let report = compute_one(&request, &Control::new(), &limits).expect("small");
        assert_eq!(report.method, Precision::Exact);
        assert_eq!(report.table.as_ref().map(Vec::len), Some(3));
        assert_eq!(report.per_roll.as_ref().map(Vec::len), Some(6));
        let big = RiskRequest::from_query(Some("attacker=400&defender=400")).expect("valid");
        assert_eq!(big.precision(), Precision::Float);
        let forced = RiskRequest::from_query(Some("attacker=4&defender=4&float=1")).expect("valid");
        assert_eq!(forced.precision(), Precision::Float);
        let official =
            RiskRequest::from_query(Some("attacker=1&defender=3&rule=official")).expect("valid");
        let error = compute_one(&official, &Control::new(), &limits).expect_err("too few");
        assert_eq!(error.kind(), "invalid");
        assert!(error.message().contains("at least 2 armies"));
    }
}
