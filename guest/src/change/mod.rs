//! The guarded changes: `write`, `edit` and `undo`, with their typed
//! [`args`]. Each loads the file as a text file with its style (see
//! [`crate::text::textfile`]), passes the `guard` (read in this session,
//! unchanged since, a regular file), works in the call's `context`, and ends
//! in one `commit` (an atomic write whose precondition is what the guard
//! checked, then the history). A file that changed since the model's view is
//! answered from its `basis`: [`hunks`] finds where it changed, and `since`
//! says so or merges the change with it. [`echo`] catches the tools' own
//! display text sent back as content.
//!
//! The operations the other tool shapes need sit beside them on the same
//! guard: `rewrite` (a guarded change of one file's lines), [`insert`],
//! [`patch`] (hunks over several files), `cells` (cells of a notebook), and
//! `batch`, which lands a change of several files all or nothing, keeping
//! its `intent` with the host so that `recover` can finish one a kill cut
//! off; `touched` and `syntax_check` say what a change left behind.

pub mod args;
pub(crate) mod basis;
pub(crate) mod batch;
pub(crate) mod cells;
#[cfg(test)]
mod changed_since_tests;
pub(crate) mod commit;
pub(crate) mod context;
pub mod echo;
pub(crate) mod edit;
pub(crate) mod guard;
pub mod hunks;
pub mod insert;
pub(crate) mod intent;
#[cfg(test)]
mod legacy_encoding_tests;
#[cfg(test)]
mod new_file_tests;
pub(crate) mod notices;
pub mod patch;
pub(crate) mod recover;
pub(crate) mod replace;
pub(crate) mod rewind;
pub(crate) mod rewrite;
pub(crate) mod since;
pub(crate) mod syntax_check;
pub(crate) mod touched;
pub(crate) mod undo;
pub(crate) mod write;
