//! `read_text_file` (and its old name `read_file`), `read_media_file` and
//! `read_multiple_files`.

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::result::{Block, ToolResult};
use crate::change::context::Ctx;
use crate::fs::host::{FileKind, HostFs};
use crate::memory::ledger::ReadKey;
use crate::tools::session::Session;
use crate::tools::shapes::args::Args;
use crate::view::by_kind::target;
use crate::view::raw::{self, Part};
use crate::view::read::args::ReadArgs;

/// `read_text_file`: the text, whole or its head or tail.
pub(super) fn text<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let part = part(args)?;
        let budget = ctx.config.budget_bytes();
        one(ctx, &args.string("path")?, part, budget)
    })
}

/// Which lines the arguments ask for.
fn part(args: &Args) -> Result<Part, ToolError> {
    let positive = |name: &str| -> Result<Option<u64>, ToolError> {
        match args.opt_int(name)? {
            None => Ok(None),
            Some(n) if n >= 1 => Ok(Some(n.unsigned_abs())),
            Some(n) => Err(args.error(format!("{name} must be 1 or more, got {n}"))),
        }
    };
    match (positive("head")?, positive("tail")?, positive("offset")?) {
        (Some(_), Some(_), _) => Err(args.error("give head or tail, not both")),
        (head, None, offset) => Ok(Part::Lines {
            first: offset.unwrap_or(1),
            count: head,
        }),
        (None, Some(n), None) => Ok(Part::Tail(n)),
        (None, Some(_), Some(_)) => Err(args.error("offset goes with head, not with tail")),
    }
}

/// One file's text within `budget` bytes, its lines noted as read.
fn one<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    path: &str,
    part: Part,
    budget: u64,
) -> Result<ToolResult, ToolError> {
    let (found, meta) = target(ctx.config, ctx.fs, path, &ctx.state.repairs)?;
    if meta.kind == FileKind::Directory {
        return Err(ToolError::IsDirectory {
            path: path.to_owned(),
        });
    }
    let (result, shown) = raw::read(ctx.config, ctx.fs, &found.rel, path, meta, part, budget)?;
    let (offset, limit) = shown
        .lines
        .map_or((1, 0), |(first, last)| (first, last - first + 1));
    let key = ReadKey {
        offset,
        limit,
        char_offset: None,
        symbol: None,
        encoding: None,
    };
    ctx.state
        .ledger
        .observe(&found.rel, &shown, ctx.state.calls, key);
    Ok(result)
}

/// `read_media_file`: an image, as `read` shows it.
pub(super) fn media<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    let path = match args.string("path") {
        Ok(path) => path,
        Err(err) => return session.run(|_| Err(err)),
    };
    let result = session.read(&ReadArgs {
        file_path: path.clone(),
        offset: None,
        limit: None,
        char_offset: None,
        pages: None,
        symbol: None,
        block: false,
        encoding: None,
    });
    let is_image = result
        .content
        .iter()
        .any(|b| matches!(b, Block::Image { .. }));
    if result.is_error {
        return result;
    }
    if is_image {
        // The image alone, as the reference answers.
        let mut result = result;
        result.content.retain(|b| matches!(b, Block::Image { .. }));
        return result;
    }
    let err = ToolError::Arguments {
        tool: "read_media_file",
        problem: format!("{path} is not an image this tool can show (PNG, JPEG, GIF, WebP or BMP)"),
        takes: "{path: string}; read text with read_text_file",
    };
    ToolResult::error(&err, Some(&path))
}

/// `read_multiple_files`: each file under its path, the budget shared.
pub(super) fn multiple<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let paths = args
            .opt_strings("paths")?
            .filter(|paths| !paths.is_empty())
            .ok_or_else(|| args.error("paths must name at least one file"))?;
        let share = ctx.config.budget_bytes() / paths.len() as u64;
        let mut parts = Vec::with_capacity(paths.len());
        for path in &paths {
            match one(
                ctx,
                path,
                Part::Lines {
                    first: 1,
                    count: None,
                },
                share,
            ) {
                Ok(result) => parts.push(format!("{path}:\n{}\n", result.text())),
                Err(err) => {
                    let message = err.to_string();
                    let message = message.strip_prefix("Error: ").unwrap_or(&message);
                    parts.push(format!("{path}: Error - {message}"));
                }
            }
        }
        Ok(ToolResult::from_text(parts.join("\n---\n"), json!({})))
    })
}
