//! `replace` (SPEC Y2): a literal or regular-expression replacement over
//! the files under a path, chosen by glob and under the search's ignore
//! rules (what they left out is named). Without `apply` it is a dry run:
//! each occurrence numbered, with its file's version and its lines before
//! and after, under the output budget; the lines shown count as read, as a
//! search's hits do. With `apply` and `expected_count` (and perhaps the
//! `occurrences` to take) the occurrences are found again and replaced in
//! one change of every file they are in: refused, with nothing written,
//! when a file changed since the session saw it (the dry run) or was not
//! seen, or when the count or a number no longer fits; landed through the
//! change of several files (all or none, finished or taken back after a
//! kill), so one `undo` takes all of it back.

use std::fmt::Write as _;

use regex::{Regex, RegexBuilder};

use crate::answers::error::ToolError;
use crate::answers::error::replace::ReplaceError;
use crate::answers::replace::{DryRun, Occurrence, PlannedFile, Replaced};
use crate::answers::result::ToolResult;
use crate::answers::tool::Tool;
use crate::change::args::ReplaceArgs;
use crate::change::basis::version_of;
use crate::change::batch::{self, After, Step};
use crate::change::context::Ctx;
use crate::change::edit::view::{LineIndex, View};
use crate::change::guard::{self, Current};
use crate::change::syntax_check;
use crate::fs::host::{FileKind, HostFs};
use crate::memory::ledger::{Observation, ReadKey};
use crate::paths::repair;
use crate::paths::walk::Walk;
use crate::paths::walk::rules::{Narrowing, Rules};
use crate::text::textfile::{Style, TextFile, line_count};

/// Files holding the pattern one change takes, at most.
pub const MAX_REPLACE_FILES: usize = 200;

/// Bytes the compiled pattern may take.
const MAX_PATTERN_BYTES: usize = 1 << 20;

/// Files named when some could not be searched.
const MAX_NAMED: usize = 10;

/// Bytes of the output budget kept for the lines after the occurrences.
const FOOTER_BYTES: u64 = 256;

/// One occurrence: its bytes in the file's LF view, and its replacement.
struct Place {
    start: usize,
    end: usize,
    with: String,
}

/// A file holding the pattern, as found now.
struct Planned {
    rel: String,
    current: Current,
    file: TextFile,
    view: View<'static>,
    places: Vec<Place>,
}

/// Runs `replace`.
pub(crate) fn run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &ReplaceArgs,
) -> Result<ToolResult, ToolError> {
    let pattern = matcher(args)?;
    let (planned, searched, skipped) = plan(ctx, args, &pattern)?;
    let mut result = if args.apply {
        apply(ctx, args, planned, searched)?
    } else {
        dry_run(ctx, args, &planned, searched)
    };
    if let Some(skipped) = skipped
        && let Some(crate::answers::result::Block::Text(text)) = result.content.first_mut()
    {
        text.push('\n');
        text.push_str(&skipped);
    }
    Ok(result)
}

/// The pattern, compiled: a literal unless `regex`, `^` and `$` at every
/// line.
fn matcher(args: &ReplaceArgs) -> Result<Regex, ToolError> {
    let source = if args.regex {
        args.pattern.replace("\r\n", "\n")
    } else {
        regex::escape(&args.pattern.replace("\r\n", "\n"))
    };
    RegexBuilder::new(&source)
        .multi_line(true)
        .size_limit(MAX_PATTERN_BYTES)
        .build()
        .map_err(|err| ToolError::InvalidArgument {
            tool: Tool::Replace,
            name: "pattern",
            expected: "a regular expression in Rust's regex syntax (or regex=false for literal text)",
            got: err.to_string().lines().last().unwrap_or_default().to_owned(),
        })
}

/// The files under the call's path that hold the pattern, in the walk's
/// order, with the files searched and what the rules left out (said).
fn plan<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    args: &ReplaceArgs,
    pattern: &Regex,
) -> Result<(Vec<Planned>, u64, Option<String>), ToolError> {
    let path = args.path.as_deref().unwrap_or(".");
    let (target, meta) = repair::existing(ctx.config, ctx.fs, path, &ctx.state.repairs)?;
    let (files, searched, skipped) = if meta.kind == FileKind::Directory {
        let narrowing = Narrowing {
            glob: args.glob.clone(),
            file_type: None,
            no_ignore: args.no_ignore,
            hidden: args.hidden,
        };
        let rules = Rules::new(ctx.fs, narrowing, &ctx.config.search_exclude, &target.rel)
            .map_err(|err| err.for_tool(Tool::Replace, "glob"))?;
        let mut walk = Walk::new(ctx.fs, rules);
        let mut files = Vec::new();
        let _ = walk.run(&target.rel, &mut |file, _| {
            if file.kind == FileKind::File {
                files.push(file.rel.clone());
            }
            std::ops::ControlFlow::Continue(())
        });
        let skipped = (!walk.skipped.is_empty()).then(|| walk.skipped.to_string());
        (files, walk.files, skipped)
    } else {
        (vec![target.rel.clone()], 1, None)
    };
    let replacement = args.replacement.replace("\r\n", "\n");
    let mut planned = Vec::new();
    let mut unread = Vec::new();
    for rel in files {
        let found = match found_in(ctx, &rel, pattern, args.regex, &replacement) {
            Found::Holds(found) => *found,
            Found::Not => continue,
            Found::Unread => {
                unread.push(rel);
                continue;
            }
        };
        if planned.len() == MAX_REPLACE_FILES {
            return Err(ToolError::Replace(ReplaceError::TooManyFiles {
                max: MAX_REPLACE_FILES,
            }));
        }
        planned.push(found);
    }
    let skipped = match (skipped, unread.as_slice()) {
        (skipped, []) => skipped,
        (skipped, unread) => {
            let mut said = skipped.map(|s| s + "\n").unwrap_or_default();
            let named: Vec<&str> = unread.iter().take(MAX_NAMED).map(String::as_str).collect();
            let more = unread.len().saturating_sub(MAX_NAMED);
            let _ = write!(
                said,
                "[not searched: {} {} over max_edit_bytes, not text, or unreadable: {}{}]",
                unread.len(),
                if unread.len() == 1 { "file" } else { "files" },
                named.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
            Some(said)
        }
    };
    Ok((planned, searched, skipped))
}

/// What a file searched gave.
enum Found {
    /// Occurrences.
    Holds(Box<Planned>),
    /// None.
    Not,
    /// It could not be searched: too large, not text, or unreadable.
    Unread,
}

/// The occurrences in `rel`, when it is a text file within the edit cap
/// that holds any.
fn found_in<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    rel: &str,
    pattern: &Regex,
    expand: bool,
    replacement: &str,
) -> Found {
    let Ok(meta) = ctx.fs.stat(rel) else {
        return Found::Unread;
    };
    let max = ctx.config.max_edit_bytes;
    if meta.kind != FileKind::File {
        return Found::Not;
    }
    if meta.size > max {
        return Found::Unread;
    }
    let Ok(current) = guard::load(ctx.fs, rel, rel, meta, ctx.config.chunk_bytes, max) else {
        return Found::Unread;
    };
    if current.kind != crate::view::sniff::Kind::Text {
        // A binary file is not text to replace in, nor worth naming.
        return Found::Not;
    }
    let Some(file) = current
        .bytes
        .as_deref()
        .and_then(|bytes| TextFile::decode_as(bytes, None).ok())
    else {
        return Found::Unread;
    };
    let view = View::counted(&file.text, file.newlines).into_owned();
    let places: Vec<Place> = pattern
        .captures_iter(&view.text)
        .filter_map(|caps| {
            let whole = caps.get(0)?;
            if whole.is_empty() {
                return None;
            }
            let mut with = String::new();
            if expand {
                caps.expand(replacement, &mut with);
            } else {
                with.push_str(replacement);
            }
            Some(Place {
                start: whole.start(),
                end: whole.end(),
                with,
            })
        })
        .collect();
    if places.is_empty() {
        return Found::Not;
    }
    Found::Holds(Box::new(Planned {
        rel: rel.to_owned(),
        current,
        file,
        view,
        places,
    }))
}

/// The dry run's answer; the lines it shows count as read.
fn dry_run<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &ReplaceArgs,
    planned: &[Planned],
    searched: u64,
) -> ToolResult {
    let budget = ctx.config.budget_bytes().saturating_sub(FOOTER_BYTES);
    let max_chars = usize::try_from(ctx.config.max_line_chars).unwrap_or(usize::MAX);
    let total: u64 = planned.iter().map(|p| p.places.len() as u64).sum();
    let mut run = DryRun {
        pattern: args.pattern.clone(),
        files: Vec::new(),
        total,
        total_files: planned.len() as u64,
        searched,
        cut_at: None,
    };
    let mut used = 0u64;
    let mut number = 0u64;
    for plan in planned {
        let index = LineIndex::new(&plan.view.text);
        let mut shown = PlannedFile {
            path: plan.rel.clone(),
            version: version_of(&plan.current).to_string(),
            occurrences: Vec::new(),
        };
        let mut seen = Vec::new();
        for place in &plan.places {
            number += 1;
            if run.cut_at.is_some() {
                continue;
            }
            let (occurrence, lines) = occurrence(&plan.view.text, &index, place, number, max_chars);
            let cost = occurrence
                .before
                .iter()
                .chain(&occurrence.after)
                .map(|line| line.len() as u64 + 2)
                .sum::<u64>()
                + 16;
            if used + cost > budget && number > 1 {
                run.cut_at = Some(number);
                continue;
            }
            used += cost;
            seen.push(lines);
            shown.occurrences.push(occurrence);
        }
        if !shown.occurrences.is_empty() {
            observe(ctx, plan, &seen);
            run.files.push(shown);
        }
    }
    let text = run.to_string();
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    ToolResult::from_text(
        text,
        serde_json::json!({
            "kind": "replace",
            "dry_run": true,
            "occurrences": total,
            "files": planned.len(),
            "searched": searched,
            "versions": planned
                .iter()
                .map(|p| (p.rel.clone(), version_of(&p.current).to_string().into()))
                .collect::<serde_json::Map<_, _>>(),
            "truncated": run.cut_at.is_some(),
            "estimated_tokens": tokens,
        }),
    )
}

/// Occurrence `number` at `place`, its lines before and after (each cut
/// to `max_chars`), and the lines it is on.
fn occurrence(
    text: &str,
    index: &LineIndex,
    place: &Place,
    number: u64,
    max_chars: usize,
) -> (Occurrence, (u64, u64)) {
    let first = index.line_of(place.start);
    let last = index.line_of(place.end - 1).max(first);
    let (start, end) = index.lines_span(text.len(), first, last);
    let region = text[start..end]
        .strip_suffix('\n')
        .unwrap_or(&text[start..end]);
    let replaced = format!(
        "{}{}{}",
        &text[start..place.start],
        place.with,
        &text[place.end..start + region.len().max(place.end - start)]
    );
    let cut = |line: &str| -> String {
        if line.chars().count() > max_chars {
            let kept: String = line.chars().take(max_chars).collect();
            format!("{kept} [line cut]")
        } else {
            line.to_owned()
        }
    };
    let occurrence = Occurrence {
        number,
        line: first,
        before: region.split('\n').map(cut).collect(),
        after: replaced.split('\n').map(cut).collect(),
    };
    (occurrence, (first, last))
}

/// Counts the lines a dry run showed of `plan` as read, as a search's are.
fn observe<F: HostFs + ?Sized>(ctx: &mut Ctx<'_, F>, plan: &Planned, lines: &[(u64, u64)]) {
    let total = line_count(&plan.file.text);
    for &(first, last) in lines {
        let shown = Observation {
            size: plan.current.len,
            mtime_ns: plan.current.meta.mtime_ns,
            fingerprint: Some(plan.current.fingerprint),
            lines: Some((first, last)),
            total: Some(total),
            style: plan.file.style,
            content: false,
            text: None,
        };
        let key = ReadKey::lines(first, last);
        let call = ctx.state.calls;
        ctx.state.ledger.observe(&plan.rel, &shown, call, key);
    }
    if let Some(bytes) = &plan.current.bytes {
        ctx.state.keep_view(&plan.rel, bytes, ctx.config);
    }
}

/// Replaces the occurrences `args` chooses, in one change of every file
/// they are in, once every such file is as the session saw it.
fn apply<F: HostFs + ?Sized>(
    ctx: &mut Ctx<'_, F>,
    args: &ReplaceArgs,
    planned: Vec<Planned>,
    searched: u64,
) -> Result<ToolResult, ToolError> {
    let total: u64 = planned.iter().map(|p| p.places.len() as u64).sum();
    if total == 0 {
        return Err(ToolError::Replace(ReplaceError::Nothing {
            pattern: args.pattern.clone(),
            searched,
        }));
    }
    let chosen = |number: u64| {
        args.occurrences
            .as_ref()
            .is_none_or(|numbers| numbers.contains(&number))
    };
    if let Some(number) = args
        .occurrences
        .iter()
        .flatten()
        .find(|&&number| number > total)
    {
        return Err(ToolError::Replace(ReplaceError::NoSuchOccurrence {
            number: *number,
            total,
        }));
    }
    let count = (1..=total).filter(|&number| chosen(number)).count() as u64;
    if Some(count) != args.expected_count {
        return Err(ToolError::Replace(ReplaceError::Count {
            expected: args.expected_count.unwrap_or_default(),
            found: count,
        }));
    }
    // Every file holding the pattern must be as the session saw it (the
    // dry run): one changed or new elsewhere moves the numbers too.
    let moved: Vec<String> = planned
        .iter()
        .filter(|plan| {
            ctx.state
                .ledger
                .get(&plan.rel)
                .is_none_or(|record| plan.current.change_since(record).is_some())
        })
        .map(|plan| plan.rel.clone())
        .collect();
    if !moved.is_empty() {
        return Err(ToolError::Replace(ReplaceError::Moved { paths: moved }));
    }
    let mut taken = chosen_places(planned, &chosen);
    let mut steps = Vec::with_capacity(taken.len());
    let mut lines = Vec::with_capacity(taken.len());
    let mut notes = Vec::new();
    for plan in &mut taken {
        let (step, at, note) = step(ctx, plan)?;
        steps.push(step);
        lines.push(at);
        if let Some(note) = note {
            notes.push((plan.rel.clone(), note));
        }
    }
    let metas = batch::commit_all(ctx, &steps, Tool::Replace)?;
    let files = taken
        .iter()
        .zip(lines)
        .zip(&metas)
        .map(|((plan, at), meta)| {
            let version = ctx
                .state
                .ledger
                .get(&plan.rel)
                .and_then(|record| record.fingerprint)
                .zip(meta.as_ref())
                .map(|(hash, meta)| crate::memory::version::Version {
                    hash,
                    size: meta.size,
                })
                .map_or_else(String::new, |v| v.to_string());
            (plan.rel.clone(), at, version)
        })
        .collect();
    let done = Replaced { files, count };
    let mut text = done.to_string();
    for (path, note) in &notes {
        let _ = write!(text, "\n{path}: {note}");
    }
    let tokens = ctx.config.estimate_tokens(text.len() as u64);
    Ok(ToolResult::from_text(
        text,
        serde_json::json!({
            "kind": "replace",
            "dry_run": false,
            "replaced": count,
            "files": taken.len(),
            "estimated_tokens": tokens,
        }),
    ))
}

/// The files of `planned` with only the places `chosen` takes, by their
/// numbers from 1 in order; files left with none are left out.
fn chosen_places(planned: Vec<Planned>, chosen: &dyn Fn(u64) -> bool) -> Vec<Planned> {
    let mut number = 0u64;
    let mut taken = Vec::new();
    for plan in planned {
        let places: Vec<Place> = plan
            .places
            .iter()
            .filter_map(|place| {
                number += 1;
                chosen(number).then(|| Place {
                    start: place.start,
                    end: place.end,
                    with: place.with.clone(),
                })
            })
            .collect();
        if !places.is_empty() {
            taken.push(Planned { places, ..plan });
        }
    }
    taken
}

/// The step that writes `plan` with its places replaced, the lines the
/// places are on now, and a note when the file no longer parses.
fn step<F: HostFs + ?Sized>(
    ctx: &Ctx<'_, F>,
    plan: &mut Planned,
) -> Result<(Step, Vec<u64>, Option<String>), ToolError> {
    let spans: Vec<(usize, usize)> = plan.places.iter().map(|p| (p.start, p.end)).collect();
    let with: Vec<String> = plan.places.iter().map(|p| p.with.clone()).collect();
    let mut seen = ctx
        .state
        .ledger
        .get(&plan.rel)
        .map(|record| record.seen.clone())
        .unwrap_or_default();
    let index = LineIndex::new(&plan.view.text);
    for place in plan.places.iter().rev() {
        let first = index.line_of(place.start);
        let removed = index.line_of(place.end) - first + 1;
        let added = place.with.matches('\n').count() as u64 + 1;
        seen.replace(first, removed, added);
    }
    let old_text = plan.file.text.clone();
    let placed = plan
        .view
        .replace(&spans, &with, plan.file.style.crlf_dominant, &mut []);
    let after_index = LineIndex::new(&plan.view.text);
    let at = placed
        .iter()
        .map(|&(start, _)| after_index.line_of(start))
        .collect::<std::collections::BTreeSet<u64>>()
        .into_iter()
        .collect();
    let new_text = plan.view.file_text();
    let note = syntax_check::check(ctx.config, &plan.rel, &old_text, &new_text);
    syntax_check::refuse_broken(ctx.config, &plan.rel, note.as_ref())?;
    let style = Style::of_text(&new_text, plan.file.style.encoding, plan.file.style.bom);
    let bytes = style
        .encode(&new_text)
        .map_err(|err| crate::answers::refusal::Refusal::unmappable(&plan.rel, &err))?;
    let step = Step {
        rel: plan.rel.clone(),
        path: plan.rel.clone(),
        before: plan.current.bytes.clone(),
        precondition: plan.current.precondition(),
        after: After::Bytes {
            bytes: bytes.into_owned(),
            style,
            total_lines: line_count(&new_text),
            seen,
        },
    };
    Ok((step, at, note.map(|n| n.to_string())))
}

#[cfg(test)]
mod tests {
    use crate::fs::memory::MemFs;
    use crate::tools::session::Session;

    fn session(files: &[(&str, &str)], config: &str) -> Session<MemFs> {
        let fs = MemFs::new();
        for (path, text) in files {
            fs.add_file(path, text.as_bytes());
        }
        Session::open(config, fs).unwrap()
    }

    #[test]
    fn a_file_holding_the_pattern_since_the_dry_run_refuses_the_apply_it_would_renumber() {
        let mut s = session(&[("a.txt", "x\n"), ("b.txt", "x\n")], "{}");
        s.call("replace", r#"{"pattern": "x", "replacement": "y"}"#);
        s.fs().add_file("a0.txt", b"x\n");
        let apply = r#"{"pattern": "x", "replacement": "y", "apply": true, "occurrences": [2], "expected_count": 1}"#;
        let refused = s.call("replace", apply);
        assert_eq!(refused.metadata["error"], "stale", "{}", refused.text());
        assert!(refused.text().contains("a0.txt"), "{}", refused.text());
        assert_eq!(s.fs().contents("b.txt").unwrap(), b"x\n");
    }

    #[test]
    fn files_too_large_to_change_are_named_not_skipped_silently() {
        let big = "foo\n".repeat(40);
        let mut s = session(
            &[("big.txt", &big), ("s.txt", "foo\n")],
            r#"{"max_edit_bytes": 100}"#,
        );
        let dry = s.call("replace", r#"{"pattern": "foo", "replacement": "bar"}"#);
        assert!(
            dry.text().ends_with(
                "[not searched: 1 file over max_edit_bytes, not text, or unreadable: big.txt]"
            ),
            "{}",
            dry.text()
        );
    }
}
