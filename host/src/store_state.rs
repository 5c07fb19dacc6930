//! [`StoreState`]: everything one session's store holds — the file system
//! it is served from, the current call's limits, the journal of changes of
//! several files, the grammars — and the imports of the tools' instance
//! served from it: `host-fs` on the session's file system, `code` on the
//! grammars' shared instance, each within the current call's limits.

use std::sync::Arc;
use std::time::{Duration, Instant};

use filetools_core::{self as core, HostFs as _};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::ahead::Ahead;
use crate::backend::{Backend, ForCall};
use crate::bindings::filetools::core::code_types::{Grammar, OutlineEntry, Stopped, SyntaxError};
use crate::bindings::filetools::core::types::{self as wit_types, DirEntry, FsError, Metadata};
use crate::bindings::filetools::core::{code, host_fs};
use crate::grammars::{Grammars, GrammarsInstance};
use crate::journal::{self, Held, Journal};
use crate::limits::{CHANGE_GRACE, CallLimits, Deadline, MemoryCap};
use crate::prefetch::Prefetch;
use crate::sandbox::{Batch, KeptOpen, Record};
use crate::scan::Scans;

/// Everything one store holds.
pub(crate) struct StoreState {
    pub wasi: WasiCtx,
    pub table: ResourceTable,
    /// The file system the session is served from.
    pub backend: Backend,
    /// The cap of the instance's memory.
    pub limits: MemoryCap,
    /// The current call's limits: guest code stops at the next epoch tick
    /// past its deadline (or once cancelled), host work between pieces.
    /// Once it has begun changing files, host work is not cut off by the
    /// deadline, guest code only by the far later one [`CHANGE_GRACE`]
    /// sets, and not by a cancel.
    pub call: CallLimits,
    /// The file the current call reads, kept open between its chunks.
    pub kept: KeptOpen,
    /// Where intent records of changes of several files are kept.
    pub journal: Arc<Journal>,
    /// The record the current call holds.
    pub change: Option<Held>,
    /// The call's time limit, to set that later deadline from.
    pub call_timeout: Duration,
    /// The grammars, instantiated at the first parse of any session.
    pub grammars: Arc<Grammars>,
    /// Whether `sha256` answers (see `Builder::host_sha256`).
    pub host_sha256: bool,
    /// The batch scans started and not yet collected.
    pub scans: Scans,
    /// Directory listings fetched ahead of the guest's walk.
    pub prefetch: Prefetch,
    /// The current call's batch of writes, between `batch-begin` and
    /// `batch-end`.
    pub batch: Option<Batch>,
    /// The digests of the call's last large write, hashed beside its sync.
    pub ahead: Ahead,
}

impl StoreState {
    /// The file system as the current call may use it.
    fn fs(&self) -> ForCall<'_> {
        self.backend.for_call(self.deadline(), &self.kept)
    }

    /// When the current call's host work stops.
    fn deadline(&self) -> Deadline {
        if self.call.changing {
            Deadline::NEVER
        } else {
            self.call.deadline
        }
    }

    /// The call begins changing files (see [`StoreState::call`]).
    fn begin_changing(&mut self) {
        if !self.call.changing {
            self.call.changing = true;
            self.call.deadline = Deadline::at(Instant::now() + self.call_timeout * CHANGE_GRACE);
        }
    }

    /// A change's outcome, noting that the call has begun changing files
    /// when it succeeded.
    fn changed<T>(&mut self, outcome: Result<T, core::FsError>) -> Result<T, FsError> {
        self.prefetch.clear();
        if outcome.is_ok() {
            self.begin_changing();
        }
        outcome.map_err(Into::into)
    }

    /// A call begins: it must end by `deadline`.
    pub fn call_begins(&mut self, deadline: Deadline) {
        self.call.deadline = deadline;
        self.limits.clear();
    }

    /// The call is over: a record it still holds is let go, for the next
    /// call to claim.
    pub fn call_over(&mut self) {
        self.prefetch.clear();
        self.scans.abandon();
        // New versions of a batch never ended go.
        self.batch = None;
        self.ahead.clear();
        self.change = None;
        self.call.changing = false;
    }

    /// Runs `parse` on the grammars' instance, within the current call's
    /// limits; a failure over the memory cap counts as the session's own
    /// (the answer names the limit).
    fn parse<T>(
        &mut self,
        parse: impl FnOnce(&mut GrammarsInstance) -> wasmtime::Result<T>,
    ) -> wasmtime::Result<T> {
        let grammars = Arc::clone(&self.grammars);
        grammars
            .parse(self.call.clone(), parse)
            .map_err(|(err, refused)| {
                if refused {
                    self.limits.refuse();
                }
                err
            })
    }
}

impl code::Host for StoreState {
    fn outline(
        &mut self,
        grammar: Grammar,
        text: String,
    ) -> wasmtime::Result<Result<Option<Vec<OutlineEntry>>, Stopped>> {
        self.parse(|instance| instance.outline(grammar, &text))
    }

    fn syntax_errors(
        &mut self,
        grammar: Grammar,
        text: String,
        max: u32,
    ) -> wasmtime::Result<Result<Option<Vec<SyntaxError>>, Stopped>> {
        self.parse(|instance| instance.syntax_errors(grammar, &text, max))
    }
}

impl crate::bindings::filetools::core::code_types::Host for StoreState {}

impl WasiView for StoreState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl wit_types::Host for StoreState {}

impl host_fs::Host for StoreState {
    fn stat(&mut self, path: String) -> Result<Metadata, FsError> {
        self.fs().stat(&path).map(Into::into).map_err(Into::into)
    }

    fn read(&mut self, path: String, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.fs().read(&path, offset, len).map_err(Into::into)
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<DirEntry>, FsError> {
        let entries = self
            .prefetch
            .list(&path, false, self.deadline(), || self.fs().list_dir(&path))
            .map_err(FsError::from)?;
        Ok(entries.into_iter().map(Into::into).collect())
    }

    fn list_names(&mut self, path: String) -> Result<Vec<DirEntry>, FsError> {
        let entries = self
            .prefetch
            .list(&path, true, self.deadline(), || self.fs().list_names(&path))
            .map_err(FsError::from)?;
        Ok(entries.into_iter().map(Into::into).collect())
    }

    fn write_file(
        &mut self,
        path: String,
        data: Vec<u8>,
        precondition: host_fs::Precondition,
    ) -> Result<Metadata, FsError> {
        let precondition = precondition.into();
        let deadline = self.deadline();
        let (batch, fs) = (
            self.batch.as_mut(),
            self.backend.for_call(deadline, &self.kept),
        );
        let outcome = self
            .ahead
            .write(data, self.host_sha256, |data| match (batch, fs) {
                // Only a sandbox begins a batch.
                (Some(batch), ForCall::Sandbox(bounded)) => {
                    bounded.stage(batch, &path, data, &precondition)
                }
                (_, fs) => fs.write_file(&path, data, &precondition),
            });
        self.changed(outcome).map(Into::into)
    }

    fn remove_file(
        &mut self,
        path: String,
        precondition: host_fs::Precondition,
    ) -> Result<(), FsError> {
        let outcome = self.fs().remove_file(&path, &precondition.into());
        self.changed(outcome)
    }

    fn create_dir(&mut self, path: String) -> Result<(), FsError> {
        self.prefetch.clear();
        self.fs().create_dir(&path).map_err(Into::into)
    }

    fn rename(
        &mut self,
        source: String,
        destination: String,
        precondition: host_fs::Precondition,
    ) -> Result<Metadata, FsError> {
        let outcome = self
            .fs()
            .rename(&source, &destination, &precondition.into());
        self.changed(outcome).map(Into::into)
    }

    fn begin_change(&mut self, intent: Vec<u8>) -> Result<(), FsError> {
        if self.backend.read_only() {
            return Err(FsError::ReadOnly);
        }
        // A record the call claimed and could not settle is let go, for
        // a later call.
        self.change = None;
        // In a batch, the record is flushed with the batch's writes.
        self.change = Some(if self.batch.is_some() {
            self.journal.begin_unsynced(&intent)?
        } else {
            self.journal.begin(&intent)?
        });
        self.begin_changing();
        Ok(())
    }

    fn end_change(&mut self) -> Result<(), FsError> {
        match self.change.take() {
            Some(held) => held.end().map_err(Into::into),
            None => Ok(()),
        }
    }

    fn batch_begin(&mut self) -> bool {
        let ForCall::Sandbox(bounded) = self.fs() else {
            return false;
        };
        if !bounded.batches() {
            return false;
        }
        self.batch = Some(Batch::default());
        true
    }

    fn batch_end(&mut self, commit: bool) -> Result<(), host_fs::BatchFailure> {
        let Some(batch) = self.batch.take() else {
            return Ok(());
        };
        let failure =
            |index: usize, error: core::FsError, stuck: Vec<usize>| host_fs::BatchFailure {
                index: u32::try_from(index).unwrap_or(u32::MAX),
                error: error.into(),
                stuck: stuck
                    .into_iter()
                    .filter_map(|n| u32::try_from(n).ok())
                    .collect(),
            };
        // The record kept in the batch is durable before any write lands:
        // without a commit, before they land one by one; with one, before
        // the first is put in place, by the commit's sync of the whole
        // file system it shares with the batch's files where that ran, or
        // on its own. (Where one sync of a file flushes the files written
        // out before it, the record was not written out with them.)
        if !commit {
            if let Some(held) = &self.change {
                held.sync().map_err(|error| failure(0, error, Vec::new()))?;
            }
            return Ok(());
        }
        let ForCall::Sandbox(bounded) = self.fs() else {
            return Err(failure(
                0,
                core::FsError::Io("the batch's file system is gone".to_owned()),
                Vec::new(),
            ));
        };
        let sync = || self.change.as_ref().map_or(Ok(()), Held::sync);
        let record = self.change.as_ref().and_then(|held| {
            let file = held.file()?;
            Some(Record {
                file,
                sync: &sync,
                failed: journal::kept_error,
            })
        });
        let landed = bounded
            .commit(batch, record)
            .map_err(|failed| failure(failed.index, failed.error, failed.stuck));
        self.prefetch.clear();
        landed
    }

    fn digests(&mut self, data: Vec<u8>) -> Option<host_fs::ContentDigests> {
        // The native hashes use the CPU's SHA and vector instructions.
        self.host_sha256.then(|| {
            let both = (self.ahead.take_for(&data)).unwrap_or_else(|| core::Digests::of(&data));
            host_fs::ContentDigests {
                sha256: both.sha256,
                xxh3: both.xxh3,
            }
        })
    }

    fn scan_start(
        &mut self,
        files: Vec<host_fs::ScanFile>,
        request: host_fs::ScanRequest,
    ) -> Option<u64> {
        let request = core::ScanRequest {
            config: request.config,
            pattern: request.pattern,
            case_insensitive: request.case_insensitive,
            multiline: request.multiline,
            first_only: request.first_only,
        };
        let files = files
            .into_iter()
            .map(|file| core::ScanFile {
                path: file.path,
                size: file.size,
            })
            .collect();
        let deadline = self.deadline();
        self.scans.start(&self.backend, deadline, files, &request)
    }

    fn walk_start(&mut self, dirs: Vec<String>, request: String) -> Option<u64> {
        // Each listing is answered natively here, fast enough: the guest
        // walks on.
        let _ = (dirs, request);
        None
    }

    fn walk_results(&mut self, ticket: u64) -> Vec<String> {
        let _ = ticket;
        Vec::new()
    }

    fn scan_results(&mut self, ticket: u64) -> Vec<Result<host_fs::ScanOutcome, FsError>> {
        self.scans
            .results(ticket)
            .into_iter()
            .map(|outcome| {
                outcome.map_err(Into::into).map(|outcome| match outcome {
                    core::ScanOutcome::Binary => host_fs::ScanOutcome::Binary,
                    core::ScanOutcome::TooLarge => host_fs::ScanOutcome::TooLarge,
                    core::ScanOutcome::Matches(n) => host_fs::ScanOutcome::Matches(n),
                })
            })
            .collect()
    }

    fn claim_unfinished(&mut self) -> Result<Option<Vec<u8>>, FsError> {
        if self.backend.read_only() || self.change.is_some() {
            return Ok(None);
        }
        let Some((held, record)) = self.journal.claim()? else {
            return Ok(None);
        };
        self.change = Some(held);
        self.begin_changing();
        Ok(Some(record))
    }
}
