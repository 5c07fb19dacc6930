//! `host-fs.scan-start` and `scan-results`: many files scanned at once,
//! natively, on threads of the host's own while the guest walks on, each
//! file by the guest's own scan ([`BatchScanner`], the code the component
//! runs for one file), so a `grep` over a tree finds what it would find one
//! file at a time, only sooner.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use filetools_core::{BatchScanner, FsError, ScanFile, ScanOutcome, ScanRequest};

use crate::backend::Backend;
use crate::limits::Deadline;
use crate::sandbox::KeptOpen;

/// Threads scanning one batch at most, however many cores there are.
pub const MAX_SCAN_THREADS: usize = 8;

/// Scans not collected kept at most: a call cut short leaves its last
/// one behind, and the oldest finished ones go first.
pub const MAX_SCANS_KEPT: usize = 4;

/// What one file's scan came to.
pub(crate) type Outcome = Result<ScanOutcome, FsError>;

/// The scans of one session's store, by ticket.
#[derive(Debug, Default)]
pub(crate) struct Scans {
    next: u64,
    running: BTreeMap<u64, JoinHandle<Vec<Outcome>>>,
    /// The last request's scanner: a search sends the same request with
    /// every batch, and a pattern is compiled once.
    last: Option<(ScanRequest, Arc<BatchScanner>)>,
}

impl Scans {
    /// Starts scanning `files` on other threads, within `deadline`; the
    /// ticket, or `None` when the request does not parse (the guest then
    /// scans them itself).
    pub fn start(
        &mut self,
        backend: &Backend,
        deadline: Deadline,
        files: Vec<ScanFile>,
        request: &ScanRequest,
    ) -> Option<u64> {
        let scanner = match &self.last {
            Some((asked, scanner)) if asked == request => Arc::clone(scanner),
            _ => {
                let scanner = Arc::new(BatchScanner::new(request)?);
                self.last = Some((request.clone(), Arc::clone(&scanner)));
                scanner
            }
        };
        if self.running.len() >= MAX_SCANS_KEPT {
            self.running.retain(|_, scan| !scan.is_finished());
        }
        if self.running.len() >= MAX_SCANS_KEPT {
            return None;
        }
        let backend = backend.clone();
        let scan = std::thread::Builder::new()
            .name("filetools-scan".to_owned())
            .spawn(move || scan_all(&backend, deadline, &files, &scanner))
            .ok()?;
        let ticket = self.next;
        self.next += 1;
        self.running.insert(ticket, scan);
        Some(ticket)
    }

    /// What the scan of `ticket` found, once it is done; empty for a ticket
    /// not known.
    pub fn results(&mut self, ticket: u64) -> Vec<Outcome> {
        self.running
            .remove(&ticket)
            .and_then(|scan| scan.join().ok())
            .unwrap_or_default()
    }
}

/// `files` scanned in their order, on up to [`MAX_SCAN_THREADS`] threads.
fn scan_all(
    backend: &Backend,
    deadline: Deadline,
    files: &[ScanFile],
    scanner: &BatchScanner,
) -> Vec<Outcome> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(MAX_SCAN_THREADS)
        .min(files.len());
    let next = AtomicUsize::new(0);
    let outcomes: Vec<Mutex<Option<Outcome>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        // Each thread keeps the file it reads open between its chunks.
        let kept = KeptOpen::default();
        let fs = backend.for_call(deadline, &kept);
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(file) = files.get(at) else { break };
            let outcome = scanner.scan(&fs, file);
            *outcomes[at]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(outcome);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    }
    outcomes
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .unwrap_or_else(|| Err(FsError::Io("the scan did not run".to_owned())))
        })
        .collect()
}
