//! Running a computation away from the interpreter: on a worker thread, with the
//! GIL released, while the calling thread keeps looking for Ctrl-C and pulls the
//! [`Control`]'s cancel switch when it comes.
//!
//! # Design decisions
//! - CPython runs signal handlers only on the main thread, between bytecodes; a
//!   computation holding that thread in Rust would make Ctrl-C wait for it. So the
//!   computation runs on a worker and the caller waits for it in slices of
//!   [`POLL`], the GIL released, calling `PyErr_CheckSignals` between slices. A
//!   `KeyboardInterrupt` cancels the control and is raised once the worker has
//!   stopped (every long computation of fairdice looks at the switch within
//!   milliseconds), so nothing runs on after Python has moved on.
//! - Workers are kept: starting a thread costs about 20 µs, handing a job to a
//!   waiting one about 5 µs, and a first call after import should be quick. A job
//!   takes an idle worker or starts one, so a job never waits behind another (a
//!   shared pool such as rayon's would queue it behind a long Monte Carlo run).
//! - A panic in a computation is caught on the worker and raised as fairdice's
//!   internal error: it never takes the interpreter down.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::Duration;

use fairdice::Control;
use fairdice_api::Error;
use pyo3::prelude::*;

use crate::error::raise;

/// How often a waiting caller looks for signals.
pub const POLL: Duration = Duration::from_millis(20);

/// A job for a worker: it sends its own result.
type Job = Box<dyn FnOnce() + Send>;

/// The job queues of idle workers.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

/// Starts one worker ahead of the first call (module import).
pub fn warm_up() {
    let worker = start_worker();
    lock_idle().push(worker);
}

fn lock_idle() -> std::sync::MutexGuard<'static, Vec<Sender<Job>>> {
    // A poisoned list only means a thread panicked while pushing or popping a
    // sender; the list itself is intact.
    IDLE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A new worker thread, waiting for jobs on the returned queue. After each job it
/// puts its queue back on the idle list.
fn start_worker() -> Sender<Job> {
    let (sender, jobs) = mpsc::channel::<Job>();
    let own = sender.clone();
    std::thread::Builder::new()
        .name("fairdice-worker".into())
        // The notation parser and evaluators recurse once per nesting level.
        .stack_size(8 << 20)
        .spawn(move || serve(&jobs, &own))
        .expect("the system can start a thread");
    sender
}

fn serve(jobs: &Receiver<Job>, own: &Sender<Job>) {
    while let Ok(job) = jobs.recv() {
        job();
        lock_idle().push(own.clone());
    }
}

/// Hands `job` to an idle worker, or to a new one.
fn dispatch(job: Job) {
    let mut job = job;
    loop {
        let worker = lock_idle().pop();
        let Some(worker) = worker else {
            let worker = start_worker();
            if let Err(returned) = worker.send(job) {
                job = returned.0;
                continue;
            }
            return;
        };
        match worker.send(job) {
            Ok(()) => return,
            // That worker is gone (it cannot be, but then try another).
            Err(returned) => job = returned.0,
        }
    }
}

/// The control of a call: the default budget of the command line, or
/// `max_steps` when given.
pub fn control(max_steps: Option<u64>) -> Control {
    match max_steps {
        Some(steps) => Control::new().with_max_steps(steps),
        None => Control::new(),
    }
}

/// Runs `job` under `control` on a worker with the GIL released, raising its error
/// as fairdice's exception, and `KeyboardInterrupt` (after cancelling the job) when
/// the user interrupts.
///
/// # Errors
/// The job's [`Error`] as a Python exception; the interrupt; an internal error if
/// the job panicked.
pub fn run<T, F>(py: Python<'_>, control: &Control, job: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&Control) -> Result<T, Error> + Send + 'static,
{
    let (sender, result) = mpsc::sync_channel(1);
    let worker_control = control.clone();
    dispatch(Box::new(move || {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| job(&worker_control)));
        // The caller may have gone (it cannot, it waits): nothing to report to.
        let _ = SyncSender::send(&sender, outcome.map_err(panic_message));
    }));
    let mut result = result;
    loop {
        // The receiver goes to the detached closure and back: it is not `Sync`.
        let (receiver, received) = py.detach(move || {
            let received = result.recv_timeout(POLL);
            (result, received)
        });
        result = receiver;
        match received {
            Ok(outcome) => return finish(py, outcome),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    control.cancel();
                    // The job stops at its next look at the switch.
                    let _ = py.detach(move || result.recv());
                    return Err(interrupt);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(raise(
                    py,
                    &Error::internal("a fairdice worker stopped without an answer"),
                ));
            }
        }
    }
}

/// Runs `job` on the calling thread with the GIL held: for work known to take
/// microseconds, where a hand-off would cost more than the work.
///
/// # Errors
/// As [`run`], without the interrupt.
pub fn run_here<T>(
    py: Python<'_>,
    control: &Control,
    job: impl FnOnce(&Control) -> Result<T, Error>,
) -> PyResult<T> {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| job(control)));
    finish(py, outcome.map_err(panic_message))
}

fn finish<T>(py: Python<'_>, outcome: Result<Result<T, Error>, String>) -> PyResult<T> {
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(raise(py, &error)),
        Err(message) => Err(raise(
            py,
            &Error::internal(format!("fairdice panicked: {message}")),
        )),
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}
