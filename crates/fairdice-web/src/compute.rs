//! [`Computer`]: runs a request's computations off the async threads, a few at a
//! time, under the command line's budget and a wall-clock limit that really stops
//! them.
//!
//! # Design decisions
//! A request's items (the expressions of a page) run one after another on one
//! blocking thread holding one permit, and report each result as it finishes, so
//! when the clock runs out the page still shows what was done and says which
//! expression was stopped. Stopping is cooperative: the time limit cancels the
//! job's [`Control`], whose cancel switch every computation looks at, so the
//! thread is freed within moments and its permit returns to the pool. The control
//! is also cancelled if the client goes away (the request's future is dropped).

use std::sync::Arc;
use std::time::Duration;

use fairdice::Control;
use tokio::sync::{Semaphore, mpsc};
use tokio::time::{Instant, timeout_at};

/// Why an item produced no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// The time limit ran out before or while it was computed.
    TimedOut(Duration),
    /// Other computations held every slot for the whole time limit.
    Busy(Duration),
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
            Stopped::Failed => f.write_str("the computation failed unexpectedly"),
        }
    }
}

/// Runs computations with a bounded number at once and a time limit.
#[derive(Debug, Clone)]
pub(crate) struct Computer {
    permits: Arc<Semaphore>,
    time_limit: Duration,
}

/// Cancels the control when dropped: on every exit from [`Computer::run_each`],
/// including the request being abandoned.
struct CancelOnDrop(Control);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Computer {
    /// A computer running at most `max_concurrent` requests' work at once, each
    /// within `time_limit`.
    pub fn new(max_concurrent: usize, time_limit: Duration) -> Computer {
        Computer {
            permits: Arc::new(Semaphore::new(max_concurrent.max(1))),
            time_limit,
        }
    }

    /// Applies `work` to each item in order on a blocking thread, under a
    /// [`Control`] with the command line's default budget that the time limit
    /// cancels; returns each item's result, or why it has none.
    pub async fn run_each<I, T, F>(&self, items: Vec<I>, work: F) -> Vec<Result<T, Stopped>>
    where
        I: Send + 'static,
        T: Send + 'static,
        F: Fn(&I, &Control) -> T + Send + 'static,
    {
        let n = items.len();
        let deadline = Instant::now() + self.time_limit;
        let permit = match timeout_at(deadline, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                return (0..n)
                    .map(|_| Err(Stopped::Busy(self.time_limit)))
                    .collect();
            }
        };
        let control = Control::new();
        let _guard = CancelOnDrop(control.clone());
        let (sender, mut receiver) = mpsc::unbounded_channel();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            for (i, item) in items.iter().enumerate() {
                if control.is_cancelled() {
                    break;
                }
                if sender.send((i, work(item, &control))).is_err() {
                    break;
                }
            }
        });
        let mut results: Vec<Option<T>> = (0..n).map(|_| None).collect();
        let mut timed_out = false;
        loop {
            match timeout_at(deadline, receiver.recv()).await {
                Ok(Some((i, result))) => results[i] = Some(result),
                Ok(None) => break,
                Err(_) => {
                    timed_out = true;
                    break;
                }
            }
        }
        let missing = if timed_out {
            Stopped::TimedOut(self.time_limit)
        } else {
            Stopped::Failed
        };
        results
            .into_iter()
            .map(|r| r.ok_or_else(|| missing.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn results_come_back_in_order() {
        let computer = Computer::new(2, Duration::from_secs(5));
        let out = computer.run_each(vec![1, 2, 3], |x, _| x * 10).await;
        assert_eq!(out, vec![Ok(10), Ok(20), Ok(30)]);
    }

    #[tokio::test]
    async fn the_time_limit_cancels_and_keeps_what_finished() {
        let computer = Computer::new(1, Duration::from_millis(200));
        let out = computer
            .run_each(vec![false, true, false], |slow, control| {
                while *slow && !control.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                *slow
            })
            .await;
        let limit = Duration::from_millis(200);
        assert_eq!(
            out,
            vec![
                Ok(false),
                Err(Stopped::TimedOut(limit)),
                Err(Stopped::TimedOut(limit))
            ]
        );
        // The permit came back: the next request runs.
        assert_eq!(computer.run_each(vec![7], |x, _| *x).await, vec![Ok(7)]);
    }

    #[tokio::test]
    async fn a_panic_is_a_failure_not_a_crash() {
        let computer = Computer::new(1, Duration::from_secs(5));
        let out: Vec<Result<u8, Stopped>> =
            computer.run_each(vec![()], |_, _| panic!("a bug")).await;
        assert_eq!(out, vec![Err(Stopped::Failed)]);
        assert_eq!(computer.run_each(vec![1], |x, _| *x).await, vec![Ok(1)]);
    }
}
