//! The bindings generated from `wit/`: the tools' world, whose instance a
//! session calls, and the grammars' world, whose instance serves the tools'
//! `code` import. Both worlds use the `code-types` interface, and the
//! grammars' bindings take its types from the tools' (bindgen's `with`), so
//! a parse's answer passes from one instance to the other as it is. Every
//! conversion between the core's types and the generated ones lives here
//! and nowhere else.

use filetools_core as core;
use filetools_core::ReadArgs;
use filetools_core::{EditArgs, EditOp, UndoArgs, WriteArgs};

wasmtime::component::bindgen!({
    path: "wit",
    world: "filetools",
    imports: {
        // A parse may stop the call (the grammars' instance trapped).
        "filetools:core/code": trappable,
    },
});

/// The grammars' world, with the types of `code-types` the tools' world
/// has.
pub(crate) mod grammars {
    wasmtime::component::bindgen!({
        path: "wit",
        world: "filetools-code",
        with: {
            "filetools:core/code-types": crate::bindings::filetools::core::code_types,
        },
    });
}

pub(crate) use self::exports::filetools::core::tools as wit;
use self::filetools::core::host_fs;
use self::filetools::core::types::{DirEntry, FileKind, FsError, Metadata};

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

impl From<core::DirEntry> for DirEntry {
    fn from(entry: core::DirEntry) -> Self {
        Self {
            name: entry.name,
            kind: entry.kind.into(),
            size: entry.size,
            mtime_ns: entry.mtime_ns,
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
                xxh3: stamp.xxh3,
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

impl From<&ReadArgs> for wit::ReadArgs {
    fn from(args: &ReadArgs) -> Self {
        Self {
            file_path: args.file_path.clone(),
            offset: args.offset,
            limit: args.limit,
            char_offset: args.char_offset,
            pages: args.pages.clone(),
            symbol: args.symbol.clone(),
            encoding: args.encoding.clone(),
        }
    }
}

impl From<&WriteArgs> for wit::WriteArgs {
    fn from(args: &WriteArgs) -> Self {
        Self {
            file_path: args.file_path.clone(),
            content: args.content.clone(),
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        }
    }
}

impl From<&EditOp> for wit::EditOp {
    fn from(op: &EditOp) -> Self {
        Self {
            old_string: op.old_string.clone(),
            new_string: op.new_string.clone(),
            replace_all: op.replace_all,
        }
    }
}

impl From<&EditArgs> for wit::EditArgs {
    fn from(args: &EditArgs) -> Self {
        Self {
            file_path: args.file_path.clone(),
            edits: args.edits.iter().map(Into::into).collect(),
            encoding: args.encoding.clone(),
            expect: args.expect.clone(),
        }
    }
}

impl From<&UndoArgs> for wit::UndoArgs {
    fn from(args: &UndoArgs) -> Self {
        Self {
            file_path: args.file_path.clone(),
            expect: args.expect.clone(),
        }
    }
}
