//! The seat figures exactly: one sweep over (randomizer state, every player's
//! total) for the totals, the spread and the starved chances, and one sweep per
//! player over (randomizer state, current drought, longest drought) for the
//! droughts.

use rustc_hash::FxHashMap;

use super::Match;
use super::figures::{Figure, PlayerFigures, Scope, SeatFigures, Starved};
use super::game::Table;
use super::sweep::{Layer, Tracker, sweep};
use crate::analysis::exact::{ExactError, ExactOptions};
use crate::control::Control;
use crate::randomizer::StateSpace;

/// Every player's total in one word: player `p`'s total is digit `p` in the
/// mixed radix of `radix`.
pub(crate) struct Totals<'a> {
    table: &'a Table,
    radix: Vec<u64>,
    /// `deltas[phase · outcomes + outcome]`: what the roll adds to the packed
    /// totals, for each phase of the turn order.
    deltas: Vec<u64>,
}

impl<'a> Totals<'a> {
    /// The packing of `samples` rolls' totals, or `None` when it does not fit in
    /// 64 bits (far beyond what a sweep could hold anyway).
    pub(crate) fn new(table: &'a Table, scope: Scope, samples: usize) -> Option<Totals<'a>> {
        let players = table.players();
        let mut radix = Vec::with_capacity(players);
        let mut product: u64 = 1;
        let mut weights = Vec::with_capacity(players);
        for p in 0..players {
            let top = u64::from(table.most(p)).checked_mul(samples as u64)?;
            weights.push(product);
            radix.push(top + 1);
            product = product.checked_mul(top + 1)?;
        }
        let period = table.period();
        let n = table.outcomes();
        let mut deltas = vec![0u64; period * n];
        for phase in 0..period {
            for o in 0..n {
                deltas[phase * n + o] = (0..players)
                    .filter(|&p| scope.counts(table.roller(phase), p))
                    .map(|p| u64::from(table.amount(phase, o, p)) * weights[p])
                    .sum();
            }
        }
        Some(Totals {
            table,
            radix,
            deltas,
        })
    }

    /// The totals packed in `value`.
    pub(crate) fn unpack(&self, mut value: u64, out: &mut [u64]) {
        for (slot, &r) in out.iter_mut().zip(&self.radix) {
            *slot = value % r;
            value /= r;
        }
    }
}

impl Tracker for Totals<'_> {
    fn start(&self) -> u64 {
        0
    }

    #[inline]
    fn advance(&self, step: usize, outcome: usize, value: u64) -> u64 {
        let n = self.table.outcomes();
        value + self.deltas[(step % self.table.period()) * n + outcome]
    }
}

/// One player's current and longest drought, as `current · (T + 1) + longest`.
pub(crate) struct Drought<'a> {
    table: &'a Table,
    scope: Scope,
    player: usize,
    stride: u64,
}

impl Tracker for Drought<'_> {
    fn start(&self) -> u64 {
        0
    }

    #[inline]
    fn advance(&self, step: usize, outcome: usize, value: u64) -> u64 {
        if !self.scope.counts(self.table.roller(step), self.player) {
            return value;
        }
        let (current, longest) = (value / self.stride, value % self.stride);
        let current = if self.table.amount(step, outcome, self.player) > 0 {
            0
        } else {
            current + 1
        };
        current * self.stride + longest.max(current)
    }
}

/// The exact figures of `scope`, and the most pairs a sweep held.
///
/// # Errors
/// The sweeps' [`ExactError`]s; [`ExactError::OverBudget`] when the totals do not
/// pack into 64 bits.
pub(crate) fn figures<R: StateSpace + Clone>(
    question: &Match<'_, R>,
    scope: Scope,
    options: &ExactOptions,
    control: &Control,
) -> Result<(SeatFigures, usize), ExactError> {
    let Match {
        randomizer,
        table,
        names,
        samples,
        shares,
        droughts,
    } = question;
    let randomizer: &R = randomizer;
    let (samples, droughts) = (*samples, *droughts);
    let players = table.players();
    let Some(totals) = Totals::new(table, scope, samples) else {
        return Err(ExactError::OverBudget {
            step: 1,
            states: usize::MAX,
            budget: options.budget,
            samples,
            estimate: f64::INFINITY,
        });
    };
    control.stage(
        match scope {
            Scope::AllRolls => "seat totals",
            Scope::OwnTurns => "seat totals on own turns",
        },
        samples as u64,
    );
    let mut growth = Growth::new(players, shares.rolls.len());
    let (joint, mut peak) = sweep(
        randomizer,
        samples,
        &totals,
        options,
        control,
        |done, layer| {
            if shares.rolls.get(growth.taken) == Some(&done) {
                growth.take(&totals, layer);
            }
        },
    )?;
    let fair = shares.fair(scope);
    let mut distributions: Vec<Vec<f64>> = totals
        .radix
        .iter()
        .map(|&r| vec![0.0; r as usize])
        .collect();
    let mut spread = 0.0;
    let mut starved = vec![0.0; shares.starved.len()];
    let mut unpacked = vec![0u64; players];
    // Sorted, so the sums do not depend on the hash map's order.
    let mut joint: Vec<(u64, f64)> = joint.into_iter().collect();
    joint.sort_unstable_by_key(|&(value, _)| value);
    for (value, mass) in joint {
        totals.unpack(value, &mut unpacked);
        for (p, &total) in unpacked.iter().enumerate() {
            distributions[p][total as usize] += mass;
        }
        let best = unpacked.iter().max().copied().unwrap_or(0);
        let worst = unpacked.iter().min().copied().unwrap_or(0);
        spread += mass * (best - worst) as f64;
        for (k, &share) in shares.starved.iter().enumerate() {
            if is_starved(&unpacked, fair, share) {
                starved[k] += mass;
            }
        }
    }
    let mut figures = Vec::with_capacity(players);
    for (p, mut totals) in distributions.into_iter().enumerate() {
        while totals.len() > 1 && totals.last() == Some(&0.0) {
            totals.pop();
        }
        let expected = totals.iter().enumerate().map(|(k, m)| k as f64 * m).sum();
        let longest_drought = if droughts {
            let tracker = Drought {
                table,
                scope,
                player: p,
                stride: samples as u64 + 1,
            };
            control.stage("seat droughts", samples as u64);
            let (ends, states) = sweep(randomizer, samples, &tracker, options, control, |_, _| {})?;
            peak = peak.max(states);
            Some(Figure::exact(expected_longest(ends, tracker.stride)))
        } else {
            None
        };
        figures.push(PlayerFigures {
            player: names[p].clone(),
            fair_share: fair[p],
            expected_total: Figure::exact(expected),
            totals,
            totals_errors: None,
            longest_drought,
            fair_share_by_roll: shares.fair_by_roll(scope, p),
            expected_by_roll: growth.mean[p].clone(),
            expected_by_roll_errors: None,
            sd_by_roll: growth.sd[p].clone(),
        });
    }
    Ok((
        SeatFigures {
            scope,
            rolls: shares.rolls.clone(),
            players: figures,
            spread: Figure::exact(spread),
            spread_by_roll: growth.spread,
            spread_by_roll_errors: None,
            starved: shares
                .starved
                .iter()
                .zip(starved)
                .map(|(&share, p)| Starved {
                    share,
                    probability: Figure::exact(p),
                })
                .collect(),
        },
        peak,
    ))
}

/// Every player's mean and standard deviation of their total, and the expected
/// spread between the players, at each checkpoint taken so far.
struct Growth {
    taken: usize,
    mean: Vec<Vec<f64>>,
    sd: Vec<Vec<f64>>,
    spread: Vec<f64>,
    unpacked: Vec<u64>,
}

impl Growth {
    fn new(players: usize, checkpoints: usize) -> Growth {
        Growth {
            taken: 0,
            mean: vec![Vec::with_capacity(checkpoints); players],
            sd: vec![Vec::with_capacity(checkpoints); players],
            spread: Vec::with_capacity(checkpoints),
            unpacked: vec![0; players],
        }
    }

    /// The moments of every player's total, and the expected spread, over one
    /// step's pairs.
    fn take(&mut self, totals: &Totals<'_>, layer: &Layer) {
        let players = self.unpacked.len();
        let mut sums = vec![(0.0f64, 0.0f64); players];
        let mut spread = 0.0;
        for &(_, value, mass) in layer {
            totals.unpack(value, &mut self.unpacked);
            for (sum, &total) in sums.iter_mut().zip(&self.unpacked) {
                let x = total as f64;
                sum.0 += mass * x;
                sum.1 += mass * x * x;
            }
            let best = self.unpacked.iter().max().copied().unwrap_or(0);
            let worst = self.unpacked.iter().min().copied().unwrap_or(0);
            spread += mass * (best - worst) as f64;
        }
        self.spread.push(spread);
        for (p, (first, second)) in sums.into_iter().enumerate() {
            self.mean[p].push(first);
            self.sd[p].push((second - first * first).max(0.0).sqrt());
        }
        self.taken += 1;
    }
}

fn expected_longest(ends: FxHashMap<u64, f64>, stride: u64) -> f64 {
    let mut ends: Vec<(u64, f64)> = ends.into_iter().collect();
    ends.sort_unstable_by_key(|&(value, _)| value);
    ends.iter()
        .map(|&(value, mass)| (value % stride) as f64 * mass)
        .sum()
}

/// Whether some player with a positive fair share ends at or below `share` of
/// it (a hair of slack so that exactly `share` counts despite rounding).
pub(crate) fn is_starved(totals: &[u64], fair: &[f64], share: f64) -> bool {
    totals
        .iter()
        .zip(fair)
        .any(|(&total, &f)| f > 0.0 && total as f64 <= share * f * (1.0 + 1e-12))
}
