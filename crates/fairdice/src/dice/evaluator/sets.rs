//! Matching sets, straights and counts: what a pool's dice show together.
//!
//! Each is an [`Evaluator`] over the counts of the outcomes, walked lowest first,
//! so the engine answers it for pools of any size with a state that stays small:
//! the largest count so far, how many outcomes have reached a size, the run of
//! consecutive outcomes shown, or how many dice showed listed faces. [`Joint`]
//! walks several of them at once over the same roll (hits and ones of one 12d6).

use super::{Evaluator, Final, Order};
use crate::control::Control;
use crate::dice::die::{Die, DieError, Outcome};
use crate::dice::pool::Pool;

/// What a pool's dice show together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// The size of the largest matching set: how many dice show the most common
    /// face (`5` for a Yahtzee of five dice).
    LargestSet,
    /// How many different faces at least this many dice show (`2`: the pairs,
    /// three of a kind counting as one).
    Sets(u32),
    /// The length of the longest run of consecutive faces shown (`5` for 1-2-3-4-5).
    LongestStraight,
    /// The face of the largest matching set, the highest face among sets of that
    /// size (the One-Roll Engine's height: `3` for 3-3-3-5-5).
    Height,
    /// How many dice show one of these faces.
    Count(Vec<Outcome>),
    /// The dice's sum.
    Sum,
}

impl Pattern {
    /// The largest value the pattern takes over `dice` dice of `faces` faces each
    /// (for a sum, the number of sums it can take).
    pub fn most(&self, dice: u64, faces: u64) -> u64 {
        match self {
            Pattern::LargestSet | Pattern::Count(_) => dice,
            Pattern::Sets(k) => (dice / u64::from((*k).max(1))).min(faces),
            Pattern::LongestStraight => dice.min(faces),
            Pattern::Height => faces,
            Pattern::Sum => dice.saturating_mul(faces),
        }
    }
}

/// The state of a [`Pattern`]'s walk: the value so far, and for a straight the
/// outcome its current run ends at and that run's length (for a height, the size
/// of the largest set so far in `run`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PatternState {
    best: Outcome,
    run_end: Outcome,
    run: u32,
}

impl Evaluator for Pattern {
    type State = PatternState;
    type Output = Outcome;

    fn initial_state(&self) -> PatternState {
        PatternState {
            best: 0,
            run_end: Outcome::MIN,
            run: 0,
        }
    }

    fn next_state(
        &self,
        state: &PatternState,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<PatternState, DieError> {
        let shown: u32 = counts.iter().sum();
        let mut next = state.clone();
        match self {
            Pattern::LargestSet => next.best = next.best.max(Outcome::from(shown)),
            Pattern::Sets(k) => next.best += Outcome::from(shown >= *k),
            Pattern::Count(faces) if faces.contains(&outcome) => {
                next.best += Outcome::from(shown);
            }
            Pattern::Count(_) => {}
            Pattern::Sum => {
                next.best = outcome
                    .checked_mul(Outcome::from(shown))
                    .and_then(|part| next.best.checked_add(part))
                    .ok_or(DieError::Overflow)?;
            }
            Pattern::LongestStraight if shown > 0 => {
                next.run = if state.run_end.checked_add(1) == Some(outcome) {
                    state.run + 1
                } else {
                    1
                };
                next.run_end = outcome;
                next.best = next.best.max(Outcome::from(next.run));
            }
            Pattern::LongestStraight => {
                // An outcome no die shows ends every run through it: the states
                // whose runs ended earlier are one state.
                next.run = 0;
                next.run_end = Outcome::MIN;
            }
            // Faces come lowest first, so a set as large as the largest so far
            // is higher: it becomes the height.
            Pattern::Height if shown > 0 && shown >= state.run => {
                next.run = shown;
                next.best = outcome;
            }
            Pattern::Height => {}
        }
        Ok(next)
    }

    fn final_outcome(&self, state: &PatternState) -> Result<Final<Outcome>, DieError> {
        Ok(Final::Value(state.best))
    }

    fn order(&self) -> Order {
        Order::Ascending
    }
}

/// Several [`Pattern`]s of the same roll, walked together: the result of a roll
/// is their values in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joint(pub Vec<Pattern>);

impl Evaluator for Joint {
    type State = Vec<PatternState>;
    type Output = Vec<Outcome>;

    fn initial_state(&self) -> Vec<PatternState> {
        self.0.iter().map(Evaluator::initial_state).collect()
    }

    fn next_state(
        &self,
        state: &Vec<PatternState>,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<Vec<PatternState>, DieError> {
        self.0
            .iter()
            .zip(state)
            .map(|(pattern, s)| pattern.next_state(s, outcome, counts))
            .collect()
    }

    fn final_outcome(&self, state: &Vec<PatternState>) -> Result<Final<Vec<Outcome>>, DieError> {
        Ok(Final::Value(values(state)))
    }

    fn order(&self) -> Order {
        Order::Ascending
    }
}

/// Patterns each of one of several pools (the hands of one deal): the pool's
/// index and what is read of it. The result is their values in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerPool(pub Vec<(usize, Pattern)>);

impl Evaluator for PerPool {
    type State = Vec<PatternState>;
    type Output = Vec<Outcome>;

    fn initial_state(&self) -> Vec<PatternState> {
        self.0.iter().map(|(_, p)| p.initial_state()).collect()
    }

    fn next_state(
        &self,
        state: &Vec<PatternState>,
        outcome: Outcome,
        counts: &[u32],
    ) -> Result<Vec<PatternState>, DieError> {
        self.0
            .iter()
            .zip(state)
            .map(|((pool, pattern), s)| pattern.next_state(s, outcome, &counts[*pool..=*pool]))
            .collect()
    }

    fn final_outcome(&self, state: &Vec<PatternState>) -> Result<Final<Vec<Outcome>>, DieError> {
        Ok(Final::Value(values(state)))
    }

    fn order(&self) -> Order {
        Order::Ascending
    }
}

/// The values of several patterns' states, in order.
fn values(states: &[PatternState]) -> Vec<Outcome> {
    states.iter().map(|s| s.best).collect()
}

/// The distribution of `pattern` over every roll of `pool`, exactly.
///
/// # Errors
/// [`DieError::Stopped`] past the control's budget or once it is cancelled.
pub fn pattern(pattern: &Pattern, pool: &Pool, control: &Control) -> Result<Die, DieError> {
    super::evaluate_die(pattern, &[pool], control)
}

/// The joint distribution of `patterns` over every roll of `pool`: each
/// combination of their values with its exact count, ascending.
///
/// # Errors
/// As [`pattern`]; [`DieError::Overflow`] for a sum past the `i64` range.
pub fn joint(
    patterns: &[Pattern],
    pool: &Pool,
    control: &Control,
) -> Result<Vec<(Vec<Outcome>, num_bigint::BigUint)>, DieError> {
    super::evaluate(&Joint(patterns.to_vec()), &[pool], control)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::d;

    /// Every roll of `n` dice of `faces` faces, counted one by one.
    fn by_enumeration(n: u32, faces: i64, f: impl Fn(&[i64]) -> i64) -> Die {
        let mut counts = std::collections::BTreeMap::new();
        let mut roll = vec![1i64; n as usize];
        loop {
            *counts
                .entry(f(&roll))
                .or_insert(num_bigint::BigUint::from(0u32)) += 1u32;
            let mut i = 0;
            loop {
                if i == roll.len() {
                    return Die::new(counts).unwrap();
                }
                roll[i] += 1;
                if roll[i] <= faces {
                    break;
                }
                roll[i] = 1;
                i += 1;
            }
        }
    }

    fn largest(roll: &[i64]) -> i64 {
        roll.iter()
            .map(|x| roll.iter().filter(|y| *y == x).count() as i64)
            .max()
            .unwrap_or(0)
    }

    fn sets(roll: &[i64], k: usize) -> i64 {
        let mut faces: Vec<i64> = roll.to_vec();
        faces.sort_unstable();
        faces.dedup();
        faces
            .iter()
            .filter(|x| roll.iter().filter(|y| y == x).count() >= k)
            .count() as i64
    }

    fn straight(roll: &[i64]) -> i64 {
        let (mut best, mut run) = (0, 0);
        for face in 1..=12 {
            run = if roll.contains(&face) { run + 1 } else { 0 };
            best = best.max(run);
        }
        best
    }

    #[test]
    fn patterns_of_small_pools_match_every_roll_counted() {
        for (n, faces) in [(1, 6), (3, 4), (5, 6), (6, 3), (4, 8)] {
            let pool = Pool::new(&d(faces), u64::from(n)).unwrap();
            let control = Control::new();
            let faces = faces as i64;
            assert_eq!(
                pattern(&Pattern::LargestSet, &pool, &control).unwrap(),
                by_enumeration(n, faces, largest),
                "{n}d{faces}"
            );
            for k in 1..=3 {
                assert_eq!(
                    pattern(&Pattern::Sets(k), &pool, &control).unwrap(),
                    by_enumeration(n, faces, |r| sets(r, k as usize)),
                    "{n}d{faces} sets {k}"
                );
            }
            assert_eq!(
                pattern(&Pattern::LongestStraight, &pool, &control).unwrap(),
                by_enumeration(n, faces, straight),
                "{n}d{faces}"
            );
        }
    }

    #[test]
    fn patterns_of_one_roll_walked_together_match_every_roll_counted() {
        // Shadowrun's glitch needs the ones and the hits of the same dice.
        let pool = Pool::new(&d(6), 5).unwrap();
        let patterns = [
            Pattern::Count(vec![1]),
            Pattern::Count(vec![5, 6]),
            Pattern::Sum,
            Pattern::LargestSet,
        ];
        let walked = joint(&patterns, &pool, &Control::new()).unwrap();
        let mut counted = std::collections::BTreeMap::new();
        let mut roll = [1i64; 5];
        loop {
            let ones = roll.iter().filter(|&&x| x == 1).count() as i64;
            let hits = roll.iter().filter(|&&x| x >= 5).count() as i64;
            let key = vec![ones, hits, roll.iter().sum(), largest(&roll)];
            *counted
                .entry(key)
                .or_insert(num_bigint::BigUint::from(0u32)) += 1u32;
            let Some(i) = roll.iter().position(|&x| x < 6) else {
                break;
            };
            roll[i] += 1;
            roll[..i].fill(1);
        }
        assert_eq!(walked, counted.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn a_straight_needs_consecutive_faces_not_consecutive_outcomes_of_the_walk() {
        // d{1,3,5}: no two faces are consecutive, so no straight passes 1.
        let die = Die::from_faces(&[1, 3, 5]).unwrap();
        let pool = Pool::new(&die, 3).unwrap();
        let straight = pattern(&Pattern::LongestStraight, &pool, &Control::new()).unwrap();
        assert_eq!(straight.outcomes(), &[1]);
    }
}
