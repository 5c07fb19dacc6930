//! Text encodings a file may be in (SPEC R11, R20, W9): UTF-8, UTF-16 announced
//! by a BOM, and the legacy encodings of the WHATWG Encoding Standard
//! (windows-1252, windows-1251, Shift_JIS, GBK, EUC-KR, …). Names are the
//! standard's; any of its labels is accepted (`latin1`, `cp1252`, `sjis`).
//!
//! ```
//! use filetools_core::text::encoding::Encoding;
//! let latin = Encoding::from_label("latin1").unwrap();
//! assert_eq!(latin.name(), "windows-1252");
//! assert_eq!(latin.encode("café").unwrap(), b"caf\xe9");
//! let err = latin.encode("a → b").unwrap_err();
//! assert_eq!(err.chars, vec!['→']);
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::text::textfile::line_of;

/// Most distinct characters an [`Unmappable`] names.
pub const MAX_UNMAPPABLE_NAMED: usize = 8;

/// A text encoding the decoder understands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, with or without a BOM.
    Utf8,
    /// UTF-16, little endian, announced by a BOM.
    Utf16Le,
    /// UTF-16, big endian, announced by a BOM.
    Utf16Be,
    /// A legacy encoding, decoded and encoded by `encoding_rs`.
    Legacy(&'static encoding_rs::Encoding),
}

/// Characters of a text that an encoding cannot represent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmappable {
    /// The encoding's name.
    pub encoding: &'static str,
    /// The first distinct ones, at most [`MAX_UNMAPPABLE_NAMED`].
    pub chars: Vec<char>,
    /// 1-based line of the first.
    pub line: u64,
}

impl Encoding {
    /// The encoding a label names (`utf-8`, `latin1`, `shift_jis`, …), or
    /// `None` for an unknown label or one a file is not read or written in
    /// by name: `replacement`, and UTF-16, which a BOM announces (a file
    /// read as UTF-16 without one would gain a BOM when written).
    pub fn from_label(label: &str) -> Option<Self> {
        Self::from_name(label)
            .filter(|encoding| !matches!(encoding, Encoding::Utf16Le | Encoding::Utf16Be))
    }

    /// Like [`Encoding::from_label`], UTF-16 included: the encodings a
    /// file's recorded style may have.
    fn from_name(label: &str) -> Option<Self> {
        let found = encoding_rs::Encoding::for_label(label.trim().as_bytes())?;
        if found == encoding_rs::UTF_8 {
            Some(Encoding::Utf8)
        } else if found == encoding_rs::UTF_16LE {
            Some(Encoding::Utf16Le)
        } else if found == encoding_rs::UTF_16BE {
            Some(Encoding::Utf16Be)
        } else if found == encoding_rs::REPLACEMENT || found.output_encoding() != found {
            None
        } else {
            Some(Encoding::Legacy(found))
        }
    }

    /// The name shown to the model.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Legacy(encoding) => encoding.name(),
        }
    }

    /// Whether this is a legacy (single- or multi-byte, non-Unicode) one.
    pub fn is_legacy(self) -> bool {
        matches!(self, Encoding::Legacy(_))
    }

    /// `text` as bytes in this encoding, without a BOM; refuses text with
    /// characters the encoding cannot represent instead of replacing them.
    pub fn encode(self, text: &str) -> Result<Vec<u8>, Unmappable> {
        match self {
            Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
            Encoding::Utf16Le => Ok(text.encode_utf16().flat_map(u16::to_le_bytes).collect()),
            Encoding::Utf16Be => Ok(text.encode_utf16().flat_map(u16::to_be_bytes).collect()),
            Encoding::Legacy(encoding) => encode_legacy(encoding, text),
        }
    }
}

fn encode_legacy(
    encoding: &'static encoding_rs::Encoding,
    text: &str,
) -> Result<Vec<u8>, Unmappable> {
    let (bytes, _, unmappable) = encoding.encode(text);
    if !unmappable {
        return Ok(bytes.into_owned());
    }
    let mut chars = Vec::new();
    let mut line = None;
    let mut buf = [0u8; 4];
    for (at, ch) in text.char_indices() {
        if chars.contains(&ch) || ch.is_ascii() {
            continue;
        }
        let (_, _, lost) = encoding.encode(ch.encode_utf8(&mut buf));
        if lost {
            line.get_or_insert_with(|| line_of(text, at));
            chars.push(ch);
            if chars.len() == MAX_UNMAPPABLE_NAMED {
                break;
            }
        }
    }
    Err(Unmappable {
        encoding: encoding.name(),
        chars,
        line: line.unwrap_or(1),
    })
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Serialized as its lower-case name: `"utf-8"`, `"utf-16le"`,
/// `"windows-1252"`, `"shift_jis"`.
impl Serialize for Encoding {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name().to_ascii_lowercase())
    }
}

impl<'de> Deserialize<'de> for Encoding {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let label = String::deserialize(deserializer)?;
        Encoding::from_name(&label)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown encoding {label:?}")))
    }
}

/// `U+XXXX 'c'` for each character, comma-separated.
pub fn describe_chars(chars: &[char]) -> String {
    chars
        .iter()
        .map(|ch| format!("U+{:04X} '{ch}'", u32::from(*ch)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_standard_encodings() {
        let names: Vec<_> = ["utf8", "latin1", "cp1251", "sjis", "gbk", "euc-kr", "big5"]
            .iter()
            .map(|label| Encoding::from_label(label).map(Encoding::name))
            .collect();
        assert_eq!(
            names,
            [
                Some("UTF-8"),
                Some("windows-1252"),
                Some("windows-1251"),
                Some("Shift_JIS"),
                Some("GBK"),
                Some("EUC-KR"),
                Some("Big5")
            ]
        );
        assert_eq!(Encoding::from_label("klingon"), None);
        assert_eq!(Encoding::from_label("replacement"), None);
        assert_eq!(Encoding::from_label("utf-16le"), None);
    }

    #[test]
    fn serializes_as_lower_case_names_and_back() {
        for label in [
            "utf-8",
            "utf-16le",
            "utf-16be",
            "windows-1252",
            "shift_jis",
            "euc-kr",
        ] {
            let encoding = Encoding::from_name(label).unwrap();
            let json = serde_json::to_string(&encoding).unwrap();
            assert_eq!(json, format!("\"{label}\""));
            assert_eq!(serde_json::from_str::<Encoding>(&json).unwrap(), encoding);
        }
    }

    #[test]
    fn unmappable_characters_are_named_once_with_their_line() {
        let cyrillic = Encoding::from_label("windows-1251").unwrap();
        let err = cyrillic.encode("привет\n€ ok\n日本 日\n").unwrap_err();
        assert_eq!((err.chars, err.line), (vec!['日', '本'], 3));
        assert_eq!(describe_chars(&['日']), "U+65E5 '日'");
    }
}
