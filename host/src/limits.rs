//! What bounds one call, in one place: its time (a deadline, checked by
//! guest code at every epoch tick and by host work between pieces of it),
//! a cancel, the grace a call that has begun changing files gets, and the
//! memory of a store. The same limits hold for the tools' store and for
//! the grammars' store a parse runs in.
//!
//! A [`Deadline`] stops host work done on a call's behalf: the host checks
//! it between pieces of that work, so a call never outlives its deadline by
//! more than one piece (64 KiB read, 1 MiB written, one directory entry).
//! Guest code is stopped at the next epoch tick ([`EPOCH_TICK`]) past it.
//! A call that has begun changing files is cut off only by a far later
//! deadline, never halfway between its steps.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use filetools_core::FsError;
use wasmtime::{ResourceLimiter, Result, Trap, UpdateDeadline};

/// Memory one session's guest may grow to.
pub const DEFAULT_MEMORY_LIMIT: usize = 256 * 1024 * 1024;
/// Time one call may run before it is interrupted.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the epoch ticks; call deadlines are counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The instant host work must stop by, or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub const NEVER: Self = Self(None);

    /// Host work must stop at `instant`.
    pub fn at(instant: Instant) -> Self {
        Self(Some(instant))
    }

    /// Whether the deadline has passed.
    pub fn passed(self) -> bool {
        self.0.is_some_and(|at| Instant::now() >= at)
    }

    /// An error once the deadline has passed.
    pub fn check(self) -> Result<(), FsError> {
        if self.passed() {
            return Err(FsError::Io(
                "the call's time limit passed during host work; nothing was changed".to_owned(),
            ));
        }
        Ok(())
    }
}

/// The limits of one call, as the epoch ticks of a store check them: its
/// deadline, its cancel flag and whether it has begun changing files.
#[derive(Debug, Clone)]
pub(crate) struct CallLimits {
    /// When guest code must stop.
    pub deadline: Deadline,
    /// Set by another thread to stop the call at the next tick.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Whether the call has begun changing files: from then on a cancel
    /// no longer stops it.
    pub changing: bool,
}

impl CallLimits {
    /// A call that must stop by `deadline`.
    pub(crate) fn until(deadline: Deadline) -> Self {
        Self {
            deadline,
            cancel: None,
            changing: false,
        }
    }
}

/// How many times the call's time limit a call that has begun changing
/// files may run before it is stopped all the same (a guest that loops):
/// the record it holds then lets the next call put its files back.
pub(crate) const CHANGE_GRACE: u32 = 10;

/// At each epoch tick of a call's store: the call stops if it was
/// cancelled (only before it began changing files) or ran past `deadline`.
pub(crate) fn tick(call: &CallLimits) -> Result<UpdateDeadline> {
    let cancelled = call
        .cancel
        .as_deref()
        .is_some_and(|c| c.load(Ordering::Relaxed));
    if !call.changing && cancelled {
        return Err(Cancelled.into());
    }
    if call.deadline.passed() {
        return Err(Trap::Interrupt.into());
    }
    Ok(UpdateDeadline::Continue(1))
}

/// The error a cancelled call stops with.
#[derive(Debug)]
pub(crate) struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the call was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Instances a store may hold: the component's own, with room to spare.
const MAX_INSTANCES: usize = 8;

/// Refuses memory growth beyond `limit` bytes and records the refusal.
#[derive(Debug, Clone)]
pub(crate) struct MemoryCap {
    limit: usize,
    refused: bool,
    /// Bytes of the store's memories, as grown so far.
    held: usize,
    /// What they held once the instance was ready.
    base: usize,
}

impl MemoryCap {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            refused: false,
            held: 0,
            base: 0,
        }
    }

    /// Bytes the store's memories grew by since the instance was ready
    /// (they never shrink).
    pub(crate) fn grown(&self) -> usize {
        self.held - self.base
    }

    /// Marks what the memories hold now as the ready instance's.
    pub(crate) fn ready(&mut self) {
        self.base = self.held;
    }

    /// The limit, in bytes.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Whether growth was refused since the last [`MemoryCap::clear`].
    pub(crate) fn refused(&self) -> bool {
        self.refused
    }

    /// Counts a refusal made elsewhere on the call's behalf (by the store
    /// of the grammars it parsed with).
    pub(crate) fn refuse(&mut self) {
        self.refused = true;
    }

    /// Forgets refusals, at the start of a call.
    pub(crate) fn clear(&mut self) {
        self.refused = false;
    }
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> Result<bool> {
        let allowed = desired <= self.limit;
        if !allowed && current == 0 {
            // The memory a module starts with: no call could ever run.
            wasmtime::bail!(
                "the memory limit of {} is below the {} the component needs to start; give at least {} MiB",
                mib(self.limit),
                mib(desired),
                desired.div_ceil(1 << 20)
            );
        }
        self.refused |= !allowed;
        if allowed {
            self.held += desired.saturating_sub(current);
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        _desired: usize,
        _maximum: Option<usize>,
    ) -> Result<bool> {
        Ok(true)
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }
}

/// `bytes` in MiB, for a person.
fn mib(bytes: usize) -> String {
    #[expect(clippy::cast_precision_loss, reason = "shown to one decimal")]
    let mib = bytes as f64 / f64::from(1 << 20);
    format!("{mib:.1} MiB")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_passed_deadline_is_an_error_and_never_is_not() {
        assert!(Deadline::NEVER.check().is_ok());
        assert!(
            Deadline::at(Instant::now() + Duration::from_mins(1))
                .check()
                .is_ok()
        );
        assert!(matches!(
            Deadline::at(Instant::now()).check(),
            Err(FsError::Io(_))
        ));
    }

    #[test]
    fn a_cancel_stops_a_call_only_before_it_changes_files() {
        let cancel = Arc::new(AtomicBool::new(true));
        let mut call = CallLimits {
            cancel: Some(Arc::clone(&cancel)),
            ..CallLimits::until(Deadline::NEVER)
        };
        let stopped = |call: &CallLimits| tick(call).err();
        assert!(stopped(&call).is_some_and(|err| err.is::<Cancelled>()));
        call.changing = true;
        assert!(matches!(tick(&call), Ok(UpdateDeadline::Continue(1))));
        call.deadline = Deadline::at(Instant::now());
        assert_eq!(
            stopped(&call).and_then(|err| err.downcast_ref::<Trap>().copied()),
            Some(Trap::Interrupt)
        );
    }
}
