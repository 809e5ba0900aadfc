//! Work budgets: how much an exact computation may do before it gives up, and a
//! flag that cancels it from another thread (the web server's time limit).
//!
//! The notation estimates a cost before computing and refuses what is clearly too
//! big; the meter is the safety net that also stops what the estimate missed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::die::DieError;

/// Counts work steps against a limit.
#[derive(Debug, Clone)]
pub struct Meter {
    limit: u64,
    used: u64,
    cancel: Option<Arc<AtomicBool>>,
}

impl Meter {
    /// A meter that never runs out.
    pub fn unlimited() -> Self {
        Meter {
            limit: u64::MAX,
            used: 0,
            cancel: None,
        }
    }

    /// A meter allowing `limit` steps.
    pub fn new(limit: u64) -> Self {
        Meter {
            limit,
            used: 0,
            cancel: None,
        }
    }

    /// Also stops when `flag` becomes true.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Steps used so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// The limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Records `steps` of work.
    ///
    /// # Errors
    /// [`DieError::BudgetExceeded`] past the limit; [`DieError::Cancelled`] once the
    /// cancel flag is set.
    #[inline]
    pub fn charge(&mut self, steps: u64) -> Result<(), DieError> {
        let before = self.used;
        self.used = self.used.saturating_add(steps);
        if self.used > self.limit {
            return Err(DieError::BudgetExceeded { limit: self.limit });
        }
        // Looking at the flag is cheap, but not free: do it at the first charge and
        // then every 4096 steps.
        if let Some(flag) = &self.cancel {
            let look = before == 0 || before >> 12 != self.used >> 12;
            if look && flag.load(Ordering::Relaxed) {
                return Err(DieError::Cancelled);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_cancellation() {
        let mut meter = Meter::new(10);
        assert!(meter.charge(10).is_ok());
        assert_eq!(meter.charge(1), Err(DieError::BudgetExceeded { limit: 10 }));
        let flag = Arc::new(AtomicBool::new(false));
        let mut meter = Meter::unlimited().with_cancel(flag.clone());
        assert!(meter.charge(5000).is_ok());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(meter.charge(5000), Err(DieError::Cancelled));
    }
}
