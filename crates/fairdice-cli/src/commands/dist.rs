//! `fairdice dist`: the exact distribution of a dice expression (or a Monte Carlo
//! estimate of one too big to compute exactly).
//!
//! The numbers come from [`DistributionReport`], the chart from
//! [`fairdice_charts::distribution_chart`]: the web app uses both too, so the table,
//! `--json`, `--chart` and the browser always agree.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use fairdice::Control;
use fairdice::dice::report::{DistributionReport, Measure, Method, percent, short_count};
use fairdice_api::UseCase;
use fairdice_api::dist::{DistRequest, MAX_DOCUMENT_BYTES, check_document};
use fairdice_api::explain::{self, Explanation};
use fairdice_charts::distribution_chart;

use crate::failure::UserError;
use crate::output::{Table, bar, progress, shown_on, write_plot};

/// Flags of `fairdice dist`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dice expression, e.g. `4d6kh3`, `d20+5 >= 15`, `10d10cs>=8`; several
    /// are shown side by side (`fairdice dist 3d6 4d6kh3`).
    #[arg(required = true, value_name = "EXPRESSION")]
    pub expressions: Vec<String>,
    #[command(flatten)]
    pub format: super::Format,
    /// Say what the distribution means in words: the average, the middle of the
    /// range, the chance of reaching a few values.
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub explain: bool,
    /// Estimate by rolling this many times instead of computing exactly.
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
    /// Seed for --runs (same seed, same estimate).
    #[arg(long, default_value_t = fairdice_api::DEFAULT_SEED, requires = "runs")]
    pub seed: u64,
    /// How many extra rolls an exploding die (`!`) may make.
    #[arg(long, default_value_t = fairdice::dice::transform::DEFAULT_EXPLODE_DEPTH, value_name = "N")]
    pub explode_depth: u32,
    /// Read the expression as this dice tool reads it: fairdice, roll20,
    /// foundry, rpg-dice-roller or anydice (docs/notation.md, "Dialects").
    #[arg(long, default_value = "fairdice", value_name = "NAME")]
    pub dialect: fairdice::dice::notation::Dialect,
    /// Refuse exact computations estimated above this many steps.
    #[arg(long, default_value_t = fairdice::control::DEFAULT_MAX_STEPS, value_name = "STEPS", value_parser = super::parse_steps)]
    pub max_steps: u64,
    /// Also draw the distribution as a chart: FILE.svg or FILE.png.
    #[arg(long, visible_alias = "chart", value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// What the chart shows: probability, at_least or at_most.
    #[arg(
        long,
        visible_alias = "chart-measure",
        default_value = "probability",
        value_name = "MEASURE",
        requires = "plot"
    )]
    pub plot_measure: Measure,
}

/// The request of each expression.
pub fn requests(args: &Args) -> Vec<DistRequest> {
    args.expressions
        .iter()
        .map(|expression| DistRequest {
            expression: expression.clone(),
            runs: args.runs,
            seed: args.seed,
            explode_depth: args.explode_depth,
            dialect: args.dialect,
        })
        .collect()
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let control = Control::new().with_max_steps(args.max_steps);
    let mut reports = Vec::with_capacity(args.expressions.len());
    for request in requests(&args) {
        let report = match args.runs {
            None => request.run(&control),
            Some(runs) => {
                let bar = progress(runs, "rolling");
                let report = request.run(&shown_on(control.clone(), &bar));
                bar.finish_and_clear();
                report
            }
        }
        .map_err(UserError::from_api)?;
        crate::output::note_other_readings(&report.other_readings);
        crate::output::note_dialect(report.dialect.as_ref());
        reports.push(report);
    }
    if let Some(path) = &args.plot {
        let chart = distribution_chart(&reports, args.plot_measure);
        write_plot(path, &chart)?;
    }
    if args.format.json || args.format.csv {
        for report in &reports {
            check_document(report, MAX_DOCUMENT_BYTES).map_err(UserError::from_api)?;
        }
    }
    let mut out = std::io::stdout().lock();
    let printed = match reports.as_slice() {
        [report] if args.format.json => write!(out, "{}", crate::output::json(report)?),
        reports if args.format.json => write!(out, "{}", crate::output::json(&reports)?),
        reports if args.format.csv => write_csv(&mut out, reports),
        reports if args.explain => reports.iter().try_for_each(|report| {
            writeln!(out, "{}", report.expression)
                .and_then(|()| writeln!(out, "  {}", Explanation::of(report).lines().join("\n  ")))
        }),
        [report] => write!(out, "{}", render_table(report)),
        reports => write!(out, "{}", render_comparison(reports)),
    };
    printed.context("could not write the output")
}

/// The rows as CSV; with several expressions, each row led by its expression.
fn write_csv(out: &mut impl Write, reports: &[DistributionReport]) -> std::io::Result<()> {
    let several = reports.len() > 1;
    let mut writer = csv::Writer::from_writer(out);
    // Labelled outcomes (`as {…}`) add a column of their labels; a tuple's
    // values take a column each, named by their expressions.
    let labelled = reports
        .iter()
        .any(|r| r.outcomes.iter().any(|row| row.label.is_some()));
    let tuple: Option<Vec<String>> = match reports {
        [report] => report
            .values
            .as_ref()
            .map(|values| values.iter().map(|v| v.expression.clone()).collect()),
        _ => None,
    };
    let mut header: Vec<&str> = match &tuple {
        Some(texts) => texts.iter().map(String::as_str).collect(),
        None => vec!["outcome"],
    };
    if labelled {
        header.push("label");
    }
    header.extend(["count", "probability", "at_most", "at_least"]);
    if several {
        writer.write_record(std::iter::once("expression").chain(header))?;
    } else {
        writer.write_record(header)?;
    }
    for report in reports {
        for row in &report.outcomes {
            let mut fields = match (&tuple, row.tuple()) {
                (Some(_), Some(values)) => values.iter().map(i64::to_string).collect(),
                (_, Some(_)) => vec![row.shown()],
                (_, None) => vec![row.outcome.to_string()],
            };
            if labelled {
                fields.push(row.label.clone().unwrap_or_default());
            }
            fields.extend([
                row.count.to_string(),
                row.probability.to_string(),
                row.at_most.to_string(),
                row.at_least.to_string(),
            ]);
            if several {
                writer.write_record(std::iter::once(report.expression.clone()).chain(fields))?;
            } else {
                writer.write_record(fields)?;
            }
        }
    }
    writer.flush()
}

/// Several distributions side by side: each expression's summary, numbered, then
/// one row an outcome (of any of them) with each one's probability and chance
/// of at least that outcome.
fn render_comparison(reports: &[DistributionReport]) -> String {
    let mut out = String::new();
    for (i, report) in reports.iter().enumerate() {
        out.push_str(&format!(
            "#{} {}\n   {}",
            i + 1,
            report.expression,
            summary_line(report)
        ));
    }
    let mut headers = vec!["outcome".to_string()];
    for i in 1..=reports.len() {
        headers.push(format!("#{i} P(X = x)"));
        headers.push(format!("#{i} P(X ≥ x)"));
    }
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut right = vec![true; headers.len()];
    right[0] = !reports.iter().any(DistributionReport::is_labelled);
    let mut table = Table::new(&headers, &right);
    let outcomes: std::collections::BTreeSet<i64> = reports
        .iter()
        .flat_map(|r| r.outcomes.iter().map(|row| row.outcome))
        .collect();
    for x in outcomes {
        let mut cells = vec![shown_in_any(reports, x)];
        for report in reports {
            cells.push(percent(report.value_at(Measure::Probability, x)));
            cells.push(percent(report.value_at(Measure::AtLeast, x)));
        }
        table.row(cells);
    }
    out.push_str(&format!("\n{}\n", table.render()));
    for (i, report) in reports.iter().enumerate() {
        let method = match &report.method {
            Method::Exact => format!(
                "exact, {} equally likely {}",
                short_count(&report.total, MAX_TABLE_DIGITS),
                report.counted.noun()
            ),
            Method::MonteCarlo { runs, seed, .. } => {
                format!("Monte Carlo estimate, {runs} rolls, seed {seed}")
            }
        };
        out.push_str(&format!("#{}: {method}\n", i + 1));
    }
    out
}

/// Outcome `x` as the reports label it (their labels joined where they
/// differ), or its number.
fn shown_in_any(reports: &[DistributionReport], x: i64) -> String {
    let mut labels: Vec<String> = Vec::new();
    for report in reports {
        let shown = report.shown(x);
        if shown != x.to_string() && !labels.contains(&shown) {
            labels.push(shown);
        }
    }
    if labels.is_empty() {
        x.to_string()
    } else {
        labels.join(" / ")
    }
}

/// Counts longer than this many digits are abbreviated in the table (exact in JSON/CSV).
const MAX_TABLE_DIGITS: usize = 24;

/// An estimate with more distinct outcomes than this is shown in bins.
const MAX_ESTIMATE_ROWS: usize = 40;

fn render_table(report: &DistributionReport) -> String {
    if let Some(bins) = explain::bins(report, MAX_ESTIMATE_ROWS) {
        return render_bins(report, &bins);
    }
    let peak = report
        .outcomes
        .iter()
        .map(|r| r.probability)
        .fold(0.0, f64::max);
    let mut abbreviated = false;
    // Labels read from the left; numbers line up on the right. A tuple's rows
    // have no order to accumulate along: a pair is shown as a grid instead.
    let tuple = report.values.is_some();
    let mut out = format!("{}\n\n", report.expression);
    if let Some(grid) = pair_grid(report) {
        out.push_str(&grid);
    } else {
        let mut headers = vec!["outcome", "count", "probability"];
        if !tuple {
            headers.extend(["at most", "at least"]);
        }
        headers.push("");
        let mut right = vec![!report.is_labelled()];
        right.extend(std::iter::repeat_n(true, headers.len() - 2));
        right.push(false);
        let mut table = Table::new(&headers, &right);
        for row in &report.outcomes {
            let count = short_count(&row.count, MAX_TABLE_DIGITS);
            abbreviated |= count.contains('e');
            let mut cells = vec![row.shown(), count, percent(row.probability)];
            if !tuple {
                cells.extend([percent(row.at_most), percent(row.at_least)]);
            }
            cells.push(bar(row.probability / peak, 30));
            table.row(cells);
        }
        out.push_str(&format!("{}\n", table.render()));
    }
    out.push_str(&summary_line(report));
    match &report.method {
        Method::Exact => {
            let total = short_count(&report.total, MAX_TABLE_DIGITS);
            abbreviated |= total.contains('e');
            match report.explode_depth {
                Some(depth) => out.push_str(&format!(
                    "exact up to {depth} extra rolls per exploding die: {total} equally likely {} \
                     (a die that would roll more stands at its last roll; --explode-depth N goes further)\n",
                    report.counted.noun()
                )),
                None => out.push_str(&format!(
                    "exact: {total} equally likely {}\n",
                    report.counted.noun()
                )),
            }
        }
        Method::MonteCarlo {
            runs,
            seed,
            mean_standard_error,
        } => out.push_str(&format!(
            "Monte Carlo estimate: {runs} rolls, seed {seed}; mean {:.4} ± {:.4} (95%)\n",
            report.mean,
            1.96 * mean_standard_error
        )),
    }
    if abbreviated {
        out.push_str("counts abbreviated; --json or --csv prints them exactly\n");
    }
    out
}

/// Values of a pair's second member side by side, at most this many.
const MAX_GRID_COLUMNS: usize = 16;

/// A pair's probabilities as a grid, its first value down and its second
/// across (`--csv` lists every pair with its exact count); `None` for anything
/// else, or a pair whose second value takes too many values to fit across.
fn pair_grid(report: &DistributionReport) -> Option<String> {
    let grid = report.pair_grid()?;
    if grid.columns.len() > MAX_GRID_COLUMNS {
        return None;
    }
    let corner = format!("{} ↓  {} →", grid.first, grid.second);
    let mut headers = vec![corner];
    headers.extend(grid.columns.iter().map(i64::to_string));
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut table = Table::new(&headers, &vec![true; headers.len()]);
    for (a, cells) in grid.rows.iter().zip(grid.cells) {
        let mut row = vec![a.to_string()];
        row.extend(cells.into_iter().map(|p| p.map_or("·".into(), percent)));
        table.row(row);
    }
    Some(format!("{}\n", table.render()))
}

/// Mean (exact fraction when exact, its size when long), sd, min, max, median;
/// for labelled outcomes, the labels in order and the most likely.
fn summary_line(report: &DistributionReport) -> String {
    if let Some(values) = &report.values {
        let each: Vec<String> = values
            .iter()
            .map(|v| {
                let mean = match &v.mean_exact {
                    Some(exact) if exact.is_integer() => {
                        format!("{:.4} ({})", v.mean, exact.numer())
                    }
                    Some(exact) => format!("{:.4} ({}/{})", v.mean, exact.numer(), exact.denom()),
                    None => format!("{:.4} (estimated)", v.mean),
                };
                format!(
                    "{}: mean {mean}, sd {:.4}, min {}, max {}",
                    v.expression, v.sd, v.min, v.max
                )
            })
            .collect();
        return format!("{}\n", each.join("\n"));
    }
    if report.is_labelled() {
        let labels: Vec<String> = report.outcomes.iter().map(|row| row.shown()).collect();
        let likeliest = report
            .likeliest()
            .map(|row| format!("{} ({})", row.shown(), percent(row.probability)))
            .unwrap_or_default();
        return format!(
            "labels {} (numbered from 0 in --json), most likely {likeliest}\n",
            labels.join(", ")
        );
    }
    let mean = match report.mean_fraction_words() {
        Some(exact) if exact.contains(' ') => {
            format!(
                "{:.4} (exactly {exact}; --json prints it as mean_exact)",
                report.mean
            )
        }
        Some(exact) => format!("{:.4} ({exact})", report.mean),
        None => format!("{:.4} (estimated)", report.mean),
    };
    format!(
        "mean {mean}, sd {:.4}, min {}, max {}, median {}\n",
        report.sd, report.min, report.max, report.median,
    )
}

/// An estimate too wide to list outcome by outcome: equal-width bins with their
/// estimated probabilities and standard errors.
fn render_bins(report: &DistributionReport, bins: &[explain::Bin]) -> String {
    let peak = bins.iter().map(|b| b.probability).fold(0.0, f64::max);
    let mut table = Table::new(
        &["outcomes", "rolls", "probability", "± 95%", ""],
        &[true, true, true, true, false],
    );
    for b in bins {
        table.row(vec![
            format!("{}..{}", b.from, b.to),
            b.rolls.to_string(),
            percent(b.probability),
            percent(1.96 * b.standard_error),
            bar(b.probability / peak, 30),
        ]);
    }
    let mut out = format!(
        "{} ({} distinct outcomes in {} bins; --csv lists every outcome)\n\n{}\n",
        report.expression,
        report.outcomes.len(),
        bins.len(),
        table.render()
    );
    out.push_str(&summary_line(report));
    if let Method::MonteCarlo {
        runs,
        seed,
        mean_standard_error,
    } = &report.method
    {
        out.push_str(&format!(
            "Monte Carlo estimate: {runs} rolls, seed {seed}; mean {:.4} ± {:.4} (95%)\n",
            report.mean,
            1.96 * mean_standard_error
        ));
    }
    out
}
