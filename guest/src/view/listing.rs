//! A directory read (SPEC R16): a short listing with kinds and sizes instead
//! of an error, paged like lines — `offset` and `limit` count entries, at
//! most [`crate::config::Config::max_dir_entries`] per call — and ending, like every
//! read, with where it stopped and the next call.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("src/lib.rs", b"pub fn f() {}\n");
//! fs.add_dir("src/read");
//! let mut session = Session::open("{}", fs).unwrap();
//! let result = session.call("read", r#"{"file_path": "src"}"#);
//! assert_eq!(result.text(), "[directory src: 1 directory, 1 file]\nlib.rs\t14 bytes\nread/\n[entries 1-2 of 2; read a file by its path, e.g. src/lib.rs]");
//! ```

use std::fmt::Write as _;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::notice::Size;
use crate::answers::result::ToolResult;
use crate::config::Config;
use crate::fs::host::{FileKind, HostFs};
use crate::view::read::args::ReadArgs;

/// Lists the directory `rel` (the model's `path`) for `read`.
pub(crate) fn list<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
) -> Result<ToolResult, ToolError> {
    let entries = fs
        .list_dir(rel)
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    let total = entries.len() as u64;
    let dirs = entries
        .iter()
        .filter(|e| e.kind == FileKind::Directory)
        .count();
    let files = entries.iter().filter(|e| e.kind == FileKind::File).count();
    let others = entries.len() - dirs - files;
    let mut text = format!(
        "[directory {rel}: {}",
        count(dirs, "directory", "directories")
    );
    let _ = write!(text, ", {}", count(files, "file", "files"));
    if others > 0 {
        let _ = write!(text, ", {}", count(others, "other", "others"));
    }
    text.push_str("]\n");
    let first = args.offset.unwrap_or(1);
    let limit = args
        .limit
        .unwrap_or(config.max_dir_entries)
        .min(config.max_dir_entries);
    let shown: Vec<_> = entries
        .iter()
        .skip(usize::try_from(first - 1).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .collect();
    for entry in &shown {
        match entry.kind {
            FileKind::Directory => {
                let _ = writeln!(text, "{}/", entry.name);
            }
            FileKind::File => {
                let _ = writeln!(text, "{}\t{}", entry.name, Size(entry.size));
            }
            kind => {
                let _ = writeln!(text, "{}\t{}", entry.name, kind.describe());
            }
        }
    }
    let last = first + shown.len() as u64 - 1;
    let prefix = if rel == "." {
        String::new()
    } else {
        format!("{rel}/")
    };
    let example = entries
        .iter()
        .find(|e| e.kind == FileKind::File)
        .map(|e| format!(", e.g. {prefix}{}", e.name))
        .unwrap_or_default();
    if total == 0 {
        text.push_str("[the directory is empty]");
    } else if shown.is_empty() {
        let _ = write!(
            text,
            "[the directory has {total} entries; offset {first} is past the end]"
        );
    } else if last < total {
        let _ = write!(
            text,
            "[entries {first}-{last} of {total}; continue with offset={}]",
            last + 1
        );
    } else {
        let _ = write!(
            text,
            "[entries {first}-{last} of {total}; read a file by its path{example}]"
        );
    }
    let metadata = json!({
        "kind": "directory",
        "path": rel,
        "entries": total,
        "shown": shown.len(),
        "next_offset": (last < total && !shown.is_empty()).then_some(last + 1),
    });
    Ok(crate::view::read::fact(config, text, metadata))
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    #[test]
    fn big_directories_are_paged_by_entries() {
        let fs = MemFs::new();
        for n in 0..250 {
            fs.add_file(&format!("d/f{n:03}.txt"), b"x");
        }
        let mut session = Session::open(r#"{"max_dir_entries": 100}"#, fs).unwrap();
        let first = session.call("read", r#"{"file_path": "d"}"#);
        assert!(
            first
                .text()
                .ends_with("[entries 1-100 of 250; continue with offset=101]"),
            "{}",
            first.text()
        );
        let last = session.call("read", r#"{"file_path": "d", "offset": 201}"#);
        assert!(
            last.text()
                .contains("f249.txt\t1 byte\n[entries 201-250 of 250"),
            "{}",
            last.text()
        );
        let past = session.call("read", r#"{"file_path": "d", "offset": 900}"#);
        assert!(
            past.text()
                .ends_with("[the directory has 250 entries; offset 900 is past the end]")
        );
    }

    #[test]
    fn an_empty_directory_says_so() {
        let fs = MemFs::new();
        fs.add_dir("empty");
        let mut session = Session::open("{}", fs).unwrap();
        let result = session.call("read", r#"{"file_path": "empty"}"#);
        assert_eq!(
            result.text(),
            "[directory empty: 0 directories, 0 files]\n[the directory is empty]"
        );
        assert!(!result.is_error);
    }
}
