//! # filetools
//!
//! Runs the filetools WebAssembly component with wasmtime (SPEC H1). A
//! [`Tools`] loads the component's machine code — precompiled when this
//! crate was built, then cached on disk; compiled only when neither suits
//! the machine — and hands out cheap [`Session`]s, one per agent conversation, each in
//! its own store with a memory limit and a per-call deadline. The component
//! sees files only through `host-fs`, served here by a [`Sandbox`] over one
//! root directory, or by any [`HostFs`] that is `Send + Sync`
//! ([`Builder::fs`]: an in-memory `Mutex<MemFs>`, an [`Overlay`] whose
//! changes stay in memory, a remote store); it gets WASI with no authority at
//! all (no preopens, no environment, no stdio).
//!
//! ```
//! # fn main() -> anyhow::Result<()> {
//! let dir = std::env::temp_dir().join(format!("filetools-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("a.txt"), "one\ntwo\n")?;
//! let tools = filetools::Tools::builder().root(&dir).build()?;
//! let mut session = tools.session()?;
//! let result = session.call("read", r#"{"file_path": "a.txt", "limit": 1}"#);
//! assert_eq!(
//!     result.text(),
//!     "1\tone\n[lines 1-1 of 2; continue with offset=2]\n[version e133445055664dac-8]"
//! );
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

mod ahead;
mod backend;
mod bindings;
pub mod cache;
mod cores;
mod engine;
mod engine_config;
mod grammars;
pub mod imports;
mod journal;
pub mod limits;
pub mod mcp;
mod overlay;
mod owner;
mod prefetch;
mod private_dir;
pub mod private_file;
pub mod protocol;
pub mod sandbox;
mod scan;
pub mod serve;
mod session;
mod shared;
mod state_log;
mod store_state;
mod tools;

pub use engine::LoadSource;
pub use filetools_core::Format;
pub use filetools_core::ReadArgs;
pub use filetools_core::{Annotations, Definition as ToolDefinition};
pub use filetools_core::{Block, Config, HostFs, MemFs, ToolResult};
pub use filetools_core::{
    EditArgs, EditOp, MarkArgs, Placement, ReplaceArgs, RewindArgs, SymbolEditArgs, UndoArgs,
    WriteArgs,
};
pub use filetools_core::{FindArgs, GrepArgs, OutputMode};
pub use limits::{DEFAULT_CALL_TIMEOUT, DEFAULT_MEMORY_LIMIT};
pub use overlay::Overlay;
pub use sandbox::Sandbox;
pub use session::{CheckpointCost, Definition, Session};
pub use state_log::LOG_HEADER as STATE_LOG_HEADER;
pub use tools::{Builder, Tools};
