//! One module per subcommand: its flags (`Args`) and its `run` function, listed
//! once in [`commands!`](commands), which declares the modules, the [`Command`]
//! enum clap parses and [`run`], the dispatch: a new command is its file and one
//! line here.

/// Declares each subcommand once: its `--help` summary, its variant of
/// [`Command`] and its module (with the feature it needs, if any).
macro_rules! commands {
    ($( $(#[cfg($cfg:meta)])? $doc:literal $variant:ident => $module:ident, )+) => {
        $( $(#[cfg($cfg)])? pub mod $module; )+

        /// The subcommands, as clap parses them.
        #[derive(Debug, clap::Subcommand)]
        pub enum Command {
            $( #[doc = $doc] $(#[cfg($cfg)])? $variant($module::Args), )+
        }

        /// Runs the subcommand.
        ///
        /// # Errors
        /// The subcommand's own.
        pub fn run(command: Command) -> anyhow::Result<()> {
            match command {
                $( $(#[cfg($cfg)])? Command::$variant(args) => $module::run(args), )+
            }
        }
    };
}

commands! {
    "Exact distribution of a dice expression (e.g. `4d6kh3`, `d20+5 >= 15`)."
    Dist => dist,
    "Roll a dice expression, showing each die."
    Roll => roll,
    "Exact odds of a Risk battle for any armies, rules and die size."
    Risk => risk,
    "Draw a sequence from a randomizer spec (e.g. `deck(values=6)`); save and resume it."
    Sample => sample,
    "The next-sample distribution of a randomizer after a history of outcomes."
    Next => next,
    "The PRD constant C for a nominal chance p, with per-attempt chances."
    Prd => prd,
    "Attempts until a randomizer gives what the player waits for (k hits, every outcome), exact."
    Goal => goal,
    "A recorded log against a randomizer: its likelihood, tests, and the likeliest randomizers."
    Audit => audit,
    "Inspect a saved randomizer session (written by `sample --save`)."
    State => state,
    #[cfg(feature = "serve")]
    "Serve the web app on this machine (http://127.0.0.1:8077/ by default)."
    Serve => serve,
    "Expected entropy, outcome variance, repeats and droughts of a randomizer over a match."
    Analyze => analyze,
    "The fairest parameters of each randomizer system above an entropy threshold."
    Tune => tune,
    "How a randomizer splits a match between the players of a game (a JSON game file)."
    Seats => seats,
    "Two pools rolled against each other, die paired with die (e.g. `5d6 3d6+2d8`)."
    Contest => contest,
}

/// How a command prints its report: a table for people (the default), or the
/// document every front-end shares.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Format {
    /// Print the report as JSON: the document the web app, npm and Python give too.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the report's table as CSV, its columns named as in the JSON document.
    #[arg(long)]
    pub csv: bool,
}

impl Format {
    /// The report as the flags ask: its JSON document, or the CSV of the
    /// document's array `rows`; `None` for the command's own table.
    ///
    /// # Errors
    /// A document past the size limit, or one that cannot be written.
    pub fn document(
        self,
        report: &impl serde::Serialize,
        rows: &str,
    ) -> anyhow::Result<Option<String>> {
        if self.json {
            return crate::output::json(report).map(Some);
        }
        if self.csv {
            let document = crate::csv_table::document(report)?;
            return crate::csv_table::CsvTable::of(&document[rows], &[])
                .to_csv()
                .map(Some);
        }
        Ok(None)
    }
}

/// How a randomizer's measures are computed: an exact sweep over its states, or
/// seeded Monte Carlo (`analyze`, `seats`, `tune`).
#[derive(Debug, Clone, clap::Args)]
pub struct Method {
    /// Compute exactly, or fail (exit 3) if a step needs more than --max-states.
    #[arg(long, conflicts_with = "runs")]
    pub exact: bool,
    /// Estimate by Monte Carlo with this many runs instead.
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
    /// Seed for Monte Carlo (same seed and runs, same estimate on any machine).
    #[arg(long, default_value_t = fairdice::analysis::DEFAULT_SEED)]
    pub seed: u64,
    /// Merged states one step of the exact sweep may hold (`seats`: state and
    /// totals pairs); past it, Monte Carlo, or with --exact an error (default
    /// 2,000,000; in `tune`, 250,000 a candidate).
    #[arg(long, alias = "budget", value_name = "STATES")]
    pub max_states: Option<usize>,
    /// Refuse or stop work past this many steps (Monte Carlo runs and exact sweeps
    /// are priced in steps).
    #[arg(long, default_value_t = fairdice::control::DEFAULT_MAX_STEPS, value_name = "STEPS", value_parser = parse_steps)]
    pub max_steps: u64,
}

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
