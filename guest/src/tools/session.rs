//! [`Session`]: one agent conversation's tools over one file system, with
//! the state that spans its calls (SPEC §1): the read ledger, the dedup
//! records and the file history. Raw model calls enter through
//! [`Session::call`], typed ones through the tool methods; both give the same
//! result.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.txt", b"hi\n");
//! let mut session = Session::open("{}", fs).unwrap();
//! let result = session.call("read", r#"{"file_path": "a.txt"}"#);
//! assert_eq!(result.text(), "1\thi\n[lines 1-1 of 1; end of file]\n[version e5ae98b9708d2a1d-3]");
//! let result = session.call("edit", r#"{"file_path": "a.txt", "old_string": "hi", "new_string": "ho"}"#);
//! assert!(!result.is_error, "{}", result.text());
//! assert_eq!(session.fs().contents("a.txt").unwrap(), b"ho\n");
//! ```

use serde_json::json;

use crate::answers::changes::ChangeNotice;
use crate::answers::error::ToolError;
use crate::answers::notice::Notice;
use crate::answers::refusal::Refusal;
use crate::answers::result::Block;
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::{
    EditArgs, MarkArgs, ReplaceArgs, RewindArgs, SymbolEditArgs, UndoArgs, WriteArgs,
};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::{edit, notices, recover, replace, rewind, undo, write};
use crate::config::{ChangeNotices, Config};
use crate::fs::host::HostFs;
use crate::fs::recording::Recording;
use crate::memory::ledger::ReadKey;
use crate::memory::state::{Checkpoint, Generations, Kept, State};
use crate::memory::version::Version;
use crate::paths::repair::{self, Lookup, Target};
use crate::view::by_kind;
use crate::view::pdf::PdfCache;
use crate::view::read::args::ReadArgs;
use crate::view::read::args::named_encoding;

/// The files a notice names, by what it says of them.
fn notice_paths(notice: &ChangeNotice) -> serde_json::Value {
    json!({
        "shown": notice.shown.iter().map(|(path, _, _)| path).collect::<Vec<_>>(),
        "unshown": notice.unshown.iter().map(|(path, _)| path).collect::<Vec<_>>(),
        "removed": notice.removed,
        "over_budget": notice.over_budget,
    })
}

/// The line that ends a notice at the head of an answer: the answer's own
/// lines follow.
const END_OF_NOTE: &str = "[end of the note; the answer follows]";

/// What a block read is known by among the reads of a file, beside its
/// offset (no outline name holds a NUL).
const BLOCK_KEY: &[u8] = b"\0block";
/// State that spans the calls of one conversation.
#[derive(Debug)]
pub struct Session<F> {
    config: Config,
    fs: F,
    state: State,
    /// The last PDF read, parsed, for later page ranges.
    pub(crate) pdf: PdfCache,
    /// Whether a call is under way (a tool of another shape calls the
    /// typed methods within its own call).
    inside: bool,
    /// Whether the call's answer is a vendor's shape, which a notice at
    /// its head would break (its structured content repeats its text).
    pub(crate) shaped: bool,
}

impl<F: HostFs> Session<F> {
    /// A session with `config` over `fs`.
    pub fn new(config: Config, fs: F) -> Self {
        Self {
            config,
            fs,
            state: State::default(),
            pdf: PdfCache::default(),
            inside: false,
            shaped: false,
        }
    }

    /// A session from a JSON config object (`{}` for the defaults).
    pub fn open(config_json: &str, fs: F) -> Result<Self, String> {
        Ok(Self::new(Config::from_json(config_json)?, fs))
    }

    /// The session's config.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The file system the session works on.
    pub fn fs(&self) -> &F {
        &self.fs
    }

    /// Notes that the outputs of earlier calls left the model's context
    /// (SPEC V5): no later read is answered with the "unchanged" stub for
    /// content shown before.
    pub fn forget_outputs(&mut self) {
        self.state.ledger.forget_outputs();
    }

    /// The session's memory, saved as versioned JSON.
    pub fn save(&self) -> String {
        self.state.save()
    }

    /// The session's memory for a host to keep after each call (see
    /// [`State::checkpoint`]).
    pub fn checkpoint(&mut self, held: Generations) -> Checkpoint {
        self.state.forget_held(held);
        self.state.checkpoint(held)
    }

    /// Replaces the session's memory with what a host kept of it (see
    /// [`State::resume`]) and returns its generations now.
    pub fn resume(&mut self, kept: Kept) -> Result<Generations, String> {
        self.state = State::resume(kept)?;
        Ok(self.state.generations())
    }

    /// Replaces the session's memory with a saved one.
    pub fn restore(&mut self, saved: &str) -> Result<(), String> {
        self.state = State::restore(saved)?;
        Ok(())
    }

    /// Runs one call: first, when this is not a call within a call, every
    /// change of several files a kill or a stopped call cut off is finished
    /// or taken back, and the answer begins with what was done.
    pub(super) fn entered(&mut self, call: impl FnOnce(&mut Self) -> ToolResult) -> ToolResult {
        if self.inside {
            return call(self);
        }
        self.inside = true;
        let mut ctx = self.ctx();
        let recovered = recover::recover(&mut ctx);
        self.shaped = false;
        let mut result = call(self);
        if self.config.change_notices == ChangeNotices::Note && !self.shaped {
            result = self.noted(result);
        }
        self.state.settle_views();
        self.inside = false;
        recover::told(result, &recovered)
    }

    /// What a tool works with: the config, the files and the session's
    /// memory, with no encoding named.
    fn ctx(&mut self) -> Ctx<'_, F> {
        Ctx {
            config: &self.config,
            fs: &self.fs,
            state: &mut self.state,
            encoding: None,
        }
    }

    /// `result` headed by the notice of seen files that changed on disk,
    /// when any did (`change_notices: "note"`).
    fn noted(&mut self, result: ToolResult) -> ToolResult {
        let mut ctx = self.ctx();
        let notice = notices::gather(&mut ctx);
        if notice.is_empty() {
            return result;
        }
        let note = format!("{notice}\n{END_OF_NOTE}\n");
        let tokens = self.config.estimate_tokens(note.len() as u64);
        let mut result = result.prefixed(&note);
        result.metadata["changed_on_disk"] = notice_paths(&notice);
        if let Some(told) = result.metadata["estimated_tokens"].as_u64() {
            result.metadata["estimated_tokens"] = (told + tokens).into();
        }
        result
    }

    /// Which files the model has seen changed on disk since its view, with
    /// their changed lines, numbered, under a quarter of the output budget
    /// (SPEC K2): for the harness to put before the model at the start of a
    /// turn. The lines shown count as seen.
    pub fn changes(&mut self) -> ToolResult {
        self.entered(|session| {
            session.run(|ctx| {
                let notice = notices::gather(ctx);
                let text = notice.to_string();
                let tokens = ctx.config.estimate_tokens(text.len() as u64);
                Ok(ToolResult::from_text(
                    text,
                    json!({
                        "changed_on_disk": notice_paths(&notice),
                        "estimated_tokens": tokens,
                    }),
                ))
            })
        })
    }

    /// Marks a turn (SPEC K1): records what each file the session knows of
    /// holds now, and the files `args.changed` names as changed outside,
    /// for [`Session::rewind`] to go back to. The answer gives the mark's
    /// number.
    pub fn mark(&mut self, args: &MarkArgs) -> ToolResult {
        self.entered(|session| session.run(|ctx| rewind::mark(ctx, args)))
    }

    /// Rewinds the files to a marked turn, three-way (SPEC K1): a file that
    /// holds a version the session knows is restored, one someone changed
    /// since is merged or left as found and listed. One change, which one
    /// `undo` takes back; `dry_run` only says what it would do.
    pub fn rewind(&mut self, args: &RewindArgs) -> ToolResult {
        self.entered(|session| session.run(|ctx| rewind::rewind(ctx, args)))
    }

    /// A call refused before it reached a tool (an unknown tool, arguments
    /// that do not parse): it counts as a call, and its answer is `err`.
    pub(super) fn refused(&mut self, err: &ToolError) -> ToolResult {
        self.state.calls += 1;
        ToolResult::error(err, None)
    }

    /// `read` with typed arguments. An unchanged repeat of the previous read
    /// of a file is answered with a short stub, once (SPEC R7).
    pub fn read(&mut self, args: &ReadArgs) -> ToolResult {
        self.entered(|session| session.read_now(args))
    }

    /// [`Session::read`] within the call.
    fn read_now(&mut self, args: &ReadArgs) -> ToolResult {
        self.state.calls += 1;
        let args = match args.clone().checked() {
            Ok(args) => args,
            Err(err) => return ToolResult::error(&err, None),
        };
        let path = args.file_path.clone();
        self.read_checked(&args)
            .unwrap_or_else(|err| ToolResult::error(&err, Some(&path)))
    }

    /// Runs `calls` on this session's memory over its files with every
    /// write noted: a dry run (`dry`) makes no write and leaves the memory
    /// as it was; otherwise the calls count as this session's own. Gives
    /// what `calls` returned and the files written with their new content.
    pub(crate) fn recorded<R>(
        &mut self,
        dry: bool,
        calls: impl FnOnce(&mut Session<Recording<&F>>) -> R,
    ) -> (R, Vec<(String, Vec<u8>)>) {
        let state = if dry {
            self.state.clone()
        } else {
            std::mem::take(&mut self.state)
        };
        let mut recording = Session {
            config: self.config.clone(),
            fs: Recording::new(&self.fs, dry),
            state,
            pdf: PdfCache::default(),
            // Within this session's call, which took up what was cut off.
            inside: true,
            shaped: false,
        };
        let out = calls(&mut recording);
        let Session { fs, state, .. } = recording;
        if !dry {
            self.state = state;
        }
        (out, fs.written())
    }

    /// Lets the next call count as part of the last one: the reads of one
    /// `read` of several files are one call, as the model sees it.
    pub(super) fn same_call(&mut self) {
        self.state.calls = self.state.calls.saturating_sub(1);
    }

    /// The session's memory.
    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    /// `read` with its output held to `budget` bytes, when that is less
    /// than the config's budget (the text editor's `max_characters`).
    pub(crate) fn read_within(&mut self, args: &ReadArgs, budget: u64) -> ToolResult {
        let saved = self.config.max_output_tokens;
        let tokens = budget / self.config.bytes_per_token;
        if budget > 0 && tokens < saved {
            self.config.max_output_tokens = tokens.max(1);
        }
        let result = self.read(args);
        self.config.max_output_tokens = saved;
        result
    }

    /// `read` of checked arguments: the dedup stub or the content.
    fn read_checked(&mut self, args: &ReadArgs) -> Result<ToolResult, ToolError> {
        named_encoding(Tool::Read, args.encoding.as_deref())?;
        let (target, meta) =
            by_kind::target(&self.config, &self.fs, &args.file_path, &self.state.repairs)?;
        if target.respelled() {
            self.state
                .repairs
                .insert(target.asked.clone(), target.rel.clone());
        }
        let rel = target.rel.clone();
        let key = ReadKey {
            offset: args.offset.unwrap_or(1),
            limit: args.limit.unwrap_or(self.config.max_lines),
            char_offset: args.char_offset,
            // A block read shows other lines than a read from its offset.
            symbol: match (&args.symbol, args.block) {
                (Some(symbol), _) => Some(symbol.as_bytes()),
                (None, true) => Some(BLOCK_KEY),
                (None, false) => None,
            }
            .map(crate::memory::fingerprint::Fingerprint::of),
            encoding: args
                .encoding
                .as_ref()
                .map(|e| crate::memory::fingerprint::Fingerprint::of(e.as_bytes())),
        };
        // An unchanged repeat is stubbed: the fingerprint decides where the
        // session has one (a same-size change with its mtime put back is a
        // change), size and mtime where it has not.
        let unchanged = |record: &crate::memory::ledger::Record| match record.fingerprint {
            Some(seen) => {
                record.size == meta.size
                    && guard::fingerprint(&self.fs, &rel, self.config.chunk_bytes) == Ok(seen)
            }
            None => record.size == meta.size && record.mtime_ns == meta.mtime_ns,
        };
        if self.config.dedup
            && let Some(record) = self.state.ledger.get(&rel)
            && record.dedup == Some(key)
            && unchanged(record)
            && let Some(record) = self.state.ledger.get_mut(&rel)
        {
            record.dedup = None;
            let notice = Notice::Unchanged {
                calls_ago: self.state.calls - record.call,
            };
            let text = notice.to_string();
            let metadata = json!({
                "kind": "unchanged",
                "path": rel,
                "estimated_tokens": self.config.estimate_tokens(text.len() as u64),
            });
            return Ok(noted(ToolResult::from_text(text, metadata), &target));
        }
        let (result, shown) =
            by_kind::dispatch(&self.config, &self.fs, args, &rel, meta, &mut self.pdf)?;
        if let Some(mut shown) = shown {
            let text = shown.text.take();
            self.state
                .ledger
                .observe(&rel, &shown, self.state.calls, key);
            if let Some(text) = text {
                self.state.keep_view(&rel, &text, &self.config);
            }
        }
        Ok(noted(result, &target))
    }

    /// `write` with typed arguments.
    pub fn write(&mut self, args: &WriteArgs) -> ToolResult {
        self.entered(|session| {
            session.change((&args.file_path, Lookup::MayCreate), |ctx, target| {
                ctx.encoding = named_encoding(Tool::Write, args.encoding.as_deref())?;
                write::run(ctx, args, target)
            })
        })
    }

    /// `edit` with typed arguments.
    pub fn edit(&mut self, args: &EditArgs) -> ToolResult {
        self.entered(|session| {
            session.change((&args.file_path, Lookup::Existing), |ctx, target| {
                ctx.encoding = named_encoding(Tool::Edit, args.encoding.as_deref())?;
                edit::run(ctx, args, target)
            })
        })
    }

    /// `edit` of an outline entry by its name, with typed arguments.
    pub fn edit_symbol(&mut self, args: &SymbolEditArgs) -> ToolResult {
        self.entered(|session| {
            session.change((&args.file_path, Lookup::Existing), |ctx, target| {
                ctx.encoding = named_encoding(Tool::Edit, args.encoding.as_deref())?;
                edit::symbol::run(ctx, args, target)
            })
        })
    }

    /// `replace` with typed arguments: a dry run, or the change of all or
    /// chosen occurrences.
    pub fn replace(&mut self, args: &ReplaceArgs) -> ToolResult {
        self.entered(|session| {
            if args.apply && session.config.read_only {
                session.state.calls += 1;
                let path = args.path.clone().unwrap_or_else(|| ".".to_owned());
                return ToolResult::error(&ToolError::read_only(path.clone()), Some(&path));
            }
            session.run(|ctx| replace::run(ctx, args))
        })
    }

    /// `undo` with typed arguments.
    pub fn undo(&mut self, args: &UndoArgs) -> ToolResult {
        self.entered(|session| {
            session.change((&args.file_path, Lookup::Existing), |ctx, target| {
                undo::run(ctx, args, target)
            })
        })
    }

    /// Runs a tool that works on no one path (or on several): counts the
    /// call and turns an error into its answer.
    pub(crate) fn run(
        &mut self,
        tool: impl FnOnce(&mut Ctx<'_, F>) -> Result<ToolResult, ToolError>,
    ) -> ToolResult {
        self.state.calls += 1;
        let mut ctx = self.ctx();
        tool(&mut ctx).unwrap_or_else(|err| ToolResult::error(&err, None))
    }

    /// Runs a tool that changes `path`, once the path is repaired; the
    /// repair is said on the answer's first line, refusals included. A
    /// change the host refused because the file changed while it was being
    /// saved is made again on the new content, up to [`RACE_RETRIES`]
    /// times: it then merges with that change, or is refused with it shown
    /// (SPEC V4), instead of sending the model to read the file again.
    pub(crate) fn change(
        &mut self,
        (path, lookup): (&str, Lookup),
        mut tool: impl FnMut(&mut Ctx<'_, F>, &Target) -> Result<ToolResult, ToolError>,
    ) -> ToolResult {
        self.state.calls += 1;
        if self.config.read_only {
            // Refused before the path or the ledger is looked at: a model
            // told "read it first" would read, and be refused again.
            return ToolResult::error(&ToolError::read_only(path.to_owned()), Some(path));
        }
        let target =
            match repair::locate_for(&self.config, &self.fs, path, &self.state.repairs, lookup) {
                Ok(target) => target,
                Err(err) => return ToolResult::error(&err, Some(path)),
            };
        if target.respelled() {
            self.state
                .repairs
                .insert(target.asked.clone(), target.rel.clone());
        }
        let mut ctx = self.ctx();
        let mut outcome = tool(&mut ctx, &target);
        for _ in 0..RACE_RETRIES {
            if !matches!(outcome, Err(ToolError::Refused(Refusal::Conflict { .. }))) {
                break;
            }
            let target = repair::locate(ctx.config, ctx.fs, path, &ctx.state.repairs);
            let Ok(target) = target else { break };
            outcome = tool(&mut ctx, &target);
        }
        let result = outcome.unwrap_or_else(|err| ToolResult::error(&err, Some(path)));
        let result = versioned(result, &self.state, &target.rel);
        noted(result, &target)
    }
}

/// Times a change the host refused for a race is made again.
pub const RACE_RETRIES: usize = 3;

/// A change's `result` with the version it left `rel` at (SPEC V1), in
/// the metadata and as the answer's last line.
fn versioned(mut result: ToolResult, state: &State, rel: &str) -> ToolResult {
    let Some(record) = state.ledger.get(rel).filter(|r| r.call == state.calls) else {
        return result;
    };
    let Some(hash) = record.fingerprint.filter(|_| !result.is_error) else {
        return result;
    };
    let version = Version {
        hash,
        size: record.size,
    };
    if let Some(Block::Text(text)) = result.content.first_mut() {
        text.push('\n');
        text.push_str(&Notice::Version(version).to_string());
    }
    if result.metadata.is_object() {
        result.metadata["version"] = json!(version.to_string());
    }
    result
}

/// `result` with the repair of its path said on its first line.
pub(super) fn noted(mut result: ToolResult, target: &Target) -> ToolResult {
    if let Some(note) = target.note() {
        match result.content.first_mut() {
            Some(Block::Text(text)) => *text = format!("{note}\n{text}"),
            _ => result.content.insert(0, Block::Text(note)),
        }
        result.metadata["repaired_path"] = serde_json::Value::String(target.rel.clone());
    }
    result
}
