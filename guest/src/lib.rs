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

// The layers, from the model's call down to the host's files.
pub mod answers;
pub mod change;
pub mod config;
pub mod fs;
pub mod memory;
pub mod paths;
pub mod text;
pub mod tools;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod component;
#[cfg(target_arch = "wasm32")]
mod imports;
#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod scenarios;

pub use answers::result::{Block, ToolResult};
pub use config::Config;
pub use fs::host::{DirEntry, FileKind, FileStamp, FsError, HostFs, Metadata, Precondition};
pub use fs::memory::MemFs;
pub use tools::session::Session;
