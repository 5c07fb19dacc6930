//! A read of any path (SPEC §3): the path repaired, what is neither a
//! regular file nor a directory refused before anything is opened, and the
//! rest shown by what it is — a directory listed, a file sniffed by its
//! first bytes and paged as text (or outlined, or read by symbol), a
//! notebook or a PDF rendered, an image shown, a binary described in one
//! line (SPEC R12–R16).

use std::collections::BTreeMap;

use crate::answers::error::ToolError;
use crate::answers::error::symbol::SymbolError;
use crate::answers::notice::Notice;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::config::Config;
use crate::fs::host::{FileKind, HostFs, Metadata};
use crate::memory::ledger::Observation;
use crate::paths::repair::{self, Target};
use crate::view::image;
use crate::view::listing;
use crate::view::notebook;
use crate::view::pdf::{self, PdfCache};
use crate::view::read::args::ReadArgs;
use crate::view::read::{fact, first_fetch, outline, read_target, symbol};
use crate::view::sniff::{Kind, SNIFF_BYTES, sniff};

/// Runs `read` and renders its result; failures become error results.
pub fn read<F: HostFs + ?Sized>(config: &Config, fs: &F, args: &ReadArgs) -> ToolResult {
    let mut pdf = PdfCache::default();
    target(config, fs, &args.file_path, &BTreeMap::new())
        .and_then(|(target, meta)| dispatch(config, fs, args, &target.rel, meta, &mut pdf))
        .map_or_else(
            |err| ToolResult::error(&err, Some(&args.file_path)),
            |(result, _)| result,
        )
}

/// Where `path` leads (repaired, see [`crate::paths::repair`]), with its metadata;
/// refuses what does not exist or is neither a regular file nor a directory
/// before anything is opened.
pub(crate) fn target<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
    remembered: &BTreeMap<String, String>,
) -> Result<(Target, Metadata), ToolError> {
    let (target, meta) = repair::existing(config, fs, path, remembered)?;
    match meta.kind {
        FileKind::File | FileKind::Directory => Ok((target, meta)),
        kind => Err(ToolError::NotRegular {
            path: path.to_owned(),
            kind,
        }),
    }
}

/// Reads `rel` by what it is: a directory is listed, a file is sniffed by
/// its first bytes and shown as text, or described in one line when it is
/// binary (SPEC R15, R16). Says what was shown, for the ledger.
pub(crate) fn dispatch<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    args: &ReadArgs,
    rel: &str,
    meta: Metadata,
    pdf: &mut PdfCache,
) -> Result<(ToolResult, Option<Observation>), ToolError> {
    if meta.kind == FileKind::Directory {
        if args.symbol.is_some() || args.block {
            return Err(ToolError::Symbol(SymbolError::NoOutline {
                path: args.file_path.clone(),
                why: "a directory".to_owned(),
                tool: Tool::Read,
            }));
        }
        return Ok((listing::list(config, fs, args, rel)?, None));
    }
    let fetched = fs
        .read(rel, 0, first_fetch(config))
        .map_err(|err| ToolError::from_fs(&args.file_path, err))?;
    let head = &fetched[..fetched.len().min(SNIFF_BYTES as usize)];
    let kind = sniff(head);
    if let Some(lookup) = symbol::Lookup::of(args) {
        if kind != Kind::Text {
            return Err(ToolError::Symbol(SymbolError::NoOutline {
                path: args.file_path.clone(),
                why: "not a text file".to_owned(),
                tool: Tool::Read,
            }));
        }
        let (result, seen) = symbol::read(config, fs, args, lookup, rel, meta, head)?;
        return Ok((result, Some(seen)));
    }
    match kind {
        Kind::Text => {
            if notebook::looks_like(head)
                && let Some((result, seen)) = notebook::read(config, fs, args, rel, meta)?
            {
                return Ok((result, Some(seen)));
            }
            if let Some((result, seen)) = outline::instead(config, fs, args, rel, meta, head)? {
                return Ok((result, Some(seen)));
            }
            read_target(config, fs, args, rel, meta, Some(fetched)).map(|(r, o)| (r, Some(o)))
        }
        Kind::Image(mime) => {
            let shown = image::show(config, fs, &args.file_path, rel, mime, meta)?;
            Ok((shown, Some(Observation::whole(meta))))
        }
        // No byte of it was shown, so it is not recorded: a read of a
        // binary never lets a change replace it (SPEC R15, W2).
        Kind::Binary(mime) => Ok((
            binary(config, rel, mime, meta, args.encoding.is_some()),
            None,
        )),
        Kind::Pdf => pdf::read(config, fs, args, rel, meta, pdf).map(|(r, o)| (r, Some(o))),
    }
}

/// The one line a binary file gets (SPEC R15).
/// An `encoding` the read named (`encoded`) does not make it text.
fn binary(config: &Config, rel: &str, mime: &str, meta: Metadata, encoded: bool) -> ToolResult {
    let text = Notice::Binary {
        mime: mime.to_owned(),
        size: meta.size,
        encoded,
    }
    .to_string();
    let metadata = serde_json::json!({
        "kind": "binary",
        "path": rel,
        "mime_type": mime,
        "size": meta.size,
    });
    fact(config, text, metadata)
}
