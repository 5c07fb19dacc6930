//! [`MemoryCap`]: a store's memory limit that remembers when it said no, so
//! a trap that follows is told apart from a guest fault: a guest whose
//! allocation fails aborts, and the abort alone does not say why.

use wasmtime::{ResourceLimiter, Result};

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
