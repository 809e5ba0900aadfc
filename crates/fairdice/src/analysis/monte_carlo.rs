//! Seeded, parallel Monte Carlo estimates of the same measures, with standard
//! errors, for randomizers whose state space is too large to sweep.
//!
//! # Design decisions
//! Runs are dealt in fixed chunks of [`CHUNK`]; chunk `c` draws from
//! [`rng::stream(seed, c)`](crate::rng::stream), and the chunks' tallies are
//! added in chunk order. The estimate therefore depends on the seed and the number
//! of runs only, never on the number of threads.

use crate::parallel::*;

use super::base_deviation::{self, BaseDeviation, base_probabilities};
use super::gaps::OutcomeDroughts;
use super::metrics::{CurveErrors, Curves, variance_from_squares};
use crate::control::{Control, Stop};
use crate::randomizer::Randomizer;
use crate::rng;

/// Budget steps one run of `samples` samples of `randomizer` costs (its
/// [`sample_steps`](Randomizer::sample_steps) for each sample): what the
/// estimate charges, and what every price of an estimate reads.
pub fn steps_per_run(randomizer: &impl Randomizer, samples: usize) -> u64 {
    (samples as u64).saturating_mul(randomizer.sample_steps())
}

/// Runs per chunk (the unit of parallel work and of progress reports).
pub const CHUNK: u64 = 1024;

/// A Monte Carlo estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The per-step means, with standard errors in `curves.errors`.
    pub curves: Curves,
    /// Each outcome's droughts, with standard errors (when asked for).
    pub droughts: Option<Vec<OutcomeDroughts>>,
    /// The counts' deviation from the base after the last sample, with standard
    /// errors.
    pub base_deviation: BaseDeviation,
}

/// Sums over runs, for one chunk or all.
#[derive(Clone)]
struct Tally {
    runs: u64,
    entropy: Vec<(f64, f64)>,
    variance: Vec<(f64, f64)>,
    repeat: Vec<f64>,
    mean_entropy: Vec<(f64, f64)>,
    /// Per step, sums of the normalized chi-square of the counts against the base
    /// and of its square.
    deviation_curve: Vec<(f64, f64)>,
    /// `longest[i · (T + 1) + g]`: runs whose longest gap of outcome `i` was `g`.
    longest: Vec<u64>,
    /// Per outcome, sums of the scaled squared deviation from the base and of
    /// its square; then the same for the normalized chi-square.
    deviation: Vec<(f64, f64)>,
}

impl Tally {
    fn new(samples: usize, outcomes: usize, droughts: bool) -> Tally {
        Tally {
            runs: 0,
            entropy: vec![(0.0, 0.0); samples],
            variance: vec![(0.0, 0.0); samples],
            repeat: vec![0.0; samples],
            mean_entropy: vec![(0.0, 0.0); samples],
            deviation_curve: vec![(0.0, 0.0); samples],
            longest: if droughts {
                vec![0; outcomes * (samples + 1)]
            } else {
                Vec::new()
            },
            deviation: vec![(0.0, 0.0); outcomes + 1],
        }
    }

    fn add(&mut self, other: &Tally) {
        self.runs += other.runs;
        let pairs = |a: &mut Vec<(f64, f64)>, b: &Vec<(f64, f64)>| {
            for (x, y) in a.iter_mut().zip(b) {
                x.0 += y.0;
                x.1 += y.1;
            }
        };
        pairs(&mut self.entropy, &other.entropy);
        pairs(&mut self.variance, &other.variance);
        pairs(&mut self.mean_entropy, &other.mean_entropy);
        pairs(&mut self.deviation_curve, &other.deviation_curve);
        pairs(&mut self.deviation, &other.deviation);
        for (x, y) in self.repeat.iter_mut().zip(&other.repeat) {
            *x += y;
        }
        for (x, y) in self.longest.iter_mut().zip(&other.longest) {
            *x += y;
        }
    }
}

/// Runs `count` matches of `samples` samples with `generator`, tallying them.
#[allow(clippy::too_many_arguments)] // private: the chunk's share of `estimate`'s inputs
fn run_chunk<R: Randomizer + Clone>(
    randomizer: &R,
    base: &[f64],
    samples: usize,
    count: u64,
    chunk: u64,
    seed: u64,
    droughts: bool,
    control: &Control,
) -> Result<Tally, Stop> {
    let mut generator = rng::stream(seed, chunk);
    let mut r = randomizer.clone();
    let n = r.outcomes().len();
    let mut tally = Tally::new(samples, n, droughts);
    tally.runs = count;
    let mut counts = vec![0u64; n];
    let mut last_seen = vec![0usize; n];
    let mut longest = vec![0usize; n];
    let mut squared = vec![0.0; n];
    let mut meter = control.meter();
    let chi = ChiSquare::new(base);
    let per_run = steps_per_run(randomizer, samples);
    for _ in 0..count {
        // One look per run: a chunk of long runs takes long enough to matter.
        control.check()?;
        meter.charge(per_run)?;
        r.reset();
        counts.fill(0);
        last_seen.fill(0);
        longest.fill(0);
        let mut squares = 0u64;
        // Σ c_i²/p_i and Σ c_i over the outcomes the base can give.
        let (mut weighted_squares, mut possible) = (0.0, 0u64);
        let mut entropy_sum = 0.0;
        let mut previous = usize::MAX;
        for t in 0..samples {
            let e = r.next_entropy_fraction();
            let x = r.draw(&mut generator);
            squares += 2 * counts[x] + 1;
            if let Some(inverse) = chi.inverse[x] {
                weighted_squares += (2 * counts[x] + 1) as f64 * inverse;
                possible += 1;
            }
            counts[x] += 1;
            let v = variance_from_squares(squares as f64, (t + 1) as f64, n);
            entropy_sum += e;
            let prefix_mean = entropy_sum / (t + 1) as f64;
            tally.entropy[t].0 += e;
            tally.entropy[t].1 += e * e;
            tally.variance[t].0 += v;
            tally.variance[t].1 += v * v;
            tally.mean_entropy[t].0 += prefix_mean;
            tally.mean_entropy[t].1 += prefix_mean * prefix_mean;
            let deviation = chi.normalized(weighted_squares, possible, t + 1);
            tally.deviation_curve[t].0 += deviation;
            tally.deviation_curve[t].1 += deviation * deviation;
            if x == previous {
                tally.repeat[t] += 1.0;
            }
            previous = x;
            if droughts {
                // Samples are numbered 1..=T; last_seen 0 is the start of the match.
                let gap = t - last_seen[x];
                longest[x] = longest[x].max(gap);
                last_seen[x] = t + 1;
            }
        }
        if droughts {
            for i in 0..n {
                let g = longest[i].max(samples - last_seen[i]);
                tally.longest[i * (samples + 1) + g] += 1;
            }
        }
        for (i, square) in squared.iter_mut().enumerate() {
            let d = counts[i] as f64 - base[i] * samples as f64;
            *square = d * d;
        }
        let (per_outcome, normalized) = base_deviation::scale(base, samples, &squared);
        for (sum, x) in tally
            .deviation
            .iter_mut()
            .zip(per_outcome.iter().chain([&normalized]))
        {
            sum.0 += x;
            sum.1 += x * x;
        }
    }
    Ok(tally)
}

/// The normalized chi-square of the counts against the base, kept up to date in
/// O(1) a sample: with `S = Σ c_i²/p_i` and `C = Σ c_i` over the outcomes of
/// positive probability, `Σ (c_i − p_i·t)²/(p_i·t) = S/t − 2C + t`.
struct ChiSquare {
    /// `1/p_i`, or `None` for an outcome the base never gives.
    inverse: Vec<Option<f64>>,
    /// `k − 1` for the `k` outcomes the base can give (0: no deviation).
    freedom: f64,
}

impl ChiSquare {
    fn new(base: &[f64]) -> ChiSquare {
        let inverse: Vec<Option<f64>> = base.iter().map(|&p| (p > 0.0).then(|| 1.0 / p)).collect();
        let k = inverse.iter().flatten().count();
        ChiSquare {
            inverse,
            freedom: k.saturating_sub(1) as f64,
        }
    }

    /// The normalized statistic after `t` samples.
    fn normalized(&self, weighted_squares: f64, possible: u64, t: usize) -> f64 {
        if self.freedom == 0.0 {
            return 0.0;
        }
        let t = t as f64;
        ((weighted_squares / t - 2.0 * possible as f64 + t) / self.freedom).max(0.0)
    }
}

/// Estimates the per-step curves (and, with `droughts`, each outcome's droughts)
/// of `randomizer` over `samples` samples from `runs` seeded runs, in parallel.
/// `control` is told of the runs of each finished chunk (stage `simulating`) and
/// is looked at before each run.
///
/// # Errors
/// [`Stop::Cancelled`] once `control` is cancelled.
pub fn estimate<R: Randomizer + Clone + Sync>(
    randomizer: &R,
    samples: usize,
    runs: u64,
    seed: u64,
    droughts: bool,
    control: &Control,
) -> Result<Estimate, Stop> {
    let n = randomizer.outcomes().len();
    let chunks = runs.div_ceil(CHUNK);
    let base = base_probabilities(randomizer);
    control.stage("simulating", runs);
    let tallies: Vec<Tally> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            control.check()?;
            let count = CHUNK.min(runs - c * CHUNK);
            let tally = run_chunk(
                randomizer, &base, samples, count, c, seed, droughts, control,
            )?;
            control.advance(count);
            Ok(tally)
        })
        .collect::<Result<_, Stop>>()?;
    let mut total = Tally::new(samples, n, droughts);
    for t in &tallies {
        total.add(t);
    }
    Ok(summarize(&total, samples, n, droughts))
}

/// The mean and its standard error from a sum and a sum of squares over `runs`.
fn mean_and_error((sum, squares): (f64, f64), runs: f64) -> (f64, f64) {
    let mean = sum / runs;
    if runs < 2.0 {
        return (mean, f64::NAN);
    }
    let variance = ((squares - sum * mean) / (runs - 1.0)).max(0.0);
    (mean, (variance / runs).sqrt())
}

fn summarize(total: &Tally, samples: usize, n: usize, droughts: bool) -> Estimate {
    let runs = total.runs as f64;
    let split = |v: &[(f64, f64)]| -> (Vec<f64>, Vec<f64>) {
        v.iter().map(|&p| mean_and_error(p, runs)).unzip()
    };
    let (entropy, entropy_error) = split(&total.entropy);
    let (outcome_variance, variance_error) = split(&total.variance);
    let (_, mean_entropy_error) = split(&total.mean_entropy);
    let (base_deviation_curve, base_deviation_error) = split(&total.deviation_curve);
    // A repeat is 0 or 1, so its sum of squares is its sum.
    let (repeat, repeat_error): (Vec<f64>, Vec<f64>) = total
        .repeat
        .iter()
        .map(|&hits| mean_and_error((hits, hits), runs))
        .unzip();
    let curves = Curves {
        entropy,
        outcome_variance,
        repeat,
        base_deviation: base_deviation_curve,
        errors: Some(CurveErrors {
            entropy: entropy_error,
            outcome_variance: variance_error,
            repeat: repeat_error,
            base_deviation: base_deviation_error,
            mean_entropy: mean_entropy_error,
        }),
    };
    let droughts = droughts.then(|| {
        (0..n)
            .map(|i| {
                let hist = &total.longest[i * (samples + 1)..(i + 1) * (samples + 1)];
                let (sum, squares) = hist.iter().enumerate().fold((0.0, 0.0), |(s, q), (g, &c)| {
                    let g = g as f64;
                    (s + g * c as f64, q + g * g * c as f64)
                });
                let (longest_gap, longest_error) = mean_and_error((sum, squares), runs);
                let (exceeds, exceeds_error): (Vec<f64>, Vec<f64>) = (0..=samples)
                    .map(|k| {
                        let above: u64 = hist[k + 1..].iter().sum();
                        mean_and_error((above as f64, above as f64), runs)
                    })
                    .unzip();
                OutcomeDroughts {
                    outcome: i,
                    longest_gap,
                    exceeds,
                    errors: Some((longest_error, exceeds_error)),
                }
            })
            .collect()
    });
    let (deviation, deviation_errors): (Vec<f64>, Vec<f64>) = total
        .deviation
        .iter()
        .map(|&p| mean_and_error(p, runs))
        .unzip();
    let base_deviation = BaseDeviation {
        normalized: deviation[n],
        per_outcome: deviation[..n].to_vec(),
        errors: Some((deviation_errors[n], deviation_errors[..n].to_vec())),
    };
    Estimate {
        curves,
        droughts,
        base_deviation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::Spec;

    #[test]
    #[cfg(feature = "parallel")]
    fn independent_of_the_thread_count() {
        let r = Spec::build("dynamic(values=6, decrease=0.4)").expect("valid");
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool")
            .install(|| estimate(&r, 20, 5000, 9, true, &Control::new()));
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool")
            .install(|| estimate(&r, 20, 5000, 9, true, &Control::new()));
        assert_eq!(one, two);
    }

    #[test]
    fn plain_dice_estimates_cover_the_closed_form() {
        let r = Spec::build("dice(values=6)").expect("valid");
        let e = estimate(&r, 25, 20_000, 3, false, &Control::new()).expect("not cancelled");
        let errors = e.curves.errors.clone().expect("Monte Carlo has errors");
        let expected = 25.0 * (1.0 / 6.0) * (5.0 / 6.0);
        let got = e.curves.outcome_variance(25);
        assert!(
            (got - expected).abs() < 5.0 * errors.outcome_variance[24],
            "{got}"
        );
        assert!(e.curves.entropy.iter().all(|&h| (h - 1.0).abs() < 1e-12));
    }
}
