//! The library's parallel loops, with or without threads.
//!
//! With the default feature `parallel`, Monte Carlo runs, tuning sweeps and the
//! number-theoretic products spread their independent parts over rayon's threads.
//! Without it (a game that wants no thread pool, or a target with no threads),
//! the same loops run one part after another on the caller's thread.
//!
//! # Design decisions
//! - Every part draws from its own stream of the seed (`rng::stream(seed, part)`)
//!   and results are gathered in part order, so an answer does not depend on
//!   the number of threads, or on whether there are any.
//! - The loops are written once, with rayon's names (`into_par_iter`, `par_iter`,
//!   `par_iter_mut`, then `map` and `collect`); without the feature those names
//!   are the standard iterators, so no loop is written twice.

#[cfg(feature = "parallel")]
pub(crate) use rayon::current_num_threads;
#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::{
    IntoParallelIterator, IntoParallelRefIterator, IntoParallelRefMutIterator, ParallelIterator,
};

#[cfg(not(feature = "parallel"))]
pub(crate) use self::sequential::*;

/// Folds the parts' results into one, from `identity`, stopping at the first
/// error: rayon's `try_reduce`, or a fold in part order without threads.
#[cfg(feature = "parallel")]
pub(crate) fn try_reduce<T: Send, E: Send>(
    parts: impl ParallelIterator<Item = Result<T, E>>,
    identity: impl Fn() -> T + Sync + Send,
    op: impl Fn(T, T) -> Result<T, E> + Sync + Send,
) -> Result<T, E> {
    parts.try_reduce(identity, op)
}

/// See the threaded `try_reduce`.
#[cfg(not(feature = "parallel"))]
pub(crate) fn try_reduce<T, E>(
    mut parts: impl Iterator<Item = Result<T, E>>,
    identity: impl Fn() -> T,
    op: impl Fn(T, T) -> Result<T, E>,
) -> Result<T, E> {
    parts.try_fold(identity(), |all, part| op(all, part?))
}

#[cfg(not(feature = "parallel"))]
mod sequential {
    /// The threads parts run on: the caller's only.
    pub(crate) fn current_num_threads() -> usize {
        1
    }

    /// `into_par_iter` as a plain iterator.
    pub(crate) trait IntoParallelIterator: IntoIterator + Sized {
        /// The items one after another.
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<T: IntoIterator> IntoParallelIterator for T {}

    /// `par_iter` as a plain iterator over references.
    pub(crate) trait IntoParallelRefIterator<'a> {
        /// The iterator.
        type Iter: Iterator;
        /// The items one after another, by reference.
        fn par_iter(&'a self) -> Self::Iter;
    }

    impl<'a, T: 'a + ?Sized> IntoParallelRefIterator<'a> for T
    where
        &'a T: IntoIterator,
    {
        type Iter = <&'a T as IntoIterator>::IntoIter;
        fn par_iter(&'a self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// `par_iter_mut` as a plain iterator over mutable references.
    pub(crate) trait IntoParallelRefMutIterator<'a> {
        /// The iterator.
        type Iter: Iterator;
        /// The items one after another, mutably.
        fn par_iter_mut(&'a mut self) -> Self::Iter;
    }

    impl<'a, T: 'a + ?Sized> IntoParallelRefMutIterator<'a> for T
    where
        &'a mut T: IntoIterator,
    {
        type Iter = <&'a mut T as IntoIterator>::IntoIter;
        fn par_iter_mut(&'a mut self) -> Self::Iter {
            self.into_iter()
        }
    }
}
