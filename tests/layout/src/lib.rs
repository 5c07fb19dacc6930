//! The conformance cases (`tests/cases/<area>/<name>/`): [`case`] loads a
//! case folder and lays its files out, drawing the generated inputs —
//! text patterns and encodings, raw bytes, [`images`] and [`pdfs`], each
//! written by code of its own ([`png`], [`jpeg`], [`zlib`]) simple enough
//! for the npm package's layout to write byte for byte the same. The
//! `cases` binary lays every case out for the hosts that do not run Rust.
//! It depends on nothing of the host, so it builds in seconds.

pub mod case;
pub mod images;
pub mod jpeg;
pub mod pdfs;
pub mod png;
pub mod zlib;
