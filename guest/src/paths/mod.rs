//! From what the model sends to a file: [`path`] maps a model's path onto
//! the root-relative form the host understands, [`repair`] tries the
//! spellings a model cannot see before "not found", and [`danger`] refuses
//! devices and process files by name. [`fs`] is the host's side (the
//! `host-fs` interface as a trait) and `memfs` an in-memory one ([`crate::MemFs`]).

pub mod danger;
pub mod fs;
pub(crate) mod memfs;
pub mod path;
pub mod repair;
