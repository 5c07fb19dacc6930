//! The wit-bindgen glue of the exports, compiled only for wasm: `tools`
//! over the imported `host-fs` (the bindings are generated in `imports`). It converts types and nothing else; every rule lives in
//! the plain modules.

use std::cell::RefCell;

use crate::answers::result::{Block, ToolResult};
use crate::answers::trapped::{TrapCause, Trapped};
use crate::change::args::{EditArgs, EditOp, UndoArgs, WriteArgs};
use crate::fs::host::{
    BatchFailure, DirEntry, FileKind, FsError, HostFs, Metadata, Precondition, ScanFile,
    ScanOutcome, ScanRequest,
};
use crate::memory::state::{Generations, Kept};
use crate::paths::walk::handoff::walk_handed_off;
use crate::tools::schema::{Format, render};
use crate::tools::session::Session;
use crate::view::read::args::ReadArgs;
use crate::view::search::batch::BatchScanner;

use crate::imports::generated::exports::filetools::core::scanner;
use crate::imports::generated::exports::filetools::core::tools as wit;
use crate::imports::generated::filetools::core::host_fs;
use crate::imports::generated::filetools::core::types as wit_types;

/// [`HostFs`] over the imported interface.
#[derive(Debug, Clone, Copy)]
struct ImportedFs;

impl From<wit_types::FileKind> for FileKind {
    fn from(kind: wit_types::FileKind) -> Self {
        match kind {
            wit_types::FileKind::File => FileKind::File,
            wit_types::FileKind::Directory => FileKind::Directory,
            wit_types::FileKind::Symlink => FileKind::Symlink,
            wit_types::FileKind::Fifo => FileKind::Fifo,
            wit_types::FileKind::Socket => FileKind::Socket,
            wit_types::FileKind::BlockDevice => FileKind::BlockDevice,
            wit_types::FileKind::CharDevice => FileKind::CharDevice,
            wit_types::FileKind::Other => FileKind::Other,
        }
    }
}

impl From<wit_types::Metadata> for Metadata {
    fn from(meta: wit_types::Metadata) -> Self {
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

impl From<wit_types::FsError> for FsError {
    fn from(err: wit_types::FsError) -> Self {
        match err {
            wit_types::FsError::NotFound => FsError::NotFound,
            wit_types::FsError::PermissionDenied => FsError::PermissionDenied,
            wit_types::FsError::IsADirectory => FsError::IsADirectory,
            wit_types::FsError::NotADirectory => FsError::NotADirectory,
            wit_types::FsError::OutsideSandbox => FsError::OutsideSandbox,
            wit_types::FsError::ReadOnly => FsError::ReadOnly,
            wit_types::FsError::Conflict => FsError::Conflict,
            wit_types::FsError::Io(message) => FsError::Io(message),
        }
    }
}

impl From<FsError> for wit_types::FsError {
    fn from(err: FsError) -> Self {
        match err {
            FsError::NotFound => wit_types::FsError::NotFound,
            FsError::PermissionDenied => wit_types::FsError::PermissionDenied,
            FsError::IsADirectory => wit_types::FsError::IsADirectory,
            FsError::NotADirectory => wit_types::FsError::NotADirectory,
            FsError::OutsideSandbox => wit_types::FsError::OutsideSandbox,
            FsError::ReadOnly => wit_types::FsError::ReadOnly,
            FsError::Conflict => wit_types::FsError::Conflict,
            FsError::Io(message) => wit_types::FsError::Io(message),
        }
    }
}

impl HostFs for ImportedFs {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        host_fs::stat(path).map(Into::into).map_err(Into::into)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        host_fs::read(path, offset, len).map_err(Into::into)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        host_fs::list_dir(path).map(entries).map_err(FsError::from)
    }

    fn list_names(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        host_fs::list_names(path)
            .map(entries)
            .map_err(FsError::from)
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        host_fs::write_file(path, data, &precondition.into())
            .map(Into::into)
            .map_err(Into::into)
    }

    fn remove_file(&self, path: &str, precondition: &Precondition) -> Result<(), FsError> {
        host_fs::remove_file(path, &precondition.into()).map_err(Into::into)
    }

    fn create_dir(&self, path: &str) -> Result<(), FsError> {
        host_fs::create_dir(path).map_err(Into::into)
    }

    fn rename(
        &self,
        source: &str,
        destination: &str,
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        host_fs::rename(source, destination, &precondition.into())
            .map(Into::into)
            .map_err(Into::into)
    }

    fn begin_change(&self, record: &[u8]) -> Result<(), FsError> {
        host_fs::begin_change(record).map_err(Into::into)
    }

    fn end_change(&self) -> Result<(), FsError> {
        host_fs::end_change().map_err(Into::into)
    }

    fn claim_unfinished(&self) -> Result<Option<Vec<u8>>, FsError> {
        host_fs::claim_unfinished().map_err(Into::into)
    }

    fn batch_begin(&self) -> bool {
        host_fs::batch_begin()
    }

    fn batch_end(&self, commit: bool) -> Result<(), BatchFailure> {
        host_fs::batch_end(commit).map_err(|failure| BatchFailure {
            index: failure.index as usize,
            error: failure.error.into(),
            stuck: failure.stuck.into_iter().map(|n| n as usize).collect(),
        })
    }

    fn scan_start(&self, files: &[ScanFile], request: &ScanRequest) -> Option<u64> {
        let files: Vec<host_fs::ScanFile> = files
            .iter()
            .map(|file| host_fs::ScanFile {
                path: file.path.clone(),
                size: file.size,
            })
            .collect();
        let request = host_fs::ScanRequest {
            config: request.config.clone(),
            pattern: request.pattern.clone(),
            case_insensitive: request.case_insensitive,
            multiline: request.multiline,
            first_only: request.first_only,
        };
        host_fs::scan_start(&files, &request)
    }

    fn walk_start(&self, dirs: &[String], request: &str) -> Option<u64> {
        host_fs::walk_start(dirs, request)
    }

    fn walk_results(&self, ticket: u64) -> Vec<String> {
        host_fs::walk_results(ticket)
    }

    fn scan_results(&self, ticket: u64) -> Vec<Result<ScanOutcome, FsError>> {
        host_fs::scan_results(ticket)
            .into_iter()
            .map(|outcome| {
                outcome.map_err(Into::into).map(|outcome| match outcome {
                    host_fs::ScanOutcome::Binary => ScanOutcome::Binary,
                    host_fs::ScanOutcome::TooLarge => ScanOutcome::TooLarge,
                    host_fs::ScanOutcome::Matches(n) => ScanOutcome::Matches(n),
                })
            })
            .collect()
    }
}

impl From<&Precondition> for host_fs::Precondition {
    fn from(precondition: &Precondition) -> Self {
        match precondition {
            Precondition::Any => host_fs::Precondition::Any,
            Precondition::Absent => host_fs::Precondition::Absent,
            Precondition::Matches(stamp) => host_fs::Precondition::Matches(host_fs::FileStamp {
                size: stamp.size,
                mtime_ns: stamp.mtime_ns,
                sha256: stamp.sha256.clone(),
                xxh3: stamp.xxh3.clone(),
            }),
        }
    }
}

fn to_wit(result: ToolResult) -> wit::ToolResult {
    let metadata = result.metadata_json();
    wit::ToolResult {
        content: result
            .content
            .into_iter()
            .map(|block| match block {
                Block::Text(text) => wit::ContentBlock::Text(text),
                Block::Image {
                    mime_type,
                    data,
                    width,
                    height,
                } => wit::ContentBlock::Image(wit::Image {
                    mime_type,
                    data,
                    width,
                    height,
                }),
            })
            .collect(),
        is_error: result.is_error,
        metadata,
    }
}

struct Component;

/// A listing as the host gave it.
fn entries(listed: Vec<wit_types::DirEntry>) -> Vec<DirEntry> {
    listed
        .into_iter()
        .map(|e| DirEntry {
            name: e.name,
            kind: e.kind.into(),
            size: e.size,
            mtime_ns: e.mtime_ns,
        })
        .collect()
}

impl scanner::Guest for Component {
    fn scan(
        files: Vec<host_fs::ScanFile>,
        request: host_fs::ScanRequest,
    ) -> Vec<Result<host_fs::ScanOutcome, wit_types::FsError>> {
        let request = ScanRequest {
            config: request.config,
            pattern: request.pattern,
            case_insensitive: request.case_insensitive,
            multiline: request.multiline,
            first_only: request.first_only,
        };
        let scanner = BatchScanner::new(&request);
        files
            .into_iter()
            .map(|file| {
                let file = ScanFile {
                    path: file.path,
                    size: file.size,
                };
                let Some(scanner) = &scanner else {
                    return Err(wit_types::FsError::Io(
                        "the scan request does not parse".to_owned(),
                    ));
                };
                scanner
                    .scan(&ImportedFs, &file)
                    .map(|outcome| match outcome {
                        ScanOutcome::Binary => host_fs::ScanOutcome::Binary,
                        ScanOutcome::TooLarge => host_fs::ScanOutcome::TooLarge,
                        ScanOutcome::Matches(n) => host_fs::ScanOutcome::Matches(n),
                    })
                    .map_err(Into::into)
            })
            .collect()
    }

    fn walk(dirs: Vec<String>, request: String) -> Vec<String> {
        walk_handed_off(&ImportedFs, &dirs, &request)
    }
}

/// The exported `session` resource.
struct SessionResource(RefCell<Session<ImportedFs>>);

impl wit::Guest for Component {
    type Session = SessionResource;

    fn definitions() -> Vec<wit::ToolDefinition> {
        crate::tools::definitions::definitions(&crate::config::Config::default())
            .into_iter()
            .map(|d| wit::ToolDefinition {
                name: d.name.to_owned(),
                description: d.description,
                input_schema: d.input_schema.to_string(),
            })
            .collect()
    }

    fn trapped(
        tool: String,
        arguments: String,
        cause: wit::TrapCause,
        memory_kept: bool,
    ) -> wit::ToolResult {
        let cause = match cause {
            wit::TrapCause::Memory(limit_bytes) => TrapCause::Memory { limit_bytes },
            wit::TrapCause::Time(limit_ms) => TrapCause::Time { limit_ms },
            wit::TrapCause::Stack => TrapCause::Stack,
            wit::TrapCause::Fault(detail) => TrapCause::Fault { detail },
        };
        let path = crate::tools::args::file_path(&tool, &arguments);
        to_wit(Trapped::new(&tool, path, cause, memory_kept).result())
    }
}

impl wit::GuestSession for SessionResource {
    fn open(config: String) -> Result<wit::Session, String> {
        let session = Session::open(&config, ImportedFs)?;
        Ok(wit::Session::new(SessionResource(RefCell::new(session))))
    }

    fn schema(&self, format: String) -> Result<String, String> {
        let format = Format::parse(&format)?;
        Ok(serde_json::Value::Array(render(self.0.borrow().config(), format)).to_string())
    }

    fn call(&self, tool: String, arguments: String) -> wit::ToolResult {
        to_wit(self.0.borrow_mut().call(&tool, &arguments))
    }

    fn read(&self, args: wit::ReadArgs) -> wit::ToolResult {
        let args = ReadArgs {
            file_path: args.file_path,
            offset: args.offset,
            limit: args.limit,
            char_offset: args.char_offset,
            pages: args.pages.clone(),
            symbol: args.symbol,
            block: false,
            encoding: args.encoding,
        };
        to_wit(self.0.borrow_mut().read(&args))
    }

    fn write(&self, args: wit::WriteArgs) -> wit::ToolResult {
        let args = WriteArgs {
            file_path: args.file_path,
            content: args.content,
            encoding: args.encoding,
            expect: args.expect,
        };
        to_wit(self.0.borrow_mut().write(&args))
    }

    fn edit(&self, args: wit::EditArgs) -> wit::ToolResult {
        let args = EditArgs {
            file_path: args.file_path,
            edits: args
                .edits
                .into_iter()
                .map(|op| EditOp {
                    old_string: op.old_string,
                    new_string: op.new_string,
                    replace_all: op.replace_all,
                })
                .collect(),
            encoding: args.encoding,
            expect: args.expect,
        };
        to_wit(self.0.borrow_mut().edit(&args))
    }

    fn undo(&self, args: wit::UndoArgs) -> wit::ToolResult {
        let args = UndoArgs {
            file_path: args.file_path,
            expect: args.expect,
        };
        to_wit(self.0.borrow_mut().undo(&args))
    }

    fn forget_outputs(&self) {
        self.0.borrow_mut().forget_outputs();
    }

    fn save(&self) -> String {
        self.0.borrow().save()
    }

    fn restore(&self, state: String) -> Result<(), String> {
        self.0.borrow_mut().restore(&state)
    }

    fn checkpoint(&self, held: wit::Generations) -> wit::Checkpoint {
        let held = Generations {
            ledger: held.ledger,
            history: held.history,
        };
        let checkpoint = self.0.borrow_mut().checkpoint(held);
        let kept = |(sha256, data)| wit::KeptVersion { sha256, data };
        wit::Checkpoint {
            core: checkpoint.core,
            generations: to_wit_generations(checkpoint.generations),
            ledger: checkpoint.ledger.map(|change| wit::LedgerChange {
                changed: change.changed,
                removed: change.removed,
            }),
            history: checkpoint.history.map(|change| wit::HistoryChange {
                changed: change.changed,
                removed: change.removed,
                seq: change.seq,
                added: change.added.into_iter().map(kept).collect(),
                dropped: change.dropped,
            }),
        }
    }

    fn resume(&self, kept: wit::KeptMemory) -> Result<wit::Generations, String> {
        let kept = Kept {
            core: kept.core,
            records: kept.records,
            entries: kept.entries,
            seq: kept.seq,
            versions: kept
                .versions
                .into_iter()
                .map(|v| (v.sha256, v.data))
                .collect(),
        };
        self.0.borrow_mut().resume(kept).map(to_wit_generations)
    }
}

fn to_wit_generations(generations: Generations) -> wit::Generations {
    wit::Generations {
        ledger: generations.ledger,
        history: generations.history,
    }
}

crate::imports::generated::export!(Component);
