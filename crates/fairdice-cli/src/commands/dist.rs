//! `fairdice dist`: the exact distribution of a dice expression (or a Monte Carlo
//! estimate of one too big to compute exactly).

use std::io::Write;

use anyhow::Context;
use fairdice::Die;
use fairdice::dice::notation::{self, Options};
use serde_json::json;

use super::notation_failure;
use crate::output::{Table, bar, decimal, fraction, percent, progress};

/// Flags of `fairdice dist`.
#[derive(Debug, clap::Args)]
#[command(after_help = NOTATION_HELP)]
pub struct Args {
    /// The dice expression, e.g. `4d6kh3`, `d20+5 >= 15`, `10d10cs>=8`.
    pub expression: String,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the table as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Estimate by rolling this many times instead of computing exactly.
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
    /// Seed for --runs (same seed, same estimate).
    #[arg(long, default_value_t = 1, requires = "runs")]
    pub seed: u64,
    /// How many extra rolls an exploding die (`!`) may make.
    #[arg(long, default_value_t = fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH, value_name = "N")]
    pub explode_depth: u32,
    /// Refuse exact computations estimated above this many steps.
    #[arg(long, default_value_t = notation::options::DEFAULT_MAX_STEPS, value_name = "STEPS")]
    pub max_steps: u64,
}

/// The notation summary shown under `--help`.
pub const NOTATION_HELP: &str = "\
Dice notation:
  3d6, d20, d%, dF, d{1,1,2,3}, d{1..4,6}   dice; (d4)d6 rolls a random number of d6
  + - * /  (floor division), unary -, ( )    arithmetic between independent rolls
  < <= > >= == !=                            comparisons give 1 (true) or 0 (false)
  4d6kh3 4d6k3 2d20kl 4d6dl1 5d6dh2          keep/drop highest/lowest (N defaults to 1)
  d6!  d10!>=9                               explode on the top face (or a condition)
  2d6r1  d20r<3                              reroll until the die no longer matches
  2d6ro1                                     reroll once
  10d10cs>=8  10d10cs>=8df=1                 count successes (minus failures)";

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let options = Options {
        explode_depth: args.explode_depth,
        max_steps: args.max_steps,
        ..Options::default()
    };
    let text = args.expression.as_str();
    let expr = notation::parse(text).map_err(|e| notation_failure(e.into(), text))?;
    let (die, method) = match args.runs {
        None => (
            notation::evaluate_expr(&expr, &options).map_err(|e| notation_failure(e, text))?,
            Method::Exact,
        ),
        Some(runs) => {
            let bar = progress(runs, "rolling");
            let estimate = notation::monte_carlo(&expr, &options, runs, args.seed, &|n| bar.inc(n))
                .map_err(|e| notation_failure(e, text))?;
            bar.finish_and_clear();
            let (mean, error) = estimate.mean_and_error();
            (
                estimate.to_die(),
                Method::MonteCarlo {
                    runs,
                    seed: args.seed,
                    mean,
                    error,
                },
            )
        }
    };
    let mut out = std::io::stdout().lock();
    let printed = if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&to_json(text, &die, &method))?
        )
    } else if args.csv {
        write_csv(&mut out, &die)
    } else {
        write!(out, "{}", render_table(text, &die, &method))
    };
    printed.context("could not write the output")
}

/// How the distribution was obtained.
enum Method {
    Exact,
    MonteCarlo {
        runs: u64,
        seed: u64,
        mean: f64,
        error: f64,
    },
}

fn to_json(text: &str, die: &Die, method: &Method) -> serde_json::Value {
    let total = die.total();
    let probabilities = die.probabilities();
    let outcomes: Vec<serde_json::Value> = die
        .iter()
        .zip(&probabilities)
        .map(|((o, c), p)| json!({"outcome": o, "count": c.to_string(), "probability": p}))
        .collect();
    let mean = die.mean();
    let mut value = json!({
        "expression": text,
        "total": total.to_string(),
        "outcomes": outcomes,
        "mean": decimal(&mean),
        "mean_exact": fraction(&mean),
        "sd": die.standard_deviation(),
        "variance_exact": fraction(&die.variance()),
        "min": die.min_outcome(),
        "max": die.max_outcome(),
    });
    match method {
        Method::Exact => value["method"] = json!("exact"),
        Method::MonteCarlo {
            runs, seed, error, ..
        } => {
            value["method"] = json!("monte_carlo");
            value["runs"] = json!(runs);
            value["seed"] = json!(seed);
            value["mean_standard_error"] = json!(error);
        }
    }
    value
}

fn write_csv(out: &mut impl Write, die: &Die) -> std::io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(["outcome", "count", "probability", "at_most", "at_least"])?;
    let (probabilities, at_most, at_least) =
        (die.probabilities(), die.at_most_all(), die.at_least_all());
    for (i, (o, c)) in die.iter().enumerate() {
        writer.write_record([
            o.to_string(),
            c.to_string(),
            probabilities[i].to_string(),
            at_most[i].to_string(),
            at_least[i].to_string(),
        ])?;
    }
    writer.flush()
}

/// Counts longer than this many digits are abbreviated in the table (exact in JSON/CSV).
const MAX_TABLE_DIGITS: usize = 24;

fn render_table(text: &str, die: &Die, method: &Method) -> String {
    let probabilities = die.probabilities();
    let peak = probabilities.iter().copied().fold(0.0, f64::max);
    let (at_most, at_least) = (die.at_most_all(), die.at_least_all());
    let mut abbreviated = false;
    let mut table = Table::new(
        &["outcome", "count", "probability", "at most", "at least", ""],
        &[true, true, true, true, true, false],
    );
    for (i, (o, c)) in die.iter().enumerate() {
        let mut count = c.to_string();
        if count.len() > MAX_TABLE_DIGITS {
            abbreviated = true;
            count = format!("{}.{}e{}", &count[..1], &count[1..4], count.len() - 1);
        }
        table.row(vec![
            o.to_string(),
            count,
            percent(probabilities[i]),
            percent(at_most[i]),
            percent(at_least[i]),
            bar(probabilities[i] / peak, 30),
        ]);
    }
    let mean = die.mean();
    let mut out = format!("{text}\n\n{}\n", table.render());
    out.push_str(&format!(
        "mean {:.4} ({}), sd {:.4}, min {}, max {}, median {}\n",
        decimal(&mean),
        if mean.is_integer() {
            mean.numer().to_string()
        } else {
            fraction(&mean)
        },
        die.standard_deviation(),
        die.min_outcome(),
        die.max_outcome(),
        die.quantile(0.5).unwrap_or(die.min_outcome()),
    ));
    match method {
        Method::Exact => out.push_str(&format!("exact: {} equally likely rolls\n", die.total())),
        Method::MonteCarlo {
            runs,
            seed,
            mean,
            error,
        } => out.push_str(&format!(
            "Monte Carlo estimate: {runs} rolls, seed {seed}; mean {mean:.4} ± {:.4} (95%)\n",
            1.96 * error
        )),
    }
    if abbreviated {
        out.push_str("counts abbreviated; --json or --csv prints them exactly\n");
    }
    out
}
