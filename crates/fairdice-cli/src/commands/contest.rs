//! `fairdice contest`: two pools rolled against each other, die paired with die —
//! who wins, how often it ties, how close it is, and the net score distribution.

use std::io::Write;

use anyhow::Context;
use fairdice::Control;
use fairdice::contest::report::{ContestMethod, ContestReport};
use fairdice::contest::{Pairing, TieRule};
use fairdice::dice::notation::options::DEFAULT_MAX_STEPS;
use fairdice::dice::report::{fraction, percent};
use fairdice_api::UseCase;
use fairdice_api::contest::ContestRequest;
use num_rational::BigRational;

use crate::csv_table::{self, CsvTable};
use crate::failure::UserError;

use crate::output::{Table, bar, progress, shown_on};

/// Flags of `fairdice contest`.
#[derive(Debug, clap::Args)]
#[command(after_help = CONTEST_HELP)]
pub struct Args {
    /// Pool A, e.g. `5d6` or `3d6+1d8+1d10`.
    pub a: String,
    /// Pool B, written the same way.
    pub b: String,
    /// How dice are paired: highest with highest, or in the order written.
    #[arg(long, value_enum, default_value_t = PairingArg::Sorted)]
    pub pairing: PairingArg,
    /// What a tied pair does.
    #[arg(long, value_enum, default_value_t = TiesArg::Stand)]
    pub ties: TiesArg,
    #[command(flatten)]
    pub format: super::Format,
    /// Refuse exact computations estimated above this many steps.
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS, value_name = "STEPS", value_parser = super::parse_steps)]
    pub max_steps: u64,
    /// Estimate by rolling the contest RUNS times (seeded, parallel) instead of
    /// computing it exactly: for contests too large to compute.
    #[arg(long, value_name = "RUNS")]
    pub runs: Option<u64>,
    /// Seed for --runs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Read both pools as this dice tool reads them: fairdice, roll20, foundry,
    /// rpg-dice-roller or anydice (docs/notation.md, "Dialects").
    #[arg(long, default_value = "fairdice", value_name = "NAME")]
    pub dialect: fairdice::dice::notation::Dialect,
}

/// `--pairing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PairingArg {
    /// Sort both rolls; highest meets highest, and so on down.
    Sorted,
    /// The i-th die of A meets the i-th die of B, as written.
    Unsorted,
}

/// `--ties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TiesArg {
    /// A tied pair scores nothing.
    Stand,
    /// A wins tied pairs.
    AWins,
    /// B wins tied pairs.
    BWins,
    /// Tied dice are rolled again until they differ.
    Reroll,
}

/// How contests are scored, shown under `--help`.
pub const CONTEST_HELP: &str = "\
Pools:
  5d6, 3d6+1d8+1d10, 2d6+d{1,1,2,3}, 4dF    in a contest `+` joins dice into one pool
                                           (it does not add them up); dice keep the
                                           order written. Only dice: no constants,
                                           keep/drop or success counting.
Scoring:
  Each die of A is paired with a die of B and the pair scores +1 for the higher die
  (0 for a tie); the net score is A's pairs won minus B's. Pools of different sizes
  pair min(a, b) dice: the highest ones when sorted, the first written when unsorted.
  --ties reroll: sorted, the tied dice of both sides are rolled again as a smaller
  contest until no pair ties; unsorted, each tied pair is rolled again until it
  differs.
Measures (Isaksen et al., 2016):
  win bias  = 100·(P(A wins) − P(B wins))     0 is fair, +100 means A always wins
  tie %     = 100·P(net score = 0)
  closeness = 1 / sqrt(E[net²])               higher means closer games";

/// The request the arguments ask for.
pub fn request(args: &Args) -> ContestRequest {
    ContestRequest {
        a: args.a.clone(),
        b: args.b.clone(),
        pairing: match args.pairing {
            PairingArg::Sorted => Pairing::Sorted,
            PairingArg::Unsorted => Pairing::Unsorted,
        },
        ties: match args.ties {
            TiesArg::Stand => TieRule::Stand,
            TiesArg::AWins => TieRule::AWins,
            TiesArg::BWins => TieRule::BWins,
            TiesArg::Reroll => TieRule::Reroll,
        },
        runs: args.runs,
        seed: args.seed,
        dialect: args.dialect,
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let request = request(&args);
    let control = Control::new().with_max_steps(args.max_steps);
    let report = match args.runs {
        None => request.run(&control),
        Some(runs) => {
            let bar = progress(runs, "rolling");
            let report = request.run(&shown_on(control, &bar));
            bar.finish_and_clear();
            report
        }
    }
    .map_err(UserError::from_api)?;
    let mut out = std::io::stdout().lock();
    let printed = if args.format.json {
        write!(out, "{}", crate::output::json(&report)?)
    } else if args.format.csv {
        let document = csv_table::document(&report)?;
        write!(out, "{}", CsvTable::of(&document["net"], &[]).to_csv()?)
    } else {
        write!(out, "{}", text(&report))
    };
    printed.context("could not write the output")
}

/// The report as text: the odds, the measures and the net score table.
fn text(report: &ContestReport) -> String {
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = format!(
        "A: {}  vs  B: {}\n{} pairing, {}; {} against {}, {} per roll\n\n",
        report.a,
        report.b,
        report.pairing,
        report.ties.words(),
        count(report.a_dice, "die", "dice"),
        count(report.b_dice, "die", "dice"),
        count(report.pairs, "pair", "pairs"),
    );
    let estimated = match report.method {
        ContestMethod::Exact => None,
        ContestMethod::MonteCarlo {
            runs,
            win_bias_standard_error,
            tie_percent_standard_error,
            closeness_standard_error,
            ..
        } => Some((
            runs,
            win_bias_standard_error,
            tie_percent_standard_error,
            closeness_standard_error,
        )),
    };
    let mut odds = match estimated {
        None => Table::new(&["", "probability", "exact"], &[false, true, true]),
        Some(_) => Table::new(
            &["", "probability", "± standard error"],
            &[false, true, true],
        ),
    };
    for (name, p, exact_p) in [
        ("A wins", report.p_a_wins, &report.p_a_wins_exact),
        ("tie", report.p_tie, &report.p_tie_exact),
        ("B wins", report.p_b_wins, &report.p_b_wins_exact),
    ] {
        let last = match estimated {
            None => exact(exact_p),
            Some((runs, ..)) => percent((p * (1.0 - p) / runs as f64).sqrt()),
        };
        odds.row(vec![name.to_string(), percent(p), last]);
    }
    out.push_str(&odds.render());
    out.push_str(&match estimated {
        None => format!(
            "\nwin bias {:.2}, tie % {:.2}, closeness {}\n\n",
            report.win_bias,
            report.tie_percent,
            closeness(report.closeness),
        ),
        Some((_, bias, tie, close)) => format!(
            "\nwin bias {:.2} ± {bias:.2}, tie % {:.2} ± {tie:.2}, closeness {} ± {}\n\n",
            report.win_bias,
            report.tie_percent,
            closeness(report.closeness),
            if close < 5e-4 {
                format!("{close:.1e}")
            } else {
                format!("{close:.3}")
            },
        ),
    });
    let peak = report
        .net
        .iter()
        .map(|row| row.probability)
        .fold(0.0, f64::max);
    let mut table = Table::new(
        &["net score", "count", "probability", ""],
        &[true, true, true, false],
    );
    for row in &report.net {
        table.row(vec![
            if row.score == 0 {
                "0".to_string()
            } else {
                format!("{:+}", row.score)
            },
            abbreviate(row.count.to_string()),
            percent(row.probability),
            bar(row.probability / peak, 30),
        ]);
    }
    out.push_str(&table.render());
    let total = abbreviate(report.total.to_string());
    out.push_str(&match (&report.method, report.ties) {
        (ContestMethod::MonteCarlo { runs, seed, .. }, _) => {
            format!("Monte Carlo estimate: {runs} seeded rolls (seed {seed}), not exact\n")
        }
        (ContestMethod::Exact, TieRule::Reroll) => {
            format!("exact: counts out of {total} (rerolls condition the rolls)\n")
        }
        (ContestMethod::Exact, _) => format!("exact: {total} equally likely rolls\n"),
    });
    if report.total.to_string().len() > MAX_TABLE_DIGITS {
        out.push_str("long counts are abbreviated; --json prints them exactly\n");
    }
    out
}

/// A fraction for the report: `p/q`, or `0` and `1` as they are; very long ones
/// abbreviated (JSON prints them in full).
fn exact(r: &BigRational) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else if r.numer().to_string().len() + r.denom().to_string().len() > 40 {
        "(see --json)".to_string()
    } else {
        fraction(r)
    }
}

/// Counts longer than this many digits are abbreviated in the table.
const MAX_TABLE_DIGITS: usize = 24;

fn abbreviate(count: String) -> String {
    if count.len() > MAX_TABLE_DIGITS {
        format!("{}.{}e{}", &count[..1], &count[1..4], count.len() - 1)
    } else {
        count
    }
}

fn closeness(c: Option<f64>) -> String {
    match c {
        Some(c) => format!("{c:.3}"),
        None => "infinite (the net score is always 0)".to_string(),
    }
}
