//! [`ContestResult`]: the net score distribution of a contest and the measures of
//! Isaksen et al. (2016) taken from it — win bias, tie percentage and closeness.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Zero;

use crate::dice::die::{Die, ratio, ratio_to_f64};

/// The exact outcome of a contest, from side A's point of view.
///
/// The net score is the pairs A wins minus the pairs B wins; A wins the contest when
/// it is positive, B when it is negative, and the contest ties at zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContestResult {
    net: Die,
    pairs: u32,
}

impl ContestResult {
    /// A result from its net score distribution and the number of pairs per roll.
    pub fn new(net: Die, pairs: u32) -> ContestResult {
        ContestResult { net, pairs }
    }

    /// The distribution of the net score.
    pub fn net(&self) -> &Die {
        &self.net
    }

    /// The number of pairs scored per roll.
    pub fn pairs(&self) -> u32 {
        self.pairs
    }

    /// Exact P(net > 0): A wins.
    pub fn p_a_wins(&self) -> BigRational {
        self.net.survival(0)
    }

    /// Exact P(net = 0): the contest ties.
    pub fn p_tie(&self) -> BigRational {
        self.net.probability(0)
    }

    /// Exact P(net < 0): B wins.
    pub fn p_b_wins(&self) -> BigRational {
        self.net.at_most(-1)
    }

    /// Exact `E[net²]`, the mean squared net score.
    pub fn mean_square(&self) -> BigRational {
        let sum: BigInt = self
            .net
            .iter()
            .map(|(o, c)| BigInt::from(o) * BigInt::from(o) * BigInt::from(c))
            .sum();
        BigRational::new(sum, BigInt::from(self.net.total()))
    }

    /// Exact `P(A wins) − P(B wins)`.
    pub fn win_margin(&self) -> BigRational {
        self.p_a_wins() - self.p_b_wins()
    }

    /// `100·(P(A wins) − P(B wins))`: 0 for a fair contest, +100 when A always wins.
    pub fn win_bias(&self) -> f64 {
        100.0 * ratio_to_f64(&self.win_margin())
    }

    /// `100·P(tie)`.
    pub fn tie_percent(&self) -> f64 {
        100.0 * ratio_to_f64(&self.p_tie())
    }

    /// `1 / sqrt(E[net²])`: high when typical scores are close, low in blowouts;
    /// infinite when the net score is always 0.
    pub fn closeness(&self) -> f64 {
        let mean_square = self.mean_square();
        if mean_square.is_zero() {
            return f64::INFINITY;
        }
        1.0 / ratio_to_f64(&mean_square).sqrt()
    }

    /// Exact `E[|net|]`, the mean margin of victory.
    pub fn mean_margin(&self) -> BigRational {
        let sum: BigUint = self
            .net
            .iter()
            .map(|(o, c)| BigUint::from(o.unsigned_abs()) * c)
            .sum();
        ratio(sum, self.net.total())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_of_a_single_fair_pair() {
        // One d2 against one d2, ties standing: net −1, 0, +1 with counts 1, 2, 1.
        let net = Die::new([(-1, 1u32), (0, 2), (1, 1)]).unwrap();
        let result = ContestResult::new(net, 1);
        assert_eq!(result.p_a_wins().to_string(), "1/4");
        assert_eq!(result.p_tie().to_string(), "1/2");
        assert_eq!(result.p_b_wins().to_string(), "1/4");
        assert_eq!(result.win_bias(), 0.0);
        assert_eq!(result.tie_percent(), 50.0);
        assert_eq!(result.mean_square().to_string(), "1/2");
        assert!((result.closeness() - 2f64.sqrt()).abs() < 1e-15);
        assert_eq!(result.mean_margin().to_string(), "1/2");
    }

    #[test]
    fn a_certain_tie_is_infinitely_close() {
        let result = ContestResult::new(Die::constant(0), 1);
        assert_eq!(result.closeness(), f64::INFINITY);
        assert_eq!(result.tie_percent(), 100.0);
    }
}
