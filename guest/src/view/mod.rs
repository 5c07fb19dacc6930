//! What a `read` shows, by kind of file: [`by_kind`] repairs the path and
//! sends each file where it belongs, by what [`sniff`] tells from its first
//! bytes; [`read`] pages text under the caps (or gives an [`outline`] of a
//! large file, or one entry by symbol); directories are listed (`listing`),
//! and [`image`]s, [`pdf`]s and [`notebook`]s are rendered for the model.
//! `raw` gives a file's text without line numbers, for the tools that show it
//! so, and [`syntax`] says whether a text parses. [`search`] holds `grep`
//! and `find`, whose hits are views too.

pub mod by_kind;
pub mod image;
pub(crate) mod listing;
pub mod notebook;
pub mod outline;
pub mod pdf;
pub(crate) mod raw;
pub mod read;
pub mod search;
pub mod sniff;
pub mod syntax;
