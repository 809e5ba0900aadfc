//! One module per subcommand: its flags (`Args`) and its `run` function.

pub mod analyze;
pub mod audit;
pub mod contest;
pub mod dist;
pub mod goal;
pub mod next;
pub mod prd;
pub mod risk;
pub mod roll;
pub mod sample;
pub mod seats;
#[cfg(feature = "serve")]
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
    help.push_str(
        "  @FILE.json, or the document itself starting with {\n      \
         a machine: the game's own system as layers of states with exact chances (docs/machines.md)\n",
    );
    help
}

/// A randomizer spec as written on the command line: `@FILE` reads a machine
/// document from FILE (at most [`MAX_MACHINE_BYTES`] bytes); anything else is
/// the spec itself.
///
/// [`MAX_MACHINE_BYTES`]: fairdice::randomizer::MAX_MACHINE_BYTES
pub fn randomizer_spec(text: &str) -> Result<String, String> {
    use std::io::Read;
    let Some(path) = text.strip_prefix('@') else {
        return Ok(text.to_string());
    };
    let limit = fairdice::randomizer::MAX_MACHINE_BYTES;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!(
            "{path} is longer than {limit} bytes, the longest machine document accepted"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))?;
    if !text.trim_start().starts_with('{') {
        return Err(format!(
            "{path} is not a machine document: a JSON object starting with `{{` (docs/machines.md)"
        ));
    }
    Ok(text)
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
