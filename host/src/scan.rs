//! `host-fs.scan-start` and `scan-results`: many files scanned at once,
//! natively, on threads of the host's own while the guest walks on, each
//! file by the guest's own scan ([`BatchScanner`], the code the component
//! runs for one file), so a `grep` over a tree finds what it would find one
//! file at a time, only sooner.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// Raised when the call that started the scans is over: a scan not
    /// collected (an answer cut short) stops at its next file.
    abandoned: Arc<AtomicBool>,
    /// The last request's scanner: a search sends the same request with
    /// every batch, and a pattern is compiled once.
    last: Option<(ScanRequest, Arc<BatchScanner>)>,
}

impl Scans {
    /// Starts scanning `files` on other threads, within `deadline`; the
    /// ticket, or `None` when the request does not parse or the file system
    /// is one a program plugged in (the guest then scans them itself). A
    /// plugged-in file system is called by one call at a time, on the
    /// call's own thread, as its docs promise.
    pub fn start(
        &mut self,
        backend: &Backend,
        deadline: Deadline,
        files: Vec<ScanFile>,
        request: &ScanRequest,
    ) -> Option<u64> {
        if !matches!(backend, Backend::Sandbox(_)) {
            return None;
        }
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
        let abandoned = Arc::clone(&self.abandoned);
        let scan = std::thread::Builder::new()
            .name("filetools-scan".to_owned())
            .spawn(move || scan_all(&backend, deadline, &files, &scanner, &abandoned))
            .ok()?;
        let ticket = self.next;
        self.next += 1;
        self.running.insert(ticket, scan);
        Some(ticket)
    }

    /// The call is over: scans not collected stop at their next file, and
    /// the next call's start afresh.
    pub fn abandon(&mut self) {
        if !self.running.is_empty() {
            self.abandoned.store(true, Ordering::Relaxed);
            self.abandoned = Arc::default();
            self.running.clear();
        }
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
    abandoned: &AtomicBool,
) -> Vec<Outcome> {
    let threads = crate::cores::cores().min(MAX_SCAN_THREADS).min(files.len());
    let next = AtomicUsize::new(0);
    let outcomes: Vec<Mutex<Option<Outcome>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        // Each thread keeps the file it reads open between its chunks.
        let kept = KeptOpen::default();
        let fs = backend.for_call(deadline, &kept);
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(file) = files.get(at) else { break };
            if abandoned.load(Ordering::Relaxed) {
                break;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Sandbox;

    fn request(pattern: &str) -> ScanRequest {
        ScanRequest {
            config: serde_json::to_string(&filetools_core::Config::default()).unwrap(),
            pattern: pattern.to_owned(),
            case_insensitive: false,
            multiline: false,
            first_only: false,
        }
    }

    #[test]
    fn a_scan_counts_as_the_guest_would_and_only_on_the_sandbox() {
        let root = std::env::temp_dir().join(format!("filetools-scan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("a.txt"), "needle\nhay\nneedle again\n").unwrap();
        std::fs::write(root.join("b.bin"), b"\x00\x01needle").unwrap();
        let files = vec![
            ScanFile {
                path: "a.txt".to_owned(),
                size: 24,
            },
            ScanFile {
                path: "b.bin".to_owned(),
                size: 8,
            },
            ScanFile {
                path: "gone.txt".to_owned(),
                size: 1,
            },
        ];
        let sandbox = Backend::Sandbox(Arc::new(Sandbox::open(&root, false).unwrap()));
        let mut scans = Scans::default();
        let ticket = scans
            .start(&sandbox, Deadline::NEVER, files.clone(), &request("needle"))
            .unwrap();
        let outcomes = scans.results(ticket);
        assert_eq!(outcomes[0], Ok(ScanOutcome::Matches(2)));
        assert_eq!(outcomes[1], Ok(ScanOutcome::Binary));
        assert_eq!(outcomes[2], Err(FsError::NotFound));
        assert!(
            scans.results(ticket).is_empty(),
            "a ticket is collected once"
        );
        // A pattern that does not compile: no scan, the guest scans itself.
        assert_eq!(
            scans.start(&sandbox, Deadline::NEVER, files.clone(), &request("(")),
            None
        );
        // A scan the call left behind is abandoned with it.
        let left = scans
            .start(&sandbox, Deadline::NEVER, files.clone(), &request("hay"))
            .unwrap();
        scans.abandon();
        assert!(scans.results(left).is_empty());
        // A file system a program plugged in is called on the call's own thread only.
        let plugged = Backend::Custom {
            fs: Arc::new(Mutex::new(filetools_core::MemFs::new())),
            read_only: false,
        };
        assert_eq!(
            scans.start(&plugged, Deadline::NEVER, files, &request("needle")),
            None
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
