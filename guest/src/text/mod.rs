//! Text without files: the encodings a file may be in ([`encoding`]), which
//! one it is ([`detect`]), bytes decoded as they stream ([`decode`], checked
//! a SIMD block at a time by `utf8`), a whole file with its style for
//! changes ([`textfile`]), the folding behind tolerant matching (`fold`),
//! the changed region of two versions ([`diff`]) and [`base64`].

pub mod base64;
pub mod decode;
pub mod detect;
pub mod diff;
pub mod encoding;
pub(crate) mod fold;
pub mod textfile;
pub(crate) mod utf8;
