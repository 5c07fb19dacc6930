//! Inserting lines after a given line (the text editor's `insert`), under
//! the edit's rules (SPEC E4, W2, W3): the file must have been read and be
//! unchanged since; the new lines take the file's line ends, every other
//! byte stays; the answer shows the inserted lines, numbered, with the
//! lines around them.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"one\r\nthree\r\n");
//! let mut session = Session::open(r#"{"tools": "text-editor"}"#, fs).unwrap();
//! let tool = "str_replace_based_edit_tool";
//! session.call(tool, r#"{"command": "view", "path": "a.txt"}"#);
//! let result = session.call(tool, r#"{"command": "insert", "path": "a.txt", "insert_line": 1, "insert_text": "two"}"#);
//! assert_eq!(result.text(), "Inserted 1 line after line 1 of a.txt; the file has 3 lines.\n1\tone\n2\ttwo\n3\tthree");
//! assert_eq!(session.fs().contents("a.txt").unwrap(), b"one\r\ntwo\r\nthree\r\n");
//! ```

use std::fmt;

use serde_json::json;

use crate::args::Tool;
use crate::batch;
use crate::edit::snippet;
use crate::error::ToolError;
use crate::fs::HostFs;
use crate::guard;
use crate::refusal::Refusal;
use crate::repair::Target;
use crate::result::ToolResult;
use crate::rewrite::{self, Seen};
use crate::session::Ctx;
use crate::syntax_check;
use crate::textfile::line_count;

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
        write!(
            f,
            "Inserted {} {noun} {place} of {}; the file has {} lines.\n{}",
            self.lines, self.path, self.total, self.snippet
        )
    }
}

/// The insertion's own refusal: the line is past the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastTheEnd {
    /// The path as sent.
    pub path: String,
    /// The line asked for.
    pub line: u64,
    /// Lines of the file.
    pub total: u64,
}

/// Inserts `text` after line `after` (0: before the first) of `target`.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    target: &Target,
    path: &str,
    after: u64,
    text: &str,
) -> Result<ToolResult, ToolError> {
    let Some(meta) = guard::target_kind(&target.stat, path)? else {
        return Err(Refusal::NoFile { path: path.into() }.into());
    };
    let loaded = rewrite::load(ctx, &target.rel, path, meta, Tool::Edit, Seen::Required)?;
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
    let body = body.strip_suffix('\n').unwrap_or(&body);
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
    if split == old.len() && !old.is_empty() && !old.ends_with('\n') {
        new_text.push_str(end);
    }
    for line in &added {
        new_text.push_str(line);
        new_text.push_str(end);
    }
    new_text.push_str(&old[split..]);
    let syntax = syntax_check::check(ctx.config, &target.rel, old, &new_text);
    syntax_check::refuse_broken(ctx.config, path, syntax.as_ref())?;
    let step = loaded.step(&new_text)?;
    batch::commit_all(ctx, &[step], Tool::Edit)?;
    let lf = new_text.replace("\r\n", "\n");
    let start: usize = lf
        .split_inclusive('\n')
        .take(after as usize)
        .map(str::len)
        .sum();
    let span: usize = added.iter().map(|l| l.len() + 1).sum::<usize>() - 1;
    let report = Inserted {
        path: path.to_owned(),
        lines: added.len() as u64,
        after,
        total: line_count(&new_text),
        snippet: snippet::render(&lf, &[(start, start + span)], ctx.config.max_line_chars),
    };
    let text = report.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    let result = ToolResult::from_text(
        text,
        json!({"path": target.rel, "action": "inserted", "lines": report.total, "inserted": report.lines, "estimated_tokens": tokens}),
    );
    Ok(syntax_check::noted(result, syntax.as_ref()))
}

impl fmt::Display for PastTheEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error: insert_line {} is past the end of {}, which has {} lines; use a line from 0 (the start) to {}.",
            self.line, self.path, self.total, self.total
        )
    }
}
