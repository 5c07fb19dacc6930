//! File names that are not UTF-8, in a protocol whose paths are strings:
//! listed with each byte that is not part of a UTF-8 character written
//! `\xNN` (and a backslash `\\`), so two such names never look alike, nor
//! like their U+FFFD spelling; and named back in that form. A component is
//! read back as bytes only when its bytes are not UTF-8, an entry bears
//! those bytes and none bears the component literally: every UTF-8 name
//! keeps meaning itself, and a new file always gets the name as spelled.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::{Path, PathBuf};

/// `name` as listed: itself when it is UTF-8, else escaped.
pub(super) fn shown(name: &OsStr) -> String {
    if let Some(text) = name.to_str() {
        return text.to_owned();
    }
    let mut shown = String::new();
    for chunk in name.as_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                shown.push_str("\\\\");
            } else {
                shown.push(c);
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(shown, "\\x{byte:02x}");
        }
    }
    shown
}

/// The bytes an escaped `component` names, when it is an escaped name:
/// its escapes read back give bytes that are not UTF-8.
fn unescaped(component: &str) -> Option<OsString> {
    if !component.contains("\\x") {
        return None;
    }
    let mut bytes = Vec::with_capacity(component.len());
    let mut rest = component.as_bytes();
    while let Some((&first, more)) = rest.split_first() {
        match (first, more) {
            (b'\\', [b'\\', after @ ..]) => {
                bytes.push(b'\\');
                rest = after;
            }
            (b'\\', [b'x', high, low, after @ ..]) => {
                let hex = std::str::from_utf8(&[*high, *low]).ok()?.to_owned();
                bytes.push(u8::from_str_radix(&hex, 16).ok()?);
                rest = after;
            }
            (b'\\', _) => return None,
            _ => {
                bytes.push(first);
                rest = more;
            }
        }
    }
    std::str::from_utf8(&bytes)
        .is_err()
        .then(|| OsString::from_vec(bytes))
}

/// `path` with each escaped component read back as its bytes where an
/// entry bears them and none bears the component literally; `exists` says
/// whether a path exists.
pub(super) fn named(path: &Path, exists: impl Fn(&Path) -> bool) -> Cow<'_, Path> {
    if !path.as_os_str().as_bytes().windows(2).any(|w| w == b"\\x") {
        return Cow::Borrowed(path);
    }
    let mut named = PathBuf::new();
    for component in path {
        let literal = named.join(component);
        match component.to_str().and_then(unescaped) {
            Some(bytes) if !exists(&literal) && exists(&named.join(&bytes)) => named.push(bytes),
            _ => named = literal,
        }
    }
    Cow::Owned(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_is_not_utf8_is_escaped_and_read_back() {
        let raw = OsStr::from_bytes(b"caf\xe9 \\ \xff.txt");
        let shown = shown(raw);
        assert_eq!(shown, "caf\\xe9 \\\\ \\xff.txt");
        assert_ne!(shown, raw.to_string_lossy());
        let path = PathBuf::from(format!("dir/{shown}"));
        let raw_path = Path::new(OsStr::from_bytes(b"dir/caf\xe9 \\ \xff.txt"));
        let back = named(&path, |p| p == raw_path || p == Path::new("dir"));
        assert_eq!(back.as_os_str().as_bytes(), raw_path.as_os_str().as_bytes());
        assert_eq!(
            named(&path, |_| false),
            path,
            "a new file gets the name as spelled"
        );
    }

    #[test]
    fn a_utf8_name_is_itself_even_when_it_looks_escaped() {
        assert_eq!(shown(OsStr::new("a\\xff")), "a\\xff");
        let path = Path::new("a\\xff");
        assert_eq!(named(path, |_| true), Path::new("a\\xff"));
        assert_eq!(named(Path::new("a\\x41"), |_| false), Path::new("a\\x41"));
        assert_eq!(
            named(Path::new("plain/name.txt"), |_| false),
            Path::new("plain/name.txt")
        );
    }
}
