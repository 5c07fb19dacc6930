//! JSON outline: the key tree with line ranges. An array says how many items
//! it has; its object and array items become `[i]` entries, its scalars are
//! only counted. Comments (JSONC) are skipped; at a syntax error the outline
//! stops with what was found.

use super::{MAX_NESTING, Symbol};

/// The key tree of `text`.
pub(crate) fn keys(text: &str) -> Vec<Symbol> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        at: 0,
        line: 1,
    };
    scanner.blank();
    let start = scanner.line;
    match scanner.peek() {
        Some(b'{') => scanner.object(0).unwrap_or_default(),
        Some(b'[') => {
            let mut root = Symbol {
                name: "root".to_owned(),
                start,
                ..Symbol::default()
            };
            if let Some((items, count)) = scanner.array(0) {
                root.children = items;
                root.detail = Some(items_note(count));
            }
            root.end = scanner.line;
            vec![root]
        }
        _ => Vec::new(),
    }
}

pub(crate) fn items_note(count: usize) -> String {
    format!("[{count} {}]", if count == 1 { "item" } else { "items" })
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
}

/// What a value held: entries for its nested keys or items.
struct Value {
    children: Vec<Symbol>,
    detail: Option<String>,
    container: bool,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        if byte == b'\n' {
            self.line += 1;
        }
        Some(byte)
    }

    /// Skips whitespace and comments.
    fn blank(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => {
                    self.bump();
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.bump();
                    }
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    self.at += 2;
                    while self.peek().is_some()
                        && !(self.peek() == Some(b'*')
                            && self.bytes.get(self.at + 1) == Some(&b'/'))
                    {
                        self.bump();
                    }
                    self.at = (self.at + 2).min(self.bytes.len());
                }
                _ => return,
            }
        }
    }

    /// An object at `{`; `None` at a syntax error.
    fn object(&mut self, depth: usize) -> Option<Vec<Symbol>> {
        self.bump();
        let mut entries = Vec::new();
        loop {
            self.blank();
            match self.peek()? {
                b'}' => {
                    self.bump();
                    return Some(entries);
                }
                b',' => {
                    self.bump();
                }
                b'"' => {
                    let start = self.line;
                    let name = self.string()?;
                    self.blank();
                    if self.bump()? != b':' {
                        return None;
                    }
                    self.blank();
                    let value = self.value(depth + 1)?;
                    entries.push(Symbol {
                        name,
                        detail: value.detail,
                        start,
                        end: self.line,
                        children: value.children,
                        ..Symbol::default()
                    });
                }
                _ => return None,
            }
        }
    }

    /// An array at `[`: its container items as `[i]` entries, and how many
    /// items it has.
    fn array(&mut self, depth: usize) -> Option<(Vec<Symbol>, usize)> {
        self.bump();
        let mut items = Vec::new();
        let mut count = 0;
        loop {
            self.blank();
            match self.peek()? {
                b']' => {
                    self.bump();
                    return Some((items, count));
                }
                b',' => {
                    self.bump();
                }
                _ => {
                    let start = self.line;
                    let value = self.value(depth + 1)?;
                    if value.container {
                        items.push(Symbol {
                            name: format!("[{count}]"),
                            detail: value.detail,
                            start,
                            end: self.line,
                            children: value.children,
                            ..Symbol::default()
                        });
                    }
                    count += 1;
                }
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        let deep = depth >= MAX_NESTING;
        match self.peek()? {
            b'{' if deep => self.skip_container().map(|()| container(Vec::new(), None)),
            b'[' if deep => self.skip_container().map(|()| container(Vec::new(), None)),
            b'{' => self.object(depth).map(|keys| container(keys, None)),
            b'[' => self
                .array(depth)
                .map(|(items, count)| container(items, Some(items_note(count)))),
            b'"' => self.string().map(|_| scalar()),
            _ => {
                while self.peek().is_some_and(|b| {
                    !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n' | b'/')
                }) {
                    self.bump();
                }
                Some(scalar())
            }
        }
    }

    /// Skips a nested container without recursing.
    fn skip_container(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                _ => {}
            }
            self.bump();
            if depth == 0 {
                return Some(());
            }
        }
    }

    /// A string at `"`, unescaped only as far as a name needs.
    fn string(&mut self) -> Option<String> {
        self.bump();
        let from = self.at;
        loop {
            match self.bump()? {
                b'"' => break,
                b'\\' => {
                    self.bump()?;
                }
                _ => {}
            }
        }
        let raw = &self.bytes[from..self.at - 1];
        Some(String::from_utf8_lossy(raw).into_owned())
    }
}

fn container(children: Vec<Symbol>, detail: Option<String>) -> Value {
    Value {
        children,
        detail,
        container: true,
    }
}

fn scalar() -> Value {
    Value {
        children: Vec::new(),
        detail: None,
        container: false,
    }
}
