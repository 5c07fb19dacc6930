//! # filetools-core
//!
//! All logic of the filetools read/write/edit/undo tools, as plain Rust over the
//! [`HostFs`] trait. Built natively it is a library (tests, the native
//! benchmark); built for `wasm32-wasip2` the thin `component` module (wasm-only glue) exports it
//! as the `filetools:core` WebAssembly component, whose only way to files is
//! the imported `host-fs` interface.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("notes.txt", b"alpha\nbeta\n");
//! let mut session = Session::open("{}", fs).unwrap();
//! let result = session.call("read", r#"{"file_path": "notes.txt", "limit": 1}"#);
//! assert_eq!(
//!     result.text(),
//!     "1\talpha\n[lines 1-1 of 2; continue with offset=2]\n[version f5b0de433497dee6-11]"
//! );
//! ```

// The layers, from the model's call down to the host's files; each
// directory's module says what it holds.
pub mod answers;
pub mod change;
pub mod memory;
pub mod paths;
pub mod tools;
pub mod view;

pub mod config;
#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod scenarios;

// Every module is also reachable at the root, by the path it had before the
// layers: `filetools_core::args`, `crate::ledger`, …
pub use answers::{base64, error, notice, refusal, report, result, syntax_note, trapped};
use change::{
    batch, cells, commit, edit, guard, intent, moved, recover, rewrite, since, syntax_check,
    touched, undo, write,
};
pub use change::{diff, echo, hunks, insert, patch, textfile};
pub use memory::{digest, fingerprint, history, ledger, state, version};
use paths::memfs;
pub use paths::{danger, fs, glob, path, recording, repair};
use tools::session;
pub use tools::{args, definitions, schema, sets, shapes};
pub use view::{decode, detect, encoding, image, notebook, outline, pdf, read, sniff, syntax};
use view::{listing, raw, utf8};

#[cfg(target_arch = "wasm32")]
mod component;

pub use config::Config;
pub use fs::{DirEntry, FileKind, FileStamp, FsError, HostFs, Metadata, Precondition};
pub use memfs::MemFs;
pub use result::{Block, ToolResult};
pub use session::Session;
