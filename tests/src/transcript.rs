//! The transcript of a case: every call with its result, in a form that reads
//! well in review and compares byte for byte across hosts.

use std::fmt::Write as _;

use filetools::{Block, ToolResult};

use crate::case::{Case, Step};

/// Renders `results` (one per call of `case`), with the outside changes
/// between them.
pub fn render(case: &Case, results: &[ToolResult]) -> String {
    let mut out = String::new();
    let mut results = results.iter().enumerate();
    for step in &case.steps {
        let call = match step {
            Step::Call(call) => call,
            Step::External(change) => {
                let _ = writeln!(
                    out,
                    "### outside change: {} {} ({} bytes)\n",
                    change.external,
                    change.path,
                    change.text.len()
                );
                continue;
            }
            Step::Session(what) => {
                let _ = writeln!(out, "### session: {what}\n");
                continue;
            }
        };
        let Some((n, result)) = results.next() else {
            break;
        };
        let _ = writeln!(out, "### call {}: {}", n + 1, call.line);
        let status = if result.is_error { "error" } else { "ok" };
        let _ = writeln!(out, "### {status}; metadata: {}", result.metadata_json());
        for block in &result.content {
            match block {
                Block::Text(text) => {
                    out.push_str(text);
                    out.push('\n');
                }
                Block::Image {
                    mime_type,
                    data,
                    width,
                    height,
                } => {
                    let digest = filetools_core::sha256_hex(data);
                    let _ = writeln!(
                        out,
                        "<image {mime_type} {width}x{height}, {} bytes, sha256 {}>",
                        data.len(),
                        &digest[..16]
                    );
                }
            }
        }
        out.push('\n');
    }
    out
}
