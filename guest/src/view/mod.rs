//! What a `read` shows, by kind of file: [`sniff`] tells the kind from the
//! first bytes, [`decode`] turns text of any encoding into UTF-8 as it
//! streams, [`read`] pages it under the caps (or gives an [`outline`] of a
//! large file); directories are listed (`listing`), and [`image`]s,
//! [`pdf`]s and [`notebook`]s are rendered for the model. `raw` gives a
//! file's text without line numbers, for the tools that show it so.

pub mod by_kind;
pub mod image;
pub(crate) mod listing;
pub mod notebook;
pub mod outline;
pub mod pdf;
pub(crate) mod raw;
pub mod read;
pub mod sniff;
pub mod syntax;
