//! The Shannon entropy of a distribution as a fraction of the uniform one's: the
//! measure of unpredictability every layer reports, from a randomizer's own next
//! draw ([`Randomizer::next_entropy_fraction`](crate::randomizer::Randomizer)) to
//! the analyses' curves ([`analysis::metrics`](crate::analysis::metrics)). It sits
//! below both, so neither imports the other for it.

/// The Shannon entropy of `distribution` as a fraction of the uniform
/// distribution's, `H(p) / ln n`: 1 for a fair die, 0 when one outcome is certain.
///
/// A single outcome (`n = 1`) is certain, so its fraction is defined as 1 (nothing
/// could be less predictable with one outcome) rather than 0/0.
pub fn entropy_fraction(distribution: &[f64]) -> f64 {
    let n = distribution.len();
    if n <= 1 {
        return 1.0;
    }
    let nats: f64 = distribution
        .iter()
        .filter(|&&p| p > 0.0)
        .map(|&p| -p * p.ln())
        .sum();
    nats / (n as f64).ln()
}

/// `ln k` for the small counts the closed-form entropies need (how many cards of
/// an outcome are left, how many outcomes there are): a table up to
/// [`LN_TABLE`], `ln` beyond. Each entry is `(k as f64).ln()`, so the result is
/// the same either way.
pub(crate) fn ln_count(k: u64) -> f64 {
    static TABLE: std::sync::LazyLock<Vec<f64>> =
        std::sync::LazyLock::new(|| (0..LN_TABLE).map(|k| (k as f64).ln()).collect());
    if k < LN_TABLE {
        TABLE[k as usize]
    } else {
        (k as f64).ln()
    }
}

/// Counts below this take `ln` from a table ([`ln_count`]).
const LN_TABLE: u64 = 4096;
