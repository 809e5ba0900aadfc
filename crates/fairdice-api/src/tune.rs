//! `tune`: the fairest parameters of each randomizer system that keep the mean
//! entropy above a threshold ("Making Randomness Fair"'s search), over a fixed or
//! uncertain match length, as a [`TuneReport`].

use crate::charts::{Drawn, View};
use fairdice::analysis::seats::Game;
use fairdice::analysis::{self, MethodChoice};
use fairdice::tune::{self, Fairness, Grid, MatchLength, Outcomes, TuneError, Tuning};
use fairdice::{Control, FailureKind};
use serde::{Deserialize, Serialize};

pub use fairdice::tune::TuneReport;

use crate::analyze::method_choice;
use crate::error::{method_flags, shell_quote};
use crate::{DEFAULT_SEED, Error, UseCase};

/// The systems searched when a request names none: the article's two.
pub const DEFAULT_SYSTEMS: [&str; 2] = ["deck", "dynamic"];

/// A parameter search.
///
/// As JSON: `{"values": 6, "base": null, "samples": "25", "min_entropy": 0.9,
/// "fairness": null, "systems": ["deck", "dynamic"], "grids": [], "exact": false, "runs": null,
/// "seed": 1, "max_states": null, "all": false}` (`values` or `base` is required;
/// `samples` is `25`, `20..40` or `20:1,30:2,40:1`; a grid such as
/// `dynamic(decrease=0.30..0.50 step 0.005)` replaces its system's default grid or
/// adds the system; `fairness` is `outcome_variance`, `base_deviation` or
/// `seat_spread`, by default the first for `values`, the second for a `base` and
/// the third with a `game`, the file format of [`Game`], whose seats are then
/// measured).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneRequest {
    /// The faces `1..=N` of a fair die.
    #[serde(default)]
    pub values: Option<u64>,
    /// Weighted outcomes from a dice expression instead, e.g. `2d6`.
    #[serde(default)]
    pub base: Option<String>,
    /// The match length: `25`, `20..40` (uniform) or `20:1,30:2,40:1` (weighted).
    #[serde(default = "default_samples")]
    pub samples: String,
    /// The least mean entropy (a fraction of a fair die's) a candidate must keep.
    #[serde(default = "default_min_entropy")]
    pub min_entropy: f64,
    /// The measure to minimise: `outcome_variance` or `base_deviation` (`None`:
    /// outcome variance for `values`, base deviation for a `base`).
    #[serde(default)]
    pub fairness: Option<String>,
    /// A game whose seats the search splits fairly (`fairness` `seat_spread`).
    #[serde(default)]
    pub game: Option<Game>,
    /// Systems to search, in order (`deck`, `dynamic`, `fair`, `bag`, `dice`,
    /// `tgm`, …).
    #[serde(default = "default_systems")]
    pub systems: Vec<String>,
    /// Custom grids, one per system.
    #[serde(default)]
    pub grids: Vec<String>,
    /// Measure every candidate exactly, or fail.
    #[serde(default)]
    pub exact: bool,
    /// Measure every candidate by Monte Carlo with this many runs.
    #[serde(default)]
    pub runs: Option<u64>,
    /// The Monte Carlo seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Merged states one step of a candidate's exact sweep may hold before the
    /// candidate is estimated by Monte Carlo.
    #[serde(default, alias = "budget")]
    pub max_states: Option<usize>,
    /// List every candidate, not only each system's best.
    #[serde(default)]
    pub all: bool,
}

fn default_samples() -> String {
    "25".to_string()
}

fn default_min_entropy() -> f64 {
    0.9
}

fn default_systems() -> Vec<String> {
    DEFAULT_SYSTEMS.iter().map(|s| s.to_string()).collect()
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

impl TuneRequest {
    /// The article's search: `values` outcomes over `samples` samples, mean
    /// entropy at least 0.9, decks and dynamic dice.
    pub fn new(values: u64, samples: impl Into<String>) -> TuneRequest {
        TuneRequest {
            values: Some(values),
            base: None,
            samples: samples.into(),
            min_entropy: default_min_entropy(),
            fairness: None,
            game: None,
            systems: default_systems(),
            grids: Vec::new(),
            exact: false,
            runs: None,
            seed: DEFAULT_SEED,
            max_states: None,
            all: false,
        }
    }

    /// The search the request asks for, checked as the command line checks its
    /// flags.
    ///
    /// # Errors
    /// Bad outcomes, match lengths, systems, grids or thresholds, each with what
    /// is accepted.
    pub fn tuning(&self) -> Result<Tuning, Error> {
        let input =
            |what: String, e: &dyn std::fmt::Display| Error::invalid_input(format!("{what}: {e}"));
        let given = match (&self.values, &self.base) {
            (Some(_), Some(_)) => {
                return Err(Error::invalid_input(
                    "give the number of outcomes (values) or a base expression, not both",
                ));
            }
            (Some(0), None) => {
                return Err(Error::invalid_input("values must be at least 1"));
            }
            (Some(n), None) => Some(Outcomes::Values(*n)),
            (None, Some(expr)) => Some(Outcomes::Base(expr.clone())),
            (None, None) => None,
        };
        let custom: Vec<Grid> = self
            .grids
            .iter()
            .map(|text| {
                Grid::parse(text).map_err(|e| input(format!("grid {}", grid_name(text)), &e))
            })
            .collect::<Result<_, _>>()?;
        // A machine draws its own outcomes and is tuned alone: the default
        // systems step aside (systems named on purpose are refused below).
        let machine = custom.iter().any(|g| g.family().is_none());
        let systems: &[String] = if machine && self.systems == default_systems() {
            &[]
        } else {
            &self.systems
        };
        let samples: MatchLength = self
            .samples
            .parse()
            .map_err(|e| input(format!("samples {}", self.samples), &e))?;
        if !(0.0..=1.0).contains(&self.min_entropy) {
            return Err(Error::invalid_input(format!(
                "the least mean entropy must be in [0, 1] (a fraction of a fair die's entropy; 0.9 is 90%), got {}",
                self.min_entropy
            )));
        }
        let mut grids: Vec<Grid> = Vec::new();
        for name in systems.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
            let grid = Grid::default_for(name).map_err(|e| input(format!("system {name}"), &e))?;
            if !grids.iter().any(|g| g.name() == grid.name()) {
                grids.push(grid);
            }
        }
        for grid in custom {
            match grids.iter_mut().find(|g| g.name() == grid.name()) {
                Some(slot) => *slot = grid,
                None => grids.push(grid),
            }
        }
        if grids.is_empty() {
            return Err(Error::invalid_input(format!(
                "no system to search; name some, e.g. {}",
                DEFAULT_SYSTEMS.join(", ")
            )));
        }
        let outcomes =
            Outcomes::of_search(given, &grids).map_err(|e| Error::invalid_input(e.to_string()))?;
        let fairness = match (&self.fairness, &self.game) {
            (None, Some(_)) => Fairness::SeatSpread,
            (None, None) => Fairness::default_for(&outcomes),
            (Some(name), _) => name.parse().map_err(|e| input("fairness".into(), &e))?,
        };
        if fairness == Fairness::SeatSpread && self.game.is_none() {
            return Err(Error::invalid_input(
                "fairness seat_spread measures the seats of a game: give the game (players and payoffs)",
            ));
        }
        // A game taken in turns: the families with a per-seat form are tried
        // both ways unless a grid says which.
        if let (Some(game), Fairness::SeatSpread) = (&self.game, fairness)
            && game.turns()
        {
            for grid in &mut grids {
                if let Some(both) = grid.per_seat(game.players().len()) {
                    *grid = both;
                }
            }
        }
        let method = match method_choice(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
            tune::STATE_BUDGET,
        )? {
            MethodChoice::Auto { budget, seed, .. } => MethodChoice::Auto {
                budget,
                runs: tune::FALLBACK_RUNS,
                seed,
            },
            other => other,
        };
        Ok(Tuning {
            outcomes,
            samples,
            min_entropy: self.min_entropy,
            fairness,
            game: self.game.clone(),
            grids,
            method,
        })
    }

    /// The request as a `fairdice tune` command line (defaults left out).
    pub fn command(&self) -> String {
        let mut command = String::from("fairdice tune");
        if let Some(n) = self.values {
            command.push_str(&format!(" --values {n}"));
        }
        if let Some(base) = &self.base {
            command.push_str(&format!(" --base {}", shell_quote(base)));
        }
        command.push_str(&format!(" --samples {}", shell_quote(&self.samples)));
        if self.min_entropy != default_min_entropy() {
            command.push_str(&format!(" --min-entropy {}", self.min_entropy));
        }
        if self.game.is_some() {
            command.push_str(" --game GAME.json");
        }
        if let Some(fairness) = &self.fairness {
            command.push_str(&format!(" --fairness {}", shell_quote(fairness)));
        }
        if self.systems != default_systems() {
            command.push_str(&format!(
                " --systems {}",
                shell_quote(&self.systems.join(","))
            ));
        }
        for grid in &self.grids {
            command.push_str(&format!(" --grid {}", shell_quote(grid)));
        }
        command.push_str(&method_flags(
            self.exact,
            self.runs,
            self.seed,
            self.max_states,
        ));
        if self.all {
            command.push_str(" --all");
        }
        command
    }
}

/// A grid as an error names it: its text, or `of a machine` for a document.
fn grid_name(text: &str) -> String {
    if text.trim_start().starts_with('{') {
        "of a machine".to_string()
    } else {
        text.to_string()
    }
}

impl UseCase for TuneRequest {
    const NAME: &'static str = "tune";
    type Report = TuneReport;

    /// The curves of each system's winner.
    fn charts(reports: &[Self::Report], view: &View) -> Result<Vec<Drawn>, Error> {
        Ok(crate::charts::first(reports, "curves", |report| {
            crate::charts::curves(&fairdice_charts::CurvesFigure::tuning(report), view)
        }))
    }

    fn run(&self, control: &Control) -> Result<TuneReport, Error> {
        let tuning = self.tuning()?;
        let result = tune::tune(&tuning, control).map_err(|e| {
            let error = Error::from_failure(&e);
            match (&e, error.kind) {
                (
                    TuneError::Analysis {
                        source: analysis::AnalysisError::Exact(_),
                        ..
                    },
                    _,
                ) => error.with_hint("measure without the exact flag, or by Monte Carlo runs"),
                (_, FailureKind::TooLarge) => error.with_hint(
                    "smaller grids, fewer systems, shorter matches or Monte Carlo runs finish sooner",
                ),
                _ => error,
            }
        })?;
        let baseline = tuning
            .plain_dice()
            .map_err(|e| Error::invalid_input(format!("base {}: {e}", tuning.outcomes)))?;
        Ok(TuneReport::new(&tuning, &result, &baseline, self.all))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_table() {
        let report = TuneRequest::new(6, "25").run(&Control::new()).unwrap();
        let deck = &report.systems[0];
        assert_eq!(
            deck.params.as_ref().map(ToString::to_string).as_deref(),
            Some("copies=1, refill_below=6")
        );
        assert_eq!(format!("{:.4}", deck.outcome_variance.unwrap()), "0.5089");
        assert_eq!(report.fairest, Some("dynamic".to_string()));
        let curves = deck.curves.as_ref().expect("the winner's curves");
        assert_eq!(curves.entropy.len(), 25);
    }

    #[test]
    fn grids_replace_or_add_systems() {
        let request = TuneRequest {
            systems: vec!["deck".into()],
            grids: vec!["dynamic(decrease=0.30..0.40 step 0.05)".into()],
            ..TuneRequest::new(6, "25")
        };
        let tuning = request.tuning().unwrap();
        let families: Vec<&str> = tuning.grids.iter().map(|g| g.name()).collect();
        assert_eq!(families, ["deck", "dynamic"]);
        assert_eq!(tuning.grids[1].len(), 3);
    }

    #[test]
    fn a_machine_is_tuned_alone_against_itself_as_written() {
        let document = include_str!("../../../docs/machines/aim-assist.json");
        let request = TuneRequest {
            values: None,
            grids: vec![format!("{document}(boost=0%..30% step 10%)")],
            ..TuneRequest::new(6, "20")
        };
        let report = request.run(&Control::new()).unwrap();
        assert_eq!(report.machine.as_deref(), Some("aim assist"));
        assert_eq!((report.values, report.fairness), (None, "base_deviation"));
        assert_eq!(report.baseline, "as written");
        let system = &report.systems[0];
        assert_eq!(system.system, "aim assist");
        assert_eq!(system.candidates_tried, 4);
        let params = system.params.as_ref().map(ToString::to_string);
        assert_eq!(params.as_deref(), Some("boost=0.2"));
        // The winner's spec is the document with its value, and draws as such.
        let spec = system.spec.as_deref().expect("a winner");
        assert!(spec.contains(r#""boost":{"value":0.2,"#), "{spec}");
        // As written (boost = 10%) the base deviation is the 0.1 candidate's.
        let ten = TuneRequest {
            values: None,
            grids: vec![format!("{document}(boost=10%)")],
            min_entropy: 0.0,
            ..TuneRequest::new(6, "20")
        };
        let ten = ten.run(&Control::new()).unwrap();
        assert_eq!(
            ten.systems[0].base_deviation,
            Some(report.plain_dice_base_deviation)
        );
        for (values, systems, needle) in [
            (Some(2), default_systems(), "leave out the values"),
            (None, vec!["deck".to_string()], "tuned alone"),
        ] {
            let refused = TuneRequest {
                values,
                systems,
                grids: vec![document.to_string()],
                ..TuneRequest::new(6, "20")
            };
            let error = refused.run(&Control::new()).unwrap_err();
            assert!(error.message.contains(needle), "{}", error.message);
        }
    }

    #[test]
    fn bad_searches_say_what_is_accepted() {
        for request in [
            TuneRequest {
                values: None,
                ..TuneRequest::new(6, "25")
            },
            TuneRequest::new(6, "twenty"),
            TuneRequest {
                min_entropy: 90.0,
                ..TuneRequest::new(6, "25")
            },
            TuneRequest {
                systems: vec!["decks".into()],
                ..TuneRequest::new(6, "25")
            },
            TuneRequest {
                systems: vec![],
                ..TuneRequest::new(6, "25")
            },
            TuneRequest {
                fairness: Some("variance".into()),
                ..TuneRequest::new(6, "25")
            },
        ] {
            let error = request.run(&Control::new()).unwrap_err();
            assert_eq!(error.exit_status(), 2, "{request:?}: {}", error.message);
        }
    }

    #[test]
    fn requests_read_from_json_with_defaults() {
        let request: TuneRequest =
            serde_json::from_str(r#"{"values": 6, "samples": "20..40"}"#).unwrap();
        assert_eq!(request, TuneRequest::new(6, "20..40"));
        assert_eq!(
            request.command(),
            "fairdice tune --values 6 --samples 20..40"
        );
    }
}
