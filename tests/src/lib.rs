//! Cross-host conformance for filetools (SPEC §8, STYLE 11).
//!
//! A case is a folder `tests/cases/<area>/<name>/` holding
//! - `fs/` — the files the tools see (byte-exact; see `.gitattributes`),
//! - `generate.json` — optional large or binary inputs made at test time
//!   (text patterns, raw byte prefixes, images, PDFs),
//! - `config.json` — optional session config,
//! - `calls.jsonl` — one protocol line per call, `{"tool": .., "args": {..}}`,
//! - `expected.txt` — the transcript every host must produce.
//!
//! [`hosts`] runs a case on each host; [`transcript`] renders the results;
//! `FILETOOLS_BLESS=1` rewrites `expected.txt` from the wasmtime host.
//!
//! [`reliability`] tries the host's promises under races, kills and bad
//! input, driving the `filetools` binary through [`cli`].

pub use filetools_cases::{case, images, pdfs};

pub mod cli;
pub mod hostile;
pub mod hosts;
pub mod http;
pub mod real_files;
pub mod redis;
pub mod reliability;
pub mod transcript;
