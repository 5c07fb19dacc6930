//! From what the model sends to a file: [`path`] maps a model's path onto
//! the root-relative form the host understands, [`repair`] tries the
//! spellings a model cannot see before "not found", and [`danger`] refuses
//! devices and process files by name. [`fs`] is the host's side (the
//! `host-fs` interface as a trait), `memfs` an in-memory one
//! ([`crate::fs::memory::MemFs`]), [`recording`] one that notes (or, for a dry run,
//! holds back) the writes of another, and [`glob`] matches paths against
//! the patterns the MCP filesystem tools take.

pub mod danger;
pub mod glob;
pub mod path;
pub mod repair;
