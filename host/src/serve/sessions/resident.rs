//! The sessions kept in memory: one slot per session key, taken in turns;
//! what their instances hold, kept under a budget; and letting go of the
//! idle, the least recently used beyond the count, and beyond the budget.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use super::lock;
use crate::Session;

/// How often a call waiting for its session's slot looks again.
const TURN_POLL: Duration = Duration::from_millis(1);

/// How long sessions stay in memory, and how many, and how much.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A session idle this long leaves memory.
    pub idle: Duration,
    /// At most this many sessions stay in memory; the least recently used
    /// leave first.
    pub resident: usize,
    /// The sessions in memory hold at most this many bytes of instance
    /// memory between calls beyond what a new session holds; the least
    /// recently used leave first.
    pub resident_bytes: usize,
    /// A lease lasts this long unless renewed (a running call renews it)
    /// or given back: how long a replica that died holds a session up.
    pub lease: Duration,
    /// A call waits this long in all for its session (its slot here, then
    /// its lease) and for a turn to run.
    pub lease_wait: Duration,
}

/// One session in memory, with the stored version it matches.
#[derive(Debug, Default)]
pub(super) struct Slot {
    pub session: Option<Session>,
    pub version: u64,
    pub lines: usize,
    /// Bytes of the stored log, and of it when last written whole.
    pub log_bytes: usize,
    pub whole_bytes: usize,
    pub used: Option<Instant>,
    /// The instance memory counted for it in [`Resident::bytes`].
    bytes: usize,
}

/// Every slot, and the instance memory they hold.
#[derive(Debug, Default)]
pub(super) struct Resident {
    slots: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    bytes: AtomicUsize,
}

impl Resident {
    /// The slot of `key`, made empty when missing.
    pub fn slot(&self, key: &str) -> Arc<Mutex<Slot>> {
        Arc::clone(lock(&self.slots).entry(key.to_owned()).or_default())
    }

    /// Counts what `slot`'s instance holds now (after a call).
    pub fn settle(&self, slot: &mut Slot) {
        let now = slot.session.as_ref().map_or(0, Session::memory_bytes);
        if now >= slot.bytes {
            self.bytes.fetch_add(now - slot.bytes, Ordering::Relaxed);
        } else {
            self.bytes.fetch_sub(slot.bytes - now, Ordering::Relaxed);
        }
        slot.bytes = now;
    }

    /// Whether the sessions in memory hold more than `limits` allow.
    pub fn over(&self, limits: &Limits) -> bool {
        self.bytes.load(Ordering::Relaxed) > limits.resident_bytes
    }

    /// Lets go of the sessions idle past the limit, then the least
    /// recently used beyond the count and the budget (their stored logs
    /// stay). Only a slot no call holds goes: under the map's lock nobody
    /// can take one, so a slot whose only holder is the map is free.
    pub fn evict(&self, limits: &Limits) {
        let mut slots = lock(&self.slots);
        let mut kept: Vec<(Instant, String)> = Vec::new();
        slots.retain(|key, slot| {
            if Arc::strong_count(slot) > 1 {
                return true;
            }
            let used = free(slot).used;
            match used {
                Some(used) if used.elapsed() >= limits.idle => {
                    self.let_go(&mut free(slot));
                    false
                }
                Some(used) => {
                    kept.push((used, key.clone()));
                    true
                }
                None => true,
            }
        });
        kept.sort();
        let mut count = kept.len();
        for (_, key) in kept {
            if count <= limits.resident && !self.over(limits) {
                break;
            }
            if let Some(slot) = slots.remove(&key) {
                self.let_go(&mut free(&slot));
            }
            count -= 1;
        }
    }

    /// Drops a slot's session and what it counted.
    fn let_go(&self, slot: &mut Slot) {
        self.bytes.fetch_sub(slot.bytes, Ordering::Relaxed);
        slot.bytes = 0;
        slot.session = None;
    }
}

/// A slot only the map holds, locked (a poisoned one too).
fn free(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    lock(slot)
}

/// Waits for `slot` until `deadline`; `None` when it stays busy. A slot
/// whose last call panicked loses its session (the instance is not
/// trusted), once.
pub(super) fn turn(slot: &Mutex<Slot>, deadline: Instant) -> Option<MutexGuard<'_, Slot>> {
    loop {
        match slot.try_lock() {
            Ok(held) => return Some(held),
            Err(TryLockError::Poisoned(poisoned)) => {
                let mut held = poisoned.into_inner();
                slot.clear_poison();
                held.session = None;
                held.version = 0;
                return Some(held);
            }
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(TURN_POLL);
            }
            Err(TryLockError::WouldBlock) => return None,
        }
    }
}

/// A count of calls that may run at once, taken in turns.
#[derive(Debug)]
pub(super) struct Running {
    free: Mutex<usize>,
    freed: std::sync::Condvar,
}

/// A turn to run, given back when dropped.
pub(super) struct RunTurn<'a>(&'a Running);

impl Drop for RunTurn<'_> {
    fn drop(&mut self) {
        *lock(&self.0.free) += 1;
        self.0.freed.notify_one();
    }
}

impl Running {
    pub fn new(calls: usize) -> Self {
        Self {
            free: Mutex::new(calls.max(1)),
            freed: std::sync::Condvar::new(),
        }
    }

    /// A turn, waiting until `deadline`; `None` when none came.
    pub fn take(&self, deadline: Instant) -> Option<RunTurn<'_>> {
        let free = lock(&self.free);
        let wait = deadline.saturating_duration_since(Instant::now());
        let (mut free, _) = self
            .freed
            .wait_timeout_while(free, wait, |free| *free == 0)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *free == 0 {
            return None;
        }
        *free -= 1;
        Some(RunTurn(self))
    }
}
