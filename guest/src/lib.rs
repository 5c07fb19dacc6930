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
//! assert_eq!(result.text(), "1\talpha\n[lines 1-1 of 2; continue with offset=2]");
//! ```

pub mod args;
pub mod base64;
mod commit;
pub mod config;
pub mod danger;
pub mod decode;
pub mod definitions;
pub mod diff;
pub mod digest;
pub mod echo;
mod edit;
pub mod error;
pub mod fingerprint;
pub mod fs;
mod guard;
pub mod history;
pub mod image;
pub mod ledger;
mod listing;
mod memfs;
pub mod notebook;
pub mod notice;
pub mod outline;
pub mod path;
pub mod pdf;
pub mod read;
pub mod refusal;
pub mod repair;
pub mod report;
pub mod result;
#[cfg(test)]
#[expect(clippy::format_collect, reason = "test inputs; speed does not matter")]
mod scenarios;
pub mod schema;
mod session;
pub mod sniff;
pub mod state;
pub mod textfile;
pub mod trapped;
mod undo;
mod write;

#[cfg(target_arch = "wasm32")]
mod component;
#[cfg(all(target_arch = "wasm32", feature = "code"))]
mod stdio_close;

pub use config::Config;
pub use fs::{DirEntry, FileKind, FileStamp, FsError, HostFs, Metadata, Precondition};
pub use memfs::MemFs;
pub use result::{Block, ToolResult};
pub use session::Session;
