//! Finishing what a killed or stopped change of several files left
//! (SPEC W11). Before each call the session claims the intent records no
//! live call holds. For each, it looks at every file the change named: when
//! all hold the new version, the change landed, and the session counts it
//! as its own (one `undo` takes it back); when none does, nothing landed;
//! otherwise every file holding the new version gets its old one back, so
//! the files stand as before the change. A file that someone changed since
//! is left as found. The call's answer begins with what was done.

use std::fmt::{self, Write as _};

use serde_json::{Value, json};

use crate::answers::result::{Block, ToolResult};
use crate::answers::tool::Tool;
use crate::change::batch::{self, After, Step};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::intent::{ContentDigest, Intent, Planned};
use crate::fs::host::{FileKind, FileStamp, FsError, HostFs, Precondition};
use crate::memory::fingerprint::Fingerprint;

/// Records taken up before one call at most; more wait for the next call.
const MAX_RECORDS_PER_CALL: usize = 8;

/// Files named in a report at most; the rest are counted.
const MAX_FILES_NAMED: usize = 10;

/// Where one file of an interrupted change stands now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fate {
    /// It holds the change's new version.
    Changed,
    /// It holds the version from before the change (the change never
    /// reached it).
    Untouched,
    /// It held the new version and got its old one back.
    Restored,
    /// Someone changed it since: left as found.
    ChangedSince(String),
    /// It held the new version, and putting the old one back failed.
    Stuck(String),
}

/// What became of an interrupted change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Every file holds the new version: the change is kept.
    Landed,
    /// The change ran to its last step, and some of its files changed
    /// since: kept as it stands.
    LandedThenChanged,
    /// No file holds it: nothing to do.
    NothingLanded,
    /// Some did; they were put back, and every file is as before.
    TakenBack,
    /// Not every file could be brought back to one side.
    Mixed,
}

/// One interrupted change and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recovery {
    /// Whether the change was an undo.
    pub undo: bool,
    /// What became of it.
    pub outcome: Outcome,
    /// Whether one `undo` takes it back (a change that landed and is now
    /// in the session's history).
    pub undoable: bool,
    /// Each file with where it stands.
    pub files: Vec<(String, Fate)>,
}

/// Where a file stands against the intended change.
enum Now {
    /// As before the change.
    Before,
    /// As after it, with its bytes when they are small enough to edit.
    After(Option<Vec<u8>>),
    /// Before and after are the same, and it is that.
    Both,
    /// Neither: what it is.
    Else(String),
}

/// Takes up every intent record no live call holds, each as described
/// above; what was done, newest record last.
pub(crate) fn recover<F: HostFs + ?Sized>(ctx: &mut Ctx<'_, F>) -> Vec<Recovery> {
    let mut done = Vec::new();
    while done.len() < MAX_RECORDS_PER_CALL {
        let Ok(Some(record)) = ctx.fs.claim_unfinished() else {
            break;
        };
        // A record cut short was cut before the change's first step.
        if let Some(intent) = Intent::decode(&record) {
            let settled = settle(ctx, &intent);
            let stuck = settled
                .files
                .iter()
                .any(|(_, fate)| matches!(fate, Fate::Stuck(_)));
            done.push(settled);
            // The record is the only copy of what a stuck file held: it
            // stays, for the next call to try again.
            if stuck {
                break;
            }
        }
        if ctx.fs.end_change().is_err() {
            break;
        }
    }
    done
}

/// Brings the files of `intent` to one side, as far as they can be.
fn settle<F: HostFs + ?Sized>(ctx: &mut Ctx<'_, F>, intent: &Intent) -> Recovery {
    let now: Vec<Now> = intent.files.iter().map(|file| look(ctx, file)).collect();
    let landed = now.iter().all(|n| matches!(n, Now::After(_) | Now::Both));
    let untouched = now.iter().all(|n| matches!(n, Now::Before | Now::Both));
    // The steps run in order, and a failed one takes back those before it
    // newest first: when the last file the change reached holds its new
    // version, every step ran, and a file otherwise is someone else's
    // change since.
    let ran_all = matches!(
        now.iter().rev().find(|n| !matches!(n, Now::Both)),
        Some(Now::After(_))
    );
    let mut undoable = false;
    let (outcome, fates): (Outcome, Vec<Fate>) = if landed {
        undoable = adopt(ctx, intent, &now) && !intent.undo;
        (Outcome::Landed, vec![Fate::Changed; now.len()])
    } else if ran_all {
        let fates = now
            .iter()
            .map(|n| match n {
                Now::After(_) | Now::Both => Fate::Changed,
                Now::Before => {
                    Fate::ChangedSince("as before the change; put back since".to_owned())
                }
                Now::Else(what) => Fate::ChangedSince(what.clone()),
            })
            .collect();
        (Outcome::LandedThenChanged, fates)
    } else if untouched {
        (Outcome::NothingLanded, vec![Fate::Untouched; now.len()])
    } else {
        let fates: Vec<Fate> = intent
            .files
            .iter()
            .zip(&now)
            .map(|(file, now)| match now {
                Now::Before | Now::Both => Fate::Untouched,
                Now::After(_) => match put_back(ctx.fs, file) {
                    Ok(()) => {
                        ctx.state.ledger.remove(&file.rel);
                        Fate::Restored
                    }
                    Err(err) => Fate::Stuck(err.to_string()),
                },
                Now::Else(what) => Fate::ChangedSince(what.clone()),
            })
            .collect();
        let whole = fates
            .iter()
            .all(|f| matches!(f, Fate::Untouched | Fate::Restored));
        let outcome = if whole {
            Outcome::TakenBack
        } else {
            Outcome::Mixed
        };
        (outcome, fates)
    };
    Recovery {
        undo: intent.undo,
        outcome,
        undoable,
        files: intent
            .files
            .iter()
            .map(|f| f.rel.clone())
            .zip(fates)
            .collect(),
    }
}

/// Where `file` stands now.
fn look<F: HostFs + ?Sized>(ctx: &Ctx<'_, F>, file: &Planned) -> Now {
    let before = file.before.as_deref().map(ContentDigest::of);
    let meta = match ctx.fs.stat(&file.rel) {
        Ok(meta) if meta.kind == FileKind::File => meta,
        Ok(meta) => return Now::Else(format!("now {}", meta.kind.describe())),
        Err(FsError::NotFound) => {
            return match (&before, &file.after) {
                (None, None) => Now::Both,
                (None, Some(_)) => Now::Before,
                (Some(_), None) => Now::After(None),
                (Some(_), Some(_)) => Now::Else("deleted since".to_owned()),
            };
        }
        Err(err) => return Now::Else(format!("could not be examined ({err})")),
    };
    let chunk = ctx.config.chunk_bytes;
    let keep = ctx.config.max_edit_bytes;
    let Ok(current) = guard::load(ctx.fs, &file.rel, &file.rel, meta, chunk, keep) else {
        return Now::Else("could not be read".to_owned());
    };
    let now = ContentDigest {
        size: current.len,
        sha256: current.sha256,
    };
    let is_before = before.as_ref() == Some(&now);
    let is_after = file.after.as_ref() == Some(&now);
    match (is_before, is_after) {
        (true, true) => Now::Both,
        (true, false) => Now::Before,
        (false, true) => Now::After(current.bytes),
        (false, false) => Now::Else("changed since by someone else".to_owned()),
    }
}

/// Gives `file`, which holds the change's new version, its old one back.
fn put_back<F: HostFs + ?Sized>(fs: &F, file: &Planned) -> Result<(), FsError> {
    let holding_new = |after: &ContentDigest| {
        Precondition::Matches(FileStamp {
            size: after.size,
            mtime_ns: 0,
            sha256: Some(after.sha256.clone()),
            xxh3: None,
        })
    };
    match (&file.before, &file.after) {
        (Some(old), Some(after)) => fs
            .write_file(&file.rel, old, &holding_new(after))
            .map(|_| ()),
        (None, Some(after)) => fs.remove_file(&file.rel, &holding_new(after)),
        (Some(old), None) => fs
            .write_file(&file.rel, old, &Precondition::Absent)
            .map(|_| ()),
        (None, None) => Ok(()),
    }
}

/// Counts a change that landed whole as the session's own, unless the
/// session already does: a change goes into the history as one group, an
/// undo takes its group out. Whether the history now holds the change.
fn adopt<F: HostFs + ?Sized>(ctx: &mut Ctx<'_, F>, intent: &Intent, now: &[Now]) -> bool {
    let history = &ctx.state.history;
    let newest = |rel: &str| {
        history
            .last(rel)
            .map(|entry| (entry.after, entry.after_size))
    };
    let version = |bytes: Option<&[u8]>| {
        bytes.map_or((Fingerprint::of(b""), 0), |b| {
            (Fingerprint::of(b), b.len() as u64)
        })
    };
    if intent.undo {
        // The undo took back changes the history holds as the newest of
        // each file: they go, as they would have.
        let undone = intent
            .files
            .iter()
            .all(|file| newest(&file.rel) == Some(version(file.before.as_deref())));
        if undone {
            for file in &intent.files {
                ctx.state.history.pop(&file.rel);
                ctx.state.ledger.remove(&file.rel);
            }
        }
        return false;
    }
    let known = intent.files.iter().zip(now).all(|(file, now)| match now {
        Now::After(Some(bytes)) => newest(&file.rel) == Some(version(Some(bytes))),
        Now::After(None) if file.after.is_none() => newest(&file.rel) == Some(version(None)),
        _ => false,
    });
    let mut steps = Vec::new();
    for (file, now) in intent.files.iter().zip(now) {
        let after = match (now, &file.after) {
            (Now::After(Some(bytes)), _) => After::plain(bytes.clone()),
            (Now::After(None) | Now::Both, None) => After::Nothing,
            (Now::Both, Some(_)) => After::plain(file.before.clone().unwrap_or_default()),
            // Too large to keep: the history cannot hold it.
            _ => return false,
        };
        steps.push(Step {
            rel: file.rel.clone(),
            path: file.rel.clone(),
            before: file.before.clone(),
            precondition: Precondition::Any,
            after,
        });
    }
    if known {
        return true;
    }
    let metas = steps
        .iter()
        .map(|step| match step.after {
            After::Bytes { .. } => ctx.fs.stat(&step.rel).ok(),
            After::Nothing => None,
        })
        .collect::<Vec<_>>();
    batch::record_all(ctx, &steps, &metas, Tool::Edit);
    true
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.undo { "An undo" } else { "A change" };
        let count = self.files.len();
        let paths: Vec<&str> = self.files.iter().map(|(p, _)| p.as_str()).collect();
        match self.outcome {
            Outcome::Landed => write!(
                f,
                "Note: {what} of {count} files was cut off before its answer, after it had landed whole: {}. They keep it{}.",
                named(&paths),
                if self.undoable {
                    "; undo takes it back"
                } else {
                    ""
                }
            ),
            Outcome::LandedThenChanged => {
                write!(
                    f,
                    "Note: {what} of {count} files was cut off before its answer, after it had landed whole; some of its files changed since, and all are left as they stand:"
                )?;
                self.list(f)
            }
            Outcome::NothingLanded => write!(
                f,
                "Note: {what} of {count} files was cut off before its first step: no file was changed ({}).",
                named(&paths)
            ),
            Outcome::TakenBack => {
                let restored: Vec<&str> = self
                    .files
                    .iter()
                    .filter(|(_, fate)| *fate == Fate::Restored)
                    .map(|(p, _)| p.as_str())
                    .collect();
                write!(
                    f,
                    "Note: {what} of {count} files was cut off after {} of them; {} got {} old content back, so every file is as before it ({}).",
                    restored.len(),
                    named(&restored),
                    if restored.len() == 1 { "its" } else { "their" },
                    named(&paths)
                )
            }
            Outcome::Mixed => {
                write!(
                    f,
                    "Note: {what} of {count} files was cut off midway, and not every file could be put back:"
                )?;
                self.list(f)?;
                write!(f, "\nRead the files not restored before changing them.")
            }
        }
    }
}

impl Recovery {
    /// Each file with where it stands, one per line.
    fn list(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (path, fate) in self.files.iter().take(MAX_FILES_NAMED) {
            write!(f, "\n- {path}: {}", fate.describe())?;
        }
        if self.files.len() > MAX_FILES_NAMED {
            write!(f, "\n- and {} more", self.files.len() - MAX_FILES_NAMED)?;
        }
        Ok(())
    }
}

impl Fate {
    /// Where the file stands, for the report.
    fn describe(&self) -> String {
        match self {
            Fate::Changed => "holds the change".to_owned(),
            Fate::Untouched => "as before the change (never reached)".to_owned(),
            Fate::Restored => "restored to its content from before the change".to_owned(),
            Fate::ChangedSince(what) => format!("{what}; left as found"),
            Fate::Stuck(why) => format!("holds the change; putting it back failed ({why})"),
        }
    }

    /// The fate's name in metadata.
    fn name(&self) -> &'static str {
        match self {
            Fate::Changed => "changed",
            Fate::Untouched => "untouched",
            Fate::Restored => "restored",
            Fate::ChangedSince(_) => "changed_since",
            Fate::Stuck(_) => "stuck",
        }
    }
}

impl Outcome {
    /// The outcome's name in metadata.
    fn name(&self) -> &'static str {
        match self {
            Outcome::Landed => "landed",
            Outcome::LandedThenChanged => "landed_then_changed",
            Outcome::NothingLanded => "nothing_landed",
            Outcome::TakenBack => "taken_back",
            Outcome::Mixed => "mixed",
        }
    }
}

/// `paths`, the first few by name and the rest counted.
fn named(paths: &[&str]) -> String {
    let mut text = paths
        .iter()
        .take(MAX_FILES_NAMED)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > MAX_FILES_NAMED {
        let _ = write!(text, " and {} more", paths.len() - MAX_FILES_NAMED);
    }
    text
}

/// `result` with what `recovered` did said before its text, and in its
/// metadata as `recovered`.
pub(crate) fn told(mut result: ToolResult, recovered: &[Recovery]) -> ToolResult {
    if recovered.is_empty() {
        return result;
    }
    let notes: Vec<String> = recovered.iter().map(ToString::to_string).collect();
    let notes = notes.join("\n");
    match result.content.first_mut() {
        Some(Block::Text(text)) => *text = format!("{notes}\n{text}"),
        _ => result.content.insert(0, Block::Text(notes)),
    }
    if let Some(into) = result.metadata.as_object_mut() {
        let facts: Vec<Value> = recovered
            .iter()
            .map(|r| {
                json!({
                    "outcome": r.outcome.name(),
                    "undo": r.undo,
                    "undoable": r.undoable,
                    "files": r.files.iter().map(|(path, fate)| json!({"path": path, "state": fate.name()})).collect::<Vec<_>>(),
                })
            })
            .collect();
        into.insert("recovered".to_owned(), Value::Array(facts));
    }
    result
}

#[cfg(test)]
mod tests {
    use crate::change::batch::{After, Step};
    use crate::change::intent::Intent;
    use crate::fs::host::{HostFs, Precondition};
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    /// Files `a.txt`, `b.txt` and `c.txt`, and the record of a change that
    /// gives each a new line, begun and let go as a kill would, with the
    /// first `made` steps run.
    fn cut_off(made: usize) -> MemFs {
        let fs = MemFs::new();
        let names = ["a.txt", "b.txt", "c.txt"];
        for name in names {
            fs.add_file(name, format!("old {name}\n").as_bytes());
        }
        let steps: Vec<Step> = names
            .iter()
            .map(|name| Step {
                rel: (*name).to_owned(),
                path: (*name).to_owned(),
                before: Some(format!("old {name}\n").into_bytes()),
                precondition: Precondition::Any,
                after: After::plain(format!("new {name}\n").into_bytes()),
            })
            .collect();
        fs.begin_change(&Intent::of(&steps, false).encode())
            .unwrap();
        for name in names.iter().take(made) {
            fs.add_file(name, format!("new {name}\n").as_bytes());
        }
        fs.release_changes();
        fs
    }

    fn content(session: &Session<MemFs>, name: &str) -> String {
        String::from_utf8(session.fs().contents(name).unwrap()).unwrap()
    }

    #[test]
    fn a_change_cut_off_midway_is_taken_back_by_the_next_call() {
        let mut session = Session::open("{}", cut_off(2)).unwrap();
        let answer = session.call("read", r#"{"file_path": "c.txt"}"#);
        assert!(
            answer.text().starts_with("Note: A change of 3 files was cut off after 2 of them; a.txt, b.txt got their old content back, so every file is as before it (a.txt, b.txt, c.txt).\n1\told c.txt"),
            "{}",
            answer.text()
        );
        assert_eq!(answer.metadata["recovered"][0]["outcome"], "taken_back");
        for name in ["a.txt", "b.txt", "c.txt"] {
            assert_eq!(content(&session, name), format!("old {name}\n"));
        }
        assert_eq!(session.fs().change_records(), 0);
        let again = session.call("read", r#"{"file_path": "a.txt"}"#);
        assert!(!again.text().contains("Note:"), "{}", again.text());
    }

    #[test]
    fn a_change_that_landed_whole_is_kept_and_one_undo_takes_it_back() {
        let mut session = Session::open("{}", cut_off(3)).unwrap();
        let answer = session.call("read", r#"{"file_path": "a.txt"}"#);
        assert!(
            answer.text().starts_with("Note: A change of 3 files was cut off before its answer, after it had landed whole: a.txt, b.txt, c.txt. They keep it; undo takes it back.\n"),
            "{}",
            answer.text()
        );
        let undo = session.call("undo", r#"{"file_path": "b.txt"}"#);
        assert!(!undo.is_error, "{}", undo.text());
        for name in ["a.txt", "b.txt", "c.txt"] {
            assert_eq!(content(&session, name), format!("old {name}\n"));
        }
    }

    #[test]
    fn a_change_cut_off_before_its_first_step_changed_nothing_and_says_so() {
        let mut session = Session::open("{}", cut_off(0)).unwrap();
        let answer = session.call("read", r#"{"file_path": "a.txt"}"#);
        assert!(
            answer.text().starts_with("Note: A change of 3 files was cut off before its first step: no file was changed (a.txt, b.txt, c.txt).\n"),
            "{}",
            answer.text()
        );
    }

    #[test]
    fn a_file_someone_changed_since_is_left_as_found_and_named() {
        let fs = cut_off(2);
        fs.add_file("b.txt", b"someone else\n");
        let mut session = Session::open("{}", fs).unwrap();
        let answer = session.call("read", r#"{"file_path": "c.txt"}"#);
        let text = answer.text();
        assert!(
            text.starts_with("Note: A change of 3 files was cut off midway, and not every file could be put back:\n- a.txt: restored to its content from before the change\n- b.txt: changed since by someone else; left as found\n- c.txt: as before the change (never reached)\nRead the files not restored before changing them.\n"),
            "{text}"
        );
        assert_eq!(content(&session, "a.txt"), "old a.txt\n");
        assert_eq!(content(&session, "b.txt"), "someone else\n");
    }

    #[test]
    fn a_change_that_ran_to_its_last_step_is_kept_though_a_file_changed_since() {
        let fs = cut_off(3);
        fs.add_file("b.txt", b"edited by someone\n");
        let mut session = Session::open("{}", fs).unwrap();
        let answer = session.call("read", r#"{"file_path": "a.txt"}"#);
        assert!(
            answer.text().starts_with("Note: A change of 3 files was cut off before its answer, after it had landed whole; some of its files changed since, and all are left as they stand:\n- a.txt: holds the change\n- b.txt: changed since by someone else; left as found\n- c.txt: holds the change\n"),
            "{}",
            answer.text()
        );
        assert_eq!(content(&session, "a.txt"), "new a.txt\n");
        assert_eq!(content(&session, "c.txt"), "new c.txt\n");
    }

    #[test]
    fn a_record_a_live_call_holds_is_left_alone() {
        let fs = cut_off(1);
        fs.begin_change(b"held by a call under way").unwrap();
        let mut session = Session::open("{}", fs).unwrap();
        session.call("read", r#"{"file_path": "a.txt"}"#);
        assert_eq!(session.fs().change_records(), 1);
    }

    #[test]
    fn a_record_cut_short_is_dropped_without_a_word() {
        let fs = MemFs::new();
        fs.add_file("a.txt", b"a\n");
        fs.begin_change(b"filetools-change 1\n{\"undo\":false,\"fi")
            .unwrap();
        fs.release_changes();
        let mut session = Session::open("{}", fs).unwrap();
        let answer = session.call("read", r#"{"file_path": "a.txt"}"#);
        assert_eq!(
            answer.text(),
            "1\ta\n[lines 1-1 of 1; end of file]\n[version f6f879a0a59b54da-2]"
        );
        assert_eq!(session.fs().change_records(), 0);
    }

    #[test]
    fn a_patch_over_several_files_keeps_its_record_only_while_it_runs() {
        let fs = MemFs::new();
        fs.add_file("a.txt", b"a\n");
        fs.add_file("b.txt", b"b\n");
        let mut session = Session::open(r#"{"tools": ["filetools", "apply-patch"]}"#, fs).unwrap();
        session.call("read", r#"{"file_path": "a.txt"}"#);
        session.call("read", r#"{"file_path": "b.txt"}"#);
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch";
        let answer = session.call(
            "apply_patch",
            &serde_json::json!({"input": patch}).to_string(),
        );
        assert!(!answer.is_error, "{}", answer.text());
        assert_eq!(session.fs().contents("a.txt").unwrap(), b"A\n");
        assert_eq!(session.fs().change_records(), 0);
    }
}
