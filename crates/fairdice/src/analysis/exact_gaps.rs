//! The expected longest gap of each outcome over a match, as exact fractions,
//! for a randomizer whose chances are exact (a machine): the droughts of
//! [`gaps`](super::gaps) without rounding, on its [`Chain`].
//!
//! A gap is a run of samples without the outcome, counted from the start of
//! the match and up to its end, as [`gaps`](super::gaps) counts them. The walk
//! follows (state, current gap, longest gap so far) with every probability an
//! integer over `L^t` (see the exact lane of [`goal`](super::goal)); it is priced
//! first and left out past [`super::goal::MAX_EXACT_WORK`].

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Zero;

use super::chain::Chain;
use super::goal::{GoalError, MAX_EXACT_WORK};
use crate::control::Control;

/// Per outcome, the expected longest run of samples without it over the first
/// `samples` samples from state 0 of `chain`; `None` when the chain has no exact
/// chances or the work would pass [`MAX_EXACT_WORK`].
///
/// # Errors
/// [`GoalError::Stopped`] over the control's budget or when cancelled.
pub fn exact_longest_gaps(
    chain: &Chain,
    samples: usize,
    control: &Control,
) -> Result<Option<Vec<BigRational>>, GoalError> {
    let Some(exact) = chain.exact() else {
        return Ok(None);
    };
    let side = samples + 1;
    let bits = 64.0 - f64::from(exact.scale.leading_zeros());
    let nodes = chain.states() as f64 * (side * side) as f64 / 2.0;
    let degree = exact.weights.len() as f64 / chain.states() as f64;
    let work = chain.outcomes() as f64
        * nodes
        * degree
        * samples as f64
        * (1.0 + samples as f64 * bits / 128.0);
    if work > MAX_EXACT_WORK || chain.states().saturating_mul(side * side) > 50_000_000 {
        return Ok(None);
    }
    control.afford(work)?;
    let mut meter = control.meter();
    let index = |state: usize, run: usize, longest: usize| (state * side + run) * side + longest;
    let mut gaps = Vec::with_capacity(chain.outcomes());
    for outcome in 0..chain.outcomes() {
        let mut at = vec![BigUint::zero(); chain.states() * side * side];
        at[index(0, 0, 0)] = BigUint::from(1u32);
        let mut next = at.clone();
        for t in 0..samples {
            next.iter_mut().for_each(BigUint::set_zero);
            meter.charge((nodes * degree * (1.0 + t as f64 * bits / 64.0)) as u64)?;
            for state in 0..chain.states() {
                let first = chain.first_transition(state);
                for run in 0..=t {
                    for longest in run..=t {
                        let mass = &at[index(state, run, longest)];
                        if mass.is_zero() {
                            continue;
                        }
                        for (i, step) in chain.transitions(state).iter().enumerate() {
                            let moved = mass * exact.weights[first + i];
                            let (run, longest) = if step.outcome as usize == outcome {
                                (0, longest)
                            } else {
                                (run + 1, longest.max(run + 1))
                            };
                            next[index(step.target as usize, run, longest)] += moved;
                        }
                    }
                }
            }
            std::mem::swap(&mut at, &mut next);
        }
        let mut sum = BigUint::zero();
        for state in 0..chain.states() {
            for run in 0..side {
                for longest in run..side {
                    let mass = &at[index(state, run, longest)];
                    if !mass.is_zero() {
                        sum += mass * longest as u64;
                    }
                }
            }
        }
        gaps.push(BigRational::new(
            BigInt::from(sum),
            BigInt::from(BigUint::from(exact.scale).pow(samples as u32)),
        ));
    }
    Ok(Some(gaps))
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use crate::analysis::{AnalysisOptions, analyze};
    use crate::randomizer::{Machine, Randomizer};

    #[test]
    fn the_exact_gaps_agree_with_the_sweep_and_every_sequence() {
        let shot = Machine::from_json(
            r#"{"layers": [{"name": "m", "counter": 3,
              "draw": {"hit": "min(1, 1/3 + n/3)", "miss": "rest"},
              "next": {"hit": 0, "miss": "min(2, n + 1)"}}]}"#,
        )
        .expect("valid");
        let chain = Chain::explore(&shot, &Control::new()).expect("small");
        let samples = 8;
        let gaps = exact_longest_gaps(&chain, samples, &Control::new())
            .expect("fits")
            .expect("exact");
        // Every sequence of 8 hits (1) and misses (0), with its exact chance.
        let mut brute = vec![BigRational::zero(); 2];
        for sequence in 0u32..1 << samples {
            let mut r = shot.clone();
            let mut chance = BigRational::from_integer(1.into());
            for t in 0..samples {
                let o = (sequence >> t & 1) as usize;
                let exact = r.exact_next_distribution().expect("a machine");
                chance *= BigRational::new((*exact[o].numer()).into(), (*exact[o].denom()).into());
                if r.observe(o).is_err() {
                    break;
                }
            }
            for (outcome, brute) in brute.iter_mut().enumerate() {
                let (mut run, mut longest) = (0i64, 0i64);
                for t in 0..samples {
                    if (sequence >> t & 1) as usize == outcome {
                        run = 0;
                    } else {
                        run += 1;
                        longest = longest.max(run);
                    }
                }
                *brute += &chance * BigInt::from(longest);
            }
        }
        assert_eq!(gaps, brute);
        let swept = analyze(
            &crate::randomizer::AnyRandomizer::from(shot),
            &AnalysisOptions::new(samples),
            &Control::new(),
        )
        .expect("small");
        let droughts = swept.droughts.expect("asked");
        for (o, exact) in gaps.iter().enumerate() {
            let float: f64 = exact.numer().to_string().parse::<f64>().unwrap()
                / exact.denom().to_string().parse::<f64>().unwrap();
            assert!((droughts.outcomes[o].longest_gap - float).abs() < 1e-12);
        }
    }
}
