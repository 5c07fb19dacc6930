//! Generated bindings for the `filetools` world, and `host-fs` implemented on
//! the store's state over a [`Sandbox`]. Conversions between the sandbox's
//! types and the generated ones live here and nowhere else.

use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::sandbox::{self, Sandbox};
use std::sync::Arc;

wasmtime::component::bindgen!({
    path: "../wit",
    world: "filetools",
});

pub(crate) use self::exports::filetools::core::tools as wit;
use self::filetools::core::host_fs;
use self::filetools::core::types::{self as wit_types, DirEntry, FileKind, FsError, Metadata};

/// Everything one store holds.
pub(crate) struct StoreState {
    pub wasi: WasiCtx,
    pub table: ResourceTable,
    pub sandbox: Arc<Sandbox>,
    pub limits: wasmtime::StoreLimits,
}

impl WasiView for StoreState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl From<sandbox::Kind> for FileKind {
    fn from(kind: sandbox::Kind) -> Self {
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
}

impl From<sandbox::Stat> for Metadata {
    fn from(stat: sandbox::Stat) -> Self {
        Metadata {
            kind: stat.kind.into(),
            size: stat.size,
            mtime_ns: stat.mtime_ns,
            readonly: stat.readonly,
        }
    }
}

impl From<sandbox::FsError> for FsError {
    fn from(err: sandbox::FsError) -> Self {
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
}

impl From<host_fs::Precondition> for sandbox::Precondition {
    fn from(pre: host_fs::Precondition) -> Self {
        match pre {
            host_fs::Precondition::Any => sandbox::Precondition::Any,
            host_fs::Precondition::Absent => sandbox::Precondition::Absent,
            host_fs::Precondition::Matches(stamp) => {
                sandbox::Precondition::Matches(sandbox::Stamp {
                    size: stamp.size,
                    mtime_ns: stamp.mtime_ns,
                    sha256: stamp.sha256,
                })
            }
        }
    }
}

impl wit_types::Host for StoreState {}

impl host_fs::Host for StoreState {
    fn stat(&mut self, path: String) -> Result<Metadata, FsError> {
        self.sandbox.stat(&path).map(Into::into).map_err(Into::into)
    }

    fn read(&mut self, path: String, offset: u64, len: u32) -> Result<Vec<u8>, FsError> {
        self.sandbox.read(&path, offset, len).map_err(Into::into)
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<DirEntry>, FsError> {
        let entries = self.sandbox.list_dir(&path).map_err(FsError::from)?;
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
        self.sandbox
            .write_file(&path, &data, &precondition.into())
            .map(Into::into)
            .map_err(Into::into)
    }
}
