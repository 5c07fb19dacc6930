//! # filetools-core
//!
//! All logic of the filetools read/write/edit/undo tools, as plain Rust over the
//! [`HostFs`] trait. Built natively it is a library (tests, the native
//! benchmark); built for `wasm32-wasip2` the thin `component` module (wasm-only glue) exports it
//! as the `filetools:core` WebAssembly component, whose only way to files is
//! the imported `host-fs` interface.
//!
//! ## Layers
//!
//! The modules form layers, from the model's call down to the host's
//! files. A module uses its own layer and the layers below it, never one
//! above. The root re-exports by name what hosts use — [`Session`] and its
//! typed arguments ([`ReadArgs`], …), [`ToolResult`] and [`Block`], the
//! [`HostFs`] types and [`MemFs`], [`Config`] and [`ToolSet`], the tool
//! [`definitions`] and their [`Format`]s, [`Version`], [`sha256_hex`],
//! base64 — and no module. `tests/layers.rs` reads every path of the code
//! (tests aside) and fails on one that goes up or names no layer, on a cycle
//! between files of different folders, on code after a test module, and on
//! a module kept both as `x.rs` and `x/`.
//!
//! 1. `component` (wasm only): the exports of the component — sessions of
//!    the `tools` interface — over the imported `host-fs`.
//! 2. [`tools`]: the tools as the model calls them — a [`Session`], the raw
//!    arguments checked, the definitions and schemas, the tool sets and the
//!    vendors' shapes.
//! 3. [`change`]: the guarded changes — write, edit, undo, insert, patch,
//!    notebook cells — their typed arguments, the guard, the atomic commit
//!    and the all-or-nothing change of several files.
//! 4. [`view`]: what a read shows, by kind of file — text paged under the
//!    caps, outlines, images, PDFs, notebooks, listings.
//! 5. [`paths`]: from what the model sends to a file — the path mapped
//!    into the workspace, repaired, or refused by name.
//! 6. [`answers`]: everything the model reads back, rendered from typed
//!    outcomes — results, notices, reports, refusals, errors — with the
//!    tool names and the quoting of what the model sent.
//! 7. [`memory`]: what a session remembers between calls — the ledger of
//!    reads, the history for undo, the texts last seen, their checkpoints.
//! 8. [`fs`]: the host's files as the guest sees them — the [`HostFs`]
//!    trait, [`MemFs`], a recording file system, SHA-256.
//! 9. [`text`]: text without files — encodings, decoding, a file's style,
//!    folding for tolerant matching, diffs, base64.
//! 10. [`config`]: every cap and switch of a session, with its default,
//!     and the names of the tool sets.
//! 11. `imports` (wasm only): the bindings generated from `wit/`, with
//!     the two imports the layers above call directly — the host's SHA-256
//!     and the grammars' parses.
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
#![deny(missing_docs)]

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
pub use change::args::{
    EditArgs, EditOp, MarkArgs, Placement, ReplaceArgs, RewindArgs, SymbolEditArgs, UndoArgs,
    WriteArgs,
};
pub use config::{Config, ToolSet};
pub use fs::digests::{Digests, xxh3_hex};
pub use fs::host::{
    BatchFailure, DigestKind, DirEntry, FileKind, FileStamp, FsError, HostFs, Metadata,
    Precondition, ScanFile, ScanOutcome, ScanRequest,
};
pub use fs::memory::MemFs;
pub use fs::sha256::{hex, sha256_hex};
pub use memory::version::Version;
pub use text::base64::{decode as base64_decode, encode as base64_encode};
pub use tools::definitions::{Annotations, Definition, definitions};
pub use tools::schema::{Format, render as render_schema};
pub use tools::session::Session;
pub use view::read::args::ReadArgs;
pub use view::search::args::{FindArgs, GrepArgs, OutputMode};
pub use view::search::batch::BatchScanner;
