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
//! walk (its state and count types), a few kinds at most, each only while it holds
//! no more than [`KEPT_BYTES`].

use std::any::Any;
use std::cell::RefCell;

use super::buckets::{Buckets, Scratch};
use super::plan::Code;
use crate::dice::count::Count;

/// The most storage a kept workspace may hold, estimated from its capacities.
const KEPT_BYTES: usize = 32 << 20;

/// The most kinds of walk whose workspaces a thread keeps; the oldest goes first.
const KEPT_KINDS: usize = 8;

thread_local! {
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
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
                let at = kept.iter().position(|w| w.as_ref().is::<Self>())?;
                kept.swap_remove(at).downcast::<Self>().ok()
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
    /// kind, unless it holds more than [`KEPT_BYTES`].
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
                if kept.len() >= KEPT_KINDS {
                    kept.remove(0);
                }
                kept.push(Box::new(self));
            }
        });
    }
}
