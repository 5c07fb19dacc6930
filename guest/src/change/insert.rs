//! Inserting lines after a given line (the text editor's `insert`), under
//! the edit's rules (SPEC E4, W2, W3): the file must have been read and be
//! unchanged since; the new lines take the file's line ends, every other
//! byte stays, and the file keeps its final-newline state (a file without
//! a final line end still has none after lines added at its end, unless
//! the text ends with one); the answer shows the inserted lines, numbered,
//! with the lines around them.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"one\r\nthree\r\n");
//! let mut session = Session::open(r#"{"tools": "text-editor"}"#, fs).unwrap();
//! let tool = "str_replace_based_edit_tool";
//! session.call(tool, r#"{"command": "view", "path": "a.txt"}"#);
//! let result = session.call(tool, r#"{"command": "insert", "path": "a.txt", "insert_line": 1, "insert_text": "two"}"#);
//! assert_eq!(result.text(), "Inserted 1 line after line 1 of a.txt; the file has 3 lines.\n1\tone\n2\ttwo\n3\tthree\n[version 09bb5bf1d6124a62-17]");
//! assert_eq!(session.fs().contents("a.txt").unwrap(), b"one\r\ntwo\r\nthree\r\n");
//! ```

use std::fmt;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::error::insert::PastTheEnd;
use crate::answers::refusal::Unmerged;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::batch;
use crate::change::context::Ctx;
use crate::change::edit::snippet;
use crate::change::edit::view::LineIndex;
use crate::change::rewrite;
use crate::change::since::Since;
use crate::change::syntax_check;
use crate::fs::host::HostFs;
use crate::paths::repair::Target;
use crate::text::textfile::line_count;

/// What an insertion did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// The path as sent.
    pub path: String,
    /// Lines inserted.
    pub lines: u64,
    /// The line they follow (0: the start of the file).
    pub after: u64,
    /// Lines of the file now.
    pub total: u64,
    /// The inserted lines, numbered.
    pub snippet: String,
}

impl fmt::Display for Inserted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = if self.lines == 1 { "line" } else { "lines" };
        let place = if self.after == 0 {
            "at the start".to_owned()
        } else {
            format!("after line {}", self.after)
        };
        let total = if self.total == 1 { "line" } else { "lines" };
        write!(
            f,
            "Inserted {} {noun} {place} of {}; the file has {} {total}.\n{}",
            self.lines, self.path, self.total, self.snippet
        )
    }
}

/// Inserts `text` after line `after` (0: before the first) of `target`.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    target: &Target,
    path: &str,
    (after, text): (u64, &str),
    expect: Option<&str>,
) -> Result<ToolResult, ToolError> {
    let loaded = rewrite::load_existing(ctx, target, path, Tool::Edit, expect)?;
    // On a file that changed since the model's view, its line numbers are
    // the view's: the gap moves with the lines around it (SPEC V4).
    let after = match &loaded.behind {
        Some(behind) => match Since::new(&behind.view, &loaded.file.text).moved_gap(after) {
            Some(moved) if ctx.config.merge && behind.expected.is_none() => moved,
            Some(_) => return Err(loaded.refused(ctx, Tool::Edit, Unmerged::NotMerged)),
            None => return Err(loaded.refused(ctx, Tool::Edit, Unmerged::Overlap)),
        },
        None => after,
    };
    let lines = loaded.lines();
    let total = lines.len() as u64;
    if after > total {
        return Err(ToolError::InsertPastEnd(PastTheEnd {
            path: path.to_owned(),
            line: after,
            total,
        }));
    }
    let end = loaded.line_end();
    let body = text.replace("\r\n", "\n");
    // A final line end of the text ends its last line; it makes no empty
    // line after it.
    let (body, ended) = match body.strip_suffix('\n') {
        Some(body) => (body, true),
        None => (body.as_str(), false),
    };
    let added: Vec<&str> = body.split('\n').collect();
    // The file's bytes up to the insertion point, kept as they are.
    let old = &loaded.file.text;
    let split = lines[..after as usize]
        .iter()
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(old.len());
    let mut new_text = String::with_capacity(old.len() + text.len() + added.len());
    new_text.push_str(&old[..split]);
    // After the last line of a file without a final line end, the new lines
    // follow a line end and the file still ends without one, as the
    // reference's split-and-join gives, unless the text brought its own.
    let unended = split == old.len() && !old.is_empty() && !old.ends_with('\n');
    if unended {
        new_text.push_str(end);
    }
    for (n, line) in added.iter().enumerate() {
        new_text.push_str(line);
        if !unended || ended || n + 1 < added.len() {
            new_text.push_str(end);
        }
    }
    new_text.push_str(&old[split..]);
    let syntax = syntax_check::check(ctx.config, &target.rel, old, &new_text);
    syntax_check::refuse_broken(ctx.config, path, syntax.as_ref())?;
    let merged = loaded.land(ctx, &new_text, Tool::Edit)?;
    let step = loaded.step(&new_text, merged.as_ref())?;
    batch::commit_all(ctx, &[step], Tool::Edit)?;
    let lf = new_text.replace("\r\n", "\n");
    let start: usize = lf
        .split_inclusive('\n')
        .take(after as usize)
        .map(str::len)
        .sum();
    let span: usize = added.iter().map(|l| l.len() + 1).sum::<usize>() - 1;
    let total = line_count(&new_text);
    let report = Inserted {
        path: path.to_owned(),
        lines: added.len() as u64,
        after,
        total,
        snippet: snippet::render(
            (&lf, &LineIndex::new(&lf)),
            total,
            &[(start, start + span)],
            ctx.config.max_line_chars,
        ),
    };
    let text = report.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    let result = ToolResult::from_text(
        text,
        json!({"path": target.rel, "action": "inserted", "lines": report.total, "inserted": report.lines, "estimated_tokens": tokens}),
    );
    let result = syntax_check::noted(result, syntax.as_ref());
    Ok(match merged {
        Some(merged) => result.prefixed(&merged.note(path)),
        None => result,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// `file` after viewing it and inserting `text` after line `after`.
    fn insert(file: &[u8], after: u64, text: &str) -> Vec<u8> {
        let fs = MemFs::new();
        fs.add_file("a.txt", file);
        let mut s = Session::open(r#"{"tools": "text-editor"}"#, fs).unwrap();
        let tool = crate::tools::shapes::text_editor::NAME;
        s.call(tool, r#"{"command": "view", "path": "a.txt"}"#);
        let args = json!({"command": "insert", "path": "a.txt", "insert_line": after, "insert_text": text});
        let result = s.call(tool, &args.to_string());
        assert!(!result.is_error, "{}", result.text());
        s.fs().contents("a.txt").unwrap()
    }

    #[test]
    fn the_last_line_keeps_the_files_final_newline_state() {
        assert_eq!(
            insert(b"Line 1\nLine 2", 2, "New Last Line"),
            b"Line 1\nLine 2\nNew Last Line"
        );
        assert_eq!(
            insert(b"Line 1\nLine 2\n", 2, "New Last Line"),
            b"Line 1\nLine 2\nNew Last Line\n"
        );
        assert_eq!(insert(b"a\r\nb", 2, "c\nd"), b"a\r\nb\r\nc\r\nd");
        assert_eq!(insert(b"a\r\nb\r\n", 2, "c"), b"a\r\nb\r\nc\r\n");
    }

    #[test]
    fn a_final_line_end_of_the_text_ends_its_line_and_adds_no_empty_one() {
        assert_eq!(insert(b"a\nb", 2, "c\n"), b"a\nb\nc\n");
        assert_eq!(insert(b"a\nb\n", 1, "x\n"), b"a\nx\nb\n");
        assert_eq!(insert(b"a\nb\n", 2, "c\n"), b"a\nb\nc\n");
    }

    #[test]
    fn the_start_and_an_empty_file_get_whole_lines() {
        assert_eq!(insert(b"a\nb", 0, "top"), b"top\na\nb");
        assert_eq!(insert(b"a", 0, "top\n"), b"top\na");
        assert_eq!(insert(b"", 0, "only"), b"only\n");
        assert_eq!(insert(b"a\nb", 1, "mid"), b"a\nmid\nb");
    }
}
