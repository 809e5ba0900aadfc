//! `audit`: a recorded log against a randomizer — its exact log-likelihood
//! (each entry given the ones before it), its counts, longest drought and
//! repeats tested against logs simulated from the randomizer, and candidate
//! randomizers ranked by how likely they make the log.

use fairdice::Control;
use fairdice::analysis::audit::{self, AuditOptions, MAX_LOG_ENTRIES};
use fairdice::randomizer::{AnyRandomizer, Randomizer, Spec, outcome_index};
use serde::{Deserialize, Serialize};

use crate::randomizer::spec_title;
use crate::{Error, UseCase};

/// The most candidates one audit ranks.
pub const MAX_CANDIDATES: usize = 16;

/// The most simulated logs one audit asks for.
pub const MAX_SIMULATIONS: u64 = 1_000_000;

/// A log, as a list of entries or as the text of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Log {
    /// One outcome (a value or a label) per entry.
    Entries(Vec<Entry>),
    /// A file's text: one outcome a line (blank lines and `#` comments
    /// skipped), CSV (the `outcome` column, else the first), or JSON (a list,
    /// or `fairdice sample --json`'s document).
    Text(String),
}

/// One entry of a log given as a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Entry {
    /// A value.
    Value(i64),
    /// A value or label as text.
    Name(String),
}

impl Entry {
    fn text(&self) -> String {
        match self {
            Entry::Value(v) => v.to_string(),
            Entry::Name(n) => n.clone(),
        }
    }
}

/// An audit of a log.
///
/// As JSON: `{"spec": "dice(base=2d6)", "log": [7, 5, 9, …]}` or
/// `{"spec": …, "log": "7\n5\n9\n"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditRequest {
    /// The randomizer the log is checked against (a spec or a machine document).
    pub spec: String,
    /// The log.
    pub log: Log,
    /// Randomizers to rank by likelihood; empty: the spec and its family's
    /// usual alternatives over the same outcomes.
    #[serde(default)]
    pub candidates: Vec<String>,
    /// Logs simulated from the randomizer for the tests (0: no tests).
    #[serde(default = "default_simulations")]
    pub simulations: u64,
    /// Their seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_simulations() -> u64 {
    audit::DEFAULT_SIMULATIONS
}

fn default_seed() -> u64 {
    audit::DEFAULT_SEED
}

/// The `fairdice audit --json` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditReport {
    /// The randomizer's spec.
    pub spec: String,
    /// Entries in the log.
    pub entries: usize,
    /// `Σ ln P(entry | the entries before it)`; `null` when an entry is
    /// impossible (minus infinity).
    pub log_likelihood: Option<f64>,
    /// The log-likelihood an entry.
    pub per_entry: Option<f64>,
    /// The first entry the randomizer could not have drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impossible: Option<Impossible>,
    /// Each outcome's count in the log, and what the base expects.
    pub counts: Vec<CountRow>,
    /// How the tests' p-values were found.
    pub method: String,
    /// The fit of the counts, the longest drought and the repeats.
    pub tests: Vec<TestRow>,
    /// The candidates, most likely first.
    pub candidates: Vec<Candidate>,
}

/// An entry the randomizer cannot have drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Impossible {
    /// Its place in the log, from 1.
    pub entry: usize,
    /// What it says.
    pub outcome: String,
    /// Why it is impossible there.
    pub reason: String,
}

/// One outcome's count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountRow {
    /// The outcome's label.
    pub outcome: String,
    /// Its entries in the log.
    pub count: u64,
    /// The base's chance of it times the entries.
    pub expected: f64,
}

/// One test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestRow {
    /// `fit`, `drought` or `repeats`.
    pub test: &'static str,
    /// What it measures, in words.
    pub measures: &'static str,
    /// The log's value.
    pub statistic: f64,
    /// Two-sided: twice the smaller chance of a log at least or at most as
    /// large, at most 1; small when the log strays too far or keeps too close.
    pub p_value: f64,
    /// `exact` (from the statistic's exact distribution over every log of
    /// this length) or `simulated (N logs, seed S)` (shares of simulated logs,
    /// the log counted among them).
    pub method: String,
}

/// One candidate randomizer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// Its spec.
    pub spec: String,
    /// The log's log-likelihood under it; `null` when an entry is impossible.
    pub log_likelihood: Option<f64>,
    /// How far below the best candidate's (0 for the best).
    pub behind: Option<f64>,
    /// The first entry (from 1) it cannot have drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impossible_entry: Option<usize>,
}

/// The entries of `log` as text.
///
/// # Errors
/// An empty log, one over [`MAX_LOG_ENTRIES`], or JSON that is not a list or a
/// sample document.
pub fn read_log(log: &Log) -> Result<Vec<String>, Error> {
    let entries: Vec<String> = match log {
        Log::Entries(entries) => entries.iter().map(Entry::text).collect(),
        Log::Text(text) => read_text(text)?,
    };
    if entries.is_empty() {
        return Err(Error::invalid_input("the log has no entries"));
    }
    if entries.len() > MAX_LOG_ENTRIES {
        return Err(Error::invalid_input(format!(
            "the log has {} entries; accepted: at most {MAX_LOG_ENTRIES}",
            entries.len()
        )));
    }
    Ok(entries)
}

fn read_text(text: &str) -> Result<Vec<String>, Error> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        let document: serde_json::Value = serde_json::from_str(trimmed)
            .map_err(|e| Error::invalid_input(format!("the log is not valid JSON: {e}")))?;
        let list = match &document {
            serde_json::Value::Array(list) => list,
            serde_json::Value::Object(fields) => {
                match fields.get("samples").or(fields.get("log")) {
                    Some(serde_json::Value::Array(list)) => list,
                    _ => {
                        return Err(Error::invalid_input(
                            "a JSON log is a list of outcomes, or a document with \"samples\" (fairdice sample --json)",
                        ));
                    }
                }
            }
            _ => unreachable!("the text starts with a bracket"),
        };
        return list
            .iter()
            .map(|v| match v {
                serde_json::Value::Number(n) => Ok(n.to_string()),
                serde_json::Value::String(s) => Ok(s.clone()),
                other => Err(Error::invalid_input(format!(
                    "a log entry is a number or a text, not {other}"
                ))),
            })
            .collect();
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let Some(first) = lines.first() else {
        return Ok(Vec::new());
    };
    if !first.contains(',') {
        return Ok(lines.iter().map(|l| (*l).to_string()).collect());
    }
    // CSV: the `outcome` column when a header names it, else the first.
    let header: Vec<&str> = first.split(',').map(str::trim).collect();
    let (column, skip) = match header
        .iter()
        .position(|h| h.eq_ignore_ascii_case("outcome"))
    {
        Some(column) => (column, 1),
        None => (0, usize::from(header[0].parse::<f64>().is_err())),
    };
    Ok(lines
        .iter()
        .skip(skip)
        .filter_map(|l| {
            l.split(',')
                .nth(column)
                .map(|c| c.trim().trim_matches('"').to_string())
        })
        .collect())
}

/// The usual alternatives to `randomizer`: plain dice, a deck of one and of
/// two copies, and the fair roller at three tightnesses, over the same base.
fn default_candidates(spec: &str, randomizer: &AnyRandomizer) -> Vec<String> {
    let mut candidates = vec![randomizer.spec()];
    if let Ok(parsed) = Spec::parse(spec)
        && let Some((key, value)) = parsed
            .args()
            .iter()
            .find(|(k, _)| k == "base" || k == "values")
    {
        let base = format!("{key}={value}");
        for alternative in [
            format!("dice({base})"),
            format!("deck({base})"),
            format!("deck({base}, copies=2)"),
            format!("fair({base}, tightness=0.5)"),
            format!("fair({base}, tightness=1)"),
            format!("fair({base}, tightness=2)"),
        ] {
            if let Ok(built) = Spec::build(&alternative)
                && !candidates.contains(&built.spec())
            {
                candidates.push(built.spec());
            }
        }
    }
    candidates
}

/// The indices of `entries` among `randomizer`'s outcomes; the first entry
/// that is none of them, with its error.
fn indices(randomizer: &AnyRandomizer, entries: &[String]) -> Result<Vec<usize>, (usize, String)> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| outcome_index(randomizer, e).map_err(|error| (i, error.to_string())))
        .collect()
}

impl UseCase for AuditRequest {
    const NAME: &'static str = "audit";
    type Report = AuditReport;

    fn run(&self, control: &Control) -> Result<AuditReport, Error> {
        if self.simulations > MAX_SIMULATIONS {
            return Err(Error::invalid_input(format!(
                "{} simulated logs; accepted: at most {MAX_SIMULATIONS}",
                self.simulations
            )));
        }
        if self.candidates.len() > MAX_CANDIDATES {
            return Err(Error::invalid_input(format!(
                "{} candidates; accepted: at most {MAX_CANDIDATES}",
                self.candidates.len()
            )));
        }
        let failed = |e: &dyn fairdice::Failure| Error::from_failure(e);
        let randomizer = Spec::build_with(&self.spec, control).map_err(|e| failed(&e))?;
        let entries = read_log(&self.log)?;
        let log = indices(&randomizer, &entries).map_err(|(entry, error)| {
            Error::invalid_input(format!("log entry {}: {error}", entry + 1))
        })?;
        // Each entry is weighed once under the randomizer and once under each
        // candidate: priced before any is.
        let weighing = entries.len() as f64
            * (randomizer.sample_steps().max(1) as f64)
            * (1 + self.candidates.len().max(6)) as f64;
        control
            .afford(weighing)
            .map_err(|stop| failed(&stop).in_context("weighing the log's entries:"))?;
        let options = AuditOptions {
            simulations: self.simulations,
            seed: self.seed,
        };
        let result = audit::audit(&randomizer, &log, &options, control).map_err(|e| failed(&e))?;
        let likelihood = &result.likelihood;
        let finite = likelihood
            .impossible
            .is_none()
            .then_some(likelihood.log_likelihood);
        let mut candidates = Vec::new();
        let specs = if self.candidates.is_empty() {
            default_candidates(&self.spec, &randomizer)
        } else {
            self.candidates.clone()
        };
        for spec in &specs {
            let candidate = Spec::build_with(spec, control)
                .map_err(|e| failed(&e).in_context(&format!("candidate {}:", spec_title(spec))))?;
            let (log_likelihood, impossible_entry) = match indices(&candidate, &entries) {
                Err((entry, _)) => (None, Some(entry + 1)),
                Ok(log) => {
                    let l = audit::log_likelihood(&candidate, &log);
                    match l.impossible {
                        Some(entry) => (None, Some(entry + 1)),
                        None => (Some(l.log_likelihood), None),
                    }
                }
            };
            candidates.push(Candidate {
                spec: candidate.spec(),
                log_likelihood,
                behind: None,
                impossible_entry,
            });
        }
        candidates.sort_by(|a, b| {
            let key = |c: &Candidate| c.log_likelihood.unwrap_or(f64::NEG_INFINITY);
            key(b).total_cmp(&key(a))
        });
        let best = candidates.first().and_then(|c| c.log_likelihood);
        for c in &mut candidates {
            c.behind = c.log_likelihood.zip(best).map(|(l, b)| b - l);
        }
        let n = entries.len() as f64;
        let mut tests = Vec::new();
        for (test, measures, found) in [
            (
                "fit",
                "the counts against the base: Σ (count − expected)² / expected",
                &result.fit,
            ),
            (
                "drought",
                "the longest run of entries without some outcome",
                &result.drought,
            ),
            (
                "repeats",
                "entries equal to the one before",
                &result.repeats,
            ),
        ] {
            if let Some(found) = found {
                tests.push(TestRow {
                    test,
                    measures,
                    statistic: found.statistic,
                    p_value: found.p_value,
                    method: found.method.describe(),
                });
            }
        }
        Ok(AuditReport {
            spec: randomizer.spec(),
            entries: entries.len(),
            log_likelihood: finite,
            per_entry: finite.map(|l| l / n),
            impossible: likelihood.impossible.map(|entry| Impossible {
                entry: entry + 1,
                outcome: entries[entry].clone(),
                reason: likelihood.reason.clone().unwrap_or_default(),
            }),
            counts: (0..randomizer.outcomes().len())
                .map(|i| CountRow {
                    outcome: randomizer.label(i),
                    count: result.counts[i],
                    expected: result.base[i] * n,
                })
                .collect(),
            method: tests_method(&tests, entries.len(), self.simulations, self.seed),
            tests,
            candidates,
        })
    }
}

/// How the tests' p-values were found, in a sentence.
fn tests_method(tests: &[TestRow], entries: usize, simulations: u64, seed: u64) -> String {
    if tests.is_empty() {
        return "no tests (no simulated logs asked for, and none exact)".to_string();
    }
    let named = |exact: bool| {
        tests
            .iter()
            .filter(|t| (t.method == "exact") == exact)
            .map(|t| t.test)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (exact, simulated) = (named(true), named(false));
    let mut parts = Vec::new();
    if !exact.is_empty() {
        parts.push(format!(
            "{exact} exact, over every log of {entries} entries"
        ));
    }
    if !simulated.is_empty() {
        parts.push(format!(
            "{simulated} from {simulations} logs of {entries} entries simulated from the randomizer, seed {seed}"
        ));
    }
    format!("two-sided p-values: {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_read_from_lines_csv_and_json() {
        let read = |text: &str| read_log(&Log::Text(text.to_string())).expect("a log");
        assert_eq!(read("7\n# a comment\n\n5\n"), ["7", "5"]);
        assert_eq!(
            read("turn,player,outcome\n1,ann,7\n2,bob,11\n"),
            ["7", "11"]
        );
        assert_eq!(read("7,ann\n8,bob\n"), ["7", "8"]);
        assert_eq!(read("[7, \"5\"]"), ["7", "5"]);
        assert_eq!(read("{\"spec\": \"x\", \"samples\": [3, 4]}"), ["3", "4"]);
        assert!(read_log(&Log::Text(" \n".into())).is_err());
        assert!(read_log(&Log::Text("{\"x\": 1}".into())).is_err());
    }

    #[test]
    fn an_audit_ranks_a_deck_log_under_the_deck() {
        let request = AuditRequest {
            spec: "dice(base=2d6)".into(),
            // One whole pass through the 36 rolls of 2d6, each sum as often as
            // it has ways.
            log: Log::Entries(
                (2..=12i64)
                    .flat_map(|s| {
                        std::iter::repeat_n(Entry::Value(s), 6 - (s - 7).unsigned_abs() as usize)
                    })
                    .collect(),
            ),
            candidates: Vec::new(),
            simulations: 200,
            seed: 1,
        };
        let report = request.run(&Control::new()).expect("small");
        assert_eq!(report.entries, 36);
        assert_eq!(report.candidates.len(), 6); // the spec is one of its alternatives
        assert_eq!(report.candidates[0].behind, Some(0.0));
        let dice = report
            .candidates
            .iter()
            .find(|c| c.spec == "dice(base=2d6)")
            .unwrap();
        let deck = report
            .candidates
            .iter()
            .find(|c| c.spec.starts_with("deck(base=2d6, copies=1"))
            .unwrap();
        assert!(deck.log_likelihood.unwrap() > dice.log_likelihood.unwrap());
        assert_eq!(report.tests.len(), 3);
        let bad = AuditRequest {
            log: Log::Entries(vec![Entry::Value(13)]),
            ..request
        };
        assert_eq!(bad.run(&Control::new()).unwrap_err().exit_status(), 2);
    }
}
