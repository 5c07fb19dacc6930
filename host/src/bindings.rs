//! Generated bindings for the `filetools` world, and `host-fs` implemented on
//! the store's state over what it is served from (a sandbox or a plugged-in
//! file system). Conversions between the sandbox's
//! types and the generated ones live here and nowhere else.

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::code::{CodeComponent, CodeInstance, ParseLimits};
use crate::journal::{Held, Journal};
use crate::limiter::MemoryCap;
use crate::sandbox::{Deadline, KeptOpen};
use crate::served::{ForCall, Served};
use filetools_core::{self as core, HostFs as _};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

wasmtime::component::bindgen!({
    path: "wit",
    world: "filetools",
    imports: {
        // A parse may stop the call (the grammars' instance trapped).
        "filetools:core/code": trappable,
    },
});

pub(crate) use self::exports::filetools::core::tools as wit;
use self::filetools::core::code;
use self::filetools::core::host_fs;
use self::filetools::core::types::{self as wit_types, DirEntry, FileKind, FsError, Metadata};

/// Everything one store holds.
pub(crate) struct StoreState {
    pub wasi: WasiCtx,
    pub table: ResourceTable,
    pub served: Served,
    pub limits: MemoryCap,
    /// When the current call must stop: guest code at the next epoch tick
    /// past it, host work between pieces.
    pub deadline: Deadline,
    /// Set by another thread to stop the current call at the next tick.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The file the current call reads, kept open between its chunks.
    pub kept: KeptOpen,
    /// Where intent records of changes of several files are kept.
    pub journal: Arc<Journal>,
    /// The record the current call holds.
    pub change: Option<Held>,
    /// Whether the current call has begun changing files: from then on,
    /// host work is not cut off by the deadline, guest code only by the
    /// far later one [`CHANGE_GRACE`] sets, and not by a cancel.
    pub changing: bool,
    /// The call's time limit, to set that later deadline from.
    pub call_timeout: Duration,
    /// The grammars' component, and this session's instance of it once a
    /// call parsed code.
    pub code: CodeSlot,
    /// Whether `sha256` answers (see `Builder::host_sha256`).
    pub host_sha256: bool,
}

/// Where a session's parses run: the tools' grammars, instantiated at the
/// first parse of any session, and the cap of that instance's memory.
#[derive(Debug)]
pub(crate) struct CodeSlot {
    pub component: Arc<CodeComponent>,
    pub memory_limit: usize,
}

/// How many times the call's time limit a call that has begun changing
/// files may run before it is stopped all the same (a guest that loops):
/// the record it holds then lets the next call put its files back.
pub(crate) const CHANGE_GRACE: u32 = 10;

impl StoreState {
    /// The file system as the current call may use it.
    fn fs(&self) -> ForCall<'_> {
        let deadline = if self.changing {
            Deadline::NEVER
        } else {
            self.deadline
        };
        self.served.for_call(deadline, &self.kept)
    }

    /// The call begins changing files (see [`StoreState::changing`]).
    fn begin_changing(&mut self) {
        if !self.changing {
            self.changing = true;
            self.deadline = Deadline::at(Instant::now() + self.call_timeout * CHANGE_GRACE);
        }
    }

    /// A change's outcome, noting that the call has begun changing files
    /// when it succeeded.
    fn changed<T>(&mut self, outcome: Result<T, core::FsError>) -> Result<T, FsError> {
        if outcome.is_ok() {
            self.begin_changing();
        }
        outcome.map_err(Into::into)
    }

    /// The call is over: a record it still holds is let go, for the next
    /// call to claim.
    pub fn call_over(&mut self) {
        self.change = None;
        self.changing = false;
    }
}

impl StoreState {
    /// Runs `parse` on the tools' instance of the grammars, within the
    /// current call's limits; a failure over the memory cap counts as the
    /// session's own (the answer names the limit).
    fn parse<T>(
        &mut self,
        parse: impl FnOnce(&mut CodeInstance, ParseLimits) -> wasmtime::Result<T>,
    ) -> wasmtime::Result<T> {
        let call = ParseLimits {
            deadline: self.deadline,
            cancel: self.cancel.clone(),
            changing: self.changing,
        };
        let code = Arc::clone(&self.code.component);
        code.parse(self.code.memory_limit, |instance| parse(instance, call))
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
        language: String,
        text: String,
    ) -> wasmtime::Result<Result<Option<Vec<code::Symbol>>, code::Stopped>> {
        let found = self.parse(|instance, call| instance.outline(call, &language, &text))?;
        Ok(found
            .map(|symbols| {
                symbols.map(|symbols| {
                    symbols
                        .into_iter()
                        .map(|s| code::Symbol {
                            kind: s.kind,
                            name: s.name,
                            visibility: s.visibility,
                            start: s.start,
                            end: s.end,
                            depth: s.depth,
                        })
                        .collect()
                })
            })
            .map_err(stopped))
    }

    fn syntax_errors(
        &mut self,
        language: String,
        text: String,
        max: u32,
    ) -> wasmtime::Result<Result<Option<Vec<code::SyntaxError>>, code::Stopped>> {
        let found =
            self.parse(|instance, call| instance.syntax_errors(call, &language, &text, max))?;
        Ok(found
            .map(|errors| {
                errors.map(|errors| {
                    errors
                        .into_iter()
                        .map(|e| code::SyntaxError {
                            line: e.line,
                            message: e.message,
                        })
                        .collect()
                })
            })
            .map_err(stopped))
    }
}

/// The grammars' component's `stopped` as the tools' import has it.
fn stopped(why: crate::code::Stopped) -> code::Stopped {
    match why {
        crate::code::Stopped::Time => code::Stopped::Time,
        crate::code::Stopped::Memory => code::Stopped::Memory,
    }
}

impl WasiView for StoreState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl From<core::FileKind> for FileKind {
    fn from(kind: core::FileKind) -> Self {
        match kind {
            core::FileKind::File => FileKind::File,
            core::FileKind::Directory => FileKind::Directory,
            core::FileKind::Symlink => FileKind::Symlink,
            core::FileKind::Fifo => FileKind::Fifo,
            core::FileKind::Socket => FileKind::Socket,
            core::FileKind::BlockDevice => FileKind::BlockDevice,
            core::FileKind::CharDevice => FileKind::CharDevice,
            core::FileKind::Other => FileKind::Other,
        }
    }
}

impl From<core::Metadata> for Metadata {
    fn from(meta: core::Metadata) -> Self {
        Metadata {
            kind: meta.kind.into(),
            size: meta.size,
            mtime_ns: meta.mtime_ns,
            readonly: meta.readonly,
            created_ns: meta.created_ns,
            accessed_ns: meta.accessed_ns,
            mode: meta.mode,
        }
    }
}

impl From<core::FsError> for FsError {
    fn from(err: core::FsError) -> Self {
        match err {
            core::FsError::NotFound => FsError::NotFound,
            core::FsError::PermissionDenied => FsError::PermissionDenied,
            core::FsError::IsADirectory => FsError::IsADirectory,
            core::FsError::NotADirectory => FsError::NotADirectory,
            core::FsError::OutsideSandbox => FsError::OutsideSandbox,
            core::FsError::ReadOnly => FsError::ReadOnly,
            core::FsError::Conflict => FsError::Conflict,
            core::FsError::Io(message) => FsError::Io(message),
        }
    }
}

impl From<host_fs::Precondition> for core::Precondition {
    fn from(pre: host_fs::Precondition) -> Self {
        match pre {
            host_fs::Precondition::Any => core::Precondition::Any,
            host_fs::Precondition::Absent => core::Precondition::Absent,
            host_fs::Precondition::Matches(stamp) => core::Precondition::Matches(core::FileStamp {
                size: stamp.size,
                mtime_ns: stamp.mtime_ns,
                sha256: stamp.sha256,
            }),
        }
    }
}

impl From<wit::ToolResult> for core::ToolResult {
    fn from(result: wit::ToolResult) -> Self {
        Self {
            content: result
                .content
                .into_iter()
                .map(|block| match block {
                    wit::ContentBlock::Text(text) => core::Block::Text(text),
                    wit::ContentBlock::Image(image) => core::Block::Image {
                        mime_type: image.mime_type,
                        data: image.data,
                        width: image.width,
                        height: image.height,
                    },
                })
                .collect(),
            is_error: result.is_error,
            metadata: serde_json::from_str(&result.metadata).unwrap_or(serde_json::Value::Null),
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
        let entries = self.fs().list_dir(&path).map_err(FsError::from)?;
        Ok(entries
            .into_iter()
            .map(|e| DirEntry {
                name: e.name,
                kind: e.kind.into(),
                size: e.size,
            })
            .collect())
    }

    fn write_file(
        &mut self,
        path: String,
        data: Vec<u8>,
        precondition: host_fs::Precondition,
    ) -> Result<Metadata, FsError> {
        let outcome = self.fs().write_file(&path, &data, &precondition.into());
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
        if self.served.read_only() {
            return Err(FsError::ReadOnly);
        }
        // A record the call claimed and could not settle is let go, for
        // a later call.
        self.change = None;
        self.change = Some(self.journal.begin(&intent)?);
        self.begin_changing();
        Ok(())
    }

    fn end_change(&mut self) -> Result<(), FsError> {
        match self.change.take() {
            Some(held) => held.end().map_err(Into::into),
            None => Ok(()),
        }
    }

    fn sha256(&mut self, data: Vec<u8>) -> Option<String> {
        // The native hash uses the CPU's SHA instructions where it has them.
        self.host_sha256.then(|| core::digest::sha256_hex(&data))
    }

    fn claim_unfinished(&mut self) -> Result<Option<Vec<u8>>, FsError> {
        if self.served.read_only() || self.change.is_some() {
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
