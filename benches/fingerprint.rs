//! A distribution reduced to three exact integers, so that engines in different languages
//! can show they computed the same thing.
//!
//! The fingerprint of a distribution with counts `c(o)` is its total `Σ c`, its first moment
//! `Σ o·c` and its second moment `Σ o²·c`, all exact. Equal fingerprints mean equal totals,
//! means and variances; the Rust engines are also compared outcome by outcome in the tests.
//! Every engine prints it in the same `total=… sum=… sumsq=…` form (the Python peers too).

use std::fmt;

use num_bigint::{BigInt, BigUint};

/// Total, first and second moment of a distribution, as exact integers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fingerprint {
    /// `Σ count`.
    pub total: BigInt,
    /// `Σ outcome·count`.
    pub sum: BigInt,
    /// `Σ outcome²·count`.
    pub sum_squares: BigInt,
}

impl Fingerprint {
    /// The fingerprint of `(outcome, count)` pairs.
    pub fn of<I: IntoIterator<Item = (i64, BigUint)>>(pairs: I) -> Fingerprint {
        let mut fingerprint = Fingerprint::default();
        for (outcome, count) in pairs {
            let count = BigInt::from(count);
            let weighted = &count * outcome;
            fingerprint.sum_squares += &weighted * outcome;
            fingerprint.sum += weighted;
            fingerprint.total += count;
        }
        fingerprint
    }

    /// Reads the `total=`, `sum=` and `sumsq=` fields of a `key=value` line; other keys are
    /// ignored. `None` if one is missing or not an integer.
    pub fn parse(line: &str) -> Option<Fingerprint> {
        let field = |key: &str| -> Option<BigInt> {
            line.split_whitespace()
                .find_map(|token| token.strip_prefix(key)?.strip_prefix('='))?
                .parse()
                .ok()
        };
        Some(Fingerprint {
            total: field("total")?,
            sum: field("sum")?,
            sum_squares: field("sumsq")?,
        })
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "total={} sum={} sumsq={}",
            self.total, self.sum, self.sum_squares
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_d6_has_total_6_sum_21_and_sum_of_squares_91() {
        let d6 = (1..=6).map(|o| (o, BigUint::from(1u8)));
        let fingerprint = Fingerprint::of(d6);
        assert_eq!(fingerprint.to_string(), "total=6 sum=21 sumsq=91");
    }

    #[test]
    fn printing_then_parsing_gives_the_same_fingerprint() {
        let pairs = [(-3, BigUint::from(2u8)), (10, BigUint::from(7u8))];
        let fingerprint = Fingerprint::of(pairs);
        let line = format!("seconds=0.5 {fingerprint} extra=x");
        assert_eq!(Fingerprint::parse(&line), Some(fingerprint));
        assert_eq!(Fingerprint::parse("total=1 sum=2"), None);
        assert_eq!(Fingerprint::parse("total=1 sum=2 sumsq=x"), None);
    }
}
