//! Search that counts as reading (SPEC G1–G5): [`grep`] finds lines by a
//! pattern — each line it shows is a view of its file, with the file's
//! version — and [`find`] finds files by a glob. Both walk under the
//! ignore rules of [`crate::paths::walk`] and say what those left out.
//! [`matcher`] compiles the pattern, [`scan`] streams one file through it,
//! [`batch`] scans for a host that scans many files at once, and [`args`]
//! holds what each is asked for.

pub mod args;
pub mod batch;
pub mod find;
pub mod grep;
pub mod matcher;
pub mod scan;
#[cfg(test)]
mod tests;
