//! The racing search behind an automatic tuning: each candidate is measured by the
//! cheapest method that settles it, and only the candidates that could still win
//! are measured again, more precisely.
//!
//! A search needs two facts per candidate: does it keep the entropy threshold, and
//! is its measure of fairness ([`Fairness`](super::Fairness)) the lowest among
//! those that do. Most candidates settle
//! both at a glance (far above or below the threshold, or far behind the best), so
//! 1. **screening** sweeps a candidate exactly when the sweep costs little (a
//!    [`Control::share`] of the budget; a sweep projected past it gives up at
//!    once) and otherwise estimates it from a few seeded Monte Carlo runs, with
//!    standard errors. A *line* of candidates (one numeric parameter varying,
//!    [`Grid::is_line`](super::Grid::is_line)) is screened by bisection first: its
//!    ends, then the middle of the bracket where one side surely keeps the
//!    threshold and the other surely misses it, halved until the sides meet.
//!    Along the lines the tuner searches the entropy is monotone (tested in
//!    `tests/engine/tune_monotone.rs`), so the rest of the line lies clearly on one side
//!    and is screened with [`LIGHT_SCREEN_RUNS`];
//! 2. **refining** takes the *contenders* — candidates whose interval
//!    (estimate ± [`CONFIDENCE_Z`] standard errors) may still qualify and may still
//!    beat the best sure qualifier's upper bound — and measures each again with
//!    [`REFINE_FACTOR`] times the runs, trying the exact sweep first with a share
//!    the size of that round, until no estimated contender is left, the runs reach
//!    their ceiling, or the budget would not cover another round;
//! 3. the winner is chosen from the point values as before
//!    ([`select`](super::select)); it is **certain** when the contenders left are
//!    all exact, or it is the only one and surely qualifies.
//!
//! # Design decisions
//! - Runs are seeded per candidate and grow by a factor each round, so the whole
//!   search depends on the seed only (the Monte Carlo chunks do not depend on the
//!   thread count), and a candidate cheap to sweep is exact on every machine.
//! - Screening may spend [`SCREEN_SHARE`] of the budget; the rest refines. A
//!   search whose screening would not fit even at [`MIN_SCREEN_RUNS`] is refused
//!   before it starts.
//! - Monotonicity only places the runs: a light look that settles nothing makes
//!   a contender like any other, so no candidate is judged by its neighbours and
//!   a line that is not monotone costs refining, never the right winner.
//! - Intervals are wide (four standard errors) because a search compares hundreds
//!   of candidates: a narrower one would drop the true winner once in a few
//!   searches.

use std::borrow::Borrow;

use crate::parallel::*;

use super::{CandidateResult, TuneError, Tuning};
use crate::analysis::exact::{self, ExactError, ExactOptions};
use crate::analysis::monte_carlo;
use crate::analysis::{AnalysisError, Curves, Method};
use crate::control::{Control, Stop};
use crate::randomizer::STEPS_PER_DRAWN_OUTCOME;
use crate::randomizer::{AnyRandomizer, Randomizer};

/// Standard errors on each side of an estimate that a decision trusts.
pub const CONFIDENCE_Z: f64 = 4.0;

/// The most runs a screening estimate takes.
pub const SCREEN_RUNS: u64 = 2_048;

/// The fewest runs a screening estimate takes; a search that cannot afford them
/// for every candidate is refused.
pub const MIN_SCREEN_RUNS: u64 = 64;

/// The runs a candidate of a line starts with once bisection has found where
/// the line crosses the threshold (`race`'s step 1); refining gives it more if
/// they do not settle it.
pub const LIGHT_SCREEN_RUNS: u64 = 128;

/// The fewest candidates a line must have for its screening to bisect.
pub const BISECT_FROM: usize = 8;

/// The fraction of the budget screening may spend.
pub const SCREEN_SHARE: f64 = 0.5;

/// How many times a contender's runs grow each round.
pub const REFINE_FACTOR: u64 = 4;

/// How many times the cost of its Monte Carlo estimate an exact sweep may cost
/// before the estimate is taken instead.
pub const EXACT_OVER_ESTIMATE: u64 = 4;

/// Refining leaves `1 / CONFIRM_RESERVE` of the budget for confirming the
/// winners exactly before it spends the rest.
pub const CONFIRM_RESERVE: u64 = 4;

/// A candidate to measure: its parameters and spec.
pub(super) type Job = (Vec<(String, super::ParamValue)>, String);

/// Where a candidate stands after a measurement.
#[derive(Debug, Clone, Copy)]
struct Standing {
    surely_qualifies: bool,
    surely_fails: bool,
    fairness_low: f64,
    fairness_high: f64,
}

fn standing(candidate: &CandidateResult, tuning: &Tuning) -> Standing {
    let threshold = tuning.min_entropy - super::ENTROPY_TOLERANCE;
    let entropy_error = CONFIDENCE_Z * candidate.mean_entropy_error.unwrap_or(0.0);
    let fairness_error = CONFIDENCE_Z * candidate.fairness_error.unwrap_or(0.0);
    Standing {
        surely_qualifies: candidate.mean_entropy - entropy_error >= threshold,
        surely_fails: candidate.mean_entropy + entropy_error < threshold,
        fairness_low: candidate.fairness - fairness_error,
        fairness_high: candidate.fairness + fairness_error,
    }
}

/// The indices of the candidates that could still win: they may qualify, and
/// their measure of fairness may be at or below the best sure qualifier's upper bound.
pub(super) fn contenders<C: Borrow<CandidateResult>>(
    candidates: &[C],
    tuning: &Tuning,
) -> Vec<usize> {
    let standings: Vec<Standing> = candidates
        .iter()
        .map(|c| standing(c.borrow(), tuning))
        .collect();
    let bound = standings
        .iter()
        .filter(|s| s.surely_qualifies)
        .map(|s| s.fairness_high)
        .min_by(f64::total_cmp)
        .unwrap_or(f64::INFINITY);
    standings
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            !s.surely_fails && (s.fairness_low <= bound || super::ties(s.fairness_low, bound))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether the winner of `candidates` is certain: every contender left is exact,
/// or the only one surely qualifies.
pub(super) fn certain<C: Borrow<CandidateResult>>(candidates: &[C], tuning: &Tuning) -> bool {
    let left = contenders(candidates, tuning);
    left.iter()
        .all(|&i| candidates[i].borrow().mean_entropy_error.is_none())
        || (left.len() == 1 && standing(candidates[left[0]].borrow(), tuning).surely_qualifies)
}

/// Budget steps of a Monte Carlo estimate of `runs` runs.
fn estimate_steps(runs: u64, samples: usize, outcomes: usize) -> u64 {
    runs.saturating_mul(samples as u64)
        .saturating_mul(outcomes as u64)
        .saturating_mul(STEPS_PER_DRAWN_OUTCOME)
}

/// A candidate's measurement and how far it has come.
struct Lane {
    result: CandidateResult,
    runs: u64,
    /// The exact sweep is out of reach (too many states or too much memory, or
    /// tried with all the budget could give), so it is not tried again.
    exact_refused: bool,
}

/// How the race measures: what every measurement shares.
struct Race<'a> {
    tuning: &'a Tuning,
    /// How many of the jobs each grid has, in order.
    sizes: &'a [usize],
    states: usize,
    seed: u64,
    samples: usize,
    outcomes: usize,
    max_runs: u64,
    build: &'a (dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
}

/// What a race searches.
pub(super) struct Field<'a> {
    /// The search.
    pub tuning: &'a Tuning,
    /// How many of the jobs each grid has, in order.
    pub sizes: &'a [usize],
    /// Whether a line's candidates away from its crossing start from
    /// [`LIGHT_SCREEN_RUNS`]. Not in a seat search: its seats are measured for
    /// every candidate that keeps the threshold, so every candidate's entropy
    /// matters, not only the contenders'.
    pub light: bool,
}

/// Runs the racing search over `jobs` (see the module docs), the first
/// `field.sizes[0]` of them from the first grid and so on: `states` bounds a step
/// of an exact sweep, `max_runs` a contender's estimate.
///
/// # Errors
/// [`TuneError::TooBig`] when screening every candidate would not fit the
/// budget; a rejected candidate; [`TuneError::Stopped`] once cancelled.
/// The screening runs a race of `candidates` candidates of `outcomes` outcomes
/// over `samples` samples can afford in its share of `control`'s budget.
///
/// # Errors
/// [`TuneError::TooBig`] when not even [`MIN_SCREEN_RUNS`] fit.
pub(super) fn screening_runs(
    candidates: usize,
    samples: usize,
    outcomes: usize,
    control: &Control,
) -> Result<u64, TuneError> {
    let screening = SCREEN_SHARE * control.max_steps() as f64;
    // An exact attempt that cannot finish in its share gives up after a step or
    // two: screening is priced at twice its estimates.
    let per_run = 2.0 * candidates as f64 * estimate_steps(1, samples, outcomes) as f64;
    let affordable = (screening / per_run.max(1.0)) as u64;
    if affordable < MIN_SCREEN_RUNS {
        return Err(TuneError::TooBig {
            candidates,
            outcomes,
            samples,
            work: candidates as f64 * (MIN_SCREEN_RUNS * samples as u64 * outcomes as u64) as f64,
            limit: screening / STEPS_PER_DRAWN_OUTCOME as f64 / 2.0,
        });
    }
    Ok(affordable)
}

pub(super) fn race(
    field: Field<'_>,
    jobs: Vec<Job>,
    outcomes: usize,
    (states, max_runs, seed): (usize, u64, u64),
    build: &(dyn Fn(&String) -> Result<AnyRandomizer, TuneError> + Sync),
    control: &Control,
) -> Result<Vec<CandidateResult>, TuneError> {
    let Field {
        tuning,
        sizes,
        light: light_lines,
    } = field;
    let samples = tuning.samples.max();
    let race = Race {
        tuning,
        sizes,
        states,
        seed,
        samples,
        outcomes,
        max_runs: max_runs.max(MIN_SCREEN_RUNS),
        build,
    };
    let affordable = screening_runs(jobs.len(), samples, outcomes, control)?;
    let screen_runs = affordable.min(SCREEN_RUNS).min(race.max_runs);
    control.stage("screening candidates", jobs.len() as u64);
    let mut jobs: Vec<Option<Job>> = jobs.into_iter().map(Some).collect();
    let mut looked: Vec<Option<Lane>> = jobs.iter().map(|_| None).collect();
    // Lines first, one at a time: where a line's crossing is found, the rest of
    // it is screened with light runs.
    let mut light = vec![false; jobs.len()];
    let mut start = 0;
    for (grid, &size) in tuning.grids.iter().zip(sizes) {
        let end = start + size;
        if light_lines && grid.is_line() && size >= BISECT_FROM {
            let (jobs, looked) = (&mut jobs[start..end], &mut looked[start..end]);
            if race.bisect(jobs, looked, screen_runs, control)? {
                light[start..end].fill(true);
            }
        }
        start = end;
    }
    let rest: Vec<(usize, Job)> = jobs
        .iter_mut()
        .enumerate()
        .filter_map(|(i, job)| job.take().map(|job| (i, job)))
        .collect();
    let screened: Vec<(usize, Lane)> = rest
        .into_par_iter()
        .map(|(i, (params, spec))| {
            let runs = if light[i] {
                LIGHT_SCREEN_RUNS.min(screen_runs)
            } else {
                screen_runs
            };
            let lane = race.first_look(params, &spec, (runs, screen_runs), control)?;
            control.advance(1);
            Ok((i, lane))
        })
        .collect::<Result<_, TuneError>>()?;
    for (i, lane) in screened {
        looked[i] = Some(lane);
    }
    let mut lanes: Vec<Lane> = looked
        .into_iter()
        .map(|lane| lane.expect("every candidate screened"))
        .collect();
    // Refining stops first with a part of the budget left, so the winners can
    // be confirmed exactly; what remains after that refines further.
    let max = control.max_steps();
    for ceiling in [max - max / CONFIRM_RESERVE, max] {
        loop {
            race.refine(&mut lanes, ceiling, control)?;
            if !race.confirm_winners(&mut lanes, control)? {
                break;
            }
        }
    }
    Ok(lanes.into_iter().map(|lane| lane.result).collect())
}

impl Race<'_> {
    /// Screens one candidate: exactly if a sweep costs at most
    /// [`EXACT_OVER_ESTIMATE`] times an estimate of `exact_runs` runs, else by an
    /// estimate of `runs` runs.
    fn first_look(
        &self,
        params: Vec<(String, super::ParamValue)>,
        spec: &String,
        (runs, exact_runs): (u64, u64),
        control: &Control,
    ) -> Result<Lane, TuneError> {
        control.check()?;
        let randomizer = (self.build)(spec)?;
        let mut lane = Lane {
            result: CandidateResult {
                params,
                spec: randomizer.spec(),
                mean_entropy: f64::NAN,
                mean_entropy_error: None,
                outcome_variance: f64::NAN,
                outcome_variance_error: None,
                base_deviation: f64::NAN,
                base_deviation_error: None,
                fairness: f64::NAN,
                fairness_error: None,
                qualifies: false,
                method: Method::Exact { peak_states: 0 },
                curves: Curves::default(),
            },
            runs: 0,
            exact_refused: false,
        };
        let exact_steps =
            EXACT_OVER_ESTIMATE * estimate_steps(exact_runs, self.samples, self.outcomes);
        self.measure(&mut lane, &randomizer, (runs, exact_steps), control)?;
        Ok(lane)
    }

    /// Screens a line of candidates ([`Grid::is_line`](super::Grid::is_line)) by
    /// bisection, each look with `runs` runs: its two ends, and if one surely
    /// keeps the threshold and the other surely misses it, the middle of that
    /// bracket, halving it until the two sides meet or a look settles neither
    /// way. Whether a crossing was bracketed (the candidates not looked at are
    /// left in `jobs`).
    fn bisect(
        &self,
        jobs: &mut [Option<Job>],
        lanes: &mut [Option<Lane>],
        runs: u64,
        control: &Control,
    ) -> Result<bool, TuneError> {
        let last = jobs.len() - 1;
        let mut look = |i: usize| -> Result<Standing, TuneError> {
            let (params, spec) = jobs[i].take().expect("each candidate looked at once");
            let lane = self.first_look(params, &spec, (runs, runs), control)?;
            control.advance(1);
            let at = standing(&lane.result, self.tuning);
            lanes[i] = Some(lane);
            Ok(at)
        };
        let (first, end) = (look(0)?, look(last)?);
        let (mut keeps, mut misses) = if first.surely_qualifies && end.surely_fails {
            (0, last)
        } else if first.surely_fails && end.surely_qualifies {
            (last, 0)
        } else {
            return Ok(false);
        };
        while keeps.abs_diff(misses) > 1 {
            let middle = keeps.midpoint(misses);
            let at = look(middle)?;
            if at.surely_qualifies {
                keeps = middle;
            } else if at.surely_fails {
                misses = middle;
            } else {
                break;
            }
        }
        Ok(true)
    }

    /// Measures `lane` again: exactly if a sweep fits in `exact_steps`, else by
    /// an estimate of `runs` runs.
    fn measure(
        &self,
        lane: &mut Lane,
        randomizer: &AnyRandomizer,
        (runs, exact_steps): (u64, u64),
        control: &Control,
    ) -> Result<(), TuneError> {
        if self.try_exact(lane, randomizer, exact_steps, control)? {
            return Ok(());
        }
        let estimate = monte_carlo::estimate(
            randomizer,
            self.samples,
            runs,
            self.seed,
            false,
            &control.silent(),
        )?;
        lane.runs = runs;
        self.record(
            lane,
            estimate.curves,
            Method::MonteCarlo {
                runs,
                seed: self.seed,
            },
        );
        Ok(())
    }

    /// Sweeps `lane` exactly within `steps` of the budget, unless a sweep was
    /// already refused for its states; whether it was.
    fn try_exact(
        &self,
        lane: &mut Lane,
        randomizer: &AnyRandomizer,
        steps: u64,
        control: &Control,
    ) -> Result<bool, TuneError> {
        if lane.exact_refused {
            return Ok(false);
        }
        let options = ExactOptions {
            budget: self.states,
            merge: true,
            give_up_early: true,
            ..ExactOptions::default()
        };
        match exact::curves(randomizer, self.samples, &options, &control.share(steps)) {
            Ok(result) => {
                let method = Method::Exact {
                    peak_states: result.peak_states,
                };
                self.record(lane, result.curves, method);
                Ok(true)
            }
            Err(error) if control.is_cancelled() => Err(TuneError::Stopped(match error {
                ExactError::Stopped(stop) => stop,
                _ => Stop::Cancelled,
            })),
            Err(error) if error.is_too_large() => {
                // Steps grow with the share; states and memory do not.
                lane.exact_refused = matches!(
                    error,
                    ExactError::OverBudget { .. } | ExactError::OutOfMemory { .. }
                );
                Ok(false)
            }
            Err(error) => Err(TuneError::Analysis {
                spec: lane.result.spec.clone(),
                source: AnalysisError::from(error),
            }),
        }
    }

    /// Sweeps each system's estimated winner exactly, with an equal part of what
    /// is left of the budget; whether any became exact.
    fn confirm_winners(&self, lanes: &mut [Lane], control: &Control) -> Result<bool, TuneError> {
        let mut winners = Vec::new();
        let mut start = 0;
        for &size in self.sizes {
            let end = start + size;
            let results: Vec<&CandidateResult> =
                lanes[start..end].iter().map(|l| &l.result).collect();
            if let Some(best) = super::select(&results) {
                let lane = &lanes[start + best];
                if lane.result.mean_entropy_error.is_some() && !lane.exact_refused {
                    winners.push(start + best);
                }
            }
            start = end;
        }
        if winners.is_empty() {
            return Ok(false);
        }
        control.stage("confirming winners", winners.len() as u64);
        let mut confirmed = false;
        for (k, &i) in winners.iter().enumerate() {
            let left = control.max_steps().saturating_sub(control.steps_used());
            let steps = left / (winners.len() - k) as u64;
            let lane = &mut lanes[i];
            let randomizer = (self.build)(&lane.result.spec)?;
            confirmed |= self.try_exact(lane, &randomizer, steps, control)?;
            // Tried once with all it could have: not again.
            lane.exact_refused = true;
            control.advance(1);
        }
        Ok(confirmed)
    }

    fn record(&self, lane: &mut Lane, curves: Curves, method: Method) {
        let params = std::mem::take(&mut lane.result.params);
        let spec = std::mem::take(&mut lane.result.spec);
        lane.result = CandidateResult::measured(self.tuning, params, spec, curves, method);
    }

    /// Rounds of refinement until every contender is exact, the runs reach their
    /// most or the steps used would pass `ceiling` in another round.
    fn refine(&self, lanes: &mut [Lane], ceiling: u64, control: &Control) -> Result<(), TuneError> {
        loop {
            // Each system has its own winner: contenders are found grid by grid.
            let mut open = Vec::new();
            let mut start = 0;
            for &size in self.sizes {
                let end = start + size;
                let results: Vec<&CandidateResult> =
                    lanes[start..end].iter().map(|l| &l.result).collect();
                if !certain(&results, self.tuning) {
                    open.extend(
                        contenders(&results, self.tuning)
                            .into_iter()
                            .map(|i| start + i)
                            .filter(|&i| lanes[i].result.mean_entropy_error.is_some())
                            .filter(|&i| lanes[i].runs < self.max_runs),
                    );
                }
                start = end;
            }
            if open.is_empty() {
                return Ok(());
            }
            let next = |lane: &Lane| (lane.runs * REFINE_FACTOR).min(self.max_runs);
            // The most promising first; as many as the budget covers.
            open.sort_by(|&a, &b| {
                let low = |i: usize| standing(&lanes[i].result, self.tuning).fairness_low;
                low(a).total_cmp(&low(b))
            });
            let mut left = ceiling.saturating_sub(control.steps_used());
            open.retain(|&i| {
                let cost = estimate_steps(next(&lanes[i]), self.samples, self.outcomes);
                let fits = cost <= left;
                if fits {
                    left -= cost;
                }
                fits
            });
            if open.is_empty() {
                return Ok(());
            }
            // What the estimates leave is shared out for exact attempts before
            // they start, so no attempt's size depends on another's progress.
            let exact_part = left / open.len() as u64;
            control.stage("refining contenders", open.len() as u64);
            let mut chosen: Vec<&mut Lane> = lanes
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| open.contains(i))
                .map(|(_, lane)| lane)
                .collect();
            chosen
                .par_iter_mut()
                .map(|lane| {
                    let randomizer = (self.build)(&lane.result.spec)?;
                    let runs = next(lane);
                    let exact_steps = (EXACT_OVER_ESTIMATE
                        * estimate_steps(runs, self.samples, self.outcomes))
                    .min(exact_part);
                    self.measure(lane, &randomizer, (runs, exact_steps), control)?;
                    control.advance(1);
                    Ok(())
                })
                .collect::<Result<(), TuneError>>()?;
        }
    }
}
