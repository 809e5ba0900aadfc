//! [`Control`]: the budget, the cancel switch and the progress report that every long
//! computation of fairdice runs under; [`Stop`], why one stopped early; and
//! [`FailureKind`], the one taxonomy every error of the crate sorts into.
//!
//! ```
//! use fairdice::control::{Control, Stop};
//! use fairdice::dice::notation::{self, NotationError, Options};
//!
//! let control = Control::new().with_max_steps(1_000);
//! let expr = notation::parse("100d10kh10")?;
//! let refused = notation::evaluate_expr(&expr, &Options::default(), &control);
//! assert!(matches!(refused, Err(NotationError::TooBig(_))));
//!
//! control.cancel();
//! let stopped = notation::evaluate_expr(&notation::parse("3d6")?, &Options::default(), &control);
//! assert!(matches!(stopped, Err(NotationError::Stopped(Stop::Cancelled))));
//! # Ok::<(), NotationError>(())
//! ```
//!
//! # Design decisions
//! - One value carries all three, so a front-end sets them in one place (the command
//!   line's `--max-steps` and progress bars, the web app's time limit, a notebook's
//!   Ctrl-C) and a dice expression, a contest, a battle, an analysis and a search all
//!   honour them the same way.
//! - A `Control` is a handle: its clones share the cancel switch, the steps used and
//!   the progress, so parallel workers and nested computations draw on one budget.
//! - Work is priced before it starts (each computation's estimate is compared with
//!   [`Control::max_steps`] and [`Control::max_memory`]) and metered while it runs. A
//!   [`Meter`] counts steps locally and settles with the shared count every
//!   [`SETTLE_STEPS`] steps, so a hot loop pays one add and one compare per charge;
//!   the meter's limit is [`METER_SLACK`] times the budget, because an estimate is an
//!   order of magnitude and only a computation far past it is stopped.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use thiserror::Error;

/// The default budget of one computation, in estimated work steps (one step is about
/// one multiply-add of 64-bit limbs: a few nanoseconds). Roughly ten seconds.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000_000;

/// The least budget [`Control::preparing`] gives the stages that prepare a
/// request's pricing: about a millisecond of work.
pub const PREPARATION_STEPS: u64 = 1 << 20;

/// The default memory one computation may plan to hold: 2 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 2 << 30;

/// How many times its budget a metered computation may run before it is stopped:
/// estimates are orders of magnitude, and only a computation far past its estimate
/// is a fault.
pub const METER_SLACK: u64 = 4;

/// Steps a [`Meter`] counts before it settles with the shared count and looks at
/// the cancel switch.
pub const SETTLE_STEPS: u64 = 4096;

/// How far a computation has come, as reported to a progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// What is being done, e.g. `rolling` or `measuring candidates`.
    pub stage: &'static str,
    /// Units done so far in this stage.
    pub done: u64,
    /// Units the stage will do in all (0 when unknown).
    pub total: u64,
}

type ProgressFn = dyn Fn(Progress) + Send + Sync;

/// The budget, cancel switch and progress callback of a computation. Cheap to
/// clone; clones share everything.
#[derive(Clone)]
pub struct Control {
    shared: Arc<Shared>,
    progress: Option<Arc<Reporter>>,
}

/// What every clone of a control shares.
struct Shared {
    max_steps: u64,
    max_memory: u64,
    used: AtomicU64,
    cancelled: AtomicBool,
    /// The budget this one is a share of (see [`Control::share`]): steps count
    /// against both, and a cancelled parent cancels the share.
    parent: Option<Arc<Shared>>,
}

impl Shared {
    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self
                .parent
                .as_ref()
                .is_some_and(|parent| parent.is_cancelled())
    }

    /// Adds `steps` here and to every budget above; the first budget passed
    /// (counting [`METER_SLACK`]), if any.
    fn add(&self, steps: u64) -> Option<u64> {
        let used = self
            .used
            .fetch_add(steps, Ordering::Relaxed)
            .saturating_add(steps);
        let above = self.parent.as_ref().and_then(|parent| parent.add(steps));
        if used > self.max_steps.saturating_mul(METER_SLACK) {
            Some(self.max_steps)
        } else {
            above
        }
    }
}

/// A progress callback and the stage it is told about.
struct Reporter {
    report: Box<ProgressFn>,
    stage: Mutex<(&'static str, u64)>,
    done: AtomicU64,
}

impl fmt::Debug for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("max_steps", &self.shared.max_steps)
            .field("max_memory", &self.shared.max_memory)
            .field("used", &self.steps_used())
            .field("cancelled", &self.is_cancelled())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Default for Control {
    fn default() -> Control {
        Control::new()
    }
}

impl Control {
    /// The default budget ([`DEFAULT_MAX_STEPS`], [`DEFAULT_MAX_MEMORY`]), not
    /// cancelled, no progress callback.
    pub fn new() -> Control {
        Control::build(DEFAULT_MAX_STEPS, DEFAULT_MAX_MEMORY, None)
    }

    /// No limit on steps or memory: for callers that bound the work themselves.
    pub fn unlimited() -> Control {
        Control::build(u64::MAX, u64::MAX, None)
    }

    fn build(max_steps: u64, max_memory: u64, progress: Option<Arc<Reporter>>) -> Control {
        Control {
            shared: Arc::new(Shared {
                max_steps,
                max_memory,
                used: AtomicU64::new(0),
                cancelled: AtomicBool::new(false),
                parent: None,
            }),
            progress,
        }
    }

    /// A share of this control's budget: a control allowed `steps`, whose steps
    /// also count here (so it stops when this budget is passed too) and which
    /// stops when this one is cancelled. Its own cancel switch stops only the
    /// share. For a search that tries something cheap first and wants it to give
    /// up early, not to use the whole budget. The share's size does not depend on
    /// what others have used, so work sized by it stays reproducible.
    #[must_use]
    pub fn share(&self, steps: u64) -> Control {
        self.share_shown(steps).silent()
    }

    /// [`share`](Control::share), reporting its progress where this control
    /// does: for a stage of work that a bigger job bounds, not a trial.
    #[must_use]
    pub fn share_shown(&self, steps: u64) -> Control {
        Control {
            shared: Arc::new(Shared {
                max_steps: steps,
                max_memory: self.shared.max_memory,
                used: AtomicU64::new(0),
                cancelled: AtomicBool::new(false),
                parent: Some(self.shared.clone()),
            }),
            progress: self.progress.clone(),
        }
    }

    /// The control for work that prepares a request's main computation so that it
    /// can be priced (a contest's pools, a randomizer's base die): this control
    /// when its budget is at least [`PREPARATION_STEPS`], else one allowed that
    /// many steps (about a millisecond of work) with this memory limit. So even a
    /// tiny budget refuses a request with the estimate of the whole, not of the
    /// small stage that happens to come first. Under a smaller budget the
    /// preparation is not cancellable: it is too short to need it.
    #[must_use]
    pub fn preparing(&self) -> Control {
        if self.shared.max_steps >= PREPARATION_STEPS {
            self.clone()
        } else {
            Control::build(PREPARATION_STEPS, self.shared.max_memory, None)
        }
    }

    /// A control with a budget of `steps` estimated work steps. Configure a control
    /// before sharing it: the copy has its own cancel switch and count.
    #[must_use]
    pub fn with_max_steps(self, steps: u64) -> Control {
        Control::build(steps, self.shared.max_memory, self.progress)
    }

    /// A control allowing computations to plan `bytes` of memory (a copy, as
    /// [`with_max_steps`](Self::with_max_steps) makes).
    #[must_use]
    pub fn with_max_memory(self, bytes: u64) -> Control {
        Control::build(self.shared.max_steps, bytes, self.progress)
    }

    /// The same control, calling `report` as work progresses (from any thread;
    /// keep it quick).
    #[must_use]
    pub fn with_progress(self, report: impl Fn(Progress) + Send + Sync + 'static) -> Control {
        Control {
            shared: self.shared,
            progress: Some(Arc::new(Reporter {
                report: Box::new(report),
                stage: Mutex::new(("", 0)),
                done: AtomicU64::new(0),
            })),
        }
    }

    /// The same budget and cancel switch without the progress callback: for the
    /// parts of a computation that report as one unit (each candidate of a search).
    #[must_use]
    pub fn silent(&self) -> Control {
        Control {
            shared: self.shared.clone(),
            progress: None,
        }
    }

    /// The budget in estimated work steps: estimates above it are refused.
    pub fn max_steps(&self) -> u64 {
        self.shared.max_steps
    }

    /// The memory, in bytes, a computation may plan to hold.
    pub fn max_memory(&self) -> u64 {
        self.shared.max_memory
    }

    /// Steps counted so far by every meter of this control (settled counts only).
    pub fn steps_used(&self) -> u64 {
        self.shared.used.load(Ordering::Relaxed)
    }

    /// Asks every computation under this control to stop; they return
    /// [`Stop::Cancelled`] at their next look (within a few thousand steps).
    pub fn cancel(&self) {
        self.shared.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.shared.is_cancelled()
    }

    /// [`Stop::Cancelled`] once cancelled: for loops that do not meter steps.
    ///
    /// # Errors
    /// [`Stop::Cancelled`].
    #[inline]
    pub fn check(&self) -> Result<(), Stop> {
        if self.is_cancelled() {
            Err(Stop::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Refuses to plan `bytes` of memory past [`max_memory`](Self::max_memory);
    /// called before a large allocation with its computed size.
    ///
    /// # Errors
    /// [`Stop::OverMemory`].
    pub fn reserve(&self, bytes: u64) -> Result<(), Stop> {
        if bytes > self.shared.max_memory {
            return Err(Stop::OverMemory {
                needed: bytes,
                limit: self.shared.max_memory,
            });
        }
        Ok(())
    }

    /// Refuses an estimate of `steps` past [`max_steps`](Self::max_steps).
    ///
    /// # Errors
    /// [`Stop::OverEstimate`], with the estimate.
    pub fn afford(&self, steps: f64) -> Result<(), Stop> {
        if steps > self.shared.max_steps as f64 {
            return Err(Stop::OverEstimate {
                estimate: steps as u64,
                limit: self.shared.max_steps,
            });
        }
        Ok(())
    }

    /// A meter counting work against this control's budget, from this thread.
    pub fn meter(&self) -> Meter {
        Meter {
            shared: self.shared.clone(),
            control: self.silent(),
            unsettled: 0,
            looked: false,
            scale: 1,
        }
    }

    /// Starts a stage of `total` units (0 when unknown) and reports it.
    pub fn stage(&self, stage: &'static str, total: u64) {
        if let Some(reporter) = &self.progress {
            if let Ok(mut current) = reporter.stage.lock() {
                *current = (stage, total);
            }
            reporter.done.store(0, Ordering::Relaxed);
            reporter.tell(0);
        }
    }

    /// Records `units` more of the current stage done, and reports it.
    pub fn advance(&self, units: u64) {
        if let Some(reporter) = &self.progress {
            let done = reporter.done.fetch_add(units, Ordering::Relaxed) + units;
            reporter.tell(done);
        }
    }

    /// Whether anyone listens to progress (work that costs something to count can
    /// skip counting otherwise).
    pub fn wants_progress(&self) -> bool {
        self.progress.is_some()
    }
}

impl Reporter {
    fn tell(&self, done: u64) {
        let (stage, total) = self.stage.lock().map(|current| *current).unwrap_or(("", 0));
        (self.report)(Progress { stage, done, total });
    }
}

/// Counts the work of one thread against a [`Control`]'s budget and looks at its
/// cancel switch every [`SETTLE_STEPS`] steps.
#[derive(Debug)]
pub struct Meter {
    shared: Arc<Shared>,
    control: Control,
    unsettled: u64,
    looked: bool,
    /// Steps one charged unit costs (see [`Meter::scaled`]).
    scale: u64,
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared").finish_non_exhaustive()
    }
}

impl Meter {
    /// Records `steps` of work.
    ///
    /// # Errors
    /// [`Stop::OverBudget`] once the control's steps pass [`METER_SLACK`] times its
    /// budget; [`Stop::Cancelled`] once it is cancelled.
    #[inline]
    pub fn charge(&mut self, steps: u64) -> Result<(), Stop> {
        self.unsettled = self
            .unsettled
            .saturating_add(steps.saturating_mul(self.scale));
        if self.unsettled >= SETTLE_STEPS || !self.looked {
            self.settle()?;
        }
        Ok(())
    }

    /// Records `steps` of work in steps, whatever this meter's
    /// [`scale`](Self::scaled): for work beside the scaled unit (the tables a
    /// scaled computation builds).
    ///
    /// # Errors
    /// As [`charge`](Self::charge).
    pub fn charge_steps(&mut self, steps: u64) -> Result<(), Stop> {
        self.unsettled = self.unsettled.saturating_add(steps);
        if self.unsettled >= SETTLE_STEPS || !self.looked {
            self.settle()?;
        }
        Ok(())
    }

    /// This meter with every charged unit counted as `scale` steps: for work whose
    /// unit grows with its numbers (a product of big counts costs a step per few
    /// pairs of their 64-bit words).
    #[must_use]
    pub fn scaled(mut self, scale: u64) -> Meter {
        self.scale = scale.max(1);
        self
    }

    /// Settles the steps counted so far with the control and looks at its switch.
    ///
    /// # Errors
    /// As [`charge`](Self::charge).
    pub fn settle(&mut self) -> Result<(), Stop> {
        self.looked = true;
        let steps = std::mem::take(&mut self.unsettled);
        if let Some(limit) = self.shared.add(steps) {
            return Err(Stop::OverBudget { limit });
        }
        self.control.check()
    }

    /// The control this meter counts for (without its progress callback).
    pub fn control(&self) -> &Control {
        &self.control
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        self.shared.add(self.unsettled);
    }
}

/// Why a computation stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Stop {
    /// It worked far past its budget (its estimate was wrong, or it had none).
    #[error(
        "too large to compute exactly: it went past the budget of {} steps",
        step_count(*limit as f64)
    )]
    OverBudget {
        /// The budget in steps.
        limit: u64,
    },
    /// Its estimate, made before it started, is past the budget.
    #[error(
        "too large to compute exactly: it would take about {} steps (the limit is {})",
        step_count(*estimate as f64),
        step_count(*limit as f64)
    )]
    OverEstimate {
        /// The estimated steps (saturated at `u64::MAX`).
        estimate: u64,
        /// The budget in steps.
        limit: u64,
    },
    /// It would need more memory than it may hold.
    #[error(
        "too large to compute exactly: it would hold about {} of memory (the limit is {})",
        bytes(*needed),
        bytes(*limit)
    )]
    OverMemory {
        /// Bytes it would hold.
        needed: u64,
        /// Bytes it may hold.
        limit: u64,
    },
    /// [`Control::cancel`] was called (a time limit, Ctrl-C, a closed page).
    #[error("the computation was cancelled")]
    Cancelled,
}

/// A number of steps as messages write it: plain digits below a million,
/// `2.3e9` style above (an estimate is an order of magnitude).
pub fn step_count(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

/// `1.5 GiB` style.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The kind of every failure of the crate: what a front-end needs to choose an exit
/// status, an HTTP status or an exception class, without reading messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FailureKind {
    /// The input is wrong: it does not parse, or it means nothing (`d0`).
    Invalid,
    /// The input is fine but too large for the budget; a Monte Carlo estimate or
    /// a larger budget can answer.
    TooLarge,
    /// The computation was cancelled from outside.
    Cancelled,
    /// Nothing the user did: a fault of fairdice itself (a panic, a report that
    /// would not serialize).
    Internal,
}

/// An error that knows its [`FailureKind`].
pub trait Failure: std::error::Error {
    /// Its kind.
    fn kind(&self) -> FailureKind;
}

impl Failure for Stop {
    fn kind(&self) -> FailureKind {
        match self {
            Stop::OverBudget { .. } | Stop::OverEstimate { .. } | Stop::OverMemory { .. } => {
                FailureKind::TooLarge
            }
            Stop::Cancelled => FailureKind::Cancelled,
        }
    }
}

/// Implements [`Failure`] as [`FailureKind::Invalid`] for errors that only ever
/// mean "the input is wrong": their messages say what is accepted, and no budget
/// or Monte Carlo estimate helps. Each module invokes it for its own errors, so
/// this ground floor imports nothing above it.
macro_rules! invalid_input {
    ($($error:ty),* $(,)?) => {$(
        impl $crate::control::Failure for $error {
            fn kind(&self) -> $crate::control::FailureKind {
                $crate::control::FailureKind::Invalid
            }
        }
    )*};
}
pub(crate) use invalid_input;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meters_share_one_budget_and_stop_past_its_slack() {
        let control = Control::new().with_max_steps(10_000);
        let mut a = control.meter();
        let mut b = control.meter();
        assert!(a.charge(20_000).is_ok());
        assert!(b.charge(20_000).is_ok());
        assert_eq!(control.steps_used(), 40_000);
        // Small charges settle every SETTLE_STEPS steps.
        assert!(a.charge(1).is_ok());
        assert_eq!(
            a.charge(SETTLE_STEPS),
            Err(Stop::OverBudget { limit: 10_000 })
        );
    }

    #[test]
    fn a_cancel_is_seen_at_the_first_charge_and_within_settle_steps() {
        let control = Control::unlimited();
        control.cancel();
        assert_eq!(control.meter().charge(1), Err(Stop::Cancelled));
        let control = Control::unlimited();
        let mut meter = control.meter();
        assert!(meter.charge(1).is_ok());
        control.cancel();
        let stopped_after = (0..2 * SETTLE_STEPS).position(|_| meter.charge(1).is_err());
        assert!(stopped_after.is_some_and(|n| n < SETTLE_STEPS as usize));
    }

    #[test]
    fn unsettled_steps_are_counted_when_a_meter_ends() {
        let control = Control::unlimited();
        {
            let mut meter = control.meter();
            meter.charge(1).unwrap();
            meter.charge(10).unwrap();
        }
        assert_eq!(control.steps_used(), 11);
    }

    #[test]
    fn memory_and_estimates_are_priced_against_the_budget() {
        let control = Control::new().with_max_steps(100).with_max_memory(1 << 20);
        assert!(control.reserve(1 << 20).is_ok());
        let over = control.reserve((1 << 20) + 1).unwrap_err();
        assert_eq!(over.kind(), FailureKind::TooLarge);
        assert!(over.to_string().contains("1.0 MiB"), "{over}");
        assert!(control.afford(100.0).is_ok());
        assert!(control.afford(101.0).is_err());
    }

    #[test]
    fn progress_reports_stage_done_and_total() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let control = Control::new()
            .with_progress(move |p| log.lock().unwrap().push(p))
            .with_max_steps(5);
        control.stage("rolling", 10);
        control.advance(4);
        control.advance(6);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(
            seen[2],
            Progress {
                stage: "rolling",
                done: 10,
                total: 10
            }
        );
        assert_eq!(control.max_steps(), 5);
    }

    #[test]
    fn a_share_stops_at_its_own_limit_and_counts_against_the_whole() {
        let control = Control::new().with_max_steps(1_000_000);
        let share = control.share(10_000);
        assert_eq!(share.max_steps(), 10_000);
        let mut meter = share.meter();
        assert!(meter.charge(30_000).is_ok());
        assert_eq!(
            meter.charge(20_000),
            Err(Stop::OverBudget { limit: 10_000 })
        );
        drop(meter);
        assert_eq!(control.steps_used(), 50_000);
        // The whole goes on after the share's stop; a share's steps that pass the
        // whole's budget stop the share too.
        assert!(control.meter().charge(10).is_ok());
        let mut large = control.share(u64::MAX).meter();
        assert_eq!(
            large.charge(4_000_000),
            Err(Stop::OverBudget { limit: 1_000_000 })
        );
        // Cancelling the whole stops every share; cancelling a share does not
        // reach the whole.
        let other = control.share(100);
        other.cancel();
        assert!(!control.is_cancelled());
        control.cancel();
        assert!(share.is_cancelled());
        assert_eq!(share.check(), Err(Stop::Cancelled));
    }
}
