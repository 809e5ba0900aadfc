//! The randomizers C code holds, kept in a table of slots and named by handles.
//!
//! A handle is not an address: it is a slot's index and the slot's generation,
//! shifted left one bit with the lowest bit set (so it is never NULL and never an
//! aligned address). Freeing a randomizer empties its slot and moves the slot to
//! its next generation, so a handle that was freed, or never given out, is found
//! out by comparing two integers, and nothing is read from freed memory. A draw
//! takes no lock: it reads the slot's chunk and generation with two atomic loads.
//! A slot holds its randomizer in place, so a draw follows no further pointer.
//! Chunks of 64 slots (32 KiB) are allocated as needed and kept for the life of
//! the process: 32 KiB per 64 randomizers open at once at the peak.
//!
//! The contract C code keeps (the header says it): one randomizer is used by one
//! thread at a time; different randomizers may be used on different threads at
//! once, and opening and freeing are safe from any thread.

use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use fairdice::randomizer::Session;

/// Slots per chunk.
const CHUNK_SLOTS: usize = 64;
/// Chunks at most: 1,048,576 randomizers open at once.
const MAX_CHUNKS: usize = 16384;
/// The most randomizers open at once.
pub(crate) const MAX_OPEN: usize = CHUNK_SLOTS * MAX_CHUNKS;
/// Bits of a handle that hold the slot's index.
const INDEX_BITS: u32 = MAX_OPEN.trailing_zeros();
/// The generations a slot counts through before it starts again (2^42 on 64-bit
/// targets, 2^11 on 32-bit ones).
const GENERATION_MASK: usize = usize::MAX >> (INDEX_BITS + 1);

/// Why a handle names no open randomizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleError {
    /// The handle is NULL.
    Null,
    /// The handle was never given out by this library.
    Unknown,
    /// The randomizer was freed.
    Freed,
    /// [`MAX_OPEN`] randomizers are open already.
    Full,
}

impl HandleError {
    /// What went wrong, for `fairdice_last_error`.
    pub fn message(self) -> String {
        match self {
            HandleError::Null => "the randomizer is NULL".to_string(),
            HandleError::Unknown => "not a randomizer of this library (a handle from \
                                    fairdice_randomizer_new or fairdice_randomizer_restore)"
                .to_string(),
            HandleError::Freed => {
                "the randomizer was freed (fairdice_randomizer_free); it can no longer be used"
                    .to_string()
            }
            HandleError::Full => format!(
                "{MAX_OPEN} randomizers are open already; free some with fairdice_randomizer_free"
            ),
        }
    }
}

/// One randomizer's place: its generation, and its session while it is open.
struct Slot {
    generation: AtomicUsize,
    session: UnsafeCell<Option<Session>>,
}

// SAFETY: a slot's session is written only by `open` and `close`, under the
// allocator's lock, while no handle of its current generation is in use by another
// thread (a free slot has none given out; `close` is the handle's last use, by the
// contract above). `with` reads it only through a handle of its current
// generation, on the one thread using that randomizer.
unsafe impl Sync for Slot {}

type Chunk = [Slot; CHUNK_SLOTS];

/// The chunks, allocated as slots are first needed and never freed.
static CHUNKS: [AtomicPtr<Chunk>; MAX_CHUNKS] =
    [const { AtomicPtr::new(ptr::null_mut()) }; MAX_CHUNKS];

/// Free slots, and how many slots were ever used.
struct Allocator {
    free: Vec<usize>,
    used: usize,
}

static ALLOCATOR: Mutex<Allocator> = Mutex::new(Allocator {
    free: Vec::new(),
    used: 0,
});

fn encode(index: usize, generation: usize) -> usize {
    (((generation & GENERATION_MASK) << INDEX_BITS) | index) << 1 | 1
}

/// The slot a handle names and the generation it was given out with.
#[inline]
fn decode(handle: usize) -> Result<(&'static Slot, usize), HandleError> {
    // One test on the draw path: NULL is even too.
    if handle & 1 == 0 {
        return Err(if handle == 0 {
            HandleError::Null
        } else {
            HandleError::Unknown
        });
    }
    let index = (handle >> 1) & (MAX_OPEN - 1);
    let generation = handle >> (INDEX_BITS + 1);
    let chunk = CHUNKS[index / CHUNK_SLOTS].load(Ordering::Acquire);
    if chunk.is_null() {
        return Err(HandleError::Unknown);
    }
    // SAFETY: a non-null chunk pointer came from `Box::into_raw` in `open` and is
    // never freed, and its slots are only ever shared (`Slot` is `Sync`).
    let slot = unsafe { &(*chunk)[index % CHUNK_SLOTS] };
    Ok((slot, generation))
}

/// The slot of `handle` if it is the slot's current generation.
#[inline]
fn current(handle: usize) -> Result<&'static Slot, HandleError> {
    let (slot, generation) = decode(handle)?;
    if slot.generation.load(Ordering::Acquire) != generation {
        return Err(HandleError::Freed);
    }
    Ok(slot)
}

/// Keeps `session` in a free slot and returns its handle.
pub fn open(session: Session) -> Result<usize, HandleError> {
    let mut allocator = ALLOCATOR.lock().unwrap_or_else(PoisonError::into_inner);
    let index = match allocator.free.pop() {
        Some(index) => index,
        None if allocator.used == MAX_OPEN => return Err(HandleError::Full),
        None => {
            let index = allocator.used;
            let place = &CHUNKS[index / CHUNK_SLOTS];
            if place.load(Ordering::Acquire).is_null() {
                let chunk: Box<Chunk> = Box::new(std::array::from_fn(|_| Slot {
                    generation: AtomicUsize::new(0),
                    session: UnsafeCell::new(None),
                }));
                place.store(Box::into_raw(chunk), Ordering::Release);
            }
            allocator.used += 1;
            index
        }
    };
    let chunk = CHUNKS[index / CHUNK_SLOTS].load(Ordering::Acquire);
    // SAFETY: the chunk was allocated above or before and is never freed.
    let slot = unsafe { &(*chunk)[index % CHUNK_SLOTS] };
    // SAFETY: the slot is free and the allocator is locked: no handle of its current
    // generation has been given out, so nothing else reads or writes its session.
    unsafe { *slot.session.get() = Some(session) };
    Ok(encode(index, slot.generation.load(Ordering::Acquire)))
}

/// Calls `f` on the open randomizer of `handle`.
///
/// # Safety
/// No other thread uses `handle` during the call.
#[inline]
pub unsafe fn with<R>(handle: usize, f: impl FnOnce(&mut Session) -> R) -> Result<R, HandleError> {
    let slot = current(handle)?;
    // SAFETY: the handle is of the slot's current generation and, by the caller's
    // promise, used by this thread alone; `open` and `close` write the session only
    // when no other thread holds it, so this is the only reference.
    let session = unsafe { &mut *slot.session.get() };
    match session.as_mut() {
        Some(session) => Ok(f(session)),
        None => Err(HandleError::Freed),
    }
}

/// Frees the randomizer of `handle`: its slot is emptied and moves to its next
/// generation, so the handle is refused from now on.
///
/// # Safety
/// No other thread uses `handle` during or after the call.
pub unsafe fn close(handle: usize) -> Result<(), HandleError> {
    let session = {
        let mut allocator = ALLOCATOR.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = current(handle)?;
        // SAFETY: the allocator is locked and, by the caller's promise, no other
        // thread uses this handle, the only one of the slot's generation.
        let session = unsafe { (*slot.session.get()).take() };
        if session.is_none() {
            return Err(HandleError::Freed);
        }
        // The last generation is skipped: with the last index, its handle would be
        // all ones, which C# takes for an invalid handle (-1).
        let generation = slot.generation.load(Ordering::Acquire) + 1;
        let generation = if generation >= GENERATION_MASK {
            0
        } else {
            generation
        };
        slot.generation.store(generation, Ordering::Release);
        allocator.free.push((handle >> 1) & (MAX_OPEN - 1));
        session
    };
    drop(session);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::seeded("dice(values=6)", 1).unwrap()
    }

    #[test]
    fn a_freed_handle_is_refused_even_once_its_slot_is_used_again() {
        let first = open(session()).unwrap();
        // SAFETY: this test's handles are used on this thread only.
        unsafe {
            assert!(with(first, |s| s.draw()).is_ok());
            close(first).unwrap();
            assert_eq!(with(first, |s| s.draw()), Err(HandleError::Freed));
            assert_eq!(close(first), Err(HandleError::Freed));
            let second = open(session()).unwrap();
            assert_ne!(first, second);
            assert_eq!(with(first, |s| s.draw()), Err(HandleError::Freed));
            assert!(with(second, |s| s.draw()).is_ok());
            close(second).unwrap();
        }
    }

    #[test]
    fn null_and_foreign_handles_are_refused() {
        // SAFETY: these handles name no randomizer; nothing is read through them.
        unsafe {
            assert_eq!(with(0, |s| s.draw()), Err(HandleError::Null));
            assert_eq!(with(8, |s| s.draw()), Err(HandleError::Unknown));
            assert_eq!(close(usize::MAX), Err(HandleError::Unknown));
            let far = encode(MAX_OPEN - 1, 0);
            assert_eq!(with(far, |s| s.draw()), Err(HandleError::Unknown));
        }
    }

    #[test]
    fn randomizers_open_and_draw_on_many_threads_at_once() {
        let threads: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    let mut drawn = Vec::new();
                    for round in 0..200u64 {
                        let handle =
                            open(Session::seeded("deck(values=6)", t * 1000 + round).unwrap())
                                .unwrap();
                        // SAFETY: each handle is used by the thread that opened it.
                        unsafe {
                            drawn.push(with(handle, |s| s.draw()).unwrap());
                            close(handle).unwrap();
                        }
                    }
                    drawn
                })
            })
            .collect();
        for (t, thread) in threads.into_iter().enumerate() {
            let drawn = thread.join().unwrap();
            let expected: Vec<usize> = (0..200u64)
                .map(|round| {
                    Session::seeded("deck(values=6)", t as u64 * 1000 + round)
                        .unwrap()
                        .draw()
                })
                .collect();
            assert_eq!(drawn, expected);
        }
    }

    /// The sessions live in their slots (a draw follows no pointer to them), so a
    /// chunk's size is what a game pays for its first randomizer.
    #[test]
    fn a_chunk_of_slots_is_small() {
        let bytes = std::mem::size_of::<Chunk>();
        println!("a chunk of {CHUNK_SLOTS} slots: {bytes} bytes");
        assert!(bytes <= 48 << 10, "{bytes} bytes");
    }
}
