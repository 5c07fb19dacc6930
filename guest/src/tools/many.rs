//! `read` of several files in one answer (SPEC G5): each file read as a
//! plain `read` reads it — whole when it is small, paged or outlined with
//! its exact continuation when it is not, the "unchanged" note when the
//! model holds it already, its error in place — in the order asked, under
//! one output budget shared among the files still to come, with a footer
//! of what each used and how to go on.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::answers::batch::{Entry, Footer, Shown};
use crate::answers::result::{Block, ToolResult};
use crate::fs::host::HostFs;
use crate::tools::session::Session;
use crate::view::read::args::ReadArgs;

/// Bytes of the budget kept for the footer, per file.
pub const FOOTER_BYTES_PER_FILE: u64 = 96;

impl<F: HostFs> Session<F> {
    /// `read` of each of `paths`, in one answer.
    pub fn read_many(&mut self, paths: &[String]) -> ToolResult {
        self.entered(|session| session.read_many_now(paths))
    }

    fn read_many_now(&mut self, paths: &[String]) -> ToolResult {
        let budget = self.config().budget_bytes();
        let footer = FOOTER_BYTES_PER_FILE * paths.len() as u64;
        let mut left = budget.saturating_sub(footer).max(budget / 2);
        let mut text = String::new();
        let mut images = Vec::new();
        let mut entries = Vec::new();
        let mut files = Vec::new();
        for (n, path) in paths.iter().enumerate() {
            let share = left / (paths.len() - n) as u64;
            if n > 0 {
                self.same_call();
            }
            let args = ReadArgs {
                file_path: path.clone(),
                ..ReadArgs::default()
            };
            let result = self.read_within(&args, share);
            let body = result.text();
            left = left.saturating_sub(body.len() as u64);
            let tokens = self.config().estimate_tokens(body.len() as u64);
            let shown = shown(&result, tokens);
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = writeln!(text, "==> {path} <==\n{body}");
            images.extend(
                result
                    .content
                    .into_iter()
                    .filter(|block| matches!(block, Block::Image { .. })),
            );
            files.push(json!({"path": path, "metadata": result.metadata}));
            entries.push(Entry {
                path: path.clone(),
                shown,
            });
        }
        text.push_str(&Footer(entries).to_string());
        let tokens = self.config().estimate_tokens(text.len() as u64);
        let metadata = json!({"kind": "files", "files": files, "estimated_tokens": tokens});
        let mut result = ToolResult::from_text(text, metadata);
        result.content.extend(images);
        result
    }
}

/// What `result`, a read of one file using `tokens`, showed.
fn shown(result: &ToolResult, tokens: u64) -> Shown {
    let meta = &result.metadata;
    if result.is_error {
        let code = meta["error"].as_str().unwrap_or("error");
        return Shown::Error(code.to_owned());
    }
    if meta["kind"] == "unchanged" {
        return Shown::Unchanged;
    }
    let outlined = meta["kind"] == "outline" || meta["outlined"] == Value::Bool(true);
    if meta["truncated"] == Value::Bool(true) || outlined {
        return Shown::Part {
            tokens,
            next_offset: meta["next_offset"].as_u64(),
        };
    }
    Shown::Whole { tokens }
}
