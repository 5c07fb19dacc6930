//! What a file is, from its first bytes — never from its name (SPEC R12,
//! R14, R15): images the model can see, PDFs, and the binary formats that
//! must not be shown as text. Anything else is text; a NUL byte in the
//! first block (outside UTF-16) marks an unknown binary.
//!
//! ```
//! use filetools_core::view::sniff::{Kind, sniff};
//! assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Kind::Image("image/png"));
//! assert_eq!(sniff(b"%PDF-1.7\n"), Kind::Pdf);
//! assert_eq!(sniff(b"PK\x03\x04...."), Kind::Binary("application/zip"));
//! assert_eq!(sniff(b"<svg xmlns=..."), Kind::Text);
//! ```

/// Bytes read to decide.
pub const SNIFF_BYTES: u32 = 8192;

/// A file's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text (including SVG and other XML).
    Text,
    /// An image format the model can be shown, with its MIME type.
    Image(&'static str),
    /// A PDF document.
    Pdf,
    /// Any other binary, with its MIME type.
    Binary(&'static str),
}

/// Magic numbers at offset 0.
const MAGIC: &[(&[u8], Kind)] = &[
    (b"\x89PNG\r\n\x1a\n", Kind::Image("image/png")),
    (b"\xFF\xD8\xFF", Kind::Image("image/jpeg")),
    (b"GIF87a", Kind::Image("image/gif")),
    (b"GIF89a", Kind::Image("image/gif")),
    (b"%PDF-", Kind::Pdf),
    (b"PK\x03\x04", Kind::Binary("application/zip")),
    (b"PK\x05\x06", Kind::Binary("application/zip")),
    (b"\x1F\x8B", Kind::Binary("application/gzip")),
    (b"BZh", Kind::Binary("application/x-bzip2")),
    (b"\xFD7zXZ\x00", Kind::Binary("application/x-xz")),
    (b"\x28\xB5\x2F\xFD", Kind::Binary("application/zstd")),
    (
        b"7z\xBC\xAF\x27\x1C",
        Kind::Binary("application/x-7z-compressed"),
    ),
    (b"\x7FELF", Kind::Binary("application/x-elf")),
    (b"\x00asm", Kind::Binary("application/wasm")),
    (b"\xCA\xFE\xBA\xBE", Kind::Binary("application/java-vm")),
    (
        b"\xFE\xED\xFA\xCE",
        Kind::Binary("application/x-mach-binary"),
    ),
    (
        b"\xFE\xED\xFA\xCF",
        Kind::Binary("application/x-mach-binary"),
    ),
    (
        b"\xCF\xFA\xED\xFE",
        Kind::Binary("application/x-mach-binary"),
    ),
    (
        b"SQLite format 3\x00",
        Kind::Binary("application/vnd.sqlite3"),
    ),
    (b"II*\x00", Kind::Binary("image/tiff")),
    (b"MM\x00*", Kind::Binary("image/tiff")),
    (b"\x00\x00\x01\x00", Kind::Binary("image/x-icon")),
    (b"ID3", Kind::Binary("audio/mpeg")),
    (b"OggS", Kind::Binary("audio/ogg")),
    (b"fLaC", Kind::Binary("audio/flac")),
    (b"\x1A\x45\xDF\xA3", Kind::Binary("video/webm")),
    (b"wOFF", Kind::Binary("font/woff")),
    (b"wOF2", Kind::Binary("font/woff2")),
    (b"\x00\x01\x00\x00\x00", Kind::Binary("font/ttf")),
    (b"OTTO", Kind::Binary("font/otf")),
];

/// The kind of a file whose first bytes are `head`.
pub fn sniff(head: &[u8]) -> Kind {
    if let Some((_, kind)) = MAGIC.iter().find(|(magic, _)| head.starts_with(magic)) {
        return *kind;
    }
    if head.len() >= 12 && &head[..4] == b"RIFF" {
        match &head[8..12] {
            b"WEBP" => return Kind::Image("image/webp"),
            b"WAVE" => return Kind::Binary("audio/wav"),
            b"AVI " => return Kind::Binary("video/x-msvideo"),
            _ => {}
        }
    }
    if head.len() >= 12 && &head[4..8] == b"ftyp" {
        return Kind::Binary(match &head[8..12] {
            b"heic" | b"heix" | b"mif1" => "image/heic",
            b"avif" => "image/avif",
            b"qt  " => "video/quicktime",
            _ => "video/mp4",
        });
    }
    if head.starts_with(b"BM") && head.len() >= 14 && head[6..10] == [0, 0, 0, 0] {
        return Kind::Binary("image/bmp");
    }
    let utf16 = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    if !utf16 && memchr::memchr(0, head).is_some() {
        return Kind::Binary("application/octet-stream");
    }
    Kind::Text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_are_told_apart() {
        assert_eq!(
            sniff(b"RIFF\x10\x00\x00\x00WEBPVP8 "),
            Kind::Image("image/webp")
        );
        assert_eq!(
            sniff(b"RIFF\x10\x00\x00\x00WAVEfmt "),
            Kind::Binary("audio/wav")
        );
        assert_eq!(
            sniff(b"\x00\x00\x00\x18ftypisom\x00\x00"),
            Kind::Binary("video/mp4")
        );
    }

    #[test]
    fn nul_bytes_mean_binary_except_in_utf16() {
        assert_eq!(
            sniff(b"abc\x00def"),
            Kind::Binary("application/octet-stream")
        );
        assert_eq!(sniff(b"\xFF\xFEa\x00b\x00"), Kind::Text);
        assert_eq!(sniff(b""), Kind::Text);
        assert_eq!(sniff(b"plain text\n"), Kind::Text);
    }
}
