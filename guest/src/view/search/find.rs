//! The `find` tool (SPEC G5): the files under a directory whose paths
//! match a glob (as ripgrep's `--files --glob`), under the same ignore
//! rules and disclosure as `grep`, newest first, with a continuation. It
//! shows no content, so it counts as no read.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::answers::error::ToolError;
use crate::answers::result::ToolResult;
use crate::answers::search::{Cut, End, Footer, NoMatch, Unit};
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::fs::host::{FileKind, HostFs};
use crate::paths::order::by_bytes;
use crate::paths::repair::{self, Target};
use crate::paths::walk::Walk;
use crate::paths::walk::handoff::Request;
use crate::paths::walk::rules::{Narrowing, Rules};
use crate::view::search::args::FindArgs;
use crate::view::search::grep::FOOTER_RESERVE_BYTES;

/// Files one `find` answer lists unless `head_limit` says otherwise.
pub const DEFAULT_FIND_LIMIT: u64 = 100;

/// Runs `args` over `fs`: the answer, and where the search started.
pub(crate) fn find<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &FindArgs,
    remembered: &BTreeMap<String, String>,
) -> Result<(ToolResult, Target), ToolError> {
    let path = args.path.as_deref().unwrap_or(".");
    let (target, meta) = repair::existing(config, fs, path, remembered)?;
    if meta.kind != FileKind::Directory {
        return Err(ToolError::NotDirectory {
            path: path.to_owned(),
        });
    }
    let narrowing = Narrowing {
        glob: Some(args.pattern.clone()),
        ..args.narrowing()
    };
    let request = Request::new(
        narrowing.clone(),
        &config.search_exclude,
        &target.rel,
        false,
    );
    let rules = Rules::new(fs, narrowing, &config.search_exclude, &target.rel)
        .map_err(|err| err.for_tool(Tool::Find, "pattern"))?;
    // The visitor needs the files alone: a host may walk subdirectories
    // elsewhere at once.
    let mut walk = Walk::new(fs, rules).handing_off(request);
    let mut found: Vec<(u64, String)> = Vec::new();
    // Newest first, by the times the listing gave: no call per file (a
    // file removed between the listing and the answer is still named, as
    // a listing taken a moment before would name it). A host that gave no
    // time is asked, and a file gone since it was listed is then not found.
    let _ = walk.run(&target.rel, &mut |file, _| {
        if file.mtime_ns != 0 {
            found.push((file.mtime_ns, file.rel.clone()));
        } else if let Ok(meta) = fs.stat(&file.rel) {
            found.push((meta.mtime_ns, file.rel.clone()));
        }
        std::ops::ControlFlow::Continue(())
    });
    // Newest first, then by path: sorted by path first (the walk's order
    // is nearly that already, so this takes about one comparison a file),
    // then, keeping that order among equal times, by time alone.
    found.sort_by(|a, b| by_bytes(&a.1, &b.1));
    found.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    let total = found.len() as u64;
    let limit = args.head_limit.unwrap_or(DEFAULT_FIND_LIMIT);
    let budget = config.budget_bytes();
    let budget = budget - FOOTER_RESERVE_BYTES.min(budget / 4);
    let mut text = String::new();
    let mut shown = 0u64;
    let mut cut = None;
    for (_, rel) in found
        .iter()
        .skip(usize::try_from(args.offset).unwrap_or(usize::MAX))
    {
        if shown >= limit {
            cut = Some(Cut::HeadLimit(limit));
            break;
        }
        if shown > 0 && (text.len() + rel.len() + 1) as u64 > budget {
            cut = Some(Cut::Budget(config.max_output_tokens));
            break;
        }
        let _ = writeln!(text, "{rel}");
        shown += 1;
    }
    if shown == 0 {
        let past = (total > 0).then_some((args.offset, total));
        let no = NoMatch {
            pattern: &args.pattern,
            searched: walk.files + walk.narrowed,
            offset: past,
            skipped: !walk.skipped.is_empty(),
            by_name: true,
        };
        text = no.to_string();
    } else {
        let end = match cut {
            Some(why) => End::Cut {
                why,
                offset: args.offset + shown,
            },
            None => End::Complete {
                total,
                matches: 0,
                files: total,
            },
        };
        let footer = Footer {
            unit: Unit::Found,
            first: args.offset + 1,
            shown,
            searched: walk.files,
            end,
        };
        let _ = write!(text, "{footer}");
    }
    if !walk.skipped.is_empty() {
        let _ = write!(text, "\n{}", walk.skipped);
    }
    let mut metadata = json!({
        "kind": "find",
        "path": target.rel,
        "total": total,
        "shown": shown,
        "truncated": cut.is_some(),
        "skipped": !walk.skipped.is_empty(),
    });
    if cut.is_some() {
        metadata["next_offset"] = Value::from(args.offset + shown);
    }
    metadata["estimated_tokens"] = Value::from(config.estimate_tokens(text.len() as u64));
    Ok((ToolResult::from_text(text, metadata), target))
}
