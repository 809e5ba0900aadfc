//! The seat figures by seeded Monte Carlo, with standard errors, for matches whose
//! sweeps are too large.
//!
//! Runs are dealt in chunks of [`CHUNK`] as in the analysis's own estimate: chunk
//! `c` draws from [`rng::stream(seed, c)`](crate::rng::stream). The tallies are
//! whole numbers (counts, totals, drought lengths and their squares), so adding
//! them in any order gives the same sums: the figures depend on the seed and the
//! runs only, never on the threads, and chunks are added as they finish rather
//! than held until the end.

use crate::parallel::*;

use super::Match;
use super::exact::is_starved;
use super::figures::{Figure, PlayerFigures, Scope, SeatFigures, Starved};
use crate::analysis::monte_carlo::CHUNK;
use crate::control::{Control, Stop};
use crate::randomizer::Randomizer;
use crate::rng;

/// Budget steps one roll of a run costs, per outcome of the randomizer and per
/// player (a draw weighs the next-sample distribution; each player's totals and
/// droughts move).
pub const STEPS_PER_ROLL: u64 = 4;

/// The steps one run of `samples` rolls costs with `outcomes` outcomes and
/// `players` players.
pub fn steps_per_run(samples: usize, outcomes: usize, players: usize) -> u64 {
    (samples as u64)
        .saturating_mul((outcomes + 2 * players) as u64)
        .saturating_mul(STEPS_PER_ROLL)
}

/// Sums over runs for one scope.
#[derive(Clone)]
struct Tally {
    /// `totals[p][k]`: runs where player `p` ended with `k`.
    totals: Vec<Vec<u64>>,
    /// Per player: sum and sum of squares of the longest drought.
    droughts: Vec<(u64, u128)>,
    spread: (u64, u128),
    starved: Vec<u64>,
    /// `by_roll[c · players + p]`: sum and sum of squares of player `p`'s total
    /// at checkpoint `c`.
    by_roll: Vec<(u64, u128)>,
    /// Sum and sum of squares of the spread at each checkpoint.
    spread_by_roll: Vec<(u64, u128)>,
}

impl Tally {
    fn new(players: usize, shares: usize, checkpoints: usize) -> Tally {
        Tally {
            totals: vec![Vec::new(); players],
            droughts: vec![(0, 0); players],
            spread: (0, 0),
            starved: vec![0; shares],
            by_roll: vec![(0, 0); checkpoints * players],
            spread_by_roll: vec![(0, 0); checkpoints],
        }
    }

    fn add(&mut self, other: &Tally) {
        for (a, b) in self.totals.iter_mut().zip(&other.totals) {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (a, b) in self.droughts.iter_mut().zip(&other.droughts) {
            a.0 += b.0;
            a.1 += b.1;
        }
        self.spread.0 += other.spread.0;
        self.spread.1 += other.spread.1;
        for (a, b) in self.starved.iter_mut().zip(&other.starved) {
            *a += b;
        }
        for (a, b) in self.by_roll.iter_mut().zip(&other.by_roll) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in self.spread_by_roll.iter_mut().zip(&other.spread_by_roll) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
}

/// One scope's running state within a run.
struct Seats {
    totals: Vec<u64>,
    current: Vec<u64>,
    longest: Vec<u64>,
}

fn run_chunk<R: Randomizer + Clone>(
    question: &Match<'_, R>,
    scopes: &[Scope],
    count: u64,
    chunk: u64,
    seed: u64,
    control: &Control,
) -> Result<Vec<Tally>, Stop> {
    let Match {
        randomizer,
        table,
        samples,
        shares,
        ..
    } = question;
    let samples = *samples;
    let players = table.players();
    let mut generator = rng::stream(seed, chunk);
    let mut r = (*randomizer).clone();
    let mut tallies: Vec<Tally> = scopes
        .iter()
        .map(|_| Tally::new(players, shares.starved.len(), shares.rolls.len()))
        .collect();
    let mut seats: Vec<Seats> = scopes
        .iter()
        .map(|_| Seats {
            totals: vec![0; players],
            current: vec![0; players],
            longest: vec![0; players],
        })
        .collect();
    let mut meter = control.meter();
    let per_run = steps_per_run(samples, table.outcomes(), players);
    for _ in 0..count {
        control.check()?;
        meter.charge(per_run)?;
        r.reset();
        for s in &mut seats {
            s.totals.fill(0);
            s.current.fill(0);
            s.longest.fill(0);
        }
        let mut checkpoint = 0;
        for step in 0..samples {
            let outcome = r.draw(&mut generator);
            let roller = table.roller(step);
            for (scope, s) in scopes.iter().zip(&mut seats) {
                for p in 0..players {
                    if !scope.counts(roller, p) {
                        continue;
                    }
                    let amount = table.amount(step, outcome, p);
                    s.totals[p] += u64::from(amount);
                    if amount > 0 {
                        s.current[p] = 0;
                    } else {
                        s.current[p] += 1;
                        s.longest[p] = s.longest[p].max(s.current[p]);
                    }
                }
            }
            if shares.rolls.get(checkpoint) == Some(&(step + 1)) {
                for (s, tally) in seats.iter().zip(&mut tallies) {
                    let row = &mut tally.by_roll[checkpoint * players..(checkpoint + 1) * players];
                    for (sum, &total) in row.iter_mut().zip(&s.totals) {
                        sum.0 += total;
                        sum.1 += u128::from(total) * u128::from(total);
                    }
                    let best = s.totals.iter().max().copied().unwrap_or(0);
                    let worst = s.totals.iter().min().copied().unwrap_or(0);
                    let d = best - worst;
                    let sum = &mut tally.spread_by_roll[checkpoint];
                    sum.0 += d;
                    sum.1 += u128::from(d) * u128::from(d);
                }
                checkpoint += 1;
            }
        }
        for ((scope, s), tally) in scopes.iter().zip(&seats).zip(&mut tallies) {
            for p in 0..players {
                let k = s.totals[p] as usize;
                if tally.totals[p].len() <= k {
                    tally.totals[p].resize(k + 1, 0);
                }
                tally.totals[p][k] += 1;
                let g = s.longest[p];
                tally.droughts[p].0 += g;
                tally.droughts[p].1 += u128::from(g) * u128::from(g);
            }
            let best = s.totals.iter().max().copied().unwrap_or(0);
            let worst = s.totals.iter().min().copied().unwrap_or(0);
            let d = best - worst;
            tally.spread.0 += d;
            tally.spread.1 += u128::from(d) * u128::from(d);
            for (k, &share) in shares.starved.iter().enumerate() {
                if is_starved(&s.totals, shares.fair(*scope), share) {
                    tally.starved[k] += 1;
                }
            }
        }
    }
    Ok(tallies)
}

fn floats((sum, squares): (u64, u128)) -> (f64, f64) {
    (sum as f64, squares as f64)
}

/// The mean and its standard error from a sum and a sum of squares over `runs`.
fn mean_and_error((sum, squares): (f64, f64), runs: f64) -> Figure {
    let mean = sum / runs;
    let variance = ((squares - sum * mean) / (runs - 1.0)).max(0.0);
    Figure {
        value: mean,
        error: Some((variance / runs).sqrt()),
    }
}

/// The figures of every scope of `question` estimated from `runs` seeded runs, in
/// parallel; `control` is told of each chunk's runs (stage `simulating seats`).
///
/// # Errors
/// [`Stop`] once `control` is cancelled or its budget is spent.
pub(crate) fn figures<R: Randomizer + Clone + Sync>(
    question: &Match<'_, R>,
    runs: u64,
    seed: u64,
    control: &Control,
) -> Result<Vec<SeatFigures>, Stop> {
    let scopes = question.scopes();
    let players = question.table.players();
    control.stage("simulating seats", runs);
    let chunks = runs.div_ceil(CHUNK);
    let empty = || -> Vec<Tally> {
        scopes
            .iter()
            .map(|_| {
                Tally::new(
                    players,
                    question.shares.starved.len(),
                    question.shares.rolls.len(),
                )
            })
            .collect()
    };
    let parts = (0..chunks).into_par_iter().map(|c| {
        control.check()?;
        let count = CHUNK.min(runs - c * CHUNK);
        let tallies = run_chunk(question, scopes, count, c, seed, control)?;
        control.advance(count);
        Ok(tallies)
    });
    let totals: Vec<Tally> = try_reduce(parts, empty, |mut a, b| {
        for (x, y) in a.iter_mut().zip(&b) {
            x.add(y);
        }
        Ok::<_, Stop>(a)
    })?;
    let n = runs as f64;
    Ok(scopes
        .iter()
        .zip(totals)
        .map(|(&scope, total)| {
            let fair = question.shares.fair(scope);
            let players = (0..players)
                .map(|p| {
                    let hits = &total.totals[p];
                    let (sum, squares) =
                        hits.iter().enumerate().fold((0.0, 0.0), |(s, q), (k, &c)| {
                            let k = k as f64;
                            (s + k * c as f64, q + k * k * c as f64)
                        });
                    let (totals, errors) = hits
                        .iter()
                        .map(|&c| {
                            let f = mean_and_error((c as f64, c as f64), n);
                            (f.value, f.error.unwrap_or(0.0))
                        })
                        .unzip();
                    let followed = total.by_roll.iter().skip(p).step_by(players);
                    let (mut expected, mut expected_errors, mut sd) =
                        (Vec::new(), Vec::new(), Vec::new());
                    for &sums in followed {
                        let mean = mean_and_error(floats(sums), n);
                        expected.push(mean.value);
                        let error = mean.error.unwrap_or(0.0);
                        expected_errors.push(error);
                        // The standard error is sd / √runs.
                        sd.push(error * n.sqrt());
                    }
                    PlayerFigures {
                        player: question.names[p].clone(),
                        fair_share: fair[p],
                        expected_total: mean_and_error((sum, squares), n),
                        totals,
                        totals_errors: Some(errors),
                        longest_drought: question
                            .droughts
                            .then(|| mean_and_error(floats(total.droughts[p]), n)),
                        fair_share_by_roll: question.shares.fair_by_roll(scope, p),
                        expected_by_roll: expected,
                        expected_by_roll_errors: Some(expected_errors),
                        sd_by_roll: sd,
                    }
                })
                .collect();
            SeatFigures {
                scope,
                rolls: question.shares.rolls.clone(),
                players,
                spread: mean_and_error(floats(total.spread), n),
                spread_by_roll: total
                    .spread_by_roll
                    .iter()
                    .map(|&sums| mean_and_error(floats(sums), n).value)
                    .collect(),
                spread_by_roll_errors: Some(
                    total
                        .spread_by_roll
                        .iter()
                        .map(|&sums| mean_and_error(floats(sums), n).error.unwrap_or(0.0))
                        .collect(),
                ),
                starved: question
                    .shares
                    .starved
                    .iter()
                    .zip(&total.starved)
                    .map(|(&share, &c)| Starved {
                        share,
                        probability: mean_and_error((c as f64, c as f64), n),
                    })
                    .collect(),
            }
        })
        .collect())
}
