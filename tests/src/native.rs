//! The native core over the host's [`Sandbox`]: the same file access as the
//! wasmtime host, without WebAssembly in between. Used by the conformance
//! runner and the benchmark.

use filetools::sandbox::{self, Sandbox};
use filetools_core::{DirEntry, FileKind, FsError, HostFs, Metadata, Precondition};

/// [`HostFs`] over a [`Sandbox`].
#[derive(Debug)]
pub struct SandboxFs(pub Sandbox);

fn kind(kind: sandbox::Kind) -> FileKind {
    match kind {
        sandbox::Kind::File => FileKind::File,
        sandbox::Kind::Directory => FileKind::Directory,
        sandbox::Kind::Symlink => FileKind::Symlink,
        sandbox::Kind::Fifo => FileKind::Fifo,
        sandbox::Kind::Socket => FileKind::Socket,
        sandbox::Kind::BlockDevice => FileKind::BlockDevice,
        sandbox::Kind::CharDevice => FileKind::CharDevice,
        sandbox::Kind::Other => FileKind::Other,
    }
}

fn metadata(stat: sandbox::Stat) -> Metadata {
    Metadata {
        kind: kind(stat.kind),
        size: stat.size,
        mtime_ns: stat.mtime_ns,
        readonly: stat.readonly,
    }
}

fn error(err: sandbox::FsError) -> FsError {
    match err {
        sandbox::FsError::NotFound => FsError::NotFound,
        sandbox::FsError::PermissionDenied => FsError::PermissionDenied,
        sandbox::FsError::IsADirectory => FsError::IsADirectory,
        sandbox::FsError::NotADirectory => FsError::NotADirectory,
        sandbox::FsError::OutsideSandbox => FsError::OutsideSandbox,
        sandbox::FsError::ReadOnly => FsError::ReadOnly,
        sandbox::FsError::Conflict => FsError::Conflict,
        sandbox::FsError::Io(message) => FsError::Io(message),
    }
}

impl HostFs for SandboxFs {
    fn stat(&self, path: &str) -> Result<Metadata, FsError> {
        self.0.stat(path).map(metadata).map_err(error)
    }

    fn read(&self, path: &str, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.0.read(path, offset, len).map_err(error)
    }

    fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        let entries = self.0.list_dir(path).map_err(error)?;
        Ok(entries
            .into_iter()
            .map(|e| DirEntry {
                name: e.name,
                kind: kind(e.kind),
                size: e.size,
            })
            .collect())
    }

    fn write_file(
        &self,
        path: &str,
        data: &[u8],
        precondition: &Precondition,
    ) -> Result<Metadata, FsError> {
        let precondition = match precondition {
            Precondition::Any => sandbox::Precondition::Any,
            Precondition::Absent => sandbox::Precondition::Absent,
            Precondition::Matches(stamp) => sandbox::Precondition::Matches(sandbox::Stamp {
                size: stamp.size,
                mtime_ns: stamp.mtime_ns,
                sha256: stamp.sha256.clone(),
            }),
        };
        self.0
            .write_file(path, data, &precondition)
            .map(metadata)
            .map_err(error)
    }
}

/// A native result in the host's result type, so both render the same way.
pub fn to_host_result(result: filetools_core::ToolResult) -> filetools::ToolResult {
    filetools::ToolResult {
        content: result
            .content
            .into_iter()
            .map(|block| match block {
                filetools_core::Block::Text(text) => filetools::Content::Text(text),
                filetools_core::Block::Image {
                    mime_type,
                    data,
                    width,
                    height,
                } => filetools::Content::Image {
                    mime_type,
                    data,
                    width,
                    height,
                },
            })
            .collect(),
        is_error: result.is_error,
        metadata: result.metadata,
    }
}
