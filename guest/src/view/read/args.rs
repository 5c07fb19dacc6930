//! [`ReadArgs`]: what a `read` is asked for, typed, and the rules every
//! host's arguments share: a 0 offset or char offset means the first, a 0
//! limit is refused, `pages` is a page or a range, `symbol` stands alone,
//! `block` goes with `offset` alone.
//! The model's raw JSON becomes one in the tools' argument checks.
//!
//! ```
//! use filetools_core::view::read::args::ReadArgs;
//! let args = ReadArgs { file_path: "a.pdf".into(), pages: Some("3-7".into()), ..ReadArgs::default() };
//! assert_eq!(args.checked().unwrap().page_range(), Some((3, 7)));
//! ```

use crate::answers::error::ToolError;
use crate::answers::quote::quoted;
use crate::answers::tool::Tool;
use crate::text::encoding::Encoding;

/// Longest `symbol` taken: names in outlines are cut at 80 characters, so a
/// path of them is never this long.
pub const MAX_SYMBOL_BYTES: usize = 1024;

/// Files one `read` takes in its `file_paths`.
pub const MAX_READ_FILES: usize = 20;

/// Typed arguments of `read`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadArgs {
    /// The path as the model sent it.
    pub file_path: String,
    /// First line, 1-based.
    pub offset: Option<u64>,
    /// Maximum lines.
    pub limit: Option<u64>,
    /// 1-based character position within line `offset`.
    pub char_offset: Option<u64>,
    /// Pages of a PDF, `"3"` or `"3-7"`.
    pub pages: Option<String>,
    /// An outline entry whose lines to show, e.g. `"Decimal.__new__"`.
    pub symbol: Option<String>,
    /// Instead of the lines from `offset` on: the innermost outline entry
    /// that holds line `offset`.
    pub block: bool,
    /// The encoding to read a file without a BOM as, e.g. `"shift_jis"`.
    pub encoding: Option<String>,
}

impl ReadArgs {
    /// The arguments as the model would send them.
    pub fn to_json(&self) -> String {
        let mut map = serde_json::Map::new();
        map.insert("file_path".to_owned(), self.file_path.clone().into());
        let numbers = [
            ("offset", self.offset),
            ("limit", self.limit),
            ("char_offset", self.char_offset),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                map.insert(name.to_owned(), value.into());
            }
        }
        let strings = [
            ("pages", &self.pages),
            ("symbol", &self.symbol),
            ("encoding", &self.encoding),
        ];
        for (name, value) in strings {
            if let Some(value) = value {
                map.insert(name.to_owned(), value.clone().into());
            }
        }
        if self.block {
            map.insert("block".to_owned(), true.into());
        }
        serde_json::Value::Object(map).to_string()
    }

    /// The page range asked for, `(first, last)`, 1-based.
    pub fn page_range(&self) -> Option<(u64, u64)> {
        self.pages.as_deref().and_then(parse_pages)
    }

    /// The same rules for typed arguments: a 0 offset or char offset means
    /// 1, a 0 limit is refused, `pages` must be a page or a range.
    pub fn checked(self) -> Result<Self, ToolError> {
        if let Some(pages) = &self.pages
            && parse_pages(pages).is_none()
        {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Read,
                name: "pages",
                expected: "a page or range like \"3\" or \"3-7\"",
                got: format!("{pages:?}"),
            });
        }
        if let Some(symbol) = &self.symbol {
            let beside = [
                ("offset", self.offset.is_some()),
                ("limit", self.limit.is_some()),
                ("char_offset", self.char_offset.is_some()),
                ("pages", self.pages.is_some()),
            ];
            if let Some((name, _)) = beside.iter().find(|(_, given)| *given) {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Read,
                    name: "symbol",
                    expected: "given alone: it names the lines to show, as offset and limit do",
                    got: format!("{name} beside it"),
                });
            }
            checked_symbol(Tool::Read, symbol)?;
        }
        if self.block {
            let beside = [
                ("limit", self.limit.is_some()),
                ("char_offset", self.char_offset.is_some()),
                ("pages", self.pages.is_some()),
                ("symbol", self.symbol.is_some()),
            ];
            let with = match beside.iter().find(|(_, given)| *given) {
                Some((name, _)) => Some(format!("{name} beside it")),
                None if self.offset.is_none() => Some("no offset".to_owned()),
                None => None,
            };
            if let Some(got) = with {
                return Err(ToolError::InvalidArgument {
                    tool: Tool::Read,
                    name: "block",
                    expected: "given with offset alone: the entry holding that line is shown",
                    got,
                });
            }
        }
        if self.limit == Some(0) {
            return Err(ToolError::InvalidArgument {
                tool: Tool::Read,
                name: "limit",
                expected: "an integer >= 1",
                got: "0".to_owned(),
            });
        }
        Ok(Self {
            offset: self.offset.map(|n| n.max(1)),
            char_offset: self.char_offset.map(|n| n.max(1)),
            ..self
        })
    }
}

/// Refuses a `symbol` argument of `tool` that is empty, or too long to be
/// an outline entry's name.
pub fn checked_symbol(tool: Tool, symbol: &str) -> Result<(), ToolError> {
    if symbol.trim().is_empty() || symbol.len() > MAX_SYMBOL_BYTES {
        return Err(ToolError::InvalidArgument {
            tool,
            name: "symbol",
            expected: "an outline entry's name, e.g. \"Decimal.__new__\", of at most 1024 bytes",
            got: format!("{symbol:?}"),
        });
    }
    Ok(())
}

/// `"3"` or `"3-7"` as `(first, last)`; `None` when malformed or backwards.
fn parse_pages(text: &str) -> Option<(u64, u64)> {
    let number = |s: &str| s.trim().parse::<u64>().ok().filter(|n| *n >= 1);
    match text.split_once('-') {
        Some((a, b)) => Some((number(a)?, number(b)?)).filter(|(a, b)| a <= b),
        None => number(text).map(|n| (n, n)),
    }
}

/// The encoding an `encoding` argument names, checked.
pub fn named_encoding(tool: Tool, label: Option<&str>) -> Result<Option<Encoding>, ToolError> {
    let Some(label) = label else {
        return Ok(None);
    };
    Encoding::from_label(label)
        .map(Some)
        .ok_or_else(|| ToolError::InvalidArgument {
            tool,
            name: "encoding",
            expected: "an encoding name such as \"utf-8\", \"windows-1252\", \"windows-1251\", \"shift_jis\", \"gbk\" or \"euc-kr\"",
            got: quoted(label),
        })
}
