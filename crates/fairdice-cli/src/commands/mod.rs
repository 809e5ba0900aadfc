//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod analyze;
pub mod contest;
pub mod dist;
pub mod next;
pub mod prd;
pub mod risk;
pub mod roll;
pub mod sample;
pub mod seats;
pub mod serve;
pub mod state;
pub mod tune;

/// Every randomizer family with its usage and what it is, from the library's one
/// catalogue: the `--help` of the commands that take a spec.
pub fn spec_help() -> String {
    use fairdice::randomizer::family;
    let mut help = String::from("Randomizer specs:\n");
    for f in family::all() {
        help.push_str(&format!("  {}\n      {}\n", f.usage, f.summary));
    }
    help
}

/// A number of budget steps as written on the command line: `2000000000`,
/// `2_000_000_000`, `2,000,000,000` or `2e9` / `1.5e10` (a whole number).
pub fn parse_steps(text: &str) -> Result<u64, String> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '_' | ','))
        .collect();
    if let Ok(n) = cleaned.parse::<u64>() {
        return Ok(n);
    }
    let refuse =
        || format!("expected a whole number of steps such as 2000000000 or 2e9, not `{text}`");
    if !cleaned.contains(['e', 'E']) {
        return Err(refuse());
    }
    let x: f64 = cleaned.parse().map_err(|_| refuse())?;
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= u64::MAX as f64 {
        Ok(x as u64)
    } else {
        Err(refuse())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_steps;

    #[test]
    fn steps_read_with_separators_and_exponents() {
        assert_eq!(parse_steps("2000000000"), Ok(2_000_000_000));
        assert_eq!(parse_steps("2_000_000_000"), Ok(2_000_000_000));
        assert_eq!(parse_steps("2,000,000,000"), Ok(2_000_000_000));
        assert_eq!(parse_steps("2e9"), Ok(2_000_000_000));
        assert_eq!(parse_steps("1.5E10"), Ok(15_000_000_000));
        for bad in ["", "-5", "1.5", "2e-1", "1e40", "ten", "nan"] {
            let error = parse_steps(bad).expect_err(bad);
            assert!(error.contains("2e9"), "{error}");
        }
    }
}
