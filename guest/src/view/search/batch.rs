//! A file scanned as [`HostFs::scan_start`] asks, by the same code a `grep`
//! scans it with: a host that links this crate natively (the Rust host)
//! answers `scan-start` with a [`BatchScanner`] over its own file system,
//! on threads of its own, and the guest gets the very counts it would have
//! found one file at a time.

use std::ops::ControlFlow;

use crate::config::Config;
use crate::fs::host::{FsError, HostFs, ScanFile, ScanOutcome, ScanRequest};
use crate::view::search::matcher::Matcher;
use crate::view::search::scan::{Want, scan};

/// One request's configuration and compiled pattern, shared by every file
/// (and thread) that scans for it.
#[derive(Debug, Clone)]
pub struct BatchScanner {
    config: Config,
    matcher: Matcher,
    multiline: bool,
    want: Want,
}

impl BatchScanner {
    /// The scanner `request` asks for; `None` when its configuration or
    /// pattern does not parse (the guest sent both, so it never happens
    /// with a real guest; a host then answers that it has no fast path).
    pub fn new(request: &ScanRequest) -> Option<Self> {
        let config = serde_json::from_str(&request.config).ok()?;
        let matcher = Matcher::new(
            &request.pattern,
            request.case_insensitive,
            request.multiline,
        )
        .ok()?;
        Some(Self {
            config,
            matcher,
            multiline: request.multiline,
            want: if request.first_only {
                Want::Any
            } else {
                Want::Count
            },
        })
    }

    /// What scanning `file` on `fs` finds.
    ///
    /// # Errors
    ///
    /// The file's read failed (gone since it was listed, or refused).
    pub fn scan<F: HostFs + ?Sized>(
        &self,
        fs: &F,
        file: &ScanFile,
    ) -> Result<ScanOutcome, FsError> {
        let scanned = scan(
            &self.config,
            fs,
            (&file.path, file.size),
            (&self.matcher, self.multiline),
            self.want,
            &mut |_| ControlFlow::Continue(()),
        )?;
        Ok(match scanned {
            None => ScanOutcome::TooLarge,
            Some(scanned) if scanned.binary => ScanOutcome::Binary,
            Some(scanned) => ScanOutcome::Matches(scanned.matches),
        })
    }
}

/// The request a `grep` sends for its files.
pub(crate) fn request(config: &Config, pattern: &str, flags: (bool, bool, bool)) -> ScanRequest {
    let (case_insensitive, multiline, first_only) = flags;
    ScanRequest {
        config: serde_json::to_string(config).unwrap_or_default(),
        pattern: pattern.to_owned(),
        case_insensitive,
        multiline,
        first_only,
    }
}
