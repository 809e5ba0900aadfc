//! One Risk roll: the attacker's and defender's dice sorted and compared pairwise,
//! ties to the defender — a sorted [`Contest`] solved exactly by the pool engine.

use num_bigint::BigUint;

use crate::contest::{Contest, ContestError, Pairing, TieRule};
use crate::control::Control;
use crate::dice::die::{Die, ratio, ratio_to_f64};
use crate::dice::pool::Pool;

/// The distribution of one roll: for each number of armies the attacker loses, its
/// count out of `faces^(attacker + defender)`. The defender loses the rest of the
/// `min(attacker, defender)` compared pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollLosses {
    /// Dice rolled by the attacker.
    pub attacker_dice: u32,
    /// Dice rolled by the defender.
    pub defender_dice: u32,
    /// `counts[k]`: rolls in which the attacker loses `k` armies.
    pub counts: Vec<BigUint>,
}

impl RollLosses {
    /// The number of armies lost in all by one roll (the pairs compared).
    pub fn pairs(&self) -> u32 {
        self.attacker_dice.min(self.defender_dice)
    }

    /// The total count, `faces^(attacker + defender)`.
    pub fn total(&self) -> BigUint {
        self.counts.iter().sum()
    }

    /// `probabilities[k]`: the probability that the attacker loses `k` armies.
    pub fn probabilities(&self) -> Vec<f64> {
        let total = self.total();
        self.counts
            .iter()
            .map(|c| ratio_to_f64(&ratio(c.clone(), total.clone())))
            .collect()
    }
}

/// Solves one roll of `attacker` dice against `defender` dice with `faces` sides: a
/// sorted contest in which the defender wins ties.
///
/// # Errors
/// [`ContestError`] for a side without dice or a die without faces, or if `control`
/// stops it.
pub fn roll_losses(
    attacker: u32,
    defender: u32,
    faces: u64,
    control: &Control,
) -> Result<RollLosses, ContestError> {
    let die = Die::standard(faces)?;
    let a = Pool::new(&die, u64::from(attacker))?;
    let d = Pool::new(&die, u64::from(defender))?;
    let wins = Contest::new(&a, &d)?
        .pairing(Pairing::Sorted)
        .ties(TieRule::BWins)
        .pair_wins(control)?;
    let pairs = attacker.min(defender);
    // With ties to the defender every pair has a winner: the attacker loses the
    // pairs the defender wins.
    let counts = (0..=pairs)
        .map(|lost| wins.count(pairs - lost, lost))
        .collect();
    Ok(RollLosses {
        attacker_dice: attacker,
        defender_dice: defender,
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every roll enumerated, sorted and compared by hand.
    fn brute(attacker: u32, defender: u32, faces: u64) -> Vec<u64> {
        let n = (attacker + defender) as usize;
        let pairs = attacker.min(defender) as usize;
        let mut counts = vec![0u64; pairs + 1];
        let mut dice = vec![1u64; n];
        loop {
            let mut a: Vec<u64> = dice[..attacker as usize].to_vec();
            let mut d: Vec<u64> = dice[attacker as usize..].to_vec();
            a.sort_unstable_by(|x, y| y.cmp(x));
            d.sort_unstable_by(|x, y| y.cmp(x));
            let lost = (0..pairs).filter(|&i| a[i] <= d[i]).count();
            counts[lost] += 1;
            let mut i = 0;
            loop {
                if i == n {
                    return counts;
                }
                dice[i] += 1;
                if dice[i] <= faces {
                    break;
                }
                dice[i] = 1;
                i += 1;
            }
        }
    }

    #[test]
    fn a_side_without_dice_is_an_error() {
        assert!(matches!(
            roll_losses(0, 2, 6, &Control::new()),
            Err(ContestError::NoDice(_))
        ));
        assert!(roll_losses(1, 1, 0, &Control::new()).is_err());
    }

    #[test]
    fn three_against_two_is_the_classic_table() {
        let roll = roll_losses(3, 2, 6, &Control::new()).unwrap();
        // Defender loses 2 in 2890, each loses 1 in 2611, attacker loses 2 in 2275.
        let expected: Vec<BigUint> = [2890u32, 2611, 2275].map(BigUint::from).to_vec();
        assert_eq!(roll.counts, expected);
        assert_eq!(roll.total(), BigUint::from(7776u32));
    }

    #[test]
    fn every_small_roll_matches_brute_force() {
        for faces in [2, 5, 6, 8] {
            for attacker in 1..=3 {
                for defender in 1..=3 {
                    let roll = roll_losses(attacker, defender, faces, &Control::new()).unwrap();
                    let expected: Vec<BigUint> = brute(attacker, defender, faces)
                        .into_iter()
                        .map(BigUint::from)
                        .collect();
                    assert_eq!(roll.counts, expected, "{attacker}v{defender} d{faces}");
                }
            }
        }
    }
}
