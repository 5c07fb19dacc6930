//! `write_file`, `edit_file`, `create_directory` and `move_file`: the
//! core's `write` and `edit` (an `edit_file` answers with the diff, and a
//! `dryRun` is the same edit on a recording of the files that writes
//! nothing), and the host's new directory and rename calls.

use serde_json::{Value, json};

use crate::answers::error::ToolError;
use crate::answers::notice::Notice;
use crate::answers::quote::short_json;
use crate::answers::result::{Block, ToolResult};
use crate::change::args::{EditArgs, EditOp, WriteArgs};
use crate::change::guard;
use crate::fs::host::{FileKind, HostFs};
use crate::memory::fingerprint::Fingerprint;
use crate::paths::repair::{self, Lookup};
use crate::text::diff;
use crate::text::textfile::TextFile;
use crate::tools::session::Session;
use crate::tools::shapes::args::Args;

/// `write_file`: the core's `write`.
pub(super) fn write<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    let parsed = args.string("path").and_then(|file_path| {
        Ok(WriteArgs {
            file_path,
            content: args.string("content")?,
            encoding: None,
            expect: args.opt_string("expect")?,
        })
    });
    let mut result = match parsed {
        Ok(call) => session.write(&call),
        Err(err) => return session.run(|_| Err(err)),
    };
    // The reference's words first, then what the core tells of the file.
    if let Some(Block::Text(text)) = result.content.first_mut()
        && let Some(rest) = text
            .strip_prefix("Created ")
            .or_else(|| text.strip_prefix("Updated "))
    {
        *text = format!("Successfully wrote to {rest}");
    }
    result
}

/// The edits of an `edit_file` call.
fn edits(args: &Args) -> Result<Vec<EditOp>, ToolError> {
    let Some(Value::Array(items)) = args.value("edits") else {
        return Err(args.error("edits must be a list of {oldText, newText} objects"));
    };
    if items.is_empty() {
        return Err(args.error("edits must hold at least one {oldText, newText} object"));
    }
    items
        .iter()
        .map(|item| {
            let text = |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned);
            match (text("oldText"), text("newText")) {
                (Some(old_string), Some(new_string)) => Ok(EditOp {
                    old_string,
                    new_string,
                    replace_all: false,
                }),
                _ => Err(args.error(format!(
                    "each edit needs oldText and newText strings, got {}",
                    short_json(item)
                ))),
            }
        })
        .collect()
}

/// `edit_file`: the core's `edit`, answered with a diff of the change;
/// with `dryRun`, the same edit on a recording that writes nothing.
pub(super) fn edit<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    let prepared = args.string("path").and_then(|path| {
        Ok((
            path,
            edits(args)?,
            args.opt_bool("dryRun")?.unwrap_or(false),
            args.opt_string("expect")?,
        ))
    });
    let (path, ops, dry, expect) = match prepared {
        Ok(prepared) => prepared,
        Err(err) => return session.run(|_| Err(err)),
    };
    let call = EditArgs {
        file_path: path.clone(),
        edits: ops,
        encoding: None,
        expect,
    };
    let ((result, before), written) = session.recorded(dry, |recording| {
        let result = recording.edit(&call);
        // What the edit replaced, as the history kept it.
        let before = recording.state().history.newest();
        (result, before)
    });
    if result.is_error {
        return result;
    }
    let Some((rel, new)) = written.into_iter().next() else {
        return result;
    };
    let old = before
        .filter(|(path, _)| *path == rel)
        .map(|(_, bytes)| bytes)
        .unwrap_or_default();
    let decode = |bytes: &[u8]| {
        TextFile::decode(bytes).map_or_else(|_| String::new(), |f| f.text.replace("\r\n", "\n"))
    };
    let patch = diff::unified(&path, &decode(&old), &decode(&new));
    // A fence longer than any run of backticks in the diff, as the
    // reference server makes it.
    let mut fence = String::from("```");
    while patch.contains(&fence) {
        fence.push('`');
    }
    let mut text = format!("{fence}diff\n{patch}{fence}\n\n");
    // What the core said beside its own answer: another writer's change it
    // merged with (before), and the file's new version (after).
    let core = result.text();
    if let Some(at) = core
        .find("\nEdited ")
        .filter(|_| core.starts_with("Note: "))
    {
        text.insert_str(0, &core[..=at]);
    }
    let version = result.metadata["version"]
        .as_str()
        .and_then(|v| v.parse().ok());
    if let Some(version) = version.filter(|_| !dry) {
        text.push_str(&Notice::Version(version).to_string());
    }
    let mut answer = result;
    answer.content = vec![Block::Text(text)];
    answer
}

/// `create_directory`: the directory and its missing parents.
pub(super) fn create_directory<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let path = args.string("path")?;
        if ctx.config.read_only {
            return Err(ToolError::read_only(path));
        }
        let found = repair::locate_for(
            ctx.config,
            ctx.fs,
            &path,
            &ctx.state.repairs,
            Lookup::MayCreate,
        )?;
        let existed = matches!(found.stat, Ok(meta) if meta.kind == FileKind::Directory);
        ctx.fs
            .create_dir(&found.rel)
            .map_err(|err| ToolError::from_write(&path, crate::answers::tool::Tool::Write, err))?;
        let text = if existed {
            format!("{path} already exists as a directory.")
        } else {
            format!("Created directory {path}.")
        };
        Ok(ToolResult::from_text(text, json!({})))
    })
}

/// `move_file`: a rename that never replaces. A moved file's history and
/// what the session knew of it move along, and `undo` of either path
/// moves it back; `undo` of the new path of a directory, or of a file too
/// large for the history to keep, moves it back too.
pub(super) fn move_file<F: HostFs>(session: &mut Session<F>, args: &Args) -> ToolResult {
    session.run(|ctx| {
        let source = args.string("source")?;
        let destination = args.string("destination")?;
        if ctx.config.read_only {
            return Err(ToolError::read_only(source));
        }
        let (from, meta) = repair::existing(ctx.config, ctx.fs, &source, &ctx.state.repairs)?;
        let to = repair::locate_for(
            ctx.config,
            ctx.fs,
            &destination,
            &ctx.state.repairs,
            Lookup::MayCreate,
        )?;
        if to.stat.is_ok() {
            return Err(ToolError::Arguments {
                tool: "move_file",
                problem: format!("the destination {destination} already exists; nothing was moved"),
                takes: "{source: string, destination: string (a path that does not exist)}",
            });
        }
        let failed = |err| ToolError::from_write(&source, crate::answers::tool::Tool::Write, err);
        if meta.kind == FileKind::File {
            let max = ctx.config.max_edit_bytes;
            let current = guard::load(
                ctx.fs,
                &from.rel,
                &source,
                meta,
                ctx.config.chunk_bytes,
                max,
            )?;
            ctx.fs
                .rename(&from.rel, &to.rel, &current.precondition())
                .map_err(failed)?;
            let marks = &mut ctx.state.marks;
            marks.first_change(&mut ctx.state.history, &to.rel, None);
            match &current.bytes {
                Some(bytes) => {
                    let before = Some((bytes.as_slice(), current.sha256.as_str()));
                    marks.first_change(&mut ctx.state.history, &from.rel, before);
                }
                None => marks.first_change_unkept(&from.rel, current.len),
            }
            if current.bytes.is_none() {
                let cap = ctx.config.history_bytes;
                let after = (current.fingerprint, current.len);
                ctx.state.ledger.remove(&from.rel);
                ctx.state
                    .history
                    .push_renamed(&to.rel, &from.rel, after, cap);
            }
            if let Some(bytes) = &current.bytes {
                let record = ctx.state.ledger.remove(&from.rel);
                let cap = ctx.config.history_bytes;
                let after = (Fingerprint::of(bytes), bytes.len() as u64);
                let history = &mut ctx.state.history;
                history.push(&to.rel, None, None, after, cap);
                let group = history.last(&to.rel).map(|e| e.seq);
                history.mark(&to.rel, false, group);
                history.push(
                    &from.rel,
                    Some(bytes),
                    record.clone(),
                    (Fingerprint::of(b""), 0),
                    cap,
                );
                history.mark(&from.rel, true, group);
                if let Some(record) = record {
                    ctx.state.ledger.insert(&to.rel, record);
                }
            }
        } else {
            ctx.fs
                .rename(&from.rel, &to.rel, &crate::fs::host::Precondition::Any)
                .map_err(failed)?;
            for path in ctx.state.ledger.paths_under(&from.rel) {
                ctx.state.ledger.remove(&path);
            }
            let cap = ctx.config.history_bytes;
            ctx.state
                .history
                .push_renamed(&to.rel, &from.rel, (0, 0), cap);
        }
        let text = format!("Successfully moved {source} to {destination}");
        Ok(ToolResult::from_text(text, json!({})))
    })
}
