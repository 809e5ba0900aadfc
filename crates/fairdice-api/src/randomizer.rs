//! `sample`, `next` and `state`: drawing from a randomizer, its next-sample
//! distribution after a history, and a saved session's contents. A randomizer is
//! given by its spec (`deck(values=6)`) or as a saved session (the JSON document
//! `fairdice sample --save` writes), so a game can be continued in any front-end.

use fairdice::Control;
use fairdice::randomizer::report::{NextOutcome, NextReport, SampleReport};
use fairdice::randomizer::{
    AnyRandomizer, MAX_SESSION_BYTES, Randomizer, Session, Spec, StateSpace, observe_history,
};
use fairdice::rng;
use serde::{Deserialize, Serialize};

use crate::{DEFAULT_SEED, Error, UseCase};

/// The most outcomes one sample request draws (they are all returned).
pub const MAX_COUNT: u64 = 10_000_000;

/// About how many bytes one outcome listed in a report takes until it is
/// reported (its row and its JSON).
pub const BYTES_PER_LISTED_OUTCOME: u64 = 160;

/// Budget steps one draw costs, drawn and written in the report (measured per
/// million draws: 23 ms from a deck, 166 ms from tgm3, whose draws retry).
pub const STEPS_PER_DRAW: u64 = 32;

/// About how many bytes one draw takes until it is reported (its index, its place
/// in the report and its JSON; measured: 44 MiB a million draws from tgm3).
pub const BYTES_PER_DRAW: u64 = 48;

/// Where a randomizer comes from: a spec, or a saved session to continue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A fresh randomizer built from its spec.
    Spec(String),
    /// A saved session (its JSON document), continued where it stopped.
    Session(String),
}

impl Source {
    /// The randomizer of a spec, or the session's randomizer and generator.
    ///
    /// # Errors
    /// The spec's or the saved session's error, saying what is accepted.
    fn open(&self, control: &Control) -> Result<Opened, Error> {
        match self {
            Source::Spec(spec) => Spec::build_with(spec, control)
                .map(Opened::Fresh)
                .map_err(|e| Error::from_failure(&e)),
            Source::Session(text) => {
                if text.len() > MAX_SESSION_BYTES {
                    return Err(Error::invalid_input(format!(
                        "a saved session is at most {MAX_SESSION_BYTES} bytes; this one is {}",
                        text.len()
                    )));
                }
                Session::from_json_with(text, control)
                    .map(Opened::Saved)
                    .map_err(|e| Error::from_failure(&e))
            }
        }
    }
}

impl Source {
    /// The randomizer, after the outcomes of `history` (oldest first; an entry
    /// `NAME*K` is NAME drawn K times, unless NAME*K is itself an outcome), and
    /// the history written out.
    ///
    /// # Errors
    /// The source's error; a history the randomizer cannot have drawn.
    pub(crate) fn after_history(
        &self,
        history: &[String],
        control: &Control,
    ) -> Result<(AnyRandomizer, Vec<String>), Error> {
        let mut randomizer = match self.open(control)? {
            Opened::Fresh(randomizer) => randomizer,
            Opened::Saved(session) => session.randomizer().clone(),
        };
        control.check().map_err(|stop| Error::from_failure(&stop))?;
        let mut written = Vec::new();
        for entry in history.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
            let repeated = entry.rsplit_once('*').and_then(|(name, times)| {
                let times: u64 = times.trim().parse().ok()?;
                (fairdice::randomizer::outcome_index(&randomizer, entry).is_err())
                    .then(|| (name.trim(), times))
            });
            let (name, times) = repeated.unwrap_or((entry, 1));
            if written.len() as u64 + times > MAX_HISTORY {
                // Refused before a long history is written out.
                return Err(Error::invalid_input(format!(
                    "the history is longer than {MAX_HISTORY} outcomes"
                )));
            }
            written.extend(std::iter::repeat_n(name.to_string(), times as usize));
        }
        let steps = (written.len() as f64) * randomizer.sample_steps().max(1) as f64;
        control.afford(steps).map_err(|stop| {
            Error::from_failure(&stop).in_context(&format!(
                "a history of {} outcomes is more than the budget replays:",
                written.len()
            ))
        })?;
        control
            .reserve(written.len() as u64 * 32)
            .map_err(|stop| Error::from_failure(&stop))?;
        observe_history(&mut randomizer, &written).map_err(|e| {
            Error::invalid_input(format!(
                "the history does not fit {}: {e}",
                fairdice::analysis::chain::short_spec(&randomizer)
            ))
        })?;
        Ok((randomizer, written))
    }
}

/// A randomizer a program keeps and draws from one outcome at a time (the npm
/// package's `randomizer()`): a fresh one from a spec, with the generator seeded by
/// `seed`, or a saved session where it stopped (`seed` unused). Its draws are those
/// `sample` gives for the same source and seed, and [`Session::to_json`] writes the
/// session text `fairdice sample --save` writes. A `base=EXPR` and a saved session
/// are built within `control`'s budget.
///
/// # Errors
/// The spec's or the saved session's error, as `sample` reports it; a base or a
/// session too large for the budget.
pub fn open_session(source: &Source, seed: u64, control: &Control) -> Result<Session, Error> {
    Ok(match source.open(control)? {
        Opened::Fresh(randomizer) => Session::new(randomizer, rng::seeded(seed)),
        Opened::Saved(session) => session,
    })
}

/// How a randomizer is named in a heading: a machine document by its `name`
/// (or as "a machine of N bytes"), a spec longer than 80 characters cut short,
/// any other spec as written.
pub fn spec_title(spec: &str) -> String {
    if spec.trim_start().starts_with('{') {
        let name = serde_json::from_str::<serde_json::Value>(spec)
            .ok()
            .and_then(|document| document["name"].as_str().map(str::to_string));
        return name.unwrap_or_else(|| format!("a machine of {} bytes", spec.len()));
    }
    if spec.len() <= 80 {
        return spec.to_string();
    }
    let cut = (0..=77)
        .rev()
        .find(|&i| spec.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}…", &spec[..cut])
}

/// The most outcomes a history holds (written out).
pub const MAX_HISTORY: u64 = 1_000_000;

/// An opened source.
enum Opened {
    Fresh(AnyRandomizer),
    Saved(Session),
}

/// Draws from a randomizer.
///
/// As JSON: `{"source": {"spec": "deck(values=6)"}, "samples": 12, "seed": 7,
/// "save": false}`; with `"source": {"session": "…"}` the saved game continues
/// (its own generator; `seed` is ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleRequest {
    /// The randomizer.
    pub source: Source,
    /// How many outcomes to draw (`count` is read too, its earlier name).
    #[serde(default = "ten", alias = "count")]
    pub samples: u64,
    /// The seed of a fresh randomizer's generator.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Also return the session after the draws, to continue later.
    #[serde(default)]
    pub save: bool,
}

fn ten() -> u64 {
    10
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// What a sample request answers: the draws, and the session to continue from
/// when asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleAnswer {
    /// The draws (the `fairdice sample --json` document).
    #[serde(flatten)]
    pub report: SampleReport,
    /// The session after the draws, as its saved JSON document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The session itself, for front-ends that save it their own way.
    #[serde(skip)]
    pub continued: Option<Session>,
}

impl UseCase for SampleRequest {
    const NAME: &'static str = "sample";
    type Report = SampleAnswer;

    fn run(&self, control: &Control) -> Result<SampleAnswer, Error> {
        let mut indices = Vec::with_capacity(self.samples.min(1 << 20) as usize);
        let (session, seed) = self.draw_each(control, |_, index| indices.push(index))?;
        let report = SampleReport::new(session.randomizer(), &indices, seed);
        Ok(SampleAnswer {
            report,
            session: self.save.then(|| session.to_json()),
            continued: Some(session),
        })
    }
}

impl SampleRequest {
    /// Draws as [`UseCase::run`] does, under the same limits, handing each
    /// outcome's index to `each` as it is drawn and keeping none of them: for a
    /// front-end that writes the draws as they come (the command line's plain
    /// output, in constant memory). Returns the session after the draws and the
    /// seed of a fresh randomizer (`None` for a continued session).
    ///
    /// # Errors
    /// As `run`: the source's error, more draws than one request returns or the
    /// budget allows, a cancel.
    pub fn draw_each(
        &self,
        control: &Control,
        mut each: impl FnMut(&AnyRandomizer, usize),
    ) -> Result<(Session, Option<u64>), Error> {
        if self.samples > MAX_COUNT {
            return Err(Error::invalid_input(format!(
                "{} draws is more than the {MAX_COUNT} one request returns",
                self.samples
            )));
        }
        let (mut session, seed) = match self.source.open(control)? {
            Opened::Fresh(randomizer) => (
                Session::new(randomizer, rng::seeded(self.seed)),
                Some(self.seed),
            ),
            Opened::Saved(session) => (session, None),
        };
        let steps = self.samples.saturating_mul(STEPS_PER_DRAW);
        let bytes = self.samples.saturating_mul(BYTES_PER_DRAW);
        if control.afford(steps as f64).is_err() || control.reserve(bytes).is_err() {
            return Err(Error::too_big(format!(
                "{} draws (about {} of memory) are more than the budget allows; ask for fewer",
                self.samples,
                fairdice::control::bytes(bytes)
            )));
        }
        control.stage("drawing", self.samples);
        for drawn in 0..self.samples {
            // A draw costs nanoseconds: look at the switch every 65,536 draws.
            if drawn % 65_536 == 0 {
                control.check().map_err(|stop| Error::from_failure(&stop))?;
                if drawn > 0 {
                    control.advance(65_536);
                }
            }
            let index = session.draw();
            each(session.randomizer(), index);
        }
        Ok((session, seed))
    }
}

/// The next-sample distribution of a randomizer after a history.
///
/// As JSON: `{"source": {"spec": "fair(base=2d6, tightness=1)"}, "history":
/// ["2", "4", "7", "7"]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextRequest {
    /// The randomizer (a saved session starts from its saved state).
    pub source: Source,
    /// Outcomes drawn so far, oldest first: values (`7`) or names (`T`).
    #[serde(default)]
    pub history: Vec<String>,
}

impl UseCase for NextRequest {
    const NAME: &'static str = "next";
    type Report = NextReport;

    fn run(&self, control: &Control) -> Result<NextReport, Error> {
        let (randomizer, history) = self.source.after_history(&self.history, control)?;
        let outcomes = randomizer.outcomes().len() as u64;
        let bytes = outcomes.saturating_mul(BYTES_PER_LISTED_OUTCOME);
        if control.reserve(bytes).is_err() {
            return Err(Error::too_big(format!(
                "the next-sample distribution of {outcomes} outcomes would take about {} to list, more than the budget allows",
                fairdice::control::bytes(bytes)
            )));
        }
        let history: Vec<&str> = history.iter().map(String::as_str).collect();
        Ok(NextReport::new(&randomizer, &history))
    }
}

/// What a saved session holds.
///
/// As JSON: `{"session": "…"}` (the saved document as a string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    /// The saved session's JSON document.
    pub session: String,
}

/// A saved session's contents, as `fairdice state show --json` prints them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateReport {
    /// The randomizer's spec.
    pub spec: String,
    /// Draws made so far.
    pub draws: u64,
    /// The randomizer's state key.
    pub state: Vec<i64>,
    /// The next-sample distribution.
    pub next: Vec<NextOutcome>,
}

impl UseCase for StateRequest {
    const NAME: &'static str = "state";
    type Report = StateReport;

    fn run(&self, control: &Control) -> Result<StateReport, Error> {
        let Opened::Saved(session) = Source::Session(self.session.clone()).open(control)? else {
            unreachable!("a session source opens a session");
        };
        let randomizer = session.randomizer();
        Ok(StateReport {
            spec: randomizer.spec(),
            draws: session.draws(),
            state: randomizer.state_key(),
            next: NextOutcome::all(randomizer),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(spec: &str, count: u64, seed: u64) -> SampleAnswer {
        SampleRequest {
            source: Source::Spec(spec.into()),
            samples: count,
            seed,
            save: true,
        }
        .run(&Control::new())
        .expect("valid")
    }

    #[test]
    fn a_saved_session_continues_exactly_where_it_stopped() {
        let whole = sample("deck(values=6, refill_below=2)", 20, 7);
        let first = sample("deck(values=6, refill_below=2)", 8, 7);
        let rest = SampleRequest {
            source: Source::Session(first.session.clone().expect("saved")),
            samples: 12,
            seed: 999,
            save: false,
        }
        .run(&Control::new())
        .expect("continues");
        let joined: Vec<i64> = [first.report.samples, rest.report.samples].concat();
        assert_eq!(joined, whole.report.samples);
        assert_eq!(rest.report.seed, None);
    }

    #[test]
    fn the_next_distribution_follows_the_history() {
        let report = NextRequest {
            source: Source::Spec("deck(values=2)".into()),
            history: vec!["1".into()],
        }
        .run(&Control::new())
        .expect("valid");
        let p: Vec<f64> = report.outcomes.iter().map(|o| o.probability).collect();
        assert_eq!(p, [0.0, 1.0]);
        let impossible = NextRequest {
            source: Source::Spec("deck(values=2)".into()),
            history: vec!["1".into(), "1".into()],
        }
        .run(&Control::new())
        .unwrap_err();
        assert_eq!(impossible.exit_status(), 2);
        assert!(
            impossible.message.contains("history"),
            "{}",
            impossible.message
        );
    }

    #[test]
    fn a_state_report_reads_a_saved_session_and_refuses_a_changed_one() {
        let saved = sample("prd(p=0.25)", 3, 1).session.expect("saved");
        let report = StateRequest {
            session: saved.clone(),
        }
        .run(&Control::new())
        .expect("valid");
        assert_eq!(report.draws, 3);
        assert_eq!(report.next.len(), 2);
        let changed = saved.replacen("\"draws\": 3", "\"draws\": 4", 1);
        assert_ne!(changed, saved, "the document names its draws");
        let refused = StateRequest { session: changed }.run(&Control::new());
        assert_eq!(refused.unwrap_err().exit_status(), 2);
    }

    #[test]
    fn a_cancelled_control_stops_a_long_draw() {
        let control = Control::new();
        control.cancel();
        let error = SampleRequest {
            source: Source::Spec("dice(values=6)".into()),
            samples: 1_000_000,
            seed: 1,
            save: false,
        }
        .run(&control)
        .unwrap_err();
        assert_eq!(error.kind, fairdice::FailureKind::Cancelled);
    }
}
