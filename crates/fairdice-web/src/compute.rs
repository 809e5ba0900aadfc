//! [`Computer`]: runs a request's computations off the async threads, in two lanes,
//! under a [`Control`] that the time limit and the memory guard really stop.
//!
//! # Design decisions
//! - **Two lanes, no estimates.** Every computation first runs in the *quick lane*
//!   (many slots, a short slice of time, [`Limits::quick_slice`]); one that
//!   finishes there never waits behind anything slow. One still running when its
//!   slice ends is cancelled and run again from the start in the *slow lane* (a
//!   few slots, [`Limits::max_concurrent`], first come first served) with the rest
//!   of the time limit. Pricing every use case well enough to sort requests up
//!   front would be fragile; a slice wastes at most its own length per slow
//!   request and needs no estimate at all.
//! - A request's items (the expressions of a page) run one after another and
//!   report each result as it finishes, so when the clock runs out the page still
//!   shows what was done and says which item was stopped.
//! - Stopping is cooperative: the slice, the time limit, a client that goes away
//!   (the request's future is dropped) and the memory guard all cancel the job's
//!   [`Control`], which every computation looks at within a few thousand steps, so
//!   its thread and its slot are free again within moments. A result computed
//!   while its control was being cancelled is thrown away rather than trusted.
//! - **Memory.** Each job's control allows [`Limits::job_memory`] for the memory
//!   its computation plans before allocating. Behind that, a guard thread reads
//!   the process's resident memory every [`GUARD_PERIOD`]; when it passes
//!   [`Limits::max_memory`] and is still growing, every running job is cancelled
//!   and reported as stopped by the memory limit (growth, not size, decides,
//!   because freed memory is not always returned to the system at once). The
//!   guard reads `/proc/self/statm`, so it runs on Linux only.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use fairdice::Control;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::time::{Instant, timeout_at};

use crate::limits::Limits;

/// How often the memory guard looks at the process's memory.
pub(crate) const GUARD_PERIOD: Duration = Duration::from_millis(50);

/// Why an item produced no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// The time limit ran out before or while it was computed.
    TimedOut(Duration),
    /// Other computations held every slot for the whole time limit.
    Busy(Duration),
    /// The server's memory passed its limit while it ran.
    OutOfMemory(u64),
    /// The server is shutting down.
    ShuttingDown,
    /// The computation failed unexpectedly (a bug: it panicked).
    Failed,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::TimedOut(limit) => write!(
                f,
                "stopped after the time limit of {} s: too slow to compute on this server",
                limit.as_secs_f64()
            ),
            Stopped::Busy(limit) => write!(
                f,
                "the server was busy with other computations for {} s; try again",
                limit.as_secs_f64()
            ),
            Stopped::ShuttingDown => write!(f, "stopped: the server is shutting down"),
            Stopped::OutOfMemory(limit) => write!(
                f,
                "stopped: the server's memory passed its limit of {} while this ran; try a smaller computation",
                fairdice::control::bytes(*limit)
            ),
            Stopped::Failed => f.write_str("the computation failed unexpectedly"),
        }
    }
}

/// Why an attempt's control was cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Reason {
    None = 0,
    Slice = 1,
    Deadline = 2,
    Memory = 3,
    Shutdown = 4,
}

impl Reason {
    fn of(code: u8) -> Reason {
        match code {
            1 => Reason::Slice,
            2 => Reason::Deadline,
            3 => Reason::Memory,
            4 => Reason::Shutdown,
            _ => Reason::None,
        }
    }
}

/// A running attempt, as the memory guard sees it.
struct Running {
    id: u64,
    control: Control,
    reason: Arc<AtomicU8>,
}

/// The attempts running now.
#[derive(Default)]
struct Registry {
    running: Mutex<Vec<Running>>,
    next_id: AtomicU64,
}

impl Registry {
    fn add(&self, control: Control, reason: Arc<AtomicU8>) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut running) = self.running.lock() {
            running.push(Running {
                id,
                control,
                reason,
            });
        }
        id
    }

    fn remove(&self, id: u64) {
        if let Ok(mut running) = self.running.lock() {
            running.retain(|r| r.id != id);
        }
    }

    /// Cancels every running attempt for the memory limit.
    fn cancel_all(&self) -> usize {
        self.cancel_all_for(Reason::Memory)
    }

    /// Cancels every running attempt, saying `why`.
    fn cancel_all_for(&self, why: Reason) -> usize {
        let Ok(running) = self.running.lock() else {
            return 0;
        };
        for r in running.iter() {
            let _ = r.reason.compare_exchange(
                Reason::None as u8,
                why as u8,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            r.control.cancel();
        }
        running.len()
    }
}

/// Runs computations in a quick and a slow lane, each within the time limit.
#[derive(Clone)]
pub(crate) struct Computer {
    quick: Arc<Semaphore>,
    slow: Arc<Semaphore>,
    quick_slice: Duration,
    time_limit: Duration,
    job_memory: u64,
    max_memory: u64,
    registry: Arc<Registry>,
    /// Set once the server stops: nothing more starts.
    closing: Arc<AtomicBool>,
}

impl std::fmt::Debug for Computer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computer")
            .field("quick_slice", &self.quick_slice)
            .field("time_limit", &self.time_limit)
            .finish_non_exhaustive()
    }
}

/// Cancels the control when dropped: on every exit from an attempt, including
/// the request being abandoned.
struct CancelOnDrop(Control);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Removes an attempt from the registry when it ends.
struct Registered(Arc<Registry>, u64);

impl Drop for Registered {
    fn drop(&mut self) {
        self.0.remove(self.1);
    }
}

/// How an attempt ended.
struct Attempt {
    /// The first item without a result.
    next: usize,
    /// Why its control was cancelled, if it was.
    reason: Reason,
}

impl Computer {
    /// A computer with the lanes, time limit and memory limits of `limits`; starts
    /// the memory guard.
    pub fn new(limits: &Limits) -> Computer {
        let computer = Computer {
            quick: Arc::new(Semaphore::new(limits.quick_concurrent.max(1))),
            slow: Arc::new(Semaphore::new(limits.max_concurrent.max(1))),
            quick_slice: limits.quick_slice,
            time_limit: limits.time_limit,
            job_memory: limits.job_memory,
            max_memory: limits.max_memory,
            registry: Arc::new(Registry::default()),
            closing: Arc::new(AtomicBool::new(false)),
        };
        start_memory_guard(Arc::downgrade(&computer.registry), limits.max_memory);
        computer
    }

    /// Stops every computation running now and refuses those that start later
    /// (their requests answer "shutting down"), so a stopping server does not
    /// wait on work nobody will read.
    pub fn shut_down(&self) {
        self.closing.store(true, Ordering::Relaxed);
        self.registry.cancel_all_for(Reason::Shutdown);
    }

    /// Applies `work` to each item in order on a blocking thread, in the quick
    /// lane and if need be the slow one, under a [`Control`] with the command
    /// line's step budget and this server's job memory; returns each item's
    /// result, or why it has none.
    pub async fn run_each<I, T, F>(&self, items: Vec<I>, work: F) -> Vec<Result<T, Stopped>>
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&I, &Control) -> T + Send + Sync + 'static,
    {
        let n = items.len();
        if self.closing.load(Ordering::Relaxed) {
            return (0..n).map(|_| Err(Stopped::ShuttingDown)).collect();
        }
        let deadline = Instant::now() + self.time_limit;
        let items = Arc::new(items);
        let work = Arc::new(work);
        let mut results: Vec<Option<T>> = (0..n).map(|_| None).collect();
        let mut next = 0;
        let quick_end = (Instant::now() + self.quick_slice).min(deadline);
        if let Ok(Ok(permit)) = timeout_at(quick_end, self.quick.clone().acquire_owned()).await {
            let last = quick_end == deadline;
            let attempt = self
                .attempt(permit, 0, &items, &work, (quick_end, last), &mut results)
                .await;
            next = attempt.next;
            if let Some(stopped) = self.stopped(&attempt) {
                return finish(results, next, stopped);
            }
        }
        if next == n {
            return finish(results, n, Stopped::Failed);
        }
        let Ok(Ok(permit)) = timeout_at(deadline, self.slow.clone().acquire_owned()).await else {
            return finish(results, next, Stopped::Busy(self.time_limit));
        };
        let attempt = self
            .attempt(permit, next, &items, &work, (deadline, true), &mut results)
            .await;
        let stopped = self.stopped(&attempt).unwrap_or(Stopped::Failed);
        finish(results, attempt.next, stopped)
    }

    /// Why an attempt leaves items without results, or `None` when the rest go on
    /// to the slow lane.
    fn stopped(&self, attempt: &Attempt) -> Option<Stopped> {
        match attempt.reason {
            Reason::Memory => Some(Stopped::OutOfMemory(self.max_memory)),
            Reason::Shutdown => Some(Stopped::ShuttingDown),
            Reason::Deadline => Some(Stopped::TimedOut(self.time_limit)),
            Reason::Slice => None,
            // Every item done, or the computation panicked.
            Reason::None => Some(Stopped::Failed),
        }
    }

    /// Runs `items[from..]` on a blocking thread holding `permit` until `until`
    /// (the request's deadline when `.1`, otherwise the end of a quick slice),
    /// storing each result; the thread stops at the first item its control
    /// cancels.
    async fn attempt<I, T, F>(
        &self,
        permit: OwnedSemaphorePermit,
        from: usize,
        items: &Arc<Vec<I>>,
        work: &Arc<F>,
        (until, deadline): (Instant, bool),
        results: &mut [Option<T>],
    ) -> Attempt
    where
        I: Send + Sync + 'static,
        T: Send + 'static,
        F: Fn(&I, &Control) -> T + Send + Sync + 'static,
    {
        let control = Control::new().with_max_memory(self.job_memory);
        let reason = Arc::new(AtomicU8::new(Reason::None as u8));
        let id = self.registry.add(control.clone(), reason.clone());
        let _registered = Registered(self.registry.clone(), id);
        let _cancel = CancelOnDrop(control.clone());
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let (items, work) = (items.clone(), work.clone());
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            for (i, item) in items.iter().enumerate().skip(from) {
                if control.is_cancelled() {
                    break;
                }
                let result = work(item, &control);
                // A result finished while the control was being cancelled may be
                // the cancellation itself: it is computed again or reported
                // stopped, never shown.
                if control.is_cancelled() || sender.send((i, result)).is_err() {
                    break;
                }
            }
        });
        loop {
            match timeout_at(until, receiver.recv()).await {
                Ok(Some((i, result))) => results[i] = Some(result),
                Ok(None) => break,
                Err(_) => {
                    let why = if deadline {
                        Reason::Deadline
                    } else {
                        Reason::Slice
                    };
                    let _ = reason.compare_exchange(
                        Reason::None as u8,
                        why as u8,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    break;
                }
            }
        }
        let reason = Reason::of(reason.load(Ordering::Relaxed));
        let next = (from..results.len())
            .find(|&i| results[i].is_none())
            .unwrap_or(results.len());
        Attempt { next, reason }
    }
}

/// Every item's result, those from `from` on without one stopped by `why`.
fn finish<T>(results: Vec<Option<T>>, from: usize, why: Stopped) -> Vec<Result<T, Stopped>> {
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Some(result) => Ok(result),
            None if i >= from => Err(why.clone()),
            None => Err(Stopped::Failed),
        })
        .collect()
}

/// Starts the thread that cancels every running job while the process's resident
/// memory is past `max_memory` and growing; it ends with the computer.
fn start_memory_guard(registry: Weak<Registry>, max_memory: u64) {
    if resident_bytes().is_none() || max_memory == u64::MAX {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("fairdice-memory-guard".into())
        .spawn(move || {
            let mut last = 0;
            loop {
                std::thread::sleep(GUARD_PERIOD);
                let Some(registry) = registry.upgrade() else {
                    return;
                };
                let Some(resident) = resident_bytes() else {
                    return;
                };
                if resident > max_memory && resident > last {
                    registry.cancel_all();
                }
                last = resident;
            }
        });
    // Without the guard the budget's own memory checks still hold.
    drop(spawned);
}

/// The process's resident memory, from `/proc/self/statm` (Linux); `None`
/// elsewhere.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(quick_slice_ms: u64, time_limit_ms: u64, slow: usize) -> Limits {
        Limits {
            quick_slice: Duration::from_millis(quick_slice_ms),
            time_limit: Duration::from_millis(time_limit_ms),
            max_concurrent: slow,
            ..Limits::default()
        }
    }

    /// Spins until the control is cancelled, or for `ms` milliseconds.
    fn busy(ms: u64, control: &Control) -> bool {
        let end = std::time::Instant::now() + Duration::from_millis(ms);
        while std::time::Instant::now() < end {
            if control.is_cancelled() {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    #[tokio::test]
    async fn results_come_back_in_order() {
        let computer = Computer::new(&limits(200, 5000, 2));
        let out = computer.run_each(vec![1, 2, 3], |x, _| x * 10).await;
        assert_eq!(out, vec![Ok(10), Ok(20), Ok(30)]);
    }

    #[tokio::test]
    async fn slow_items_move_to_the_slow_lane_and_finish_there() {
        let computer = Computer::new(&limits(50, 5000, 1));
        let out = computer
            .run_each(vec![10, 300, 10], |ms, control| busy(*ms, control))
            .await;
        assert_eq!(out, vec![Ok(true), Ok(true), Ok(true)]);
    }

    #[tokio::test]
    async fn the_time_limit_cancels_and_keeps_what_finished() {
        let computer = Computer::new(&limits(50, 300, 1));
        let out = computer
            .run_each(vec![0, 10_000, 0], |ms, control| busy(*ms, control))
            .await;
        let limit = Duration::from_millis(300);
        assert_eq!(
            out,
            vec![
                Ok(true),
                Err(Stopped::TimedOut(limit)),
                Err(Stopped::TimedOut(limit))
            ]
        );
        // The slots came back: the next request runs.
        assert_eq!(computer.run_each(vec![7], |x, _| *x).await, vec![Ok(7)]);
    }

    #[tokio::test]
    async fn quick_requests_pass_slow_ones_that_hold_every_slow_slot() {
        let computer = Computer::new(&limits(50, 3000, 1));
        let slow = |c: Computer| async move {
            c.run_each(vec![10_000], |ms, control| busy(*ms, control))
                .await
        };
        let first = tokio::spawn(slow(computer.clone()));
        let second = tokio::spawn(slow(computer.clone()));
        tokio::time::sleep(Duration::from_millis(150)).await;
        let started = Instant::now();
        let quick = computer.run_each(vec![1], |x, _| *x).await;
        assert_eq!(quick, vec![Ok(1)]);
        // Answered in the quick lane, not after the slow ones' 3 s.
        assert!(started.elapsed() < Duration::from_secs(1));
        // The slow ones end at the time limit, one in the slow slot, the other
        // waiting for it (or taking it just as the limit ends).
        let limit = Duration::from_secs(3);
        for slow in [first.await.unwrap(), second.await.unwrap()] {
            assert!(
                slow[0] == Err(Stopped::TimedOut(limit)) || slow[0] == Err(Stopped::Busy(limit)),
                "{slow:?}"
            );
        }
    }

    #[tokio::test]
    async fn shutting_down_stops_what_runs_and_refuses_what_comes() {
        let computer = Computer::new(&limits(50, 30_000, 1));
        let running = tokio::spawn({
            let c = computer.clone();
            async move {
                c.run_each(vec![0, 30_000], |ms, control| busy(*ms, control))
                    .await
            }
        });
        tokio::time::sleep(Duration::from_millis(150)).await;
        let started = Instant::now();
        computer.shut_down();
        let out = running.await.unwrap();
        // Answered at once, not at the time limit; the finished item is kept.
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(out, vec![Ok(true), Err(Stopped::ShuttingDown)]);
        assert_eq!(
            computer.run_each(vec![1], |x, _| *x).await,
            vec![Err(Stopped::ShuttingDown)]
        );
    }

    #[tokio::test]
    async fn a_panic_is_a_failure_not_a_crash() {
        let computer = Computer::new(&limits(200, 5000, 1));
        let out: Vec<Result<u8, Stopped>> =
            computer.run_each(vec![()], |_, _| panic!("a bug")).await;
        assert_eq!(out, vec![Err(Stopped::Failed)]);
        assert_eq!(computer.run_each(vec![1], |x, _| *x).await, vec![Ok(1)]);
    }

    #[test]
    fn the_memory_guard_cancels_every_running_job_for_the_memory_limit() {
        let registry = Registry::default();
        let (control, reason) = (Control::new(), Arc::new(AtomicU8::new(0)));
        let id = registry.add(control.clone(), reason.clone());
        assert_eq!(registry.cancel_all(), 1);
        assert!(control.is_cancelled());
        assert_eq!(Reason::of(reason.load(Ordering::Relaxed)), Reason::Memory);
        registry.remove(id);
        assert_eq!(registry.cancel_all(), 0);
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 0));
        }
    }
}
