//! The requests open now: each holds one of [`MAX_OPEN`] permits from the
//! moment it is read until its answer is written, or, when the client
//! cancelled it, until the call has ended and its answer been dropped (MCP
//! asks that a cancelled request get none). While every permit is held,
//! the requests read wait in a bounded queue and the server goes on reading
//! only to see cancels; once that queue is full it reads no more, so the
//! work queued behind a client that stops reading, or that cancels calls
//! faster than they end, stays bounded; and an id stays in use until its call has ended, so a request
//! that reuses it never gets another call's answer.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::RequestId;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

/// Requests open at once; past this the server reads no more input until
/// one is answered.
pub const MAX_OPEN: usize = 64;

/// One open request.
struct Request {
    _permit: OwnedSemaphorePermit,
    /// Set when the client cancels it; the call watches it.
    cancelled: Arc<AtomicBool>,
}

/// The open requests, shared by the reader, the calls and the writer.
#[derive(Clone, Default)]
pub(super) struct Open {
    permits: Arc<Permits>,
    requests: Arc<Mutex<HashMap<RequestId, Request>>>,
}

/// The semaphore of [`MAX_OPEN`] permits.
struct Permits(Arc<Semaphore>);

impl Default for Permits {
    fn default() -> Self {
        Self(Arc::new(Semaphore::new(MAX_OPEN)))
    }
}

impl std::fmt::Debug for Open {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Open({} requests)", self.requests().len())
    }
}

impl Open {
    fn requests(&self) -> MutexGuard<'_, HashMap<RequestId, Request>> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether request `id` is open.
    pub(super) fn holds(&self, id: &RequestId) -> bool {
        self.requests().contains_key(id)
    }

    /// Opens request `id` when a permit is free now: `Some(true)` when it
    /// opened, `Some(false)` when every permit is held, `None` when the
    /// server is stopping.
    pub(super) fn try_open(&self, id: &RequestId) -> Option<bool> {
        match Arc::clone(&self.permits.0).try_acquire_owned() {
            Ok(permit) => {
                self.open_with(id.clone(), permit);
                Some(true)
            }
            Err(TryAcquireError::NoPermits) => Some(false),
            Err(TryAcquireError::Closed) => None,
        }
    }

    /// A permit, once one is free; `None` when the server is stopping.
    pub(super) async fn permit(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.permits.0).acquire_owned().await.ok()
    }

    /// Opens request `id` with `permit`.
    pub(super) fn open_with(&self, id: RequestId, permit: OwnedSemaphorePermit) {
        let request = Request {
            _permit: permit,
            cancelled: Arc::default(),
        };
        self.requests().insert(id, request);
    }

    /// The flag that tells request `id`'s call the client cancelled it.
    pub(super) fn cancel_flag(&self, id: &RequestId) -> Arc<AtomicBool> {
        self.requests()
            .get(id)
            .map(|request| Arc::clone(&request.cancelled))
            .unwrap_or_default()
    }

    /// The client cancelled request `id`: its call stops if it can, and its
    /// answer will not be written.
    pub(super) fn cancel(&self, id: &RequestId) {
        if let Some(request) = self.requests().get(id) {
            request.cancelled.store(true, Ordering::Relaxed);
        }
    }

    /// Request `id` has its answer: closes it, and says whether to write
    /// the answer (not when the client cancelled the request).
    pub(super) fn answered(&self, id: &RequestId) -> bool {
        self.requests()
            .remove(id)
            .is_none_or(|request| !request.cancelled.load(Ordering::Relaxed))
    }

    /// Waits until every open request is answered (or the server stops).
    pub(super) async fn all_answered(&self) {
        let all = u32::try_from(MAX_OPEN).unwrap_or(u32::MAX);
        let _ = self.permits.0.acquire_many(all).await;
    }

    /// Nothing more will be answered: every wait ends.
    pub(super) fn end(&self) {
        self.permits.0.close();
    }
}
