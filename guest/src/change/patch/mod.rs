//! Patches over several files (SPEC T3, T4, under the rules of W1–W7 and
//! E1–E10): every file operation is checked and computed before anything is
//! written — an added file must not exist, an updated or deleted one must
//! be a text file unchanged since the session last saw it, every hunk must
//! match one place — and then all of it lands through
//! the `batch` module, all or nothing, as one group that one `undo`
//! takes back. Untouched lines keep their bytes; new lines get the file's
//! line end; the final newline is kept as the file had it.
//!
//! ```
//! use filetools_core::{MemFs, Session};
//! let fs = MemFs::new();
//! fs.add_file("a.py", b"def f():\n    return 1\n");
//! let mut session = Session::open(r#"{"tools": "apply-patch"}"#, fs).unwrap();
//! let patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch";
//! let result = session.call("apply_patch", &serde_json::json!({"input": patch}).to_string());
//! assert_eq!(result.text(), "Done: 1 file changed.\nM a.py: 2 lines, hunk at line 2; version 9589a81f857e6b53-22");
//! assert_eq!(session.fs().contents("a.py").unwrap(), b"def f():\n    return 2\n");
//! ```

pub mod lines;
pub mod parse;
pub mod scope;
pub mod seek;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::error::patch::PatchError;
use crate::answers::quote::quoted;
use crate::answers::refusal::{Refusal, Unmerged};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::batch::{self, After, Step};
use crate::change::context::Ctx;
use crate::change::guard;
use crate::change::rewrite::{self, Loaded, Seen};
use crate::fs::host::HostFs;
use crate::memory::version::Version;
use crate::paths::repair::{self, Lookup, Target};
use parse::{FileOp, Hunk};
use seek::{Level, Seek};

/// What the patch did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Done {
    letter: char,
    path: String,
    moved_to: Option<String>,
    lines: u64,
    hunks: Vec<usize>,
    loose: Option<Level>,
    /// What else changed in the file, when the change was merged.
    note: Option<String>,
    /// Where the file's new content stands (root-relative).
    rel: String,
    /// Its version once written.
    version: Option<Version>,
}

impl fmt::Display for Done {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.letter, self.path)?;
        if let Some(to) = &self.moved_to {
            write!(f, " -> {to}")?;
        }
        if self.letter == 'D' {
            return Ok(());
        }
        if self.letter == UNCHANGED {
            return write!(
                f,
                ": {} line{}, unchanged: its hunks change nothing",
                self.lines,
                plural(self.lines)
            );
        }
        write!(f, ": {} line{}", self.lines, plural(self.lines))?;
        if !self.hunks.is_empty() {
            let at: Vec<String> = self.hunks.iter().map(ToString::to_string).collect();
            let noun = if at.len() == 1 { "hunk" } else { "hunks" };
            write!(f, ", {noun} at line{} {}", plural(at.len()), at.join(", "))?;
        }
        match self.loose {
            Some(Level::TrailingSpace) => {
                f.write_str(" (context matched ignoring trailing spaces)")?;
            }
            Some(Level::Whitespace) => f.write_str(" (context matched ignoring indentation)")?,
            Some(Level::Punctuation) => {
                f.write_str(" (context matched reading look-alike punctuation as ASCII)")?;
            }
            _ => {}
        }
        match self.version {
            Some(version) => write!(f, "; version {version}"),
            None => Ok(()),
        }
    }
}

/// The letter of a file the patch leaves as it was (not written, no undo).
const UNCHANGED: char = '=';

fn plural(n: impl TryInto<u64>) -> &'static str {
    if n.try_into().ok() == Some(1) {
        ""
    } else {
        "s"
    }
}

/// Applies the file operations `ops` all or none; a file named in
/// `expected` (by its path in the patch) must be at that version.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    ops: &[FileOp],
    expected: &BTreeMap<String, Version>,
) -> Result<ToolResult, ToolError> {
    if let Some(unused) = expected
        .keys()
        .find(|path| !ops.iter().any(|op| op.path() == *path))
    {
        return Err(ToolError::InvalidArgument {
            tool: Tool::Edit,
            name: "expect",
            expected: "versions of files the patch changes, each by its path as the patch names it",
            got: quoted(unused),
        });
    }
    let mut named = BTreeSet::new();
    let mut steps = Vec::new();
    let mut done = Vec::new();
    for op in ops {
        let moved_to = match op {
            FileOp::Update {
                move_to: Some(to), ..
            } => Some(to.as_str()),
            _ => None,
        };
        let mut located = Vec::new();
        // A file added, or a file's new name, may be created: its other
        // spellings are tried by name alone.
        let adds = if matches!(op, FileOp::Add { .. }) {
            Lookup::MayCreate
        } else {
            Lookup::Existing
        };
        let lookups =
            std::iter::once((op.path(), adds)).chain(moved_to.map(|to| (to, Lookup::MayCreate)));
        for (path, lookup) in lookups {
            let target = repair::locate_for(ctx.config, ctx.fs, path, &ctx.state.repairs, lookup)?;
            if !named.insert(target.rel.clone()) {
                return Err(PatchError::Twice {
                    path: path.to_owned(),
                }
                .into());
            }
            located.push(target);
        }
        let destination = (located.len() > 1).then(|| located.remove(1));
        let expect = expected.get(op.path()).copied();
        done.push(plan(
            ctx,
            (op, expect),
            &located[0],
            destination.as_ref(),
            &mut steps,
        )?);
    }
    batch::commit_all(ctx, &steps, Tool::Edit)?;
    for done in &mut done {
        let record = ctx.state.ledger.get(&done.rel);
        let written = !matches!(done.letter, 'D' | UNCHANGED);
        done.version = record.filter(|_| written).and_then(|r| {
            Some(Version {
                hash: r.fingerprint?,
                size: r.size,
            })
        });
    }
    let changed = done.iter().filter(|d| d.letter != UNCHANGED).count();
    let head = if changed == 0 {
        "Nothing changed: the patch leaves its files as they are.".to_owned()
    } else {
        format!("Done: {changed} file{} changed.", plural(changed))
    };
    let mut text = format!(
        "{head}\n{}",
        done.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
    for note in done.iter().filter_map(|d| d.note.as_deref()) {
        text.push('\n');
        text.push_str(note.trim_end());
    }
    let files: Vec<_> = done
        .iter()
        .map(|d| {
            let mut file = json!({
                "path": d.moved_to.as_ref().unwrap_or(&d.path),
                "action": match d.letter { 'A' => "created", 'D' => "removed", UNCHANGED => "unchanged", _ => "updated" },
                "lines": d.lines,
            });
            if let Some(version) = d.version {
                file["version"] = json!(version.to_string());
            }
            file
        })
        .collect();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        json!({"action": "patched", "files": files, "estimated_tokens": tokens}),
    ))
}

/// The steps of one operation, appended to `steps`, and what it will do.
/// `target` is where the operation's path leads, `destination` where its
/// move leads.
fn plan<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    (op, expect): (&FileOp, Option<Version>),
    target: &Target,
    destination: Option<&Target>,
    steps: &mut Vec<Step>,
) -> Result<Done, ToolError> {
    let path = op.path().to_owned();
    let meta = guard::target_kind(&target.stat, &path)?;
    let done = |letter, lines| Done {
        letter,
        path: path.clone(),
        moved_to: None,
        lines,
        hunks: Vec::new(),
        loose: None,
        note: None,
        rel: target.rel.clone(),
        version: None,
    };
    if let (Some(expected), None) = (expect, meta) {
        return Err(Refusal::absent(&path, Tool::Edit, expected).into());
    }
    match (op, meta) {
        (FileOp::Add { text, .. }, None) => {
            steps.push(rewrite::creation(&target.rel, &path, text));
            Ok(done('A', crate::text::textfile::line_count(text)))
        }
        (FileOp::Add { .. }, Some(_)) => Err(PatchError::Exists { path }.into()),
        (FileOp::Delete { .. } | FileOp::Update { .. }, None) => Err(PatchError::Missing {
            deleting: matches!(op, FileOp::Delete { .. }),
            path,
        }
        .into()),
        (FileOp::Delete { .. }, Some(meta)) => {
            let how = (Seen::IfRecorded, expect);
            let loaded =
                rewrite::load(ctx, &target.rel, &path, meta, Tool::Edit, how).or_else(|err| {
                    match err {
                        // A binary file may be deleted too; its bytes are kept.
                        ToolError::Refused(Refusal::NotText { .. } | Refusal::Binary { .. }) => {
                            loaded_bytes(ctx, &target.rel, &path, meta)
                        }
                        other => Err(other),
                    }
                })?;
            loaded.unmerged(ctx, Tool::Edit)?;
            steps.push(rewrite::removal(&loaded));
            Ok(done('D', 0))
        }
        (
            FileOp::Update {
                move_to,
                hunks,
                crlf,
                ..
            },
            Some(meta),
        ) => {
            let how = (Seen::IfRecorded, expect);
            let loaded = rewrite::load(ctx, &target.rel, &path, meta, Tool::Edit, how)?;
            let changed = match apply(&loaded, hunks, &path, *crlf) {
                // Context that no longer matches a file someone changed
                // since the model's view: shown what changed (SPEC V4).
                Err(PatchError::NotFound { .. } | PatchError::Ambiguous { .. })
                    if loaded.behind.is_some() =>
                {
                    return Err(loaded.refused(ctx, Tool::Edit, Unmerged::Unmatched));
                }
                changed => changed?,
            };
            if move_to.is_none() && changed.text == loaded.file.text {
                // Nothing to write, and nothing to undo.
                let mut outcome = done(UNCHANGED, crate::text::textfile::line_count(&changed.text));
                outcome.hunks = changed.at;
                return Ok(outcome);
            }
            let merged = loaded.land(ctx, &changed.text, Tool::Edit)?;
            let mut step = loaded.step(&changed.text, merged.as_ref())?;
            let lines = match &step.after {
                After::Bytes { total_lines, .. } => *total_lines,
                After::Nothing => 0,
            };
            let mut outcome = done('M', lines);
            outcome.hunks = changed.at;
            outcome.loose = changed.loose;
            outcome.note = merged.map(|m| m.note(&path));
            if let (Some(to), Some(dest)) = (move_to, destination) {
                if guard::target_kind(&dest.stat, to)?.is_some() {
                    let (path, to) = (path.clone(), to.clone());
                    return Err(PatchError::MoveOnto { path, to }.into());
                }
                step.rel.clone_from(&dest.rel);
                step.path.clone_from(to);
                step.before = None;
                step.precondition = crate::fs::host::Precondition::Absent;
                steps.push(step);
                steps.push(rewrite::removal(&loaded));
                outcome.moved_to = Some(to.clone());
                outcome.rel.clone_from(&dest.rel);
            } else {
                steps.push(step);
            }
            Ok(outcome)
        }
    }
}

/// A file that is not text, loaded whole for its removal.
fn loaded_bytes<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    rel: &str,
    path: &str,
    meta: crate::fs::host::Metadata,
) -> Result<Loaded, ToolError> {
    let max = ctx.config.max_edit_bytes;
    let current = guard::load(ctx.fs, rel, path, meta, ctx.config.chunk_bytes, max)?;
    if current.bytes.is_none() {
        return Err(Refusal::TooLarge {
            path: path.to_owned(),
            size: current.len,
            max,
        }
        .into());
    }
    // One the session saw (an image, a PDF) must be as it saw it.
    if let Some(record) = ctx.state.ledger.get(rel) {
        guard::fresh(Some(record), &current, path, Tool::Edit)?;
    }
    Ok(Loaded {
        rel: rel.to_owned(),
        path: path.to_owned(),
        current,
        file: crate::text::textfile::TextFile {
            style: crate::text::textfile::Style::of_text(
                "",
                crate::text::encoding::Encoding::Utf8,
                false,
            ),
            text: String::new(),
            newlines: 0,
        },
        record: None,
        behind: None,
    })
}

/// A file's text after its hunks.
#[derive(Debug)]
struct Changed {
    text: String,
    /// 1-based first line of each hunk in the new text.
    at: Vec<usize>,
    /// The loosest level any hunk matched at, when not exact.
    loose: Option<Level>,
}

/// One hunk placed: `remove` file lines from `start` give way to `lines`.
struct Placed<'a> {
    start: usize,
    remove: usize,
    lines: Vec<lines::Line<'a>>,
}

/// Where `hunk`'s old lines stand in `lines` within `region`: inside the
/// last anchor's block first, then anywhere after it. Also how many of its
/// old lines matched and how many of its new lines it writes: a last empty
/// line stands for the final newline (Codex ends every hunk with one) or
/// separates hunks, so when the lines are not found with it, or found in
/// several places, they are sought, and written, without it. None matched
/// means the hunk only adds lines.
fn locate(lines: &[&str], region: scope::Region, hunk: &Hunk) -> (Seek, usize, usize) {
    if hunk.old.is_empty() {
        return (Seek::Missing, 0, hunk.new.len());
    }
    let find = |wanted: &[String]| find_in(lines, region, wanted, hunk.end_of_file);
    let found = find(&hunk.old);
    if !matches!(found, Seek::Found { .. }) && hunk.old.last().is_some_and(String::is_empty) {
        let matched = hunk.old.len() - 1;
        let kept = hunk.new.len() - usize::from(hunk.new.last().is_some_and(String::is_empty));
        if matched == 0 {
            return (Seek::Missing, 0, kept);
        }
        let retried = find(&hunk.old[..matched]);
        if matches!(retried, Seek::Found { .. }) || found == Seek::Missing {
            return (retried, matched, kept);
        }
    }
    (found, hunk.old.len(), hunk.new.len())
}

/// [`locate`]'s search for `wanted`.
fn find_in(lines: &[&str], region: scope::Region, wanted: &[String], eof: bool) -> Seek {
    let within = if eof { lines } else { &lines[..region.end] };
    match seek::seek_starts(within, wanted, region.from..region.inner, eof) {
        Seek::Missing => seek::seek(within, wanted, region.from, eof),
        found => found,
    }
}

/// For a hunk whose lines are missing: how many of its first lines do
/// match together, and the 1-based line they start at (a binary search:
/// a prefix that matches has every shorter prefix matching too).
fn matched_prefix(
    lines: &[&str],
    region: scope::Region,
    wanted: &[String],
    eof: bool,
) -> Option<(usize, usize)> {
    let at = |n: usize| match find_in(lines, region, &wanted[..n], eof && n == wanted.len()) {
        Seek::Found { at, .. } => Some(at),
        Seek::Ambiguous { starts } => starts.first().copied(),
        Seek::Missing => None,
    };
    let (mut low, mut high) = (0, wanted.len());
    while low + 1 < high {
        let mid = low + (high - low) / 2;
        if at(mid).is_some() {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low > 0).then(|| (low, at(low).map_or(0, |a| a + 1)))
}

/// Applies `hunks` to `loaded`'s lines, in order, each after the last.
fn apply(loaded: &Loaded, hunks: &[Hunk], path: &str, crlf: bool) -> Result<Changed, PatchError> {
    // A file with no line end yet takes the diff's.
    let text = &loaded.file.text;
    let dominant_crlf = loaded.line_end() == "\r\n" || (crlf && !text.contains('\n'));
    let file = lines::FileLines::of(text, dominant_crlf);
    let contents = file.contents();
    let mut cursor = 0;
    let mut placed: Vec<Placed<'_>> = Vec::new();
    let mut loose = None;
    for (n, hunk) in hunks.iter().enumerate() {
        let number = n + 1;
        let region =
            scope::narrow(&contents, hunk, cursor).map_err(|miss| miss.error(path, number))?;
        let (found, matched, kept) = locate(&contents, region, hunk);
        if matched == 0 {
            // Only added lines: after the @@ lines, or at the end of the
            // file (before a last blank line, as Codex puts them).
            let start = if hunk.anchors.is_empty() {
                let blank_last = contents.last().is_some_and(|l| l.is_empty());
                contents.len() - usize::from(blank_last)
            } else {
                region.from
            };
            placed.push(Placed {
                start,
                remove: 0,
                lines: file.replacement(start, 0, hunk, kept),
            });
            if !hunk.anchors.is_empty() {
                // As Codex, the anchor moves the search on.
                cursor = start;
            }
            continue;
        }
        match found {
            Seek::Found { at, level } => {
                if level != Level::Exact {
                    loose = loose.max(Some(level));
                }
                placed.push(Placed {
                    start: at,
                    remove: matched,
                    lines: file.replacement(at, matched, hunk, kept),
                });
                cursor = at + matched;
            }
            Seek::Missing => {
                let wanted = &hunk.old[..matched];
                let prefix = matched_prefix(&contents, region, wanted, hunk.end_of_file);
                let first = wanted[prefix.map_or(0, |(n, _)| n)].clone();
                return Err(PatchError::NotFound {
                    path: path.to_owned(),
                    hunk: number,
                    first,
                    after: region.from + 1,
                    anchor: false,
                    matched: prefix,
                });
            }
            Seek::Ambiguous { starts } => {
                return Err(PatchError::Ambiguous {
                    path: path.to_owned(),
                    hunk: number,
                    lines: starts.iter().map(|s| s + 1).collect(),
                    anchor: false,
                });
            }
        }
    }
    // Hunks of only added lines may land after later hunks; the others
    // come in file order and never overlap.
    placed.sort_by_key(|p| p.start);
    let mut out = Vec::with_capacity(file.lines.len());
    let mut at = Vec::with_capacity(placed.len());
    let mut next = 0;
    for place in placed {
        if place.start < next {
            return Err(PatchError::Overlap {
                path: path.to_owned(),
            });
        }
        out.extend_from_slice(&file.lines[next..place.start]);
        at.push(out.len() + 1);
        out.extend(place.lines);
        next = place.start + place.remove;
    }
    out.extend_from_slice(&file.lines[next..]);
    Ok(Changed {
        text: file.render(&out),
        at,
        loose,
    })
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
