//! [`Workspace`]: a walk's layers of buckets and scratch space, kept on the thread
//! between evaluations.
//!
//! # Design decisions
//! A walk of a large pool grows its layers to hundreds of kilobytes
//! (`{60d4+60d6+60d8}kh30`: about 400 KiB of states). Freed at its end, they leave
//! the top of the heap empty, the allocator hands it back to the system, and the next
//! evaluation faults every page in again and regrows every table: 146 page faults a
//! call of that pool (12 with the layers kept). So a walk
//! takes its emptied layers from the thread and gives them back when it ends. Only
//! storage is kept, never a state or a weight: every set is emptied and every look-up
//! table forgotten before a workspace is put away. One workspace is kept per kind of
//! walk (its state and count types), a few kinds at most, and a thread keeps no more
//! than [`KEPT_BYTES`] in all: a server's threads keep a bounded amount whatever
//! they were asked.

use std::any::Any;
use std::cell::RefCell;

use super::buckets::{Buckets, Scratch};
use super::plan::Code;
use crate::dice::count::Count;

/// The most storage a thread keeps in all its workspaces, estimated from their
/// capacities.
const KEPT_BYTES: usize = 32 << 20;

/// The most kinds of walk whose workspaces a thread keeps; the oldest goes first.
const KEPT_KINDS: usize = 8;

thread_local! {
    /// The kept workspaces with the bytes each holds, oldest first.
    static KEPT: RefCell<Vec<(usize, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// The two layers of a walk (the current one and the next) and its scratch space.
pub(super) struct Workspace<S, C, W> {
    pub(super) buckets: Buckets<S, C, W>,
    pub(super) spare: Buckets<S, C, W>,
    pub(super) scratch: Scratch<S, C, W>,
}

impl<S: Clone + Eq + std::hash::Hash + 'static, C: Count, W: Count> Workspace<S, C, W> {
    /// The thread's kept workspace for this kind of walk, set up for a walk whose
    /// states are numbered when `indexed` (see [`Buckets::new`] for the rest), or a
    /// new one.
    pub(super) fn take(indexed: bool, table_codes: Code, apart: bool) -> Self {
        let kept = KEPT
            .try_with(|kept| {
                let mut kept = kept.try_borrow_mut().ok()?;
                let at = kept.iter().position(|(_, w)| w.as_ref().is::<Self>())?;
                kept.remove(at).1.downcast::<Self>().ok()
            })
            .ok()
            .flatten();
        match kept {
            Some(mut workspace) => {
                workspace.buckets.reset(indexed, table_codes, apart);
                workspace.spare.reset(indexed, table_codes, apart);
                *workspace
            }
            None => Workspace {
                buckets: Buckets::new(indexed, table_codes, apart),
                spare: Buckets::new(indexed, table_codes, apart),
                scratch: Scratch::default(),
            },
        }
    }

    /// Empties the workspace and keeps it on the thread for the next walk of its
    /// kind, dropping the oldest kept ones until the thread holds at most
    /// [`KEPT_KINDS`] workspaces and [`KEPT_BYTES`]; a workspace larger than that
    /// alone is dropped.
    pub(super) fn keep(mut self) {
        self.buckets.forget_all();
        self.spare.forget_all();
        self.scratch.clear();
        let bytes = self.buckets.bytes() + self.spare.bytes() + self.scratch.bytes();
        if bytes > KEPT_BYTES {
            return;
        }
        let _ = KEPT.try_with(|kept| {
            if let Ok(mut kept) = kept.try_borrow_mut() {
                let mut held: usize = kept.iter().map(|(b, _)| b).sum();
                while !kept.is_empty() && (kept.len() >= KEPT_KINDS || held + bytes > KEPT_BYTES) {
                    held -= kept.remove(0).0;
                }
                kept.push((bytes, Box::new(self)));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept workspaces of this thread: how many, and the bytes they hold.
    fn kept() -> (usize, usize) {
        KEPT.with(|kept| {
            let kept = kept.borrow();
            (kept.len(), kept.iter().map(|(b, _)| b).sum())
        })
    }

    /// A workspace of states `S` whose scratch space has room for `states` states.
    fn kept_with<S: Clone + Eq + std::hash::Hash + 'static>(states: usize) {
        let mut space = Workspace::<S, u64, u64>::take(true, 64, true);
        space.scratch.states.reserve(states);
        space.keep();
    }

    #[test]
    fn a_thread_keeps_a_bounded_number_of_workspaces_and_bytes() {
        // A fresh thread, so the walks of other tests do not count.
        std::thread::spawn(|| {
            kept_with::<u8>(10);
            kept_with::<u16>(10);
            kept_with::<u8>(10);
            assert_eq!(kept().0, 2, "one workspace a kind");
            kept_with::<u32>(0);
            kept_with::<u64>(0);
            kept_with::<i8>(0);
            kept_with::<i16>(0);
            kept_with::<i32>(0);
            kept_with::<i64>(0);
            kept_with::<(u8, u8)>(0);
            assert_eq!(kept().0, KEPT_KINDS, "the oldest kinds go first");
            // Two workspaces of 20 MiB each: the second pushes out everything before it.
            let states = (20 << 20) / std::mem::size_of::<(u8, u64)>();
            kept_with::<u8>(states);
            let (_, bytes) = kept();
            assert!(bytes > 20 << 20 && bytes <= KEPT_BYTES, "{bytes}");
            kept_with::<u16>(states);
            let (count, bytes) = kept();
            assert_eq!(count, 1);
            assert!(bytes > 20 << 20 && bytes <= KEPT_BYTES, "{bytes}");
            // One larger than the whole allowance is not kept at all.
            kept_with::<u32>(2 * states);
            assert_eq!(kept().0, 1);
        })
        .join()
        .unwrap();
    }
}
