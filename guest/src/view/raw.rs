//! A file's text as it is, without line numbers: what the MCP filesystem
//! tools' `read_text_file` answers. The whole file, a run of its lines
//! (`offset`, `head`), its last (`tail`) lines, or — past the output budget — as many whole lines
//! as fit, with the exact `offset` that continues (SPEC R2, R3). The lines
//! shown count as read, so a later write or edit of the file is allowed
//! exactly as after `read`.

use std::fmt;

use serde_json::json;

use crate::config::Config;
use crate::error::ToolError;
use crate::fs::{HostFs, Metadata};
use crate::guard;
use crate::read::Observation;
use crate::refusal::Refusal;
use crate::result::ToolResult;
use crate::textfile::TextFile;

/// Which lines to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// From the 1-based line `first` on, `count` lines or to the end.
    Lines {
        /// The first line shown.
        first: u64,
        /// How many, at most.
        count: Option<u64>,
    },
    /// The last N lines.
    Tail(u64),
}

/// The notice after a text cut by the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cut {
    first: u64,
    last: u64,
    total: u64,
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[lines {}-{} of {} shown; the output budget is reached. Continue with offset={}.]",
            self.first,
            self.last,
            self.total,
            self.last + 1
        )
    }
}

/// `part` of the text file `rel`, within `budget` bytes; what was shown,
/// for the ledger.
pub(crate) fn read<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    rel: &str,
    path: &str,
    meta: Metadata,
    part: Part,
    budget: u64,
) -> Result<(ToolResult, Observation), ToolError> {
    let max = config.count_limit_bytes.max(config.max_edit_bytes);
    if meta.size > max {
        return Err(Refusal::TooLarge {
            path: path.to_owned(),
            size: meta.size,
            max,
        }
        .into());
    }
    let current = guard::load(fs, rel, path, meta, config.chunk_bytes, max)?;
    let fingerprint = current.fingerprint;
    let bytes = current.bytes.unwrap_or_default();
    let file = TextFile::decode(&bytes).map_err(|err| ToolError::NotTextFile {
        path: path.to_owned(),
        why: err.why(),
    })?;
    let lf = file.text.replace("\r\n", "\n");
    let lines: Vec<&str> = lf.split_inclusive('\n').collect();
    let total = lines.len() as u64;
    let (start, end) = match part {
        Part::Lines { first, count } => {
            let start = (first.max(1) - 1).min(total);
            (
                start,
                count.map_or(total, |n| start.saturating_add(n).min(total)),
            )
        }
        Part::Tail(n) => (total.saturating_sub(n), total),
    };
    let mut text = String::new();
    let mut shown_end = start;
    for line in &lines[start as usize..end as usize] {
        if !text.is_empty() && (text.len() + line.len()) as u64 > budget {
            break;
        }
        text.push_str(line);
        shown_end += 1;
    }
    let cut = (shown_end < end).then_some(Cut {
        first: start + 1,
        last: shown_end,
        total,
    });
    if let Some(cut) = cut {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&cut.to_string());
    }
    let observation = Observation {
        size: current.len,
        mtime_ns: meta.mtime_ns,
        fingerprint: Some(fingerprint),
        lines: (shown_end > start).then_some((start + 1, shown_end)),
        total: Some(total),
        style: file.style,
        content: true,
    };
    let tokens = config.estimate_tokens(text.len() as u64);
    let metadata = json!({
        "path": rel,
        "kind": "text",
        "lines": [start + 1, shown_end],
        "total_lines": total,
        "truncated": cut.is_some(),
        "next_offset": cut.map(|c| c.last + 1),
        "estimated_tokens": tokens,
    });
    Ok((ToolResult::from_text(text, metadata), observation))
}
