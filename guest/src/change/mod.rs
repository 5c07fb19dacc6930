//! The guarded changes: `write`, `edit` and `undo`. Each loads the file as
//! a [`textfile`] (strictly decoded, with its style), passes the
//! `guard` (read in this session, unchanged since, a regular file), and
//! ends in one `commit` (an atomic write whose precondition is what the
//! guard checked, then the history). [`echo`] catches the tools' own display
//! text sent back as content; [`diff`] finds what a write changed.

pub(crate) mod commit;
pub mod diff;
pub mod echo;
pub(crate) mod edit;
pub(crate) mod guard;
pub mod textfile;
pub(crate) mod undo;
pub(crate) mod write;
